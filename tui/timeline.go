package tui

import (
	"fmt"
	"math"
	"strings"

	"rewind/model"
	"rewind/theme"
)

// barCache holds the timeline's marks for one width.
type barCache struct {
	w     int
	marks []barMark
	chart [][]float64
}

// barMark is what one cell of the timeline shows besides the bar: a
// glyph (a moment, a notable event, a problem) and the player whose range
// (a combo) covers the cell, which colours the bar there.
type barMark struct {
	ch   rune  // 0: none
	pt   paint // the glyph's paint
	fill int   // player index + 1 of a range over the cell, 0 none
}

// marks places the moments (or, without analysis, the notable events) and
// the problems on a bar w cells wide, once per width: the cost is the
// number of marks, never the replay's length.
func (v *replayView) marks(w int) []barMark {
	c := &v.barCache
	if c.w == w && c.marks != nil {
		return c.marks
	}
	c.w, c.chart = w, nil
	c.marks = make([]barMark, w)
	p := v.paints
	col := func(x float64) int { return min(max(int(math.Round(x*float64(w-1))), 0), w-1) }
	// ranges first, so an instant moment inside one keeps its glyph
	for _, m := range v.p.momMark {
		if !m.ranged {
			continue
		}
		for x := col(m.at); x <= col(m.end); x++ {
			c.marks[x].fill = max(m.player, -1) + 1
		}
	}
	for _, m := range v.p.momMark {
		if m.ranged {
			continue
		}
		pt := p.notable
		if m.player >= 0 {
			pt = p.player(m.player)
		}
		c.marks[col(m.at)].ch, c.marks[col(m.at)].pt = momentGlyph(m.kind), pt
	}
	if len(v.p.moments) == 0 {
		for _, x := range v.p.notable {
			c.marks[col(x)].ch, c.marks[col(x)].pt = '◆', p.notable
		}
	}
	for _, x := range v.p.problems {
		c.marks[col(x)].ch, c.marks[col(x)].pt = '!', p.err
	}
	return c.marks
}

// timeline: the position bar with ticks, then the frame, time and play state.
func (v *replayView) timeline(w int) []string {
	p := v.paints
	tl := v.tl
	n := tl.Count
	head := 0
	if n > 1 {
		head = int(int64(v.frame) * int64(w-1) / int64(n-1))
	}
	marks := v.marks(w)
	var b strings.Builder
	var run strings.Builder
	runPaint := p.plain
	flush := func() {
		runPaint.write(&b, run.String())
		run.Reset()
	}
	for x := 0; x < w; x++ {
		ch, pt := '─', p.barRest
		if x < head {
			ch, pt = '━', p.barDone
		}
		m := marks[x]
		if m.fill > 0 {
			pt = p.player(m.fill - 1)
		}
		if m.ch != 0 {
			ch, pt = m.ch, m.pt
		}
		if x == head {
			ch, pt = '●', p.barHead
		}
		if pt != runPaint {
			flush()
			runPaint = pt
		}
		run.WriteRune(ch)
	}
	flush()
	// status line
	unit := tl.Unit
	if unit == "" {
		unit = "frame"
	}
	var s []string
	if lt := v.liveText(); lt != "" {
		s = append(s, lt)
	}
	if lt := v.loadingText(); lt != "" {
		s = append(s, lt)
	}
	if n == 0 {
		s = append(s, "no frames")
	} else {
		// a label that names the unit itself ("loop 1234") is said once:
		// "loop 1234 / 15467"
		cur := theme.Safe(tl.Label(v.frame))
		t := model.FormatDuration(tl.Time(v.frame))
		switch {
		case tl.Clock != nil:
			// the game's own clock as players saw it, real time beside it,
			// and the frame by its unit ("loop 6,720 / 8,185"); c puts real
			// time first
			game := fmt.Sprintf("%s / %s %s", model.FormatDuration(tl.Clock(v.frame)), model.FormatDuration(tl.Clock(n-1)), tl.ClockName)
			real := fmt.Sprintf("%s / %s real", t, model.FormatDuration(playLength(v.r)))
			if v.realClock {
				game, real = real, game
			}
			s = append(s, game, p.dim.wrap(real),
				fmt.Sprintf("%s %s / %s", unit, model.FormatCount(tl.Number(v.frame)), model.FormatCount(tl.Number(n-1))))
		case !v.noTime && strings.HasPrefix(cur, t):
			// the label is the game time (BSOR's song time): say it once,
			// and count the frames by their unit ("sample 901 / 2,682")
			s = append(s, cur+" / "+model.FormatDuration(playLength(v.r)),
				fmt.Sprintf("%s %s / %s", unit, model.FormatCount(int64(v.frame+1)), model.FormatCount(int64(n))))
		default:
			s = append(s, fmt.Sprintf("%s %s / %s", unit, theme.Safe(frameLabel(tl, v.frame)), theme.Safe(frameLabel(tl, n-1))))
			if v.noTime {
				s = append(s, p.dim.wrap(fmt.Sprintf("no game time: 1 s = %d %ss", framesPerSecond, unit)))
			} else {
				s = append(s, t+" / "+model.FormatDuration(playLength(v.r)))
			}
		}
	}
	sp := speedText(speeds[v.speed])
	if v.playing {
		s = append(s, p.playing.wrap("▶ "+sp))
	} else {
		s = append(s, p.paused.wrap("❚❚ "+sp))
	}
	// problems are warnings and errors; info diagnostics are notes
	if np := v.r.Problems(); np > 0 {
		t := fmt.Sprintf("! %d problem", np)
		if np != 1 {
			t += "s"
		}
		s = append(s, p.err.wrap(t))
	} else if nn := len(v.r.Diagnostics); nn > 0 {
		t := fmt.Sprintf("%d note", nn)
		if nn != 1 {
			t += "s"
		}
		s = append(s, t)
	}
	switch {
	case v.searching:
		s = append(s, "searching…")
	case len(v.matches) > 0:
		m := "-"
		if v.match >= 0 {
			m = thousands(int64(v.match + 1))
		}
		s = append(s, p.match.wrap(fmt.Sprintf("match %s/%s", m, thousands(int64(len(v.matches))))))
	}
	return []string{b.String(), " " + strings.Join(s, "   ")}
}

