package slippi

import (
	"encoding/json"
	"strings"
	"testing"

	"rewind/model"
)

// TestMomentsAgreeWithSlippiJS checks the moments against slippi-js's
// stats for every complete two-player game: a stock moment where each of
// its stocks ends, taken by the player and with the move of the conversion
// that killed; one conversion moment per conversion; one combo moment per
// combo of two moves or more; everything in frame order. (Games whose
// frames do not start at -123, such as slo-mo, get no stats from slippi-js
// but do get moments.)
func TestMomentsAgreeWithSlippiJS(t *testing.T) {
	games, stocks, kills := 0, 0, 0
	for _, e := range loadExpectations(t) {
		var want *Stats
		if e.Cut > 0 || e.Error != "" || json.Unmarshal(e.Stats, &want) != nil || want == nil || len(want.Overall) != 2 || !want.GameComplete || len(want.Stocks) == 0 {
			continue
		}
		if replayFile(t, e.File) == "" {
			continue
		}
		t.Run(strings.ReplaceAll(e.File, "/", "__"), func(t *testing.T) {
			r := load(t, e.File)
			d := momentsByKind(r.Analysis().Moments)
			playerOf := func(port int) int {
				for i, p := range r.Players {
					if p.Slot == "P"+string(rune('1'+port)) {
						return i
					}
				}
				return -1
			}
			stockAt := map[int64]model.Moment{}
			for _, m := range d[model.MomentStock] {
				stockAt[r.Timeline.Number(m.Frame)] = m
			}
			ended := 0
			for _, s := range want.Stocks {
				if s.EndFrame == nil {
					continue
				}
				ended++
				m, ok := stockAt[int64(*s.EndFrame)]
				if !ok || m.On != playerOf(s.PlayerIndex) {
					t.Errorf("P%d's stock ending at frame %d: no moment (%+v)", s.PlayerIndex+1, *s.EndFrame, m)
				}
			}
			if len(d[model.MomentStock]) != ended {
				t.Errorf("%d stock moments, slippi-js ends %d stocks", len(d[model.MomentStock]), ended)
			}
			combos := 0
			for _, c := range want.Combos {
				if len(c.Moves) >= 2 {
					combos++
				}
			}
			if len(d[model.MomentConversion]) != len(want.Conversions) || len(d[model.MomentCombo]) != combos {
				t.Errorf("%d conversion and %d combo moments, want %d and %d", len(d[model.MomentConversion]), len(d[model.MomentCombo]), len(want.Conversions), combos)
			}
			for _, c := range want.Conversions {
				if !c.DidKill {
					continue
				}
				m := stockAt[int64(*c.EndFrame)]
				last := c.Moves[len(c.Moves)-1]
				if m.By != playerOf(c.LastHitBy) || field(m, "moveId") != int64(*last.MoveID) {
					t.Errorf("stock at %d: taken by %d with move %v, slippi-js's killing conversion: P%d, move %d", *c.EndFrame, m.By, field(m, "moveId"), c.LastHitBy+1, *last.MoveID)
				}
				kills++
			}
			for i := 1; i < len(r.Analysis().Moments); i++ {
				if ms := r.Analysis().Moments; ms[i].Frame < ms[i-1].Frame {
					t.Fatalf("moment %d at frame %d follows one at %d", i, ms[i].Frame, ms[i-1].Frame)
				}
			}
			if len(d[model.MomentEnd]) != 1 {
				t.Errorf("%d end moments, want 1", len(d[model.MomentEnd]))
			}
			games++
			stocks += ended
		})
	}
	t.Logf("%d games: %d stock moments at slippi-js's stock ends, %d killing moves as its conversions have them", games, stocks, kills)
}

func momentsByKind(ms []model.Moment) map[model.MomentKind][]model.Moment {
	out := map[model.MomentKind][]model.Moment{}
	for _, m := range ms {
		out[m.Kind] = append(out[m.Kind], m)
	}
	return out
}

func field(m model.Moment, key string) any {
	for _, f := range m.Fields {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// TestMomentSummaries checks the words on slippi-js's own test game
// (test.slp: 5 stocks, the last ending at 3694; the first conversion has 4
// moves from a back air (15) to a down air (17)).
func TestMomentSummaries(t *testing.T) {
	r := load(t, "project-slippi__slippi-js/slp__test.slp")
	d := momentsByKind(r.Analysis().Moments)
	conv := d[model.MomentConversion][0]
	if s := conv.Summary; !strings.HasPrefix(s, "neutral win: 4 hits, ") || !strings.Contains(s, "% on Captain Falcon (back air, ") || !strings.Contains(s, "down air)") {
		t.Errorf("first conversion: %q", s)
	}
	if conv.By != 0 || conv.On != 1 || conv.End <= conv.Frame {
		t.Errorf("first conversion: player %d on %d, frames %d..%d", conv.By, conv.On, conv.Frame, conv.End)
	}
	last := d[model.MomentStock][len(d[model.MomentStock])-1]
	if r.Timeline.Number(last.Frame) != 3694 || last.On != 1 || last.By != 0 || !strings.HasPrefix(last.Summary, "lost the last stock to Falco's ") {
		t.Errorf("last stock: frame %d, P%d by %d: %q", r.Timeline.Number(last.Frame), last.On, last.By, last.Summary)
	}
	first := d[model.MomentStock][0]
	if !strings.HasSuffix(first.Summary, "(3 left)") || !strings.HasPrefix(first.Summary, "lost a stock to Falco's ") {
		t.Errorf("first stock: %q", first.Summary)
	}
	if e := d[model.MomentEnd]; len(e) != 1 || !strings.HasPrefix(e[0].Summary, "game ended: ") {
		t.Errorf("end: %+v", e)
	}
}

// TestAnalysisWithoutGame: files with no frames or cut inside the gecko
// list have an analysis without panicking; a header-only decode has none.
func TestAnalysisWithoutGame(t *testing.T) {
	for _, name := range []string{"tests__data__corrupt.slp", "slp__geckoCodes.slp"} {
		r := load(t, name)
		a := r.Analysis()
		if s, ok := a.Stats.Native.(*Stats); !ok || s.GameComplete {
			t.Errorf("%s: stats %+v", name, a.Stats.Native)
		}
		if len(a.Stats.Tables) == 0 || a.Stats.Tables[0].Key != "overall" {
			t.Errorf("%s: tables %+v", name, a.Stats.Tables)
		}
	}
}
