package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/decoders"
	"rewind/model"
	"rewind/theme"
)

// A replay opens header first: the header decode is on screen (players,
// the timeline's length) while the full decode runs, then the events
// arrive, then the moments; the status line says what is still coming.
func TestOpenHeaderFirst(t *testing.T) {
	a := newApp(Config{Paths: []string{"../testdata/samples/slippi/slp__unranked_game1.slp"}}, theme.New(false))
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	if a.mode != modeLoading {
		t.Fatalf("mode %v before the header", a.mode)
	}
	var header tea.Msg
	for _, c := range a.init().(tea.BatchMsg) {
		if m := c(); m != nil {
			if _, tick := m.(loadTickMsg); !tick {
				header = m
			}
		}
	}
	hm, ok := header.(headerMsg)
	if !ok {
		t.Fatalf("first message %T, want the header", header)
	}
	if len(hm.r.Events) != 0 || hm.r.Timeline.Count == 0 {
		t.Fatalf("the header decode has %d events and %d frames", len(hm.r.Events), hm.r.Timeline.Count)
	}
	_, decode := a.Update(hm)
	if a.mode != modeReplay || decode == nil {
		t.Fatalf("mode %v after the header", a.mode)
	}
	screen := ansi.Strip(a.View())
	for _, want := range []string{"decoding…", "P1 Falco", "P2 Falco", "Battlefield"} {
		if !strings.Contains(screen, want) {
			t.Errorf("%q not shown while decoding:\n%s", want, screen)
		}
	}
	// keys work before the events are in: a second forward
	a.Update(keyMsg("shift+right"))
	at := a.rv.frame
	if at == 0 {
		t.Error("shift+right did not move while decoding")
	}
	_, analyse := a.Update(decode())
	if a.rv.loading != "analysing" || len(a.rv.r.Events) == 0 || a.rv.frame != at {
		t.Fatalf("after the decode: loading %q, %d events, frame %d (was %d)", a.rv.loading, len(a.rv.r.Events), a.rv.frame, at)
	}
	if !strings.Contains(ansi.Strip(a.View()), "analysing…") {
		t.Errorf("no analysing word:\n%s", ansi.Strip(a.View()))
	}
	a.Update(analyse())
	screen = ansi.Strip(a.View())
	if a.rv.loading != "" || strings.Contains(screen, "analysing…") || len(a.rv.p.moments) == 0 || a.rv.list != listMoments {
		t.Errorf("after the analysis: loading %q, %d moments, list %v:\n%s", a.rv.loading, len(a.rv.p.moments), a.rv.list, screen)
	}
}

// c switches a replay with a game clock of its own (StarCraft II before
// Legacy of the Void) between that clock and real time, everywhere a
// time is shown.
func TestClockSwitch(t *testing.T) {
	r, err := decoders.Open("../testdata/samples/sc2/wol-1.0.1-metalopolis.SC2Replay", model.DecodeOptions{})
	if err != nil || r.Timeline.Clock == nil {
		t.Fatalf("%v, clock %v", err, r.Timeline.Clock != nil)
	}
	v := newView(r, 160, 48)
	f := r.Timeline.Count - 1
	v.seek(f)
	game, real := model.FormatDuration(r.Timeline.Clock(f)), model.FormatDuration(r.Timeline.Time(f))
	if v.timeText(f) != game || game == real {
		t.Fatalf("time %q, game clock %q, real %q", v.timeText(f), game, real)
	}
	press(v, "c")
	if v.timeText(f) != real || !strings.Contains(v.status, "real time") {
		t.Errorf("after c: time %q (want %q), status %q", v.timeText(f), real, v.status)
	}
	press(v, "c")
	if v.timeText(f) != game {
		t.Errorf("c again: %q", v.timeText(f))
	}
}
