package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/model"
	"rewind/theme"
)

func TestBriefText(t *testing.T) {
	for _, c := range []struct {
		f     model.Field
		start int
		want  string
	}{
		{model.Field{Key: "percent", Label: "Percent", Value: 10.0, Name: "10.0%"}, 0, "10.0%"},
		{model.Field{Key: "stocksRemaining", Label: "Stocks", Value: int64(3)}, 0, "●●●○"},
		{model.Field{Key: "stocksRemaining", Label: "Stocks", Value: int64(2)}, 3, "●●○"},
		{model.Field{Key: "stocks", Value: int64(5)}, 0, "●●●●●"},
		{model.Field{Key: "stocks", Label: "Stocks", Value: int64(99)}, 0, "stocks 99"},
		{model.Field{Key: "shieldSize", Label: "Shield", Value: 60.0, Name: "60.0"}, 0, "shield 60.0"},
		{model.Field{Key: "actionStateId", Label: "Action", Value: int64(14), Name: "WAIT"}, 0, "WAIT"},
		{model.Field{Key: "position", Label: "Position", Value: "(-28.2, 0.0)"}, 0, "(-28.2, 0.0)"},
		{model.Field{Key: "supply", Label: "supply", Value: "12/14"}, 0, "supply 12/14"},
		{model.Field{Key: "checkpointsPassed", Label: "Checkpoints passed", Value: int64(3)}, 0, "checkpoints 3"},
		{model.Field{Key: "processedButtons", Label: "Buttons", Value: int64(0)}, 0, "buttons 0"},
		{model.Field{Key: "ready", Label: "Ready", Value: true}, 0, "ready yes"},
		{model.Field{Key: "team", Value: int64(1)}, 0, "team 1"},
		{model.Field{Key: "direction", Label: "Direction", Value: int64(0), Name: "none"}, 0, "direction none"},
		{model.Field{Key: "wantedWeapon", Label: "Weapon", Value: int64(0), Name: "no change"}, 0, "weapon no change"},
		{model.Field{Key: "cpId", Label: "CP ID", Value: int64(2)}, 0, "CP ID 2"},
	} {
		if got := briefText(c.f, c.start); got != c.want {
			t.Errorf("%s: %q, want %q", c.f.Key, got, c.want)
		}
	}
	if n := startStocks([]model.Field{{Key: "port", Fields: []model.Field{{Key: "stockStartCount", Value: int64(3)}}}}); n != 3 {
		t.Errorf("start stocks %d", n)
	}
}

// TestPlayersPane: the synthetic replay's players line labels its numbers
// and draws stocks out of the starting stocks a player field gives.
func TestPlayersPane(t *testing.T) {
	r := synth(3000)
	r.Players[1].Fields = []model.Field{{Key: "stockStartCount", Label: "Stock Start Count", Value: int64(4)}}
	v := newReplayView(r, prepare(r), theme.New(false))
	v.setSize(160, 48)
	v.seek(1300) // P1 and P2 have lost one stock
	out := ansi.Strip(strings.Join(v.playersPane(100, 4), "\n"))
	if !strings.Contains(out, "●●●○") || !strings.Contains(out, "shield 60.0") {
		t.Errorf("players pane:\n%s", out)
	}
}

// TestNoTime: a timeline with neither Rate nor TimeOf still plays and steps
// by seconds, 60 frames standing for one, and says so.
func TestNoTime(t *testing.T) {
	r := synth(3000)
	r.Timeline.Rate = 0
	v := newReplayView(r, prepare(r), theme.New(false))
	v.setSize(160, 48)
	v.seek(100)
	press(v, "shift+right")
	if v.frame != 160 {
		t.Errorf("shift+right: frame %d, want 160", v.frame)
	}
	press(v, "pgup")
	if v.frame != 0 {
		t.Errorf("pgup: frame %d, want 0", v.frame)
	}
	press(v, "g", "1", "0", "s", "enter")
	if v.frame != 600 {
		t.Errorf("g 10s: frame %d, want 600", v.frame)
	}
	if out := ansi.Strip(v.View()); !strings.Contains(out, "no game time: 1 s = 60 frames") {
		t.Errorf("status does not say so:\n%s", out)
	}
	if press(v, "space") == nil || !v.playing {
		t.Fatal("does not play")
	}
	t0 := time.Unix(1000, 0)
	for i := 0; i <= 60; i++ {
		v.Update(tickMsg{id: v.tickID, t: t0.Add(time.Duration(i) * time.Second / 60)})
	}
	if v.frame < 658 || v.frame > 662 {
		t.Errorf("one second of play: frame %d, want 660", v.frame)
	}
	if r.Timeline.TimeOf != nil || r.Timeline.Rate != 0 {
		t.Error("the replay's own timeline was changed")
	}
}

