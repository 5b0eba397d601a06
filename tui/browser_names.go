package tui

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// A sort by file name (or by description) over a million rows sorts the
// names eight bytes at a time, each eight read as one big-endian number
// with its ASCII letters lowered in one go:
//
//   - the bytes every name shares ("game_20…") are skipped: found from
//     the eight-byte numbers of each name and the first, in row order;
//   - each row's first two numbers after them are made in row order (the
//     names' bytes read where they lie, one after another, on all cores):
//     the first is its sort key, the second the first of its row of the
//     window (numbers of each name side by side, as many as the longest
//     name needs, up to maxWindow);
//   - the keys are radix-sorted, then each run of equal keys (names equal
//     so far) by the second numbers; when runs are equal still, their
//     rows' windows are filled, again in row order, and each such run is
//     sorted from its window, level by level, jumping in one pass past
//     numbers its rows all share; past the window (names that long and
//     equal that far), from windows read from the names themselves.
//
// Real names share long starts ("test_replays__1.3.1.18221__1v1_Metalopol_
// 0634.SC2Replay") and come several times (hard links): most rows of a
// test archive's million are sorted three or four levels past the first
// sixteen bytes. Reading the names again, in sorted order, at each level
// was a cache miss a row a level (two, with the string's header): 220 ms
// for those million rows; from the window, 100.
//
// A name that ends inside an eight-byte number has zeros after it there,
// so it sorts before the names it is a start of (names hold no NUL), and a
// run of equal numbers ending in a zero byte is a run of equal names.

// lowerName is a name as the sort compares it: lower case. An ASCII name
// is kept as it is (its letters are lowered as its bytes are read).
func lowerName(s string) string {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if load8(s, i)&0x8080808080808080 != 0 {
			return strings.ToLower(s)
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ToLower(s)
		}
	}
	return s
}

// sortByNames sorts a stably by names[e.i] (as lowerName leaves them) and
// calls tie, when not nil, with each run of two or more rows of equal
// names, in place: tie may reorder a run (runs do not overlap; tie may be
// called from several goroutines at once), using tmp (as long as the run)
// and buf (sortLocal's counts) as scratch.
func sortByNames(a []kv, names []string, tie func(run, tmp []kv, buf []int)) []kv {
	if len(a) < 2 {
		return a
	}
	first := names[a[0].i]
	parts := stretches(len(a), 1<<14)
	shared, longest := make([]int, parts), make([]int, parts)
	inParts(len(a), parts, func(p, lo, hi int) {
		c, l := len(first), 0
		for _, e := range a[lo:hi] {
			s := names[e.i]
			c = sharedBytes(first, s, c)
			l = max(l, len(s))
		}
		shared[p], longest[p] = c, l
	})
	return sortNamesFrom(a, make([]kv, len(a)), names, slices.Min(shared), slices.Max(longest), tie)
}

