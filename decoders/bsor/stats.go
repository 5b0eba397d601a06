package bsor

import (
	"fmt"
	"math"
	"time"

	"rewind/model"
)

// BeatLeader's score statistics ("scorestats"), computed the way its
// open-source replay processor does (BeatLeader/ReplayDecoder,
// ReplayDecoder/ReplayStatistic.cs: ProcessReplay, Accuracy, ScoreGraph;
// NoteParams.cs: NoteScoreDefinition), so a page on beatleader.xyz and
// rewind agree on what "pre-swing" or "accuracy left" mean:
//
//   - A hand is the note's colour (0 red = left, else right) for good cuts
//     and misses, and the saber that cut (saberType) for bad cuts. Bombs go
//     by colour too, which after the bomb fix-up is 3, so BeatLeader counts
//     every bomb as the right hand's: the file does not say which saber hit
//     a bomb. The native JSON keeps that; the tables do not guess.
//   - Only good cuts with a positive score count for the averages.
//     Accuracy (accLeft/accRight) is the mean total cut score of the notes
//     whose definition has a centre-distance part (not chain links);
//     averageCut is [pre-swing points, centre points, post-swing points].
//   - Pre-swing is the mean raw beforeCutRating (1 = a full 70, above 1 is
//     overswing; the game's SaberSwingRating makes 1 of a 100° swing before
//     the cut and of 60° after it, less when the cut plane tilts, so the
//     tables show a rating as that share of the angle) over notes whose definition can vary the pre-swing (not arc
//     tails, chain links); post-swing the mean afterCutRating over notes that
//     can vary the post-swing (not arc heads, chain heads, chain links).
//     Ratings of 5 or more are dropped as broken. (The newest
//     NoteScoreDefinition writes afterCutApplicable as min > max, never
//     true; the older explicit version and the game define it as min < max,
//     which is used here.)
//   - Time dependence is the mean |cutNormal.z| over the accuracy notes (0:
//     the cut plane holds the notes' line of travel, so cutting earlier or
//     later cuts the note in the same place);
//     timing the mean timeDeviation over every good cut of the colour.
//   - Pauses count only between the first and the last note event.
//   - fcAcc replaces each miss, bad cut and bomb by the accuracy held so far.
//   - maxStreak is the longest run of 115s (chain links skipped), null when
//     two events share a note id within 10 ms ("potentially poodle").
//   - The graph is one value per whole second of the last frame's time: the
//     mean accuracy after the events of that second, or the previous
//     second's value (1 before the first).
//
// BeatLeader computes in float32; these are float64, so the last digits
// may differ. The events are taken in the order the score was recomputed
// in (score.go), which matches the game's score on the corpus.

// scoreStatistic is BeatLeader's ScoreStatistic, with its JSON names:
// the Native shape of `rewind stats --json` for BSOR.
type scoreStatistic struct {
	HitTracker        hitTracker        `json:"hitTracker"`
	AccuracyTracker   accuracyTracker   `json:"accuracyTracker"`
	WinTracker        winTracker        `json:"winTracker"`
	ScoreGraphTracker scoreGraphTracker `json:"scoreGraphTracker"`
}

type hitTracker struct {
	MaxCombo     int     `json:"maxCombo"`
	MaxStreak    *int    `json:"maxStreak"`
	LeftTiming   float64 `json:"leftTiming"`
	RightTiming  float64 `json:"rightTiming"`
	LeftMiss     int     `json:"leftMiss"`
	RightMiss    int     `json:"rightMiss"`
	LeftBadCuts  int     `json:"leftBadCuts"`
	RightBadCuts int     `json:"rightBadCuts"`
	LeftBombs    int     `json:"leftBombs"`
	RightBombs   int     `json:"rightBombs"`
}

type accuracyTracker struct {
	AccRight            float64   `json:"accRight"`
	AccLeft             float64   `json:"accLeft"`
	LeftPreswing        float64   `json:"leftPreswing"`
	RightPreswing       float64   `json:"rightPreswing"`
	LeftPostswing       float64   `json:"leftPostswing"`
	RightPostswing      float64   `json:"rightPostswing"`
	LeftTimeDependence  float64   `json:"leftTimeDependence"`
	RightTimeDependence float64   `json:"rightTimeDependence"`
	LeftAverageCut      []float64 `json:"leftAverageCut"`
	RightAverageCut     []float64 `json:"rightAverageCut"`
	GridAcc             []float64 `json:"gridAcc"`
	FcAcc               float64   `json:"fcAcc"`
}

