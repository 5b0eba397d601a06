package diff

import (
	"fmt"
	"math"
	"time"

	"rewind/model"
)

// samples is how many points of the common game time a pair of series is
// read at to find where they part and their largest gap: enough for a
// terminal's width, and the same for any length of game.
const samples = 512

// partSteps are the round lengths of game time the parts are cut at; the
// first that makes at most maxParts parts is taken.
var partSteps = []time.Duration{
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour,
}

const maxParts = 8

// compareCharts pairs the charts with the same title and, inside them, the
// series of paired players (or of the same label).
func compareCharts(a, b *model.Replay, pairs [][2]int, unmatched *[]string) []ChartDiff {
	ca := append(append([]model.Chart(nil), a.Charts...), a.Analysis().Charts...)
	cb := append(append([]model.Chart(nil), b.Charts...), b.Analysis().Charts...)
	pairB := map[int]int{}
	for _, p := range pairs {
		pairB[p[0]] = p[1]
	}
	from, to, ok := commonTime(a, b)
	var out []ChartDiff
	usedB := make([]bool, len(cb))
	for i := range ca {
		j := -1
		for k := range cb {
			if !usedB[k] && norm(cb[k].Title) == norm(ca[i].Title) {
				j = k
				break
			}
		}
		if j < 0 {
			*unmatched = append(*unmatched, fmt.Sprintf("chart %q only in A", ca[i].Title))
			continue
		}
		usedB[j] = true
		if !ok {
			continue
		}
		cd := ChartDiff{Title: ca[i].Title}
		for _, sa := range ca[i].Series {
			for _, sb := range cb[j].Series {
				match := sa.Player < 0 && sb.Player < 0 && norm(sa.Label) == norm(sb.Label)
				if pb, paired := pairB[sa.Player]; sa.Player >= 0 && paired && sb.Player == pb {
					match = true
				}
				if match {
					cd.Series = append(cd.Series, compareSeries(a, b, sa, sb, from, to))
					break
				}
			}
		}
		if len(cd.Series) > 0 {
			out = append(out, cd)
		}
	}
	for k := range cb {
		if !usedB[k] {
			*unmatched = append(*unmatched, fmt.Sprintf("chart %q only in B", cb[k].Title))
		}
	}
	return out
}

// commonTime is the game time both replays cover.
func commonTime(a, b *model.Replay) (from, to time.Duration, ok bool) {
	ta, tb := &a.Timeline, &b.Timeline
	if ta.Count == 0 || tb.Count == 0 {
		return 0, 0, false
	}
	from = max(ta.Time(0), tb.Time(0))
	to = min(ta.Time(ta.Count-1), tb.Time(tb.Count-1))
	return from, to, to > from
}

// valueAt reads a series at a game time: the value of the sample that
// covers the frame on screen then. NaN when the series has none.
func valueAt(r *model.Replay, s *model.Series, t time.Duration) float64 {
	n := r.Timeline.Count
	if len(s.Values) == 0 || n == 0 {
		return math.NaN()
	}
	f := r.Timeline.At(t)
	if f > 0 && r.Timeline.Time(f) > t {
		f--
	}
	k := int(int64(f) * int64(len(s.Values)) / int64(n))
	return s.Values[min(max(k, 0), len(s.Values)-1)]
}

func compareSeries(a, b *model.Replay, sa, sb model.Series, from, to time.Duration) SeriesDiff {
	sd := SeriesDiff{Label: sa.Label, PlayerA: sa.Player, PlayerB: sb.Player}
	if sa.Player >= 0 {
		sd.Label = "" // the players name it
	}
	at := func(k int) time.Duration { return from + time.Duration(int64(to-from)*int64(k)/int64(samples-1)) }
	sign := 0
	for k := 0; k < samples; k++ {
		t := at(k)
		x, y := valueAt(a, &sa, t), valueAt(b, &sb, t)
		if math.IsNaN(x) || math.IsNaN(y) {
			continue
		}
		d := y - x
		if math.Abs(d) > math.Abs(sd.Gap) {
			sd.Gap, sd.GapAt = d, t
		}
		s := 0
		switch {
		case d > 1e-9*math.Max(math.Abs(x), math.Abs(y)):
			s = 1
		case d < -1e-9*math.Max(math.Abs(x), math.Abs(y)):
			s = -1
		}
		if s != sign {
			sign, sd.Apart = s, t
		}
	}
	switch sign {
	case 1:
		sd.Higher = "B"
	case -1:
		sd.Higher = "A"
	}
	step := partSteps[len(partSteps)-1]
	for _, s := range partSteps {
		if (to-from)/s < maxParts {
			step = s
			break
		}
	}
	// parts end at round times of the game clock, and at the end
	start := from
	for start < to {
		end := (start/step + 1) * step
		if end > to || to-end < step/4 {
			end = to // a sliver at the end joins the last part
		}
		sd.Parts = append(sd.Parts, Part{From: start, To: end,
			AtA: valueAt(a, &sa, end), AtB: valueAt(b, &sb, end),
			MeanA: mean(a, &sa, start, end), MeanB: mean(b, &sb, start, end)})
		start = end
	}
	return sd
}

// mean is a series' mean over a stretch of game time, read at 64 evenly
// spaced times (NaN when it has no value there).
func mean(r *model.Replay, s *model.Series, from, to time.Duration) float64 {
	const k = 64
	sum, n := 0.0, 0
	for i := 0; i < k; i++ {
		v := valueAt(r, s, from+time.Duration(int64(to-from)*int64(i)/(k-1)))
		if !math.IsNaN(v) {
			sum += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}
