package fzgx

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"rewind/model"
)

// statsJSON is the replay's "stats" as `rewind stats --json` writes it,
// read back generically.
func statsJSON(t *testing.T, r *model.Replay) map[string]any {
	t.Helper()
	b, err := json.Marshal(r.Analysis().Stats.Native)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		t.Fatalf("stats JSON %s: %v", b, err)
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// The typed stats of test_00, with EXPECTED.md's values: total frames
// 3314, the timer from frame 182 (so 3132 frames, 52.2 s), 3 laps,
// checkpoints at 182, 1504, 2401 and 3315, machine 6 (Blue Falcon, Captain
// Falcon's) on course 36, Mute City: Sonic Oval, in Time Attack.
func TestStatsJSONTimeAttack(t *testing.T) {
	m := statsJSON(t, decode(t, sample(t, "time-attack.gci"), model.DecodeOptions{}))
	for k, want := range map[string]any{
		"player": "P1", "course": "Mute City: Sonic Oval", "mode": "Time Attack", "machine": "Blue Falcon",
		"pilot": "Captain Falcon", "result": "finished 0:52.200", "outcome": "win",
		"raceTime": 52.2, "totalFrames": 3314.0, "laps": 3.0,
	} {
		if m[k] != want {
			t.Errorf("%s = %#v, want %#v", k, m[k], want)
		}
	}
	var frames []float64
	var what []string
	for _, c := range m["checkpoints"].([]any) {
		c := c.(map[string]any)
		frames = append(frames, c["frame"].(float64))
		what = append(what, c["what"].(string))
		if f := c["frame"].(float64); !near(c["raceTime"].(float64), (f-182)/60) {
			t.Errorf("checkpoint at frame %v: race time %v", f, c["raceTime"])
		}
	}
	if !reflect.DeepEqual(frames, []float64{182, 1504, 2401, 3314, 3315}) ||
		!reflect.DeepEqual(what, []string{"checkpoint", "checkpoint", "checkpoint", "finish", "checkpoint"}) {
		t.Errorf("checkpoints %v %v", frames, what)
	}
	in := m["inputs"].(map[string]any)
	if in["inputRuns"] != 1992.0 {
		t.Errorf("input runs %v, want EXPECTED's 1992 elements", in["inputRuns"])
	}
	// EXPECTED's first inputs hold nothing for 121 frames
	for _, p := range in["presses"].([]any) {
		if p.(map[string]any)["frame"].(float64) < 121 {
			t.Errorf("press %v inside the first inputs", p)
		}
	}
}

// buttonsReplay is TestStatsButtons's race: two boosts (10+5+3 frames),
// one drift (5+20), one side attack (1), braking 5 frames before the
// start, accelerating from frame 182 to the end at 400.
func buttonsReplay(t *testing.T) *model.Replay {
	e := minimalTA()
	e.total = 400
	e.inputs = []encInput{
		{buttons: 0x04, accel: 100, frames: 100},
		{buttons: 0x44, accel: 100, frames: 10},
		{buttons: 0x54, accel: 100, frames: 5},
		{buttons: 0x14, accel: 100, frames: 20},
		{buttons: 0x04, accel: 0, brake: 50, frames: 5},
		{buttons: 0x44, accel: 100, frames: 3},
		{buttons: 0x84, accel: 100, frames: 1},
		{buttons: 0x04, accel: 100, frames: 256},
	}
	return decode(t, wrapGCI(gciOpts{}, e.stream()), model.DecodeOptions{})
}

func TestStatsJSONInputs(t *testing.T) {
	in := statsJSON(t, buttonsReplay(t))["inputs"].(map[string]any)
	for k, want := range map[string]float64{
		"boosts": 2, "boostHeld": 18.0 / 60, "drifts": 1, "driftHeld": 25.0 / 60, "sideAttacks": 1,
		"sideAttackHeld": 1.0 / 60, "accelerating": (400 - 182) / 60.0, "braking": 0, "inputRuns": 8,
	} {
		if got, _ := in[k].(float64); !near(got, want) {
			t.Errorf("%s = %v, want %v", k, in[k], want)
		}
	}
	var got []string
	for _, p := range in["presses"].([]any) {
		p := p.(map[string]any)
		got = append(got, p["what"].(string))
		if p["raceTime"].(float64) != (p["frame"].(float64)-182)/60 {
			t.Errorf("press %v: race time", p)
		}
	}
	if !reflect.DeepEqual(got, []string{"boost", "drift", "boost", "sideAttack"}) {
		t.Errorf("presses %q", got)
	}
}

func TestSummary(t *testing.T) {
	r := decode(t, sample(t, "time-attack.gci"), model.DecodeOptions{})
	s := r.Summarized(Format.Summarize)
	if len(s.Players) != 1 || s.Players[0].Outcome != model.OutcomeWin {
		t.Fatalf("players %+v", s.Players)
	}
	stats := map[string]float64{}
	for _, st := range s.Players[0].Stats {
		if _, ok := Format.Stat(st.Key); !ok {
			t.Errorf("stat %q has no StatDef", st.Key)
		}
		stats[st.Key] = st.Value
	}
	if stats["raceTime"] != 52.2 || stats["laps"] != 3 {
		t.Errorf("race time %v, laps %v; want 52.2 and 3", stats["raceTime"], stats["laps"])
	}
	// the four checkpoints (the last a frame after the finish, on the last
	// frame of the timeline) and the finish
	var kinds []model.MomentKind
	var frames []int64
	for _, m := range s.Moments {
		kinds = append(kinds, m.Kind)
		frames = append(frames, m.Frame)
		if m.By != 0 || m.On != -1 {
			t.Errorf("moment %+v: by %d on %d, want the racer and nobody", m, m.By, m.On)
		}
	}
	cp, fin := model.MomentCheckpoint, model.MomentFinish
	if !reflect.DeepEqual(kinds, []model.MomentKind{cp, cp, cp, fin, cp}) || !reflect.DeepEqual(frames, []int64{182, 1504, 2401, 3313, 3313}) {
		t.Errorf("moments %v at %v", kinds, frames)
	}
	if !near(s.Moments[1].Time, (1504-182)/60.0) || s.First != 0 || s.Last != 3313 {
		t.Errorf("checkpoint 2 at %v s; timeline %d to %d", s.Moments[1].Time, s.First, s.Last)
	}

	// the hand-built race: the input counts add up
	s = buttonsReplay(t).Summarized(Format.Summarize)
	for _, st := range s.Players[0].Stats {
		stats[st.Key] = st.Value
	}
	if stats["boosts"] != 2 || stats["drifts"] != 1 || stats["sideAttacks"] != 1 || !near(stats["raceTime"], (400-182)/60.0) {
		t.Errorf("hand-built race stats %v", stats)
	}
}

// A Grand Prix replay does not say where the racer finished.
func TestSummaryGrandPrixUnknown(t *testing.T) {
	e := minimalTA()
	e.mode = 1
	r := decode(t, wrapGCI(gciOpts{}, e.stream()), model.DecodeOptions{})
	s := r.Summarized(Format.Summarize)
	if len(s.Players) == 0 || s.Players[0].Outcome != model.OutcomeUnknown {
		t.Errorf("Grand Prix outcome %+v", s.Players)
	}
}
