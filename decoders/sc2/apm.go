package sc2

import (
	"fmt"
	"sort"

	"rewind/model"
)

// APM as sc2reader 1.8 counts it (ggtracker/sc2reader, engine/plugins/
// apm.py, APMTracker), so that a script comparing the two reads the same
// number ("apm" in the stats JSON, "APM (sc2reader's count)" in the
// table). The game's own figure, in replay.gamemetadata.json, is another
// number ("gameApm", "APM (the game's)").
//
//   - An action is every selection event (SelectionDelta, the ones the game
//     writes when a selected unit dies included), every control-group event
//     (ControlGroupUpdate: set, add, recall, clear) and every command (Cmd,
//     and from base build 34784, where sc2reader's reader starts reading
//     them as commands, CmdUpdateTargetPoint and CmdUpdateTargetUnit);
//     camera moves are not actions.
//   - Each action counts 1.4, at any game speed (sc2reader's constant: a
//     real second on Faster is 1.4 game seconds).
//   - The average is the player's actions × 1.4 × 60 over the seconds the
//     player played: the game second (loop / 16, whole seconds) of the
//     player's last leave event when there is one; else the replay's
//     length as sc2reader measures it, whole seconds of real time (loops /
//     22.4) for clients of build 34784 and later, of game time (loops / 16)
//     before. So a Legacy of the Void player who stayed to the end is
//     measured in real seconds and one who left in game seconds: sc2reader
//     mixes the two, and rewind follows it.
//   - A player with no action has 0; so has one who played no whole second.
//   - sc2reader gives APM to the lobby's humans (a slot of m_control 2), not
//     to computers; its GameHeart normalizer moves every event of a
//     GameHeart game (pre-LotV, the players' first town halls born after
//     loop 0) back to the start of the play (gameHeartStart), which moves
//     the leave events and so the seconds played.
//
// By minute, sc2reader buckets actions by game minute (960 loops); rewind
// buckets them by the minute of the game's clock (clock.go): game minutes
// before Legacy of the Void (sc2reader's buckets), real minutes (1,344
// loops on Faster) after, each the actions per real minute in it (a last,
// shorter minute is scaled up to a whole one).

// gameSecond is a game second in loops, sc2reader's unit of time.
const gameSecond = 16

// actionWeight is what sc2reader adds for an action: 1.4, the real
// minute of Faster in game minutes.
const actionWeight = 1.4

// actionCounts are each player's actions: the loops they fall on, in
// order (memory follows the events, not the game's length).
type actionCounts struct {
	loops    [][]int32 // [player]
	total    []int
	leftAt   []int // loop of the player's first leave event, -1 when none
	lastLeft []int // loop of the player's last leave event, -1 when none
	human    []bool
	length   int // the replay's length in sc2reader's seconds
	start    int // the loop sc2reader counts a leave from (gameHeartStart)
	counted  bool
}

// gameEventRoles tells for each event id of a game stream whether it is
// an action and whether it is a player leaving.
func (d *decoder) gameEventRoles(g *gameStream) (action, leave []bool) {
	action = make([]bool, len(g.table.events))
	leave = make([]bool, len(g.table.events))
	for id, et := range g.table.events {
		switch et.Name {
		case "Cmd", "SelectionDelta", "ControlGroupUpdate":
			action[id] = true
		case "CmdUpdateTargetPoint", "CmdUpdateTargetUnit":
			action[id] = d.baseBuild >= 34784
		case "PlayerLeave", "GameUserLeave":
			leave[id] = true
		}
	}
	return action, leave
}

// countActions finds every player's actions and leaves.
func (a *analysis) countActions() actionCounts {
	d := a.d
	n := len(a.r.Players)
	c := actionCounts{loops: make([][]int32, n), total: make([]int, n), leftAt: make([]int, n), lastLeft: make([]int, n),
		human: d.lobbyHumans(), length: d.sc2readerLength(), start: d.gameHeartStart()}
	for p := range c.leftAt {
		c.leftAt[p], c.lastLeft[p] = -1, -1
	}
	g := d.game
	if g == nil {
		return c
	}
	c.counted = true
	action, leave := d.gameEventRoles(g)
	for i := range g.events {
		e := &g.events[i]
		if int(e.id) >= len(action) {
			continue
		}
		p := d.gamePlayer(int(e.user))
		if p < 0 || p >= n {
			continue
		}
		switch {
		case action[e.id]:
			c.loops[p] = append(c.loops[p], int32(min(int(e.loop), a.last)))
			c.total[p]++
		case leave[e.id]:
			if c.leftAt[p] < 0 {
				c.leftAt[p] = min(int(e.loop), a.last)
			}
			c.lastLeft[p] = int(e.loop)
		}
	}
	return c
}

// seconds is how long sc2reader says a player played (see the top of
// this file).
func (c *actionCounts) seconds(p int) int {
	l := c.lastLeft[p]
	switch {
	case l < 0:
		return c.length
	case c.start == 0:
		return l / gameSecond
	case l < c.start:
		return 0
	}
	return (l - c.start) / gameSecond
}

