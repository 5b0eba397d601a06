package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"rewind/decoders"
)

// The files: each file the watcher has seen change has a record, from
// pending (no bytes enough yet to tell what it is) to active (a replay
// that appeared and has not finished), finished, or ignored (no replay).
// A live file is active while its follower runs; the others are active
// while their quiet period runs.

type fileState uint8

const (
	statePending fileState = iota
	stateActive
	stateFinished
	stateIgnored
)

type file struct {
	path    string
	state   fileState
	format  *decoders.Format
	size    int64
	info    os.FileInfo // as last looked at: a later look that finds another file finds it replaced
	grew    time.Time   // when it last grew (or appeared): its quiet period starts there
	emitted time.Time   // when its last Grew went out
	fol     *follower   // while a follower decodes it
	queued  bool        // waiting for a follower
	gone    bool        // removed: the Removed goes out once its follower has stopped
}

// maxFiles bounds the records of files; finished and ignored ones are
// forgotten first (a forgotten file that changes again appears again).
const maxFiles = 4096

// magicLen is how many bytes tell any format's magic (as decoders.Tail
// waits for): a shorter file that no format claims may still become one.
const magicLen = 16

// headLen is how much of a file is read to tell its format.
const headLen = 4096

// look looks at the file at path: is it there, what is it, did it grow.
func (w *Watcher) look(path string, now time.Time) {
	f := w.files[path]
	if f != nil && f.fol != nil {
		f.fol.wakeUp()
		return
	}
	st, err := os.Stat(path)
	if err != nil {
		switch {
		case !errors.Is(err, fs.ErrNotExist):
			if f == nil || f.state != stateIgnored {
				w.ignore(w.record(f, path), err)
			}
		case f != nil:
			w.removed(f)
		case replayExt(path):
			w.emit(Event{Op: Removed, Path: path})
		}
		return
	}
	if !st.Mode().IsRegular() {
		return // a folder has its own notifications; a device or a pipe is never read
	}
	f = w.record(f, path)
	if f.info != nil && (!os.SameFile(f.info, st) || st.Size() < f.size) {
		w.restart(f) // replaced, or written again from its start: a new file under the name
	}
	f.info = st
	size := st.Size()
	switch f.state {
	case statePending:
		w.detect(f, size, now, false)
	case stateActive:
		if size != f.size {
			f.size, f.grew, f.emitted = size, now, now
			w.emit(Event{Op: Grew, Path: path, Format: f.format, Size: size})
		}
	case stateFinished:
		if size != f.size { // it goes on (a recorder after a long pause)
			f.state, f.size, f.grew, f.emitted = stateActive, size, now, now
			w.emit(Event{Op: Grew, Path: path, Format: f.format, Size: size})
			w.start(f)
		}
	}
}

// record is f, or a new record for path.
func (w *Watcher) record(f *file, path string) *file {
	if f == nil {
		f = &file{path: path}
		w.files[path] = f
		if len(w.files) > maxFiles {
			w.evict()
		}
	}
	return f
}

// detect tells what a pending file is from its first bytes: a replay
// Appears (and a live one is followed), a file no format claims is
// Ignored once it has bytes enough to tell, or with final.
func (w *Watcher) detect(f *file, size int64, now time.Time, final bool) {
	if size == 0 {
		delete(w.active, f) // an empty file is nothing yet; its writes bring it back
		f.size = 0
		return
	}
	head, err := readHead(f.path)
	if err != nil {
		w.ignore(f, err)
		return
	}
	format, err := decoders.Detect(head, f.path)
	switch {
	case err == nil:
		f.format, f.state, f.size, f.grew = format, stateActive, size, now
		w.emit(Event{Op: Appeared, Path: f.path, Format: format, Size: size, Modified: modified(f.info)})
		w.start(f)
	case len(head) >= magicLen || final:
		f.size = size
		w.ignore(f, err)
	default:
		if size != f.size {
			f.size, f.grew = size, now
		}
		w.active[f] = true // more bytes, or its quiet period ends it
	}
}

// ignore says once that f is no replay, or cannot be read.
func (w *Watcher) ignore(f *file, why error) {
	delete(w.active, f)
	f.state = stateIgnored
	w.emit(Event{Op: Ignored, Path: f.path, Size: f.size, Err: why})
}

func modified(info os.FileInfo) time.Time {
	if info == nil {
		return time.Time{}
	}
	return info.ModTime()
}

