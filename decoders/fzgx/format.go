package fzgx

import (
	"encoding/binary"
	"fmt"
	"strings"

	"rewind/decoders/format"
	"rewind/decoders/frames"
	"rewind/model"
)

// ID is the format's stable name.
const ID model.Format = "fzgx"

// Format is everything rewind knows about F-Zero GX replays; the registry
// lists it.
var Format = format.Format{
	ID: ID, Name: "F-Zero GX replay", Exts: []string{".gci"}, Aliases: []string{"fzero", "gx"},
	Title: "course", Character: "machine",
	Match: func(h []byte) bool {
		return len(h) >= 4 && string(h[:3]) == "GFZ" && strings.IndexByte("EJP", h[3]) >= 0
	},
	NearMiss: func(data []byte, ext string) string {
		if len(data) >= 4 && string(data[:3]) == "GFZ" {
			return fmt.Sprintf("an F-Zero GX save with an unknown region code %q", data[3])
		}
		return ""
	},
	Extent: extent,
	Decode: Decode, Repair: Repair,
	RepairDoes: "recompute the checksum",
	Summarize:  summarize, Stats: statDefs,
	Frames: frames.Of[FrameRow]("frames_fzgx", nil),
}

// extent: the GCI directory entry states the save's blocks.
func extent(head []byte, size int64) int64 {
	const blocksAt, headerSize, blockSize = 0x38, 0x40, 0x2000
	if len(head) < blocksAt+2 {
		return -1
	}
	blocks := int64(binary.BigEndian.Uint16(head[blocksAt:]))
	if blocks == 0 {
		return -1
	}
	return headerSize + blocks*blockSize
}
