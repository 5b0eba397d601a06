// Package library works on many replays at once: it turns the paths a person
// names into the files to read (Walk), and, on top of that, scans headers,
// keeps an index and answers queries.
package library

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"rewind/decoders"
)

// Kind says what a walk found at a path.
type Kind int

const (
	// File is a regular file to decode: named on the command line, or found
	// in a folder with a replay's extension or magic bytes.
	File Kind = iota
	// Unreadable is a path that could not be read: missing, permission
	// denied, vanished during the walk, a symlink loop, or a device, FIFO
	// or socket named on the command line.
	Unreadable
	// Skipped is a device, FIFO or socket met inside a folder. It is listed
	// so a run can say what it passed over; it is never opened.
	Skipped
)

func (k Kind) String() string {
	switch k {
	case File:
		return "file"
	case Unreadable:
		return "unreadable"
	default:
		return "skipped"
	}
}

// Entry is one path a walk reports.
type Entry struct {
	Path    string
	FS      fs.FS // nil: the operating system's files; otherwise the sample library
	Kind    Kind
	Err     error // why the path is Unreadable or Skipped, as one sentence
	Size    int64
	ModTime time.Time
	Named   bool // named by the person, not found inside a folder
	// Packed says the entry is a member of a pack (packs.go): Path joins the
	// pack's and the member's, and the file is read through the pack
	Packed bool

	// the file's identity, when the walk stat'ed it: a file with several
	// links is read once per scan however many paths lead to it
	dev, ino uint64
	links    uint64
}

// Walk reports every file to decode under paths, in order: a path that is a
// file is reported as it is; a folder is walked recursively in name order,
// keeping the files with a replay's extension or magic bytes. Symlinks to
// files and folders are followed; a link back into a folder being walked is
// reported as a loop, and a folder reached twice is walked once. Every bad
// path gets its own Unreadable entry and the walk goes on. Nothing but a
// regular file is ever opened, so a FIFO cannot block the walk. fn returns
// false to stop.
//
// Folders are listed (and their files stat'ed) on all cores a little ahead
// of the one being reported, so a walk of a million files takes what the
// system calls take divided by the cores; the order is the same as one
// folder at a time.
func Walk(paths []string, fn func(Entry) bool) {
	walkBatches(paths, func(batch []Entry) bool {
		for _, e := range batch {
			if !fn(e) {
				return false
			}
		}
		return true
	})
}

// walkBatches is Walk delivering runs of entries (a folder's files).
func walkBatches(paths []string, fn func([]Entry) bool) {
	w := newWalker(fn)
	defer w.stop()
	for _, p := range paths {
		if !w.named(p) {
			return
		}
	}
}

// WalkFS reports the replays of a read-only file system (the built-in
// sample library) under root, with paths relative to it.
func WalkFS(fsys fs.FS, root string, fn func(Entry) bool) {
	_ = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if !fn(Entry{Path: p, FS: fsys, Kind: Unreadable, Err: err}) {
				return fs.SkipAll
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() || !replayExt(p) {
			return nil
		}
		e := Entry{Path: p, FS: fsys, Kind: File}
		if info, err := d.Info(); err == nil {
			e.Size, e.ModTime = info.Size(), info.ModTime()
		}
		if !fn(e) {
			return fs.SkipAll
		}
		return nil
	})
}

// ahead is how many folders after the one being reported are listed in
// advance, at each level: enough to keep every core busy, few enough that
// what is listed and not yet reported stays small.
const ahead = 16

type walker struct {
	fn    func([]Entry) bool
	seen  map[string]bool // folders walked, by their resolved path
	jobs  chan *dirNode
	quit  atomic.Bool
	wg    sync.WaitGroup
	batch []Entry
}

// dirNode is one folder: listed by whoever claims it first (a worker ahead
// of the report, or the report itself), reported once in walk order.
type dirNode struct {
	path  string
	real  string   // resolved, absolute
	stack []string // the resolved folders above it
	state atomic.Int32
	done  chan struct{}
	err   error     // listing the folder failed (some entries may be there)
	items []dirItem // in name order
}

// dirItem is an entry of a folder or a folder to descend into.
type dirItem struct {
	e     Entry
	child *dirNode
}

func newWalker(fn func([]Entry) bool) *walker {
	w := &walker{fn: fn, seen: map[string]bool{}, jobs: make(chan *dirNode, 1024)}
	for range max(2, runtime.GOMAXPROCS(0)) {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for n := range w.jobs {
				if w.quit.Load() {
					continue // the walk stopped: what was queued is not needed
				}
				if n.state.CompareAndSwap(2, 1) {
					n.list()
				}
			}
		}()
	}
	return w
}

func (w *walker) stop() {
	w.quit.Store(true)
	close(w.jobs)
	w.wg.Wait()
}

// walkBatch is how many entries a walk's batch hands over at most.
const walkBatch = 512

