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
	"strings"
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
}

// Walk reports every file to decode under paths, in order: a path that is a
// file is reported as it is; a folder is walked recursively in name order,
// keeping the files with a replay's extension or magic bytes. Symlinks to
// files and folders are followed; a link back into a folder being walked is
// reported as a loop, and a folder reached twice is walked once. Every bad
// path gets its own Unreadable entry and the walk goes on. Nothing but a
// regular file is ever opened, so a FIFO cannot block the walk. fn returns
// false to stop.
func Walk(paths []string, fn func(Entry) bool) {
	w := &walker{fn: fn, seen: map[string]bool{}}
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
		if d.IsDir() || !d.Type().IsRegular() || !decoders.HasReplayExt(p) {
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

type walker struct {
	fn   func(Entry) bool
	seen map[string]bool // folders walked, by their resolved path
}

// named handles one path from the command line.
func (w *walker) named(p string) bool {
	info, err := os.Stat(p) // follows symlinks; never opens, so a FIFO cannot block
	if err != nil {
		return w.fn(Entry{Path: p, Kind: Unreadable, Err: pathError(p, err), Named: true})
	}
	if info.IsDir() {
		return w.dir(p, nil)
	}
	e := fileEntry(p, info)
	e.Named = true
	if e.Kind == Skipped {
		e.Kind = Unreadable // named explicitly: refused, not passed over
	}
	return w.fn(e)
}

// dir walks a folder; stack holds the resolved folders above it, for loops.
func (w *walker) dir(p string, stack []string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return w.fn(Entry{Path: p, Kind: Unreadable, Err: pathError(p, err)})
	}
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	for _, s := range stack {
		if s == real {
			return w.fn(Entry{Path: p, Kind: Unreadable, Err: fmt.Errorf("%s: symlink loop: it leads back to %s, which is being walked", p, s)})
		}
	}
	if w.seen[real] {
		return true // reached before through another link: its files are listed once
	}
	w.seen[real] = true
	ents, err := os.ReadDir(p)
	if err != nil {
		// ReadDir may return some entries with the error; report the folder
		// and still walk what it gave
		if !w.fn(Entry{Path: p, Kind: Unreadable, Err: pathError(p, err)}) {
			return false
		}
	}
	stack = append(stack, real)
	for _, d := range ents {
		child := filepath.Join(p, d.Name())
		if strings.HasPrefix(d.Name(), ".") {
			continue // hidden files and folders: editor and VCS litter
		}
		info, err := os.Stat(child) // follow symlinks
		if err != nil {
			if d.Type()&fs.ModeSymlink != 0 && errors.Is(err, fs.ErrNotExist) {
				if !w.fn(Entry{Path: child, Kind: Unreadable, Err: fmt.Errorf("%s: broken symlink", child)}) {
					return false
				}
				continue
			}
			if errors.Is(err, fs.ErrNotExist) {
				err = fmt.Errorf("%s: vanished while the folder was read", child)
			} else {
				err = pathError(child, err)
			}
			if !w.fn(Entry{Path: child, Kind: Unreadable, Err: err}) {
				return false
			}
			continue
		}
		if info.IsDir() {
			if !w.dir(child, stack) {
				return false
			}
			continue
		}
		e := fileEntry(child, info)
		if e.Kind == File && !decoders.HasReplayExt(child) && !skipName(child) {
			e = sniff(e)
			if e.Kind == File && e.Err != nil {
				continue // read fine, but no replay: not reported from inside a folder
			}
		} else if e.Kind == File && !decoders.HasReplayExt(child) {
			continue
		}
		if !w.fn(e) {
			return false
		}
	}
	return true
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
