package teehistorian

// Repair ends a teehistorian recording whose server stopped writing (a
// crash leaves no FINISH, a copy may stop inside a message): the stream is
// cut at the last whole message before the first problem and FINISH is
// appended. The old file is only read.

import (
	"bytes"
	"fmt"
	"strings"

	"rewind/model"
)

// finishByte is FINISH (-1) as a Teeworlds int (NOTES.md).
const finishByte = 0x40

// Repair cuts the message stream at the last whole message and appends
// FINISH. A recording that ends with FINISH and has no problem needs no
// repair.
func Repair(data []byte, opt model.RepairOptions) (*model.Repaired, error) {
	fail := func(format string, args ...any) error {
		return &model.RepairError{Source: source, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data) < 16 || !bytes.Equal(data[:16], fileUUID[:]) {
		return nil, fail("%s", describeNotTeehistorian(data))
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		return nil, fail("%v", err)
	}
	if r.Problems() == 0 && r.Result == resultComplete {
		return &model.Repaired{Whole: "the recording ends with FINISH and every message reads; nothing to repair",
			Frames: r.Timeline.Count, FramesIn: r.Timeline.Count}, nil
	}
	nul := bytes.IndexByte(data[16:], 0)
	if nul < 0 {
		return nil, fail("the file ends inside the JSON header (no NUL after it): there is no header to keep")
	}
	stream := 16 + nul + 1
	first, ok := firstProblem(r, stream)
	if !ok || first.Span.Off < int64(stream) {
		return nil, fail("the header has a problem, which cutting messages cannot mend: %s", first)
	}
	cut := int(first.Span.Off)
	var why []string
	for pass := 0; pass < 8; pass++ {
		why = append(why, first.Subject+": "+first.Message)
		// What is kept may already end with FINISH (bytes followed it).
		out := data[:cut:cut]
		kept, err := Decode(out, model.DecodeOptions{})
		appended := false
		if err != nil || kept.Result != resultComplete {
			out = append(out, finishByte)
			appended = true
			if kept, err = Decode(out, model.DecodeOptions{}); err != nil {
				return nil, fail("the repaired file does not decode: %v", err)
			}
		}
		p, ok := firstProblem(kept, stream)
		if !ok {
			return report(r, kept, data, out, cut, appended, why), nil
		}
		if p.Span.Off < int64(stream) || p.Span.Off >= int64(cut) {
			return nil, fail("after cutting at %#x the file still has a problem: %s", cut, p)
		}
		first, cut = p, int(p.Span.Off)
	}
	return nil, fail("the stream has a problem at every place it could be cut: %s", first)
}

// firstProblem is the warning or error at the lowest offset; the header's
// come before the stream's.
func firstProblem(r *model.Replay, stream int) (model.Diagnostic, bool) {
	var first model.Diagnostic
	ok := false
	for _, d := range r.Diagnostics {
		if d.Severity >= model.Warning && (!ok || d.Span.Off < first.Span.Off) {
			first, ok = d, true
		}
	}
	return first, ok
}

// report says what the repair kept, cut and appended.
func report(old, r *model.Replay, data, out []byte, cut int, appended bool, why []string) *model.Repaired {
	rep := &model.Repaired{Data: out, Frames: r.Timeline.Count, FramesIn: old.Timeline.Count}
	last := r.Timeline.Count - 1
	kept := "the header"
	if r.Title != "" {
		kept += fmt.Sprintf(" (map %s)", r.Title)
	}
	kept += fmt.Sprintf(", the messages up to %#x: ticks 0..%d (%s), %s %s", cut, last, model.FormatDuration(r.Duration),
		model.FormatCount(int64(countEvents(r))), plural(countEvents(r), "event"))
	if !appended {
		kept += ", its FINISH"
	}
	rep.Step(model.RepairKept, kept)
	if n := len(data) - cut; n > 0 {
		rep.BytesCut = int64(n)
		rep.Step(model.RepairCut, fmt.Sprintf("%s %s from %#x: %s", model.FormatCount(int64(n)), plural(n, "byte"), cut, strings.Join(why, "; then ")))
	}
	if appended {
		rep.Step(model.RepairSynthesised, fmt.Sprintf("FINISH (0x40) at %#x: the message a server writes when it stops or changes map", cut))
	}
	rep.Facts = append(rep.Facts,
		model.Field{Key: "ticks", Value: int64(r.Timeline.Count)},
		model.Field{Key: "lastTick", Value: int64(last)})
	return rep
}

// countEvents counts the events the recording holds, FINISH left out.
func countEvents(r *model.Replay) int {
	n := 0
	for _, e := range r.Events {
		if e.Kind != kEnd {
			n++
		}
	}
	return n
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
