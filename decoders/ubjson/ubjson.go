// Package ubjson reads Universal Binary JSON (Draft 12), the container of
// Slippi replays. Every decoded value remembers the file offset and length of
// its bytes, so a decoder can give each field a Span.
//
// Counts and lengths are checked against the bytes left, and every value,
// container and string is paid for from the decode's budget before it is
// allocated (a typed container of nulls costs no bytes per element, so only
// the budget bounds it); nesting is limited. Hostile input costs at most
// what its size justifies.
package ubjson

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// Kind is the type of a value.
type Kind uint8

const (
	Null Kind = iota
	NoOp
	Bool
	Int
	Float
	HighPrecision // 'H': a number kept as its decimal text
	Char
	String
	Array
	Object
	Bytes // an optimized array of uint8 ('[$U#'), kept as raw bytes
)

var kindNames = [...]string{"null", "no-op", "bool", "int", "float", "high-precision number", "char", "string", "array", "object", "bytes"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// MaxDepth bounds how deeply containers may nest.
const MaxDepth = 64

// Value is one decoded value. Off and Len locate its bytes (type marker
// included) in the data, plus the base given to Decode.
type Value struct {
	Kind  Kind
	Bool  bool
	Int   int64
	Float float64
	Str   string  // String, Char and HighPrecision
	Raw   []byte  // Bytes: shares the input slice
	Items []Value // Array elements
	Keys  []string
	Vals  []Value // Object members, in file order
	// KeyOffs holds where each object key starts.
	KeyOffs []int64
	Off     int64
	Len     int64
}

// Get returns an object's member by key.
func (v *Value) Get(key string) (*Value, bool) {
	if v == nil || v.Kind != Object {
		return nil, false
	}
	for i, k := range v.Keys {
		if k == key {
			return &v.Vals[i], true
		}
	}
	return nil, false
}

// Number returns an Int or Float value as a float64.
func (v *Value) Number() (float64, bool) {
	switch v.Kind {
	case Int:
		return float64(v.Int), true
	case Float:
		return v.Float, true
	case HighPrecision:
		f, err := strconv.ParseFloat(v.Str, 64)
		return f, err == nil
	}
	return 0, false
}

// What a decoded value costs the budget: the Value itself, and for an
// object member its key and the key's offset too.
var (
	valueCost  = budget.SizeOf[Value]()
	memberCost = valueCost + budget.SizeOf[string]() + budget.SizeOf[int64]()
)

// Error is a decoding failure at an offset. Err is the budget's refusal
// (a *model.BudgetError) when the budget stopped the decode.
type Error struct {
	Off int64
	Msg string
	Err error
}

func (e *Error) Error() string { return fmt.Sprintf("ubjson: at %#x: %s", e.Off, e.Msg) }
func (e *Error) Unwrap() error { return e.Err }

type decoder struct {
	data []byte
	pos  int
	base int64
	b    *budget.Budget
}

// pay turns the budget's refusal into an Error at pos.
func (d *decoder) pay(pos int, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Off: d.base + int64(pos), Msg: err.Error(), Err: err}
}

func (d *decoder) fail(pos int, format string, a ...any) *Error {
	return &Error{Off: d.base + int64(pos), Msg: fmt.Sprintf(format, a...)}
}

// Decode reads one value from the start of data. base is the file offset of
// data[0]. It returns the value and the number of bytes it took. Everything
// it allocates is paid from b; when b refuses, the error wraps the
// *model.BudgetError (IsBudget).
func Decode(data []byte, base int64, b *budget.Budget) (Value, int, error) {
	d := decoder{data: data, base: base, b: b}
	v, err := d.value(0)
	if err != nil {
		return Value{}, d.pos, err
	}
	return v, d.pos, nil
}

// IsBudget reports whether err is the budget's refusal, and returns it.
func IsBudget(err error) (*model.BudgetError, bool) {
	var be *model.BudgetError
	ok := errors.As(err, &be)
	return be, ok
}

// DecodeLength reads a length as UBJSON writes it: a type marker (i U I l
// L) and a non-negative integer. It returns the length and the bytes taken.
func DecodeLength(data []byte, base int64) (int64, int, error) {
	d := decoder{data: data, base: base}
	n, err := d.length()
	return n, d.pos, err
}

func (d *decoder) need(n int) bool { return n >= 0 && len(d.data)-d.pos >= n }

func (d *decoder) marker() (byte, error) {
	// No-op markers may appear anywhere a marker may.
	for d.pos < len(d.data) && d.data[d.pos] == 'N' {
		d.pos++
	}
	if d.pos >= len(d.data) {
		return 0, d.fail(d.pos, "unexpected end of data (expected a type marker)")
	}
	c := d.data[d.pos]
	d.pos++
	return c, nil
}

