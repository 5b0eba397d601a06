package bitpack

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"rewind/decoders/internal/budget"
)

// Type describes one bit-packed type of a build's protocol: what
// s2protocol calls a typeinfo. Types refer to each other by index in a
// Table.
type Type struct {
	Kind   Kind
	Offset int64 // for ints, blob/array/bit array lengths and choice tags
	Bits   uint
	Elem   int // array and optional element
	// Fields are a struct's members in stream order, or a choice's
	// alternatives indexed by tag (Type -1 where the tag has none).
	Fields []Field
	// FixedBits+1 is the type's size when every value of it takes the
	// same number of bits (0: it does not, or Prepare was not run). Skip
	// passes such a value in one step.
	FixedBits int
}

// Field is a named member of a struct or an alternative of a choice.
type Field struct {
	Name string
	Type int
	Tag  int64 // the member's tag in the versioned encoding
}

// Kind of a Type.
type Kind byte

const (
	KInt Kind = iota
	KBlob
	KBool
	KArray
	KOptional
	KStruct
	KChoice
	KBitArray
	KFourCC
	KNull
	KReal32
	KReal64
)

// Table is the list of types of one protocol.
type Table []Type

// Prepare works out which types have a fixed size (FixedBits), for Skip.
// The table must pass Check first.
func (t Table) Prepare() {
	state := make([]byte, len(t)) // 0 not seen, 1 working, 2 done
	var size func(i int) int      // bits, or -1
	size = func(i int) int {
		switch state[i] {
		case 1:
			return -1 // a type that contains itself has no fixed size
		case 2:
			return t[i].FixedBits - 1
		}
		state[i] = 1
		ty := &t[i]
		n := -1
		switch ty.Kind {
		case KInt:
			n = int(ty.Bits)
		case KBool:
			n = 1
		case KFourCC, KReal32:
			n = 32
		case KReal64:
			n = 64
		case KNull:
			n = 0
		case KStruct:
			n = 0
			for _, f := range ty.Fields {
				m := size(f.Type)
				if m < 0 {
					n = -1
					break
				}
				n += m
			}
		case KArray:
			// a count of no bits is a fixed count
			if ty.Bits == 0 && ty.Offset >= 0 && ty.Offset <= 1<<16 {
				if m := size(ty.Elem); m >= 0 {
					n = int(ty.Offset) * m
				}
			}
		}
		state[i] = 2
		ty.FixedBits = n + 1
		return n
	}
	for i := range t {
		size(i)
	}
}

// Check reports the first reference to a type outside the table.
func (t Table) Check() error {
	for i, ty := range t {
		refs := []int{}
		switch ty.Kind {
		case KArray, KOptional:
			refs = append(refs, ty.Elem)
		case KStruct:
			for _, f := range ty.Fields {
				refs = append(refs, f.Type)
			}
		case KChoice:
			for _, f := range ty.Fields {
				if f.Type != -1 {
					refs = append(refs, f.Type)
				}
			}
		}
		for _, r := range refs {
			if r < 0 || r >= len(t) {
				return fmt.Errorf("type %d refers to type %d of %d", i, r, len(t))
			}
		}
		if ty.Bits > 64 {
			return fmt.Errorf("type %d has %d bits", i, ty.Bits)
		}
	}
	return nil
}

// Value is a decoded value. Int holds ints, bools, choice tags and bit
// array lengths; Bytes blobs, fourccs and bit arrays (the array's value as
// one big-endian number of Int bits); Items array members and the value of
// an optional or choice; Fields struct members (Name from the table). Off
// and End are the byte offsets of the first and the last bit. Reals are in
// Real.
type Value struct {
	Kind   Kind
	Absent bool // an optional without a value
	Name   string
	Int    int64
	Real   float64
	Bytes  []byte
	Items  []Value
	Fields []Value
	Off    int
	End    int
}

// valueSize is what one Value costs the budget.
const valueSize = int64(unsafe.Sizeof(Value{}))

// Get returns the struct member with the name.
func (v *Value) Get(name string) (*Value, bool) {
	for i := range v.Fields {
		if v.Fields[i].Name == name {
			return &v.Fields[i], true
		}
	}
	return nil, false
}

// Deref is the value of an optional (nil when absent), the value itself
// for any other kind.
func (v *Value) Deref() *Value {
	if v == nil || v.Kind != KOptional {
		return v
	}
	if v.Absent || len(v.Items) == 0 {
		return nil
	}
	return &v.Items[0]
}

// IntOf is the integer of a member, through an optional.
func (v *Value) IntOf(name string) (int64, bool) {
	f, ok := v.Get(name)
	if !ok {
		return 0, false
	}
	if f = f.Deref(); f == nil {
		return 0, false
	}
	return f.Int, true
}

