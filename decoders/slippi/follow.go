package slippi

import (
	"bytes"
	"fmt"
	"math"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// Follow decodes a replay that Slippi is still writing: Dolphin writes the
// .slp as the game runs, events as they happen, the raw element's length 0
// until the game ends. Each piece of the file is decoded once (stream.go);
// a snapshot holds the frames no later byte can change.
//
// A file the pass cannot extend (its frames change numbering, as training
// mode's do once enough of them repeat a number; a complete frame sent
// again; a player who would take an earlier player's place) is decoded
// whole again, but only each time it has doubled since the last whole
// decode, so all those decodes together cost at most twice one decode of
// the file; until then its snapshots stay where they were.
func Follow(opt model.DecodeOptions) model.Follower {
	opt.NoEvents = false // a snapshot's events are what it is followed for
	return &follower{opt: opt}
}

type follower struct {
	opt   model.DecodeOptions
	d     *decoder // nil until the file holds its container and Event Payloads
	data  []byte
	whole int   // the data's size at the last whole decode
	err   error // why nothing more can be decoded: the file is refused
	done  bool  // Finish was called
}

func (f *follower) Feed(data []byte) {
	if f.done {
		return
	}
	f.data = data
	if int64(len(data)) > math.MaxInt32 && f.err == nil {
		// offsets are 32 bits; a whole decode refuses such a file too
		f.err = &model.FormatError{Source: source, Off: math.MaxInt32, Msg: "file larger than 2 GiB; no real replay is that big"}
		f.d = nil
	}
	switch {
	case f.err != nil:
	case f.d == nil:
		f.start()
	case f.d.broken:
		if len(data) >= 2*f.whole {
			f.decodeWhole()
		}
	default:
		f.d.b.Extend(int64(len(data)))
		f.d.feed(data)
	}
}

// start begins once the data holds the container's header and the whole
// of Event Payloads, the sizes every later record is read by.
func (f *follower) start() {
	data := f.data
	if !bytes.HasPrefix(data, magic) {
		if len(data) >= len(magic) || !bytes.HasPrefix(magic, data) {
			f.err = &model.FormatError{Source: source, Off: 0, Msg: notSlippi(data)}
		}
		return
	}
	at := len(magic) + 4
	if len(data) < at+2 || len(data) < at+2+int(data[at+1]) {
		return
	}
	d, err := newDecoder(data, f.opt, budget.New(int64(len(data)), f.opt.Limits), true)
	if err != nil {
		f.err = err
		return
	}
	d.paid = true
	d.addPayloads()
	f.d = d
	d.feed(data)
}

// decodeWhole decodes the data as a whole decode does, without ending it,
// and goes on from there.
func (f *follower) decodeWhole() {
	d, err := newDecoder(f.data, f.opt, budget.New(int64(len(f.data)), f.opt.Limits), true)
	if err != nil {
		f.err = err
		return
	}
	d.whole(false)
	f.d = d
	f.whole = len(f.data)
}

func (f *follower) Replay() *model.Replay {
	if f.d == nil {
		return nil
	}
	return f.d.snapshot()
}

func (f *follower) Finish() (*model.Replay, error) {
	if f.done {
		return nil, fmt.Errorf("slippi: Finish called twice on a follower")
	}
	f.done = true
	d := f.d
	f.d = nil
	if d == nil || d.broken {
		return Decode(f.data, f.opt)
	}
	d.b.Extend(int64(len(f.data)))
	d.finish()
	d.build(d.prev)
	return d.r, nil
}

func (f *follower) Ended() string {
	d := f.d
	switch {
	case f.err != nil:
		return "the file cannot be decoded: " + f.err.Error()
	case d == nil:
		return ""
	case d.endOff >= 0:
		return "Game End"
	case d.why == stopEnd:
		return "the end of the event stream"
	case d.why == stopBad:
		return fmt.Sprintf("a byte at %#x that is no event: the stream cannot go on", d.whyAt)
	case d.why == stopCut:
		return fmt.Sprintf("an event at %#x that runs past the raw element's end", d.whyAt)
	case d.why == stopBudget || d.over:
		return "the decode budget"
	}
	return ""
}

// snapshot is a replay of the decode so far: a copy of the decoder whose
// arrays end where the complete frames end, built as a whole decode builds
// its replay, extending the snapshot before it.
func (d *decoder) snapshot() *model.Replay {
	c := *d
	c.diags = append([]phased(nil), d.diags...)
	c.build(d.prev)
	d.prev = c.r
	return c.r
}
