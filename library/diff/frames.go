package diff

import (
	"rewind/model"
)

// frameCmp compares frames of two replays, reusing its buffers from frame
// to frame: a walk over a long game allocates for what differs, not for
// every frame.
type frameCmp struct {
	a, b     *model.Replay
	ignore   map[string]bool // field keys and event kinds left out (Options.Ignore)
	out      []Difference
	evA, evB []eventRef
	usedB    []bool
}

func newFrameCmp(a, b *model.Replay, opt Options) *frameCmp {
	c := &frameCmp{a: a, b: b}
	if len(opt.Ignore) > 0 {
		c.ignore = map[string]bool{}
		for _, k := range opt.Ignore {
			c.ignore[k] = true
		}
	}
	return c
}

// At returns the differences at frame number n (Timeline.Number) of two
// replays of one game: every player's state and the frame's events, less
// what opt.Ignore names. It is empty when both have the frame and it
// agrees, and when either lacks it.
func At(a, b *model.Replay, n int64, opt Options) []Difference {
	return newFrameCmp(a, b, opt).frame(n)
}

// frame compares frame number n; the result is valid until the next call.
func (c *frameCmp) frame(n int64) []Difference {
	a, b := c.a, c.b
	c.out = c.out[:0]
	ia, ib := n-a.Timeline.First, n-b.Timeline.First
	if ia < 0 || ia >= int64(a.Timeline.Count) || ib < 0 || ib >= int64(b.Timeline.Count) {
		return c.out
	}
	base := Difference{Frame: n, To: n, IndexA: int(ia), IndexB: int(ib), Time: a.Timeline.Time(int(ia)),
		Player: -1, EventA: -1, EventB: -1}
	// every player's state
	for p := 0; p < max(len(a.Players), len(b.Players)); p++ {
		sa, sb := a.PlayerState(int(ia), p), b.PlayerState(int(ib), p)
		from := len(c.out)
		compareFields("", sa.Fields, sb.Fields, 0, func(path string, fa, fb *model.Field) {
			if c.ignore[leaf(path)] {
				return
			}
			d := base
			d.Kind, d.Player, d.Field = KindState, p, path
			setValues(&d, fa, fb)
			c.out = append(c.out, d)
		})
		if sa.Present != sb.Present && !c.said(from, "present") {
			// the player is there in one file only (unless a field of
			// the state says so already)
			d := base
			d.Kind, d.Player, d.Field, d.A, d.B = KindState, p, "present", sa.Present, sb.Present
			c.out = append(c.out, d)
		}
	}
	states := len(c.out)
	// the events, matched by kind and player in file order
	c.evA = c.keep(frameEvents(a, int(ia), c.evA[:0]))
	c.evB = c.keep(frameEvents(b, int(ib), c.evB[:0]))
	c.usedB = c.usedB[:0]
	for range c.evB {
		c.usedB = append(c.usedB, false)
	}
	next := 0 // the first B event not yet matched
	for _, ea := range c.evA {
		j := -1
		for k := next; k < len(c.evB); k++ {
			if !c.usedB[k] && c.evB[k].kind == ea.kind && c.evB[k].player == ea.player {
				j = k
				break
			}
		}
		if j < 0 {
			d := base
			d.Kind, d.Player, d.Event, d.EventA, d.Only = KindEvent, ea.player, ea.kind, ea.index, "A"
			d.A = eventSummary(a, ea.index)
			c.out = append(c.out, d)
			continue
		}
		c.usedB[j] = true
		for next < len(c.evB) && c.usedB[next] {
			next++
		}
		eb := c.evB[j]
		compareFields("", eventFields(a, ea.index), eventFields(b, eb.index), 0, func(path string, fa, fb *model.Field) {
			if c.ignore[leaf(path)] {
				return
			}
			d := base
			d.Kind, d.Player, d.Event, d.EventA, d.EventB, d.Field = KindEvent, ea.player, ea.kind, ea.index, eb.index, path
			setValues(&d, fa, fb)
			if c.repeatsState(d, states) {
				return
			}
			c.out = append(c.out, d)
		})
	}
	for k, eb := range c.evB {
		if !c.usedB[k] {
			d := base
			d.Kind, d.Player, d.Event, d.EventB, d.Only = KindEvent, eb.player, eb.kind, eb.index, "B"
			d.B = eventSummary(b, eb.index)
			c.out = append(c.out, d)
		}
	}
	return c.out
}

// keep drops the events of kinds Options.Ignore names.
func (c *frameCmp) keep(evs []eventRef) []eventRef {
	if c.ignore == nil {
		return evs
	}
	out := evs[:0]
	for _, e := range evs {
		if !c.ignore[e.kind] {
			out = append(out, e)
		}
	}
	return out
}

