package slippi

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// The events pass. A whole decode scans the stream first (how far it goes,
// how many events and frames, how frames are numbered), pays for and makes
// its arrays once, and runs the pass over every event. A followed file runs
// the same pass over each piece as it arrives: the scan's counts are kept
// up to date event by event, the arrays grow as the frames do, and the
// frames that nothing later can change are completed (settle) and handed
// out. What a later piece could still change is never handed out, so a
// snapshot stays as it was.

// stream is the events pass's state between pieces.
type stream struct {
	following bool // more bytes may come after data: a record the data cuts off waits for them
	broken    bool // the pass cannot go on from here (see layoutHolds, and events): follow.go decodes the file again
	pos       int  // the next event starts here
	why       stopKind
	whyAt     int
	afterEnd  bool // the last event read was Game End
	started   bool // Game Start is decoded
	verKnown  bool // it is long enough to tell the version

	st      scanStats
	laid    bool // the frames' numbering is decided
	clamped bool // damaged frame numbers were clamped into a plausible range

	// evs holds every event: evs[:nPub] those of the complete frames
	// [0, settled), in frame order; evs[nPub:] the rest, in file order.
	// Without events (DecodeOptions.NoEvents) it holds only the platform
	// events the stage view follows, and runPre counts, per frame, the
	// pre-frame updates of its current run (the rollback count), which the
	// events would give; prePend those since the run's last frame update.
	evs     []model.Event
	runPre  []int32
	prePend int
	nPub    int
	settled int
	refs    int // events so far (the next event's Ref: its place in the file)
	seen    []bool

	// the pass's place in the stream
	last            int // frame index of the last frame event
	curRun          int
	curNum          int64
	seq             int
	trackedPort     int
	lastWasRollback bool
	curLen          int
	split           bool
	fods            int
	finalIdx        int // frames up to this index are final (see event's bookend)
	online          bool

	unknown, unknownAt, unknownFrame   [256]int
	badPort, badPortAt, badPortFrame   int
	badPorts                           [256]bool // the player indices of those updates
	badFrame, badFrameAt, badFrameWhen int
	secondStarts                       []int // diagnostics of further Game Starts, whose frame the pass fills in
	badDiag                            int   // the diagnostic of a byte that is no event, + 1; 0 none

	framed   [maxSlots]bool  // ports that pre- or post-frame updates name
	framedAt [maxSlots]int   // the first such update's offset
	chars    [maxSlots][]int // per port, the internal characters of its post-frame updates, in order
	charSeen [maxSlots][256]bool

	// what complete frames give (settle)
	stocksAt     [maxSlots]int   // stocks of the port's last kept post-frame update + 1 (0: none yet)
	gapFrom      [maxSlots]int32 // the port's current run of frames without an update starts here, -1 none
	gapStocks    [maxSlots]int16
	gapChar      [maxSlots]int16 // gapStocks and gapChar: what the open run shows (the last update before it)
	lastPost     [maxSlots]int32 // the port's last kept post-frame update so far, 0 none
	pct, stk     [][]float64     // chart values per player and complete frame
	lastP, lastS []float64
	fodLh, fodRh float32

	prev *model.Replay // the last snapshot: the next one extends it
}

// scanStats are what the scan counts; how frames are numbered follows
// from them (layoutOf).
type scanStats struct {
	minF, maxF  int64
	frameEvents int
	firstFrame  int64
	haveFirst   bool
	runs        int
	lastF       int64
}

type stopKind int

const (
	stopNone   stopKind = iota
	stopWait            // following: the data ends inside a record or before the next one
	stopEnd             // the raw element's declared end, or what follows a stream in progress (metadata)
	stopData            // the data ends between records
	stopBad             // a byte that is no listed event code
	stopCut             // the data ends inside a record, and no more will come
	stopBudget          // the budget refused what the next events need
)

func (d *decoder) initStream() {
	s := &d.stream
	s.st = scanStats{minF: math.MaxInt64, maxF: math.MinInt64, lastF: math.MinInt64}
	s.curRun, s.curNum, s.seq, s.trackedPort, s.finalIdx = -1, math.MinInt64, -1, -1, -1
	for i := range s.gapFrom {
		s.gapFrom[i] = -1
		s.gapStocks[i], s.gapChar[i] = -1, -1
	}
	d.first, d.count = -123, 1
	s.fodLh, s.fodRh = 20, 28
}

// next looks at the record at p: its length, or why the stream stops there.
func (d *decoder) next(p int) (int, stopKind) {
	lim := d.rawLimit()
	if d.rawLen != 0 && p >= d.rawEnd {
		return 0, stopEnd
	}
	if p >= lim {
		if d.following {
			return 0, stopWait
		}
		return 0, stopData
	}
	rest := d.data[p:lim]
	if d.rawLen == 0 {
		switch {
		case d.afterEnd && bytes.HasPrefix(rest, metadataKey):
			return 0, stopEnd // the metadata after a Game End
		case d.following && d.afterEnd && len(rest) < len(metadataKey) && bytes.HasPrefix(metadataKey, rest):
			return 0, stopWait
		}
	}
	c := rest[0]
	sz := d.size[c]
	if sz < 0 {
		if d.rawLen == 0 {
			switch {
			case bytes.HasPrefix(rest, metadataKey):
				return 0, stopEnd // the metadata that follows a stream still marked as in progress
			case d.following && len(rest) < len(metadataKey) && bytes.HasPrefix(metadataKey, rest):
				return 0, stopWait
			}
		}
		return 0, stopBad
	}
	n := 1 + int(sz)
	if n > len(rest) {
		if d.following && (d.rawLen == 0 || p+n <= d.rawEnd) {
			return 0, stopWait
		}
		return n, stopCut
	}
	return n, stopNone
}

// stopAt records why the stream stopped at p. A byte that is no event is
// reported now; a cut record when the replay is built (finish), as an
// event of its own.
func (d *decoder) stopAt(p int, why stopKind) {
	d.why, d.whyAt = why, p
	if why == stopBad {
		c := d.data[p]
		d.diag(model.Error, p, 1, fmt.Sprintf("event 0x%02x", c), "not in Event Payloads; the event stream cannot continue", "a listed event code", fmt.Sprintf("0x%02x", c))
		d.badDiag = len(d.diags) // its frame is that of the events before it (build)
	}
}

