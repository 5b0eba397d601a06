package slippi

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// sjsWinners is slippi-js 9.1.2's getWinners() for the corpus files whose
// settings it reads (players as slots; "" when it names none), recorded
// with /work/tools/slippi-cmp/ref.cjs.
var sjsWinners = map[string]string{
	"PMcca__go-slippi/replays__netplay-online.slp":                            "",
	"PMcca__go-slippi/replays__zelda-shiek.slp":                               "",
	"hohav__peppi/benches__data__short_game_tbh10.slp":                        "P4",
	"hohav__peppi/tests__data__buttons_abxy.slp":                              "",
	"hohav__peppi/tests__data__corrupt.slp":                                   "",
	"hohav__peppi/tests__data__game.slp":                                      "",
	"hohav__peppi/tests__data__ics.slp":                                       "",
	"hohav__peppi/tests__data__items.slp":                                     "",
	"hohav__peppi/tests__data__netplay.slp":                                   "P2",
	"hohav__peppi/tests__data__transform.slp":                                 "",
	"hohav__peppi/tests__data__unknown_event.slp":                             "",
	"hohav__peppi/tests__data__v0.1.slp":                                      "",
	"hohav__peppi/tests__data__v2.0.slp":                                      "",
	"hohav__peppi/tests__data__v3.12.slp":                                     "P1",
	"hohav__peppi/tests__data__v3.13.slp":                                     "P3",
	"hohav__peppi/tests__data__v3.16.slp":                                     "P2",
	"hohav__peppi/tests__data__v3.18.slp":                                     "P2",
	"hohav__py-slippi/test__replays__netplay_name.slp":                        "",
	"hohav__py-slippi/test__replays__streaming_game.slp":                      "",
	"project-slippi__slippi-js/slp__FodPlatforms.slp":                         "P1",
	"project-slippi__slippi-js/slp__Whispy.slp":                               "P1",
	"project-slippi__slippi-js/slp__actionEdgeCases.slp":                      "P3",
	"project-slippi__slippi-js/slp__consistencyTest__NessVFox-Absorb.slp":     "P2",
	"project-slippi__slippi-js/slp__consistencyTest__PichuVSelf-All-22.slp":   "P2",
	"project-slippi__slippi-js/slp__controllerFixes.slp":                      "",
	"project-slippi__slippi-js/slp__doubles.slp":                              "",
	"project-slippi__slippi-js/slp__gameModeTest__Slo-Mo.slp":                 "",
	"project-slippi__slippi-js/slp__gameModeTest__Training.slp":               "",
	"project-slippi__slippi-js/slp__gameModeTest__Versus.slp":                 "",
	"project-slippi__slippi-js/slp__geckoCodes.slp":                           "",
	"project-slippi__slippi-js/slp__homeRun_positive.slp":                     "",
	"project-slippi__slippi-js/slp__incomplete.slp":                           "",
	"project-slippi__slippi-js/slp__itemExport.slp":                           "P1",
	"project-slippi__slippi-js/slp__lCancel.slp":                              "P2",
	"project-slippi__slippi-js/slp__nametags.slp":                             "",
	"project-slippi__slippi-js/slp__nametags2.slp":                            "",
	"project-slippi__slippi-js/slp__ntsc.slp":                                 "",
	"project-slippi__slippi-js/slp__pal.slp":                                  "",
	"project-slippi__slippi-js/slp__placementsTest__ffa_1p2p4p_winner_4p.slp": "P4",
	"project-slippi__slippi-js/slp__ranked_game1_tiebreak.slp":                "P1",
	"project-slippi__slippi-js/slp__realtimeTest.slp":                         "P3",
	"project-slippi__slippi-js/slp__rollbackFrameTest.slp":                    "",
	"project-slippi__slippi-js/slp__sheik_vs_ics_yoshis.slp":                  "",
	"project-slippi__slippi-js/slp__test.slp":                                 "",
	"project-slippi__slippi-js/slp__unranked_game1.slp":                       "P2",
	"project-slippi__slippi-js/slp__v2__test.slp":                             "P4",
}