type position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
}

type winTracker struct {
	Won                 bool     `json:"won"`
	EndTime             float64  `json:"endTime"`
	NbOfPause           int      `json:"nbOfPause"`
	TotalPauseDuration  int64    `json:"totalPauseDuration"`
	JumpDistance        float64  `json:"jumpDistance"`
	AverageHeight       float64  `json:"averageHeight"`
	AverageHeadPosition position `json:"averageHeadPosition"`
	TotalScore          int      `json:"totalScore"`
	MaxScore            int      `json:"maxScore"`
	FailTime            float64  `json:"failTime"`
}

type scoreGraphTracker struct {
	Graph []float64 `json:"graph"`
}

// Hands, as BeatLeader splits the statistics.
const (
	left = iota
	right
	both
)

// handStats sums one hand's cuts before the averages are taken.
type handStats struct {
	good                             int // good cuts, for timing
	timing                           float64
	acc, pre, post                   float64 // sums of the averaged values
	accN, preN, postN                int
	cutPre, cutAcc, cutPost, normalZ float64
	miss, bad                        int
}

func (h *handStats) add(o *handStats) {
	h.good += o.good
	h.timing += o.timing
	h.acc += o.acc
	h.pre += o.pre
	h.post += o.post
	h.accN += o.accN
	h.preN += o.preN
	h.postN += o.postN
	h.cutPre += o.cutPre
	h.cutAcc += o.cutAcc
	h.cutPost += o.cutPost
	h.normalZ += o.normalZ
	h.miss += o.miss
	h.bad += o.bad
}

