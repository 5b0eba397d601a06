// Package binread is a byte cursor that knows its offset. Decoders read
// fixed-width values through it; a read past the end returns zero values and
// leaves a sticky *ShortError that names the offset and how many bytes were
// wanted, so a decoder can read a whole record and check once.
//
// The reads inline (the byte order is a flag, not an interface, and a short
// read records itself without a call), so a decoder's record loop costs
// what indexing the slice by hand costs.
package binread

import (
	"encoding/binary"
	"fmt"
	"math"
)

// ShortError is a read that ran past the end of the data.
type ShortError struct {
	Off  int64 // where the read started
	Want int   // bytes wanted
	Have int   // bytes that were left
}

func (e *ShortError) Error() string {
	return fmt.Sprintf("at %#x: wanted %d bytes, %d left", e.Off, e.Want, e.Have)
}

// Reader reads values from a byte slice. Base is added to offsets it
// reports, so a reader over a sub-slice still names file offsets.
type Reader struct {
	data []byte
	off  int
	Base int64
	big  bool
	// the first short read: at position shortAt, want bytes wanted
	failed        bool
	shortAt, want int
}

// BE returns a big-endian reader over b.
func BE(b []byte) *Reader { return &Reader{data: b, big: true} }

// LE returns a little-endian reader over b.
func LE(b []byte) *Reader { return &Reader{data: b} }

// Err is the first short read (a *ShortError), or nil.
func (r *Reader) Err() error {
	if !r.failed {
		return nil
	}
	return &ShortError{Off: r.Base + int64(r.shortAt), Want: r.want, Have: len(r.data) - r.shortAt}
}

// Failed reports whether a read has run short.
func (r *Reader) Failed() bool { return r.failed }

// ClearErr forgets a short read, for decoders that resynchronise.
func (r *Reader) ClearErr() { r.failed = false }

// Pos is the position within the data.
func (r *Reader) Pos() int { return r.off }

// Offset is the position plus Base: the file offset of the next byte.
func (r *Reader) Offset() int64 { return r.Base + int64(r.off) }

// Len is the size of the data.
func (r *Reader) Len() int { return len(r.data) }

// Remaining is the number of bytes left.
func (r *Reader) Remaining() int { return len(r.data) - r.off }

// Data is the whole underlying slice.
func (r *Reader) Data() []byte { return r.data }

// Seek moves to a position within the data, clamped to its bounds.
func (r *Reader) Seek(pos int) {
	if pos < 0 {
		pos = 0
	}
	if pos > len(r.data) {
		pos = len(r.data)
	}
	r.off = pos
}

// at returns the position of the next n bytes and moves past them, or
// records a short read (the first one sticks), moves to the end and
// returns -1.
func (r *Reader) at(n int) int {
	o := r.off
	if uint(n) <= uint(len(r.data)-o) {
		r.off = o + n
		return o
	}
	if !r.failed {
		r.failed, r.shortAt, r.want = true, o, n
	}
	r.off = len(r.data)
	return -1
}

// Has reports whether n more bytes are available, without reading.
func (r *Reader) Has(n int) bool { return n >= 0 && n <= len(r.data)-r.off }

// Skip moves forward n bytes.
func (r *Reader) Skip(n int) { r.at(n) }

// Bytes returns the next n bytes (sharing the underlying array), checking n
// against what is left before anything is allocated; nil on a short read.
func (r *Reader) Bytes(n int) []byte {
	o := r.at(n)
	if o < 0 {
		return nil
	}
	return r.data[o : o+n : o+n]
}

// Peek returns the next byte without moving, and false at the end.
func (r *Reader) Peek() (byte, bool) {
	if r.off >= len(r.data) {
		return 0, false
	}
	return r.data[r.off], true
}

// zeros stands in for the bytes of a short read of a fixed-width value.
var zeros [8]byte

// next returns the next n (at most 8) bytes, or zeros after recording a
// short read, so the value reads below need no branch of their own.
func (r *Reader) next(n int) []byte {
	if o := r.at(n); o >= 0 {
		return r.data[o : o+n]
	}
	return zeros[:n]
}

func (r *Reader) U8() uint8 { return r.next(1)[0] }

func (r *Reader) I8() int8 { return int8(r.U8()) }

func (r *Reader) Bool() bool { return r.U8() != 0 }

func (r *Reader) U16() uint16 {
	if b := r.next(2); r.big {
		return binary.BigEndian.Uint16(b)
	} else {
		return binary.LittleEndian.Uint16(b)
	}
}

func (r *Reader) I16() int16 { return int16(r.U16()) }

func (r *Reader) U32() uint32 {
	if b := r.next(4); r.big {
		return binary.BigEndian.Uint32(b)
	} else {
		return binary.LittleEndian.Uint32(b)
	}
}

func (r *Reader) I32() int32 { return int32(r.U32()) }

func (r *Reader) U64() uint64 {
	if b := r.next(8); r.big {
		return binary.BigEndian.Uint64(b)
	} else {
		return binary.LittleEndian.Uint64(b)
	}
}

func (r *Reader) I64() int64 { return int64(r.U64()) }

func (r *Reader) F32() float32 { return math.Float32frombits(r.U32()) }

func (r *Reader) F64() float64 { return math.Float64frombits(r.U64()) }
