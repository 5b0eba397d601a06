package tui

import (
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"rewind/decoders"
	"rewind/library/diff"
	"rewind/model"
	"rewind/theme"
)

// twinFrame is where the twins differ: P1's post-frame percent at this
// frame number of tests__data__v3.16.slp (frames -123..184) is rewritten.
const twinFrame = 100

// twins decodes a sample and a copy of it with P1's post-frame percent at
// twinFrame rewritten (the bytes found through the decoder's event spans),
// each with a path for the titles.
func twins(t testing.TB) (a, b *model.Replay) {
	t.Helper()
	path := filepath.Join("..", "testdata", "samples", "slippi", "tests__data__v3.16.slp")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a = decodeNamed(t, data, "v3.16.slp")
	f := a.Timeline.Index(twinFrame)
	lo, hi := a.EventRange(f)
	off := int64(-1)
	for i := lo; i < hi; i++ {
		if a.EventKind(i) == "post" && a.Events[i].Player == 0 && a.EventFlag(i) == "" {
			if fl, ok := model.Find(a.EventFields(i), "percent"); ok && fl.Span.Len == 4 {
				off = fl.Span.Off
			}
		}
	}
	if off < 0 {
		t.Fatalf("no post-frame percent of P1 at frame %d", twinFrame)
	}
	twin := append([]byte(nil), data...)
	pct := math.Float32frombits(binary.BigEndian.Uint32(twin[off:]))
	binary.BigEndian.PutUint32(twin[off:], math.Float32bits(pct+17.5))
	return a, decodeNamed(t, twin, "twin.slp")
}

func decodeNamed(t testing.TB, data []byte, name string) *model.Replay {
	t.Helper()
	r, err := decoders.Decode(data, name, model.DecodeOptions{})
	if r == nil {
		t.Fatal(err)
	}
	r.Path = name
	return r
}

