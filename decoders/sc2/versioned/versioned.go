// Package versioned reads Blizzard's self-describing "versioned" encoding
// used by the SC2 replay header, replay.details and replay.tracker.events.
// Every value starts with a tag byte:
//
//	0 array (vint count, values)     5 struct (vint count, then vint field tag and value)
//	1 bit array (vint bits, bytes)   6 u8
//	2 blob (vint length, bytes)      7 u32 (4 bytes)
//	3 choice (vint tag, value)       8 u64 (8 bytes)
//	4 optional (u8 present, value)   9 vint: 7 bits a byte, low first, sign in bit 0
//
// Values keep their offsets so that a decoder can give each field its span.
package versioned

import (
	"fmt"
	"unsafe"

	"rewind/decoders/internal/budget"
)

// Kind is a value's tag.
type Kind byte

const (
	Array    Kind = 0
	BitArray Kind = 1
	Blob     Kind = 2
	Choice   Kind = 3
	Optional Kind = 4
	Struct   Kind = 5
	U8       Kind = 6
	U32      Kind = 7
	U64      Kind = 8
	Int      Kind = 9
)

var kindNames = [...]string{"array", "bit array", "blob", "choice", "optional", "struct", "u8", "u32", "u64", "int"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("tag %d", byte(k))
}

// Value is one decoded value. Int holds the number of Int, U8, U32, U64
// and Choice (its tag) values, the count of bit arrays, and 0/1 for
// Optional. Bytes holds blobs and bit arrays (sharing the input), and the
// raw bytes of U32/U64. Items holds array members, the optional's value
// and the choice's value. Fields holds struct members.
type Value struct {
	Kind   Kind
	Int    int64
	Bytes  []byte
	Items  []Value
	Fields []Field
	Off    int // offset of the tag byte
	End    int // offset just past the value
}

// Field is a struct member with its numeric tag.
type Field struct {
	Tag int64
	Val Value
}

// Get returns the struct member with the tag.
func (v *Value) Get(tag int64) (*Value, bool) {
	if v == nil {
		return nil, false
	}
	for i := range v.Fields {
		if v.Fields[i].Tag == tag {
			return &v.Fields[i].Val, true
		}
	}
	return nil, false
}

// IntOf returns the integer of a struct member, looking through an
// optional; ok is false when missing or absent.
func (v *Value) IntOf(tag int64) (int64, bool) {
	f, ok := v.Get(tag)
	if !ok {
		return 0, false
	}
	if f.Kind == Optional {
		if len(f.Items) == 0 {
			return 0, false
		}
		f = &f.Items[0]
	}
	switch f.Kind {
	case Int, U8, Choice:
		return f.Int, true
	case U32, U64:
		return f.Int, true
	}
	return 0, false
}

// BytesOf returns the blob of a struct member (through an optional).
func (v *Value) BytesOf(tag int64) ([]byte, bool) {
	f, ok := v.Get(tag)
	if !ok {
		return nil, false
	}
	if f.Kind == Optional {
		if len(f.Items) == 0 {
			return nil, false
		}
		f = &f.Items[0]
	}
	if f.Kind != Blob {
		return nil, false
	}
	return f.Bytes, true
}

// Error is a decoding failure at an offset in the stream.
type Error struct {
	Off int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("at %#x: %s", e.Off, e.Msg) }

// MaxDepth bounds nesting so that crafted input cannot exhaust the stack.
const MaxDepth = 32

// Decoder reads values one after another from a stream.
type Decoder struct {
	data []byte
	pos  int
	err  *Error

	// Budget, when set, pays for the members of arrays and structs before
	// they are allocated; What names the stream in its refusals.
	Budget *budget.Budget
	What   string

	// With an arena, member slices are carved from reused chunks: values
	// stay valid until the next ResetArena. Stream readers that consume
	// each event at once use it to avoid allocating per value.
	arena  bool
	items  []Value
	fields []Field
}

// UseArena makes the decoder reuse memory between ResetArena calls.
func (d *Decoder) UseArena() { d.arena = true }

// ResetArena lets the next values reuse the memory of the previous ones,
// which must no longer be used.
func (d *Decoder) ResetArena() {
	d.items = d.items[:0]
	d.fields = d.fields[:0]
}

const (
	valueSize = int64(unsafe.Sizeof(Value{}))
	fieldSize = int64(unsafe.Sizeof(Field{}))
)

// pay asks the budget for count members of size bytes; false (and the
// decoder stopped with the refusal) when it cannot pay.
func (d *Decoder) pay(what string, count int, size int64) bool {
	if d.Budget == nil {
		return true
	}
	if err := d.Budget.Items(d.What+": "+what, int64(count), size); err != nil {
		d.fail(d.pos, "%v", err)
		return false
	}
	return true
}

func (d *Decoder) newItems(n int) []Value {
	if !d.arena {
		if !d.pay("array items", n, valueSize) {
			return nil
		}
		return make([]Value, 0, n)
	}
	if cap(d.items)-len(d.items) < n {
		// chunks grow with use, to 1024 values, so that a short stream
		// does not pay for a long one's
		c := max(n, min(1024, 2*cap(d.items)), 32)
		if !d.pay("array items", c, valueSize) {
			return nil
		}
		d.items = make([]Value, 0, c)
	}
	l := len(d.items)
	d.items = d.items[:l+n]
	return d.items[l : l : l+n]
}

