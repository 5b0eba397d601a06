package library

import (
	"io/fs"
	"runtime"
	"sync"
	"time"
)

// Checker runs full decodes in the background, one file at a time, on a
// thread of the lowest priority, and rests between files as long as the
// last one took: the browser stays responsive and a check never takes more
// than half a core from whatever else the machine does.
//
// It works on a store's rows: a result (the header as the full decode
// gives it, the check, the summary) goes into the row at once, and into the
// index when there is one, flushed every second, so a restart resumes where
// it stopped. Results delivers the rows that changed. Nothing is kept per
// file checked: the queue is four bytes a row and only shrinks, so a
// million checks cost no more memory than one.
type Checker struct {
	idx     *Index
	store   *Store
	fsys    fs.FS
	results chan RowID

	mu        sync.Mutex
	queue     []RowID // in the order to check
	preferred []RowID // checked before the queue: the rows a person looks at
	skip      map[RowID]bool
	closed    bool
	wake      chan struct{}
	quit      chan struct{} // closed by Close
	done      chan struct{} // closed when run returns
}

// NewChecker starts a checker over a store's rows: the index's store when
// idx is set, else store (whose files are in fsys when that is set).
func NewChecker(idx *Index, store *Store, fsys fs.FS) *Checker {
	if idx != nil {
		store = idx.Store()
	}
	c := &Checker{idx: idx, store: store, fsys: fsys, results: make(chan RowID, 256), skip: map[RowID]bool{},
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// Results delivers each row checked. It is closed by Close.
func (c *Checker) Results() <-chan RowID { return c.results }

// Add queues rows, in order. Rows with nothing to check (unreadable,
// already checked) are passed over when their turn comes.
func (c *Checker) Add(ids []RowID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.queue = append(c.queue, ids...)
	c.signal()
}

// Prefer checks a row next: the one a person looks at.
func (c *Checker) Prefer(id RowID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.preferred = append(c.preferred, id)
	if len(c.preferred) > 64 {
		c.preferred = c.preferred[len(c.preferred)-64:] // the cursor moved on: the last ones matter
	}
	c.signal()
}

// Forget drops a queued row (it was checked another way: opened).
func (c *Checker) Forget(id RowID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.skip[id] = true
}

// Pending is the number of rows waiting (some may need no check).
func (c *Checker) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queue) + len(c.preferred)
}

// Close stops after the file being checked, writes the results to the
// index and closes Results.
func (c *Checker) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.queue, c.preferred = nil, nil
	close(c.quit)
	c.mu.Unlock()
	<-c.done
}

func (c *Checker) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// next takes the next row to check; false when there is none.
func (c *Checker) next() (RowID, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		var id RowID
		switch {
		case len(c.preferred) > 0:
			id = c.preferred[len(c.preferred)-1]
			c.preferred = c.preferred[:len(c.preferred)-1]
		case len(c.queue) > 0:
			id = c.queue[0]
			c.queue = c.queue[1:]
			if len(c.queue) == 0 {
				c.queue = nil // let the array go
			}
		default:
			return 0, false
		}
		if c.skip[id] {
			delete(c.skip, id)
			continue
		}
		return id, true
	}
}

// entry is what a check of a row needs: its file, unless it has nothing
// to check.
func (c *Checker) entry(id RowID) (Entry, bool) {
	s := c.store
	s.mu.RLock()
	defer s.mu.RUnlock()
	if int(id) >= s.n {
		return Entry{}, false
	}
	r := s.rec(id)
	if Kind(r.kind) != File || r.flags&(fCheck|fErr) != 0 {
		return Entry{}, false
	}
	var path string
	if c.fsys == nil {
		path = s.dirs[s.dirs[r.dir].abs].text + s.name(r)
	} else {
		path = s.dirs[r.dir].text + s.name(r)
	}
	e := Entry{Path: path, FS: c.fsys, Kind: File, Size: r.size}
	if r.mtime != 0 {
		e.ModTime = time.Unix(0, r.mtime)
	}
	return e, true
}

func (c *Checker) run() {
	// the thread stays ours and at low priority until the goroutine ends,
	// when the runtime retires it with its priority
	runtime.LockOSThread()
	lowPriority()
	defer close(c.done)
	defer close(c.results)
	flushed := time.Now()
	defer func() {
		if c.idx != nil {
			c.idx.Flush()
		}
	}()
	for {
		select {
		case <-c.quit:
			return
		default:
		}
		id, ok := c.next()
		if !ok {
			if c.idx != nil {
				c.idx.Flush() // idle: what was checked is written
				flushed = time.Now()
			}
			select {
			case <-c.wake:
			case <-c.quit:
				return
			}
			continue
		}
		e, ok := c.entry(id)
		if !ok {
			continue
		}
		start := time.Now()
		h := ReadFull(e)
		if c.fsys == nil {
			// the row keeps the path as walked; the check, its key
			h.Path = c.store.Path(id)
		}
		if c.idx != nil && h.Kind == File {
			c.idx.PutRow(&h)
		} else {
			c.store.Put(&h)
		}
		if c.idx != nil && time.Since(flushed) > time.Second {
			c.idx.Flush()
			flushed = time.Now()
		}
		select {
		case c.results <- id:
		case <-c.quit:
			return
		}
		rest := time.NewTimer(min(time.Since(start), 200*time.Millisecond))
		select {
		case <-rest.C:
		case <-c.quit:
			rest.Stop()
		}
	}
}
