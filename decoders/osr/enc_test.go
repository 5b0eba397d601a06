package osr

import (
	"encoding/binary"
	"testing"
)

// testFile builds an .osr file field by field, as the format's table
// lays it out (little-endian; strings as 0x0b, ULEB128 length, bytes, or
// 0x00 for none), so each test can change one thing.
type testFile struct {
	mode                        byte
	version                     int32
	beatmap, player, replayHash *string
	counts                      [6]uint16
	score                       int32
	combo                       uint16
	perfect                     byte
	mods                        uint32
	life                        *string
	ticks                       int64
	frames                      string // the text, compressed unless plainFrames
	plainFrames                 bool
	rawFrames                   []byte // when set, the member's bytes as they are
	idWidth                     int    // 0, 4 or 8
	id                          int64
	scoreInfo                   *string // lazer's JSON, compressed
	tail                        []byte  // after everything
}

func sp(s string) *string { return &s }

// newTestFile is a small standard play: stable 2019-06-07, two
// placeholders, three input frames with a K1 press, the seed.
func newTestFile() *testFile {
	return &testFile{
		mode: 0, version: 20190607,
		beatmap: sp("0123456789abcdef0123456789abcdef"), player: sp("peppy"), replayHash: sp("fedcba9876543210fedcba9876543210"),
		counts: [6]uint16{100, 10, 1, 20, 5, 2}, score: 1234567, combo: 321, perfect: 0, mods: 8 | 64,
		life:    sp("0|1,1000|0.5,2000|0.75,"),
		ticks:   636829078230000000,
		frames:  "0|256|-500|0,-1|256|-500|0,100|10|20|0,16|11|21|5,17|12|22|0,-12345|0|0|4242,",
		idWidth: 8, id: 1234,
	}
}

func appendString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, 0)
	}
	b = append(b, 0x0b)
	b = binary.AppendUvarint(b, uint64(len(*s)))
	return append(b, *s...)
}

func (f *testFile) bytes(t testing.TB) []byte {
	t.Helper()
	b := []byte{f.mode}
	b = binary.LittleEndian.AppendUint32(b, uint32(f.version))
	b = appendString(b, f.beatmap)
	b = appendString(b, f.player)
	b = appendString(b, f.replayHash)
	for _, c := range f.counts {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(f.score))
	b = binary.LittleEndian.AppendUint16(b, f.combo)
	b = append(b, f.perfect)
	b = binary.LittleEndian.AppendUint32(b, f.mods)
	b = appendString(b, f.life)
	b = binary.LittleEndian.AppendUint64(b, uint64(f.ticks))
	member := f.rawFrames
	if member == nil {
		member = []byte(f.frames)
		if !f.plainFrames {
			member = mustCompress(t, f.frames)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(member)))
	b = append(b, member...)
	switch f.idWidth {
	case 8:
		b = binary.LittleEndian.AppendUint64(b, uint64(f.id))
	case 4:
		b = binary.LittleEndian.AppendUint32(b, uint32(f.id))
	}
	if f.scoreInfo != nil {
		c := mustCompress(t, *f.scoreInfo)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(c)))
		b = append(b, c...)
	}
	return append(b, f.tail...)
}

func mustCompress(t testing.TB, s string) []byte {
	t.Helper()
	c, err := compress([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
