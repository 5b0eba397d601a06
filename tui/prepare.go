package tui

import (
	"sort"
	"strings"
	"sync"

	"rewind/model"
	"rewind/theme"
)

// maxMarks caps how many distinct positions the timeline remembers for
// ticks, and chartPoints how many values a chart series keeps: beyond a few
// thousand no terminal can show the difference, and per-width work stays
// bounded by these, never by the replay's length.
const (
	maxMarks    = 4096
	chartPoints = 2048
)

// prepared is everything about a replay that costs a pass over the whole
// replay. It is built once, off the UI goroutine (in the decode command),
// so that View costs only what is on the screen.
type prepared struct {
	notable  []float64 // positions 0..1 of notable events, deduplicated
	problems []float64 // positions 0..1 of diagnostics with a frame
	charts   []preChart
	skipped  int          // diagnostics that are skipped ranges
	skipLen  int64        // bytes in them
	skips    []model.Span // the skipped ranges, by stream and offset
	labelW   int          // width of the widest frame label

	kinds     []kindCount // the events' kinds in order of first appearance
	kindOf    []uint16    // per kind id of the replay's events: its index in kinds
	evPlayers map[int]int // events per player, -1 for events of no player

	// the game analysis (model.Analysis): moments in frame order, their
	// marks for the timeline, and the stats tables
	moments []model.Moment
	momMark []momentMark
	stats   []model.StatTable
	// analysed says the analysis is in (setAnalysis); until then the view
	// says it is still coming
	analysed bool

	searchOnce sync.Once
	search     []string // per event: player label + summary, for `/`
	players    []string // per player: what `/` matches
}

type preChart struct {
	title  string
	series []preSeries
	lo, hi float64
}

type preSeries struct {
	label  string
	player int
	vals   []float64 // at most chartPoints values, max-pooled
}

// prepare scans the replay once and runs its game analysis.
func prepare(r *model.Replay) *prepared {
	p := prepareEvents(r)
	p.setAnalysis(analyze(r))
	return p
}

// prepareEvents is the part of prepare that the view needs to show the
// events: the timeline's marks, the charts the decoder made, the kinds. It
// also builds the model's offset index (Replay.EventAt) so that the first
// byte-cursor move does not pay for it on the UI goroutine. The game
// analysis comes later (analyze), so opening a replay does not wait for it.
func prepareEvents(r *model.Replay) *prepared {
	p := &prepared{}
	n := r.Timeline.Count
	pos := func(f int) float64 {
		if n <= 1 {
			return 0
		}
		return float64(f) / float64(n-1)
	}
	last := -1.0
	for i := range r.Events {
		if !r.EventNotable(i) {
			continue
		}
		x := pos(int(r.Events[i].Frame))
		// events are sorted by frame: keep one mark per 1/maxMarks of the game
		if last >= 0 && x-last < 1.0/maxMarks {
			continue
		}
		p.notable = append(p.notable, x)
		last = x
	}
	for _, d := range r.Diagnostics {
		if d.Skipped {
			p.skipped++
			p.skipLen += d.Span.Len
			p.skips = append(p.skips, d.Span)
		}
		if d.Frame >= 0 && d.Frame < max(n, 1) {
			p.problems = append(p.problems, pos(d.Frame))
		}
	}
	sort.Float64s(p.problems)
	sort.Slice(p.skips, func(i, j int) bool {
		if p.skips[i].Stream != p.skips[j].Stream {
			return p.skips[i].Stream < p.skips[j].Stream
		}
		return p.skips[i].Off < p.skips[j].Off
	})
	if len(p.problems) > maxMarks {
		p.problems = dedupe(p.problems)
	}
	// the decoder's charts; the ones the game analysis derives (BeatLeader's
	// accuracy graph) follow with it
	p.charts = preCharts(r.Charts)
	if n > 0 {
		// labels grow with the number, so the ends are the widest
		p.labelW = max(len(frameLabel(&r.Timeline, 0)), len(frameLabel(&r.Timeline, n-1)))
	}
	if len(r.Events) > 0 {
		r.EventAt("", 0)
	}
	p.kinds, p.kindOf = internKinds(r)
	p.evPlayers = map[int]int{}
	for i := range r.Events {
		p.evPlayers[max(int(r.Events[i].Player), -1)]++
	}
	return p
}