// tally counts the record at p, n bytes long, as the scan does.
func (d *decoder) tally(p, n int) {
	c := d.data[p]
	if hasFrame(c) && n >= 5 {
		d.st.frame(c, int64(int32(binary.BigEndian.Uint32(d.data[p+1:]))))
		if (c == cmdPre || c == cmdPost) && n >= 7 {
			d.update(c, p, n)
		}
	}
	switch c {
	case cmdStart:
		if d.startOff < 0 {
			d.startOff = p
		} else {
			d.phase = phaseScan
			d.diag(model.Warning, p, n, "event 0x36", "a second Game Start; the first one is used", "", "")
			d.secondStarts = append(d.secondStarts, len(d.diags)-1)
		}
	case cmdEnd:
		d.endOff = p
		d.endCount++
	}
	d.afterEnd = c == cmdEnd
	d.nEvents++
}

// tallyFrames tallies the frame events from p on that the data holds
// whole, up to lim, as tally does each, and returns where the first other
// record starts: the bulk of a stream, with the counts kept in locals.
func (d *decoder) tallyFrames(p, lim int) int {
	data, size, ports := d.data, &d.size, d.portsInScan
	preN, postN := 1+int(size[cmdPre]), 1+int(size[cmdPost])
	st := d.st
	events := 0
	for p < lim {
		c := data[p]
		// The sizes of the two commonest records as constants: the next
		// record's place then follows from a predicted branch rather
		// than from two loads in a row, and the walk runs ahead.
		var n int
		switch c {
		case cmdPre:
			n = preN
		case cmdPost:
			n = postN
		default:
			n = 1 + int(size[c])
		}
		if n < 5 || n > lim-p || !hasFrame(c) {
			break
		}
		st.frame(c, int64(int32(binary.BigEndian.Uint32(data[p+1:]))))
		if (c == cmdPre || c == cmdPost) && n >= 7 {
			// most updates are of a player's port already noted: update
			// would do nothing
			port, follower := data[p+5], data[p+6]
			if follower != 0 || port >= 4 || ports && n > 7 && (!d.framed[port] || c == cmdPost && !d.charSeen[port][data[p+7]]) {
				d.update(c, p, n)
			}
		}
		events++
		p += n
	}
	d.st = st
	if events > 0 {
		d.afterEnd = false
		d.nEvents += events
	}
	return p
}

// frame counts a frame event of code c and frame number f.
func (st *scanStats) frame(c byte, f int64) {
	if !st.haveFirst && (c == cmdPre || c == cmdPost) {
		st.firstFrame, st.haveFirst = f, true
	}
	st.minF = min(st.minF, f)
	st.maxF = max(st.maxF, f)
	st.frameEvents++
	if f != st.lastF || c == cmdFrame {
		st.runs++
	}
	st.lastF = f
}

// update notes what the scan learns from a pre- or post-frame update at
// p, n >= 7 bytes long: followers, ports past the fourth, and (a whole
// decode) the ports frame updates name.
func (d *decoder) update(c byte, p, n int) {
	follower := d.data[p+6] != 0
	if follower {
		d.followers = true
	}
	port := d.data[p+5]
	if port >= 4 && port < maxSlots && d.pre == nil {
		// Multi-Man Melee's enemies past the fourth port: the
		// frame arrays, not made yet, hold six ports. (Once they
		// are made, the pass stops at such an update and a
		// followed file is decoded again.)
		d.slots = maxSlots
	}
	if d.portsInScan && n > 7 && port < maxSlots && !follower {
		d.framePort(int(port), c, d.data[p+7], p)
	}
}

// layoutPlan is how frame numbers map onto the timeline, as the counts so
// far say.
type layoutPlan struct {
	first      int64
	count      int
	sequential bool
	seqFrame   int64
	clamped    bool
	limit      int64
}

func layoutOf(st *scanStats) layoutPlan {
	if st.frameEvents == 0 {
		return layoutPlan{first: -123, count: 1}
	}
	minF, maxF := st.minF, st.maxF
	span := maxF - minF + 1
	firstFrame := st.firstFrame
	if !st.haveFirst {
		firstFrame = minF
	}
	if int64(st.runs) > 2*span+16 {
		// Frame numbers that do not advance (training mode repeats one
		// number for the whole game): number frames by arrival instead.
		return layoutPlan{first: 0, count: st.runs, sequential: true, seqFrame: firstFrame}
	}
	// A real stream has at least one event per frame; a span far beyond the
	// number of frame events comes from damaged frame numbers. Anchor on
	// the first frame seen instead of allocating for the damage.
	var l layoutPlan
	if limit := int64(2*st.frameEvents + 256); span > limit {
		l.clamped, l.limit = true, limit
		minF = max(minF, firstFrame-int64(st.frameEvents))
		maxF = min(maxF, firstFrame+int64(st.frameEvents))
		if maxF < minF {
			minF, maxF = firstFrame, firstFrame
		}
	}
	l.first, l.count = minF, int(maxF-minF+1)
	return l
}

// layout decides the numbering from the scan's counts.
func (d *decoder) layout() {
	l := layoutOf(&d.st)
	d.first, d.count, d.sequential, d.seqFrame, d.clamped = l.first, l.count, l.sequential, l.seqFrame, l.clamped
	d.laid = d.st.frameEvents > 0
}

// layoutHolds reports whether the numbering the pass uses is still the
// one the counts give after the record just tallied; the first frame
// event decides it. A followed stream whose numbering changes (a frame
// before the first, training mode discovered, damaged numbers) cannot be
// extended: its frames would move.
func (d *decoder) layoutHolds() bool {
	if d.st.frameEvents == 0 {
		return true
	}
	l := layoutOf(&d.st)
	if !d.laid {
		if l.sequential || l.clamped {
			return false
		}
		d.first, d.laid = l.first, true
		return true
	}
	switch {
	case l.clamped || d.clamped || l.sequential != d.sequential:
		return false
	case d.sequential:
		return l.seqFrame == d.seqFrame
	}
	return l.first == d.first
}

