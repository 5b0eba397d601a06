package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/model"
	"rewind/theme"
)

func newView(r *model.Replay, w, h int) *replayView {
	v := newReplayView(r, prepare(r), theme.New(false))
	v.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return v
}

// footerText is the footer as the person reads it.
func footerText(v *replayView) string {
	out := strings.Split(v.View(), "\n")
	return strings.TrimRight(ansi.Strip(out[len(out)-1]), " ")
}

// TestFooterPerFocus: the footer names the focused pane, shows that
// pane's keys, names the pane tab goes to, and always ends with `? help`
// and `q quit`; a narrow terminal drops whole entries, never a word's end.
func TestFooterPerFocus(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		want []string
	}{
		{"events", nil, []string{"events ", "↑↓ event", "←→ frame", "tab → problems", "enter fields"}},
		{"problems", []string{"tab"}, []string{"problems ", "↑↓ problem", "enter show bytes", "tab → inspector"}},
		{"inspector", []string{"tab", "tab"}, []string{"inspector ", "←→ byte", "↑↓ row", "tab → header", "enter owning event"}},
		{"header", []string{"tab", "tab", "tab"}, []string{"header ", "↑↓ field", "enter show bytes", "tab → events"}},
		{"stage", []string{"v"}, []string{"stage ", "←→ frame", "space play", "tab → header", "v inspector"}},
		{"search", append(append([]string{"/"}, split("lost")...), "enter"), []string{"n/N match"}},
	}
	for _, c := range cases {
		for _, w := range []int{160, 220} {
			v := newView(synth(3000), w, 48)
			press(v, c.keys...)
			got := footerText(v)
			for _, want := range c.want {
				if !strings.Contains(got, want) {
					t.Errorf("%s at %d: footer %q lacks %q", c.name, w, got, want)
				}
			}
			if !strings.HasSuffix(got, "? help · q quit") {
				t.Errorf("%s at %d: footer %q does not end with ? help · q quit", c.name, w, got)
			}
		}
	}
	// narrow: every entry whole, the essentials kept
	full := newView(synth(3000), 220, 48)
	entries := map[string]bool{}
	for _, e := range strings.Split(strings.TrimPrefix(footerText(full), " events  "), " · ") {
		entries[e] = true
	}
	for _, w := range []int{80, 60, 40, 24, 16} {
		v := newView(synth(3000), w, 24)
		got := footerText(v)
		if ansi.StringWidth(got) > w {
			t.Errorf("width %d: footer %q is %d cells", w, got, ansi.StringWidth(got))
		}
		if !strings.HasSuffix(got, "? help · q quit") && got != "? q" {
			t.Errorf("width %d: footer %q lost ? help or q quit", w, got)
		}
		for _, e := range strings.Split(strings.TrimPrefix(got, " events  "), " · ") {
			if e != "" && !entries[e] && got != "? q" {
				t.Errorf("width %d: %q is cut (footer %q)", w, e, got)
			}
		}
	}
	if got := footerText(newView(synth(3000), 8, 24)); got != "? q" {
		t.Errorf("8 cells: footer %q", got)
	}
}

// TestWhyNot: every key that cannot act says why in the status line.
func TestWhyNot(t *testing.T) {
	oneScene := func() *model.Replay { return synth(3000) }
	noScenes := func() *model.Replay { r := synth(3000); r.Scenes = nil; return r }
	clean := func() *model.Replay { r := synth(3000); r.Diagnostics = nil; return r }
	oneFrame := func() *model.Replay { r := synth(1); return r }
	twoScenes := func() *model.Replay {
		r := synth(3000)
		one := r.Scenes
		r.Scenes = func(f int) []model.Scene { s := one(f); return append(s, s[0]) }
		return r
	}
	cases := []struct {
		name string
		r    func() *model.Replay
		keys []string
		want string
	}{
		{"V one scene", oneScene, []string{"v", "V"}, "one scene: V has nothing more to show"},
		{"V all scenes fit", twoScenes, []string{"v", "V"}, "all 2 scenes are shown: V has nothing more to show"},
		{"v nothing to draw", noScenes, []string{"v"}, "nothing to draw"},
		{"e no problems", clean, []string{"e"}, "no problems"},
		{"n without a search", oneScene, []string{"n"}, "no search: / searches"},
		{"space on one frame", oneFrame, []string{"space"}, "one frame: nothing to play"},
		{"> at the fastest", oneScene, []string{">", ">", ">", ">"}, "already the fastest speed"},
		{"< at the slowest", oneScene, []string{"<", "<", "<", "<"}, "already the slowest speed"},
		{"s without stats", oneScene, []string{"s"}, "no stats: this format has no game analysis yet"},
		{"m without moments", oneScene, []string{"m"}, "no moments: this format has no game analysis yet"},
		{"] without moments walks notable events", oneScene, []string{"]"}, "walk the notable events"},
		{"← at the first frame", oneScene, []string{"left"}, "at the first frame"},
		{"↑ at the first event", oneScene, []string{"up"}, "at the first event"},
		{"esc with nothing set", oneScene, []string{"esc"}, "nothing to clear · q quits"},
		{"a key that is no key", oneScene, []string{"x"}, "x does nothing here · ? shows the keys"},
		{"enter in the stage", oneScene, []string{"v", "enter"}, "enter does nothing in the stage view"},
		{"↑ in the stage", oneScene, []string{"v", "up"}, "the stage view does not scroll"},
		{"← at byte 0", oneScene, []string{"tab", "tab", "g", "0", "enter", "left"}, "at the first byte"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := newView(c.r(), 160, 48)
			press(v, c.keys...)
			if !strings.Contains(v.status, c.want) {
				t.Errorf("status %q, want %q", v.status, c.want)
			}
			if !strings.Contains(footerText(v), c.want) {
				t.Errorf("the footer does not show it: %q", footerText(v))
			}
		})
	}
}

