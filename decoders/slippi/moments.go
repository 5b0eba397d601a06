package slippi

import (
	"fmt"
	"sort"
	"strings"

	"rewind/model"
)

// moments lists what happened in the game, in frame order: every stock lost
// (who took it and with which move), the conversions and combos of a
// two-player game as ranges (from slippi-js's stats: conversions are all
// openings, combos only those of two moves or more, since every single hit
// starts a combo), and the end of the game.
func (d *decoder) moments(st *Stats, index func(num int64) int) []model.Moment {
	var ms []model.Moment
	for port := 0; port < maxSlots; port++ {
		if d.playerOf[port] >= 0 {
			ms = d.stockLosses(ms, port)
		}
	}
	if st != nil {
		ms = d.punishMoments(ms, st, index)
	}
	if m, ok := d.endMoment(); ok {
		ms = append(ms, m)
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Frame < ms[j].Frame })
	return ms
}

// stockLosses adds a moment for each stock the port lost. The stock goes to
// the player the game credits (the victim's Last Hit By on the frame before,
// which the game clears when no one gets the kill), and the move is that
// player's last attack landed on the last frame the victim took damage.
func (d *decoder) stockLosses(ms []model.Moment, port int) []model.Moment {
	victim := d.playerOf[port]
	var prev postVals
	have := false
	lastDamage := -1 // frame index of the last damage taken during this stock
	for fi := 0; fi < d.count; fi++ {
		cur, ok := d.postAt(fi, port)
		if !ok {
			continue
		}
		if have && lostStock(&cur, &prev) {
			m := model.Moment{Kind: model.MomentStock, Frame: fi, End: fi, By: -1, On: victim,
				Span: model.Span{Off: int64(d.post[fi*d.slots+port]), Len: int64(1 + d.size[cmdPost])}}
			left := int64(cur.stocks)
			pct := float64(prev.percent)
			m.Fields = append(m.Fields,
				model.Field{Key: "frame", Label: "Frame", Value: d.first + int64(fi), Name: d.frameLabel(fi)},
				model.Field{Key: "stocksRemaining", Label: "Stocks left", Value: left},
				model.Field{Key: "percent", Label: "Percent", Value: pct, Name: fmt.Sprintf("%.0f%%", pct)})
			how := "by self-destruct"
			if k := int(prev.hitBy); k >= 0 && k < maxSlots && k != port && d.playerOf[k] >= 0 && lastDamage >= 0 {
				m.By = d.playerOf[k]
				who := d.who(k, fi)
				how = "to " + who
				m.Fields = append(m.Fields, model.Field{Key: "lastHitBy", Label: "Taken by", Value: int64(m.By), Name: d.r.Players[m.By].Label()})
				if atk, ok := d.postAt(lastDamage, k); ok && atk.attack > 0 {
					if name := moveText(int(atk.attack)); name != "" {
						how = fmt.Sprintf("to %s's %s", who, name)
					}
					m.Fields = append(m.Fields, model.Field{Key: "moveId", Label: "Move", Value: int64(atk.attack), Name: moveName(int(atk.attack))})
				}
			}
			if left == 0 {
				m.Summary = fmt.Sprintf("lost the last stock %s at %.0f%%", how, pct)
			} else {
				m.Summary = fmt.Sprintf("lost a stock %s at %.0f%% (%d left)", how, pct, left)
			}
			ms = append(ms, m)
			lastDamage = -1
		} else if have && cur.percent > prev.percent {
			lastDamage = fi
		}
		prev, have = cur, true
	}
	return ms
}

// who names a player in a summary: the character (Sheik or Zelda as they
// are at the frame), with the slot when another player has the same one.
func (d *decoder) who(port, fi int) string {
	pl := d.playerOf[port]
	name := d.r.Players[pl].Character
	if c := d.charAt(fi, port, false); c == 7 || c == 19 {
		name = internalName(c)
	}
	for i, p := range d.r.Players {
		if i != pl && p.Character == d.r.Players[pl].Character {
			return d.r.Players[pl].Slot + " " + name
		}
	}
	return name
}

func (d *decoder) frameLabel(fi int) string {
	if d.r.Timeline.LabelOf != nil {
		return d.r.Timeline.LabelOf(fi)
	}
	return fmt.Sprint(d.first + int64(fi))
}

