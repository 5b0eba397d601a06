package tui

import (
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"rewind/library/diff"
	"rewind/model"
	"rewind/theme"
)

// diffKeys are the split view's own keys; every other key goes to the
// active side's replay view.
type diffKeys struct {
	NextDiff, PrevDiff key.Binding
	Switch             key.Binding
	Report             key.Binding
	Help, Quit         key.Binding
	ForceQuit          key.Binding
}

func newDiffKeys() diffKeys {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return diffKeys{
		NextDiff:  b([]string{"d"}, "d", "next difference"),
		PrevDiff:  b([]string{"D"}, "D", "prev difference"),
		Switch:    b([]string{"x"}, "x", "A ⇄ B (inspector, keys)"),
		Report:    b([]string{"r"}, "r", "the comparison in full"),
		Help:      b([]string{"?"}, "?", "help"),
		Quit:      b([]string{"q"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),
	}
}

// compareDoneMsg carries the finished comparison.
type compareDoneMsg struct {
	res *diff.Result
	err error
}

// Update handles a message of the split view.
func (d *diffView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		d.setSize(msg.Width, msg.Height)
		return nil
	case compareDoneMsg:
		d.res = msg.res
		if msg.err != nil {
			d.resErr = msg.err.Error()
		}
		d.barCache.marks = nil
		if d.res != nil {
			d.report = d.reportLines()
		}
		return nil
	case tickMsg:
		var cmds []tea.Cmd
		for _, v := range d.sides {
			cmds = append(cmds, v.Update(msg))
		}
		d.sync()
		return tea.Batch(cmds...)
	case searchDoneMsg:
		cmd := d.sides[d.active].Update(msg)
		d.sync()
		return cmd
	case tea.KeyMsg:
		return d.onKey(msg)
	}
	return nil // the mouse is not followed in the split view
}

func (d *diffView) onKey(msg tea.KeyMsg) tea.Cmd {
	k := d.keys
	v := d.sides[d.active]
	if key.Matches(msg, k.ForceQuit) {
		return tea.Quit
	}
	typing := v.inputMode != inputNone || v.chooser != nil
	if !typing {
		d.status = ""
		switch {
		case d.showHelp:
			if key.Matches(msg, k.Quit) {
				return tea.Quit
			}
			if key.Matches(msg, k.Help) || msg.String() == "esc" || msg.Type == tea.KeyEnter {
				d.showHelp = false
			}
			return nil
		case d.showRep:
			return d.onReportKey(msg)
		case key.Matches(msg, k.Quit):
			return tea.Quit
		case key.Matches(msg, k.Help):
			d.showHelp = true
			return nil
		case key.Matches(msg, k.Report):
			if d.res == nil {
				d.status = "still comparing the whole timelines; r works when that is done"
				return nil
			}
			d.showRep, d.repTop, d.repLeft = true, 0, 0
			return nil
		case key.Matches(msg, k.Switch):
			d.switchSide()
			return nil
		case key.Matches(msg, k.NextDiff):
			d.nextDiff(1)
			return nil
		case key.Matches(msg, k.PrevDiff):
			d.nextDiff(-1)
			return nil
		}
	}
	cmd := v.Update(msg)
	d.sync()
	return cmd
}

// switchSide makes the other file active: its panes get the keys and the
// inspector shows its bytes. Playback stays with the side that plays.
func (d *diffView) switchSide() {
	old := d.sides[d.active]
	d.active = 1 - d.active
	nv := d.sides[d.active]
	if old.playing {
		old.playing = false
		old.tickID++
	}
	nv.focus = old.focus
	if nv.focus == paneProblems && len(nv.r.Diagnostics) == 0 {
		nv.focus = paneEvents
	}
	d.status = "inspector and keys on " + sideLetter(d.active) + ": " + theme.Safe(nv.r.Path)
	d.sync()
}

