// Package watch watches replay folders while a player plays: it tells a
// consumer (the browser's live rows, `rewind follow`) that a replay file
// appeared, that it grows because a recorder is writing it, that it is
// finished, or that it is gone, in a handful of events rather than one per
// write a recorder makes.
//
// Folders are watched with their subfolders (Slippi's monthly folders,
// StarCraft II's account and toon folders), and a subfolder made later is
// watched as it appears. Changes come from the system's file notifications
// (fsnotify: inotify, kqueue, ReadDirectoryChangesW), or from polling where
// those do not come.
//
// A folder is polled when the watcher has no notifications at all
// (Options.Poll, or the system would not make a watcher); when the system
// will not watch it (a failed Add: the inotify watch limit, kqueue's
// open-file limit); when it is on a file system whose changes made by
// other machines send no notification (NFS, SMB/CIFS, 9p as WSL mounts
// Windows drives, FUSE such as sshfs, AFS, Ceph on Linux, by statfs's
// f_type; any volume without MNT_LOCAL on macOS; a network drive or share
// on Windows: remote_*.go); and when notifications stop coming: every
// Options.Rescan a notified folder's modification time is compared with
// the one last seen, and a folder that changed at two rescans in a row
// with no notification from it is polled from then on (its files changed
// meanwhile are looked at then). Each switch is a Polling event with the
// reason. A poll stats each polled folder and lists it again when its
// time changed or is recent (coarse clocks: FAT counts in 2 s), stats the
// files that are growing, and every Options.Rescan lists every polled
// folder whole, to see an old file grow.
//
// A file is a replay by its content, as everywhere in rewind: it is read
// from its start once it has bytes enough to tell (decoders.Detect), and a
// file that is none (a text file, a zip) is reported once, as Ignored. A
// replay of a format written live (Slippi's .slp while the game runs, a
// DDNet teehistorian) is decoded as it grows by the same follower `rewind
// dump --follow` uses (decoders.Tail over the format's model.Follower): its
// Grew events carry the snapshot so far, and it is Finished when the
// recording says it ended (Game End, FINISH), or after Options.Idle without
// a new byte. A replay of a format written whole (BSOR, StarCraft II,
// osu!) is Finished after Options.Quiet without growth.
//
// Usage (the TUI turns each event into a tea.Msg):
//
//	w := watch.New(watch.Options{})
//	defer w.Close()
//	if err := w.Add(dir); err != nil { ... }
//	for ev := range w.Events() { // closed by Close
//		switch ev.Op {
//		case watch.Appeared, watch.Grew: // show or update the row of ev.Path
//		case watch.Finished: // index it; ev.Replay is the whole game when the format is live
//		case watch.Removed: // drop the row
//		}
//	}
//
// Memory is bounded: the watcher keeps a record per folder, one per file it
// has seen change (at most maxFiles; finished ones are forgotten first),
// for polled folders the names and sizes of their entries, and the bytes
// and decode of at most Options.MaxFollow live files at a time (others wait
// their turn). Close stops every goroutine it started.
package watch

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"rewind/decoders"
	"rewind/model"
)

// Op is what happened to a file.
type Op uint8

const (
	// Appeared: a replay file is there that was not: created, moved in, or
	// named to Add. Format says which. A file named to Add, or one that
	// changes after it was forgotten, appears even if it was there before;
	// a consumer treats Appeared as "show this file".
	Appeared Op = iota + 1
	// Grew: a recorder is writing it. For a live format Replay is the
	// snapshot so far (decoded once, shared with the snapshots before it).
	Grew
	// Finished: it stopped. Ended says why: what the recording said
	// ("Game End", "FINISH"), or "no growth for 2s". For a live format
	// Replay is the whole game (the follower's Finish, or one decode of the
	// file as it now is: Note says so); Err, when following stopped on an
	// error (the decoder refused the file).
	Finished
	// Removed: it is gone (deleted, moved away, or its folder is). A
	// removed file that has a replay's extension is reported even if the
	// watcher never saw it change: the consumer may know it from a scan.
	Removed
	// Ignored: a file that is no replay (Err says what it is), said once.
	Ignored
	// Polling: Path (a folder) is watched by polling from now on; Note
	// says why.
	Polling
	// Problem: something the watcher could not do (Err): a folder it
	// cannot read, a folder it watched that was removed. It goes on.
	Problem
)

var opNames = [...]string{Appeared: "appeared", Grew: "grew", Finished: "finished", Removed: "removed",
	Ignored: "ignored", Polling: "polling", Problem: "problem"}

func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", o)
}

// Event is one thing that happened to one path.
type Event struct {
	Op     Op
	Path   string           // the file (a folder for Polling and some Problems), joined to the path given to Add
	Format *decoders.Format // the file's format; nil for Ignored, Polling, Problem and some Removed
	Size   int64            // bytes, as far as the watcher has looked
	// Modified is the file's modification time (Appeared): a file moved in
	// keeps the time it was written.
	Modified time.Time
	Replay   *model.Replay // live formats: the snapshot (Grew) or the whole game (Finished); else nil
	Ended    string        // Finished: why it is finished
	Note     string        // Finished: how the final replay was made when not by the follower alone; Polling: why
	Err      error         // Ignored: what the file is; Problem: what failed; Finished: why following stopped early
	Time     time.Time     // when the watcher saw it
}

