package osr

import (
	"fmt"
	"math/bits"

	"rewind/model"
)

// change is a key going down or up between two input frames.
type change struct {
	frame int32 // the frame where the key is first (or no longer) held
	pair  int32 // the release of a press, the press of a release; -1 when none
	key   uint8 // bit of keysOf
	down  bool
}

// keyChanges finds every press and release, pairing each press with its
// release. A key held at the first frame is pressed there; one held at the
// last is never released.
func (v *view) keyChanges() {
	mode := v.d.h.mode
	v.changes = make([]change, 0, v.d.changes) // counted and paid with the frames (payBuild)
	var open [32]int32
	for i := range open {
		open[i] = -1
	}
	var prev uint32
	for i := range v.fr {
		k := keysOf(mode, &v.fr[i])
		// the keys let go first, then the keys pressed: "K2 up, M2 down"
		for _, set := range [2]uint32{prev &^ k, k &^ prev} {
			for ; set != 0; set &= set - 1 {
				b := bits.TrailingZeros32(set)
				c := change{frame: int32(i), key: uint8(b), down: k&(1<<b) != 0, pair: -1}
				idx := int32(len(v.changes))
				if c.down {
					open[b] = idx
				} else if p := open[b]; p >= 0 {
					c.pair = p
					v.changes[p].pair = idx
					open[b] = -1
				}
				v.changes = append(v.changes, c)
			}
		}
		prev = k
	}
}

// evKind is what an event is; the index into evKindNames, the replay's
// Kinds.
type evKind = model.KindID

const (
	evPress evKind = iota
	evRelease
	evPlaceholder
	evSeed
	evBad
	evCut
)

var evKindNames = []string{"press", "release", "placeholder", "seed", "bad record", "cut record"}

// sFrames is the stream events are in: the frames text, the replay's
// first StreamNames.
const sFrames model.StreamID = 1

var spEvent = [...]evKind{spPlaceholder: evPlaceholder, spSeed: evSeed, spBad: evBad, spCut: evCut}

// event is the one place events are made: the kind, the frame, and Ref,
// an index into the typed arrays (v.changes for presses and releases,
// d.recs.specials for the records that are no input). Summaries and fields
// are made on demand from Ref (summary, detail), never stored.
func (v *view) event(kind evKind, frame, ref int) model.Event {
	e := model.Event{Frame: int32(frame), Player: 0, Kind: kind, Ref: int32(ref), Stream: sFrames}
	switch kind {
	case evPress, evRelease:
		f := &v.fr[v.changes[ref].frame]
		e.Off, e.Len = int64(f.off), int64(f.n)
	default:
		s := &v.d.recs.specials[ref]
		e.Off, e.Len = int64(s.off), int64(s.n)
		e.Player = -1 // the file's own records, nobody's input
		if kind == evBad || kind == evCut {
			e.Flags |= model.Notable
		}
		if kind == evCut {
			e.Flags |= model.Partial
		}
	}
	return e
}

// events lists the key changes and the records that are no input in
// frame order; within a frame, the records before it come first.
func (v *view) events() []model.Event {
	v.keyChanges()
	sp := v.d.recs.specials
	n := len(v.changes) + len(sp)
	count := len(v.mono)
	if n == 0 || count == 0 {
		return nil
	}
	out := make([]model.Event, 0, n) // paid with the frames (payBuild)
	k := 0
	for ci := range v.changes {
		c := &v.changes[ci]
		for k < len(sp) && int(sp[k].at) <= int(c.frame) {
			out = append(out, v.event(spEvent[sp[k].kind], int(sp[k].at), k))
			k++
		}
		kind := evRelease
		if c.down {
			kind = evPress
		}
		out = append(out, v.event(kind, int(c.frame), ci))
	}
	for ; k < len(sp); k++ {
		// the seed and what follows the last input: at the last frame
		out = append(out, v.event(spEvent[sp[k].kind], min(int(sp[k].at), count-1), k))
	}
	return out
}

// summary is Replay.Summarize: one line for an event, from its Ref.
func (v *view) summary(ev *model.Event) string {
	ref := int(ev.Ref)
	switch ev.Kind {
	case evPress, evRelease:
		if ref < 0 || ref >= len(v.changes) {
			return ""
		}
		c := &v.changes[ref]
		name := v.keyName(c.key)
		if c.down {
			if c.pair < 0 {
				return name + " down (held to the end)"
			}
			return fmt.Sprintf("%s down for %s", name, v.heldText(c))
		}
		if c.pair < 0 {
			return name + " up"
		}
		return fmt.Sprintf("%s up after %s", name, v.heldText(c))
	}
	if ref < 0 || ref >= len(v.d.recs.specials) {
		return ""
	}
	s := &v.d.recs.specials[ref]
	switch s.kind {
	case spPlaceholder:
		return fmt.Sprintf("placeholder record %d (256, -500), w %d: no input", s.index, s.w)
	case spSeed:
		return fmt.Sprintf("RNG seed %d (the -12345 record): no input", s.z)
	case spBad:
		return fmt.Sprintf("record %d does not read: %s", s.index, s.why)
	}
	return fmt.Sprintf("record %d cut off where the stream broke (%d bytes)", s.index, s.n)
}

func (v *view) keyName(b uint8) string {
	if int(b) < len(v.keys) {
		if v.d.h.mode == modeMania {
			return "column " + v.keys[b]
		}
		return v.keys[b]
	}
	return fmt.Sprintf("key %d", b+1)
}

