package sc2

import (
	"fmt"

	"rewind/decoders/internal/budget"
	"rewind/decoders/sc2/bitpack"
	"rewind/decoders/sc2/protocol"
	"rewind/model"
)

// A bit-packed event stream (replay.game.events, replay.message.events) is
// a run of events, each byte aligned: the game loop delta (s2protocol's
// SVarUint32: 2 bits choose 6, 14, 22 or 32 bits), the user id, the event
// id and the event's body, all typed by the build's protocol.

// rawEvent is where one event of a bit-packed stream is, with its head.
type rawEvent struct {
	loop     int32
	user     int16
	id       int16
	off, end int32
}

const rawEventSize = 16

var loopBits = [4]uint{6, 14, 22, 32}

// intOf reads an integer type, or a struct holding one (SGameUserId).
func intOf(r *bitpack.Reader, tab bitpack.Table, t int) int64 {
	ty := &tab[t]
	switch {
	case ty.Kind == bitpack.KInt:
		return r.Int(ty.Offset, ty.Bits)
	case ty.Kind == bitpack.KStruct && len(ty.Fields) == 1:
		return intOf(r, tab, ty.Fields[0].Type)
	}
	r.Fail("type %d is a %v, expected an integer", t, ty.Kind)
	return 0
}

// eventTable is what reads one kind of event stream with one protocol.
type eventTable struct {
	p      *protocol.Protocol
	idType int
	events []protocol.Event
}

func gameTable(p *protocol.Protocol) eventTable {
	return eventTable{p: p, idType: p.GameID, events: p.Game}
}

func messageTable(p *protocol.Protocol) eventTable {
	return eventTable{p: p, idType: p.MessageID, events: p.Message}
}

// head reads what precedes an event's body.
func (et eventTable) head(r *bitpack.Reader) (delta, user, id int64) {
	delta = int64(r.Bits(loopBits[r.Bits(2)]))
	if et.p.User < 0 {
		user = int64(r.Bits(5)) // Wings of Liberty: 5 bits, no type
	} else {
		user = intOf(r, et.p.Types, et.p.User)
	}
	id = intOf(r, et.p.Types, et.idType)
	return
}

// event is the table entry of an event id; ok false when the build has
// no event of that id.
func (et eventTable) event(id int64) (protocol.Event, bool) {
	if id < 0 || id >= int64(len(et.events)) || et.events[id].Type < 0 {
		return protocol.Event{}, false
	}
	return et.events[id], true
}

// readEvents passes over every event of a stream, recording where each is.
// It stops at the first event that does not read and returns its error
// (nil when the stream reads to its last byte).
func (et eventTable) readEvents(b []byte, out []rawEvent) ([]rawEvent, error) {
	r := bitpack.New(b)
	loop := int64(0)
	for !r.Done() {
		off := r.Pos()
		delta, user, id := et.head(r)
		loop += delta
		if r.Failed() {
			return out, r.Err()
		}
		e, ok := et.event(id)
		if !ok {
			return out, &bitpack.Error{Off: off, Msg: fmt.Sprintf("event id %d is not in the table of base build %d", id, et.p.Base)}
		}
		r.Skip(et.p.Types, e.Type)
		if r.Failed() {
			return out, r.Err()
		}
		r.ByteAlign()
		if loop > 1<<31-1 || user > 1<<15-1 || user < 0 {
			return out, &bitpack.Error{Off: off, Msg: fmt.Sprintf("game loop %d or user id %d out of range", loop, user)}
		}
		if len(out) == cap(out) {
			// more events than the first guess: room for the most the
			// stream can hold (an event takes 3 bytes at least), which
			// pickEvents paid for
			out = append(make([]rawEvent, 0, len(b)/3+1), out...)
		}
		out = append(out, rawEvent{loop: int32(loop), user: int16(user), id: int16(id), off: int32(off), end: int32(r.Pos())})
	}
	return out, nil
}

