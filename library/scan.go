package library

import (
	"context"
	"io/fs"
	"iter"
	"runtime"
	"runtime/debug"
	"sync"
)

// Paths is Walk as an iterator.
func Paths(paths []string) iter.Seq[Entry] {
	return func(yield func(Entry) bool) { Walk(paths, yield) }
}

// FSPaths is WalkFS as an iterator.
func FSPaths(fsys fs.FS, root string) iter.Seq[Entry] {
	return func(yield func(Entry) bool) { WalkFS(fsys, root, yield) }
}

// ScanOptions tune Scan.
type ScanOptions struct {
	// Index holds headers from earlier runs: a file whose size and
	// modification time match is not read, and every file read is added.
	// Nil reads every file (--no-cache).
	Index *Index
	// Workers is how many files are read at once; 0 means one per CPU.
	Workers int
	// Ordered delivers headers in walk order (info, find); otherwise each
	// is delivered as soon as it is read (the browser).
	Ordered bool
	// Check runs a full decode of every file that has no check yet (in the
	// index or otherwise), so ProblemCount is final for all (find with a
	// problems: query). The checks go into the index.
	Check bool
}

// window bounds the headers read ahead of the one an ordered scan waits
// for, so one slow file cannot make the others pile up.
const window = 4096

// Scan reads the header of every entry of walk on all cores and calls fn
// with each, from one goroutine at a time (the caller's). Unreadable and
// skipped entries come through too, with Err set. It returns when every
// entry has been delivered, when fn returns false, or when ctx ends.
func Scan(ctx context.Context, walk iter.Seq[Entry], opt ScanOptions, fn func(Header) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer lazyGC()()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		seq int
		e   Entry
	}
	type result struct {
		seq int
		h   Header
	}
	jobs := make(chan job, 4*workers)
	results := make(chan result, 256)
	tokens := make(chan struct{}, window)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if ctx.Err() != nil {
					continue // drain: the scan was stopped
				}
				var h Header
				if opt.Check {
					h = ReadFull(j.e) // one full decode gives the header and the check
				} else {
					h = ReadHeader(j.e)
				}
				if opt.Index != nil && j.e.FS == nil && h.Kind == File {
					opt.Index.Put(h)
				}
				select {
				case results <- result{j.seq, h}:
				case <-ctx.Done():
				}
			}
		}()
	}
	go func() {
		defer func() {
			close(jobs)
			wg.Wait()
			close(results)
		}()
		seq := 0
		for e := range walk {
			if opt.Ordered {
				select {
				case tokens <- struct{}{}:
				case <-ctx.Done():
					return
				}
			}
			if opt.Index != nil && e.FS == nil && e.Kind == File {
				// a header without the check a Check scan needs is read again
				if h, ok := opt.Index.Get(e.Path, e.Size, e.ModTime); ok && (!opt.Check || h.Checked()) {
					h.Kind = File
					select {
					case results <- result{seq, h}:
					case <-ctx.Done():
						return
					}
					seq++
					continue
				}
			}
			select {
			case jobs <- job{seq, e}:
			case <-ctx.Done():
				return
			}
			seq++
		}
	}()
	next := 0
	held := map[int]Header{}
	for r := range results {
		if !opt.Ordered {
			if !fn(r.h) {
				return
			}
			continue
		}
		held[r.seq] = r.h
		for {
			h, ok := held[next]
			if !ok {
				break
			}
			delete(held, next)
			next++
			<-tokens
			if !fn(h) {
				return
			}
		}
	}
}

var gc struct {
	sync.Mutex
	users, old int
}

// lazyGC lets the heap grow to five times what is live while scans run:
// a header read allocates and drops a few hundred kilobytes, the live heap
// is small, and with Go's default the collector would run every few files
// (it halves the CPU a scan takes). A GOGC the user set higher is kept.
func lazyGC() (restore func()) {
	gc.Lock()
	if gc.users == 0 {
		gc.old = debug.SetGCPercent(400)
		if gc.old < 0 || gc.old > 400 {
			debug.SetGCPercent(gc.old)
		}
	}
	gc.users++
	gc.Unlock()
	return func() {
		gc.Lock()
		gc.users--
		if gc.users == 0 {
			debug.SetGCPercent(gc.old)
		}
		gc.Unlock()
	}
}
