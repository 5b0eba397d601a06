package tui

import (
	"context"
	"maps"
	"runtime"
	"slices"
	"sync"
	"time"

	"rewind/library"
)

// The browser sorts a million rows on a key press. Comparing rows through
// the store would be a hundred million reads; instead each row's sort
// values become 64-bit keys whose order is the sort's (missing values
// last in either direction), read once on all cores, and the keys are
// radix-sorted: rows by number, then stably by the column, then each run
// of rows of one value by the date (newest first: the tie-break; most
// runs are short and sorted in the processor's cache). A file-name sort
// sorts the names eight bytes at a time, only where the bytes so far are
// equal (browser_names.go).

const missing = ^uint64(0)

// signedKey orders int64 values as unsigned keys, below missing.
func signedKey(v int64, desc bool) uint64 {
	k := uint64(v) ^ 1<<63
	if desc {
		k = ^k
	}
	return min(k, missing-1)
}

// sortKeys are what a sort reads of each row, and what the browser learns
// on the way (column widths, formats, checks).
type sortKeys struct {
	primary, date []uint64
	names         []string // file names, lower case (the file column)
	shared        int      // the bytes every name shares at the start
	longest       int      // the longest name's bytes
	widths        widths
}

type widths struct {
	fmtW     int
	maxDur   time.Duration
	maxProbs int // the most problems a check found
	maxHead  int // the most a header alone showed, unchecked
	seen     map[string]bool
	checked  int
}

// readKeys reads the sort values of rows (in row-number order, for the
// cache) for the order o, on all cores.
func readKeys(s *library.Store, ids []library.RowID, o order, whats *whatCache) sortKeys {
	n := len(ids)
	k := sortKeys{widths: widths{seen: map[string]bool{}}}
	if o.col != colFile {
		k.primary = keyScratch.get(n)
	}
	if o.col != colDate {
		k.date = keyScratch.get(n)
	}
	if o.col == colFile {
		k.names = make([]string, n)
	}
	parts := stretches(n, 1<<14)
	if o.col == colWhat {
		whats.sized(s)
	}
	rs := make([]rangeRead, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		rs[p] = rangeRead{w: widths{seen: map[string]bool{}}, formats: map[string]uint64{}}
		if o.col == colWhat {
			rs[p].whats = newWhatPart()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rs[p].read(s, ids, lo, hi, o, &k, whats)
		}()
	}
	wg.Wait()
	// a format's rank in each stretch's numbers; a description's number
	// in each stretch's key numbers
	ranks := make([][]uint64, parts)
	var descs [][]int
	switch o.col {
	case colFormat:
		byName := map[string]uint64{}
		for p := range parts {
			for f := range rs[p].formats {
				byName[f] = 0
			}
		}
		names := slices.Sorted(maps.Keys(byName))
		for i, f := range names {
			byName[f] = uint64(i)
			if o.desc {
				byName[f] = uint64(len(names) - 1 - i)
			}
		}
		for p := range parts {
			ranks[p] = make([]uint64, len(rs[p].formats))
			for f, d := range rs[p].formats {
				ranks[p][d] = byName[f]
			}
		}
	case colWhat:
		tables := make([]*whatPart, parts)
		for p := range parts {
			tables[p] = rs[p].whats
		}
		descs = whats.merge(s, tables)
	}
	switch o.col {
	case colFormat:
		inParts(n, parts, func(p, lo, hi int) {
			for i := lo; i < hi; i++ {
				k.primary[i] = ranks[p][k.primary[i]]
			}
		})
	case colWhat:
		// a row read from the cache holds its description, the others
		// their key's number in the stretch, kept now
		rank := whats.ranks(o.desc)
		inParts(n, parts, func(p, lo, hi int) {
			for i := lo; i < hi; i++ {
				k.primary[i] = rank[whats.described(ids[i], k.primary[i], descs[p])]
			}
		})
	}
	for p := range parts {
		w := rs[p].w
		for f := range w.seen {
			k.widths.seen[f] = true
		}
		k.widths.fmtW = max(k.widths.fmtW, w.fmtW)
		k.widths.maxDur = max(k.widths.maxDur, w.maxDur)
		k.widths.maxProbs = max(k.widths.maxProbs, w.maxProbs)
		k.widths.maxHead = max(k.widths.maxHead, w.maxHead)
		k.widths.checked += w.checked
	}
	if o.col == colFile && n > 0 {
		first := rs[0].first
		k.shared = len(first)
		for p := range parts {
			k.shared = min(k.shared, rs[p].shared, sharedBytes(first, rs[p].first, k.shared))
			k.longest = max(k.longest, rs[p].longest)
		}
	}
	return k
}

