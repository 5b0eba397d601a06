package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"rewind/library"
	"rewind/library/aggregate"
)

// The browser hands the rows its filter shows to the archive's views: the
// aggregate view (a) and the moments view (m). Their games are made off the
// UI goroutine from the store: each row's header and the summary the index
// keeps (a row the background check has not reached yet is counted as
// skipped, and says so).

type archiveKind int

const (
	archiveStats archiveKind = iota
	archiveMoments
)

// archiveMsg carries the games of the rows shown to the app, which opens
// the view.
type archiveMsg struct {
	kind  archiveKind
	games *aggregate.List // the stats' games that count
	// ids are the rows, parallel to games for the stats; for the moments,
	// the rows with a summary (the view reads their moments itself)
	ids []library.RowID
	// skipped counts the rows left out, by reason, in the order the
	// reasons first came: a game is made only of a row that counts, since
	// a million rows the background check has not reached would be a
	// million games that say only "no summary"
	skipped []skipCount
	what    string // what the rows are, for the view's title
	// refresh: the rows changed under the stats view open on them (a
	// game finished): the view takes the new games and keeps its state
	refresh bool
}

// skipCount is how many rows were left out for one reason.
type skipCount struct {
	reason string
	n      int
}

// archive makes the games of the rows shown, off the UI goroutine.
func (b *browser) archive(kind archiveKind) tea.Cmd {
	ids := append([]library.RowID(nil), b.shown...)
	store, index := b.store, b.index
	what := "all " + b.title
	switch {
	case b.onlyWhat != "":
		what = b.onlyWhat
	case b.filter.Value() != "":
		what = "rows matching " + b.filter.Value()
	}
	return func() tea.Msg {
		var skipped []skipCount
		skip := func(reason string) {
			for i := range skipped {
				if skipped[i].reason == reason {
					skipped[i].n++
					return
				}
			}
			skipped = append(skipped, skipCount{reason, 1})
		}
		// the rows without a summary are told from the store's row alone
		var full []library.RowID
		store.Read(ids, func(_ int, r library.Row) {
			switch {
			case r.Kind() != library.File:
			case r.Err() == "" && !r.HasSummary():
				skip(aggregate.NoSummary)
			default:
				full = append(full, r.ID())
			}
		})
		if kind == archiveMoments {
			// the moments view reads the summaries itself, for each query:
			// a million rows' moments do not fit in memory
			return archiveMsg{kind: kind, ids: full, what: what}
		}
		// the rows are read on every core, each worker a run of them, and
		// joined in order
		type part struct {
			games   *aggregate.List
			kept    []library.RowID
			skipped []string
		}
		parts := make([]part, stretches(len(full), 4096))
		eachStretch(len(full), 4096, func(w, lo, hi int) {
			p := &parts[w]
			// the aggregate view groups the same games under key after
			// key: kept in a List, a million of them fit in 170 MB
			rows := full[lo:hi]
			p.games, p.kept = aggregate.NewList(), make([]library.RowID, 0, len(rows))
			p.games.Grow(len(rows), 2) // most games are of two players
			// the aggregate view adds up, it does not list: each header
			// and summary's outcomes and stats read into the same memory,
			// added before the next
			store.ReadStats(index, rows, func(i int, h *library.Header) {
				if h.NotReplay {
					return
				}
				if why := p.games.AddHeader(h); why != "" {
					p.skipped = append(p.skipped, why)
					return
				}
				p.kept = append(p.kept, rows[i])
			})
		})
		games := parts[0].games
		var kept []library.RowID
		for i, p := range parts {
			for _, why := range p.skipped {
				skip(why)
			}
			if i == 0 {
				kept = p.kept
				continue
			}
			games.Append(p.games)
			kept = append(kept, p.kept...)
		}
		return archiveMsg{kind: kind, games: games, ids: kept, skipped: skipped, what: what}
	}
}

// showOnly keeps the rows of one group (enter in the aggregate view).
func (b *browser) showOnly(members []int32, what string) tea.Cmd {
	b.only = make(map[library.RowID]bool, len(members))
	for _, m := range members {
		if int(m) < len(b.archIDs) {
			b.only[b.archIDs[m]] = true
		}
	}
	b.onlyWhat = what
	b.cur, b.top = 0, 0
	return b.refresh(true)
}