// emit adds one entry to the batch being gathered.
func (w *walker) emit(e Entry) bool {
	if w.batch == nil {
		// made at its full size: grown by append, a batch cost twice its
		// size in copies (the receiver keeps it, so it is never reused)
		w.batch = make([]Entry, 0, walkBatch)
	}
	w.batch = append(w.batch, e)
	if len(w.batch) >= walkBatch {
		return w.flush()
	}
	return true
}

// flush hands the gathered entries over.
func (w *walker) flush() bool {
	if len(w.batch) == 0 {
		return true
	}
	b := w.batch
	w.batch = nil
	return w.fn(b)
}

// named handles one path from the command line.
func (w *walker) named(p string) bool {
	info, err := os.Stat(p) // follows symlinks; never opens, so a FIFO cannot block
	if err != nil {
		if e, ok := packedMember(p); ok {
			return w.emit(e) && w.flush()
		}
		return w.emit(Entry{Path: p, Kind: Unreadable, Err: pathError(p, err), Named: true}) && w.flush()
	}
	if info.IsDir() {
		n, bad := newDirNode(p, nil)
		if bad != nil {
			return w.emit(*bad) && w.flush()
		}
		return w.dir(n) && w.flush()
	}
	e := fileEntry(p, info)
	e.Named = true
	if e.Kind == Skipped {
		e.Kind = Unreadable // named explicitly: refused, not passed over
	}
	if e.Kind == File && !replayExt(p) && isPackFile(p) {
		for _, m := range packEntries(p, true) {
			if !w.emit(m) {
				return false
			}
		}
		return w.flush()
	}
	return w.emit(e) && w.flush()
}

// newDirNode resolves a folder to walk; a folder that cannot be resolved
// or leads back into stack is an Unreadable entry instead.
func newDirNode(p string, stack []string) (*dirNode, *Entry) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, &Entry{Path: p, Kind: Unreadable, Err: pathError(p, err)}
	}
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	for _, s := range stack {
		if s == real {
			return nil, &Entry{Path: p, Kind: Unreadable, Err: fmt.Errorf("%s: symlink loop: it leads back to %s, which is being walked", p, s)}
		}
	}
	return &dirNode{path: p, real: real, stack: stack, done: make(chan struct{})}, nil
}

// claim lists the folder unless someone else is; either way it returns
// once the listing is there. state: 0 untouched, 1 being listed, 2 queued
// for a worker.
func (n *dirNode) claim() {
	if n.state.CompareAndSwap(0, 1) || n.state.CompareAndSwap(2, 1) {
		n.list()
	}
	<-n.done
}

// dir reports a folder and, depth first, the folders in it.
func (w *walker) dir(n *dirNode) bool {
	if w.seen[n.real] {
		return true // reached before through another link: its files are listed once
	}
	w.seen[n.real] = true
	n.claim()
	if n.err != nil {
		// the listing may have given some entries with the error: report
		// the folder and still walk what it gave
		if !w.emit(Entry{Path: n.path, Kind: Unreadable, Err: pathError(n.path, n.err)}) {
			return false
		}
	}
	// the folders in it are listed ahead, a few at a time, while what
	// comes before them is reported
	var kids []int
	for i, it := range n.items {
		if it.child != nil {
			kids = append(kids, i)
		}
	}
	offered := 0
	offer := func(upto int) {
		for ; offered < len(kids) && offered <= upto; offered++ {
			if c := n.items[kids[offered]].child; c.state.CompareAndSwap(0, 2) {
				select {
				case w.jobs <- c:
				default:
					c.state.Store(0) // the queue is full: the report lists it when it gets there
				}
			}
		}
	}
	offer(ahead - 1)
	k := 0
	for i, it := range n.items {
		if it.child == nil {
			if !w.emit(it.e) {
				return false
			}
			continue
		}
		offer(k + ahead)
		k++
		if !w.flush() || !w.dir(it.child) {
			return false
		}
		n.items[i].child = nil // reported: let it go
	}
	n.items = nil
	return true
}

