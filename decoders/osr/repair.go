package osr

// Repair rewrites an osu! replay whose frames were cut short or damaged:
// the header is kept byte for byte, the frames are the whole records the
// decoder read (input, placeholders, the seed), compressed again as one
// LZMA member under a length that matches it, followed by the online
// score id (0 when it was lost) and, for lazer versions, the score info
// (an empty JSON object when it was lost). The old file is only read.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/ulikunitz/xz/lzma"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// Repair makes a clean replay of a damaged one. A replay that decodes
// without a problem needs none.
func Repair(data []byte, opt model.RepairOptions) (*model.Repaired, error) {
	if len(data) == 0 || data[0] > modeMania {
		return nil, &model.RepairError{Source: source, Msg: "not an osu! replay: the first byte is no game mode (0-3)"}
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		return nil, &model.RepairError{Source: source, Msg: err.Error()}
	}
	if r.Problems() == 0 {
		n := r.Timeline.Count
		return &model.Repaired{Whole: "the frames decompress whole and every field is where the format puts it; nothing to repair", Frames: n, FramesIn: n}, nil
	}
	d := &decoder{data: data, b: budget.New(int64(len(data)), model.Limits{})}
	d.parse(model.DecodeOptions{})
	if d.reached < stTime {
		return nil, &model.RepairError{Source: source, Msg: "the header is not whole (" + model.FirstProblem(d.diags) + "): without it there is no replay to keep"}
	}
	if d.reached < stFrames || d.frames.null {
		return nil, &model.RepairError{Source: source, Msg: "the file has no frames to keep (" + model.FirstProblem(d.diags) + ")"}
	}
	rep := &model.Repaired{}
	out, err := d.rebuild(rep)
	if err != nil {
		return nil, err
	}
	check, err := Decode(out, model.DecodeOptions{})
	if err != nil {
		return nil, &model.RepairError{Source: source, Msg: "the repaired file does not decode: " + err.Error()}
	}
	if check.Problems() > 0 {
		return nil, &model.RepairError{Source: source, Msg: "the frames are whole again, but a value has a problem that cutting and compressing cannot mend: " + model.FirstProblem(check.Diagnostics)}
	}
	rep.Data = out
	rep.Frames = check.Timeline.Count
	rep.FramesIn = len(d.recs.frames)
	return rep, nil
}

