// Package bitpack reads the "bit-packed" encoding of SC2 replay.initData,
// replay.game.events and replay.message.events: values are runs of bits
// taken from the low end of each byte upwards, assembled most significant
// first, with no tags; blobs and events start on byte boundaries.
//
// Read as s2protocol's BitPackedBuffer reads it, an n-bit value is the
// rest of the current byte (its high bits, shifted down) followed by whole
// bytes and then the low bits of one more byte, most significant part
// first: on a byte boundary a 16-bit value is a big-endian integer.
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
	next     byte // remaining bits of the current byte, in its low bits
	nextBits uint
	err      *Error
}

// New starts a reader at the beginning of data.
func New(data []byte) *Reader { return &Reader{data: data} }

// Reset starts the reader over on data, keeping nothing of before.
func (r *Reader) Reset(data []byte) { *r = Reader{data: data} }

// Err is the first error.
func (r *Reader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Failed reports whether an error happened.
func (r *Reader) Failed() bool { return r.err != nil }

// Fail records an error at the current byte and stops the reader.
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

// BitsLeft is the number of bits not yet read.
func (r *Reader) BitsLeft() int { return int(r.nextBits) + 8*(len(r.data)-r.used) }

// ByteAlign drops the rest of the current byte.
func (r *Reader) ByteAlign() { r.nextBits = 0 }

// Bits reads n (at most 64) bits.
func (r *Reader) Bits(n uint) uint64 {
	if n <= r.nextBits {
		v := uint64(r.next) & (1<<n - 1)
		r.next >>= n
		r.nextBits -= n
		return v
	}
	if n > 64 {
		r.Fail("read of %d bits", n)
		return 0
	}
	rem := n - r.nextBits
	if int(rem+7)/8 > len(r.data)-r.used {
		r.Fail("stream ends: wanted %d more bits, %d left", n, r.BitsLeft())
		return 0
	}
	v := uint64(r.next) & (1<<r.nextBits - 1)
	for rem >= 8 {
		v = v<<8 | uint64(r.data[r.used])
		r.used++
		rem -= 8
	}
	if rem > 0 {
		b := r.data[r.used]
		r.used++
		v = v<<rem | uint64(b)&(1<<rem-1)
		r.next = b >> rem
		r.nextBits = 8 - rem
	} else {
		r.nextBits = 0
	}
	return v
}

// SkipBits passes n bits of any number.
func (r *Reader) SkipBits(n int64) {
	if n < 0 || n > int64(r.BitsLeft()) {
		r.Fail("wanted %d bits, %d left", n, r.BitsLeft())
		return
	}
	if n <= int64(r.nextBits) {
		r.next >>= uint(n)
		r.nextBits -= uint(n)
		return
	}
	n -= int64(r.nextBits)
	r.used += int(n / 8)
	r.nextBits = 0
	if k := uint(n % 8); k > 0 {
		b := r.data[r.used]
		r.used++
		r.next = b >> k
		r.nextBits = 8 - k
	}
}

// BitArray reads n bits as one number, as s2protocol reads a bit array,
// and returns it big-endian in (n+7)/8 bytes. The chunks Bits would take
// (the rest of the current byte, whole bytes, the low bits of one more)
// follow each other from the most significant end; reading the same bits
// in other pieces gives another number when the array starts inside a
// byte.
func (r *Reader) BitArray(n int) []byte {
	if n < 0 || n > r.BitsLeft() {
		r.Fail("bit array of %d bits, %d left", n, r.BitsLeft())
		return nil
	}
	out := make([]byte, (n+7)/8)
	pos := 8*len(out) - n // bit position in out of the next bit, from the top
	put := func(v uint64, w int) {
		for i := w - 1; i >= 0; i-- {
			if v>>uint(i)&1 != 0 {
				out[pos/8] |= 0x80 >> uint(pos%8)
			}
			pos++
		}
	}
	left := n
	if r.nextBits > 0 && left > 0 {
		c := min(left, int(r.nextBits))
		put(r.Bits(uint(c)), c)
		left -= c
	}
	for left >= 8 {
		put(r.Bits(8), 8)
		left -= 8
	}
	if left > 0 {
		put(r.Bits(uint(left)), left)
	}
	return out
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
	b := r.data[r.used : r.used+n : r.used+n]
	r.used += n
	return b
}

// Blob reads a length of n bits and then that many aligned bytes.
func (r *Reader) Blob(n uint) []byte {
	l := r.Bits(n)
	if r.err != nil {
		return nil
	}
	if l > uint64(len(r.data)) {
		r.Fail("blob of %d bytes, %d left", l, len(r.data)-r.used)
		return nil
	}
	return r.AlignedBytes(int(l))
}
