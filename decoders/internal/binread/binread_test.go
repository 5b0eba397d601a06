package binread

import (
	"errors"
	"math"
	"testing"
)

func TestReadsBothOrders(t *testing.T) {
	data := []byte{0x01, 0x02, 0x03, 0x04, 0x3f, 0x80, 0x00, 0x00}
	be, le := BE(data), LE(data)
	if got := be.U16(); got != 0x0102 {
		t.Errorf("BE U16 = %#x", got)
	}
	if got := le.U16(); got != 0x0201 {
		t.Errorf("LE U16 = %#x", got)
	}
	if got := be.U16(); got != 0x0304 {
		t.Errorf("BE second U16 = %#x", got)
	}
	if got := be.F32(); got != 1 {
		t.Errorf("BE F32 = %v", got)
	}
	if be.Remaining() != 0 || be.Err() != nil {
		t.Errorf("remaining %d err %v", be.Remaining(), be.Err())
	}
	if got := BE([]byte{0xff}).I8(); got != -1 {
		t.Errorf("I8 = %d", got)
	}
	if got := LE([]byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}).F64(); got != 1 {
		t.Errorf("LE F64 = %v", got)
	}
	if got := BE([]byte{0x7f, 0x80, 0, 1}).F32(); !math.IsNaN(float64(got)) {
		t.Errorf("NaN bits must stay NaN, got %v", got)
	}
}

func TestShortReadIsStickyAndNamesTheOffset(t *testing.T) {
	r := BE([]byte{1, 2, 3})
	r.Base = 0x100
	r.U8()
	if v := r.U32(); v != 0 {
		t.Errorf("short U32 = %d, want 0", v)
	}
	var se *ShortError
	if !errors.As(r.Err(), &se) {
		t.Fatalf("Err = %v", r.Err())
	}
	if se.Off != 0x101 || se.Want != 4 || se.Have != 2 {
		t.Errorf("ShortError = %+v", se)
	}
	if got := r.Err().Error(); got != "at 0x101: wanted 4 bytes, 2 left" {
		t.Errorf("message %q", got)
	}
	// later reads keep the first error and return zero values
	r.U8()
	if !errors.As(r.Err(), &se) || se.Off != 0x101 {
		t.Errorf("error not sticky: %v", r.Err())
	}
	if r.Bytes(-1) != nil {
		t.Error("a negative length must not read")
	}
}

func TestBytesChecksLengthBeforeUse(t *testing.T) {
	r := LE(make([]byte, 10))
	if b := r.Bytes(1 << 40); b != nil || !r.Failed() {
		t.Fatal("a forged length must fail, not allocate or slice out of range")
	}
	r.ClearErr()
	r.Seek(4)
	if !r.Has(6) || r.Has(7) {
		t.Error("Has")
	}
	if b := r.Bytes(6); len(b) != 6 || r.Offset() != 10 {
		t.Errorf("Bytes(6) = %d bytes, offset %d", len(b), r.Offset())
	}
	if _, ok := r.Peek(); ok {
		t.Error("Peek at the end")
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, 3)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		r := LE(data)
		for r.Remaining() > 0 && !r.Failed() {
			before := r.Pos()
			switch n & 7 {
			case 0:
				r.U8()
			case 1:
				r.U16()
			case 2:
				r.U32()
			case 3:
				r.U64()
			case 4:
				r.Bytes(n >> 3)
			default:
				r.Skip(n % 5)
			}
			if r.Pos() < before || r.Pos() > len(data) {
				t.Fatalf("position %d outside 0..%d", r.Pos(), len(data))
			}
			n = n*31 + 7
			if n%5 == 0 && r.Pos() == before {
				break
			}
		}
	})
}
