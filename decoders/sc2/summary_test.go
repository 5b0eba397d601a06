package sc2

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"rewind/decoders/internal/analysistest"
	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// TestOutcomeRules holds outcome to its rules (outcome.go) on hand-made
// players: replay.details' result decides; without one a player who left
// before the last loop quit; observers and the rest are unknown.
func TestOutcomeRules(t *testing.T) {
	for _, c := range []struct {
		name    string
		result  int64
		observe int64
		leftAt  int
		want    model.Outcome
	}{
		{"winner", 1, 0, -1, model.OutcomeWin},
		{"loser who stayed", 2, 0, -1, model.OutcomeLoss},
		{"loser who left (conceded)", 2, 0, 500, model.OutcomeLoss},
		{"tie", 3, 0, -1, model.OutcomeDraw},
		{"no result, left early", 0, 0, 500, model.OutcomeQuit},
		{"no result, left at the end", 0, 0, 1000, model.OutcomeUnknown},
		{"no result, stayed", 0, 0, -1, model.OutcomeUnknown},
		{"observer", 0, 1, 500, model.OutcomeUnknown},
	} {
		d := testDecoder(24944, "HotS")
		d.players[0].result, d.players[0].observe = c.result, c.observe
		a := &analysis{d: d, r: d.r, n: 2, last: 1000,
			acts: actionCounts{counted: true, leftAt: []int{c.leftAt, -1}, human: []bool{false, true}}}
		if got := a.outcome(0); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestSummarizeSamples: the archive summary says what the stats JSON
// says, every stat key has a StatDef, and the moment records are the
// builds, units, research and kills with what they made as Move, at times
// on the game's clock (loops / 22.4 in Legacy of the Void, loops / 16
// before).
func TestSummarizeSamples(t *testing.T) {
	defs := map[string]model.StatDef{}
	for _, d := range Format.Stats {
		defs[d.Key] = d
	}
	for _, d := range Format.Stats {
		if d.Agg == model.AggRatio && (defs[d.Num].Key == "" || defs[d.Den].Key == "") {
			t.Errorf("ratio %s of %q and %q", d.Key, d.Num, d.Den)
		}
	}
	for _, c := range []struct {
		file     string
		rate     float64
		outcomes []model.Outcome // sc2reader's results for the samples' sources (MANIFEST.tsv)
	}{
		{"lotv-5.0.15-winter-madness.SC2Replay", 22.4, []model.Outcome{model.OutcomeWin, model.OutcomeLoss}},
		{"hots-2.0.8-tracker.SC2Replay", 16, []model.Outcome{model.OutcomeLoss, model.OutcomeWin}},
		{"wol-1.1.3-kr-encrypted-listfile.SC2Replay", 16, []model.Outcome{model.OutcomeWin, model.OutcomeLoss}},
	} {
		r := decodeFile(t, filepath.Join(corpus.Samples(t, "sc2"), c.file))
		s := Format.Summarize(r)
		st := r.Analysis().Stats.Native.(*Stats)
		if len(s.Players) != len(r.Players) {
			t.Fatalf("%s: %d player summaries", c.file, len(s.Players))
		}
		if st.Clock.LoopsPerSecond != c.rate {
			t.Errorf("%s: clock %+v", c.file, st.Clock)
		}
		for p, ps := range s.Players {
			if c.outcomes != nil && ps.Outcome != c.outcomes[p] {
				t.Errorf("%s P%d: outcome %q, want %q", c.file, p+1, ps.Outcome, c.outcomes[p])
			}
			got := map[string]float64{}
			for _, v := range ps.Stats {
				if _, ok := defs[v.Key]; !ok {
					t.Errorf("%s: stat %q has no StatDef", c.file, v.Key)
				}
				got[v.Key] = v.Value
			}
			np := st.Players[p]
			for key, want := range map[string]*float64{"apm": np.APM, "gameApm": np.GameAPM, "firstGas": np.FirstGas,
				"firstExpansion": np.FirstExpansion} {
				if v, ok := got[key]; (want != nil) != ok || ok && v != *want {
					t.Errorf("%s P%d: %s %v, the JSON %v", c.file, p+1, key, v, fmtPtr(want))
				}
			}
			if got["gameLength"] != st.GameLength || st.GameLength != float64(st.Loops)/c.rate {
				t.Errorf("%s: game length %v, JSON %v, loops %d", c.file, got["gameLength"], st.GameLength, st.Loops)
			}
			if np.Workers != nil && np.Workers.At6Min != nil && got["workers6"] != float64(*np.Workers.At6Min) {
				t.Errorf("%s P%d: workers6 %v, JSON %d", c.file, p+1, got["workers6"], *np.Workers.At6Min)
			}
		}
		kinds := map[model.MomentKind]int{}
		for _, m := range s.Moments {
			kinds[m.Kind]++
			if !archiveKinds[m.Kind] || m.Facts.Move == "" || m.Facts.Hits < 1 || m.Kind == model.MomentKill != m.Facts.Kill {
				t.Errorf("%s: moment record %+v", c.file, m)
			}
			if math.Abs(m.Time-float64(m.Frame)/c.rate) > 1e-9 {
				t.Errorf("%s: moment at loop %d at %v s, want loops / %v", c.file, m.Frame, m.Time, c.rate)
			}
		}
		if kinds[model.MomentBuild] == 0 || kinds[model.MomentTrain] == 0 {
			t.Errorf("%s: moment records by kind %v", c.file, kinds)
		}
	}
}

// TestStartingState: before the first player-stats record (loop 1) the
// players pane shows the game's starting values: 50 minerals and 12
// workers in Legacy of the Void, 6 before.
func TestStartingState(t *testing.T) {
	for _, c := range []struct {
		file    string
		workers int64
	}{
		{"lotv-5.0.15-winter-madness.SC2Replay", 12},
		{"lotv-4.3.0-backwater-vs-ai.SC2Replay", 12},
		{"hots-2.0.8-tracker.SC2Replay", 6},
	} {
		r := decodeFile(t, filepath.Join(corpus.Samples(t, "sc2"), c.file))
		for p := range r.Players {
			st := r.PlayerState(0, p)
			m, _ := model.Find(st.Brief, "minerals")
			w, _ := model.Find(st.Brief, "workers")
			if m.Value != int64(50) || w.Value != c.workers {
				t.Errorf("%s P%d at loop 0: %v minerals, %v workers", c.file, p+1, m.Value, w.Value)
			}
		}
	}
}

// TestOneClock: a Heart of the Swarm game's JSON times, build order table,
// minutes table and moments all read the game's clock (loops / 16): a
// build order row's time is its entry's, the 5:00 minute's workers are
// the JSON's workers at 6:00.
func TestOneClock(t *testing.T) {
	r := decodeFile(t, filepath.Join(corpus.Samples(t, "sc2"), "hots-2.0.8-tracker.SC2Replay"))
	a := r.Analysis()
	st := a.Stats.Native.(*Stats)
	if st.Clock.Name != "game time" || r.Timeline.Clock == nil {
		t.Fatalf("clock %+v", st.Clock)
	}
	clock := func(f int) string { s := f / 16; return fmt.Sprintf("%d:%02d", s/60, s%60) }
	for p := range st.Players {
		for _, b := range st.Players[p].BuildOrder {
			if b.Time != float64(b.Loop)/16 {
				t.Fatalf("P%d %s at loop %d: %v s", p+1, b.Name, b.Loop, b.Time)
			}
		}
		bo := analysistest.Table(t, a, "buildOrder", p)
		for _, row := range bo.Rows {
			if row.Label != clock(row.Frame) {
				t.Errorf("P%d build order row %q at loop %d", p+1, row.Label, row.Frame)
			}
		}
		minutes := analysistest.Table(t, a, "minutes", -1)
		if w := st.Players[p].Workers.At6Min; w == nil || minutes.Rows[5].Label != "5:00" ||
			minutes.Rows[5].Cells[p].Value.(map[string]float64)["workers"] != float64(*w) {
			t.Errorf("P%d: workers at 6:00 %v, the 5:00 minute %+v", p+1, w, minutes.Rows[5].Cells[p])
		}
	}
	for _, m := range a.Moments {
		if m.Kind == model.MomentBuild && m.Frame%16 == 0 && m.Frame > 0 {
			// a moment and a row at the same loop read the same clock
			if r.Timeline.Label(m.Frame)[:len(clock(m.Frame))] != clock(m.Frame) {
				t.Errorf("moment at loop %d labelled %q", m.Frame, r.Timeline.Label(m.Frame))
			}
		}
	}
}

// TestLeanSummary holds the summary of the lean walk (what Summarize does
// with the replay's decoder at hand) to the one made from the replay's
// whole analysis, for every sample and corpus file: the same outcomes,
// stats and moments, and the same stats JSON but for the build order.
func TestLeanSummary(t *testing.T) {
	files := samplesAndCorpus(t)
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d, err := decode(data, model.DecodeOptions{NoEvents: true})
		if err != nil {
			continue // refused: no summary either way
		}
		if d.r.LeanSummary == nil {
			t.Fatalf("%s: a whole decode gives no lean summary", filepath.Base(p))
		}
		lean := Summarize(d.r)
		if d.analyzed.Load() {
			t.Fatalf("%s: Summarize asked for the whole analysis", filepath.Base(p))
		}
		whole := summarizeAnalysis(d.r)
		if !reflect.DeepEqual(lean, whole) {
			t.Errorf("%s: the lean summary differs from the analysis's", filepath.Base(p))
		}
		// the same stats JSON, but for the build order, which the lean
		// walk leaves out
		st := *d.r.Analysis().Stats.Native.(*Stats)
		st.Players = slices.Clone(st.Players)
		for p := range st.Players {
			st.Players[p].BuildOrder = []BuildItem{}
		}
		leanJSON, err1 := json.Marshal(d.walk(true).native())
		wholeJSON, err2 := json.Marshal(&st)
		if err1 != nil || err2 != nil || string(leanJSON) != string(wholeJSON) {
			t.Errorf("%s: the lean walk's stats JSON differs from the analysis's (%v, %v)", filepath.Base(p), err1, err2)
		}
	}
}
