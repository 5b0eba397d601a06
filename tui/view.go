package tui

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"rewind/model"
)

// layout is where every pane goes at the current size. It is plain
// arithmetic, computed on demand by Update (mouse hits, page sizes) and View.
type layout struct {
	wide             bool
	topH             int // header + players (side by side when wide, stacked otherwise)
	hdrW, plW        int
	hdrH, plH        int // stacked heights when narrow
	barY             int // the timeline bar's row
	chartN           int // chart lane lines
	botY, botH       int
	evW, evH         int
	probH            int
	inspW, inspH     int
	showEv, showProb bool
	showInsp         bool
	stacked          bool // narrow: bottom panes above each other
}

const wideMin = 110

func (v *replayView) layout() layout {
	var l layout
	w, h := v.w, v.h
	l.wide = w >= wideMin
	np := len(v.r.Players)
	series := 0
	for _, c := range v.p.charts {
		series += len(c.series)
	}
	if l.wide {
		l.topH = max(np+1, 5)
		if v.focus == paneHeader {
			l.topH = max(l.topH, h/3) // room to read the header while it has the focus
		}
		l.topH = min(l.topH, max(h/3, 3))
		l.hdrW = w * 2 / 5
		l.plW = w - l.hdrW - 1
	} else {
		l.hdrH = 4
		switch {
		case v.focus == paneHeader:
			l.hdrH = max(4, h/3)
		case h < 30:
			l.hdrH = 3
		}
		if np > 0 {
			l.plH = min(np, 4) + 1
		}
		l.topH = l.hdrH + l.plH
	}
	l.barY = l.topH
	avail := h - 1 - 2 - l.topH // help line, timeline (bar + status)
	l.chartN = min(series, max(0, (avail-8)/4))
	l.botY = l.topH + 2 + l.chartN
	l.botH = max(avail-l.chartN, 0)
	hasProb := len(v.r.Diagnostics) > 0
	if l.wide {
		// the inspector gets room for 16 bytes a row when the events keep 70 cells
		l.inspW = w * 9 / 20
		if w-79-1 >= 70 {
			l.inspW = 79
		}
		l.evW = w - l.inspW - 1
		l.inspH = l.botH
		l.showEv, l.showInsp = true, true
		l.evH = l.botH
		if hasProb {
			l.probH = min(len(v.r.Diagnostics)+1, max(3, l.botH/3))
			l.evH = l.botH - l.probH
			l.showProb = true
		}
		return l
	}
	// narrow: the events pane, and under it the focused one of the others
	l.evW, l.inspW = w, w
	other := paneInspector
	if v.focus == paneProblems {
		other = paneProblems
	}
	if l.botH >= 12 {
		l.stacked = true
		l.showEv = true
		l.evH = l.botH / 2
		rest := l.botH - l.evH
		if other == paneProblems {
			l.showProb, l.probH = true, rest
		} else {
			l.showInsp, l.inspH = true, rest
		}
		return l
	}
	switch v.focus {
	case paneProblems:
		l.showProb, l.probH = true, l.botH
	case paneInspector:
		l.showInsp, l.inspH = true, l.botH
	default:
		l.showEv, l.evH = true, l.botH
	}
	return l
}

