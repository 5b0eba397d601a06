package slippi

import (
	"sort"
	"sync"

	"rewind/model"
)

// The archive's record of a game (model.Summary): each player's outcome,
// the stats an archive adds up and the moments it searches, made once per
// replay with the rest of the analysis.
//
// Stats keep slippi-js's names: the keys of getStats()'s overall and
// actionCounts, dotted into its ratios where a ratio's count and total are
// what adds up over games ("neutralWinRatio.count" / ".total"), so a
// group's ratio is recomputed from its sums (StatDefs). They are in the
// summary where slippi-js computes them: two-player games. The stock
// counts are rewind's (kos.go), for every game but the single-player
// modes, whose fighters the game brings on: stocksTaken counts kills (not a
// teammate's stock), stocksLost deaths (not a stock a teammate took),
// killPercentSum the percent of the player knocked out at each kill, and
// killMoves the move of each kill.

// Summarize is Format.Summarize: the summary the analysis made (a replay
// decoded header-only, or with no game, has outcomes unknown and nothing
// else).
func Summarize(r *model.Replay) *model.Summary {
	if st, ok := r.Analysis().Stats.Native.(*Stats); ok && st.summary != nil {
		c := *st.summary.get() // the caller's to fill in (model.Replay.Summarized)
		return &c
	}
	return &model.Summary{Players: make([]model.PlayerSummary, len(r.Players))}
}

// lazySummary is the summary an analysis makes once, when first asked.
type lazySummary struct {
	once sync.Once
	make func() *model.Summary
	s    *model.Summary
}

func (l *lazySummary) get() *model.Summary {
	l.once.Do(func() { l.s = l.make() })
	return l.s
}

// summary makes the archive record from the analysis's values.
func (d *decoder) summary(st *Stats, losses []stockLoss, index func(int64) int) *model.Summary {
	s := &model.Summary{Players: make([]model.PlayerSummary, len(d.portOf)), Declares: true}
	for pl, o := range d.outcomes() {
		s.Players[pl].Outcome = o
	}
	for pl, o := range d.declared() {
		s.Players[pl].Declared = o
	}
	if st != nil && st.frames > 0 {
		for i := range st.Overall {
			o := &st.Overall[i]
			if pl := d.playerOf[o.PlayerIndex]; pl >= 0 {
				s.Players[pl].Stats = overallStats(o)
			}
		}
		for i := range st.ActionCounts {
			a := &st.ActionCounts[i]
			if pl := d.playerOf[a.PlayerIndex]; pl >= 0 {
				lc := a.LCancelCount
				s.Players[pl].Stats = append(s.Players[pl].Stats,
					model.Stat{Key: "lCancelCount.success", Value: float64(lc.Success)},
					model.Stat{Key: "lCancelCount.fail", Value: float64(lc.Fail)},
					model.Stat{Key: "lCancelCount.total", Value: float64(lc.Success + lc.Fail)})
			}
		}
	}
	if !d.soloMode() {
		for pl, port := range d.portOf {
			if port < 4 && d.ports[port].used {
				s.Players[pl].Stats = append(s.Players[pl].Stats, stockStats(port, losses)...)
			}
		}
	}
	// the moments an archive searches: stocks, every conversion and every
	// combo (the timeline lists a combo that starts with its conversion
	// once, as the conversion; a query by kind wants each list whole)
	var ms []model.Moment
	for i := range losses {
		ms = append(ms, d.stockMoment(&losses[i]))
	}
	if st != nil {
		ms = d.punishMoments(ms, st, index, true)
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Frame < ms[j].Frame })
	s.Moments = d.r.RecordMoments(ms)
	for i := range s.Players {
		for j := range s.Players[i].Stats {
			st := &s.Players[i].Stats[j]
			st.Value = finite(st.Value)
		}
	}
	return s
}

// overallStats are one player's getStats().overall values that add up
// over games.
func overallStats(o *Overall) []model.Stat {
	out := []model.Stat{
		{Key: "killCount", Value: float64(o.KillCount)},
		{Key: "totalDamage", Value: float64(o.TotalDamage)},
		{Key: "conversionCount", Value: float64(o.ConversionCount)},
	}
	if c := o.SuccessfulConversions.Count; c != nil {
		out = append(out, model.Stat{Key: "successfulConversions.count", Value: float64(*c)})
	}
	if in := o.InputCounts; in.Total != nil && in.Buttons != nil {
		out = append(out,
			model.Stat{Key: "inputCounts.total", Value: float64(*in.Total)},
			model.Stat{Key: "inputCounts.buttons", Value: float64(*in.Buttons)},
			model.Stat{Key: "inputsPerMinute.total", Value: float64(o.InputsPerMinute.Total)})
	}
	for _, r := range []struct {
		key string
		r   Ratio
	}{{"neutralWinRatio", o.NeutralWinRatio}, {"counterHitRatio", o.CounterHitRatio}, {"beneficialTradeRatio", o.BeneficialTradeRatio}} {
		if r.r.Count != nil {
			out = append(out, model.Stat{Key: r.key + ".count", Value: float64(*r.r.Count)}, model.Stat{Key: r.key + ".total", Value: float64(r.r.Total)})
		}
	}
	return out
}

