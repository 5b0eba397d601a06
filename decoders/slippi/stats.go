package slippi

import (
	"math"
	"strconv"
)

// Stats is the shape of slippi-js 9.1.2's SlippiGame.getStats(), field for
// field and in its key order, so that a script written against slippi-js
// reads rewind's JSON. Where slippi-js leaves a value undefined the key is
// left out (JSON.stringify drops it), and a NaN is written as null.
//
// Like slippi-js, stocks, conversions, combos, action and input counts are
// computed for two-player games only; other games get empty lists and
// overall rows without inputs.
type Stats struct {
	LastFrame          int64          `json:"lastFrame"`
	PlayableFrameCount int64          `json:"playableFrameCount"`
	Stocks             []Stock        `json:"stocks"`
	Conversions        []Conversion   `json:"conversions"`
	Combos             []Combo        `json:"combos"`
	ActionCounts       []ActionCounts `json:"actionCounts"`
	Overall            []Overall      `json:"overall"`
	GameComplete       bool           `json:"gameComplete"`

	frames  int          // how many frames the computers processed (not part of the shape)
	summary *lazySummary // the archive's summary of the game (summary.go; not part of the shape)
}

// Stock is one stock of one player: from the first frame the player is
// alive to the frame the stock count drops.
type Stock struct {
	PlayerIndex    int   `json:"playerIndex"`
	StartFrame     int64 `json:"startFrame"`
	EndFrame       *Int  `json:"endFrame,omitempty"`
	StartPercent   Num   `json:"startPercent"`
	EndPercent     *Num  `json:"endPercent,omitempty"`
	CurrentPercent Num   `json:"currentPercent"`
	Count          *Int  `json:"count,omitempty"`
	DeathAnimation *Int  `json:"deathAnimation,omitempty"`
}

// MoveLanded is one move of a combo or conversion; hits of the same move
// (a multi-hit aerial) add to it.
type MoveLanded struct {
	PlayerIndex int   `json:"playerIndex"`
	Frame       int64 `json:"frame"`
	MoveID      *Int  `json:"moveId,omitempty"`
	HitCount    int   `json:"hitCount"`
	Damage      Num   `json:"damage"`
}

// Punish is what combos and conversions share: from the first hit to the
// end, the percent of the player hit, the moves, and whether the stock was
// taken.
type Punish struct {
	StartFrame     int64        `json:"startFrame"`
	EndFrame       *Int         `json:"endFrame,omitempty"`
	StartPercent   Num          `json:"startPercent"`
	CurrentPercent Num          `json:"currentPercent"`
	EndPercent     *Num         `json:"endPercent,omitempty"`
	Moves          []MoveLanded `json:"moves"`
	DidKill        bool         `json:"didKill"`
}

// Combo is a string of hits on PlayerIndex (the player hit) by LastHitBy.
type Combo struct {
	PlayerIndex int `json:"playerIndex"`
	Punish
	LastHitBy int `json:"lastHitBy"`
}

// Conversion is a punish: an opening on PlayerIndex (the player hit) and
// what LastHitBy made of it, with how the opening came ("neutral-win",
// "counter-attack", "trade").
type Conversion struct {
	PlayerIndex int `json:"playerIndex"`
	LastHitBy   int `json:"lastHitBy"`
	Punish
	OpeningType string `json:"openingType"`
}

// SuccessFail counts attempts that worked and ones that did not.
type SuccessFail struct {
	Success int `json:"success"`
	Fail    int `json:"fail"`
}

