package fzgx

import "rewind/model"

// statDefs say how an archive adds up F-Zero GX's summary stats (keys as
// in the "stats" JSON): the best race time, and lap and input counts and
// times summed over races.
var statDefs = []model.StatDef{
	{Key: "raceTime", Short: "best race", Label: "Race time", Agg: model.AggMin, Unit: model.UnitSeconds},
	{Key: "laps", Label: "Laps", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "boosts", Short: "boosts", Label: "Boosts", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "boostHeld", Label: "Boost held", Agg: model.AggSum, Unit: model.UnitSeconds},
	{Key: "drifts", Label: "Drift turns", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "driftHeld", Label: "Drifting", Agg: model.AggSum, Unit: model.UnitSeconds},
	{Key: "sideAttacks", Short: "side attacks", Label: "Side attacks", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "accelerating", Label: "Accelerating", Agg: model.AggSum, Unit: model.UnitSeconds},
	{Key: "braking", Label: "Braking", Agg: model.AggSum, Unit: model.UnitSeconds},
}

// summarize is the archive record of a race: the human racer's outcome
// (raceOutcome) and stats, and the replay checkpoints and the finish as
// moments. The file holds no lap crossings, so there is no best lap and
// no lap moment. CPU racers have neither outcome nor stats: the file holds
// only their machines.
func summarize(r *model.Replay) *model.Summary {
	a := r.Analysis()
	rs, ok := a.Stats.Native.(*raceStats)
	if !ok || rs.human < 0 || rs.human >= len(r.Players) {
		return nil
	}
	s := &model.Summary{Players: make([]model.PlayerSummary, len(r.Players)), Moments: r.RecordMoments(a.Moments)}
	in := &rs.Inputs
	st := []model.Stat{{Key: "laps", Value: float64(rs.Laps)}}
	if rs.RaceTime != nil {
		st = append([]model.Stat{{Key: "raceTime", Value: *rs.RaceTime}}, st...)
	}
	st = append(st,
		model.Stat{Key: "boosts", Value: float64(in.Boosts)}, model.Stat{Key: "boostHeld", Value: in.BoostHeld},
		model.Stat{Key: "drifts", Value: float64(in.Drifts)}, model.Stat{Key: "driftHeld", Value: in.DriftHeld},
		model.Stat{Key: "sideAttacks", Value: float64(in.SideAttacks)},
		model.Stat{Key: "accelerating", Value: in.Accelerating}, model.Stat{Key: "braking", Value: in.Braking})
	s.Players[rs.human] = model.PlayerSummary{Outcome: rs.Outcome, Stats: st}
	return s
}
