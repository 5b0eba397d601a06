package library

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"rewind/model"
)

// Matcher runs a query over the rows of a store: the browser's filter over
// a million rows. A row's texts come from the store's prepared strings
// (folded once per distinct string, not per row), what a term found in a
// string is remembered per goroutine, and only the file name is folded per
// row, into scratch space: a row costs a few hundred nanoseconds and no
// allocation.
type Matcher struct {
	q      *Query
	s      *Store
	format model.Format
	need   needs
}

// needs are the parts of a row the query's terms look at: a view fills only
// those (a length query folds no file name).
type needs struct{ players, texts, file, fmtText, problems, outcomes bool }

// Matcher prepares the query for a store's rows; format, when set, keeps
// only that format's rows (the browser's f key).
func (q *Query) Matcher(s *Store, format model.Format) *Matcher {
	m := &Matcher{q: q, s: s, format: format}
	if q != nil {
		for _, t := range q.terms {
			switch t.kind {
			case tWord:
				m.need.players, m.need.texts, m.need.file, m.need.fmtText = true, true, true, true
			case tProblems, tChecked:
				m.need.problems = true
			case tPlayer, tCode, tChar, tMatchup, tMe:
				m.need.players = true
			case tWinner, tLoser:
				m.need.players, m.need.outcomes = true, true
			case tTitle, tMode, tResult:
				m.need.texts = true
			case tFile:
				m.need.file = true
			}
		}
	}
	return m
}

// preps returns the store's prepared strings, at least n of them (computed
// lazily, each once: a slot is filled by whichever goroutine needs it).
func (s *Store) prepared(n int) []atomic.Pointer[prep] {
	s.prepMu.Lock()
	defer s.prepMu.Unlock()
	if len(s.preps) < n {
		grown := make([]atomic.Pointer[prep], max(n, 2*len(s.preps)))
		for i := range s.preps {
			grown[i].Store(s.preps[i].Load())
		}
		s.preps = grown
	}
	return s.preps
}

// matchWorker is one goroutine's state: its caches, a view and scratch.
type matchWorker struct {
	m     *Matcher
	preps []atomic.Pointer[prep]
	cache matchCache
	v     view
	buf   []byte
	fmts  map[[2]uint32]string
	// the last format text made: rows of one format come in runs, and a
	// map lookup per row was a tenth of a word's keystroke
	fmtKey [2]uint32
	fmtVal string
	// files are the file texts of the chunk being matched, from row lo on
	// (nil: made per row)
	files *chunkFiles
	lo    int
	id    int // the row being matched
}

func (m *Matcher) worker() *matchWorker {
	m.s.mu.RLock()
	n := len(m.s.strs)
	m.s.mu.RUnlock()
	w := &matchWorker{m: m, preps: m.s.prepared(n), buf: make([]byte, 0, 256), fmts: map[[2]uint32]string{}}
	if m.q != nil {
		w.cache.c = make([][nRoles][]uint8, len(m.q.terms))
		w.cache.fmts = make([]fmtMemo, len(m.q.terms))
		if len(m.q.terms) > 1 {
			w.cache.order, w.cache.rejected = make([]int, len(m.q.terms)), make([]int, len(m.q.terms))
			for i := range w.cache.order {
				w.cache.order[i] = i
			}
		}
	}
	w.cache.resolve = w.prep
	return w
}

// text is a string of the store, prepared when a term first needs it. The
// caller holds the read lock.
func (w *matchWorker) text(id uint32) text {
	if id == 0 {
		return text{emptyPrep, 0}
	}
	if int(id) < len(w.preps) {
		return text{nil, int32(id)}
	}
	return text{newPrep(w.m.s.strs[id]), -1} // newer than the matcher: not cached
}

// prep returns the prepared form of a string of the store. The caller
// holds the read lock.
func (w *matchWorker) prep(id int32) *prep {
	if id == 0 {
		return emptyPrep
	}
	if int(id) >= len(w.preps) {
		return newPrep(w.m.s.strs[id]) // newer than the matcher: not kept
	}
	if p := w.preps[id].Load(); p != nil {
		return p
	}
	p := newPrep(w.m.s.strs[id])
	w.preps[id].Store(p)
	return p
}

// fill makes the view of a row. The caller holds the read lock.
func (w *matchWorker) fill(r *rowRec) {
	s, v, need := w.m.s, &w.v, w.m.need
	f := s.fmtOf(r)
	v.format = model.Format(s.strs[f.id])
	if need.fmtText {
		if k := [2]uint32{f.id, f.name}; k != w.fmtKey || w.fmtVal == "" {
			ft, ok := w.fmts[k]
			if !ok {
				ft = fold(s.strs[f.id] + " " + s.strs[f.name])
				w.fmts[k] = ft
			}
			w.fmtKey, w.fmtVal = k, ft
		}
		v.fmtText = w.fmtVal
	}
	v.pl, v.strs, v.roles = nil, s.strs, s.roles.list
	if need.players {
		v.pl = s.playerList(r)
		if v.pl == nil {
			v.pl = noPlayers
		}
	}
	if need.texts {
		v.title, v.mode, v.result = w.text(r.title), w.text(r.mode), w.text(r.result)
	}
	v.outs = 0
	if need.outcomes && r.flags&fSum != 0 {
		v.outs = s.x(r).sumOuts
	}
	if need.file {
		if f := w.files; f != nil && w.id-w.lo < len(f.ends) {
			k := w.id - w.lo
			v.file = f.text[f.start(k):f.ends[k]]
		} else {
			v.file = fileText(s.name(r), w.buf)
		}
	}
	v.dated = r.flags&fStart != 0
	v.start = r.startSec + int64(f.zone)
	v.dur, v.size = r.dur, r.size
	if need.problems {
		v.problems, v.checked = s.problemCount(r), r.flags&(fCheck|fErr) != 0
	}
}

