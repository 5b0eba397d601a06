package ubjson

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// dec decodes with the default budget of an input of its size.
func dec(b []byte, base int64) (Value, int, error) {
	return Decode(b, base, budget.New(int64(len(b)), model.Limits{}))
}

// The cases follow the UBJSON Draft 12 spec's examples.

func TestScalars(t *testing.T) {
	cases := []struct {
		in   string
		kind Kind
		i    int64
		f    float64
		s    string
		b    bool
	}{
		{"Z", Null, 0, 0, "", false},
		{"T", Bool, 0, 0, "", true},
		{"F", Bool, 0, 0, "", false},
		{"i\xff", Int, -1, 0, "", false},
		{"U\xff", Int, 255, 0, "", false},
		{"I\x01\x00", Int, 256, 0, "", false},
		{"I\xff\xfe", Int, -2, 0, "", false},
		{"l\x00\x01\x00\x00", Int, 65536, 0, "", false},
		{"l\xff\xff\xff\x85", Int, -123, 0, "", false},
		{"L\x00\x00\x00\x01\x00\x00\x00\x00", Int, 1 << 32, 0, "", false},
		{"d\x3f\xc0\x00\x00", Float, 0, 1.5, "", false},
		{"D\x40\x09\x21\xfb\x54\x44\x2d\x18", Float, 0, math.Pi, "", false},
		{"Ca", Char, 0, 0, "a", false},
		{"SU\x05hello", String, 0, 0, "hello", false},
		{"Si\x00", String, 0, 0, "", false},
		{"HU\x041.25", HighPrecision, 0, 0, "1.25", false},
		{"NNU\x07", Int, 7, 0, "", false}, // leading no-ops are skipped
	}
	for _, c := range cases {
		v, n, err := dec([]byte(c.in), 100)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if n != len(c.in) || v.Kind != c.kind || v.Int != c.i || v.Float != c.f || v.Str != c.s || v.Bool != c.b {
			t.Errorf("%q: got %+v (%d bytes)", c.in, v, n)
		}
		if v.Off+v.Len != 100+int64(len(c.in)) {
			t.Errorf("%q: span %d+%d", c.in, v.Off, v.Len)
		}
	}
}

func TestContainers(t *testing.T) {
	// {"a": [1, "x"], "b": {"c": T}} in the plain form
	in := []byte("{U\x01a[U\x01SU\x01x]U\x01b{U\x01cT}}")
	v, n, err := dec(in, 0)
	if err != nil || n != len(in) {
		t.Fatalf("%v, %d of %d", err, n, len(in))
	}
	a, ok := v.Get("a")
	if !ok || a.Kind != Array || len(a.Items) != 2 || a.Items[0].Int != 1 || a.Items[1].Str != "x" {
		t.Fatalf("a = %+v", a)
	}
	b, _ := v.Get("b")
	c, ok := b.Get("c")
	if !ok || !c.Bool {
		t.Fatalf("b.c = %+v", c)
	}
	if v.KeyOffs[1] != 12 {
		t.Errorf("key b at %d", v.KeyOffs[1])
	}
	// optimized: counted, typed, and the uint8 array kept as bytes
	in = []byte("{#U\x02U\x01x[#U\x02U\x01U\x02U\x01y[$U#U\x03\x01\x02\x03}")
	v, _, err = dec(in[:len(in)-1], 0)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := v.Get("x")
	y, _ := v.Get("y")
	if len(x.Items) != 2 || x.Items[1].Int != 2 || y.Kind != Bytes || !bytes.Equal(y.Raw, []byte{1, 2, 3}) {
		t.Fatalf("x=%+v y=%+v", x, y)
	}
	// typed object
	v, _, err = dec([]byte("{$i#U\x02U\x01a\x05U\x01b\xfb"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := v.Get("a"); a.Int != 5 {
		t.Errorf("a = %d", a.Int)
	}
	if b, _ := v.Get("b"); b.Int != -5 {
		t.Errorf("b = %d", b.Int)
	}
	if f, ok := v.Get("a"); !ok {
		t.Error("no a")
	} else if n, ok := f.Number(); !ok || n != 5 {
		t.Error("Number")
	}
}

func TestLength(t *testing.T) {
	n, used, err := DecodeLength([]byte("U\x08metadata"), 0)
	if err != nil || n != 8 || used != 2 {
		t.Fatalf("%d %d %v", n, used, err)
	}
	if _, _, err := DecodeLength([]byte("i\xff"), 0); err == nil {
		t.Error("negative length accepted")
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		in  string
		off int64
	}{
		{"", 0},
		{"thisisfakeubjson\n", 0}, // go-slippi's invalid-ubjson.ubj
		{"SU\x09short", 3},
		{"[U\x01", 3},
		{"{U\x01a", 4},
		{"[#l\x7f\xff\xff\xff", 7},   // count far beyond the data
		{"[$Z#l\x00\x10\x00\x01", 9}, // more zero-size elements than the budget pays for
		{"[$U", 3},                   // a type without a count
		{"{U\x01aX}", 4},             // unknown marker
		{"d\x00\x00", 1},             // short float
		{"l\x00", 1},                 // short int
		{"{$U#U\x01U\x01a", 9},       // typed member missing
	}
	for _, c := range cases {
		_, _, err := dec([]byte(c.in), 0)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: err %v", c.in, err)
			continue
		}
		if e.Off != c.off {
			t.Errorf("%q: error at %d, want %d (%v)", c.in, e.Off, c.off, e)
		}
	}
	// nesting is limited
	deep := bytes.Repeat([]byte("["), MaxDepth+5)
	if _, _, err := dec(deep, 0); err == nil {
		t.Error("deep nesting accepted")
	}
}

func FuzzUBJSON(f *testing.F) {
	for _, s := range []string{"{U\x01a[U\x01SU\x01x]U\x01b{U\x01cT}}", "[$U#U\x03\x01\x02\x03", "{$i#U\x02U\x01a\x05U\x01b\xfb",
		"{U\x07startAtSU\x142018-06-22T07:52:59ZU\x09lastFramel\x00\x00\x13\xddU\x07players{U\x010{U\x0acharacters{U\x0218l\x00\x00\x14\x59}}}}",
		"HU\x041.25", "D\x40\x09\x21\xfb\x54\x44\x2d\x18"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, n, err := dec(b, 0)
		if n < 0 || n > len(b) {
			t.Fatalf("used %d of %d", n, len(b))
		}
		var e *Error
		if err != nil && (!errors.As(err, &e) || e.Off < 0 || e.Off > int64(len(b))) {
			t.Fatalf("error %v: not an Error at an offset inside the %d bytes", err, len(b))
		}
		if err == nil && v.Off+v.Len != int64(n) {
			t.Fatalf("span %d+%d, used %d", v.Off, v.Len, n)
		}
	})
}