// TestOutcomesAgreeWithGetWinners: where getWinners names winners, they
// are the players whose outcome is a win; where it names none, no one won
// unless the game says so otherwise (outcome.go), and an LRAS initiator
// quit.
func TestOutcomesAgreeWithGetWinners(t *testing.T) {
	named := 0
	for rel, want := range sjsWinners {
		if replayFile(t, rel) == "" {
			continue
		}
		r := load(t, rel)
		s := Summarize(r)
		var won []string
		for pl, p := range s.Players {
			if p.Outcome == model.OutcomeWin {
				won = append(won, r.Players[pl].Slot)
			}
		}
		sort.Strings(won)
		if want != "" {
			named++
			if got := strings.Join(won, ","); got != want {
				t.Errorf("%s: won %q, getWinners %q", rel, got, want)
			}
		}
		if strings.Contains(r.Result, "LRAS by ") {
			slot := r.Result[strings.Index(r.Result, "LRAS by ")+8:][:2]
			if pl := playerByPort(t, r, slot); s.Players[pl].Outcome != model.OutcomeQuit {
				t.Errorf("%s: the LRAS initiator %s: %q", rel, slot, s.Players[pl].Outcome)
			}
		}
	}
	// the corpus names 15 and more; the samples alone (a clone without
	// ../shared) a few
	least := 15
	if _, ok := corpus.Shared(t); !ok {
		t.Logf("../shared/corpus absent: only the samples' winners are compared")
		least = 3
	}
	if named < least {
		t.Errorf("only %d files with winners compared", named)
	}
}

// outcomeCase is a hand-built game and what slippi-js 9.1.2's getWinners
// says of the same bytes (written by TestWriteOutcomeCases, read by
// /work/tools/slippi-cmp/sjs.cjs), beside the outcomes rewind gives.
type outcomeCase struct {
	name    string
	teams   []int // team id per port; nil: no teams
	method  byte
	lras    int
	stocks  []int     // each port's stocks at the last frame (-1: not on stage)
	percent []float32 // and percent
	sjs     string    // getWinners' players, "" none
	want    string    // the outcomes, by port
}

var outcomeCases = []outcomeCase{
	{"TIME teams: equal stocks, the team with less percent", []int{0, 0, 1, 1}, 1, -1, []int{2, 1, 2, 1}, []float32{50, 60, 30, 40}, "P3,P4", "loss,loss,win,win"},
	{"TIME teams: a member off stage wins with the team", []int{0, 0, 1, 1}, 1, -1, []int{-1, 3, 1, 1}, []float32{0, 80, 10, 10}, "P2", "win,win,loss,loss"},
	{"TIME: tied for first, a draw", nil, 1, -1, []int{2, 2}, []float32{40, 40}, "P1,P2", "draw,draw"},
	{"TIME: most stocks", nil, 1, -1, []int{1, 2, 2}, []float32{0, 90, 10}, "P3", "loss,loss,win"},
	{"GAME! without placements: the one with stocks", nil, 2, -1, []int{0, 0, 2}, []float32{0, 0, 10}, "", "loss,loss,win"},
	{"GAME! teams without placements: the team with stocks", []int{1, 2, 1, 2}, 2, -1, []int{0, 0, 1, 0}, []float32{0, 0, 10, 0}, "", "win,loss,win,loss"},
	{"everyone out of stocks: a draw", nil, 2, -1, []int{0, 0}, []float32{0, 0}, "", "draw,draw"},
	{"No Contest: LRAS in a three-player game", nil, 7, 1, []int{2, 2, 2}, []float32{0, 0, 0}, "", "no-contest,quit,no-contest"},
	{"No Contest: LRAS in a 1v1", nil, 7, 0, []int{2, 2}, []float32{0, 0}, "P2", "quit,win"},
}

