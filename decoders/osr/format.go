package osr

import (
	"bytes"
	"fmt"

	"rewind/decoders/format"
	"rewind/decoders/frames"
	"rewind/model"
)

// ID is the format's stable name.
const ID model.Format = "osu"

// Format is everything rewind knows about osu! replays; the registry
// lists it, last: osu! has no magic number, so it claims a file only when
// its first bytes read as a replay's front (match).
var Format = format.Format{
	ID: ID, Name: "osu! replay", Exts: []string{".osr"}, Aliases: []string{"osr", "osu!"},
	// osu! has no characters: its players are only names
	Title: "beatmap", TitleIsID: true, // a replay names its beatmap by the MD5 of its file
	Match:    match,
	NearMiss: nearMiss,
	Decode:   Decode, Repair: Repair,
	RepairDoes: "cut the frames to the last whole record and compress them again (plain-text frames compressed), fix the length field, write a missing score id as 0",
	Summarize:  Summarize, Stats: StatDefs,
	Frames: frames.Of[FrameRow]("frames_osu", nil),
}

// match reads a replay's front: a game mode (0-3), a version that is a
// stable build date, lazer's or 0 (third-party writers), and the three
// strings after it with their 0x00/0x0b markers, as far as head reaches.
// A version of 0 must be followed by an MD5 in hex, so a run of zero bytes
// is not taken for a replay.
func match(h []byte) bool {
	if len(h) < 6 || h[0] > modeMania {
		return false
	}
	v := int32(le32(h[1:]))
	if !(v == 0 || validDate(v) || (v >= firstLazerVersion && v < firstLazerVersion+10000000)) {
		return false
	}
	p := 5
	for i := 0; i < 3 && p < len(h); i++ {
		switch h[p] {
		case 0x00:
			if i == 0 && v == 0 {
				return false
			}
			p++
			continue
		case 0x0b:
		default:
			return false
		}
		n, q, ok := uleb(h, p+1)
		if !ok {
			return q >= len(h) // the head ends inside the length
		}
		if n > 1024 { // hashes are 32 bytes, player names a few
			return false
		}
		if i != 1 && n != 0 && n != 32 {
			return false
		}
		end := q + int(n)
		if i == 0 && v == 0 && (n != 32 || end > len(h) || !isHex(h[q:end])) {
			return false
		}
		p = end
	}
	return true
}

// uleb reads a ULEB128 at p: the value, where it ends, and false when it
// runs past the data or 5 bytes.
func uleb(b []byte, p int) (uint64, int, bool) {
	var n uint64
	for shift := 0; shift < 35; shift += 7 {
		if p >= len(b) {
			return 0, p, false
		}
		c := b[p]
		p++
		n |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return n, p, true
		}
	}
	return 0, p, false
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// nearMiss names files that look like osu! replays and are not: a Git LFS
// pointer saved under a replay's name, and a front whose mode byte is no
// game mode.
func nearMiss(data []byte, ext string) string {
	switch {
	case ext == ".osr" && bytes.HasPrefix(data, []byte("version https://git-lfs")):
		return "a Git LFS pointer, not the replay it points to (fetch it with git lfs pull)"
	case len(data) >= 6 && data[0] > modeMania && (data[5] == 0 || data[5] == 0x0b):
		v := int32(le32(data[1:]))
		if validDate(v) || (v >= firstLazerVersion && v < firstLazerVersion+10000000) {
			return fmt.Sprintf("an osu! replay's front with an unknown game mode %d (0-3 are standard, taiko, catch and mania)", data[0])
		}
	}
	return ""
}
