package tui

import "rewind/model"

// Opening a replay header first (app.open): the view starts on the header
// decode, then the full decode is swapped in (decoded) and then the game
// analysis (analysed). loading says what is still coming, for the quiet
// indicator on the status line.

// decoded swaps the full decode in for the header the view showed, keeping
// the cursor where the person put it.
func (v *replayView) decoded(r *model.Replay, p *prepared) {
	frame := v.frame
	v.swap(r, p)
	v.diag, v.ev = -1, -1
	v.prob = 0
	v.frame = v.tl.Clamp(frame)
	v.syncEvent()
	v.loading = "analysing"
}

// analysed adds the game analysis: moments, stats, derived charts. A view
// still on the events it opened with moves to the moments, as a replay
// opened whole does, unless the file has errors.
func (v *replayView) analysed(an *analysis) {
	v.p.setAnalysis(an)
	v.loading = ""
	v.applyMoments()
	v.barCache, v.statCache, v.chartLbl, v.footText = barCache{}, nil, nil, ""
	if len(v.p.moments) > 0 && v.list == listEvents && !v.listChosen {
		if w, ok := v.r.Worst(); !ok || w < model.Error {
			v.list = listMoments
			v.syncMoment()
		}
	}
}

// loadingText is the status line's word while the replay is still coming.
func (v *replayView) loadingText() string {
	switch v.loading {
	case "decoding":
		return v.paints.dim.wrap("decoding…")
	case "analysing":
		return v.paints.dim.wrap("analysing…")
	}
	return ""
}
