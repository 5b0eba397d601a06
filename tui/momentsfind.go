package tui

import (
	"context"
	"slices"
	"time"

	"rewind/library"
	"rewind/library/firstn"
	"rewind/model"
)

// momentsBatch is how many rows a core reads the players of at a time.
const momentsBatch = 256

// archMoment is a moment the moments view lists: the moment and what of
// its replay the list orders by and the Dolphin queue needs; the rest of
// the replay (path, players) is read from the store when a moment is
// drawn.
type archMoment struct {
	pos   int32 // the row's place in the view's rows
	mi    int32 // the moment's place in the row's summary
	start time.Time
	last  int64 // the replay's last frame
	m     model.MomentRecord
}

// findMoments reads the summaries of the rows (on all cores, each core a
// run of them) and returns the moments q's moment terms match, the first
// limit of them in order by, and how many matched in all. A core keeps at
// most half as many again as limit at a time: the matches of a million
// replays need not fit in memory.
func findMoments(ctx context.Context, store *library.Store, ids []library.RowID, q *library.Query, by momentSort, limit int) ([]archMoment, int) {
	type part struct {
		rows  []archMoment
		found int
	}
	parts := make([]part, stretches(len(ids), 1024))
	most := limit + limit/2 + 1 // a core's moments, before it cuts them to limit
	eachStretch(len(ids), 1024, func(w, lo, hi int) {
		p := &parts[w]
		rd, match := store.MomentReader(), q.MomentMatcher()
		keep := firstn.New(limit, most, func(a, b *archMoment) int { return compareMoments(a, b, by) },
			func(n int) archMoment {
				sortMoments(p.rows, by)
				p.rows = p.rows[:min(n, len(p.rows))]
				return p.rows[len(p.rows)-1]
			})
		// the rows' starts and players, a batch at a time, read into
		// the same memory (ends[j] is where row j's players end)
		var starts []time.Time
		var players []library.Player
		var ends []int
		for b := lo; b < hi; b += momentsBatch {
			if ctx.Err() != nil {
				return
			}
			batch := ids[b:min(b+momentsBatch, hi)]
			starts, players, ends = starts[:0], players[:0], ends[:0]
			store.Read(batch, func(_ int, r library.Row) {
				starts = append(starts, r.Start())
				if r.HasSummary() {
					for i := range r.Players() {
						players = append(players, r.Player(i))
					}
				}
				ends = append(ends, len(players))
			})
			for j, id := range batch {
				sum := rd.Read(id)
				if sum == nil || sum.Err != "" || len(sum.Moments) == 0 {
					continue
				}
				ps := players[:ends[j]]
				if j > 0 {
					ps = ps[ends[j-1]:]
				}
				match.SetPlayers(ps)
				for mi := range sum.Moments {
					m := &sum.Moments[mi]
					if !match.Match(m) {
						continue
					}
					p.found++
					a := archMoment{pos: int32(b + j), mi: int32(mi), start: starts[j], last: sum.Last, m: *m}
					if !keep.Wants(&a) {
						continue // after the last kept: not among the first
					}
					if len(p.rows) == cap(p.rows) && len(p.rows) >= 1024 {
						// past a few: room for all a core keeps, once
						p.rows = slices.Grow(p.rows, most-len(p.rows))
					}
					p.rows = append(p.rows, a)
					keep.Add(1)
				}
			}
		}
	})
	n, found := 0, 0
	for _, p := range parts {
		n, found = n+len(p.rows), found+p.found
	}
	rows := make([]archMoment, 0, n)
	for _, p := range parts {
		rows = append(rows, p.rows...)
	}
	sortMoments(rows, by)
	if len(rows) > limit {
		rows = slices.Clone(rows[:limit]) // not the room of all the cores' rows
	}
	return rows, found
}

// sortMoments orders moments by damage (the most first), date (the newest
// replay first, then by frame) or length (the longest first); ties go in
// the rows' order, then the moments', so that a list cut at its limit is
// the same however the rows were split between cores.
func sortMoments(rows []archMoment, by momentSort) {
	slices.SortFunc(rows, func(a, b archMoment) int { return compareMoments(&a, &b, by) })
}

// compareMoments is sortMoments' order.
func compareMoments(a, b *archMoment, by momentSort) int {
	switch by {
	case byDate:
		if c := b.start.Compare(a.start); c != 0 {
			return c
		}
		if a.pos == b.pos && a.m.Frame != b.m.Frame {
			if a.m.Frame < b.m.Frame {
				return -1
			}
			return 1
		}
	case byLength:
		la, lb := a.m.EndTime-a.m.Time, b.m.EndTime-b.m.Time
		if la != lb {
			if la > lb {
				return -1
			}
			return 1
		}
	default:
		if da, db := a.m.Facts.Damage, b.m.Facts.Damage; da != db {
			if da > db {
				return -1
			}
			return 1
		}
	}
	if a.pos != b.pos {
		return int(a.pos - b.pos)
	}
	return int(a.mi - b.mi)
}