// View draws the replay view. It touches only what is on screen.
func (v *replayView) View() string {
	if v.w <= 0 || v.h <= 0 {
		return ""
	}
	l := v.layout()
	var lines []string
	if v.showHelp {
		// the whole screen: every key must be readable even at 80x24
		groups := append(v.keys.FullHelp(), inspectorHelp())
		var text []string
		if v.w >= 130 {
			text = strings.Split(v.help.FullHelpView(groups), "\n")
		} else {
			text = strings.Split(v.help.FullHelpView(groups[:3]), "\n")
			text = append(text, "")
			text = append(text, strings.Split(v.help.FullHelpView(groups[3:]), "\n")...)
		}
		lines = v.pane("keys · any key closes", true, v.w, v.h-1, text)
		return strings.Join(append(lines, v.helpLine()), "\n")
	}
	if l.wide {
		lines = append(lines, hjoin(v.sep(), v.headerPane(l.hdrW, l.topH), v.playersPane(l.plW, l.topH))...)
	} else {
		lines = append(lines, v.headerPane(v.w, l.hdrH)...)
		lines = append(lines, v.playersPane(v.w, l.plH)...)
	}
	tl := v.timeline(v.w)
	tl[1] = fit(tl[1], v.w)
	lines = append(lines, tl...)
	lines = append(lines, v.chartLane(v.w, l.chartN)...)
	if l.wide {
		var left []string
		left = append(left, v.eventsPane(l.evW, l.evH)...)
		if l.showProb {
			left = append(left, v.problemsPane(l.evW, l.probH)...)
		}
		lines = append(lines, hjoin(v.sep(), left, v.rightPane(l.inspW, l.inspH))...)
	} else {
		if l.showEv {
			lines = append(lines, v.eventsPane(l.evW, l.evH)...)
		}
		if l.showProb {
			lines = append(lines, v.problemsPane(v.w, l.probH)...)
		}
		if l.showInsp {
			lines = append(lines, v.rightPane(v.w, l.inspH)...)
		}
	}
	lines = append(lines, v.helpLine())
	// every line is already cut to the width; only the count needs fixing
	blank := strings.Repeat(" ", v.w)
	for len(lines) < v.h {
		lines = append(lines, blank)
	}
	return strings.Join(lines[:v.h], "\n")
}

func (v *replayView) sep() string { return v.paints.dim.wrap("│") }

func (v *replayView) rightPane(w, h int) []string {
	if v.stage {
		return v.stagePane(w, h)
	}
	return v.inspectorPane(w, h)
}

func (v *replayView) helpLine() string {
	switch {
	case v.inputMode != inputNone:
		return v.input.View(v.w)
	case v.status != "":
		return fit(v.paints.warn.wrap(clean(v.status)), v.w)
	}
	// the key map does not change: draw the line once per width
	if v.helpW != v.w {
		v.helpW, v.helpText = v.w, fit(v.help.ShortHelpView(v.keys.ShortHelp()), v.w)
	}
	return v.helpText
}

// headerPane: the summary values, then the header fields as a tree.
func (v *replayView) headerPane(w, h int) []string {
	r := v.r
	p := v.paints
	var lines []string
	var first []string
	add := func(parts *[]string, s string) {
		if s != "" {
			*parts = append(*parts, clean(s))
		}
	}
	add(&first, strings.TrimSpace(r.FormatName+" "+r.Version))
	add(&first, r.Title)
	if r.Duration > 0 {
		add(&first, model.FormatDuration(r.Duration))
	}
	lines = append(lines, p.bold.wrap(strings.Join(first, "  ")))
	var second []string
	if !r.Start.IsZero() {
		add(&second, r.Start.Format("2006-01-02 15:04"))
	}
	add(&second, r.Mode)
	add(&second, r.Result)
	if r.Partial {
		second = append(second, p.warn.wrap("partial"))
	}
	if len(second) > 0 {
		lines = append(lines, strings.Join(second, "  "))
	}
	name := filepath.Base(r.Path)
	if r.Path == "" {
		name = "(memory)"
	}
	lines = append(lines, p.dim.wrap(clean(name)+"  "+humanSize(max(r.Size, int64(len(r.Data))))))
	// the fields scroll under the summary; the cursor shows when focused
	rows := h - 1 - len(lines)
	focused := v.focus == paneHeader
	if rows > 0 {
		if v.headCur < v.headTop {
			v.headTop = v.headCur
		}
		if v.headCur >= v.headTop+rows {
			v.headTop = v.headCur - rows + 1
		}
	}
	for i := v.headTop; i < len(v.header) && i < v.headTop+max(rows, 0); i++ {
		if focused && i == v.headCur {
			lines = append(lines, p.cursor.wrap(fit("> "+ansi.Strip(v.treeText(v.header[i], 0)), w-1)))
			continue
		}
		lines = append(lines, "  "+v.treeText(v.header[i], 0))
	}
	title := "header"
	if focused && len(v.header) > 0 {
		title = fmt.Sprintf("header %d/%d · enter shows its bytes", v.headCur+1, len(v.header))
	}
	return v.pane(title, focused, w, h, lines)
}