// TestEFocusesProblems: e gives the problems pane the focus, so the next
// enter acts on the problem (it jumps to its bytes) and not on event #1.
func TestEFocusesProblems(t *testing.T) {
	for _, w := range []int{160, 80} {
		v := newView(synth(3000), w, 48)
		press(v, "e")
		if v.focus != paneProblems {
			t.Fatalf("%d: focus %v", w, v.focus)
		}
		press(v, "down", "enter")
		if v.diag != 1 || v.frame != 2000 || len(v.expanded) != 0 {
			t.Errorf("%d: enter after e: diag %d frame %d expanded %d", w, v.diag, v.frame, len(v.expanded))
		}
		// narrow: the problem and its bytes on the screen together
		out := ansi.Strip(v.View())
		if !strings.Contains(out, "problems 2") || !strings.Contains(out, "inspector") {
			t.Errorf("%d: problems and inspector not both shown:\n%s", w, out)
		}
	}
}

// TestFieldUnderCursor: the line under the dump names the field of the
// byte cursor, expanded or not.
func TestFieldUnderCursor(t *testing.T) {
	v := newView(synth(3000), 160, 48)
	v.seek(500)
	press(v, "tab", "tab") // the inspector
	off := v.r.Events[v.ev].Off
	for _, c := range []struct {
		moves int
		want  string
	}{
		{0, fmt.Sprintf("field Frame = %d  %#x+4", v.r.Timeline.Number(500), off)},
		{4, "field Percent = "},
		{6, "field Action State ID = WAIT (14)"},
	} {
		v.cur = off + int64(c.moves)
		if got := ansi.Strip(v.View()); !strings.Contains(got, c.want) {
			t.Errorf("cursor at +%d: %q not shown", c.moves, c.want)
		}
	}
	if len(v.expanded) != 0 {
		t.Error("the event was expanded")
	}
}

// TestSearchPrompt: `/` opens empty with the last query as a hint; ↑
// recalls it; typing starts a new query.
func TestSearchPrompt(t *testing.T) {
	v := newView(synth(3000), 160, 48)
	press(v, "/")
	typeText(v, "zzzz")
	press(v, "enter")
	if v.lastQuery != "zzzz" || !strings.Contains(v.status, `no match for "zzzz"`) {
		t.Fatalf("last %q status %q", v.lastQuery, v.status)
	}
	press(v, "/")
	if v.input.Value() != "" || !strings.Contains(footerText(v), "zzzz  (↑ recalls)") {
		t.Errorf("prompt %q, footer %q", v.input.Value(), footerText(v))
	}
	typeText(v, "lost a stock")
	press(v, "enter")
	if v.query != "lost a stock" || len(v.matches) != 5 {
		t.Errorf("query %q, %d matches", v.query, len(v.matches))
	}
	press(v, "/", "up")
	if v.input.Value() != "lost a stock" {
		t.Errorf("↑ recalled %q", v.input.Value())
	}
}

