// Package decoders picks a decoder from a file's bytes and runs it.
//
// Detection is by content: each format has magic bytes at the start, and the
// file name's extension is only a tie-breaker. A file that is no replay gets
// one sentence naming what it looks like instead (empty, text, a gzip or xz
// archive, ...). The format packages (slippi, bsor, teehistorian, fzgx, sc2)
// know nothing of each other or of this registry.
package decoders

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"rewind/decoders/bsor"
	"rewind/decoders/frames"
	"rewind/decoders/fzgx"
	"rewind/decoders/sc2"
	"rewind/decoders/slippi"
	"rewind/decoders/teehistorian"
	"rewind/model"
)

// Format describes one replay format the registry knows.
type Format struct {
	ID   model.Format
	Name string   // "Slippi replay"
	Exts []string // usual extensions, lower case with the dot
	// Aliases are other names people call the format by in queries
	// (format:melee); the id, the extensions and the words of Name count too.
	Aliases []string
	Match   func(head []byte) bool
	Decode  func(data []byte, opt model.DecodeOptions) (*model.Replay, error)
	// Frames is the format's typed frames table for `rewind export`
	// (decoders/<format>/rows.go); nil when it has none.
	Frames frames.Table
	// Repair makes a new file from a damaged one (see model.Repaired);
	// nil when the format has no repair yet, and NoRepair says why.
	Repair   func(data []byte, opt model.RepairOptions) (*model.Repaired, error)
	NoRepair string
	// Follow decodes a file of the format while its recorder still writes
	// it (see model.Follower and Tail); nil for formats written whole.
	Follow func(opt model.DecodeOptions) model.Follower
	// Extent is how far into a file of size bytes the replay reaches, as
	// its front says (head is the first HeadSize bytes, or the whole file);
	// -1 when the front does not say. Nil for formats whose front never
	// says. ReadFile reads no further.
	Extent func(head []byte, size int64) int64
}

// teehistorianUUID is 699db17b-8efb-34ff-b1d8-da6f60c15dd1.
var teehistorianUUID = []byte{0x69, 0x9d, 0xb1, 0x7b, 0x8e, 0xfb, 0x34, 0xff, 0xb1, 0xd8, 0xda, 0x6f, 0x60, 0xc1, 0x5d, 0xd1}

// Formats lists every format in detection order.
var Formats = []Format{
	{ID: model.Slippi, Name: "Slippi replay", Exts: []string{".slp"}, Aliases: []string{"melee", "ssbm"},
		Match:  func(h []byte) bool { return bytes.HasPrefix(h, []byte("{U\x03raw[$U#l")) },
		Decode: slippi.Decode, Frames: frames.Of[slippi.FrameRow]("frames_slippi", nil, "pre", "post"),
		Repair: slippi.Repair, Extent: slippiExtent, Follow: slippi.Follow},
	{ID: model.BSOR, Name: "BSOR replay", Exts: []string{".bsor", ".bsortemp"}, Aliases: []string{"beatsaber", "beatleader"},
		Match:  func(h []byte) bool { return bytes.HasPrefix(h, []byte{0x69, 0x3d, 0x2d, 0x44}) },
		Decode: bsor.Decode, Frames: frames.Of[bsor.FrameRow]("frames_bsor", nil),
		Repair: bsor.Repair},
	{ID: model.Teehistorian, Name: "DDNet teehistorian", Exts: []string{".teehistorian"}, Aliases: []string{"tee", "teeworlds"},
		Match:  func(h []byte) bool { return bytes.HasPrefix(h, teehistorianUUID) },
		Decode: teehistorian.Decode, Frames: frames.Of[teehistorian.FrameRow]("frames_teehistorian", nil),
		Repair: teehistorian.Repair, Follow: teehistorian.Follow},
	{ID: model.FZGX, Name: "F-Zero GX replay", Exts: []string{".gci"}, Aliases: []string{"fzero", "gx"},
		Match: func(h []byte) bool {
			return len(h) >= 4 && string(h[:3]) == "GFZ" && strings.IndexByte("EJP", h[3]) >= 0
		},
		Decode: fzgx.Decode, Frames: frames.Of[fzgx.FrameRow]("frames_fzgx", nil),
		Repair: fzgx.Repair, Extent: fzgxExtent},
	{ID: model.SC2, Name: "StarCraft II replay", Exts: []string{".sc2replay"}, Aliases: []string{"starcraft", "starcraft2", "sc"},
		Match: func(h []byte) bool {
			return bytes.HasPrefix(h, []byte("MPQ\x1b")) || bytes.HasPrefix(h, []byte("MPQ\x1a"))
		},
		Decode: sc2.Decode, Frames: frames.Of("frames_sc2", sc2.StatsRows, "stats"), Extent: sc2Extent,
		Repair: sc2.Repair},
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
	for i := range Formats {
		if Formats[i].Match(data) {
			return &Formats[i], nil
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
	switch {
	case len(data) == 0:
		what = "an empty file"
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		what = "a gzip archive"
	case bytes.HasPrefix(data, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		what = "an xz archive"
		if ext == ".zlp" {
			what = "an xz archive (a slippc-compressed .zlp replay; decompress it with slippc first)"
		}
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
	case bytes.HasPrefix(data, []byte("{U")) || bytes.HasPrefix(data, []byte("{i")):
		what = "a UBJSON object that does not start with Slippi's raw element"
	case bytes.HasPrefix(data, []byte("GFZ")) && len(data) >= 4:
		what = fmt.Sprintf("an F-Zero GX save with an unknown region code %q", data[3])
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