// layoutDiagnostics say how frames are numbered when it is not the plain
// way, with the counts as they stand.
func (d *decoder) layoutDiagnostics() {
	if !d.laid {
		return
	}
	st := &d.st
	d.phase = phaseLayout
	span := st.maxF - st.minF + 1
	switch {
	case d.sequential:
		d.diag(model.Info, d.rawStart, 0, "frame numbers", fmt.Sprintf("do not advance (%d frames sent under %d frame numbers, as in training mode); frames are numbered in the order they arrive", st.runs, span), "", "")
	case d.clamped:
		d.diag(model.Error, d.rawStart, 0, "frame numbers", "span far more frames than there are frame events; frames outside the first plausible range are clamped",
			fmt.Sprintf("at most %d frames", int64(2*st.frameEvents+256)), fmt.Sprintf("%d..%d", st.minF, st.maxF))
	}
}

// perEventExtra is what one event costs beyond its record: its slot in the
// frame sort, an item offset and a rollback length.
const perEventExtra = 4 + 4 + 8

// payEvents pays, before the events pass allocates anything, for what it
// builds: per event the record and its extras; per frame the kept copies
// of each port's updates (and the followers'), the runs and items, the seen
// flags, two chart values per player, the platform heights, the sort's
// counts and the timeline's index. It runs right after the scan, in file
// order: metadata after the events cannot take the budget the events need.
// On refusal the replay keeps its header and players but no timeline.
func (d *decoder) payEvents() {
	perEvent := budget.SizeOf[model.Event]() + perEventExtra
	slots := int64(d.slots)
	perFrame := 2*4*slots + 4*4 + 1 + 2*8*slots + 2*4 + 4 + 8
	if d.followers {
		perFrame += 2 * 4 * slots
	}
	if d.b.Items("events", int64(d.nEvents)+1, perEvent) != nil ||
		d.b.Items("frames", int64(d.count), perFrame) != nil {
		d.count = 0
		d.overBudget(int64(d.from), int64(d.stop-d.from))
		return
	}
	d.paid = true
}

// reserve makes the arrays of a whole decode at the sizes the scan found.
func (d *decoder) reserve() {
	cnt := d.count
	if !d.following {
		// The players are known now (a followed file's may come later):
		// the frame arrays hold the ports up to the last player's, not
		// all four, since most games are on the first two. An update of
		// a port past it has no player either way. (payEvents paid for
		// all four, so the budget refuses as it always did.)
		used := 1
		for _, port := range d.portOf {
			used = max(used, port+1)
		}
		d.slots = min(d.slots, used)
	}
	if d.opt.NoEvents {
		d.evs = make([]model.Event, 0, 16) // grown for the platform events, as few as they come
		d.runPre = make([]int32, cnt)
	} else {
		d.evs = make([]model.Event, 0, d.nEvents+1) // and a record the data cuts off
	}
	d.pre = make([]int32, cnt*d.slots)
	d.post = make([]int32, cnt*d.slots)
	if d.followers {
		d.fpre = make([]int32, cnt*d.slots)
		d.fpost = make([]int32, cnt*d.slots)
	}
	d.runStart = make([]int32, cnt)
	d.runEnd = make([]int32, cnt)
	d.itemStart = make([]int32, cnt)
	d.itemCount = make([]int32, cnt)
	d.seen = make([]bool, cnt)
	d.addPayloads()
}

// addPayloads records Event Payloads, the first event.
func (d *decoder) addPayloads() {
	d.refs = 1
	if d.opt.NoEvents {
		return
	}
	d.evs = append(d.evs, model.Event{Frame: 0, Player: -1, Kind: kPayloads, Off: int64(d.rawStart), Len: int64(d.from - d.rawStart)})
	d.refs = 1
}

// grown returns s holding n values, grown as append grows it and paid from
// the budget; false when the budget refuses.
func grown[T any](d *decoder, what string, s []T, n int) ([]T, bool) {
	if n <= len(s) {
		return s, true
	}
	if n <= cap(s) {
		return s[:n], true // zeros: room made before and never written
	}
	// at least double: append's growth for large slices (a quarter) would
	// copy a followed file's arrays over and over as they grow
	t, err := budget.Grow(d.b, what, s, max(n-len(s), cap(s)))
	if err != nil {
		d.overBudget(int64(d.pos), 0)
		return s, false
	}
	return t[:n], true
}

// room makes the arrays hold count frames and events more events, paid
// from the budget as they grow (a followed file).
func (d *decoder) room(events int) bool {
	cnt := d.count
	ok := true
	grow := func(s *[]int32, n int) {
		if ok {
			*s, ok = grown(d, "frames", *s, n)
		}
	}
	grow(&d.pre, cnt*d.slots)
	grow(&d.post, cnt*d.slots)
	if d.followers {
		grow(&d.fpre, cnt*d.slots)
		grow(&d.fpost, cnt*d.slots)
	}
	grow(&d.runStart, cnt)
	grow(&d.runEnd, cnt)
	grow(&d.itemStart, cnt)
	grow(&d.itemCount, cnt)
	if ok {
		d.seen, ok = grown(d, "frames", d.seen, cnt)
	}
	if ok && cap(d.evs)-len(d.evs) < events {
		var err error
		d.evs, err = budget.Grow(d.b, "events", d.evs, max(events, cap(d.evs))) // doubled, as grown does
		ok = err == nil && d.b.Items("events", int64(events), perEventExtra) == nil
		if !ok {
			d.overBudget(int64(d.pos), 0)
		}
	}
	return ok
}

// feed decodes what data adds to the stream of a followed file.
func (d *decoder) feed(data []byte) {
	d.data = data
	if d.rawLen == 0 {
		d.rawEnd = len(data)
	}
	if d.why != stopNone || d.broken || !d.paid {
		return
	}
	d.phase = phaseScan
	p, events := d.pos, 0
	for q := p; ; {
		n, why := d.next(q)
		if why == stopWait {
			break
		}
		if why != stopNone {
			d.stopAt(q, why)
			break
		}
		d.tally(q, n)
		if !d.layoutHolds() {
			d.broken = true
			break
		}
		q += n
		d.stop = q
		events++
	}
	if events == 0 {
		if !d.broken {
			d.settle(d.finalIndex()) // the stream may have stopped: its last frame is complete
		}
		return
	}
	if d.laid && !d.broken {
		d.count = max(d.count, layoutOf(&d.st).count)
	}
	if !d.room(events + 1) {
		d.why = stopBudget
		return
	}
	d.phase = phaseEvents
	d.pos = d.events(p, d.stop)
	if d.pos < d.stop {
		d.broken = true
	}
	d.settle(d.finalIndex())
}

