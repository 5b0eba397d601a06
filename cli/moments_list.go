package cli

import (
	"cmp"
	"slices"
	"time"
	"unsafe"

	"rewind/library/aggregate"
	"rewind/library/chunk"
	"rewind/library/firstn"
	"rewind/model"
)

// momentList is what `rewind moments` keeps of the moments it finds until
// it sorts them: the first N with --limit, else a run of them that is
// sorted and written to a temporary file when it fills (momentSorter).
// Nothing in it holds a pointer the collector must follow, neither a
// moment nor a replay, so the collector may run often at next to no cost
// and the heap stays near what is live (library.TuneGC). A moment is a
// fixed record whose replay, kind and move are numbers; a replay is a
// fixed record whose path is in an arena and whose format and players'
// names are numbers into the list's strings. Each keeps its items in
// chunks, so that growing never copies the list (a copy needs room for
// both).
type momentList struct {
	moments chunk.List[foundMoment]
	games   chunk.List[foundGame]
	players chunk.List[foundPlayer]
	paths   pathArena
	momentNames
}

// momentNames are the strings and zones a momentList's records name by
// number: kept for the whole command, across the runs a sort writes out
// (there are as many as there are different players, not moments).
type momentNames struct {
	strs    []string // kinds, moves, formats, players' names
	num     map[string]uint32
	zones   []*time.Location // the replays' time zones
	zoneNum map[*time.Location]uint32
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
// off in paths' chunk, its players nPlayers from players' player.
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

// pathArena keeps paths in chunks of pathChunk bytes.
type pathArena struct {
	chunks [][]byte
	size   int // bytes held
}

const pathChunk = 1 << 20

// put puts p in the arena: in the last chunk while it has room for it
// (a chunk starts small and doubles up to pathChunk), else in a new one.
func (a *pathArena) put(p []byte) (chunk, off uint32) {
	if len(a.chunks) == 0 || len(a.chunks[len(a.chunks)-1])+len(p) > pathChunk {
		a.chunks = append(a.chunks, make([]byte, 0, max(1024, len(p))))
	}
	last := &a.chunks[len(a.chunks)-1]
	if need := len(*last) + len(p); need > cap(*last) {
		*last = append(make([]byte, 0, max(min(2*cap(*last), pathChunk), need)), *last...)
	}
	off = uint32(len(*last))
	*last = append(*last, p...)
	a.size += len(p)
	return uint32(len(a.chunks) - 1), off
}

func (a *pathArena) get(chunk, off, n uint32) []byte { return a.chunks[chunk][off : off+n] }

func (l *momentList) len() int { return l.moments.Len() }

// bytes is about the memory the list holds: a sort writes a run out when
// it reaches its budget.
func (l *momentList) bytes() int {
	return l.moments.Len()*int(unsafe.Sizeof(foundMoment{})) + l.games.Len()*int(unsafe.Sizeof(foundGame{})) +
		l.players.Len()*int(unsafe.Sizeof(foundPlayer{})) + l.paths.size
}

// reset empties the list, keeping its names for the next run.
func (l *momentList) reset() { *l = momentList{momentNames: l.momentNames} }

func (t *momentNames) str(s string) uint32 {
	n, ok := t.num[s]
	if !ok {
		if t.num == nil {
			t.num = map[string]uint32{}
		}
		n = uint32(len(t.strs))
		t.strs = append(t.strs, s)
		t.num[s] = n
	}
	return n
}

func (t *momentNames) zone(z *time.Location) uint32 {
	n, ok := t.zoneNum[z]
	if !ok {
		if t.zoneNum == nil {
			t.zoneNum = map[*time.Location]uint32{}
		}
		n = uint32(len(t.zones))
		t.zones = append(t.zones, z)
		t.zoneNum[z] = n
	}
	return n
}

// add keeps g's moments, after those of the replays added before, and
// says how many: with keep, those it wants (the others could only be
// cut again), without, all of them.
func (l *momentList) add(g *aggregate.Game, keep *firstn.Keeper[momentKey]) int {
	start := startKey(g.Start)
	wanted := func(m *model.MomentRecord) bool {
		if keep == nil {
			return true
		}
		k := keyOf(m, start)
		return keep.Wants(&k)
	}
	n := 0
	for i := range g.Summary.Moments {
		if wanted(&g.Summary.Moments[i]) {
			n++
		}
	}
	if n == 0 {
		return 0
	}
	chunk, off := l.paths.put([]byte(g.Path))
	fg := foundGame{chunk: chunk, off: off, n: uint32(len(g.Path)), format: l.str(string(g.Format)),
		sec: start.sec, nsec: start.nsec, zone: l.zone(g.Start.Location()),
		player: uint32(l.players.Len()), nPlayers: uint32(len(g.Players)), last: g.Summary.Last, partial: g.Partial}
	for _, p := range g.Players {
		l.players.Push(foundPlayer{l.str(p.Slot), l.str(p.Name), l.str(p.Code), l.str(p.Character), l.str(p.Team)})
	}
	gi := uint32(l.games.Push(fg))
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
		l.moments.Push(foundMoment{game: gi, kind: l.str(string(m.Kind)), move: l.str(m.Facts.Move),
			by: player(m.By), on: player(m.On), frame: m.Frame, end: m.End, time: m.Time, endTime: m.EndTime,
			damage: m.Facts.Damage, startPercent: m.Facts.StartPercent, endPercent: m.Facts.EndPercent,
			hits: m.Facts.Hits, kill: m.Facts.Kill})
	}
	return n
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
	g := l.games.At(int(m.game))
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
	return compareInstants(a.start, b.start)
}

