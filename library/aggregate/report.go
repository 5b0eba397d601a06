package aggregate

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"rewind/decoders"
	"rewind/model"
)

// Value is one stat of a group as reports show it: the format's StatDef
// and the number its Agg makes of the group's games.
type Value struct {
	Def model.StatDef
	// Total is the sum over the games (AggSum); Mean the sum over the games
	// that have the stat; Best the least or greatest value (AggMin,
	// AggMax); Ratio the ratio of two sums (AggRatio).
	Total, Mean, Best, Ratio float64
	N                        int // games that have the stat
	OK                       bool
}

// Number is the value a column shows: the mean of a sum, the best of a
// min or max, the ratio of a ratio.
func (v Value) Number() float64 {
	switch v.Def.Agg {
	case model.AggMin, model.AggMax:
		return v.Best
	case model.AggRatio:
		return v.Ratio
	}
	return v.Mean
}

// defs are the StatDefs of the formats the group's games are of, in the
// formats' registry order and each format's own order, each key once.
func (g *Group) defs() []model.StatDef {
	var out []model.StatDef
	seen := map[string]bool{}
	for _, f := range decoders.Formats {
		if g.Formats[f.ID] == 0 {
			continue
		}
		for _, d := range f.Stats {
			if !seen[d.Key] {
				seen[d.Key] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// StatValues are the group's stats in the formats' order; a stat no game has
// is left out, and so is a ratio whose denominator is zero.
func (g *Group) StatValues() []Value {
	var out []Value
	for _, d := range g.defs() {
		v := Value{Def: d}
		switch d.Agg {
		case model.AggRatio:
			num, den := g.Stats[d.Num], g.Stats[d.Den]
			if num == nil || den == nil || den.Sum == 0 {
				continue
			}
			scale := d.Scale
			if scale == 0 {
				scale = 1
			}
			v.Ratio, v.N, v.OK = num.Sum/den.Sum*scale, den.N, true
		case model.AggTally:
			continue // tallies have their own list
		default:
			s := g.Stats[d.Key]
			if s == nil || s.N == 0 {
				continue
			}
			v.Total, v.N, v.OK = s.Sum, s.N, true
			v.Mean = s.Sum / float64(s.N)
			if d.Agg == model.AggMin {
				v.Best = s.Min
			} else {
				v.Best = s.Max
			}
		}
		out = append(out, v)
	}
	return out
}

// Tally is one tally's buckets, largest first.
type Tally struct {
	Def     model.StatDef
	Buckets []Bucket
}

// Bucket is one name of a tally and its count.
type Bucket struct {
	Name  string
	Count float64
}

// TallyList is the group's tallies in the formats' order.
func (g *Group) TallyList() []Tally {
	var out []Tally
	for _, d := range g.defs() {
		t := g.Tallies[d.Key]
		if d.Agg != model.AggTally || len(t) == 0 {
			continue
		}
		tl := Tally{Def: d}
		for name, n := range t {
			tl.Buckets = append(tl.Buckets, Bucket{name, n})
		}
		sort.Slice(tl.Buckets, func(i, j int) bool {
			if tl.Buckets[i].Count != tl.Buckets[j].Count {
				return tl.Buckets[i].Count > tl.Buckets[j].Count
			}
			return tl.Buckets[i].Name < tl.Buckets[j].Name
		})
		out = append(out, tl)
	}
	return out
}

// FormatValue shows a number in its unit for a table cell.
func FormatValue(x float64, u model.Unit) string {
	switch u {
	case model.UnitSeconds:
		return model.FormatDuration(time.Duration(x * float64(time.Second)))
	case model.UnitPercent:
		return fmt.Sprintf("%.1f%%", 100*x)
	case model.UnitDamage:
		return fmt.Sprintf("%.1f%%", x)
	}
	// whole numbers and means of 100 or more as counts, 1,234,567; the
	// rest to three figures, so that a column's numbers read alike: 97.1
	// beside 116, 1.15 beside 24.0
	switch a := math.Abs(x); {
	case a >= 1e15: // past what an int64 of it shows
		return fmt.Sprintf("%.0f", x)
	case x == math.Trunc(x) || a >= 99.95:
		return model.FormatCount(int64(math.Round(x)))
	case a >= 9.995:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// Played shows time played at the scale of an archive: 40s, 42m, 3h05m,
// 1,204h.
func Played(d time.Duration) string {
	if d < 59500*time.Millisecond {
		return fmt.Sprintf("%ds", int64(d.Round(time.Second)/time.Second))
	}
	m := int64(d.Round(time.Minute) / time.Minute)
	switch {
	case m < 60:
		return fmt.Sprintf("%dm", m)
	case m < 100*60:
		return fmt.Sprintf("%dh%02dm", m/60, m%60)
	}
	return model.FormatCount(m/60) + "h"
}

// jsonGroup is one line of `stats --by --json`.
type jsonGroup struct {
	Group             map[string]string             `json:"group"`
	Names             map[string]string             `json:"names,omitempty"`
	ByName            bool                          `json:"byName,omitempty"`
	Games             int                           `json:"games"`
	Wins              int                           `json:"wins"`
	Losses            int                           `json:"losses"`
	WinRate           *float64                      `json:"winRate"`
	Outcomes          map[string]int                `json:"outcomes"`
	First             *time.Time                    `json:"first,omitempty"`
	Last              *time.Time                    `json:"last,omitempty"`
	TimePlayedSeconds float64                       `json:"timePlayedSeconds"`
	Formats           map[model.Format]int          `json:"formats"`
	Totals            map[string]float64            `json:"totals"`
	Means             map[string]float64            `json:"means"`
	Best              map[string]float64            `json:"best,omitempty"`
	Ratios            map[string]float64            `json:"ratios,omitempty"`
	Tallies           map[string]map[string]float64 `json:"tallies,omitempty"`
}

// GroupJSON writes a group as one object of `stats --by --json`.
func (r *Result) GroupJSON(g *Group) ([]byte, error) {
	j := jsonGroup{Group: map[string]string{}, ByName: g.ByName, Games: g.Games, Wins: g.Wins, Losses: g.Losses,
		Outcomes: map[string]int{}, TimePlayedSeconds: g.Played.Seconds(), Formats: g.Formats,
		Totals: map[string]float64{}, Means: map[string]float64{}}
	for i, k := range r.By {
		j.Group[string(k)] = g.Values[i]
		if i < len(g.Names) && g.Names[i] != "" {
			if j.Names == nil {
				j.Names = map[string]string{}
			}
			j.Names[string(k)] = g.Names[i]
		}
	}
	if rate, ok := g.WinRate(); ok {
		j.WinRate = &rate
	}
	for o, n := range g.Outcomes {
		name := string(o)
		if o == model.OutcomeUnknown {
			name = "unknown"
		}
		j.Outcomes[name] = n
	}
	if !g.First.IsZero() {
		f, l := g.First, g.Last
		j.First, j.Last = &f, &l
	}
	for _, v := range g.StatValues() {
		switch v.Def.Agg {
		case model.AggRatio:
			if j.Ratios == nil {
				j.Ratios = map[string]float64{}
			}
			j.Ratios[v.Def.Key] = v.Ratio
		case model.AggMin, model.AggMax:
			if j.Best == nil {
				j.Best = map[string]float64{}
			}
			j.Best[v.Def.Key] = v.Best
			j.Means[v.Def.Key] = v.Mean
		default:
			j.Totals[v.Def.Key] = v.Total
			j.Means[v.Def.Key] = v.Mean
		}
	}
	for _, t := range g.TallyList() {
		if j.Tallies == nil {
			j.Tallies = map[string]map[string]float64{}
		}
		m := map[string]float64{}
		for _, b := range t.Buckets {
			m[b.Name] = b.Count
		}
		j.Tallies[t.Def.Key] = m
	}
	return json.Marshal(j)
}

// SkippedJSON is the last line of `stats --by --json`: what was left out.
func (r *Result) SkippedJSON() ([]byte, error) {
	type skip struct {
		Path   string `json:"path"`
		Reason string `json:"reason"`
	}
	out := struct {
		Skipped []skip `json:"skipped"`
		Games   int    `json:"games"`
	}{Skipped: []skip{}, Games: r.Games}
	for _, s := range r.Skipped {
		out.Skipped = append(out.Skipped, skip{s.Path, s.Reason})
	}
	return json.Marshal(out)
}

// Column is one column of the table a text report or the TUI shows.
type Column struct {
	Title string
	Right bool // numbers are right-aligned
	Cell  func(g *Group) string
}

// Columns are the table's columns: the keys, the counts, and the stats the
// most counted format marks Short (at most maxStats), each a mean per game,
// a best or a ratio of sums, then its tallies' most frequent names.
func (r *Result) Columns(maxStats int) []Column {
	var cols []Column
	for i, k := range r.By {
		i := i
		cols = append(cols, Column{Title: string(k), Cell: func(g *Group) string {
			v := g.Values[i]
			if v == "" {
				v = "(none)"
			}
			if g.ByName && r.By[i] == KeyPlayer {
				v += " (name)"
			}
			if i < len(g.Names) && g.Names[i] != "" {
				v += ` "` + g.Names[i] + `"`
			}
			return v
		}})
	}
	cols = append(cols,
		Column{Title: "games", Right: true, Cell: func(g *Group) string { return model.FormatCount(int64(g.Games)) }},
		Column{Title: "W-L", Right: true, Cell: func(g *Group) string {
			return model.FormatCount(int64(g.Wins)) + "-" + model.FormatCount(int64(g.Losses))
		}},
		Column{Title: "win%", Right: true, Cell: func(g *Group) string {
			if rate, ok := g.WinRate(); ok {
				return fmt.Sprintf("%.0f%%", 100*rate)
			}
			return "–"
		}},
		Column{Title: "played", Right: true, Cell: func(g *Group) string { return Played(g.Played) }},
	)
	// the stats of the format most player-games are of
	counts := map[model.Format]int{}
	for _, g := range r.Groups {
		for f, n := range g.Formats {
			counts[f] += n
		}
	}
	var top *decoders.Format
	for _, f := range decoders.Formats {
		if counts[f.ID] > 0 && (top == nil || counts[f.ID] > counts[top.ID]) {
			top = f
		}
	}
	if top == nil {
		return cols
	}
	n := 0
	for _, d := range top.Stats {
		if n >= maxStats || d.Agg == model.AggTally || d.Short == "" {
			continue
		}
		d := d
		cols = append(cols, Column{Title: d.Short, Right: true, Cell: func(g *Group) string {
			for _, v := range g.StatValues() {
				if v.Def.Key == d.Key {
					return FormatValue(v.Number(), d.Unit)
				}
			}
			return "–"
		}})
		n++
	}
	for _, d := range top.Stats {
		if d.Agg != model.AggTally || d.Short == "" {
			continue
		}
		d := d
		cols = append(cols, Column{Title: "top " + d.Short, Cell: func(g *Group) string {
			for _, t := range g.TallyList() {
				if t.Def.Key == d.Key && len(t.Buckets) > 0 {
					return fmt.Sprintf("%s ×%s", t.Buckets[0].Name, FormatValue(t.Buckets[0].Count, model.UnitCount))
				}
			}
			return "–"
		}})
	}
	return cols
}
