package teehistorian

import (
	"rewind/decoders/teehistorian/twint"
	"rewind/model"
)

// fieldReader reads the parts of one message and records each as a Field
// with its file span. base is the file offset of r.B[0].
//
// Fields are only built when keep is set: the main pass reads messages for
// their summaries and state, and Replay.Detail reads one message again with
// keep set when someone looks at it.
type fieldReader struct {
	r      twint.Reader
	base   int64
	keep   bool
	fields []model.Field
}

func newFieldReader(data []byte, pos int, keep bool) *fieldReader {
	return &fieldReader{r: twint.Reader{B: data, Pos: pos}, keep: keep}
}

// sub is a reader over the next bytes up to end that adds to f's fields.
func (f *fieldReader) sub(data []byte, end int) *fieldReader {
	return &fieldReader{r: twint.Reader{B: data[:end], Pos: f.r.Pos}, keep: f.keep, fields: f.fields}
}

// nameLast names the value of the field back places from the end.
func (f *fieldReader) nameLast(back int, name string) {
	if f.keep && len(f.fields) >= back {
		f.fields[len(f.fields)-back].Name = name
	}
}

func (f *fieldReader) span(start int) model.Span {
	return model.Span{Off: f.base + int64(start), Len: int64(f.r.Pos - start)}
}

func (f *fieldReader) add(fl model.Field) {
	if f.keep && f.r.Err() == nil {
		f.fields = append(f.fields, fl)
	}
}

func (f *fieldReader) int(key, label string) int32 {
	s := f.r.Pos
	v := f.r.Int()
	f.add(model.Field{Key: key, Label: label, Value: int64(v), Span: f.span(s)})
	return v
}

// named reads an int whose meaning has a name.
func (f *fieldReader) named(key, label string, name func(int32) string) int32 {
	s := f.r.Pos
	v := f.r.Int()
	f.add(model.Field{Key: key, Label: label, Value: int64(v), Name: name(v), Span: f.span(s)})
	return v
}

func (f *fieldReader) str(key, label string) string {
	s := f.r.Pos
	v := f.r.Str()
	f.add(model.Field{Key: key, Label: label, Value: v, Span: f.span(s)})
	return v
}

func (f *fieldReader) uuid(key, label string) uuid {
	s := f.r.Pos
	var u uuid
	copy(u[:], f.r.Raw(16))
	f.add(model.Field{Key: key, Label: label, Value: u.String(), Span: f.span(s)})
	return u
}

func (f *fieldReader) raw(key, label string, n int) []byte {
	s := f.r.Pos
	b := f.r.Raw(n)
	f.add(model.Field{Key: key, Label: label, Value: b, Span: f.span(s)})
	return b
}
