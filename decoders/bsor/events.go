package bsor

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"rewind/model"
)

var colorNames = map[int]string{0: "red", 1: "blue", 3: "bomb", -1: "bomb"}

var dirNames = [...]string{"up", "down", "left", "right", "up-left", "up-right", "down-left", "down-right", "any", "none"}

var layerNames = [...]string{"bottom", "middle", "top"}

var obstacleNames = [...]string{"full height", "crouch", "free"}

func colorName(c int) string {
	if n, ok := colorNames[c]; ok {
		return n
	}
	return fmt.Sprintf("colour %d", c)
}

func dirName(d int) string {
	if d >= 0 && d < len(dirNames) {
		return dirNames[d]
	}
	return fmt.Sprintf("direction %d", d)
}

func layerName(l int) string {
	if l >= 0 && l < len(layerNames) {
		return layerNames[l]
	}
	return fmt.Sprint(l)
}

func scoringName(st int) string {
	if st >= 0 && st < len(scoringNames) {
		return scoringNames[st]
	}
	return fmt.Sprintf("scoring type %d", st)
}

// wallParams splits wallID = lineIndex*100 + obstacleType*10 + width.
func wallParams(id int32) (line, typ, width int) {
	v := int(id)
	line = v / 100
	typ = v / 10 % 10
	width = v % 10
	return
}

func obstacleName(t int) string {
	if t >= 0 && t < len(obstacleNames) {
		return obstacleNames[t]
	}
	return fmt.Sprintf("type %d", t)
}

// badReasons says why a bad cut was bad.
func badReasons(c *cutInfo) string {
	var r []string
	if !c.SaberTypeOK {
		r = append(r, "wrong saber")
	}
	if !c.DirectionOK {
		r = append(r, "wrong direction")
	}
	if !c.SpeedOK {
		r = append(r, "too slow")
	}
	if c.WasCutTooSoon {
		r = append(r, "too soon")
	}
	return strings.Join(r, ", ")
}

func (v *view) summary(ev *model.Event) string {
	d := v.d
	i := int(ev.Ref)
	if ev.Flags&model.Partial != 0 {
		c := d.cut
		return fmt.Sprintf("%s cut off by the end of the file: %d of its %d bytes", [...]string{1: "frame record", 2: "note event", 3: "wall event", 4: "height change", 5: "pause"}[c.section], c.have, c.size)
	}
	switch ev.Kind {
	case kGood, kBad, kMiss, kBomb:
		if i < 0 || i >= len(d.notes) {
			return ""
		}
		n := &d.notes[i]
		p := v.sc.noteParams[i]
		where := fmt.Sprintf("line %d %s", p.Line, layerName(p.Layer))
		kind := ""
		if p.Scoring != stNormal && p.Scoring != stDefault && p.Scoring != stNoScore {
			kind = " [" + scoringName(p.Scoring) + "]"
		}
		switch n.EventType {
		case 0:
			s := v.sc.noteScore[i]
			return fmt.Sprintf("good %s %s %s: %d (%d+%d+%d) x%d%s", colorName(p.Color), dirName(p.Dir), where,
				s.Total(), s.Before, s.After, s.Acc, v.sc.noteMult[i], kind)
		case 1:
			return fmt.Sprintf("bad cut %s %s %s: %s%s", colorName(p.Color), dirName(p.Dir), where, badReasons(&n.Cut), kind)
		case 2:
			return fmt.Sprintf("miss %s %s %s%s", colorName(p.Color), dirName(p.Dir), where, kind)
		default:
			return fmt.Sprintf("bomb hit %s", where)
		}
	case kWall:
		if i < 0 || i >= len(d.walls) {
			return ""
		}
		w := &d.walls[i]
		line, typ, width := wallParams(w.ID)
		return fmt.Sprintf("wall hit line %d %s width %d, energy %.0f%%", line, obstacleName(typ), width, w.Energy*100)
	case kHeight:
		if i < 0 || i >= len(d.heights) {
			return ""
		}
		return fmt.Sprintf("height %.2f m", d.heights[i].Height)
	case kPause:
		if i < 0 || i >= len(d.pauses) {
			return ""
		}
		return fmt.Sprintf("pause for %d s", d.pauses[i].Duration)
	case kFrame:
		if i < 0 || i >= len(d.frames) {
			return ""
		}
		return fmt.Sprintf("frame %s: recorded time %g, shown at %s", frameMarkName(ev.Flags), d.frames[i].Time, model.FormatDuration(secs(v.times[i])))
	}
	return ""
}

func fl(key, label string, x float32, off int64) model.Field {
	return model.Field{Key: key, Label: label, Value: f64(x), Span: model.Span{Off: off, Len: 4}}
}

