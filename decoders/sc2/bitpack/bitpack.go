// Package bitpack reads the "bit-packed" encoding of SC2 replay.initData,
// replay.game.events and replay.message.events: values are runs of bits
// taken from the low end of each byte upwards, assembled most significant
// first, with no tags; blobs and events start on byte boundaries.
package bitpack

import "fmt"

// Error is a read past the end or a bad value, at a byte offset.
type Error struct {
	Off int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("at %#x: %s", e.Off, e.Msg) }

// Reader reads bits from a byte slice. Reads after an error return zero.
type Reader struct {
	data     []byte
	used     int  // bytes consumed (the current byte counts as consumed)
	next     byte // remaining bits of the current byte
	nextBits uint
	err      *Error
}

// New starts a reader at the beginning of data.
func New(data []byte) *Reader { return &Reader{data: data} }

// Err is the first error.
func (r *Reader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Fail records an error at the current byte.
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = &Error{Off: r.Pos(), Msg: fmt.Sprintf(format, args...)}
	}
	r.used, r.nextBits = len(r.data), 0
}

// Done reports whether every bit has been read.
func (r *Reader) Done() bool { return r.nextBits == 0 && r.used >= len(r.data) }

// Pos is the offset of the byte holding the next bit.
func (r *Reader) Pos() int {
	if r.nextBits > 0 {
		return r.used - 1
	}
	return r.used
}

// ByteAlign drops the rest of the current byte.
func (r *Reader) ByteAlign() { r.nextBits = 0 }

// Bits reads n (at most 64) bits.
func (r *Reader) Bits(n uint) uint64 {
	if n > 64 {
		r.Fail("read of %d bits", n)
		return 0
	}
	var v uint64
	got := uint(0)
	for got < n {
		if r.nextBits == 0 {
			if r.used >= len(r.data) {
				r.Fail("stream ends: wanted %d more bits", n-got)
				return 0
			}
			r.next = r.data[r.used]
			r.used++
			r.nextBits = 8
		}
		c := n - got
		if c > r.nextBits {
			c = r.nextBits
		}
		part := uint64(r.next) & (1<<c - 1)
		v |= part << (n - got - c)
		r.next >>= c
		r.nextBits -= c
		got += c
	}
	return v
}

// Int reads an integer stored as offset + n bits.
func (r *Reader) Int(offset int64, n uint) int64 { return offset + int64(r.Bits(n)) }

// Bool reads one bit.
func (r *Reader) Bool() bool { return r.Bits(1) != 0 }

// AlignedBytes aligns to a byte and returns the next n bytes (sharing data).
func (r *Reader) AlignedBytes(n int) []byte {
	r.ByteAlign()
	if n < 0 || n > len(r.data)-r.used {
		r.Fail("wanted %d bytes, %d left", n, len(r.data)-r.used)
		return nil
	}
	b := r.data[r.used : r.used+n]
	r.used += n
	return b
}

// Blob reads a length of n bits and then that many aligned bytes.
func (r *Reader) Blob(n uint) []byte {
	l := r.Bits(n)
	if r.err != nil {
		return nil
	}
	return r.AlignedBytes(int(l))
}