// ActionCounts counts what a player did.
type ActionCounts struct {
	PlayerIndex     int `json:"playerIndex"`
	WavedashCount   int `json:"wavedashCount"`
	WavelandCount   int `json:"wavelandCount"`
	AirDodgeCount   int `json:"airDodgeCount"`
	DashDanceCount  int `json:"dashDanceCount"`
	SpotDodgeCount  int `json:"spotDodgeCount"`
	LedgegrabCount  int `json:"ledgegrabCount"`
	RollCount       int `json:"rollCount"`
	TauntCount      int `json:"tauntCount"`
	EdgeCancelCount struct {
		Success int `json:"success"`
		Slow    int `json:"slow"`
	} `json:"edgeCancelCount"`
	LCancelCount SuccessFail `json:"lCancelCount"`
	AttackCount  struct {
		Jab1   int `json:"jab1"`
		Jab2   int `json:"jab2"`
		Jab3   int `json:"jab3"`
		Jabm   int `json:"jabm"`
		Dash   int `json:"dash"`
		Ftilt  int `json:"ftilt"`
		Utilt  int `json:"utilt"`
		Dtilt  int `json:"dtilt"`
		Fsmash int `json:"fsmash"`
		Usmash int `json:"usmash"`
		Dsmash int `json:"dsmash"`
		Nair   int `json:"nair"`
		Fair   int `json:"fair"`
		Bair   int `json:"bair"`
		Uair   int `json:"uair"`
		Dair   int `json:"dair"`
	} `json:"attackCount"`
	GrabCount  SuccessFail `json:"grabCount"`
	ThrowCount struct {
		Up      int `json:"up"`
		Forward int `json:"forward"`
		Back    int `json:"back"`
		Down    int `json:"down"`
	} `json:"throwCount"`
	// Tech away and in are relative to the opponent, not the stage.
	GroundTechCount struct {
		Away    int `json:"away"`
		In      int `json:"in"`
		Neutral int `json:"neutral"`
		Fail    int `json:"fail"`
	} `json:"groundTechCount"`
	WallTechCount SuccessFail `json:"wallTechCount"`
}

// InputCounts counts new inputs: buttons pressed, analog triggers pressed
// past 0.3, sticks moved into a new region (not back to the dead zone).
// The counts are absent for games that are not two-player, as in slippi-js.
type InputCounts struct {
	Buttons  *Int `json:"buttons,omitempty"`
	Triggers *Int `json:"triggers,omitempty"`
	Cstick   *Int `json:"cstick,omitempty"`
	Joystick *Int `json:"joystick,omitempty"`
	Total    *Int `json:"total,omitempty"`
}

// Ratio is count/total; Ratio is absent when total is 0.
type Ratio struct {
	Count *Num `json:"count,omitempty"`
	Total Num  `json:"total"`
	Ratio *Num `json:"ratio,omitempty"`
}

// Overall is one player's summary.
type Overall struct {
	PlayerIndex            int         `json:"playerIndex"`
	InputCounts            InputCounts `json:"inputCounts"`
	ConversionCount        int         `json:"conversionCount"`
	TotalDamage            Num         `json:"totalDamage"`
	KillCount              int         `json:"killCount"`
	SuccessfulConversions  Ratio       `json:"successfulConversions"`
	InputsPerMinute        Ratio       `json:"inputsPerMinute"`
	DigitalInputsPerMinute Ratio       `json:"digitalInputsPerMinute"`
	OpeningsPerKill        Ratio       `json:"openingsPerKill"`
	DamagePerOpening       Ratio       `json:"damagePerOpening"`
	NeutralWinRatio        Ratio       `json:"neutralWinRatio"`
	CounterHitRatio        Ratio       `json:"counterHitRatio"`
	BeneficialTradeRatio   Ratio       `json:"beneficialTradeRatio"`
}

// Num is a JavaScript number: NaN and infinities are written as null, as
// JSON.stringify does, and -0 as 0.
type Num float64

// MarshalJSON writes the number the way JSON.stringify does: ECMAScript's
// Number::toString, the shortest digits that read back as the number, in
// plain decimal from 1e-6 up to 1e21 and with an exponent outside, which
// has no leading zeros ("1.5e-7", "1e+21"). It is what encoding/json
// writes for a float64, made here without a second encoder per number.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return []byte("null"), nil
	case f == 0:
		return []byte("0"), nil
	}
	b := make([]byte, 0, 24)
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64), nil
	}
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	if k := len(b); b[k-4] == 'e' && b[k-3] == '-' && b[k-2] == '0' {
		b[k-2], b = b[k-1], b[:k-1] // Go's two exponent digits: e-07
	}
	return b, nil
}