func readHead(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	head := make([]byte, headLen)
	n, err := io.ReadFull(fh, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return head[:n], nil
}

// start follows a live file, or starts the quiet period of one written
// whole.
func (w *Watcher) start(f *file) {
	if f.format.Follow == nil {
		w.active[f] = true
		return
	}
	delete(w.active, f)
	w.follow(f)
}

// quiet ends a file that did not grow for Quiet: a replay written whole is
// finished, and a file too short to tell is what it is.
func (w *Watcher) quiet(f *file) {
	delete(w.active, f)
	switch f.state {
	case statePending:
		w.detect(f, f.size, time.Now(), true)
	case stateActive:
		f.state = stateFinished
		w.emit(Event{Op: Finished, Path: f.path, Format: f.format, Size: f.size, Ended: fmt.Sprintf("no growth for %s", w.opt.Quiet)})
	}
}

// restart makes f a new file: what it was is forgotten, and it appears
// again once looked at.
func (w *Watcher) restart(f *file) {
	delete(w.active, f)
	f.state, f.format, f.size, f.info, f.queued = statePending, nil, 0, nil, false
}

// removed says f is gone (once its follower has stopped) and forgets it.
func (w *Watcher) removed(f *file) {
	if f.fol != nil {
		f.gone = true
		f.fol.cancel()
		return
	}
	if f.state == stateActive || f.state == stateFinished || replayExt(f.path) {
		w.emit(Event{Op: Removed, Path: f.path, Format: f.format})
	}
	if d := w.dirs[filepath.Dir(f.path)]; d != nil && d.list != nil {
		delete(d.list, filepath.Base(f.path)) // the next listing does not find it gone again
	}
	w.forget(f)
}

func (w *Watcher) forget(f *file) {
	delete(w.active, f)
	delete(w.dirty, f.path)
	f.queued = false
	if w.files[f.path] == f {
		delete(w.files, f.path)
	}
}

// evict forgets the records of finished and ignored files (and of empty
// ones) until a quarter of the room is free.
func (w *Watcher) evict() {
	for p, f := range w.files {
		if len(w.files) <= maxFiles*3/4 {
			return
		}
		idle := f.state == stateFinished || f.state == stateIgnored || (f.state == statePending && !w.active[f])
		if idle && f.fol == nil && !f.queued {
			if _, dirty := w.dirty[p]; !dirty {
				delete(w.files, p)
			}
		}
	}
}

// A follower decodes one live file as it grows: decoders.Tail, woken by
// the file's notifications (no sooner than Coalesce after its last read)
// or every Interval when none comes.
type follower struct {
	wake   chan struct{}
	cancel context.CancelFunc
}

func (fo *follower) wakeUp() {
	select {
	case fo.wake <- struct{}{}:
	default:
	}
}

// followUpdate is a follower's event, with who sent it: a follower
// stopped for a file that was replaced may still send.
type followUpdate struct {
	fol *follower
	ev  Event
}

type followDone struct {
	path string
	fol  *follower
	size int64
	err  error
}

// follow starts a follower for f, or queues f when MaxFollow run.
func (w *Watcher) follow(f *file) {
	if w.follows >= w.opt.MaxFollow {
		if !f.queued {
			f.queued = true
			w.queue = append(w.queue, f)
		}
		return
	}
	f.queued = false
	ctx, cancel := context.WithCancel(w.ctx)
	fo := &follower{wake: make(chan struct{}, 1), cancel: cancel}
	f.fol = fo
	w.follows++
	w.fwg.Add(1)
	go w.runFollower(ctx, fo, f.path, f.format)
}

func (w *Watcher) runFollower(ctx context.Context, fo *follower, path string, format *decoders.Format) {
	defer w.fwg.Done()
	defer fo.cancel()
	last := time.Now()
	sleep := func(ctx context.Context, d time.Duration) {
		// a recorder's writes are taken a few at a time
		if pause(ctx, time.Until(last.Add(w.opt.Coalesce)), nil) {
			pause(ctx, time.Until(last.Add(d)), fo.wake)
		}
		last = time.Now()
	}
	emit := func(u decoders.Update) {
		ev := Event{Op: Grew, Path: path, Format: format, Size: u.Size, Replay: u.Replay, Time: time.Now()}
		if u.Final {
			ev.Op, ev.Ended, ev.Note = Finished, u.Ended, u.Note
		}
		select {
		case w.updates <- followUpdate{fo, ev}:
		case <-ctx.Done():
		}
	}
	opt := decoders.TailOptions{Poll: w.opt.Interval, Idle: max(w.opt.Idle, 0), Decode: w.opt.Decode, Sleep: sleep}
	u, err := decoders.Tail(ctx, path, opt, emit)
	select {
	case w.fdone <- followDone{path, fo, u.Size, err}:
	case <-w.ctx.Done():
	}
}

// pause waits d, or until wake; false when ctx ended.
func pause(ctx context.Context, d time.Duration, wake <-chan struct{}) bool {
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		case <-wake:
		}
	}
	return ctx.Err() == nil
}

// updated passes on a follower's event.
func (w *Watcher) updated(u followUpdate) {
	f := w.files[u.ev.Path]
	if f == nil || f.fol != u.fol || f.gone {
		return // its file was removed or replaced
	}
	f.size = u.ev.Size
	switch u.ev.Op {
	case Grew:
		f.grew, f.emitted = u.ev.Time, u.ev.Time
	case Finished:
		f.state = stateFinished
	}
	w.emit(u.ev)
}

// followEnded takes a follower's end: the file finished (its Finished went
// out), was removed or replaced, or could not be followed further.
func (w *Watcher) followEnded(d followDone) {
	w.follows--
	defer w.startQueued()
	f := w.files[d.path]
	if f == nil || f.fol != d.fol {
		return
	}
	f.fol = nil
	if f.gone {
		w.removed(f)
		return
	}
	if d.err == nil {
		f.state, f.size = stateFinished, d.size
		return
	}
	st, err := os.Stat(f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		w.removed(f)
	case err == nil && ((f.info != nil && !os.SameFile(f.info, st)) || st.Size() < d.size):
		w.restart(f) // Tail stops at a replaced or rewritten file; it is a new one
		w.markDirty(f.path, time.Now())
	default:
		f.state, f.size = stateFinished, d.size
		w.emit(Event{Op: Finished, Path: f.path, Format: f.format, Size: d.size, Err: d.err})
	}
}

// startQueued starts followers for the live files waiting, as far as
// MaxFollow allows.
func (w *Watcher) startQueued() {
	for len(w.queue) > 0 && w.follows < w.opt.MaxFollow {
		f := w.queue[0]
		w.queue[0] = nil
		w.queue = w.queue[1:]
		if w.files[f.path] == f && f.queued {
			w.follow(f)
		}
	}
	if len(w.queue) == 0 {
		w.queue = nil
	}
}
