package library

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// The index keeps header scans (and full checks) across runs so a folder
// opens instantly the second time. It is one file in the user's cache
// directory, an append-only log of records:
//
//	line    "rewind index 1 <build>\n"
//	record  u32 length | u32 CRC-32C of the payload | payload
//	payload op (1 = put) | path | size | mtime | header (codec.go)
//
// The last record for a path wins; a record whose size or modification
// time no longer match the file is stale and ignored. Why a log of our own
// rather than an embedded database: opening it is one read and a parse
// (no schema, no page cache of its own), several rewind processes can
// append at once (each batch is one write under an advisory lock, and a
// CRC catches a torn one), and a damaged file is simply rebuilt. bbolt,
// the obvious well-kept choice, takes an exclusive lock for writing, so a
// second rewind would wait for the first to exit.
//
// The first line names the build of rewind that wrote the file: a new
// build may read headers differently, so it starts a fresh index rather
// than trusting the old one. A file that does not parse (a torn write, a
// disk error, another program's bytes) keeps the records before the damage
// and is rewritten whole on the next flush; it never stops a scan.
type Index struct {
	path  string
	cwd   string // to make walk paths absolute without a getwd per file
	build string

	mu       sync.Mutex
	recs     map[string]rec
	pending  []byte // records not yet written
	nPending int
	records  int         // records in the file, superseded ones included
	loaded   fs.FileInfo // the file loadedTo counts in; nil before the first read
	loadedTo int64       // bytes of the file parsed so far
	rewrite  bool        // the file is damaged or from another build: write it anew

	ioMu sync.Mutex // one flush at a time
}

type rec struct {
	size, mtime int64
	body        []byte // the encoded header
}

const indexMagic = "rewind index 2 "

// flushAt is how many bytes of records a Put lets wait before it writes.
const flushAt = 1 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CacheEnv names the variable that moves rewind's cache (the index) to a
// folder of its own: tests point it at a temporary folder without touching
// XDG_CACHE_HOME, which Go's own build cache follows.
const CacheEnv = "REWIND_CACHE"

// DefaultIndexPath is where the index lives: $REWIND_CACHE/index when that
// is set, else $XDG_CACHE_HOME/rewind/index on Linux and the platform's
// cache directory elsewhere.
func DefaultIndexPath() (string, error) {
	if dir := os.Getenv(CacheEnv); dir != "" {
		return filepath.Join(dir, "index"), nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the index: %w (use --no-cache)", err)
	}
	return filepath.Join(dir, "rewind", "index"), nil
}

// OpenIndex opens (or starts) the index at path, "" for DefaultIndexPath.
// Only a path that cannot be used at all is an error; a damaged or foreign
// file gives an empty index that replaces it on the next flush.
func OpenIndex(path string) (*Index, error) {
	if path == "" {
		p, err := DefaultIndexPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	x := &Index{path: path, cwd: cwd, build: buildID(), recs: map[string]rec{}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return x, nil
	}
	var data []byte
	if err == nil {
		x.loaded, err = f.Stat()
		if err == nil {
			// one read of the size fstat gave (it is only a hint: a file
			// that grew meanwhile is read to the end)
			data = make([]byte, 0, x.loaded.Size()+512)
			for err == nil {
				var n int
				n, err = f.Read(data[len(data):cap(data)])
				data = data[:len(data)+n]
				if len(data) == cap(data) {
					data = append(data, 0)[:len(data)]
				}
			}
			if err == io.EOF {
				err = nil
			}
			// records are some 200 bytes: size the map once
			x.recs = make(map[string]rec, len(data)/200)
		}
		f.Close()
	}
	if err != nil {
		// unreadable: start afresh; the flush will say whether it can write
		x.rewrite = true
		return x, nil
	}
	x.load(data, 0)
	return x, nil
}

// buildID names this build of rewind: its VCS revision, or its module
// version, or "dev" when neither is known (tests, go run).
func buildID() string {
	id := "dev"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			id = v
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				id = s.Value
			}
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.modified" && s.Value == "true" {
				id += "+dirty"
			}
		}
	}
	// a build without a clean revision (go build -buildvcs=false, a work
	// tree with changes) may read headers differently from the last one:
	// the executable's size and time tell two such builds apart, for the
	// price of a stat
	if id == "dev" || strings.HasSuffix(id, "+dirty") {
		if exe, err := os.Executable(); err == nil {
			if st, err := os.Stat(exe); err == nil {
				id += fmt.Sprintf("-%d-%d", st.Size(), st.ModTime().UnixNano())
			}
		}
	}
	return id
}

