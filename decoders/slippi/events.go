package slippi

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

func be32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }

// events is the second pass: one model.Event per event, the kept copy of
// every frame, rollbacks, the gecko list.
func (d *decoder) events() {
	if !d.paid {
		return
	}
	data := d.data
	cnt := d.count
	evs := make([]model.Event, 0, d.nEvents)
	// Kept copies are file offsets (0 = none: no event starts at 0) and
	// run starts are event index + 1, so that fresh zeroed memory is ready.
	d.pre = make([]int32, cnt*4)
	d.post = make([]int32, cnt*4)
	if d.followers {
		d.fpre = make([]int32, cnt*4)
		d.fpost = make([]int32, cnt*4)
	}
	d.runStart = make([]int32, cnt)
	d.runEnd = make([]int32, cnt)
	d.itemStart = make([]int32, cnt)
	d.itemCount = make([]int32, cnt)
	seen := make([]bool, cnt)

	var unknown [256]int
	var unknownAt [256]int
	badPort, badFrame := 0, 0
	badPortAt, badFrameAt := 0, 0

	evs = append(evs, model.Event{Frame: 0, Player: -1, Kind: kPayloads, Span: model.Span{Off: int64(d.rawStart), Len: int64(d.from - d.rawStart)}})
	p := d.from

	curRun := -1
	curNum := int64(math.MinInt64)
	seq := -1
	last := 0
	trackedPort := -1
	lastWasRollback := false
	curLen := 0
	split := false
	fods := 0
	// Locals, not fields: the compiler cannot tell that the stores into
	// the event records leave the decoder's fields alone.
	size, stop, first, sequential := &d.size, d.stop, d.first, d.sequential
	runStart, runEnd, itemStart, itemCount, playerOf := d.runStart, d.runEnd, d.itemStart, d.itemCount, &d.playerOf
	for p < stop {
		c := data[p]
		n := 1 + int(size[c])
		// Write the record in place: the slice was sized by the scan, and
		// building it on the stack and copying costs more than the decoding.
		k := len(evs)
		if k == cap(evs) { // cannot happen: the scan walked the same events
			evs = append(evs, model.Event{})[:k]
		}
		evs = evs[:k+1]
		ev := &evs[k]
		ev.Frame, ev.Player, ev.Span.Off, ev.Span.Len, ev.Ref = last, -1, int64(p), int64(n), k
		switch c {
		case cmdPre, cmdPost, cmdFrame, cmdItem, cmdBookend, cmdFod, cmdWhispy, cmdStadium:
			if n < 5 {
				ev.Kind = kindOf(c)
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
				if badFrame == 0 {
					badFrameAt = p
				}
				badFrame++
				fi64 = min(max(fi64, 0), int64(cnt-1))
			}
			fi := int(fi64)
			ev.Frame, last = fi, fi
			if fi != curRun || newRun {
				if s := runStart[fi] - 1; s >= 0 {
					// The frame is sent again: everything of its earlier
					// copy was rolled back.
					for i := int(s); i <= int(runEnd[fi]) && i < k; i++ {
						if evs[i].Frame == fi {
							evs[i].Flag = flagRolledBack
							if evs[i].Kind == kPre {
								d.resentPre++
							}
						}
					}
					d.resentFrames++
				}
				runStart[fi] = int32(k + 1)
				itemStart[fi] = int32(len(d.itemOffs))
				itemCount[fi] = 0
				curRun = fi
			}
			runEnd[fi] = int32(k)
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
					if trackedPort < 0 {
						trackedPort = port
					}
					if port == trackedPort {
						if seen[fi] {
							d.rollbackCount++
							curLen++
							lastWasRollback = true
						} else if lastWasRollback {
							d.rollbackLengths = append(d.rollbackLengths, curLen)
							curLen = 0
							lastWasRollback = false
						}
					}
				}
				if !follower {
					seen[fi] = true
				}
				if port >= 4 || playerOf[port] < 0 {
					if badPort == 0 {
						badPortAt = p
					}
					badPort++
					break
				}
				ev.Player = playerOf[port]
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
					arr[fi*4+port] = int32(p)
				}
			case cmdItem:
				ev.Kind = kItem
				d.itemOffs = append(d.itemOffs, int32(p))
				itemCount[fi]++
				if n > 0x2A {
					if o := int(int8(data[p+0x2A])); o >= 0 && o < 4 {
						ev.Player = playerOf[o]
					}
				}
			case cmdFod:
				ev.Kind = kFod
				fods++
			default:
				ev.Kind = kindOf(c)
			}
		case cmdSplit:
			ev.Kind = kGecko
			if n >= 0x205 && !d.geckoDone {
				sz := min(int(binary.BigEndian.Uint16(data[p+0x201:])), 512)
				if data[p+0x203] == cmdGecko {
					d.gecko = append(d.gecko, data[p+1:p+1+sz]...)
					d.geckoOffs = append(d.geckoOffs, p)
					split = true
					if data[p+0x204] != 0 {
						d.geckoDone = true
					}
				}
			}
		case cmdGecko:
			ev.Kind = kGecko
			if !split && !d.geckoDone {
				d.gecko = append(d.gecko, data[p+1:p+n]...)
				d.geckoOffs = append(d.geckoOffs, p)
				d.geckoDone = true
			}
		case cmdStart:
			ev.Kind = kStart
		case cmdEnd:
			ev.Kind = kEnd
			ev.Notable = true
		default:
			ev.Kind = kUnknown
			if unknown[c] == 0 {
				unknownAt[c] = p
			}
			unknown[c]++
		}
		p += n
	}
	if d.cutAt >= 0 && len(evs) < cap(evs) {
		evs = append(evs, d.partialEvent(len(evs), last))
	}
	d.r.Events = evs

	for c, k := range unknown {
		if k > 0 {
			d.r.Diagnostics = append(d.r.Diagnostics, model.Diagnostic{Severity: model.Info, Source: source,
				Span: model.Span{Off: int64(unknownAt[c]), Len: int64(1 + d.size[c])}, Frame: -1, Subject: fmt.Sprintf("event 0x%02x", c),
				Message: fmt.Sprintf("listed in Event Payloads but not known to this decoder; skipped %d such events by their size (%d bytes each)", k, 1+d.size[c]),
				Skipped: true})
		}
	}
	if badPort > 0 {
		d.diag(model.Warning, badPortAt, 0, "player index", fmt.Sprintf("%d frame updates name a port that Game Start leaves empty; they have no player", badPort), "an occupied port", "")
	}
	if badFrame > 0 {
		d.diag(model.Error, badFrameAt, 0, "frame number", fmt.Sprintf("%d events have a frame number outside the replay's frame range; they were put at its edge", badFrame), "", "")
	}

	d.marks()
	d.findGaps()
	if fods > 0 {
		d.fodHeights()
	}
	sortByFrame(d.r.Events, cnt)
	d.charts()
	d.r.Timeline.First = d.first
	d.r.Timeline.Count = cnt
	if d.sequential {
		n := d.seqFrame
		d.r.Timeline.LabelOf = func(i int) string { return fmt.Sprintf("%d #%d", n, i) }
	}
	d.r.State = d.state
	d.r.Summarize = d.summarize
	d.r.Detail = d.detail
	d.r.Scenes = d.scenes
	d.r.Analyze = d.analyze
}

