package slippi

import "rewind/model"

// analyze is Replay.Analyze: slippi-js's stats (Stats.Native), the tables
// people read, the moments of the game, and the archive's summary of it
// (made from them when Summarize first asks: `rewind stats` never does).
func (d *decoder) analyze() *model.Analysis {
	a := &model.Analysis{}
	if d.post == nil {
		return a
	}
	w := d.walkLikeSlippiJS()
	st := d.slippiJSStats(&w)
	index := func(num int64) int { return d.index(&w, num) }
	losses := d.stockLosses()
	a.Moments = d.moments(st, losses, index)
	a.Stats.Tables = d.tables(st, losses)
	if st != nil {
		a.Stats.Native = st
		st.summary = &lazySummary{make: func() *model.Summary { return d.summary(st, losses, index) }}
	}
	return a
}

// slippiJSStats computes getStats() as slippi-js 9.1.2 does; nil where
// slippi-js returns undefined (no complete settings).
//
// slippi-js reads the player flag bits (stamina mode, metal, ...) from the
// team shade byte of Game Start (0x6C, where the bit field is at 0x71), but
// getStats() uses none of them: only isTeams (0xD) and the team ids (0x6E),
// which it reads where the spec puts them.
func (d *decoder) slippiJSStats(w *sjsWalk) *Stats {
	if d.startOff < 0 || !w.settings {
		return nil
	}
	fr := d.processedFrames(w)
	isTeams := 1+int(d.size[cmdStart]) > 0xD && d.data[d.startOff+0xD] != 0
	var teams []int
	for _, port := range fr.ports {
		teams = append(teams, d.ports[port].team)
	}
	st := computeStats(w, &fr, isTeams, teams)
	fr.release()
	return st
}
