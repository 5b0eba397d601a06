package teehistorian

import (
	"bytes"

	"rewind/decoders/format"
	"rewind/decoders/frames"
	"rewind/model"
)

// ID is the format's stable name.
const ID model.Format = "teehistorian"

// Format is everything rewind knows about DDNet teehistorian files; the
// registry lists it.
var Format = format.Format{
	ID: ID, Name: "DDNet teehistorian", Exts: []string{".teehistorian"}, Aliases: []string{"ddnet", "tee", "teeworlds"},
	Title:  "map",
	Match:  func(h []byte) bool { return bytes.HasPrefix(h, fileUUID[:]) },
	Decode: Decode, Follow: Follow, Repair: Repair,
	RepairDoes: "cut at the last whole message, append FINISH",
	Summarize:  summarize, Stats: statDefs,
	Frames: frames.Of[FrameRow]("frames_teehistorian", nil),
}
