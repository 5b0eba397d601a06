package cli

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
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
// in two steps: the scan notes each replay it chooses (its start and its
// row in the index: 20 bytes, the folder once per folder, the name is the
// row's) and fills the index, then the replays are read again from the
// index in the order of their starts and their moments written. The
// first line waits for the scan, since the earliest replay may be the
// last walked, but no moment is held beyond its replay's.
func (o *momentsOptions) byDate(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index, w *momentWriter) (bool, error) {
	store := idx.Store()
	list, unreadable := datedReplays(ctx, c, paths, q, idx)
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
	var part []datedKey
	var rows []library.RowID
	var names []string
	// the rows' names, a batch at a time under one hold of the store's lock
	const batch = 256
	for {
		if part = order.next(part[:0], batch); len(part) == 0 {
			break
		}
		if ctx.Err() != nil {
			return unreadable, nil
		}
		rows, names = rows[:0], names[:0]
		for _, k := range part {
			if row := list.row(k.i); row != noRow {
				rows = append(rows, row)
			}
		}
		store.Read(rows, func(_ int, r library.Row) { names = append(names, r.Name()) })
		for _, k := range part {
			row := list.row(k.i)
			name := ""
			if row != noRow {
				name, names = names[0], names[1:]
			}
			g.path = list.path(k.i, name)
			moments, players, zone, ok := readMoments(rd, row, &g)
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
				moments, players, zone = h.Summary.Moments, h.Players, h.Start.Location()
				g.format, g.last, g.partial = h.Format, h.Summary.Last, h.Summary.Partial
				setPlayers(&g, players)
			}
			g.start = list.start(k, zone)
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

// datedReplays is byDate's first step: the replays under paths that
// match q's replay terms and have a summary, as the walk found them. The
// scan's workers choose them and find their rows, from the headers and
// summary heads the index has, without a Game or a Summary made for each
// (a million of each were most of the time to the first line). The
// paths that cannot be read are named as they come, the replays whose
// summary could not be made once the scan is done.
func datedReplays(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index) (*datedList, bool) {
	store := idx.Store()
	opt := library.ScanOptions{Index: idx, Ordered: true, Summaries: true, Check: q.NeedsCheck()}
	list := &datedList{}
	var failed []*aggregate.Game
	var unreadable bool
	prog := newProgress(c.stderr)
	n := 0
	add := func(b *datedBatch, h *library.Header) {
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
			start := startKey(h.Start)
			dir, name := splitPath(h.Path)
			// the path is its folder and the name of the row found by it:
			// only the folder is kept (once), the name read again from the row
			row, ok := store.Lookup(h.Path)
			if !ok || name == "" { // not in the index (no file scanned is): read again
				b.whole = append(b.whole, wholeReplay{at: len(b.chosen), path: strings.Clone(h.Path), start: h.Start})
				b.chosen = append(b.chosen, datedChoice{start, noRow})
				return
			}
			if dir != b.lastDir || len(b.dirs) == 0 {
				b.dirs = append(b.dirs, datedDir{at: len(b.chosen), dir: dir})
				b.lastDir = dir
			}
			b.chosen = append(b.chosen, datedChoice{start, row})
		}
	}
	library.ScanInto(ctx, c.walk(paths), opt, func() *datedBatch { return &datedBatch{} }, add, func(b *datedBatch) bool {
		n += b.found
		prog.found(n)
		for _, h := range b.unreadable {
			unreadable = true
			prog.print(func() { c.notef("%s: %s", c.epath(h.Path), reason(h.Path, errors.New(h.Err))) })
		}
		failed = append(failed, b.failed...)
		list.addBatch(b)
		b.reset()
		return true
	})
	prog.finish()
	return list, noteFailed(c, failed) || unreadable
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

// splitPath cuts a path into its folder (with the separator) and name,
// as the index does.
func splitPath(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if filepath.Separator != '/' {
		i = max(i, strings.LastIndexByte(p, filepath.Separator))
	}
	return p[:i+1], p[i+1:]
}

// datedBatch is what a scan worker notes of a batch of paths for
// datedReplays, in walk order: the replays chosen, where their folder
// changes (a view of the walk's path, copied by the list when it is new),
// those kept whole, and the paths that failed.
type datedBatch struct {
	found      int // the paths the batch had
	chosen     []datedChoice
	dirs       []datedDir
	whole      []wholeReplay
	failed     []*aggregate.Game
	unreadable []library.Header
	lastDir    string
}

type datedChoice struct {
	start instant
	row   library.RowID
}

// datedDir is the folder of the batch's chosen replays from at on.
type datedDir struct {
	at  int
	dir string
}

// wholeReplay is a replay without a row, kept whole: its path and start.
type wholeReplay struct {
	at    int // in its batch, then in the list
	path  string
	start time.Time
}

func (b *datedBatch) reset() {
	*b = datedBatch{chosen: b.chosen[:0], dirs: b.dirs[:0], whole: b.whole[:0], failed: b.failed[:0], unreadable: b.unreadable[:0]}
}

// datedList is what byDate keeps of each replay between its two steps:
// 20 bytes a replay, without pointers: its key (its start and its number,
// in walk order) and its row in the index. The keys are kept in chunks,
// each sorted once the scan is done and merged as the second step reads
// them, so that neither growing nor sorting needs room for them twice. A
// path is its folder as walked, kept once for the replays from the first
// in it until the next folder's, and the name its row has; a path that is
// not (a replay without a row) is kept whole.
type datedList struct {
	keys    [][]datedKey
	rows    chunk.List[library.RowID]
	dirs    []string
	dirNum  map[string]uint32
	runs    []dirRun
	whole   map[uint32]wholeReplay // paths kept whole, by replay
	lastDir string
}

// datedKey is a replay's place in the order: its start and its number.
type datedKey struct {
	sec  int64
	nsec int32
	i    uint32
}

// dirRun says that the replays from first on are in folder dirs[dir].
type dirRun struct{ first, dir uint32 }

// datedChunk is how many keys a chunk of the list holds.
const datedChunk = 1 << 13

func (l *datedList) len() int { return l.rows.Len() }

// addBatch appends the replays a worker chose.
func (l *datedList) addBatch(b *datedBatch) {
	dirs, whole := b.dirs, b.whole
	for k, ch := range b.chosen {
		if len(dirs) > 0 && dirs[0].at == k {
			l.folder(dirs[0].dir)
			dirs = dirs[1:]
		}
		i := uint32(l.len())
		l.rows.Push(ch.row)
		l.push(datedKey{ch.start.sec, ch.start.nsec, i})
		if len(whole) > 0 && whole[0].at == k {
			if l.whole == nil {
				l.whole = map[uint32]wholeReplay{}
			}
			l.whole[i] = whole[0]
			whole = whole[1:]
		}
	}
}

// push appends k to the last chunk, which grows by doubling up to
// datedChunk (a short list stays small), or to a new one.
func (l *datedList) push(k datedKey) {
	if n := len(l.keys); n == 0 || len(l.keys[n-1]) == datedChunk {
		room := datedChunk
		if n == 0 {
			room = 16
		}
		l.keys = append(l.keys, make([]datedKey, 0, room))
	}
	last := &l.keys[len(l.keys)-1]
	if len(*last) == cap(*last) {
		*last = append(make([]datedKey, 0, min(2*cap(*last), datedChunk)), *last...)
	}
	*last = append(*last, k)
}

// folder notes that the replays from the next one on are in dir (a view
// of the walk's path: copied when new).
func (l *datedList) folder(dir string) {
	if dir == l.lastDir && len(l.runs) > 0 {
		return
	}
	n, ok := l.dirNum[dir]
	if !ok {
		if l.dirNum == nil {
			l.dirNum = map[string]uint32{}
		}
		n = uint32(len(l.dirs))
		// a copy: the walk's paths are cut from one string per folder,
		// which a piece of it would keep whole
		dir = strings.Clone(dir)
		l.dirs = append(l.dirs, dir)
		l.dirNum[dir] = n
	}
	l.lastDir = l.dirs[n]
	if len(l.runs) == 0 || l.runs[len(l.runs)-1].dir != n {
		l.runs = append(l.runs, dirRun{uint32(l.len()), n})
	}
}

func (l *datedList) row(i uint32) library.RowID { return *l.rows.At(int(i)) }

// path is the path of replay i, whose row's name is name.
func (l *datedList) path(i uint32, name string) string {
	if w, ok := l.whole[i]; ok {
		return w.path
	}
	// the last run that starts at i or before
	r, found := slices.BinarySearchFunc(l.runs, i, func(r dirRun, i uint32) int { return cmp.Compare(r.first, i) })
	if !found {
		r--
	}
	return l.dirs[l.runs[r].dir] + name
}

// start is replay k's start, in zone (the zone its row gives).
func (l *datedList) start(k datedKey, zone *time.Location) time.Time {
	if w, ok := l.whole[k.i]; ok {
		return w.start
	}
	return time.Unix(k.sec, int64(k.nsec)).In(zone)
}

func compareDated(a, b datedKey) int {
	if c := compareInstants(instant{a.sec, a.nsec}, instant{b.sec, b.nsec}); c != 0 {
		return c
	}
	return cmp.Compare(a.i, b.i)
}

// order sorts the list's chunks and returns their merge: the replays by
// start, then in the order walked, the order the moments of a sort by
// date come in (momentList's).
func (l *datedList) order() *datedOrder {
	o := &datedOrder{}
	for _, keys := range l.keys {
		if len(keys) > 0 {
			slices.SortFunc(keys, compareDated)
			o.heads = append(o.heads, keys)
		}
	}
	for i := len(o.heads)/2 - 1; i >= 0; i-- {
		o.down(i)
	}
	return o
}

// datedOrder merges sorted chunks of keys: heads is a heap of what is
// left of each, by its first key.
type datedOrder struct{ heads [][]datedKey }

// next appends the next n keys of the order to dst (fewer at the end).
func (o *datedOrder) next(dst []datedKey, n int) []datedKey {
	for ; n > 0 && len(o.heads) > 0; n-- {
		h := &o.heads[0]
		dst = append(dst, (*h)[0])
		if *h = (*h)[1:]; len(*h) == 0 {
			last := len(o.heads) - 1
			o.heads[0] = o.heads[last]
			o.heads = o.heads[:last]
		}
		o.down(0)
	}
	return dst
}

func (o *datedOrder) down(i int) {
	hs := o.heads
	for {
		l := 2*i + 1
		if l >= len(hs) {
			return
		}
		c := l
		if r := l + 1; r < len(hs) && compareDated(hs[r][0], hs[l][0]) < 0 {
			c = r
		}
		if compareDated(hs[c][0], hs[i][0]) >= 0 {
			return
		}
		hs[i], hs[c] = hs[c], hs[i]
		i = c
	}
}
