package tui

import (
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// A sort by file name (or by description) over a million rows sorts the
// names eight bytes at a time, each eight read as one big-endian number
// with its ASCII letters lowered in one go:
//
//   - the bytes every name shares ("game_20…") are skipped: found from
//     the eight-byte numbers of each name and the first, in row order;
//   - each row's first two numbers after them are made in row order (the
//     names' bytes are read where they lie, one after another, on all
//     cores), the first as the sort key, the second kept aside;
//   - the keys are radix-sorted, then each run of equal keys (names equal
//     so far) is sorted by its second numbers, then by the names' next
//     bytes read from the names themselves, in the rare runs where
//     sixteen bytes did not tell the names apart.
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
	shared := make([]int, stretches(len(a), 1<<14))
	inParts(len(a), len(shared), func(p, lo, hi int) {
		c := len(first)
		for _, e := range a[lo:hi] {
			c = sharedBytes(first, names[e.i], c)
		}
		shared[p] = c
	})
	return sortNamesFrom(a, make([]kv, len(a)), names, slices.Min(shared), tie)
}

// sortNamesFrom is sortByNames of names that all share their first at
// bytes; tmp is scratch as long as a.
func sortNamesFrom(a, tmp []kv, names []string, at int, tie func(run, tmp []kv, buf []int)) []kv {
	n := len(a)
	if n < 2 {
		return a
	}
	parts := stretches(n, 1<<14)
	// the first two numbers of each name after the shared bytes
	second := keys(len(names))
	defer keepKeys(second)
	inParts(n, parts, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			s := names[a[j].i]
			a[j].k = chunk(s, at)
			second[a[j].i] = chunk(s, at+8)
		}
	})
	a, tmp = radixSort(a, tmp)
	// each run of equal first numbers by the second, and on
	sortRuns(a, tmp, func(run, tmp []kv, buf []int) {
		ns := nameSorter{names: names, tie: tie, buf: buf}
		if ended(run[0].k) {
			ns.ties(run, tmp)
			return
		}
		for j := range run {
			run[j].k = second[run[j].i]
		}
		ns.sort(run, tmp, at+8)
	})
	return a
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

// sort sorts run, whose names are equal before byte at and whose keys are
// their bytes at..at+8, stably; tmp is scratch of the same length.
func (ns *nameSorter) sort(run, tmp []kv, at int) {
	sortInPlace(run, tmp, ns.buf)
	for lo := 0; lo < len(run); {
		hi := lo + 1
		for hi < len(run) && run[hi].k == run[lo].k {
			hi++
		}
		if hi-lo > 1 {
			ns.next(run[lo:hi], tmp[lo:hi], at+8)
		}
		lo = hi
	}
}

// next sorts run, whose names are equal before byte at, from the names:
// past the bytes they all share, then by the eight after.
func (ns *nameSorter) next(run, tmp []kv, at int) {
	if ended(run[0].k) {
		ns.ties(run, tmp)
		return
	}
	for {
		var differ uint64
		k0 := chunk(ns.names[run[0].i], at)
		for j := range run {
			run[j].k = chunk(ns.names[run[j].i], at)
			differ |= run[j].k ^ k0
		}
		switch {
		case differ == 0 && ended(k0):
			ns.ties(run, tmp) // the names end here, all equal
			return
		case differ == 0:
			at += 8
			continue
		}
		// bytes all share at the start of the eight: read from after them
		if z := bits.LeadingZeros64(differ) / 8; z > 0 {
			at += z
			continue
		}
		ns.sort(run, tmp, at)
		return
	}
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
