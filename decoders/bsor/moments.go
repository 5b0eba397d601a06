package bsor

import (
	"fmt"
	"sort"

	"rewind/model"
)

var handNames = [...]string{left: "left", right: "right"}

// noteWords names a note as players do: "red up note", "blue dot note",
// with the kind of note when it is not a plain one. Summaries lead with what
// went wrong, as a list cuts them at its width.
func noteWords(p noteParams) string {
	dir := dirName(p.Dir)
	if p.Dir == 8 {
		dir = "dot"
	}
	s := fmt.Sprintf("%s %s note", colorName(p.Color), dir)
	if p.Scoring != stNormal && p.Scoring != stDefault && p.Scoring != stNoScore {
		s += " (" + scoringName(p.Scoring) + ")"
	}
	return s
}

// cutRecorded reports whether the cut info holds anything: the oldest mods
// (0.1.x) wrote all zeros for bad cuts, which would read as a left-saber
// cut that was wrong in every way.
func cutRecorded(c *cutInfo) bool {
	return c.SpeedOK || c.DirectionOK || c.SaberTypeOK || c.WasCutTooSoon || c.SaberSpeed != 0 ||
		c.CutPoint != (vec3{}) || c.CutNormal != (vec3{}) || c.SaberDir != (vec3{})
}

func where(p noteParams) string { return fmt.Sprintf("line %d %s", p.Line, layerName(p.Layer)) }

// comboWords says what a mistake cost: the combo it ended.
func comboWords(c int32) string {
	if c <= 0 {
		return ""
	}
	return fmt.Sprintf("; combo %d broken", c)
}

func timeField(t float32) model.Field {
	return model.Field{Key: "time", Label: "Song time", Value: secs(t), Name: model.FormatDuration(secs(t))}
}

