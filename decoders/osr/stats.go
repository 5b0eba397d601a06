package osr

import (
	"fmt"
	"math"
	"sort"

	"rewind/model"
)

// What the file alone can say about a play. The hit counts, score and
// combo are the game's own; the rest comes from the frames: the keys
// pressed and how long they were held, how fast, how far the cursor went,
// where the input paused. What needs the beatmap (its hit objects'
// times and places) is not computed: see needsBeatmap.

// needsBeatmap is what a replay cannot tell without its beatmap.
var needsBeatmap = []string{
	"unstable rate and hit errors (the hit objects' times)",
	"which press hit which note, and where the misses were",
	"aim: the cursor's distance to the circles",
	"pp and star rating",
}

// Thresholds of the moments and the breaks in input.
const (
	burstGap = 125  // ms: presses this close keep a burst going (8 a second)
	burstMin = 16   // presses: a burst is at least this many
	gapMin   = 3000 // ms without a press: a gap in input
	lowLife  = 0.25 // life below this at a low point of the graph is a moment
)

// nativeStats is the JSON of `rewind stats --json` for osu!: typed values,
// durations in seconds, the player P1.
type nativeStats struct {
	Player            string        `json:"player"`
	Name              string        `json:"name"`
	Mode              string        `json:"mode"`
	Mods              []string      `json:"mods"`
	Score             int64         `json:"score"`
	MaxCombo          int64         `json:"maxCombo"`
	Perfect           bool          `json:"perfect"`
	Counts            hitCounts     `json:"counts"`
	Accuracy          float64       `json:"accuracy"`
	Grade             string        `json:"grade"`
	Result            string        `json:"result"`            // passed, failed or unknown, as the play went
	Outcome           model.Outcome `json:"outcome,omitempty"` // win (passed) or loss (failed), the word every format uses; absent when unknown
	DurationSeconds   float64       `json:"durationSeconds"`
	Presses           int           `json:"presses"`
	ActiveSeconds     float64       `json:"activeSeconds"`
	KeysPerSecond     float64       `json:"keysPerSecond"`
	PeakKeysPerSecond float64       `json:"peakKeysPerSecond"`
	Keys              []keyStats    `json:"keys"`
	CursorTravel      *float64      `json:"cursorTravel,omitempty"`
	CatcherTravel     *float64      `json:"catcherTravel,omitempty"`
	Breaks            []gapStats    `json:"breaks"`
	Life              *lifeStats    `json:"life,omitempty"`
	NeedsBeatmap      []string      `json:"needsBeatmap"`
	accuracyPoints    [2]float64    // scored, possible
	gaps              []gapFrames   // the breaks' frames
}

type hitCounts struct {
	Count300  int64 `json:"count300"`
	Count100  int64 `json:"count100"`
	Count50   int64 `json:"count50"`
	CountGeki int64 `json:"countGeki"`
	CountKatu int64 `json:"countKatu"`
	CountMiss int64 `json:"countMiss"`
}

type keyStats struct {
	Key                string  `json:"key"`
	Presses            int     `json:"presses"`
	HeldSeconds        float64 `json:"heldSeconds"`
	MeanHoldSeconds    float64 `json:"meanHoldSeconds"`
	LongestHoldSeconds float64 `json:"longestHoldSeconds"`
	hit                bool    // a key that hits notes (not smoke, not dash)
}

type gapStats struct {
	StartSeconds float64 `json:"startSeconds"`
	EndSeconds   float64 `json:"endSeconds"`
	Seconds      float64 `json:"seconds"`
}

type gapFrames struct {
	from, to int   // frames
	t0, t1   int64 // song times, ms
}

type lifeStats struct {
	Min    float64 `json:"min"`
	Final  float64 `json:"final"`
	Points int     `json:"points"`
	Failed bool    `json:"failed"`
}

var modeIDs = [...]string{"osu", "taiko", "catch", "mania"}

// hitKey reports whether a key hits notes: not standard's smoke, not
// catch's dash.
func (v *view) hitKey(b uint8) bool {
	switch v.d.h.mode {
	case modeStd:
		return b != 4
	case modeCatch:
		return false
	}
	return true
}