// BytesOf is the blob of a member, through an optional.
func (v *Value) BytesOf(name string) ([]byte, bool) {
	f, ok := v.Get(name)
	if !ok {
		return nil, false
	}
	if f = f.Deref(); f == nil {
		return nil, false
	}
	return f.Bytes, f.Bytes != nil
}

// Indices lists the set bits of a bit array, bit 0 being the least
// significant bit of its value: the indices a selection mask selects.
func (v *Value) Indices() []int {
	var out []int
	n := len(v.Bytes)
	for i := n - 1; i >= 0; i-- {
		for b := v.Bytes[i]; b != 0; b &= b - 1 {
			out = append(out, (n-1-i)*8+bits.TrailingZeros8(b))
		}
	}
	return out
}

// OnesCount is the number of set bits of a bit array.
func (v *Value) OnesCount() int {
	n := 0
	for _, b := range v.Bytes {
		n += bits.OnesCount8(b)
	}
	return n
}

// maxDepth bounds nesting: the tables nest a dozen deep at most.
const maxDepth = 32

// Decoder reads typed values; its budget pays for the values it builds.
type Decoder struct {
	Tab    Table
	Budget *budget.Budget // nil: values are bounded by the stream only
	What   string         // what the budget is told is paying ("replay.initData")

	// With an arena, the members of structs, arrays, optionals and
	// choices are carved from reused chunks: values stay valid until the
	// next ResetArena. A reader that is done with each value before it
	// reads the next (an event's summary) allocates nothing per value.
	arena bool
	vals  []Value
}

// UseArena makes the decoder reuse memory between ResetArena calls.
func (d *Decoder) UseArena() { d.arena = true }

// ResetArena lets the next values reuse the memory of the previous ones,
// which must no longer be used.
func (d *Decoder) ResetArena() { d.vals = d.vals[:0] }

// members is room for n values, to be appended to.
func (d *Decoder) members(n int) []Value {
	if !d.arena {
		return make([]Value, 0, n)
	}
	if cap(d.vals)-len(d.vals) < n {
		// a new chunk; values in the old one stay valid (the chunks
		// grow with use, to 256 values, so that a short read does not pay
		// for a long one's)
		d.vals = make([]Value, 0, max(n, min(256, 2*cap(d.vals)), 16))
	}
	l := len(d.vals)
	d.vals = d.vals[:l+n]
	return d.vals[l : l : l+n]
}

// Read decodes a value of type t from the reader.
func (d *Decoder) Read(r *Reader, t int) Value {
	return d.read(r, t, 0)
}

func (d *Decoder) read(r *Reader, t int, depth int) Value {
	var v Value
	d.readInto(r, t, depth, &v)
	return v
}

// readInto decodes into *v, overwriting all of it. Members are decoded in
// their place in the parent's slice, not returned and copied (a Value is
// 128 bytes, and copies at every level were a third of the work).
func (d *Decoder) readInto(r *Reader, t int, depth int, v *Value) {
	*v = Value{Off: r.Pos()}
	if t < 0 || t >= len(d.Tab) {
		r.Fail("type %d not in the table", t)
		return
	}
	if depth > maxDepth {
		r.Fail("types nested deeper than %d", maxDepth)
		return
	}
	ty := &d.Tab[t]
	v.Kind = ty.Kind
	switch ty.Kind {
	case KInt:
		v.Int = r.Int(ty.Offset, ty.Bits)
	case KBool:
		v.Int = int64(r.Bits(1))
	case KBlob:
		n := r.Int(ty.Offset, ty.Bits)
		if n < 0 || n > int64(len(r.data)) {
			r.Fail("blob of %d bytes, %d left", n, len(r.data)-r.used)
			break
		}
		v.Bytes = r.AlignedBytes(int(n))
	case KFourCC:
		b := make([]byte, 4)
		for i := range b {
			b[i] = byte(r.Bits(8))
		}
		v.Bytes = b
	case KReal32, KReal64:
		// s2protocol reads a real as big-endian bytes of 8 bits each
		var u uint64
		n := 4
		if ty.Kind == KReal64 {
			n = 8
		}
		for i := 0; i < n; i++ {
			u = u<<8 | r.Bits(8)
		}
		if n == 4 {
			v.Real = float64(math.Float32frombits(uint32(u)))
		} else {
			v.Real = math.Float64frombits(u)
		}
	case KBitArray:
		n := r.Int(ty.Offset, ty.Bits)
		v.Int = n
		if n < 0 || n > int64(r.BitsLeft()) {
			r.Fail("bit array of %d bits, %d left", n, r.BitsLeft())
			break
		}
		if !d.pay(r, "bit arrays", (n+7)/8) {
			break
		}
		v.Bytes = r.BitArray(int(n))
	case KArray:
		n := r.Int(ty.Offset, ty.Bits)
		if n < 0 || n > int64(r.BitsLeft())+1 {
			r.Fail("array of %d items, %d bits left", n, r.BitsLeft())
			break
		}
		if !d.payItems(r, "arrays", n) {
			break
		}
		v.Items = d.members(int(n))
		for i := int64(0); i < n && r.err == nil; i++ {
			v.Items = v.Items[:i+1]
			d.readInto(r, ty.Elem, depth+1, &v.Items[i])
		}
	case KOptional:
		if r.Bits(1) != 0 {
			v.Items = d.members(1)[:1]
			d.readInto(r, ty.Elem, depth+1, &v.Items[0])
		} else {
			v.Absent = true
		}
	case KStruct:
		if !d.payItems(r, "structs", int64(len(ty.Fields))) {
			break
		}
		v.Fields = d.members(len(ty.Fields))
		for i := range ty.Fields {
			if r.err != nil {
				break
			}
			v.Fields = v.Fields[:i+1]
			fv := &v.Fields[i]
			d.readInto(r, ty.Fields[i].Type, depth+1, fv)
			fv.Name = ty.Fields[i].Name
		}
	case KChoice:
		tag := r.Int(ty.Offset, ty.Bits)
		if r.err != nil {
			break
		}
		if tag < 0 || tag >= int64(len(ty.Fields)) || ty.Fields[tag].Type < 0 {
			r.Fail("choice tag %d not in the layout", tag)
			break
		}
		f := &ty.Fields[tag]
		v.Int = tag
		v.Items = d.members(1)[:1]
		d.readInto(r, f.Type, depth+1, &v.Items[0])
		v.Items[0].Name = f.Name
	case KNull:
	default:
		r.Fail("unknown type kind %d", ty.Kind)
	}
	v.End = r.Pos()
}