// integer reads the payload of an integer marker.
func (d *decoder) integer(m byte) (int64, error) {
	size := 0
	switch m {
	case 'i', 'U':
		size = 1
	case 'I':
		size = 2
	case 'l':
		size = 4
	case 'L':
		size = 8
	default:
		return 0, d.fail(d.pos-1, "expected an integer marker, found %q", m)
	}
	if !d.need(size) {
		return 0, d.fail(d.pos, "unexpected end of data (expected %d bytes of %q)", size, m)
	}
	b := d.data[d.pos : d.pos+size]
	d.pos += size
	switch m {
	case 'i':
		return int64(int8(b[0])), nil
	case 'U':
		return int64(b[0]), nil
	case 'I':
		return int64(int16(uint16(b[0])<<8 | uint16(b[1]))), nil
	case 'l':
		return int64(int32(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]))), nil
	default:
		var u uint64
		for _, c := range b {
			u = u<<8 | uint64(c)
		}
		return int64(u), nil
	}
}

func (d *decoder) length() (int64, error) {
	start := d.pos
	m, err := d.marker()
	if err != nil {
		return 0, err
	}
	n, err := d.integer(m)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, d.fail(start, "negative length %d", n)
	}
	return n, nil
}

// str reads a length-prefixed string (object keys and 'S' payloads).
func (d *decoder) str() (string, error) {
	n, err := d.length()
	if err != nil {
		return "", err
	}
	if !d.need(int(min(n, math.MaxInt32))) || n > math.MaxInt32 {
		return "", d.fail(d.pos, "string of %d bytes but only %d left", n, len(d.data)-d.pos)
	}
	if err := d.pay(d.pos, d.b.Alloc("UBJSON strings", n)); err != nil {
		return "", err
	}
	s := string(d.data[d.pos : d.pos+int(n)])
	d.pos += int(n)
	return s, nil
}

func (d *decoder) value(depth int) (Value, error) {
	start := d.pos
	m, err := d.marker()
	if err != nil {
		return Value{}, err
	}
	start = d.pos - 1
	v, err := d.payload(m, depth)
	v.Off = d.base + int64(start)
	v.Len = int64(d.pos - start)
	return v, err
}

// payload reads the value after its marker m.
func (d *decoder) payload(m byte, depth int) (Value, error) {
	switch m {
	case 'Z':
		return Value{Kind: Null}, nil
	case 'N':
		return Value{Kind: NoOp}, nil
	case 'T', 'F':
		return Value{Kind: Bool, Bool: m == 'T'}, nil
	case 'i', 'U', 'I', 'l', 'L':
		n, err := d.integer(m)
		return Value{Kind: Int, Int: n}, err
	case 'd':
		if !d.need(4) {
			return Value{}, d.fail(d.pos, "unexpected end of data (expected a float32)")
		}
		b := d.data[d.pos:]
		d.pos += 4
		f := math.Float32frombits(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]))
		return Value{Kind: Float, Float: float64(f)}, nil
	case 'D':
		if !d.need(8) {
			return Value{}, d.fail(d.pos, "unexpected end of data (expected a float64)")
		}
		var u uint64
		for _, c := range d.data[d.pos : d.pos+8] {
			u = u<<8 | uint64(c)
		}
		d.pos += 8
		return Value{Kind: Float, Float: math.Float64frombits(u)}, nil
	case 'C':
		if !d.need(1) {
			return Value{}, d.fail(d.pos, "unexpected end of data (expected a char)")
		}
		c := d.data[d.pos]
		d.pos++
		return Value{Kind: Char, Str: string(rune(c))}, nil
	case 'S', 'H':
		s, err := d.str()
		k := String
		if m == 'H' {
			k = HighPrecision
		}
		return Value{Kind: k, Str: s}, err
	case '[':
		return d.array(depth)
	case '{':
		return d.object(depth)
	}
	return Value{}, d.fail(d.pos-1, "unknown type marker %q", m)
}

// header reads the optional '$' type and '#' count of a container. count is
// -1 when the container ends with a closing marker.
func (d *decoder) header() (typ byte, count int64, err error) {
	count = -1
	if d.pos < len(d.data) && d.data[d.pos] == '$' {
		d.pos++
		if !d.need(1) {
			return 0, 0, d.fail(d.pos, "unexpected end of data (expected a container type)")
		}
		typ = d.data[d.pos]
		d.pos++
		if d.pos >= len(d.data) || d.data[d.pos] != '#' {
			return 0, 0, d.fail(d.pos, "a typed container must give a count ('#')")
		}
	}
	if d.pos < len(d.data) && d.data[d.pos] == '#' {
		d.pos++
		count, err = d.length()
		if err != nil {
			return 0, 0, err
		}
		// Every element costs at least one byte, except in typed containers
		// of zero-size values (Z, N, T, F): those the budget alone bounds,
		// when the container pays for its elements.
		left := int64(len(d.data) - d.pos)
		switch typ {
		case 'Z', 'N', 'T', 'F':
		default:
			if count > left {
				return 0, 0, d.fail(d.pos, "count %d but only %d bytes left", count, left)
			}
		}
	}
	return typ, count, nil
}

