package cli

import (
	"cmp"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"time"

	"rewind/library"
	"rewind/library/aggregate"
	"rewind/library/chunk"
	"rewind/model"
)

// byDate writes the moments in the default order, by the replay's start,
// then as the replays were walked, then by frame, from one replay's
// moments at a time. The walk does not go in that order (a folder of
// 2019 may hold a game of 2016, and names need not say when), so it goes
// in two steps: the scan notes each replay it chooses (its start, its row
// in the index and its folder: 24 bytes, the name is the row's) and fills
// the index, then the replays are read again from the index in the order
// of their starts and their moments written. The first line waits for
// the scan, since the earliest replay may be the last walked, but no
// moment is held beyond its replay's.
func (o *momentsOptions) byDate(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index, w *momentWriter) (bool, error) {
	store := idx.Store()
	var list datedList
	var failed []*aggregate.Game
	var one [1]library.RowID
	// the scan reads the summaries without their moments: it needs to know
	// only that a replay has one (the index has them all)
	unreadable := eachGameIn(ctx, c, paths, q, idx, false, true, func(g *aggregate.Game) {
		if g.Summary == nil {
			if f := failedGame(g); f != nil {
				failed = append(failed, f)
			}
			return
		}
		name := ""
		row, ok := store.Lookup(g.Path)
		if ok {
			one[0] = row
			store.Read(one[:], func(_ int, r library.Row) { name = r.Name() })
		} else {
			row = noRow // not in the index (no file scanned is): read again
		}
		list.add(g, row, name)
	})
	unreadable = noteFailed(c, failed) || unreadable
	if ctx.Err() != nil {
		return unreadable, nil
	}
	order := list.order()
	rd := store.MomentReader()
	var match *library.MomentMatcher
	if q.HasMomentTerms() {
		match = q.MomentMatcher()
	}
	var g gameView
	var kept []model.MomentRecord
	var rows []library.RowID
	var names []string
	// the rows' names, a batch at a time under one hold of the store's lock
	const batch = 256
	for lo := 0; lo < len(order); lo += batch {
		if ctx.Err() != nil {
			return unreadable, nil
		}
		part := order[lo:min(lo+batch, len(order))]
		rows, names = rows[:0], names[:0]
		for _, k := range part {
			if d := list.games.At(int(k.i)); d.row != noRow {
				rows = append(rows, d.row)
			}
		}
		store.Read(rows, func(_ int, r library.Row) { names = append(names, r.Name()) })
		for _, k := range part {
			d := list.games.At(int(k.i))
			name := ""
			if d.row != noRow {
				name, names = names[0], names[1:]
			}
			g.path = list.path(k.i, d, name)
			g.start = time.Unix(d.sec, int64(d.nsec)).In(list.zones[d.zone])
			moments, players, ok := readMoments(rd, d.row, &g)
			if !ok {
				// the index lost it between the two steps: the file again
				h := library.ReadFull(library.Entry{Path: g.path, Kind: library.File})
				if !h.Summary.Usable() {
					why := h.Err
					if h.Summary != nil {
						why = cmp.Or(why, h.Summary.Err)
					}
					c.notef("%s: %s", c.epath(g.path), reason(g.path, errors.New(why)))
					unreadable = true
					continue
				}
				moments, players = h.Summary.Moments, h.Players
				g.format, g.last, g.partial = h.Format, h.Summary.Last, h.Summary.Partial
				setPlayers(&g, players)
			}
			if match != nil {
				match.SetPlayers(players)
				kept = kept[:0]
				for j := range moments {
					if match.Match(&moments[j]) {
						kept = append(kept, moments[j])
					}
				}
				moments = kept
			}
			for j := range moments {
				w.write(&g, &moments[j])
			}
			w.out.item() // on a terminal, each replay's lines as they come
		}
	}
	return unreadable, nil
}

// noRow is a replay without a row in the index.
const noRow = ^library.RowID(0)

