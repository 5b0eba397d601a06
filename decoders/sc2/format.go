package sc2

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"

	"rewind/decoders/format"
	"rewind/decoders/frames"
	"rewind/model"
)

// ID is the format's stable name.
const ID model.Format = "sc2"

// Format is everything rewind knows about StarCraft II replays; the
// registry lists it.
var Format = format.Format{
	ID: ID, Name: "StarCraft II replay", Exts: []string{".sc2replay"}, Aliases: []string{"starcraft", "starcraft2", "sc"},
	Title: "map", Character: "race", Matchup: matchup,
	Match: func(h []byte) bool {
		return bytes.HasPrefix(h, []byte("MPQ\x1b")) || bytes.HasPrefix(h, []byte("MPQ\x1a"))
	},
	Extent: extent,
	Decode: Decode, Repair: Repair,
	RepairDoes: "rebuild the archive from the members that still read, an event stream cut to its last whole event (refused when the replay header or the player list is lost)",
	Summarize:  Summarize,
	Stats:      statDefs,
	Frames:     frames.Of("frames_sc2", StatsRows, "stats"),
}

// extent: the MPQ archive header states the archive's size, and where its
// hash and block tables are (at the end in every real replay). The extent
// is the furthest of the three, so one damaged field cannot cut the
// archive short; an archive header that is not where the user data says
// (the decoder scans for it) gives no extent.
func extent(head []byte, size int64) int64 {
	le16 := func(b []byte) int64 { return int64(binary.LittleEndian.Uint16(b)) }
	le32 := func(b []byte) int64 { return int64(binary.LittleEndian.Uint32(b)) }
	at := int64(0)
	if bytes.HasPrefix(head, []byte("MPQ\x1b")) {
		if len(head) < 16 {
			return -1
		}
		at = le32(head[8:])
	}
	if at+32 > int64(len(head)) || !bytes.Equal(head[at:at+4], []byte("MPQ\x1a")) {
		return -1
	}
	h := head[at:]
	version := le16(h[12:])
	end := le32(h[8:])
	hashAt, blockAt := le32(h[16:]), le32(h[20:])
	hashN, blockN := le32(h[24:]), le32(h[28:])
	if version >= 1 && len(h) >= 44 {
		hashAt |= le16(h[40:]) << 32
		blockAt |= le16(h[42:]) << 32
	}
	if version >= 2 && len(h) >= 52 && le32(h[4:]) >= 52 {
		end = max(end, int64(binary.LittleEndian.Uint64(h[44:])&(1<<62-1)))
	}
	end = max(end, hashAt+16*hashN, blockAt+16*blockN)
	if end < 32 {
		return -1 // an archive that ends inside its own header says nothing
	}
	return at + end
}

// matchup names a matchup as StarCraft players do: each side's races by
// their initials, the sides in a fixed order (PvZ, not ZvP and PvZ as two).
func matchup(side, other []string) string {
	initials := func(races []string) string {
		b := make([]byte, 0, len(races))
		for _, r := range races {
			if r != "" {
				b = append(b, strings.ToUpper(r[:1])[0])
			}
		}
		slices.Sort(b)
		return string(b)
	}
	a, b := initials(side), initials(other)
	if b < a {
		a, b = b, a
	}
	if a == "" || b == "" {
		return a + b
	}
	return a + "v" + b
}
