package aggregate

import (
	"strings"

	"rewind/model"
)

// A Packer holds games' summaries in the form the aggregation reads, for
// a caller that keeps many games to group them again and again (the TUI's
// aggregate view changes its key at a keystroke). A summary's stats are
// key, name and value, 40 bytes each and some fifty a game; packed, the
// keys and names are a layout that all the games of a format share, and a
// game keeps 8 bytes a stat: a million games fit in a few hundred MB, not
// two GB.
type Packer struct {
	layouts map[string]*layout
	last    *layout
	key     []byte
}

// layout is the keys and names of a player's stats, in order.
type layout struct {
	keys, names []string
}

// packedPlayer is one player's summary, packed.
type packedPlayer struct {
	outcome model.Outcome
	lay     *layout
	vals    []float64
}

// NewPacker starts packing games.
func NewPacker() *Packer { return &Packer{layouts: map[string]*layout{}} }

// Pack replaces g's summary with its packed form. The moments go: an
// aggregation does not read them.
func (p *Packer) Pack(g *Game) {
	s := g.Summary
	if s == nil {
		return
	}
	n := 0
	for _, ps := range s.Players {
		n += len(ps.Stats)
	}
	vals := make([]float64, 0, n)
	g.packed = make([]packedPlayer, len(s.Players))
	for i, ps := range s.Players {
		from := len(vals)
		for _, st := range ps.Stats {
			vals = append(vals, st.Value)
		}
		g.packed[i] = packedPlayer{outcome: ps.Outcome, lay: p.layoutOf(ps.Stats), vals: vals[from:len(vals):len(vals)]}
	}
	g.Summary = nil
}

// layoutOf returns the shared layout of stats' keys and names.
func (p *Packer) layoutOf(stats []model.Stat) *layout {
	if l := p.last; l != nil && l.fits(stats) {
		return l
	}
	p.key = p.key[:0]
	for _, st := range stats {
		p.key = append(p.key, st.Key...)
		p.key = append(p.key, 0)
		p.key = append(p.key, st.Name...)
		p.key = append(p.key, 0)
	}
	l := p.layouts[string(p.key)]
	if l == nil {
		l = &layout{keys: make([]string, len(stats)), names: make([]string, len(stats))}
		for i, st := range stats {
			l.keys[i], l.names[i] = strings.Clone(st.Key), strings.Clone(st.Name)
		}
		p.layouts[string(p.key)] = l
	}
	p.last = l
	return l
}

func (l *layout) fits(stats []model.Stat) bool {
	if len(stats) != len(l.keys) {
		return false
	}
	for i, st := range stats {
		if st.Key != l.keys[i] || st.Name != l.names[i] {
			return false
		}
	}
	return true
}

// playerStats calls fn with each stat of a game's player, packed or not.
func (g *Game) playerStats(pi int, fn func(key, name string, v float64)) {
	if g.packed != nil {
		if pi < len(g.packed) {
			pp := &g.packed[pi]
			for i, v := range pp.vals {
				fn(pp.lay.keys[i], pp.lay.names[i], v)
			}
		}
		return
	}
	if g.Summary == nil || pi >= len(g.Summary.Players) {
		return
	}
	for _, st := range g.Summary.Players[pi].Stats {
		fn(st.Key, st.Name, st.Value)
	}
}

// outcome is a game's player's outcome, packed or not.
func (g *Game) outcome(pi int) model.Outcome {
	switch {
	case g.packed != nil && pi < len(g.packed):
		return g.packed[pi].outcome
	case g.Summary != nil && pi < len(g.Summary.Players):
		return g.Summary.Players[pi].Outcome
	}
	return model.OutcomeUnknown
}
