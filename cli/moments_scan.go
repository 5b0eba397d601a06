package cli

import (
	"cmp"
	"context"
	"errors"
	"strings"
	"time"

	"rewind/library"
	"rewind/library/aggregate"
	"rewind/model"
)

// The moments of an archive over its index are read in two parts: the
// scan chooses the replays (the query's replay terms, a summary to list)
// on its workers, from the headers and summary heads the index has,
// without a Game or a Summary made for each (a million of each were most
// of the time to the first line, and much of the memory); then each
// chosen replay's moments are read from the index into the same memory,
// and only those the query's moment terms match are kept. The date order
// reads them after the scan, in the order of the replays' starts
// (byDate); the others as the scan hands the replays over, in walk order
// (eachIndexedGame).

// chosenBatch is what a scan worker notes of a batch of paths, in walk
// order: the replays chosen, and the paths that failed.
type chosenBatch struct {
	found      int // the paths the batch had
	chosen     []chosenReplay
	failed     []*aggregate.Game
	unreadable []library.Header
}

// chosenReplay is a replay the scan chose: its path as walked (the
// walk's string: a copy of what is kept of it lets the folder's go), its
// start and its row in the index (noRow: none).
type chosenReplay struct {
	path  string
	start time.Time
	row   library.RowID
}

func (b *chosenBatch) reset() {
	clear(b.chosen) // the walk's paths, for the collector
	*b = chosenBatch{chosen: b.chosen[:0], failed: b.failed[:0], unreadable: b.unreadable[:0]}
}

// noRow is a replay without a row in the index.
const noRow = ^library.RowID(0)

// chooseReplays scans paths through idx and hands fn, a batch at a time in
// walk order, the replays that match q's replay terms and have a summary
// whose moments can be listed. A path that cannot be read is named as it
// comes, a replay whose summary could not be made once the scan is done;
// unreadable says there was either.
func chooseReplays(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index, fn func(*chosenBatch)) (unreadable bool) {
	store := idx.Store()
	opt := library.ScanOptions{Index: idx, Ordered: true, Summaries: true, Check: q.NeedsCheck()}
	var failed []*aggregate.Game
	prog := newProgress(c.stderr)
	n := 0
	add := func(b *chosenBatch, h *library.Header) {
		b.found++
		switch {
		case h.Kind == library.Skipped:
		case h.Kind == library.Unreadable:
			// a path shares its memory with its folder's other paths (the
			// walk's): a copy lets the folder's go
			b.unreadable = append(b.unreadable, library.Header{Path: strings.Clone(h.Path), Err: strings.Clone(h.Err)})
		case h.NotReplay: // a stray file in a folder
		case !q.Empty() && !q.Match(library.NewDoc(h)): // a document folds every name: only for terms
		default:
			if why, ok := summaryFailure(h); !ok {
				if why != "" {
					// copies: the header's strings are the worker's
					b.failed = append(b.failed, &aggregate.Game{Path: strings.Clone(h.Path), Err: strings.Clone(why)})
				}
				return
			}
			row, ok := store.Lookup(h.Path)
			if !ok {
				row = noRow // not in the index (no file scanned is): read again
			}
			b.chosen = append(b.chosen, chosenReplay{h.Path, h.Start, row})
		}
	}
	library.ScanInto(ctx, c.walk(paths), opt, func() *chosenBatch { return &chosenBatch{} }, add, func(b *chosenBatch) bool {
		n += b.found
		prog.found(n)
		for _, h := range b.unreadable {
			unreadable = true
			prog.print(func() { c.notef("%s: %s", c.epath(h.Path), reason(h.Path, errors.New(h.Err))) })
		}
		failed = append(failed, b.failed...)
		fn(b)
		b.reset()
		return ctx.Err() == nil
	})
	prog.finish()
	return noteFailed(c, failed) || unreadable
}

// summaryFailure says whether h has a summary whose moments can be
// listed, and when not why, as failedGame names it ("" for a replay
// never decoded in full, which is left out without a word).
func summaryFailure(h *library.Header) (why string, ok bool) {
	why = h.Err
	switch s := h.Summary; {
	case s == nil:
		if why == "" {
			why = aggregate.NoSummary
		}
	case s.Err != "":
		why = s.Err
	default:
		return "", true
	}
	if why == aggregate.NoSummary {
		return "", false
	}
	return why, false
}

