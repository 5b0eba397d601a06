package sc2

import "rewind/model"

// outcome is how the game ended for a player, as a word a script compares
// (model.Outcome):
//
//   - replay.details' result decides when it gives one: Win is a win, Loss
//     a loss (leaving is how a StarCraft II player concedes, so a player
//     who left and lost lost), Tie a draw;
//   - without one (the recorder left first, or the client wrote none), a
//     player who left before the game's last loop quit; anyone else, and
//     every observer, is unknown.
func (a *analysis) outcome(p int) model.Outcome {
	if p < 0 || p >= len(a.d.players) || a.observer(p) {
		return model.OutcomeUnknown
	}
	switch a.d.players[p].result {
	case 1:
		return model.OutcomeWin
	case 2:
		return model.OutcomeLoss
	case 3:
		return model.OutcomeDraw
	}
	if a.acts.counted && a.acts.leftAt[p] >= 0 && a.acts.leftAt[p] < a.last {
		return model.OutcomeQuit
	}
	return model.OutcomeUnknown
}
