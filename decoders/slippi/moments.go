package slippi

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"rewind/model"
)

// The moments of a game, in frame order: every stock lost (who took it and
// how), the punishes of a two-player game, and the end.
//
// Punishes are slippi-js's conversions and combos (its stats), and a
// person steps through a list of moments, so each punish is listed once:
//
//   - a conversion is the punish: the opening and all that came of it
//     until the player hit was back in control (kind conversion; every
//     conversion of getStats() is one);
//   - a combo is listed only when it starts inside a conversion after the
//     conversion's first hit (the player hit got out of hitstun and was
//     caught again); a combo that starts with its conversion is that
//     conversion's opening string, and listing it too would put a twin on
//     the same frame.
//
// The archive keeps every conversion and every combo of getStats() (a
// query's kind:combo and kind:conversion find exactly slippi-js's lists;
// see summary.go); the list here is what a person steps through.
func (d *decoder) moments(st *Stats, losses []stockLoss, index func(num int64) int) []model.Moment {
	var ms []model.Moment
	for i := range losses {
		ms = append(ms, d.stockMoment(&losses[i]))
	}
	if st != nil {
		ms = d.punishMoments(ms, st, index, false)
	}
	if m, ok := d.endMoment(); ok {
		ms = append(ms, m)
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Frame < ms[j].Frame })
	return ms
}

// stockMoment is a stock lost: By took it (-1: a self-destruct), On lost it.
func (d *decoder) stockMoment(l *stockLoss) model.Moment {
	fi, port := l.fi, l.port
	m := model.Moment{Kind: model.MomentStock, Frame: fi, End: fi, By: -1, On: d.playerOf[port],
		Span:  model.Span{Off: int64(d.post[fi*d.slots+port]), Len: int64(1 + d.size[cmdPost])},
		Facts: model.MomentFacts{Kill: l.kill(), EndPercent: finite(l.percent)}}
	m.Fields = append(m.Fields,
		model.Field{Key: "frame", Label: "Frame", Value: d.first + int64(fi), Name: d.frameLabel(fi)},
		model.Field{Key: "stocksRemaining", Label: "Stocks left", Value: int64(l.left)},
		model.Field{Key: "percent", Label: "Percent", Value: l.percent, Name: fmt.Sprintf("%.0f%%", l.percent)},
		model.Field{Key: "how", Label: "How", Value: lossWords[l.how]})
	how := "by self-destruct"
	if l.by >= 0 {
		m.By = d.playerOf[l.by]
		who := d.who(l.by, fi)
		if l.how == lossTeammate || l.how == lossTaken {
			who = "teammate " + d.r.Players[m.By].Label()
		}
		how = "to " + who
		m.Fields = append(m.Fields, model.Field{Key: "lastHitBy", Label: "Taken by", Value: int64(m.By), Name: d.r.Players[m.By].Label()})
		if l.move > 0 {
			if name := moveText(l.move); name != "" {
				how = fmt.Sprintf("to %s's %s", who, name)
				m.Facts.Move = name
			}
			m.Fields = append(m.Fields, model.Field{Key: "moveId", Label: "Move", Value: int64(l.move), Name: moveName(l.move)})
		}
	}
	switch {
	case l.how == lossTaken:
		m.Summary = fmt.Sprintf("gave a stock to %s, who was out of stocks (%d left)", strings.TrimPrefix(how, "to "), l.left)
	case l.last:
		m.Summary = fmt.Sprintf("lost the last stock %s at %.0f%%", how, l.percent)
	case l.left == 0:
		m.Summary = fmt.Sprintf("lost a stock %s at %.0f%% (none left)", how, l.percent)
	default:
		m.Summary = fmt.Sprintf("lost a stock %s at %.0f%% (%d left)", how, l.percent, l.left)
	}
	return m
}

// finite is x, or 0 for a NaN or an infinity (a damaged file's percent):
// facts and summaries are numbers JSON and the index can hold.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

var lossWords = [...]string{lossKO: "knocked out", lossSelf: "self-destruct", lossTeammate: "knocked out by a teammate", lossTaken: "taken by a teammate"}

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

