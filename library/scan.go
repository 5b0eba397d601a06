package library

import (
	"context"
	"io/fs"
	"iter"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"rewind/model"
)

// Paths is Walk as an iterator.
func Paths(paths []string) iter.Seq[Entry] {
	return func(yield func(Entry) bool) { Walk(paths, yield) }
}

// FSPaths is WalkFS as an iterator.
func FSPaths(fsys fs.FS, root string) iter.Seq[Entry] {
	return func(yield func(Entry) bool) { WalkFS(fsys, root, yield) }
}

// ScanOptions tune Scan.
type ScanOptions struct {
	// Index holds headers from earlier runs: a file whose size and
	// modification time match is not read, and every file read is added.
	// Nil reads every file (--no-cache).
	Index *Index
	// Workers is how many files are read at once; 0 means one per CPU.
	Workers int
	// Ordered delivers headers in walk order (info, find); otherwise each
	// is delivered as soon as it is read (the browser).
	Ordered bool
	// Check runs a full decode of every file that has no check yet (in the
	// index or otherwise), so ProblemCount is final for all (find with a
	// problems: query). The checks go into the index.
	Check bool
	// Summaries delivers each header with its Summary: like Check, a file
	// without a stored summary is decoded in full once and the result (the
	// check with it) goes into the index; a file that cannot be decoded
	// gets a Summary that says why.
	Summaries bool
	// NoMoments delivers the summaries without their moments: an
	// aggregation adds up and lists none, and a million summaries' moments
	// are gigabytes. The index keeps them all the same.
	NoMoments bool
	// MomentTerms, when set, delivers in each summary only the moments
	// the query's moment terms match, chosen on the workers: a million
	// summaries hold a few hundred million moments, a list of matches
	// needs only its own. The index keeps them all.
	MomentTerms *Query
}

// batchSize is how many entries travel together between the walk, the
// workers and the caller: a channel operation and a lock per batch, not
// per file.
const batchSize = 256

// window bounds the batches read ahead of the one an ordered scan waits
// for, so one slow file cannot make the others pile up.
const window = 16

// Scan reads the header of every entry of walk on all cores and calls fn
// with each, from one goroutine at a time (the caller's). Unreadable and
// skipped entries come through too, with Err set. It returns when every
// entry has been delivered, when fn returns false, or when ctx ends.
//
// Memory stays flat however many files there are: entries travel in
// batches through a bounded window, and what is delivered is not kept
// (beyond the index's compact rows).
func Scan(ctx context.Context, walk iter.Seq[Entry], opt ScanOptions, fn func(Header) bool) {
	var store *Store
	if opt.Index != nil {
		store = opt.Index.s
	}
	pipeline(ctx, walk, opt, true, func(w *scanWorker, batch []Entry, out []Header) {
		if opt.Index != nil {
			opt.Index.wait() // the walk has gone ahead while the index was read
		}
		for i, e := range batch {
			out[i] = w.header(e, store)
		}
	}, func(hs []Header) bool {
		for _, h := range hs {
			if !fn(h) {
				return false
			}
		}
		return true
	})
}

// ScanLines is Scan for a command that writes a line or so of text per
// header (info --json): line runs on the scan's workers and appends what a
// header becomes to its batch's buffer, so a million lines are made on
// every core and the caller's goroutine only copies them out. fn gets
// each header with its text, in walk order when opt.Ordered, and must not
// keep the text or the pointer to the header past its return (both are
// used again). line is called from several goroutines at once; a change
// it makes to the header is what fn sees.
func ScanLines(ctx context.Context, walk iter.Seq[Entry], opt ScanOptions, line func(b []byte, h *Header) []byte, fn func(h *Header, text []byte) bool) {
	var store *Store
	if opt.Index != nil {
		store = opt.Index.s
	}
	type lined struct {
		Header
		text []byte
		buf  []byte // the batch's buffer, on its first line
	}
	// the batches' buffers go round: made once for the batches in flight,
	// not once a batch (a million lines are 650 MB of text)
	free := make(chan []byte, window+2*runtime.GOMAXPROCS(0))
	pipeline(ctx, walk, opt, true, func(w *scanWorker, batch []Entry, out []lined) {
		if opt.Index != nil {
			opt.Index.wait()
		}
		// one buffer for the batch's text, cut into lines once it has
		// stopped growing
		var buf []byte
		select {
		case buf = <-free:
		default:
		}
		ends := make([]int, len(batch))
		for i, e := range batch {
			out[i].Header = w.header(e, store)
			buf = line(buf, &out[i].Header)
			ends[i] = len(buf)
		}
		start := 0
		for i, end := range ends {
			out[i].text = buf[start:end:end]
			start = end
		}
		if len(out) > 0 {
			out[0].buf = buf[:0]
		}
	}, func(ls []lined) bool {
		for i := range ls {
			if !fn(&ls[i].Header, ls[i].text) {
				return false
			}
		}
		if len(ls) > 0 && cap(ls[0].buf) > 0 {
			select {
			case free <- ls[0].buf: // fn is done with the lines
			default:
			}
		}
		return true
	})
}