// Int is an integer slippi-js may leave undefined (a pointer to it is).
// encoding/json writes it as JSON.stringify does.
type Int int64

func numPtr(f float64) *Num { n := Num(f); return &n }
func intPtr(i int64) *Int   { n := Int(i); return &n }

// Action state ids and ranges slippi-js's stats use (its State table).
const (
	asDyingEnd         = 0x0A
	asGroundedStart    = 0x0E
	asTurn             = 0x12
	asDash             = 0x14
	asKneeBend         = 0x18 // also the first controlled-jump state
	asControlledJumpHi = 0x22
	asFall             = 0x1D
	asDamageFall       = 0x26
	asSquatStart       = 0x27
	asSquatEnd         = 0x29
	asLandingSpecial   = 0x2B
	asJab1             = 0x2C
	asAttackDash       = 0x32
	asGroundAttackEnd  = 0x40
	asNair             = 0x41
	asAerialLandStart  = 0x46
	asAerialLandEnd    = 0x4A
	asDamageStart      = 0x4B
	asDamageEnd        = 0x5B
	asDownStart        = 0xB7 // tech miss up
	asDownEnd          = 0xC6
	asJabResetUp       = 0xB9
	asTechMissDown     = 0xBF
	asJabResetDown     = 0xC1
	asNeutralTech      = 0xC7
	asForwardTech      = 0xC8
	asBackwardTech     = 0xC9
	asWallTech         = 0xCA
	asTechEnd          = 0xCC
	asGrab             = 0xD4
	asDashGrab         = 0xD6
	asThrowForward     = 0xDB
	asThrowBack        = 0xDC
	asThrowUp          = 0xDD
	asThrowDown        = 0xDE
	asCaptureStart     = 0xDF
	asCaptureEnd       = 0xE8
	asRollForward      = 0xE9
	asRollBackward     = 0xEA
	asSpotDodge        = 0xEB
	asAirDodge         = 0xEC
	asTeeter           = 0xF5
	asMissedWallTech   = 0xF7
	asCliffCatch       = 0xFC
	asTauntLeft        = 0x108
	asTauntRight       = 0x109
	asBarrelWait       = 0x125
	punishResetFrames  = 45 // frames in control (conversions) or out of stun (combos) that end a punish
)

func isDead(a int32) bool { return a >= 0 && a <= asDyingEnd }

func isDamaged(a int32) bool {
	return a >= asDamageStart && a <= asDamageEnd || a == asDamageFall || a == asJabResetUp || a == asJabResetDown
}

func isGrabbed(a int32) bool { return a >= asCaptureStart && a <= asCaptureEnd }

// isCommandGrabbed: the states of being held by a command grab (Bowser's
// side B, Kirby's and Yoshi's neutral B, ...), except the barrel.
func isCommandGrabbed(a int32) bool {
	return (a >= 0x10A && a <= 0x130 || a >= 0x147 && a <= 0x152) && a != asBarrelWait
}

func isInControl(a int32) bool {
	return a >= asGroundedStart && a <= asKneeBend || a >= asSquatStart && a <= asSquatEnd ||
		a > asJab1 && a <= asGroundAttackEnd || a == asGrab
}

func isTeching(a int32) bool { return a >= asNeutralTech && a <= asTechEnd }
func isDown(a int32) bool    { return a >= asDownStart && a <= asDownEnd }

// lostStock is slippi-js's didLoseStock: the stock count went down.
func lostStock(cur, prev *postVals) bool {
	return prev != nil && stocksDropped(prev.stocks, cur.stocks)
}

// stocksDropped reports whether a stock count (-1: absent) went down.
func stocksDropped(prev, cur int16) bool { return cur >= 0 && prev >= 0 && prev > cur }

