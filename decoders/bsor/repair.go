package bsor

// Repair rewrites a BSOR replay whose recording stopped or whose structure
// broke: every whole record the decoder read is kept, byte for byte, under
// section counts that match them; sections the file never reached are
// written empty (a reader expects sections 1 to 5; 6 and 7 are optional);
// bytes after the last section go. The old file is only read.

import (
	"encoding/binary"
	"fmt"
	"strings"

	"rewind/model"
)

// Repair keeps the whole records of a damaged replay under fixed section
// counts. A replay that decodes without a problem needs no repair.
func Repair(data []byte, opt model.RepairOptions) (*model.Repaired, error) {
	if len(data) < 4 || le32(data) != magic {
		return nil, &model.RepairError{Source: source, Msg: fmt.Sprintf("not a BSOR replay: expected magic 69 3d 2d 44, found % x", data[:min(4, len(data))])}
	}
	d := &replay{data: data}
	d.parse(model.DecodeOptions{})
	if r, err := Decode(data, model.DecodeOptions{}); err == nil && r.Problems() == 0 {
		n := len(d.frames)
		return &model.Repaired{Whole: "every section is whole and its count matches its records; nothing to repair", Frames: n, FramesIn: n}, nil
	}
	if !d.info.complete {
		return nil, &model.RepairError{Source: source, Msg: "the info section is not whole (" + model.FirstProblem(d.diags) + "): without it there is no replay to keep"}
	}
	rep := &model.Repaired{Frames: len(d.frames), FramesIn: len(d.frames)}
	out := d.rebuild(rep)
	r, err := Decode(out, model.DecodeOptions{})
	if err != nil {
		return nil, &model.RepairError{Source: source, Msg: "the repaired file does not decode: " + err.Error()}
	}
	if r.Problems() > 0 {
		return nil, &model.RepairError{Source: source, Msg: "the records are whole, but a value in them has a problem that cutting and counting cannot mend: " + model.FirstProblem(r.Diagnostics)}
	}
	rep.Data = out
	return rep, nil
}