func (d *Decoder) pay(r *Reader, what string, n int64) bool {
	if d.Budget == nil {
		return true
	}
	if err := d.Budget.Alloc(d.What+": "+what, n); err != nil {
		r.Fail("%v", err)
		return false
	}
	return true
}

func (d *Decoder) payItems(r *Reader, what string, n int64) bool {
	if d.Budget == nil {
		return true
	}
	if err := d.Budget.Items(d.What+": "+what, n, valueSize); err != nil {
		r.Fail("%v", err)
		return false
	}
	return true
}

// String names a kind.
func (k Kind) String() string {
	names := []string{"int", "blob", "bool", "array", "optional", "struct", "choice", "bit array", "fourcc", "null", "real32", "real64"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("kind %d", byte(k))
}

// Skip reads past a value of type t without building it, for a pass that
// only needs to know where each event ends. It allocates nothing.
func (r *Reader) Skip(tab Table, t int) { r.skip(tab, t, 0) }

func (r *Reader) skip(tab Table, t int, depth int) {
	if t < 0 || t >= len(tab) {
		r.Fail("type %d not in the table", t)
		return
	}
	if depth > maxDepth {
		r.Fail("types nested deeper than %d", maxDepth)
		return
	}
	ty := &tab[t]
	if ty.FixedBits > 0 {
		r.SkipBits(int64(ty.FixedBits - 1))
		return
	}
	switch ty.Kind {
	case KInt:
		r.Bits(ty.Bits)
	case KBool:
		r.Bits(1)
	case KBlob:
		n := r.Int(ty.Offset, ty.Bits)
		if n < 0 || n > int64(len(r.data)) {
			r.Fail("blob of %d bytes, %d left", n, len(r.data)-r.used)
			return
		}
		r.AlignedBytes(int(n))
	case KFourCC, KReal32:
		r.Bits(32)
	case KReal64:
		r.Bits(64)
	case KBitArray:
		n := r.Int(ty.Offset, ty.Bits)
		if r.err == nil {
			r.SkipBits(n)
		}
	case KArray:
		n := r.Int(ty.Offset, ty.Bits)
		if n < 0 || n > int64(r.BitsLeft())+1 {
			r.Fail("array of %d items, %d bits left", n, r.BitsLeft())
			return
		}
		for i := int64(0); i < n && r.err == nil; i++ {
			r.skip(tab, ty.Elem, depth+1)
		}
	case KOptional:
		if r.Bits(1) != 0 {
			r.skip(tab, ty.Elem, depth+1)
		}
	case KStruct:
		for i := range ty.Fields {
			if r.err != nil {
				return
			}
			r.skip(tab, ty.Fields[i].Type, depth+1)
		}
	case KChoice:
		tag := r.Int(ty.Offset, ty.Bits)
		if r.err != nil {
			return
		}
		if tag < 0 || tag >= int64(len(ty.Fields)) || ty.Fields[tag].Type < 0 {
			r.Fail("choice tag %d not in the layout", tag)
			return
		}
		r.skip(tab, ty.Fields[tag].Type, depth+1)
	case KNull:
	default:
		r.Fail("unknown type kind %d", ty.Kind)
	}
}
