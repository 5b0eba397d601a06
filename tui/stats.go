package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/model"
	"rewind/theme"
)

// statLines is the stats overlay drawn for one width: every table of
// Analysis().Stats one under the other, and for each line the frame a
// row points at (a build order's line), -1 for none.
type statLines struct {
	w     int
	lines []string
	frame []int
}

// statsPane is the `s` overlay over the lower panes: the per-player tables
// of the game analysis, players side by side in their colours.
func (v *replayView) statsPane(w, h int) []string {
	if h <= 0 {
		return nil
	}
	c := v.statCache
	if c == nil || c.w != w {
		c = v.buildStats(w - 1)
		c.w = w
		v.statCache = c
	}
	rows := h - 1
	n := len(c.lines)
	v.statCur = max(0, min(v.statCur, n-1))
	v.statTop = scrollTo(v.statCur, v.statTop, rows)
	v.hits.statTop = v.statTop
	var out []string
	for i := v.statTop; i < n && len(out) < rows; i++ {
		l := c.lines[i]
		if i == v.statCur {
			l = v.paints.cursor.wrap(fit(ansi.Strip(l), w-1))
		}
		out = append(out, l)
	}
	return v.pane("stats · ↑↓ scroll · enter goes to a row's time · s or esc closes", true, w, h, out)
}

// buildStats lays the tables out in w cells.
func (v *replayView) buildStats(w int) *statLines {
	p := v.paints
	c := &statLines{}
	add := func(s string, frame int) {
		c.lines = append(c.lines, s)
		c.frame = append(c.frame, frame)
	}
	for ti, t := range v.p.stats {
		if ti > 0 {
			add("", -1)
		}
		title := theme.Safe(t.Title)
		if title == "" {
			title = theme.Safe(t.Key)
		}
		add(p.bold.wrap(title), -1)
		// column widths: the row labels, then each column's widest cell
		labelW := 0
		for _, r := range t.Rows {
			labelW = max(labelW, width(theme.Safe(r.Label)))
		}
		labelW = min(labelW, max(w/3, 12))
		colW := make([]int, len(t.Columns))
		for j, h := range t.Columns {
			colW[j] = width(theme.Safe(h))
		}
		for _, r := range t.Rows {
			for j, f := range r.Cells {
				if j < len(colW) {
					colW[j] = max(colW[j], width(cellText(f)))
				}
			}
		}
		// a column gets at most what is left shared out, 8 cells at least
		if len(colW) > 0 {
			room := max((w-labelW)/len(colW)-2, 8)
			for j := range colW {
				colW[j] = min(colW[j], room)
			}
		}
		// players side by side: a column is a player when its heading is
		// that player's (a chat table with as many columns as there are
		// players is not coloured as players)
		playerCol := func(j int) int {
			if t.Player >= 0 || len(t.Columns) != len(v.r.Players) || !strings.Contains(t.Columns[j], v.r.Players[j].Slot) {
				return -1
			}
			return j
		}
		var head strings.Builder
		head.WriteString(strings.Repeat(" ", labelW))
		for j, h := range t.Columns {
			head.WriteString("  ")
			cell := fitLeft(cut(theme.Safe(h), colW[j]), colW[j])
			if pc := playerCol(j); pc >= 0 {
				head.WriteString(p.player(pc).wrap(cell))
			} else {
				head.WriteString(p.label.wrap(cell))
			}
		}
		add(head.String(), -1)
		for _, r := range t.Rows {
			var b strings.Builder
			b.WriteString(p.label.wrap(fitRight(cut(theme.Safe(r.Label), labelW), labelW)))
			for j := range t.Columns {
				b.WriteString("  ")
				txt := ""
				if j < len(r.Cells) {
					txt = cellText(r.Cells[j])
				}
				b.WriteString(fitLeft(cut(txt, colW[j]), colW[j]))
			}
			add(b.String(), r.Frame)
		}
	}
	if len(c.lines) == 0 {
		add(p.dim.wrap("no stats"), -1)
	}
	return c
}

// cellText is a stat cell as text: the field's name or value.
func cellText(f model.Field) string { return theme.Safe(f.Text()) }

// fitLeft pads plain text on the right (numbers and names read from the left).
func fitLeft(s string, w int) string {
	if n := width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// fitRight pads plain text on the left.
func fitRight(s string, w int) string {
	if n := width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

// onStatsKey handles the overlay's keys; false lets the key close it and
// act as usual.
func (v *replayView) onStatsKey(msg tea.KeyMsg) bool {
	n := 0
	if v.statCache != nil {
		n = len(v.statCache.lines)
	}
	page := max(v.layout().botH-2, 1)
	switch msg.String() {
	case "up", "k":
		v.statCur--
	case "down", "j":
		v.statCur++
	case "pgup":
		v.statCur -= page
	case "pgdown":
		v.statCur += page
	case "home":
		v.statCur = 0
	case "end":
		v.statCur = n - 1
	case "enter":
		if v.statCache != nil && v.statCur >= 0 && v.statCur < n {
			if f := v.statCache.frame[v.statCur]; f >= 0 {
				v.seek(f)
				return true
			}
		}
		v.status = "this row points at no time"
	case "esc", "s":
		v.showStats = false
	default:
		return false
	}
	v.statCur = max(0, min(v.statCur, n-1))
	return true
}