// rebuild writes the file from the decoded records and fills in the report.
func (d *replay) rebuild(rep *model.Repaired) []byte {
	data := d.data
	out := make([]byte, 0, len(data)+64)
	out = binary.LittleEndian.AppendUint32(out, magic)
	out = append(out, 1)
	if d.version != 1 {
		rep.Step(model.RepairFixed, fmt.Sprintf("version byte %d -> 1 (the only version there is)", d.version))
	}
	infoStart := 5
	if data[5] == 0 {
		infoStart = 6
	} else {
		rep.Step(model.RepairFixed, fmt.Sprintf("the info section's id byte: %d -> 0", data[5]))
	}
	infoEnd := int(d.info.span.Off + d.info.span.Len)
	out = append(out, 0)
	out = append(out, data[infoStart:infoEnd]...)
	kept := int64(infoEnd) // the header, the info section's id (when there) and its fields

	var keptText, empty, counts []string
	keptText = append(keptText, fmt.Sprintf("the info section (%s)", d.infoSummary()))
	// the record sections: id, count, whole records in file order
	type section struct {
		id       int
		records  [][2]int // offset, length
		declared int      // the count in the file
		read     bool     // the section's id and count were in the file
		what     string
	}
	declared := func(id int, span model.Span) section {
		s := section{id: id, what: sectionNames[id]}
		if span.Len >= 5 && int(span.Off)+5 <= len(data) && int(data[span.Off]) == id {
			s.declared, s.read = int(int32(le32(data[span.Off+1:]))), true
		}
		return s
	}
	secs := []section{declared(1, d.framesSpan)}
	if n := len(d.frames); n > 0 {
		secs[0].records = [][2]int{{int(d.framesSpan.Off) + 5, n * frameSize}}
	}
	notes := declared(2, d.notesSpan)
	for _, n := range d.notes {
		size := noteHead
		if n.HasCut {
			size += cutSize
		}
		notes.records = append(notes.records, [2]int{int(n.Off), size})
	}
	walls := declared(3, d.wallsSpan)
	for _, w := range d.walls {
		walls.records = append(walls.records, [2]int{int(w.Off), wallSize})
	}
	heights := declared(4, d.heightsSpan)
	for _, h := range d.heights {
		heights.records = append(heights.records, [2]int{int(h.Off), heightSize})
	}
	pauses := declared(5, d.pausesSpan)
	for _, p := range d.pauses {
		pauses.records = append(pauses.records, [2]int{int(p.Off), pauseSize})
	}
	secs = append(secs, notes, walls, heights, pauses)
	for i, s := range secs {
		n := []int{len(d.frames), len(d.notes), len(d.walls), len(d.heights), len(d.pauses)}[i]
		out = append(out, byte(s.id))
		out = binary.LittleEndian.AppendUint32(out, uint32(n))
		for _, r := range s.records {
			out = append(out, data[r[0]:r[0]+r[1]]...)
			kept += int64(r[1])
		}
		reached := s.read || n > 0
		if s.read {
			kept += 5 // its id and count were in the file
		}
		switch {
		case !reached:
			empty = append(empty, fmt.Sprintf("%d (%s)", s.id, s.what))
		case !s.read:
			counts = append(counts, fmt.Sprintf("%s count unreadable -> %s", s.what, model.FormatCount(int64(n))))
		case s.declared != n:
			counts = append(counts, fmt.Sprintf("%s count %s -> %s", s.what, model.FormatCount(int64(s.declared)), model.FormatCount(int64(n))))
		}
		if n > 0 {
			keptText = append(keptText, d.recordsText(s.id, n))
		} else if reached {
			keptText = append(keptText, "no "+s.what)
		}
	}
	if d.hasOffsets {
		out = append(out, data[d.offsetsSpan.Off:d.offsetsSpan.Off+d.offsetsSpan.Len]...)
		kept += d.offsetsSpan.Len
		keptText = append(keptText, "the controller offsets")
	}
	if d.hasUser {
		out = append(out, data[d.userSpan.Off:d.userSpan.Off+d.userSpan.Len]...)
		kept += d.userSpan.Len
		keptText = append(keptText, fmt.Sprintf("the user data (%d %s)", len(d.user), plural(len(d.user), "entry", "entries")))
	}

	kt := strings.Join(keptText, ", ")
	if d.truncated && d.info.FailTime <= 0 {
		// BSOR has no end marker: only failTime says a play stopped early
		kt += "; BSOR marks no end, so readers (rewind too) will take the repaired file for a finished play"
	}
	rep.Step(model.RepairKept, kt)
	if cut := int64(len(data)) - kept; cut > 0 {
		rep.BytesCut = cut
		var why []string
		for _, dg := range d.diags {
			if dg.Severity >= model.Warning {
				why = append(why, fmt.Sprintf("%s at %#x: %s", dg.Subject, dg.Span.Off, dg.Message))
			}
		}
		rep.Step(model.RepairCut, fmt.Sprintf("%s %s that no whole record holds: %s", model.FormatCount(cut), plural(int(cut), "byte", "bytes"), strings.Join(why, "; ")))
	}
	if len(empty) > 0 {
		rep.Step(model.RepairSynthesised, fmt.Sprintf("empty %s %s: the file ends before %s, and a reader expects sections 1 to 5",
			plural(len(empty), "section", "sections"), strings.Join(empty, ", "), plural(len(empty), "it", "them")))
	}
	for _, c := range counts {
		rep.Step(model.RepairFixed, c)
	}
	rep.Facts = append(rep.Facts,
		model.Field{Key: "frames", Value: int64(len(d.frames))},
		model.Field{Key: "notes", Value: int64(len(d.notes))},
		model.Field{Key: "walls", Value: int64(len(d.walls))},
		model.Field{Key: "heights", Value: int64(len(d.heights))},
		model.Field{Key: "pauses", Value: int64(len(d.pauses))})
	return out
}

func (d *replay) infoSummary() string {
	in := &d.info
	var parts []string
	if in.PlayerName != "" {
		parts = append(parts, in.PlayerName)
	}
	if in.SongName != "" {
		s := in.SongName
		if in.Difficulty != "" {
			s += " (" + in.Difficulty + ")"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "mod " + in.Version
	}
	return strings.Join(parts, ", ")
}

// recordsText names the records a section keeps.
func (d *replay) recordsText(id, n int) string {
	switch id {
	case 1:
		return fmt.Sprintf("%s %s up to song time %s", model.FormatCount(int64(n)), plural(n, "frame", "frames"), shortTime(d.frames[n-1].Time))
	case 2:
		return fmt.Sprintf("%s %s", model.FormatCount(int64(n)), plural(n, "note", "notes"))
	case 3:
		return fmt.Sprintf("%s %s", model.FormatCount(int64(n)), plural(n, "wall", "walls"))
	case 4:
		return fmt.Sprintf("%s %s", model.FormatCount(int64(n)), plural(n, "height change", "height changes"))
	}
	return fmt.Sprintf("%s %s", model.FormatCount(int64(n)), plural(n, "pause", "pauses"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