// outcomeBytes builds the case's game: version 3.0.0 (no placements), two
// frames, the last with the case's stocks and percents.
func outcomeBytes(c outcomeCase) []byte {
	s := newSlp(3, 0, 0)
	chars := make([]int, len(c.stocks))
	for i := range chars {
		chars[i] = 2 // Fox
	}
	s.start(chars...)
	if c.teams != nil {
		st := s.events[len(s.events)-1]
		st[0xD] = 1
		for port, tm := range c.teams {
			st[0x6E+0x24*port] = byte(tm)
		}
	}
	for f := int32(-123); f <= -122; f++ {
		s.frame(f)
		for port := range c.stocks {
			if f == -122 && c.stocks[port] < 0 {
				continue
			}
			s.add(s.pre(f, byte(port), false, 14, 0))
		}
		for port := range c.stocks {
			stocks, pct := byte(4), float32(0)
			if f == -122 {
				if c.stocks[port] < 0 {
					continue
				}
				stocks, pct = byte(c.stocks[port]), c.percent[port]
			}
			b := s.post(f, byte(port), false, 1, stocks, pct)
			b[8], b[9] = 0, 14 // WAIT: on stage
			s.add(b)
		}
		s.bookend(f)
	}
	s.end(c.method)
	if c.lras >= 0 {
		s.events[len(s.events)-1][2] = byte(c.lras)
	}
	return s.bytes()
}

func TestHandBuiltOutcomes(t *testing.T) {
	for _, c := range outcomeCases {
		r := decodeBytes(t, outcomeBytes(c))
		if r.Problems() > 0 {
			t.Errorf("%s: %v", c.name, r.Diagnostics)
		}
		var got []string
		for _, p := range Summarize(r).Players {
			got = append(got, string(p.Outcome))
		}
		if g := strings.Join(got, ","); g != c.want {
			t.Errorf("%s: outcomes %s, want %s (getWinners: %q)", c.name, g, c.want, c.sjs)
		}
	}
}

// TestWriteOutcomeCases writes the hand-built games as files, into
// REWIND_WRITE_OUTCOMES (for slippi-js) or a temporary folder, and reads
// each file back: it decodes clean, as the game it was built as.
func TestWriteOutcomeCases(t *testing.T) {
	dir := os.Getenv("REWIND_WRITE_OUTCOMES")
	if dir == "" {
		dir = t.TempDir()
	}
	for i, c := range outcomeCases {
		path := filepath.Join(dir, fmt.Sprintf("outcome%d.slp", i))
		if err := os.WriteFile(path, outcomeBytes(c), 0o644); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decode(data, model.DecodeOptions{})
		if err != nil || r.Problems() > 0 {
			t.Errorf("%s (%s): %v %v", path, c.name, err, r.Diagnostics)
			continue
		}
		if len(r.Players) == 0 || r.Timeline.Count == 0 {
			t.Errorf("%s (%s): %d players, %d frames", path, c.name, len(r.Players), r.Timeline.Count)
		}
	}
}

