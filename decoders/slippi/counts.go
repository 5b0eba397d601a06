package slippi

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
)

// actions counts what one player did, as slippi-js's ActionsComputer: each
// count is taken on the first frame of an action (a new action state, or
// the same one started again).
func actions(fr *sjsFrames, pl, op int) ActionCounts {
	c := ActionCounts{PlayerIndex: fr.ports[pl]}
	posts, opps := fr.post[pl], fr.post[op]
	lastLCancel := int16(0)
	count := func(n *int, cond bool) {
		if cond {
			*n++
		}
	}
	for k := range posts {
		cur := &posts[k]
		a := cur.action
		prev, prevCounter := int32(-1), math.NaN()
		if k > 0 {
			prev, prevCounter = posts[k-1].action, float64(posts[k-1].counter)
		}
		if a == prev && !(prevCounter > float64(cur.counter)) {
			continue
		}
		count(&c.DashDanceCount, k >= 2 && posts[k-2].action == asDash && prev == asTurn && a == asDash)
		count(&c.RollCount, a == asRollForward || a == asRollBackward)
		count(&c.SpotDodgeCount, a == asSpotDodge)
		count(&c.AirDodgeCount, a == asAirDodge)
		count(&c.LedgegrabCount, a == asCliffCatch)
		count(&c.TauntCount, a == asTauntLeft || a == asTauntRight)

		if prev == asGrab || prev == asDashGrab {
			// grab pull, wait, pummel and throws follow a grab that caught
			if a > asGrab && a <= asThrowDown && a != asDashGrab {
				c.GrabCount.Success++
			} else {
				c.GrabCount.Fail++
			}
		}
		if a == asDashGrab && prev == asAttackDash {
			c.AttackCount.Dash-- // a boost grab is not a dash attack
		}
		at := &c.AttackCount
		count(&at.Jab1, a == asJab1)
		count(&at.Jab2, a == asJab1+1)
		count(&at.Jab3, a == asJab1+2)
		count(&at.Jabm, a == asJab1+3)
		count(&at.Dash, a == asAttackDash)
		count(&at.Ftilt, a >= 0x33 && a <= 0x37)
		count(&at.Utilt, a == 0x38)
		count(&at.Dtilt, a == 0x39)
		count(&at.Fsmash, a >= 0x3A && a <= 0x3E)
		count(&at.Usmash, a == 0x3F)
		count(&at.Dsmash, a == 0x40)
		count(&at.Nair, a == asNair)
		count(&at.Fair, a == asNair+1)
		count(&at.Bair, a == asNair+2)
		count(&at.Uair, a == asNair+3)
		count(&at.Dair, a == asNair+4)
		switch cur.char {
		case 0x18: // Mr. Game & Watch has his own ids for some attacks
			count(&at.Jab1, a == 0x155)
			count(&at.Jabm, a == 0x156)
			count(&at.Dtilt, a == 0x159)
			count(&at.Fsmash, a == 0x15A)
			count(&at.Nair, a == 0x15B)
			count(&at.Bair, a == 0x15C)
			count(&at.Uair, a == 0x15D)
		case 0x09: // Peach's forward smash: golf club, frying pan, tennis racket
			count(&at.Fsmash, a >= 0x15D && a <= 0x15F)
		}
		count(&c.ThrowCount.Up, a == asThrowUp)
		count(&c.ThrowCount.Forward, a == asThrowForward)
		count(&c.ThrowCount.Down, a == asThrowDown)
		count(&c.ThrowCount.Back, a == asThrowBack)

		// Teching in or away is relative to the opponent.
		toOpp := 1.0
		if float64(cur.x) > float64(opps[k].x) {
			toOpp = -1
		}
		facing := float64(cur.facing) == toOpp
		gt := &c.GroundTechCount
		count(&gt.Fail, a == asTechMissDown || a == asDownStart)
		count(&gt.In, a == asForwardTech && facing || a == asBackwardTech && !facing)
		count(&gt.Neutral, a == asNeutralTech)
		count(&gt.Away, a == asBackwardTech && facing || a == asForwardTech && !facing)
		count(&c.WallTechCount.Success, a == asWallTech)
		count(&c.WallTechCount.Fail, a == asMissedWallTech)

		if isAerialLanding(a) {
			count(&c.LCancelCount.Success, cur.lcancel == 1)
			count(&c.LCancelCount.Fail, cur.lcancel == 2)
		}
		if isAerialLanding(prev) && (a == asFall || a == asTeeter) && cur.char >= 0 {
			// An aerial's landing cut short by falling off an edge: an edge
			// cancel when it beat the L-cancelled landing. slippi-js throws
			// for characters its frame data lacks; those are not counted.
			if lag, lcLag, ok := landingLag(cur.char, prev); ok {
				frames := 0
				for i := k - 1; i >= 0 && posts[i].action == prev; i-- {
					frames++
				}
				count(&c.EdgeCancelCount.Success, frames < lcLag)
				count(&c.EdgeCancelCount.Slow, frames >= lcLag && frames < lag)
				if frames <= lcLag && lastLCancel == 2 {
					c.LCancelCount.Fail-- // an edge cancel is no missed L-cancel
				}
			}
		}
		wavedash(&c, posts[:k+1])
		if cur.lcancel > 0 {
			lastLCancel = cur.lcancel
		}
	}
	return c
}

