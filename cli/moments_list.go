package cli

import (
	"cmp"
	"slices"
	"time"

	"rewind/library/aggregate"
	"rewind/model"
)

// momentList is what `rewind moments` keeps of the moments it finds until
// it has them all and sorts them: millions over a large archive. Nothing
// in it holds a pointer the collector must follow, neither a moment nor a
// replay, so the collector may run often at next to no cost and the heap
// stays near what is live (library.TuneGC). A moment is a fixed record
// whose replay, kind and move are numbers; a replay is a fixed record
// whose path is in an arena and whose format and players' names are
// numbers into the list's strings. Each keeps its items in chunks, so
// that growing never copies the list (a copy needs room for both).
type momentList struct {
	moments chunked[foundMoment]
	games   chunked[foundGame]
	players chunked[foundPlayer]
	paths   [][]byte // an arena in chunks of pathChunk bytes
	strs    []string // kinds, moves, formats, players' names
	num     map[string]uint32
	zones   []*time.Location // the replays' time zones
	zoneNum map[*time.Location]uint32
	// full says a cut kept as many moments as asked for, the last of
	// them bar: a moment that does not sort before it is not added
	full bool
	bar  momentKey
}

// foundMoment is a model.MomentRecord of replay game: its kind and move
// numbers into strs, by and on -1 for no player of the replay.
type foundMoment struct {
	game, kind, move                 uint32
	by, on                           int32
	frame, end                       int64
	time, endTime                    float64
	damage, startPercent, endPercent float64
	hits                             int
	kill                             bool
}

// foundGame is a replay a moment was found in: its path is n bytes at
// off in paths[chunk], its players nPlayers from players' player.
type foundGame struct {
	chunk, off, n    uint32
	format           uint32
	sec              int64 // the start: Unix seconds and nanoseconds, in zones[zone]
	nsec             int32
	zone             uint32
	player, nPlayers uint32
	last             int64 // the last frame: a Dolphin clip ends there at the latest
	partial          bool
}

// foundPlayer is an aggregate.Player with numbers into strs.
type foundPlayer struct{ slot, name, code, character, team uint32 }

const (
	chunkItems = 1 << 13
	pathChunk  = 1 << 20
)

// chunked is a list in chunks of chunkItems.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

func (c *chunked[T]) at(i uint32) *T { return &c.chunks[i/chunkItems][i%chunkItems] }

// push appends v. A chunk starts small and doubles up to chunkItems, so
// that a short list (one cut to its first few) stays small.
func (c *chunked[T]) push(v T) uint32 {
	if c.n%chunkItems == 0 {
		c.chunks = append(c.chunks, make([]T, 0, 16))
	}
	last := &c.chunks[len(c.chunks)-1]
	if len(*last) == cap(*last) {
		*last = append(make([]T, 0, min(2*cap(*last), chunkItems)), *last...)
	}
	*last = append(*last, v)
	c.n++
	return uint32(c.n - 1)
}

func (l *momentList) len() int { return l.moments.n }

func (l *momentList) str(s string) uint32 {
	n, ok := l.num[s]
	if !ok {
		if l.num == nil {
			l.num = map[string]uint32{}
		}
		n = uint32(len(l.strs))
		l.strs = append(l.strs, s)
		l.num[s] = n
	}
	return n
}

// path puts p in the arena: in the last chunk while it has room for it
// (a chunk starts small and doubles up to pathChunk), else in a new one.
func (l *momentList) path(p []byte) (chunk, off uint32) {
	if len(l.paths) == 0 || len(l.paths[len(l.paths)-1])+len(p) > pathChunk {
		l.paths = append(l.paths, make([]byte, 0, max(1024, len(p))))
	}
	last := &l.paths[len(l.paths)-1]
	if need := len(*last) + len(p); need > cap(*last) {
		*last = append(make([]byte, 0, max(min(2*cap(*last), pathChunk), need)), *last...)
	}
	off = uint32(len(*last))
	*last = append(*last, p...)
	return uint32(len(l.paths) - 1), off
}

func (l *momentList) zone(z *time.Location) uint32 {
	n, ok := l.zoneNum[z]
	if !ok {
		if l.zoneNum == nil {
			l.zoneNum = map[*time.Location]uint32{}
		}
		n = uint32(len(l.zones))
		l.zones = append(l.zones, z)
		l.zoneNum[z] = n
	}
	return n
}

// add keeps g's moments, after those of the replays added before: those
// that sort before the last one a cut kept (the others could only be cut
// again), all of them before a cut.
func (l *momentList) add(g *aggregate.Game, by string) {
	start := startKey(g.Start)
	wanted := func(m *model.MomentRecord) bool {
		return !l.full || compareKeys(by, keyOf(m, start), l.bar) < 0
	}
	keep := false
	for i := range g.Summary.Moments {
		keep = keep || wanted(&g.Summary.Moments[i])
	}
	if !keep {
		return
	}
	chunk, off := l.path([]byte(g.Path))
	fg := foundGame{chunk: chunk, off: off, n: uint32(len(g.Path)), format: l.str(string(g.Format)),
		sec: start.sec, nsec: start.nsec, zone: l.zone(g.Start.Location()),
		player: uint32(l.players.n), nPlayers: uint32(len(g.Players)), last: g.Summary.Last, partial: g.Partial}
	for _, p := range g.Players {
		l.players.push(foundPlayer{l.str(p.Slot), l.str(p.Name), l.str(p.Code), l.str(p.Character), l.str(p.Team)})
	}
	gi := l.games.push(fg)
	player := func(p int) int32 {
		if p < 0 || p >= len(g.Players) {
			return -1
		}
		return int32(p)
	}
	for i := range g.Summary.Moments {
		m := &g.Summary.Moments[i]
		if !wanted(m) {
			continue
		}
		l.moments.push(foundMoment{game: gi, kind: l.str(string(m.Kind)), move: l.str(m.Facts.Move),
			by: player(m.By), on: player(m.On), frame: m.Frame, end: m.End, time: m.Time, endTime: m.EndTime,
			damage: m.Facts.Damage, startPercent: m.Facts.StartPercent, endPercent: m.Facts.EndPercent,
			hits: m.Facts.Hits, kill: m.Facts.Kill})
	}
}

