package model

import (
	"sort"
	"strings"
)

// Event is something that happened at a frame. A replay holds one per
// record of its file (a 4 MB Slippi file has 80,000), so the record is
// small and holds no pointers: the garbage collector never scans the
// array, and memory grows with the file, not with a graph of strings.
// Names are small integers into the replay's tables (Replay.Kinds,
// Replay.Marks, Replay.StreamNames); the summary and the fields are made
// on demand by the format (Replay.Summarize, Replay.Detail) from the
// event's bytes or from the format's own typed arrays, which Ref indexes.
type Event struct {
	Off    int64    // where the event's bytes start in its stream
	Len    int64    // how many bytes encode it
	Ref    int32    // the decoder's own index, for Summarize and Detail
	Frame  int32    // timeline index
	Player int16    // index into Replay.Players, -1 when none
	Kind   KindID   // index into Replay.Kinds
	Stream StreamID // 0: the file; k: the inner stream Replay.StreamNames[k-1]
	Flags  Flags    // Notable, Partial and the format's marks
}

// KindID is an event's kind: an index into Replay.Kinds.
type KindID uint16

// StreamID says which bytes an event's offset is in: 0 the file, k the
// inner stream Replay.StreamNames[k-1] (an SC2 archive member).
type StreamID uint16

// Flags are an event's marks, one bit each.
type Flags uint16

const (
	// Notable: worth a tick on the timeline (a stock lost, the game's end,
	// a checkpoint).
	Notable Flags = 1 << iota
	// Partial: cut off by the end of the data (FlagPartial).
	Partial
	// MarkBase is the first of the format's own marks: bit MarkBase<<k is
	// named Replay.Marks[k] ("rolled back", "past end").
	MarkBase
)

// FlagPartial marks an event cut off by the end of the data: its Span runs
// to the end, its fields are the ones that fit, and its last field says how
// many bytes of how many were there. The inspector shows it where the break
// is, instead of bytes that no event owns. It is the name of the Partial
// flag.
const FlagPartial = "partial"

// Mark is the flag bit of the format's k-th mark, Replay.Marks[k].
func Mark(k int) Flags { return MarkBase << k }

// KindName is the name of an event kind id.
func (r *Replay) KindName(k KindID) string {
	if int(k) < len(r.Kinds) {
		return r.Kinds[k]
	}
	return ""
}

// StreamName is the name of a stream id: "" for the file.
func (r *Replay) StreamName(s StreamID) string {
	if s > 0 && int(s) <= len(r.StreamNames) {
		return r.StreamNames[s-1]
	}
	return ""
}

// StreamOf is the id of a stream name, and false when no event can be in
// it ("" is the file, id 0).
func (r *Replay) StreamOf(name string) (StreamID, bool) {
	if name == "" {
		return 0, true
	}
	for i, n := range r.StreamNames {
		if n == name {
			return StreamID(i + 1), true
		}
	}
	return 0, false
}

// EventKind is the name of event i's kind: "pre", "chat", "checkpoint".
func (r *Replay) EventKind(i int) string {
	if i < 0 || i >= len(r.Events) {
		return ""
	}
	return r.KindName(r.Events[i].Kind)
}

// EventSpan is where event i's bytes are: in the file, or in an inner
// stream.
func (r *Replay) EventSpan(i int) Span {
	if i < 0 || i >= len(r.Events) {
		return Span{}
	}
	ev := &r.Events[i]
	return Span{Stream: r.StreamName(ev.Stream), Off: ev.Off, Len: ev.Len}
}

// EventNotable reports whether event i is worth a tick on the timeline.
func (r *Replay) EventNotable(i int) bool {
	if i < 0 || i >= len(r.Events) {
		return false
	}
	return r.Events[i].Flags&Notable != 0
}

// EventPartial reports whether event i was cut off by the end of the data.
func (r *Replay) EventPartial(i int) bool {
	if i < 0 || i >= len(r.Events) {
		return false
	}
	return r.Events[i].Flags&Partial != 0
}

// EventFlag names event i's marks ("rolled back", FlagPartial), joined by
// ", " when there are several; empty when there are none.
func (r *Replay) EventFlag(i int) string {
	if i < 0 || i >= len(r.Events) {
		return ""
	}
	return r.FlagName(r.Events[i].Flags)
}

// FlagName names the marks among flags (Notable is no mark).
func (r *Replay) FlagName(f Flags) string {
	f &^= Notable
	if f == 0 {
		return ""
	}
	var names []string
	if f&Partial != 0 {
		names = append(names, FlagPartial)
	}
	for k, n := range r.Marks {
		if f&Mark(k) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// EventFields returns an event's full fields.
func (r *Replay) EventFields(i int) []Field {
	if i < 0 || i >= len(r.Events) {
		return nil
	}
	if r.Detail == nil {
		return nil
	}
	return r.Detail(&r.Events[i])
}

// EventSummary returns an event's one-line summary.
func (r *Replay) EventSummary(i int) string {
	if i < 0 || i >= len(r.Events) {
		return ""
	}
	if r.Summarize == nil {
		return ""
	}
	return r.Summarize(&r.Events[i])
}

// spanLess orders events a and b by stream, then offset: the order of
// the offset index (EventAt).
func (r *Replay) spanLess(a, b int32) bool {
	ea, eb := &r.Events[a], &r.Events[b]
	if ea.Stream != eb.Stream {
		return ea.Stream < eb.Stream
	}
	return ea.Off < eb.Off
}

// EventAt returns the index of the event whose span holds the byte at off
// in the stream, or -1. The smallest enclosing span wins.
func (r *Replay) EventAt(stream string, off int64) int {
	r.offsetOnce.Do(func() {
		idx := make([]int32, 0, len(r.Events))
		for i := range r.Events {
			if r.Events[i].Len > 0 {
				idx = append(idx, int32(i))
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return r.spanLess(idx[a], idx[b]) })
		r.byOffset = idx
		r.offsetReady.Store(true)
	})
	id, ok := r.StreamOf(stream)
	if !ok {
		return -1
	}
	idx := r.byOffset
	// first span starting after off
	k := sort.Search(len(idx), func(i int) bool {
		e := &r.Events[idx[i]]
		if e.Stream != id {
			return e.Stream > id
		}
		return e.Off > off
	})
	best, bestLen := -1, int64(-1)
	// spans before k start at or before off; look back a little for the
	// smallest one that still covers off (events rarely nest deeply)
	for i := k - 1; i >= 0 && i >= k-64; i-- {
		e := &r.Events[idx[i]]
		if e.Stream != id {
			break
		}
		if off >= e.Off && off < e.End() && (best < 0 || e.Len < bestLen) {
			best, bestLen = int(idx[i]), e.Len
		}
	}
	return best
}

// End is the offset just past the event's bytes.
func (e *Event) End() int64 { return e.Off + e.Len }