// ScanInto is Scan for a caller that makes something compact of every
// header on the scan's workers (an aggregation's records of a million
// replays): add runs on a worker with each header and its batch's B, and
// fn gets each B from the caller's goroutine, in walk order when
// opt.Ordered. A summary comes without its moments (NoMoments and
// MomentTerms are set aside). A header found fresh in the index is read
// into the worker's memory, and so is its summary, with strings that are
// views of the bytes read from the index: both are good only during add,
// which copies what it keeps. Made anew, header and summary, a million of
// them were half the time of a warm aggregation and most of its garbage.
// A B goes round: newB makes one when none is free, and fn must leave it
// empty for the next batch.
func ScanInto[B any](ctx context.Context, walk iter.Seq[Entry], opt ScanOptions, newB func() *B, add func(b *B, h *Header), fn func(b *B) bool) {
	opt.NoMoments, opt.MomentTerms = true, nil
	var store *Store
	if opt.Index != nil {
		store = opt.Index.s
	}
	free := make(chan *B, window+2*runtime.GOMAXPROCS(0))
	pipeline(ctx, walk, opt, true, func(w *scanWorker, batch []Entry, out []*B) {
		if opt.Index != nil {
			opt.Index.wait()
		}
		var b *B
		select {
		case b = <-free:
		default:
			b = newB()
		}
		w.viewBatch(batch, store, func(h *Header) { add(b, h) })
		out[0] = b
	}, func(bs []*B) bool {
		if !fn(bs[0]) {
			return false
		}
		select {
		case free <- bs[0]:
		default:
		}
		return true
	})
}

// Scanned is one entry of a ScanRows: its row, and whether the file was
// read now (new, changed, or not known) rather than found fresh.
type Scanned struct {
	ID   RowID
	Read bool
}

// ScanRows is Scan for a list of rows (the browser): every entry gets a row
// in the store (the index's when opt.Index is set, else store), fresh ones
// untouched, the rest read and put. Skipped entries (devices, FIFOs in a
// folder) get no row. fn gets each batch as it is ready, in walk order when
// opt.Ordered.
func ScanRows(ctx context.Context, walk iter.Seq[Entry], opt ScanOptions, store *Store, fn func([]Scanned) bool) {
	if opt.Index != nil {
		store = opt.Index.Store()
	}
	// the batches go to the browser, which keeps them: not reused
	pipeline(ctx, walk, opt, false, func(w *scanWorker, batch []Entry, out []Scanned) {
		for i, e := range batch {
			out[i] = w.row(e, store)
		}
	}, func(ss []Scanned) bool {
		kept := ss[:0]
		for _, s := range ss {
			if s.ID != noRow {
				kept = append(kept, s)
			}
		}
		return len(kept) == 0 || fn(kept)
	})
}

const noRow = ^RowID(0)

