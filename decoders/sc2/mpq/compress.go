package mpq

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dsnet/compress/bzip2"
)

// Compression bytes at the start of a compressed sector.
const (
	CompZlib  = 0x02
	CompBzip2 = 0x10
)

// decompress appends to out the size bytes one compressed sector (its
// compression byte first) holds, and checks that the stream ends there,
// which also makes the decompressor verify its checksums. It never appends
// more than size bytes, so the output is bounded by what the caller paid
// for; out grows as the stream yields (doubling, to at most limit bytes:
// the whole member's size), never by the claim alone. On error the bytes
// appended are the good start of the sector.
func decompress(out []byte, size, limit int, sec []byte) ([]byte, error) {
	return decompressAs(out, size, limit, sec, false)
}

// decompressAs is decompress; lean trades time for memory (Archive.Lean).
func decompressAs(out []byte, size, limit int, sec []byte, lean bool) ([]byte, error) {
	if len(sec) == 0 {
		return out, errors.New("empty compressed sector")
	}
	switch sec[0] {
	case CompZlib:
		return inflate(out, size, limit, sec[1:])
	case CompBzip2:
		return unbzip2As(out, size, limit, sec[1:], lean)
	}
	return out, fmt.Errorf("unsupported compression byte 0x%02x (expected 0x02 zlib or 0x10 bzip2)", sec[0])
}

// Decompressors are kept between uses: a bzip2 decoder keeps its block
// array (bzDecoder.tt, 3.6 MB at most, see Hold) and a zlib reader its
// window, and SC2 archives hold many streams. Go's compress/bzip2 has no
// Reset, so each stream cost a fresh block buffer (59% of all bytes an
// SC2 decode allocated); dsnet's bzip2 reader resets, and decodes about
// twice as fast as Go's (table-driven prefix codes). It now decodes only
// the sectors bzDecoder refuses (damaged ones), so that their errors stay
// its own.
//
// A free list, not a sync.Pool: the garbage collector empties a pool, and
// an SC2 decode runs the collector several times, so a pool lost its
// readers between decodes and the buffers were made again (9 MB a decode
// of a 240 KB replay). The list keeps one reader a core at most.
var (
	bzFree     = newFreeList[bzReader]()
	bzFastFree = newFreeList[bzFast]()
	zFree      = newFreeList[zReader]()
)

// Hold says a decode that reads archives is under way until release is
// called. A decode alone (none beside it, none started beside another in
// the last overlapGap) gives back a bzip2 block array outside the heap
// (see bzDecoder.lo) or of more than keptBlock entries as soon as its
// stream is done, and when it ends, those the free list kept: a one-file
// check has no use for a tracker stream's 2.25 MB array after the stream.
// Decodes that overlap (a check of a folder on all cores) keep their
// arrays for the next stream: giving them back cost a check of the corpus
// folder 3-5% more CPU, making them again.
func Hold() (release func()) {
	if holds.Add(1) > 1 {
		overlapAt.Store(time.Now().UnixNano())
	}
	return func() {
		if holds.Add(-1) == 0 && alone() {
			trimBlocks()
		}
	}
}

var (
	holds     atomic.Int32
	overlapAt atomic.Int64 // when a decode last started beside another (Unix ns)
)

const overlapGap = 200 * time.Millisecond

// alone reports whether at most one decode is under way and none started
// beside another lately.
func alone() bool {
	return holds.Load() <= 1 && time.Since(time.Unix(0, overlapAt.Load())) > overlapGap
}

// trimBlocks gives back the large block arrays of the idle bzip2
// decoders.
func trimBlocks() {
	for range cap(bzFastFree.c) {
		select {
		case f := <-bzFastFree.c:
			f.trim()
			defer putFast(f) // back when all were seen, not taken twice
		default:
			return
		}
	}
}

// trim gives back f's arrays outside the heap and those of more than
// keptBlock entries.
func (f *bzFast) trim() {
	if f.dec.large() {
		f.dec.release()
	}
	if cap(f.scratch) > keptBlock {
		f.scratch = nil
	}
}

// putFast returns f to the free list; one the list has no room for lets
// its block array go (a mapping is no garbage the collector frees).
func putFast(f *bzFast) {
	select {
	case bzFastFree.c <- f:
	default:
		f.dec.release()
	}
}

type freeList[T any] struct{ c chan *T }

func newFreeList[T any]() freeList[T] { return freeList[T]{make(chan *T, runtime.GOMAXPROCS(0))} }

func (f freeList[T]) get() *T {
	select {
	case x := <-f.c:
		return x
	default:
		return new(T)
	}
}

func (f freeList[T]) put(x *T) {
	select {
	case f.c <- x:
	default:
	}
}

type bzReader struct {
	src bytes.Reader
	r   *bzip2.Reader
}

// bzFast is a decoder of the streams every well-formed member holds (see
// bzDecoder), with the copy of a stream whose block-size digit was
// lowered.
type bzFast struct {
	dec     bzDecoder
	scratch []byte
}

// blockLevel is the bzip2 block-size digit (100k bytes a step) a stream of
// want output bytes needs: a block never holds more than 5/4 of its output
// (the first run-length stage grows a run of four by one byte).
func blockLevel(want int) byte { return byte(min(9, want*5/4/100000+1)) }

