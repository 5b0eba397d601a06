// Package bitread reads n-bit fields from a byte slice in the order F-Zero
// GX replays use: bit k of the stream is bit (k & 7), counted from the least
// significant bit, of byte k >> 3, and an n-bit field is filled from its most
// significant bit first (so the first bit read is the field's top bit).
//
// Like binread, a read past the end returns zero and leaves a sticky
// *ShortError naming the bit offset, so a decoder can read a whole record and
// check once. The reader keeps its bit offset so callers can turn any field
// into a byte span of the file.
package bitread

import (
	"fmt"
	"math"
	"math/bits"
)

// ShortError is a read that ran past the end of the data.
type ShortError struct {
	Base int64 // file offset of the stream's first byte
	Bit  int64 // stream bit offset where the read started
	Want int   // bits wanted
	Have int64 // bits that were left
}

// Off is the file offset of the byte holding the first missing bit.
func (e *ShortError) Off() int64 { return e.Base + e.Bit>>3 }

func (e *ShortError) Error() string {
	return fmt.Sprintf("at %#x bit %d: wanted %d bits, %d left", e.Off(), e.Bit&7, e.Want, e.Have)
}

// Reader reads bit fields from a byte slice. Base is the file offset of the
// slice's first byte, so spans name file offsets.
type Reader struct {
	data []byte
	pos  int64 // bit offset of the next read
	end  int64 // len(data)*8
	Base int64
	err  *ShortError
}

// New returns a reader over b whose first byte is at file offset base.
func New(b []byte, base int64) *Reader {
	return &Reader{data: b, end: int64(len(b)) * 8, Base: base}
}

// Err is the first short read, or nil.
func (r *Reader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Short is the first short read, or nil.
func (r *Reader) Short() *ShortError { return r.err }

// Failed reports whether a read has run short.
func (r *Reader) Failed() bool { return r.err != nil }

// Pos is the bit offset of the next read within the stream.
func (r *Reader) Pos() int64 { return r.pos }

// Len is the stream's size in bits.
func (r *Reader) Len() int64 { return r.end }

// Remaining is the number of bits left.
func (r *Reader) Remaining() int64 { return r.end - r.pos }

// Has reports whether n more bits are available, without reading.
func (r *Reader) Has(n int64) bool { return n >= 0 && n <= r.end-r.pos }

// Offset is the file offset of the byte holding the next bit.
func (r *Reader) Offset() int64 { return r.Base + r.pos>>3 }

// Span returns the file offset and length in bytes of the bits
// [from, to) of the stream: every byte that holds one of them (an empty
// range names the byte at from). It never reaches past the stream's end: a
// field that was cut short, or begins at the very end, covers only the
// bytes there are.
func (r *Reader) Span(from, to int64) (off, n int64) {
	if to < from {
		to = from
	}
	first := from >> 3
	last := (to + 7) >> 3
	if last == first {
		last = first + 1
	}
	end := (r.end + 7) >> 3
	first, last = min(max(first, 0), end), min(last, end)
	return r.Base + first, max(last-first, 0)
}

// SeekBit moves to a bit offset, clamped to the stream.
func (r *Reader) SeekBit(bit int64) {
	if bit < 0 {
		bit = 0
	}
	if bit > r.end {
		bit = r.end
	}
	r.pos = bit
}

// short records a read of n bits that does not fit and moves to the end.
func (r *Reader) short(n int) {
	if r.err == nil {
		r.err = &ShortError{Base: r.Base, Bit: r.pos, Want: n, Have: r.end - r.pos}
	}
	r.pos = r.end
}

// Skip moves forward n bits.
func (r *Reader) Skip(n int64) {
	if n < 0 || n > r.end-r.pos {
		r.short(int(min(n, math.MaxInt32)))
		return
	}
	r.pos += n
}

// Bits reads an n-bit field (0 <= n <= 64), its first bit the most
// significant.
func (r *Reader) Bits(n int) uint64 {
	if n < 0 || n > 64 {
		r.short(n)
		return 0
	}
	if int64(n) > r.end-r.pos {
		r.short(n)
		return 0
	}
	if n > 56 {
		// A 64-bit window holds at most 57 bits after the shift by the
		// bit offset; the first part read is the high part.
		hi := r.bits(n - 32)
		return hi<<32 | r.bits(32)
	}
	return r.bits(n)
}

// bits reads n <= 56 bits that are known to be there.
func (r *Reader) bits(n int) uint64 {
	if n == 0 {
		return 0
	}
	i := r.pos >> 3
	sh := uint(r.pos & 7)
	var w uint64
	if i+8 <= int64(len(r.data)) {
		b := r.data[i : i+8]
		w = uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
	} else {
		for k, c := range r.data[i:] {
			w |= uint64(c) << (8 * uint(k))
		}
	}
	// w holds the stream LSB first: stream bit pos+j is bit sh+j of w.
	v := (w >> sh) & (1<<uint(n) - 1)
	r.pos += int64(n)
	// The first stream bit is the field's most significant bit.
	return bits.Reverse64(v) >> (64 - uint(n))
}

// Int reads an n-bit field as an int64 (n <= 63), for counts and ids.
func (r *Reader) Int(n int) int64 { return int64(r.Bits(n)) }

// Bool reads one bit.
func (r *Reader) Bool() bool { return r.Bits(1) != 0 }

// U8 reads an 8-bit field.
func (r *Reader) U8() uint8 { return uint8(r.Bits(8)) }

// U16 reads a 16-bit field.
func (r *Reader) U16() uint16 { return uint16(r.Bits(16)) }

// U32 reads a 32-bit field.
func (r *Reader) U32() uint32 { return uint32(r.Bits(32)) }

// F32 reads a 32-bit field and reinterprets it as an IEEE 754 float.
func (r *Reader) F32() float32 { return math.Float32frombits(r.U32()) }

// Bytes reads n 8-bit fields into a new slice, checking that they are all
// there before allocating.
func (r *Reader) Bytes(n int) []byte {
	if n < 0 || int64(n)*8 > r.end-r.pos {
		r.short(int(min(int64(n)*8, math.MaxInt32)))
		return nil
	}
	out := make([]byte, n)
	if r.pos&7 == 0 {
		// Aligned: each field is its byte with the bits reversed.
		src := r.data[r.pos>>3 : r.pos>>3+int64(n)]
		for k, c := range src {
			out[k] = bits.Reverse8(c)
		}
		r.pos += int64(n) * 8
		return out
	}
	// Unaligned: seven fields per 56-bit read, the first the highest byte.
	k := 0
	for ; k+7 <= n; k += 7 {
		v := r.bits(56)
		for j := 0; j < 7; j++ {
			out[k+j] = uint8(v >> (48 - 8*j))
		}
	}
	for ; k < n; k++ {
		out[k] = uint8(r.bits(8))
	}
	return out
}
