package tui

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
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

// colour measures with the escape sequences a real terminal gets, not the
// plain text the golden files pin.
func colour() func() {
	lipgloss.SetColorProfile(termenv.TrueColor)
	return func() { lipgloss.SetColorProfile(termenv.Ascii) }
}
