package aggregate

import (
	"encoding/binary"
	"iter"
	"math"
	"slices"
	"sort"
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
// format share: about 170 bytes a game, and nothing the collector scans.
// The moments are not kept: an aggregation does not read them.
//
// A list is a run of segments, each with its own tables: lists filled on
// several cores are joined (Append) without copying a game.
type List struct {
	batch   bool // NewBatch's
	segs    []*segment
	starts  []int // each segment's first game's place in the list
	n       int
	scratch Game // AddHeader's
}

// segment is a part of a List.
type segment struct {
	games   []listGame
	players []listPlayer
	// the players' stats' values, one player after another, in chunks
	// (a player's never split): the segment grows without copying them
	vals [][]byte

	strs     []string // distinct strings; 0 is ""
	strIDs   map[string]uint32
	who      []Player // distinct players (slot, names, character, team), or a batch's (whoOf)
	whoIDs   map[Player]uint32
	batch    bool      // a batch's list: no player is looked up (whoOf)
	layouts  []*layout // distinct stats layouts; 0 is none
	layIDs   map[string]uint32
	zones    []*time.Location
	key      []byte    // scratch: a layout's key
	lastLays [4]uint32 // the layouts found last, the last first
}

// listGame is a game in a segment.
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
func NewList() *List { return &List{} }

// NewBatch starts an empty list for a batch of games that is read once
// and Reset (library.ScanInto's): the same as a List but that its players
// are kept game by game, not once each.
func NewBatch() *List { return &List{batch: true} }

func newSegment() *segment {
	return &segment{strs: []string{""}, strIDs: map[string]uint32{"": 0}, whoIDs: map[Player]uint32{},
		layouts: []*layout{nil}, layIDs: map[string]uint32{}}
}

// last is the segment games are added to.
func (l *List) last() *segment {
	if len(l.segs) == 0 {
		sg := newSegment()
		sg.batch = l.batch
		l.segs, l.starts = append(l.segs, sg), append(l.starts, l.n)
	}
	return l.segs[len(l.segs)-1]
}

// Len is the number of games.
func (l *List) Len() int { return l.n }

// Add appends a game (its Path is not kept: a list is of games, found by
// their place).
func (l *List) Add(g *Game) {
	l.last().add(g)
	l.n++
}

// Append moves the games of another list after this one's; o is empty
// after it.
func (l *List) Append(o *List) {
	for i, sg := range o.segs {
		l.segs, l.starts = append(l.segs, sg), append(l.starts, l.n+o.starts[i])
	}
	l.n += o.n
	*o = List{}
}

// Reset empties the list for games to be added again, keeping its memory:
// a scan's batches go round (library.ScanInto), each a list that its
// worker fills and the aggregation reads. The tables of strings, players
// and layouts stay while they are small, since the next batch's games
// mostly repeat them.
func (l *List) Reset() {
	if len(l.segs) == 0 {
		return
	}
	sg := l.segs[0]
	clear(l.segs[1:])
	l.segs, l.starts, l.n = l.segs[:1], l.starts[:1], 0
	sg.games, sg.players = sg.games[:0], sg.players[:0]
	if sg.batch {
		clear(sg.who) // the players of the games read
		sg.who = sg.who[:0]
	}
	if len(sg.vals) > 0 {
		clear(sg.vals[1:])
		sg.vals = sg.vals[:1]
		sg.vals[0] = sg.vals[0][:0]
	}
	if len(sg.strs) > maxKept || len(sg.who) > maxKept || len(sg.layouts) > maxKept || len(sg.zones) > maxKept {
		vals, batch := sg.vals, sg.batch
		*sg = *newSegment()
		sg.vals, sg.batch = vals, batch
	}
}

// maxKept is how many strings, players, layouts or zones a list's tables
// keep across a Reset.
const maxKept = 4096

// Grow makes room for n more games of about players players each, so that
// a list filled to a known size is not copied as it grows.
func (l *List) Grow(n, players int) {
	sg := l.last()
	sg.games = slices.Grow(sg.games, n)
	sg.players = slices.Grow(sg.players, n*players)
}

func (sg *segment) add(g *Game) {
	lg := listGame{dur: int64(g.Duration), partial: g.Partial, format: sg.str(string(g.Format)), title: sg.str(g.Title),
		err: sg.str(g.Err), first: uint32(len(sg.players)), n: uint32(len(g.Players))}
	if !g.Start.IsZero() {
		lg.hasStart, lg.sec, lg.nsec, lg.zone = true, g.Start.Unix(), int32(g.Start.Nanosecond()), sg.zone(g.Start.Location())
	}
	for pi, p := range g.Players {
		lp := listPlayer{who: sg.whoOf(p)}
		if g.Summary != nil && pi < len(g.Summary.Players) {
			ps := &g.Summary.Players[pi]
			lp.outcome, lp.layout = sg.str(string(ps.Outcome)), sg.layoutOf(ps.Stats)
			lp.vals = sg.room(len(ps.Stats) * maxValue)
			c := &sg.vals[len(sg.vals)-1]
			for _, st := range ps.Stats {
				*c = appendValue(*c, st.Value)
			}
		}
		sg.players = append(sg.players, lp)
	}
	sg.games = append(sg.games, lg)
}

// Game fills g with game i: the header's facts and the players; the
// stats are read from the list as the aggregation asks. g's Players is
// reused; g is good until the next Game into it.
func (l *List) Game(i int, g *Game) {
	k := sort.Search(len(l.starts), func(k int) bool { return l.starts[k] > i }) - 1
	l.segs[k].game(i-l.starts[k], g)
}

func (sg *segment) game(i int, g *Game) {
	lg := &sg.games[i]
	players := g.Players[:0]
	*g = Game{Format: model.Format(sg.strs[lg.format]), Duration: time.Duration(lg.dur), Title: sg.strs[lg.title],
		Err: sg.strs[lg.err], Partial: lg.partial, seg: sg, at: i}
	if lg.hasStart {
		g.Start = time.Unix(lg.sec, int64(lg.nsec)).In(sg.zones[lg.zone])
	}
	for _, p := range sg.players[lg.first : lg.first+lg.n] {
		players = append(players, sg.who[p.who])
	}
	g.Players = players
}

// All yields each game in turn, in one Game's memory (see Game).
func (l *List) All() iter.Seq[*Game] {
	return func(yield func(*Game) bool) {
		var g Game
		for _, sg := range l.segs {
			for i := range sg.games {
				sg.game(i, &g)
				if !yield(&g) {
					return
				}
			}
		}
	}
}

// player is game g's player pi in the segment, nil when it has none.
func (sg *segment) player(g, pi int) *listPlayer {
	lg := &sg.games[g]
	if pi < 0 || pi >= int(lg.n) {
		return nil
	}
	return &sg.players[int(lg.first)+pi]
}

// whoOf numbers a player: once for each distinct player, or, in a
// batch's list (NewBatch), once for each game's: a batch of 256 games is
// read once, and a look-up of each of its players in the table (hashing
// and comparing every string) cost more than keeping them all.
func (sg *segment) whoOf(p Player) uint32 {
	if sg.batch {
		sg.who = append(sg.who, p)
		return uint32(len(sg.who) - 1)
	}
	id, ok := sg.whoIDs[p]
	if !ok {
		id = uint32(len(sg.who))
		sg.who = append(sg.who, p)
		sg.whoIDs[p] = id
	}
	return id
}

// room makes sure the last value chunk has n bytes free (a new chunk when
// it has not) and returns where they start.
func (sg *segment) room(n int) uint32 {
	if k := len(sg.vals); k == 0 || len(sg.vals[k-1])+n > min(cap(sg.vals[k-1]), 1<<valShift) {
		// chunks from 64 kB up to 1 MB: a scan's batch of 256 games
		// takes some 20 kB, a list of a million some 100 MB
		size := 64 << 10
		if k > 0 {
			size = min(2*cap(sg.vals[k-1]), 1<<valShift)
		}
		sg.vals = append(sg.vals, make([]byte, 0, max(n, size)))
	}
	k := len(sg.vals) - 1
	return uint32(k)<<valShift | uint32(len(sg.vals[k]))
}

// str numbers a string.
func (sg *segment) str(s string) uint32 {
	if s == "" {
		return 0 // most games' error, most players' team
	}
	if id, ok := sg.strIDs[s]; ok {
		return id
	}
	s = strings.Clone(s) // not a part of a larger string kept alive
	id := uint32(len(sg.strs))
	sg.strs = append(sg.strs, s)
	sg.strIDs[s] = id
	return id
}

// zone numbers a time zone.
func (sg *segment) zone(z *time.Location) uint16 {
	for i, x := range sg.zones {
		if x == z {
			return uint16(i)
		}
	}
	if len(sg.zones) == math.MaxUint16 {
		return 0 // a list of 65,535 zones: a hostile one; the first stands in
	}
	sg.zones = append(sg.zones, z)
	return uint16(len(sg.zones) - 1)
}

// layoutOf numbers the layout of stats' keys and names.
func (sg *segment) layoutOf(stats []model.Stat) uint32 {
	if len(stats) == 0 {
		return 0
	}
	// a format's players one after another share one, and an archive's
	// games are of a few formats: no key to make
	for i, id := range sg.lastLays {
		if id != 0 && sg.layouts[id].fits(stats) {
			copy(sg.lastLays[1:i+1], sg.lastLays[:i])
			sg.lastLays[0] = id
			return id
		}
	}
	sg.key = sg.key[:0]
	for _, st := range stats {
		sg.key = append(sg.key, st.Key...)
		sg.key = append(sg.key, 0)
		sg.key = append(sg.key, st.Name...)
		sg.key = append(sg.key, 0)
	}
	id, ok := sg.layIDs[string(sg.key)]
	if !ok {
		lay := &layout{keys: make([]string, len(stats)), names: make([]string, len(stats))}
		for i, st := range stats {
			lay.keys[i], lay.names[i] = sg.strs[sg.str(st.Key)], sg.strs[sg.str(st.Name)]
		}
		id = uint32(len(sg.layouts))
		sg.layouts = append(sg.layouts, lay)
		sg.layIDs[string(sg.key)] = id
	}
	copy(sg.lastLays[1:], sg.lastLays[:])
	sg.lastLays[0] = id
	return id
}

// fits reports whether stats have the layout's keys and names.
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
	if g.seg != nil {
		p := g.seg.player(g.at, pi)
		if p == nil || p.layout == 0 {
			return
		}
		lay, b := g.seg.layouts[p.layout], g.seg.vals[p.vals>>valShift][p.vals&(1<<valShift-1):]
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
	if g.seg != nil {
		if p := g.seg.player(g.at, pi); p != nil {
			return model.Outcome(g.seg.strs[p.outcome])
		}
		return model.OutcomeUnknown
	}
	if g.Summary != nil && pi < len(g.Summary.Players) {
		return g.Summary.Players[pi].Outcome
	}
	return model.OutcomeUnknown
}
