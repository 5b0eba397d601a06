package versioned

import "testing"

// Hand-built values, including the spec's variable-length integer examples
// (0x02 -> 1? no: the spec's VLF puts the sign in bit 0 and shifts: 0x04 -> 2).
func TestVint(t *testing.T) {
	cases := []struct {
		in   []byte
		want int64
	}{
		{[]byte{9, 0x04}, 2},
		{[]byte{9, 0x18}, 12},
		{[]byte{9, 0x05}, -2},
		{[]byte{9, 0x83, 0x0c}, -0x301}, // the spec's worked example: -769
		{[]byte{9, 0x80, 0x01}, 64},
		{[]byte{9, 0x7e}, 63},
	}
	for _, c := range cases {
		v, err := Decode(c.in)
		if err != nil || v.Kind != Int || v.Int != c.want {
			t.Errorf("% x: %v %d %v, want %d", c.in, v.Kind, v.Int, err, c.want)
		}
	}
}

func TestKinds(t *testing.T) {
	// struct{0: blob "hi", 1: array[u8 1, u32 0x01020304], 2: optional(int 3), 3: choice 1 -> u8 7,
	// 4: optional absent, 5: bit array of 9 bits, 6: u64 1}
	in := []byte{5, 14,
		0, 2, 4, 'h', 'i',
		2, 0, 4, 6, 1, 7, 1, 2, 3, 4,
		4, 4, 1, 9, 6,
		6, 3, 2, 6, 7,
		8, 4, 0,
		10, 1, 18, 0xff, 0x01,
		12, 8, 0, 0, 0, 0, 0, 0, 0, 1,
	}
	v, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if v.Kind != Struct || len(v.Fields) != 7 || v.End != len(in) {
		t.Fatalf("got %v with %d fields end %d", v.Kind, len(v.Fields), v.End)
	}
	if b, ok := v.BytesOf(0); !ok || string(b) != "hi" {
		t.Errorf("blob %q", b)
	}
	a, _ := v.Get(1)
	if len(a.Items) != 2 || a.Items[0].Int != 1 || a.Items[1].Int != 0x01020304 {
		t.Errorf("array %+v", a.Items)
	}
	if n, ok := v.IntOf(2); !ok || n != 3 {
		t.Errorf("optional %d %v", n, ok)
	}
	c, _ := v.Get(3)
	if c.Kind != Choice || c.Int != 1 || c.Items[0].Int != 7 {
		t.Errorf("choice %+v", c)
	}
	if _, ok := v.IntOf(4); ok {
		t.Error("absent optional reads as present")
	}
	ba, _ := v.Get(5)
	if ba.Kind != BitArray || ba.Int != 9 || len(ba.Bytes) != 2 {
		t.Errorf("bit array %+v", ba)
	}
	if n, _ := v.IntOf(6); n != 1 {
		t.Errorf("u64 %d", n)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		off  int
	}{
		{"empty", nil, 0},
		{"unknown tag", []byte{10}, 0},
		{"blob past end", []byte{2, 20, 'a'}, 2},
		{"array count too big", []byte{0, 0x7e}, 1},
		{"vint cut", []byte{9, 0x80}, 2},
	}
	for _, c := range cases {
		_, err := Decode(c.in)
		e, ok := err.(*Error)
		if !ok || e.Off != c.off {
			t.Errorf("%s: %v, want error at %d", c.name, err, c.off)
		}
	}
	// deep nesting is refused, not a stack overflow
	deep := make([]byte, 0, 200)
	for i := 0; i < 100; i++ {
		deep = append(deep, 4, 1)
	}
	deep = append(deep, 6, 0)
	if _, err := Decode(deep); err == nil {
		t.Error("deep nesting accepted")
	}
}

func FuzzVersioned(f *testing.F) {
	f.Add([]byte{5, 2, 0, 2, 4, 'h', 'i'})
	f.Add([]byte{0, 4, 9, 2, 9, 4})
	f.Add([]byte{3, 2, 8, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder(data)
		for i := 0; i < 1000 && !d.Done(); i++ {
			v, err := d.Value()
			if err != nil {
				break
			}
			if v.End > len(data) || v.Off > v.End {
				t.Fatalf("bad offsets %d-%d of %d", v.Off, v.End, len(data))
			}
		}
	})
}