// pipeline runs work over batches of the walk on all cores and hands the
// results to emit from the caller's goroutine, in walk order when
// opt.Ordered. With reuse, emit keeps nothing of a batch's results past
// its return, and their slices go round (as the walk's batches always
// do): a million headers would be 400 MB of them made and collected.
func pipeline[T any](ctx context.Context, walk iter.Seq[Entry], opt ScanOptions, reuse bool, work func(w *scanWorker, batch []Entry, out []T), emit func([]T) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if !opt.Check {
		// header reads only: a full decode's live heap is large, and five
		// times it would be the peak memory of a check
		defer lazyGC()()
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		seq   int
		batch []Entry
	}
	type result struct {
		seq int
		out []T
	}
	jobs := make(chan job, 2*workers)
	results := make(chan result, window)
	tokens := make(chan struct{}, window)
	// slices done with, to be used again: as many as can be in flight
	freeBatches := make(chan []Entry, window+4*workers)
	freeOuts := make(chan []T, window+4*workers)
	dedup := &sameFiles{m: map[fileID]Header{}}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &scanWorker{opt: opt, same: dedup}
			for j := range jobs {
				if ctx.Err() != nil {
					continue // drain: the scan was stopped
				}
				var out []T
				select {
				case out = <-freeOuts:
					out = out[:len(j.batch)]
					clear(out)
				default:
					out = make([]T, len(j.batch), batchSize)
				}
				work(w, j.batch, out)
				select {
				case freeBatches <- j.batch:
				default:
				}
				select {
				case results <- result{j.seq, out}:
				case <-ctx.Done():
				}
			}
		}()
	}
	go func() {
		defer func() {
			close(jobs)
			wg.Wait()
			close(results)
		}()
		seq := 0
		var batch []Entry
		send := func() bool {
			if len(batch) == 0 {
				return true
			}
			if opt.Ordered {
				select {
				case tokens <- struct{}{}:
				case <-ctx.Done():
					return false
				}
			}
			select {
			case jobs <- job{seq, batch}:
			case <-ctx.Done():
				return false
			}
			seq++
			batch = nil
			return true
		}
		for e := range walk {
			if batch == nil {
				select {
				case batch = <-freeBatches:
					batch = batch[:0]
				default:
					batch = make([]Entry, 0, batchSize)
				}
			}
			batch = append(batch, e)
			// a file named alone goes at once; so does a full batch
			if len(batch) == batchSize || e.Named {
				if !send() {
					return
				}
			}
		}
		send()
	}()
	done := func(out []T) {
		if reuse && cap(out) == batchSize {
			select {
			case freeOuts <- out:
			default:
			}
		}
	}
	next := 0
	held := map[int][]T{}
	for r := range results {
		if !opt.Ordered {
			if !emit(r.out) {
				return
			}
			done(r.out)
			continue
		}
		held[r.seq] = r.out
		for {
			out, ok := held[next]
			if !ok {
				break
			}
			delete(held, next)
			next++
			<-tokens
			if !emit(out) {
				return
			}
			done(out)
		}
	}
}

// scanWorker is one worker's state: the folder it last looked up (files
// come folder by folder), and the files read in this scan by identity.
type scanWorker struct {
	opt     ScanOptions
	same    *sameFiles
	lastDir string
	lastID  uint32
	lastOK  bool
	lastS   *Store
	// the row found last: a folder's files are walked in the order a
	// scan of it put them in the index, so the next file is most often
	// the next row
	lastRow RowID
	hasRow  bool
	// a summary's moments are read into the worker's memory for
	// MomentTerms to choose from
	match   *MomentMatcher
	moments []model.MomentRecord // summary's room for the moments MomentTerms choose from
	strs    []string             // summary's last blob's strings
	kept    []model.MomentRecord // matching's scratch
	blob    []byte               // a summary's bytes, read from the index file (decoding copies what it keeps)
	// ScanInto's headers and summaries, a batch's read again and again
	// into the same memory
	view struct {
		rows  []viewRow
		heads headBatch
		room  summaryRoom
	}
}

