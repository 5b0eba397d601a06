package teehistorian

import "rewind/model"

// statDefs say how an archive adds up teehistorian's summary stats (keys
// as in the "stats" JSON's players).
var statDefs = []model.StatDef{
	{Key: "timeConnected", Short: "connected", Label: "Time connected", Agg: model.AggSum, Unit: model.UnitSeconds},
	{Key: "finishes", Short: "finishes", Label: "Race finishes", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "bestTime", Short: "best time", Label: "Best race time", Agg: model.AggMin, Unit: model.UnitSeconds},
	{Key: "selfKills", Short: "self-kills", Label: "Self-kills", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "joins", Label: "Joins", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "drops", Label: "Left the server", Agg: model.AggSum, Unit: model.UnitCount},
}

// recorded are the moment kinds an archive keeps of a recording: the
// ones that say what players did. Team changes, chat, votes and the end
// of the recording stay in the analysis.
var recorded = map[model.MomentKind]bool{
	model.MomentKill: true, model.MomentFinish: true, model.MomentJoin: true, model.MomentDrop: true,
}

// summarize is the archive record of a recording: per player the outcome
// (a finish is a win, anything else unknown: see playerOutcome) and the
// stats, and the kills (self-kills: a teehistorian records no kill by
// another player), finishes, joins and drops as moments. A player with no
// finish has no bestTime, so a group's best time is over finishes only.
func summarize(r *model.Replay) *model.Summary {
	a := r.Analysis()
	ss, ok := a.Stats.Native.(*serverStats)
	if !ok || len(ss.Players) != len(r.Players) {
		return nil
	}
	s := &model.Summary{Players: make([]model.PlayerSummary, len(r.Players))}
	for p, pj := range ss.Players {
		st := []model.Stat{
			{Key: "timeConnected", Value: pj.TimeConnected},
			{Key: "finishes", Value: float64(len(pj.Finishes))},
		}
		if pj.BestTime != nil {
			st = append(st, model.Stat{Key: "bestTime", Value: *pj.BestTime})
		}
		st = append(st,
			model.Stat{Key: "selfKills", Value: float64(pj.SelfKills)},
			model.Stat{Key: "joins", Value: float64(pj.Joins)},
			model.Stat{Key: "drops", Value: float64(len(pj.Drops))})
		s.Players[p] = model.PlayerSummary{Outcome: pj.Outcome, Stats: st}
	}
	var ms []model.Moment
	for _, m := range a.Moments {
		if recorded[m.Kind] {
			ms = append(ms, m)
		}
	}
	s.Moments = r.RecordMoments(ms)
	return s
}
