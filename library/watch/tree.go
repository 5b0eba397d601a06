package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// The folders: each watched folder has a record, notified (the system's
// watch is on it) or polled (see the package comment for when). A folder
// given to Add brings its subfolders, and a subfolder that appears later
// is added as it appears. A link to a folder is not followed into: a link
// back up would never end.

// dir is one watched folder.
type dir struct {
	path    string
	all     bool            // every entry counts, and subfolders are watched (a folder given to Add or under one)
	only    map[string]bool // else: the names of the files given to Add in it
	poll    bool            // watched by polling
	mod     time.Time       // its modification time when last listed or heard from
	heard   bool            // a notification about it came since the last rescan
	suspect bool            // the last rescan found it changed with no notification
	list    map[string]entry
}

// entry is a polled folder's entry as last listed.
type entry struct {
	size int64
	mod  time.Time
	dir  bool
}

// wants reports whether the file named name in d counts.
func (d *dir) wants(name string) bool {
	if d.all || d.only[name] {
		return true
	}
	for n := range d.only {
		if SameName(n, name) {
			return true
		}
	}
	return false
}

// SameName reports whether two paths name the same file as the system's
// file systems usually compare names: without case on Windows and macOS
// (a file given as game.slp is the Game.slp the recorder made).
func SameName(a, b string) bool {
	if a == b {
		return true
	}
	return (runtime.GOOS == "windows" || runtime.GOOS == "darwin") && strings.EqualFold(a, b)
}

