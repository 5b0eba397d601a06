package fzgx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	at "rewind/decoders/internal/analysistest"
	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func statTable(t *testing.T, a *model.Analysis, key string) model.StatTable {
	t.Helper()
	return at.Table(t, a, key, at.Any)
}

// checkMomentOrder adds F-Zero's own rule to the common ones: every moment
// is an instant of the human racer.
func checkMomentOrder(t *testing.T, r *model.Replay, a *model.Analysis) {
	t.Helper()
	at.Check(t, r, a)
	for _, m := range a.Moments {
		if m.End != m.Frame || m.By < 0 || m.Span.Len <= 0 {
			t.Errorf("moment %+v", m)
		}
	}
}

// checkTimeAttack asserts EXPECTED.md's test_00 values: total frames 3314
// (the timer starts at frame 182, so the race is 3132 frames at 60 per
// second, 52.200 s), replay checkpoints at frames 182, 1504, 2401 and 3315,
// 3 laps, 1992 input elements, and first inputs 0x04 for 77+2+42 frames.
func checkTimeAttack(t *testing.T, data []byte) {
	r := decode(t, data, model.DecodeOptions{})
	a := r.Analysis()
	checkMomentOrder(t, r, a)

	var cps []model.Moment
	var fin []model.Moment
	for _, m := range a.Moments {
		switch m.Kind {
		case model.MomentCheckpoint:
			cps = append(cps, m)
		case model.MomentFinish:
			fin = append(fin, m)
		case model.MomentLap:
			t.Errorf("a lap moment, but the file has no lap crossings: %+v", m)
		}
	}
	if len(cps) != 4 || len(fin) != 1 || len(a.Moments) != 5 {
		t.Fatalf("moments %+v", a.Moments)
	}
	for i, want := range []struct {
		frame int
		says  string
	}{
		{182, "replay checkpoint 1 (position check) at the start"},
		{1504, "replay checkpoint 2 (position check) at 0:22.033, 22.033 s after checkpoint 1"}, // (1504-182)/60
		{2401, "replay checkpoint 3 (position check) at 0:36.983, 14.950 s after checkpoint 2"}, // (2401-182)/60, 897/60
		{3313, "replay checkpoint 4 (position check) at 0:52.216, after the finish line: never checked"},
	} {
		if cps[i].Frame != want.frame || cps[i].Summary != want.says || cps[i].By != 0 {
			t.Errorf("checkpoint %d: %d %q, want %d %q", i+1, cps[i].Frame, cps[i].Summary, want.frame, want.says)
		}
	}
	if fin[0].Frame != 3313 || fin[0].Summary != "crosses the finish line: 0:52.200" {
		t.Errorf("finish %+v", fin[0])
	}
	// the finish comes before checkpoint 4, which is a frame after it
	if a.Moments[3].Kind != model.MomentFinish {
		t.Errorf("order %+v", a.Moments)
	}

	race := statTable(t, a, "race")
	if race.Player != -1 || len(race.Columns) != 1 || race.Columns[0] != "P1 Captain Falcon (Blue Falcon)" {
		t.Errorf("race table columns %q", race.Columns)
	}
	for key, want := range map[string]any{
		"raceTime": 3132.0 / 60, "totalFrames": int64(3314), "laps": int64(3), "lapTimes": "not in the file",
		"inputRuns": int64(1992),
	} {
		if got := at.Row(t, race, key).Cells[0].Value; got != want {
			t.Errorf("%s = %v, want %v", key, got, want)
		}
	}
	splits := statTable(t, a, "splits")
	var frames []int64
	var labels []string
	for _, row := range splits.Rows {
		frames = append(frames, row.Cells[0].Value.(int64))
		labels = append(labels, row.Label)
	}
	if len(frames) != 5 || frames[0] != 182 || frames[1] != 1504 || frames[2] != 2401 || frames[3] != 3314 || frames[4] != 3315 ||
		labels[3] != "Finish line" || labels[4] != "Checkpoint 4 (after the finish)" {
		t.Errorf("splits %v %q", frames, labels)
	}
	if s := splits.Rows[3].Cells[2]; s.Value != (3314-2401)/60.0 || s.Name != "15.216" {
		t.Errorf("finish split %+v", s)
	}

	// boosts: GX gives boost from the second lap, and the first lap, from a
	// standing start, is the slowest, so no boost press comes before a third
	// of the race; EXPECTED's first inputs hold nothing for 121 frames
	uses := statTable(t, a, "buttons")
	boosts, drifts := 0, 0
	for _, row := range uses.Rows {
		if row.Frame < 121 {
			t.Errorf("%s at frame %d, inside the first inputs", row.Key, row.Frame)
		}
		switch row.Key {
		case "boost":
			if boosts == 0 && row.Frame-raceStartFrame < 3132/3 {
				t.Errorf("first boost at frame %d, before the end of lap 1", row.Frame)
			}
			boosts++
		case "drift":
			drifts++
		}
	}
	if got := at.Row(t, race, "boosts").Cells[0].Value; got != int64(boosts) || boosts == 0 {
		t.Errorf("boosts %v, list %d", got, boosts)
	}
	if got := at.Row(t, race, "drifts").Cells[0].Value; got != int64(drifts) {
		t.Errorf("drifts %v, list %d", got, drifts)
	}
	held := at.Row(t, race, "boostHeld").Cells[0].Value.(float64) + at.Row(t, race, "driftHeld").Cells[0].Value.(float64)
	if held <= 0 || held > 3314.0/60 {
		t.Errorf("held %v", held)
	}
}