// TestSummaryStatsAgreeWithSlippiJS: for every two-player game, the
// summary's stats are getStats()'s overall and action counts under their
// keys, and each ratio a group recomputes from the summed parts (the
// StatDefs' Num / Den) is slippi-js's ratio for the one game.
func TestSummaryStatsAgreeWithSlippiJS(t *testing.T) {
	values := 0
	completeTwoPlayer(t, func(t *testing.T, rel string, want *Stats) {
		r := load(t, rel)
		s := Summarize(r)
		for i := range want.Overall {
			o := &want.Overall[i]
			p := s.Players[playerOfPort(r, o.PlayerIndex)]
			var a *ActionCounts
			for j := range want.ActionCounts {
				if want.ActionCounts[j].PlayerIndex == o.PlayerIndex {
					a = &want.ActionCounts[j]
				}
			}
			exact := map[string]float64{
				"killCount": float64(o.KillCount), "totalDamage": float64(o.TotalDamage), "conversionCount": float64(o.ConversionCount),
				"successfulConversions.count": float64(*o.SuccessfulConversions.Count),
				"inputCounts.total":           float64(*o.InputCounts.Total), "inputCounts.buttons": float64(*o.InputCounts.Buttons),
				"inputsPerMinute.total": float64(o.InputsPerMinute.Total),
				"neutralWinRatio.count": float64(*o.NeutralWinRatio.Count), "neutralWinRatio.total": float64(o.NeutralWinRatio.Total),
				"counterHitRatio.count": float64(*o.CounterHitRatio.Count), "counterHitRatio.total": float64(o.CounterHitRatio.Total),
				"beneficialTradeRatio.count": float64(*o.BeneficialTradeRatio.Count), "beneficialTradeRatio.total": float64(o.BeneficialTradeRatio.Total),
				"lCancelCount.success": float64(a.LCancelCount.Success), "lCancelCount.fail": float64(a.LCancelCount.Fail),
			}
			for k, v := range exact {
				values++
				if got := statOf(p, k); got != v {
					t.Errorf("P%d %s = %v, slippi-js %v", o.PlayerIndex+1, k, got, v)
				}
			}
			ratios := map[string]Ratio{"openingsPerKill": o.OpeningsPerKill, "damagePerOpening": o.DamagePerOpening,
				"successfulConversions": o.SuccessfulConversions, "neutralWinRatio": o.NeutralWinRatio,
				"counterHitRatio": o.CounterHitRatio, "beneficialTradeRatio": o.BeneficialTradeRatio,
				"inputsPerMinute": o.InputsPerMinute, "digitalInputsPerMinute": o.DigitalInputsPerMinute}
			for k, rt := range ratios {
				def, ok := Format.Stat(k)
				if !ok || def.Agg != model.AggRatio {
					t.Fatalf("no ratio %s", k)
				}
				values++
				num, den := statOf(p, def.Num), statOf(p, def.Den)
				switch {
				case rt.Ratio == nil:
					if den != 0 {
						t.Errorf("P%d %s: %g/%g; slippi-js has no ratio", o.PlayerIndex+1, k, num, den)
					}
				case math.Abs(num/den-float64(*rt.Ratio)) > 1e-12*math.Abs(float64(*rt.Ratio)):
					t.Errorf("P%d %s: %g/%g = %v, slippi-js %v", o.PlayerIndex+1, k, num, den, num/den, *rt.Ratio)
				}
			}
			// L-cancel rate and mean kill percent, from their parts
			if lc := a.LCancelCount; lc.Success+lc.Fail > 0 {
				eq(t, "lCancelCount.total", statOf(p, "lCancelCount.total"), float64(lc.Success+lc.Fail))
			}
		}
	})
	t.Logf("%d values compared", values)
}

// TestSummaryStocks: stocksTaken and stocksLost are the stock moments'
// kills and deaths, killPercentSum their percents, killMoves their moves;
// in a 1v1 a player's stocks taken are the opponent's stocks slippi-js
// ends with a conversion that killed, and each stock moment is an
// archive record.
func TestSummaryStocks(t *testing.T) {
	completeTwoPlayer(t, func(t *testing.T, rel string, want *Stats) {
		r := load(t, rel)
		s := Summarize(r)
		if r.Mode == sceneName(sceneHomeRun) {
			// a single-player mode: no stock stats, Sandbag is no opponent
			for _, p := range s.Players {
				if !math.IsNaN(statOf(p, "stocksTaken")) {
					t.Errorf("stock stats in a single-player mode: %+v", p.Stats)
				}
			}
			return
		}
		kills := map[int]float64{}
		for _, c := range want.Conversions {
			if c.DidKill {
				kills[playerOfPort(r, c.LastHitBy)]++
			}
		}
		records := 0
		for _, m := range s.Moments {
			if m.Kind == model.MomentStock {
				records++
			}
		}
		ms := momentsByKind(r.Analysis().Moments)[model.MomentStock]
		eq(t, "stock records", records, len(ms))
		for pl := range r.Players {
			var taken, lost, pct float64
			moves := map[string]float64{}
			for _, m := range ms {
				if m.By == pl && m.Facts.Kill {
					taken++
					pct += m.Facts.EndPercent
					moves[m.Facts.Move]++
				}
				if m.On == pl && field(m, "how") != "taken by a teammate" {
					lost++
				}
			}
			p := s.Players[pl]
			eq(t, r.Players[pl].Slot+" stocksTaken", statOf(p, "stocksTaken"), taken)
			eq(t, r.Players[pl].Slot+" stocksTaken = slippi-js's killing conversions", statOf(p, "stocksTaken"), kills[pl])
			eq(t, r.Players[pl].Slot+" stocksLost", statOf(p, "stocksLost"), lost)
			if math.Abs(statOf(p, "killPercentSum")-pct) > 1e-9 {
				t.Errorf("%s killPercentSum %v, moments %v", r.Players[pl].Slot, statOf(p, "killPercentSum"), pct)
			}
			n := 0.0
			for _, st := range p.Stats {
				if st.Key == "killMoves" {
					n += st.Value
					name := st.Name
					if name == "other" {
						name = ""
					}
					if moves[name] != st.Value {
						t.Errorf("%s kill move %q: %v, moments %v", r.Players[pl].Slot, st.Name, st.Value, moves[name])
					}
				}
			}
			eq(t, r.Players[pl].Slot+" kill moves", n, taken)
		}
	})
}