type zReader struct {
	src bytes.Reader
	r   io.ReadCloser // implements zlib.Resetter
}

// unbzip2 decodes a bzip2 sector: with bzDecoder, and when that does not
// take it whole, with dsnet's reader, whose outcome (the bytes and the
// error) is then the sector's.
func unbzip2(out []byte, size, limit int, src []byte) ([]byte, error) {
	return unbzip2As(out, size, limit, src, false)
}

// unbzip2As is unbzip2; lean trades time for memory (Archive.Lean).
func unbzip2As(out []byte, size, limit int, src []byte, lean bool) ([]byte, error) {
	f := bzFastFree.get()
	f.dec.lean = lean
	defer func() {
		if alone() {
			f.trim() // no other decode is under way to use it (see Hold)
		}
		putFast(f)
	}()
	// The decoders size their buffers (bzDecoder 4 bytes a byte of
	// block, dsnet 7) by the stream's block-size digit, which the
	// checksums do not cover: lowered to what the declared size needs, a
	// damaged stream of a small member fails within a small block instead
	// of filling 900k.
	if lvl := '0' + blockLevel(size); len(src) >= 4 && string(src[:3]) == "BZh" && src[3] > lvl && src[3] <= '9' {
		f.scratch = append(f.scratch[:0], src...)
		f.scratch[3] = lvl
		src = f.scratch
	}
	if res, ok := f.dec.decode(out, size, limit, src); ok {
		return res, nil
	}
	return unbzip2Dsnet(out, size, limit, src)
}

func unbzip2Dsnet(out []byte, size, limit int, src []byte) (_ []byte, err error) {
	z := bzFree.get()
	defer bzFree.put(z)
	// The library reports corrupt input by panics that it recovers
	// itself; anything else it might raise on hostile bytes is an error
	// of this sector, not of the program.
	defer func() {
		if p := recover(); p != nil {
			z.r = nil
			err = fmt.Errorf("bzip2 decoder failed: %v", p)
		}
	}()
	z.src.Reset(src)
	if z.r == nil {
		z.r, err = bzip2.NewReader(&z.src, nil)
	} else {
		err = z.r.Reset(&z.src)
	}
	if err != nil {
		z.r = nil
		return out, err // dsnet's errors start "bzip2: " already
	}
	out, err = readStream(z.r, out, size, limit, "bzip2")
	if err != nil {
		// Reset keeps the run-length stage's pending output (dsnet v0.0.1),
		// so a reader stopped before the end of its stream would hand the
		// rest of it to the next stream: only readers that reached the end
		// are kept.
		z.r = nil
	}
	return out, err
}

func inflate(out []byte, size, limit int, src []byte) ([]byte, error) {
	z := zFree.get()
	defer zFree.put(z)
	z.src.Reset(src)
	var err error
	if z.r == nil {
		z.r, err = zlib.NewReader(&z.src)
	} else {
		err = z.r.(zlib.Resetter).Reset(&z.src, nil)
	}
	if err != nil {
		z.r = nil // a reader whose header failed is not reused
		return out, fmt.Errorf("zlib: %w", err)
	}
	return readStream(z.r, out, size, limit, "zlib")
}

// readStream appends size bytes from r to out, growing out when it is full
// (doubling, to at most limit), then expects the end of the stream.
func readStream(r io.Reader, out []byte, size, limit int, method string) ([]byte, error) {
	start := len(out)
	end := start + size
	for stalled := 0; len(out) < end; {
		out = grow(out, 1, limit)
		n, err := r.Read(out[len(out):min(cap(out), end)])
		out = out[:len(out)+n]
		switch {
		case err == io.EOF && len(out) == end:
			return out, nil // the stream ends at its size
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return out, fmt.Errorf("%s stream ends after %d of %d bytes", method, len(out)-start, size)
		case err != nil && strings.HasPrefix(err.Error(), method+": "): // "bzip2: corrupted input"
			return out, fmt.Errorf("%w after %d of %d bytes", err, len(out)-start, size)
		case err != nil:
			return out, fmt.Errorf("%s: %w after %d of %d bytes", method, err, len(out)-start, size)
		case n == 0:
			if stalled++; stalled > 4 {
				return out, fmt.Errorf("%s stream stalls after %d of %d bytes", method, len(out)-start, size)
			}
		default:
			stalled = 0
		}
	}
	var one [1]byte
	m, err := r.Read(one[:])
	for i := 0; m == 0 && err == nil && i < 4; i++ {
		m, err = r.Read(one[:])
	}
	switch {
	case m > 0:
		return out, fmt.Errorf("%s stream holds more than the %d bytes declared", method, size)
	case err == nil:
		return out, fmt.Errorf("%s stream does not end after the %d bytes declared", method, size)
	case err != io.EOF:
		return out, fmt.Errorf("%s: %w at the end of the stream", method, err)
	}
	return out, nil
}

// grow makes room in out for n more bytes: doubling, by 64 KiB at least,
// never past limit unless n needs it.
func grow(out []byte, n, limit int) []byte {
	if cap(out)-len(out) >= n {
		return out
	}
	g := make([]byte, len(out), max(len(out)+n, min(limit, max(2*cap(out), len(out)+64<<10))))
	copy(g, out)
	return g
}
