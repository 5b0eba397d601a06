package bsor

import (
	"bytes"

	"rewind/decoders/format"
	"rewind/decoders/frames"
	"rewind/model"
)

// ID is the format's stable name.
const ID model.Format = "bsor"

// Format is everything rewind knows about BSOR replays; the registry lists
// it.
var Format = format.Format{
	ID: ID, Name: "BSOR replay", Exts: []string{".bsor", ".bsortemp"}, Aliases: []string{"beatsaber", "beatleader"},
	Title:  "song",
	Match:  func(h []byte) bool { return bytes.HasPrefix(h, []byte{0x69, 0x3d, 0x2d, 0x44}) },
	Decode: Decode, Repair: Repair,
	RepairDoes: "cut to the last whole record, fix the section counts, write missing sections empty",
	Summarize:  summarize, Stats: statDefs,
	Frames: frames.Of[FrameRow]("frames_bsor", nil),
}
