package tui

import (
	"os"
	"strconv"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"rewind/theme"
)

// TestDemo runs the replay view on a synthetic replay in the terminal, for
// looking at it by hand (in tmux): REWIND_TUI_DEMO=frames go test -run TestDemo.
func TestDemo(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("REWIND_TUI_DEMO"))
	if n <= 0 {
		t.Skip("set REWIND_TUI_DEMO=<frames> to run the view on a synthetic replay")
	}
	a := newReplayApp(synth(n), theme.FromEnv())
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no terminal")
	}
	p := tea.NewProgram(a, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithInput(tty), tea.WithOutput(tty))
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
}