// preCharts pools the charts' series for the chart lane.
func preCharts(charts []model.Chart) []preChart {
	var out []preChart
	for _, c := range charts {
		pc := preChart{title: c.Title, lo: 0, hi: 0}
		first := true
		for _, s := range c.Series {
			ps := preSeries{label: s.Label, player: s.Player, vals: pool(s.Values, chartPoints)}
			for _, v := range ps.vals {
				if v != v { // NaN: no value
					continue
				}
				if first || v < pc.lo {
					pc.lo = v
				}
				if first || v > pc.hi {
					pc.hi = v
				}
				first = false
			}
			pc.series = append(pc.series, ps)
		}
		// counts and percents read from zero: a flat 4 stocks is a full bar,
		// not an empty one
		pc.lo = min(pc.lo, 0)
		out = append(out, pc)
	}
	return out
}

// analysis is what the game analysis adds to a prepared replay: moments in
// frame order with their timeline marks, stats tables, derived charts.
type analysis struct {
	moments []model.Moment
	momMark []momentMark
	stats   []model.StatTable
	charts  []preChart
}

// analyze runs the replay's game analysis, off the UI goroutine, once: a
// format's game code may walk every frame.
func analyze(r *model.Replay) *analysis {
	n := r.Timeline.Count
	pos := func(f int) float64 {
		if n <= 1 {
			return 0
		}
		return float64(f) / float64(n-1)
	}
	a := r.Analysis()
	an := &analysis{moments: a.Moments, stats: a.Stats.Tables, charts: preCharts(a.Charts)}
	if !sort.SliceIsSorted(an.moments, func(i, j int) bool { return an.moments[i].Frame < an.moments[j].Frame }) {
		an.moments = append([]model.Moment(nil), an.moments...)
		sort.SliceStable(an.moments, func(i, j int) bool { return an.moments[i].Frame < an.moments[j].Frame })
	}
	for _, m := range an.moments {
		end := max(m.End, m.Frame)
		an.momMark = append(an.momMark, momentMark{at: pos(m.Frame), end: pos(end), kind: m.Kind, player: momentPlayer(&m), ranged: end > m.Frame})
	}
	return an
}

// setAnalysis adds the analysis to p. It runs on the goroutine that reads
// p (the UI's, or the decode command's before p is handed over).
func (p *prepared) setAnalysis(an *analysis) {
	p.moments, p.momMark, p.stats = an.moments, an.momMark, an.stats
	p.charts = append(p.charts, an.charts...)
	p.analysed = true
}

// momentMark is a moment's place on the timeline, 0..1.
type momentMark struct {
	at, end float64
	kind    model.MomentKind
	player  int
	ranged  bool
}

func dedupe(xs []float64) []float64 {
	out := xs[:0]
	last := -1.0
	for _, x := range xs {
		if last >= 0 && x-last < 1.0/maxMarks {
			continue
		}
		out = append(out, x)
		last = x
	}
	return out
}

// pool reduces values to at most n by keeping the largest of each run, so
// peaks (a percent before a stock is lost) survive.
func pool(vals []float64, n int) []float64 {
	if len(vals) <= n {
		return append([]float64(nil), vals...)
	}
	out := make([]float64, n)
	for i := range out {
		lo, hi := i*len(vals)/n, (i+1)*len(vals)/n
		m := vals[lo]
		for _, v := range vals[lo:hi] {
			if v > m || m != m {
				m = v
			}
		}
		out[i] = m
	}
	return out
}

// searchText returns the strings `/` matches against, built on first use in
// the search command's goroutine.
func (p *prepared) searchText(r *model.Replay) ([]string, []string) {
	p.searchOnce.Do(func() {
		labels := make([]string, len(r.Players))
		p.players = make([]string, len(r.Players))
		for i, pl := range r.Players {
			labels[i] = theme.Safe(pl.Label())
			p.players[i] = theme.Safe(pl.Label() + " " + pl.Name + " " + pl.Code)
		}
		p.search = make([]string, len(r.Events))
		for i := range r.Events {
			s := theme.Safe(r.EventSummary(i))
			if f := r.EventFlag(i); f != "" && !strings.Contains(s, f) {
				s = "[" + theme.Safe(f) + "] " + s
			}
			if pl := int(r.Events[i].Player); pl >= 0 && pl < len(labels) {
				s = labels[pl] + " " + r.EventKind(i) + " " + s
			} else {
				s = r.EventKind(i) + " " + s
			}
			p.search[i] = s
		}
	})
	return p.search, p.players
}

// frameLabel is a frame's label for the events pane: without the unit when
// the label repeats it ("loop 669" -> "669"), as the timeline names it.
func frameLabel(t *model.Timeline, i int) string {
	l := t.Label(i)
	if t.Unit != "" && len(l) > len(t.Unit)+1 && strings.HasPrefix(l, t.Unit+" ") {
		return l[len(t.Unit)+1:]
	}
	return l
}
