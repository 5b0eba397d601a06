package library

import (
	"bufio"
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
	"sync/atomic"
	"time"
)

// The index keeps header scans (and full checks, with the summaries they
// made) across runs so a folder opens instantly the second time. It is one
// file in the user's cache directory, an append-only log of blocks:
//
//	line     "rewind index 3 <build>\n"
//	block    u32 length | u32 CRC-32C of the payload | payload
//	payload  strings | records (codec.go): each string of the block once,
//	         then records that refer to them by number:
//	record   folder | name | size | mtime | header | check | summary
//
// The last record for a path wins; a record whose size or modification
// time no longer match the file is stale and ignored. Why a log of our own
// rather than an embedded database: opening it is one sequential read that
// fills the compact rows of a Store directly (no schema, no page cache of
// its own, no map of per-path byte slices), several rewind processes can
// append at once (each block is one write under an advisory lock, and a
// CRC catches a torn one), and a damaged file is simply rebuilt. bbolt,
// the obvious well-kept choice, takes an exclusive lock for writing, so a
// second rewind would wait for the first to exit.
//
// Summaries stay in the file: a row keeps where its blob is and reads it
// when asked, so a million summaries cost no memory. The file a row points
// into stays open (a compaction by another process replaces the path, not
// the open file).
//
// The first line names the build of rewind that wrote the file: a new
// build may read headers differently, so it starts a fresh index rather
// than trusting the old one. A file that does not parse (a torn write, a
// disk error, another program's bytes) keeps the records before the damage
// and is rewritten whole on the next flush; it never stops a scan.
type Index struct {
	path  string
	build string
	s     *Store

	ready chan struct{} // closed when the file has been read

	// guarded by s.mu
	pending  blockEnc   // records not yet written
	records  int        // records in the file, superseded ones included
	data     *os.File   // the file loadedTo counts in (read and append); nil before one exists
	loadedTo int64      // bytes of it parsed so far
	rewrite  bool       // the file is damaged or from another build: write it anew
	files    []*os.File // every file a summary may point into, by generation
	closed   bool

	ioMu sync.Mutex // one flush at a time
}

const indexMagic = "rewind index 4 "

// flushAt is how many bytes of records a Put lets wait before it writes;
// a rewrite writes blocks of this size.
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
// file gives an empty index that replaces it on the next flush. The file
// is read in the background: a scan walks folders meanwhile, and the first
// lookup waits for it.
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
	x := &Index{path: path, build: buildID(), s: newStore(cwd), ready: make(chan struct{})}
	x.s.readSum = x.readSum
	go func() {
		defer close(x.ready)
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		if err != nil {
			// unreadable: start afresh; the flush will say whether it can write
			x.s.mu.Lock()
			x.rewrite = true
			x.s.mu.Unlock()
			return
		}
		x.s.mu.Lock()
		x.use(f)
		x.s.mu.Unlock()
		x.load(f, 0)
	}()
	return x, nil
}

// wait returns once the file has been read.
func (x *Index) wait() { <-x.ready }

// Store is the index's rows (waiting for the file to be read).
func (x *Index) Store() *Store {
	x.wait()
	return x.s
}

// use makes f the file records are read from and appended to, a new
// generation for the summaries in it. The caller holds s.mu.
func (x *Index) use(f *os.File) {
	x.data = f
	x.files = append(x.files, f)
	x.loadedTo = 0
}

func (x *Index) gen() uint64 { return uint64(len(x.files) - 1) }

// readSum reads a summary blob from the file generation it is in, into
// *buf when buf is not nil (grown when short, and kept for the next read
// unless the blob is over a MB). The caller holds s.mu.
func (x *Index) readSum(ref uint64, n uint32, buf *[]byte) ([]byte, bool) {
	gen, off := ref>>40, int64(ref&(1<<40-1))
	if gen >= uint64(len(x.files)) || x.files[gen] == nil {
		return nil, false
	}
	sumReads.Add(1)
	var b []byte
	if buf != nil {
		b = *buf
	}
	if cap(b) < 4+int(n) {
		b = make([]byte, 4+int(n))
		if buf != nil && n <= 1<<20 {
			*buf = b
		}
	}
	b = b[:4+int(n)]
	if _, err := x.files[gen].ReadAt(b, off); err != nil {
		return nil, false
	}
	if binary.LittleEndian.Uint32(b) != crc32.Checksum(b[4:], castagnoli) {
		return nil, false // damaged: made again, as a blob that does not decode
	}
	return b[4:], true
}

