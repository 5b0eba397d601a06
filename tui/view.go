package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"rewind/model"
	"rewind/theme"
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
	// narrow: the list pane and under it the inspector (or the stage); the
	// problems pane, when focused, takes the list's place, so the problem
	// and the bytes it points at are on the screen together
	l.evW, l.inspW = w, w
	if l.botH >= 12 {
		l.stacked = true
		l.showInsp = true
		if v.focus == paneProblems {
			l.showProb = true
			l.probH = max(3, min(len(v.r.Diagnostics)+1, l.botH/3))
			l.inspH = l.botH - l.probH
		} else {
			l.showEv = true
			l.evH = l.botH / 2
			l.inspH = l.botH - l.evH
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

// rect is a pane's place on the screen, in cells.
type rect struct{ x, y, w, h int }

func (r rect) has(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// regions are the panes' places for a layout, as View draws them.
type regions struct {
	header, players, bar, charts, list, problems, right, stats rect
}

func (v *replayView) regions(l layout) regions {
	var g regions
	if l.wide {
		g.header = rect{0, 0, l.hdrW, l.topH}
		g.players = rect{l.hdrW + 1, 0, l.plW, l.topH}
	} else {
		g.header = rect{0, 0, v.w, l.hdrH}
		g.players = rect{0, l.hdrH, v.w, l.plH}
	}
	g.bar = rect{0, l.barY, v.w, 1}
	g.charts = rect{0, l.barY + 2, v.w, l.chartN}
	g.stats = rect{0, l.botY, v.w, l.botH}
	if l.wide {
		g.list = rect{0, l.botY, l.evW, l.evH}
		if l.showProb {
			g.problems = rect{0, l.botY + l.evH, l.evW, l.probH}
		}
		g.right = rect{l.evW + 1, l.botY, l.inspW, l.inspH}
		return g
	}
	y := l.botY
	if l.showEv {
		g.list = rect{0, y, v.w, l.evH}
		y += l.evH
	}
	if l.showProb {
		g.problems = rect{0, y, v.w, l.probH}
		y += l.probH
	}
	if l.showInsp {
		g.right = rect{0, y, v.w, l.inspH}
	}
	return g
}

// View draws the replay view. It touches only what is on screen.
func (v *replayView) View() string {
	if v.w <= 0 || v.h <= 0 {
		return ""
	}
	l := v.layout()
	var lines []string
	if v.showHelp {
		lines = v.helpScreen()
		return strings.Join(append(lines, v.footer()), "\n")
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
	switch {
	case v.showStats:
		lines = append(lines, v.statsPane(v.w, l.botH)...)
	case l.wide:
		var left []string
		left = append(left, v.listPane(l.evW, l.evH)...)
		if l.showProb {
			left = append(left, v.problemsPane(l.evW, l.probH)...)
		}
		lines = append(lines, hjoin(v.sep(), left, v.rightPane(l.inspW, l.inspH))...)
	default:
		if l.showEv {
			lines = append(lines, v.listPane(l.evW, l.evH)...)
		}
		if l.showProb {
			lines = append(lines, v.problemsPane(v.w, l.probH)...)
		}
		if l.showInsp {
			lines = append(lines, v.rightPane(v.w, l.inspH)...)
		}
	}
	lines = append(lines, v.footer())
	// every line is already cut to the width; only the count needs fixing
	blank := strings.Repeat(" ", v.w)
	for len(lines) < v.h {
		lines = append(lines, blank)
	}
	return strings.Join(lines[:v.h], "\n")
}

func (v *replayView) sep() string { return v.paints.rule.wrap("│") }

func (v *replayView) rightPane(w, h int) []string {
	if v.stage {
		return v.stagePane(w, h)
	}
	return v.inspectorPane(w, h)
}

// helpScreen is `?`: every key, in columns, with the timeline's marks.
// The whole screen, so every key is readable even at 80x24.
func (v *replayView) helpScreen() []string {
	groups := append(v.keys.FullHelp(), inspectorHelp())
	// all the columns side by side when they fit, else in two rows
	text := strings.Split(v.help.FullHelpView(groups), "\n")
	if width(text[0]) > v.w-1 {
		text = strings.Split(v.help.FullHelpView(groups[:3]), "\n")
		text = append(text, "")
		text = append(text, strings.Split(v.help.FullHelpView(groups[3:]), "\n")...)
	}
	text = append(text, "")
	text = append(text, wrap(v.legend(), max(v.w-1, 10))...)
	if v.hand != nil {
		text = append(text, "")
		for _, l := range v.hand.helpLines(v.keyTaken) {
			text = append(text, wrap(l, max(v.w-1, 10))...)
		}
	}
	return v.pane("keys · ? or esc closes · q quits", true, v.w, v.h-1, text)
}

// keyTaken reports whether the replay view uses key k itself.
func (v *replayView) keyTaken(k string) bool {
	for _, group := range append(v.keys.FullHelp(), inspectorHelp()) {
		for _, b := range group {
			if slices.Contains(b.Keys(), k) {
				return true
			}
		}
	}
	return k == "w"
}

// legend names the timeline's marks this replay has.
func (v *replayView) legend() string {
	p := v.paints
	parts := []string{p.barHead.wrap("●") + " now"}
	seen := map[model.MomentKind]bool{}
	for _, m := range v.p.momMark {
		if seen[m.kind] {
			continue
		}
		seen[m.kind] = true
		if m.ranged {
			parts = append(parts, p.player(m.player).wrap("━")+" "+theme.Safe(string(m.kind)))
		} else {
			parts = append(parts, p.notable.wrap(string(momentGlyph(m.kind)))+" "+theme.Safe(string(m.kind)))
		}
	}
	if len(v.p.moments) == 0 && len(v.p.notable) > 0 {
		parts = append(parts, p.notable.wrap("◆")+" notable event")
	}
	if len(v.p.problems) > 0 {
		parts = append(parts, p.err.wrap("!")+" problem")
	}
	return p.label.wrap("timeline: ") + strings.Join(parts, "  ")
}

// playLength is the replay's length, one value for the header and the
// status line (which disagreed by a frame when one showed the decoder's
// Duration and the other the last frame's time): the decoder's Duration,
// as info and the browser show it, or while that is unknown (a snapshot of
// a file still being written) the time of the last frame.
func playLength(r *model.Replay) time.Duration {
	if r.Duration > 0 {
		return r.Duration
	}
	if n := r.Timeline.Count; n > 0 {
		return r.Timeline.Time(n - 1)
	}
	return 0
}

// headerPane: the summary values, then the header fields as a tree.
func (v *replayView) headerPane(w, h int) []string {
	r := v.r
	p := v.paints
	var lines []string
	var first []string
	add := func(parts *[]string, s string) {
		if s != "" {
			*parts = append(*parts, theme.Safe(s))
		}
	}
	add(&first, strings.TrimSpace(r.FormatName+" "+r.Version))
	add(&first, r.Title)
	if d := playLength(r); d > 0 {
		add(&first, model.FormatDuration(d))
	}
	lines = append(lines, p.bold.wrap(strings.Join(first, "  ")))
	var second []string
	if !r.Start.IsZero() {
		add(&second, r.Start.Format("2006-01-02 15:04"))
	}
	add(&second, r.Mode)
	add(&second, r.Result)
	if r.Partial && v.loading != "decoding" { // a header decode is partial by design
		second = append(second, p.warn.wrap("partial"))
	}
	if len(second) > 0 {
		lines = append(lines, strings.Join(second, "  "))
	}
	name := filepath.Base(r.Path)
	if r.Path == "" {
		name = "(memory)"
	}
	lines = append(lines, p.dim.wrap(theme.Safe(name)+"  "+humanSize(max(r.Size, int64(len(r.Data))))))
	// the fields scroll under the summary; the cursor shows when focused
	rows := h - 1 - len(lines)
	focused := v.focus == paneHeader
	v.headTop = scrollTo(v.headCur, v.headTop, rows)
	v.hits.headFirst = len(lines)
	v.hits.headTop = v.headTop
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
			if s = theme.Safe(s); s != "" && !said[s] {
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
				parts = append(parts, v.diffMarks.paintField(p, i, f.Key, t))
			}
		}
		// on a narrow pane drop, in order: the code, the state fields past
		// the first three (the ones decoders put first matter most), then
		// the name; the character and the first state fields stay
		lineWidth := func() int {
			n := ansi.StringWidth(pl.Slot) + 1
			if v.r.Scenes != nil {
				n += 2
			}
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
		if v.r.Scenes != nil {
			// the player's mark in the stage view
			b.WriteString(p.player(i).wrap(string(playerGlyph(i, false))) + " ")
		}
		b.WriteString(p.player(i).wrap(theme.Safe(pl.Slot)))
		b.WriteString(v.diffMarks.playerMark(p, i))
		if len(who) > 0 {
			b.WriteString(" " + strings.Join(who, " "))
		}
		b.WriteString(state.String())
		line := b.String()
		if !st.Present && r.State != nil {
			// dimmed; "(absent)" only when the decoder gives no reason
			// of its own ("eliminated", "not on stage yet")
			if len(st.Brief) == 0 {
				line = ansi.Strip(line) + "  (absent)"
			}
			line = p.dim.wrap(ansi.Strip(line))
		}
		lines = append(lines, line)
	}
	if len(r.Players) == 0 {
		lines = append(lines, p.dim.wrap("no players"))
	}
	return v.pane("players", false, w, h, lines)
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
	v.probTop = scrollTo(v.prob, v.probTop, rows)
	var lines []string
	v.hits.probTop = v.probTop
	for i := v.probTop; i < len(r.Diagnostics) && len(lines) < rows; i++ {
		d := r.Diagnostics[i]
		mark := "  "
		if i == v.prob && (v.focus == paneProblems || v.diag == i) {
			mark = "> "
		}
		where := d.Span.String()
		if d.Frame >= 0 && d.Frame < v.count() {
			where += " @" + theme.Safe(r.Timeline.Label(d.Frame))
		}
		text := theme.Safe(d.Subject + " " + d.Message)
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
