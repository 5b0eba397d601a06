// Package theme holds every colour and style rewind's terminal interface
// uses, so that the look is decided in one place.
//
// There are two palettes, one for dark terminals and one for light ones
// (Palette); Load picks one from what the user asked for (--theme,
// REWIND_THEME) or, on auto, from the terminal's background (detect.go).
// The dark palette uses the bright ANSI colours (0-15), which every dark
// terminal theme keeps legible; the light one uses fixed 256-colour
// values dark enough to read on white and on the light grey of tmux's
// "white", which the terminal's own light colours (yellow 3, cyan 6) are
// not. Both degrade to the 16 ANSI colours on terminals that have no more.
// When NO_COLOR is set the styles use only attributes (bold, faint,
// reverse, underline): the cursor and highlights stay visible without any
// colour.
package theme

import (
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Palette is the set of colours for one kind of terminal background.
type Palette int

const (
	Dark Palette = iota
	Light
)

func (p Palette) String() string {
	if p == Light {
		return "light"
	}
	return "dark"
}

// Theme is the set of styles the TUI draws with.
type Theme struct {
	NoColor bool
	Palette Palette

	Title        lipgloss.Style // a pane's title when it is not focused
	TitleFocused lipgloss.Style // the focused pane's title, and its name in the footer
	Rule         lipgloss.Style // the line after a title and the pane separators
	Text         lipgloss.Style
	Dim          lipgloss.Style // secondary text: labels, absent players, events of other frames
	Bold         lipgloss.Style
	Label        lipgloss.Style // field labels in the header and trees
	Cursor       lipgloss.Style // the selected row of a list
	Match        lipgloss.Style // characters a fuzzy filter matched
	Error        lipgloss.Style
	Warning      lipgloss.Style
	Info         lipgloss.Style
	Notable      lipgloss.Style // notable-event ticks
	Flag         lipgloss.Style // event flags such as "rollback"
	Status       lipgloss.Style // the status line's message (why a key did nothing)

	BarDone   lipgloss.Style // the timeline before the current frame
	BarRest   lipgloss.Style // the timeline after it
	BarHead   lipgloss.Style // the current frame on the timeline
	ChartMark lipgloss.Style // the current frame's column in the chart lane

	HexOffset  lipgloss.Style // the offset column of the inspector
	HexSpan    lipgloss.Style // bytes of the selected event
	HexCursor  lipgloss.Style // the byte under the inspector's cursor
	HexProblem lipgloss.Style // the byte a diagnostic points at
	HexSkipped lipgloss.Style // bytes a decoder skipped to resynchronise
	HexZero    lipgloss.Style // zero bytes, drawn faint so structure shows

	Playing lipgloss.Style
	Paused  lipgloss.Style

	HelpKey  lipgloss.Style
	HelpDesc lipgloss.Style
	HelpSep  lipgloss.Style
	Prompt   lipgloss.Style
	Hint     lipgloss.Style // a text field's placeholder

	players [Players]lipgloss.Style
	trails  [Players]lipgloss.Style
}

// colours is one palette's colour values, as lipgloss colour strings.
type colours struct {
	red, blue, yellow, green, magenta, cyan string
	grey                                    string // labels, offsets, rules
	faint                                   string // the unplayed timeline, separators in the footer
	strong                                  string // the playhead: the most contrast the background allows
	spanBg                                  string // background of the selected event's bytes
	titleFg                                 string // the focused title: text on
	titleBg                                 string // the focused title's background
	players                                 [8]string
	progress                                [2]string // a progress bar's filled and empty cells
}

var palettes = [...]colours{
	Dark: {
		red: "9", blue: "75", yellow: "11", green: "10", magenta: "13", cyan: "14",
		grey: "245", faint: "240", strong: "15", spanBg: "238", titleFg: "0", titleBg: "14",
		// Melee's port colours first (P1 red, P2 blue, P3 yellow, P4 green);
		// xterm's own bright blue (12) is too dark to read on black
		players:  [Players]string{"9", "75", "11", "10", "13", "14", "208", "141"},
		progress: [2]string{"14", "240"},
	},
	Light: {
		red: "160", blue: "25", yellow: "94", green: "28", magenta: "127", cyan: "30",
		grey: "240", faint: "244", strong: "0", spanBg: "153", titleFg: "15", titleBg: "30",
		players:  [Players]string{"160", "25", "94", "28", "127", "30", "166", "91"},
		progress: [2]string{"30", "250"},
	},
}

// Load returns the theme for a choice of "light", "dark" or "auto" (empty
// means the REWIND_THEME variable, and auto when that is empty too);
// auto asks the terminal (Detect). NO_COLOR, set to anything non-empty
// (https://no-color.org), drops the colours of either palette.
func Load(choice string) (*Theme, error) {
	noColor := os.Getenv("NO_COLOR") != ""
	from := "--theme"
	if choice == "" {
		choice, from = os.Getenv("REWIND_THEME"), "REWIND_THEME"
	}
	p, auto, err := ParseChoice(choice)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", from, err)
	}
	if auto && !noColor {
		p = Detect()
	}
	return For(p, noColor), nil
}

// ParseChoice reads "light", "dark" or "auto" (or empty, which is auto).
func ParseChoice(s string) (p Palette, auto bool, err error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Dark, true, nil
	case "dark":
		return Dark, false, nil
	case "light":
		return Light, false, nil
	}
	return Dark, false, fmt.Errorf("unknown theme %q: want light, dark or auto", s)
}

