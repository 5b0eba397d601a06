package model

import "time"

// RepairOptions is what a repair may know beyond the file's bytes.
type RepairOptions struct {
	// ModTime is the damaged file's modification time, the moment its
	// writer last wrote to it. A format whose start time lives in a trailer
	// the writer never wrote (Slippi's metadata) estimates it from this;
	// zero leaves it out.
	ModTime time.Time
}

// Repair actions, in the order a report lists them.
const (
	RepairKept        = "kept"
	RepairCut         = "cut"
	RepairSynthesised = "synthesised"
	RepairFixed       = "fixed"
)

// RepairStep is one line of a repair's report.
type RepairStep struct {
	Action string // RepairKept, RepairCut, RepairSynthesised or RepairFixed
	Text   string // what, for people: "frames -123..311 (435 frames)"
}

// Repaired is what a format's repair made of a file: the bytes of a new
// file (never the old one changed) and what it kept, cut, synthesised and
// fixed to get there. A repair checks its own output: Data decodes without
// a warning or an error, or the repair fails instead.
type Repaired struct {
	// Data is the repaired file; nil when the file needs no repair.
	Data []byte
	// Whole, when not empty, says why the file needs no repair ("the
	// recording is complete: ..."); Data is nil then.
	Whole string
	// Steps is the report, kept first, then cut, synthesised, fixed.
	Steps []RepairStep
	// Frames is how many timeline units (frames, ticks, samples) the
	// repaired file holds; FramesIn how many the damaged one had that
	// decoded, -1 when the format has no timeline to count (F-Zero GX's
	// checksum repair keeps every byte).
	Frames, FramesIn int
	// BytesCut counts the bytes of the damaged file left out.
	BytesCut int64
	// Facts are values of the repaired file a script may check, keyed as
	// the format's decoder keys its fields (Slippi: "lastFrame",
	// "gameEndMethod").
	Facts []Field
}

// Step appends a line to the report.
func (r *Repaired) Step(action, text string) {
	r.Steps = append(r.Steps, RepairStep{Action: action, Text: text})
}

// RepairError is a file a repair could not make whole, and why.
type RepairError struct {
	Source string // the format: "slippi"
	Msg    string
}

func (e *RepairError) Error() string { return e.Source + ": " + e.Msg }