// moments lists the misses, bad cuts, bombs and wall hits with the hand,
// the note and the combo they ended, the pauses and a fail, in frame
// order. Their
// Facts.Move is the note ("blue dot note"; its colour is its hand), "bomb"
// or the wall ("crouch wall").
func (v *view) moments(g *gameStats) []model.Moment {
	d, sc := v.d, v.sc
	// the scoring event of each note and wall, for the combo it ended
	noteEv := make([]int32, len(d.notes))
	wallEv := make([]int32, len(d.walls))
	for i := range noteEv {
		noteEv[i] = -1
	}
	for i := range wallEv {
		wallEv[i] = -1
	}
	for k := range sc.events {
		e := &sc.events[k]
		if e.kind == evWall {
			wallEv[e.index] = int32(k)
		} else {
			noteEv[e.index] = int32(k)
		}
	}
	before := func(k int32) int32 {
		if k < 0 || int(k) >= len(g.comboBefore) {
			return 0
		}
		return g.comboBefore[k]
	}

	var out []model.Moment
	for i := range d.notes {
		n := &d.notes[i]
		if n.EventType == evGood {
			continue
		}
		p := sc.noteParams[i]
		l := int64(noteHead)
		if n.HasCut {
			l += cutSize
		}
		m := model.Moment{Frame: int(v.noteFrm[i]), By: 0, On: -1, Span: model.Span{Off: n.Off, Len: l}}
		m.End = m.Frame
		combo := before(noteEv[i])
		fs := []model.Field{timeField(n.EventTime)}
		hand := -1
		switch n.EventType {
		case evMiss:
			hand = handOfColor(p.Color)
			m.Kind = model.MomentMiss
			m.Summary = fmt.Sprintf("missed %s (%s hand), %s%s", noteWords(p), handNames[hand], where(p), comboWords(combo))
		case evBad:
			m.Kind = model.MomentBadCut
			if !cutRecorded(&n.Cut) {
				// the oldest mods wrote zeros for a bad cut's details
				m.Summary = fmt.Sprintf("bad cut (saber and reason not recorded): %s, %s%s", noteWords(p), where(p), comboWords(combo))
				break
			}
			hand = left
			if n.Cut.SaberType != 0 {
				hand = right
			}
			why := badReasons(&n.Cut)
			if why == "" {
				why = "no reason recorded"
			}
			m.Summary = fmt.Sprintf("bad cut (%s): %s, %s saber, %s%s", why, noteWords(p), handNames[hand], where(p), comboWords(combo))
			fs = append(fs, model.Field{Key: "reason", Label: "Why it was bad", Value: why})
		default:
			m.Kind = model.MomentBomb
			m.Summary = fmt.Sprintf("hit a bomb at %s%s", where(p), comboWords(combo))
		}
		if hand >= 0 {
			fs = append(fs, model.Field{Key: "hand", Label: "Hand", Value: handNames[hand]})
		}
		if n.EventType != evBomb {
			fs = append(fs,
				model.Field{Key: "colorType", Label: "Colour", Value: int64(p.Color), Name: colorName(p.Color)},
				model.Field{Key: "cutDirection", Label: "Cut direction", Value: int64(p.Dir), Name: dirName(p.Dir)})
		}
		fs = append(fs,
			model.Field{Key: "lineIndex", Label: "Line", Value: int64(p.Line)},
			model.Field{Key: "noteLineLayer", Label: "Row", Value: int64(p.Layer), Name: layerName(p.Layer)},
			model.Field{Key: "comboEnded", Label: "Combo ended", Value: int64(combo)})
		m.Fields = fs
		// what an archive query names (move:"red up note", move:bomb)
		m.Facts.Move = noteWords(p)
		if n.EventType == evBomb {
			m.Facts.Move = "bomb"
		}
		out = append(out, m)
	}
	for i := range d.walls {
		w := &d.walls[i]
		line, typ, width := wallParams(w.ID)
		combo := before(wallEv[i])
		f := int(v.wallFrm[i])
		m := model.Moment{Kind: model.MomentWall, Frame: f, End: f, By: 0, On: -1,
			Span:    model.Span{Off: w.Off, Len: wallSize},
			Summary: fmt.Sprintf("hit a %s wall (line %d, width %d)%s", obstacleName(typ), line, width, comboWords(combo)),
			Fields: []model.Field{timeField(w.Time),
				{Key: "obstacleType", Label: "Wall", Value: int64(typ), Name: obstacleName(typ)},
				{Key: "lineIndex", Label: "Line", Value: int64(line)},
				{Key: "width", Label: "Width", Value: int64(width)},
				{Key: "comboEnded", Label: "Combo ended", Value: int64(combo)}},
			Facts: model.MomentFacts{Move: obstacleName(typ) + " wall"}}
		// old mods wrote something else than the 0-1 energy here
		if w.Energy >= 0 && w.Energy <= 1 {
			m.Summary += fmt.Sprintf("; energy %.0f%% after it", w.Energy*100)
			m.Fields = append(m.Fields, model.Field{Key: "energy", Label: "Energy after it (%)", Value: f64(w.Energy) * 100})
		}
		out = append(out, m)
	}
	for i := range d.pauses {
		p := &d.pauses[i]
		f := v.frameAt(p.Time)
		out = append(out, model.Moment{Kind: model.MomentPause, Frame: f, End: f, By: 0, On: -1,
			Span:    model.Span{Off: p.Off, Len: pauseSize},
			Summary: fmt.Sprintf("paused for %d s", p.Duration),
			Fields: []model.Field{timeField(p.Time),
				{Key: "duration", Label: "Paused (s)", Value: p.Duration}}})
	}
	if ft := d.info.FailTime; ft > 0 {
		// the energy bar ran out: the game's fail, at its song time
		f := v.frameAt(ft)
		m := model.Moment{Kind: model.MomentFail, Frame: f, End: f, By: 0, On: -1,
			Summary: "failed the song at " + model.FormatDuration(secs(ft)), Fields: []model.Field{timeField(ft)}}
		if fs, ok := model.Find(d.info.fields, "failTime"); ok {
			m.Span = fs.Span
		}
		out = append(out, m)
	}
	// notes are in time order already; walls, pauses and the fail join them
	// by frame
	sort.SliceStable(out, func(a, b int) bool { return out[a].Frame < out[b].Frame })
	return out
}
