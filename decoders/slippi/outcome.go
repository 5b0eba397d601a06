package slippi

import (
	"cmp"
	"slices"
	"strings"

	"rewind/model"
)

// How the game ended for each player, as a word a script compares
// (model.Outcome). Where slippi-js 9.1.2's getWinners names winners, the
// winners are the same players; where it names none, the game still may
// say:
//
//   - No Contest (2.0.0+) or Unresolved: the player who left with L+R+A+
//     Start quit; in a two-player game the other won (getWinners); everyone
//     else has no contest.
//   - Single-player modes (Classic, Multi-Man Melee, Home-Run Contest, ...)
//     have a winner only where the placements (3.13.0+) name one, as
//     getWinners reads them; the end methods of these modes (Stage Clear,
//     Game Clear, New Record, ...) do not say the same thing in every mode,
//     so the outcome is unknown otherwise. The fighters the mode brings on
//     have none.
//   - Everyone on stage at the end out of stocks: a draw (getWinners: no
//     winner).
//   - TIME!: the player, or the team (stocks and percent added up over its
//     members on stage), with the most stocks and then the least percent
//     won (getWinners); players or teams tied for first drew, where
//     getWinners calls them all winners.
//   - GAME! (Resolved before 2.0.0): the placements (3.13.0+) name the
//     winner (getWinners); without them, the player or team that still
//     has stocks won.
//
// A team game counts by team: a team's win is each member's, eliminated
// members too (getWinners leaves a member out of a TIME! win when no longer
// on stage). Everyone else in the game lost. A file without a Game End
// (a recording cut short, training mode) has no outcome.
func (d *decoder) outcomes() []model.Outcome {
	out := make([]model.Outcome, len(d.portOf))
	if d.endOff < 0 || d.size[cmdEnd] < 1 {
		return out
	}
	ev := d.data[d.endOff : d.endOff+1+int(d.size[cmdEnd])]
	method := int(ev[1])
	var listed []int // players Game Start lists: not the enemies a mode brings on
	for pl, port := range d.portOf {
		if port < 4 && d.ports[port].used {
			listed = append(listed, pl)
		}
	}
	if method == 0 || d.version >= v200 && method == 7 {
		for _, pl := range listed {
			out[pl] = model.OutcomeNoContest
		}
		if lras := d.lrasInitiator(ev); lras >= 0 {
			out[lras] = model.OutcomeQuit
			if len(listed) == 2 {
				for _, pl := range listed {
					if pl != lras {
						out[pl] = model.OutcomeWin
					}
				}
			}
		}
		return out
	}
	solo := d.soloMode()
	onStage := d.finalPosts()
	switch {
	case solo:
	case len(onStage) > 0 && !slices.ContainsFunc(onStage, func(p finalPost) bool { return p.stocks != 0 }):
		for _, pl := range listed {
			out[pl] = model.OutcomeDraw
		}
		return out
	case d.version >= v200 && method == 1:
		d.timeOutcome(out, listed, onStage)
		return out
	}
	if winner := d.firstPlace(ev); winner >= 0 {
		d.sideWins(out, listed, []int{winner}, model.OutcomeWin)
		return out
	}
	if solo {
		return out
	}
	// GAME! or Resolved without placements: whoever still has stocks
	alive := map[int]bool{} // sides with stocks left
	var winners []int
	for _, pl := range listed {
		if s, ok := d.lastStocks(d.portOf[pl]); ok && s > 0 {
			if side := d.side(pl); !alive[side] {
				alive[side] = true
				winners = append(winners, pl)
			}
		}
	}
	switch len(alive) {
	case 0:
		for _, pl := range listed {
			out[pl] = model.OutcomeDraw
		}
	case 1:
		d.sideWins(out, listed, winners, model.OutcomeWin)
	}
	return out
}

// lrasInitiator is the player who left the game with L+R+A+Start (2.0.0+),
// -1 when none did or the player is not in the game.
func (d *decoder) lrasInitiator(ev []byte) int {
	if d.version < v200 || len(ev) < 3 {
		return -1
	}
	if l := int(int8(ev[2])); l >= 0 && l < 4 && d.ports[l].used && d.playerOf[l] >= 0 {
		return d.playerOf[l]
	}
	return -1
}