var noPlayers = []playerRec{}

// problemCount is Header.ProblemCount of a row.
func (s *Store) problemCount(r *rowRec) int {
	switch {
	case r.flags&fCheck != 0 && s.x(r).cErr != 0:
		return max(int(s.x(r).cProblems), 1)
	case r.flags&fCheck != 0:
		return int(s.x(r).cProblems)
	case r.flags&fErr != 0:
		return 1
	}
	return int(s.x(r).problems)
}

// rank matches one row. The caller holds the read lock.
func (w *matchWorker) rank(id RowID) (bool, int) {
	r := w.m.s.rec(id)
	if w.m.format != "" && model.Format(w.m.s.strs[w.m.s.fmtOf(r).id]) != w.m.format {
		return false, 0
	}
	if w.m.q.Empty() {
		return true, 0
	}
	w.id = int(id)
	w.fill(r)
	return w.m.q.rank(&w.v, &w.cache)
}

// Rank matches one row of the store.
func (m *Matcher) Rank(id RowID) (bool, int) {
	w := m.worker()
	m.s.mu.RLock()
	defer m.s.mu.RUnlock()
	return w.rank(id)
}

// filterChunk is the rows a goroutine takes at a time, and the rows read
// under one hold of the store's read lock.
const filterChunk = 1 << 14

// Filter returns the rows of ids the query keeps, in their order, and the
// tier of each (see Query.Rank). The rows are matched in the order the
// store keeps them (a list sorted by date visits rows all over memory,
// and each would be a cache miss), split over the cores; the answer is
// then read off in the list's order. When ctx ends first, ok is false.
func (m *Matcher) Filter(ctx context.Context, ids []RowID) (kept []RowID, tiers []uint8, ok bool) {
	m.s.mu.RLock()
	n := m.s.n
	m.s.mu.RUnlock()
	want := make([]uint64, (n+63)/64)
	for _, id := range ids {
		if int(id) < n {
			want[id/64] |= 1 << (id % 64)
		}
	}
	// per row: 0 not kept, else tier+1
	rank := make([]uint8, n)
	nChunks := (n + filterChunk - 1) / filterChunk
	var files []atomic.Pointer[chunkFiles]
	if m.need.file {
		files = m.s.fileChunks(nChunks)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(nChunks, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := m.worker()
			for {
				c := int(next.Add(1) - 1)
				if c >= nChunks || ctx.Err() != nil {
					return
				}
				lo, hi := c*filterChunk, min((c+1)*filterChunk, n)
				w.cache.reorder()
				m.s.mu.RLock()
				if m.need.file {
					w.files, w.lo = m.s.chunkFiles(&files[c], lo, hi, w.buf), lo
				}
				for id := lo; id < hi; id++ {
					if want[id/64]&(1<<(id%64)) == 0 {
						continue
					}
					if hit, tier := w.rank(RowID(id)); hit {
						rank[id] = uint8(min(tier, 254) + 1)
					}
				}
				m.s.mu.RUnlock()
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, nil, false
	}
	count := 0
	for _, id := range ids {
		if int(id) < n && rank[id] != 0 {
			count++
		}
	}
	kept, tiers = make([]RowID, 0, count), make([]uint8, 0, count)
	for _, id := range ids {
		if int(id) < n && rank[id] != 0 {
			kept = append(kept, id)
			tiers = append(tiers, rank[id]-1)
		}
	}
	return kept, tiers, true
}

// chunkFiles are the file texts (fileText) of one chunk of a store's rows,
// made when a query first needs them and kept: a filter keystroke over a
// million rows then folds no file name, it reads a prepared lowercase
// arena. A row's file name never changes; rows added to the last chunk
// since are made per row until the chunk is made again.
type chunkFiles struct {
	text string
	ends []uint32 // where each row's text ends in text
}

func (f *chunkFiles) start(k int) uint32 {
	if k == 0 {
		return 0
	}
	return f.ends[k-1]
}

// fileChunks returns the slots of the store's prepared file texts, at
// least n (grown under the lock by copying each slot atomically, before a
// filter's goroutines start, so none of them grows it).
func (s *Store) fileChunks(n int) []atomic.Pointer[chunkFiles] {
	s.prepMu.Lock()
	defer s.prepMu.Unlock()
	if len(s.files) < n {
		grown := make([]atomic.Pointer[chunkFiles], n)
		for i := range s.files {
			grown[i].Store(s.files[i].Load())
		}
		s.files = grown
	}
	return s.files
}

// chunkFiles returns the file texts of rows lo to hi from slot, making
// them if the slot has none or fewer rows than the chunk has now. The
// caller holds the store's read lock; buf is scratch.
func (s *Store) chunkFiles(slot *atomic.Pointer[chunkFiles], lo, hi int, buf []byte) *chunkFiles {
	if f := slot.Load(); f != nil && len(f.ends) >= hi-lo {
		return f
	}
	var text []byte
	ends := make([]uint32, 0, hi-lo)
	for id := lo; id < hi; id++ {
		text = append(text, fileText(s.name(s.rec(RowID(id))), buf)...)
		ends = append(ends, uint32(len(text)))
	}
	f := &chunkFiles{text: string(text), ends: ends}
	slot.Store(f)
	return f
}
