package library

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"path/filepath"
	"strings"
	"unsafe"
)

// The index stores rows as compact binary records in blocks: varints,
// strings written once per block and referred to by number, in a fixed
// order. They are written and read only here; a change of layout changes
// indexMagic so old files are rebuilt.

type enc struct{ b []byte }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }

var errCorrupt = errors.New("corrupt record")

type dec struct {
	b   []byte
	err error
}

func (d *dec) uint() uint64 {
	// most numbers of a record (string numbers, flags, counts) take a
	// byte or two: read them here, a million rows' index notices
	if len(d.b) >= 2 {
		if b0 := d.b[0]; b0 < 0x80 {
			d.b = d.b[1:]
			return uint64(b0)
		} else if b1 := d.b[1]; b1 < 0x80 {
			d.b = d.b[2:]
			return uint64(b0&0x7f) | uint64(b1)<<7
		}
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int reads a zigzag varint, as binary.Varint does, through uint's
// shortcuts.
func (d *dec) int() int64 {
	u := d.uint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// small is a count or length that must fit in what is left of the record.
func (d *dec) small() int {
	v := d.uint()
	if v > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(v)
}

// ref reads a number into table (a blob's string table) and gives that
// string; a number past the table fails the record.
func (d *dec) ref(table []string) string {
	i := d.uint()
	if i >= uint64(len(table)) {
		d.fail()
		return ""
	}
	return table[i]
}

func (d *dec) str() string {
	n := d.small()
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *dec) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

// blockEnc gathers records for one block of the index file: each string
// once, in a table at the block's front, and records that refer to it.
type blockEnc struct {
	// strs numbers the store's string ids in the block (1-based), its
	// list in block order
	strs numbering[uint32]
	recs enc
	n    int
	// blobs are the records' summaries, each after its CRC, for the
	// summary block written before the records' block
	blobs []byte
	sums  []sumAt // the summaries in blobs, to point their rows at the file once written
}

// sumAt is a summary blob written in a block: its row, the ref the row
// had when it was encoded, and where its CRC and blob are in blobs.
type sumAt struct {
	id  RowID
	ref uint64
	off int
}

func (b *blockEnc) ref(id uint32) uint64 { return b.strs.ref(id) }

func (b *blockEnc) size() int { return len(b.recs.b) + 16*len(b.strs.list) + len(b.blobs) }

// Summaries are kept out of the records: a block of them (its length's
// top bit set) comes before the block of the records that refer to them,
// so opening the index reads the rows and steps over the summaries, which
// are read one at a time when asked for. Summaries of a million replays
// are gigabytes; their rows are a hundred megabytes. Each blob has its own
// CRC, checked when it is read, since the block's is never read whole.
const sumBlock = 1 << 31

// record flags
const (
	rPartial = 1 << iota
	rNotReplay
	rStart
	rCheck
	rCheckPartial
	rSum
)

// encodeRow appends one row's record. The caller holds the store's lock.
func (s *Store) encodeRow(b *blockEnc, id RowID, r *rowRec) {
	e := &b.recs
	d := &s.dirs[s.dirs[r.dir].abs]
	e.uint(b.ref(s.intern(d.text)))
	e.str(s.name(r))
	e.int(r.size)
	e.int(r.mtime)
	e.uint(uint64(r.kind))
	var flags uint64
	for _, f := range [...]struct{ row, rec uint64 }{{fPartial, rPartial}, {fNotReplay, rNotReplay}, {fStart, rStart}, {fCheck, rCheck}, {fCheckPartial, rCheckPartial}} {
		if uint64(r.flags)&f.row != 0 {
			flags |= f.rec
		}
	}
	blob, hasSum := s.summaryBlob(r, nil)
	if hasSum {
		flags |= rSum
	}
	e.uint(flags)
	f := s.fmtOf(r)
	e.uint(b.ref(f.id))
	e.uint(b.ref(f.name))
	e.uint(b.ref(f.version))
	if flags&rStart != 0 {
		e.int(r.startSec)
		e.uint(uint64(r.startNsec))
		e.int(int64(f.zone))
	}
	e.uint(b.ref(r.title))
	e.uint(b.ref(r.mode))
	x := s.x(r)
	e.int(r.dur)
	e.int(int64(r.frames))
	e.b = binary.LittleEndian.AppendUint64(e.b, f.rate)
	e.uint(b.ref(f.unit))
	e.int(x.clock)
	e.uint(b.ref(x.clockNm))
	e.uint(b.ref(r.result))
	ps := s.playerList(r)
	e.uint(uint64(len(ps)))
	for _, p := range ps {
		role := &s.roles.list[p.role]
		e.uint(b.ref(role.slot))
		e.uint(b.ref(p.name))
		e.uint(b.ref(p.code))
		e.uint(b.ref(role.char))
		e.uint(b.ref(role.team))
		e.uint(b.ref(role.result))
	}
	e.int(int64(x.problems))
	e.int(int64(x.notes))
	e.uint(b.ref(x.err))
	if flags&rCheck != 0 {
		e.int(int64(x.cProblems))
		e.int(int64(x.cNotes))
		e.uint(b.ref(x.cErr))
		e.uint(b.ref(x.cFirst))
	}
	if hasSum {
		e.uint(uint64(len(blob)))
		e.uint(uint64(len(b.blobs)))
		e.uint(uint64(x.sumOuts))
		b.sums = append(b.sums, sumAt{id, x.sumRef, len(b.blobs)})
		b.blobs = binary.LittleEndian.AppendUint32(b.blobs, crc32.Checksum(blob, castagnoli))
		b.blobs = append(b.blobs, blob...)
	}
	b.n++
}

// frameBlock makes what the block adds to the file: the summary block,
// when there are summaries, then the records' block (its string table,
// then the records), each framed. blobsAt is where the summaries' block
// payload starts in it.
func (s *Store) frameBlock(b *blockEnc) (framed []byte, blobsAt int) {
	var e enc
	e.b = make([]byte, 0, len(b.recs.b)+32*len(b.strs.list)+16)
	e.uint(uint64(len(b.strs.list)))
	for _, id := range b.strs.list {
		e.str(s.strs[id])
	}
	e.b = append(e.b, b.recs.b...)
	if len(b.blobs) > 0 {
		framed = frame(framed, b.blobs, sumBlock)
		blobsAt = 8
	}
	return frame(framed, e.b, 0), blobsAt
}

// frame appends a framed payload to out: length (with flag), CRC, payload.
func frame(out, payload []byte, flag uint32) []byte {
	out = binary.LittleEndian.AppendUint32(out, uint32(len(payload))|flag)
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(payload, castagnoli))
	return append(out, payload...)
}

// loadBlock reads one block's payload into the store. gen is the file's
// number, and sumsAt and sumsLen the payload of the summary block before
// this one (0 for none), for the summaries left in the file. It returns
// the records read; an error means damage (the records before it are
// kept).
func (s *Store) loadBlock(p []byte, gen uint64, sumsAt, sumsLen int64) (int, error) {
	d := dec{b: p}
	n := d.small()
	if n > len(d.b) {
		return 0, errCorrupt
	}
	ids := make([]uint32, n+1)
	dirs := make([]uint32, n+1) // dir id + 1 by block string, found on first use
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 1; i <= n; i++ {
		l := d.small()
		if d.err != nil {
			return 0, d.err
		}
		ids[i] = s.internBytes(d.b[:l])
		d.b = d.b[l:]
	}
	str := func() uint32 {
		v := d.uint()
		if v > uint64(n) {
			d.fail()
			return 0
		}
		return ids[v]
	}
	// records are decoded a group at a time, the group's slots in the
	// rows' table read one after another, then the records put: a million
	// rows' table is far larger than the cache, and the misses of a group
	// overlap where, looked up as each record was decoded, they were each
	// waited for (about a quarter of loading an index)
	group := make([]loadedRec, 0, loadGroup)
	recs := 0
	put := func() {
		if len(s.table) > 0 {
			mask, seen := uint64(len(s.table)-1), uint64(0)
			for i := range group {
				seen ^= s.table[group[i].h&mask]
			}
			s.touched ^= seen
		}
		for i := range group {
			s.putLoaded(&group[i], gen)
		}
		recs += len(group)
		group = group[:0]
	}
	// damage keeps the records before it
	damaged := func(err error) (int, error) {
		put()
		return recs, err
	}
	for len(d.b) > 0 {
		v := d.uint()
		if v == 0 || v > uint64(n) || d.err != nil {
			return damaged(errCorrupt)
		}
		if dirs[v] == 0 {
			// a folder ends in a separator, or a row's path would not
			// split back into it and its name (nor find its row)
			text := s.strs[ids[v]]
			if _, rest := SplitPath(text); rest != "" {
				return damaged(errCorrupt)
			}
			dirs[v] = s.dirID(text) + 1
		}
		l := d.small()
		if d.err != nil {
			return damaged(d.err)
		}
		name := unsafe.String(unsafe.SliceData(d.b), l)
		d.b = d.b[l:]
		// no name, or one with a folder in it (IndexByte, not SplitPath:
		// a byte at a time through every name was a tenth of the load)
		if name == "" || strings.IndexByte(name, '/') >= 0 || strings.IndexByte(name, filepath.Separator) >= 0 {
			return damaged(errCorrupt)
		}
		group = group[:len(group)+1]
		g := &group[len(group)-1]
		*g = loadedRec{dir: dirs[v] - 1, name: name}
		g.abs = s.dirs[g.dir].abs
		g.h = s.hash(g.abs, name)
		r, x := &g.r, &g.x
		r.size, r.mtime = d.int(), d.int()
		r.kind = uint8(d.uint())
		flags := d.uint()
		g.sum = flags&rSum != 0
		f := &g.fmt
		f.id, f.name, f.version = str(), str(), str()
		if flags&rStart != 0 {
			r.startSec = d.int()
			r.startNsec = int32(d.uint())
			f.zone = int32(d.int())
		}
		r.title, r.mode = str(), str()
		r.dur = d.int()
		r.frames = int32(min(max(d.int(), 0), 1<<31-1))
		if len(d.b) < 8 {
			group = group[:len(group)-1]
			return damaged(errCorrupt)
		}
		f.rate = binary.LittleEndian.Uint64(d.b)
		d.b = d.b[8:]
		f.unit, x.clock, x.clockNm, r.result = str(), d.int(), str(), str()
		np := d.small()
		if np > len(d.b)/6 || np > maxPlayers || d.err != nil {
			group = group[:len(group)-1]
			return damaged(errCorrupt)
		}
		g.players = g.few[:0]
		if np > len(g.few) {
			g.players = make([]playerRec, 0, np)
		}
		for range np {
			slot, name, code, char, team, result := str(), str(), str(), str(), str(), str()
			g.players = append(g.players, s.player(slot, name, code, char, team, result))
		}
		x.problems, x.notes = int32(d.int()), int32(d.int())
		if x.err = str(); x.err != 0 {
			r.flags |= fErr
		}
		if flags&rCheck != 0 {
			x.cProblems, x.cNotes = int32(d.int()), int32(d.int())
			x.cErr, x.cFirst = str(), str()
		}
		if g.sum {
			blobLen, off, outs := d.uint(), d.uint(), d.uint()
			// the CRC and the blob lie inside the summary block
			if off > uint64(sumsLen) || blobLen > uint64(sumsLen)-off || uint64(sumsLen)-off-blobLen < 4 {
				group = group[:len(group)-1]
				return damaged(errCorrupt)
			}
			x.sumLen, g.sumOff, x.sumOuts = uint32(blobLen), sumsAt+int64(off), uint32(outs)
		}
		if d.err != nil || r.kind > uint8(Skipped) || r.startNsec < 0 || r.startNsec >= 1e9 || f.zone < -86400 || f.zone > 86400 {
			group = group[:len(group)-1]
			return damaged(errCorrupt)
		}
		for _, f := range [...]struct{ row, rec uint64 }{{fPartial, rPartial}, {fNotReplay, rNotReplay}, {fStart, rStart}, {fCheck, rCheck}, {fCheckPartial, rCheckPartial}} {
			if flags&f.rec != 0 {
				r.flags |= uint16(f.row)
			}
		}
		if len(group) == cap(group) {
			put()
		}
	}
	put()
	return recs, nil
}

// loadGroup is how many records loadBlock decodes before it puts them.
const loadGroup = 64

// loadedRec is a record loadBlock decoded and has yet to put.
type loadedRec struct {
	r        rowRec
	fmt      fmtRec // interned when put
	x        extRec
	dir, abs uint32
	name     string // in the block
	h        uint64 // the name's hash in the folder
	players  []playerRec
	few      [8]playerRec // players, when no more
	sum      bool         // a summary is in the file, at sumOff
	sumOff   int64
}

// putLoaded puts a decoded record in its row, a new one or the one of its
// path (a later record of a file supersedes the one before). gen is the
// number of the file the record is in.
func (s *Store) putLoaded(g *loadedRec, gen uint64) {
	id, ok := s.findHashed(g.abs, g.name, g.h)
	var row *rowRec
	var was [textKeyRoom]uint32
	var before []uint32
	if ok {
		row = s.rec(id)
		s.dropSum(row)
		before = s.textKey(row, was[:0])
	} else {
		id, row = s.addHashed(g.dir, g.name, g.h)
	}
	r := g.r
	r.fmt = s.fmts.id(g.fmt)
	r.dir, r.nameRef, r.nameLen, r.players, r.nPlayers, r.ext = row.dir, row.nameRef, row.nameLen, row.players, row.nPlayers, row.ext
	r.textRev = row.textRev
	*row = r
	copy(s.players(row, len(g.players)), g.players)
	if ok {
		s.textChanged(row, before)
	}
	x := g.x
	if g.sum {
		row.flags |= fSum
		x.sumRef = gen<<40 | uint64(g.sumOff)
	}
	s.setX(row, x)
}
