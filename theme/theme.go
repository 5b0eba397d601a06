// Package theme holds every colour and style rewind's terminal interface
// uses, so that the look is decided in one place.
//
// Colours are lipgloss.AdaptiveColor values built from the 16 basic ANSI
// colours (plus a few greys that degrade to them), so the interface reads
// the same on dark and light terminals and on terminals with 16 colours.
// When NO_COLOR is set, New(true) gives styles that use only attributes
// (bold, faint, reverse, underline): the cursor and highlights stay
// visible without any colour.
package theme

import (
	"os"

	"github.com/charmbracelet/lipgloss"
)

// Theme is the set of styles the TUI draws with.
type Theme struct {
	NoColor bool

	Title        lipgloss.Style // a pane's title when it is not focused
	TitleFocused lipgloss.Style // the focused pane's title
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

	players [4]lipgloss.Style
	other   lipgloss.Style
}

// Adaptive colours: Light is used on light backgrounds, Dark on dark ones.
// Numbers 0-15 are the terminal's own ANSI palette.
var (
	red     = lipgloss.AdaptiveColor{Light: "1", Dark: "9"}
	blue    = lipgloss.AdaptiveColor{Light: "4", Dark: "12"}
	yellow  = lipgloss.AdaptiveColor{Light: "3", Dark: "11"}
	green   = lipgloss.AdaptiveColor{Light: "2", Dark: "10"}
	magenta = lipgloss.AdaptiveColor{Light: "5", Dark: "13"}
	cyan    = lipgloss.AdaptiveColor{Light: "6", Dark: "14"}
	grey    = lipgloss.AdaptiveColor{Light: "8", Dark: "8"}
	faint   = lipgloss.AdaptiveColor{Light: "7", Dark: "8"}
	strong  = lipgloss.AdaptiveColor{Light: "0", Dark: "15"}
	cursorB = lipgloss.AdaptiveColor{Light: "7", Dark: "8"}
)

// PlayerColors are Melee's port colours: P1 red, P2 blue, P3 yellow, P4 green.
var PlayerColors = [4]lipgloss.AdaptiveColor{red, blue, yellow, green}

// FromEnv returns the theme the environment asks for: without colour when
// NO_COLOR is set to anything non-empty (https://no-color.org).
func FromEnv() *Theme { return New(os.Getenv("NO_COLOR") != "") }

// New builds the theme; noColor drops every colour but keeps attributes.
func New(noColor bool) *Theme {
	s := lipgloss.NewStyle
	fg := func(st lipgloss.Style, c lipgloss.TerminalColor) lipgloss.Style {
		if noColor {
			return st
		}
		return st.Foreground(c)
	}
	bg := func(st lipgloss.Style, c lipgloss.TerminalColor) lipgloss.Style {
		if noColor {
			return st
		}
		return st.Background(c)
	}
	t := &Theme{NoColor: noColor}
	t.Title = fg(s().Bold(true), grey)
	t.TitleFocused = fg(s().Bold(true), cyan)
	if noColor {
		t.Title = s()
		t.TitleFocused = s().Bold(true).Underline(true)
	}
	t.Rule = fg(s(), grey)
	t.Text = s()
	t.Dim = fg(s().Faint(true), grey)
	t.Bold = s().Bold(true)
	t.Label = fg(s(), grey)
	t.Cursor = s().Reverse(true)
	t.Match = fg(s().Bold(true).Underline(true), magenta)
	t.Error = fg(s().Bold(true), red)
	t.Warning = fg(s(), yellow)
	t.Info = fg(s(), cyan)
	t.Notable = fg(s().Bold(true), yellow)
	t.Flag = fg(s(), magenta)
	t.BarDone = fg(s(), cyan)
	t.BarRest = fg(s(), faint)
	t.BarHead = fg(s().Bold(true), strong)
	t.ChartMark = s().Reverse(true)
	t.HexOffset = fg(s(), grey)
	t.HexSpan = bg(fg(s().Bold(true), strong), cursorB)
	if noColor {
		t.HexSpan = s().Bold(true).Underline(true)
	}
	t.HexCursor = s().Reverse(true)
	t.HexProblem = fg(s().Bold(true).Underline(true), red)
	t.HexSkipped = fg(s().Strikethrough(true), yellow)
	t.HexZero = fg(s().Faint(true), grey)
	t.Playing = fg(s().Bold(true), green)
	t.Paused = fg(s(), yellow)
	t.HelpKey = fg(s().Bold(true), cyan)
	t.HelpDesc = fg(s(), grey)
	t.HelpSep = fg(s(), faint)
	t.Prompt = fg(s().Bold(true), cyan)
	for i, c := range PlayerColors {
		t.players[i] = fg(s().Bold(true), c)
	}
	t.other = fg(s().Bold(true), magenta)
	return t
}

// Player is the style of player index p (0 = P1). Players past the fourth
// get one shared colour; p < 0 (no player) gets plain text.
func (t *Theme) Player(p int) lipgloss.Style {
	switch {
	case p < 0:
		return t.Text
	case p < len(t.players):
		return t.players[p]
	default:
		return t.other
	}
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
// same as BarDone and BarRest, empty under NO_COLOR.
func (t *Theme) ProgressColors() (full, empty string) {
	if t.NoColor {
		return "", ""
	}
	pick := func(c lipgloss.AdaptiveColor) string {
		if lipgloss.HasDarkBackground() {
			return c.Dark
		}
		return c.Light
	}
	return pick(cyan), pick(faint)
}
