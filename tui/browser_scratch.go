package tui

import "sync"

// A sort's scratch arrays are tens of megabytes for a million rows. They
// are kept for the next sort: fresh memory costs the kernel a page fault
// for every 4 KB a sort first touches (a few milliseconds a sort). A
// short list's arrays are not worth keeping.

const keptFrom = 1 << 14 // the shortest array kept

// scratch keeps arrays of one type between sorts.
type scratch[T any] struct{ pool sync.Pool } // *[]T

var (
	kvScratch     scratch[kv]     // the two lists of keys and rows
	keyScratch    scratch[uint64] // a sort's keys and dates
	windowScratch scratch[uint64] // the file-name sort's window of all rows
)

// get returns an array of n, its contents left from an earlier sort.
func (s *scratch[T]) get(n int) []T {
	if n >= keptFrom {
		if p, _ := s.pool.Get().(*[]T); p != nil && cap(*p) >= n {
			return (*p)[:n]
		}
	}
	return make([]T, n)
}

// put hands a back for a later sort; the caller no longer uses it.
func (s *scratch[T]) put(a []T) {
	if cap(a) >= keptFrom {
		s.pool.Put(&a)
	}
}