func (d *decoder) array(depth int) (Value, error) {
	if depth >= MaxDepth {
		return Value{}, d.fail(d.pos-1, "containers nested deeper than %d", MaxDepth)
	}
	typ, count, err := d.header()
	if err != nil {
		return Value{}, err
	}
	if typ == 'U' {
		b := d.data[d.pos : d.pos+int(count)]
		d.pos += int(count)
		return Value{Kind: Bytes, Raw: b}, nil
	}
	v := Value{Kind: Array}
	if count >= 0 {
		// A Value is far bigger than the byte each element costs at least:
		// the count is a claim on the budget, paid before the slice is made.
		if err := d.pay(d.pos, d.b.Items("UBJSON array elements", count, valueCost)); err != nil {
			return v, err
		}
		v.Items = make([]Value, 0, count)
		for i := int64(0); i < count; i++ {
			var e Value
			if typ != 0 {
				s := d.pos
				e, err = d.payload(typ, depth+1)
				e.Off, e.Len = d.base+int64(s), int64(d.pos-s)
			} else {
				e, err = d.value(depth + 1)
			}
			if err != nil {
				return v, err
			}
			v.Items = append(v.Items, e)
		}
		return v, nil
	}
	for {
		for d.pos < len(d.data) && d.data[d.pos] == 'N' {
			d.pos++
		}
		if d.pos >= len(d.data) {
			return v, d.fail(d.pos, "unexpected end of data (expected ']')")
		}
		if d.data[d.pos] == ']' {
			d.pos++
			return v, nil
		}
		e, err := d.value(depth + 1)
		if err != nil {
			return v, err
		}
		if v.Items, err = budget.Grow(d.b, "UBJSON array elements", v.Items, 1); err != nil {
			return v, d.pay(d.pos, err)
		}
		v.Items = append(v.Items, e)
	}
}

func (d *decoder) object(depth int) (Value, error) {
	if depth >= MaxDepth {
		return Value{}, d.fail(d.pos-1, "containers nested deeper than %d", MaxDepth)
	}
	typ, count, err := d.header()
	if err != nil {
		return Value{}, err
	}
	v := Value{Kind: Object}
	grow := func(n int) error {
		var err error
		if v.Keys, err = budget.Grow(d.b, "UBJSON object members", v.Keys, n); err != nil {
			return d.pay(d.pos, err)
		}
		if v.KeyOffs, err = budget.Grow(d.b, "UBJSON object members", v.KeyOffs, n); err != nil {
			return d.pay(d.pos, err)
		}
		v.Vals, err = budget.Grow(d.b, "UBJSON object members", v.Vals, n)
		return d.pay(d.pos, err)
	}
	member := func() error {
		ko := d.base + int64(d.pos)
		k, err := d.str()
		if err != nil {
			return err
		}
		var e Value
		if typ != 0 {
			s := d.pos
			e, err = d.payload(typ, depth+1)
			e.Off, e.Len = d.base+int64(s), int64(d.pos-s)
		} else {
			e, err = d.value(depth + 1)
		}
		if gerr := grow(1); gerr != nil {
			return gerr
		}
		v.Keys = append(v.Keys, k)
		v.KeyOffs = append(v.KeyOffs, ko)
		v.Vals = append(v.Vals, e)
		return err
	}
	if count >= 0 {
		if err := d.pay(d.pos, d.b.Items("UBJSON object members", count, memberCost)); err != nil {
			return v, err
		}
		v.Keys, v.KeyOffs, v.Vals = make([]string, 0, count), make([]int64, 0, count), make([]Value, 0, count)
		for i := int64(0); i < count; i++ {
			if err := member(); err != nil {
				return v, err
			}
		}
		return v, nil
	}
	for {
		for d.pos < len(d.data) && d.data[d.pos] == 'N' {
			d.pos++
		}
		if d.pos >= len(d.data) {
			return v, d.fail(d.pos, "unexpected end of data (expected '}')")
		}
		if d.data[d.pos] == '}' {
			d.pos++
			return v, nil
		}
		if err := member(); err != nil {
			return v, err
		}
	}
}
