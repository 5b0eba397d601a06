// Package fzgx decodes F-Zero GX replays: GameCube memory-card saves (.gci).
//
// A replay is a 0x40-byte GCI directory entry, an F-Zero GX block header
// (checksum, file type, comment, banner, icon) and from 0x20A0 a bitstream
// whose fields are read bit-reversed (see rewind/decoders/internal/bitread): the race
// setup, the racers with their custom machines and emblems, the total frame
// count, four replay checkpoints with machine positions, and the player's
// controller input as runs of unchanged input. The timeline has one frame per
// game frame from the start of the countdown; the race timer starts at frame
// 182.
package fzgx

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

const source = "fzgx"

// maxChartPoints caps the samples of a chart series.
const maxChartPoints = 4096

// Decode reads a whole file. It returns nil and an error only when the
// file cannot be read at all; damage after a readable start gives a partial
// replay with diagnostics.
func Decode(data []byte, opt model.DecodeOptions) (*model.Replay, error) {
	rep := &model.Replay{Format: ID, FormatName: "F-Zero GX replay"}
	diag := func(d model.Diagnostic) {
		d.Source = source
		rep.Diagnostics = append(rep.Diagnostics, d)
	}
	g, err := parseGCI(data, opt.HeaderOnly, diag)
	if err != nil {
		return nil, err
	}
	rep.Version = fmt.Sprintf("%s (%s)", g.gameCode, g.region)
	rep.Start = g.modTime
	rep.Header = []model.Field{{Key: "gci", Label: "GCI header", Span: model.Span{Off: 0, Len: min(streamOff, int64(len(data)))}, Fields: g.fields}}

	if len(data) < streamOff {
		diag(model.Diagnostic{Severity: model.Error, Span: model.Span{Off: int64(len(data))}, Frame: -1, Subject: "replay data",
			Message: "the file ends before the replay data", Expected: "replay bitstream at 0x20a0", Found: fmt.Sprintf("%d bytes", len(data))})
		rep.Partial = true
		rep.Finish()
		return rep, nil
	}
	body := data[streamOff:]
	s := decodeStream(body, streamOff, opt.HeaderOnly, diag)
	rep.Header = append(rep.Header, model.Field{Key: "replay", Label: "Replay data",
		Span: model.Span{Off: streamOff, Len: (s.endBit + 7) >> 3}, Fields: s.fields})
	if opt.Progress != nil {
		opt.Progress(streamOff+(s.endBit>>3), int64(len(data)))
	}

	if s.topOK {
		rep.Title = courseName(s.course)
		rep.Mode = modeName(s.mode)
		if s.mode == 1 {
			rep.Mode += " (" + difficultyName(s.difficulty) + ")"
		}
	}
	if s.hasTotal {
		rep.Duration = frameDur(max(0, s.totalFrames-raceStartFrame))
		rep.Result = "finished " + raceTime(s.totalFrames-raceStartFrame)
	}
	rep.Partial = !s.complete || opt.HeaderOnly
	checkHeader(s, diag)

	b := &build{rep: rep, s: s}
	b.players()
	if opt.HeaderOnly {
		if s.hasTotal {
			// the total states the timeline's length (b.timeline's count)
			tl := &rep.Timeline
			tl.Count, tl.Rate, tl.Unit = int(s.totalFrames), 60, "frame"
		}
		rep.Finish()
		return rep, nil
	}
	checkStream(s, body, diag)
	if !s.hasTotal && s.complete {
		// Racer Array types below 5 have no total: the inputs give the length.
		rep.Duration = frameDur(max(0, s.inputSum-raceStartFrame))
		rep.Result = "finished " + raceTime(s.inputSum-raceStartFrame)
	}
	if !payTimeline(budget.New(int64(len(data)), opt.Limits), s, rep) {
		rep.Finish()
		return rep, nil
	}
	b.timeline()
	b.events(!opt.NoEvents)
	b.pictures()
	rep.Analyze = b.analyze
	rep.Finish()
	return rep, nil
}

