package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"rewind/decoders"
	"rewind/decoders/bsor/bsortest"
	"rewind/library"
	"rewind/model"
	"rewind/theme"
)

// hostile sets the window title, clears the screen, writes the clipboard
// (OSC 52), starts a CSI as a C1 control and reverses the text after it.
const hostile = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b31m\u202eevil\xff"

// hostileBSOR is the sample easy-full-play.bsor with the player name, the
// song name and the mapper set to hostile.
func hostileBSOR(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "samples", "bsor", "easy-full-play.bsor"))
	if err != nil {
		t.Fatal(err)
	}
	return bsortest.WithText(data, hostile)
}

// noDataControls fails when a view holds an ESC, a BEL, a C1 control or
// an override: with the colour profile pinned to Ascii lipgloss writes no
// escape of its own, so any there came from the file.
func noDataControls(t *testing.T, what, out string, shown bool) {
	t.Helper()
	for i, r := range out {
		if r != '\n' && theme.Unsafe(r) {
			t.Errorf("%s: raw %U at %d: %q", what, r, i, out[max(0, i-30):min(len(out), i+30)])
			return
		}
	}
	if shown && !strings.Contains(out, `\x1b]0;pwned`) {
		t.Errorf("%s: the hostile text is not shown escaped (so this test shows nothing)", what)
	}
}

// TestViewsEscapeHostileText draws a replay whose names hold terminal
// sequences, under a file name that holds them too, in the browser and in
// every pane of the replay view.
func TestViewsEscapeHostileText(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	dir := t.TempDir()
	path := filepath.Join(dir, "e\x1b]0;pwned\x07.bsor")
	data := hostileBSOR(t)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	r, err := decoders.Decode(data, path, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r.Path = path
	p := prepare(r)
	for _, keys := range [][]string{
		nil,
		{"tab", "enter"},                   // an event's fields
		{"s"},                              // stats
		{"m"},                              // moments
		{"v"},                              // stage view
		{"/", "e", "v", "i", "l", "enter"}, // a search
		{"?"},
	} {
		v := newReplayView(r, p, theme.For(theme.Dark, false))
		v.setSize(160, 48)
		press(v, keys...)
		noDataControls(t, "replay "+strings.Join(keys, " "), v.View(), len(keys) == 0 || keys[0] != "?")
	}

	b := newBrowser(theme.New(false), dir)
	b.Update(tea.WindowSizeMsg{Width: 160, Height: 20})
	h := library.ReadHeader(library.Entry{Path: path, Kind: library.File})
	feed(b, true, h)
	noDataControls(t, "browser", b.View(), true)
	b.Update(keyMsg("/"))
	for _, k := range "pwned" {
		b.Update(keyMsg(string(k)))
	}
	b.refilter()
	noDataControls(t, "browser filtered", b.View(), true)
}
