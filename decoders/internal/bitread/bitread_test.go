package bitread

import (
	"errors"
	"math"
	"testing"
)

// naive reads one bit at a time, straight from the definition: stream bit k
// is bit k&7 (from the LSB) of byte k>>3, and the first bit read is the
// field's most significant.
func naive(data []byte, pos int64, n int) uint64 {
	var v uint64
	for j := 0; j < n; j++ {
		k := pos + int64(j)
		bit := uint64(data[k>>3]>>(k&7)) & 1
		v = v<<1 | bit
	}
	return v
}

func TestBits(t *testing.T) {
	tests := []struct {
		name   string
		data   []byte
		widths []int
		want   []uint64
	}{
		// The spec's example: the GCI bits 111001 are the value 100111.
		{"spec reversal", []byte{0b00_100111}, []int{6}, []uint64{0b111001}},
		{"byte is reversed", []byte{0x01, 0x80}, []int{8, 8}, []uint64{0x80, 0x01}},
		{"single bits LSB first", []byte{0b0000_0101}, []int{1, 1, 1, 1}, []uint64{1, 0, 1, 0}},
		{"field across bytes", []byte{0xF0, 0x0F}, []int{4, 8, 4}, []uint64{0, 0xFF, 0}},
		{"zero width", []byte{0xFF}, []int{0, 8, 0}, []uint64{0, 0xFF, 0}},
		{"64 bits", []byte{1, 0, 0, 0, 0, 0, 0, 0x80}, []int{64}, []uint64{1<<63 | 1}},
		{"64 bits unaligned", []byte{0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, []int{1, 64, 7}, []uint64{0, math.MaxUint64, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := New(tc.data, 0)
			for i, w := range tc.widths {
				if got := r.Bits(w); got != tc.want[i] {
					t.Errorf("field %d (%d bits) = %#x, want %#x", i, w, got, tc.want[i])
				}
			}
			if r.Err() != nil {
				t.Errorf("unexpected error %v", r.Err())
			}
		})
	}
}

func TestShortReadIsSticky(t *testing.T) {
	r := New([]byte{0xFF, 0xFF}, 0x20A0)
	r.Bits(12)
	if v := r.Bits(8); v != 0 {
		t.Errorf("short read returned %#x, want 0", v)
	}
	var se *ShortError
	if !errors.As(r.Err(), &se) {
		t.Fatalf("Err = %v, want *ShortError", r.Err())
	}
	if se.Bit != 12 || se.Want != 8 || se.Have != 4 || se.Off() != 0x20A1 {
		t.Errorf("ShortError = %+v (off %#x), want bit 12, want 8, have 4, off 0x20a1", se, se.Off())
	}
	// a later read that would fit still fails and the first error stays
	r.Bits(1)
	if r.Short() != se || !r.Failed() || r.Remaining() != 0 {
		t.Errorf("error not sticky: %v, remaining %d", r.Err(), r.Remaining())
	}
	if b := New([]byte{1, 2}, 0).Bytes(3); b != nil {
		t.Errorf("Bytes past the end = %v, want nil", b)
	}
	if New(nil, 0).Bits(65); true {
		r := New(make([]byte, 16), 0)
		r.Bits(65)
		if !r.Failed() {
			t.Error("65-bit read did not fail")
		}
	}
}

func TestSpanAndOffset(t *testing.T) {
	r := New(make([]byte, 8), 0x20A0)
	tests := []struct {
		from, to    int64
		off, length int64
	}{
		{0, 8, 0x20A0, 1},
		{0, 1, 0x20A0, 1},
		{7, 9, 0x20A0, 2},
		{8, 8, 0x20A1, 1},
		{12, 40, 0x20A1, 4},
		// never past the 8 bytes of the stream
		{64, 64, 0x20A8, 0},
		{60, 80, 0x20A7, 1},
		{100, 120, 0x20A8, 0},
	}
	for _, tc := range tests {
		off, n := r.Span(tc.from, tc.to)
		if off != tc.off || n != tc.length {
			t.Errorf("Span(%d,%d) = %#x+%d, want %#x+%d", tc.from, tc.to, off, n, tc.off, tc.length)
		}
	}
	r.Skip(13)
	if r.Pos() != 13 || r.Offset() != 0x20A1 || r.Remaining() != 51 {
		t.Errorf("after Skip(13): pos %d offset %#x remaining %d", r.Pos(), r.Offset(), r.Remaining())
	}
}

func TestBytesAndFloat(t *testing.T) {
	// 1.0f is 0x3F800000; written MSB first into the LSB-first stream each
	// byte appears bit-reversed: 0x3F -> 0xFC, 0x80 -> 0x01.
	r := New([]byte{0xFC, 0x01, 0, 0, 0x80, 0x40}, 0)
	if f := r.F32(); f != 1.0 {
		t.Errorf("F32 = %v, want 1", f)
	}
	if b := r.Bytes(2); len(b) != 2 || b[0] != 0x01 || b[1] != 0x02 {
		t.Errorf("aligned Bytes = % x, want 01 02", b)
	}
	r = New([]byte{0x01, 0x02, 0x04}, 0)
	r.Bits(4)
	if b := r.Bytes(2); naive([]byte{0x01, 0x02, 0x04}, 4, 8) != uint64(b[0]) || naive([]byte{0x01, 0x02, 0x04}, 12, 8) != uint64(b[1]) {
		t.Errorf("unaligned Bytes = % x", b)
	}
}

// FuzzBitread checks every read against the one-bit-at-a-time definition.
func FuzzBitread(f *testing.F) {
	f.Add([]byte{0x89, 0xd0, 0x44, 0xd2, 0xe6, 0x47, 0x73, 0xea, 0x02}, []byte{8, 7, 6, 32, 32, 5})
	f.Add([]byte{0xFF}, []byte{64})
	f.Add([]byte{}, []byte{1})
	f.Fuzz(func(t *testing.T, data []byte, widths []byte) {
		r := New(data, 0)
		pos := int64(0)
		for _, w := range widths {
			n := int(w % 66) // include 65, which must fail
			before := r.Failed()
			got := r.Bits(n)
			fits := n <= 64 && pos+int64(n) <= int64(len(data))*8
			switch {
			case before:
				if got != 0 || !r.Failed() {
					t.Fatalf("read after failure gave %#x", got)
				}
			case fits:
				if want := naive(data, pos, n); got != want {
					t.Fatalf("Bits(%d) at %d = %#x, want %#x", n, pos, got, want)
				}
				pos += int64(n)
				if r.Pos() != pos {
					t.Fatalf("Pos = %d, want %d", r.Pos(), pos)
				}
			default:
				if got != 0 || !r.Failed() || r.Remaining() != 0 {
					t.Fatalf("short read Bits(%d) at %d gave %#x, failed %v", n, pos, got, r.Failed())
				}
				if r.Short().Bit != pos {
					t.Fatalf("ShortError.Bit = %d, want %d", r.Short().Bit, pos)
				}
			}
		}
	})
}

func BenchmarkBits(b *testing.B) {
	data := make([]byte, 1<<16)
	for i := range data {
		data[i] = byte(i * 7)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := New(data, 0)
		for r.Remaining() >= 56 {
			r.Bits(8)
			r.Bits(8)
			r.Bits(7)
			r.Bits(7)
			r.Bits(8)
			r.Bits(8)
			r.Bits(8)
		}
	}
}

// Unaligned runs of bytes, long enough for the seven-at-a-time path, match
// the bit-by-bit reading.
func TestBytesUnalignedRuns(t *testing.T) {
	data := make([]byte, 64)
	for i := range data {
		data[i] = byte(i*37 + 11)
	}
	for off := int64(1); off < 8; off++ {
		for _, n := range []int{7, 8, 13, 14, 20, 50} {
			r := New(data, 0)
			r.Skip(off)
			b := r.Bytes(n)
			for k := range b {
				if want := naive(data, off+int64(8*k), 8); uint64(b[k]) != want {
					t.Fatalf("offset %d, %d bytes: byte %d = %#x, want %#x", off, n, k, b[k], want)
				}
			}
			if r.Pos() != off+int64(8*n) {
				t.Fatalf("offset %d, %d bytes: at bit %d", off, n, r.Pos())
			}
		}
	}
}
