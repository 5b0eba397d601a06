package teehistorian

import (
	"fmt"

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
	cut    *cutField // the field the end of the data cut through, if one did
}

// cutField is the field a read failed on: where it starts, and how many
// bytes it needs (need exactly, or at least need when its length is only
// known once it ends: an int, a string).
type cutField struct {
	key, label string
	off, need  int
	atLeast    bool
	last       bool // the field runs to the message's end (raw: a payload of a length read before it)
}

// failed keeps the field key, whose read started at s, as the one cut
// when it is the read that failed (ok: no read had failed before it).
func (f *fieldReader) failed(ok bool, key, label string, s, need int, atLeast bool) {
	if !ok || f.r.Err() == nil || f.cut != nil {
		return
	}
	if atLeast {
		need = max(need, len(f.r.B)-s+1)
	}
	f.cut = &cutField{key: key, label: label, off: s, need: need, atLeast: atLeast}
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
	s, ok := f.r.Pos, f.r.Err() == nil
	v := f.r.Int()
	f.failed(ok, key, label, s, 1, true)
	f.add(model.Field{Key: key, Label: label, Value: int64(v), Span: f.span(s)})
	return v
}

// named reads an int whose meaning has a name.
func (f *fieldReader) named(key, label string, name func(int32) string) int32 {
	s, ok := f.r.Pos, f.r.Err() == nil
	v := f.r.Int()
	f.failed(ok, key, label, s, 1, true)
	f.add(model.Field{Key: key, Label: label, Value: int64(v), Name: name(v), Span: f.span(s)})
	return v
}

func (f *fieldReader) str(key, label string) string {
	s, ok := f.r.Pos, f.r.Err() == nil
	v := f.r.Str()
	f.failed(ok, key, label, s, 1, true)
	f.add(model.Field{Key: key, Label: label, Value: v, Span: f.span(s)})
	return v
}

func (f *fieldReader) uuid(key, label string) uuid {
	s, ok := f.r.Pos, f.r.Err() == nil
	var u uuid
	copy(u[:], f.r.Raw(16))
	f.failed(ok, key, label, s, 16, false)
	f.add(model.Field{Key: key, Label: label, Value: u.String(), Span: f.span(s)})
	return u
}

func (f *fieldReader) raw(key, label string, n int) []byte {
	s, ok := f.r.Pos, f.r.Err() == nil
	b := f.r.Raw(n)
	f.failed(ok, key, label, s, n, false)
	if f.cut != nil && f.cut.off == s {
		f.cut.last = true
	}
	f.add(model.Field{Key: key, Label: label, Value: b, Span: f.span(s)})
	return b
}

// shownArgs is how many of a console command's arguments are read one by
// one, as fields and words of the command's summary. A server writes a
// handful; a forged command of millions of empty arguments (one byte each)
// would otherwise cost a string, a label and a field per byte of file, more
// than the decode budget promises per byte. The arguments after these are
// read without copying and kept as one field over their bytes.
const shownArgs = 64

// argLabels are the shown arguments' labels, made once.
var argLabels = func() (ls [shownArgs]string) {
	for i := range ls {
		ls[i] = fmt.Sprintf("Argument %d", i+1)
	}
	return ls
}()

// args reads a console command's n arguments and appends the shown ones
// to text as a summary writes them (appendArg). With keep, they become
// "arg" fields, and the rest one "moreArgs" field, their count, over their
// bytes. Nothing is copied per argument without keep: an argument is a
// byte of file at least.
func (f *fieldReader) args(n int, text []byte) []byte {
	for i := 0; i < n && i < shownArgs && f.r.Err() == nil; i++ {
		if f.keep {
			text = appendArg(text, f.str("arg", argLabels[i]))
			continue
		}
		s := f.r.Pos
		b, w, err := twint.String(f.r.B[s:])
		if err != nil {
			f.r.SkipStr() // fails as the read would
			f.failed(true, "arg", argLabels[i], s, 1, true)
			return text
		}
		f.r.Pos += w
		text = appendArg(text, b)
	}
	rest := n - shownArgs
	if rest <= 0 || f.r.Err() != nil {
		return text
	}
	s := f.r.Pos
	for i := 0; i < rest && f.r.Err() == nil; i++ {
		f.r.SkipStr()
	}
	label := fmt.Sprintf("Arguments %d to %d", shownArgs+1, n)
	// each argument takes at least its NUL byte
	f.failed(true, "moreArgs", label, s, rest, true)
	f.add(model.Field{Key: "moreArgs", Label: label, Value: int64(rest), Span: f.span(s)})
	return text
}

// moreArgs is how a summary ends when a command has more arguments than
// it shows.
func moreArgs(n int) string {
	switch more := n - shownArgs; {
	case more <= 0:
		return ""
	case more == 1:
		return " and 1 more argument"
	default:
		return fmt.Sprintf(" and %d more arguments", more)
	}
}