// average is sc2reader's avg_apm for a player; ok false for a player
// sc2reader gives none (a computer).
func (c *actionCounts) average(p int) (apm float64, ok bool) {
	if p >= len(c.human) || !c.human[p] {
		return 0, false
	}
	s := c.seconds(p)
	if c.total[p] == 0 || s <= 0 {
		return 0, true
	}
	return float64(c.total[p]) * actionWeight * 60 / float64(s), true
}

// before counts a player's actions at loops below loop.
func (c *actionCounts) before(p, loop int) int {
	ls := c.loops[p]
	return sort.Search(len(ls), func(i int) bool { return int(ls[i]) >= loop })
}

// byMinute is the APM in each clock minute of minuteLoops loops.
func (c *actionCounts) byMinute(p, minuteLoops, count int, rate float64) []float64 {
	var out []float64
	for start := 0; start < count; start += minuteLoops {
		loops := min(minuteLoops, count-start)
		n := c.before(p, start+minuteLoops) - c.before(p, start)
		out = append(out, float64(n)*60*rate/float64(loops))
	}
	return out
}

// chart is APM over time ("APM" in the chart lane): at each sample, the
// actions sc2reader counts in the last real minute (fewer seconds at the
// start count as a whole minute, so the line rises from zero instead of
// jumping on the first clicks).
func (c *actionCounts) chart(r *model.Replay, samples int) model.Chart {
	ch := model.Chart{Title: "APM"}
	count := r.Timeline.Count
	window := int(60*r.Timeline.Rate + 0.5) // loops in a real minute
	for p, ls := range c.loops {
		if len(ls) == 0 {
			continue
		}
		s := model.Series{Label: r.Players[p].Name, Player: p, Values: make([]float64, samples)}
		lo, hi := 0, 0 // the actions in (frame-window, frame]
		for i := range s.Values {
			f := i * count / samples
			for hi < len(ls) && int(ls[hi]) <= f {
				hi++
			}
			for lo < hi && int(ls[lo]) <= f-window {
				lo++
			}
			s.Values[i] = float64(hi - lo)
		}
		ch.Series = append(ch.Series, s)
	}
	return ch
}

// apmText formats an APM for a table cell.
func apmText(v float64) model.Field {
	return model.Field{Value: v, Name: fmt.Sprintf("%.0f", v)}
}

// sc2readerLength is the replay's length in whole seconds as sc2reader
// measures it (Replay.length): loops / 22.4 for clients of build 34784
// and later, loops / 16 before; for the HotS beta (base build 23925) the
// last event's loop when it is past the header's.
func (d *decoder) sc2readerLength() int {
	loops := d.loops
	if d.baseBuild == 23925 {
		loops = max(loops, d.lastEventLoop())
	}
	if d.build >= 34784 {
		return int(float64(loops) / (gameSecond * actionWeight))
	}
	return loops / gameSecond
}

// lastEventLoop is the loop of the last event of any stream, before the
// timeline holds it to the header's length.
func (d *decoder) lastEventLoop() int {
	last := 0
	if g := d.game; g != nil && len(g.events) > 0 {
		last = max(last, int(g.events[len(g.events)-1].loop))
	}
	if t := d.tr; t != nil && t.events.len() > 0 {
		last = max(last, int(t.events.at(t.events.len()-1).loop))
	}
	if m := d.msgs; m != nil && len(m.events) > 0 {
		last = max(last, int(m.events[len(m.events)-1].raw.loop))
	}
	return last
}

// lobbyHumans tells which players a person played, as sc2reader has it:
// the players seated in a participant's slot of the lobby (m_control 2,
// not observing; seatPlayers). Without a lobby, every player that
// replay.details does not mark a computer or an observer.
func (d *decoder) lobbyHumans() []bool {
	n := len(d.r.Players)
	out := make([]bool, n)
	if d.init == nil || len(d.init.slots) == 0 {
		for p := range out {
			out[p] = p < len(d.players) && d.players[p].control != 3 && !(d.players[p].observe != 0 && d.players[p].result == 0)
		}
		return out
	}
	for _, s := range d.init.slots {
		if s.control == 2 && s.observe == 0 && s.seat >= 0 && s.seat < n {
			out[s.seat] = true
		}
	}
	return out
}

// gameHeartStart is the loop sc2reader's GameHeart normalizer takes for
// the start of the play (gameheart.go), 0 when it leaves the replay alone,
// -1 when no player's town hall is born (sc2reader then moves every event
// a loop later).
func (d *decoder) gameHeartStart() int {
	t := d.tr
	if t == nil || t.events.len() == 0 || d.expansion == "LotV" {
		return 0
	}
	i := 0
	return gameHeartOf(func() (birth, bool) {
		if i >= t.events.len() {
			return birth{}, false
		}
		e := t.events.at(i)
		i++
		b := birth{loop: int(e.loop)}
		if e.id == tUnitBorn && e.unit >= 0 {
			if u := t.units.at(int(e.unit)); u.born == e.loop {
				b.born, b.control, b.unit = true, int64(u.hist[0].owner), t.types[u.hist[0].typ]
			}
		}
		return b, true
	}).start
}