func speedText(s float64) string {
	if s < 1 {
		return fmt.Sprintf("×1/%d", int(math.Round(1/s)))
	}
	return fmt.Sprintf("×%d", int(s))
}

var sparks = []rune("▁▂▃▄▅▆▇█")

// chartLane: one sparkline per series over the whole game, the current
// frame's column marked.
func (v *replayView) chartLane(w, n int) []string {
	if n <= 0 {
		return nil
	}
	p := v.paints
	labels := v.chartLabels()
	x0, cw := v.chartX()
	labelW := x0 - 1
	if cw < 4 {
		return block(nil, w, n)
	}
	c := &v.barCache
	v.marks(w) // resets the cache on a width change
	if c.chart == nil {
		for _, ch := range v.p.charts {
			for _, s := range ch.series {
				c.chart = append(c.chart, pool(s.vals, cw))
			}
		}
	}
	head := 0
	if cnt := v.count(); cnt > 1 {
		head = int(int64(v.frame) * int64(cw-1) / int64(cnt-1))
	}
	var out []string
	k := 0
	for _, ch := range v.p.charts {
		for _, s := range ch.series {
			if len(out) >= n {
				return out
			}
			vals := c.chart[k]
			k++
			var b strings.Builder
			b.WriteString(p.player(s.player).wrap(fit(labels[k-1], labelW)))
			b.WriteByte(' ')
			var line []rune
			// the pooled values may be fewer than the columns: stretch them
			for x := 0; x < cw; x++ {
				r := ' '
				if len(vals) > 0 {
					val := vals[x*len(vals)/cw]
					if val == val && ch.hi > ch.lo {
						lvl := int((val - ch.lo) / (ch.hi - ch.lo) * float64(len(sparks)-1))
						r = sparks[min(max(lvl, 0), len(sparks)-1)]
					} else if val == val {
						r = sparks[0]
					}
				}
				line = append(line, r)
			}
			head = min(head, len(line)-1)
			pc := p.player(s.player)
			pc.write(&b, string(line[:head]))
			p.chartMark.write(&b, string(line[head]))
			pc.write(&b, string(line[head+1:]))
			out = append(out, b.String())
		}
	}
	return out
}

// chartX is where the chart lane's plot starts and how wide it is: the
// labels get what they need up to a sixth of the width, 14 cells at least.
func (v *replayView) chartX() (x, w int) {
	labelW := 0
	for _, l := range v.chartLabels() {
		labelW = max(labelW, width(l))
	}
	labelW = min(labelW, max(14, v.w/6))
	return labelW + 1, v.w - labelW - 1
}

// chartLabels names each series of the chart lane once per replay:
// "P1 percent", the slot being enough to name a player's series.
func (v *replayView) chartLabels() []string {
	if v.chartLbl != nil {
		return v.chartLbl
	}
	v.chartLbl = []string{}
	for _, ch := range v.p.charts {
		for _, s := range ch.series {
			label := s.label
			if s.player >= 0 && s.player < len(v.r.Players) && v.r.Players[s.player].Slot != "" {
				label = v.r.Players[s.player].Slot
			}
			if !strings.Contains(strings.ToLower(label), strings.ToLower(ch.title)) {
				label = strings.TrimSpace(label + " " + ch.title)
			}
			v.chartLbl = append(v.chartLbl, theme.Safe(label))
		}
	}
	return v.chartLbl
}
