package bitpack

import (
	"fmt"
)

// Type describes one bit-packed type of a build's protocol: what
// s2protocol calls a typeinfo. Types refer to each other by index in a
// Table.
type Type struct {
	Kind    Kind
	Offset  int64 // for ints, blob/array lengths and choice tags
	Bits    uint
	Elem    int     // array and optional element
	Fields  []Field // struct members in stream order
	Choices map[int64]Field
}

// Field is a named member of a struct or an alternative of a choice.
type Field struct {
	Name string
	Type int
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
)

// Table is the list of types of one protocol.
type Table []Type

// Value is a decoded value. Int holds ints, bools, choice tags and bit
// array lengths; Bytes blobs, bit arrays and fourccs; Items array members
// and the value of an optional or choice; Fields struct members (Name
// from the table). Off and End are byte offsets of the first and last bit.
type Value struct {
	Kind   Kind
	Name   string // struct member or choice alternative name
	Int    int64
	Bytes  []byte
	Items  []Value
	Fields []Value
	Off    int
	End    int
	Absent bool // an optional without a value
}

// Get returns the struct member with the name.
func (v *Value) Get(name string) (*Value, bool) {
	for i := range v.Fields {
		if v.Fields[i].Name == name {
			return &v.Fields[i], true
		}
	}
	return nil, false
}

// IntOf is the integer of a member, through an optional.
func (v *Value) IntOf(name string) (int64, bool) {
	f, ok := v.Get(name)
	if !ok {
		return 0, false
	}
	if f.Kind == KOptional {
		if f.Absent || len(f.Items) == 0 {
			return 0, false
		}
		f = &f.Items[0]
	}
	return f.Int, true
}

// BytesOf is the blob of a member, through an optional.
func (v *Value) BytesOf(name string) ([]byte, bool) {
	f, ok := v.Get(name)
	if !ok {
		return nil, false
	}
	if f.Kind == KOptional {
		if f.Absent || len(f.Items) == 0 {
			return nil, false
		}
		f = &f.Items[0]
	}
	return f.Bytes, f.Bytes != nil
}

const maxDepth = 32

// Read decodes a value of type t from the reader.
func (r *Reader) Read(tab Table, t int) Value {
	return r.read(tab, t, 0)
}

func (r *Reader) read(tab Table, t int, depth int) Value {
	v := Value{Off: r.Pos()}
	if t < 0 || t >= len(tab) {
		r.Fail("type %d not in the table", t)
		return v
	}
	if depth > maxDepth {
		r.Fail("types nested deeper than %d", maxDepth)
		return v
	}
	ty := &tab[t]
	v.Kind = ty.Kind
	switch ty.Kind {
	case KInt:
		v.Int = r.Int(ty.Offset, ty.Bits)
	case KBool:
		v.Int = int64(r.Bits(1))
	case KBlob:
		n := r.Int(ty.Offset, ty.Bits)
		v.Bytes = r.AlignedBytes(int(n))
	case KFourCC:
		b := make([]byte, 4)
		for i := range b {
			b[i] = byte(r.Bits(8))
		}
		v.Bytes = b
	case KBitArray:
		n := r.Int(ty.Offset, ty.Bits)
		v.Int = n
		if n < 0 || n > int64(r.bitsLeft()) {
			r.Fail("bit array of %d bits, %d left", n, r.bitsLeft())
			break
		}
		b := make([]byte, (n+7)/8)
		left := n
		for i := range b {
			c := uint(8)
			if left < 8 {
				c = uint(left)
			}
			b[i] = byte(r.Bits(c))
			left -= int64(c)
		}
		v.Bytes = b
	case KArray:
		n := r.Int(ty.Offset, ty.Bits)
		if n < 0 || n > int64(r.bitsLeft())+1 {
			r.Fail("array of %d items, %d bits left", n, r.bitsLeft())
			break
		}
		v.Items = make([]Value, 0, min(n, 1024))
		for i := int64(0); i < n && r.err == nil; i++ {
			v.Items = append(v.Items, r.read(tab, ty.Elem, depth+1))
		}
	case KOptional:
		if r.Bits(1) != 0 {
			v.Items = []Value{r.read(tab, ty.Elem, depth+1)}
		} else {
			v.Absent = true
		}
	case KStruct:
		v.Fields = make([]Value, 0, len(ty.Fields))
		for _, f := range ty.Fields {
			if r.err != nil {
				break
			}
			fv := r.read(tab, f.Type, depth+1)
			fv.Name = f.Name
			v.Fields = append(v.Fields, fv)
		}
	case KChoice:
		tag := r.Int(ty.Offset, ty.Bits)
		f, ok := ty.Choices[tag]
		if !ok {
			r.Fail("choice tag %d not in the layout", tag)
			break
		}
		v.Int = tag
		c := r.read(tab, f.Type, depth+1)
		c.Name = f.Name
		v.Items = []Value{c}
	case KNull:
	default:
		r.Fail("unknown type kind %d", ty.Kind)
	}
	v.End = r.Pos()
	return v
}

func (r *Reader) bitsLeft() int {
	return int(r.nextBits) + 8*(len(r.data)-r.used)
}

// String names a kind.
func (k Kind) String() string {
	names := []string{"int", "blob", "bool", "array", "optional", "struct", "choice", "bit array", "fourcc", "null"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("kind %d", byte(k))
}

// Skip reads past a value of type t without building it, for a pass that
// only needs to know where each event ends.
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
	switch ty.Kind {
	case KInt:
		r.Bits(ty.Bits)
	case KBool:
		r.Bits(1)
	case KBlob:
		n := r.Int(ty.Offset, ty.Bits)
		r.AlignedBytes(int(n))
	case KFourCC:
		r.Bits(32)
	case KBitArray:
		n := r.Int(ty.Offset, ty.Bits)
		if n < 0 || n > int64(r.bitsLeft()) {
			r.Fail("bit array of %d bits, %d left", n, r.bitsLeft())
			return
		}
		for n > 0 && r.err == nil {
			c := uint(min(n, 64))
			r.Bits(c)
			n -= int64(c)
		}
	case KArray:
		n := r.Int(ty.Offset, ty.Bits)
		if n < 0 || n > int64(r.bitsLeft())+1 {
			r.Fail("array of %d items, %d bits left", n, r.bitsLeft())
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
		for _, f := range ty.Fields {
			if r.err != nil {
				return
			}
			r.skip(tab, f.Type, depth+1)
		}
	case KChoice:
		tag := r.Int(ty.Offset, ty.Bits)
		f, ok := ty.Choices[tag]
		if !ok {
			r.Fail("choice tag %d not in the layout", tag)
			return
		}
		r.skip(tab, f.Type, depth+1)
	case KNull:
	default:
		r.Fail("unknown type kind %d", ty.Kind)
	}
}