// said reports whether a difference from index from on has the field path.
func (c *frameCmp) said(from int, path string) bool {
	for _, d := range c.out[from:] {
		if d.Field == path {
			return true
		}
	}
	return false
}

// repeatsState reports whether an event's differing field is one the
// player's state already showed differing, with the same two values (a
// Slippi post-frame update is both an event and the state it leaves): the
// same fact is counted once, as the state's, which then names the events
// that record it.
func (c *frameCmp) repeatsState(d Difference, states int) bool {
	key := leaf(d.Field)
	for k := range c.out[:states] {
		s := &c.out[k]
		if s.Player == d.Player && leaf(s.Field) == key && Equal(s.A, d.A) && Equal(s.B, d.B) {
			if s.EventA < 0 && s.EventB < 0 {
				s.Event, s.EventA, s.EventB = d.Event, d.EventA, d.EventB
			}
			return true
		}
	}
	return false
}

func setValues(d *Difference, fa, fb *model.Field) {
	if fa != nil {
		d.A, d.AName = fa.Value, fa.Name
		if fa.Value == nil && len(fa.Fields) > 0 {
			d.A = "(group)"
		}
	}
	if fb != nil {
		d.B, d.BName = fb.Value, fb.Name
		if fb.Value == nil && len(fb.Fields) > 0 {
			d.B = "(group)"
		}
	}
}

// walk compares two replays of one game frame by frame, filling res.
func walk(res *Result, opt Options) {
	a, b := res.A, res.B
	add := func(d Difference) {
		if res.First == nil {
			first := d
			res.First = &first
		}
		if opt.Limit < 0 || len(res.Differences) < opt.Limit {
			res.Differences = append(res.Differences, d)
		}
	}
	ta, tb := &a.Timeline, &b.Timeline
	ov, ok := overlap(a, b)
	res.Overlap = ov
	// frames only one file has, before the overlap (or all of them, when
	// the files have no frame in common)
	only := func(file string, from, to int64) {
		if from > to {
			return
		}
		d := Difference{Kind: KindFrames, Frame: from, To: to, IndexA: -1, IndexB: -1, Player: -1, EventA: -1, EventB: -1, Only: file}
		if file == "A" {
			d.IndexA = int(from - ta.First)
			d.Time = ta.Time(d.IndexA)
			res.OnlyA = append(res.OnlyA, Range{from, to})
		} else {
			d.IndexB = int(from - tb.First)
			d.Time = tb.Time(d.IndexB)
			res.OnlyB = append(res.OnlyB, Range{from, to})
		}
		add(d)
	}
	lastA, lastB := ta.Number(ta.Count-1), tb.Number(tb.Count-1)
	if !ok {
		if ta.Count > 0 {
			only("A", ta.First, lastA)
		}
		if tb.Count > 0 {
			only("B", tb.First, lastB)
		}
		ends(res)
		res.Identical = res.First == nil && len(res.End) == 0
		return
	}
	only("A", ta.First, ov.From-1)
	only("B", tb.First, ov.From-1)
	c := newFrameCmp(a, b, opt)
	total := ov.To - ov.From + 1
	for n := ov.From; n <= ov.To; n++ {
		if opt.Progress != nil && (n-ov.From)%256 == 0 {
			opt.Progress(n-ov.From, total)
		}
		ds := c.frame(n)
		if len(ds) == 0 {
			continue
		}
		res.DifferingFrames++
		res.DifferingFields += len(ds)
		if k := len(res.Ranges); k > 0 && res.Ranges[k-1].To == n-1 {
			res.Ranges[k-1].To = n
		} else {
			res.Ranges = append(res.Ranges, Range{n, n})
		}
		for _, d := range ds {
			add(d)
		}
	}
	only("A", ov.To+1, lastA)
	only("B", ov.To+1, lastB)
	ends(res)
	res.Identical = res.First == nil && len(res.End) == 0
}

// ends compares what the headers say about how the game ended: the
// result, the length of play and each player's result.
func ends(res *Result) {
	a, b := res.A, res.B
	end := func(player int, field string, va, vb any) {
		if !Equal(va, vb) {
			res.End = append(res.End, Difference{Kind: KindEnd, IndexA: -1, IndexB: -1, Player: player,
				EventA: -1, EventB: -1, Field: field, A: va, B: vb})
		}
	}
	end(-1, "result", a.Result, b.Result)
	end(-1, "duration", a.Duration, b.Duration)
	for i := 0; i < min(len(a.Players), len(b.Players)); i++ {
		end(i, "result", a.Players[i].Result, b.Players[i].Result)
	}
}