// TestFilter: kind: and player: terms in `/`, the f chooser, and esc.
func TestFilter(t *testing.T) {
	r := synth(3000)
	v := newView(r, 160, 48)
	press(v, append(append([]string{"/"}, split("kind:stock")...), "enter")...)
	if v.evs.len() != 5 || r.EventKind(v.ev) != "stock" {
		t.Fatalf("kind:stock keeps %d events, cursor on %s", v.evs.len(), r.EventKind(v.ev))
	}
	out := ansi.Strip(v.View())
	if !strings.Contains(out, "events 1/5 of 6,000 · only stock") {
		t.Errorf("title does not say the filter:\n%s", out)
	}
	press(v, "down", "down")
	if r.EventKind(v.ev) != "stock" || v.frame != 1500 {
		t.Errorf("down in the filtered list: %s at %d", r.EventKind(v.ev), v.frame)
	}
	press(v, "esc")
	if v.evs.len() != 6000 || v.evFilter.active() {
		t.Errorf("esc: %d events", v.evs.len())
	}
	// player terms with text: P1's events that say "percent 3"
	press(v, append(append([]string{"/"}, split("player:P1 percent 3")...), "enter")...)
	for _, m := range v.matches {
		if r.Events[m].Player != 0 {
			t.Fatalf("match %d is P%d's", m, r.Events[m].Player+1)
		}
	}
	if len(v.matches) == 0 || v.evs.len() != 3000 {
		t.Errorf("%d matches, %d shown", len(v.matches), v.evs.len())
	}
	press(v, "esc", "esc")
	// a kind that is not there says which are
	press(v, append(append([]string{"/"}, split("kind:nope")...), "enter")...)
	if !strings.Contains(v.status, `no kind "nope" here; kinds: post, stock`) {
		t.Errorf("status %q", v.status)
	}
	// the chooser: untick post, apply
	press(v, "f")
	if v.chooser == nil || !strings.Contains(ansi.Strip(v.View()), "filter events") {
		t.Fatal("no chooser")
	}
	press(v, "space", "enter")
	if v.evs.len() != 5 {
		t.Errorf("chooser without post: %d events", v.evs.len())
	}
	// only P2 (o: only this one of its section)
	press(v, "esc", "f", "down", "down", "down", "o", "enter")
	for pos := 0; pos < v.evs.len(); pos++ {
		if r.Events[v.evs.at(pos)].Player != 1 {
			t.Fatalf("only P2 kept P%d", r.Events[v.evs.at(pos)].Player+1)
		}
	}
	checkScreen(t, v.View(), 160, 48)
}

// TestMoments: with a game analysis the list opens on the moments; ] and
// [ walk them; m switches to the raw events and back; the timeline marks
// them; enter shows a moment's fields.
func TestMoments(t *testing.T) {
	r := synthGame(3000)
	r.Diagnostics = nil // a file with errors opens on the events
	v := newView(r, 160, 48)
	if v.list != listMoments {
		t.Fatal("not on the moments")
	}
	out := ansi.Strip(v.View())
	for _, want := range []string{"moments 1/11", "P2→P1  combo", "Marth combos Fox: 4 hits, 38%", "until 0:02.93", "×", "▴", "tab → inspector"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not shown:\n%s", want, out)
		}
	}
	press(v, "]")
	if v.frame != 240 || v.p.moments[v.mom].Kind != model.MomentCombo {
		t.Errorf("]: frame %d moment %d", v.frame, v.mom)
	}
	press(v, "]", "]")
	if v.frame != 723 || v.p.moments[v.mom].Kind != model.MomentBuild {
		t.Errorf("] ] ]: frame %d", v.frame)
	}
	press(v, "[")
	if v.frame != 300 {
		t.Errorf("[: frame %d, want 300", v.frame)
	}
	// a moment with a span shows its bytes
	if !v.useField || v.cur != r.Events[600].Off || !strings.Contains(ansi.Strip(v.View()), "moment stock") {
		t.Errorf("stock moment bytes: cur %#x", v.cur)
	}
	press(v, "enter")
	if !strings.Contains(ansi.Strip(v.View()), "Move forward smash (10)") {
		t.Error("enter did not show the moment's fields")
	}
	press(v, "m")
	if v.list != listEvents || !strings.Contains(ansi.Strip(v.View()), "events ") {
		t.Error("m did not show the events")
	}
	press(v, "m")
	if v.list != listMoments {
		t.Error("m did not return to the moments")
	}
	// kind: in / filters the moments by moment kind
	press(v, append(append([]string{"/"}, split("kind:stock")...), "enter")...)
	if v.moms.len() != 5 {
		t.Errorf("kind:stock keeps %d moments", v.moms.len())
	}
	press(v, "home", "]", "]")
	if v.frame != 900 {
		t.Errorf("] over stock moments: frame %d", v.frame)
	}
	// the last moment: ] says there is none after
	press(v, "end", "]")
	if !strings.Contains(v.status, "no moment after") {
		t.Errorf("status %q", v.status)
	}
	checkScreen(t, v.View(), 160, 48)
	// with errors the file opens on the events, the moments one key away
	if v := newView(synthGame(3000), 160, 48); v.list != listEvents {
		t.Error("a file with errors opened on the moments")
	}
}