func (x *Index) headerLine() string { return indexMagic + x.build + "\n" }

// load parses the file's bytes from off (0: the whole file, with its first
// line). The caller holds mu or owns x.
func (x *Index) load(data []byte, off int64) {
	p := int(off)
	if off == 0 {
		line := x.headerLine()
		if len(data) < len(line) || string(data[:len(line)]) != line {
			x.rewrite = true
			x.loadedTo = int64(len(data))
			return
		}
		p = len(line)
	}
	for p < len(data) {
		if len(data)-p < 8 {
			x.rewrite = true // a record cut short
			break
		}
		n := int(binary.LittleEndian.Uint32(data[p:]))
		sum := binary.LittleEndian.Uint32(data[p+4:])
		if n > len(data)-p-8 || crc32.Checksum(data[p+8:p+8+n], castagnoli) != sum {
			x.rewrite = true
			break
		}
		payload := data[p+8 : p+8+n]
		p += 8 + n
		d := dec{b: payload}
		if op := d.uint(); op != 1 {
			x.rewrite = true
			break
		}
		key := d.str()
		size, mtime := d.int(), d.int()
		if d.err != nil {
			x.rewrite = true
			break
		}
		x.recs[key] = rec{size: size, mtime: mtime, body: d.b}
		x.records++
	}
	x.loadedTo = int64(len(data))
}

// Len is the number of files the index knows.
func (x *Index) Len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.recs)
}

// Path is the index file.
func (x *Index) Path() string { return x.path }

func (x *Index) key(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(x.cwd, p)
	}
	return filepath.Clean(p)
}

// Get returns the header stored for the file at path when its size and
// modification time still match; a changed file is a miss.
func (x *Index) Get(path string, size int64, mtime time.Time) (Header, bool) {
	k := x.key(path)
	x.mu.Lock()
	r, ok := x.recs[k]
	x.mu.Unlock()
	if !ok || r.size != size || r.mtime != mtime.UnixNano() {
		return Header{}, false
	}
	h := Header{Path: path, Size: size, ModTime: mtime}
	d := dec{b: r.body}
	decodeHeaderRecord(&d, &h)
	if d.err != nil {
		return Header{}, false
	}
	return h, true
}

// Put stores a header (with its check, when it has one). Records are
// written in batches; Flush or Close writes the rest.
func (x *Index) Put(h Header) error {
	if h.Kind != File {
		return nil // nothing worth keeping about a path that is not a file
	}
	k := x.key(h.Path)
	e := enc{b: make([]byte, 8, 256)}
	e.uint(1)
	e.str(k)
	e.int(h.Size)
	e.int(h.ModTime.UnixNano())
	bodyAt := len(e.b) - 8
	encodeHeader(&e, &h)
	payload := e.b[8:]
	binary.LittleEndian.PutUint32(e.b, uint32(len(payload)))
	binary.LittleEndian.PutUint32(e.b[4:], crc32.Checksum(payload, castagnoli))
	x.mu.Lock()
	x.recs[k] = rec{size: h.Size, mtime: h.ModTime.UnixNano(), body: payload[bodyAt:]}
	x.pending = append(x.pending, e.b...)
	x.nPending++
	full := len(x.pending) >= flushAt
	x.mu.Unlock()
	if full {
		return x.Flush()
	}
	return nil
}

// Flush writes the records put since the last flush.
func (x *Index) Flush() error {
	x.ioMu.Lock()
	defer x.ioMu.Unlock()
	x.mu.Lock()
	pending, n := x.pending, x.nPending
	x.pending, x.nPending = nil, 0
	rewrite := x.rewrite
	x.mu.Unlock()
	if len(pending) == 0 && !rewrite {
		return nil
	}
	return x.locked(func() error {
		if !rewrite {
			err := x.append(pending, n)
			if !errors.Is(err, errRewrite) {
				return err
			}
		}
		return x.compact(false)
	})
}

var errRewrite = errors.New("index needs rewriting")

