package osr

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"rewind/model"
)

// view is what the replay's closures read: the decode and the arrays
// built from its frames.
type view struct {
	d       *decoder
	fr      []frame
	mono    []int64  // song time per timeline frame, held non-decreasing
	changes []change // key presses and releases, in frame order
	keys    []string // the mode's keys, by bit
	back    int      // input frames whose time goes back
	firstBk int      // the first of them
}

func ms(t int64) time.Duration { return time.Duration(t) * time.Millisecond }

func (d *decoder) build(opt model.DecodeOptions) *model.Replay {
	h := &d.h
	r := &model.Replay{Format: ID, FormatName: "osu! replay"}
	if d.reached >= stVersion {
		r.Version = strconv.Itoa(int(h.version))
	}
	if d.reached >= stBeatmap && h.beatmap.present {
		r.Title = h.beatmap.s
	}
	r.Mode = modeNames[h.mode]
	if d.reached >= stMods {
		if t := d.modsText(); t != "" {
			r.Mode += " " + t
		}
	}
	r.Start = d.start()

	v := &view{d: d, fr: d.recs.frames}
	v.keys = keyNames(h.mode, v.maniaColumns())
	v.timeline(r)
	if n := len(v.mono); n > 0 && len(v.fr) > 0 {
		r.Duration = max(ms(v.mono[n-1]), 0)
	}
	failed, passed := d.outcome()
	r.Result = d.result(failed, passed)
	r.Partial = d.reached < stEnd || d.frames.err != "" || d.over || opt.HeaderOnly
	r.Players = []model.Player{d.player(failed, passed)}
	r.Header = append(d.fields, d.computed(failed, passed)...)
	r.Streams = map[string][]byte{}
	if d.frames.text != nil {
		r.Streams[StreamFrames] = d.frames.text
	}
	if d.scoreInfo.text != nil {
		r.Streams[StreamScoreInfo] = d.scoreInfo.text
	}
	r.Regions = d.regions()
	if opt.HeaderOnly {
		r.Diagnostics = d.diags
		r.Finish()
		return r
	}
	v.frameDiags()
	if opt.NoEvents {
		v.keyChanges() // the analysis reads them
	} else {
		r.Events = v.events()
	}
	r.Kinds, r.StreamNames = evKindNames, []string{StreamFrames}
	r.State = v.state
	r.Detail = v.detail
	r.Summarize = v.summary
	r.Scenes = v.scenes()
	r.Charts = v.charts()
	r.Analyze = v.analyze
	r.FrameRows = v.frameRows(r)
	r.Diagnostics = d.diags
	r.Finish()
	return r
}

func (d *decoder) framesSpan() model.Span { return at(d.frames.lenOff, 4) }

// modsText is the mods as the game writes them after a score, lazer's
// own list when its score info has one.
func (d *decoder) modsText() string {
	if l := d.info.lazerMods(); len(l) > 0 {
		return "+" + strings.Join(l, "")
	}
	return modsText(d.h.mods)
}

// timeline makes one frame per input record, timed by its song time held
// non-decreasing (a record whose w is negative goes back in time; it stays
// on the timeline at the time before it, and its own time is in its
// fields).
func (v *view) timeline(r *model.Replay) {
	fr := v.fr
	count := len(fr)
	if count == 0 && len(v.d.recs.specials) > 0 {
		count = 1 // no input, but records: one frame at 0 to show them at
	}
	v.mono = make([]int64, count) // paid with the frames (payBuild)
	hi := int64(math.MinInt64)
	for i := range fr {
		t := fr[i].t
		if i > 0 && t < hi {
			if v.back == 0 {
				v.firstBk = i
			}
			v.back++
			t = hi
		}
		hi = max(hi, t)
		v.mono[i] = t
	}
	rate := 0.0
	if count > 1 && v.mono[count-1] > v.mono[0] {
		rate = float64(count-1) / (float64(v.mono[count-1]-v.mono[0]) / 1000)
	}
	mono := v.mono
	r.Timeline = model.Timeline{
		Count: count, First: 0, Rate: rate, Unit: "frame",
		LabelOf: func(i int) string {
			if i < 0 || i >= len(fr) {
				return ""
			}
			return model.FormatDuration(ms(fr[i].t))
		},
		TimeOf: func(i int) time.Duration {
			if len(mono) == 0 {
				return 0
			}
			return ms(mono[min(max(i, 0), len(mono)-1)])
		},
	}
}