// moveText is a move's name as a sentence uses it ("up smash", "neutral
// B"); "" for the miscellaneous id and ids the table lacks.
func moveText(id int) string {
	if id <= 1 {
		return ""
	}
	name := moveName(id)
	words := strings.Fields(name)
	for i, w := range words {
		if len(w) > 1 {
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}

// punishMoments adds slippi-js's conversions and combos as ranges: Player
// is the one who hit, Other the one hit.
func (d *decoder) punishMoments(ms []model.Moment, st *Stats, index func(int64) int) []model.Moment {
	last := index(st.LastFrame)
	add := func(kind model.MomentKind, word string, victim, by int, p *Punish) {
		if victim < 0 || victim >= 4 || by < 0 || by >= 4 || d.playerOf[victim] < 0 || d.playerOf[by] < 0 {
			return
		}
		m := model.Moment{Kind: kind, Frame: max(index(p.StartFrame), 0), End: last, By: d.playerOf[by], On: d.playerOf[victim]}
		if p.EndFrame != nil {
			m.End = index(int64(*p.EndFrame))
		}
		m.End = max(m.End, m.Frame)
		dmg := float64(p.CurrentPercent - p.StartPercent)
		if p.EndPercent != nil {
			dmg = float64(*p.EndPercent - p.StartPercent)
		}
		moves := p.Moves
		var names []string
		for _, mv := range moves {
			n := "hit"
			if mv.MoveID != nil {
				if t := moveText(int(*mv.MoveID)); t != "" {
					n = t
				}
			}
			names = append(names, n)
		}
		if len(names) > 8 {
			names = append(names[:7], fmt.Sprintf("… %d more", len(names)-7))
		}
		hits := "1 hit"
		if len(moves) != 1 {
			hits = fmt.Sprintf("%d hits", len(moves))
		}
		// the kind is said by the moment's Kind; the summary says how it
		// opened (conversions), how much, on whom and with what
		s := fmt.Sprintf("%s, %.0f%%", hits, dmg)
		if word != "" {
			s = word + ": " + s
		}
		if who := d.r.Players[d.playerOf[victim]].Character; who != "" {
			s += " on " + who
		}
		if len(moves) > 0 {
			s += " (" + strings.Join(names, ", ") + ")"
		}
		if p.DidKill {
			s += ", took the stock"
		}
		m.Summary = s
		m.Fields = []model.Field{
			{Key: "startFrame", Label: "Start frame", Value: p.StartFrame},
			{Key: "moves", Label: "Moves", Value: int64(len(moves))},
			{Key: "damage", Label: "Damage", Value: dmg, Name: fmt.Sprintf("%.1f%%", dmg)},
			{Key: "didKill", Label: "Took the stock", Value: p.DidKill},
		}
		if p.EndFrame != nil {
			m.Fields = append(m.Fields, model.Field{Key: "endFrame", Label: "End frame", Value: int64(*p.EndFrame)})
		}
		ms = append(ms, m)
	}
	for i := range st.Conversions {
		c := &st.Conversions[i]
		add(model.MomentConversion, strings.ReplaceAll(c.OpeningType, "-", " "), c.PlayerIndex, c.LastHitBy, &c.Punish)
	}
	for i := range st.Combos {
		if c := &st.Combos[i]; len(c.Moves) >= 2 {
			add(model.MomentCombo, "", c.PlayerIndex, c.LastHitBy, &c.Punish)
		}
	}
	return ms
}

// stocksOut reports whether the game ended because stocks ran out: GAME!
// (Game End method 2), "resolved" (3) before 2.0.0.
func (d *decoder) stocksOut() bool {
	if d.endOff < 0 || 1+int(d.size[cmdEnd]) < 2 {
		return false
	}
	m := d.data[d.endOff+1]
	return d.version >= v200 && m == 2 || d.version < v200 && m == 3
}

// endMoment is the Game End: how the game ended and who won.
func (d *decoder) endMoment() (model.Moment, bool) {
	if d.endOff < 0 {
		return model.Moment{}, false
	}
	evs := d.r.Events
	for i := len(evs) - 1; i >= 0; i-- {
		ev := &evs[i]
		if ev.Kind != kEnd || ev.Span.Off != int64(d.endOff) {
			continue
		}
		m := model.Moment{Kind: model.MomentEnd, Frame: ev.Frame, End: ev.Frame, By: -1, On: -1, Span: ev.Span}
		m.Summary = "game ended: " + d.r.Result
		var won []string
		for pl, p := range d.r.Players {
			if p.Result == "1st" {
				won = append(won, p.Label())
				if m.By < 0 {
					m.By = pl
				}
			}
		}
		if len(won) == 0 && d.stocksOut() {
			// no placements (before 3.13): whoever has stocks left won
			for port := 0; port < maxSlots; port++ {
				pl := d.playerOf[port]
				if pl < 0 {
					continue
				}
				for fi := d.count - 1; fi >= 0; fi-- {
					if p, ok := d.postAt(fi, port); ok {
						if p.stocks > 0 {
							won = append(won, d.r.Players[pl].Label())
							if m.By < 0 {
								m.By = pl
							}
						}
						break
					}
				}
			}
			if len(won) == len(d.r.Players) {
				won, m.By = nil, -1
			}
		}
		if len(won) > 0 {
			m.Summary += ", " + strings.Join(won, " and ") + " won"
		}
		m.Fields = []model.Field{{Key: "result", Label: "Result", Value: d.r.Result}}
		return m, true
	}
	return model.Moment{}, false
}