// partialEvent is the event the end of the data cut off: its bytes to the
// end, at the frame it names (clamped into the timeline) or the frame the
// stream was in, for its player when its port byte arrived. Its fields are
// decoded from what is there (detail); it never becomes a frame's state.
func (d *decoder) partialEvent(k, last int) model.Event {
	p, c := d.cutAt, d.data[d.cutAt]
	ev := model.Event{Frame: last, Player: -1, Kind: kindOf(c), Flag: model.FlagPartial, Ref: k,
		Span: model.Span{Off: int64(p), Len: int64(d.rawEnd - p)}}
	if ev.Kind == "" {
		ev.Kind = kUnknown
	}
	if hasFrame(c) && d.rawEnd-p >= 5 {
		ev.Frame = d.frameIndex(int64(int32(be32(d.data[p+1:]))))
	}
	if (c == cmdPre || c == cmdPost) && d.rawEnd-p >= 7 {
		if port := int(d.data[p+5]); port < 4 && d.playerOf[port] >= 0 {
			ev.Player = d.playerOf[port]
		}
	}
	return ev
}

// payEvents pays, before the second pass allocates anything, for what it
// builds: per event the record, the frame sort's index, an item offset and
// a rollback length; per frame the kept copies of each port's updates (and
// the followers'), the runs and items, the seen flags, two chart values per
// player, the platform heights, the sort's counts and the timeline's index.
// It runs right after the scan, in file order: metadata after the events
// cannot take the budget the events need. On refusal the replay keeps its
// header and players but no timeline.
func (d *decoder) payEvents() {
	perEvent := budget.SizeOf[model.Event]() + 4 + 4 + 8
	perFrame := int64(2*4*4 + 4*4 + 1 + 2*8*4 + 2*4 + 4 + 8)
	if d.followers {
		perFrame += 2 * 4 * 4
	}
	if d.b.Items("events", int64(d.nEvents), perEvent) != nil ||
		d.b.Items("frames", int64(d.count), perFrame) != nil {
		d.count = 0
		d.overBudget(int64(d.from), int64(d.stop-d.from))
		return
	}
	d.paid = true
}