// sortNamesFrom is sortByNames of names that all share their first at
// bytes, longest bytes the longest; tmp is scratch as long as a.
func sortNamesFrom(a, tmp []kv, names []string, at, longest int, tie func(run, tmp []kv, buf []int)) []kv {
	n := len(a)
	if n < 2 {
		return a
	}
	parts := stretches(n, 1<<14)
	// each row's first number, and the first of its window (the number
	// after): as many numbers as hold the longest name's end
	per := min(max(longest-at-8, 0)/8+1, maxWindow)
	nums := windowScratch.get(len(names) * per)
	defer windowScratch.put(nums)
	w := &window{nums: nums, rows: len(names), per: per, at: at + 8} // its rows are the names' places
	inParts(n, parts, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			s := names[a[j].i]
			a[j].k = chunk(s, at)
			w.nums[a[j].i] = chunk(s, at+8)
		}
	})
	a, tmp = radixSort(a, tmp)
	// each run of equal first numbers by the second, and the runs that are
	// equal still
	sorters := make([]nameSorter, parts)
	for p := range sorters {
		sorters[p] = nameSorter{names: names, tie: tie, buf: make([]int, 4<<11)}
	}
	tied := make([][]int, parts) // each stretch's such runs, as lo, hi
	eachRun(a, parts, func(p, lo, hi int) {
		ns, run := &sorters[p], a[lo:hi]
		switch {
		case len(run) == 1:
		case ended(run[0].k):
			ns.ties(run, tmp[lo:hi])
		default:
			for j := range run {
				run[j].k = w.key(run[j].i, 0)
			}
			sortInPlace(run, tmp[lo:hi], ns.buf)
			for glo := 0; glo < len(run); {
				ghi := glo + 1
				for ghi < len(run) && run[ghi].k == run[glo].k {
					ghi++
				}
				switch g := run[glo:ghi]; {
				case len(g) == 1:
				case ended(g[0].k):
					ns.ties(g, tmp[lo+glo:lo+ghi])
				case w.per == 1:
					ns.next(g, tmp[lo+glo:lo+ghi], w.at+8) // names past the window
				default:
					tied[p] = append(tied[p], lo+glo, lo+ghi)
				}
				glo = ghi
			}
		}
	})
	runs := slices.Concat(tied...)
	if len(runs) == 0 {
		return a // sixteen bytes told the names apart (or the runs are done)
	}
	// the rest of the window of the rows of those runs, read in the order
	// the names lie
	more := make([]bool, len(names))
	inStretches(len(runs)/2, func(lo, hi int) {
		for _, e := range a[runs[2*lo]:runs[2*hi-1]] {
			more[e.i] = true
		}
	})
	inStretches(len(names), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if more[i] {
				w.fill(i, names[i], 1)
			}
		}
	})
	// those runs from the window's second numbers on, on all cores
	var next atomic.Int64
	inParts(parts, parts, func(p, _, _ int) {
		for r := int(next.Add(2)) - 2; r < len(runs); r = int(next.Add(2)) - 2 {
			lo, hi := runs[r], runs[r+1]
			sorters[p].sortWindow(w, a[lo:hi], tmp[lo:hi], 1)
		}
	})
	return a
}

// eachRun calls fn with each run of equal keys of a (one row or more, lo
// to hi), in parts stretches of a on a goroutine each (p the stretch),
// each run in one stretch.
func eachRun(a []kv, parts int, fn func(p, lo, hi int)) {
	n := len(a)
	cut := runCuts(a, parts)
	inParts(n, parts, func(p, _, _ int) {
		for lo, end := cut[p], cut[p+1]; lo < end; {
			hi := lo + 1
			for hi < end && a[hi].k == a[lo].k {
				hi++
			}
			fn(p, lo, hi)
			lo = hi
		}
	})
}

// nameSorter sorts runs of rows whose names are equal up to some byte, on
// one goroutine.
type nameSorter struct {
	names []string
	tie   func(run, tmp []kv, buf []int)
	buf   []int // the counts of sortLocal
}

func (ns *nameSorter) ties(run, tmp []kv) {
	if ns.tie != nil {
		ns.tie(run, tmp, ns.buf)
	}
}

// groups calls fn with each run of two or more equal keys of the sorted
// run, and the same stretch of tmp; a long run's on all cores, each
// goroutine with a nameSorter of its own.
func (ns *nameSorter) groups(run, tmp []kv, fn func(ns *nameSorter, g, gt []kv)) {
	n := len(run)
	parts := stretches(n, 1<<14)
	if parts == 1 {
		for lo := 0; lo < n; {
			hi := lo + 1
			for hi < n && run[hi].k == run[lo].k {
				hi++
			}
			if hi-lo > 1 {
				fn(ns, run[lo:hi], tmp[lo:hi])
			}
			lo = hi
		}
		return
	}
	own := make([]*nameSorter, parts)
	own[0] = ns
	for p := 1; p < parts; p++ {
		own[p] = &nameSorter{names: ns.names, tie: ns.tie, buf: make([]int, 4<<11)}
	}
	eachRun(run, parts, func(p, lo, hi int) {
		if hi-lo > 1 {
			fn(own[p], run[lo:hi], tmp[lo:hi])
		}
	})
}

