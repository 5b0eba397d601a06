package library

import (
	"hash/maphash"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"rewind/library/chunk"
	"rewind/model"
)

// A Store holds headers as compact rows: what the library and the browser
// keep of each replay. A million replays fit in a few hundred megabytes:
//
//   - every string that repeats (formats, versions, titles, modes, players,
//     codes, characters, teams, results, diagnostics) is kept once and a
//     row holds its number;
//   - numbers are fixed-size fields of a row, and rows live in chunks with
//     no pointers in them, so the collector never scans them;
//   - a path is a folder (kept once) and a name in an arena of bytes;
//   - a summary is a blob, in the index file or an arena, decoded on demand.
//
// A row is found by its path through a hash table of row numbers. Rows are
// never removed (the index drops stale ones when it rewrites its file); a
// row that is put again is updated in place and keeps its RowID, so a list
// of RowIDs (the browser's) stays valid.
//
// A Store is safe for concurrent use: writers take its lock, readers its
// read lock (Rows holds it across a run of rows).
type Store struct {
	mu  sync.RWMutex
	cwd string // makes keys absolute; "" keeps paths as given (the sample library)

	strs   []string
	strIDs map[string]uint32

	fmts  kept[fmtRec]  // the rows' shared facts
	roles kept[roleRec] // the players' parts

	dirs   []dirRec
	dirIDs map[string]uint32
	lastD  string // the last folder looked up, and its id: files come folder by folder
	lastID uint32

	rows  [][]rowRec
	n     int
	ext   chunk.List[sumRec] // the rows' optional records, numbered from 1 (extra)
	more  chunk.List[checkRec]
	pl    [][]playerRec
	np    int // players used in the last chunk
	names arena
	table []uint64 // open addressing: the hash's top half << 32 | RowID+1; 0 free
	// touched keeps the slots loadBlock reads ahead of using them, so the
	// reads are not taken away as unused
	touched uint64
	seed    maphash.Seed

	sums    arena // summary blobs not (yet) in a file
	sumLive []int // live bytes per sums chunk, to drop chunks no row uses
	// readSum reads a summary blob from the index file; nil for a store
	// without one.
	readSum func(ref uint64, n uint32, buf *[]byte) ([]byte, bool)

	prepMu sync.Mutex
	preps  []atomic.Pointer[prep]       // strings prepared for queries, by id (matcher.go)
	files  []atomic.Pointer[chunkFiles] // file names prepared for queries, by filter chunk
}

// RowID names a row of a Store.
type RowID uint32

type dirRec struct {
	text string // the folder as walked, with its trailing separator; "" for none
	abs  uint32 // the dir of the same folder made absolute (its own id when it is)
}

// rowRec is one header, 88 bytes, no pointers. What only some rows have
// (a check, a summary, a game clock, problems or an error) is in an
// extRec beside it, so a list nobody checked yet does not pay for it.
type rowRec struct {
	size, mtime int64 // the freshness key: the file's size and modification time (unix ns)
	startSec    int64
	dur         int64
	startNsec   int32
	frames      int32 // saturates at 2^31-1
	dir         uint32
	nameRef     uint32 // arena chunk << 20 | offset
	nameLen     uint32
	fmt         uint32 // the row's fmtRec
	title, mode uint32 // string ids from here
	result      uint32
	players     uint32 // index of the first player in pl
	ext         uint32 // index+1 of the row's sumRec; 0 for none
	nPlayers    uint16
	flags       uint16
	kind        uint8
	// textRev counts the changes of the row's text key (TextKey), wrapping
	// (it fills the record's padding: a million rows pay nothing for it)
	textRev uint16
}

// fmtRec is what a row shares with thousands of others: its format,
// version, clock unit and rate come with the program that recorded it,
// and its time zone with the machine. Kept once and numbered in the row,
// they cost a million rows 4 bytes each instead of 28.
type fmtRec struct {
	id, name, version, unit uint32 // string ids
	zone                    int32  // the start's offset, seconds east of UTC
	rate                    uint64 // float64 bits: a NaN rate is still one key
}