// Options tune a Watcher; zero values take the defaults.
type Options struct {
	// Poll watches every folder by polling: for tests, and for a file
	// system whose notifications do not come that the watcher cannot tell
	// by its type (it still finds it out at a rescan, later).
	Poll bool
	// Interval is how often a polled folder is looked at (default 500 ms:
	// a new file shows within a second), and how often a live file is
	// read when no notification says it changed.
	Interval time.Duration
	// Coalesce is the shortest time between two Grew events of one file
	// (default 250 ms): a recorder that writes every frame, 60 times a
	// second, makes four events a second, each with all the bytes so far.
	Coalesce time.Duration
	// Quiet finishes a file of a format written whole after this long
	// without growth (default 2 s).
	Quiet time.Duration
	// Idle finishes a live file whose recording has not said it ended after
	// this long without a new byte (a recorder that crashed; default 30 s,
	// as dump --follow). Negative: never (the recording's own end only).
	Idle time.Duration
	// Rescan is how often notified folders are checked for changes no
	// notification announced, the sign of a file system that sends none
	// (default 10 s); polled folders are listed whole this often.
	Rescan time.Duration
	// MaxFollow is how many live files are decoded at once (default 4);
	// more wait their turn.
	MaxFollow int
	// Decode is handed to the followers.
	Decode model.DecodeOptions
}

func (o *Options) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&o.Interval, 500*time.Millisecond)
	def(&o.Coalesce, 250*time.Millisecond)
	def(&o.Quiet, 2*time.Second)
	def(&o.Idle, 30*time.Second)
	def(&o.Rescan, 10*time.Second)
	if o.MaxFollow <= 0 {
		o.MaxFollow = 4
	}
}

// Watcher watches folders and files (Add) and sends what happens to them
// on Events. Its methods may be called from any goroutine.
type Watcher struct {
	opt     Options
	events  chan Event
	adds    chan addRequest
	done    chan struct{} // closed by Close
	stopped chan struct{} // closed when every goroutine has ended
	once    sync.Once
	ctx     context.Context // the followers'; ended by Close
	cancel  context.CancelFunc
	fwg     sync.WaitGroup    // the followers
	updates chan followUpdate // the followers' snapshots and ends
	fdone   chan followDone   // a follower has ended

	// owned by the loop goroutine
	fsw        *fsnotify.Watcher // nil when notifications are unavailable or Poll is set
	noFSW      string            // why fsw is nil
	outbox     []Event           // events not yet taken by the consumer
	dirs       map[string]*dir
	files      map[string]*file
	dirty      map[string]time.Time // files to look at, and when
	active     map[*file]bool       // files not followed that are not finished: their quiet period runs
	queue      []*file              // live files waiting for a follower
	follows    int                  // followers running
	polled     int                  // folders watched by polling
	since      time.Time            // the last notification overflow, or the start: what a rescan after one looks back to
	nextPoll   time.Time            // the next poll of the polled folders
	nextFull   time.Time            // the next full listing of the polled folders
	nextRescan time.Time            // the next rescan of the notified folders
}

type addRequest struct {
	path  string
	reply chan error
}

// maxOutbox is how many events may wait for the consumer before the
// watcher stops taking in changes until it reads some (the system's queue
// holds them meanwhile; if it overflows, the folders are listed again).
const maxOutbox = 1024

// New starts a watcher with nothing to watch yet.
func New(opt Options) *Watcher {
	opt.defaults()
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watcher{opt: opt, events: make(chan Event), adds: make(chan addRequest), done: make(chan struct{}),
		stopped: make(chan struct{}), ctx: ctx, cancel: cancel, updates: make(chan followUpdate), fdone: make(chan followDone),
		dirs: map[string]*dir{}, files: map[string]*file{}, dirty: map[string]time.Time{}, active: map[*file]bool{},
		since: time.Now(), nextRescan: time.Now().Add(opt.Rescan)}
	if opt.Poll {
		w.noFSW = "polling was asked for"
	} else if fsw, err := fsnotify.NewWatcher(); err != nil {
		w.noFSW = fmt.Sprintf("the system gives no file notifications (%v)", err)
	} else {
		w.fsw = fsw
	}
	go w.loop()
	return w
}

// Events is where the events come, in the order they happened for each
// file. It is closed when the watcher is. A consumer that reads slowly
// gets a live file's snapshots less often (a Grew not yet taken is
// replaced by the next); nothing else is dropped.
func (w *Watcher) Events() <-chan Event { return w.events }