// payTimeline pays the decode's budget for the timeline before it is
// built: per frame the input index and the timeline's index, per input run
// its record, its start and its event (and the few notable events). The
// fields' widths bound all of it (2^20 frames, 2^14 runs), so only a budget
// scaled down refuses; then the replay keeps its header and players.
func payTimeline(bud *budget.Budget, s *stream, rep *model.Replay) bool {
	frames := max(s.inputSum, s.totalFrames) + 1
	runs := int64(len(s.inputs) + len(s.checkpoints) + 2)
	err := bud.Items("frames", frames, 2+8)
	if err == nil {
		err = bud.Items("input runs", runs, 4+budget.SizeOf[model.Event]())
	}
	if err == nil {
		return true
	}
	at := model.Span{Off: streamOff}
	if f, ok := model.Find(s.fields, "replayArray"); ok {
		at = f.Span
	}
	rep.Diagnostics = append(rep.Diagnostics, bud.Diagnostic(source, at, -1))
	rep.Partial = true
	return false
}

func frameDur(frames int64) time.Duration {
	return time.Duration(frames) * time.Second / 60
}

// checkHeader compares the race setup with what the spec documents.
func checkHeader(s *stream, diag func(model.Diagnostic)) {
	field := func(key string) model.Span {
		f, _ := model.Find(s.fields, key)
		return f.Span
	}
	if !s.topOK {
		return
	}
	if s.racerType != 5 {
		diag(model.Diagnostic{Severity: model.Info, Span: field("racerArrayType"), Frame: -1, Subject: "Racer Array type",
			Message: "the spec has only seen 5; fields depend on it", Expected: "5", Found: fmt.Sprint(s.racerType)})
	}
	if _, ok := courseNames[s.course]; !ok {
		diag(model.Diagnostic{Severity: model.Warning, Span: field("courseId"), Frame: -1, Subject: "Course ID",
			Message: "not in the course table", Found: fmt.Sprint(s.course)})
	}
	nRacers := int64(len(s.racers))
	if f, ok := model.Find(s.fields, "racerArrayElementCount"); ok {
		nRacers, _ = f.Value.(int64)
	}
	switch s.mode {
	case 2:
		if nRacers != 1 {
			diag(model.Diagnostic{Severity: model.Warning, Span: field("racerArrayElementCount"), Frame: -1, Subject: "Racer Array element count",
				Message: "a Time Attack replay has one racer", Expected: "1", Found: fmt.Sprint(nRacers)})
		}
		if s.difficulty != 1 {
			// The one real replay reads 0 here: the spec's "Time Attack
			// gets 1" does not hold, so this is worth knowing, not an error.
			diag(model.Diagnostic{Severity: model.Info, Span: field("gpDifficulty"), Frame: -1, Subject: "GP difficulty",
				Message:  "the spec says Time Attack replays have 1 (Standard); real replays disagree",
				Expected: "1", Found: fmt.Sprint(s.difficulty)})
		}
	case 1:
		if nRacers != 30 {
			diag(model.Diagnostic{Severity: model.Warning, Span: field("racerArrayElementCount"), Frame: -1, Subject: "Racer Array element count",
				Message: "a Grand Prix replay has 30 racers", Expected: "30", Found: fmt.Sprint(nRacers)})
		}
		if s.difficulty > 3 {
			diag(model.Diagnostic{Severity: model.Warning, Span: field("gpDifficulty"), Frame: -1, Subject: "GP difficulty",
				Message: "not a documented difficulty", Expected: "0 to 3", Found: fmt.Sprint(s.difficulty)})
		}
	default:
		diag(model.Diagnostic{Severity: model.Warning, Span: field("gameMode"), Frame: -1, Subject: "Game mode",
			Message: "neither Grand Prix nor Time Attack", Expected: "1 or 2", Found: fmt.Sprint(s.mode)})
	}
	if s.laps != 3 {
		diag(model.Diagnostic{Severity: model.Warning, Span: field("lapCount"), Frame: -1, Subject: "Lap count",
			Message: "the spec documents 3 laps", Expected: "3", Found: fmt.Sprint(s.laps)})
	}
	humans := 0
	for i, rc := range s.racers {
		if rc.human {
			humans++
		}
		if _, ok := machineNames[rc.machine]; !ok && rc.machine != 50 {
			diag(model.Diagnostic{Severity: model.Warning, Span: rc.fields[1].Span, Frame: -1, Subject: fmt.Sprintf("racer %d machine ID", i+1),
				Message: "not in the machine table", Found: fmt.Sprint(rc.machine)})
		}
		if rc.custom && rc.cmID != rc.machine {
			diag(model.Diagnostic{Severity: model.Warning, Span: rc.cmSpan, Frame: -1, Subject: fmt.Sprintf("racer %d custom machine ID", i+1),
				Message: "the spec says it repeats the Racer Array's Machine ID", Expected: fmt.Sprint(rc.machine), Found: fmt.Sprint(rc.cmID)})
		}
		if rc.custom && rc.emblems > emblemSlots {
			diag(model.Diagnostic{Severity: model.Warning, Span: rc.span, Frame: -1, Subject: fmt.Sprintf("racer %d emblem count", i+1),
				Message: "more emblems than slots", Expected: "0 to 4", Found: fmt.Sprint(rc.emblems)})
		}
	}
	if len(s.racers) > 0 && humans != 1 {
		diag(model.Diagnostic{Severity: model.Warning, Span: field("racerArray"), Frame: -1, Subject: "Racer Array",
			Message: "the input array belongs to one human racer", Expected: "1 human", Found: fmt.Sprintf("%d humans", humans)})
	}
}

