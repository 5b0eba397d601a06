package theme

import (
	"fmt"
	"math"
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

// TestPlayerColours: P1 red, P2 blue, P3 yellow, P4 green (Melee's
// ports) in both palettes, eight distinct colours, and every player styled.
func TestPlayerColours(t *testing.T) {
	hues := []string{"red", "blue", "yellow", "green"}
	for _, pal := range []Palette{Dark, Light} {
		c := palettes[pal]
		for i, h := range hues {
			want := map[string]string{"red": c.red, "blue": c.blue, "yellow": c.yellow, "green": c.green}[h]
			if c.players[i] != want {
				t.Errorf("%s P%d is %s, want the palette's %s %s", pal, i+1, c.players[i], h, want)
			}
		}
		seen := map[string]bool{}
		for _, col := range c.players {
			if seen[col] {
				t.Errorf("%s: colour %s given to two players", pal, col)
			}
			seen[col] = true
		}
	}
	lipgloss.SetColorProfile(termenv.ANSI)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	th := New(false)
	for i := 0; i < 10; i++ {
		if th.Player(i).Render("x") == "x" || th.PlayerTrail(i).Render("x") == "x" {
			t.Errorf("player %d has no style", i)
		}
	}
	if th.Player(-1).Render("x") != "x" {
		t.Error("no player should be plain")
	}
}

// TestContrast: every colour drawn as text is legible on its palette's
// background: WCAG contrast 3:1 at least (the level for large text and
// interface parts) against black for the dark palette and against white
// and xterm's light grey (#e5e5e5, what tmux's "white" pane shows) for the
// light one. The unplayed timeline and rules are meant to be quiet: 2.3:1.
func TestContrast(t *testing.T) {
	check := func(pal Palette, name, col string, min float64, bgs ...string) {
		for _, bg := range bgs {
			if r := contrast(col, bg); r < min {
				t.Errorf("%s %s (%s) on %s: contrast %.2f, want %.1f", pal, name, col, bg, r, min)
			}
		}
	}
	for _, pal := range []Palette{Dark, Light} {
		c := palettes[pal]
		bgs := []string{"#000000"}
		if pal == Light {
			bgs = []string{"#ffffff", "#e5e5e5"}
		}
		for name, col := range map[string]string{"red": c.red, "blue": c.blue, "yellow": c.yellow, "green": c.green,
			"magenta": c.magenta, "cyan": c.cyan, "grey": c.grey, "strong": c.strong} {
			check(pal, name, col, 3, bgs...)
		}
		for i, col := range c.players {
			check(pal, fmt.Sprintf("P%d", i+1), col, 3, bgs...)
		}
		check(pal, "faint", c.faint, 2.3, bgs...)
		// the focused title and the selected bytes: text on their own background
		check(pal, "focused title", c.titleFg, 3, c.titleBg)
		check(pal, "selected bytes", c.strong, 3, c.spanBg)
	}
}

// contrast is the WCAG contrast ratio of two colours (ANSI numbers or #rgb).
func contrast(a, b string) float64 {
	lum := func(s string) float64 {
		var col termenv.Color = termenv.RGBColor(s)
		if !strings.HasPrefix(s, "#") {
			col = termenv.ANSI256.Color(s)
		}
		c := termenv.ConvertToRGB(col)
		f := func(v float64) float64 {
			if v <= 0.03928 {
				return v / 12.92
			}
			return math.Pow((v+0.055)/1.055, 2.4)
		}
		return 0.2126*f(c.R) + 0.7152*f(c.G) + 0.0722*f(c.B)
	}
	x, y := lum(a), lum(b)
	if x < y {
		x, y = y, x
	}
	return (x + 0.05) / (y + 0.05)
}

// TestChoice: --theme and REWIND_THEME take light, dark and auto; anything
// else is refused with a sentence that names the variable.
func TestChoice(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for _, c := range []struct {
		flag, env string
		want      Palette
		err       string
	}{
		{"light", "", Light, ""},
		{"dark", "light", Dark, ""},
		{"", "light", Light, ""},
		{"", "DARK", Dark, ""},
		{"", "purple", Dark, `REWIND_THEME: unknown theme "purple": want light, dark or auto`},
		{"sepia", "", Dark, `--theme: unknown theme "sepia": want light, dark or auto`},
	} {
		t.Setenv("REWIND_THEME", c.env)
		th, err := Load(c.flag)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q/%q: error %v, want %s", c.flag, c.env, err, c.err)
			}
			continue
		}
		if err != nil || th.Palette != c.want {
			t.Errorf("%q/%q: %v %v, want %v", c.flag, c.env, th, err, c.want)
		}
	}
}

func TestColorFGBG(t *testing.T) {
	for _, c := range []struct {
		s    string
		want Palette
		ok   bool
	}{
		{"15;0", Dark, true}, {"0;15", Light, true}, {"0;default;15", Light, true},
		{"0;7", Light, true}, {"7;8", Dark, true}, {"", Dark, false}, {"15;x", Dark, false}, {"0;200", Dark, false},
	} {
		p, ok := colorFGBG(c.s)
		if p != c.want || ok != c.ok {
			t.Errorf("%q: %v %v, want %v %v", c.s, p, ok, c.want, c.ok)
		}
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
