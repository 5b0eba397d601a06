package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// lineInput is a one-line text field for `/` and `g`. (bubbles/textinput
// would pull in a clipboard module that go.mod does not carry; this needs
// only editing keys.)
type lineInput struct {
	Prompt  string
	value   []rune
	pos     int
	focused bool
	prompt  paint
	cursor  paint
}

func (t *lineInput) SetValue(s string) {
	t.value = []rune(s)
	t.pos = len(t.value)
}

func (t *lineInput) Value() string { return string(t.value) }
func (t *lineInput) Focus()        { t.focused = true }
func (t *lineInput) Blur()         { t.focused = false }

// Update edits the text; it reports whether the key was an edit.
func (t *lineInput) Update(k tea.KeyMsg) bool {
	switch k.Type {
	case tea.KeyRunes, tea.KeySpace:
		if len(t.value) >= 200 {
			return true
		}
		rs := k.Runes
		if k.Type == tea.KeySpace {
			rs = []rune{' '}
		}
		v := append([]rune{}, t.value[:t.pos]...)
		v = append(v, rs...)
		t.value = append(v, t.value[t.pos:]...)
		t.pos += len(rs)
	case tea.KeyBackspace:
		if t.pos > 0 {
			t.value = append(t.value[:t.pos-1], t.value[t.pos:]...)
			t.pos--
		}
	case tea.KeyDelete:
		if t.pos < len(t.value) {
			t.value = append(t.value[:t.pos], t.value[t.pos+1:]...)
		}
	case tea.KeyLeft:
		t.pos = max(t.pos-1, 0)
	case tea.KeyRight:
		t.pos = min(t.pos+1, len(t.value))
	case tea.KeyHome, tea.KeyCtrlA:
		t.pos = 0
	case tea.KeyEnd, tea.KeyCtrlE:
		t.pos = len(t.value)
	case tea.KeyCtrlU:
		t.value = t.value[t.pos:]
		t.pos = 0
	case tea.KeyCtrlK:
		t.value = t.value[:t.pos]
	default:
		return false
	}
	return true
}

// View draws the prompt and the text, the cursor as a reversed cell, keeping
// the cursor visible inside w cells.
func (t *lineInput) View(w int) string {
	before := clean(string(t.value[:t.pos]))
	at := " "
	after := ""
	if t.pos < len(t.value) {
		at = clean(string(t.value[t.pos]))
		after = clean(string(t.value[t.pos+1:]))
	}
	room := w - ansi.StringWidth(t.Prompt) - 1
	if room > 0 && ansi.StringWidth(before) > room {
		// show the end of a long text, where the cursor is
		rs := []rune(before)
		for len(rs) > 0 && ansi.StringWidth(string(rs)) > room-1 {
			rs = rs[1:]
		}
		before = "…" + string(rs)
	}
	var b strings.Builder
	b.WriteString(t.prompt.wrap(t.Prompt))
	b.WriteString(before)
	if t.focused {
		b.WriteString(t.cursor.wrap(at))
	} else {
		b.WriteString(at)
	}
	b.WriteString(after)
	return fit(b.String(), w)
}