// events runs the pass over the records in [p, stop), which the scan
// counted. It returns where it stopped: stop, or before a record a
// followed decode cannot place (a complete frame sent again, a player who
// would take an earlier player's place).
func (d *decoder) events(p, stop int) int {
	data := d.data
	cnt := d.count
	evs := d.evs
	last, curRun, curNum, seq := d.last, d.curRun, d.curNum, d.seq
	// Locals, not fields: the compiler cannot tell that the stores into
	// the event records leave the decoder's fields alone.
	size, first, sequential, following, settled, slots := &d.size, d.first, d.sequential, d.following, d.settled, d.slots
	noEvents, runPre, prePend, ref := d.opt.NoEvents, d.runPre, d.prePend, d.refs
	before300 := d.version < v300
	runStart, runEnd, itemStart, itemCount, playerOf, seen := d.runStart, d.runEnd, d.itemStart, d.itemCount, &d.playerOf, d.seen
	var scratch model.Event
	defer func() {
		d.evs = evs
		d.last, d.curRun, d.curNum, d.seq = last, curRun, curNum, seq
		d.prePend, d.refs = prePend, ref
	}()
	plain := !sequential && !following
	for p < stop {
		c := data[p]
		n := 1 + int(size[c])
		if plain && (c == cmdPre || c == cmdPost) && n > 7 {
			// The commonest record, a player's update inside the run its
			// frame's number began, in a few steps: what the general
			// path below does with it, when that is nothing more.
			fnum := int64(int32(be32(data[p+1:])))
			port := int(data[p+5])
			if fnum == curNum && fnum-first == int64(curRun) && port < slots && data[p+6] == 0 && playerOf[port] >= 0 && prePend == 0 {
				fi := curRun
				kind, arr := kPost, d.post
				if c == cmdPre {
					kind, arr = kPre, d.pre
					if d.trackedPort < 0 || port == d.trackedPort && (seen[fi] || d.lastWasRollback) {
						goto general // the rollbacks slippi-js counts
					}
					if noEvents {
						runPre[fi]++
					}
				}
				if !noEvents {
					k := len(evs)
					if k == cap(evs) {
						goto general
					}
					evs = evs[:k+1]
					ev := &evs[k]
					ev.Off, ev.Len, ev.Ref, ev.Frame = int64(p), int64(n), int32(ref), int32(fi)
					ev.Player, ev.Kind, ev.Stream, ev.Flags = int16(playerOf[port]), kind, 0, 0
				}
				runEnd[fi] = int32(ref)
				seen[fi] = true
				arr[fi*slots+port] = int32(p)
				ref++
				p += n
				continue
			}
		}
	general:
		// Write the record in place: the slice was sized for the events,
		// and building it on the stack and copying costs more than the
		// decoding.
		k := len(evs)
		ev := &scratch // without events (NoEvents): kept only when it is a platform event
		if !noEvents {
			if k == cap(evs) { // cannot happen: the scan counted the same events
				evs = append(evs, model.Event{})[:k]
			}
			evs = evs[:k+1]
			ev = &evs[k]
		}
		// field by field: a composite literal is built on the stack with
		// narrow stores and copied with wide loads, which stall on them
		// (store forwarding fails) for a third of the pass
		ev.Off, ev.Len, ev.Ref, ev.Frame = int64(p), int64(n), int32(ref), int32(last)
		ev.Player, ev.Kind, ev.Stream, ev.Flags = -1, 0, 0, 0
		switch c {
		case cmdPre, cmdPost, cmdFrame, cmdItem, cmdBookend, cmdFod, cmdWhispy, cmdStadium:
			if n < 5 {
				ev.Kind = kindOf(c)
				if noEvents && c == cmdPre {
					prePend++
				}
				break
			}
			fnum := int64(int32(be32(data[p+1:])))
			newRun := fnum != curNum || c == cmdFrame
			curNum = fnum
			fi64 := fnum - first
			if sequential {
				if newRun {
					seq++
				}
				fi64 = int64(seq)
			}
			if fi64 < 0 || fi64 >= int64(cnt) {
				if d.badFrame == 0 {
					d.badFrameAt, d.badFrameWhen = p, last
				}
				d.badFrame++
				fi64 = min(max(fi64, 0), int64(cnt-1))
			}
			fi := int(fi64)
			if fi < settled {
				// a complete frame, handed out, would change
				evs = evs[:k]
				return p
			}
			ev.Frame, last = int32(fi), fi
			if fi != curRun || newRun {
				if s := runStart[fi] - 1; s >= 0 {
					// The frame is sent again: everything of its earlier
					// copy was rolled back.
					for i := d.refAt(evs[:k], int(s)); i < k && int(evs[i].Ref) <= int(runEnd[fi]); i++ {
						if int(evs[i].Frame) == fi {
							evs[i].Flags |= flagRolledBack
							if evs[i].Kind == kPre {
								d.resentPre++
							}
						}
					}
					if noEvents {
						d.resentPre += int(runPre[fi])
					}
					d.resentFrames++
				}
				runStart[fi] = int32(ref + 1)
				itemStart[fi] = int32(len(d.itemOffs))
				itemCount[fi] = 0
				curRun = fi
				if noEvents {
					runPre[fi], prePend = 0, 0
				}
			}
			runEnd[fi] = int32(ref)
			if noEvents {
				// the run's pre-frame updates so far, this one included:
				// those after its last frame update are not the frame's
				if c == cmdPre {
					prePend++
				}
				if prePend != 0 {
					runPre[fi] += int32(prePend)
					prePend = 0
				}
			}
			switch c {
			case cmdPre, cmdPost:
				ev.Kind = kPre
				if c == cmdPost {
					ev.Kind = kPost
				}
				if n < 7 {
					break
				}
				port := int(data[p+5])
				follower := data[p+6] != 0
				if c == cmdPre && !follower {
					// slippi-js counts rollback frames on one player's
					// pre-frame updates: a frame that already has player
					// data is a rollback frame.
					if d.trackedPort < 0 {
						d.trackedPort = port
					}
					if port == d.trackedPort {
						if seen[fi] {
							d.rollbackCount++
							d.curLen++
							d.lastWasRollback = true
						} else if d.lastWasRollback {
							d.rollbackLengths = append(d.rollbackLengths, d.curLen)
							d.curLen = 0
							d.lastWasRollback = false
						}
					}
				}
				if !follower {
					seen[fi] = true
				}
				if following && port < maxSlots && n > 7 && !follower {
					// what arrives after the whole decode's scan, which
					// noted the rest (whole)
					d.framePort(port, c, data[p+7], p)
				}
				if following && port < maxSlots && playerOf[port] < 0 && (d.framed[port] || follower) && !d.listedOnly() {
					// a port only frame updates name (Multi-Man Melee's
					// enemies) becomes a player in port order; one past
					// the arrays' ports needs them laid out again
					if follower || port >= slots || !d.addPort(port) {
						evs = evs[:k]
						return p
					}
				}
				if port >= slots || playerOf[port] < 0 {
					if d.badPort == 0 {
						d.badPortAt, d.badPortFrame = p, fi
					}
					d.badPort++
					d.badPorts[port] = true
					break
				}
				ev.Player = int16(playerOf[port])
				arr := d.pre
				switch {
				case c == cmdPre && follower:
					arr = d.fpre
				case c == cmdPost && follower:
					arr = d.fpost
				case c == cmdPost:
					arr = d.post
				}
				if arr != nil {
					arr[fi*slots+port] = int32(p)
				}
			case cmdItem:
				ev.Kind = kItem
				d.itemOffs = append(d.itemOffs, int32(p))
				itemCount[fi]++
				if n > 0x2A {
					if o := int(int8(data[p+0x2A])); o >= 0 && o < maxSlots {
						ev.Player = int16(playerOf[o])
					}
				}
			case cmdBookend:
				ev.Kind = kBookend
				d.bookend(fi, p, n)
			case cmdFod:
				ev.Kind = kFod
				d.fods++
			default:
				ev.Kind = kindOf(c)
			}
			if before300 && newRun {
				// before bookends: a frame is done when the next begins
				d.finalIdx = max(d.finalIdx, fi-1)
			}
		case cmdSplit:
			ev.Kind = kGecko
			if n >= 0x205 && !d.geckoDone {
				if data[p+0x203] == cmdGecko {
					d.geckoOffs = append(d.geckoOffs, p)
					d.split = true
					if data[p+0x204] != 0 {
						d.geckoDone = true
					}
				}
			}
		case cmdGecko:
			ev.Kind = kGecko
			if !d.split && !d.geckoDone {
				d.geckoOffs = append(d.geckoOffs, p)
				d.geckoDone = true
			}
		case cmdStart:
			ev.Kind = kStart
			if p == d.startOff && !d.started {
				d.gameStart()
				d.assignPorts()
				d.phase = phaseEvents
				before300 = d.version < v300 // a followed file's version comes now
			} else if p != d.startOff {
				d.frameOf(p, last)
			}
		case cmdEnd:
			ev.Kind = kEnd
			ev.Flags |= model.Notable
			d.endAt, d.endFrame = p, last
			d.finalIdx = cnt - 1 // the game is over: every frame is final
		default:
			ev.Kind = kUnknown
			if d.unknown[c] == 0 {
				d.unknownAt[c], d.unknownFrame[c] = p, last
			}
			d.unknown[c]++
		}
		if noEvents && ev.Kind == kFod {
			evs = append(evs, *ev) // the rest are read and checked, not kept
		}
		ref++
		p += n
	}
	return p
}

