// Package binread is a byte cursor that knows its offset. Decoders read
// fixed-width values through it; a read past the end returns zero values and
// leaves a sticky *ShortError that names the offset and how many bytes were
// wanted, so a decoder can read a whole record and check once.
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
	data  []byte
	off   int
	Base  int64
	order binary.ByteOrder
	err   *ShortError
}

// BE returns a big-endian reader over b.
func BE(b []byte) *Reader { return &Reader{data: b, order: binary.BigEndian} }

// LE returns a little-endian reader over b.
func LE(b []byte) *Reader { return &Reader{data: b, order: binary.LittleEndian} }

// Err is the first short read, or nil.
func (r *Reader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Failed reports whether a read has run short.
func (r *Reader) Failed() bool { return r.err != nil }

// ClearErr forgets a short read, for decoders that resynchronise.
func (r *Reader) ClearErr() { r.err = nil }

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

// take returns the next n bytes or records a short read.
func (r *Reader) take(n int) []byte {
	if n < 0 || n > len(r.data)-r.off {
		if r.err == nil {
			r.err = &ShortError{Off: r.Offset(), Want: n, Have: len(r.data) - r.off}
		}
		r.off = len(r.data)
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

// Has reports whether n more bytes are available, without reading.
func (r *Reader) Has(n int) bool { return n >= 0 && n <= len(r.data)-r.off }

// Skip moves forward n bytes.
func (r *Reader) Skip(n int) { r.take(n) }

// Bytes returns the next n bytes (sharing the underlying array), checking n
// against what is left before anything is allocated.
func (r *Reader) Bytes(n int) []byte { return r.take(n) }

// Peek returns the next byte without moving, and false at the end.
func (r *Reader) Peek() (byte, bool) {
	if r.off >= len(r.data) {
		return 0, false
	}
	return r.data[r.off], true
}

func (r *Reader) U8() uint8 {
	b := r.take(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *Reader) I8() int8 { return int8(r.U8()) }

func (r *Reader) Bool() bool { return r.U8() != 0 }

func (r *Reader) U16() uint16 {
	b := r.take(2)
	if b == nil {
		return 0
	}
	return r.order.Uint16(b)
}

func (r *Reader) I16() int16 { return int16(r.U16()) }

func (r *Reader) U32() uint32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return r.order.Uint32(b)
}

func (r *Reader) I32() int32 { return int32(r.U32()) }

func (r *Reader) U64() uint64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return r.order.Uint64(b)
}

func (r *Reader) I64() int64 { return int64(r.U64()) }

func (r *Reader) F32() float32 { return math.Float32frombits(r.U32()) }

func (r *Reader) F64() float64 { return math.Float64frombits(r.U64()) }