// sumReads counts the summaries read from index files (tests: a scan that
// wants no summary reads none).
var sumReads atomic.Int64

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

// load parses f (the current generation) from off, block by block, into
// the store; 0 reads the first line too. Damage stops it and asks for a
// rewrite; what came before stays.
func (x *Index) load(f *os.File, off int64) {
	st, err := f.Stat()
	x.s.mu.Lock()
	gen := x.gen()
	x.s.mu.Unlock()
	end := int64(0)
	if err == nil {
		end = st.Size()
	}
	damaged := err != nil
	records := 0
	// a small buffer: each summary block stepped over starts a new read,
	// and a fill of 1 MB, most of it the next summary, made a million
	// rows' index read 3.6 GB to load its 120 MB of records
	r := bufio.NewReaderSize(io.NewSectionReader(f, off, end-off), 64<<10)
	pos := off
	if off == 0 && !damaged {
		line := x.headerLine()
		head := make([]byte, len(line))
		if _, err := io.ReadFull(r, head); err != nil || string(head) != line {
			damaged = true
		}
		pos = int64(len(line))
	}
	var buf []byte
	var sumsAt, sumsLen int64 // the summary block before the next records
	for !damaged && pos < end {
		var hd [8]byte
		if _, err := io.ReadFull(r, hd[:]); err != nil {
			damaged = true // a block cut short
			break
		}
		n := int64(binary.LittleEndian.Uint32(hd[:]) &^ sumBlock)
		sums := binary.LittleEndian.Uint32(hd[:])&sumBlock != 0
		sum := binary.LittleEndian.Uint32(hd[4:])
		if n > end-pos-8 {
			damaged = true
			break
		}
		if sums {
			// stepped over, not read: its blobs are read when asked for
			sumsAt, sumsLen = pos+8, n
			pos += 8 + n
			r.Reset(io.NewSectionReader(f, pos, end-pos))
			continue
		}
		if int64(cap(buf)) < n {
			buf = make([]byte, n)
		}
		p := buf[:n]
		if _, err := io.ReadFull(r, p); err != nil || crc32.Checksum(p, castagnoli) != sum {
			damaged = true
			break
		}
		// the rows' table grows as rows come: no guess from the file's
		// size holds, since the summaries in it are most of it or none
		// (a guess sized it for 25 million rows, 512 MB, for a million)
		k, err := x.s.loadBlock(p, gen, sumsAt, sumsLen)
		sumsAt, sumsLen = 0, 0
		records += k
		if err != nil {
			damaged = true
			break
		}
		pos += 8 + n
	}
	x.s.mu.Lock()
	x.records += records
	if damaged {
		x.rewrite = true
		pos = end
	}
	x.loadedTo = pos
	x.s.mu.Unlock()
}

// Len is the number of rows the index holds.
func (x *Index) Len() int {
	x.wait()
	return x.s.Len()
}

// Path is the index file.
func (x *Index) Path() string { return x.path }

