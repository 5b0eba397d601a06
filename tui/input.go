package tui

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/theme"
)

// lineInput is the one-line text field of `/` and `g`: bubbles/textinput
// with the theme's styles, a steady cursor (a blinking one would keep the
// program redrawing while a person thinks) and the width set on each draw.
type lineInput struct {
	m textinput.Model
}

// maxInput bounds what a person can type into a filter or a goto.
const maxInput = 200

func newLineInput(th *theme.Theme, prompt string) lineInput {
	m := textinput.New()
	m.Prompt = prompt
	m.PromptStyle = th.Prompt
	m.Cursor.Style = th.Cursor
	m.Cursor.SetMode(cursor.CursorStatic)
	m.CharLimit = maxInput
	m.PlaceholderStyle = th.Hint
	return lineInput{m: m}
}

func (t *lineInput) SetPrompt(p string) { t.m.Prompt = p }

// SetPlaceholder is the hint shown, dimmed, while the field is empty.
func (t *lineInput) SetPlaceholder(s string) { t.m.Placeholder = s }

func (t *lineInput) SetValue(s string) {
	t.m.SetValue(s)
	t.m.CursorEnd()
}

func (t *lineInput) Value() string { return t.m.Value() }
func (t *lineInput) Focus()        { t.m.Focus() }
func (t *lineInput) Blur()         { t.m.Blur() }

// Update edits the text with the key; the command is textinput's (a paste
// from the clipboard).
func (t *lineInput) Update(k tea.KeyMsg) tea.Cmd {
	var cmd tea.Cmd
	t.m, cmd = t.m.Update(k)
	return cmd
}

// View draws the prompt and the text in exactly w cells, the text
// scrolled so the cursor stays in view.
func (t *lineInput) View(w int) string {
	// textinput scrolls the text to its Width when it updates: keep that
	// in step with the screen, leaving a cell for the cursor at the end
	if tw := max(w-ansi.StringWidth(t.m.Prompt)-1, 1); tw != t.m.Width {
		t.m.Width = tw
		t.m.SetCursor(t.m.Position()) // recomputes the visible window
	}
	return fit(t.m.View(), w)
}
