package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/model"
	"rewind/theme"
)

// TestKeys drives the replay view through Update, one case per key, from
// frame 1000 of a 20,000-frame synthetic replay (60 frames a second).
func TestKeys(t *testing.T) {
	const start = 1000
	cases := []struct {
		name  string
		keys  []string
		check func(t *testing.T, v *replayView, cmd tea.Cmd)
	}{
		{"right", []string{"right"}, frameIs(start + 1)},
		{"l", []string{"l"}, frameIs(start + 1)},
		{"left", []string{"left"}, frameIs(start - 1)},
		{"h", []string{"h"}, frameIs(start - 1)},
		{"shift+right is one second", []string{"shift+right"}, frameIs(start + 60)},
		{"shift+left is one second", []string{"shift+left"}, frameIs(start - 60)},
		{"L", []string{"L"}, frameIs(start + 60)},
		{"pgdown is ten seconds", []string{"pgdown"}, frameIs(start + 600)},
		{"pgup is ten seconds", []string{"pgup"}, frameIs(start - 600)},
		{"home", []string{"home"}, frameIs(0)},
		{"end", []string{"end"}, frameIs(19999)},
		{"left at the start stays", []string{"home", "left"}, frameIs(0)},
		{"right at the end stays", []string{"end", "right"}, frameIs(19999)},
		// frame numbers are the format's: index = number + 123
		{"g frame number", append(append([]string{"g"}, split("500")...), "enter"), frameIs(623)},
		{"g negative frame", append(append([]string{"g"}, split("-123")...), "enter"), frameIs(0)},
		{"g time", append(append([]string{"g"}, split("1:23.45")...), "enter"), frameIs(123 + 5007)},
		{"g esc cancels", append(append([]string{"g"}, split("5")...), "esc"), frameIs(start)},
		{"g nonsense", append(append([]string{"g"}, split("abc")...), "enter"), func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.frame != start || !strings.Contains(v.status, "not a frame") {
				t.Errorf("frame %d status %q", v.frame, v.status)
			}
		}},
		{"space plays", []string{"space"}, func(t *testing.T, v *replayView, cmd tea.Cmd) {
			if !v.playing || cmd == nil {
				t.Errorf("playing %v cmd %v", v.playing, cmd != nil)
			}
		}},
		{"space twice pauses", []string{"space", "space"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.playing {
				t.Error("still playing")
			}
		}},
		{"> faster", []string{">", ">"}, speedIs(4)},
		{"< slower", []string{"<", "<", "<", "<", "<"}, speedIs(1.0 / 8)},
		{"> capped at 8x, and says so", []string{">", ">", ">", ">", ">"}, func(t *testing.T, v *replayView, cmd tea.Cmd) {
			speedIs(8)(t, v, cmd)
			if !strings.Contains(v.status, "fastest") {
				t.Errorf("status %q", v.status)
			}
		}},
		{"/ search and n", append(append([]string{"/"}, split("lost")...), "enter"), func(t *testing.T, v *replayView, _ tea.Cmd) {
			if len(v.matches) == 0 {
				t.Fatal("no matches")
			}
			ev := v.r.Events[v.ev]
			if v.r.EventKind(v.ev) != "stock" || int(ev.Frame) < start {
				t.Errorf("cursor on %+v", ev)
			}
		}},
		{"n next match", append(append([]string{"/"}, split("lost")...), "enter", "n"), func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.frame != 2100 || v.r.EventKind(v.ev) != "stock" {
				t.Errorf("match %d", v.match)
			}
		}},
		{"N previous match", append(append([]string{"/"}, split("lost")...), "enter", "N"), func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.r.EventKind(v.ev) != "stock" || v.frame >= start {
				t.Errorf("frame %d kind %s", v.frame, v.r.EventKind(v.ev))
			}
		}},
		{"/ player name", append(append([]string{"/"}, split("Alice")...), "enter"), func(t *testing.T, v *replayView, _ tea.Cmd) {
			if len(v.matches) < 20000 || v.r.Events[v.ev].Player != 0 {
				t.Errorf("%d matches, player %d", len(v.matches), v.r.Events[v.ev].Player)
			}
		}},
		{"esc clears the search", append(append([]string{"/"}, split("lost")...), "enter", "esc"), func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.matches != nil || v.query != "" {
				t.Error("search not cleared")
			}
		}},
		{"e next problem", []string{"e"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			d := v.r.Diagnostics[0]
			if v.diag != 0 || v.frame != d.Frame || v.cur != d.Span.Off {
				t.Errorf("diag %d frame %d cur %#x", v.diag, v.frame, v.cur)
			}
			if !strings.Contains(ansi.Strip(v.View()), "expected 0x37..0x3d · found 0x55") {
				t.Error("inspector does not show expected/found")
			}
		}},
		{"e e second problem", []string{"e", "e"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.diag != 1 || v.frame != 2000 {
				t.Errorf("diag %d frame %d", v.diag, v.frame)
			}
			if !strings.Contains(ansi.Strip(v.View()), "skipped 0x7d40..0x7d58") {
				t.Error("skipped range not shown")
			}
		}},
		{"E previous problem wraps, past the info note", []string{"E"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.diag != 1 {
				t.Errorf("diag %d, want 1 (the warning; the info at 2 is a note, not a problem)", v.diag)
			}
		}},
		{"tab cycles focus", []string{"tab"}, focusIs(paneProblems)},
		{"tab tab", []string{"tab", "tab"}, focusIs(paneInspector)},
		{"tab wraps", []string{"tab", "tab", "tab", "tab"}, focusIs(paneEvents)},
		{"shift+tab", []string{"shift+tab"}, focusIs(paneHeader)},
		{"down moves the event cursor", []string{"down", "down"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.ev != 2*start+2 || v.frame != start+1 {
				t.Errorf("ev %d frame %d", v.ev, v.frame)
			}
		}},
		{"j k", []string{"j", "j", "k"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.ev != 2*start+1 {
				t.Errorf("ev %d", v.ev)
			}
		}},
		{"enter expands", []string{"enter"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if _, ok := v.expanded[v.ev]; !ok {
				t.Fatal("not expanded")
			}
			if !strings.Contains(ansi.Strip(v.View()), "Action State ID WAIT (14)") {
				t.Error("fields not shown")
			}
		}},
		{"enter twice folds", []string{"enter", "enter"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if len(v.expanded) != 0 {
				t.Error("still expanded")
			}
		}},
		{"enter on a problem jumps", []string{"tab", "down", "enter"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.diag != 1 || v.frame != 2000 {
				t.Errorf("diag %d frame %d", v.diag, v.frame)
			}
		}},
		{"inspector byte cursor", []string{"tab", "tab", "right", "right", "down"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			want := v.r.Events[2*start].Off + 2 + int64(v.bytesPerRow(v.layout().inspW))
			if v.cur != want || v.frame != start {
				t.Errorf("cur %#x want %#x frame %d", v.cur, want, v.frame)
			}
			e := v.r.EventAt("", v.cur)
			if out := ansi.Strip(v.View()); !strings.Contains(out, "in #"+fmt.Sprint(e+1)+" ") {
				t.Errorf("owner not shown:\n%s", out)
			}
		}},
		{"inspector g offset and enter", append(append([]string{"tab", "tab", "g"}, split("0x80")...), "enter", "enter"), func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.cur != 0x80 || v.ev != v.r.EventAt("", 0x80) || v.frame != int(v.r.Events[v.ev].Frame) {
				t.Errorf("cur %#x ev %d frame %d", v.cur, v.ev, v.frame)
			}
		}},
		{"header enter shows a field's bytes", []string{"shift+tab", "enter"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.cur != 0x10 || !v.useField || v.field.Len != 2 {
				t.Errorf("cur %#x field %+v", v.cur, v.field)
			}
			if !strings.Contains(ansi.Strip(v.View()), "header Stage ID: 0x10, 2 bytes") {
				t.Error("field span not described")
			}
		}},
		{"header down to a group without bytes", []string{"shift+tab", "down", "enter"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.headCur != 1 || v.useField || !strings.Contains(v.status, "no bytes") {
				t.Errorf("cursor %d status %q", v.headCur, v.status)
			}
		}},
		{"v stage view", []string{"v"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if !v.stage || !strings.Contains(ansi.Strip(v.View()), "stage Battlefield") {
				t.Error("no stage view")
			}
		}},
		{"? help", []string{"?"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if !v.showHelp || !strings.Contains(ansi.Strip(v.View()), "next problem") {
				t.Error("no full help")
			}
		}},
		{"? then another key keeps it open", []string{"?", "x", "right"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if !v.showHelp || v.frame != start {
				t.Errorf("help open %v, frame %d", v.showHelp, v.frame)
			}
		}},
		{"? then esc closes, as its title says", []string{"?", "esc"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.showHelp || !strings.Contains(ansi.Strip(strings.Join(func() []string { v.showHelp = true; defer func() { v.showHelp = false }(); return v.helpScreen() }(), "\n")), "? or esc closes · q quits") {
				t.Error("help still open, or its title does not say how to close it")
			}
		}},
		{"? then ? closes", []string{"?", "?"}, func(t *testing.T, v *replayView, _ tea.Cmd) {
			if v.showHelp {
				t.Error("help still open")
			}
		}},
		{"? then q quits", []string{"?", "q"}, quits},
		{"q quits", []string{"q"}, quits},
		{"ctrl+c quits", []string{"ctrl+c"}, quits},
		{"ctrl+c quits while typing", []string{"g", "ctrl+c"}, quits},
		{"esc returns to the browser", []string{"esc"}, func(t *testing.T, v *replayView, cmd tea.Cmd) {
			if cmd == nil {
				t.Fatal("no command")
			}
			if _, ok := cmd().(backMsg); !ok {
				t.Error("esc did not go back")
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := newReplayView(keysReplay, keysPrep, theme.New(false))
			v.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
			v.canBack = true
			v.seek(start)
			cmd := press(v, c.keys...)
			c.check(t, v, cmd)
			checkScreen(t, v.View(), 160, 48)
		})
	}
}

