package fzgx

import (
	"sort"
	"strings"

	"rewind/model"
)

// raceStats is F-Zero GX's "stats" in `rewind stats --json`: the race of
// the racer whose input the file holds, with times in seconds. The tables
// show the same for people.
type raceStats struct {
	Player  string `json:"player"` // "P1": the human racer's slot
	human   int    // its index in Replay.Players
	Course  string `json:"course"`
	Mode    string `json:"mode"` // "Time Attack", "Grand Prix (Master)"
	Machine string `json:"machine"`
	Pilot   string `json:"pilot"`
	// Result is the prose ("finished 0:52.200"), Outcome the word a script
	// compares (raceOutcome).
	Result  string        `json:"result"`
	Outcome model.Outcome `json:"outcome"`
	// RaceTime is from the timer's start (frame 182) to the finish line;
	// null when the file states no total. TotalFrames counts from the
	// countdown.
	RaceTime    *float64 `json:"raceTime"`
	TotalFrames *int64   `json:"totalFrames"`
	// Laps is the lap count. A replay holds no lap crossings (see
	// stats.go), so there are no lap times and no best lap.
	Laps        int64            `json:"laps"`
	Checkpoints []checkpointJSON `json:"checkpoints"`
	Inputs      inputsJSON       `json:"inputs"`
}

// checkpointJSON is one replay checkpoint (a position check, not a lap)
// or the finish line, in frame order: the splits table.
type checkpointJSON struct {
	What        string  `json:"what"` // "checkpoint" or "finish"
	Checkpoint  int     `json:"checkpoint,omitempty"`
	Frame       int64   `json:"frame"`
	RaceTime    float64 `json:"raceTime"` // seconds, negative before the start
	Split       float64 `json:"split"`    // seconds since the one before (the start for the first)
	AfterFinish bool    `json:"afterFinish,omitempty"`
}

// inputsJSON is what the input runs say of the human's buttons and pedals:
// counts of presses and seconds held.
type inputsJSON struct {
	Boosts         int         `json:"boosts"`
	BoostHeld      float64     `json:"boostHeld"`
	Drifts         int         `json:"drifts"`
	DriftHeld      float64     `json:"driftHeld"`
	SideAttacks    int         `json:"sideAttacks"`
	SideAttackHeld float64     `json:"sideAttackHeld"`
	Accelerating   float64     `json:"accelerating"` // after the start
	Braking        float64     `json:"braking"`      // after the start
	InputRuns      int         `json:"inputRuns"`    // input changes recorded
	Presses        []pressJSON `json:"presses"`
}

// pressJSON is one press of boost, L+R (drift) or side attack.
type pressJSON struct {
	What     string  `json:"what"` // "boost", "drift", "sideAttack"
	Frame    int     `json:"frame"`
	RaceTime float64 `json:"raceTime"` // seconds
	Held     float64 `json:"held"`     // seconds
}

func frameSecs(frames int64) float64 { return float64(frames) / 60 }

// raceOutcome is the human's outcome: a Time Attack race that reached the
// finish line is won (its one racer finished first); a Grand Prix replay
// does not record the finishing position, and a race that did not finish
// says nothing, so both are unknown.
func (b *build) raceOutcome() model.Outcome {
	if b.s.mode == 2 && strings.HasPrefix(b.rep.Result, "finished") {
		return model.OutcomeWin
	}
	return model.OutcomeUnknown
}

// native is the race as raceStats.
func (b *build) native(st inputStats) *raceStats {
	s, p := b.s, b.rep.Players[b.human]
	out := &raceStats{Player: p.Slot, human: b.human, Course: b.rep.Title, Mode: b.rep.Mode, Machine: p.Character, Pilot: p.Name,
		Result: b.rep.Result, Outcome: b.raceOutcome(), Laps: s.laps, Checkpoints: []checkpointJSON{}}
	if s.hasTotal {
		t, total := frameSecs(s.totalFrames-raceStartFrame), s.totalFrames
		out.RaceTime, out.TotalFrames = &t, &total
	}
	for _, m := range b.marks() {
		c := checkpointJSON{What: "checkpoint", Checkpoint: m.checkpoint, Frame: m.frame,
			RaceTime: frameSecs(m.frame - raceStartFrame), Split: frameSecs(m.frame - m.prev), AfterFinish: m.afterFinish}
		if m.checkpoint == 0 {
			c.What = "finish"
		}
		out.Checkpoints = append(out.Checkpoints, c)
	}
	in := &out.Inputs
	in.Boosts, in.BoostHeld = len(st.boosts), frameSecs(int64(heldFrames(st.boosts)))
	in.Drifts, in.DriftHeld = len(st.drifts), frameSecs(int64(heldFrames(st.drifts)))
	in.SideAttacks, in.SideAttackHeld = len(st.sideAttacks), frameSecs(int64(heldFrames(st.sideAttacks)))
	in.Accelerating, in.Braking = frameSecs(int64(st.accelFrames)), frameSecs(int64(st.brakeFrames))
	in.InputRuns = st.runs
	in.Presses = []pressJSON{}
	for _, u := range st.presses() {
		in.Presses = append(in.Presses, pressJSON{What: u.key, Frame: u.frame,
			RaceTime: frameSecs(int64(u.frame) - raceStartFrame), Held: frameSecs(int64(u.frames))})
	}
	return out
}

// presses are the boost, drift and side-attack presses in frame order.
func (st *inputStats) presses() []use {
	uses := append(append(append([]use{}, st.boosts...), st.drifts...), st.sideAttacks...)
	sort.SliceStable(uses, func(i, j int) bool { return uses[i].frame < uses[j].frame })
	return uses
}