// rangeRead is what one goroutine of readKeys learns besides the keys:
// the widths, the formats and the descriptions' keys it met, by their
// numbers in its stretch (a row's primary key, by format or description,
// is that number until readKeys turns it into a rank).
type rangeRead struct {
	w       widths
	formats map[string]uint64
	whats   *whatPart
	// the stretch's first file name, and the bytes all of its names share
	first  string
	shared int
	// the longest name's bytes
	longest int
}

// read reads rows lo to hi of ids into k's arrays. In a sort by
// description it only reads whats (it is written after, each row by the
// goroutine that read it).
func (rr *rangeRead) read(s *library.Store, ids []library.RowID, lo, hi int, o order, k *sortKeys, whats *whatCache) {
	// what is learnt is kept here while the rows are read, and in rr after:
	// rr is next to the other goroutines' in memory, and a write a row to
	// it took the cache line from them (a sort of a million rows by file
	// name took a third longer)
	ww := rr.w
	w := &ww
	first, shared, longest := "", 0, 0
	defer func() { rr.w, rr.first, rr.shared, rr.longest = ww, first, shared, longest }()
	var key []uint32
	lastFormat, fmtNum := "\x00", uint64(0)
	s.Read(ids[lo:hi], func(j int, r library.Row) {
		i := lo + j
		start, dated := r.StartNano()
		dateKey := missing
		if dated {
			dateKey = signedKey(start, true)
		}
		if k.date != nil {
			k.date[i] = dateKey
		}
		if f := string(r.Format()); f != lastFormat { // rows of one format come in runs
			w.seen[f] = true
			w.fmtW = max(w.fmtW, len(f))
			d, ok := rr.formats[f]
			if !ok {
				d = uint64(len(rr.formats))
				rr.formats[f] = d
			}
			lastFormat, fmtNum = f, d
		}
		w.maxDur = max(w.maxDur, r.Duration())
		switch {
		case r.HasCheck():
			w.maxProbs = max(w.maxProbs, r.ProblemCount())
		case r.Err() == "":
			w.maxHead = max(w.maxHead, r.HeaderProblems())
		}
		if r.Checked() {
			w.checked++
		}
		var p uint64
		switch o.col {
		case colDate:
			p = dateKey
			if dated && !o.desc {
				p = signedKey(start, false)
			}
		case colFormat:
			p = fmtNum
		case colWhat:
			p = whats.rowKey(r, rr.whats, &key)
		case colLength:
			p = missing
			if d := r.Duration(); d > 0 {
				p = signedKey(int64(d), o.desc)
			}
		case colSize:
			p = signedKey(r.Size(), o.desc)
		case colProblems:
			c := uint64(r.ProblemCount()) << 1
			if r.Checked() {
				c |= 1
			}
			p = min(c, missing-1)
			if o.desc {
				p = missing - 1 - c
			}
		case colFile:
			name := lowerName(r.Name())
			k.names[i] = name
			longest = max(longest, len(name))
			if j == 0 {
				first, shared = name, len(name)
			} else {
				shared = sharedBytes(first, name, shared)
			}
			return
		}
		k.primary[i] = p
	})
}

// sortRows returns ids in the order o: by the column, then newest first,
// then by row number (the order files were first found).
// When ctx ends first it returns nil (a key press wants another order).
func sortRows(ctx context.Context, s *library.Store, ids []library.RowID, o order, whats *whatCache) ([]library.RowID, widths) {
	n := len(ids)
	if n == 0 {
		return []library.RowID{}, widths{seen: map[string]bool{}}
	}
	// by row number first: the last tie-break, and the order the store
	// keeps rows in
	one, other := kvScratch.get(n), kvScratch.get(n)
	defer kvScratch.put(one)
	defer kvScratch.put(other)
	a, tmp := one, other
	byID := ids
	if !slices.IsSorted(ids) {
		for i, id := range ids {
			a[i] = kv{uint64(id), uint32(i)}
		}
		a, tmp = radixSort(a, tmp)
		byID = make([]library.RowID, n)
		for j, e := range a {
			byID[j] = ids[e.i]
		}
	}
	k := readKeys(s, byID, o, whats)
	defer keyScratch.put(k.primary)
	defer keyScratch.put(k.date)
	if ctx.Err() != nil {
		return nil, widths{}
	}
	if o.col == colFile {
		a = sortFiles(a, tmp, k, o.desc)
	} else {
		// by the column, rows of one value in row order (the sort is
		// stable), then each run of one value by date, newest first
		inStretches(n, func(lo, hi int) {
			for j := lo; j < hi; j++ {
				a[j] = kv{k.primary[j], uint32(j)}
			}
		})
		a, tmp = radixSort(a, tmp)
		if ctx.Err() != nil {
			return nil, widths{}
		}
		if k.date != nil {
			sortRuns(a, tmp, func(run, tmp []kv, buf []int) {
				for j := range run {
					run[j].k = k.date[run[j].i]
				}
				sortInPlace(run, tmp, buf)
			})
		}
	}
	out := make([]library.RowID, n)
	inStretches(n, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			out[j] = byID[a[j].i]
		}
	})
	return out, k.widths
}