func compareInstants(a, b instant) int {
	if c := cmp.Compare(a.sec, b.sec); c != 0 {
		return c
	}
	return cmp.Compare(a.nsec, b.nsec)
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

// view fills v with replay g, whose path is path and whose players are
// those player gives.
func (t *momentNames) view(v *gameView, g *foundGame, path []byte, player func(j uint32) *foundPlayer) {
	v.path = string(path)
	v.format = model.Format(t.strs[g.format])
	v.start = time.Unix(g.sec, int64(g.nsec)).In(t.zones[g.zone])
	v.last, v.partial = g.last, g.partial
	v.players = v.players[:0]
	for j := range g.nPlayers {
		p := player(j)
		v.players = append(v.players, aggregate.Player{Slot: t.strs[p.slot], Name: t.strs[p.name], Code: t.strs[p.code],
			Character: t.strs[p.character], Team: t.strs[p.team]})
	}
}

// moment is m as the model has it.
func (t *momentNames) moment(m *foundMoment) model.MomentRecord {
	return model.MomentRecord{Kind: model.MomentKind(t.strs[m.kind]), Frame: m.frame, End: m.end,
		Time: m.time, EndTime: m.endTime, By: int(m.by), On: int(m.on),
		Facts: model.MomentFacts{Damage: m.damage, Hits: m.hits, Kill: m.kill, Move: t.strs[m.move],
			StartPercent: m.startPercent, EndPercent: m.endPercent}}
}

// record is moment i as the model has it, and its replay in v (v's
// memory reused, and not read again when the replay is the last one's).
func (l *momentList) record(i uint32, v *gameView) model.MomentRecord {
	m := l.moments.At(int(i))
	if v.game != m.game+1 {
		g := l.games.At(int(m.game))
		v.game = m.game + 1
		l.view(v, g, l.paths.get(g.chunk, g.off, g.n), func(j uint32) *foundPlayer { return l.players.At(int(g.player + j)) })
	}
	return l.moment(m)
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
		if c := compareKeys(by, l.key(l.moments.At(int(i))), l.key(l.moments.At(int(j)))); c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	})
	return out
}

// cut keeps the first n moments of the order by, in that order, and
// their replays, and returns the key of the last kept (firstn's cut).
// The moments found later sort among them as they would have among all
// (a tie goes by the order found, and every moment kept was found before
// them), and those cut could only have moved down.
func (l *momentList) cut(by string, n int) momentKey {
	keep := l.order(by)
	keep = keep[:min(n, len(keep))]
	var bar momentKey
	if len(keep) > 0 {
		bar = l.key(l.moments.At(int(keep[len(keep)-1])))
	}
	kept := momentList{momentNames: l.momentNames}
	renumber := map[uint32]uint32{}
	for _, i := range keep {
		m := *l.moments.At(int(i))
		gi, ok := renumber[m.game]
		if !ok {
			g := *l.games.At(int(m.game))
			g.chunk, g.off = kept.paths.put(l.paths.get(g.chunk, g.off, g.n))
			first := uint32(kept.players.Len())
			for j := range g.nPlayers {
				kept.players.Push(*l.players.At(int(g.player + j)))
			}
			g.player = first
			gi = uint32(kept.games.Push(g))
			renumber[m.game] = gi
		}
		m.game = gi
		kept.moments.Push(m)
	}
	*l = kept
	return bar
}

// keepFirst is the keeper of moments --limit n: the list is cut to the
// first n whenever it holds 2n and a few hundred more (a small n is not
// sorted at every replay).
func (l *momentList) keepFirst(by string, n int) *firstn.Keeper[momentKey] {
	return firstn.New(n, 2*n+256, func(a, b *momentKey) int { return compareKeys(by, *a, *b) },
		func(n int) momentKey { return l.cut(by, n) })
}