// checkStream checks the checkpoints, the input total and the padding.
func checkStream(s *stream, body []byte, diag func(model.Diagnostic)) {
	if f, ok := model.Find(s.fields, "replayCheckpointArrayElementCount"); ok {
		if n, _ := f.Value.(int64); n != 4 {
			diag(model.Diagnostic{Severity: model.Warning, Span: f.Span, Frame: -1, Subject: "Replay Checkpoint Array element count",
				Message: "the spec documents 4 checkpoints", Expected: "4", Found: fmt.Sprint(n)})
		}
	}
	for i, cp := range s.checkpoints {
		subj := fmt.Sprintf("checkpoint %d", i+1)
		if i == 0 && cp.frame1 != raceStartFrame {
			diag(model.Diagnostic{Severity: model.Warning, Span: cp.fields[0].Span, Frame: -1, Subject: subj,
				Message: "the first checkpoint is at the race start", Expected: fmt.Sprint(raceStartFrame), Found: fmt.Sprint(cp.frame1)})
		}
		if i > 0 && cp.frame1 < s.checkpoints[i-1].frame1 {
			diag(model.Diagnostic{Severity: model.Warning, Span: cp.fields[0].Span, Frame: -1, Subject: subj,
				Message:  "checkpoint frames go backwards",
				Expected: fmt.Sprintf(">= %d", s.checkpoints[i-1].frame1), Found: fmt.Sprint(cp.frame1)})
		}
		if cp.frame2 < cp.frame1 {
			diag(model.Diagnostic{Severity: model.Info, Span: cp.fields[1].Span, Frame: -1, Subject: subj,
				Message:  "frame number 2 is before frame number 1, which disables the checkpoint",
				Expected: fmt.Sprintf(">= %d", cp.frame1), Found: fmt.Sprint(cp.frame2)})
		}
		if s.hasTotal && cp.frame1 >= s.totalFrames {
			diag(model.Diagnostic{Severity: model.Info, Span: cp.fields[0].Span, Frame: -1, Subject: subj,
				Message:  "the checkpoint is at or after the last frame, so it is never checked",
				Expected: fmt.Sprintf("< %d", s.totalFrames), Found: fmt.Sprint(cp.frame1)})
		}
	}
	if s.complete && s.hasTotal && s.inputSum != s.totalFrames {
		diag(model.Diagnostic{Severity: model.Warning, Span: s.totalSpan, Frame: -1, Subject: "replay input array",
			Message:  "the input runs do not add up to the total frames",
			Expected: fmt.Sprintf("%d frames", s.totalFrames), Found: fmt.Sprintf("%d frames", s.inputSum)})
	}
	if !s.complete {
		return
	}
	// After the input array the file is zeros to the end of its last block.
	end := s.endBit
	var nz int64 = -1
	if end&7 != 0 && body[end>>3]>>(end&7) != 0 {
		nz = end >> 3
	}
	if nz < 0 {
		for i := (end + 7) >> 3; i < int64(len(body)); i++ {
			if body[i] != 0 {
				nz = i
				break
			}
		}
	}
	if nz >= 0 {
		diag(model.Diagnostic{Severity: model.Info, Span: model.Span{Off: streamOff + nz, Len: int64(len(body)) - nz}, Frame: -1,
			Subject: "padding", Message: "data after the input array where the spec has zeros",
			Expected: "00", Found: fmt.Sprintf("%02x", body[nz])})
	}
}