func isAerialLanding(a int32) bool { return a >= asAerialLandStart && a <= asAerialLandEnd }

// wavedash tells a wavedash from a waveland when a special landing follows
// an air dodge or a jump, from the last 15 frames: a knee bend among them
// makes a wavedash, unless the player was airborne for 5 or more of them and
// landed higher or lower (a jump onto a platform).
func wavedash(c *ActionCounts, posts []postVals) {
	k := len(posts) - 1
	if k < 1 || posts[k].action != asLandingSpecial {
		return
	}
	if p := posts[k-1].action; p != asAirDodge && (p < asKneeBend || p > asControlledJumpHi) {
		return
	}
	recent := posts[max(0, k-14):]
	distinct := map[int32]bool{}
	knee := -1
	jumps := 0
	for i := range recent {
		a := recent[i].action
		distinct[a] = true
		if a == asKneeBend {
			knee = i
		}
		if a > asKneeBend && a <= asControlledJumpHi {
			jumps++
		}
	}
	if distinct[asAirDodge] {
		if len(distinct) == 2 {
			return // only the air dodge before landing: a late air dodge
		}
		c.AirDodgeCount-- // an air dodge spent on a wavedash or waveland
	}
	if knee < 0 {
		c.WavelandCount++
		return
	}
	dy := float64(recent[len(recent)-1].y) - float64(recent[knee].y)
	if jumps >= 5 && math.Abs(dy) > 0.1 {
		c.WavelandCount++
	} else {
		c.WavedashCount++
	}
}

// Landing lag of aerials, from ids/melee-landing-lag.tsv: per internal
// character, [nair, fair, bair, uair, dair] x [lag, L-cancelled lag].
var (
	lagOnce  sync.Once
	lagTable map[int][5][2]int
)

func landingLag(char int16, landing int32) (lag, lcLag int, ok bool) {
	lagOnce.Do(func() {
		lagTable = map[int][5][2]int{}
		rows("melee-landing-lag.tsv", func(f []string) {
			id, err := strconv.Atoi(f[0])
			if err != nil || len(f) < 7 {
				return
			}
			var row [5][2]int
			for i := range row {
				a, b, _ := strings.Cut(f[2+i], "/")
				row[i][0], _ = strconv.Atoi(a)
				row[i][1], _ = strconv.Atoi(b)
			}
			lagTable[id] = row
		})
	})
	row, found := lagTable[int(char)]
	if !found || !isAerialLanding(landing) {
		return 0, 0, false
	}
	l := row[landing-asAerialLandStart]
	return l[0], l[1], true
}

// Input counts, in the order inputCounts reports them.
const (
	inTotal = iota
	inJoystick
	inCstick
	inButtons
	inTriggers
)

// triggerOn is how far an analog trigger is pressed for slippi-js's
// InputComputer to count a press.
const triggerOn = 0.3

// countInputs adds to n the new inputs of one player at the k-th processed
// frame (k >= 1), from frame -39 on, as slippi-js's InputComputer.
func countInputs(n *[5]int, k int, cur, prev *preVals) {
	if k+firstFrame < firstPlayable || !cur.ok || !prev.ok {
		return
	}
	b := bits.OnesCount16(^prev.buttons & cur.buttons & 0xfff)
	n[inButtons] += b
	n[inTotal] += b
	if r := cur.joystick; r != prev.joystick && r != 0 {
		n[inJoystick]++
		n[inTotal]++
	}
	if r := cur.cstick; r != prev.cstick && r != 0 {
		n[inCstick]++
		n[inTotal]++
	}
	if prev.lOff && cur.lOn {
		n[inTriggers]++
		n[inTotal]++
	}
	if prev.rOff && cur.rOn {
		n[inTriggers]++
		n[inTotal]++
	}
}

// stickRegion is 0 in the dead zone, else one of 8 directions: 1 up-right,
// 2 down-right, 3 down-left, 4 up-left, 5 up, 6 right, 7 down, 8 left.
func stickRegion(x32, y32 float32) uint8 {
	// each axis past the threshold one way or the other (neither for NaN),
	// looked up rather than tested case by case: a stick moves from frame
	// to frame, and branches on it are mispredicted
	return stickRegions[stickSide(float64(x32))][stickSide(float64(y32))]
}

// stickSide is 1 at or past the threshold, 2 at or past its negative, 0
// between.
func stickSide(v float64) int {
	const t = 0.2875
	s := 0
	if v >= t {
		s = 1
	}
	if v <= -t {
		s = 2
	}
	return s
}

// stickRegions is the region by stickSide of x, then of y.
var stickRegions = [3][3]uint8{
	{0, 5, 7}, // x between: up, down
	{6, 1, 2}, // right: up-right, down-right
	{8, 4, 3}, // left: up-left, down-left
}