// computeStats runs slippi-js's stat computers over the processed frames.
func computeStats(w *sjsWalk, fr *sjsFrames, isTeams bool, teams []int) *Stats {
	st := &Stats{
		LastFrame:    firstFrame - 1,
		GameComplete: w.gameEnd,
		Stocks:       []Stock{}, Conversions: []Conversion{}, Combos: []Combo{}, ActionCounts: []ActionCounts{},
	}
	if w.hasLatest {
		st.LastFrame = w.latest
		if w.latest >= firstPlayable {
			st.PlayableFrameCount = w.latest - firstPlayable
		}
	}
	var inputs [][5]int
	var convs []*punish
	if len(fr.ports) == 2 {
		st.frames = len(fr.post[0])
		perms := [2][2]int{{0, 1}, {1, 0}}
		st.Stocks = stocks(fr, perms)
		combos := punishes(fr, perms, false)
		convs = punishes(fr, perms, true)
		openingTypes(convs)
		for _, c := range combos {
			st.Combos = append(st.Combos, Combo{PlayerIndex: fr.ports[c.victim], Punish: c.Punish, LastHitBy: fr.ports[c.attacker]})
		}
		for _, c := range convs {
			st.Conversions = append(st.Conversions, Conversion{PlayerIndex: fr.ports[c.victim], LastHitBy: fr.ports[c.attacker], Punish: c.Punish, OpeningType: c.opening})
		}
		for _, pm := range perms {
			st.ActionCounts = append(st.ActionCounts, actions(fr, pm[0], pm[1]))
			inputs = append(inputs, fr.inputs[pm[0]])
		}
	}
	st.Overall = overall(fr.ports, inputs, convs, st.PlayableFrameCount, isTeams, teams)
	return st
}

// stocks follows each player's stocks: one starts on the first frame the
// player is not dead and ends when the stock count drops.
func stocks(fr *sjsFrames, perms [2][2]int) []Stock {
	out := []Stock{}
	open := [2]int{-1, -1}
	for k := range fr.post[0] {
		num := int64(k + firstFrame)
		for _, pm := range perms {
			pl := pm[0]
			cur := &fr.post[pl][k]
			var prev *postVals
			if k > 0 {
				prev = &fr.post[pl][k-1]
			}
			switch {
			case open[pl] < 0:
				if isDead(cur.action) {
					continue
				}
				s := Stock{PlayerIndex: fr.ports[pl], StartFrame: num}
				if cur.stocks >= 0 {
					s.Count = intPtr(int64(cur.stocks))
				}
				open[pl] = len(out)
				out = append(out, s)
			case lostStock(cur, prev):
				s := &out[open[pl]]
				s.EndFrame = intPtr(num)
				s.EndPercent = numPtr(float64(prev.percent))
				s.DeathAnimation = intPtr(int64(cur.action))
				open[pl] = -1
			default:
				out[open[pl]].CurrentPercent = Num(cur.percent)
			}
		}
	}
	return out
}

// punish is a combo or a conversion while it is computed, between player
// indices into sjsFrames.
type punish struct {
	victim, attacker int
	Punish
	opening string
}