// A window holds rows' names, from its byte at on, as eight-byte numbers
// side by side: read from the names once, sorted from many times.
//
// The numbers lie by place, not by row: a window's c-th numbers of all
// rows, then its (c+1)-th. A level of the sort reads one number of each
// row of a run, in an eighth of the memory (a run's rows, in the order of
// their places, share cache lines and pages; a million rows' window is
// tens of megabytes, and a read anywhere in it a miss of the address
// cache as well).
type window struct {
	nums []uint64 // row j's c-th number is nums[c*rows+j]
	rows int
	// row j's place in names, when the window is a run's own (its rows
	// stand for their window rows while it is sorted); nil when the rows
	// are the names' places
	orig []uint32
	per  int
	at   int
	kept *windowArrays // the arrays, to hand back
}

// maxWindow is the most eight-byte numbers a window holds of a name.
const maxWindow = 8

// key is row j's c-th number.
func (w *window) key(j uint32, c int) uint64 { return w.nums[c*w.rows+int(j)] }

// fill makes window row j from the name s, its numbers from the from-th.
func (w *window) fill(j int, s string, from int) {
	at := w.at + 8*from
	if at+8*(w.per-from) <= len(s) {
		for c := from*w.rows + j; c < len(w.nums); c += w.rows {
			w.nums[c] = lower8(load8(s, at))
			at += 8
		}
		return
	}
	// the name's end, zeros after it
	var end [8 * maxWindow]byte
	if at < len(s) {
		copy(end[:], s[at:])
	}
	for c, k := from*w.rows+j, 0; c < len(w.nums); c, k = c+w.rows, k+8 {
		w.nums[c] = lower8(binary.BigEndian.Uint64(end[k:]))
	}
}

// back puts run's places in names back: it leaves the window.
func (w *window) back(run []kv) {
	if w.orig != nil {
		for j := range run {
			run[j].i = w.orig[run[j].i]
		}
	}
}

// next sorts run, whose names are equal before byte at, from a window of
// its own of the bytes from at (names past the first window).
func (ns *nameSorter) next(run, tmp []kv, at int) {
	m := len(run)
	longest := max(len(ns.names[run[0].i]), len(ns.names[run[m-1].i]))
	per := min(max(longest-at, 0)/8+1, maxWindow)
	w := newWindow(m, per, at)
	defer w.drop()
	for j := range run {
		w.fill(j, ns.names[run[j].i], 0)
		w.orig[j] = run[j].i
		run[j].i = uint32(j)
	}
	ns.sortWindow(w, run, tmp, 0)
}

type windowArrays struct {
	nums []uint64
	orig []uint32
}

var winScratch sync.Pool // *windowArrays

// sortWindow sorts run, rows of w whose names are equal before its c-th
// numbers, and puts each row's place back.
func (ns *nameSorter) sortWindow(w *window, run, tmp []kv, c int) {
	for {
		if c == w.per { // the window is spent
			w.back(run)
			ns.next(run, tmp, w.at+8*c)
			return
		}
		var differ uint64
		col := w.nums[c*w.rows : (c+1)*w.rows]
		k0 := col[run[0].i]
		for j, e := range run {
			k := col[e.i]
			run[j].k = k
			differ |= k ^ k0
		}
		if differ != 0 {
			break
		}
		// all share the number: find in one pass the first where one
		// differs, or the number where the first name ends (all are equal
		// names if they share it)
		last := c
		for last+1 < w.per && !ended(w.key(run[0].i, last)) {
			last++
		}
		if last = w.shared(run, c+1, last); last < w.per && ended(w.key(run[0].i, last)) {
			w.back(run)
			ns.ties(run, tmp)
			return
		}
		c = last + 1
	}
	sortInPlace(run, tmp, ns.buf)
	if w.orig != nil { // the rows alone in their runs leave the window
		for j, e := range run {
			if (j == 0 || run[j-1].k != e.k) && (j == len(run)-1 || run[j+1].k != e.k) {
				run[j].i = w.orig[e.i]
			}
		}
	}
	ns.groups(run, tmp, func(ns *nameSorter, g, gt []kv) {
		switch {
		case ended(g[0].k):
			w.back(g)
			ns.ties(g, gt)
		default:
			ns.sortWindow(w, g, gt, c+1)
		}
	})
}

