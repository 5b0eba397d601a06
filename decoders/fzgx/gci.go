package fzgx

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"

	"rewind/model"
)

// The GameCube memory-card layout (NOTES.md): a 0x40-byte directory entry,
// then the save's blocks of 0x2000 bytes. F-Zero GX puts a checksum and its
// file type at the start of the first block and the replay bitstream after
// the banner, icon and comment.
const (
	gciHeaderSize = 0x40
	blockSize     = 0x2000
	checksumOff   = 0x40
	fileTypeOff   = 0x42
	streamOff     = 0x20A0
	commentSize   = 32
)

// gcEpoch is where GameCube save times count from. The console clock has no
// time zone, so times are its wall clock presented as UTC.
var gcEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// regions maps the fourth letter of the game code.
var regions = map[byte]string{'E': "North America", 'J': "Japan", 'P': "Europe"}

// fileKinds names F-Zero GX saves by the first file-type byte at 0x42
// (eigenform/fgx-re and the fzerogx-docs issue tracker list them).
var fileKinds = map[byte]string{
	0x01: "game data",
	0x02: "ghost data",
	0x03: "garage (custom machine) data",
	0x04: "emblem",
	0x05: "replay",
}

// gci is the decoded directory entry and the F-Zero GX block header.
type gci struct {
	gameCode  string
	region    string
	fileType  [2]byte
	blocks    int
	stored    uint16 // checksum at 0x40
	computed  uint16 // CRC over 0x42..end; valid only when checked
	checked   bool
	modTime   time.Time
	comment   [2]string
	fields    []model.Field
	textCodec encoding.Encoding
}

// refuse is the one sentence for a file that is not an F-Zero GX replay.
func refuse(off int64, format string, args ...any) error {
	return &model.FormatError{Source: source, Off: off, Msg: fmt.Sprintf(format, args...)}
}