// fresh finds the row of a walked file in the store and reports whether it
// can be used as it is: same size and time, and checked or summarised
// when the scan asks for that. The caller holds the store's read lock.
func (w *scanWorker) fresh(e *Entry, s *Store) (RowID, *rowRec, bool) {
	dir, name := SplitPath(e.Path)
	if dir != w.lastDir || s != w.lastS {
		w.lastDir, w.lastS = dir, s
		w.lastID, w.lastOK = s.findDir(dir)
		if !w.lastOK && s.cwd != "" {
			w.lastID, w.lastOK = s.findDir(s.absDir(dir))
		}
	}
	if !w.lastOK {
		return 0, nil, false
	}
	var id RowID
	ok := false
	if next := w.lastRow + 1; w.hasRow && int(next) < s.n {
		if r := s.rec(next); s.dirs[r.dir].abs == s.dirs[w.lastID].abs && s.name(r) == name {
			id, ok = next, true
		}
	}
	if !ok {
		if id, ok = s.find(w.lastID, name); !ok {
			return 0, nil, false
		}
	}
	w.lastRow, w.hasRow = id, true
	r := s.rec(id)
	if r.size != e.Size || r.mtime != unixNano(e.ModTime) || Kind(r.kind) != File {
		return id, r, false
	}
	if w.opt.Check && r.flags&(fCheck|fErr) == 0 {
		return id, r, false // a header without the check a Check scan needs is read again
	}
	if w.opt.Summaries && r.flags&(fSum|fErr) == 0 {
		return id, r, false
	}
	return id, r, true
}

// viewBatch is ScanInto's work on a batch: each entry's header, as
// header makes it, handed to add in the worker's memory, the summary's
// strings views of its head. The fresh rows are found, their headers
// copied out and their summaries' heads read under one read lock
// (headBatch).
func (w *scanWorker) viewBatch(batch []Entry, s *Store, add func(*Header)) {
	v := &w.view
	if cap(v.rows) < len(batch) {
		v.rows = make([]viewRow, len(batch))
	}
	rows := v.rows[:len(batch)]
	for i := range rows {
		rows[i].fresh = false
	}
	v.heads.reset(len(batch))
	if s != nil {
		s.mu.RLock()
		for i := range batch {
			e, vr := &batch[i], &rows[i]
			if e.FS != nil || e.Kind != File {
				continue
			}
			_, r, ok := w.fresh(e, s)
			if !ok {
				continue
			}
			vr.fresh = true
			// the players' room is the row's own (a header read instead
			// is another's: the links to its file are handed it too)
			s.fillHeader(r, &vr.h, e.Path, vr.players, &vr.check)
			if cap(vr.h.Players) > cap(vr.players) {
				vr.players = vr.h.Players[:0]
			}
			vr.h.ModTime = e.ModTime
			if w.opt.Summaries {
				v.heads.note(s, w.opt.Index, r, i)
			}
		}
		if w.opt.Index != nil {
			v.heads.read(w.opt.Index)
		}
		s.mu.RUnlock()
	}
	for i := range batch {
		vr := &rows[i]
		h := &vr.h
		if vr.fresh {
			head, ok, damaged := v.heads.head(i)
			if ok {
				var err error
				// a head that does not decode is made again
				h.Summary, err = v.room.head(head)
				vr.fresh = err == nil
			} else if damaged {
				vr.fresh = false
			}
		}
		if !vr.fresh {
			*h = w.readPut(batch[i])
		} else if w.opt.Summaries && h.Summary == nil && h.Err != "" {
			h.Summary = &Summary{Err: h.Err}
		}
		add(h)
	}
}

// viewRow is an entry of a batch viewBatch reads.
type viewRow struct {
	fresh   bool // found fresh in the index
	h       Header
	players []Player
	check   Check
}

// header is Scan's work on one entry: the header from the index when it is
// fresh, else read (once per file however many links lead to it) and put.
func (w *scanWorker) header(e Entry, s *Store) Header {
	if s != nil && e.FS == nil && e.Kind == File {
		s.mu.RLock()
		_, r, ok := w.fresh(&e, s)
		var h Header
		if ok {
			s.header(r, &h, e.Path)
			h.ModTime = e.ModTime
			// a summary is a read of the index file: only when asked for
			if blob, has := []byte(nil), false; w.opt.Summaries {
				if blob, has = s.summaryBlob(r, &w.blob); has {
					var err error
					// a blob that does not decode is made again
					h.Summary, err = w.summary(blob, h.Players)
					ok = err == nil
				}
			}
		}
		s.mu.RUnlock()
		if ok {
			if w.opt.Summaries && h.Summary == nil && h.Err != "" {
				h.Summary = &Summary{Err: h.Err}
			}
			return h
		}
	}
	return w.readPut(e)
}