func (f *fmtRec) rateOf() float64 { return math.Float64frombits(f.rate) }

// extRec is what a row has once a full decode ran (the check, where the
// summary is) and the game clock of the formats that have one: the
// logical record, as x reads it and setX writes it. In memory it is held
// in two parts: where the summary is and the clock (sumRec, 32 bytes) for
// every row checked or with a clock, and the check's problems (checkRec),
// made only for a row with problems, notes or an error. A million rows
// pay 32 bytes each, not 40, and a clean one no more.
type extRec struct {
	sumRef uint64
	clock  int64
	// the header read's problems, notes, and why there is no header
	// (fErr says there is a why)
	problems  int32
	notes     int32
	err       uint32
	cProblems int32
	cNotes    int32
	cErr      uint32
	cFirst    uint32
	clockNm   uint32
	sumLen    uint32
	// sumOuts are the summary's outcomes of the first eight players, four
	// bits each (outcomeNibble): what the query's winner: and loser: read
	// without the summary
	sumOuts uint32
}

// sumRec is where a row's summary is, its game clock, and its checkRec
// (its number; 0 none).
type sumRec struct {
	ref     uint64
	clock   int64
	n       uint32
	clockNm uint32
	more    uint32
	outs    uint32 // extRec.sumOuts, in what was the record's padding
}

// checkRec is what the header read and a check found, when they found
// anything.
type checkRec struct {
	problems     int32
	notes        int32
	err          uint32
	cProblems    int32
	cNotes       int32
	cErr, cFirst uint32
}

const (
	fPartial = 1 << iota
	fNotReplay
	fStart
	fCheck
	fCheckPartial
	fSum
	fErr // the header read failed: extRec.err says why
)

// playerRec is a player of a row: the name and code are the player's, the
// part (slot, character, team, result) is one of the few an archive has
// (a roleRec, kept once): 12 bytes a player where six strings were 24.
type playerRec struct{ name, code, role uint32 }

// roleRec is a player's part in a game, as string ids.
type roleRec struct{ slot, char, team, result uint32 }

const (
	rowChunk    = 1 << 13
	playerChunk = 1 << 16
	maxPlayers  = playerChunk - 1
	arenaChunk  = 1 << 20
)

// sumRef: bit 63 set = in the store's arena at the low 63 bits; else the
// index file generation (bits 40-62) and the offset in it (bits 0-39).
const sumInArena = 1 << 63

// NewStore makes an empty store that keeps paths as given: the browser's,
// for the sample library or without an index.
func NewStore() *Store { return newStore("") }

func newStore(cwd string) *Store {
	s := &Store{cwd: cwd, strs: []string{""}, strIDs: map[string]uint32{"": 0},
		fmts: newKept[fmtRec](), roles: newKept[roleRec](),
		dirIDs: map[string]uint32{}, seed: maphash.MakeSeed()}
	s.lastD, s.lastID = "\x00", 0
	return s
}

// Len is the number of rows.
func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.n
}

func (s *Store) rec(id RowID) *rowRec { return &s.rows[id/rowChunk][id%rowChunk] }

// extra adds a zero record to a list of the rows' optional records and
// returns its number: index+1, so that 0 names none.
func extra[T any](l *chunk.List[T]) uint32 {
	var zero T
	return uint32(l.Push(zero)) + 1
}

// extraAt is the record of l numbered ref.
func extraAt[T any](l *chunk.List[T], ref uint32) *T { return l.At(int(ref) - 1) }

