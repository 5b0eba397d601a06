package theme

import (
	"os"
	"strconv"
	"strings"

	"github.com/muesli/termenv"
)

// Detect finds the palette for the terminal's background: the terminal's
// own answer to an OSC 11 query (tmux included: it answers with the pane's
// background when one is set), else COLORFGBG, else dark. Call it before
// the program reads the keyboard: the answer arrives on the same input.
func Detect() Palette {
	if p, ok := askTerminal(); ok {
		return p
	}
	if p, ok := colorFGBG(os.Getenv("COLORFGBG")); ok {
		return p
	}
	return Dark
}

// askTerminal sends the query on /dev/tty. termenv does the asking (raw
// mode, a cursor-position query after it so a terminal that ignores OSC 11
// still answers, a bounded wait) but refuses inside tmux and screen, which
// may be attached to several terminals. tmux 3.3 answers itself with the
// pane's colours, so inside tmux the query goes out under a TERM termenv
// accepts.
func askTerminal() (Palette, bool) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return Dark, false
	}
	// opening /dev/tty succeeds only in a process with a controlling terminal
	defer tty.Close()
	env := tmuxEnv{inTmux: os.Getenv("TMUX") != ""}
	// the fallbacks are ours (COLORFGBG, then dark): hide COLORFGBG from
	// termenv so that "no answer" is told apart from an answer
	out := termenv.NewOutput(tty, termenv.WithEnvironment(env), termenv.WithTTY(true))
	s, ok := out.BackgroundColor().(termenv.RGBColor)
	if !ok {
		return Dark, false
	}
	_, _, l := termenv.ConvertToRGB(s).Hsl()
	if l < 0.5 {
		return Dark, true
	}
	return Light, true
}

// tmuxEnv is the environment termenv sees: TERM made xterm-like inside
// tmux, COLORFGBG hidden.
type tmuxEnv struct{ inTmux bool }

func (e tmuxEnv) Environ() []string { return os.Environ() }

func (e tmuxEnv) Getenv(k string) string {
	switch k {
	case "TERM":
		t := os.Getenv("TERM")
		if e.inTmux && (strings.HasPrefix(t, "tmux") || strings.HasPrefix(t, "screen")) {
			return "xterm-256color"
		}
		return t
	case "COLORFGBG":
		return ""
	}
	return os.Getenv(k)
}

// colorFGBG reads rxvt's COLORFGBG ("15;0", "0;default;15"): the last
// field is the background's ANSI colour; 7 and 9-15 are light ones.
func colorFGBG(s string) (Palette, bool) {
	parts := strings.Split(s, ";")
	if len(parts) < 2 {
		return Dark, false
	}
	n, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil || n < 0 || n > 15 {
		return Dark, false
	}
	if n == 7 || n >= 9 {
		return Light, true
	}
	return Dark, true
}