// readPut reads an entry the index has no fresh header of, and puts it
// there.
func (w *scanWorker) readPut(e Entry) Header {
	h := w.read(e)
	if w.opt.Index != nil && e.FS == nil && h.Kind == File {
		w.opt.Index.PutRow(&h)
	}
	if w.opt.Summaries && h.Summary == nil && h.Err != "" {
		h.Summary = &Summary{Err: h.Err}
	}
	if h.Summary != nil && h.Summary.Moments != nil && (w.opt.NoMoments || w.opt.MomentTerms != nil) {
		// in the index, not wanted here (or not all); a copy, since the
		// summary is the one other links to the same file are handed (and
		// put) too
		lean := *h.Summary
		lean.Moments = nil
		if !w.opt.NoMoments {
			lean.Moments = w.matching(h.Summary.Moments, h.Players)
		}
		h.Summary = &lean
	}
	return h
}

// summary decodes a summary blob from the index as the scan delivers it:
// without moments, with them, or with those MomentTerms match (all of them
// decoded into the worker's memory, the matches copied out).
func (w *scanWorker) summary(blob []byte, players []Player) (*Summary, error) {
	filter := !w.opt.NoMoments && w.opt.MomentTerms != nil
	s := &Summary{}
	if filter {
		s.Moments = w.moments[:0] // decodeSummaryInto reuses their room
	}
	var err error
	// with the strings of the worker's last blob: most are this one's too
	how := sumMoments
	if w.opt.NoMoments {
		how = sumStats
	}
	if w.strs, err = decodeSummaryInto(s, blob, how, w.strs); err != nil {
		return nil, err
	}
	if filter {
		if cap(s.Moments) > cap(w.moments) {
			w.moments = s.Moments[:0]
		}
		s.Moments = w.matching(s.Moments, players)
	}
	return s, nil
}

// matching copies out the moments MomentTerms match, into a slice of
// their number (the caller keeps it); nil for none.
func (w *scanWorker) matching(moments []model.MomentRecord, players []Player) []model.MomentRecord {
	if w.match == nil {
		w.match = w.opt.MomentTerms.MomentMatcher()
	}
	w.match.SetPlayers(players)
	w.kept = w.kept[:0]
	for i := range moments {
		if w.match.Match(&moments[i]) {
			w.kept = append(w.kept, moments[i])
		}
	}
	if len(w.kept) == 0 {
		return nil
	}
	return slices.Clone(w.kept)
}

// row is ScanRows' work on one entry.
func (w *scanWorker) row(e Entry, s *Store) Scanned {
	if e.Kind == Skipped {
		return Scanned{ID: noRow}
	}
	if e.Kind == File {
		s.mu.RLock()
		id, _, ok := w.fresh(&e, s)
		s.mu.RUnlock()
		if ok {
			return Scanned{ID: id}
		}
	}
	h := w.read(e)
	if w.opt.Index != nil && e.FS == nil && h.Kind == File {
		id, _ := w.opt.Index.PutRow(&h)
		return Scanned{ID: id, Read: true}
	}
	return Scanned{ID: s.Put(&h), Read: true}
}

// read reads one entry as the scan asks: header only, or in full.
func (w *scanWorker) read(e Entry) Header {
	full := w.opt.Check || w.opt.Summaries
	if e.links > 1 && e.Kind == File && e.FS == nil {
		if h, ok := w.same.get(e, full); ok {
			return h
		}
	}
	var h Header
	if full {
		fullReads.Add(1)
		h = ReadFull(e) // one full decode gives the header, the check and the summary
	} else {
		h = ReadHeader(e)
	}
	if e.links > 1 && h.Kind == File {
		w.same.put(e, full, h)
	}
	return h
}

// sameFiles remembers, during one scan, what was read of files that have
// several links (hard links, a backup's snapshots), so each is read once.
// Only such files are remembered, and at most maxSame of them.
type sameFiles struct {
	mu sync.Mutex
	m  map[fileID]Header
}

type fileID struct {
	dev, ino, size uint64
	mtime          int64
	full           bool
}

