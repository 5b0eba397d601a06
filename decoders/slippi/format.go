package slippi

import (
	"bytes"
	"encoding/binary"

	"rewind/decoders/format"
	"rewind/decoders/frames"
	"rewind/model"
)

// ID is the format's stable name.
const ID model.Format = "slippi"

// Format is everything rewind knows about Slippi replays; the registry
// lists it.
var Format = format.Format{
	ID: ID, Name: "Slippi replay", Exts: []string{".slp"}, Aliases: []string{"melee", "ssbm"},
	Title: "stage", Character: "character",
	Match:    func(h []byte) bool { return bytes.HasPrefix(h, magic) },
	NearMiss: nearMiss,
	Extent:   extent,
	Decode:   Decode, Follow: Follow, Repair: Repair,
	Summarize: Summarize, Stats: statDefs,
	RepairDoes: "cut at the last complete frame, set the raw length, append a Game End (No Contest; Unresolved before 2.0.0), rebuild the metadata (startAt, lastFrame, players, playedOn); leave out the frame updates of a port no player has (an early recorder's garbage)",
	Frames:     frames.Of[FrameRow]("frames_slippi", nil, "pre", "post"),
	Dolphin:    true,
}

// nearMiss names the files that look like Slippi's but are not.
func nearMiss(data []byte, ext string) string {
	switch {
	case ext == ".slpz":
		// slpz (P1n3appl3/slpz) keeps Game Start and the metadata as they
		// are but reorders every event column by column before zstd: a
		// layout of its own, versioned by its one tool, with no file here
		// to hold a reader to; rewind names it rather than guess
		return "an slpz-compressed Slippi replay (its own layout of reordered events under zstd); decompress it with slpz -d first"
	case ext == ".zlp" && bytes.HasPrefix(data, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return "an xz archive (a slippc-compressed .zlp replay; decompress it with slippc first)"
	case bytes.HasPrefix(data, []byte("{U")) || bytes.HasPrefix(data, []byte("{i")):
		return "a UBJSON object that does not start with Slippi's raw element"
	}
	return ""
}

// metadataMax is the most a Slippi file may hold after its raw element
// (the metadata object and the closing brace). Real metadata is a few
// hundred bytes; the allowance only keeps a huge tail from being read.
const metadataMax = 1 << 20

// extent: the raw element states its length (0 while recording).
func extent(head []byte, size int64) int64 {
	lenAt := len(magic)
	if len(head) < lenAt+4 {
		return -1
	}
	raw := int64(binary.BigEndian.Uint32(head[lenAt:]))
	if raw == 0 {
		return -1
	}
	return int64(lenAt) + 4 + raw + metadataMax
}