func (d *Decoder) newFields(n int) []Field {
	if !d.arena {
		if !d.pay("struct members", n, fieldSize) {
			return nil
		}
		return make([]Field, 0, n)
	}
	if cap(d.fields)-len(d.fields) < n {
		c := max(n, min(1024, 2*cap(d.fields)), 32)
		if !d.pay("struct members", c, fieldSize) {
			return nil
		}
		d.fields = make([]Field, 0, c)
	}
	l := len(d.fields)
	d.fields = d.fields[:l+n]
	return d.fields[l : l : l+n]
}

// NewDecoder starts at the beginning of data.
func NewDecoder(data []byte) *Decoder { return &Decoder{data: data} }

// Reset starts the decoder over at the beginning of data, keeping its
// arena (which the values read before must no longer use) and budget.
func (d *Decoder) Reset(data []byte) {
	d.data, d.pos, d.err = data, 0, nil
	d.ResetArena()
}

// Pos is the offset of the next value.
func (d *Decoder) Pos() int { return d.pos }

// Done reports whether the stream is used up.
func (d *Decoder) Done() bool { return d.pos >= len(d.data) }

// Err is the first error.
func (d *Decoder) Err() error {
	if d.err == nil {
		return nil
	}
	return d.err
}

func (d *Decoder) fail(off int, format string, args ...any) {
	if d.err == nil {
		d.err = &Error{Off: off, Msg: fmt.Sprintf(format, args...)}
	}
	d.pos = len(d.data)
}

func (d *Decoder) byte1() byte {
	if d.pos >= len(d.data) {
		d.fail(d.pos, "stream ends inside a value")
		return 0
	}
	b := d.data[d.pos]
	d.pos++
	return b
}

// vint reads the variable-length integer: the low bit of the first byte is
// the sign, the high bit of every byte says another follows.
func (d *Decoder) vint() int64 {
	start := d.pos
	b := d.byte1()
	neg := b&1 != 0
	v := uint64(b>>1) & 0x3f
	shift := uint(6)
	for b&0x80 != 0 && d.err == nil {
		b = d.byte1()
		if shift > 63 {
			d.fail(start, "variable-length integer longer than 64 bits")
			return 0
		}
		v |= uint64(b&0x7f) << shift
		shift += 7
	}
	if neg {
		return -int64(v)
	}
	return int64(v)
}

// Value reads the next value.
func (d *Decoder) Value() (Value, error) {
	v := d.value(0)
	return v, d.Err()
}

// count reads a vint count and checks that at least min*count bytes are left.
func (d *Decoder) count(what string, min int) int {
	at := d.pos
	n := d.vint()
	if d.err != nil {
		return 0
	}
	left := int64(len(d.data) - d.pos)
	if n < 0 || (min > 0 && n > left/int64(min)) || (min == 0 && n > left*8+8) {
		d.fail(at, "%s count %d is more than the %d bytes left can hold", what, n, left)
		return 0
	}
	return int(n)
}

func (d *Decoder) take(n int) []byte {
	if n < 0 || n > len(d.data)-d.pos {
		d.fail(d.pos, "wanted %d bytes, %d left", n, len(d.data)-d.pos)
		return nil
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b
}

func (d *Decoder) value(depth int) Value {
	v := Value{Off: d.pos}
	if depth > MaxDepth {
		d.fail(d.pos, "values nested deeper than %d", MaxDepth)
		return v
	}
	v.Kind = Kind(d.byte1())
	if d.err != nil {
		return v
	}
	switch v.Kind {
	case Array:
		n := d.count("array", 1)
		if n > 0 {
			v.Items = d.newItems(n)
		}
		for i := 0; i < n && d.err == nil; i++ {
			v.Items = append(v.Items, d.value(depth+1))
		}
	case BitArray:
		n := d.count("bit array", 0)
		v.Int = int64(n)
		v.Bytes = d.take((n + 7) / 8)
	case Blob:
		n := d.count("blob", 0)
		v.Bytes = d.take(n)
	case Choice:
		v.Int = d.vint()
		c := d.value(depth + 1)
		v.Items = append(d.newItems(1), c)
	case Optional:
		if d.byte1() != 0 {
			v.Int = 1
			c := d.value(depth + 1)
			v.Items = append(d.newItems(1), c)
		}
	case Struct:
		n := d.count("struct", 2)
		if n > 0 {
			v.Fields = d.newFields(n)
		}
		for i := 0; i < n && d.err == nil; i++ {
			tag := d.vint()
			v.Fields = append(v.Fields, Field{Tag: tag, Val: d.value(depth + 1)})
		}
	case U8:
		v.Int = int64(d.byte1())
	case U32:
		v.Bytes = d.take(4)
		for _, c := range v.Bytes {
			v.Int = v.Int<<8 | int64(c)
		}
	case U64:
		v.Bytes = d.take(8)
		for _, c := range v.Bytes {
			v.Int = v.Int<<8 | int64(c)
		}
	case Int:
		v.Int = d.vint()
	default:
		d.fail(v.Off, "unknown tag %d (expected 0-9)", byte(v.Kind))
	}
	v.End = d.pos
	return v
}

// Decode reads one value from the start of data.
func Decode(data []byte) (Value, error) {
	return NewDecoder(data).Value()
}
