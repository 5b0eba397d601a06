package bsor

import "rewind/model"

// statDefs say how an archive adds up BSOR's summary stats (keys as in the
// "stats" JSON's totals): the mean accuracy, the best score (per song with
// `stats --by` the song), and the mistakes and pauses summed over plays.
var statDefs = []model.StatDef{
	{Key: "accuracy", Short: "acc", Label: "Accuracy", Agg: model.AggSum, Unit: model.UnitPercent},
	{Key: "score", Short: "best score", Label: "Best score", Agg: model.AggMax, Unit: model.UnitCount},
	{Key: "maxCombo", Label: "Longest combo", Agg: model.AggMax, Unit: model.UnitCount},
	{Key: "misses", Short: "misses", Label: "Misses", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "badCuts", Short: "bad cuts", Label: "Bad cuts", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "bombs", Label: "Bombs hit", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "wallHits", Label: "Walls hit", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "pauses", Short: "pauses", Label: "Pauses", Agg: model.AggSum, Unit: model.UnitCount},
}

// summarize is the archive record of a play: the outcome (cleared is a
// win, failed a loss, a file cut short unknown: view.result), the stats,
// and every miss, bad cut, bomb, wall hit, pause and the fail as a moment
// record.
func summarize(r *model.Replay) *model.Summary {
	a := r.Analysis()
	ps, ok := a.Stats.Native.(*playStats)
	if !ok || len(r.Players) != 1 {
		return nil
	}
	return &model.Summary{
		Players: []model.PlayerSummary{{Outcome: ps.Outcome, Stats: []model.Stat{
			{Key: "accuracy", Value: ps.Accuracy},
			{Key: "score", Value: float64(ps.Score)},
			{Key: "maxCombo", Value: float64(ps.HitTracker.MaxCombo)},
			{Key: "misses", Value: float64(ps.Misses)},
			{Key: "badCuts", Value: float64(ps.BadCuts)},
			{Key: "bombs", Value: float64(ps.Bombs)},
			{Key: "wallHits", Value: float64(ps.WallHits)},
			{Key: "pauses", Value: float64(ps.Pauses)},
		}}},
		Moments: r.RecordMoments(a.Moments),
	}
}