// stockStats are a player's stocks taken and lost, the percent of each
// kill and the kill moves.
func stockStats(port int, losses []stockLoss) []model.Stat {
	var taken, lost, pctSum float64
	moves := map[string]float64{}
	for i := range losses {
		l := &losses[i]
		switch {
		case l.port == port && l.death():
			lost++
		case l.by == port && l.kill():
			taken++
			pctSum += l.percent
			name := moveText(l.move)
			if name == "" {
				name = "other"
			}
			moves[name]++
		}
	}
	out := []model.Stat{
		{Key: "stocksTaken", Value: taken},
		{Key: "stocksLost", Value: lost},
		{Key: "killPercentSum", Value: pctSum},
	}
	names := make([]string, 0, len(moves))
	for n := range moves {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, model.Stat{Key: "killMoves", Name: n, Value: moves[n]})
	}
	return out
}

// statDefs describe the summary's stat keys, in the order reports show
// them (Format.Stats).
var statDefs = []model.StatDef{
	{Key: "stocksTaken", Label: "Stocks taken", Agg: model.AggSum},
	{Key: "stocksLost", Label: "Stocks lost", Agg: model.AggSum},
	{Key: "killCount", Short: "kills", Label: "Kills (conversions that took a stock)", Agg: model.AggSum},
	{Key: "killPercentSum", Label: "Percent at kills, summed", Agg: model.AggSum, Unit: model.UnitDamage},
	{Key: "meanKillPercent", Short: "kill %", Label: "Mean kill percent", Agg: model.AggRatio, Unit: model.UnitDamage, Num: "killPercentSum", Den: "stocksTaken"},
	{Key: "killMoves", Short: "kill move", Label: "Kill moves", Agg: model.AggTally},
	{Key: "totalDamage", Short: "damage", Label: "Damage done", Agg: model.AggSum, Unit: model.UnitDamage},
	{Key: "conversionCount", Label: "Openings", Agg: model.AggSum},
	{Key: "successfulConversions.count", Label: "Successful conversions", Agg: model.AggSum},
	{Key: "successfulConversions", Label: "Successful conversion rate", Agg: model.AggRatio, Unit: model.UnitPercent, Num: "successfulConversions.count", Den: "conversionCount"},
	{Key: "openingsPerKill", Short: "op/kill", Label: "Openings per kill", Agg: model.AggRatio, Num: "conversionCount", Den: "killCount"},
	{Key: "damagePerOpening", Short: "dmg/op", Label: "Damage per opening", Agg: model.AggRatio, Unit: model.UnitDamage, Num: "totalDamage", Den: "conversionCount"},
	{Key: "neutralWinRatio.count", Label: "Neutral wins", Agg: model.AggSum},
	{Key: "neutralWinRatio.total", Label: "Neutral openings (both players)", Agg: model.AggSum},
	{Key: "neutralWinRatio", Short: "neutral", Label: "Neutral win ratio", Agg: model.AggRatio, Unit: model.UnitPercent, Num: "neutralWinRatio.count", Den: "neutralWinRatio.total"},
	{Key: "counterHitRatio.count", Label: "Counter hits", Agg: model.AggSum},
	{Key: "counterHitRatio.total", Label: "Counter-hit openings (both players)", Agg: model.AggSum},
	{Key: "counterHitRatio", Label: "Counter hit ratio", Agg: model.AggRatio, Unit: model.UnitPercent, Num: "counterHitRatio.count", Den: "counterHitRatio.total"},
	{Key: "beneficialTradeRatio.count", Label: "Beneficial trades", Agg: model.AggSum},
	{Key: "beneficialTradeRatio.total", Label: "Trades", Agg: model.AggSum},
	{Key: "beneficialTradeRatio", Label: "Beneficial trade ratio", Agg: model.AggRatio, Unit: model.UnitPercent, Num: "beneficialTradeRatio.count", Den: "beneficialTradeRatio.total"},
	{Key: "inputCounts.total", Label: "Inputs", Agg: model.AggSum},
	{Key: "inputCounts.buttons", Label: "Button presses", Agg: model.AggSum},
	{Key: "inputsPerMinute.total", Label: "Playable minutes", Agg: model.AggSum},
	{Key: "inputsPerMinute", Short: "ipm", Label: "Inputs per minute", Agg: model.AggRatio, Num: "inputCounts.total", Den: "inputsPerMinute.total"},
	{Key: "digitalInputsPerMinute", Label: "Digital inputs per minute", Agg: model.AggRatio, Num: "inputCounts.buttons", Den: "inputsPerMinute.total"},
	{Key: "lCancelCount.success", Label: "L-cancels", Agg: model.AggSum},
	{Key: "lCancelCount.fail", Label: "Missed L-cancels", Agg: model.AggSum},
	{Key: "lCancelCount.total", Label: "L-cancel attempts", Agg: model.AggSum},
	{Key: "lCancelRate", Short: "l-cancel", Label: "L-cancel rate", Agg: model.AggRatio, Unit: model.UnitPercent, Num: "lCancelCount.success", Den: "lCancelCount.total"},
}