func (v *replayView) treeText(t treeLine, indent int) string {
	p := v.paints
	s := strings.Repeat("  ", indent+t.depth) + p.label.wrap(t.label)
	if t.text != "" {
		s += " " + t.text
	}
	if t.raw != "" && t.raw != t.text {
		s += " " + p.dim.wrap("("+t.raw+")")
	}
	return s
}

// playersPane: each player's brief state at the current frame.
func (v *replayView) playersPane(w, h int) []string {
	if h <= 0 {
		return nil
	}
	r := v.r
	p := v.paints
	var lines []string
	for i := range r.Players {
		if len(lines) >= h-1 {
			break
		}
		pl := r.Players[i]
		st := r.PlayerState(v.frame, i)
		said := map[string]bool{}
		var who []string
		for _, s := range []string{pl.Character, pl.Name, pl.Code} {
			if s = clean(s); s != "" && !said[s] {
				who = append(who, s)
				said[s] = true
			}
		}
		start := v.startStocks(i)
		if n := startStocks(st.Brief); n > 0 {
			start = n
		}
		var parts []string
		for _, f := range st.Brief {
			if startStockKeys[f.Key] {
				continue // told by the dots
			}
			// a brief value the line already shows (the character) is left out
			if t := briefText(f, start); t != "" && !said[t] {
				parts = append(parts, t)
			}
		}
		// on a narrow pane drop, in order: the code, the state fields past
		// the first three (the ones decoders put first matter most), then
		// the name; the character and the first state fields stay
		lineWidth := func() int {
			n := ansi.StringWidth(pl.Slot) + 1
			if len(who) > 0 {
				n += width(" " + strings.Join(who, " "))
			}
			for _, t := range parts {
				n += 2 + width(t)
			}
			return n
		}
		for lineWidth() > w {
			if len(who) > 2 {
				who = who[:2]
			} else if len(parts) > 3 {
				parts = parts[:len(parts)-1]
			} else if len(who) > 1 {
				who = who[:1]
			} else {
				break // what is left is cut to the pane
			}
		}
		var state strings.Builder
		for _, t := range parts {
			state.WriteString("  " + t)
		}
		var b strings.Builder
		b.WriteString(p.player(i).wrap(clean(pl.Slot)))
		if len(who) > 0 {
			b.WriteString(" " + strings.Join(who, " "))
		}
		b.WriteString(state.String())
		line := b.String()
		if !st.Present && r.State != nil {
			line = p.dim.wrap(ansi.Strip(line) + "  (absent)")
		}
		lines = append(lines, line)
	}
	if len(r.Players) == 0 {
		lines = append(lines, p.dim.wrap("no players"))
	}
	return v.pane("players", false, w, h, lines)
}

// barCache holds the timeline's marks for one width.
type barCache struct {
	w     int
	marks []byte // 0 none, 1 notable, 2 problem
	chart [][]float64
}