// parseGCI reads the directory entry and the file type. It refuses files
// that are not F-Zero GX replays; everything else is recorded as fields.
func parseGCI(data []byte, headerOnly bool, diag func(model.Diagnostic)) (*gci, error) {
	if len(data) < 4 || string(data[:3]) != "GFZ" {
		return nil, refuse(0, "not an F-Zero GX save: the game code is not GFZE, GFZJ or GFZP")
	}
	region, ok := regions[data[3]]
	if !ok {
		return nil, refuse(3, "an F-Zero GX save with an unknown region letter %q (expected E, J or P)", data[3])
	}
	if len(data) < fileTypeOff+2 {
		return nil, refuse(int64(len(data)), "an F-Zero GX save cut short at %d bytes, before its file type at 0x42", len(data))
	}
	g := &gci{gameCode: string(data[:4]), region: region, textCodec: charmap.Windows1252}
	if data[3] == 'J' {
		g.textCodec = japanese.ShiftJIS
	}
	g.fileType = [2]byte{data[fileTypeOff], data[fileTypeOff+1]}
	kind, known := fileKinds[g.fileType[0]]
	switch {
	case !known:
		return nil, refuse(fileTypeOff, "an F-Zero GX save of unknown file type %02x %02x, not a replay (05 04)", g.fileType[0], g.fileType[1])
	case g.fileType[0] != 0x05:
		article := "a"
		if kind[0] == 'e' {
			article = "an"
		}
		return nil, refuse(fileTypeOff, "this is %s F-Zero GX %s save (file type %02x %02x), not a replay (05 04)", article, kind, g.fileType[0], g.fileType[1])
	}

	be := binary.BigEndian
	str := func(b []byte) string {
		if i := bytes.IndexByte(b, 0); i >= 0 {
			b = b[:i]
		}
		s, err := g.textCodec.NewDecoder().Bytes(b)
		if err != nil {
			return string(b)
		}
		return string(s)
	}
	span := func(off, n int64) model.Span { return model.Span{Off: off, Len: n} }
	f := []model.Field{
		{Key: "gameCode", Label: "Game code", Value: g.gameCode, Name: "F-Zero GX (" + region + ")", Span: span(0, 4)},
		{Key: "makerCode", Label: "Maker code", Value: string(data[4:6]), Span: span(4, 2)},
		{Key: "bannerFormat", Label: "Banner format", Value: int64(data[7]), Name: bannerFormat(data[7]), Span: span(7, 1)},
		{Key: "fileName", Label: "File name", Value: str(data[8:0x28]), Span: span(8, 32)},
	}
	secs := be.Uint32(data[0x28:])
	mod := model.Field{Key: "modTime", Label: "Modified", Span: span(0x28, 4)}
	if secs != 0 {
		g.modTime = gcEpoch.Add(time.Duration(secs) * time.Second)
		mod.Value = g.modTime
	} else {
		mod.Value, mod.Name = int64(0), "not set"
	}
	commentAddr := be.Uint32(data[0x3C:])
	g.blocks = int(be.Uint16(data[0x38:]))
	f = append(f, mod,
		model.Field{Key: "imageOffset", Label: "Banner/icon offset", Value: int64(be.Uint32(data[0x2C:])), Span: span(0x2C, 4)},
		model.Field{Key: "iconFormat", Label: "Icon format", Value: uint64(be.Uint16(data[0x30:])), Name: fmt.Sprintf("%#04x", be.Uint16(data[0x30:])), Span: span(0x30, 2)},
		model.Field{Key: "animSpeed", Label: "Icon animation speed", Value: uint64(be.Uint16(data[0x32:])), Name: fmt.Sprintf("%#04x", be.Uint16(data[0x32:])), Span: span(0x32, 2)},
		model.Field{Key: "permissions", Label: "Permissions", Value: uint64(data[0x34]), Name: fmt.Sprintf("%#02x", data[0x34]), Span: span(0x34, 1)},
		model.Field{Key: "copyCounter", Label: "Copy counter", Value: int64(data[0x35]), Span: span(0x35, 1)},
		model.Field{Key: "firstBlock", Label: "First block", Value: int64(be.Uint16(data[0x36:])), Span: span(0x36, 2)},
		model.Field{Key: "blockCount", Label: "Block count", Value: int64(g.blocks), Span: span(0x38, 2)},
		model.Field{Key: "commentAddress", Label: "Comment offset", Value: int64(commentAddr), Span: span(0x3C, 4)},
	)

	// The size must be the header plus whole blocks, as many as it says.
	if want := gciHeaderSize + g.blocks*blockSize; len(data) != want {
		diag(model.Diagnostic{Severity: model.Warning, Span: span(0x38, 2), Frame: -1, Subject: "block count",
			Message:  "file size does not match the block count",
			Expected: fmt.Sprintf("%d bytes (0x40 + %d blocks of 0x2000)", want, g.blocks),
			Found:    fmt.Sprintf("%d bytes", len(data))})
	}

	g.stored = be.Uint16(data[checksumOff:])
	ck := model.Field{Key: "checksum", Label: "Checksum", Value: uint64(g.stored), Span: span(checksumOff, 2)}
	if headerOnly {
		ck.Name = fmt.Sprintf("%#04x (not verified when reading the header only)", g.stored)
	} else {
		g.computed, g.checked = crc16(data[fileTypeOff:]), true
		if g.computed == g.stored {
			ck.Name = fmt.Sprintf("%#04x (valid)", g.stored)
		} else {
			ck.Name = fmt.Sprintf("%#04x (mismatch: computed %#04x)", g.stored, g.computed)
			diag(model.Diagnostic{Severity: model.Warning, Span: span(checksumOff, 2), Frame: -1, Subject: "checksum",
				Message:  "CRC-16 over 0x42 to the end does not match the stored checksum",
				Expected: fmt.Sprintf("%#04x", g.computed), Found: fmt.Sprintf("%#04x", g.stored)})
		}
	}
	typeName := "replay"
	if g.fileType[1] != 0x04 {
		typeName = fmt.Sprintf("replay (version byte %02x; 05 04 is the documented replay type)", g.fileType[1])
		diag(model.Diagnostic{Severity: model.Info, Span: span(fileTypeOff, 2), Frame: -1, Subject: "file type",
			Message:  "replay file type with an undocumented second byte; decoding as a replay",
			Expected: "05 04", Found: fmt.Sprintf("%02x %02x", g.fileType[0], g.fileType[1])})
	}
	f = append(f, ck, model.Field{Key: "fileType", Label: "File type", Value: []byte{g.fileType[0], g.fileType[1]}, Name: typeName, Span: span(fileTypeOff, 2)})

	// Two 32-byte comment lines: the game's name and the save's description.
	if c := int64(gciHeaderSize) + int64(commentAddr); c+2*commentSize <= int64(len(data)) {
		g.comment[0] = str(data[c : c+commentSize])
		g.comment[1] = str(data[c+commentSize : c+2*commentSize])
		f = append(f,
			model.Field{Key: "commentTitle", Label: "Comment (title)", Value: g.comment[0], Span: span(c, commentSize)},
			model.Field{Key: "commentText", Label: "Comment (description)", Value: g.comment[1], Span: span(c+commentSize, commentSize)})
	} else {
		diag(model.Diagnostic{Severity: model.Warning, Span: span(0x3C, 4), Frame: -1, Subject: "comment",
			Message: "comment offset points past the end of the file", Found: fmt.Sprintf("%#x", commentAddr)})
	}
	g.fields = f
	return g, nil
}

func bannerFormat(b byte) string {
	switch b & 3 {
	case 0:
		return "no banner"
	case 1:
		return "CI8 banner"
	case 2:
		return "RGB5A3 banner"
	}
	return "unknown banner format"
}

// crcTable is CRC-16 with the reflected polynomial 0x8408, made on first
// use.
var crcTable = sync.OnceValue(func() *[256]uint16 {
	t := new([256]uint16)
	for i := range t {
		c := uint16(i)
		for k := 0; k < 8; k++ {
			if c&1 != 0 {
				c = c>>1 ^ 0x8408
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
})

// crc16 is the F-Zero GX save checksum: initial value 0xFFFF, final XOR
// 0xFFFF (NOTES.md).
func crc16(b []byte) uint16 {
	c, t := uint16(0xFFFF), crcTable()
	for _, x := range b {
		c = c>>8 ^ t[byte(c)^x]
	}
	return c ^ 0xFFFF
}