// TestEmptyAnalysis: a format without game analysis opens on the events
// and says so when asked for moments or stats.
func TestEmptyAnalysis(t *testing.T) {
	v := newView(synth(3000), 80, 24)
	press(v, "m")
	if v.list != listEvents || !strings.Contains(footerText(v), "no moments") {
		t.Errorf("list %v footer %q", v.list, footerText(v))
	}
	press(v, "s")
	if v.showStats || !strings.Contains(footerText(v), "no stats") {
		t.Errorf("stats %v footer %q", v.showStats, footerText(v))
	}
}

// TestStats: s shows the tables, players side by side under their names;
// enter on a build-order row goes to its time; esc closes.
func TestStats(t *testing.T) {
	v := newView(synthGame(3000), 160, 48)
	press(v, "s")
	out := ansi.Strip(v.View())
	for _, want := range []string{"Overall", "P1 Fox", "P2 Marth", "Total damage  211.5", "480.25", "Build order (P2 Marth)", "Barracks"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not in the stats:\n%s", want, out)
		}
	}
	// the rows: Overall, heading, 2 rows, blank, title, heading, Barracks
	press(v, "end", "up", "enter")
	if v.frame != 723 {
		t.Errorf("enter on Barracks: frame %d", v.frame)
	}
	press(v, "esc")
	if v.showStats {
		t.Error("esc did not close the stats")
	}
	for _, sz := range [][2]int{{80, 24}, {40, 12}} {
		v.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		press(v, "s")
		checkScreen(t, v.View(), sz[0], sz[1])
		press(v, "s")
	}
}

