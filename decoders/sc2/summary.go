package sc2

import (
	"rewind/model"
)

// The archive summary of a replay (Format.Summarize): each player's
// outcome (outcome.go), the stats an archive adds up (statDefs: the
// stats JSON's values, native.go) and the moments an archive searches
// (builds, units trained, research, kills and deaths), all made from the
// replay's one analysis. Times in seconds are on the game's clock, as in
// the stats JSON (clock.go): the stats' and the moment records' both.

// statDefs are the keys of the summaries' stats, in the order reports
// show them.
var statDefs = []model.StatDef{
	{Key: "apm", Short: "apm", Label: "APM (sc2reader's count)", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "gameApm", Label: "APM (the game's)", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "mmr", Label: "MMR", Agg: model.AggMax, Unit: model.UnitCount},
	{Key: "gameLength", Label: "Game length", Agg: model.AggSum, Unit: model.UnitSeconds},
	{Key: "firstGas", Short: "1st gas", Label: "First gas", Agg: model.AggSum, Unit: model.UnitSeconds},
	{Key: "firstExpansion", Short: "1st expo", Label: "First expansion", Agg: model.AggSum, Unit: model.UnitSeconds},
	{Key: "workers6", Short: "workers 6:00", Label: "Workers at 6:00", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "workers10", Short: "workers 10:00", Label: "Workers at 10:00", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "workersBuilt", Label: "Workers built", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "armyUnits", Label: "Army units made", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "kills", Label: "Units and structures killed", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "losses", Label: "Units and structures lost", Agg: model.AggSum, Unit: model.UnitCount},
	{Key: "killsPerLoss", Short: "kills/loss", Label: "Kills per loss", Agg: model.AggRatio, Num: "kills", Den: "losses"},
}

// archiveKinds are the moments an archive keeps.
var archiveKinds = map[model.MomentKind]bool{model.MomentBuild: true, model.MomentTrain: true,
	model.MomentResearch: true, model.MomentKill: true}

// Summarize makes a replay's archive summary: from a lean walk of its
// streams (Replay.LeanSummary) for a replay this package decoded in full,
// else from its analysis; nil for a header-only decode or a replay of
// another format.
func Summarize(r *model.Replay) *model.Summary {
	if r.LeanSummary != nil {
		return r.LeanSummary()
	}
	return summarizeAnalysis(r)
}

// leanSummary walks the streams again for what a summary reads and no more:
// for test10 (240 KB) the summary then leaves 0.6 MB live instead of 6.5,
// and a one-file check peaks at 32.4 MB RSS instead of 40.5. A replay whose
// analysis was made already (the replay view) is summarized from it.
func (d *decoder) leanSummary() *model.Summary {
	if d.analyzed.Load() {
		return summarizeAnalysis(d.r)
	}
	a := d.walk(true)
	return summarize(a.native(), a.leanRecords())
}

// summarizeAnalysis is the summary made from the replay's analysis: the
// same as the lean walk's, at the cost of the whole analysis.
func summarizeAnalysis(r *model.Replay) *model.Summary {
	a := r.Analysis()
	st, ok := a.Stats.Native.(*Stats)
	if !ok {
		return nil
	}
	var ms []model.Moment
	for _, m := range a.Moments {
		if archiveKinds[m.Kind] {
			ms = append(ms, m)
		}
	}
	return summarize(st, r.RecordMoments(ms))
}

// summarize is the summary of the stats and the records of the moments an
// archive keeps, timed on the game's clock.
func summarize(st *Stats, recs []model.MomentRecord) *model.Summary {
	s := &model.Summary{Players: make([]model.PlayerSummary, len(st.Players)), Moments: recs}
	for p := range st.Players {
		s.Players[p] = summarizePlayer(st, &st.Players[p])
	}
	for i := range s.Moments {
		rec := &s.Moments[i]
		rec.Time, rec.EndTime = float64(rec.Frame)/st.Clock.LoopsPerSecond, float64(rec.End)/st.Clock.LoopsPerSecond
	}
	return s
}

// summarizePlayer is a player's outcome and stats: the values the stats
// JSON has for the player (observers have none).
func summarizePlayer(st *Stats, p *PlayerStats) model.PlayerSummary {
	ps := model.PlayerSummary{Outcome: p.Outcome}
	if p.Observer {
		return ps
	}
	add := func(key string, v float64) { ps.Stats = append(ps.Stats, model.Stat{Key: key, Value: v}) }
	opt := func(key string, v *float64) {
		if v != nil {
			add(key, *v)
		}
	}
	optInt := func(key string, v *int) {
		if v != nil {
			add(key, float64(*v))
		}
	}
	opt("apm", p.APM)
	opt("gameApm", p.GameAPM)
	opt("mmr", p.MMR)
	add("gameLength", st.GameLength)
	opt("firstGas", p.FirstGas)
	opt("firstExpansion", p.FirstExpansion)
	if p.Workers != nil {
		optInt("workers6", p.Workers.At6Min)
		optInt("workers10", p.Workers.At10Min)
	}
	optInt("workersBuilt", p.WorkersBuilt)
	optInt("armyUnits", p.ArmyUnits)
	optInt("kills", p.Kills)
	if p.UnitsLost != nil && p.StructuresLost != nil {
		add("losses", float64(*p.UnitsLost+*p.StructuresLost))
	}
	return ps
}
