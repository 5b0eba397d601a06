package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"rewind/model"
	"rewind/theme"
)

// progress draws one line on a terminal while a command works: the replays
// found so far while walking, then a bar, the count and the file that has
// been decoding longest with its time, so a slow file is never a silent
// wait. Every method does nothing on a nil *progress, which is what
// newProgress gives when the writer is not a terminal: piped output gets
// nothing extra.
type progress struct {
	w        io.Writer
	mu       sync.Mutex
	nfound   int
	total    int
	ndone    int
	running  map[int]task
	checking bool
	last     time.Time
	stop     chan struct{}
	stopped  sync.WaitGroup
}

type task struct {
	name  string
	since time.Time
}

func newProgress(w io.Writer) *progress {
	if !isTerminal(w) {
		return nil
	}
	return &progress{w: w, running: map[int]task{}}
}

// found counts the files a walk has found so far.
func (p *progress) found(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nfound = n
	if time.Since(p.last) > 100*time.Millisecond {
		p.draw()
	}
}

// begin switches to the bar over total files and redraws it four times a
// second, so the time of a slow file keeps moving.
func (p *progress) begin(total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.total, p.checking = total, true
	p.draw()
	p.mu.Unlock()
	p.stop = make(chan struct{})
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
}

func (p *progress) start(i int, name string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[i] = task{name, time.Now()}
}

func (p *progress) done(i int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, i)
	p.ndone++
	p.draw()
}

// print runs f, which writes to the output, with the progress line out of
// the way.
func (p *progress) print(f func()) {
	if p == nil {
		f()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
	f()
	p.draw()
}

// finish removes the line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	if p.stop != nil {
		close(p.stop)
		p.stopped.Wait()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
}

// draw writes the line, cut to the terminal's width so it never wraps.
// The caller holds p.mu.
func (p *progress) draw() {
	p.last = time.Now()
	width := termWidth(p.w) - 1
	var line string
	if !p.checking {
		line = fmt.Sprintf("finding replays… %s", model.FormatCount(int64(p.nfound)))
	} else {
		bar := min(24, max(8, width/5))
		filled := 0
		if p.total > 0 {
			filled = p.ndone * bar / p.total
		}
		line = fmt.Sprintf("checking %s%s %d/%d", strings.Repeat("█", filled), strings.Repeat("░", bar-filled), p.ndone, p.total)
		// the file that has been decoding longest
		var cur task
		for _, t := range p.running {
			if cur.name == "" || t.since.Before(cur.since) {
				cur = t
			}
		}
		if cur.name != "" {
			name := theme.Safe(cur.name)
			elapsed := ""
			if d := time.Since(cur.since); d >= time.Second {
				elapsed = fmt.Sprintf(" %ds", int(d.Seconds()))
			}
			room := width - ansi.StringWidth(line) - 2 - len(elapsed)
			if w := ansi.StringWidth(name); w > room && room > 1 {
				name = "…" + ansi.TruncateLeft(name, w-room+1, "")
			}
			line += "  " + name + elapsed
		}
	}
	fmt.Fprint(p.w, "\r\033[K"+ansi.Truncate(line, width, ""))
}
