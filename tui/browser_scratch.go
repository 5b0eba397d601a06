package tui

import "sync"

// A sort's scratch arrays are tens of megabytes for a million rows. They
// are kept for the next sort: fresh memory costs the kernel a page fault
// for every 4 KB a sort first touches (a few milliseconds a sort). A
// short list's arrays are not worth keeping.

var kvScratch, keyScratch sync.Pool // *[]kv, *[]uint64

const keptFrom = 1 << 14 // the shortest array kept

// kvs returns an array of n kv, its contents left from an earlier sort.
func kvs(n int) []kv {
	if n >= keptFrom {
		if p, _ := kvScratch.Get().(*[]kv); p != nil && cap(*p) >= n {
			return (*p)[:n]
		}
	}
	return make([]kv, n)
}

// keepKVs hands a back for a later sort; the caller no longer uses it.
func keepKVs(a []kv) {
	if cap(a) >= keptFrom {
		kvScratch.Put(&a)
	}
}

// keys returns an array of n keys, its contents left from an earlier sort.
func keys(n int) []uint64 {
	if n >= keptFrom {
		if p, _ := keyScratch.Get().(*[]uint64); p != nil && cap(*p) >= n {
			return (*p)[:n]
		}
	}
	return make([]uint64, n)
}

// keepKeys hands k back for a later sort; the caller no longer uses it.
func keepKeys(k []uint64) {
	if cap(k) >= keptFrom {
		keyScratch.Put(&k)
	}
}