// nextDiff goes to the next (dir 1) or previous difference: the start of a
// differing range, or of frames only one file has.
func (d *diffView) nextDiff(dir int) {
	switch {
	case d.res == nil:
		d.status = "still comparing the whole timelines; d works when that is done"
		return
	case !d.res.SameGame:
		d.status = "different games: their frames are not compared (r shows them side by side)"
		return
	}
	s := d.stops()
	if len(s) == 0 {
		d.status = "no differences: the files agree"
		return
	}
	n := d.cur()
	var to int64
	if dir > 0 {
		k := sort.Search(len(s), func(i int) bool { return s[i] > n })
		if k == len(s) {
			d.status = fmt.Sprintf("no difference after %s %d", d.unit(), n)
			return
		}
		to = s[k]
	} else {
		k := sort.Search(len(s), func(i int) bool { return s[i] >= n }) - 1
		if k < 0 {
			d.status = fmt.Sprintf("no difference before %s %d", d.unit(), n)
			return
		}
		to = s[k]
	}
	d.goTo(to)
}

// goTo puts the cursor on frame number n; when the active side lacks it
// (frames only the other file has), the other side becomes active. Each
// side's event cursor goes to its first differing event there, opened on
// the differing field, so the inspectors show its bytes.
func (d *diffView) goTo(n int64) {
	if !d.has(d.active, n) && d.has(1-d.active, n) {
		d.switchSide()
	}
	v := d.sides[d.active]
	v.follow = true
	v.seek(v.r.Timeline.Index(n))
	d.sync()
	rows := d.layout().evH - 1
	for i, side := range d.sides {
		for _, x := range d.here {
			ev := x.EventA
			if i == 1 {
				ev = x.EventB
			}
			if ev < 0 {
				continue
			}
			side.selectEvent(ev)
			if x.Field == "" {
				break
			}
			lines := fieldTree(side.r.EventFields(ev))
			k := fieldLine(side.r.EventFields(ev), leafKey(x.Field))
			if k < 0 || k >= len(lines) {
				break
			}
			if k+2 <= rows {
				// room to open the event down to the field
				side.expanded[ev] = lines
				side.evField = k
				side.showEventField()
				break
			}
			if sp := lines[k].span; sp.Len > 0 {
				side.stream, side.cur, side.hexTop = sp.Stream, sp.Off, -1
				side.field, side.useField = sp, true
				side.fieldWhat = fmt.Sprintf("#%d %s", ev+1, lines[k].label)
			}
			break
		}
	}
}

// fieldLine is the line of a field with the key in the lines fieldTree
// makes of fs (the same walk: depth first, eight levels), -1 when none.
func fieldLine(fs []model.Field, key string) int {
	n := 0
	var walk func(fs []model.Field, depth int) int
	walk = func(fs []model.Field, depth int) int {
		for _, f := range fs {
			if depth > 8 || n > 2000 {
				return -1
			}
			if f.Key == key {
				return n
			}
			n++
			if k := walk(f.Fields, depth+1); k >= 0 {
				return k
			}
		}
		return -1
	}
	return walk(fs, 0)
}

// leafKey is the last key of a dotted field path: "percent" of
// "post.percent".
func leafKey(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	if i := strings.IndexByte(path, '['); i >= 0 {
		path = path[:i]
	}
	return path
}

// footer is the active side's text field or status while it has one, else
// the split view's keys.
func (d *diffView) footer() string {
	v := d.sides[d.active]
	if v.inputMode != inputNone || v.chooser != nil {
		return v.footer()
	}
	p := d.paints
	k := d.keys
	st := d.status
	if st == "" {
		st = v.status
	}
	ess := []key.Binding{k.Help, k.Quit}
	if d.showHelp {
		ess = []key.Binding{hint("?/esc", "close"), k.Quit}
	}
	if d.showRep {
		ess = []key.Binding{hint("↑↓←→", "scroll"), hint("r/esc", "close"), k.Quit}
	}
	if st != "" {
		s := p.status.wrap(theme.Safe(st))
		if tail := v.keyText(ess); width(s)+3+width(tail) <= d.w {
			return fit(s+"   "+tail, d.w)
		}
		return fit(s, d.w)
	}
	keys := []key.Binding{hint("←→", v.unit()), hint("d/D", "next/prev difference"), hint("x", "A⇄B"),
		hint("tab", "pane"), hint("r", "report"), hint("space", "play"), hint("g", "go to"), hint("/", "search")}
	if d.showHelp || d.showRep {
		keys = nil
	}
	for n := len(keys); n >= 0; n-- {
		line := v.keyText(append(append([]key.Binding{}, keys[:n]...), ess...))
		if width(line) <= d.w {
			return fit(line, d.w)
		}
	}
	return fit(v.keyText(ess), d.w)
}