// rebuild writes the repaired file and its report.
func (d *decoder) rebuild(rep *model.Repaired) ([]byte, error) {
	rs := &d.recs
	m := &d.frames
	// the whole records in file order: inputs and the special records
	// that are no damage
	type piece struct{ index, off, n int32 }
	pieces := make([]piece, 0, len(rs.frames)+len(rs.specials))
	sp := 0
	for i := range rs.frames {
		for sp < len(rs.specials) && rs.specials[sp].at <= int32(i) {
			if s := rs.specials[sp]; s.kind == spPlaceholder || s.kind == spSeed {
				pieces = append(pieces, piece{s.index, s.off, s.n})
			}
			sp++
		}
		pieces = append(pieces, piece{-1, rs.frames[i].off, rs.frames[i].n})
	}
	for ; sp < len(rs.specials); sp++ {
		if s := rs.specials[sp]; s.kind == spPlaceholder || s.kind == spSeed {
			pieces = append(pieces, piece{s.index, s.off, s.n})
		}
	}
	if len(rs.frames) == 0 {
		return nil, &model.RepairError{Source: source, Msg: "no whole input frame to keep (" + model.FirstProblem(d.diags) + ")"}
	}
	var text bytes.Buffer
	for _, p := range pieces {
		text.Write(m.text[p.off : p.off+p.n])
		text.WriteByte(',')
	}
	comp, err := compress(text.Bytes())
	if err != nil {
		return nil, &model.RepairError{Source: source, Msg: "compressing the frames failed: " + err.Error()}
	}

	out := make([]byte, 0, len(d.data)+64)
	out = append(out, d.data[:m.lenOff]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(comp)))
	out = append(out, comp...)
	kept := int64(m.lenOff) // the header, byte for byte

	last := rs.frames[len(rs.frames)-1]
	keptText := []string{fmt.Sprintf("the header (%s)", d.headerSummary()),
		fmt.Sprintf("%s input %s up to song time %s", model.FormatCount(int64(len(rs.frames))), plural(len(rs.frames), "frame", "frames"), model.FormatDuration(ms(last.t)))}
	if rs.hasSeed {
		keptText = append(keptText, "the RNG seed record")
	} else if d.h.version >= 20130401 {
		keptText = append(keptText, "no RNG seed record (it was lost; the file reads as a replay from before seeds)")
	}
	var fixed, synth []string
	switch {
	case m.plain:
		fixed = append(fixed, fmt.Sprintf("the frames were plain text (%d bytes): compressed as LZMA (%d bytes)", m.n, len(comp)))
	case int(m.declared) != len(comp) || m.err != "":
		fixed = append(fixed, fmt.Sprintf("the frames' LZMA member compressed again from the whole records (%d bytes), its length field %d -> %d", len(comp), m.declared, len(comp)))
	default:
		fixed = append(fixed, fmt.Sprintf("the frames' LZMA member compressed again (%d bytes)", len(comp)))
	}

	// the online score id, as wide as the version writes it
	want := idWidth(d.h.version)
	switch {
	case d.h.idWidth > 0 && (d.h.idWidth == want || want == 0 || (want == 4 && d.h.idWidth == 8)):
		out = append(out, d.data[d.h.idSpan.Off:d.h.idSpan.End()]...)
		kept += int64(d.h.idWidth)
		keptText = append(keptText, fmt.Sprintf("the online score id %d", d.h.id))
	case d.h.idWidth > 0: // 4 bytes where the version writes 8
		out = binary.LittleEndian.AppendUint64(out, uint64(d.h.id))
		kept += int64(d.h.idWidth)
		fixed = append(fixed, fmt.Sprintf("the online score id %d written in the 8 bytes the version reads", d.h.id))
	case want == 8:
		out = binary.LittleEndian.AppendUint64(out, 0)
		synth = append(synth, "the online score id as 0 (not submitted): it was lost")
	case want == 4:
		out = binary.LittleEndian.AppendUint32(out, 0)
		synth = append(synth, "the online score id as 0 (not submitted): it was lost")
	}
	if d.h.version >= scoreInfoVersion {
		si := &d.scoreInfo
		if si.present && si.err == "" && !si.short && !si.budget && d.info != nil && d.info.err == "" && !si.plain {
			out = append(out, d.data[si.lenOff:si.off+si.n]...)
			kept += int64(si.off + si.n - si.lenOff)
			keptText = append(keptText, "the score info")
		} else {
			body := []byte("{}")
			why := "it was lost"
			if si.present && si.text != nil && d.info != nil && d.info.err == "" {
				body, why = si.text, "it was stored as plain text"
			}
			c, err := compress(body)
			if err != nil {
				return nil, &model.RepairError{Source: source, Msg: "compressing the score info failed: " + err.Error()}
			}
			out = binary.LittleEndian.AppendUint32(out, uint32(len(c)))
			out = append(out, c...)
			if string(body) == "{}" {
				synth = append(synth, "an empty score info ({}): "+why+" (osu!lazer reads no statistics from it)")
			} else {
				fixed = append(fixed, "the score info compressed as LZMA: "+why)
			}
		}
	}

	// what was lost: the text records that did not read, the bytes of the
	// old frames member and what came after it
	lostRecs := rs.bad
	for _, s := range rs.specials {
		if s.kind == spCut {
			lostRecs++
		}
	}
	rep.Step(model.RepairKept, strings.Join(keptText, ", "))
	if cut := int64(len(d.data)) - kept - int64(4+m.n); cut > 0 || lostRecs > 0 || m.err != "" {
		var why []string
		for _, dg := range d.diags {
			if dg.Severity >= model.Warning {
				why = append(why, fmt.Sprintf("%s at %s: %s", dg.Subject, dg.Span, dg.Message))
			}
		}
		rep.BytesCut = max(cut, 0)
		rep.Step(model.RepairCut, fmt.Sprintf("%d %s that did not read whole and %s %s after the frames: %s",
			lostRecs, plural(lostRecs, "frame record", "frame records"), model.FormatCount(max(cut, 0)), plural(int(max(cut, 0)), "byte", "bytes"), strings.Join(why, "; ")))
	}
	for _, s := range synth {
		rep.Step(model.RepairSynthesised, s)
	}
	for _, f := range fixed {
		rep.Step(model.RepairFixed, f)
	}
	rep.Facts = append(rep.Facts,
		model.Field{Key: "frames", Value: int64(len(rs.frames))},
		model.Field{Key: "records", Value: int64(len(pieces))},
		model.Field{Key: "lastTime", Value: ms(last.t)},
		model.Field{Key: "rngSeed", Value: rs.hasSeed})
	return out, nil
}

// compress writes text as an LZMA member the way osu! writes one: LZMA
// alone, lc 3 lp 0 pb 2, a 2 MiB dictionary, the size in the header.
func compress(text []byte) ([]byte, error) {
	var buf bytes.Buffer
	cfg := lzma.WriterConfig{DictCap: 1 << 21, Size: int64(len(text)), SizeInHeader: true, EOSMarker: len(text) == 0}
	w, err := cfg.NewWriter(&buf)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(text); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (d *decoder) headerSummary() string {
	h := &d.h
	s := modeNames[h.mode]
	if h.player.s != "" {
		s = h.player.s + ", " + s
	}
	if t := d.start(); !t.IsZero() {
		s += ", " + t.Format("2006-01-02 15:04")
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