// FromEnv is Load("") with an unknown REWIND_THEME taken as auto.
func FromEnv() *Theme {
	t, err := Load("")
	if err != nil {
		return For(Detect(), os.Getenv("NO_COLOR") != "")
	}
	return t
}

// New is the dark palette (tests and callers that do not ask the terminal).
func New(noColor bool) *Theme { return For(Dark, noColor) }

// For builds the theme of a palette; noColor drops every colour but keeps
// attributes.
func For(pal Palette, noColor bool) *Theme {
	c := palettes[Dark]
	if pal == Light {
		c = palettes[Light]
	}
	s := lipgloss.NewStyle
	fg := func(st lipgloss.Style, col string) lipgloss.Style {
		if noColor {
			return st
		}
		return st.Foreground(lipgloss.Color(col))
	}
	bg := func(st lipgloss.Style, col string) lipgloss.Style {
		if noColor {
			return st
		}
		return st.Background(lipgloss.Color(col))
	}
	t := &Theme{NoColor: noColor, Palette: pal}
	t.Title = fg(s().Bold(true), c.grey)
	// the focused title is a block of colour, so the focus reads at a glance
	t.TitleFocused = bg(fg(s().Bold(true), c.titleFg), c.titleBg)
	if noColor {
		t.Title = s()
		t.TitleFocused = s().Bold(true).Reverse(true)
	}
	t.Rule = fg(s(), c.faint)
	t.Text = s()
	t.Dim = fg(s().Faint(true), c.grey)
	if pal == Light && !noColor {
		// faint lightens a colour further: on white the grey alone is enough
		t.Dim = fg(s(), c.grey)
	}
	t.Bold = s().Bold(true)
	t.Label = fg(s(), c.grey)
	t.Cursor = s().Reverse(true)
	t.Match = fg(s().Bold(true).Underline(true), c.magenta)
	t.Error = fg(s().Bold(true), c.red)
	t.Warning = fg(s(), c.yellow)
	t.Info = fg(s(), c.cyan)
	t.Notable = fg(s().Bold(true), c.yellow)
	t.Flag = fg(s(), c.magenta)
	t.Status = fg(s().Bold(true), c.yellow)
	t.BarDone = fg(s(), c.cyan)
	t.BarRest = fg(s(), c.faint)
	t.BarHead = fg(s().Bold(true), c.strong)
	t.ChartMark = s().Reverse(true)
	t.HexOffset = fg(s(), c.grey)
	t.HexSpan = bg(fg(s().Bold(true), c.strong), c.spanBg)
	if noColor {
		t.HexSpan = s().Bold(true).Underline(true)
	}
	t.HexCursor = s().Reverse(true)
	t.HexProblem = fg(s().Bold(true).Underline(true), c.red)
	t.HexSkipped = fg(s().Strikethrough(true), c.yellow)
	t.HexZero = fg(s().Faint(true), c.grey)
	if pal == Light && !noColor {
		t.HexZero = fg(s(), c.faint)
	}
	t.Playing = fg(s().Bold(true), c.green)
	t.Paused = fg(s(), c.yellow)
	t.HelpKey = fg(s().Bold(true), c.cyan)
	t.HelpDesc = fg(s(), c.grey)
	t.HelpSep = fg(s(), c.faint)
	t.Prompt = fg(s().Bold(true), c.cyan)
	t.Hint = fg(s().Faint(true), c.grey)
	for i, col := range c.players {
		t.players[i] = fg(s().Bold(true), col)
		t.trails[i] = fg(s().Faint(true), col)
		if pal == Light && !noColor {
			t.trails[i] = fg(s(), col)
		}
	}
	return t
}

// Players is how many players get a colour of their own; the rest share
// the last one.
const Players = 8

// Player is the style of player index p (0 = P1): Melee's port colours for
// the first four, four more after them, then the last one shared; p < 0
// (no player) gets plain text.
func (t *Theme) Player(p int) lipgloss.Style { return ofPlayer(t.players, p, t.Text) }

// PlayerTrail is the quieter style of a player's recent positions in the
// stage view; p < 0 gets Dim.
func (t *Theme) PlayerTrail(p int) lipgloss.Style { return ofPlayer(t.trails, p, t.Dim) }

// ofPlayer picks player p's style, the last one for players past it, none
// for p < 0.
func ofPlayer(styles [Players]lipgloss.Style, p int, none lipgloss.Style) lipgloss.Style {
	if p < 0 {
		return none
	}
	return styles[min(p, len(styles)-1)]
}

// Severity picks the style for a diagnostic severity (0 info, 1 warning, 2 error).
func (t *Theme) Severity(sev int) lipgloss.Style {
	switch {
	case sev >= 2:
		return t.Error
	case sev == 1:
		return t.Warning
	default:
		return t.Info
	}
}

// ProgressColors are the colours of a progress bar's filled and empty
// cells as colour strings (bubbles/progress takes those, not styles): the
// palette's, empty under NO_COLOR.
func (t *Theme) ProgressColors() (full, empty string) {
	if t.NoColor {
		return "", ""
	}
	c := palettes[t.Palette]
	return c.progress[0], c.progress[1]
}