// x reads a row's extRec: zero for a row without one.
func (s *Store) x(r *rowRec) extRec {
	if r.ext == 0 {
		return extRec{}
	}
	sr := extraAt(&s.ext, r.ext)
	x := extRec{sumRef: sr.ref, sumLen: sr.n, clock: sr.clock, clockNm: sr.clockNm, sumOuts: sr.outs}
	if sr.more != 0 {
		m := extraAt(&s.more, sr.more)
		x.problems, x.notes, x.err = m.problems, m.notes, m.err
		x.cProblems, x.cNotes, x.cErr, x.cFirst = m.cProblems, m.cNotes, m.cErr, m.cFirst
	}
	return x
}

// setX writes a row's extRec, making its parts as they are needed. The
// caller holds the write lock.
func (s *Store) setX(r *rowRec, x extRec) {
	if r.ext == 0 {
		if x == (extRec{}) {
			return
		}
		r.ext = extra(&s.ext)
	}
	sr := extraAt(&s.ext, r.ext)
	sr.ref, sr.n, sr.clock, sr.clockNm, sr.outs = x.sumRef, x.sumLen, x.clock, x.clockNm, x.sumOuts
	m := checkRec{x.problems, x.notes, x.err, x.cProblems, x.cNotes, x.cErr, x.cFirst}
	if sr.more == 0 {
		if m == (checkRec{}) {
			return
		}
		sr.more = extra(&s.more)
	}
	*extraAt(&s.more, sr.more) = m
}

// intern returns the id of str, adding it. The caller holds the lock.
func (s *Store) intern(str string) uint32 {
	if id, ok := s.strIDs[str]; ok {
		return id
	}
	str = strings.Clone(str) // never keep a caller's bytes (a mapped file)
	id := uint32(len(s.strs))
	s.strs = append(s.strs, str)
	s.strIDs[str] = id
	return id
}

// kept numbers the values many rows share (fmtRec, roleRec), each kept
// once; 0 is the zero value.
type kept[T comparable] struct {
	list []T
	ids  map[T]uint32
}

func newKept[T comparable]() kept[T] {
	var zero T
	return kept[T]{list: []T{zero}, ids: map[T]uint32{zero: 0}}
}

// id returns the number of v, adding it. The caller holds the store's
// write lock.
func (k *kept[T]) id(v T) uint32 {
	if id, ok := k.ids[v]; ok {
		return id
	}
	id := uint32(len(k.list))
	k.list = append(k.list, v)
	k.ids[v] = id
	return id
}

// player makes a playerRec of a player's string ids. The caller holds the
// write lock.
func (s *Store) player(slot, name, code, char, team, result uint32) playerRec {
	return playerRec{name, code, s.roles.id(roleRec{slot, char, team, result})}
}

// errOf is the string id of why a row has no header; 0 when it has one.
// The caller holds a lock.
func (s *Store) errOf(r *rowRec) uint32 {
	if r.flags&fErr == 0 {
		return 0
	}
	return s.x(r).err
}

// fmtOf is a row's shared facts. The caller holds a lock.
func (s *Store) fmtOf(r *rowRec) *fmtRec { return &s.fmts.list[r.fmt] }

// internBytes is intern without making a string unless it is new.
func (s *Store) internBytes(b []byte) uint32 {
	if id, ok := s.strIDs[string(b)]; ok {
		return id
	}
	return s.intern(string(b))
}

// SplitPath cuts a path into its folder (with the separator) and name,
// as the index keys a row: a list that keeps a folder once and a row's
// name beside it joins them back into the path.
func SplitPath(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if filepath.Separator != '/' {
		i = max(i, strings.LastIndexByte(p, filepath.Separator))
	}
	return p[:i+1], p[i+1:]
}

// dirID returns the id of a folder as walked, adding it (and its absolute
// form). The caller holds the write lock.
func (s *Store) dirID(dir string) uint32 {
	if dir == s.lastD {
		return s.lastID
	}
	id, ok := s.dirIDs[dir]
	if !ok {
		id = uint32(len(s.dirs))
		dir = strings.Clone(dir)
		s.dirs = append(s.dirs, dirRec{text: dir, abs: id})
		s.dirIDs[dir] = id
		if a := s.absDir(dir); a != dir {
			s.dirs[id].abs = s.dirID(a)
		}
	}
	s.lastD, s.lastID = s.dirs[id].text, id // the store's copy, never the caller's bytes
	return id
}

