package tui

import (
	"os"
	"strconv"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"rewind/theme"
)

// TestDemo runs the replay view on a synthetic replay with a game analysis
// in the terminal, for looking at it by hand (in tmux), in the terminal's
// colours and the palette REWIND_THEME or the terminal asks for:
// REWIND_TUI_DEMO=frames go test -run TestDemo.
func TestDemo(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("REWIND_TUI_DEMO"))
	if n <= 0 {
		t.Skip("set REWIND_TUI_DEMO=<frames> to run the view on a synthetic replay")
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no terminal")
	}
	th, err := theme.Load("")
	if err != nil {
		t.Fatal(err)
	}
	// TestMain pins plain text for the goldens: colour again for a person
	lipgloss.SetColorProfile(termenv.NewOutput(tty).EnvColorProfile())
	defer lipgloss.SetColorProfile(termenv.Ascii)
	a := newReplayApp(synthGame(n), th)
	p := tea.NewProgram(a, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithInput(tty), tea.WithOutput(tty))
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
}
