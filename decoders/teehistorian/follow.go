package teehistorian

import (
	"bytes"
	"fmt"
	"math"
	"time"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// Follow decodes a teehistorian file that a DDNet server is still
// writing: the server writes the header once, then appends the messages of
// each tick as it runs, and FINISH when it stops or changes map. Once the
// header is whole, each message is read once, as it arrives (feed); a
// snapshot holds the ticks before the one the stream is in, which no later
// message can change.
//
// Events hold client ids while the stream is read and name players only in
// a replay (players are the client ids seen, in id order). A snapshot maps
// the events it adds; when a client with a lower id than one already
// mapped shows up, every player index after it moves and the snapshot's
// events are mapped again, into a new array: at most once per client id.
func Follow(opt model.DecodeOptions) model.Follower { return &follower{opt: opt} }

type follower struct {
	opt  model.DecodeOptions
	d    *decoder // nil until the header is whole
	data []byte
	err  error // the file is refused
	done bool  // Finish was called

	// what the snapshots share: the events of the ticks handed out with
	// their players' indexes, and the state's checkpoints (spacing k)
	pub   []model.Event
	raw   int // the decoder's events that pub holds
	index [maxClients]int
	k     int
	cps   [maxClients]struct{ info, pos []int32 }
	prev  *model.Replay
	// inputsBefore[t]: the input messages before tick t (the input chart),
	// of the first inputs ones of the decoder's input ticks
	inputsBefore []int32
	inputs       int
}

func (f *follower) Feed(data []byte) {
	if f.done {
		return
	}
	f.data = data
	if f.err != nil {
		return
	}
	if int64(len(data)) > math.MaxInt32 {
		f.err = &model.FormatError{Source: source, Off: math.MaxInt32, Msg: "file larger than 2 GiB; offsets in this decoder are 32 bits"}
		f.d = nil
		return
	}
	if f.d == nil {
		f.start()
		return
	}
	d := f.d
	d.b.Extend(int64(len(data)))
	d.data = data
	d.feed()
}

// start begins once the data holds the UUID and the whole JSON header
// (its NUL): the header is read once, whole.
func (f *follower) start() {
	data := f.data
	if len(data) < len(fileUUID) {
		if !bytes.HasPrefix(fileUUID[:], data) {
			f.err = &model.FormatError{Source: source, Off: 0, Msg: describeNotTeehistorian(data)}
		}
		return
	}
	if !bytes.Equal(data[:len(fileUUID)], fileUUID[:]) {
		f.err = &model.FormatError{Source: source, Off: 0, Msg: describeNotTeehistorian(data)}
		return
	}
	if bytes.IndexByte(data[len(fileUUID):], 0) < 0 {
		return // the header is still being written
	}
	d, err := newDecoder(data, f.opt, budget.New(int64(len(data)), f.opt.Limits))
	if err != nil {
		f.err = err
		return
	}
	d.following = true
	f.d = d
	f.k = 64
	for i := range f.index {
		f.index[i] = -1
	}
	d.feed()
}

func (f *follower) Finish() (*model.Replay, error) {
	if f.done {
		return nil, fmt.Errorf("teehistorian: Finish called twice on a follower")
	}
	f.done = true
	d := f.d
	f.d = nil
	// The timeline's cap and the budget grow with the file: a stream that
	// met either while it was shorter than it is now is read again whole,
	// as a decode of the whole file meets them.
	if d == nil || d.over || d.capped {
		return Decode(f.data, f.opt)
	}
	d.b.Extend(int64(len(f.data)))
	d.data = f.data
	d.following = false
	d.feed() // the message the data ended inside, read as the whole file's end
	d.end()
	d.r.Size = int64(len(f.data))
	d.finish()
	return d.r, nil
}

func (f *follower) Ended() string {
	d := f.d
	switch {
	case f.err != nil:
		return "the file cannot be decoded: " + f.err.Error()
	case d == nil:
		return ""
	case d.finished:
		return "FINISH"
	case d.over:
		return "the decode budget"
	case d.done:
		return fmt.Sprintf("a message at %#x that cannot be read: the stream cannot go on", d.stuck)
	}
	return ""
}

func (f *follower) Replay() *model.Replay {
	d := f.d
	if d == nil || d.stream == 0 || f.done {
		return nil
	}
	// the ticks before the one the stream is in are complete; all are
	// once it is over
	count := int(d.tick)
	if d.done {
		count = int(d.lastTick) + 1
	}
	c := *d // a view of the decoder as it is now, for the snapshot's lazy parts
	r := &model.Replay{Format: d.r.Format, FormatName: d.r.FormatName, Version: d.r.Version, Size: int64(len(d.data)),
		Start: d.r.Start, Title: d.r.Title, Mode: d.r.Mode, Partial: d.r.Partial,
		Header: d.r.Header, Diagnostics: append([]model.Diagnostic(nil), d.r.Diagnostics...),
		Timeline: model.Timeline{Rate: tickRate, Unit: "tick", Count: count},
		Duration: time.Duration(max(count-1, 0)) * time.Second / tickRate, Data: d.data}
	c.r = r
	switch {
	case d.finished:
		r.Result = resultComplete
	case d.done:
		r.Result = "recording stopped at a message that cannot be read"
	default:
		r.Result = "recording in progress"
	}
	var index [maxClients]int
	index, r.Players = d.players()
	r.Events = f.events(count, &index)
	if d.opt.HeaderOnly {
		return r
	}
	r.Kinds = kindNames
	r.Summarize = c.summarize
	r.Detail = c.detail
	r.Analyze = c.analyze
	f.state(&c, count)
	r.FinishGrown(f.prev)
	f.prev = r
	return r
}

// events are the events of the ticks before count, their players mapped
// by index: the snapshot before's, and those added since.
func (f *follower) events(count int, index *[maxClients]int) []model.Event {
	raw := f.d.r.Events
	n := f.raw
	for n < len(raw) && int(raw[n].Frame) < count {
		n++
	}
	for cid, i := range f.index {
		if i >= 0 && i != index[cid] {
			// a client before this one appeared: the indexes moved
			f.pub, f.raw = nil, 0
			break
		}
	}
	if n > f.raw {
		extra := n - f.raw
		if extra > cap(f.pub)-len(f.pub) {
			extra = max(extra, cap(f.pub)) // double: append's quarter would copy the events over and over
		}
		grown, err := budget.Grow(f.d.b, "events", f.pub, extra)
		if !f.d.paid(err, raw[f.raw].Off) {
			n = f.raw
		} else {
			f.pub = grown
			for _, ev := range raw[f.raw:n] {
				ev.Player = int16(playerIndex(index, int(ev.Player)))
				f.pub = append(f.pub, ev)
			}
		}
	}
	f.raw = n
	for cid := range f.index {
		if f.d.slots[cid].seen {
			f.index[cid] = index[cid]
		}
	}
	return f.pub[:len(f.pub):len(f.pub)]
}

// state gives the snapshot c (a copy of the decoder) the state of the
// ticks before count: each client's versions up to there, and the
// checkpoints, which grow with the ticks (their spacing doubles as the
// decode's would, the arrays made again then), so a snapshot costs the
// versions added since the last.
func (f *follower) state(c *decoder, count int) {
	cids := c.seenClients()
	if len(cids) == 0 {
		return
	}
	if k := c.spacing(f.k, count, len(cids)); k != f.k {
		f.k = k
		for cid := range f.cps {
			f.cps[cid].info, f.cps[cid].pos = nil, nil
		}
	}
	k := f.k
	for _, cid := range cids {
		s := &c.slots[cid]
		// versions of the tick the stream is in may still change
		for len(s.infos) > 0 && int(s.infos[len(s.infos)-1].tick) >= count {
			s.infos = s.infos[:len(s.infos)-1]
		}
		for len(s.poss) > 0 && int(s.poss[len(s.poss)-1].tick) >= count {
			s.poss = s.poss[:len(s.poss)-1]
		}
		s.infos, s.poss = s.infos[:len(s.infos):len(s.infos)], s.poss[:len(s.poss):len(s.poss)]
		cp := &f.cps[cid]
		ncp := count/k + 1 // checkpoint c counts the versions before tick c×k, final once c×k <= count
		if extra := ncp - len(cp.info); extra > 0 {
			info, err := budget.Grow(c.b, "state checkpoints", cp.info, extra)
			pos, err2 := budget.Grow(c.b, "state checkpoints", cp.pos, extra)
			if !f.d.paid(err, 0) || !f.d.paid(err2, 0) {
				return
			}
			i, j := 0, 0
			if n := len(info); n > 0 {
				i, j = int(info[n-1]), int(pos[n-1])
			}
			for cc := len(info); cc < ncp; cc++ {
				limit := int32(cc * k)
				for i < len(s.infos) && s.infos[i].tick < limit {
					i++
				}
				for j < len(s.poss) && s.poss[j].tick < limit {
					j++
				}
				info, pos = append(info, int32(i)), append(pos, int32(j))
			}
			cp.info, cp.pos = info, pos
		}
		s.cpInfo, s.cpPos = cp.info[:ncp:ncp], cp.pos[:ncp:ncp]
	}
	c.cpEvery = k
	c.strs = c.strs[:len(c.strs):len(c.strs)]
	c.whos = c.whos[:len(c.whos):len(c.whos)]
	// the inputs before each complete tick, counted once as ticks complete
	if extra := count + 1 - len(f.inputsBefore); extra > 0 {
		if extra > cap(f.inputsBefore)-len(f.inputsBefore) {
			extra = max(extra, cap(f.inputsBefore))
		}
		grown, err := budget.Grow(c.b, "input ticks", f.inputsBefore, extra)
		if !f.d.paid(err, 0) {
			return
		}
		f.inputsBefore = grown
		for t := len(f.inputsBefore); t <= count; t++ {
			for f.inputs < len(c.inputTicks) && int(c.inputTicks[f.inputs]) < t {
				f.inputs++
			}
			f.inputsBefore = append(f.inputsBefore, int32(f.inputs))
		}
	}
	c.inputsBefore = f.inputsBefore[: count+1 : count+1]
	c.inputTicks = nil
	c.attachState(cids)
}
