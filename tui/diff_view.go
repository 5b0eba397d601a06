package tui

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/help"

	"rewind/library/diff"
	"rewind/model"
	"rewind/theme"
)

// diffView is `rewind diff A B` on a terminal: two replay views on one
// cursor. The cursor is a frame number (Timeline.Number), so files that
// start at different frames stay aligned. The keys go to the active side
// (its panes have the focus, the inspector shows its bytes); x makes the
// other side active, d and D jump between differences. The comparison of
// the whole timelines runs in the background; until it is done the marks
// of the current frame (diff.At) are there, the ranges are not.
type diffView struct {
	th     *theme.Theme
	paints *paints
	keys   diffKeys
	help   help.Model
	sides  [2]*replayView
	active int  // 0: A, 1: B
	same   bool // compared as one game: the frames are compared
	opt    diff.Options

	res      *diff.Result // nil until the comparison is done
	resErr   string
	progress float64 // how far the comparison is, 0..1
	w, h     int
	here     []diff.Difference // the differences at the cursor's frame
	hereAt   int64
	hereOK   bool
	status   string
	showHelp bool
	report   []string // the comparison as `rewind diff` writes it, for r
	showRep  bool
	repTop   int
	repLeft  int // the report's first column shown
	barCache struct {
		w     int
		marks []rune
	}
}

func newDiffView(a, b *replayView, opt diff.Options, th *theme.Theme) *diffView {
	d := &diffView{th: th, paints: newPaints(th), keys: newDiffKeys(), help: help.New(), sides: [2]*replayView{a, b}, opt: opt}
	d.same, _ = diff.Decide(a.r, b.r, opt)
	d.help.Styles = a.help.Styles
	for _, v := range d.sides {
		v.list = listEvents // the differences are in the events, not the moments
		v.syncEvent()
	}
	d.sync()
	return d
}

// cur is the cursor's frame number: the active side's.
func (d *diffView) cur() int64 {
	v := d.sides[d.active]
	return v.r.Timeline.Number(v.frame)
}

// has reports whether side i has frame number n.
func (d *diffView) has(i int, n int64) bool {
	tl := &d.sides[i].r.Timeline
	return tl.Count > 0 && n >= tl.First && n <= tl.Number(tl.Count-1)
}

// sync brings the other side to the active side's frame number (as near as
// it has) and marks what differs there on both sides.
func (d *diffView) sync() {
	n := d.cur()
	o := d.sides[1-d.active]
	if f := o.r.Timeline.Index(n); f != o.frame {
		o.seek(f)
	}
	if d.hereOK && d.hereAt == n {
		return
	}
	d.here = nil
	if d.same && d.has(0, n) && d.has(1, n) {
		d.here = append([]diff.Difference(nil), diff.At(d.sides[0].r, d.sides[1].r, n, d.opt)...)
	}
	d.hereAt, d.hereOK = n, true
	d.sides[0].diffMarks = newDiffMarks(d.here, true)
	d.sides[1].diffMarks = newDiffMarks(d.here, false)
}

// diffLayout is where the panes go.
type diffLayout struct {
	wide       bool
	plH        int // players pane height (each, when stacked)
	difH       int // the differences pane
	evH        int // events pane height (each, when stacked)
	detH       int // the active side's detail pane (inspector, stage, problems, header)
	bothEvents bool
}

func (d *diffView) layout() diffLayout {
	var l diffLayout
	l.wide = d.w >= 120
	np := max(len(d.sides[0].r.Players), len(d.sides[1].r.Players))
	l.plH = min(max(np, 1), 4) + 1
	l.difH = 3
	if d.h >= 40 {
		l.difH = 5
	}
	top := l.plH
	if !l.wide {
		top = 2 * l.plH
	}
	bot := d.h - top - 2 - l.difH - 1 // timeline (bar + status), differences, footer
	if bot < 0 {
		l.difH = max(l.difH+bot, 0)
		bot = 0
	}
	v := d.sides[d.active]
	detail := v.focus != paneEvents || v.showStats
	l.bothEvents = true
	switch {
	case l.wide && bot >= 12:
		l.evH = bot * 11 / 20
		l.detH = bot - l.evH
	case !l.wide && bot >= 20:
		l.evH = bot / 4
		l.detH = bot - 2*l.evH
	case detail:
		l.detH, l.bothEvents = bot, false
	case l.wide:
		l.evH = bot
	default:
		l.evH = bot / 2
		l.detH = bot - 2*l.evH // an odd row
	}
	return l
}

