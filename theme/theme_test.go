package theme

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestNoColor: with NO_COLOR the styles carry attributes but no colour
// sequences, and the cursor stays visible (reverse video).
func TestNoColor(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	t.Setenv("NO_COLOR", "1")
	th := FromEnv()
	if !th.NoColor {
		t.Fatal("NO_COLOR not honoured")
	}
	for name, st := range map[string]lipgloss.Style{
		"title": th.TitleFocused, "error": th.Error, "cursor": th.Cursor, "span": th.HexSpan,
		"p1": th.Player(0), "p4": th.Player(3), "match": th.Match,
	} {
		if out := st.Render("x"); hasColour(out) {
			t.Errorf("%s has a colour: %q", name, out)
		}
	}
	if out := th.Cursor.Render("x"); !strings.Contains(out, "7") {
		t.Errorf("cursor not reversed: %q", out)
	}
}

// TestPlayerColours: P1 red, P2 blue, P3 yellow, P4 green (Melee's ports),
// as ANSI colours so 16-colour terminals show them.
func TestPlayerColours(t *testing.T) {
	want := []string{"9", "12", "11", "10"}
	for i, c := range PlayerColors {
		if c.Dark != want[i] {
			t.Errorf("P%d dark %s, want %s", i+1, c.Dark, want[i])
		}
	}
	lipgloss.SetColorProfile(termenv.ANSI)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	th := New(false)
	for i := 0; i < 5; i++ {
		if th.Player(i).Render("x") == "x" {
			t.Errorf("player %d has no style", i)
		}
	}
	if th.Player(-1).Render("x") != "x" {
		t.Error("no player should be plain")
	}
}

// hasColour reports an SGR colour parameter in s.
func hasColour(s string) bool {
	for _, seq := range strings.Split(s, "\x1b[")[1:] {
		end := strings.IndexByte(seq, 'm')
		if end < 0 {
			continue
		}
		for _, p := range strings.Split(seq[:end], ";") {
			var n int
			for _, c := range p {
				n = n*10 + int(c-'0')
			}
			if (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 107) {
				return true
			}
		}
	}
	return false
}

func TestHasColour(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	if !hasColour(New(false).Error.Render("x")) {
		t.Error("the coloured theme shows no colour")
	}
}
