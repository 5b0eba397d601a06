package twint

import (
	"bytes"
	"errors"
	"testing"
)

// Encodings from the teehistorian spec notes and DDNet's writer test
// vectors (ddnet_teehistorian_test_vectors.tsv).
func TestIntVectors(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		v    int32
	}{
		{"zero", []byte{0x00}, 0},
		{"one", []byte{0x01}, 1},
		{"FINISH -1", []byte{0x40}, -1},
		{"TICK_SKIP -2", []byte{0x41}, -2},
		{"EX -11", []byte{0x4a}, -11},
		{"63 one byte", []byte{0x3f}, 63},
		{"64 two bytes", []byte{0x80, 0x01}, 64},
		{"dt 499", []byte{0xb3, 0x07}, 499},
		{"ddnet version 13010", []byte{0x92, 0xcb, 0x01}, 13010},
		{"finish time 1000000", []byte{0x80, 0x89, 0x7a}, 1000000},
		{"team finish 1000", []byte{0xa8, 0x0f}, 1000},
		{"colour 65408", []byte{0x80, 0xfe, 0x07}, 65408},
		{"-64", []byte{0x7f}, -64},
		{"-65", []byte{0xc0, 0x01}, -65},
		{"max int32", []byte{0xbf, 0xff, 0xff, 0xff, 0x0f}, 2147483647},
		{"min int32", []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, -2147483648},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, n, err := Int(tt.b)
			if err != nil || v != tt.v || n != len(tt.b) {
				t.Fatalf("Int(% x) = %d, %d, %v; want %d, %d", tt.b, v, n, err, tt.v, len(tt.b))
			}
			if got := Append(nil, tt.v); !bytes.Equal(got, tt.b) {
				t.Fatalf("Append(%d) = % x, want % x", tt.v, got, tt.b)
			}
		})
	}
}

func TestIntFifthByteEnds(t *testing.T) {
	// The fifth byte ends the number even with its extend bit set, and
	// only its low 4 bits count.
	v, n, err := Int([]byte{0x80, 0x80, 0x80, 0x80, 0xff, 0x01})
	if err != nil || n != 5 || v != int32(0x0f<<27) {
		t.Fatalf("got %d, %d, %v", v, n, err)
	}
}

func TestIntShort(t *testing.T) {
	for _, b := range [][]byte{nil, {0x80}, {0xb3}, {0x80, 0x80, 0x80, 0x80}} {
		if _, n, err := Int(b); !errors.Is(err, ErrShort) || n != 0 {
			t.Errorf("Int(% x): n=%d err=%v, want ErrShort", b, n, err)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, v := range []int32{0, 1, -1, 63, -64, 64, -65, 8191, 8192, 1 << 20, -(1 << 20), 1<<31 - 1, -1 << 31} {
		b := Append(nil, v)
		got, n, err := Int(b)
		if err != nil || got != v || n != len(b) || n > MaxLen {
			t.Errorf("%d: % x -> %d, %d, %v", v, b, got, n, err)
		}
	}
}

func TestReader(t *testing.T) {
	b := []byte{0x4a, 'h', 'i', 0, 0x01, 0x02, 0xaa}
	r := NewReader(b)
	if v := r.Int(); v != -11 {
		t.Fatalf("Int = %d", v)
	}
	if s := r.Str(); s != "hi" {
		t.Fatalf("Str = %q", s)
	}
	if raw := r.Raw(2); !bytes.Equal(raw, []byte{1, 2}) {
		t.Fatalf("Raw = % x", raw)
	}
	if r.Err() != nil || r.Left() != 1 {
		t.Fatalf("err %v left %d", r.Err(), r.Left())
	}
	// 0xaa starts a two-byte int and the data ends: sticky failure.
	r.Int()
	if r.Err() == nil || r.ErrPos() != 6 {
		t.Fatalf("err %v at %d", r.Err(), r.ErrPos())
	}
	if r.Str() != "" || r.Raw(0) != nil {
		t.Fatal("reads after a failure must return zero values")
	}
	r2 := NewReader([]byte{1, 2})
	if r2.Raw(3) != nil || r2.Err() == nil {
		t.Fatal("Raw past the end must fail")
	}
	r3 := NewReader([]byte("abc"))
	if r3.Str() != "" || r3.Err() == nil {
		t.Fatal("unterminated string must fail")
	}
	r4 := NewReader([]byte("ab\x00\x00c"))
	r4.SkipStr()
	r4.SkipStr()
	if r4.Pos != 4 || r4.Err() != nil {
		t.Fatalf("two strings skipped: at %d, err %v; want 4, nil", r4.Pos, r4.Err())
	}
	r4.SkipStr()
	if r4.Err() == nil || r4.ErrPos() != 4 || r4.Pos != 5 {
		t.Fatal("skipping an unterminated string must fail where it starts")
	}
}

func FuzzInt(f *testing.F) {
	for _, s := range [][]byte{{0x40}, {0xb3, 0x07}, {0x80, 0x89, 0x7a}, {0xff, 0xff, 0xff, 0xff, 0xff}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, n, err := Int(b)
		if err != nil {
			return
		}
		if n < 1 || n > MaxLen || n > len(b) {
			t.Fatalf("n = %d for % x", n, b)
		}
		// Re-encoding gives the canonical form, which decodes to the same value.
		v2, _, err := Int(Append(nil, v))
		if err != nil || v2 != v {
			t.Fatalf("round trip of %d gave %d, %v", v, v2, err)
		}
	})
}
