package tui

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"rewind/library"
)

// The browser sorts a million rows on a key press. Comparing rows through
// the store would be a hundred million reads; instead each row's sort
// values become 64-bit keys whose order is the sort's (missing values
// last in either direction), read once, and the keys are radix-sorted:
// rows by number, then stably by the column, then each run of rows of
// one value by the date (newest first: the tie-break; most runs are short
// and sorted in the processor's cache). A file-name sort sorts the names
// eight bytes at a time, only where the bytes so far are equal
// (browser_names.go).

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
// cache) for the order o, on all cores (one, for a sort by description,
// whose cache is not shared).
func readKeys(s *library.Store, ids []library.RowID, o order, whats *whatCache) sortKeys {
	n := len(ids)
	k := sortKeys{primary: make([]uint64, n), widths: widths{seen: map[string]bool{}}}
	if o.col != colDate {
		k.date = make([]uint64, n)
	}
	if o.col == colFile {
		k.names = make([]string, n)
	}
	parts := runtime.GOMAXPROCS(0)
	if o.col == colWhat || n < 1<<14 {
		parts = 1
	}
	ws := make([]widths, parts)
	fs := make([]map[string]uint64, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws[p], fs[p] = readRange(s, ids, lo, hi, o, whats, &k)
		}()
	}
	wg.Wait()
	formats := map[string]uint64{}
	for p := range parts {
		w := ws[p]
		for f := range w.seen {
			k.widths.seen[f] = true
		}
		k.widths.fmtW = max(k.widths.fmtW, w.fmtW)
		k.widths.maxDur = max(k.widths.maxDur, w.maxDur)
		k.widths.maxProbs = max(k.widths.maxProbs, w.maxProbs)
		k.widths.maxHead = max(k.widths.maxHead, w.maxHead)
		k.widths.checked += w.checked
		for f := range fs[p] {
			formats[f] = 0
		}
	}
	switch o.col {
	case colFormat:
		// formats by name: rank each once, then key the rows by rank
		var names []string
		for f := range formats {
			names = append(names, f)
		}
		slices.Sort(names)
		for i, f := range names {
			formats[f] = uint64(i)
			if o.desc {
				formats[f] = uint64(len(names) - 1 - i)
			}
		}
		s.Read(ids, func(i int, r library.Row) { k.primary[i] = formats[string(r.Format())] })
	case colWhat:
		whats.finish(k.primary, o.desc)
	}
	return k
}

// readRange reads rows lo to hi of ids into k's arrays.
func readRange(s *library.Store, ids []library.RowID, lo, hi int, o order, whats *whatCache, k *sortKeys) (widths, map[string]uint64) {
	w := widths{seen: map[string]bool{}}
	formats := map[string]uint64{}
	var key []uint32
	lastFormat := "\x00"
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
		f := string(r.Format())
		if f != lastFormat { // rows of one format come in runs
			w.seen[f] = true
			w.fmtW = max(w.fmtW, len(f))
			formats[f] = 0
			lastFormat = f
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
		case colWhat:
			key = r.TextKey(key[:0])
			p = uint64(whats.rank(key, r))
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
			k.names[i] = lowerName(r.Name())
		}
		k.primary[i] = p
	})
	return w, formats
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
	a, tmp := make([]kv, n), make([]kv, n)
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
	a = sortByNames(a, k.names, func(run, tmp []kv, buf []int) {
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

// sortRuns calls sort with each run of two or more equal keys of a, the
// same stretch of tmp as its scratch, and the goroutine's scratch for
// sortLocal's counts, on all cores when a is long (a run is one
// goroutine's).
func sortRuns(a, tmp []kv, sort func(run, tmp []kv, buf []int)) {
	n := len(a)
	parts := stretches(n, 1<<14)
	cut := make([]int, parts+1)
	for p := 1; p < parts; p++ {
		c := max(p*n/parts, cut[p-1])
		for c > 0 && c < n && a[c].k == a[c-1].k {
			c++
		}
		cut[p] = c
	}
	cut[parts] = n
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
	parts := stretches(n, least)
	var wg sync.WaitGroup
	for p := 1; p < parts; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(p*n/parts, (p+1)*n/parts)
		}()
	}
	fn(0, n/parts)
	wg.Wait()
}

// whatCache describes each distinct set of a row's texts once (rows with
// the same players and stage read the same) and ranks the descriptions.
type whatCache struct {
	byKey map[string]int // the texts' numbers -> description
	list  []string       // descriptions, lower case; "" for a row with nothing to say
	has   []bool
	buf   []byte
}

func newWhatCache() *whatCache { return &whatCache{byKey: map[string]int{}} }

func (w *whatCache) rank(key []uint32, r library.Row) int {
	b := w.buf[:0]
	for _, v := range key {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	w.buf = b
	if d, ok := w.byKey[string(b)]; ok {
		return d
	}
	h := r.Header()
	d := len(w.list)
	w.list = append(w.list, strings.ToLower(describe(&h)))
	w.has = append(w.has, h.Title != "" || len(h.Players) > 0)
	w.byKey[string(b)] = d
	return d
}

// finish turns the rows' description numbers into ranks: by description,
// rows with nothing to say last.
func (w *whatCache) finish(keys []uint64, desc bool) {
	idx := make([]string, len(w.list))
	copy(idx, w.list)
	order := make([]kv, len(w.list))
	for i := range order {
		order[i].i = uint32(i)
	}
	order = sortByNames(order, idx, nil)
	// descriptions that read the same (in lower case) rank the same, so
	// the tie-break decides between their rows
	rank := make([]uint64, len(w.list))
	r := 0
	for j, e := range order {
		if j > 0 && w.list[e.i] != w.list[order[j-1].i] {
			r = j
		}
		rank[e.i] = uint64(r)
		if desc {
			rank[e.i] = uint64(len(order) - 1 - r)
		}
	}
	for i, d := range keys {
		if !w.has[d] {
			keys[i] = missing
			continue
		}
		keys[i] = rank[d]
	}
}