// held is how long a press lasted, in ms of song time; -1 when it was
// never released.
func (v *view) held(c *change) int64 {
	if c.pair < 0 {
		return -1
	}
	a, b := c, &v.changes[c.pair]
	if !a.down {
		a, b = b, a
	}
	return v.mono[b.frame] - v.mono[a.frame]
}

func (v *view) heldText(c *change) string {
	return fmt.Sprintf("%d ms", v.held(c))
}

// detail is Replay.Detail: the event's record as fields, with where the
// record's bytes are.
func (v *view) detail(ev *model.Event) []model.Field {
	ref := int(ev.Ref)
	switch ev.Kind {
	case evPress, evRelease:
		if ref < 0 || ref >= len(v.changes) {
			return nil
		}
		c := &v.changes[ref]
		fs := []model.Field{
			{Key: "key", Label: "Key", Value: v.keyName(c.key)},
			{Key: "down", Label: "Down", Value: c.down},
		}
		if d := v.held(c); d >= 0 {
			fs = append(fs, model.Field{Key: "heldSeconds", Label: "Held (s)", Value: float64(d) / 1000})
		}
		return append(fs, v.frameFields(int(c.frame))...)
	}
	if ref < 0 || ref >= len(v.d.recs.specials) {
		return nil
	}
	s := &v.d.recs.specials[ref]
	fs := []model.Field{{Key: "record", Label: "Record number", Value: int64(s.index)},
		{Key: "kind", Label: "What it is", Value: spNames[s.kind]}}
	if s.why != "" {
		fs = append(fs, model.Field{Key: "problem", Label: "Problem", Value: s.why})
	}
	fs = append(fs, v.splitRecord(int64(s.off), int64(s.n), s.w, s.x, s.y, s.z, s.kind != spBad && s.kind != spCut)...)
	return append(fs, v.lzmaField())
}

// frameFields are an input frame's values, each with its bytes in the
// text, and where the text's bytes are in the file.
func (v *view) frameFields(i int) []model.Field {
	fs := v.recordFields(i)
	if fs == nil {
		return nil
	}
	return append(fs, v.lzmaField())
}

// recordFields are an input frame's song time and its record's values.
func (v *view) recordFields(i int) []model.Field {
	if i < 0 || i >= len(v.fr) {
		return nil
	}
	f := &v.fr[i]
	fs := []model.Field{{Key: "time", Label: "Song time", Value: ms(f.t), Span: model.Span{Stream: StreamFrames, Off: int64(f.off), Len: int64(f.n)}}}
	return append(fs, v.splitRecord(int64(f.off), int64(f.n), int64(f.w), f.x, f.y, int64(f.z), true)...)
}

// splitRecord splits a record's text "w|x|y|z" into its four values.
func (v *view) splitRecord(off, n int64, w int64, x, y float64, z int64, whole bool) []model.Field {
	text := v.d.frames.text
	if off < 0 || off+n > int64(len(text)) {
		return nil
	}
	rec := text[off : off+n]
	var spans [4]model.Span
	start, k := int64(0), 0
	for i := int64(0); i <= n && k < 4; i++ {
		if i == n || rec[i] == '|' {
			spans[k] = model.Span{Stream: StreamFrames, Off: off + start, Len: i - start}
			k++
			start = i + 1
		}
	}
	labels := v.recordLabels()
	fs := []model.Field{{Key: "record", Label: "Record text", Value: string(rec), Span: model.Span{Stream: StreamFrames, Off: off, Len: n}}}
	vals := []any{w, x, y, z}
	keys := [4]string{"w", "x", "y", "z"}
	for i := 0; i < k; i++ {
		f := model.Field{Key: keys[i], Label: labels[i], Span: spans[i]}
		if whole {
			f.Value = vals[i]
		} else {
			f.Value = string(text[spans[i].Off:spans[i].End()])
		}
		if i == 3 && whole {
			probe := frame{x: x, z: int32(z)}
			f.Name = v.keysText(keysOf(v.d.h.mode, &probe))
		}
		if i == 1 && whole && v.d.h.mode == modeMania {
			probe := frame{x: x}
			f.Name = v.keysText(columns(&probe))
		}
		fs = append(fs, f)
	}
	return fs
}

// recordLabels say what w, x, y and z are in the mode.
func (v *view) recordLabels() [4]string {
	switch v.d.h.mode {
	case modeTaiko:
		return [4]string{"w (ms since the record before)", "x", "y", "z (drums: 1 left don, 2 left kat, 4 right don, 8 right kat)"}
	case modeCatch:
		return [4]string{"w (ms since the record before)", "x (the catcher, 0-512)", "y (unused)", "z (1 while dashing)"}
	case modeMania:
		return [4]string{"w (ms since the record before)", "x (the columns held, a bit each)", "y (unused)", "z"}
	}
	return [4]string{"w (ms since the record before)", "x (cursor, 0-512)", "y (cursor, 0-384)", "z (keys: M1 1, M2 2, K1 4, K2 8, smoke 16)"}
}

// lzmaField says where a record's bytes are in the file: the text is
// compressed, so they are somewhere in the LZMA member as a whole.
func (v *view) lzmaField() model.Field {
	m := &v.d.frames
	what := "the frames' LZMA member (the text is compressed, so a record's bytes are the member's as a whole)"
	if m.plain {
		what = "the frames block, stored as plain text"
	}
	return model.Field{Key: "fileBytes", Label: "In the file", Value: what, Span: at(m.off, m.n)}
}