// locked runs fn holding the index's lock file (index.lock beside it), so
// one rewind process at a time appends or compacts. The lock file itself
// is never replaced, which is what makes it a lock.
func (x *Index) locked(fn func() error) error {
	if err := os.MkdirAll(filepath.Dir(x.path), 0o755); err != nil {
		return err
	}
	l, err := os.OpenFile(x.path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer l.Close() // releases the lock
	if err := lockFile(l); err != nil {
		return err
	}
	return fn()
}

// append adds records at the end of the file, after reading what other
// processes appended since this one last looked. The caller holds the
// lock. errRewrite asks for a compaction instead: the file is missing,
// damaged or from another build.
func (x *Index) append(pending []byte, n int) error {
	f, err := os.OpenFile(x.path, os.O_RDWR|os.O_APPEND, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return errRewrite
	}
	if err != nil {
		return err
	}
	defer f.Close()
	err = x.catchUp(f)
	x.mu.Lock()
	if err == nil && x.rewrite {
		err = errRewrite
	}
	x.mu.Unlock()
	if err != nil {
		return err
	}
	if _, err := f.Write(pending); err != nil {
		return err
	}
	x.mu.Lock()
	x.records += n
	x.loadedTo += int64(len(pending))
	x.loaded, _ = f.Stat()
	x.mu.Unlock()
	return nil
}

// catchUp parses what other processes wrote after loadedTo. A file whose
// first line is not ours (another build rewrote it) asks for a rewrite.
func (x *Index) catchUp(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	x.mu.Lock()
	from := x.loadedTo
	if x.loaded == nil || !os.SameFile(x.loaded, st) {
		from = 0 // a new file (another process compacted): read it all
	}
	x.mu.Unlock()
	line := x.headerLine()
	head := make([]byte, len(line))
	if _, err := f.ReadAt(head, 0); err != nil || string(head) != line || st.Size() < from {
		return errRewrite
	}
	if st.Size() == from {
		return nil
	}
	buf := make([]byte, st.Size())
	if _, err := f.ReadAt(buf[from:], from); err != nil && err != io.EOF {
		return err
	}
	x.mu.Lock()
	x.load(buf, from)
	x.loaded = st
	x.mu.Unlock()
	return nil
}

// compact writes every live record to a new file and renames it over the
// index; with prune, records whose file is gone or changed are dropped.
// The caller holds the lock. What other processes appended is read first,
// so their records are kept.
func (x *Index) compact(prune bool) error {
	if old, err := os.Open(x.path); err == nil {
		err := x.catchUp(old)
		old.Close()
		if err != nil && !errors.Is(err, errRewrite) {
			return err
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(x.path), ".index-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	x.mu.Lock()
	out := make([]byte, 0, 64<<10)
	out = append(out, x.headerLine()...)
	live := 0
	for k, r := range x.recs {
		if prune && !stillThere(k, r) {
			delete(x.recs, k)
			continue
		}
		e := enc{b: make([]byte, 8, 32+len(k)+len(r.body))}
		e.uint(1)
		e.str(k)
		e.int(r.size)
		e.int(r.mtime)
		e.b = append(e.b, r.body...)
		payload := e.b[8:]
		binary.LittleEndian.PutUint32(e.b, uint32(len(payload)))
		binary.LittleEndian.PutUint32(e.b[4:], crc32.Checksum(payload, castagnoli))
		out = append(out, e.b...)
		live++
	}
	x.mu.Unlock()
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), x.path); err != nil {
		return err
	}
	st, err := os.Stat(x.path)
	if err != nil {
		return err
	}
	x.mu.Lock()
	x.records, x.loaded, x.loadedTo, x.rewrite = live, st, int64(len(out)), false
	x.mu.Unlock()
	return nil
}

func stillThere(k string, r rec) bool {
	st, err := os.Stat(k)
	return err == nil && st.Size() == r.size && st.ModTime().UnixNano() == r.mtime
}

// Close writes what is pending and, when superseded records outnumber the
// live ones, compacts the file (dropping files that are gone or changed).
func (x *Index) Close() error {
	if err := x.Flush(); err != nil {
		return err
	}
	x.mu.Lock()
	bloated := x.records > 2*len(x.recs)+1000
	x.mu.Unlock()
	if bloated {
		x.ioMu.Lock()
		defer x.ioMu.Unlock()
		return x.locked(func() error { return x.compact(true) })
	}
	return nil
}
