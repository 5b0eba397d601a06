package tui

import (
	"fmt"
	"math"
	"sort"
	"time"

	"rewind/model"
	"rewind/theme"
)

// synth builds a replay in memory the way a decoder would, so the TUI's
// tests do not depend on any decoder: frames at 60/s starting at -123,
// two events per frame (one per player) with spans laid end to end in
// Data, a notable event every 600 frames, per-frame state, a stage scene,
// a percent chart and three diagnostics (one of them a skipped range).
func synth(frames int) *model.Replay {
	const evLen = 8
	r := &model.Replay{
		Format: model.Format("slippi"), FormatName: "Slippi", Version: "3.14.0",
		Path: "synthetic.slp", Title: "Battlefield", Mode: "online ranked",
		Start:    time.Date(2022, 12, 27, 1, 4, 0, 0, time.UTC),
		Duration: time.Duration(float64(frames) / 60 * float64(time.Second)),
		Result:   "GAME!",
		Header: []model.Field{
			{Key: "stageId", Label: "Stage ID", Value: int64(31), Name: "Battlefield", Span: model.Span{Off: 0x10, Len: 2}},
			{Key: "game", Label: "Game", Fields: []model.Field{
				{Key: "timer", Label: "Timer", Value: int64(480)},
				{Key: "isTeams", Label: "Is Teams", Value: false},
			}},
		},
		Players: []model.Player{
			{Slot: "P1", Name: "Alice", Code: "ABCD#123", Character: "Fox"},
			{Slot: "P2", Name: "Bob", Code: "EFGH#456", Character: "Marth"},
		},
		Timeline: model.Timeline{Count: frames, First: -123, Rate: 60, Unit: "frame"},
		Kinds:    []string{kPost: "post", kStock: "stock"},
	}
	r.Data = make([]byte, 0x40+frames*2*evLen)
	for i := range r.Data {
		r.Data[i] = byte(i * 7)
	}
	r.Events = make([]model.Event, 0, frames*2)
	for f := 0; f < frames; f++ {
		for p := 0; p < 2; p++ {
			off := int64(0x40 + (f*2+p)*evLen)
			ev := model.Event{Frame: int32(f), Player: int16(p), Kind: kPost, Off: off, Len: evLen, Ref: int32(f*2 + p)}
			if f%600 == 300 && p == 1 {
				ev.Flags |= model.Notable
				ev.Kind = kStock
			}
			r.Events = append(r.Events, ev)
		}
	}
	// summaries and fields are lazy, as a fast decoder would leave them
	r.Summarize = func(ev *model.Event) string {
		if ev.Kind == kStock {
			return fmt.Sprintf("%s lost a stock", r.Players[ev.Player].Character)
		}
		return fmt.Sprintf("percent %d action WAIT", percent(int(ev.Frame), int(ev.Player)))
	}
	r.Detail = func(ev *model.Event) []model.Field {
		return []model.Field{
			{Key: "frame", Label: "Frame", Value: r.Timeline.Number(int(ev.Frame)), Span: model.Span{Off: ev.Off, Len: 4}},
			{Key: "percent", Label: "Percent", Value: float64(percent(int(ev.Frame), int(ev.Player))), Span: model.Span{Off: ev.Off + 4, Len: 2}},
			{Key: "actionStateId", Label: "Action State ID", Value: uint64(14), Name: "WAIT", Span: model.Span{Off: ev.Off + 6, Len: 2}},
		}
	}
	r.State = func(f, p int) model.PlayerState {
		return model.PlayerState{Present: f >= 0, Brief: []model.Field{
			{Key: "percent", Value: int64(percent(f, p)), Name: fmt.Sprintf("%d%%", percent(f, p))},
			{Key: "stocks", Value: int64(4 - f/1200%4), Name: fmt.Sprintf("stocks %d", 4-f/1200%4)},
			{Key: "actionStateId", Value: uint64(14), Name: "WAIT"},
			{Key: "shieldSize", Label: "Shield", Value: 60.0, Name: "60.0"},
		}}
	}
	r.Scenes = func(f int) []model.Scene {
		x := math.Sin(float64(f)/60) * 60
		return []model.Scene{{
			Title:  "Battlefield",
			Bounds: model.Rect{MinX: -100, MinY: -40, MaxX: 100, MaxY: 80},
			Lines:  []model.Line{{X1: -68, Y1: 0, X2: 68, Y2: 0}, {X1: -57, Y1: 27, X2: -20, Y2: 27}, {X1: 20, Y1: 27, X2: 57, Y2: 27}},
			Points: []model.Point{
				{X: x, Y: 0, Player: 0, Kind: "player", Label: "P1"},
				{X: -x, Y: 27, Player: 1, Kind: "player", Label: "P2"},
			},
		}}
	}
	pc := model.Chart{Title: "percent"}
	for p := 0; p < 2; p++ {
		s := model.Series{Label: r.Players[p].Slot, Player: p, Values: make([]float64, frames)}
		for f := range s.Values {
			s.Values[f] = float64(percent(f, p))
		}
		pc.Series = append(pc.Series, s)
	}
	r.Charts = []model.Chart{pc}
	r.Diagnostics = []model.Diagnostic{
		{Severity: model.Error, Source: "slippi", Span: model.Span{Off: 0x40 + 100*2*evLen + 3}, Frame: min(100, frames-1),
			Subject: "event 0x55", Message: "not in Event Payloads", Expected: "0x37..0x3d", Found: "0x55"},
		{Severity: model.Warning, Source: "slippi", Span: model.Span{Off: 0x40 + 2000*2*evLen, Len: 24}, Frame: min(2000, frames-1),
			Subject: "event 0x55", Message: "skipped to the next known event", Skipped: true},
		{Severity: model.Info, Source: "slippi", Span: model.Span{Off: 0}, Frame: -1, Message: "no metadata"},
	}
	r.Finish()
	return r
}