func TestStatsTimeAttack(t *testing.T) {
	t.Run("sample", func(t *testing.T) { checkTimeAttack(t, sample(t, "time-attack.gci")) })
	t.Run("corpus", func(t *testing.T) { checkTimeAttack(t, realReplay(t)) })
}

// Button runs built by hand: what the spec's Buttons bits say, counted.
func TestStatsButtons(t *testing.T) {
	e := minimalTA()
	e.total = 400
	e.inputs = []encInput{
		{buttons: 0x04, accel: 100, frames: 100},
		{buttons: 0x44, accel: 100, frames: 10},         // boost 1 pressed
		{buttons: 0x54, accel: 100, frames: 5},          // still held, L+R pressed: drift 1
		{buttons: 0x14, accel: 100, frames: 20},         // drift held
		{buttons: 0x04, accel: 0, brake: 50, frames: 5}, // released, braking
		{buttons: 0x44, accel: 100, frames: 3},          // boost 2
		{buttons: 0x84, accel: 100, frames: 1},          // side attack
		{buttons: 0x04, accel: 100, frames: 256},
	}
	r := decode(t, wrapGCI(gciOpts{}, e.stream()), model.DecodeOptions{})
	if r.Problems() != 0 {
		t.Fatalf("problems %v", r.Diagnostics)
	}
	a := r.Analysis()
	checkMomentOrder(t, r, a)
	race := statTable(t, a, "race")
	for key, want := range map[string]any{
		"boosts": int64(2), "boostHeld": 18.0 / 60,
		"drifts": int64(1), "driftHeld": 25.0 / 60,
		"sideAttacks": int64(1),
		// after frame 182 the last run accelerates to the end (400)
		"accelerating": (400 - 182) / 60.0, "braking": 0.0,
		"inputRuns": int64(8),
	} {
		if got := at.Row(t, race, key).Cells[0].Value; got != want {
			t.Errorf("%s = %v, want %v", key, got, want)
		}
	}
	var got []string
	for _, row := range statTable(t, a, "buttons").Rows {
		got = append(got, row.Cells[0].Text()+" "+row.Cells[1].Text())
	}
	if want := "boost 0.250|drift (L+R) 0.416|boost 0.050|side attack 0.016"; strings.Join(got, "|") != want {
		t.Errorf("uses %q, want %q", got, want)
	}
	// braking across the start counts only its frames after 182: the run
	// covers frames 40 to 189
	e.inputs[0].frames, e.inputs[4].frames, e.inputs[7].frames = 5, 150, 206
	r = decode(t, wrapGCI(gciOpts{}, e.stream()), model.DecodeOptions{})
	if got := at.Row(t, statTable(t, r.Analysis(), "race"), "braking").Cells[0].Value; got != 8.0/60 {
		t.Errorf("braking %v, want 8 frames", got)
	}
}

// A truncated or header-only replay analyses without a panic.
func TestStatsDamaged(t *testing.T) {
	data := sample(t, "time-attack.gci")
	for c := 0x44; c < len(data); c += 97 {
		r, err := Decode(data[:c], model.DecodeOptions{})
		if err != nil {
			continue
		}
		checkMomentOrder(t, r, r.Analysis())
	}
	if r := decode(t, data, model.DecodeOptions{HeaderOnly: true}); len(r.Analysis().Moments) != 0 {
		t.Errorf("header-only decode has moments")
	}
}

func BenchmarkAnalyzeFZGX(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(b, "fzgx"), "time-attack.gci"))
	if err != nil {
		b.Fatal(err)
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	at.Benchmark(b, r)
}