// marks sets the notable events: a stock lost, GO at frame 0. The events
// are still in file order, so an offset finds its event by binary search.
func (d *decoder) marks() {
	evs := d.r.Events
	at := func(off int32) *model.Event {
		i := sort.Search(len(evs), func(i int) bool { return evs[i].Span.Off >= int64(off) })
		if i < len(evs) && evs[i].Span.Off == int64(off) {
			return &evs[i]
		}
		return nil
	}
	if d.size[cmdPost] >= 0x21 {
		for port := 0; port < 4; port++ {
			if d.playerOf[port] < 0 {
				continue
			}
			prev := -1
			for fi := 0; fi < d.count; fi++ {
				off := d.post[fi*4+port]
				if off == 0 {
					continue
				}
				s := int(d.data[int(off)+0x21])
				if prev >= 0 && s < prev {
					if e := at(off); e != nil {
						e.Notable = true
					}
				}
				prev = s
			}
		}
	}
	if f0 := -d.first; f0 >= 0 && f0 < int64(d.count) {
		if s := d.runStart[f0] - 1; s >= 0 && evs[s].Kind == kFrame {
			evs[s].Notable = true
		}
	}
}

func (d *decoder) f32at(off, at int) float64 {
	return float64(math.Float32frombits(be32(d.data[off+at:])))
}

func (d *decoder) charts() {
	if len(d.portOf) == 0 {
		return
	}
	pct := model.Chart{Title: "percent"}
	stk := model.Chart{Title: "stocks"}
	postLen := 1 + int(d.size[cmdPost])
	for pl, port := range d.portOf {
		label := d.r.Players[pl].Label()
		pv := make([]float64, d.count)
		sv := make([]float64, d.count)
		lastP, lastS := 0.0, float64(d.ports[port].stocks)
		for fi := 0; fi < d.count; fi++ {
			if off := d.post[fi*4+port]; off > 0 && postLen > 0x21 {
				lastP = d.f32at(int(off), 0x16)
				if math.IsNaN(lastP) || math.IsInf(lastP, 0) {
					lastP = 0
				}
				lastS = float64(d.data[int(off)+0x21])
			}
			pv[fi], sv[fi] = lastP, lastS
		}
		pct.Series = append(pct.Series, model.Series{Label: label, Player: pl, Values: pv})
		stk.Series = append(stk.Series, model.Series{Label: label, Player: pl, Values: sv})
	}
	d.r.Charts = []model.Chart{pct, stk}
}

// sortByFrame puts the events in frame order, keeping file order within a
// frame, before Replay.Finish sorts them: rolled-back copies arrive after
// later frames, and moving each event once straight to its place (a counting
// sort applied in place, cycle by cycle) is far cheaper than letting a
// general stable sort shuffle 80,000 records. Finish then finds them sorted.
func sortByFrame(evs []model.Event, frames int) {
	sorted := true
	for i := 1; i < len(evs); i++ {
		if evs[i].Frame < evs[i-1].Frame {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	start := make([]int32, frames+1)
	for i := range evs {
		start[evs[i].Frame+1]++
	}
	for f := 1; f <= frames; f++ {
		start[f] += start[f-1]
	}
	dest := make([]int32, len(evs))
	for i := range evs {
		f := evs[i].Frame
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

// fodHeights follows the Fountain of Dreams side platforms through the
// kept platform events, for the stage view: heights per frame, starting
// where the stage puts them (left 20, right 28).
func (d *decoder) fodHeights() {
	evs := d.r.Events
	var l, r []float32
	for i := range evs {
		e := &evs[i]
		if e.Kind != kFod || e.Flag != "" || e.Span.Len < 10 {
			continue
		}
		if l == nil {
			l, r = make([]float32, d.count), make([]float32, d.count)
			for f := range l {
				l[f], r[f] = float32(math.NaN()), float32(math.NaN())
			}
		}
		off := int(e.Span.Off)
		h := math.Float32frombits(be32(d.data[off+6:]))
		if d.data[off+5] == 1 {
			l[e.Frame] = h
		} else {
			r[e.Frame] = h
		}
	}
	if l == nil {
		return
	}
	lh, rh := float32(20), float32(28)
	for f := range l {
		if !math.IsNaN(float64(l[f])) {
			lh = l[f]
		}
		if !math.IsNaN(float64(r[f])) {
			rh = r[f]
		}
		l[f], r[f] = lh, rh
	}
	d.fodL, d.fodR = l, r
}