// helpScreen is ?: the split view's keys, then the replay view's.
func (d *diffView) helpScreen() []string {
	v := d.sides[d.active]
	k := d.keys
	own := [][]key.Binding{{k.NextDiff, k.PrevDiff, k.Switch, k.Report, k.Help, k.Quit}}
	text := []string{"The split view: A and B on one cursor, by frame number; ≠ marks what differs.", ""}
	text = append(text, strings.Split(d.help.FullHelpView(own), "\n")...)
	text = append(text, "", "The active side's keys, as in a replay:")
	groups := v.keys.FullHelp()
	full := strings.Split(d.help.FullHelpView(groups), "\n")
	if width(full[0]) > d.w-1 {
		full = strings.Split(d.help.FullHelpView(groups[:2]), "\n")
		full = append(full, "")
		full = append(full, strings.Split(d.help.FullHelpView(groups[2:]), "\n")...)
	}
	text = append(text, full...)
	return v.pane("keys · ? or esc closes · q quits", true, d.w, d.h-1, text)
}

// reportLines is the comparison as `rewind diff` writes it.
func (d *diffView) reportLines() []string {
	var b strings.Builder
	d.res.WriteText(&b, 0)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = theme.Safe(l)
	}
	return lines
}

func (d *diffView) reportScreen() []string {
	rows := max(d.h-2, 0)
	d.repTop = max(0, min(d.repTop, len(d.report)-rows))
	end := min(len(d.report), d.repTop+rows)
	// the side-by-side tables are wider than 80 columns: ←→ move across
	widest := 0
	for _, l := range d.report {
		widest = max(widest, ansi.StringWidth(l))
	}
	room := max(d.w-2, 1)
	d.repLeft = max(0, min(d.repLeft, widest-room))
	title := fmt.Sprintf("the comparison · lines %d-%d of %d · r or esc closes", d.repTop+1, end, len(d.report))
	lines := d.report[d.repTop:end]
	if widest > room {
		title = fmt.Sprintf("the comparison · lines %d-%d of %d · columns %d-%d of %d (←→) · r or esc closes",
			d.repTop+1, end, len(d.report), d.repLeft+1, min(d.repLeft+room, widest), widest)
		cut := make([]string, len(lines))
		for i, l := range lines {
			cut[i] = ansi.Cut(l, d.repLeft, d.repLeft+room)
		}
		lines = cut
	}
	return d.sides[0].pane(title, true, d.w, d.h-1, lines)
}

func (d *diffView) onReportKey(msg tea.KeyMsg) tea.Cmd {
	rows := max(d.h-3, 1)
	switch msg.String() {
	case "q":
		return tea.Quit
	case "r", "esc", "enter":
		d.showRep = false
	case "up", "k":
		d.repTop--
	case "down", "j":
		d.repTop++
	case "pgup":
		d.repTop -= rows
	case "pgdown", " ":
		d.repTop += rows
	case "home":
		d.repTop = 0
	case "end":
		d.repTop = len(d.report)
	case "left", "h":
		d.repLeft = max(d.repLeft-8, 0)
	case "right", "l":
		d.repLeft += 8 // reportScreen keeps it inside the widest line
	}
	d.repTop = max(0, min(d.repTop, len(d.report)-rows))
	return nil
}