func (v *view) frameDiags() {
	if v.back > 0 {
		f := &v.fr[v.firstBk]
		v.d.diags = append(v.d.diags, model.Diagnostic{Severity: model.Info, Source: source,
			Span: model.Span{Stream: StreamFrames, Off: int64(f.off), Len: int64(f.n)}, Frame: v.firstBk, Subject: "frames",
			Message: fmt.Sprintf("%d frames go back in time (a negative w; the first at frame %d); kept on the timeline at the time before them", v.back, v.firstBk)})
	}
	// the error that says where the stream broke belongs at the last frame
	if v.d.frames.err != "" && len(v.mono) > 0 {
		for i := range v.d.diags {
			if v.d.diags[i].Subject == "frames" && v.d.diags[i].Severity == model.Error && v.d.diags[i].Frame < 0 {
				v.d.diags[i].Frame = len(v.mono) - 1
			}
		}
	}
}

// outcome says whether the play failed or passed, as far as the file
// tells: osu!lazer's score info gives the rank (F for a fail); stable
// writes no such flag, but its life bar graph ends empty when the play
// failed (unless No Fail, Autoplay or Cinema kept it going) and otherwise
// runs to the end with life left. With neither, both are false.
func (d *decoder) outcome() (failed, passed bool) {
	if d.info != nil && d.info.Rank != "" {
		return d.info.Rank == "F", d.info.Rank != "F"
	}
	if d.reached < stLife || len(d.h.lifePoints) == 0 {
		return false, false
	}
	f, _ := d.failedByLife()
	return f, !f
}

// result is one line: passed or failed when the file tells, then the grade
// and accuracy the hit counts give.
func (d *decoder) result(failed, passed bool) string {
	if d.reached < stCounts {
		return ""
	}
	acc, _, _ := accuracy(d.h.mode, d.h.counts)
	g := gradeName(d.grade(failed))
	s := fmt.Sprintf("%s %s", g, pctName(acc))
	switch {
	case failed:
		return "failed, " + pctName(acc)
	case passed:
		return "passed, " + s
	}
	return s
}

// grade is the rank: lazer's own when its score info has one, else
// stable's rules over the counts (F when the play failed).
func (d *decoder) grade(failed bool) string {
	if d.info != nil && d.info.Rank != "" {
		return d.info.Rank
	}
	if failed {
		return "F"
	}
	return grade(d.h.mode, d.h.mods, d.h.counts)
}

func (d *decoder) player(failed, passed bool) model.Player {
	p := model.Player{Slot: "P1"}
	if d.reached >= stPlayer {
		p.Name = d.h.player.s
		if f, ok := model.Find(d.fields, "playerName"); ok {
			p.Fields = append(p.Fields, f)
		}
	}
	if d.info != nil && d.info.UserID != nil && *d.info.UserID > 0 {
		// lazer's user id is the player's id on osu!, as a toon handle
		// or a connect code is elsewhere
		p.Code = strconv.FormatInt(*d.info.UserID, 10)
		p.Fields = append(p.Fields, model.Field{Key: "userId", Label: "osu! user id", Value: *d.info.UserID})
	}
	switch {
	case failed:
		p.Result = "failed"
	case passed:
		p.Result = "passed"
	}
	return p
}

// computed are the values the header's fields give together.
func (d *decoder) computed(failed, passed bool) []model.Field {
	if d.reached < stMods {
		return nil
	}
	h := &d.h
	acc, got, of := accuracy(h.mode, h.counts)
	g := d.grade(failed)
	fs := []model.Field{
		{Key: "accuracy", Label: "Accuracy (from the hit counts)", Value: acc, Name: pctName(acc)},
		{Key: "accuracyPoints", Label: "Points scored / possible", Value: got, Name: fmt.Sprintf("%g / %g", got, of)},
		{Key: "grade", Label: "Grade", Value: g, Name: gradeName(g)},
	}
	out := "unknown (no life bar graph and no lazer rank)"
	switch {
	case failed:
		out = "failed"
		if d.info != nil && d.info.Rank == "F" {
			out += " (lazer's rank F)"
		} else if _, i := d.failedByLife(); i >= 0 && h.mode == modeTaiko {
			out += fmt.Sprintf(" (the life bar ends %.0f%% full; osu!taiko passes at half)", h.lifePoints[i].life*100)
		} else if i >= 0 {
			out += fmt.Sprintf(" (the life bar is empty from %s)", model.FormatDuration(ms(h.lifePoints[i].t)))
		}
	case passed:
		out = "passed"
	}
	fs = append(fs, model.Field{Key: "outcome", Label: "Outcome", Value: out})
	return []model.Field{{Key: "computed", Label: "Computed", Fields: fs}}
}