func (v *replayView) marks(w int) []byte {
	c := &v.barCache
	if c.w == w && c.marks != nil {
		return c.marks
	}
	c.w, c.chart = w, nil
	c.marks = make([]byte, w)
	col := func(x float64) int { return min(max(int(math.Round(x*float64(w-1))), 0), w-1) }
	for _, x := range v.p.notable {
		c.marks[col(x)] = 1
	}
	for _, x := range v.p.problems {
		c.marks[col(x)] = 2
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
		ch, pt := "─", p.barRest
		if x < head {
			ch, pt = "━", p.barDone
		}
		switch marks[x] {
		case 1:
			ch, pt = "◆", p.notable
		case 2:
			ch, pt = "!", p.err
		}
		if x == head {
			ch, pt = "●", p.barHead
		}
		if pt != runPaint {
			flush()
			runPaint = pt
		}
		run.WriteString(ch)
	}
	flush()
	// status line
	unit := tl.Unit
	if unit == "" {
		unit = "frame"
	}
	var s []string
	if n == 0 {
		s = append(s, "no frames")
	} else {
		cur, last := clean(tl.Label(v.frame)), clean(tl.Label(n-1))
		if strings.HasPrefix(cur, unit) {
			s = append(s, cur+" / "+last) // the label names the unit itself ("loop 1234")
		} else {
			s = append(s, fmt.Sprintf("%s %s / %s", unit, cur, last))
		}
		// a label that is already the game time (song times) is not repeated
		if v.noTime {
			s = append(s, p.dim.wrap(fmt.Sprintf("no game time: 1 s = %d %ss", framesPerSecond, unit)))
		} else if t := model.FormatDuration(tl.Time(v.frame)); !strings.HasPrefix(cur, t) {
			s = append(s, t+" / "+model.FormatDuration(tl.Time(n-1)))
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
	// labels get what they need up to a sixth of the width, 14 cells at least
	labelW := 0
	for _, l := range labels {
		labelW = max(labelW, width(l))
	}
	labelW = min(labelW, max(14, w/6))
	cw := w - labelW - 1
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
			v.chartLbl = append(v.chartLbl, clean(label))
		}
	}
	return v.chartLbl
}

// eventsPane: events around the current frame, the cursor on the selected
// one, expanded events as indented trees.
func (v *replayView) eventsPane(w, h int) []string {
	if h <= 0 {
		return nil
	}
	r := v.r
	p := v.paints
	rows := h - 1
	title := fmt.Sprintf("events %s", thousands(int64(len(r.Events))))
	if v.ev >= 0 {
		title = fmt.Sprintf("events %s/%s", thousands(int64(v.ev+1)), thousands(int64(len(r.Events))))
	}
	if len(r.Events) == 0 {
		return v.pane(title, v.focus == paneEvents, w, h, []string{p.dim.wrap("no events")})
	}
	v.scrollEvents(rows)
	slotW := 2
	for _, pl := range r.Players {
		slotW = max(slotW, min(ansi.StringWidth(pl.Slot), 9))
	}
	var lines []string
	for i := v.evTop; i < len(r.Events) && len(lines) < rows; i++ {
		ev := &r.Events[i]
		mark := []rune("  ")
		if i == v.ev {
			mark[0] = '>'
		}
		if _, ok := v.expanded[i]; ok {
			mark[1] = '▾'
		}
		slot := ""
		if ev.Player >= 0 && ev.Player < len(r.Players) {
			slot = clean(r.Players[ev.Player].Slot)
		}
		label := clean(frameLabel(&r.Timeline, ev.Frame))
		plain := fmt.Sprintf("%s%*s  ", string(mark), v.p.labelW, label)
		var b strings.Builder
		rest := fmt.Sprintf("  %-8s ", cut(clean(ev.Kind), 8))
		sum := clean(r.EventSummary(i))
		flag := ""
		if ev.Flag != "" && !strings.Contains(sum, ev.Flag) {
			flag = "[" + clean(ev.Flag) + "] "
		}
		switch {
		case i == v.ev && v.evField < 0:
			line := fit(plain+fmt.Sprintf("%-*s", slotW, slot)+rest+flag+sum, w-1)
			b.WriteString(p.cursor.wrap(line))
		case ev.Frame != v.frame:
			// events of other frames are context: dimmed
			b.WriteString(p.dim.wrap(plain))
			p.player(ev.Player).write(&b, fmt.Sprintf("%-*s", slotW, slot))
			b.WriteString(p.dim.wrap(rest))
			p.flag.write(&b, flag)
			b.WriteString(p.dim.wrap(sum))
		default:
			b.WriteString(plain)
			p.player(ev.Player).write(&b, fmt.Sprintf("%-*s", slotW, slot))
			b.WriteString(rest)
			p.flag.write(&b, flag)
			b.WriteString(sum)
		}
		lines = append(lines, b.String())
		for j, t := range v.expanded[i] {
			if len(lines) >= rows {
				break
			}
			if i == v.ev && j == v.evField {
				lines = append(lines, p.cursor.wrap(fit(ansi.Strip(v.treeText(t, 3)), w-1)))
				continue
			}
			lines = append(lines, v.treeText(t, 3))
		}
	}
	return v.pane(title, v.focus == paneEvents, w, h, lines)
}