// newWindow is a window of n rows of per numbers from byte at of the
// names, its arrays kept scratch when there are some long enough; drop
// hands them back.
func newWindow(n, per, at int) *window {
	w := &window{rows: n, per: per, at: at}
	p, _ := winScratch.Get().(*windowArrays)
	if p == nil || cap(p.nums) < n*per || cap(p.orig) < n {
		p = &windowArrays{make([]uint64, n*per), make([]uint32, n)}
	}
	w.kept = p
	w.nums, w.orig = p.nums[:n*per], p.orig[:n]
	return w
}

func (w *window) drop() {
	if cap(w.kept.nums) >= keptFrom {
		winScratch.Put(w.kept)
	}
}

// shared is the last of run's numbers from..upTo that all rows share with
// the first (from-1 when none).
func (w *window) shared(run []kv, from, upTo int) int {
	r0 := run[0].i
	for _, e := range run[1:] {
		for c := from; c <= upTo; c++ {
			if w.key(e.i, c) != w.key(r0, c) {
				upTo = c - 1
				break
			}
		}
	}
	return upTo
}

// ended reports whether a name's eight bytes hold its end.
func ended(k uint64) bool { return k&0xff == 0 }

// sharedBytes is how many bytes a and b share at the start, at most upTo,
// letters compared in lower case.
func sharedBytes(a, b string, upTo int) int {
	upTo = min(upTo, len(a), len(b))
	for at := 0; at < upTo; at += 8 {
		if x := chunk(a, at) ^ chunk(b, at); x != 0 {
			return min(at+bits.LeadingZeros64(x)/8, upTo)
		}
	}
	return upTo
}

// chunk is bytes at..at+8 of s as a big-endian number, ASCII letters in
// lower case, zeros after the end.
func chunk(s string, at int) uint64 {
	switch {
	case at+8 <= len(s):
		return lower8(load8(s, at))
	case at >= len(s):
		return 0
	case len(s) >= 8:
		// the last eight bytes, moved up to start at at
		return lower8(load8(s, len(s)-8) << (8 * (at + 8 - len(s))))
	}
	var k uint64
	for j := range 8 {
		k <<= 8
		if at+j < len(s) {
			k |= uint64(s[at+j])
		}
	}
	return lower8(k)
}

// load8 is s[at:at+8] as a big-endian number.
func load8(s string, at int) uint64 {
	s = s[at : at+8]
	return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
		uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
}

// lower8 lowers the ASCII capitals among eight bytes, all at once: a
// byte is one when its low seven bits are 'A' to 'Z' and its top bit is
// clear (bytes of UTF-8 sequences stay).
func lower8(x uint64) uint64 {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	seven := x &^ high
	atLeastA := seven + (0x80-'A')*ones    // top bit set from 'A' up
	pastZ := seven + (0x80-'Z'-1)*ones     // top bit set past 'Z'
	upper := atLeastA &^ pastZ &^ x & high // no carry crosses a byte
	return x | upper>>2                    // 0x80>>2 is 'a'-'A'
}

func reverse(a []kv) {
	for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
		a[i], a[j] = a[j], a[i]
	}
}
