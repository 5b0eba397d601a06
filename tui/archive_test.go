package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestArchiveLink: in an SC2 replay the inspector names the archive's
// parts in the file's bytes, and o goes from a decoded stream to the
// sector it was stored in and back.
func TestArchiveLink(t *testing.T) {
	r := openSample(t, "sc2/lotv-4.3.0-backwater-vs-ai.SC2Replay")
	v := newView(r, 160, 48)
	v.setFocus(paneInspector)
	v.stream, v.cur, v.hexTop = "replay.game.events", 0, -1
	g := r.RegionAt(v.stream, 0)
	if g < 0 {
		t.Fatal("no region holds the game events")
	}
	at := r.Regions[g].Span.Off
	if s := ansi.Strip(v.View()); !strings.Contains(s, fmt.Sprintf("inspector replay.game.events 3,189 bytes · sector 0 of 1 at %#x (o)", at)) {
		t.Errorf("the title does not name the sector:\n%s", s)
	}
	press(v, "o")
	if v.stream != "" || v.cur != at {
		t.Fatalf("o went to %q+%#x, want the file at %#x", v.stream, v.cur, at)
	}
	s := ansi.Strip(v.View())
	for _, want := range []string{fmt.Sprintf("@%#x in replay.game.events sector 0 of 1 (bzip2 ", at), "field Compression = bzip2 (16)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the file's bytes lack %q:\n%s", want, s)
		}
	}
	press(v, "o")
	if v.stream != "replay.game.events" || v.cur != 0 {
		t.Errorf("o back went to %q+%#x", v.stream, v.cur)
	}
	// the archive header's fields are named in its bytes
	v.stream, v.cur, v.hexTop = "", 0x40c, -1
	if s := ansi.Strip(v.View()); !strings.Contains(s, "in archive header") || !strings.Contains(s, "field Format version") {
		t.Errorf("archive header not named:\n%s", s)
	}
	// a format without a container says what o is for
	w := newView(openSample(t, "slippi/tests__data__v3.18.slp"), 160, 48)
	w.setFocus(paneInspector)
	press(w, "o")
	if !strings.Contains(w.status, "this format has no container") {
		t.Errorf("status %q", w.status)
	}
}