// refAt is the position in evs of the event whose Ref is ref, or of the
// first after it: events not handed out are in file order.
func (d *decoder) refAt(evs []model.Event, ref int) int {
	if d.nPub == 0 && ref < len(evs) && int(evs[ref].Ref) == ref {
		return ref // a whole decode: nothing moved yet
	}
	pend := evs[d.nPub:]
	return d.nPub + sort.Search(len(pend), func(i int) bool { return int(pend[i].Ref) >= ref })
}

// frameOf gives the diagnostics about the record at p (further Game
// Starts) the frame the pass reached there.
func (d *decoder) frameOf(p, frame int) {
	for _, i := range d.secondStarts {
		if d.diags[i].Span.Off == int64(p) {
			d.diags[i].Frame = frame
		}
	}
}

// bookend notes how far frames are final at a Frame Bookend of frame
// index fi. Offline games never roll back, so a frame is final at its own
// bookend; online games (3.7.0 on) name the last frame that can no longer
// be rolled back; 3.0.0 to 3.6.0 cannot tell an online game from an
// offline one, and no rollback reaches further back than Slippi's limit
// (7 frames, as slippi-js counts).
func (d *decoder) bookend(fi, p, n int) {
	switch {
	case d.version >= v370 && !d.online:
		d.finalIdx = max(d.finalIdx, fi)
	case d.version >= v370 && n >= 9 && !d.sequential:
		if lf := int64(int32(be32(d.data[p+5:]))); lf >= firstFrame {
			d.finalIdx = max(d.finalIdx, int(min(lf-d.first, int64(fi))))
		}
	default:
		d.finalIdx = max(d.finalIdx, fi-maxRollback)
	}
}

// finalIndex is the last frame no later byte can change, -1 when none.
// While the frame numbers have not yet advanced past a few frames, none
// is: training mode repeats one frame number for the whole game, and
// until it has repeated it often enough (layoutOf) the frames look
// numbered the plain way; handing them out would show a timeline that
// the next pieces renumber. A game that ends that early is final at its
// Game End.
func (d *decoder) finalIndex() int {
	if d.following && !d.sequential && d.endOff < 0 && d.st.maxF-d.st.minF < numberingSure {
		return -1
	}
	upto := min(d.finalIdx, d.count-1)
	if d.following && d.why == stopNone {
		// the frame the stream is in takes the events without a frame of
		// their own that come next (Game End, a gecko list, an unknown
		// event) until a later frame begins or the stream stops
		upto = min(upto, d.last-1)
	}
	return upto
}