// stats computes the native statistics in one pass over the key changes
// and the frames.
func (v *view) stats() *nativeStats {
	d := v.d
	h := &d.h
	failed, passed := d.outcome()
	acc, got, of := accuracy(h.mode, h.counts)
	ns := &nativeStats{Player: "P1", Name: h.player.s, Mode: modeIDs[h.mode], Mods: modList(h.mods),
		Score: int64(h.score), MaxCombo: int64(h.combo), Perfect: h.perfect != 0,
		Counts:   hitCounts{int64(h.counts[0]), int64(h.counts[1]), int64(h.counts[2]), int64(h.counts[3]), int64(h.counts[4]), int64(h.counts[5])},
		Accuracy: acc, Grade: d.grade(failed), Result: "unknown", NeedsBeatmap: needsBeatmap, Breaks: []gapStats{}, Keys: []keyStats{},
		accuracyPoints: [2]float64{got, of}}
	if l := d.info.lazerMods(); len(l) > 0 {
		ns.Mods = l
	}
	if ns.Mods == nil {
		ns.Mods = []string{}
	}
	switch {
	case failed:
		ns.Result, ns.Outcome = "failed", model.OutcomeLoss
	case passed:
		ns.Result, ns.Outcome = "passed", model.OutcomeWin
	}
	if n := len(v.mono); n > 0 && len(v.fr) > 0 {
		ns.DurationSeconds = math.Max(float64(v.mono[n-1]), 0) / 1000
	}
	// keys: presses, holds
	keys := make([]keyStats, len(v.keys))
	for i := range keys {
		keys[i] = keyStats{Key: v.keys[i], hit: v.hitKey(uint8(i))}
	}
	var presses []int64 // the hit keys' press times, in order
	first, last := int64(-1), int64(-1)
	for i := range v.changes {
		c := &v.changes[i]
		if int(c.key) >= len(keys) || !c.down {
			continue
		}
		k := &keys[c.key]
		k.Presses++
		if held := v.held(c); held >= 0 {
			s := float64(held) / 1000
			k.HeldSeconds += s
			k.LongestHoldSeconds = math.Max(k.LongestHoldSeconds, s)
		}
		if k.hit {
			t := v.mono[c.frame]
			presses = append(presses, t)
			if first < 0 {
				first = t
			}
			last = t
		}
	}
	for i := range keys {
		if keys[i].Presses > 0 {
			keys[i].MeanHoldSeconds = keys[i].HeldSeconds / float64(keys[i].Presses)
		}
	}
	ns.Keys = keys
	ns.Presses = len(presses)
	if last > first {
		ns.ActiveSeconds = float64(last-first) / 1000
		ns.KeysPerSecond = float64(len(presses)-1) / ns.ActiveSeconds
	}
	// the most presses in any one second
	peak := 0
	for i, j := 0, 0; j < len(presses); j++ {
		for presses[j]-presses[i] >= 1000 {
			i++
		}
		peak = max(peak, j-i+1)
	}
	ns.PeakKeysPerSecond = float64(peak)
	// gaps between presses
	for i := 1; i < len(presses); i++ {
		if presses[i]-presses[i-1] >= gapMin {
			ns.Breaks = append(ns.Breaks, gapStats{StartSeconds: float64(presses[i-1]) / 1000, EndSeconds: float64(presses[i]) / 1000,
				Seconds: float64(presses[i]-presses[i-1]) / 1000})
			ns.gaps = append(ns.gaps, gapFrames{v.frameAt(presses[i-1]), v.frameAt(presses[i]), presses[i-1], presses[i]})
		}
	}
	// how far the cursor (or the catcher) went
	switch h.mode {
	case modeStd:
		t := 0.0
		for i := 1; i < len(v.fr); i++ {
			dx, dy := v.fr[i].x-v.fr[i-1].x, v.fr[i].y-v.fr[i-1].y
			if s := math.Hypot(dx, dy); finite(s) {
				t += s
			}
		}
		ns.CursorTravel = &t
	case modeCatch:
		t := 0.0
		for i := 1; i < len(v.fr); i++ {
			if s := math.Abs(v.fr[i].x - v.fr[i-1].x); finite(s) {
				t += s
			}
		}
		ns.CatcherTravel = &t
	}
	if pts := h.lifePoints; len(pts) > 0 {
		l := &lifeStats{Min: pts[0].life, Final: pts[len(pts)-1].life, Points: len(pts), Failed: failed}
		for _, p := range pts {
			l.Min = math.Min(l.Min, p.life)
		}
		ns.Life = l
	}
	return ns
}

// frameAt is the first frame whose song time reaches t, or the last.
func (v *view) frameAt(t int64) int {
	n := len(v.mono)
	if n == 0 {
		return 0
	}
	i := sort.Search(n, func(i int) bool { return v.mono[i] >= t })
	return min(i, n-1)
}

// analyze is Replay.Analyze: the statistics as tables and JSON, and the
// moments.
func (v *view) analyze() *model.Analysis {
	ns := v.stats()
	a := &model.Analysis{Moments: v.moments(ns)}
	a.Stats = model.Stats{Tables: v.tables(ns), Native: ns}
	return a
}

func cell(x any, name string) model.Field { return model.Field{Value: x, Name: name} }

func row(key, label string, c model.Field) model.StatRow {
	c.Key, c.Label = key, label
	return model.StatRow{Key: key, Label: label, Frame: -1, Cells: []model.Field{c}}
}