func (d *diffView) setSize(w, h int) {
	d.w, d.h = max(w, 0), max(h, 0)
	d.help.Width = d.w
	half := d.w
	if d.layout().wide {
		half = (d.w - 1) / 2
	}
	for _, v := range d.sides {
		v.setSize(half, d.h)
	}
}

// View draws the split view.
func (d *diffView) View() string {
	if d.w <= 0 || d.h <= 0 {
		return ""
	}
	if d.showHelp {
		return strings.Join(append(d.helpScreen(), d.footer()), "\n")
	}
	if d.showRep {
		return strings.Join(append(d.reportScreen(), d.footer()), "\n")
	}
	l := d.layout()
	a := d.sides[0]
	var lines []string
	half := (d.w - 1) / 2
	if l.wide {
		lines = append(lines, hjoin(a.sep(), d.playersPane(0, half, l.plH), d.playersPane(1, d.w-half-1, l.plH))...)
	} else {
		lines = append(lines, d.playersPane(0, d.w, l.plH)...)
		lines = append(lines, d.playersPane(1, d.w, l.plH)...)
	}
	lines = append(lines, d.bar(d.w)...)
	lines = append(lines, d.differencesPane(d.w, l.difH)...)
	if l.bothEvents && l.evH > 0 {
		if l.wide {
			lines = append(lines, hjoin(a.sep(), d.eventsPane(0, half, l.evH), d.eventsPane(1, d.w-half-1, l.evH))...)
		} else {
			lines = append(lines, d.eventsPane(0, d.w, l.evH)...)
			lines = append(lines, d.eventsPane(1, d.w, l.evH)...)
		}
	}
	if l.detH > 0 {
		lines = append(lines, d.detailPane(d.w, l.detH)...)
	}
	lines = append(lines, d.footer())
	blank := strings.Repeat(" ", d.w)
	for len(lines) < d.h {
		lines = append(lines, blank)
	}
	return strings.Join(lines[:d.h], "\n")
}

// sideLetter is "A" or "B".
func sideLetter(i int) string { return string(rune('A' + i)) }

// retitle replaces a pane's title line with one naming the side.
func (d *diffView) retitle(i int, lines []string, title string, focused bool, w int) []string {
	if len(lines) == 0 {
		return lines
	}
	lines[0] = d.sides[i].pane(title, focused, w, 1, nil)[0]
	return lines
}

// playersPane is a side's players pane under a title naming the file.
func (d *diffView) playersPane(i, w, h int) []string {
	v := d.sides[i]
	lines := v.playersPane(w, h)
	r := v.r
	title := sideLetter(i) + " " + theme.Safe(filepath.Base(r.Path))
	if r.Path == "" {
		title = sideLetter(i) + " (memory)"
	}
	var about []string
	if s := strings.TrimSpace(r.FormatName + " " + r.Version); s != "" {
		about = append(about, theme.Safe(s))
	}
	if r.Title != "" {
		about = append(about, theme.Safe(r.Title))
	}
	if r.Partial {
		about = append(about, "partial")
	}
	if len(about) > 0 {
		title += " · " + strings.Join(about, " · ")
	}
	n := d.cur()
	if !d.has(i, n) {
		title += d.outside(i, n)
	}
	return d.retitle(i, lines, title, false, w)
}

// outside says where a side's frames are when it lacks the cursor's frame.
func (d *diffView) outside(i int, n int64) string {
	tl := &d.sides[i].r.Timeline
	unit := d.unit()
	if tl.Count == 0 {
		return " · no " + unit + "s"
	}
	if n < tl.First {
		return fmt.Sprintf(" · no %s %d: starts at %d", unit, n, tl.First)
	}
	return fmt.Sprintf(" · no %s %d: ends at %d", unit, n, tl.Number(tl.Count-1))
}

func (d *diffView) unit() string {
	if u := d.sides[0].r.Timeline.Unit; u != "" {
		return u
	}
	return "frame"
}

// eventsPane is a side's list pane with the side in its title.
func (d *diffView) eventsPane(i, w, h int) []string {
	v := d.sides[i]
	lines := v.listPane(w, h)
	if len(lines) > 0 {
		tag := d.paints.bold.wrap(sideLetter(i))
		if i == d.active && v.focus == paneEvents {
			tag = v.th.TitleFocused.Render(sideLetter(i))
		}
		lines[0] = fit(tag+lines[0], w)
	}
	return lines
}