// TestStatDefs: every stat a summary holds has a definition, every ratio's
// parts are summed stats, and the summaries of a 1v1 and a doubles game
// read as JSON (the index stores them).
func TestStatDefs(t *testing.T) {
	keys := map[string]model.StatDef{}
	for _, d := range Format.Stats {
		if _, dup := keys[d.Key]; dup {
			t.Errorf("%s defined twice", d.Key)
		}
		keys[d.Key] = d
	}
	for _, d := range Format.Stats {
		if d.Agg == model.AggRatio {
			for _, part := range []string{d.Num, d.Den} {
				if p, ok := keys[part]; !ok || p.Agg != model.AggSum {
					t.Errorf("%s: part %s is not a summed stat", d.Key, part)
				}
			}
		}
	}
	for _, rel := range []string{"project-slippi__slippi-js/slp__test.slp", "project-slippi__slippi-js/slp__doubles.slp"} {
		s := Summarize(load(t, rel))
		for _, p := range s.Players {
			for _, st := range p.Stats {
				d, ok := keys[st.Key]
				if !ok || d.Agg == model.AggRatio || (st.Name != "") != (d.Agg == model.AggTally) {
					t.Errorf("%s: stat %+v has no fitting definition (%+v)", rel, st, d)
				}
			}
		}
		if _, err := json.Marshal(s); err != nil {
			t.Error(err)
		}
	}
}

// TestSummaryFinite: a damaged percent (NaN) leaves the facts and stats
// numbers JSON holds.
func TestSummaryFinite(t *testing.T) {
	s := newSlp(3, 0, 0)
	s.start(2, 2)
	nan := float32(math.NaN())
	for f := int32(-123); f <= -120; f++ {
		s.frame(f)
		s.add(s.pre(f, 0, false, 14, 0)).add(s.pre(f, 1, false, 14, 0))
		stocks := byte(4)
		if f == -120 {
			stocks = 3
		}
		s.add(s.post(f, 0, false, 1, stocks, nan)).add(s.post(f, 1, false, 1, 4, 0))
		s.bookend(f)
	}
	s.end(2)
	r := decodeBytes(t, s.bytes())
	sum := Summarize(r)
	if _, err := json.Marshal(sum); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range sum.Moments {
		if m.Kind == model.MomentStock {
			found = true
			if math.IsNaN(m.Facts.EndPercent) {
				t.Errorf("stock record %+v", m)
			}
		}
	}
	if !found {
		t.Error("no stock record")
	}
}

// TestEndMethodThreeByMode: Game End method 3 from 2.0.0 on is a stage
// cleared in a single-player mode, and in a VS game the end slippi-js
// calls RESOLVED (its GameEndMethod enum: 3).
func TestEndMethodThreeByMode(t *testing.T) {
	for _, c := range []struct {
		stage uint16
		want  string
	}{{31, "Resolved"}, {stageHomeRun, "Stage Clear"}} {
		s := basic(newSlp(3, 0, 0), 3).end(3)
		binary.BigEndian.PutUint16(s.events[0][0x13:], c.stage)
		b := s.bytes()
		for _, opt := range []model.DecodeOptions{{}, {HeaderOnly: true}} {
			r, err := Decode(b, opt)
			if err != nil {
				t.Fatal(err)
			}
			eq(t, fmt.Sprintf("stage %d result (header-only %v)", c.stage, opt.HeaderOnly), r.Result, c.want)
			eq(t, "field name", get(t, r.Header, "gameEnd", "gameEndMethod").Name, c.want)
		}
	}
}