// scrollEvents keeps the cursor inside the rows shown, counting the lines
// of expanded events between the top and the cursor (at most rows of them).
func (v *replayView) scrollEvents(rows int) {
	if rows <= 0 || v.ev < 0 {
		return
	}
	if v.evTop > v.ev {
		v.evTop = v.ev
	}
	if v.ev-v.evTop >= rows {
		v.evTop = v.ev - rows + 1
	}
	// near the end, fill the pane rather than leave blank rows below
	v.evTop = min(v.evTop, max(len(v.r.Events)-rows, 0))
	for v.evTop < v.ev && v.linesBetween(v.evTop, v.ev)+max(v.evField+1, 0) > rows {
		v.evTop++
	}
	v.evTop = max(v.evTop, 0)
}

func (v *replayView) linesBetween(a, b int) int {
	n := 0
	for i := a; i <= b; i++ {
		n++
		if i < b {
			n += len(v.expanded[i])
		}
	}
	return n
}

// problemsPane: the diagnostics, the skipped ranges counted in the title.
func (v *replayView) problemsPane(w, h int) []string {
	if h <= 0 {
		return nil
	}
	r := v.r
	p := v.paints
	rows := h - 1
	title := fmt.Sprintf("problems %d", r.Problems())
	if notes := len(r.Diagnostics) - r.Problems(); notes > 0 {
		title += fmt.Sprintf(" · %d note", notes)
		if notes != 1 {
			title += "s"
		}
	}
	if v.p.skipped > 0 {
		title += fmt.Sprintf(" · %d skipped range", v.p.skipped)
		if v.p.skipped != 1 {
			title += "s"
		}
		title += fmt.Sprintf(", %s bytes", thousands(v.p.skipLen))
	}
	if rows > 0 {
		if v.prob < v.probTop {
			v.probTop = v.prob
		}
		if v.prob >= v.probTop+rows {
			v.probTop = v.prob - rows + 1
		}
	}
	var lines []string
	for i := v.probTop; i < len(r.Diagnostics) && len(lines) < rows; i++ {
		d := r.Diagnostics[i]
		mark := "  "
		if i == v.prob && (v.focus == paneProblems || v.diag == i) {
			mark = "> "
		}
		where := d.Span.String()
		if d.Frame >= 0 && d.Frame < v.count() {
			where += " @" + clean(r.Timeline.Label(d.Frame))
		}
		text := clean(d.Subject + " " + d.Message)
		if d.Skipped {
			text = fmt.Sprintf("skipped %s bytes: %s", thousands(d.Span.Len), text)
		}
		sev := d.Severity.String()
		if i == v.prob && v.focus == paneProblems {
			lines = append(lines, p.cursor.wrap(fit(fmt.Sprintf("%s%-7s %s %s", mark, sev, where, text), w-1)))
			continue
		}
		lines = append(lines, mark+p.severity(int(d.Severity)).wrap(fmt.Sprintf("%-7s", sev))+" "+p.hexOff.wrap(where)+" "+text)
	}
	return v.pane(title, v.focus == paneProblems, w, h, lines)
}
