package aggregate

import (
	"encoding/binary"
	"iter"
	"math"
	"slices"
	"strings"
	"time"

	"rewind/model"
)

// A List holds many games in the form the aggregation reads, for a caller
// that keeps them to group them again and again (the TUI's aggregate view
// changes its key at a keystroke). A Game is some 160 bytes and its
// players' and stats' slices as much again; in a List a game is a fixed
// record without pointers, its players numbers into a table of the
// distinct players, its strings numbers into a table of the distinct
// strings, and its stats' values varints (a whole number, as most stats
// are, takes a byte or two), their keys and names a layout the games of a
// format share: about 150 bytes a game, and nothing the collector scans.
// The moments are not kept: an aggregation does not read them.
type List struct {
	games   []listGame
	players []listPlayer
	// the players' stats' values, one player after another, in chunks
	// (a player's never split): the list grows without copying them
	vals [][]byte

	strs    []string // distinct strings; 0 is ""
	strIDs  map[string]uint32
	who     []Player // distinct players (slot, names, character, team)
	whoIDs  map[Player]uint32
	layouts []*layout // distinct stats layouts; 0 is none
	layIDs  map[string]uint32
	zones   []*time.Location
	key     []byte // scratch: a layout's key
	scratch Game   // AddHeader's
}

// listGame is a game in a List.
type listGame struct {
	sec, dur           int64 // the start (unix seconds) and the length
	nsec               int32
	zone               uint16 // the start's zone, in zones
	hasStart, partial  bool
	format, title, err uint32 // strings
	first              uint32 // the game's first player in players
	n                  uint32 // its players
}

// listPlayer is a player of a game in a List: who, the outcome (a string;
// "", OutcomeUnknown, when the summary has no such player) and the stats
// (layout, and where the values start in vals: the chunk << valShift | the
// place in it).
type listPlayer struct {
	who, outcome, layout, vals uint32
}

// valShift makes a value chunk 1 MB: 4,096 chunks are 4 GB of values,
// some 50 million games' worth.
const valShift = 20

// maxValue is the most bytes a value takes (appendValue).
const maxValue = 1 + 8

// layout is the keys and names of a player's stats, in order.
type layout struct {
	keys, names []string
}

// NewList starts an empty list.
func NewList() *List {
	return &List{strs: []string{""}, strIDs: map[string]uint32{"": 0}, whoIDs: map[Player]uint32{},
		layouts: []*layout{nil}, layIDs: map[string]uint32{}}
}

// Len is the number of games.
func (l *List) Len() int { return len(l.games) }

// Add appends a game (its Path is not kept: a list is of games, found by
// their place).
func (l *List) Add(g *Game) {
	lg := listGame{dur: int64(g.Duration), partial: g.Partial, format: l.str(string(g.Format)), title: l.str(g.Title),
		err: l.str(g.Err), first: uint32(len(l.players)), n: uint32(len(g.Players))}
	if !g.Start.IsZero() {
		lg.hasStart, lg.sec, lg.nsec, lg.zone = true, g.Start.Unix(), int32(g.Start.Nanosecond()), l.zone(g.Start.Location())
	}
	for pi, p := range g.Players {
		id, ok := l.whoIDs[p]
		if !ok {
			id = uint32(len(l.who))
			l.who = append(l.who, p)
			l.whoIDs[p] = id
		}
		lp := listPlayer{who: id}
		if g.Summary != nil && pi < len(g.Summary.Players) {
			ps := &g.Summary.Players[pi]
			lp.outcome, lp.layout = l.str(string(ps.Outcome)), l.layoutOf(ps.Stats)
			lp.vals = l.room(len(ps.Stats) * maxValue)
			c := &l.vals[len(l.vals)-1]
			for _, st := range ps.Stats {
				*c = appendValue(*c, st.Value)
			}
		}
		l.players = append(l.players, lp)
	}
	l.games = append(l.games, lg)
}

// Append adds the games of another list after this one's.
func (l *List) Append(o *List) {
	strs := make([]uint32, len(o.strs))
	for i, s := range o.strs {
		strs[i] = l.str(s)
	}
	who := make([]uint32, len(o.who))
	for i, p := range o.who {
		id, ok := l.whoIDs[p]
		if !ok {
			id = uint32(len(l.who))
			l.who = append(l.who, p)
			l.whoIDs[p] = id
		}
		who[i] = id
	}
	lays := make([]uint32, len(o.layouts))
	for i, lay := range o.layouts[1:] {
		st := make([]model.Stat, len(lay.keys))
		for j := range st {
			st[j] = model.Stat{Key: lay.keys[j], Name: lay.names[j]}
		}
		lays[i+1] = l.layoutOf(st)
	}
	zones := make([]uint16, len(o.zones))
	for i, z := range o.zones {
		zones[i] = l.zone(z)
	}
	base, valBase := uint32(len(l.players)), uint32(len(l.vals))<<valShift
	for _, p := range o.players {
		l.players = append(l.players, listPlayer{who: who[p.who], outcome: strs[p.outcome], layout: lays[p.layout], vals: valBase + p.vals})
	}
	l.vals = append(l.vals, o.vals...) // the chunks, not their bytes
	for _, g := range o.games {
		g.format, g.title, g.err, g.first = strs[g.format], strs[g.title], strs[g.err], base+g.first
		if g.hasStart {
			g.zone = zones[g.zone]
		}
		l.games = append(l.games, g)
	}
}