func percent(f, p int) int { return (f/7 + p*37) % 150 }

// The synthetic replay's event kinds.
const (
	kPost model.KindID = iota
	kStock
)

func newTestTheme() *theme.Theme { return theme.New(false) }

// synthGame is synth with a game analysis, as a format's game code would
// give it: P1 loses a stock at every notable event's frame (300, 900, ...),
// P2 combos P1 for a second before each, a structure is built at 0:10
// (no player), and two tables: players side by side, and a build order
// whose rows point at frames.
func synthGame(frames int) *model.Replay {
	r := synth(frames)
	r.Analyze = func() *model.Analysis {
		a := &model.Analysis{}
		for f := 300; f < frames; f += 600 {
			a.Moments = append(a.Moments,
				model.Moment{Kind: model.MomentCombo, Frame: f - 60, End: f - 1, By: 1, On: 0, Summary: "Marth combos Fox: 4 hits, 38%"},
				model.Moment{Kind: model.MomentStock, Frame: f, End: f, By: 1, On: 0, Summary: "Fox lost a stock to Marth's forward smash",
					Span:   model.Span{Off: r.Events[2*f].Off, Len: 8},
					Fields: []model.Field{{Key: "move", Label: "Move", Value: int64(10), Name: "forward smash"}}})
			if f == 900 {
				a.Moments = append(a.Moments, model.Moment{Kind: model.MomentBuild, Frame: 723, End: 723, By: -1, On: -1, Summary: "Barracks"})
			}
		}
		// the build sits between the combo and the stock at 900: keep frame order
		sort.SliceStable(a.Moments, func(i, j int) bool { return a.Moments[i].Frame < a.Moments[j].Frame })
		cell := func(v int64) model.Field { return model.Field{Value: v} }
		a.Stats.Tables = []model.StatTable{
			{Key: "overall", Title: "Overall", Player: -1, Columns: []string{"P1 Fox", "P2 Marth"}, Rows: []model.StatRow{
				{Key: "killCount", Label: "Kills", Frame: -1, Cells: []model.Field{cell(0), cell(4)}},
				{Key: "totalDamage", Label: "Total damage", Frame: -1, Cells: []model.Field{{Value: 211.5}, {Value: 480.25}}},
			}},
			{Key: "buildOrder", Title: "Build order (P2 Marth)", Player: 1, Columns: []string{"time", "what"}, Rows: []model.StatRow{
				{Key: "b1", Label: "1", Frame: 723, Cells: []model.Field{{Value: "0:10.00"}, {Value: "Barracks"}}},
				{Key: "b2", Label: "2", Frame: 1500, Cells: []model.Field{{Value: "0:22.95"}, {Value: "Factory"}}},
			}},
		}
		return a
	}
	return r
}