func mean(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// gameStats is what the analysis computes once: the hands, the grid, the
// counts and the native statistic.
type gameStats struct {
	hands          [3]handStats
	grid           [12]float64
	gridN          [12]int
	bombs          int
	badUnknown     int    // bad cuts whose cut info is all zeros (oldest mods)
	badByType      [2]int // bad cuts by saberType as BeatLeader counts them
	pausesIn       int    // pauses between the first and the last note
	pausedIn       int64  // their seconds
	pausesOut      int
	pausedAll      int64
	comboBefore    []int32 // per scoring event: the combo it broke (or built on)
	native         scoreStatistic
	graph          []float64
	maxStreak      int
	poodle         bool
	fcAcc          float64
	averageHeight  float64
	averageHeadPos position
}

func handOfColor(c int) int {
	if c == 0 {
		return left
	}
	return right
}

// scoreStats computes BeatLeader's statistics from the decoded notes,
// walls, pauses and the recomputed score.
func (v *view) scoreStats() *gameStats {
	d, sc := v.d, v.sc
	g := &gameStats{}
	for i := range d.notes {
		n := &d.notes[i]
		p := sc.noteParams[i]
		switch n.EventType {
		case evGood:
			h := &g.hands[handOfColor(p.Color)]
			h.good++
			h.timing += float64(n.Cut.TimeDeviation)
			if p.Scoring == stIgnore {
				continue
			}
			s := sc.noteScore[i]
			total := s.Total()
			if total <= 0 {
				continue
			}
			def := defFor(p.Scoring)
			if def.maxAcc > 0 && def.fixed == 0 {
				h.acc += float64(total)
				h.cutAcc += float64(s.Acc)
				h.normalZ += math.Abs(float64(n.Cut.CutNormal.Z))
				h.accN++
				idx := p.Layer*4 + p.Line
				if idx < 0 || idx > 11 {
					idx = 0
				}
				g.grid[idx] += float64(total)
				g.gridN[idx]++
			}
			if def.minBefore < def.maxBefore && n.Cut.BeforeCutRating < 5 {
				h.pre += float64(n.Cut.BeforeCutRating)
				h.cutPre += float64(s.Before)
				h.preN++
			}
			if def.minAfter < def.maxAfter && n.Cut.AfterCutRating < 5 {
				h.post += float64(n.Cut.AfterCutRating)
				h.cutPost += float64(s.After)
				h.postN++
			}
		case evBad:
			// BeatLeader goes by saberType even when the mod wrote zeros
			// BeatLeader: saberType 0 is the left hand, anything else the
			// right (a damaged file may hold any number here)
			if n.Cut.SaberType == 0 {
				g.badByType[0]++
			} else {
				g.badByType[1]++
			}
			switch {
			case !cutRecorded(&n.Cut):
				g.badUnknown++
			case n.Cut.SaberType == 0:
				g.hands[left].bad++
			default:
				g.hands[right].bad++
			}
		case evMiss:
			g.hands[handOfColor(p.Color)].miss++
		case evBomb:
			g.bombs++
		}
	}
	g.hands[both].add(&g.hands[left])
	g.hands[both].add(&g.hands[right])
	g.hands[both].bad += g.badUnknown

	var first, last float32
	if len(d.notes) > 0 {
		first, last = d.notes[0].EventTime, d.notes[len(d.notes)-1].EventTime
	}
	for _, p := range d.pauses {
		g.pausedAll += p.Duration
		if p.Time >= first && p.Time <= last {
			g.pausesIn++
			g.pausedIn += p.Duration
		} else {
			g.pausesOut++
		}
	}
	v.runningStats(g)
	g.graph = v.scoreGraph()
	g.native = v.native(g)
	return g
}

// runningStats walks the scoring events in order for the combo each miss
// broke, the longest 115 streak and the full-combo accuracy.
func (v *view) runningStats(g *gameStats) {
	d, sc := v.d, v.sc
	evs := sc.events
	g.comboBefore = make([]int32, len(evs))

	// two events of one id within 10 ms (not chain links) make the streak
	// meaningless: BeatLeader reports none then
	type seen struct {
		t    float32
		link bool
	}
	last := make(map[int32]seen, len(evs))
	for k := range evs {
		e := &evs[k]
		var key int32
		link := false
		if e.kind == evWall {
			key = d.walls[e.index].ID
		} else {
			key = d.notes[e.index].ID
			link = isLink(sc.noteParams[e.index].Scoring)
		}
		if s, ok := last[key]; ok && e.time-s.t < 0.01 && !link && !s.link {
			g.poodle = true
		}
		last[key] = seen{e.time, link}
	}

	best := newMultiplier()
	var prevCombo int32
	var maxScore, fcScore int64
	fcAcc := 1.0
	streak := 0
	for k := range evs {
		e := &evs[k]
		g.comboBefore[k] = prevCombo
		prevCombo = e.combo
		block := e.kind == evGood || e.kind == evBad || e.kind == evMiss
		maxCut := 0
		link := false
		if block {
			p := sc.noteParams[e.index]
			maxCut = defFor(p.Scoring).max()
			link = isLink(p.Scoring)
			best.up()
			maxScore += int64(best.mult * maxCut)
		}
		score := 0
		if e.kind == evGood {
			score = sc.noteScore[e.index].Total()
			fcScore += int64(best.mult * score)
		} else if block {
			fcScore += int64(math.Round(float64(best.mult*maxCut) * fcAcc))
		}
		if !link {
			if e.kind == evGood && score == 115 {
				streak++
			} else if block {
				g.maxStreak = max(g.maxStreak, streak)
				streak = 0
			}
		}
		if maxScore > 0 {
			fcAcc = float64(fcScore) / float64(maxScore)
		}
	}
	g.maxStreak = max(g.maxStreak, streak)
	g.fcAcc = fcAcc

	// BeatLeader's average height is the mean of the height changes, or the
	// info's height when the file has none.
	if len(d.heights) > 0 {
		s := 0.0
		for _, h := range d.heights {
			s += float64(h.Height)
		}
		g.averageHeight = s / float64(len(d.heights))
	} else {
		g.averageHeight = float64(d.info.Height)
	}
	if n := len(d.frames); n > 0 {
		var x, y, z float64
		for i := range d.frames {
			p := d.frames[i].Head.Pos
			x, y, z = x+float64(p.X), y+float64(p.Y), z+float64(p.Z)
		}
		g.averageHeadPos = position{finite(x / float64(n)), finite(y / float64(n)), finite(z / float64(n))}
	}
}

// finite keeps NaN and infinities, which a corrupt frame can hold, out of
// JSON.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// scoreGraph is BeatLeader's accuracy graph: one value per whole second of
// the last frame's time.
func (v *view) scoreGraph() []float64 {
	d, sc := v.d, v.sc
	if len(d.frames) == 0 || len(sc.events) == 0 {
		return nil
	}
	end := d.frames[len(d.frames)-1].Time
	if !(end >= 1) || end > 24*3600 { // NaN, too short, or absurd
		return nil
	}
	n := int(end)
	graph := make([]float64, n)
	acc := 0.0
	k := 0
	for i := 0; i < n; i++ {
		sum, cnt := 0.0, 0
		for k < len(sc.events) && sc.events[k].time < float32(i+1) {
			e := &sc.events[k]
			if e.kind != evBomb && e.kind != evWall && e.maxScore > 0 {
				acc = float64(e.score) / float64(e.maxScore)
			}
			sum += acc
			cnt++
			k++
		}
		if cnt > 0 {
			graph[i] = sum / float64(cnt)
		}
		if graph[i] == 0 {
			if i == 0 {
				graph[i] = 1
			} else {
				graph[i] = graph[i-1]
			}
		}
	}
	return graph
}

func (v *view) native(g *gameStats) scoreStatistic {
	d, fin := v.d, v.sc.final
	l, r := &g.hands[left], &g.hands[right]
	cut := func(h *handStats) []float64 {
		return []float64{mean(h.cutPre, h.preN), mean(h.cutAcc, h.accN), mean(h.cutPost, h.postN)}
	}
	grid := make([]float64, 12)
	for i := range grid {
		grid[i] = mean(g.grid[i], g.gridN[i])
	}
	var streak *int
	if !g.poodle {
		s := g.maxStreak
		streak = &s
	}
	// BeatLeader: bombs by colour, and no bomb has colour 0
	bombsLeft, bombsRight := 0, g.bombs
	var endTime float64
	if len(d.frames) > 0 {
		endTime = finite(float64(d.frames[len(d.frames)-1].Time))
	}
	graph := g.graph
	if graph == nil {
		graph = []float64{}
	}
	return scoreStatistic{
		HitTracker: hitTracker{
			MaxCombo: int(fin.maxCombo), MaxStreak: streak,
			LeftTiming: finite(mean(l.timing, l.good)), RightTiming: finite(mean(r.timing, r.good)),
			LeftMiss: l.miss, RightMiss: r.miss, LeftBadCuts: g.badByType[0], RightBadCuts: g.badByType[1],
			LeftBombs: bombsLeft, RightBombs: bombsRight,
		},
		AccuracyTracker: accuracyTracker{
			AccLeft: mean(l.acc, l.accN), AccRight: mean(r.acc, r.accN),
			LeftPreswing: finite(mean(l.pre, l.preN)), RightPreswing: finite(mean(r.pre, r.preN)),
			LeftPostswing: finite(mean(l.post, l.postN)), RightPostswing: finite(mean(r.post, r.postN)),
			LeftTimeDependence: finite(mean(l.normalZ, l.accN)), RightTimeDependence: finite(mean(r.normalZ, r.accN)),
			LeftAverageCut: cut(l), RightAverageCut: cut(r), GridAcc: grid, FcAcc: finite(g.fcAcc),
		},
		WinTracker: winTracker{
			Won: !(d.info.FailTime >= 0.01), EndTime: endTime, NbOfPause: g.pausesIn, TotalPauseDuration: g.pausedIn,
			JumpDistance: finite(float64(d.info.JumpDistance)), AverageHeight: finite(g.averageHeight),
			AverageHeadPosition: g.averageHeadPos, TotalScore: int(fin.score), MaxScore: int(fin.maxScore),
			FailTime: finite(float64(d.info.FailTime)),
		},
		ScoreGraphTracker: scoreGraphTracker{Graph: graph},
	}
}

// analyze is Replay.Analyze for BSOR: BeatLeader's statistics as tables and
// its accuracy graph as a chart, and the misses, bad cuts, bombs, walls and
// pauses as moments.
func (v *view) analyze() *model.Analysis {
	g := v.scoreStats()
	a := &model.Analysis{Moments: v.moments(g)}
	a.Stats = model.Stats{Tables: v.tables(g), Native: v.playStats(g)}
	if c, ok := v.graphChart(g.graph); ok {
		a.Charts = []model.Chart{c}
	}
	return a
}

// graphChart lays the per-second graph over the timeline's frames.
func (v *view) graphChart(graph []float64) (model.Chart, bool) {
	n := len(v.times)
	if n == 0 || len(graph) == 0 {
		return model.Chart{}, false
	}
	m := min(n, 1024)
	vals := make([]float64, m)
	for k := range vals {
		// a damaged frame can hold any time, +Inf included
		t := float64(v.times[k*n/m])
		i := 0
		switch {
		case t >= float64(len(graph)):
			i = len(graph) - 1
		case t > 0:
			i = int(t)
		}
		vals[k] = graph[i] * 100
	}
	return model.Chart{Title: "accuracy % per second (BeatLeader's graph)",
		Series: []model.Series{{Label: "accuracy", Player: 0, Values: vals}}}, true
}

func count(key, label string, n int) model.StatRow {
	return model.StatRow{Key: key, Label: label, Frame: -1, Cells: []model.Field{{Key: key, Label: label, Value: int64(n)}}}
}

// pct is a ratio shown as a percentage with two decimals.
func pct(key, label string, ratio float64) model.Field {
	return model.Field{Key: key, Label: label, Value: ratio * 100, Name: fmt.Sprintf("%.2f", ratio*100)}
}

// dec is a value with a fixed number of decimals.
func dec(key, label string, x float64, prec int) model.Field {
	return model.Field{Key: key, Label: label, Value: x, Name: fmt.Sprintf("%.*f", prec, x)}
}

func row(key, label string, cells ...model.Field) model.StatRow {
	for i := range cells {
		if cells[i].Key == "" {
			cells[i].Key, cells[i].Label = key, label
		}
	}
	return model.StatRow{Key: key, Label: label, Frame: -1, Cells: cells}
}

// none is an empty cell: the file cannot say.
var none = model.Field{Name: "—"}

func (v *view) tables(g *gameStats) []model.StatTable {
	d, fin := v.d, v.sc.final
	in := &d.info
	p := v.player()
	label := p.Label()
	if p.Name != "" {
		label += " " + p.Name
	}

	result, _ := v.result()
	var end time.Duration
	if len(v.times) > 0 {
		end = secs(v.times[len(v.times)-1])
	}
	streak := model.Field{Value: int64(g.maxStreak)}
	if g.poodle {
		streak = model.Field{Name: "— (repeated note ids)"}
	}
	score := model.StatTable{Key: "score", Title: "Score (BeatLeader's statistics)", Player: -1, Columns: []string{label},
		Rows: []model.StatRow{
			row("score", "Score (before modifiers)", model.Field{Value: int64(fin.score)}),
			row("accuracy", "Accuracy (%)", pct("", "", accuracy(fin))),
			row("fcAccuracy", "Full-combo accuracy (%)", pct("", "", g.fcAcc)),
			row("maxCombo", "Max combo (notes)", model.Field{Value: int64(fin.maxCombo)}),
			row("maxStreak", "Longest streak of 115s (notes)", streak),
			row("result", "Result", model.Field{Value: result}),
			row("endTime", "Played to (song time)", model.Field{Value: end.Seconds(), Name: model.FormatDuration(end)}),
			count("misses", "Misses", g.hands[both].miss),
			count("badCuts", "Bad cuts", g.hands[both].bad),
			count("bombHits", "Bombs hit", g.bombs),
			count("wallHits", "Walls hit", len(d.walls)),
			count("pauses", "Pauses during the notes", g.pausesIn),
			row("pausedTime", "Paused (s)", model.Field{Value: g.pausedIn}),
			row("jumpDistance", "Jump distance (m)", dec("", "", float64(in.JumpDistance), 2)),
			row("averageHeight", "Average height (m)", dec("", "", g.averageHeight, 2)),
		}}
	if g.pausesOut > 0 {
		// BeatLeader leaves these out; the file has them
		score.Rows = append(score.Rows, count("pausesOutside", "Pauses before or after the notes", g.pausesOut))
	}

	hand := func(key, label string, f func(h *handStats) model.Field) model.StatRow {
		return row(key, label, f(&g.hands[left]), f(&g.hands[right]), f(&g.hands[both]))
	}
	avg := func(sum func(h *handStats) float64, n func(h *handStats) int, scale float64, prec int) func(h *handStats) model.Field {
		return func(h *handStats) model.Field {
			if n(h) == 0 {
				return none
			}
			return dec("", "", finite(mean(sum(h), n(h))*scale), prec)
		}
	}
	// a swing rating as the share of the angle the game pays in full
	// (SaberSwingRating: a rating of 1 is a 100° swing before the cut, 60°
	// after it, less when the cut plane tilts); above 100% is overswing
	angle := func(sum func(h *handStats) float64, n func(h *handStats) int) func(h *handStats) model.Field {
		return func(h *handStats) model.Field {
			if n(h) == 0 {
				return none
			}
			x := finite(mean(sum(h), n(h)) * 100)
			return model.Field{Value: x, Name: fmt.Sprintf("%.1f%%", x)}
		}
	}
	hands := model.StatTable{Key: "hands", Title: "By hand (BeatLeader's accuracy and hit trackers)", Player: 0,
		Columns: []string{"Left (red)", "Right (blue)", "Both"},
		Rows: []model.StatRow{
			hand("goodCuts", "Good cuts", func(h *handStats) model.Field { return model.Field{Value: int64(h.good)} }),
			hand("averageCut", "Average cut score (of 115)", avg(func(h *handStats) float64 { return h.acc }, func(h *handStats) int { return h.accN }, 1, 2)),
			hand("preswing", "Pre-swing angle (100% = 100°, all 70 points)", angle(func(h *handStats) float64 { return h.pre }, func(h *handStats) int { return h.preN })),
			hand("postswing", "Post-swing angle (100% = 60°, all 30 points)", angle(func(h *handStats) float64 { return h.post }, func(h *handStats) int { return h.postN })),
			hand("preswingPoints", "Pre-swing points (of 70)", avg(func(h *handStats) float64 { return h.cutPre }, func(h *handStats) int { return h.preN }, 1, 2)),
			hand("accuracyPoints", "Centre points (of 15)", avg(func(h *handStats) float64 { return h.cutAcc }, func(h *handStats) int { return h.accN }, 1, 2)),
			hand("postswingPoints", "Post-swing points (of 30)", avg(func(h *handStats) float64 { return h.cutPost }, func(h *handStats) int { return h.postN }, 1, 2)),
			hand("timeDependence", "Time dependence (0 = swings along the notes' travel, 1 = across)", avg(func(h *handStats) float64 { return h.normalZ }, func(h *handStats) int { return h.accN }, 1, 3)),
			hand("timing", "Average time deviation (ms)", avg(func(h *handStats) float64 { return h.timing }, func(h *handStats) int { return h.good }, 1000, 1)),
			hand("misses", "Misses (by note colour)", func(h *handStats) model.Field { return model.Field{Value: int64(h.miss)} }),
			hand("badCuts", "Bad cuts (by the saber that cut)", func(h *handStats) model.Field { return model.Field{Value: int64(h.bad)} }),
			row("bombHits", "Bombs hit (the file does not say which saber)", none, none, model.Field{Value: int64(g.bombs)}),
		}}
	if g.badUnknown > 0 {
		hands.Rows = append(hands.Rows, row("badCutsUnrecorded", "Bad cuts with no saber recorded (old mod)", none, none, model.Field{Value: int64(g.badUnknown)}))
	}

	grid := model.StatTable{Key: "grid", Title: "Average cut score by note position (of 115)", Player: 0,
		Columns: []string{"Line 0 (left)", "Line 1", "Line 2", "Line 3 (right)"}}
	for layer := 2; layer >= 0; layer-- {
		cells := make([]model.Field, 4)
		for line := range cells {
			i := layer*4 + line
			if g.gridN[i] == 0 {
				cells[line] = none
			} else {
				cells[line] = dec("", "", mean(g.grid[i], g.gridN[i]), 2)
			}
		}
		grid.Rows = append(grid.Rows, row(layerNames[layer], layerName(layer)+" row", cells...))
	}
	return []model.StatTable{score, hands, grid}
}
