// Package decoders picks a decoder from a file's bytes and runs it.
//
// Detection is by content: each format has magic bytes at the start, and the
// file name's extension is only a tie-breaker. A file that is no replay gets
// one sentence naming what it looks like instead (empty, text, a gzip or xz
// archive, ...). Each format package declares itself (package format) and
// knows nothing of the others or of this registry, which lists them.
package decoders

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"rewind/decoders/bsor"
	"rewind/decoders/format"
	"rewind/decoders/fzgx"
	"rewind/decoders/osr"
	"rewind/decoders/sc2"
	"rewind/decoders/slippi"
	"rewind/decoders/teehistorian"
	"rewind/model"
)

// Format is one format's declaration (see package format).
type Format = format.Format

// Formats lists every format in detection order, one line each: a format's
// package declares the rest.
var Formats = []*Format{
	&slippi.Format,
	&bsor.Format,
	&teehistorian.Format,
	&fzgx.Format,
	&sc2.Format,
	&osr.Format,
}

// ByID returns the format with the id, nil when there is none.
func ByID(id model.Format) *Format {
	for _, f := range Formats {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// NotReplayError says what a file that no decoder claims looks like.
type NotReplayError struct{ What string }

func (e *NotReplayError) Error() string { return e.What }

// Error is a file of a recognised format that its decoder refused.
type Error struct {
	Format model.Format
	Err    error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Detect returns the format whose magic bytes start data. The name is only
// used in the sentence that describes a file no decoder claims.
func Detect(data []byte, name string) (*Format, error) {
	for _, f := range Formats {
		if f.Match(data) {
			return f, nil
		}
	}
	return nil, &NotReplayError{What: Describe(data, name)}
}

// Describe is one sentence naming what a file that is no replay is.
func Describe(data []byte, name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	hint := ""
	for _, f := range Formats {
		for _, e := range f.Exts {
			if e == ext {
				hint = fmt.Sprintf(" although its name ends in %s", filepath.Ext(name))
			}
		}
	}
	head := data
	if len(head) > 16 {
		head = head[:16]
	}
	what := ""
	for _, f := range Formats {
		if f.NearMiss != nil {
			if what = f.NearMiss(data, ext); what != "" {
				return fmt.Sprintf("not a replay%s: %s", hint, what)
			}
		}
	}
	switch {
	case len(data) == 0:
		what = "an empty file"
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		what = "a gzip archive"
	case bytes.HasPrefix(data, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		what = "an xz archive"
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		what = "a zip archive"
	case bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		what = "a zstd archive"
	case bytes.HasPrefix(data, []byte("BZh")):
		what = "a bzip2 archive"
	case bytes.HasPrefix(data, []byte("7z\xbc\xaf\x27\x1c")):
		what = "a 7-Zip archive"
	case bytes.HasPrefix(data, []byte("\x7fELF")):
		what = "an ELF executable"
	case bytes.HasPrefix(data, []byte("\x89PNG")):
		what = "a PNG image"
	case len(data) >= 4 && data[0] < 0x80 && looksLikeText(data):
		what = fmt.Sprintf("a text file beginning %q", firstLine(data))
	default:
		what = fmt.Sprintf("no known replay: it starts with % x", head)
	}
	return fmt.Sprintf("not a replay%s: %s", hint, what)
}

func looksLikeText(b []byte) bool {
	if len(b) > 512 {
		b = b[:512]
		// do not let a cut UTF-8 sequence at the end count against it
		for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
			b = b[:len(b)-1]
		}
	}
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}

func firstLine(b []byte) string {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		b = b[:i]
	}
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// Decode detects the format of data and decodes it. A recognised format
// whose decoder does not exist yet gives "F-Zero GX replay: not supported yet".
func Decode(data []byte, name string, opt model.DecodeOptions) (*model.Replay, error) {
	f, err := Detect(data, name)
	if err != nil {
		return nil, err
	}
	r, err := f.Decode(data, opt)
	if errors.Is(err, model.ErrNotSupported) {
		return nil, &Error{Format: f.ID, Err: fmt.Errorf("%s: %w", f.Name, model.ErrNotSupported)}
	}
	if err != nil {
		return nil, &Error{Format: f.ID, Err: err}
	}
	if r == nil {
		return nil, &Error{Format: f.ID, Err: fmt.Errorf("%s: decoder returned nothing", f.Name)}
	}
	r.Size = int64(len(data))
	if r.Data == nil {
		r.Data = data
	}
	return r, nil
}