// indexedMoments reads the moments of chosen replays from the index into
// the same memory, keeping those the query's moment terms match.
type indexedMoments struct {
	c     *call
	rd    *library.SummaryReader
	match *library.MomentMatcher // nil: every moment
	kept  []model.MomentRecord
}

func newIndexedMoments(c *call, q *library.Query, idx *library.Index) *indexedMoments {
	m := &indexedMoments{c: c, rd: idx.Store().MomentReader()}
	if q.HasMomentTerms() {
		m.match = q.MomentMatcher()
	}
	return m
}

// read fills g (its path set) with the replay of row, as
// aggregate.FromHeader makes it of a scan's header (the players in g's
// memory, the summary holding only its last frame), and returns its
// moments that match: valid until the next read. False when neither the
// index nor the file gives its summary (the file's failure is named, and
// unreadable set).
func (m *indexedMoments) read(row library.RowID, g *gameView, unreadable *bool) ([]model.MomentRecord, *time.Location, bool) {
	moments, players, zone, ok := readMoments(m.rd, row, g)
	if !ok {
		// the index lost it since the scan: the file again
		h := library.ReadFull(library.Entry{Path: g.path, Kind: library.File})
		if !h.Summary.Usable() {
			why := h.Err
			if h.Summary != nil {
				why = cmp.Or(why, h.Summary.Err)
			}
			m.c.notef("%s: %s", m.c.epath(g.path), reason(g.path, errors.New(why)))
			*unreadable = true
			return nil, nil, false
		}
		moments, players, zone = h.Summary.Moments, h.Players, h.Start.Location()
		g.format, g.last, g.partial = h.Format, h.Summary.Last, h.Summary.Partial
		setPlayers(g, players)
	}
	if m.match == nil {
		return moments, zone, true
	}
	m.match.SetPlayers(players)
	m.kept = m.kept[:0]
	for j := range moments {
		if m.match.Match(&moments[j]) {
			m.kept = append(m.kept, moments[j])
		}
	}
	return m.kept, zone, true
}

// readMoments reads row's summary and header from the index into g
// (format, players, last frame, partial) and returns its moments, its
// players as the query matches them and the zone of its start; false
// when the index cannot give them. Moments and players are valid until
// the reader's next read.
func readMoments(rd *library.SummaryReader, row library.RowID, g *gameView) ([]model.MomentRecord, []library.Player, *time.Location, bool) {
	if row == noRow {
		return nil, nil, nil, false
	}
	sum := rd.Read(row)
	if sum == nil || sum.Err != "" {
		return nil, nil, nil, false
	}
	h := rd.Header(row)
	g.format, g.last, g.partial = h.Format, sum.Last, sum.Partial
	setPlayers(g, h.Players)
	return sum.Moments, h.Players, h.Start.Location(), true
}

// setPlayers makes the header's players g's, as aggregate.FromHeader
// does, into g's memory.
func setPlayers(g *gameView, players []library.Player) {
	g.players = g.players[:0]
	for _, p := range players {
		g.players = append(g.players, aggregate.Player{Slot: p.Slot, Name: p.Name, Code: p.Code, Character: p.Character, Team: p.Team})
	}
}

// eachIndexedGame is eachGameIn for the moments of replays on disk over
// an index: the replays are chosen on the scan's workers and their
// moments read from the index as the scan hands them over, in walk order
// (chooseReplays). fn gets each replay that has a matching moment, with
// only those moments, as a Game valid during fn (its memory is used
// again).
func eachIndexedGame(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index, fn func(*aggregate.Game)) (unreadable bool) {
	m := newIndexedMoments(c, q, idx)
	var v gameView
	var g aggregate.Game
	var sum model.Summary
	var lost bool // a summary neither the index nor the file gave
	unreadable = chooseReplays(ctx, c, paths, q, idx, func(b *chosenBatch) {
		for _, ch := range b.chosen {
			v.path = ch.path
			moments, _, ok := m.read(ch.row, &v, &lost)
			if !ok || len(moments) == 0 {
				continue
			}
			sum = model.Summary{Last: v.last, Moments: moments}
			g = aggregate.Game{Path: ch.path, Format: v.format, Start: ch.start, Players: v.players, Summary: &sum, Partial: v.partial}
			fn(&g)
		}
	})
	return unreadable || lost
}