// numberingSure is how far frame numbers must have advanced before a
// followed file's numbering is taken as the plain one: training mode is
// told by more than 2×span+16 runs of frames (layoutOf), so a span of 17
// frame numbers or more is never it at the start of a game.
const numberingSure = 16

// framePort notes that an update of the port names internal character ch.
func (d *decoder) framePort(port int, c byte, ch byte, p int) {
	if !d.framed[port] {
		d.framed[port], d.framedAt[port] = true, p
	}
	if c == cmdPost && !d.charSeen[port][ch] {
		d.charSeen[port][ch] = true
		d.chars[port] = append(d.chars[port], int(ch))
	}
}

// addPort makes a port that only frame updates name a player, when it
// comes after every player there is (ports are players in port order);
// false when it would take an earlier player's place.
func (d *decoder) addPort(port int) bool {
	for q := port + 1; q < maxSlots; q++ {
		if d.playerOf[q] >= 0 {
			return false
		}
	}
	d.ports[port].ext = -1 // Game Start's character for the port is not theirs
	d.playerOf[port] = len(d.portOf)
	d.portOf = append(d.portOf, port)
	d.newPlayerSeries()
	return true
}

// settle completes the frames up to index upto: the notable events (a
// stock lost, GO), the runs without an update, the charts and the
// platform heights of each, then hands out their events in frame order.
func (d *decoder) settle(upto int) {
	upto = min(upto, d.count-1)
	if !d.paid {
		return
	}
	if upto < d.settled {
		if d.settled > 0 && len(d.evs) > d.nPub {
			// a record the end of the data cut off (finish) that belongs
			// to a frame already handed out
			d.publish(d.settled - 1)
		}
		return
	}
	lo := d.settled
	if !d.opt.NoEvents {
		d.marks(lo, upto) // it flags events: a check keeps none it would flag
	}
	d.gapsTo(lo, upto)
	d.chartTo(upto)
	if d.fods > 0 {
		d.fodTo(lo, upto)
	}
	d.publish(upto)
	d.settled = upto + 1
}

// publish hands out the events of the frames up to upto: they move from
// the file-ordered rest to the end of the frame-ordered part.
func (d *decoder) publish(upto int) {
	pend := d.evs[d.nPub:]
	lo := d.settled
	moved := 0
	for i := range pend {
		if int(pend[i].Frame) < lo {
			// a record of a frame already handed out (a record cut off
			// at the end): the events are put in order again, in a new
			// array, since the snapshots handed out keep the old one
			d.evs = append(append(make([]model.Event, 0, len(d.evs)), d.evs[:d.nPub]...), pend...)
			pend, lo, moved = d.evs, 0, 0
			d.nPub = 0
			for j := range pend {
				if int(pend[j].Frame) <= upto {
					moved++
				}
			}
			break
		}
		if int(pend[i].Frame) <= upto {
			moved++
		}
	}
	if moved == 0 {
		return
	}
	// one bucket per frame, and one for the frames still open, which keep
	// their file order
	key := func(f int) int { return min(f, upto+1) - lo }
	sortByKey(pend, upto+2-lo, key)
	d.nPub += moved
}