// add watches path (see Watcher.Add).
func (w *Watcher) add(path string) error {
	path = filepath.Clean(path)
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		if d := w.dirs[path]; d != nil && d.all {
			return nil
		}
		w.addTree(path, w.pollReason(path), false)
		return nil
	case err == nil && !st.Mode().IsRegular():
		return fmt.Errorf("%s is neither a folder nor a regular file", path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	// a file, or nothing yet: its folder is watched for it
	parent, name := filepath.Split(path)
	parent = filepath.Clean(parent)
	if pst, perr := os.Stat(parent); perr != nil || !pst.IsDir() {
		if perr == nil {
			perr = fmt.Errorf("%s is not a folder", parent)
		}
		return fmt.Errorf("%s: cannot watch for it in its folder: %w", path, perr)
	}
	d := w.dirs[parent]
	if d == nil {
		d = w.watchDir(parent, false, w.pollReason(parent))
		d.only = map[string]bool{}
	}
	if !d.all {
		d.only[name] = true
	}
	if err == nil {
		if f := w.files[path]; f != nil && f.fol == nil {
			w.forget(f) // named: it appears, and is followed from its start
		}
		w.dirty[path] = time.Now()
	}
	return nil
}

// pollReason says why the folder at path is to be polled, empty when it
// can be notified.
func (w *Watcher) pollReason(path string) string {
	if w.fsw == nil {
		return w.noFSW
	}
	if fs := remoteFS(path); fs != "" {
		return fmt.Sprintf("it is on %s, whose changes made by other machines send no notification", fs)
	}
	return ""
}

// addTree watches the folder at path and the folders under it. With
// fresh (a folder that appeared while watched), the files in it are new
// and are looked at.
func (w *Watcher) addTree(path, poll string, fresh bool) {
	if d := w.dirs[path]; d != nil && d.all {
		return
	}
	d := w.watchDir(path, true, poll)
	entries, err := os.ReadDir(path)
	if err != nil {
		w.emit(Event{Op: Problem, Path: path, Err: err})
		return
	}
	if d.poll {
		d.list = make(map[string]entry, len(entries))
	}
	now := time.Now()
	for _, e := range entries {
		p := filepath.Join(path, e.Name())
		if e.IsDir() { // not a link to a folder
			w.addTree(p, w.subReason(d, p), fresh)
		} else if fresh {
			w.markDirty(p, now)
		}
		if d.poll {
			d.list[e.Name()] = entryOf(e)
		}
	}
}

// subReason says why the folder at path, in d, is to be polled: because d
// is (and then no event names it again), or for its own reasons (a share
// mounted inside a local folder).
func (w *Watcher) subReason(d *dir, path string) string {
	if d.poll {
		return parentPolled
	}
	return w.pollReason(path)
}

const parentPolled = "its parent folder is polled"

// watchDir makes the record of the folder at path and asks the system to
// watch it, unless poll says why not; a folder the system refuses is
// polled.
func (w *Watcher) watchDir(path string, all bool, poll string) *dir {
	d := w.dirs[path]
	if d == nil {
		d = &dir{path: path}
		w.dirs[path] = d
		if st, err := os.Stat(path); err == nil {
			d.mod = st.ModTime()
		}
		if poll == "" {
			if err := w.fsw.Add(path); err != nil {
				poll = fmt.Sprintf("the system would not watch it (%v)", err)
			}
		}
		if poll != "" {
			w.toPolling(d, poll)
		}
	}
	d.all = d.all || all
	return d
}

// toPolling polls d from now on, and says why (once per tree: a folder
// under one already polled for the same reason is not named).
func (w *Watcher) toPolling(d *dir, why string) {
	if d.poll {
		return
	}
	d.poll = true
	d.list = listing(d.path)
	w.polled++
	if w.polled == 1 {
		w.nextPoll = time.Now().Add(w.opt.Interval)
		w.nextFull = time.Now().Add(w.opt.Rescan)
	}
	if why != parentPolled {
		w.emit(Event{Op: Polling, Path: d.path, Note: why})
	}
	if w.fsw != nil {
		w.fsw.Remove(d.path) // no error matters: it may never have been added
	}
}

// dropTree stops watching the folder at path and those under it (removed
// or moved away); the files followed or known under it are Removed.
func (w *Watcher) dropTree(path string) {
	prefix := path + string(filepath.Separator)
	for p, d := range w.dirs {
		if p == path || strings.HasPrefix(p, prefix) {
			if d.poll {
				w.polled--
			} else {
				w.fsw.Remove(p)
			}
			delete(w.dirs, p)
		}
	}
	for p, f := range w.files {
		if strings.HasPrefix(p, prefix) {
			w.removed(f)
		}
	}
}

// notified handles one notification.
func (w *Watcher) notified(ev fsnotify.Event) {
	now := time.Now()
	parent, name := filepath.Split(ev.Name)
	parent = filepath.Clean(parent)
	if d := w.dirs[parent]; d != nil {
		d.heard = true
	}
	if d := w.dirs[ev.Name]; d != nil {
		d.heard = true
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			// gone, or moved: a folder moved within the tree appears
			// again under its new name (Create)
			if _, err := os.Stat(ev.Name); err != nil || ev.Has(fsnotify.Rename) {
				w.dropTree(ev.Name)
				if d.all && w.dirs[parent] == nil && parent != ev.Name {
					w.emit(Event{Op: Problem, Path: ev.Name, Err: fmt.Errorf("the folder is gone; it is no longer watched")})
				}
			}
		}
		return // a Write on a folder (kqueue, Windows): its entries come as their own events
	}
	d := w.dirs[parent]
	if d == nil {
		return
	}
	switch {
	case ev.Has(fsnotify.Create) && d.all:
		if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
			w.addTree(ev.Name, w.subReason(d, ev.Name), true)
			return
		}
	case ev.Op == fsnotify.Chmod:
		return // attributes; Linux also sends it on a delete, before the Remove
	}
	if !d.wants(name) {
		return
	}
	if f := w.files[ev.Name]; f != nil && f.fol != nil && ev.Has(fsnotify.Write) {
		f.fol.wakeUp() // its follower reads what came, no more than Coalesce apart
		return
	}
	w.markDirty(ev.Name, now)
}

// notifyError handles an error from the system's watcher: a lost queue
// makes the watcher look at every notified folder again.
func (w *Watcher) notifyError(err error) {
	if !errors.Is(err, fsnotify.ErrEventOverflow) {
		w.emit(Event{Op: Problem, Err: err})
		return
	}
	since := w.since.Add(-2 * time.Second)
	w.since = time.Now()
	for _, d := range w.dirs {
		if !d.poll {
			w.relist(d, since)
		}
	}
	for p, f := range w.files {
		if f.fol == nil {
			w.markDirty(p, time.Now())
		} else {
			f.fol.wakeUp()
		}
	}
}

