package library

import (
	"io/fs"
	"runtime"
	"sync"
	"time"
)

// Checked is a full check's result for one file.
type Checked struct {
	Path  string
	Check *Check
}

// Checker runs full decodes in the background, one file at a time, on a
// thread of the lowest priority, and rests between files as long as the
// last one took: the browser stays responsive and a check never takes more
// than half a core from whatever else the machine does. Results go to the
// index (when there is one) and to Results.
type Checker struct {
	idx     *Index
	results chan Checked

	mu     sync.Mutex
	queue  []checkJob // in the order to check; front entries first
	queued map[string]bool
	closed bool
	wake   chan struct{}
	quit   chan struct{} // closed by Close
	done   chan struct{} // closed when run returns
}

type checkJob struct {
	h    Header
	fsys fs.FS
}

// NewChecker starts a checker; idx may be nil.
func NewChecker(idx *Index) *Checker {
	c := &Checker{idx: idx, results: make(chan Checked, 64), queued: map[string]bool{},
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// Results delivers each check as it completes. It is closed by Close.
func (c *Checker) Results() <-chan Checked { return c.results }

// Add queues a file (fsys nil for the OS's files). A file already queued
// or one with nothing to check (unreadable, already checked) is ignored.
func (c *Checker) Add(h Header, fsys fs.FS) {
	if h.Checked() || h.Kind != File {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.queued[h.Path] {
		return
	}
	c.queued[h.Path] = true
	c.queue = append(c.queue, checkJob{h, fsys})
	c.signal()
}

// Prefer moves a queued file to the front: the one a person looks at.
func (c *Checker) Prefer(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, j := range c.queue {
		if j.h.Path == path {
			copy(c.queue[1:i+1], c.queue[:i])
			c.queue[0] = j
			return
		}
	}
}

// Forget drops a queued file (it was checked another way: opened).
func (c *Checker) Forget(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, j := range c.queue {
		if j.h.Path == path {
			c.queue = append(c.queue[:i], c.queue[i+1:]...)
			return
		}
	}
}

// Pending is the number of files waiting.
func (c *Checker) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queue)
}

// Close stops after the file being checked and closes Results.
func (c *Checker) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.queue = nil
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

func (c *Checker) run() {
	// the thread stays ours and at low priority until the goroutine ends,
	// when the runtime retires it with its priority
	runtime.LockOSThread()
	lowPriority()
	defer close(c.done)
	defer close(c.results)
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return
		}
		if len(c.queue) == 0 {
			c.mu.Unlock()
			select {
			case <-c.wake:
			case <-c.quit:
			}
			continue
		}
		j := c.queue[0]
		c.queue = c.queue[1:]
		c.mu.Unlock()

		start := time.Now()
		j.h.Check = CheckFile(Entry{Path: j.h.Path, FS: j.fsys, Kind: File, Size: j.h.Size, ModTime: j.h.ModTime})
		if c.idx != nil && j.fsys == nil {
			c.idx.Put(j.h)
		}
		select {
		case c.results <- Checked{Path: j.h.Path, Check: j.h.Check}:
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
