package osr

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"rewind/model"
)

// maxLifePoints caps the points listed as fields; the chart and the
// moments read them all.
const maxLifePoints = 4096

// lifeField reads the life bar graph: "time|life" pairs joined by commas
// (usually with one after the last), a song time in ms and the life from
// 0 to 1. Pairs that do not read are reported and left out.
func (d *decoder) lifeField() model.Field {
	s := d.h.life
	f := stringField("lifeBar", "Life bar graph", s)
	if !s.present {
		return f
	}
	raw := d.data[s.text:s.span.End()]
	if len(raw) == 0 {
		f.Name = "(empty)"
		return f
	}
	n := bytes.Count(raw, []byte{','}) + 1
	if !d.paid(d.b.Items("life bar points", int64(n), int64(32+24)), s.span) {
		return f
	}
	f.Value = nil
	f.Fields = []model.Field{{Key: "text", Label: "Text", Value: s.s, Span: at(s.text, len(raw))}}
	pts := make([]lifePoint, 0, n)
	bad, firstBad := 0, -1
	for p := 0; p < len(raw); {
		end := bytes.IndexByte(raw[p:], ',')
		if end < 0 {
			end = len(raw)
		} else {
			end += p
		}
		pair := raw[p:end]
		off := s.text + p
		p = end + 1
		if len(pair) == 0 {
			continue
		}
		ts, vs, ok := bytes.Cut(pair, []byte{'|'})
		t, err1 := strconv.ParseInt(string(ts), 10, 64)
		v, err2 := strconv.ParseFloat(string(vs), 64)
		if !ok || err1 != nil || err2 != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			bad++
			if firstBad < 0 {
				firstBad = off
			}
			continue
		}
		pts = append(pts, lifePoint{t: t, life: v, span: at(off, len(pair))})
	}
	if bad > 0 {
		d.diag(model.Warning, at(firstBad, 1), "lifeBar", fmt.Sprintf("%d life bar points do not read as time|life; left out", bad), "time_ms|life,", "")
	}
	d.h.lifePoints = pts
	f.Name = fmt.Sprintf("%d points", len(pts))
	for i, pt := range pts {
		if i == maxLifePoints {
			f.Fields = append(f.Fields, model.Field{Key: "more", Label: "More points", Value: int64(len(pts) - i)})
			break
		}
		f.Fields = append(f.Fields, model.Field{Key: "point", Label: fmt.Sprintf("at %s: %.0f%%", model.FormatDuration(ms(pt.t)), pt.life*100), Span: pt.span,
			Fields: []model.Field{{Key: "time", Label: "Song time", Value: ms(pt.t), Span: pt.span}, {Key: "life", Label: "Life (0 to 1)", Value: pt.life, Span: pt.span}}})
	}
	return f
}

// lifeAt is the life bar at song time t, drawn as the game draws the
// graph: straight lines between the points, the first and last held.
// ok is false when the file has no graph.
func (d *decoder) lifeAt(t int64) (float64, bool) {
	pts := d.h.lifePoints
	if len(pts) == 0 {
		return 0, false
	}
	// the points are in time order in every real file; a search keeps
	// this O(log n) in the points
	lo, hi := 0, len(pts)
	for lo < hi {
		m := (lo + hi) / 2
		if pts[m].t <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	switch {
	case lo == 0:
		return pts[0].life, true
	case lo == len(pts):
		return pts[len(pts)-1].life, true
	}
	a, b := pts[lo-1], pts[lo]
	if b.t == a.t {
		return b.life, true
	}
	return a.life + (b.life-a.life)*float64(t-a.t)/float64(b.t-a.t), true
}

// taikoPass is the life an osu!taiko play needs at its end to pass: its
// bar starts empty and a play never fails before the end (the osu! wiki's
// Health page; the bar's 200 points, 100 passing).
const taikoPass = 0.5

// failed reports whether the life bar says the play failed, and at which
// point: its last point is empty (osu!taiko's: under half full) and no mod
// kept the play from failing (No Fail, Autoplay, Cinema; Relax and
// Autopilot plays fail as others do).
func (d *decoder) failedByLife() (bool, int) {
	pts := d.h.lifePoints
	if len(pts) == 0 || d.h.mods&(modNF|modAT|modCN) != 0 {
		return false, -1
	}
	if d.h.mode == modeTaiko {
		if pts[len(pts)-1].life < taikoPass {
			return true, len(pts) - 1
		}
		return false, -1
	}
	if last := pts[len(pts)-1]; last.life <= 0 {
		// the fail is where the life first reached 0 for good
		i := len(pts) - 1
		for i > 0 && pts[i-1].life <= 0 {
			i--
		}
		return true, i
	}
	return false, -1
}
