package mpq

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/dsnet/compress/bzip2"
)

// Compression bytes at the start of a compressed sector.
const (
	CompZlib  = 0x02
	CompBzip2 = 0x10
)

// decompress fills dst from one compressed sector (its compression byte
// first) and checks that the stream ends there, which also makes the
// decompressor verify its checksums. It never writes past dst, so the
// output is bounded by what the caller paid for. It returns the bytes
// written; on error they are the good start of the sector.
func decompress(dst, sec []byte) (n int, err error) {
	if len(sec) == 0 {
		return 0, errors.New("empty compressed sector")
	}
	switch sec[0] {
	case CompZlib:
		return inflate(dst, sec[1:])
	case CompBzip2:
		return unbzip2(dst, sec[1:])
	}
	return 0, fmt.Errorf("unsupported compression byte 0x%02x (expected 0x02 zlib or 0x10 bzip2)", sec[0])
}

// Decompressors are kept between uses: a bzip2 reader keeps its block
// buffers (up to about 6 MB for a 900k block) and a zlib reader its
// window, and SC2 archives hold many streams. Go's compress/bzip2 has no
// Reset, so each stream cost a fresh block buffer (59% of all bytes an SC2
// decode allocated); dsnet's bzip2 reader resets, and decodes about twice
// as fast (table-driven prefix codes), which is why it is used here.
//
// A free list, not a sync.Pool: the garbage collector empties a pool, and
// an SC2 decode runs the collector several times, so a pool lost its
// readers between decodes and the buffers were made again (9 MB a decode
// of a 240 KB replay). The list keeps one reader a core at most.
var (
	bzFree = newFreeList[bzReader]()
	zFree  = newFreeList[zReader]()
)

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

type zReader struct {
	src bytes.Reader
	r   io.ReadCloser // implements zlib.Resetter
}

func unbzip2(dst, src []byte) (n int, err error) {
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
		return 0, fmt.Errorf("bzip2: %w", err)
	}
	n, err = readExactly(z.r, dst, "bzip2")
	if err != nil {
		// Reset keeps the run-length stage's pending output (dsnet v0.0.1),
		// so a reader stopped before the end of its stream would hand the
		// rest of it to the next stream: only readers that reached the end
		// are kept.
		z.r = nil
	}
	return n, err
}

func inflate(dst, src []byte) (int, error) {
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
		return 0, fmt.Errorf("zlib: %w", err)
	}
	return readExactly(z.r, dst, "zlib")
}

// readExactly fills dst from r and then expects the end of the stream.
func readExactly(r io.Reader, dst []byte, method string) (int, error) {
	n, err := io.ReadFull(r, dst)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return n, fmt.Errorf("%s stream ends after %d of %d bytes", method, n, len(dst))
	case err != nil:
		return n, fmt.Errorf("%s: %w after %d of %d bytes", method, err, n, len(dst))
	}
	var one [1]byte
	m, err := r.Read(one[:])
	for i := 0; m == 0 && err == nil && i < 4; i++ {
		m, err = r.Read(one[:])
	}
	switch {
	case m > 0:
		return n, fmt.Errorf("%s stream holds more than the %d bytes declared", method, len(dst))
	case err == nil:
		return n, fmt.Errorf("%s stream does not end after the %d bytes declared", method, len(dst))
	case err != io.EOF:
		return n, fmt.Errorf("%s: %w at the end of the stream", method, err)
	}
	return n, nil
}
