package cli

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"rewind/library"
	"rewind/library/chunk"
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
	var list datedList
	unreadable := chooseReplays(ctx, c, paths, q, idx, list.addBatch)
	if ctx.Err() != nil {
		return unreadable, nil
	}
	order := list.order()
	m := newIndexedMoments(c, q, idx)
	var g gameView
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
			moments, zone, ok := m.read(row, &g, &unreadable)
			if !ok {
				continue
			}
			g.start = list.start(k, zone)
			for j := range moments {
				w.write(&g, &moments[j])
			}
			w.out.item() // on a terminal, each replay's lines as they come
		}
	}
	return unreadable, nil
}

// datedList is what byDate keeps of each replay between its two steps:
// 20 bytes a replay, without pointers: its key (its start and its number,
// in walk order) and its row in the index. The keys are kept in chunks,
// each sorted once it is full (the last once the scan is done) and merged
// as the second step reads them, so that neither growing nor sorting
// needs room for them twice. A
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

// wholeReplay is a replay without a row, kept whole: its path and start.
type wholeReplay struct {
	path  string
	start time.Time
}

// datedChunk is how many keys a chunk of the list holds.
const datedChunk = 1 << 13

func (l *datedList) len() int { return l.rows.Len() }

// addBatch appends the replays the scan chose.
func (l *datedList) addBatch(b *chosenBatch) {
	for _, ch := range b.chosen {
		i := uint32(l.len())
		dir, name := library.SplitPath(ch.path)
		if ch.row == noRow || name == "" {
			if l.whole == nil {
				l.whole = map[uint32]wholeReplay{}
			}
			l.whole[i] = wholeReplay{strings.Clone(ch.path), ch.start}
		} else {
			// the path is its folder and the name of the row found by it
			l.folder(dir)
		}
		l.rows.Push(ch.row)
		start := startKey(ch.start)
		l.push(datedKey{start.sec, start.nsec, i})
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
	if *last = append(*last, k); len(*last) == datedChunk {
		// sorted while the scan goes on, not after it, before the first line
		slices.SortFunc(*last, compareDated)
	}
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

// order sorts the list's last chunk and returns the chunks' merge: the
// replays by start, then in the order walked, the order the moments of a
// sort by date come in (momentList's).
func (l *datedList) order() *datedOrder {
	o := &datedOrder{}
	for _, keys := range l.keys {
		if len(keys) > 0 && len(keys) < datedChunk { // a full one is sorted
			slices.SortFunc(keys, compareDated)
		}
		if len(keys) > 0 {
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