// firstPlace is the player the placements (3.13.0+) put first, the first
// by port as getWinners takes it; -1 when none is.
func (d *decoder) firstPlace(ev []byte) int {
	if d.version < ver(3, 13, 0) || len(ev) < 7 {
		return -1
	}
	for port := 0; port < 4; port++ {
		if int8(ev[3+port]) == 0 && d.ports[port].used && d.playerOf[port] >= 0 {
			return d.playerOf[port]
		}
	}
	return -1
}

// side is a player's side: the team in a team game, else the player.
func (d *decoder) side(pl int) int {
	if port := d.portOf[pl]; d.isTeams() && port < 4 && d.ports[port].used {
		return 100 + d.ports[port].team
	}
	return pl
}

// sideWins gives the players on the sides of those players (their teams in
// a team game) the outcome o (a win, or a draw among sides tied for first),
// and the other listed players a loss.
func (d *decoder) sideWins(out []model.Outcome, listed, those []int, o model.Outcome) {
	sides := map[int]bool{}
	for _, pl := range those {
		sides[d.side(pl)] = true
	}
	for _, pl := range listed {
		switch {
		case sides[d.side(pl)]:
			out[pl] = o
		case out[pl] == "":
			out[pl] = model.OutcomeLoss
		}
	}
}

// finalPost is a player on stage at the last frame.
type finalPost struct {
	pl      int
	stocks  int
	percent float32
}

// finalPosts are the listed players with a post-frame update at the last
// frame (getWinners' final post-frame updates, followers left out).
func (d *decoder) finalPosts() []finalPost {
	var out []finalPost
	if d.post == nil || d.count == 0 {
		return out
	}
	for pl, port := range d.portOf {
		if port >= 4 || !d.ports[port].used {
			continue
		}
		if p, ok := d.postAt(d.count-1, port); ok {
			out = append(out, finalPost{pl: pl, stocks: int(p.stocks), percent: p.percent})
		}
	}
	return out
}

// lastStocks is the port's stocks in its last post-frame update.
func (d *decoder) lastStocks(port int) (int, bool) {
	if d.post == nil {
		return 0, false
	}
	for fi := d.count - 1; fi >= 0; fi-- {
		if p, ok := d.postAt(fi, port); ok {
			return int(p.stocks), true
		}
	}
	return 0, false
}

// timeOutcome decides a game that ran out of time from the players on
// stage at the end: most stocks, then least percent, by team in a team
// game (getWinners' last-frame rule). Sides tied for first drew.
func (d *decoder) timeOutcome(out []model.Outcome, listed []int, onStage []finalPost) {
	type score struct {
		side    int
		stocks  int
		percent float64
		players []int
	}
	var scores []*score
	bySide := map[int]*score{}
	for _, p := range onStage {
		s := bySide[d.side(p.pl)]
		if s == nil {
			s = &score{side: d.side(p.pl)}
			bySide[s.side] = s
			scores = append(scores, s)
		}
		s.stocks += p.stocks
		s.percent += float64(p.percent)
		s.players = append(s.players, p.pl)
	}
	if len(scores) == 0 {
		return
	}
	better := func(a, b *score) int {
		if c := cmp.Compare(b.stocks, a.stocks); c != 0 {
			return c
		}
		return cmp.Compare(a.percent, b.percent)
	}
	slices.SortStableFunc(scores, better)
	var top []int
	tied := 0
	for _, s := range scores {
		if better(s, scores[0]) == 0 {
			top = append(top, s.players...)
			tied++
		}
	}
	o := model.OutcomeWin
	if tied > 1 {
		o = model.OutcomeDraw
	}
	d.sideWins(out, listed, top, o)
}

// outcomeWords says who won for the end moment ("team blue won (P1 Captain
// Falcon, P2 Ganondorf)", "P2 Marth won", "a draw"), and the first winner.
func (d *decoder) outcomeWords(out []model.Outcome) (string, int) {
	var won, drew []int
	for pl, o := range out {
		switch o {
		case model.OutcomeWin:
			won = append(won, pl)
		case model.OutcomeDraw:
			drew = append(drew, pl)
		}
	}
	names := func(pls []int) string {
		var s []string
		for _, pl := range pls {
			s = append(s, d.r.Players[pl].Label())
		}
		return strings.Join(s, ", ")
	}
	switch {
	case len(won) > 1 && d.isTeams() && d.side(won[0]) == d.side(won[len(won)-1]):
		return "team " + d.r.Players[won[0]].Team + " won (" + names(won) + ")", won[0]
	case len(won) > 0:
		return names(won) + " won", won[0]
	case len(drew) > 0:
		return "a draw (" + names(drew) + ")", -1
	}
	return "", -1
}