// findDir is dirID for readers: false when the folder is unknown.
func (s *Store) findDir(dir string) (uint32, bool) {
	id, ok := s.dirIDs[dir]
	return id, ok
}

// absDir makes a folder absolute and clean, with its trailing separator,
// the form the index keys by.
func (s *Store) absDir(dir string) string {
	if s.cwd == "" {
		return dir
	}
	p := dir
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.cwd, p)
	}
	p = filepath.Clean(p)
	if !strings.HasSuffix(p, string(filepath.Separator)) {
		p += string(filepath.Separator)
	}
	return p
}

func (s *Store) hash(absDir uint32, name string) uint64 {
	return maphash.String(s.seed, name) ^ (uint64(absDir)+1)*0x9E3779B97F4A7C15
}

func (s *Store) name(r *rowRec) string {
	return s.names.str(uint64(r.nameRef>>20)<<32|uint64(r.nameRef&(1<<20-1)), r.nameLen)
}

// find returns the row of a file in a folder (a dir id), by the folder's
// absolute form. The caller holds a lock.
func (s *Store) find(dir uint32, name string) (RowID, bool) {
	abs := s.dirs[dir].abs
	return s.findHashed(abs, name, s.hash(abs, name))
}

// findHashed is find with the folder's absolute id and the name's hash.
func (s *Store) findHashed(abs uint32, name string, h uint64) (RowID, bool) {
	if len(s.table) == 0 {
		return 0, false
	}
	tag := h >> 32 << 32
	mask := uint64(len(s.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := s.table[i]
		if v == 0 {
			return 0, false
		}
		if v&^0xffffffff != tag {
			continue // another hash: no need to look at the row
		}
		id := RowID(uint32(v) - 1)
		r := s.rec(id)
		if s.dirs[r.dir].abs == abs && s.name(r) == name {
			return id, true
		}
	}
}

// slot puts a row in the table.
func (s *Store) slot(h uint64, id RowID) {
	mask := uint64(len(s.table) - 1)
	i := h & mask
	for s.table[i] != 0 {
		i = (i + 1) & mask
	}
	s.table[i] = h>>32<<32 | uint64(id+1)
}

// grow keeps the table at most half full.
func (s *Store) grow(want int) {
	if want*2 <= len(s.table) {
		return
	}
	size := max(1024, len(s.table))
	for size < want*2 {
		size *= 2
	}
	s.table = make([]uint64, size)
	for id := 0; id < s.n; id++ {
		r := s.rec(RowID(id))
		s.slot(s.hash(s.dirs[r.dir].abs, s.name(r)), RowID(id))
	}
}

// add appends a row for the file in dir; the caller fills it.
func (s *Store) add(dir uint32, name string) (RowID, *rowRec) {
	return s.addHashed(dir, name, s.hash(s.dirs[dir].abs, name))
}

// addHashed is add with the name's hash in its folder (hash).
func (s *Store) addHashed(dir uint32, name string, h uint64) (RowID, *rowRec) {
	s.grow(s.n + 1)
	id := RowID(s.n)
	if s.n%rowChunk == 0 {
		s.rows = append(s.rows, make([]rowRec, rowChunk))
	}
	s.n++
	r := s.rec(id)
	r.dir = dir
	if len(name) > arenaChunk {
		name = name[:arenaChunk] // no file system has such names
	}
	ref, n := s.names.put(name)
	r.nameRef, r.nameLen = uint32(ref>>32)<<20|uint32(ref), n
	s.slot(h, id)
	return id, r
}

// row returns the row of path, adding it. The caller holds the write lock.
func (s *Store) row(path string) (RowID, *rowRec) {
	dir, name := SplitPath(path)
	d := s.dirID(dir)
	if id, ok := s.find(d, name); ok {
		r := s.rec(id)
		r.dir = d // the folder as last walked
		return id, r
	}
	return s.add(d, name)
}

// players makes room for n players of a row, in place when it had as
// many. A row keeps at most maxPlayers.
func (s *Store) players(r *rowRec, n int) []playerRec {
	n = min(n, maxPlayers)
	if n <= int(r.nPlayers) && n > 0 {
		r.nPlayers = uint16(n)
		return s.playerList(r)
	}
	r.nPlayers = uint16(n)
	if n == 0 {
		r.players = 0
		return nil
	}
	if len(s.pl) == 0 || s.np+n > playerChunk {
		s.pl = append(s.pl, make([]playerRec, playerChunk))
		s.np = 0
	}
	c := uint32(len(s.pl) - 1)
	r.players = c*playerChunk + uint32(s.np)
	s.np += n
	return s.playerList(r)
}

// textKey appends the numbers of the strings of a row's text key (TextKey).
func (s *Store) textKey(r *rowRec, dst []uint32) []uint32 {
	dst = append(dst, s.errOf(r), r.title, s.fmtOf(r).id, r.mode)
	for _, p := range s.playerList(r) {
		role := &s.roles.list[p.role]
		dst = append(dst, p.name, role.char, role.team)
	}
	return dst
}

// textKeyRoom holds the text key of a row of up to eight players without
// an allocation; more players (rare) make one.
const textKeyRoom = 4 + 3*8

// textChanged counts a change of r's text key from before, written over.
func (s *Store) textChanged(r *rowRec, before []uint32) {
	var is [textKeyRoom]uint32
	if !slices.Equal(before, s.textKey(r, is[:0])) {
		r.textRev++
	}
}

// playerList returns a row's players.
func (s *Store) playerList(r *rowRec) []playerRec {
	if r.nPlayers == 0 {
		return nil
	}
	c, i := r.players/playerChunk, r.players%playerChunk
	return s.pl[c][i : i+uint32(r.nPlayers)]
}

// Put stores a header (its check and summary with it) and returns its row:
// the row of the same path when there is one, updated, else a new one.
func (s *Store) Put(h *Header) RowID {
	var blob []byte
	if h.Summary != nil {
		blob = encodeSummary(nil, h.Summary)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.putLocked(h, blob)
}

// putLocked is Put with the lock held and the summary encoded.
func (s *Store) putLocked(h *Header, blob []byte) RowID {
	id, r := s.row(h.Path)
	same := r.size == h.Size && r.mtime == unixNano(h.ModTime)
	s.setHeader(r, h)
	switch {
	case blob != nil:
		s.setSumBlob(r, blob)
		x := s.x(r)
		x.sumOuts = outcomeNibbles(h.Summary)
		s.setX(r, x)
	case !same || h.Check == nil:
		// a summary belongs to the decode that made the check: a changed
		// file, or a header without a check, keeps none
		s.dropSum(r)
	}
	return id
}

// setHeader writes h's fields into r (all but the path and summary).
func (s *Store) setHeader(r *rowRec, h *Header) {
	var was [textKeyRoom]uint32
	before := s.textKey(r, was[:0])
	defer s.textChanged(r, before)
	sum := r.flags & fSum
	*r = rowRec{dir: r.dir, nameRef: r.nameRef, nameLen: r.nameLen, players: r.players, nPlayers: r.nPlayers,
		ext: r.ext, flags: sum, textRev: r.textRev}
	r.kind = uint8(h.Kind)
	r.size, r.mtime = h.Size, unixNano(h.ModTime)
	f := fmtRec{id: s.intern(string(h.Format)), name: s.intern(h.FormatName), version: s.intern(h.Version),
		unit: s.intern(h.Unit), rate: math.Float64bits(h.Rate)}
	if !h.Start.IsZero() {
		r.flags |= fStart
		r.startSec, r.startNsec = h.Start.Unix(), int32(h.Start.Nanosecond())
		_, off := h.Start.Zone()
		f.zone = int32(off)
	}
	r.fmt = s.fmts.id(f)
	r.title, r.mode = s.intern(h.Title), s.intern(h.Mode)
	r.dur, r.frames = int64(h.Duration), int32(min(h.Frames, 1<<31-1))
	r.result = s.intern(h.Result)
	if h.Partial {
		r.flags |= fPartial
	}
	ps := s.players(r, len(h.Players))
	for i, p := range h.Players[:len(ps)] {
		ps[i] = s.player(s.intern(p.Slot), s.intern(p.Name), s.intern(p.Code), s.intern(p.Character), s.intern(p.Team), s.intern(p.Result))
	}
	if h.NotReplay {
		r.flags |= fNotReplay
	}
	if h.Err != "" {
		r.flags |= fErr
	}
	if r.ext != 0 || h.Check != nil || h.Clock != 0 || h.ClockName != "" || h.Problems != 0 || h.Notes != 0 || h.Err != "" {
		x := s.x(r)
		x.clock, x.clockNm = int64(h.Clock), s.intern(h.ClockName)
		x.problems, x.notes, x.err = int32(h.Problems), int32(h.Notes), s.intern(h.Err)
		x.cProblems, x.cNotes, x.cErr, x.cFirst = 0, 0, 0, 0
		if c := h.Check; c != nil {
			r.flags |= fCheck
			x.cProblems, x.cNotes, x.cErr, x.cFirst = int32(c.Problems), int32(c.Notes), s.intern(c.Err), s.intern(c.First)
			if c.Partial {
				r.flags |= fCheckPartial
			}
		}
		s.setX(r, x)
	}
}

// setSumBlob keeps a summary blob in the arena for the row.
func (s *Store) setSumBlob(r *rowRec, blob []byte) {
	s.dropSum(r)
	ref, _ := s.sums.put(unsafe.String(unsafe.SliceData(blob), len(blob)))
	c := int(ref >> 32)
	for len(s.sumLive) <= c {
		s.sumLive = append(s.sumLive, 0)
	}
	s.sumLive[c] += len(blob)
	x := s.x(r)
	x.sumRef, x.sumLen = ref|sumInArena, uint32(len(blob))
	s.setX(r, x)
	r.flags |= fSum
}

// setSumRef points a row's summary at a place in the index file, letting
// go of its bytes in the arena.
func (s *Store) setSumRef(r *rowRec, ref uint64) {
	n := s.x(r).sumLen
	s.dropSum(r)
	x := s.x(r)
	x.sumRef, x.sumLen = ref, n
	s.setX(r, x)
	r.flags |= fSum
}

// sumRef is where a row's summary is; 0 and false for none.
func (s *Store) sumRef(r *rowRec) (uint64, bool) {
	if r.flags&fSum == 0 {
		return 0, false
	}
	return s.x(r).sumRef, true
}

// dropSum forgets a row's summary, freeing its arena chunk when nothing
// else is in it.
func (s *Store) dropSum(r *rowRec) {
	if r.flags&fSum == 0 {
		return
	}
	x := s.x(r)
	if x.sumRef&sumInArena != 0 {
		c := int((x.sumRef &^ sumInArena) >> 32)
		s.sumLive[c] -= int(x.sumLen)
		if s.sumLive[c] == 0 && c != len(s.sums.chunks)-1 {
			s.sums.chunks[c] = nil
		}
	}
	r.flags &^= fSum
	x.sumRef, x.sumLen, x.sumOuts = 0, 0, 0
	s.setX(r, x)
}

// summaryBlob returns the bytes of a row's summary, read into *buf when
// buf is not nil (see Index.readSum; one in the store's memory is copied
// into it). The caller holds a lock.
func (s *Store) summaryBlob(r *rowRec, buf *[]byte) ([]byte, bool) {
	if r.flags&fSum == 0 {
		return nil, false
	}
	x := s.x(r)
	if x.sumRef&sumInArena != 0 {
		str := s.sums.str(x.sumRef&^sumInArena, x.sumLen)
		if buf == nil {
			return []byte(str), true
		}
		*buf = append((*buf)[:0], str...)
		return *buf, true
	}
	if s.readSum == nil {
		return nil, false
	}
	return s.readSum(x.sumRef, x.sumLen, buf)
}

// Lookup returns the row of a path.
func (s *Store) Lookup(path string) (RowID, bool) {
	dir, name := SplitPath(path)
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, ok := s.findDir(dir)
	if !ok {
		if s.cwd == "" {
			return 0, false
		}
		// a folder not seen as written, perhaps by another name: by its
		// absolute form
		d, ok = s.findDir(s.absDir(dir))
		if !ok {
			return 0, false
		}
	}
	return s.find(d, name)
}

// Header returns a row as a Header (without its summary; Summary reads it).
func (s *Store) Header(id RowID) Header {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var h Header
	s.header(s.rec(id), &h, "")
	return h
}

// Path is a row's path as last walked.
func (s *Store) Path(id RowID) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.rec(id)
	return s.dirs[r.dir].text + s.name(r)
}

// Summary decodes a row's summary; nil when it has none (never made, or
// its blob cannot be read).
func (s *Store) Summary(id RowID) *Summary { return s.summary(id, true) }

// SummaryStats is Summary without the moments, for an aggregation.
func (s *Store) SummaryStats(id RowID) *Summary { return s.summary(id, false) }

func (s *Store) summary(id RowID, moments bool) *Summary {
	s.mu.RLock()
	blob, ok := s.summaryBlob(s.rec(id), nil)
	s.mu.RUnlock()
	if !ok {
		return nil
	}
	sum, err := decodeSummary(blob, moments)
	if err != nil {
		return nil
	}
	return sum
}

// A SummaryReader reads rows' headers and summaries (without their
// moments) over and over into the same memory: an aggregation over a
// million rows that keeps what it needs of each as it comes (an
// aggregate.List) leaves the collector nothing to sweep, where a Header and
// a Summary each would be gigabytes of garbage.
type SummaryReader struct {
	s       *Store
	moments bool
	blob    []byte
	room    summaryRoom
	// Header's, and the room of its players and check
	h       Header
	players []Player
	check   *Check
}

// SummaryReader starts reading summaries.
func (s *Store) SummaryReader() *SummaryReader { return &SummaryReader{s: s} }

// MomentReader starts reading summaries with their moments: a list of the
// moments of a million rows that match a query keeps the matches, and
// reads each row's hundreds of moments into the same memory.
func (s *Store) MomentReader() *SummaryReader { return &SummaryReader{s: s, moments: true} }

// Header returns the row's header, without its path (a million paths are
// a million allocations) and into the reader's memory: it is valid until
// the next Header.
func (rd *SummaryReader) Header(id RowID) *Header {
	rd.s.mu.RLock()
	defer rd.s.mu.RUnlock()
	if cap(rd.h.Players) > cap(rd.players) {
		rd.players = rd.h.Players[:0]
	}
	rd.s.fillHeader(rd.s.rec(id), &rd.h, "", rd.players, rd.check)
	if rd.h.Check != nil {
		rd.check = rd.h.Check
	}
	return &rd.h
}

// Read returns the row's summary (without moments unless the reader is a
// MomentReader), nil when it has none. It is valid until the next Read.
func (rd *SummaryReader) Read(id RowID) *Summary {
	rd.s.mu.RLock()
	blob, ok := rd.s.summaryBlob(rd.s.rec(id), &rd.blob)
	rd.s.mu.RUnlock()
	if !ok {
		return nil
	}
	sum, err := rd.room.decode(blob, rd.moments)
	if err != nil {
		return nil
	}
	return sum
}

// header fills h from r; path, when not empty, is the path as walked
// (saving the allocation of joining folder and name). Every string is the
// store's own, so a Header costs one allocation (the players) or two.
func (s *Store) header(r *rowRec, h *Header, path string) {
	if path == "" {
		path = s.dirs[r.dir].text + s.name(r)
	}
	s.fillHeader(r, h, path, nil, nil)
}

// fillHeader is header with the path given, into the room of players and
// check when they have it.
func (s *Store) fillHeader(r *rowRec, h *Header, path string, players []Player, check *Check) {
	*h = Header{Path: path, Kind: Kind(r.kind), Size: r.size}
	if r.mtime != 0 {
		h.ModTime = time.Unix(0, r.mtime)
	}
	str := s.strs
	f := s.fmtOf(r)
	h.Format, h.FormatName, h.Version = model.Format(str[f.id]), str[f.name], str[f.version]
	if r.flags&fStart != 0 {
		h.Start = time.Unix(r.startSec, int64(r.startNsec)).In(zone(f.zone))
	}
	h.Title, h.Mode = str[r.title], str[r.mode]
	x := s.x(r)
	h.Duration, h.Frames, h.Rate, h.Unit = time.Duration(r.dur), int(r.frames), f.rateOf(), str[f.unit]
	h.Clock, h.ClockName, h.Result = time.Duration(x.clock), str[x.clockNm], str[r.result]
	h.Partial = r.flags&fPartial != 0
	if ps := s.playerList(r); len(ps) > 0 {
		if cap(players) < len(ps) {
			players = make([]Player, len(ps))
		}
		h.Players = players[:len(ps)]
		for i, p := range ps {
			h.Players[i] = s.playerOf(p)
		}
	}
	h.Problems, h.Notes = int(x.problems), int(x.notes)
	h.Err, h.NotReplay = str[x.err], r.flags&fNotReplay != 0
	if r.flags&fCheck != 0 {
		if check == nil {
			check = &Check{}
		}
		*check = Check{Problems: int(x.cProblems), Notes: int(x.cNotes), Partial: r.flags&fCheckPartial != 0,
			Err: str[x.cErr], First: str[x.cFirst]}
		h.Check = check
	}
}

// playerOf is a stored player as a Player. The caller holds a lock.
func (s *Store) playerOf(p playerRec) Player {
	str, role := s.strs, &s.roles.list[p.role]
	return Player{str[role.slot], str[p.name], str[p.code], str[role.char], str[role.team], str[role.result]}
}

// unixNano is a modification time as the index keys it; 0 for none.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

var zones sync.Map // seconds east of UTC -> *time.Location

// zone is a fixed zone, made once per offset; UTC for 0.
func zone(off int32) *time.Location {
	if off == 0 {
		return time.UTC
	}
	if l, ok := zones.Load(off); ok {
		return l.(*time.Location)
	}
	l, _ := zones.LoadOrStore(off, time.FixedZone("", int(off)))
	return l.(*time.Location)
}

// arena is append-only bytes in chunks, so growing never copies what is
// there and a string made over its bytes stays valid.
type arena struct {
	chunks [][]byte
}

func (a *arena) put(s string) (ref uint64, n uint32) {
	last := len(a.chunks) - 1
	if last < 0 || len(a.chunks[last])+len(s) > cap(a.chunks[last]) {
		a.chunks = append(a.chunks, make([]byte, 0, max(arenaChunk, len(s))))
		last++
	}
	c := a.chunks[last]
	off := len(c)
	a.chunks[last] = append(c, s...)
	return uint64(last)<<32 | uint64(off), uint32(len(s))
}

func (a *arena) str(ref uint64, n uint32) string {
	if n == 0 {
		return ""
	}
	c := a.chunks[ref>>32]
	off := uint32(ref)
	return unsafe.String(&c[off], int(n))
}