const maxSame = 1 << 16

// fullReads counts the full decodes scans made (tests: a summary is made
// once).
var fullReads atomic.Int64

func (sf *sameFiles) get(e Entry, full bool) (Header, bool) {
	sf.mu.Lock()
	h, ok := sf.m[fileID{e.dev, e.ino, uint64(e.Size), unixNano(e.ModTime), full}]
	sf.mu.Unlock()
	if !ok {
		return Header{}, false
	}
	h.Path = e.Path
	return h, true
}

func (sf *sameFiles) put(e Entry, full bool, h Header) {
	// a header whose sentences name its path is not another path's
	if strings.Contains(h.Err, e.Path) || h.Check != nil && (strings.Contains(h.Check.Err, e.Path) || strings.Contains(h.Check.First, e.Path)) {
		return
	}
	id := fileID{e.dev, e.ino, uint64(h.Size), unixNano(h.ModTime), full}
	if uint64(h.Size) != uint64(e.Size) || !h.ModTime.Equal(e.ModTime) {
		return // it changed between the walk and the read
	}
	sf.mu.Lock()
	if len(sf.m) >= maxSame {
		clear(sf.m)
	}
	sf.m[id] = h
	sf.mu.Unlock()
}

// TuneGC keeps the collector as a scan does (lazyGC) until restore is
// called: the browser holds a million rows for as long as it runs, and the
// default would let the heap reach twice that.
func TuneGC() (restore func()) { return lazyGC() }

var gc struct {
	sync.Mutex
	users, old int
	oldLimit   int64
	stop       chan struct{}
}

// lazyGC lets the heap grow past what is live by some 16 MB while scans
// run (at most five times it): a header read allocates and drops a few
// hundred kilobytes, and with Go's default the collector would run every
// few files when little is live (it halves the CPU a scan takes), yet a
// store of a million rows must not be allowed twice its size. The live
// heap is mostly rows without pointers, which a collection marks without
// reading, so collecting often costs little. The percentage follows the
// live heap as the scan fills the store. A GOGC the user set above 400,
// or off, is kept.
func lazyGC() (restore func()) {
	gc.Lock()
	if gc.users == 0 {
		gc.old = debug.SetGCPercent(100)
		debug.SetGCPercent(gc.old)
		gc.oldLimit = debug.SetMemoryLimit(-1)
		if gc.old >= 0 && gc.old <= 400 {
			gc.stop = make(chan struct{})
			go tuneGC(gc.stop)
		}
	}
	gc.users++
	gc.Unlock()
	return func() {
		gc.Lock()
		gc.users--
		if gc.users == 0 {
			if gc.stop != nil {
				close(gc.stop)
				gc.stop = nil
			}
			debug.SetGCPercent(gc.old)
			debug.SetMemoryLimit(gc.oldLimit)
		}
		gc.Unlock()
	}
}

// tuneGC sets the collector's percentage from the live heap until stop.
func tuneGC(stop chan struct{}) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/heap:bytes"}}
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	last := -1
	for {
		metrics.Read(sample)
		live := max(int64(sample[0].Value.Uint64()), 1<<20)
		// a collection costs what it must scan: rows without pointers
		// next to nothing, but a view that keeps a million games with
		// strings in them (the TUI's aggregate view) a third of a second
		// a time. The heap may grow by a quarter of what is scanned,
		// weighted by the share of the heap that is: a store's string
		// tables (a tenth of it) add next to nothing
		scan := min(float64(sample[1].Value.Uint64()), float64(live))
		extra := int64(scan / 4 * scan / float64(live))
		pct := int(min(400, max(5, 100*((16<<20)+extra)/live)))
		if pct != last {
			gc.Lock()
			if gc.stop == stop {
				debug.SetGCPercent(pct)
				// a soft limit a little above what is live makes the runtime
				// hand freed pages back at once: a sort's scratch comes and
				// goes in tens of megabytes
				debug.SetMemoryLimit(min(gc.oldLimit, live+live/8+(96<<20)))
			}
			gc.Unlock()
			last = pct
		}
		select {
		case <-t.C:
		case <-stop:
			return
		}
	}
}
