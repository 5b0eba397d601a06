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
	Frame   int    // timeline index
	Player  int    // index into Replay.Players, -1 when none
	Kind    string // short kind, "pre", "post", "item", "chat", "note", "join"
	Summary string // one line for the events pane and search; see Replay.EventSummary
	Span    Span   // the bytes that encode the event
	Notable bool   // worth a tick on the timeline: stock lost, game end, checkpoint
	Flag    string // a mark such as "rolled back" or FlagPartial; empty normally
	Ref     int    // the decoder's own index, for Detail
	Fields  []Field

	KindID KindID   // index into Replay.Kinds
	Stream StreamID // 0: the file; k: the inner stream Replay.StreamNames[k-1]
	Flags  Flags    // Notable, Partial and the format's marks
	Off    int64    // where the event's bytes start in its stream
	Len    int64    // how many bytes encode it
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

// lean reports whether the decoder filled the small record (Kind through
// Len) rather than the fields with names (Kind, Span, ...).
func (r *Replay) lean() bool { return r.Kinds != nil }

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
	if !r.lean() {
		return r.Events[i].Kind
	}
	return r.KindName(r.Events[i].KindID)
}

// EventSpan is where event i's bytes are: in the file, or in an inner
// stream.
func (r *Replay) EventSpan(i int) Span {
	if i < 0 || i >= len(r.Events) {
		return Span{}
	}
	ev := &r.Events[i]
	if !r.lean() {
		return ev.Span
	}
	return Span{Stream: r.StreamName(ev.Stream), Off: ev.Off, Len: ev.Len}
}

// EventNotable reports whether event i is worth a tick on the timeline.
func (r *Replay) EventNotable(i int) bool {
	if i < 0 || i >= len(r.Events) {
		return false
	}
	if !r.lean() {
		return r.Events[i].Notable
	}
	return r.Events[i].Flags&Notable != 0
}

// EventPartial reports whether event i was cut off by the end of the data.
func (r *Replay) EventPartial(i int) bool {
	if i < 0 || i >= len(r.Events) {
		return false
	}
	if !r.lean() {
		return r.Events[i].Flag == FlagPartial
	}
	return r.Events[i].Flags&Partial != 0
}

// EventFlag names event i's marks ("rolled back", FlagPartial), joined by
// ", " when there are several; empty when there are none.
func (r *Replay) EventFlag(i int) string {
	if i < 0 || i >= len(r.Events) {
		return ""
	}
	if !r.lean() {
		return r.Events[i].Flag
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
	ev := &r.Events[i]
	if !r.lean() && ev.Fields != nil || r.Detail == nil {
		return ev.Fields
	}
	return r.Detail(ev)
}

// EventSummary returns an event's one-line summary.
func (r *Replay) EventSummary(i int) string {
	if i < 0 || i >= len(r.Events) {
		return ""
	}
	ev := &r.Events[i]
	if !r.lean() && ev.Summary != "" || r.Summarize == nil {
		return ev.Summary
	}
	return r.Summarize(ev)
}

// spanKey is what the offset index sorts event i by: its stream and
// offset, and its length.
func (r *Replay) spanKey(i int) (stream string, off, n int64) {
	s := r.EventSpan(i)
	return s.Stream, s.Off, s.Len
}

// spanLess orders events a and b by stream, then offset.
func (r *Replay) spanLess(a, b int) bool {
	sa, oa, _ := r.spanKey(a)
	sb, ob, _ := r.spanKey(b)
	if sa != sb {
		return sa < sb
	}
	return oa < ob
}

// EventAt returns the index of the event whose span holds the byte at off
// in the stream, or -1. The smallest enclosing span wins.
func (r *Replay) EventAt(stream string, off int64) int {
	r.offsetOnce.Do(func() {
		idx := make([]int, 0, len(r.Events))
		for i := range r.Events {
			if _, _, n := r.spanKey(i); n > 0 {
				idx = append(idx, i)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return r.spanLess(idx[a], idx[b]) })
		r.byOffset = idx
		r.offsetReady.Store(true)
	})
	idx := r.byOffset
	// first span starting after off
	k := sort.Search(len(idx), func(i int) bool {
		s, o, _ := r.spanKey(idx[i])
		if s != stream {
			return s > stream
		}
		return o > off
	})
	best, bestLen := -1, int64(-1)
	// spans before k start at or before off; look back a little for the
	// smallest one that still covers off (events rarely nest deeply)
	for i := k - 1; i >= 0 && i >= k-64; i-- {
		s, o, n := r.spanKey(idx[i])
		if s != stream {
			break
		}
		if off >= o && off < o+n && (best < 0 || n < bestLen) {
			best, bestLen = idx[i], n
		}
	}
	return best
}

// End is the offset just past the event's bytes.
func (e *Event) End() int64 { return e.Off + e.Len }