// momentKey is what the orders compare of a moment: its damage, its
// length, its replay's start.
type momentKey struct {
	damage, length float64
	start          instant
}

// instant is a start as Unix seconds and nanoseconds.
type instant struct {
	sec  int64
	nsec int32
}

func startKey(t time.Time) instant { return instant{t.Unix(), int32(t.Nanosecond())} }

func keyOf(m *model.MomentRecord, start instant) momentKey {
	return momentKey{m.Facts.Damage, m.EndTime - m.Time, start}
}

func (l *momentList) key(m *foundMoment) momentKey {
	g := l.games.at(m.game)
	return momentKey{m.damage, m.endTime - m.time, instant{g.sec, g.nsec}}
}

// compareKeys orders by date (the earliest start first), or the most
// damage or the longest first.
func compareKeys(by string, a, b momentKey) int {
	switch by {
	case "damage":
		return cmp.Compare(b.damage, a.damage)
	case "length":
		return cmp.Compare(b.length, a.length)
	}
	if c := cmp.Compare(a.start.sec, b.start.sec); c != 0 {
		return c
	}
	return cmp.Compare(a.start.nsec, b.start.nsec)
}

// gameView is a replay of the list as a line, an object and a Dolphin clip
// read it.
type gameView struct {
	path    string
	format  model.Format
	start   time.Time
	players []aggregate.Player
	last    int64
	partial bool
	game    uint32 // the replay + 1 (0: none yet)
}

// record is moment i as the model has it, and its replay in v (v's
// memory reused, and not read again when the replay is the last one's).
func (l *momentList) record(i uint32, v *gameView) model.MomentRecord {
	m := l.moments.at(i)
	if v.game != m.game+1 {
		g := l.games.at(m.game)
		v.game = m.game + 1
		v.path = string(l.paths[g.chunk][g.off : g.off+g.n])
		v.format = model.Format(l.strs[g.format])
		v.start = time.Unix(g.sec, int64(g.nsec)).In(l.zones[g.zone])
		v.last, v.partial = g.last, g.partial
		v.players = v.players[:0]
		for j := range g.nPlayers {
			p := l.players.at(g.player + j)
			v.players = append(v.players, aggregate.Player{Slot: l.strs[p.slot], Name: l.strs[p.name], Code: l.strs[p.code],
				Character: l.strs[p.character], Team: l.strs[p.team]})
		}
	}
	return model.MomentRecord{Kind: model.MomentKind(l.strs[m.kind]), Frame: m.frame, End: m.end,
		Time: m.time, EndTime: m.endTime, By: int(m.by), On: int(m.on),
		Facts: model.MomentFacts{Damage: m.damage, Hits: m.hits, Kill: m.kill, Move: l.strs[m.move],
			StartPercent: m.startPercent, EndPercent: m.endPercent}}
}

// order is the moments' numbers by date (the replay's start, then the
// order they were found in: the walk's, then the replay's frames), or the
// most damage or the longest first, then the order found.
func (l *momentList) order(by string) []uint32 {
	out := make([]uint32, l.len())
	for i := range out {
		out[i] = uint32(i)
	}
	slices.SortFunc(out, func(i, j uint32) int {
		if c := compareKeys(by, l.key(l.moments.at(i)), l.key(l.moments.at(j))); c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	})
	return out
}

// cut keeps the first n moments of the order by, in that order, and
// their replays. The moments found later sort among them as they would
// have among all (a tie goes by the order found, and every moment kept
// was found before them), and those cut could only have moved down.
func (l *momentList) cut(by string, n int) {
	keep := l.order(by)
	keep = keep[:min(n, len(keep))]
	kept := momentList{strs: l.strs, num: l.num, zones: l.zones, zoneNum: l.zoneNum}
	if len(keep) == n {
		kept.full, kept.bar = true, l.key(l.moments.at(keep[n-1]))
	}
	renumber := map[uint32]uint32{}
	for _, i := range keep {
		m := *l.moments.at(i)
		gi, ok := renumber[m.game]
		if !ok {
			g := *l.games.at(m.game)
			g.chunk, g.off = kept.path(l.paths[g.chunk][g.off : g.off+g.n])
			first := uint32(kept.players.n)
			for j := range g.nPlayers {
				kept.players.push(*l.players.at(g.player + j))
			}
			g.player = first
			gi = kept.games.push(g)
			renumber[m.game] = gi
		}
		m.game = gi
		kept.moments.push(m)
	}
	*l = kept
}