// Game fills g with game i: the header's facts and the players; the
// stats are read from the list as the aggregation asks. g's Players is
// reused; g is good until the next Game into it.
func (l *List) Game(i int, g *Game) {
	lg := &l.games[i]
	players := g.Players[:0]
	*g = Game{Format: model.Format(l.strs[lg.format]), Duration: time.Duration(lg.dur), Title: l.strs[lg.title],
		Err: l.strs[lg.err], Partial: lg.partial, list: l, at: i}
	if lg.hasStart {
		g.Start = time.Unix(lg.sec, int64(lg.nsec)).In(l.zones[lg.zone])
	}
	for _, p := range l.players[lg.first : lg.first+lg.n] {
		players = append(players, l.who[p.who])
	}
	g.Players = players
}

// All yields each game in turn, in one Game's memory (see Game).
func (l *List) All() iter.Seq[*Game] {
	return func(yield func(*Game) bool) {
		var g Game
		for i := range l.games {
			l.Game(i, &g)
			if !yield(&g) {
				return
			}
		}
	}
}

// player is game g's player pi in the list, nil when it has none.
func (l *List) player(g, pi int) *listPlayer {
	lg := &l.games[g]
	if pi < 0 || pi >= int(lg.n) {
		return nil
	}
	return &l.players[int(lg.first)+pi]
}

// room makes sure the last value chunk has n bytes free (a new chunk when
// it has not) and returns where they start.
func (l *List) room(n int) uint32 {
	if k := len(l.vals); k == 0 || len(l.vals[k-1])+n > 1<<valShift {
		l.vals = append(l.vals, make([]byte, 0, max(n, 1<<valShift)))
	}
	k := len(l.vals) - 1
	return uint32(k)<<valShift | uint32(len(l.vals[k]))
}

// Grow makes room for n more games of about players players each, so that
// a list filled to a known size is not copied as it grows.
func (l *List) Grow(n, players int) {
	l.games = slices.Grow(l.games, n)
	l.players = slices.Grow(l.players, n*players)
}

// str numbers a string.
func (l *List) str(s string) uint32 {
	if id, ok := l.strIDs[s]; ok {
		return id
	}
	s = strings.Clone(s) // not a part of a larger string kept alive
	id := uint32(len(l.strs))
	l.strs = append(l.strs, s)
	l.strIDs[s] = id
	return id
}

// zone numbers a time zone.
func (l *List) zone(z *time.Location) uint16 {
	for i, x := range l.zones {
		if x == z {
			return uint16(i)
		}
	}
	if len(l.zones) == math.MaxUint16 {
		return 0 // a list of 65,535 zones: a hostile one; the first stands in
	}
	l.zones = append(l.zones, z)
	return uint16(len(l.zones) - 1)
}

// layoutOf numbers the layout of stats' keys and names.
func (l *List) layoutOf(stats []model.Stat) uint32 {
	if len(stats) == 0 {
		return 0
	}
	l.key = l.key[:0]
	for _, st := range stats {
		l.key = append(l.key, st.Key...)
		l.key = append(l.key, 0)
		l.key = append(l.key, st.Name...)
		l.key = append(l.key, 0)
	}
	if id, ok := l.layIDs[string(l.key)]; ok {
		return id
	}
	lay := &layout{keys: make([]string, len(stats)), names: make([]string, len(stats))}
	for i, st := range stats {
		lay.keys[i], lay.names[i] = l.strs[l.str(st.Key)], l.strs[l.str(st.Name)]
	}
	id := uint32(len(l.layouts))
	l.layouts = append(l.layouts, lay)
	l.layIDs[string(l.key)] = id
	return id
}

// appendValue writes a stat's value: a whole number (below 2^53) as an
// even varint, twice it; any other value as 1 and its eight bytes.
func appendValue(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 && !(v == 0 && math.Signbit(v)) {
		return binary.AppendVarint(b, int64(v)*2)
	}
	b = binary.AppendVarint(b, 1)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// value reads a value appendValue wrote, and its length.
func value(b []byte) (float64, int) {
	x, n := binary.Varint(b)
	if x&1 == 0 {
		return float64(x >> 1), n
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[n:])), n + 8
}

// playerStats calls fn with each stat of a game's player, from the list
// or the summary.
func (g *Game) playerStats(pi int, fn func(key, name string, v float64)) {
	if g.list != nil {
		p := g.list.player(g.at, pi)
		if p == nil || p.layout == 0 {
			return
		}
		lay, b := g.list.layouts[p.layout], g.list.vals[p.vals>>valShift][p.vals&(1<<valShift-1):]
		for i := range lay.keys {
			v, n := value(b)
			b = b[n:]
			fn(lay.keys[i], lay.names[i], v)
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

// outcome is a game's player's outcome, from the list or the summary.
func (g *Game) outcome(pi int) model.Outcome {
	if g.list != nil {
		if p := g.list.player(g.at, pi); p != nil {
			return model.Outcome(g.list.strs[p.outcome])
		}
		return model.OutcomeUnknown
	}
	if g.Summary != nil && pi < len(g.Summary.Players) {
		return g.Summary.Players[pi].Outcome
	}
	return model.OutcomeUnknown
}