// punishes finds combos (conversion false) or conversions. Both start when
// the opponent is hit or grabbed and collect the moves that deal damage;
// they end when the opponent loses the stock or, for a combo, after 45
// frames out of hitstun, grabs, techs and downs, for a conversion after 45
// frames since the opponent was first back in control.
func punishes(fr *sjsFrames, perms [2][2]int, conversion bool) []*punish {
	type state struct {
		cur     *punish
		move    int   // index of the move being extended in cur.Moves, -1 none
		reset   int   // the reset counter
		lastHit int32 // the attacker's action when it last hit; -1 none
	}
	var out []*punish
	states := [2]state{{move: -1, lastHit: -1}, {move: -1, lastHit: -1}}
	for k := range fr.post[0] {
		num := int64(k + firstFrame)
		for i, pm := range perms {
			s := &states[i]
			pl, op := pm[0], pm[1]
			cur, opp := &fr.post[pl][k], &fr.post[op][k]
			var prev, prevOpp *postVals
			if k > 0 {
				prev, prevOpp = &fr.post[pl][k-1], &fr.post[op][k-1]
			}
			hit := isDamaged(opp.action) || isGrabbed(opp.action) || isCommandGrabbed(opp.action)
			damage := 0.0
			if prevOpp != nil {
				damage = float64(opp.percent) - float64(prevOpp.percent)
			}
			// A new move starts when the attacker's action changed since
			// its last hit, or the same action started again (Ganondorf's
			// jab twice); slippi-js compares the frame counters, which old
			// files lack (NaN never compares true, like undefined).
			prevCounter := 0.0
			if prev != nil {
				prevCounter = float64(prev.counter)
			}
			if cur.action != s.lastHit || float64(cur.counter) < prevCounter {
				s.lastHit = -1
			}
			if hit {
				if s.cur == nil {
					s.cur = &punish{victim: op, attacker: pl, Punish: Punish{StartFrame: num, CurrentPercent: Num(opp.percent), Moves: []MoveLanded{}}}
					if prevOpp != nil {
						s.cur.StartPercent = Num(prevOpp.percent)
					}
					out = append(out, s.cur)
				}
				if damage != 0 && !math.IsNaN(damage) {
					if s.lastHit < 0 {
						mv := MoveLanded{PlayerIndex: fr.ports[pl], Frame: num}
						if cur.attack >= 0 {
							mv.MoveID = intPtr(int64(cur.attack))
						}
						s.cur.Moves = append(s.cur.Moves, mv)
						s.move = len(s.cur.Moves) - 1
					}
					if s.move >= 0 {
						s.cur.Moves[s.move].HitCount++
						s.cur.Moves[s.move].Damage += Num(damage)
					}
					// the previous frame's action is the move that connected
					s.lastHit = -1
					if prev != nil {
						s.lastHit = prev.action
					}
				}
			}
			if s.cur == nil {
				continue
			}
			killed := lostStock(opp, prevOpp)
			if !killed {
				s.cur.CurrentPercent = Num(opp.percent)
			}
			if conversion {
				if hit {
					s.reset = 0
				}
				if s.reset > 0 || s.reset == 0 && isInControl(opp.action) {
					s.reset++
				}
			} else if hit || isTeching(opp.action) || isDown(opp.action) || isDead(opp.action) {
				s.reset = 0
			} else {
				s.reset++
			}
			if killed {
				s.cur.DidKill = true
			}
			if killed || s.reset > punishResetFrames {
				s.cur.EndFrame, s.cur.EndPercent = intPtr(num), numPtr(0)
				if prevOpp != nil {
					*s.cur.EndPercent = Num(prevOpp.percent)
				}
				s.cur, s.move = nil, -1
			}
		}
	}
	return out
}

// openingTypes labels conversions as slippi-js does after the fact:
// conversions that start on the same frame are a trade; otherwise one that
// starts before the attacker's own last punishment ended is a
// counter-attack, and the rest are neutral wins.
func openingTypes(convs []*punish) {
	lastEnd := map[int]int64{} // by player hit: end of the last conversion on them (0: none or still going)
	for i := 0; i < len(convs); {
		// conversions are in start order; group the ones sharing a start
		j := i + 1
		for j < len(convs) && convs[j].StartFrame == convs[i].StartFrame {
			j++
		}
		for _, c := range convs[i:j] {
			lastEnd[c.victim] = 0
			if c.EndFrame != nil {
				lastEnd[c.victim] = int64(*c.EndFrame)
			}
			if j-i >= 2 {
				c.opening = "trade"
				continue
			}
			// With no moves slippi-js looks up the player hit instead.
			who := c.victim
			if len(c.Moves) > 0 {
				who = c.attacker
			}
			if e := lastEnd[who]; e != 0 && e > c.StartFrame {
				c.opening = "counter-attack"
			} else {
				c.opening = "neutral-win"
			}
		}
		i = j
	}
}