// relist lists a notified folder after notifications were lost: new
// subfolders are watched, and files changed after since are looked at.
func (w *Watcher) relist(d *dir, since time.Time) {
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return // its removal comes as a notification
	}
	now := time.Now()
	for _, e := range entries {
		p := filepath.Join(d.path, e.Name())
		switch {
		case e.IsDir():
			if d.all && w.dirs[p] == nil {
				w.addTree(p, w.subReason(d, p), true)
			}
		case d.wants(e.Name()):
			if info, err := e.Info(); err == nil && info.ModTime().After(since) {
				w.markDirty(p, now)
			}
		}
	}
}

// rescan checks the notified folders for changes no notification told
// of: a folder whose modification time moved with nothing heard from it,
// at two rescans in a row, is on a file system that sends none.
func (w *Watcher) rescan() {
	w.drain()
	for _, d := range w.dirs {
		if d.poll {
			continue
		}
		st, err := os.Stat(d.path)
		if err != nil {
			continue // its removal comes as a notification
		}
		switch {
		case st.ModTime().Equal(d.mod):
			d.suspect = false
		case d.heard:
			d.mod, d.suspect = st.ModTime(), false
		case d.suspect:
			// the changes made since notifications stopped are looked at
			// now: the files changed since the last rescan but one
			w.relist(d, time.Now().Add(-3*w.opt.Rescan))
			d.mod = st.ModTime()
			w.toPolling(d, "it changed and no notification came: the file system sends none")
		default:
			d.suspect = true
		}
		d.heard = false
	}
}

// drain handles the notifications already waiting, so a rescan does not
// take a change whose notification is on its way for one that never came.
func (w *Watcher) drain() {
	if w.fsw == nil {
		return
	}
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.notified(ev)
		default:
			return
		}
	}
}

// listing is a folder's entries as a poll compares them.
func listing(path string) map[string]entry {
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil
	}
	list := make(map[string]entry, len(entries))
	for _, e := range entries {
		list[e.Name()] = entryOf(e)
	}
	return list
}

func entryOf(e fs.DirEntry) entry {
	if e.IsDir() {
		return entry{dir: true}
	}
	info, err := e.Info()
	if err != nil {
		return entry{size: -1}
	}
	return entry{size: info.Size(), mod: info.ModTime()}
}

// poll looks at the polled folders (see above); with full it lists each
// one whole and compares every file's size and time.
func (w *Watcher) poll(full bool) {
	now := time.Now()
	for _, d := range w.dirs {
		if !d.poll {
			continue
		}
		st, err := os.Stat(d.path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				w.dropTree(d.path)
				if d.all && w.dirs[filepath.Dir(d.path)] == nil {
					w.emit(Event{Op: Problem, Path: d.path, Err: fmt.Errorf("the folder is gone; it is no longer watched")})
				}
			}
			continue
		}
		recent := now.Sub(st.ModTime()) < 3*time.Second
		if full || recent || !st.ModTime().Equal(d.mod) {
			d.mod = st.ModTime()
			w.compare(d, full, now)
		}
	}
	for p, f := range w.files {
		if f.fol == nil && (f.state == statePending || f.state == stateActive) {
			if d := w.dirs[filepath.Dir(p)]; d != nil && d.poll {
				w.markDirty(p, now)
			}
		}
	}
}

// compare lists a polled folder and looks at what changed since the last
// listing: new and gone entries, and with full, files of another size or
// time.
func (w *Watcher) compare(d *dir, full bool, now time.Time) {
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return
	}
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		name := e.Name()
		seen[name] = true
		p := filepath.Join(d.path, name)
		old, known := d.list[name]
		switch {
		case e.IsDir():
			if d.all && w.dirs[p] == nil {
				w.addTree(p, parentPolled, true)
			}
			d.list[name] = entry{dir: true}
		case !known:
			if d.wants(name) {
				w.markDirty(p, now)
			}
			d.list[name] = entryOf(e)
		case full:
			if cur := entryOf(e); cur != old {
				if d.wants(name) {
					w.markDirty(p, now)
				}
				d.list[name] = cur
			}
		}
	}
	for name, e := range d.list {
		if seen[name] {
			continue
		}
		delete(d.list, name)
		p := filepath.Join(d.path, name)
		if e.dir {
			w.dropTree(p)
		} else if d.wants(name) {
			w.markDirty(p, now)
		}
	}
}