// one replay for all the key cases: views never change a replay
var (
	keysReplay = synth(20000)
	keysPrep   = prepare(keysReplay)
)

func split(s string) []string { return strings.Split(s, "") }

func frameIs(f int) func(*testing.T, *replayView, tea.Cmd) {
	return func(t *testing.T, v *replayView, _ tea.Cmd) {
		t.Helper()
		if v.frame != f {
			t.Errorf("frame %d, want %d", v.frame, f)
		}
		if v.ev >= 0 && int(v.r.Events[v.ev].Frame) < f && v.ev < len(v.r.Events)-1 {
			t.Errorf("event cursor %d behind the frame", v.ev)
		}
	}
}

func speedIs(s float64) func(*testing.T, *replayView, tea.Cmd) {
	return func(t *testing.T, v *replayView, _ tea.Cmd) {
		if speeds[v.speed] != s {
			t.Errorf("speed %v, want %v", speeds[v.speed], s)
		}
	}
}

func focusIs(p paneID) func(*testing.T, *replayView, tea.Cmd) {
	return func(t *testing.T, v *replayView, _ tea.Cmd) {
		if v.focus != p {
			t.Errorf("focus %v, want %v", v.focus, p)
		}
	}
}

func quits(t *testing.T, _ *replayView, cmd tea.Cmd) {
	if cmd == nil {
		t.Fatal("no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("did not quit")
	}
}

func TestMouse(t *testing.T) {
	v := newTestView(t, 20000, 160, 48)
	l := v.layout()
	v.Update(tea.MouseMsg{X: 80, Y: l.barY, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if want := 80 * 19999 / 159; v.frame != want {
		t.Errorf("click at the middle: frame %d, want %d", v.frame, want)
	}
	f := v.frame
	v.Update(tea.MouseMsg{X: 10, Y: l.barY + 5, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if v.frame != f {
		t.Error("a click off the timeline seeks")
	}
	ev := v.ev
	v.Update(tea.MouseMsg{X: 10, Y: 20, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if v.ev != ev+3 {
		t.Errorf("wheel: event %d, want %d", v.ev, ev+3)
	}
	g := v.regions(v.layout())
	v.Update(tea.MouseMsg{X: g.problems.x + 2, Y: g.problems.y + 1, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if v.prob != 2 {
		t.Errorf("wheel over the problems: %d", v.prob)
	}
}

// TestPlayback: N ticks of 1/60 s advance N frames at 60/s, twice as many
// at 2x; a stale tick from before a pause does nothing; an irregular
// timeline (song times) advances by its own clock.
func TestPlayback(t *testing.T) {
	v := newTestView(t, 20000, 160, 48)
	v.seek(100)
	cmd := press(v, "space")
	if cmd == nil || !v.playing {
		t.Fatal("not playing")
	}
	t0 := time.Unix(1000, 0)
	step := time.Second / 60
	for i := 0; i <= 120; i++ {
		v.Update(tickMsg{id: v.tickID, t: t0.Add(time.Duration(i) * step)})
	}
	if v.frame < 219 || v.frame > 221 {
		t.Errorf("after 120 ticks at 60/s: frame %d, want 220", v.frame)
	}
	press(v, ">")
	f := v.frame
	t1 := t0.Add(121 * step)
	for i := 0; i <= 60; i++ {
		v.Update(tickMsg{id: v.tickID, t: t1.Add(time.Duration(i) * step)})
	}
	if d := v.frame - f; d < 118 || d > 122 {
		t.Errorf("at 2x, 60 ticks moved %d frames, want 120", d)
	}
	old := v.tickID
	press(v, "space")
	f = v.frame
	v.Update(tickMsg{id: old, t: t1.Add(10 * time.Second)})
	if v.frame != f {
		t.Error("a tick after pause moved the frame")
	}
	// resize while playing
	press(v, "space")
	v.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	v.Update(tickMsg{id: v.tickID, t: t1.Add(11 * time.Second)})
	checkScreen(t, v.View(), 80, 24)
	v.Update(tea.WindowSizeMsg{Width: 1, Height: 1})
	v.Update(tickMsg{id: v.tickID, t: t1.Add(12 * time.Second)})
	_ = v.View()

	// an irregular timeline: frames at 0, 10 ms, 30 ms, 60 ms, ... (song time)
	r := synth(3000)
	r.Timeline.TimeOf = func(i int) time.Duration { return time.Duration(i*(i+1)/2) * 10 * time.Millisecond }
	iv := newReplayView(r, prepare(r), theme.New(false))
	iv.setSize(160, 48)
	press(iv, "space")
	for i := 0; i <= 60; i++ {
		iv.Update(tickMsg{id: iv.tickID, t: t0.Add(time.Duration(i) * step)})
	}
	// one second of song: i(i+1)/2*10ms <= 1s gives i = 13
	if iv.frame != 13 {
		t.Errorf("irregular timeline after 1 s: frame %d, want 13", iv.frame)
	}
	// shift+right on it lands on the first frame a second later
	press(iv, "shift+right")
	if got := r.Timeline.Time(iv.frame); got < r.Timeline.Time(13)+time.Second || r.Timeline.Time(iv.frame-1) >= r.Timeline.Time(13)+time.Second {
		t.Errorf("shift+right: frame %d at %v", iv.frame, got)
	}
}

// TestSizes: every size from 1x1 to 500x200 draws exactly the screen, in
// every pane state, and never panics.
func TestSizes(t *testing.T) {
	sizes := [][2]int{{1, 1}, {2, 2}, {10, 5}, {40, 12}, {80, 24}, {100, 30}, {109, 40}, {110, 40}, {160, 48}, {200, 60}, {500, 200}}
	states := [][]string{nil, {"v"}, {"v", "V"}, {"enter", "down"}, {"?"}, {"tab"}, {"tab", "tab"}, {"e"}, {"enter"}, {"g"}, {"tab", "tab", "tab"}}
	for _, sz := range sizes {
		for _, st := range states {
			v := newTestView(t, 5000, 160, 48)
			press(v, st...)
			v.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			checkScreen(t, v.View(), sz[0], sz[1])
		}
		b := newTestBrowser(sz[0], sz[1])
		checkScreen(t, b.View(), sz[0], sz[1])
	}
}

// TestEmpty: replays with nothing in them (header-only, broken early) open.
func TestEmpty(t *testing.T) {
	for _, r := range []*model.Replay{
		{},
		{Timeline: model.Timeline{Count: 1}},
		{Timeline: model.Timeline{Count: 10, Rate: 60}, Players: []model.Player{{Slot: "P1"}},
			Diagnostics: []model.Diagnostic{{Severity: model.Error, Span: model.Span{Off: 99}, Frame: 50}}},
	} {
		r.Finish()
		v := newReplayView(r, prepare(r), theme.New(false))
		for _, sz := range [][2]int{{80, 24}, {160, 48}, {1, 1}} {
			v.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			for _, k := range []string{"right", "end", "space", "e", "v", "tab", "tab", "right", "enter", "/", "x", "enter", "n", "g", "9", "enter"} {
				press(v, k)
				checkScreen(t, v.View(), sz[0], sz[1])
			}
		}
	}
}

// TestBrowseAndBack: the app opens a row from the browser and esc returns
// with the cursor where it was.
func TestBrowseAndBack(t *testing.T) {
	a := &app{th: theme.New(false), br: newTestBrowser(160, 48)}
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	a.Update(keyMsg("down"))
	a.Update(keyMsg("down"))
	r := synth(100)
	a.load = &loadState{id: 7}
	a.Update(loadedMsg{id: 7, r: r, p: prepare(r)})
	if a.mode != modeReplay {
		t.Fatal("not in the replay view")
	}
	_, cmd := a.Update(keyMsg("esc"))
	a.Update(cmd())
	if a.mode != modeBrowser || a.br.cur != 2 {
		t.Errorf("mode %v cursor %d", a.mode, a.br.cur)
	}
	checkScreen(t, a.View(), 160, 48)
}

func TestParseTime(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1:23.45", 83*time.Second + 450*time.Millisecond, true},
		{"0:05", 5 * time.Second, true},
		{"1:02:03", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"12.5s", 12500 * time.Millisecond, true},
		{"-0:01", -time.Second, true},
		{"123", 0, false},
		{"1.5:20", 0, false},
		{"a:b", 0, false},
	} {
		got, ok := parseTime(c.in)
		if ok != c.ok || (ok && (got-c.want).Abs() > time.Millisecond) {
			t.Errorf("%q: %v %v", c.in, got, ok)
		}
	}
}

// TestSearch: a query typed as it appears finds those events; one that
// appears nowhere as typed falls back to fuzzy matching.
func TestSearch(t *testing.T) {
	r, p := keysReplay, keysPrep
	exact := searchEvents(r, p, "lost a stock")
	if len(exact) != 33 { // frames 300, 900, ... 19500
		t.Errorf("exact: %d matches", len(exact))
	}
	for _, e := range exact {
		if r.EventKind(e) != "stock" {
			t.Fatalf("event %d is %s", e, r.EventKind(e))
		}
	}
	if fz := searchEvents(r, p, "lststck"); len(fz) < len(exact) {
		t.Errorf("fuzzy: %d matches", len(fz))
	}
	if got := searchEvents(r, p, "zzzzqqq"); len(got) != 0 {
		t.Errorf("nonsense: %d matches", len(got))
	}
	bob := searchEvents(r, p, "EFGH#456")
	if len(bob) != 20000 || r.Events[bob[0]].Player != 1 {
		t.Errorf("player code: %d matches", len(bob))
	}
}

// TestConcurrentSearch: the search command runs on its own goroutine while
// the view keeps drawing the same replay (run with -race).
func TestConcurrentSearch(t *testing.T) {
	v := newTestView(t, 2000, 120, 40)
	cmd := v.search("lost")
	done := make(chan tea.Msg)
	go func() { done <- cmd() }()
	for i := 0; i < 20; i++ {
		press(v, "right")
		_ = v.View()
	}
	v.Update(<-done)
	if len(v.matches) == 0 {
		t.Error("no matches")
	}
}

func TestLoadingView(t *testing.T) {
	a := &app{th: theme.New(false), mode: modeLoading, w: 80, h: 24, load: &loadState{name: "/x/big.slp"}}
	a.load.total.Store(1000)
	a.load.done.Store(250)
	out := a.View()
	checkScreen(t, out, 80, 24)
	if !strings.Contains(out, "decoding big.slp") || !strings.Contains(out, " 25%") {
		t.Errorf("loading view:\n%s", out)
	}
}
