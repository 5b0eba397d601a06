package cli

import (
	"cmp"
	"context"
	"errors"
	"slices"
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
// in the index and its path, some 70 bytes) and fills the index, then
// the replays are read again from the index in the order of their starts
// and their moments written. The first line waits for the scan, since
// the earliest replay may be the last walked, but no moment is held
// beyond its replay's.
func (o *momentsOptions) byDate(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index, write func(*gameView, *model.MomentRecord)) (bool, error) {
	store := idx.Store()
	var list datedList
	var failed []*aggregate.Game
	// the scan reads the summaries without their moments: it needs to know
	// only that a replay has one (the index has them all)
	unreadable := eachGameIn(ctx, c, paths, q, idx, false, true, func(g *aggregate.Game) {
		if g.Summary == nil {
			if f := failedGame(g); f != nil {
				failed = append(failed, f)
			}
			return
		}
		row, ok := store.Lookup(g.Path)
		if !ok {
			row = noRow // not in the index (no file scanned is): read again
		}
		list.add(g, row)
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
	for k, i := range order {
		if k%256 == 0 && ctx.Err() != nil {
			return unreadable, nil
		}
		d := list.games.At(int(i))
		g.path = list.path(d)
		g.start = list.start(d)
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
			write(&g, &moments[j])
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
// some 70 bytes a replay, without pointers.
type datedList struct {
	games chunk.List[datedGame]
	paths pathArena
	momentNames
}

type datedGame struct {
	sec               int64 // the start: Unix seconds and nanoseconds, in zones[zone]
	nsec              int32
	zone              uint32
	row               library.RowID
	chunk, off, pathN uint32 // the path, in paths
}

func (l *datedList) add(g *aggregate.Game, row library.RowID) {
	start := startKey(g.Start)
	chunk, off := l.paths.put([]byte(g.Path))
	l.games.Push(datedGame{sec: start.sec, nsec: start.nsec, zone: l.zone(g.Start.Location()), row: row,
		chunk: chunk, off: off, pathN: uint32(len(g.Path))})
}

func (l *datedList) path(d *datedGame) string { return string(l.paths.get(d.chunk, d.off, d.pathN)) }

func (l *datedList) start(d *datedGame) time.Time {
	return time.Unix(d.sec, int64(d.nsec)).In(l.zones[d.zone])
}

// order is the replays' numbers by start, then in the order walked: the
// order the moments of an in-memory sort by date come in (momentList's).
func (l *datedList) order() []uint32 {
	type dated struct {
		at instant
		i  uint32
	}
	keys := make([]dated, l.games.Len())
	for i := range keys {
		d := l.games.At(i)
		keys[i] = dated{instant{d.sec, d.nsec}, uint32(i)}
	}
	slices.SortFunc(keys, func(a, b dated) int {
		if c := compareInstants(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	out := make([]uint32, len(keys))
	for i, k := range keys {
		out[i] = k.i
	}
	return out
}