// Add watches path: a folder with its subfolders, or one file (which need
// not exist yet: it is watched for in its folder). A file named here
// Appears at once when it is there, and a live one is followed from its
// start; the files already in a folder do not, until they change.
func (w *Watcher) Add(path string) error {
	req := addRequest{path: path, reply: make(chan error, 1)}
	select {
	case w.adds <- req:
	case <-w.done:
		return fmt.Errorf("watch: the watcher is closed")
	}
	select {
	case err := <-req.reply:
		return err
	case <-w.done:
		return fmt.Errorf("watch: the watcher is closed")
	}
}

// Close stops watching: every goroutine the watcher started has ended when
// it returns, and Events is closed. Events not yet taken are dropped.
func (w *Watcher) Close() error {
	w.once.Do(func() { close(w.done) })
	<-w.stopped
	return nil
}

// emit queues an event for the consumer. A Grew waiting behind nothing
// else of its file is replaced by the newer one: it has every byte the
// older had.
func (w *Watcher) emit(ev Event) {
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	if ev.Op == Grew {
		for i := len(w.outbox) - 1; i >= 0; i-- {
			if w.outbox[i].Path == ev.Path {
				if w.outbox[i].Op == Grew {
					w.outbox[i] = ev
					return
				}
				break
			}
		}
	}
	w.outbox = append(w.outbox, ev)
}

func (w *Watcher) loop() {
	defer func() {
		// stop the followers, wait for them, then close what they send on
		w.cancel()
		w.fwg.Wait()
		if w.fsw != nil {
			w.fsw.Close()
		}
		close(w.events)
		close(w.stopped)
	}()
	var fevents <-chan fsnotify.Event
	var ferrors <-chan error
	if w.fsw != nil {
		fevents, ferrors = w.fsw.Events, w.fsw.Errors
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		timer.Reset(max(time.Until(w.nextWake()), 0))
		var out chan<- Event
		var first Event
		if len(w.outbox) > 0 {
			out, first = w.events, w.outbox[0]
		}
		in, updates := fevents, w.updates
		if len(w.outbox) >= maxOutbox {
			in, updates = nil, nil // wait for the consumer
		}
		select {
		case <-w.done:
			return
		case out <- first:
			w.outbox[0] = Event{}
			w.outbox = w.outbox[1:]
			if len(w.outbox) == 0 {
				w.outbox = nil // the array goes, not only its front
			}
		case req := <-w.adds:
			req.reply <- w.add(req.path)
		case ev, ok := <-in:
			if !ok {
				fevents = nil
				break
			}
			w.notified(ev)
		case err, ok := <-ferrors:
			if !ok {
				ferrors = nil
				break
			}
			w.notifyError(err)
		case u := <-updates:
			w.updated(u)
		case d := <-w.fdone:
			w.followEnded(d)
		case <-timer.C:
		}
		w.due(time.Now())
	}
}

// nextWake is when the loop next has something to do.
func (w *Watcher) nextWake() time.Time {
	next := time.Now().Add(time.Hour)
	early := func(t time.Time) {
		if t.Before(next) {
			next = t
		}
	}
	for _, t := range w.dirty {
		early(t)
	}
	for f := range w.active {
		early(f.grew.Add(w.opt.Quiet))
	}
	if w.polled > 0 {
		early(w.nextPoll)
	}
	if len(w.dirs) > w.polled {
		early(w.nextRescan)
	}
	return next
}

// due does what is due at now: looks at the files whose time came,
// finishes those quiet for long enough, polls and rescans.
func (w *Watcher) due(now time.Time) {
	for p, t := range w.dirty {
		if !t.After(now) {
			delete(w.dirty, p)
			w.look(p, now)
		}
	}
	for f := range w.active {
		if now.Sub(f.grew) >= w.opt.Quiet {
			w.quiet(f)
		}
	}
	if w.polled > 0 && !now.Before(w.nextPoll) {
		full := !now.Before(w.nextFull)
		w.poll(full)
		w.nextPoll = now.Add(w.opt.Interval)
		if full {
			w.nextFull = now.Add(w.opt.Rescan)
		}
	}
	if len(w.dirs) > w.polled && !now.Before(w.nextRescan) {
		w.rescan()
		w.nextRescan = now.Add(w.opt.Rescan)
	}
}

// markDirty asks for path to be looked at after delay (a Create and the
// Write that follows it are looked at once), and no sooner than Coalesce
// after the file's last Grew.
func (w *Watcher) markDirty(path string, now time.Time) {
	at := now.Add(lookDelay)
	if f := w.files[path]; f != nil && f.state == stateActive && f.emitted.Add(w.opt.Coalesce).After(at) {
		at = f.emitted.Add(w.opt.Coalesce)
	}
	if t, ok := w.dirty[path]; ok && t.Before(at) {
		return
	}
	w.dirty[path] = at
}

// lookDelay gathers the few events one write of a recorder makes.
const lookDelay = 20 * time.Millisecond

// replayExt reports whether name has the extension of a replay format.
func replayExt(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, f := range decoders.Formats {
		for _, e := range f.Exts {
			if e == ext {
				return true
			}
		}
	}
	return false
}
