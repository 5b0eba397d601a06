package tui

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// kv is a key and the row's place in the list being sorted.
type kv struct {
	k uint64
	i uint32
}

// radixSort sorts a stably by key; tmp is scratch of the same length. It
// returns whichever of the two holds the result, and the other.
//
// It is a most-significant-digit radix sort: one pass over the whole list
// puts each key in one of a few thousand buckets by its top bits (of the
// range the keys span, so keys bunched in a corner of the 64 bits still
// spread), and then each bucket, a few hundred keys that fit in the
// first-level cache, is sorted the same way on its own. Six passes of a
// least-significant-digit sort each moved the whole list through memory;
// this moves it once. A long list is split over the cores: each counts
// and then moves its own stretch, into places the counts of the stretches
// before it leave free (stable), and the buckets are shared out after.
func radixSort(a, tmp []kv) (sorted, scratch []kv) {
	n := len(a)
	if n <= smallSort {
		insertionSort(a)
		return a, tmp
	}
	parts := 1
	if n >= 1<<16 {
		parts = runtime.GOMAXPROCS(0)
	}
	inParallel := func(fn func(p int)) {
		if parts == 1 {
			fn(0)
			return
		}
		var wg sync.WaitGroup
		for p := range parts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				fn(p)
			}()
		}
		wg.Wait()
	}
	part := func(p int) (lo, hi int) { return p * n / parts, (p + 1) * n / parts }

	ranges := make([]keyRange, parts)
	inParallel(func(p int) {
		lo, hi := part(p)
		ranges[p] = rangeOf(a[lo:hi])
	})
	r := ranges[0]
	for _, q := range ranges[1:] {
		r = r.join(q)
	}
	d := r.digits(topBits(n))
	if d.nb <= 1 {
		return a, tmp // every key the same
	}
	count := make([][]int, parts)
	inParallel(func(p int) {
		c := make([]int, d.nb)
		lo, hi := part(p)
		for _, e := range a[lo:hi] {
			c[d.of(e.k)]++
		}
		count[p] = c
	})
	// each stretch's first place for each digit: after every smaller
	// digit, and after the same digit in the stretches before it
	starts := make([]int, d.nb+1)
	sum := 0
	for b := range d.nb {
		starts[b] = sum
		for p := range parts {
			c := count[p][b]
			count[p][b] = sum
			sum += c
		}
	}
	starts[d.nb] = n
	inParallel(func(p int) {
		c := count[p]
		lo, hi := part(p)
		for _, e := range a[lo:hi] {
			b := d.of(e.k)
			tmp[c[b]] = e
			c[b]++
		}
	})
	if d.exact {
		return tmp, a // a bucket holds one key
	}
	// each bucket, sorted in place in tmp with a as its scratch; a long
	// one (keys bunched in one bucket) on all cores itself
	sortBucket := func(lo, hi int, buf []int) {
		if hi-lo <= smallSort {
			insertionSort(tmp[lo:hi])
			return
		}
		if hi-lo >= 1<<16 && parts > 1 {
			if out, _ := radixSort(tmp[lo:hi], a[lo:hi]); &out[0] != &tmp[lo] {
				copy(tmp[lo:hi], out)
			}
			return
		}
		sortLocal(tmp[lo:hi], a[lo:hi], buf)
	}
	var next atomic.Int64
	const grab = 16 // buckets a goroutine takes at a time
	inParallel(func(int) {
		buf := make([]int, 4<<11)
		for {
			b0 := int(next.Add(grab)) - grab
			if b0 >= d.nb {
				return
			}
			for b := b0; b < min(b0+grab, d.nb); b++ {
				if starts[b+1]-starts[b] > 1 {
					sortBucket(starts[b], starts[b+1], buf)
				}
			}
		}
	})
	return tmp, a
}

// smallSort is the length up to which a run is sorted by insertion.
const smallSort = 24

// topBits is the digit width of a sort of n keys: buckets of a few hundred.
func topBits(n int) int {
	return min(max(bits.Len(uint(n))-8, 4), 12)
}

// sortLocal sorts a stably in place, tmp scratch of the same length: a
// bucket's sort, on one core. buf is scratch for the counts, of this call
// and the ones it makes (grown when short).
func sortLocal(a, tmp []kv, buf []int) {
	n := len(a)
	if n <= smallSort {
		insertionSort(a)
		return
	}
	r := rangeOf(a)
	d := r.digits(min(bits.Len(uint(n)), 11))
	if d.nb <= 1 {
		return
	}
	if len(buf) < d.nb+1 {
		buf = make([]int, max(d.nb+1, 4<<11))
	}
	c := buf[:d.nb+1]
	clear(c)
	for _, e := range a {
		c[d.of(e.k)+1]++
	}
	for b := 1; b <= d.nb; b++ {
		c[b] += c[b-1]
	}
	// c[b] is bucket b's start; once the keys are moved, its end
	for _, e := range a {
		b := d.of(e.k)
		tmp[c[b]] = e
		c[b]++
	}
	copy(a, tmp)
	if d.exact {
		return
	}
	lo := 0
	for b := range d.nb {
		if hi := c[b]; hi-lo > 1 {
			sortLocal(a[lo:hi], tmp[lo:hi], buf[d.nb+1:])
		}
		lo = c[b]
	}
}

// insertionSort sorts a short run stably.
func insertionSort(a []kv) {
	for i := 1; i < len(a); i++ {
		e := a[i]
		j := i
		for j > 0 && a[j-1].k > e.k {
			a[j] = a[j-1]
			j--
		}
		a[j] = e
	}
}

// keyRange is the smallest and largest key of a run that is not missing,
// and whether any is missing.
type keyRange struct {
	lo, hi  uint64
	missing bool
	any     bool // a key that is not missing
}

func rangeOf(a []kv) keyRange {
	// missing+1 is 0: the largest k+1 is one past the largest key that
	// is not missing, the smallest is 0 when one is missing (no branches)
	lo, top, bottom := uint64(missing), uint64(0), uint64(missing)
	for _, e := range a {
		lo = min(lo, e.k)
		top = max(top, e.k+1)
		bottom = min(bottom, e.k+1)
	}
	return keyRange{lo: lo, hi: top - 1, missing: bottom == 0, any: top != 0}
}

func (r keyRange) join(q keyRange) keyRange {
	switch {
	case !q.any:
		r.missing = r.missing || q.missing
		return r
	case !r.any:
		q.missing = r.missing || q.missing
		return q
	}
	return keyRange{lo: min(r.lo, q.lo), hi: max(r.hi, q.hi), missing: r.missing || q.missing, any: true}
}

// digits are how a run's keys fall in buckets: (k-lo)>>shift, missing keys
// in the last bucket (one of their own, unless a bucket holds more than
// one key value: then maybe with the largest keys, which sort before
// them in that bucket's sort).
type digits struct {
	lo    uint64
	shift uint
	nb    int  // buckets
	exact bool // each bucket holds one key value
}

// digits spreads the range over at most 1<<width buckets (and one for the
// missing keys).
func (r keyRange) digits(width int) digits {
	if !r.any {
		return digits{nb: 1, exact: true}
	}
	span := r.hi - r.lo
	shift := uint(max(bits.Len64(span)-width, 0))
	d := digits{lo: r.lo, shift: shift, nb: int(span>>shift) + 1, exact: shift == 0}
	if r.missing {
		d.nb++
	}
	return d
}

// of is k's bucket: missing-lo is past the span, so the smallest of it
// and the last bucket is the last bucket when each holds one value.
func (d *digits) of(k uint64) int {
	return int(min((k-d.lo)>>d.shift, uint64(d.nb-1)))
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
