package sc2

import (
	"fmt"
	"sort"

	"rewind/model"
)

// APM as sc2reader counts it (ggtracker/sc2reader, engine/plugins/apm.py,
// APMTracker, and its factory plugin, which agree):
//
//   - an action is every selection event (SelectionDelta, including the
//     ones the game writes when a selected unit dies), every control-group
//     event (ControlGroupUpdate: set, add, recall) and every command (Cmd,
//     and from base build 34784, where sc2reader's reader starts reading
//     them as commands, CmdUpdateTargetPoint and CmdUpdateTargetUnit);
//     camera moves are not actions;
//   - nothing is left out at the start: the first seconds count;
//   - each action counts 1.4 in the game second (16 loops) it falls in,
//     which turns actions per game minute into actions per real minute on
//     Faster (a real second is 1.4 game seconds); rewind takes the game's
//     own speed factor, which is 1.4 on Faster, the speed of every ranked
//     game;
//   - the average is the actions over the game seconds the player played:
//     up to their leave event (loop / 16, whole seconds), else the game's
//     length (loops / 16, whole seconds), times the factor. sc2reader
//     measures a Legacy of the Void game without a leave event in real
//     seconds and so shows 1.4 times the rate; rewind does not.
//
// By minute, sc2reader buckets actions by game minute (960 loops); rewind
// buckets them by the minute of the clock the client showed: game minutes
// before Legacy of the Void (sc2reader's buckets), real minutes (1,344
// loops on Faster) after, each the actions per real minute in it (a last,
// shorter minute is scaled up to a whole one).

// gameSecond is a game second in loops, sc2reader's unit of time.
const gameSecond = 16

// actionCounts are each player's actions: the loops they fall on, in
// order (memory follows the events, not the game's length).
type actionCounts struct {
	loops   [][]int32 // [player]
	total   []int
	leftAt  []int // loop of the player's first leave event, -1 when none
	factor  float64
	counted bool // the replay has game events to count
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

// countActions finds every player's actions and first leave.
func (a *analysis) countActions() actionCounts {
	d := a.d
	n := len(a.r.Players)
	c := actionCounts{loops: make([][]int32, n), total: make([]int, n), leftAt: make([]int, n), factor: d.rate / 16}
	for p := range c.leftAt {
		c.leftAt[p] = -1
	}
	g := d.game
	if g == nil || c.factor <= 0 {
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
		loop := min(int(e.loop), a.last)
		switch {
		case action[e.id]:
			c.loops[p] = append(c.loops[p], int32(loop))
			c.total[p]++
		case leave[e.id] && c.leftAt[p] < 0:
			c.leftAt[p] = loop
		}
	}
	return c
}

// average is sc2reader's avg_apm for a player (see the top of this file).
func (c *actionCounts) average(p, loops int) float64 {
	played := loops / gameSecond
	if c.leftAt[p] >= 0 {
		played = c.leftAt[p] / gameSecond
	}
	if played <= 0 {
		return 0
	}
	return float64(c.total[p]) * c.factor * 60 / float64(played)
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