// TestClicks: a click focuses the pane under it and selects the row: an
// event seeks to its frame, a problem shows its bytes, a byte takes the
// byte cursor, a header field is selected; the wheel scrolls the pane
// under the pointer; the same in the narrow layout.
func TestClicks(t *testing.T) {
	for _, sz := range [][2]int{{160, 48}, {80, 40}} {
		v := newView(synth(3000), sz[0], sz[1])
		v.seek(1000)
		v.View()
		g := v.regions(v.layout())
		click := func(x, y int) {
			v.Update(tea.MouseMsg{X: x, Y: y, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
			v.View()
		}
		// the fifth row of the events
		want := v.hits.list[4].ev
		click(g.list.x+10, g.list.y+5)
		if v.focus != paneEvents || v.ev != want || v.frame != int(v.r.Events[want].Frame) {
			t.Errorf("%v: click on an event: ev %d (want %d) frame %d", sz, v.ev, want, v.frame)
		}
		// the inspector: the third byte of the second row
		click(g.right.x+1+10+6, g.right.y+2)
		bpr := int64(v.bytesPerRow(g.right.w))
		if v.focus != paneInspector || v.cur != v.hexTop+bpr+2 {
			t.Errorf("%v: click on a byte: focus %v cur %#x (top %#x)", sz, v.focus, v.cur, v.hexTop)
		}
		// the header
		click(g.header.x+3, g.header.y+1)
		if v.focus != paneHeader {
			t.Errorf("%v: click on the header: focus %v", sz, v.focus)
		}
		if sz[0] >= wideMin {
			click(g.problems.x+5, g.problems.y+2)
			if v.focus != paneProblems || v.diag != 1 || v.frame != 2000 {
				t.Errorf("%v: click on a problem: focus %v diag %d frame %d", sz, v.focus, v.diag, v.frame)
			}
		}
		// the chart lane seeks like the timeline, over its plot's width
		// (the header's focus gave it more rows: the places moved)
		g = v.regions(v.layout())
		if g.charts.h > 0 {
			x0, cw := v.chartX()
			click(x0+cw/2, g.charts.y)
			if want := (cw / 2) * (v.count() - 1) / (cw - 1); v.frame != want {
				t.Errorf("%v: click on the chart: frame %d, want %d", sz, v.frame, want)
			}
		}
		checkScreen(t, v.View(), sz[0], sz[1])
	}
}

// TestStageMarks: players get distinct glyphs and both stay visible when
// they stand together; labels never overlap; the facing arrow points the
// way the player faces; items are drawn with their names; a moving player
// leaves a trail.
func TestStageMarks(t *testing.T) {
	r := synth(600)
	r.Scenes = func(f int) []model.Scene {
		return []model.Scene{{
			Bounds: model.Rect{MinX: -100, MinY: -50, MaxX: 100, MaxY: 50},
			Lines:  []model.Line{{X1: -80, Y1: 0, X2: 80, Y2: 0}},
			Points: []model.Point{
				{X: float64(f) / 10, Y: 0, Player: 0, Kind: "player", Label: "P1 Sheik", FacingX: 1},
				{X: float64(f) / 10, Y: 0, Player: 1, Kind: "player", Label: "P2 Fox", FacingX: -1},
				{X: -50, Y: 20, Player: 1, Kind: "item", Label: "Fox Laser"},
			},
		}}
	}
	v := newView(r, 160, 48)
	v.seek(300)
	press(v, "v")
	v.View()
	out := ansi.Strip(strings.Join(v.stagePane(60, 20), "\n"))
	for _, want := range []string{"●", "■", "P1 Sheik", "P2 Fox", "→", "←", "•", "Fox Laser"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not drawn:\n%s", want, out)
		}
	}
	if strings.Count(out, "P1 Sheik") != 1 || strings.Count(out, "P2 Fox") != 1 {
		t.Errorf("labels drawn more than once or cut:\n%s", out)
	}
	// the trail: dots left of the players, who move right
	if !strings.ContainsAny(out, "⠁⠂⠄⡀⠈⠐⠠⢀⠉⠒⠤⣀") {
		t.Errorf("no trail:\n%s", out)
	}
	// labels never overlap, on any frame and any size
	for _, sz := range [][2]int{{22, 6}, {40, 10}, {80, 24}} {
		for f := 0; f < 600; f += 37 {
			v.seek(f)
			for _, l := range v.stagePane(sz[0], sz[1]) {
				if n := ansi.StringWidth(l); n != sz[0] {
					t.Fatalf("%v frame %d: line of %d cells", sz, f, n)
				}
			}
		}
	}
}

// TestLabelsNeverOverlap puts six labelled players on one spot: every
// mark is drawn, and every label drawn is whole (none overwrites another).
func TestLabelsNeverOverlap(t *testing.T) {
	names := []string{"P1 Sheik", "P2 Fox", "P3 Marth", "P4 Falco", "P5 Peach", "P6 Jigglypuff"}
	sc := model.Scene{Bounds: model.Rect{MinX: -10, MinY: -10, MaxX: 10, MaxY: 10}}
	for i, n := range names {
		sc.Points = append(sc.Points, model.Point{X: 1, Y: 0, Player: i, Kind: "player", Label: n})
	}
	v := newView(synth(10), 160, 48)
	for _, sz := range [][2]int{{40, 10}, {24, 6}, {12, 4}} {
		text := ansi.Strip(strings.Join(v.drawScene(sc, nil, sz[0], sz[1]), "\n"))
		placed := 0
		for i, n := range names {
			if !strings.ContainsRune(text, playerGlyph(i, false)) {
				t.Errorf("%v: mark of P%d lost:\n%s", sz, i+1, text)
			}
			if strings.Contains(text, n) {
				placed++
				continue
			}
			// a label that did not fit whole may show as its first word;
			// what is on the screen must never be a piece of one
			short, _, _ := strings.Cut(n, " ")
			for _, w := range strings.Fields(text) {
				if strings.HasPrefix(n, w) && w != short && w != n && len(w) > 1 && !strings.ContainsAny(w, "●■▲◆▼◉▣◈") {
					t.Errorf("%v: %q is a cut label:\n%s", sz, w, text)
				}
			}
		}
		if sz[0] >= 40 && placed < len(names) {
			t.Errorf("%v: %d of %d labels placed:\n%s", sz, placed, len(names), text)
		}
	}
}

// TestPalettes: the light and the dark palette draw the same screen in
// different colours; NO_COLOR draws it with attributes only.
func TestPalettes(t *testing.T) {
	defer colour()()
	r := synth(3000)
	views := map[string]string{}
	for name, th := range map[string]*theme.Theme{"dark": theme.For(theme.Dark, false), "light": theme.For(theme.Light, false), "none": theme.For(theme.Light, true)} {
		v := newReplayView(r, prepare(r), th)
		v.setSize(120, 40)
		views[name] = v.View()
	}
	if views["dark"] == views["light"] {
		t.Error("the palettes draw the same colours")
	}
	if ansi.Strip(views["dark"]) != ansi.Strip(views["light"]) || ansi.Strip(views["none"]) != ansi.Strip(views["dark"]) {
		t.Error("the palettes draw different text")
	}
	if strings.Contains(views["none"], "38;5;") {
		t.Error("NO_COLOR draws colours")
	}
}