// build turns the decoded stream into the model.
type build struct {
	rep   *model.Replay
	s     *stream
	human int // index of the racer whose input the file holds, -1 none
	// frameInput[f] is the input element in force at frame f; frames past
	// the end of the input array have none.
	frameInput []uint16
	runStart   []int32 // first frame of each input element
}

func (b *build) players() {
	b.human = -1
	for i, rc := range b.s.racers {
		// The file names no person, so a racer is named by its pilot, as
		// the race shows it; human or CPU is in the fields.
		p := model.Player{Slot: fmt.Sprintf("P%d", i+1), Fields: rc.fields}
		p.Name = pilotName(rc.machine)
		if rc.custom {
			p.Name = pilotName(rc.pilot)
		}
		if rc.human {
			if b.human < 0 {
				b.human = i
				if b.s.hasTotal {
					p.Result = "finished " + raceTime(b.s.totalFrames-raceStartFrame)
				}
			}
		}
		p.Character = machineName(rc.machine)
		if rc.custom {
			if rc.original {
				parts := make([]string, 0, 3)
				for _, id := range rc.parts {
					if pn, ok := partNames[id]; ok {
						parts = append(parts, pn.name)
					} else {
						parts = append(parts, fmt.Sprintf("part %d", id))
					}
				}
				p.Character = "Custom: " + strings.Join(parts, " / ")
			} else {
				p.Character += " (custom)"
			}
		}
		b.rep.Players = append(b.rep.Players, p)
	}
}

func (b *build) timeline() {
	s := b.s
	count := s.inputSum
	if s.hasTotal {
		// The 20-bit field caps this at about a million frames.
		count = s.totalFrames
	}
	tl := &b.rep.Timeline
	tl.Count, tl.First, tl.Rate, tl.Unit = int(count), 0, 60, "frame"
	tl.LabelOf = func(i int) string { return raceTime(int64(i) - raceStartFrame) }
	tl.TimeOf = func(i int) time.Duration { return frameDur(int64(i) - raceStartFrame) }

	// Expand the runs only as far as both the timeline and the data reach:
	// each element read from the file covers at most 256 frames.
	n := min(count, s.inputSum)
	b.frameInput = make([]uint16, n)
	b.runStart = make([]int32, len(s.inputs))
	f := int64(0)
	for i, in := range s.inputs {
		b.runStart[i] = int32(f)
		for k := int64(0); k < int64(in.frames) && f < n; k++ {
			b.frameInput[f] = uint16(i)
			f++
		}
	}
	b.rep.State = b.state
	b.rep.FrameRows = b.frameRows(b.rep) // typed rows for rewind export (rows.go)
}

