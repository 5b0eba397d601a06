package library

import (
	"cmp"
	"hash/crc32"
	"os"
	"slices"
)

// An aggregation reads the heads of a million summaries (outcomes and
// stats, summary.go) and nothing else of them. headBatch reads those of a
// batch of rows at once: the ones in the index file that lie together (a
// folder's, scanned together) through one mapping of the file, each head
// copied out and checked against its CRC, the moments around them never
// read. A read of each whole summary copied four times the bytes out of
// the page cache, and that was most of a warm stats --by.
type headBatch struct {
	reads []blobRead
	spots []headSpot // per row
	buf   []byte     // the heads read, one after another
	blob  []byte     // scratch: a summary in the store's memory, or a span read
}

// headSpot is where a row's head is in the batch's buf: at and n, or
// noBlob (the row has no summary) or blobDamaged (it could not be read).
type headSpot struct{ at, n int }

const (
	noBlob      = -1
	blobDamaged = -2
)

// blobRead is a summary blob in the index file that a batch reads.
type blobRead struct {
	row int    // the batch's row
	ref uint64 // the file (its generation) and where the blob's CRC is
	n   uint32 // the blob's length
}

// maxSpan bounds what one mapping of the index file covers, and
// denseSpan is the most bytes a blob of a mapped span may take on
// average: summaries scattered further apart (rows in another order than
// the file's, the browser's by date) cost a mapping, a page fault and an
// unmapping each, where a read of the head alone is one system call.
const (
	maxSpan   = 4 << 20
	denseSpan = 16 << 10
)

// headGuess is how much of a blob a read of its head alone takes at
// first: most heads are a few hundred bytes.
const headGuess = 1 << 10

// reset starts a batch of rows rows.
func (hb *headBatch) reset(rows int) {
	hb.reads, hb.buf = hb.reads[:0], hb.buf[:0]
	hb.spots = slices.Grow(hb.spots[:0], rows)[:rows]
	for i := range hb.spots {
		hb.spots[i] = headSpot{noBlob, 0}
	}
}

// note notes where row's summary is: in the store's memory (its head
// taken at once) or in the index file x (read with its neighbours by
// read). The caller holds the store's read lock.
func (hb *headBatch) note(s *Store, x *Index, r *rowRec, row int) {
	ref, ok := s.sumRef(r)
	if !ok {
		return
	}
	if ref&sumInArena != 0 || x == nil || x.s != s {
		blob, ok := s.summaryBlob(r, &hb.blob)
		if !ok {
			hb.spots[row].at = blobDamaged
			return
		}
		hb.take(row, blob)
		return
	}
	hb.reads = append(hb.reads, blobRead{row, ref, s.x(r).sumLen})
}

// take copies the head of row's blob into buf, if it is whole and its CRC
// holds.
func (hb *headBatch) take(row int, blob []byte) {
	hb.spots[row].at = blobDamaged
	at, n, crc, ok := headAt(blob[:min(len(blob), maxHeadPrefix)])
	if !ok || n > len(blob)-at {
		return
	}
	p := len(hb.buf)
	hb.buf = append(hb.buf, blob[at:at+n]...)
	if crc32.Checksum(hb.buf[p:], castagnoli) != crc {
		hb.buf = hb.buf[:p]
		return
	}
	hb.spots[row] = headSpot{p, n}
}

