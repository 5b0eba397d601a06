package bsor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func summaryStats(t *testing.T, s *model.Summary) map[string]float64 {
	t.Helper()
	if len(s.Players) != 1 {
		t.Fatalf("players %+v", s.Players)
	}
	m := map[string]float64{}
	for _, st := range s.Players[0].Stats {
		if _, ok := Format.Stat(st.Key); !ok {
			t.Errorf("stat %q has no StatDef", st.Key)
		}
		m[st.Key] = st.Value
	}
	return m
}

// The hand-built play of TestStatsDefinitions: cleared, one miss, two bad
// cuts, one bomb, one wall, one pause between the notes and one after
// them, a longest combo of 5.
func TestSummaryDefinitions(t *testing.T) {
	r := decode(t, definitionsFile().bytes())
	s := r.Summarized(Format.Summarize)
	if s.Players[0].Outcome != model.OutcomeWin {
		t.Errorf("outcome %q of a play that cleared", s.Players[0].Outcome)
	}
	want := map[string]float64{"misses": 1, "badCuts": 2, "bombs": 1, "wallHits": 1, "pauses": 1, "maxCombo": 5}
	got := summaryStats(t, s)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if a := got["accuracy"]; !(a > 0 && a < 1) {
		t.Errorf("accuracy %v: a fraction below 1 with a miss", a)
	}
	// every moment, with what it names
	var kinds []model.MomentKind
	var moves []string
	for _, m := range s.Moments {
		kinds = append(kinds, m.Kind)
		moves = append(moves, m.Facts.Move)
		if m.By != 0 || m.On != -1 {
			t.Errorf("moment %+v: by %d on %d", m, m.By, m.On)
		}
	}
	wantKinds := []model.MomentKind{model.MomentPause, model.MomentMiss, model.MomentBadCut, model.MomentBomb, model.MomentBadCut, model.MomentWall, model.MomentPause}
	wantMoves := []string{"", "blue down note", "red down note", "bomb", "red down note", "crouch wall", ""}
	if !reflect.DeepEqual(kinds, wantKinds) || !reflect.DeepEqual(moves, wantMoves) {
		t.Errorf("moments %v %q, want %v %q", kinds, moves, wantKinds, wantMoves)
	}
	// the miss at 3.5 s of song time, on the frame at 3.5 s
	if m := s.Moments[1]; m.Time != 3.5 || m.Frame != 7 {
		t.Errorf("miss at frame %d, %v s", m.Frame, m.Time)
	}

	// a failed play is a loss, and its fail a moment at the fail time (the
	// first frame from 4.2 s: frames are every half second)
	f := definitionsFile()
	f.in.FailTime = 4.2
	s = decode(t, f.bytes()).Summarized(Format.Summarize)
	if s.Players[0].Outcome != model.OutcomeLoss {
		t.Errorf("outcome %q of a failed play", s.Players[0].Outcome)
	}
	var fails []model.MomentRecord
	for _, m := range s.Moments {
		if m.Kind == model.MomentFail {
			fails = append(fails, m)
		}
	}
	if len(fails) != 1 || fails[0].Frame != 9 || fails[0].Time != 4.5 || fails[0].By != 0 {
		t.Errorf("fail moments %+v", fails)
	}
}

// The corpus files: the recorded score, the note events of MANIFEST.tsv,
// and failed for the 30-second MetaGuard+ clips.
func TestSummaryCorpus(t *testing.T) {
	dir := corpus.Dir(t, "bsor")
	for _, e := range expectations {
		t.Run(filepath.Base(e.rel), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, e.rel))
			if err != nil {
				t.Fatal(err)
			}
			r := decode(t, data)
			s := r.Summarized(Format.Summarize)
			out := model.OutcomeWin
			if e.failed {
				out = model.OutcomeLoss
			}
			if s.Players[0].Outcome != out {
				t.Errorf("outcome %q, want %q", s.Players[0].Outcome, out)
			}
			got := summaryStats(t, s)
			if e.scoreExact && got["score"] != float64(e.score) {
				t.Errorf("score %v, recorded %d", got["score"], e.score)
			}
			for k, v := range map[string]int64{"misses": e.miss, "badCuts": e.bad, "bombs": e.bomb, "wallHits": e.walls} {
				if got[k] != float64(v) {
					t.Errorf("%s = %v, want %d", k, got[k], v)
				}
			}
			kinds := map[model.MomentKind]int64{}
			for _, m := range s.Moments {
				kinds[m.Kind]++
			}
			want := map[model.MomentKind]int64{model.MomentMiss: e.miss, model.MomentBadCut: e.bad, model.MomentBomb: e.bomb,
				model.MomentWall: e.walls, model.MomentPause: e.pauses, model.MomentFail: 0}
			if e.failed {
				want[model.MomentFail] = 1
			}
			for k, v := range want {
				if kinds[k] != v {
					t.Errorf("%d %s moments, want %d", kinds[k], k, v)
				}
			}
		})
	}
}

// The stats JSON: BeatLeader's keys at the top level, with the player,
// the result and its outcome, and the totals.
func TestStatsJSON(t *testing.T) {
	r := decode(t, definitionsFile().bytes())
	b, err := json.Marshal(r.Analysis().Stats.Native)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"player": "P1", "result": "cleared", "outcome": "win", "misses": 1.0, "badCuts": 2.0,
		"bombs": 1.0, "wallHits": 1.0, "pauses": 1.0} {
		if m[k] != want {
			t.Errorf("%s = %#v, want %#v", k, m[k], want)
		}
	}
	for _, k := range []string{"hitTracker", "accuracyTracker", "winTracker", "scoreGraphTracker", "accuracy", "score"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, b)
		}
	}
	// seconds, as BeatLeader writes them: the last frame at 10 s, 7 s paused
	if w := m["winTracker"].(map[string]any); w["endTime"] != 10.0 || w["totalPauseDuration"] != 7.0 {
		t.Errorf("win tracker %v", w)
	}
}
