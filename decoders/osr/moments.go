package osr

import (
	"fmt"
	"sort"

	"rewind/model"
)

// The moment kinds of an osu! play (model's: burst, gap, lowlife, fail).
const (
	MomentBurst   = model.MomentBurst
	MomentGap     = model.MomentGap
	MomentLowLife = model.MomentLowLife
	MomentFail    = model.MomentFail
)

// moments finds the bursts of presses, the gaps between them, the life
// bar's low points and the fail, in frame order.
func (v *view) moments(ns *nativeStats) []model.Moment {
	var out []model.Moment
	span := func(f int) model.Span {
		if f < 0 || f >= len(v.fr) {
			return model.Span{}
		}
		return model.Span{Stream: StreamFrames, Off: int64(v.fr[f].off), Len: int64(v.fr[f].n)}
	}
	timeField := func(key, label string, t int64) model.Field {
		return model.Field{Key: key, Label: label, Value: ms(t), Name: model.FormatDuration(ms(t))}
	}
	// bursts: presses of the hit keys with no more than burstGap between
	var run []int32 // the frames of the current run's presses
	var runT []int64
	flush := func() {
		if len(run) >= burstMin {
			a, b := int(run[0]), int(run[len(run)-1])
			secs := float64(runT[len(runT)-1]-runT[0]) / 1000
			rate := 0.0
			if secs > 0 {
				rate = float64(len(run)-1) / secs
			}
			out = append(out, model.Moment{Kind: MomentBurst, Frame: a, End: b, By: 0, On: -1, Span: span(a),
				Summary: fmt.Sprintf("burst of %d presses in %.2f s (%.1f a second)", len(run), secs, rate),
				Fields: []model.Field{timeField("time", "Starts", runT[0]),
					{Key: "presses", Label: "Presses", Value: int64(len(run))},
					{Key: "seconds", Label: "Seconds", Value: secs},
					{Key: "perSecond", Label: "Presses a second", Value: rate}},
				Facts: model.MomentFacts{Hits: len(run)}})
		}
		run, runT = run[:0], runT[:0]
	}
	for i := range v.changes {
		c := &v.changes[i]
		if !c.down || !v.hitKey(c.key) {
			continue
		}
		t := v.mono[c.frame]
		if len(runT) > 0 && t-runT[len(runT)-1] > burstGap {
			flush()
		}
		run, runT = append(run, c.frame), append(runT, t)
	}
	flush()
	for _, g := range ns.gaps {
		secs := float64(g.t1-g.t0) / 1000
		out = append(out, model.Moment{Kind: MomentGap, Frame: g.from, End: g.to, By: 0, On: -1, Span: span(g.from),
			Summary: fmt.Sprintf("no key pressed for %.1f s (a break in the map, or a pause)", secs),
			Fields: []model.Field{timeField("time", "From", g.t0), timeField("end", "To", g.t1),
				{Key: "seconds", Label: "Seconds", Value: secs}}})
	}
	pts := v.d.h.lifePoints
	failed, fi := v.d.failedByLife()
	for i, p := range pts {
		if failed && i >= fi || v.d.h.mode == modeTaiko {
			// osu!taiko's life bar starts empty and fills as notes are
			// hit: low there is the start of every play, not a danger
			break
		}
		low := p.life < lowLife && p.life > 0 &&
			(i == 0 || pts[i-1].life > p.life) && (i == len(pts)-1 || pts[i+1].life >= p.life)
		if !low {
			continue
		}
		f := v.frameAt(p.t)
		out = append(out, model.Moment{Kind: MomentLowLife, Frame: f, End: f, By: 0, On: -1, Span: p.span,
			Summary: fmt.Sprintf("life down to %.0f%%", p.life*100),
			Fields:  []model.Field{timeField("time", "Song time", p.t), {Key: "life", Label: "Life", Value: p.life, Name: fmt.Sprintf("%.0f%%", p.life*100)}}})
	}
	switch {
	case failed:
		p := pts[fi]
		f := v.frameAt(p.t)
		why := "failed: the life bar ran out"
		if v.d.h.mode == modeTaiko {
			why = fmt.Sprintf("failed: the life bar ended %.0f%% full, under the half osu!taiko needs", p.life*100)
		}
		out = append(out, model.Moment{Kind: MomentFail, Frame: f, End: f, By: 0, On: -1, Span: p.span,
			Summary: why,
			Fields:  []model.Field{timeField("time", "Song time", p.t), {Key: "life", Label: "Life", Value: p.life}}})
	case v.d.info != nil && v.d.info.Rank == "F" && len(v.mono) > 0:
		// lazer says it failed but not when: at the last frame
		f := len(v.mono) - 1
		out = append(out, model.Moment{Kind: MomentFail, Frame: f, End: f, By: 0, On: -1,
			Summary: "failed (osu!lazer's rank F; the file does not say when)"})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Frame < out[b].Frame })
	return out
}