// detailPane is the active side's pane that has the focus when it is not
// the list: the inspector (or the stage view), the problems, the header,
// the stats; the inspector when the list has it.
func (d *diffView) detailPane(w, h int) []string {
	i := d.active
	v := d.sides[i]
	var lines []string
	switch {
	case v.showStats:
		lines = v.statsPane(w, h)
	case v.focus == paneProblems:
		lines = v.problemsPane(w, h)
	case v.focus == paneHeader:
		lines = v.headerPane(w, h)
	default:
		lines = v.rightPane(w, h)
	}
	if len(lines) > 0 {
		lines[0] = fit(d.paints.bold.wrap(sideLetter(i))+lines[0], w)
	}
	return lines
}

// bar is the shared timeline over both files' frame numbers: where frames
// differ, where only one file has frames, the cursor; then the status.
func (d *diffView) bar(w int) []string {
	p := d.paints
	lo, hi := d.span()
	n := d.cur()
	col := func(x int64) int {
		if hi <= lo {
			return 0
		}
		return int((x - lo) * int64(w-1) / (hi - lo))
	}
	marks := d.barMarks(w, lo, hi, col)
	head := col(n)
	var b strings.Builder
	for x := 0; x < w; x++ {
		ch, pt := '─', p.barRest
		if x < head {
			ch, pt = '━', p.barDone
		}
		switch marks[x] {
		case '≠':
			ch, pt = '≠', p.err
		case '░':
			ch, pt = '░', p.warn
		}
		if x == head {
			ch, pt = '●', p.barHead
		}
		pt.write(&b, string(ch))
	}
	return []string{b.String(), fit(" "+d.statusLine(), w)}
}

// span is the frame numbers either file has.
func (d *diffView) span() (lo, hi int64) {
	first := true
	for _, v := range d.sides {
		tl := &v.r.Timeline
		if tl.Count == 0 {
			continue
		}
		if first || tl.First < lo {
			lo = tl.First
		}
		if last := tl.Number(tl.Count - 1); first || last > hi {
			hi = last
		}
		first = false
	}
	return lo, hi
}

// barMarks places the differing ranges and the frames only one file has
// on a bar w cells wide, once per width and comparison.
func (d *diffView) barMarks(w int, lo, hi int64, col func(int64) int) []rune {
	c := &d.barCache
	if c.w == w && c.marks != nil {
		return c.marks
	}
	c.w, c.marks = w, make([]rune, w)
	if d.res == nil || !d.res.SameGame {
		return c.marks // nothing known yet, or different games: no frame is compared
	}
	for _, rs := range [][]diff.Range{d.res.OnlyA, d.res.OnlyB} {
		for _, r := range rs {
			for x := col(max(r.From, lo)); x <= col(min(r.To, hi)) && x < w; x++ {
				c.marks[x] = '░'
			}
		}
	}
	for _, r := range d.res.Ranges {
		for x := col(r.From); x <= col(r.To) && x < w; x++ {
			c.marks[x] = '≠'
		}
	}
	return c.marks
}

