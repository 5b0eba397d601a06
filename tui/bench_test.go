package tui

import (
	"os"
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"rewind/decoders"
	"rewind/model"
	"rewind/theme"
)

// BenchmarkView draws the replay view at 200x60 on a 30-minute replay
// (108,000 frames, 216,000 events): the cost must not depend on where in
// the replay the view is, nor on its length.
func BenchmarkView(b *testing.B) {
	defer colour()()
	v := newTestView(b, 108000, 200, 60)
	for _, c := range []struct {
		name  string
		frame int
		keys  []string
	}{
		{"frame10", 10, nil},
		{"frame20000", 20000, nil},
		{"frame20000_stage", 20000, []string{"v"}},
		{"frame20000_expanded", 20000, []string{"enter"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			v.stage, v.focus = false, paneEvents // the stage case leaves the focus on its pane
			v.seek(c.frame)
			press(v, c.keys...)
			_ = v.View()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = v.View()
			}
		})
	}
}

// BenchmarkStep is a key press plus the redraw that follows, as when a
// person holds → down.
func BenchmarkStep(b *testing.B) {
	defer colour()()
	v := newTestView(b, 108000, 200, 60)
	v.seek(20000)
	right := keyMsg("right")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if v.frame >= 100000 {
			v.seek(20000)
		}
		v.Update(right)
		_ = v.View()
	}
}

// BenchmarkStepRealSlippi is BenchmarkStep on the corpus's largest
// Slippi file (4 MB, 82,000 events, heavy rollback), from its middle.
func BenchmarkStepRealSlippi(b *testing.B) {
	defer colour()()
	path := filepath.Join("..", "..", "shared", "corpus", "slp", "project-slippi__slippi-js", "slp__rollbackFrameTest.slp")
	if _, err := os.Stat(path); err != nil {
		b.Skip("shared corpus not found: ", err)
	}
	r, err := decoders.Open(path, model.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	v := newReplayView(r, prepare(r), theme.New(false))
	v.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	mid, end := r.Timeline.Count/2, r.Timeline.Count-1
	v.seek(mid)
	right := keyMsg("right")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if v.frame >= end {
			v.seek(mid)
		}
		v.Update(right)
		_ = v.View()
	}
}

// colour measures with the escape sequences a real terminal gets, not the
// plain text the golden files pin.
func colour() func() {
	lipgloss.SetColorProfile(termenv.TrueColor)
	return func() { lipgloss.SetColorProfile(termenv.Ascii) }
}