func (v *view) tables(ns *nativeStats) []model.StatTable {
	d := v.d
	h := &d.h
	p := d.player(false, false)
	label := "P1"
	if p.Name != "" {
		label += " " + p.Name
	}
	names := countNames(h.mode)
	mods := "none"
	if len(ns.Mods) > 0 {
		mods = fmt.Sprint(ns.Mods)
	}
	rows := []model.StatRow{
		row("mode", "Mode", cell(modeNames[h.mode], "")),
		row("mods", "Mods", cell(mods, "")),
		row("score", "Score", cell(ns.Score, "")),
		row("accuracy", "Accuracy (%, from the hit counts)", cell(ns.Accuracy*100, fmt.Sprintf("%.2f", ns.Accuracy*100))),
		row("grade", "Grade", cell(ns.Grade, gradeName(ns.Grade))),
		row("outcome", "Outcome", cell(ns.Outcome, "")),
		row("maxCombo", "Max combo", cell(ns.MaxCombo, "")),
		row("perfect", "Perfect (full combo)", cell(ns.Perfect, "")),
	}
	for i, n := range names {
		rows = append(rows, row(countKeys[i], n, cell(int64(h.counts[i]), "")))
	}
	rows = append(rows,
		row("durationSeconds", "Length (s of song time)", cell(ns.DurationSeconds, fmt.Sprintf("%.1f", ns.DurationSeconds))),
		row("presses", "Key presses (hit keys)", cell(int64(ns.Presses), "")),
		row("keysPerSecond", "Presses per second (first to last press)", cell(ns.KeysPerSecond, fmt.Sprintf("%.2f", ns.KeysPerSecond))),
		row("peakKeysPerSecond", "Most presses in one second", cell(ns.PeakKeysPerSecond, "")),
		row("breaks", fmt.Sprintf("Gaps of %d s or more between presses", gapMin/1000), cell(int64(len(ns.Breaks)), "")))
	if ns.CursorTravel != nil {
		rows = append(rows, row("cursorTravel", "Cursor travel (osu! pixels)", cell(*ns.CursorTravel, fmt.Sprintf("%.0f", *ns.CursorTravel))))
	}
	if ns.CatcherTravel != nil {
		rows = append(rows, row("catcherTravel", "Catcher travel (osu! pixels)", cell(*ns.CatcherTravel, fmt.Sprintf("%.0f", *ns.CatcherTravel))))
	}
	if ns.Life != nil {
		rows = append(rows,
			row("lifeMin", "Lowest life (%)", cell(ns.Life.Min*100, fmt.Sprintf("%.0f", ns.Life.Min*100))),
			row("lifeFinal", "Life at the end (%)", cell(ns.Life.Final*100, fmt.Sprintf("%.0f", ns.Life.Final*100))))
	}
	rows = append(rows, row("needsBeatmap", "Needs the beatmap (not computed)", cell(fmt.Sprint(len(needsBeatmap))+" things", joinNeeds())))
	overall := model.StatTable{Key: "overall", Title: "Play", Player: -1, Columns: []string{label}, Rows: rows}

	keys := model.StatTable{Key: "keys", Title: "Keys (" + label + ")", Player: 0,
		Columns: []string{"Presses", "Held (s)", "Mean hold (ms)", "Longest hold (ms)"}}
	for _, k := range ns.Keys {
		name := k.Key
		if h.mode == modeMania {
			name = "column " + name
		}
		keys.Rows = append(keys.Rows, model.StatRow{Key: k.Key, Label: name, Frame: -1, Cells: []model.Field{
			{Key: "presses", Label: "Presses", Value: int64(k.Presses)},
			{Key: "heldSeconds", Label: "Held (s)", Value: k.HeldSeconds, Name: fmt.Sprintf("%.2f", k.HeldSeconds)},
			{Key: "meanHold", Label: "Mean hold (ms)", Value: k.MeanHoldSeconds * 1000, Name: fmt.Sprintf("%.0f", k.MeanHoldSeconds*1000)},
			{Key: "longestHold", Label: "Longest hold (ms)", Value: k.LongestHoldSeconds * 1000, Name: fmt.Sprintf("%.0f", k.LongestHoldSeconds*1000)},
		}})
	}
	out := []model.StatTable{overall, keys}
	if len(ns.Breaks) > 0 {
		gaps := model.StatTable{Key: "breaks", Title: "Gaps in input (" + label + ")", Player: 0, Columns: []string{"From", "To", "Seconds"}}
		for i, g := range ns.Breaks {
			gaps.Rows = append(gaps.Rows, model.StatRow{Key: "break", Label: fmt.Sprintf("gap %d", i+1), Frame: ns.gaps[i].from, Cells: []model.Field{
				{Key: "from", Label: "From", Value: ms(ns.gaps[i].t0)},
				{Key: "to", Label: "To", Value: ms(ns.gaps[i].t1)},
				{Key: "seconds", Label: "Seconds", Value: g.Seconds, Name: fmt.Sprintf("%.1f", g.Seconds)},
			}})
		}
		out = append(out, gaps)
	}
	return out
}

func joinNeeds() string {
	s := ""
	for i, n := range needsBeatmap {
		if i > 0 {
			s += "; "
		}
		s += n
	}
	return s
}
