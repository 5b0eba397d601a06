package sc2

import (
	"fmt"

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

// apmBucket is the width in loops of the action counts: a game second.
const apmBucket = 16

// actionCounts are each player's actions per game second.
type actionCounts struct {
	perSecond [][]int32 // [player][loop/16]
	total     []int
	leftAt    []int // loop of the player's first leave event, -1 when none
	factor    float64
	counted   bool // the replay has game events to count
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

// countActions counts every player's actions by game second.
func (a *analysis) countActions() actionCounts {
	d := a.d
	n := len(a.r.Players)
	c := actionCounts{perSecond: make([][]int32, n), total: make([]int, n), leftAt: make([]int, n),
		factor: d.rate / 16}
	for p := range c.leftAt {
		c.leftAt[p] = -1
	}
	g := d.game
	if g == nil || c.factor <= 0 {
		return c
	}
	c.counted = true
	seconds := a.last/apmBucket + 1
	for p := range c.perSecond {
		c.perSecond[p] = make([]int32, seconds)
	}
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
			c.perSecond[p][loop/apmBucket]++
			c.total[p]++
		case leave[e.id] && c.leftAt[p] < 0:
			c.leftAt[p] = loop
		}
	}
	return c
}

// average is sc2reader's avg_apm for a player (see the top of this file).
func (c *actionCounts) average(p, loops int) float64 {
	played := loops / apmBucket
	if c.leftAt[p] >= 0 {
		played = c.leftAt[p] / apmBucket
	}
	if played <= 0 {
		return 0
	}
	return float64(c.total[p]) * c.factor * 60 / float64(played)
}

// inWindow sums a player's actions in the game seconds [from, to).
func (c *actionCounts) inWindow(p, from, to int) int {
	s := c.perSecond[p]
	from, to = max(from, 0), min(to, len(s))
	n := 0
	for i := from; i < to; i++ {
		n += int(s[i])
	}
	return n
}

// byMinute is the APM in each clock minute of minuteLoops loops.
func (c *actionCounts) byMinute(p, minuteLoops, count int, rate float64) []float64 {
	var out []float64
	per := minuteLoops / apmBucket
	for start := 0; start < count; start += minuteLoops {
		loops := min(minuteLoops, count-start)
		n := c.inWindow(p, start/apmBucket, start/apmBucket+per)
		out = append(out, float64(n)*60*rate/float64(loops))
	}
	return out
}

// chart is APM over time: at each sample, the actions of the last real
// minute (fewer seconds at the start count as a whole minute, so the line
// rises from zero instead of jumping on the first clicks).
func (c *actionCounts) chart(r *model.Replay, samples int) model.Chart {
	ch := model.Chart{Title: "APM (actions in the last real minute, as sc2reader counts them)"}
	count := r.Timeline.Count
	window := int(60*r.Timeline.Rate+apmBucket-1) / apmBucket // game seconds in a real minute
	for p := range c.perSecond {
		if c.total[p] == 0 {
			continue
		}
		s := model.Series{Label: r.Players[p].Name, Player: p, Values: make([]float64, samples)}
		// a running sum over the window, moved forward sample by sample
		sum, lo, hi := 0, 0, 0
		for i := range s.Values {
			sec := (i*count/samples)/apmBucket + 1
			for hi < sec && hi < len(c.perSecond[p]) {
				sum += int(c.perSecond[p][hi])
				hi++
			}
			for lo < sec-window {
				if lo < hi {
					sum -= int(c.perSecond[p][lo])
				}
				lo++
			}
			s.Values[i] = float64(sum)
		}
		ch.Series = append(ch.Series, s)
	}
	return ch
}

// apmText formats an APM for a table cell.
func apmText(v float64) model.Field {
	return model.Field{Value: v, Name: fmt.Sprintf("%.0f", v)}
}