// newTestDiff is the split view of a and b at w×h with the comparison done.
func newTestDiff(t testing.TB, a, b *model.Replay, w, h int) *diffView {
	t.Helper()
	th := theme.For(theme.Dark, false)
	d := newDiffView(newReplayView(a, prepare(a), th), newReplayView(b, prepare(b), th), diff.Options{}, th)
	d.Update(tea.WindowSizeMsg{Width: w, Height: h})
	res, err := diff.Compare(a, b, diff.Options{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	d.Update(compareDoneMsg{res: res})
	return d
}

func pressDiff(d *diffView, keys ...string) {
	for _, k := range keys {
		d.Update(keyMsg(k))
	}
}

// screenLines is the view without styles, line by line.
func screenLines(d *diffView) []string { return strings.Split(ansi.Strip(d.View()), "\n") }

// lineWith is the first line holding s, -1 when none does.
func lineWith(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

// TestDiffKeys drives the split view: d goes to the difference, marks it
// in the players and events panes of both sides, D and d say when there is
// nothing further, the arrows move both sides together, x gives the
// inspector to B.
func TestDiffKeys(t *testing.T) {
	a, b := twins(t)
	d := newTestDiff(t, a, b, 160, 48)
	if d.cur() != a.Timeline.First {
		t.Fatalf("starts at frame %d", d.cur())
	}
	pressDiff(d, "d")
	if d.cur() != twinFrame {
		t.Fatalf("d went to frame %d, want %d (status %q)", d.cur(), twinFrame, d.status)
	}
	if len(d.here) != 1 || d.here[0].Player != 0 || d.here[0].Field != "post.percent" {
		t.Fatalf("differences here: %+v", d.here)
	}
	lines := screenLines(d)
	if i := lineWith(lines, "P1≠"); i < 0 || strings.Count(lines[i], "P1≠") != 2 {
		t.Errorf("P1 is not marked ≠ on both sides:\n%s", strings.Join(lines, "\n"))
	}
	if i := lineWith(lines, "state post.percent"); i < 0 {
		t.Errorf("the differences pane does not name the field")
	}
	// the event cursor is on the differing event, marked on both sides
	va, vb := d.sides[0], d.sides[1]
	if va.ev != d.here[0].EventA || a.EventKind(va.ev) != "post" {
		t.Errorf("A's cursor on event %d, want the post-frame update %d", va.ev, d.here[0].EventA)
	}
	if vb.ev != d.here[0].EventB || vb.evField < 0 || !strings.Contains(vb.fieldWhat, "Percent") {
		t.Errorf("B's cursor on event %d field %d (%q), want the post-frame update %d opened on its percent",
			vb.ev, vb.evField, vb.fieldWhat, d.here[0].EventB)
	}
	if !va.useField || va.field.Len != 4 {
		t.Errorf("A's inspector shows %+v, not the percent's 4 bytes", va.field)
	}
	pressDiff(d, "d")
	if d.cur() != twinFrame || !strings.Contains(d.status, "no difference after") {
		t.Errorf("a second d: frame %d, status %q", d.cur(), d.status)
	}
	pressDiff(d, "right")
	if vb.r.Timeline.Number(vb.frame) != twinFrame+1 || len(d.here) != 0 {
		t.Errorf("→ moved B to %d with %d differences", vb.r.Timeline.Number(vb.frame), len(d.here))
	}
	pressDiff(d, "D")
	if d.cur() != twinFrame {
		t.Errorf("D went to %d", d.cur())
	}
	pressDiff(d, "x")
	if d.active != 1 {
		t.Fatal("x did not make B active")
	}
	lines = screenLines(d)
	if i := lineWith(lines, "B inspector"); i < 0 {
		t.Errorf("the inspector does not show B after x:\n%s", strings.Join(lines, "\n"))
	}
	// keys go to B now, and A follows
	pressDiff(d, "left")
	if va.r.Timeline.Number(va.frame) != twinFrame-1 || d.cur() != twinFrame-1 {
		t.Errorf("← on B: A at %d, B at %d", va.r.Timeline.Number(va.frame), d.cur())
	}
	pressDiff(d, "r")
	if !d.showRep || lineWith(screenLines(d), "First difference: frame 100") < 0 {
		t.Errorf("r does not show the comparison:\n%s", d.View())
	}
	pressDiff(d, "esc", "?")
	if !d.showHelp || lineWith(screenLines(d), "next difference") < 0 {
		t.Error("? does not list d")
	}
}

// TestDiffEndsEarly: against a copy cut short, the frames only A has are
// a stop of d, and B's title says where it ends.
func TestDiffEndsEarly(t *testing.T) {
	a, _ := twins(t)
	cut := a.Data[:len(a.Data)*3/5]
	b := decodeNamed(t, cut, "cut.slp")
	d := newTestDiff(t, a, b, 80, 24)
	last := b.Timeline.Number(b.Timeline.Count - 1)
	pressDiff(d, "end")
	lines := screenLines(d)
	if i := lineWith(lines, "B cut.slp"); i < 0 || !strings.Contains(lines[i], "ends at "+itoa(int(last))) {
		t.Errorf("B's title does not say where it ends (%d):\n%s", last, strings.Join(lines, "\n"))
	}
	pressDiff(d, "home", "d")
	if d.cur() != last {
		t.Errorf("d went to %d; the first difference is the cut frame %d", d.cur(), last)
	}
	pressDiff(d, "d")
	if d.cur() != last+1 {
		t.Errorf("the next d went to %d, want %d, where only A goes on", d.cur(), last+1)
	}
}

// TestDiffLayout: a wide terminal puts A and B side by side, a narrow one
// stacks them; every line fills the width at every size.
func TestDiffLayout(t *testing.T) {
	a, b := twins(t)
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {160, 48}, {200, 60}, {40, 12}} {
		d := newTestDiff(t, a, b, sz[0], sz[1])
		pressDiff(d, "d")
		out := d.View()
		checkScreen(t, out, sz[0], sz[1])
		lines := strings.Split(ansi.Strip(out), "\n")
		ia, ib := lineWith(lines, "A v3.16.slp"), lineWith(lines, "B twin.slp")
		if sz[1] < 20 {
			continue
		}
		switch wide := sz[0] >= 120; {
		case ia < 0 || ib < 0:
			t.Errorf("%v: no titles for A and B", sz)
		case wide && ia != ib:
			t.Errorf("%v: A and B are not side by side", sz)
		case !wide && ia >= ib:
			t.Errorf("%v: A is not stacked above B", sz)
		}
	}
}

// TestDiffGolden draws the split view at the difference at 80x24 and
// 160x48 with the colour profile pinned to 256 colours, and after x.
func TestDiffGolden(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	a, b := twins(t)
	for _, c := range []struct {
		name string
		keys []string
	}{{"difference", []string{"d"}}, {"inspector_b", []string{"d", "x", "tab"}}} {
		for _, sz := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(c.name+"_"+itoa(sz[0])+"x"+itoa(sz[1]), func(t *testing.T) {
				d := newTestDiff(t, a, b, sz[0], sz[1])
				pressDiff(d, c.keys...)
				out := d.View()
				checkScreen(t, out, sz[0], sz[1])
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

// TestRunDiffHeadless runs the entry point without a terminal: the
// comparison finishes in the background and the view shows it.
func TestRunDiffHeadless(t *testing.T) {
	a, b := twins(t)
	in, keys := io.Pipe()
	out := &screenBuffer{}
	done := make(chan error, 1)
	var res *diff.Result
	go func() {
		var err error
		res, err = RunDiff(Config{Input: in, Output: out, Theme: "dark"}, a, b, diff.Options{Limit: 5})
		done <- err
	}()
	t.Cleanup(func() { keys.Close() })
	out.waitFor(t, "1 frame differs")
	io.WriteString(keys, "d")
	out.waitFor(t, "difference 1/1")
	io.WriteString(keys, "q")
	if err := waitRun(t, done); err != nil {
		t.Fatal(err)
	}
	if res == nil || res.First == nil || res.First.Frame != twinFrame {
		t.Errorf("RunDiff returned %+v", res)
	}
}

// TestDiffConcurrent: the comparison reads both replays in the background
// while the view moves and marks frames (run with -race).
func TestDiffConcurrent(t *testing.T) {
	a, b := twins(t)
	th := theme.For(theme.Dark, false)
	d := newDiffView(newReplayView(a, prepare(a), th), newReplayView(b, prepare(b), th), diff.Options{}, th)
	d.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	done := make(chan compareDoneMsg)
	go func() {
		res, err := diff.Compare(a, b, diff.Options{})
		done <- compareDoneMsg{res, err}
	}()
	for i := 0; i < 200; i++ {
		pressDiff(d, "right")
		_ = d.View()
	}
	msg := <-done
	d.Update(msg)
	if d.res == nil || d.res.DifferingFrames != 1 {
		t.Errorf("comparison %+v", d.res)
	}
}

// TestDiffReportScrollsAcross: two SC2 games' side-by-side tables are
// wider than 80 columns; the report says so and ←→ move across them.
func TestDiffReportScrollsAcross(t *testing.T) {
	a := openSample(t, "sc2/lotv-4.3.0-backwater-vs-ai.SC2Replay")
	b := openSample(t, "sc2/lotv-5.0.15-winter-madness.SC2Replay")
	d := newTestDiff(t, a, b, 80, 24)
	pressDiff(d, "r")
	out := d.View()
	checkScreen(t, out, 80, 24)
	if !strings.Contains(ansi.Strip(out), "columns 1-78 of") {
		t.Fatalf("the report does not say it is wider:\n%s", ansi.Strip(out))
	}
	pressDiff(d, "right", "right")
	out = ansi.Strip(d.View())
	if !strings.Contains(out, "columns 17-94 of") {
		t.Errorf("→→ did not move 16 columns:\n%s", out)
	}
	for range 40 {
		pressDiff(d, "right")
	}
	// at the far right the last column shown is the widest line's last
	if m := regexp.MustCompile(`columns (\d+)-(\d+) of (\d+)`).FindStringSubmatch(ansi.Strip(d.View())); m == nil || m[2] != m[3] || m[1] == "1" {
		t.Errorf("far right: %v", m)
	}
	pressDiff(d, "left")
	for range 40 {
		pressDiff(d, "left")
	}
	if !strings.Contains(ansi.Strip(d.View()), "columns 1-78 of") {
		t.Errorf("back to the left edge:\n%s", ansi.Strip(d.View()))
	}
}