// sortByKey puts the events in the order of key (0 .. buckets-1), keeping
// file order within a key: rolled-back copies arrive after later frames,
// and moving each event once straight to its place (a counting sort
// applied in place, cycle by cycle) is far cheaper than letting a general
// stable sort shuffle 80,000 records.
func sortByKey(evs []model.Event, buckets int, key func(frame int) int) {
	sorted := true
	for i := 1; i < len(evs); i++ {
		if key(int(evs[i].Frame)) < key(int(evs[i-1].Frame)) {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	start := make([]int32, buckets+1)
	for i := range evs {
		start[key(int(evs[i].Frame))+1]++
	}
	for f := 1; f <= buckets; f++ {
		start[f] += start[f-1]
	}
	dest := make([]int32, len(evs))
	for i := range evs {
		f := key(int(evs[i].Frame))
		dest[i] = start[f]
		start[f]++
	}
	for i := range evs {
		for int(dest[i]) != i {
			j := dest[i]
			evs[i], evs[j] = evs[j], evs[i]
			dest[i], dest[j] = dest[j], dest[i]
		}
	}
}

// pendingAt is the event not yet handed out that starts at off, nil when
// none: they are in file order.
func (d *decoder) pendingAt(off int32) *model.Event {
	pend := d.evs[d.nPub:]
	i := sort.Search(len(pend), func(i int) bool { return pend[i].Off >= int64(off) })
	if i < len(pend) && pend[i].Off == int64(off) {
		return &pend[i]
	}
	return nil
}

// marks sets the notable events of frames lo..hi: a stock lost, GO at
// frame 0.
func (d *decoder) marks(lo, hi int) {
	if d.size[cmdPost] >= 0x21 {
		for _, port := range d.portOf {
			prev := d.stocksAt[port] - 1
			for fi := lo; fi <= hi; fi++ {
				off := d.post[fi*d.slots+port]
				if off == 0 {
					continue
				}
				s := int(d.data[int(off)+0x21])
				if prev >= 0 && s < prev {
					if e := d.pendingAt(off); e != nil {
						e.Flags |= model.Notable
					}
				}
				prev = s
			}
			d.stocksAt[port] = prev + 1
		}
	}
	if f0 := -d.first; f0 >= int64(lo) && f0 <= int64(hi) {
		if s := int(d.runStart[f0]) - 1; s >= 0 {
			pend := d.evs[d.nPub:]
			if i := d.refAt(d.evs, s) - d.nPub; i < len(pend) && int(pend[i].Ref) == s && pend[i].Kind == kFrame {
				pend[i].Flags |= model.Notable
			}
		}
	}
}

// gapsTo records, for frames lo..hi, each port's runs of frames without an
// update, so that a state at any frame finds its run by binary search.
func (d *decoder) gapsTo(lo, hi int) {
	postLen := 1 + int(d.size[cmdPost])
	pre, post, slots := d.pre, d.post, d.slots
	for _, port := range d.portOf {
		from, lastPost := d.gapFrom[port], d.lastPost[port]
		for fi := lo; fi <= hi; fi++ {
			i := fi*slots + port
			if post[i] == 0 && pre[i] == 0 {
				if from < 0 {
					from = int32(fi)
					if lastPost > 0 && postLen > 0x21 {
						// what the run shows: the last update before it
						d.gapStocks[port], d.gapChar[port] = int16(d.data[lastPost+0x21]), int16(d.data[lastPost+7])
					}
				}
				continue
			}
			if from >= 0 {
				d.gapFrom[port] = from
				d.closeGap(port, fi, false)
				from = -1
			}
			if post[i] > 0 {
				lastPost = post[i]
			}
		}
		d.gapFrom[port], d.lastPost[port] = from, lastPost
	}
}

// closeGap ends the port's run without an update before frame fi.
func (d *decoder) closeGap(port, fi int, last bool) {
	if from := d.gapFrom[port]; from >= 0 {
		d.gaps[port] = append(d.gaps[port], gap{from: from, to: int32(fi - 1), stocks: d.gapStocks[port], char: d.gapChar[port], last: last})
		d.gapFrom[port] = -1
	}
}

// newPlayerSeries starts the chart series of the player just added. A
// check (DecodeOptions.NoEvents) draws no chart: it makes none, though
// payEvents paid for them, so that it refuses where the whole decode does.
func (d *decoder) newPlayerSeries() {
	port := d.portOf[len(d.portOf)-1]
	if d.settled > 0 {
		d.gapFrom[port] = 0 // no update before this one
	}
	if d.opt.NoEvents {
		return
	}
	stocks := float64(d.ports[port].stocks)
	pv, sv := make([]float64, d.settled, max(d.settled, d.count)), make([]float64, d.settled, max(d.settled, d.count))
	for i := range sv {
		sv[i] = stocks
	}
	d.pct, d.stk = append(d.pct, pv), append(d.stk, sv)
	d.lastP, d.lastS = append(d.lastP, 0), append(d.lastS, stocks)
}

// chartTo extends the percent and stocks series to frame hi.
func (d *decoder) chartTo(hi int) {
	if d.opt.NoEvents {
		return // no charts (newPlayerSeries)
	}
	postLen := 1 + int(d.size[cmdPost])
	for pl, port := range d.portOf {
		from := len(d.pct[pl])
		pv, ok := grown(d, "frames", d.pct[pl], hi+1)
		sv, ok2 := grown(d, "frames", d.stk[pl], hi+1)
		if !ok || !ok2 {
			return
		}
		lastP, lastS := d.lastP[pl], d.lastS[pl]
		for fi := from; fi <= hi; fi++ {
			if off := d.post[fi*d.slots+port]; off > 0 && postLen > 0x21 {
				lastP = d.f32at(int(off), 0x16)
				if math.IsNaN(lastP) || math.IsInf(lastP, 0) {
					lastP = 0
				}
				lastS = float64(d.data[int(off)+0x21])
			}
			pv[fi], sv[fi] = lastP, lastS
		}
		d.pct[pl], d.stk[pl] = pv, sv
		d.lastP[pl], d.lastS[pl] = lastP, lastS
	}
}

// fodTo follows the Fountain of Dreams side platforms through frames
// lo..hi for the stage view: the kept platform events set the heights,
// which carry on from where the stage puts them (left 20, right 28).
func (d *decoder) fodTo(lo, hi int) {
	if d.fodL == nil {
		d.fodL, d.fodR = make([]float32, lo, max(d.count, lo)), make([]float32, lo, max(d.count, lo))
		for f := range lo {
			d.fodL[f], d.fodR[f] = 20, 28
		}
	}
	l, ok := grown(d, "frames", d.fodL, hi+1)
	r, ok2 := grown(d, "frames", d.fodR, hi+1)
	if !ok || !ok2 {
		return
	}
	nan := float32(math.NaN())
	for f := lo; f <= hi; f++ {
		l[f], r[f] = nan, nan
	}
	for i := d.nPub; i < len(d.evs); i++ {
		e := &d.evs[i]
		if e.Kind != kFod || e.Flags&^model.Notable != 0 || e.Len < 10 || int(e.Frame) < lo || int(e.Frame) > hi {
			continue
		}
		off := int(e.Off)
		h := math.Float32frombits(be32(d.data[off+6:]))
		if d.data[off+5] == 1 {
			l[e.Frame] = h
		} else {
			r[e.Frame] = h
		}
	}
	for f := lo; f <= hi; f++ {
		if !math.IsNaN(float64(l[f])) {
			d.fodLh = l[f]
		}
		if !math.IsNaN(float64(r[f])) {
			d.fodRh = r[f]
		}
		l[f], r[f] = d.fodLh, d.fodRh
	}
	d.fodL, d.fodR = l, r
}

// finish ends the stream: the data is all there is. A record it cuts off
// becomes a partial event, every frame is complete, and the metadata is
// read.
func (d *decoder) finish() {
	if d.following {
		d.following = false
		d.phase = phaseContainer
		if left := int64(len(d.data) - d.rawStart); d.rawLen > left {
			d.diag(model.Error, len(magic), 4, "raw length", "runs past the end of the file", fmt.Sprintf("%d bytes", d.rawLen), fmt.Sprintf("%d bytes", left))
			d.rawEnd = len(d.data)
		}
		if d.why == stopNone {
			d.phase = phaseScan
			n, why := d.next(d.pos)
			if why == stopNone { // cannot happen: feed read every whole record
				why = stopData
			}
			_ = n
			d.stopAt(d.pos, why)
		}
	}
	if d.rawLen != 0 && d.stop < d.rawEnd {
		d.partial = true // the rest of the raw element was not decoded
	}
	if d.paid && !d.room(1) {
		// a followed file's arrays grow with its frames: the frames they
		// could not grow for (the budget refused) are not kept
		d.count = d.settled
	}
	if d.why == stopCut {
		d.cutOff()
	}
	d.settle(d.count - 1)
	if d.paid {
		for _, port := range d.portOf {
			d.closeGap(port, d.count, true)
		}
	}
	d.trailer()
}

// cutOff reports the record the data cuts off at whyAt: an error, and an
// event of what there is of it, marked partial, in the frame it names
// (clamped into the timeline: a frame that never completed belongs to the
// last one) or the frame the stream was in. Its fields are the ones that
// fit (detail); it never becomes a frame's state.
func (d *decoder) cutOff() {
	p := d.whyAt
	c := d.data[p]
	have := d.rawLimit() - p
	d.cutSize = 1 + int(d.size[c])
	frame := -1
	if d.paid && d.count > 0 {
		frame = d.last
		if hasFrame(c) && have >= 5 && !d.sequential {
			frame = int(min(max(int64(int32(be32(d.data[p+1:])))-d.first, 0), int64(d.count-1)))
		}
	}
	d.phase = phaseScan
	diagFrame := frame
	if d.st.frameEvents == 0 && !hasFrame(c) {
		diagFrame = -1 // before the first frame (Game Start, the gecko list): no frame's data
	}
	d.frameDiag(diagFrame, model.Error, p, have, fmt.Sprintf("event 0x%02x", c), "cut off: "+nameOrCode(c)+" runs past the end of the data",
		fmt.Sprintf("%d bytes", d.cutSize), fmt.Sprintf("%d bytes", have))
	if frame < 0 {
		return
	}
	if d.opt.NoEvents {
		d.refs++
		return
	}
	ev := model.Event{Frame: int32(frame), Player: -1, Kind: kindOf(c), Flags: model.Partial, Ref: int32(d.refs),
		Off: int64(p), Len: int64(have)}
	if (c == cmdPre || c == cmdPost) && have >= 7 {
		if port := int(d.data[p+5]); port < maxSlots && d.playerOf[port] >= 0 {
			ev.Player = int16(d.playerOf[port])
		}
	}
	d.evs = append(d.evs, ev)
	d.refs++
}

// build makes the decoder's replay: its events and frames as far as they
// are complete, the players, the header and the diagnostics. prev is the
// snapshot the replay extends (nil for a whole decode).
func (d *decoder) build(prev *model.Replay) {
	r := newReplay(len(d.data))
	r.Data = d.data
	d.r = r
	if d.verKnown {
		r.Version = verString(d.version)
	}
	r.Players = d.buildPlayers()
	if d.paid {
		d.count = d.settled
		r.Events = d.evs[:d.nPub:d.nPub]
		if d.opt.NoEvents {
			r.Events = nil
		}
		r.Kinds, r.Marks = kindNames, markNames
		r.Timeline.First = d.first
		r.Timeline.Count = d.count
		if d.sequential {
			n := d.seqFrame
			r.Timeline.LabelOf = func(i int) string { return fmt.Sprintf("%d #%d", n, i) }
		}
		d.charts()
		for _, port := range d.portOf {
			d.open[port] = nil
			if from := d.gapFrom[port]; from >= 0 && int(from) < d.count {
				d.open[port] = &gap{from: from, to: int32(d.count - 1), stocks: d.gapStocks[port], char: d.gapChar[port], last: true}
			}
		}
		r.State = d.state
		r.Summarize = d.summarize
		r.Detail = d.detail
		r.Scenes = d.scenes
		r.Analyze = d.analyze
		r.FrameRows = d.frameRows // typed rows for rewind export (rows.go)
	}
	if d.badDiag > 0 && d.paid {
		d.diags[d.badDiag-1].Frame = d.frameIn(d.last)
	}
	d.finishHeader()
	r.Diagnostics = d.diagnostics()
	r.Partial = d.partial
	if d.paid {
		r.FinishGrown(prev)
	}
}

// charts are the percent and stocks series of the complete frames.
func (d *decoder) charts() {
	if len(d.portOf) == 0 || d.opt.NoEvents {
		return
	}
	pct := model.Chart{Title: "percent"}
	stk := model.Chart{Title: "stocks"}
	for pl := range d.portOf {
		label := d.r.Players[pl].Label()
		pct.Series = append(pct.Series, model.Series{Label: label, Player: pl, Values: d.pct[pl][:d.count:d.count]})
		stk.Series = append(stk.Series, model.Series{Label: label, Player: pl, Values: d.stk[pl][:d.count:d.count]})
	}
	d.r.Charts = []model.Chart{pct, stk}
}

// diagnostics lists what is wrong, in the order of the phases that found
// it: the pass's counts (events not understood, ports without a player,
// frame numbers out of range) and the numbering's notes join the rest.
func (d *decoder) diagnostics() []model.Diagnostic {
	d.layoutDiagnostics()
	d.phase = phaseEvents
	for c, k := range d.unknown {
		if k > 0 {
			d.diags = append(d.diags, phased{phaseEvents, model.Diagnostic{Severity: model.Info, Source: source,
				Span: model.Span{Off: int64(d.unknownAt[c]), Len: int64(1 + d.size[c])}, Frame: d.frameIn(d.unknownFrame[c]), Subject: fmt.Sprintf("event 0x%02x", c),
				Message: fmt.Sprintf("listed in Event Payloads but not known to this decoder; skipped %d such events by their size (%d bytes each)", k, 1+d.size[c]),
				Skipped: true}})
		}
	}
	if d.badPort > 0 {
		d.frameDiag(d.frameIn(d.badPortFrame), model.Warning, d.badPortAt, 0, "player index",
			fmt.Sprintf("frame updates naming a port no player has: %d; they are in no player's frames", d.badPort),
			"a port with a player", portsText(&d.badPorts))
	}
	if d.badFrame > 0 {
		d.frameDiag(d.frameIn(d.badFrameWhen), model.Error, d.badFrameAt, 0, "frame number", fmt.Sprintf("%d events have a frame number outside the replay's frame range; they were put at its edge", d.badFrame), "", "")
	}
	sort.SliceStable(d.diags, func(i, j int) bool { return d.diags[i].phase < d.diags[j].phase })
	out := make([]model.Diagnostic, len(d.diags))
	for i := range d.diags {
		out[i] = d.diags[i].Diagnostic
	}
	return out
}

// portsText names the ports of the player indices marked: "port 5" or
// "ports 4, 5, 125".
func portsText(marked *[256]bool) string {
	var ports []string
	for i, yes := range marked {
		if yes {
			ports = append(ports, fmt.Sprint(i+1))
		}
	}
	return plural(len(ports), "port") + " " + strings.Join(ports, ", ")
}

// frameIn is f when the replay has that frame, -1 otherwise.
func (d *decoder) frameIn(f int) int {
	if f >= 0 && f < d.count {
		return f
	}
	return -1
}