// statusLine: the frame and time, what differs here, where the next
// difference is, which side is active.
func (d *diffView) statusLine() string {
	p := d.paints
	v := d.sides[d.active]
	n := d.cur()
	lo, hi := d.span()
	unit := d.unit()
	parts := []string{fmt.Sprintf("%s %d/%d..%d", unit, n, lo, hi)}
	if v.count() > 0 {
		parts = append(parts, v.timeText(v.frame))
	}
	if v.playing {
		parts = append(parts, p.playing.wrap("▶ "+speedText(speeds[v.speed])))
	}
	switch {
	case d.res == nil && d.resErr != "":
		parts = append(parts, p.err.wrap(theme.Safe(d.resErr)))
	case d.res == nil:
		parts = append(parts, p.dim.wrap(fmt.Sprintf("comparing the whole timelines… %d%%", int(d.progress*100))))
	case !d.res.SameGame:
		parts = append(parts, "different games · r shows them side by side")
	case d.res.Identical:
		parts = append(parts, p.playing.wrap("identical"))
	default:
		k, total := d.diffIndex(n)
		what := fmt.Sprintf("%s %s", thousands(int64(d.res.DifferingFrames)), plural(d.res.DifferingFrames, unit+" differs", unit+"s differ"))
		for i, rs := range [][]diff.Range{d.res.OnlyA, d.res.OnlyB} {
			k := int64(0)
			for _, r := range rs {
				k += r.To - r.From + 1
			}
			if k > 0 {
				what += fmt.Sprintf(" · %s only in %s", thousands(k), sideLetter(i))
			}
		}
		if total > 0 && k > 0 {
			what = fmt.Sprintf("difference %d/%d · ", k, total) + what
		}
		parts = append(parts, p.err.wrap(what))
	}
	parts = append(parts, "inspector "+sideLetter(d.active))
	sep := "   "
	if d.w < 120 {
		sep = "  "
	}
	return strings.Join(parts, sep)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// stops are where d and D go: the start of every differing range and of
// every stretch only one file has, in frame order.
func (d *diffView) stops() []int64 {
	if d.res == nil || !d.res.SameGame {
		return nil
	}
	var out []int64
	for _, rs := range [][]diff.Range{d.res.Ranges, d.res.OnlyA, d.res.OnlyB} {
		for _, r := range rs {
			out = append(out, r.From)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// diffIndex is which stop the cursor is in (1-based, 0 before the first)
// and how many there are.
func (d *diffView) diffIndex(n int64) (int, int) {
	s := d.stops()
	k := sort.Search(len(s), func(i int) bool { return s[i] > n })
	return k, len(s)
}

// differencesPane lists what differs at the cursor's frame.
func (d *diffView) differencesPane(w, h int) []string {
	if h <= 0 {
		return nil
	}
	p := d.paints
	n := d.cur()
	v := d.sides[0]
	title := fmt.Sprintf("differences at %s %d", d.unit(), n)
	var lines []string
	switch {
	case d.same && (!d.has(0, n) || !d.has(1, n)):
		for i := range d.sides {
			if !d.has(i, n) {
				lines = append(lines, p.warn.wrap(sideLetter(i)+" has"+d.outside(i, n)[2:]))
			}
		}
	case !d.same:
		title = "different games"
		lines = append(lines, p.dim.wrap("their frames are not compared, only scrubbed together · r shows them side by side"))
	case len(d.here) == 0:
		msg := "none: both files agree here"
		if s := d.stops(); len(s) > 0 {
			if k, _ := d.diffIndex(n); k < len(s) {
				msg += fmt.Sprintf(" · d goes to the next difference (%s %d)", d.unit(), s[k])
			}
		}
		lines = append(lines, p.dim.wrap(msg))
	default:
		title += fmt.Sprintf(" · %d", len(d.here))
		for _, x := range d.here {
			if len(lines) >= h-1 {
				break
			}
			lines = append(lines, d.differenceLine(x))
		}
		if more := len(d.here) - len(lines); more > 0 && len(lines) > 0 {
			lines[len(lines)-1] = p.dim.wrap(fmt.Sprintf("… and %d more (r lists them)", more+1))
		}
	}
	return v.pane(title, false, w, h, lines)
}

// differenceLine is one difference: who, what, A's value → B's.
func (d *diffView) differenceLine(x diff.Difference) string {
	p := d.paints
	var b strings.Builder
	who := "  "
	if x.Player >= 0 {
		who = diff.Player(x.Player)
	}
	p.player(x.Player).write(&b, fmt.Sprintf("%-3s", who))
	what := string(x.Kind)
	if x.Kind == diff.KindEvent {
		what += " " + theme.Safe(x.Event)
	}
	if x.Field != "" {
		what += " " + theme.Safe(x.Field)
	}
	b.WriteString(" " + p.label.wrap(what) + "  ")
	switch {
	case x.Only != "":
		b.WriteString("only in " + x.Only + ": ")
		s := x.A
		if x.Only == "B" {
			s = x.B
		}
		b.WriteString(theme.Safe(fmt.Sprint(s)))
	default:
		b.WriteString(valueText(x.A, x.AName) + p.err.wrap(" → ") + valueText(x.B, x.BName))
	}
	return b.String()
}

// valueText is a value with its name: "29 FALL", "—" for none.
func valueText(v any, name string) string {
	if v == nil && name == "" {
		return "—"
	}
	s := model.FormatValue(v)
	if name != "" && name != s {
		if s == "" {
			s = name
		} else {
			s += " " + name
		}
	}
	return theme.Safe(s)
}
