package tui

import (
	"os"
	"rewind/actions/actionstest"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"rewind/theme"
)

func TestMain(m *testing.M) {
	if actionstest.Run() {
		return // this binary plays Dolphin for the watch tests
	}
	// golden files hold plain text: pin the profile so no colour leaks in
	// (TestGoldenReal pins 256 colours for its own)
	lipgloss.SetColorProfile(termenv.Ascii)
	// dates print the same in every zone
	time.Local = time.UTC
	os.Exit(m.Run())
}

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "shift+left":
		return tea.KeyMsg{Type: tea.KeyShiftLeft}
	case "shift+right":
		return tea.KeyMsg{Type: tea.KeyShiftRight}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// press sends keys to a view and runs the commands they return (search
// results come back through one), except ticks and quits.
func press(v *replayView, keys ...string) tea.Cmd {
	var last tea.Cmd
	for _, k := range keys {
		last = v.Update(keyMsg(k))
		if last != nil && (k == "enter") {
			if msg := last(); msg != nil {
				if _, ok := msg.(searchDoneMsg); ok {
					v.Update(msg)
				}
			}
		}
	}
	return last
}

func typeText(v *replayView, s string) {
	for _, r := range s {
		v.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func newTestView(t testing.TB, frames, w, h int) *replayView {
	r := synth(frames)
	v := newReplayView(r, prepare(r), theme.New(false))
	v.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return v
}

// checkScreen asserts the view fills the screen exactly: h lines of w cells.
func checkScreen(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Fatalf("%dx%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Fatalf("%dx%d: line %d is %d cells: %q", w, h, i, n, l)
		}
	}
}

func TestGoldenReplay(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		for _, c := range []struct {
			name string
			keys []string
		}{
			{"start", nil},
			{"problem", []string{"e"}},
			{"stage", []string{"L", "L", "v"}},
			{"expanded", []string{"l", "l", "enter"}},
			{"field", []string{"l", "l", "enter", "down", "down"}},
		} {
			name := c.name + "_" + itoa(sz[0]) + "x" + itoa(sz[1])
			t.Run(name, func(t *testing.T) {
				a := newReplayApp(synth(3000), theme.New(false))
				tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(sz[0], sz[1]))
				for _, k := range c.keys {
					tm.Send(keyMsg(k))
				}
				if err := tm.Quit(); err != nil {
					t.Fatal(err)
				}
				out := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
				checkScreen(t, out, sz[0], sz[1])
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

func itoa(n int) string { return thousands(int64(n)) }
