package bsor

import "rewind/model"

// playStats is BSOR's "stats" in `rewind stats --json`: BeatLeader's
// ScoreStatistic, its keys at the top level as BeatLeader writes them (so
// scripts written against beatleader.xyz read them; its times are seconds
// already), with the player, the result and a few totals beside it.
type playStats struct {
	Player string `json:"player"` // "P1"
	// Result is the prose ("cleared", "failed at 1:23", "cut short"),
	// Outcome the word a script compares (view.result).
	Result  string        `json:"result"`
	Outcome model.Outcome `json:"outcome"`
	// Accuracy is the recomputed score over the best possible for the
	// notes played, a fraction (0.9312); Score the recomputed score before
	// modifiers (BeatLeader's winTracker.totalScore).
	Accuracy float64 `json:"accuracy"`
	Score    int     `json:"score"`
	Misses   int     `json:"misses"`
	BadCuts  int     `json:"badCuts"`
	Bombs    int     `json:"bombs"`
	WallHits int     `json:"wallHits"`
	Pauses   int     `json:"pauses"` // between the first and the last note, as BeatLeader counts them
	scoreStatistic
}

// result is how the play ended, in words and as an outcome: a play that
// cleared the song is a win, one that failed a loss (the game's fail, at
// failTime), and one cut short by the end of the file is unknown.
func (v *view) result() (string, model.Outcome) {
	d := v.d
	switch {
	case d.info.FailTime > 0:
		return "failed at " + shortTime(d.info.FailTime), model.OutcomeLoss
	case d.truncated:
		return "cut short", model.OutcomeUnknown
	}
	return "cleared", model.OutcomeWin
}

func (v *view) playStats(g *gameStats) *playStats {
	fin := v.sc.final
	res, out := v.result()
	return &playStats{Player: v.player().Slot, Result: res, Outcome: out, Accuracy: accuracy(fin), Score: int(fin.score),
		Misses: g.hands[both].miss, BadCuts: g.hands[both].bad, Bombs: g.bombs, WallHits: len(v.d.walls), Pauses: g.pausesIn,
		scoreStatistic: g.native}
}