// inputAt returns the input element in force at frame f, or -1.
func (b *build) inputAt(f int) int {
	if f < 0 || f >= len(b.frameInput) {
		return -1
	}
	return int(b.frameInput[f])
}

// passed is the number of checkpoints whose frame has been reached.
func (b *build) passed(f int) int {
	n := 0
	for _, cp := range b.s.checkpoints { // at most 255, usually 4
		if int64(f) >= cp.frame1 {
			n++
		}
	}
	return n
}

func (b *build) state(f, p int) model.PlayerState {
	if p < 0 || p >= len(b.s.racers) {
		return model.PlayerState{}
	}
	if p != b.human {
		// CPUs drive themselves; the file holds no state for them.
		return model.PlayerState{Present: true, Brief: []model.Field{{Key: "control", Label: "Control", Value: "CPU"}}}
	}
	cps := b.passed(f)
	cpField := model.Field{Key: "checkpointsPassed", Label: "Checkpoints passed", Value: int64(cps),
		Name: fmt.Sprintf("CP %d/%d", cps, len(b.s.checkpoints))}
	phase := "countdown"
	switch {
	case int64(f) >= int64(b.rep.Timeline.Count)-1 && b.s.hasTotal:
		phase = "finished"
	case f >= raceStartFrame:
		phase = "racing"
	}
	phaseField := model.Field{Key: "phase", Label: "Phase", Value: phase}
	i := b.inputAt(f)
	if i < 0 {
		return model.PlayerState{Present: true, Brief: []model.Field{{Key: "input", Label: "Input", Value: "none recorded"}, cpField},
			Fields: []model.Field{phaseField, cpField}}
	}
	in := b.s.inputs[i]
	x, y := stick(in.steerX), stick(in.steerY)
	btn := model.Field{Key: "replayElementButtons", Label: "Buttons", Value: uint64(in.buttons), Name: buttonNames(in.buttons)}
	accel := model.Field{Key: "replayElementAccel", Label: "Accel", Value: int64(in.accel)}
	brake := model.Field{Key: "replayElementBrake", Label: "Brake", Value: int64(in.brake)}
	steer := model.Field{Key: "steer", Label: "Steer", Value: fmt.Sprintf("(%+.2f, %+.2f)", x, y)}
	return model.PlayerState{
		Present: true,
		Brief:   []model.Field{btn, {Key: "accel", Label: "Accel", Value: int64(in.accel), Name: fmt.Sprintf("A%d", in.accel)}, {Key: "brake", Label: "Brake", Value: int64(in.brake), Name: fmt.Sprintf("B%d", in.brake)}, steer, cpField},
		Fields: []model.Field{
			phaseField,
			btn,
			{Key: "replayElementStrafe", Label: "Strafe", Value: int64(in.strafe)},
			accel, brake,
			{Key: "replayElementSteerX", Label: "Steer X", Value: int64(in.steerX), Name: fmt.Sprintf("%+.3f", x)},
			{Key: "replayElementSteerY", Label: "Steer Y", Value: int64(in.steerY), Name: fmt.Sprintf("%+.3f", y)},
			{Key: "inputElement", Label: "Input element", Value: int64(i)},
			{Key: "runFrame", Label: "Frame within the run", Value: int64(f - int(b.runStart[i])), Name: fmt.Sprintf("%d of %d", f-int(b.runStart[i])+1, in.frames)},
			cpField,
		},
	}
}

// stick maps a signed stick byte to [-1, 1].
func stick(v int8) float64 { return float64(v) / 128 }

// buttonBits names the bits the spec documents; 0x04 is set with nothing
// pressed.
var buttonBits = []struct {
	bit  uint8
	name string
}{{0x40, "Boost"}, {0x80, "Side attack"}, {0x10, "L+R"}}