// sortFiles sorts the rows by file name, then newest first, then by row
// number: the rows come in row order, so a name sort keeps rows of one
// name in it, and then sorts them by date. Descending, the name order
// turns and the tie-break order does not: each run of one name is
// reversed before the whole is.
func sortFiles(a, tmp []kv, k sortKeys, desc bool) []kv {
	inStretches(len(a), func(lo, hi int) {
		for j := lo; j < hi; j++ {
			a[j] = kv{0, uint32(j)}
		}
	})
	a = sortNamesFrom(a, tmp, k.names, k.shared, k.longest, func(run, tmp []kv, buf []int) {
		for j := range run {
			run[j].k = k.date[run[j].i]
		}
		sortInPlace(run, tmp, buf)
		if desc {
			reverse(run)
		}
	})
	if desc {
		reverse(a)
	}
	return a
}

// runCuts splits a into parts stretches that end where a run of equal
// keys ends: stretch p is a[cut[p]:cut[p+1]].
func runCuts(a []kv, parts int) []int {
	n := len(a)
	cut := make([]int, parts+1)
	for p := 1; p < parts; p++ {
		c := max(p*n/parts, cut[p-1])
		for c > 0 && c < n && a[c].k == a[c-1].k {
			c++
		}
		cut[p] = c
	}
	cut[parts] = n
	return cut
}

// sortRuns calls sort with each run of two or more equal keys of a, the
// same stretch of tmp as its scratch, and the goroutine's scratch for
// sortLocal's counts, on all cores when a is long (a run is one
// goroutine's).
func sortRuns(a, tmp []kv, sort func(run, tmp []kv, buf []int)) {
	n := len(a)
	parts := stretches(n, 1<<14)
	cut := runCuts(a, parts)
	inParts(n, parts, func(p, _, _ int) {
		lo, end := cut[p], cut[p+1]
		buf := make([]int, 4<<11)
		for lo < end {
			hi := lo + 1
			for hi < end && a[hi].k == a[lo].k {
				hi++
			}
			if hi-lo > 1 {
				sort(a[lo:hi], tmp[lo:hi], buf)
			}
			lo = hi
		}
	})
}

// sortInPlace sorts a stably in place; tmp is scratch as long (or nil),
// buf scratch for sortLocal's counts (or nil).
func sortInPlace(a, tmp []kv, buf []int) {
	if len(a) <= smallSort {
		insertionSort(a)
		return
	}
	if tmp == nil {
		tmp = make([]kv, len(a))
	}
	if len(a) < 1<<16 {
		sortLocal(a, tmp, buf)
		return
	}
	if out, _ := radixSort(a, tmp); &out[0] != &a[0] {
		copy(a, out)
	}
}

// inParts calls fn with each of parts stretches of 0..n, each on a
// goroutine of its own.
func inParts(n, parts int, fn func(p, lo, hi int)) {
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(p, p*n/parts, (p+1)*n/parts)
		}()
	}
	wg.Wait()
}

// stretches is how many stretches work over n items is split in, one a
// core, each of least items at least.
func stretches(n, least int) int {
	return min(runtime.GOMAXPROCS(0), max(n/least, 1))
}

// inStretches calls fn on stretches of 0..n, one a core when n is large.
func inStretches(n int, fn func(lo, hi int)) { inStretchesMin(n, 1<<14, fn) }

// inStretchesMin is inStretches for work worth splitting from least items
// a stretch.
func inStretchesMin(n, least int, fn func(lo, hi int)) {
	eachStretch(n, least, func(_, lo, hi int) { fn(lo, hi) })
}

// eachStretch is inStretchesMin that tells fn which stretch it has, of
// stretches(n, least): a caller keeps each stretch's results apart, to
// join them in order.
func eachStretch(n, least int, fn func(s, lo, hi int)) {
	parts := stretches(n, least)
	var wg sync.WaitGroup
	for p := 1; p < parts; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(p, p*n/parts, (p+1)*n/parts)
		}()
	}
	fn(0, 0, n/parts)
	wg.Wait()
}
