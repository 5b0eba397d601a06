// Package twint reads the Teeworlds variable-width integer and the
// NUL-terminated strings that the Teeworlds packer writes.
//
// An int takes one to five bytes. The first byte holds an extend bit (0x80),
// a sign bit (0x40) and the 6 lowest data bits; every following byte holds
// an extend bit and 7 more data bits. The fifth byte contributes only its
// low 4 bits and ends the number whatever its extend bit says, as DDNet's
// unpacker does. A negative number is stored as the bitwise NOT of its
// value, so -1 is the single byte 0x40.
package twint

import (
	"bytes"
	"errors"
)

// MaxLen is the longest encoding of an int.
const MaxLen = 5

// ErrShort is returned when the data ends inside a number or a string.
var ErrShort = errors.New("data ends inside the value")

// Int decodes the int at the start of b and returns it with the number of
// bytes it took. On ErrShort n is 0.
func Int(b []byte) (v int32, n int, err error) {
	if len(b) == 0 {
		return 0, 0, ErrShort
	}
	c := b[0]
	sign := c >> 6 & 1
	u := uint32(c & 0x3f)
	n = 1
	shift := uint(6)
	for i := 0; i < 4 && c&0x80 != 0; i++ {
		if n >= len(b) {
			return 0, 0, ErrShort
		}
		c = b[n]
		n++
		mask := byte(0x7f)
		if i == 3 {
			mask = 0x0f
		}
		u |= uint32(c&mask) << shift
		shift += 7
	}
	if sign != 0 {
		u = ^u
	}
	return int32(u), n, nil
}

// Append appends the encoding of v to dst, the way the Teeworlds packer
// writes it. Tests use it to build streams.
func Append(dst []byte, v int32) []byte {
	u := uint32(v)
	var first byte
	if v < 0 {
		first = 0x40
		u = ^u
	}
	first |= byte(u & 0x3f)
	u >>= 6
	if u == 0 {
		return append(dst, first)
	}
	dst = append(dst, first|0x80)
	for {
		c := byte(u & 0x7f)
		u >>= 7
		if u == 0 {
			return append(dst, c)
		}
		dst = append(dst, c|0x80)
	}
}

// String returns the bytes before the first NUL in b (without the NUL) and
// the number of bytes consumed including the NUL.
func String(b []byte) (s []byte, n int, err error) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return nil, 0, ErrShort
	}
	return b[:i], i + 1, nil
}

// Reader walks a byte slice of ints, strings and raw bytes. The first
// failure is sticky: later reads return zero values, so a caller can read a
// whole record and check Err once.
type Reader struct {
	B   []byte
	Pos int
	err error
	at  int // where the first failure happened
}

// NewReader returns a reader at the start of b.
func NewReader(b []byte) *Reader { return &Reader{B: b} }

// Err is the first failure, or nil.
func (r *Reader) Err() error { return r.err }

// ErrPos is the position of the first failure.
func (r *Reader) ErrPos() int { return r.at }

// Left is the number of unread bytes.
func (r *Reader) Left() int { return len(r.B) - r.Pos }

func (r *Reader) fail() {
	if r.err == nil {
		r.err = ErrShort
		r.at = r.Pos
	}
	r.Pos = len(r.B)
}

// Int reads one int.
func (r *Reader) Int() int32 {
	if r.err != nil {
		return 0
	}
	v, n, err := Int(r.B[r.Pos:])
	if err != nil {
		r.fail()
		return 0
	}
	r.Pos += n
	return v
}

// Str reads one NUL-terminated string.
func (r *Reader) Str() string {
	if r.err != nil {
		return ""
	}
	s, n, err := String(r.B[r.Pos:])
	if err != nil {
		r.fail()
		return ""
	}
	r.Pos += n
	return string(s)
}

// SkipStr passes over one NUL-terminated string without copying it.
func (r *Reader) SkipStr() {
	if r.err != nil {
		return
	}
	_, n, err := String(r.B[r.Pos:])
	if err != nil {
		r.fail()
		return
	}
	r.Pos += n
}

// Raw reads n bytes, checking n against what is left first. The result
// shares the underlying array.
func (r *Reader) Raw(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.B)-r.Pos {
		r.fail()
		return nil
	}
	b := r.B[r.Pos : r.Pos+n]
	r.Pos += n
	return b
}