// f64 widens a float32 to the float64 with the same shortest decimal form
// (0.52, not 0.5199999809265137), so values read as the recorder wrote them.
func f64(x float32) float64 {
	if x != x || math.IsInf(float64(x), 0) {
		return float64(x)
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
	if err != nil {
		return float64(x)
	}
	return v
}

func vecField(key, label string, x vec3, off int64) model.Field {
	return model.Field{Key: key, Label: label, Span: model.Span{Off: off, Len: 12}, Fields: []model.Field{
		fl("x", "x", x.X, off), fl("y", "y", x.Y, off+4), fl("z", "z", x.Z, off+8)}}
}

func boolField(key, label string, b bool, off int64) model.Field {
	return model.Field{Key: key, Label: label, Value: b, Span: model.Span{Off: off, Len: 1}}
}

func (v *view) detail(ev *model.Event) []model.Field {
	d := v.d
	i := int(ev.Ref)
	if ev.Flags&model.Partial != 0 {
		return v.partialFields()
	}
	switch ev.Kind {
	case kGood, kBad, kMiss, kBomb:
		if i < 0 || i >= len(d.notes) {
			return nil
		}
		n := &d.notes[i]
		fs := noteFields(n, v.sc.noteParams[i])
		if n.EventType == 0 {
			s := v.sc.noteScore[i]
			fs = append(fs, model.Field{Key: "cutScore", Label: "Cut score", Value: int64(s.Total()), Fields: []model.Field{
				{Key: "preSwing", Label: "Pre-swing (max 70)", Value: int64(s.Before)},
				{Key: "postSwing", Label: "Post-swing (max 30)", Value: int64(s.After)},
				{Key: "accuracy", Label: "Accuracy (max 15, chain link fixed 20)", Value: int64(s.Acc)},
				{Key: "multiplier", Label: "Multiplier", Value: int64(v.sc.noteMult[i])},
			}})
		}
		return fs
	case kWall:
		if i < 0 || i >= len(d.walls) {
			return nil
		}
		return wallFields(&d.walls[i])
	case kHeight:
		if i < 0 || i >= len(d.heights) {
			return nil
		}
		return heightFields(&d.heights[i])
	case kPause:
		if i < 0 || i >= len(d.pauses) {
			return nil
		}
		return pauseFields(&d.pauses[i])
	case kFrame:
		if i < 0 || i >= len(d.frames) {
			return nil
		}
		return frameFields(d.framesSpan.Off+5+int64(i)*frameSize, &d.frames[i], frameMarkName(ev.Flags))
	}
	return nil
}

// partialFields are the fields of the record the end of the file cut
// through: the record is read from its bytes padded with zeros to a whole
// one, and model.CutOff keeps what the file holds.
func (v *view) partialFields() []model.Field {
	c := v.d.cut
	rec := make([]byte, c.size)
	copy(rec, v.d.data[c.off:])
	var fs []model.Field
	switch c.section {
	case 1:
		f := readFrame(rec)
		fs = frameFields(c.off, &f, "")
	case 2:
		n := readNoteHead(c.off, rec)
		if c.size > noteHead {
			n.HasCut, n.Cut = true, readCut(rec[noteHead:])
		}
		fs = noteFields(&n, decodeNoteID(n.ID))
	case 3:
		w := readWall(c.off, rec)
		fs = wallFields(&w)
	case 4:
		h := readHeight(c.off, rec)
		fs = heightFields(&h)
	case 5:
		p := readPause(c.off, rec)
		fs = pauseFields(&p)
	}
	return model.CutOff(fs, c.off+int64(c.have), c.have, c.size, "bytes")
}

// noteFields are a note event's fields as its bytes say them; p is what
// its id encodes.
func noteFields(n *note, p noteParams) []model.Field {
	o := n.Off
	idSpan := model.Span{Off: o, Len: 4}
	fs := []model.Field{
		{Key: "noteID", Label: "Note ID", Value: int64(n.ID), Span: idSpan},
		{Key: "scoringType", Label: "Scoring type", Value: int64(p.Scoring), Name: scoringName(p.Scoring), Span: idSpan},
		{Key: "lineIndex", Label: "Line index", Value: int64(p.Line), Span: idSpan},
		{Key: "noteLineLayer", Label: "Line layer", Value: int64(p.Layer), Name: layerName(p.Layer), Span: idSpan},
		{Key: "colorType", Label: "Colour", Value: int64(p.Color), Name: colorName(p.Color), Span: idSpan},
		{Key: "cutDirection", Label: "Cut direction", Value: int64(p.Dir), Name: dirName(p.Dir), Span: idSpan},
	}
	if p.Normalized != n.ID {
		fs = append(fs, model.Field{Key: "normalizedNoteID", Label: "Note ID after the bomb fix-up", Value: int64(p.Normalized), Span: idSpan})
	}
	fs = append(fs,
		model.Field{Key: "eventTime", Label: "Event time", Value: f64(n.EventTime), Name: model.FormatDuration(secs(n.EventTime)), Span: model.Span{Off: o + 4, Len: 4}},
		fl("spawnTime", "Spawn time", n.SpawnTime, o+8),
		model.Field{Key: "eventType", Label: "Event type", Value: int64(n.EventType), Name: kindNames[n.EventType&3], Span: model.Span{Off: o + 12, Len: 4}},
	)
	if n.HasCut {
		c := &n.Cut
		b := o + noteHead
		fs = append(fs, model.Field{Key: "noteCutInfo", Label: "Cut info", Span: model.Span{Off: b, Len: cutSize}, Fields: []model.Field{
			boolField("speedOK", "Speed OK", c.SpeedOK, b),
			boolField("directionOK", "Direction OK", c.DirectionOK, b+1),
			boolField("saberTypeOK", "Saber type OK", c.SaberTypeOK, b+2),
			boolField("wasCutTooSoon", "Cut too soon", c.WasCutTooSoon, b+3),
			fl("saberSpeed", "Saber speed", c.SaberSpeed, b+4),
			vecField("saberDir", "Saber direction", c.SaberDir, b+8),
			{Key: "saberType", Label: "Saber type", Value: int64(c.SaberType), Name: map[int32]string{0: "left (red)", 1: "right (blue)"}[c.SaberType], Span: model.Span{Off: b + 20, Len: 4}},
			fl("timeDeviation", "Time deviation", c.TimeDeviation, b+24),
			fl("cutDirDeviation", "Cut direction deviation", c.CutDirDeviation, b+28),
			vecField("cutPoint", "Cut point", c.CutPoint, b+32),
			vecField("cutNormal", "Cut normal", c.CutNormal, b+44),
			fl("cutDistanceToCenter", "Cut distance to centre", c.CutDistanceToCenter, b+56),
			fl("cutAngle", "Cut angle", c.CutAngle, b+60),
			fl("beforeCutRating", "Before-cut rating", c.BeforeCutRating, b+64),
			fl("afterCutRating", "After-cut rating", c.AfterCutRating, b+68),
		}})
	}
	return fs
}

func wallFields(w *wall) []model.Field {
	line, typ, width := wallParams(w.ID)
	idSpan := model.Span{Off: w.Off, Len: 4}
	return []model.Field{
		{Key: "wallID", Label: "Wall ID", Value: int64(w.ID), Span: idSpan},
		{Key: "lineIndex", Label: "Line index", Value: int64(line), Span: idSpan},
		{Key: "obstacleType", Label: "Obstacle type", Value: int64(typ), Name: obstacleName(typ), Span: idSpan},
		{Key: "width", Label: "Width", Value: int64(width), Span: idSpan},
		fl("energy", "Energy at the end", w.Energy, w.Off+4),
		{Key: "time", Label: "Time", Value: f64(w.Time), Name: model.FormatDuration(secs(w.Time)), Span: model.Span{Off: w.Off + 8, Len: 4}},
		fl("spawnTime", "Spawn time", w.SpawnTim, w.Off+12),
	}
}

func heightFields(h *height) []model.Field {
	return []model.Field{fl("height", "Height", h.Height, h.Off),
		{Key: "time", Label: "Time", Value: f64(h.Time), Name: model.FormatDuration(secs(h.Time)), Span: model.Span{Off: h.Off + 4, Len: 4}}}
}

func pauseFields(p *pause) []model.Field {
	return []model.Field{{Key: "duration", Label: "Duration (s)", Value: p.Duration, Span: model.Span{Off: p.Off, Len: 8}},
		{Key: "time", Label: "Time", Value: f64(p.Time), Name: model.FormatDuration(secs(p.Time)), Span: model.Span{Off: p.Off + 8, Len: 4}}}
}

// frameFields are a frame's recorded time and fps; flag names what is
// wrong with its time, if anything.
func frameFields(off int64, f *frame, flag string) []model.Field {
	return []model.Field{
		{Key: "time", Label: "Recorded time", Value: f64(f.Time), Name: flag, Span: model.Span{Off: off, Len: 4}},
		{Key: "fps", Label: "fps", Value: int64(f.FPS), Span: model.Span{Off: off + 4, Len: 4}},
	}
}