// list reads the folder's entries and stats each, in name order.
func (n *dirNode) list() {
	defer close(n.done)
	f, err := os.Open(n.path)
	if err != nil {
		n.err = err
		return
	}
	defer f.Close()
	names := listings.Get().(*folderNames)
	defer listings.Put(names)
	n.err = readFolder(f, names)
	names.sort()
	// the children's paths as filepath.Join makes them, all in one string
	prefix := filepath.Join(n.path, "x")
	prefix = prefix[:len(prefix)-1]
	paths := names.paths(prefix)
	stack := append(n.stack[:len(n.stack):len(n.stack)], n.real)
	st := newStatter(f, prefix)
	n.items = make([]dirItem, 0, len(names.ents))
	for i, d := range names.ents {
		if names.arena[d.off] == '.' {
			continue // hidden files and folders: editor and VCS litter
		}
		child := paths[i]
		name := child[len(prefix):]
		fi, err := st.stat(names.nameZ(d)) // follows symlinks
		if err != nil {
			if d.typ&fs.ModeSymlink != 0 && errors.Is(err, fs.ErrNotExist) {
				n.items = append(n.items, dirItem{e: Entry{Path: child, Kind: Unreadable, Err: fmt.Errorf("%s: broken symlink", child)}})
				continue
			}
			if errors.Is(err, fs.ErrNotExist) {
				err = fmt.Errorf("%s: vanished while the folder was read", child)
			} else {
				err = pathError(child, err)
			}
			n.items = append(n.items, dirItem{e: Entry{Path: child, Kind: Unreadable, Err: err}})
			continue
		}
		if fi.dir {
			var c *dirNode
			if real := n.real + string(filepath.Separator) + name; d.typ&fs.ModeSymlink == 0 && !slices.Contains(stack, real) {
				// a plain folder resolves below its parent
				c = &dirNode{path: child, real: real, stack: stack, done: make(chan struct{})}
			} else {
				var bad *Entry
				if c, bad = newDirNode(child, stack); bad != nil {
					n.items = append(n.items, dirItem{e: *bad})
					continue
				}
			}
			n.items = append(n.items, dirItem{child: c})
			continue
		}
		e := fi.entry(child)
		if e.Kind == File && !replayExt(name) && isPack(name) {
			for _, m := range packEntries(child, false) {
				n.items = append(n.items, dirItem{e: m})
			}
			continue
		}
		if e.Kind == File && !replayExt(name) {
			if skipName(name) {
				continue
			}
			if e = sniff(e); e.Kind == File && e.Err != nil {
				continue // read fine, but no replay: not reported from inside a folder
			}
		}
		n.items = append(n.items, dirItem{e: e})
	}
}

// replayExts are the formats' extensions, lower case with the dot, to pick
// files without opening them.
var replayExts = func() map[string]bool {
	out := map[string]bool{}
	for _, f := range decoders.Formats {
		for _, e := range f.Exts {
			out[e] = true
		}
	}
	return out
}()

// replayExt is decoders.HasReplayExt without an allocation per name: a
// plain ASCII extension is lowered in a small buffer and looked up (a walk
// asks a million times); any other name goes to the registry's own test.
func replayExt(name string) bool {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return false
	}
	var buf [16]byte
	if len(name)-i > len(buf) {
		return decoders.HasReplayExt(name) // longer than any format's
	}
	ext := buf[:0]
	for _, c := range []byte(name[i:]) {
		if c >= 0x80 || c == '/' || c == '\\' {
			return decoders.HasReplayExt(name)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		ext = append(ext, c)
	}
	return replayExts[string(ext)]
}

// fileStat is what a walk needs of a file's stat.
type fileStat struct {
	dir, regular bool
	special      fs.FileMode // the kind of a file neither folder nor regular
	size         int64
	mtime        time.Time
	dev, ino     uint64
	links        uint64
}

// entry is the walk's entry for a stat'ed path that is not a folder.
func (fi fileStat) entry(p string) Entry {
	e := Entry{Path: p, Kind: File, Size: fi.size, ModTime: fi.mtime, dev: fi.dev, ino: fi.ino, links: fi.links}
	if !fi.regular {
		e.Kind = Skipped
		e.Err = fmt.Errorf("%s: %s, not a regular file; rewind reads only regular files", p, modeName(fi.special))
	}
	return e
}

// fileEntry classifies a path that is not a folder.
func fileEntry(p string, info fs.FileInfo) Entry {
	e := Entry{Path: p, Kind: File, Size: info.Size(), ModTime: info.ModTime()}
	if !info.Mode().IsRegular() {
		e.Kind = Skipped
		e.Err = fmt.Errorf("%s: %s, not a regular file; rewind reads only regular files", p, modeName(info.Mode()))
	}
	return e
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "a special file"
}

// sniff decides whether a file without a replay's extension is one, by its
// magic bytes. A file that cannot be read is Unreadable; a readable file
// that is no replay keeps Kind File with Err set (the caller drops it).
func sniff(e Entry) Entry {
	f, err := decoders.OpenRegular(e.Path)
	if err != nil {
		e.Kind, e.Err = Unreadable, pathError(e.Path, err)
		return e
	}
	defer f.Close()
	head := make([]byte, 64)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		e.Kind, e.Err = Unreadable, pathError(e.Path, err)
		return e
	}
	if _, err := decoders.Detect(head[:n], e.Path); err != nil {
		e.Err = err
	}
	return e
}

// skipName leaves out, without opening them, the files that sit next to
// replays but are none: notes, tables, sources.
func skipName(p string) bool {
	switch strings.ToLower(path.Ext(filepath.ToSlash(p))) {
	case ".md", ".tsv", ".txt", ".json", ".csv", ".go", ".py", ".js", ".html", ".png", ".jpg", ".gz", ".zip":
		return true
	}
	return false
}

// pathError words an operating system error as one sentence that starts
// with the path.
func pathError(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file or folder", p)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied", p)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%s: symlink loop", p)
	}
	return fmt.Errorf("%s: %v", p, err)
}
