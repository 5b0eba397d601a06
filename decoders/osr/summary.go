package osr

import "rewind/model"

// StatDefs are the summary's stats: how they read and how groups of plays
// combine them.
var StatDefs = []model.StatDef{
	{Key: "score", Short: "best score", Label: "Best score", Agg: model.AggMax},
	{Key: "accuracy", Short: "acc", Label: "Accuracy", Agg: model.AggRatio, Unit: model.UnitPercent, Num: "accuracyPoints", Den: "accuracyPointsMax"},
	{Key: "accuracyPoints", Label: "Accuracy points scored", Agg: model.AggSum},
	{Key: "accuracyPointsMax", Label: "Accuracy points possible", Agg: model.AggSum},
	{Key: "maxCombo", Short: "best combo", Label: "Best max combo", Agg: model.AggMax},
	{Key: "misses", Short: "misses", Label: "Misses", Agg: model.AggSum},
	{Key: "perfect", Label: "Full combos", Agg: model.AggSum},
	{Key: "grade", Short: "grade", Label: "Grades", Agg: model.AggTally},
	{Key: "presses", Label: "Key presses", Agg: model.AggSum},
	{Key: "activeSeconds", Label: "Seconds from first to last press", Agg: model.AggSum, Unit: model.UnitSeconds},
	{Key: "keysPerSecond", Label: "Presses a second", Agg: model.AggRatio, Num: "presses", Den: "activeSeconds"},
	{Key: "peakKeysPerSecond", Label: "Most presses in one second", Agg: model.AggMax},
	{Key: "cursorTravel", Label: "Cursor travel (osu! pixels)", Agg: model.AggSum},
	{Key: "breaks", Label: "Gaps in input of 3 s or more", Agg: model.AggSum},
}

// Summarize is the archive summary of a full decode: the outcome (win
// for a play the file shows passed, loss for one it shows failed, unknown
// otherwise: see outcome), the stats of StatDefs, and the moments.
func Summarize(r *model.Replay) *model.Summary {
	a := r.Analysis()
	ns, ok := a.Stats.Native.(*nativeStats)
	if !ok || len(r.Players) == 0 {
		return nil
	}
	ps := model.PlayerSummary{Outcome: ns.Outcome}
	b := func(x bool) float64 {
		if x {
			return 1
		}
		return 0
	}
	ps.Stats = []model.Stat{
		{Key: "score", Value: float64(ns.Score)},
		{Key: "accuracyPoints", Value: ns.accuracyPoints[0]},
		{Key: "accuracyPointsMax", Value: ns.accuracyPoints[1]},
		{Key: "maxCombo", Value: float64(ns.MaxCombo)},
		{Key: "misses", Value: float64(ns.Counts.CountMiss)},
		{Key: "perfect", Value: b(ns.Perfect)},
		{Key: "grade", Name: ns.Grade, Value: 1},
		{Key: "presses", Value: float64(ns.Presses)},
		{Key: "activeSeconds", Value: ns.ActiveSeconds},
		{Key: "peakKeysPerSecond", Value: ns.PeakKeysPerSecond},
		{Key: "breaks", Value: float64(len(ns.Breaks))},
	}
	if ns.CursorTravel != nil {
		ps.Stats = append(ps.Stats, model.Stat{Key: "cursorTravel", Value: *ns.CursorTravel})
	}
	return &model.Summary{Players: []model.PlayerSummary{ps}, Moments: r.RecordMoments(a.Moments)}
}