func buttonNames(v uint8) string {
	var parts []string
	for _, bb := range buttonBits {
		if v&bb.bit != 0 {
			parts = append(parts, bb.name)
		}
	}
	for _, bit := range []uint8{0x01, 0x02, 0x08, 0x20} {
		if v&bit != 0 {
			parts = append(parts, fmt.Sprintf("%#02x", bit))
		}
	}
	if v&0x04 == 0 {
		parts = append(parts, "no 0x04")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// Event kinds: indices into kindNames, the replay's Kinds.
const (
	kStart model.KindID = iota
	kCheckpoint
	kFinish
	kInput
)

var kindNames = []string{kStart: "start", kCheckpoint: "checkpoint", kFinish: "finish", kInput: "input"}

// flagPastEnd marks an event the file places after its last frame (shown
// at the last one); markNames names it.
const flagPastEnd = model.MarkBase

var markNames = []string{"past end"}

// events adds the input runs, the start, the checkpoints and the finish;
// without keep (DecodeOptions.NoEvents) only what they tell the
// diagnostics.
func (b *build) events(keep bool) {
	s, rep := b.s, b.rep
	count := rep.Timeline.Count
	if count == 0 {
		return
	}
	clamp := func(f int64) int { return int(max(0, min(f, int64(count-1)))) }
	// The inputs stop where the whole elements end: the element the end of
	// the data cut through starts there, and the diagnostic that says so
	// belongs to that frame (e goes to it).
	stop := clamp(s.inputSum)
	if s.inputsCut {
		for i := range rep.Diagnostics {
			if d := &rep.Diagnostics[i]; d.Subject == "replay input array" && d.Span.Off == s.inputsCutAt && d.Frame < 0 {
				d.Frame = stop
			}
		}
	}
	rep.Kinds, rep.Marks = kindNames, markNames
	rep.Summarize = b.summarize
	rep.Detail = b.detail
	if !keep {
		return
	}
	player := int16(b.human)
	// The few notable events, in frame order; the input runs are in frame
	// order already, so merging them hands Finish a sorted list (its stable
	// sort then moves nothing).
	notable := make([]model.Event, 0, len(s.checkpoints)+2)
	if count > raceStartFrame {
		notable = append(notable, model.Event{Frame: raceStartFrame, Player: -1, Kind: kStart, Flags: model.Notable, Ref: -1})
	}
	for i, cp := range s.checkpoints {
		ev := model.Event{Frame: int32(clamp(cp.frame1)), Player: player, Kind: kCheckpoint, Flags: model.Notable, Ref: int32(i), Off: cp.span.Off, Len: cp.span.Len}
		if cp.frame1 >= int64(count) {
			ev.Flags |= flagPastEnd
		}
		notable = append(notable, ev)
	}
	if s.hasTotal {
		notable = append(notable, model.Event{Frame: int32(count - 1), Player: player, Kind: kFinish, Flags: model.Notable, Ref: -1,
			Off: s.totalSpan.Off, Len: s.totalSpan.Len})
	}
	sort.SliceStable(notable, func(i, j int) bool { return notable[i].Frame < notable[j].Frame })

	rep.Events = make([]model.Event, 0, len(s.inputs)+len(notable))
	k := 0
	for i := range s.inputs {
		frame := clamp(int64(b.runStart[i]))
		for k < len(notable) && int(notable[k].Frame) < frame {
			rep.Events = append(rep.Events, notable[k])
			k++
		}
		sp := b.inputSpan(i)
		ev := model.Event{Frame: int32(frame), Player: player, Kind: kInput, Ref: int32(i), Off: sp.Off, Len: sp.Len}
		if int64(b.runStart[i]) >= int64(count) {
			ev.Flags |= flagPastEnd
		}
		rep.Events = append(rep.Events, ev)
	}
	rep.Events = append(rep.Events, notable[k:]...)
	if s.cutBits > 0 {
		from, end := s.cutFrom>>3, (s.cutFrom+int64(s.cutBits)+7)>>3
		rep.Events = append(rep.Events, model.Event{Frame: int32(stop), Player: player, Kind: kInput, Ref: -1,
			Flags: model.Partial, Off: streamOff + from, Len: end - from})
	}
}

func (b *build) inputSpan(i int) model.Span {
	from := b.s.inputStart + int64(i)*inputBits
	first, last := from>>3, (from+inputBits+7)>>3
	return model.Span{Off: streamOff + first, Len: last - first}
}

func (b *build) summarize(ev *model.Event) string {
	st, ref := b.s, int(ev.Ref)
	switch {
	case ev.Flags&model.Partial != 0:
		return fmt.Sprintf("input element cut off by the end of the data: %d of its %d bits", st.cutBits, inputBits)
	case ev.Kind == kStart:
		return "Go! the race timer starts"
	case ev.Kind == kCheckpoint && ref >= 0 && ref < len(st.checkpoints):
		cp := &st.checkpoints[ref]
		return fmt.Sprintf("checkpoint %d at %s, position (%.3f, %.3f, %.3f)", ref+1, raceTime(cp.frame1-raceStartFrame), cp.pos[0].x, cp.pos[0].y, cp.pos[0].z)
	case ev.Kind == kFinish:
		return "finish line crossed: " + raceTime(st.totalFrames-raceStartFrame)
	case ev.Kind != kInput || ref < 0 || ref >= len(st.inputs):
		return ""
	}
	in := st.inputs[ref]
	s := fmt.Sprintf("%s accel %d brake %d steer (%+.2f, %+.2f)", buttonNames(in.buttons), in.accel, in.brake, stick(in.steerX), stick(in.steerY))
	if in.strafe != 0 {
		s += fmt.Sprintf(" strafe %+d", in.strafe)
	}
	if in.frames == 1 {
		return s + " for 1 frame"
	}
	return s + fmt.Sprintf(" for %d frames", in.frames)
}

// detail re-reads an input element's fields with their spans.
func (b *build) detail(ev *model.Event) []model.Field {
	ref := int(ev.Ref)
	if ev.Flags&model.Partial != 0 && b.s.cutBits > 0 {
		// read as a whole element whose missing bits are zero, then cut
		end := streamOff + (b.s.cutFrom+int64(b.s.cutBits)+7)>>3
		return model.CutOff(inputFields(decodeInput(b.s.cutWord), b.s.cutFrom), end, b.s.cutBits, inputBits, "bits")
	}
	if ev.Kind == kCheckpoint && ref >= 0 && ref < len(b.s.checkpoints) {
		return b.s.checkpoints[ref].fields
	}
	if ev.Kind != kInput || ref < 0 || ref >= len(b.s.inputs) {
		return nil
	}
	return inputFields(b.s.inputs[ref], b.s.inputStart+int64(ref)*inputBits)
}

// inputFields are an input element's fields; from is its bit offset in
// the stream.
func inputFields(in input, from int64) []model.Field {
	vals := []any{uint64(in.buttons), int64(in.strafe), int64(in.accel), int64(in.brake), int64(in.frames - 1), int64(in.steerX), int64(in.steerY)}
	out := make([]model.Field, len(inputSpec))
	for k, sp := range inputSpec {
		first, last := from>>3, (from+int64(sp.bits)+7)>>3
		out[k] = model.Field{Key: sp.key, Label: sp.label, Value: vals[k], Span: model.Span{Off: streamOff + first, Len: last - first}}
		from += int64(sp.bits)
	}
	out[0].Name = buttonNames(in.buttons)
	out[4].Name = fmt.Sprintf("%d frames", in.frames)
	if in.frames == 1 {
		out[4].Name = "1 frame"
	}
	out[5].Name = fmt.Sprintf("%+.3f", stick(in.steerX))
	out[6].Name = fmt.Sprintf("%+.3f", stick(in.steerY))
	return out
}

// pictures sets the stage view (stick and checkpoints) and the charts.
func (b *build) pictures() {
	count := b.rep.Timeline.Count
	if count == 0 || b.human < 0 {
		return
	}
	box := []model.Line{
		{X1: -1, Y1: -1, X2: 1, Y2: -1}, {X1: 1, Y1: -1, X2: 1, Y2: 1},
		{X1: 1, Y1: 1, X2: -1, Y2: 1}, {X1: -1, Y1: 1, X2: -1, Y2: -1},
		{X1: -1, Y1: 0, X2: 1, Y2: 0}, {X1: 0, Y1: -1, X2: 0, Y2: 1},
	}
	// The checkpoints seen from above: X across, Z up the screen.
	bounds := model.Rect{MinX: math.Inf(1), MinY: math.Inf(1), MaxX: math.Inf(-1), MaxY: math.Inf(-1)}
	var cps []model.Point
	for i, cp := range b.s.checkpoints {
		p := cp.pos[0]
		if !finite(p.x) || !finite(p.z) {
			continue
		}
		bounds.MinX, bounds.MaxX = min(bounds.MinX, p.x), max(bounds.MaxX, p.x)
		bounds.MinY, bounds.MaxY = min(bounds.MinY, p.z), max(bounds.MaxY, p.z)
		cps = append(cps, model.Point{X: p.x, Y: p.z, Player: -1, Kind: "checkpoint", Label: fmt.Sprintf("CP%d", i+1)})
	}
	if len(cps) > 0 {
		padX := max((bounds.MaxX-bounds.MinX)*0.1, 1)
		padY := max((bounds.MaxY-bounds.MinY)*0.1, 1)
		bounds = model.Rect{MinX: bounds.MinX - padX, MinY: bounds.MinY - padY, MaxX: bounds.MaxX + padX, MaxY: bounds.MaxY + padY}
	}
	human := b.human
	b.rep.Scenes = func(f int) []model.Scene {
		out := make([]model.Scene, 0, 2)
		stickScene := model.Scene{Title: "Steering stick", Bounds: model.Rect{MinX: -1, MinY: -1, MaxX: 1, MaxY: 1}, Lines: box}
		if i := b.inputAt(f); i >= 0 {
			in := b.s.inputs[i]
			stickScene.Points = []model.Point{{X: stick(in.steerX), Y: stick(in.steerY), Player: human, Kind: "player", Label: "stick"}}
		}
		out = append(out, stickScene)
		if len(cps) > 0 {
			pts := make([]model.Point, len(cps), len(cps)+1)
			copy(pts, cps)
			if n := b.passed(f); n > 0 && n <= len(b.s.checkpoints) {
				p := b.s.checkpoints[n-1].pos[0]
				if finite(p.x) && finite(p.z) {
					pts = append(pts, model.Point{X: p.x, Y: p.z, Player: human, Kind: "player", Label: fmt.Sprintf("passed CP%d", n)})
				}
			}
			out = append(out, model.Scene{Title: "Replay checkpoints (X/Z)", Bounds: bounds, Points: pts})
		}
		return out
	}

	n := min(count, maxChartPoints)
	accel := make([]float64, n)
	brake := make([]float64, n)
	for k := 0; k < n; k++ {
		f := int(int64(k) * int64(count) / int64(n))
		if i := b.inputAt(f); i >= 0 {
			accel[k] = float64(b.s.inputs[i].accel)
			brake[k] = float64(b.s.inputs[i].brake)
		}
	}
	b.rep.Charts = []model.Chart{
		{Title: "Accelerator", Series: []model.Series{{Label: "accel", Player: human, Values: accel}}},
		{Title: "Brake", Series: []model.Series{{Label: "brake", Player: human, Values: brake}}},
	}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