// read reads the heads note left to the index file x: each span of blobs
// that lie together through one mapping (or one read, where the file
// cannot be mapped). The caller holds the store's read lock.
func (hb *headBatch) read(x *Index) {
	reads := hb.reads
	slices.SortFunc(reads, func(a, b blobRead) int { return cmp.Compare(a.ref, b.ref) })
	for len(reads) > 0 {
		gen := reads[0].ref >> 40
		start := int64(reads[0].ref & (1<<40 - 1))
		end := start + 4 + int64(reads[0].n)
		k := 1
		for ; k < len(reads); k++ {
			off := int64(reads[k].ref & (1<<40 - 1))
			next := off + 4 + int64(reads[k].n)
			if reads[k].ref>>40 != gen || next-start > maxSpan {
				break
			}
			end = max(end, next)
		}
		span := reads[:k]
		reads = reads[k:]
		for _, rd := range span {
			hb.spots[rd.row].at = blobDamaged
		}
		if gen >= uint64(len(x.files)) || x.files[gen] == nil {
			continue
		}
		f := x.files[gen]
		sumReads.Add(int64(len(span)))
		took := func(b []byte) {
			for _, rd := range span {
				off := int(int64(rd.ref&(1<<40-1)) - start)
				hb.take(rd.row, b[off+4:off+4+int(rd.n)])
			}
		}
		if len(span) < 4 || end-start > int64(len(span))*denseSpan {
			for _, rd := range span {
				hb.readHead(f, rd)
			}
			continue
		}
		if mapRange(f, start, end-start, took) {
			continue
		}
		// not mapped (or cut short under the mapping): read
		hb.blob = slices.Grow(hb.blob[:0], int(end-start))[:end-start]
		if _, err := f.ReadAt(hb.blob, start); err == nil {
			took(hb.blob)
		}
	}
}

// readHead reads the head of one blob from f, alone: its start, and the
// rest of the head when it is longer than the guess.
func (hb *headBatch) readHead(f *os.File, rd blobRead) {
	off := int64(rd.ref&(1<<40-1)) + 4 // past the blob's CRC
	n := min(int(rd.n), headGuess)
	hb.blob = slices.Grow(hb.blob[:0], n)[:n]
	if _, err := f.ReadAt(hb.blob, off); err != nil {
		return
	}
	at, hn, _, ok := headAt(hb.blob[:min(n, maxHeadPrefix)])
	if !ok || hn > int(rd.n)-at {
		return
	}
	if at+hn > n {
		hb.blob = slices.Grow(hb.blob, at+hn-n)[:at+hn]
		if _, err := f.ReadAt(hb.blob[n:], off+int64(n)); err != nil {
			return
		}
	}
	hb.take(rd.row, hb.blob[:at+hn])
}

// head is row's head, and whether it has one that could be read: false
// with damaged set when it has one that could not.
func (hb *headBatch) head(row int) (head []byte, ok, damaged bool) {
	sp := hb.spots[row]
	switch sp.at {
	case noBlob:
		return nil, false, false
	case blobDamaged:
		return nil, false, true
	}
	return hb.buf[sp.at : sp.at+sp.n], true, false
}

// ReadStats reads rows' headers and their summaries' outcomes and stats
// (the heads, without moments) a batch at a time, and calls fn with each
// in order: i is its place in ids. The header (without its path: a
// million paths are a million allocations) and its summary (nil when the
// row has none, or it cannot be read) are in the reader's memory and the
// summary's strings are views of the bytes read: both are good only
// during fn, which copies what it keeps (an aggregate.List). x is the
// index the store is (Index.Store), whose file the summaries are read
// from; nil for a store of its own. An aggregate view of a million rows
// reads them this way, a stretch on each core.
func (s *Store) ReadStats(x *Index, ids []RowID, fn func(i int, h *Header)) {
	const batch = 256
	var hb headBatch
	var room summaryRoom
	rows := make([]viewRow, batch)
	for lo := 0; lo < len(ids); lo += batch {
		part := ids[lo:min(lo+batch, len(ids))]
		hb.reset(len(part))
		s.mu.RLock()
		for k, id := range part {
			r, vr := s.rec(id), &rows[k]
			s.fillHeader(r, &vr.h, "", vr.players, &vr.check)
			if cap(vr.h.Players) > cap(vr.players) {
				vr.players = vr.h.Players[:0]
			}
			hb.note(s, x, r, k)
		}
		if x != nil && x.s == s {
			hb.read(x)
		}
		s.mu.RUnlock()
		for k := range part {
			h := &rows[k].h
			if head, ok, _ := hb.head(k); ok {
				h.Summary, _ = room.head(head) // nil when it does not decode
			}
			fn(lo+k, h)
		}
	}
}