// maxLayouts is how many distinct layouts a stream is tried with before
// the decoder settles for the one that read furthest: the right table of a
// build without one is a near neighbour (15405's files read with 16561's,
// four tables away).
const maxLayouts = 12

// pickedStream is the layout chosen for an event stream and what it read.
type pickedStream struct {
	table  eventTable
	events []rawEvent
	err    error // where the chosen layout stopped; nil when it read the whole stream
	tried  int   // layouts tried
}

// pickEvents reads an event stream with the table of the base build and,
// when that does not read it to its last byte, with its neighbours' in
// order of distance (each distinct layout once): the first that reads the
// whole stream is taken; when none does, the one that read the most events
// before failing. Each trial pays the budget a step per byte.
func pickEvents(b []byte, base int, stream string, bud *budget.Budget, kind func(*protocol.Protocol) eventTable, key func(*protocol.Protocol) string) (pickedStream, error) {
	// An event takes 3 bytes at least (20 bits of head, then aligned).
	// The budget pays twice for the most events the stream can hold: the
	// buffer grows to that room when its first guess (an 8th of it at
	// most) is full, and fit may copy up to half of it to a slice of its
	// own, all three live at once.
	most := len(b)/3 + 1
	first := min(most, len(b)/8+64)
	if err := bud.Items(stream+": event index", int64(2*most), rawEventSize); err != nil {
		return pickedStream{}, err
	}
	// The buffer starts at an event every 8 bytes: the corpus's game
	// events take 8.3 bytes or more (11 typically), and a buffer for
	// 3-byte events (809 KB for 151 KB of events) was most of the decode's
	// garbage after the tracker's bzip2 block. A stream of smaller events
	// gets the whole room once.
	buf := make([]rawEvent, 0, first)
	var best eventTable
	bestN := -1
	tried := map[string]bool{}
	for p := range protocol.Nearest(base) {
		k := key(p)
		if tried[k] {
			continue
		}
		if len(tried) == maxLayouts {
			break
		}
		tried[k] = true
		if err := bud.Step(stream+": layout trials", int64(len(b))+1); err != nil {
			return pickedStream{}, err
		}
		et := kind(p)
		evs, err := et.readEvents(b, buf[:0])
		buf = evs[:0] // the whole room, if a trial needed it
		if err == nil {
			return pickedStream{table: et, events: fit(evs), tried: len(tried)}, nil
		}
		if len(evs) > bestN {
			best, bestN = et, len(evs)
		}
	}
	if best.p == nil {
		return pickedStream{tried: len(tried)}, nil
	}
	// None reads the whole stream: the one that read the most events
	// before failing is read once more (trials share one buffer).
	evs, err := best.readEvents(b, buf[:0])
	return pickedStream{table: best, events: fit(evs), err: err, tried: len(tried)}, nil
}

// fit gives the events a slice of their own size when the trials' buffer
// is more than twice as large (a stream of events the 8-byte guess
// overestimates, or one that needed the whole room): it stays live as
// long as the replay. A closer fit is not worth a copy.
func fit(evs []rawEvent) []rawEvent {
	if cap(evs) <= 2*len(evs) {
		return evs
	}
	return append(make([]rawEvent, 0, len(evs)), evs...)
}

// streamError is the diagnostic of a stream whose events stop reading
// before its end: the events before are kept.
func streamError(stream string, n int, err error, size int, frame int) model.Diagnostic {
	off := int64(0)
	msg := err.Error()
	if e, ok := err.(*bitpack.Error); ok {
		off, msg = int64(e.Off), e.Msg
	}
	if off > int64(size) {
		off = int64(size)
	}
	dg := diagnostic(model.Error, model.Span{Stream: stream, Off: off, Len: int64(size) - off},
		fmt.Sprintf("%s event %d", stream, n), msg+"; the rest of the stream is not decoded", "", "")
	dg.Frame = frame
	dg.Skipped = true
	return dg
}