// Get returns the header stored for the file at path when its size and
// modification time still match; a changed file is a miss.
func (x *Index) Get(path string, size int64, mtime time.Time) (Header, bool) {
	x.wait()
	s := x.s
	id, ok := s.Lookup(path)
	if !ok {
		return Header{}, false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.rec(id)
	if r.size != size || r.mtime != unixNano(mtime) {
		return Header{}, false
	}
	var h Header
	s.header(r, &h, path)
	h.ModTime = mtime
	return h, true
}

// Put stores a header (with its check and summary, when it has them).
// Records are written in blocks; Flush or Close writes the rest.
func (x *Index) Put(h Header) error {
	_, err := x.PutRow(&h)
	return err
}

// PutRow is Put that returns the header's row in the index's store. A
// path that is not a file is not kept (there is nothing to remember).
func (x *Index) PutRow(h *Header) (RowID, error) {
	x.wait()
	if h.Kind != File {
		return x.s.Put(h), nil // a row for the browser, never written
	}
	var blob []byte
	if h.Summary != nil {
		blob = encodeSummary(nil, h.Summary)
	}
	s := x.s
	s.mu.Lock()
	id := s.putLocked(h, blob)
	s.encodeRow(&x.pending, id, s.rec(id))
	full := x.pending.size() >= flushAt
	s.mu.Unlock()
	if full {
		return id, x.Flush()
	}
	return id, nil
}

// Flush writes the records put since the last flush.
func (x *Index) Flush() error {
	x.wait()
	x.ioMu.Lock()
	defer x.ioMu.Unlock()
	s := x.s
	s.mu.Lock()
	b := x.pending
	x.pending = blockEnc{}
	rewrite := x.rewrite
	var framed []byte
	blobsAt := 0
	if b.n > 0 {
		framed, blobsAt = s.frameBlock(&b)
	}
	s.mu.Unlock()
	if b.n == 0 && !rewrite {
		return nil
	}
	return x.locked(func() error {
		if !rewrite {
			err := x.append(framed, blobsAt, &b)
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

// catchUp reads what other processes wrote since this one last looked:
// the rest of the file it knows, or all of a file that replaced it (a
// compaction). The caller holds the lock. errRewrite asks for a rewrite:
// the file is missing, damaged or from another build.
func (x *Index) catchUp() error {
	st, err := os.Stat(x.path)
	if errors.Is(err, fs.ErrNotExist) {
		return errRewrite
	}
	if err != nil {
		return err
	}
	s := x.s
	s.mu.Lock()
	data, from := x.data, x.loadedTo
	s.mu.Unlock()
	if data != nil {
		if dst, err := data.Stat(); err != nil || !os.SameFile(dst, st) {
			data = nil
		}
	}
	if data == nil {
		// a file this process has not read: another one made it
		f, err := os.OpenFile(x.path, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		s.mu.Lock()
		x.use(f)
		x.records = 0
		s.mu.Unlock()
		data, from = f, 0
	}
	if st.Size() < from {
		return errRewrite // cut shorter than what was read: not ours to trust
	}
	if st.Size() > from || from == 0 {
		x.load(data, from)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if x.rewrite {
		return errRewrite
	}
	return nil
}

// append adds a framed block (frameBlock) at the end of the file, after
// reading what other processes appended. The caller holds the lock.
func (x *Index) append(framed []byte, blobsAt int, b *blockEnc) error {
	if err := x.catchUp(); err != nil {
		return err
	}
	s := x.s
	s.mu.Lock()
	f, at := x.data, x.loadedTo
	s.mu.Unlock()
	// at the end as this process read it, which is the end of the file:
	// every writer holds the lock
	if st, err := f.Stat(); err != nil || st.Size() != at {
		return errRewrite
	}
	if _, err := f.WriteAt(framed, at); err != nil {
		return err
	}
	s.mu.Lock()
	x.records += b.n
	x.loadedTo += int64(len(framed))
	x.pointAtFile(b, at+int64(blobsAt))
	s.mu.Unlock()
	return nil
}

// pointAtFile moves the summaries of a written block from the arena to
// the file, where blobsAt is the summary block's payload. A row put again
// since keeps its newer summary. The caller holds s.mu.
func (x *Index) pointAtFile(b *blockEnc, blobsAt int64) {
	s := x.s
	for _, sa := range b.sums {
		r := s.rec(sa.id)
		if ref, ok := s.sumRef(r); !ok || ref != sa.ref {
			continue
		}
		s.setSumRef(r, x.gen()<<40|uint64(blobsAt+int64(sa.off)))
	}
}

// compact writes every row that is a file to a new file and renames it over
// the index; with prune, rows whose file is gone or changed are left out.
// The caller holds the lock. What other processes appended is read first,
// so their records are kept.
func (x *Index) compact(prune bool) error {
	if err := x.catchUp(); err != nil && !errors.Is(err, errRewrite) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(x.path), ".index-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	s := x.s
	s.mu.Lock()
	x.files = append(x.files, tmp) // a generation of its own: summaries move into it
	gen := x.gen()
	n := s.n
	s.mu.Unlock()
	keep := func(lo, hi int) []bool { return nil }
	if prune {
		keep = x.alive
	}
	w := bufio.NewWriterSize(tmp, 1<<20)
	line := x.headerLine()
	w.WriteString(line)
	at := int64(len(line))
	live := 0
	for lo := 0; lo < n; lo += rowChunk {
		hi := min(lo+rowChunk, n)
		alive := keep(lo, hi)
		var b blockEnc
		var blocks [][]byte
		var marks []struct {
			b       blockEnc
			blobsAt int64
		}
		// finish closes the block being filled: framed for the file, and
		// marked where its summaries will be
		finish := func() {
			framed, blobsAt := s.frameBlock(&b)
			blocks = append(blocks, framed)
			marks = append(marks, struct {
				b       blockEnc
				blobsAt int64
			}{b, at + int64(blobsAt)})
			at += int64(len(framed))
			b = blockEnc{}
		}
		s.mu.Lock()
		for id := lo; id < hi; id++ {
			r := s.rec(RowID(id))
			if Kind(r.kind) != File || alive != nil && !alive[id-lo] {
				continue
			}
			s.encodeRow(&b, RowID(id), r)
			live++
			if b.size() >= flushAt {
				finish()
			}
		}
		if b.n > 0 {
			finish()
		}
		s.mu.Unlock()
		for _, p := range blocks {
			if _, err := w.Write(p); err != nil {
				tmp.Close()
				return err
			}
		}
		if err := w.Flush(); err != nil {
			tmp.Close()
			return err
		}
		s.mu.Lock()
		for _, m := range marks {
			for _, sa := range m.b.sums {
				r := s.rec(sa.id)
				if ref, ok := s.sumRef(r); ok && ref == sa.ref {
					s.setSumRef(r, gen<<40|uint64(m.blobsAt+int64(sa.off)))
				}
			}
		}
		s.mu.Unlock()
	}
	if err := os.Rename(tmp.Name(), x.path); err != nil {
		return err
	}
	s.mu.Lock()
	x.data, x.loadedTo, x.records, x.rewrite = tmp, at, live, false
	s.mu.Unlock()
	return nil
}

// alive reports, for rows lo to hi, whether the file is still there with
// the size and time the row has (a stat each, outside the lock).
func (x *Index) alive(lo, hi int) []bool {
	s := x.s
	type key struct {
		path        string
		size, mtime int64
	}
	keys := make([]key, 0, hi-lo)
	s.mu.RLock()
	for id := lo; id < hi; id++ {
		r := s.rec(RowID(id))
		keys = append(keys, key{s.dirs[s.dirs[r.dir].abs].text + s.name(r), r.size, r.mtime})
	}
	s.mu.RUnlock()
	out := make([]bool, len(keys))
	for i, k := range keys {
		st, err := os.Stat(k.path)
		out[i] = err == nil && st.Size() == k.size && st.ModTime().UnixNano() == k.mtime
	}
	return out
}

// Close writes what is pending and, when superseded records outnumber the
// live ones, compacts the file (dropping files that are gone or changed).
// The rows stay readable; their summaries do not.
func (x *Index) Close() error {
	defer x.release()
	if err := x.Flush(); err != nil {
		return err
	}
	s := x.s
	s.mu.Lock()
	bloated := x.records > 2*s.n+1000
	s.mu.Unlock()
	if bloated {
		x.ioMu.Lock()
		err := x.locked(func() error { return x.compact(true) })
		x.ioMu.Unlock()
		if err != nil {
			return err
		}
	}
	return nil
}

// release closes the files summaries were read from; the index is done.
func (x *Index) release() {
	s := x.s
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range x.files {
		if f != nil {
			f.Close()
			x.files[i] = nil
		}
	}
	x.data = nil
	x.closed = true
}