// readMoments reads row's summary and header from the index into g
// (format, players, last frame, partial) and returns its moments and its
// players as the query matches them; false when the index cannot give
// them. Both are valid until the reader's next read.
func readMoments(rd *library.SummaryReader, row library.RowID, g *gameView) ([]model.MomentRecord, []library.Player, bool) {
	if row == noRow {
		return nil, nil, false
	}
	sum := rd.Read(row)
	if sum == nil || sum.Err != "" {
		return nil, nil, false
	}
	h := rd.Header(row)
	g.format, g.last, g.partial = h.Format, sum.Last, sum.Partial
	setPlayers(g, h.Players)
	return sum.Moments, h.Players, true
}

// setPlayers makes the header's players g's, as aggregate.FromHeader
// does, into g's memory.
func setPlayers(g *gameView, players []library.Player) {
	g.players = g.players[:0]
	for _, p := range players {
		g.players = append(g.players, aggregate.Player{Slot: p.Slot, Name: p.Name, Code: p.Code, Character: p.Character, Team: p.Team})
	}
}

// datedList is what byDate keeps of each replay between its two steps:
// 24 bytes a replay, without pointers, and each folder once. A path is
// its folder as walked and the name its row in the index has (found by
// that name); a path that is not (a replay without a row) is kept whole.
type datedList struct {
	games   chunk.List[datedGame]
	dirs    []string
	dirNum  map[string]uint32
	whole   map[uint32]string // paths kept whole, by replay
	lastDir string
	lastNum uint32
	momentNames
}

type datedGame struct {
	sec  int64 // the start: Unix seconds and nanoseconds, in zones[zone]
	nsec int32
	zone uint32
	row  library.RowID
	dir  uint32 // the folder, in dirs; wholePath: the path is in whole
}

const wholePath = ^uint32(0)

// add notes replay g, whose row in the index is row (noRow: none) and
// whose name there is name.
func (l *datedList) add(g *aggregate.Game, row library.RowID, name string) {
	start := startKey(g.Start)
	d := datedGame{sec: start.sec, nsec: start.nsec, zone: l.zone(g.Start.Location()), row: row, dir: wholePath}
	if dir, ok := strings.CutSuffix(g.Path, name); ok && row != noRow && name != "" && (dir == "" || os.IsPathSeparator(dir[len(dir)-1])) {
		if dir != l.lastDir || len(l.dirs) == 0 {
			n, ok := l.dirNum[dir]
			if !ok {
				if l.dirNum == nil {
					l.dirNum = map[string]uint32{}
				}
				n = uint32(len(l.dirs))
				// a copy: the walk's paths are cut from one string per
				// folder, which a piece of it would keep whole
				dir = strings.Clone(dir)
				l.dirs = append(l.dirs, dir)
				l.dirNum[dir] = n
			}
			l.lastDir, l.lastNum = dir, n
		}
		d.dir = l.lastNum
	}
	i := l.games.Push(d)
	if d.dir == wholePath {
		if l.whole == nil {
			l.whole = map[uint32]string{}
		}
		l.whole[uint32(i)] = g.Path
	}
}

// path is the path of replay i (d), whose row's name is name.
func (l *datedList) path(i uint32, d *datedGame, name string) string {
	if d.dir == wholePath {
		return l.whole[i]
	}
	return l.dirs[d.dir] + name
}

// datedKey is a replay's place in the order: its start and its number.
type datedKey struct {
	sec  int64
	nsec int32
	i    uint32
}

// order is the replays by start, then in the order walked: the order the
// moments of a sort by date come in (momentList's).
func (l *datedList) order() []datedKey {
	keys := make([]datedKey, l.games.Len())
	for i := range keys {
		d := l.games.At(i)
		keys[i] = datedKey{d.sec, d.nsec, uint32(i)}
	}
	slices.SortFunc(keys, func(a, b datedKey) int {
		if c := compareInstants(instant{a.sec, a.nsec}, instant{b.sec, b.nsec}); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	return keys
}