// regions link the LZMA members in the file to the text they hold.
func (d *decoder) regions() []model.Region {
	var rs []model.Region
	for _, m := range []*member{&d.frames, &d.scoreInfo} {
		if !m.present || m.n == 0 {
			continue
		}
		g := model.Region{Span: at(m.off, m.n), Kind: "LZMA member", Label: m.what + " (LZMA alone, decompressed to " + m.stream + ")",
			Fields: memberFields(m), Link: model.Span{Stream: m.stream, Len: int64(len(m.text))}, Err: m.err}
		if m.plain {
			g.Kind, g.Label, g.Stored = "stored text", m.what+" (stored as plain text in "+m.stream+")", true
		}
		rs = append(rs, g)
	}
	return rs
}

// maniaColumns is how many columns a mania play has: the key mod's count,
// or the highest column any frame holds.
func (v *view) maniaColumns() int {
	if v.d.h.mode != modeMania {
		return 0
	}
	n := 0
	for i := range v.fr {
		if c := columns(&v.fr[i]); c != 0 {
			n = max(n, bits.Len32(c))
		}
	}
	for _, k := range []struct {
		bit uint
		n   int
	}{{15, 4}, {16, 5}, {17, 6}, {18, 7}, {19, 8}, {24, 9}, {26, 1}, {27, 3}, {28, 2}} {
		if v.d.h.mods&(1<<k.bit) != 0 {
			if v.d.h.mods&(1<<25) != 0 { // co-op: two stages
				k.n *= 2
			}
			n = max(n, k.n)
		}
	}
	return n
}

// maxColumns is the most mania columns (9K co-op).
const maxColumns = 18

// columns is the bit set of the mania columns a frame holds; 0 when x is
// no such set.
func columns(f *frame) uint32 {
	if f.x >= 0 && f.x < 1<<maxColumns && f.x == math.Trunc(f.x) {
		return uint32(f.x)
	}
	return 0
}

// keyNames are the mode's keys by bit of keysOf.
func keyNames(mode uint8, cols int) []string {
	switch mode {
	case modeTaiko:
		return []string{"left don", "left kat", "right don", "right kat"}
	case modeCatch:
		return []string{"dash"}
	case modeMania:
		ks := make([]string, cols)
		for i := range ks {
			ks[i] = strconv.Itoa(i + 1)
		}
		return ks
	}
	return []string{"M1", "M2", "K1", "K2", "smoke"}
}

// Standard's keys, by bit of keysOf.
const (
	keyM1 = 1 << iota
	keyM2
	keyK1
	keyK2
	keySmoke
)

// keysOf is the bit set of the keys a frame holds, by the mode's key
// list. Standard: pressing K1 sets M1's bit too (1|4) and K2 M2's (2|8),
// so a key bit with its mouse bit is the key alone. Catch dashes when z is
// 1, as osrparse and osu!lazer read it.
func keysOf(mode uint8, f *frame) uint32 {
	z := uint32(f.z)
	switch mode {
	case modeTaiko:
		return z & 15
	case modeCatch:
		if z == 1 {
			return 1
		}
		return 0
	case modeMania:
		return columns(f)
	}
	var k uint32
	switch {
	case z&4 != 0:
		k |= keyK1
	case z&1 != 0:
		k |= keyM1
	}
	switch {
	case z&8 != 0:
		k |= keyK2
	case z&2 != 0:
		k |= keyM2
	}
	if z&16 != 0 {
		k |= keySmoke
	}
	return k
}

// keysText names a key set: "K1+M2", "none".
func (v *view) keysText(k uint32) string {
	if k == 0 {
		return "none"
	}
	var parts []string
	for b := 0; b < 32; b++ {
		if k&(1<<b) != 0 {
			if b < len(v.keys) {
				parts = append(parts, v.keys[b])
			} else {
				parts = append(parts, strconv.Itoa(b+1))
			}
		}
	}
	if v.d.h.mode == modeMania {
		return "columns " + strings.Join(parts, " ")
	}
	return strings.Join(parts, "+")
}
