package bitpack

import "testing"

func TestBits(t *testing.T) {
	// Bits come from the low end of each byte; a multi-byte value is
	// assembled most significant part first.
	r := New([]byte{0xb5, 0x01, 0x02, 0x41, 0x42, 0xff})
	if v := r.Bits(1); v != 1 {
		t.Errorf("first bit %d", v)
	}
	if v := r.Bits(2); v != 2 { // 0xb5>>1 = 0x5a, low 2 bits = 2
		t.Errorf("next 2 bits %d", v)
	}
	if v := r.Bits(5); v != 0x16 { // 0xb5>>3 = 0x16
		t.Errorf("next 5 bits %#x", v)
	}
	if v := r.Bits(16); v != 0x0102 {
		t.Errorf("16 bits %#x", v)
	}
	if b := r.AlignedBytes(2); string(b) != "AB" {
		t.Errorf("aligned %q", b)
	}
	if v := r.Bits(4); v != 0xf {
		t.Errorf("4 bits %#x", v)
	}
	r.ByteAlign()
	if !r.Done() {
		t.Error("not done")
	}
	r.Bits(1)
	if r.Err() == nil {
		t.Error("read past the end gave no error")
	}
}

func TestCrossByte(t *testing.T) {
	// 3 bits then 10 bits spanning two bytes: the 5 bits left of byte 0 are
	// the high part, 5 bits of byte 1 the low part.
	r := New([]byte{0xf8, 0x1f})
	r.Bits(3)
	if v := r.Bits(10); v != 0x3ff {
		t.Errorf("%#x, want 0x3ff", v)
	}
	r = New([]byte{0x08, 0x01})
	r.Bits(3)
	if v := r.Bits(10); v != 1<<5|1 {
		t.Errorf("%#x, want 0x21", v)
	}
}

func TestBlobAndInt(t *testing.T) {
	// an 11-bit length of 2 (8 high bits from the first byte, 3 low bits
	// from the next), then "hi" on the next byte boundary, then 2^31 as a
	// 32-bit int with offset -2^31
	r := New([]byte{0x00, 0x02, 'h', 'i', 0x80, 0x00, 0x00, 0x00})
	if b := r.Blob(11); string(b) != "hi" {
		t.Errorf("blob %q", b)
	}
	if v := r.Int(-2147483648, 32); v != 0 {
		t.Errorf("int %d, want 0 (offset -2^31 + 2^31)", v)
	}
	r = New([]byte{0x05, 0xff})
	if b := r.Blob(8); b != nil || r.Err() == nil {
		t.Error("blob past the end accepted")
	}
}

// TestReadSkipAgree reads and skips the same bytes with a table that has
// every kind: both must stop at the same bit.
func TestReadSkipAgree(t *testing.T) {
	tab := Table{
		0: {Kind: KInt, Offset: 0, Bits: 3},
		1: {Kind: KBlob, Offset: 0, Bits: 4},
		2: {Kind: KBool},
		3: {Kind: KArray, Offset: 0, Bits: 2, Elem: 0},
		4: {Kind: KOptional, Elem: 1},
		5: {Kind: KChoice, Offset: 0, Bits: 2, Fields: []Field{{Name: "a", Type: 0}, {Name: "b", Type: 6}, {Type: -1}, {Name: "r", Type: 10}}},
		6: {Kind: KNull},
		7: {Kind: KBitArray, Offset: 0, Bits: 4},
		8: {Kind: KFourCC},
		9: {Kind: KStruct, Fields: []Field{{Name: "i", Type: 0}, {Name: "arr", Type: 3}, {Name: "opt", Type: 4}, {Name: "c", Type: 5},
			{Name: "bits", Type: 7}, {Name: "cc", Type: 8}, {Name: "b", Type: 2}}},
		10: {Kind: KReal32},
	}
	data := []byte{0xa5, 0x3c, 0x7e, 0x01, 'x', 'y', 0x99, 0x42, 0x13, 0x37, 0x11, 0xff, 0x00, 0x80}
	// with fixed sizes worked out, Skip passes fixed-size values at once
	ext := append(append(Table(nil), tab...), Type{Kind: KArray, Offset: 3, Elem: 0}, Type{Kind: KStruct, Fields: []Field{{Name: "f", Type: 11}, {Name: "s", Type: 9}}})
	prepared := append(Table(nil), ext...)
	prepared.Prepare()
	if prepared[11].FixedBits != 10 || prepared[9].FixedBits != 0 || prepared[0].FixedBits != 4 {
		t.Errorf("fixed sizes %d %d %d, want 9+1, variable, 3+1", prepared[11].FixedBits, prepared[9].FixedBits, prepared[0].FixedBits)
	}
	for n := 0; n <= len(data); n++ {
		a, b, c := New(data[:n]), New(data[:n]), New(data[:n])
		dec := Decoder{Tab: prepared}
		v := dec.Read(a, 12)
		b.Skip(ext, 12)
		c.Skip(prepared, 12)
		if (a.Err() == nil) != (c.Err() == nil) || a.Pos() != c.Pos() || a.nextBits != c.nextBits {
			t.Errorf("%d bytes: read at %d/%d (%v), prepared skip at %d/%d (%v)", n, a.Pos(), a.nextBits, a.Err(), c.Pos(), c.nextBits, c.Err())
		}
		if a.Err() == nil {
			v = v.Fields[1]
		}
		if (a.Err() == nil) != (b.Err() == nil) || a.Pos() != b.Pos() || a.nextBits != b.nextBits {
			t.Errorf("%d bytes: read at %d/%d (%v), skip at %d/%d (%v)", n, a.Pos(), a.nextBits, a.Err(), b.Pos(), b.nextBits, b.Err())
		}
		if a.Err() == nil && len(v.Fields) != 7 {
			t.Errorf("%d bytes: %d fields", n, len(v.Fields))
		}
	}
}

// TestBitArrayIsOneRead: a bit array is the number one read of its length
// gives (Bits for up to 64 bits), from any bit of a byte; reading the same
// bits in other pieces gives another number when they start inside a byte.
func TestBitArrayIsOneRead(t *testing.T) {
	data := []byte{0xa5, 0x3c, 0x7e, 0x01, 0x99, 0x42, 0x13, 0x37, 0x11, 0xff, 0x00, 0x80}
	for skip := uint(0); skip < 8; skip++ {
		for n := 1; n <= 64; n++ {
			a, b := New(data), New(data)
			a.Bits(skip)
			b.Bits(skip)
			want := a.Bits(uint(n))
			got := b.BitArray(n)
			var v uint64
			for _, c := range got {
				v = v<<8 | uint64(c)
			}
			if v != want || len(got) != (n+7)/8 || a.Pos() != b.Pos() {
				t.Fatalf("skip %d, %d bits: bit array %x, one read %x", skip, n, v, want)
			}
		}
	}
	a, b := New([]byte{0x5f, 0xa0}), New([]byte{0x5f, 0xa0})
	a.Bits(4)
	b.Bits(4)
	one := a.Bits(11)
	hi := b.Bits(3)
	lo := b.Bits(8)
	if one == hi<<8|lo {
		t.Errorf("11 bits read at once (%#x) equal 3 then 8 (%#x): the test bytes show nothing", one, hi<<8|lo)
	}
}