// TestEventFieldBytes: down into an expanded event selects its fields one
// by one and the inspector shows each field's bytes; up returns to the
// event; enter on the event folds it.
func TestEventFieldBytes(t *testing.T) {
	r := synth(3000)
	detail := r.Detail
	r.Detail = func(ev *model.Event) []model.Field {
		fs := detail(ev)
		for i := range fs {
			fs[i].Span = model.Span{Off: ev.Off + int64(i), Len: 1}
		}
		fs[2].Span = model.Span{} // a field without bytes
		return fs
	}
	v := newReplayView(r, prepare(r), theme.New(false))
	v.setSize(160, 48)
	v.seek(500)
	ev := v.ev
	off := r.Events[ev].Off
	press(v, "enter", "down")
	if v.ev != ev || v.evField != 0 || !v.useField || v.cur != off {
		t.Fatalf("field 0: ev %d field %d cur %#x", v.ev, v.evField, v.cur)
	}
	press(v, "down")
	if v.evField != 1 || v.cur != off+1 || v.field.Len != 1 {
		t.Errorf("field 1: field %d cur %#x", v.evField, v.cur)
	}
	out := ansi.Strip(v.View())
	if !strings.Contains(out, fmt.Sprintf("#%d Percent: %#x, 1 bytes", ev+1, off+1)) {
		t.Errorf("field not described:\n%s", out)
	}
	press(v, "down")
	if v.evField != 2 || v.useField || !strings.Contains(v.status, "no bytes") {
		t.Errorf("field without bytes: field %d useField %v status %q", v.evField, v.useField, v.status)
	}
	press(v, "down")
	if v.ev != ev+1 || v.evField != -1 {
		t.Errorf("past the fields: ev %d field %d", v.ev, v.evField)
	}
	press(v, "up")
	if v.ev != ev || v.evField != 2 {
		t.Errorf("back up: ev %d field %d", v.ev, v.evField)
	}
	press(v, "up", "up", "up", "enter")
	if _, ok := v.expanded[ev]; ok || v.evField != -1 {
		t.Errorf("enter on the event did not fold it (field %d)", v.evField)
	}
	checkScreen(t, v.View(), 160, 48)
}

// TestScenePages: V turns through scenes that do not fit side by side, and
// labels of every kind of point are drawn.
func TestScenePages(t *testing.T) {
	r := synth(100)
	r.Scenes = func(int) []model.Scene {
		var out []model.Scene
		for i := 0; i < 5; i++ {
			out = append(out, model.Scene{
				Title:  fmt.Sprintf("view%d", i),
				Bounds: model.Rect{MinX: -10, MinY: -10, MaxX: 10, MaxY: 10},
				Lines:  []model.Line{{X1: -10, Y1: -10, X2: 10, Y2: -10}},
				Points: []model.Point{{X: 0, Y: 0, Player: -1, Kind: "checkpoint", Label: "CP1"}},
			})
		}
		return out
	}
	v := newReplayView(r, prepare(r), theme.New(false))
	v.setSize(160, 48)
	press(v, "v")
	out := ansi.Strip(v.View())
	if !strings.Contains(out, "1-3 of 5 (V more) view0 | view1 | view2") || !strings.Contains(out, "CP1") {
		t.Errorf("first page:\n%s", out)
	}
	press(v, "V")
	if out := ansi.Strip(v.View()); !strings.Contains(out, "4-5 of 5") && !strings.Contains(out, "view3 | view4") {
		t.Errorf("second page:\n%s", out)
	}
	press(v, "V")
	if out := ansi.Strip(v.View()); !strings.Contains(out, "view1 | view2") && !strings.Contains(out, "view0") {
		t.Errorf("third page:\n%s", out)
	}
	if !strings.Contains(out, "⠉") && !strings.Contains(out, "⣀") && !strings.Contains(out, "⠤") && !strings.Contains(out, "⠒") {
		t.Errorf("scene lines not drawn:\n%s", out)
	}
	// V with the stage view off turns it on
	v2 := newReplayView(r, prepare(r), theme.New(false))
	v2.setSize(80, 24)
	press(v2, "V")
	if !v2.stage {
		t.Error("V did not show the stage")
	}
	v2.Update(tea.WindowSizeMsg{Width: 1, Height: 1})
	_ = v2.View()
}