// overall sums up each player as slippi-js's generateOverallStats. Players
// are indices into ports; inputs are per player for two-player games, nil
// otherwise; convs are the conversions with player indices.
func overall(ports []int, inputs [][5]int, convs []*punish, playable int64, isTeams bool, teams []int) []Overall {
	minutes := float64(playable) / 3600
	// openings by who opened (the first move's player; -1 with no moves)
	// and how
	type key struct {
		by      int
		opening string
	}
	openings := map[key][]*punish{}
	for _, c := range convs {
		by := -1
		if len(c.Moves) > 0 {
			by = c.attacker
		}
		k := key{by, c.opening}
		openings[k] = append(openings[k], c)
	}
	out := []Overall{}
	for i, port := range ports {
		o := Overall{PlayerIndex: port}
		var total, buttons *float64
		if len(inputs) == len(ports) {
			in := inputs[i]
			o.InputCounts = InputCounts{Buttons: intPtr(int64(in[inButtons])), Triggers: intPtr(int64(in[inTriggers])),
				Cstick: intPtr(int64(in[inCstick])), Joystick: intPtr(int64(in[inJoystick])), Total: intPtr(int64(in[inTotal]))}
			t, b := float64(in[inTotal]), float64(in[inButtons])
			total, buttons = &t, &b
		}
		var opponents []int
		for j := range ports {
			if j != i && (!isTeams || teams[j] != teams[i]) {
				opponents = append(opponents, j)
			}
		}
		successful := 0
		damage := 0.0
		for _, c := range convs {
			if c.victim == i {
				continue
			}
			o.ConversionCount++
			if c.DidKill && c.attacker == i {
				o.KillCount++
			}
			if len(c.Moves) > 1 && c.Moves[0].PlayerIndex == port {
				successful++
			}
			for _, m := range c.Moves {
				if m.PlayerIndex == port {
					damage += float64(m.Damage)
				}
			}
		}
		o.TotalDamage = Num(damage)
		count := float64(o.ConversionCount)
		o.SuccessfulConversions = ratio(float64(successful), count)
		o.InputsPerMinute = ratioOf(total, minutes)
		o.DigitalInputsPerMinute = ratioOf(buttons, minutes)
		o.OpeningsPerKill = ratio(count, float64(o.KillCount))
		o.DamagePerOpening = ratio(damage, count)
		share := func(opening string) Ratio {
			mine := len(openings[key{i, opening}])
			theirs := 0
			for _, j := range opponents {
				theirs += len(openings[key{j, opening}])
			}
			return ratio(float64(mine), float64(mine+theirs))
		}
		o.NeutralWinRatio = share("neutral-win")
		o.CounterHitRatio = share("counter-attack")
		// Trades are paired in order with the opponents' trades; a trade
		// benefits the player who killed, or else dealt more damage.
		mine := openings[key{i, "trade"}]
		var theirs []*punish
		for _, j := range opponents {
			theirs = append(theirs, openings[key{j, "trade"}]...)
		}
		benefits := 0
		for k := 0; k < min(len(mine), len(theirs)); k++ {
			p, q := mine[k], theirs[k]
			if p.DidKill && !q.DidKill || p.CurrentPercent-p.StartPercent > q.CurrentPercent-q.StartPercent {
				benefits++
			}
		}
		o.BeneficialTradeRatio = ratio(float64(benefits), float64(len(mine)))
		out = append(out, o)
	}
	return out
}

func ratio(count, total float64) Ratio { return ratioOf(&count, total) }

// ratioOf is slippi-js's getRatio: count/total when total is a non-zero
// number; an undefined count (nil) divides to NaN.
func ratioOf(count *float64, total float64) Ratio {
	r := Ratio{Total: Num(total)}
	if count != nil {
		r.Count = numPtr(*count)
	}
	if total != 0 && !math.IsNaN(total) {
		q := math.NaN()
		if count != nil {
			q = *count / total
		}
		r.Ratio = numPtr(q)
	}
	return r
}