// punishMoments adds slippi-js's conversions and combos as ranges: By is
// the one who hit, On the one hit. With all, every combo is added (the
// archive's records); without, only the combos that do not start with a
// conversion (the list people step through; see moments).
func (d *decoder) punishMoments(ms []model.Moment, st *Stats, index func(int64) int, all bool) []model.Moment {
	type opening struct {
		by, on int
		start  int64
	}
	starts := map[opening]bool{}
	for i := range st.Conversions {
		c := &st.Conversions[i]
		if m, ok := d.punishMoment(model.MomentConversion, c.OpeningType, c.PlayerIndex, c.LastHitBy, &c.Punish, st, index); ok {
			ms = append(ms, m)
		}
		starts[opening{c.LastHitBy, c.PlayerIndex, c.StartFrame}] = true
	}
	for i := range st.Combos {
		c := &st.Combos[i]
		if !all && starts[opening{c.LastHitBy, c.PlayerIndex, c.StartFrame}] {
			continue
		}
		if m, ok := d.punishMoment(model.MomentCombo, "", c.PlayerIndex, c.LastHitBy, &c.Punish, st, index); ok {
			ms = append(ms, m)
		}
	}
	return ms
}

// punishMoment is one conversion or combo on victim by by (ports), with
// its facts: damage, moves, the last move, whether it took the stock, the
// victim's percent before and after.
func (d *decoder) punishMoment(kind model.MomentKind, opening string, victim, by int, p *Punish, st *Stats, index func(int64) int) (model.Moment, bool) {
	if victim < 0 || victim >= maxSlots || by < 0 || by >= maxSlots || d.playerOf[victim] < 0 || d.playerOf[by] < 0 {
		return model.Moment{}, false
	}
	m := model.Moment{Kind: kind, Frame: max(index(p.StartFrame), 0), End: index(st.LastFrame), By: d.playerOf[by], On: d.playerOf[victim]}
	if m.End < 0 {
		// a snapshot of a recording: slippi-js's latest frame can be one
		// the snapshot does not hold yet; a punish going on ends at the
		// last frame there is, not back at its start
		m.End = d.r.Timeline.Count - 1
	}
	if p.EndFrame != nil {
		m.End = index(int64(*p.EndFrame))
	}
	m.End = max(m.End, m.Frame)
	end := float64(p.CurrentPercent)
	if p.EndPercent != nil {
		end = float64(*p.EndPercent)
	}
	dmg := end - float64(p.StartPercent)
	moves := p.Moves
	last := ""
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
	if k := len(moves); k > 0 && moves[k-1].MoveID != nil {
		last = moveText(int(*moves[k-1].MoveID))
	}
	m.Facts = model.MomentFacts{Damage: finite(dmg), Hits: len(moves), Kill: p.DidKill, Move: last,
		StartPercent: finite(float64(p.StartPercent)), EndPercent: finite(end)}
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
	if opening != "" {
		s = strings.ReplaceAll(opening, "-", " ") + ": " + s
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
		{Key: "startPercent", Label: "Start percent", Value: float64(p.StartPercent), Name: fmt.Sprintf("%.1f%%", float64(p.StartPercent))},
		{Key: "endPercent", Label: "End percent", Value: end, Name: fmt.Sprintf("%.1f%%", end)},
		{Key: "didKill", Label: "Took the stock", Value: p.DidKill},
	}
	if opening != "" {
		m.Fields = append(m.Fields, model.Field{Key: "openingType", Label: "Opening", Value: opening})
	}
	if p.EndFrame != nil {
		m.Fields = append(m.Fields, model.Field{Key: "endFrame", Label: "End frame", Value: int64(*p.EndFrame)})
	}
	return m, true
}

// endMoment is the Game End: how the game ended and who won (a team's win
// is each member's).
func (d *decoder) endMoment() (model.Moment, bool) {
	// the Game End record, where the events pass placed it (a snapshot of
	// a followed file has it once its frame is handed out)
	if d.endOff < 0 || d.endAt != d.endOff || d.endFrame >= d.r.Timeline.Count {
		return model.Moment{}, false
	}
	m := model.Moment{Kind: model.MomentEnd, Frame: d.endFrame, End: d.endFrame, By: -1, On: -1,
		Span: model.Span{Off: int64(d.endOff), Len: int64(1 + d.size[cmdEnd])}}
	m.Summary = "game ended: " + d.r.Result
	if s, by := d.outcomeWords(d.outcomes()); s != "" {
		m.Summary += ", " + s
		m.By = by
	}
	m.Fields = []model.Field{{Key: "result", Label: "Result", Value: d.r.Result}}
	return m, true
}
