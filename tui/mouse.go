package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// onMouse: a click focuses the pane under it and selects the row (an event
// or a moment seeks to its frame, a problem jumps to its bytes, a byte of
// the dump takes the byte cursor); a click or drag on the timeline or the
// charts seeks; the wheel scrolls the pane under the pointer.
func (v *replayView) onMouse(m tea.MouseMsg) tea.Cmd {
	if v.showHelp || v.inputMode != inputNone {
		return nil
	}
	l := v.layout()
	g := v.regions(l)
	wheel := 0
	switch {
	case m.Action != tea.MouseActionPress && m.Action != tea.MouseActionMotion:
		return nil
	case m.Button == tea.MouseButtonWheelUp:
		wheel = -3
	case m.Button == tea.MouseButtonWheelDown:
		wheel = 3
	case m.Button != tea.MouseButtonLeft:
		return nil
	}
	drag := m.Action == tea.MouseActionMotion
	// the bar and the charts seek, by click or by drag
	if g.bar.has(m.X, m.Y) || (g.charts.has(m.X, m.Y) && !v.showStats) {
		if wheel != 0 {
			v.timeStep(v.wheelTime(wheel))
			return nil
		}
		v.seekAt(m.X, m.Y == l.barY)
		return nil
	}
	if drag {
		return nil // a drag over the panes selects nothing
	}
	if v.showStats && g.stats.has(m.X, m.Y) {
		if wheel != 0 {
			v.statCur += wheel
			v.statCur = max(v.statCur, 0)
			return nil
		}
		if row := m.Y - g.stats.y - 1; row >= 0 {
			v.statCur = v.hits.statTop + row
		}
		return nil
	}
	// the chooser sits in the list pane's place
	if v.chooser != nil {
		if g.list.has(m.X, m.Y) {
			c := v.chooser
			if row := m.Y - g.list.y - 1; row >= 0 && wheel == 0 {
				if i := v.hits.chooseTop + row; i < len(c.items) {
					c.cur = i
					c.items[i].on = !c.items[i].on
				}
			}
		}
		return nil
	}
	for _, pr := range []struct {
		r  rect
		id paneID
	}{{g.list, paneEvents}, {g.problems, paneProblems}, {g.right, paneInspector}, {g.header, paneHeader}} {
		if !pr.r.has(m.X, m.Y) {
			continue
		}
		if wheel != 0 {
			v.scrollPane(pr.id, wheel)
			v.status = ""
			return nil
		}
		v.setFocus(pr.id)
		v.clickIn(pr.id, pr.r, m.X-pr.r.x-1, m.Y-pr.r.y-1)
		return nil
	}
	return nil
}

// wheelTime is how far the wheel over the timeline moves: a second a notch.
func (v *replayView) wheelTime(d int) time.Duration { return time.Duration(d/3) * time.Second }

// seekAt seeks to the frame under column x of the bar (bar true) or of
// the chart lane's plot.
func (v *replayView) seekAt(x int, bar bool) {
	n := v.count()
	if n == 0 || v.w <= 1 {
		return
	}
	lo, w := 0, v.w
	if !bar {
		lo, w = v.chartX()
		if x < lo {
			return
		}
	}
	x = max(0, min(x-lo, w-1))
	v.seek(int(int64(x) * int64(n-1) / int64(max(w-1, 1))))
	if v.playing {
		v.lastTick = time.Time{}
	}
}

// clickIn selects what is at (col, row) of a pane's content, the title
// being row -1.
func (v *replayView) clickIn(p paneID, r rect, col, row int) {
	if row < 0 {
		return // the title: focus only
	}
	switch p {
	case paneEvents:
		if row >= len(v.hits.list) {
			return
		}
		h := v.hits.list[row]
		switch {
		case h.mom >= 0:
			v.selectMoment(h.mom)
		case h.ev >= 0 && h.field >= 0:
			v.selectEvent(h.ev)
			v.evField = h.field
			v.showEventField()
		case h.ev >= 0:
			v.selectEvent(h.ev)
		}
	case paneProblems:
		if i := v.hits.probTop + row; i < len(v.r.Diagnostics) {
			v.jumpProblem(i)
		}
	case paneHeader:
		if i := v.hits.headTop + row - v.hits.headFirst; row >= v.hits.headFirst && i < len(v.header) {
			v.headCur = i
		}
	case paneInspector:
		if v.stage {
			return
		}
		if off, ok := v.byteAt(r.w, col, row); ok {
			v.follow = false
			v.cur = off
		}
	}
}

// byteAt is the offset of the byte drawn at (col, row) of the hex dump:
// the offset column (8), the row mark (2), then per byte two digits and a
// space, two spaces in the middle of a row of 8 or 16; the ASCII column
// after them.
func (v *replayView) byteAt(w, col, row int) (int64, bool) {
	data := v.r.Bytes(v.stream)
	bpr := v.bytesPerRow(w)
	if row >= v.hexRows || row < 0 {
		return 0, false
	}
	x := col - 10
	if x < 0 {
		return 0, false
	}
	i := -1
	for b := 0; b < bpr; b++ {
		start := b * 3
		if bpr >= 8 && b >= bpr/2 {
			start++
		}
		if x >= start && x < start+2 {
			i = b
		}
	}
	// the ASCII column
	ascii := bpr*3 + 1
	if bpr >= 8 {
		ascii++
	}
	if x >= ascii && x < ascii+bpr {
		i = x - ascii
	}
	off := v.hexTop + int64(row)*int64(bpr) + int64(i)
	if i < 0 || off >= int64(len(data)) {
		return 0, false
	}
	return off, true
}
