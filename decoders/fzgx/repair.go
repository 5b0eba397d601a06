package fzgx

// Repair recomputes an F-Zero GX replay's checksum: the game refuses a save
// whose CRC-16 at 0x40 does not match its bytes from 0x42 to the end. The
// replay data itself is not rewritten; the old file is only read.

import (
	"encoding/binary"
	"fmt"

	"rewind/model"
)

// Repair writes the replay with its checksum recomputed. A replay whose
// checksum matches and that decodes without a problem needs no repair; one
// whose problem is not the checksum cannot be repaired here.
func Repair(data []byte, opt model.RepairOptions) (*model.Repaired, error) {
	fail := func(format string, args ...any) error {
		return &model.RepairError{Source: source, Msg: fmt.Sprintf(format, args...)}
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		return nil, fail("%v", err)
	}
	if r.Problems() == 0 {
		return &model.Repaired{Whole: "the checksum matches and the replay data reads; nothing to repair",
			Frames: r.Timeline.Count, FramesIn: r.Timeline.Count}, nil
	}
	stored := binary.BigEndian.Uint16(data[checksumOff:])
	computed := crc16(data[fileTypeOff:])
	if stored == computed {
		return nil, fail("the checksum matches; the problem is elsewhere, and rewind's F-Zero GX repair only recomputes the checksum: %s", model.FirstProblem(r.Diagnostics))
	}
	out := append([]byte(nil), data...)
	binary.BigEndian.PutUint16(out[checksumOff:], computed)
	fixed, err := Decode(out, model.DecodeOptions{})
	if err != nil {
		return nil, fail("the repaired file does not decode: %v", err)
	}
	if fixed.Problems() > 0 {
		return nil, fail("recomputing the checksum leaves a problem, and rewind does not rewrite the replay data: %s", model.FirstProblem(fixed.Diagnostics))
	}
	rep := &model.Repaired{Data: out, Frames: fixed.Timeline.Count, FramesIn: r.Timeline.Count}
	what := "every byte but the checksum"
	if fixed.Title != "" {
		what += fmt.Sprintf(" (%s, %s frames)", fixed.Title, model.FormatCount(int64(fixed.Timeline.Count)))
	}
	rep.Step(model.RepairKept, what)
	rep.Step(model.RepairFixed, fmt.Sprintf("checksum at 0x40: %#04x -> %#04x, the CRC-16 of bytes 0x42 to the end (polynomial 0x8408 reflected, initial 0xFFFF, final XOR 0xFFFF). "+
		"The stored value did not match those bytes: either only the checksum was damaged, or bytes after 0x42 changed since the game wrote the save; "+
		"the new checksum makes the game accept them as they are", stored, computed))
	rep.Facts = append(rep.Facts,
		model.Field{Key: "checksum", Value: uint64(computed)},
		model.Field{Key: "frames", Value: int64(fixed.Timeline.Count)})
	return rep, nil
}
