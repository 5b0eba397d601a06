package tui

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"rewind/theme"
)

// TestDemo runs the replay view on a synthetic replay with a game analysis
// as a Bubble Tea program. Without a terminal it reads a few keys from a
// string and quits; for looking at it by hand (in tmux), in the terminal's
// colours and the palette REWIND_THEME or the terminal asks for:
// REWIND_TUI_DEMO=frames go test -run TestDemo.
func TestDemo(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("REWIND_TUI_DEMO"))
	if n <= 0 {
		// a hang guard, not a speed requirement
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		a := newReplayApp(synthGame(3000), theme.New(false))
		start := a.rv.frame
		p := tea.NewProgram(a, tea.WithInput(iotest.OneByteReader(strings.NewReader("lllvq"))), tea.WithOutput(io.Discard),
			tea.WithoutSignalHandler(), tea.WithContext(ctx))
		if _, err := p.Run(); err != nil {
			t.Fatalf("the demo did not quit on q: %v", err)
		}
		if f := a.rv.frame; f != start+3 {
			t.Errorf("frame %d after three steps from %d", f, start)
		}
		return
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("REWIND_TUI_DEMO needs a terminal: %v", err)
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
