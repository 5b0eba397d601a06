package osr

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// frame is one input record of the frames text.
type frame struct {
	t    int64   // song time in ms: the sum of every w up to this record
	x, y float64 // the cursor; catch: the catcher's x; mania: x is the columns held
	w    int32   // ms since the record before, as the file has it
	z    int32   // the keys
	off  int32   // the record's offset in the text
	n    int32   // its length, without the comma
}

// spKind is what a record that is no input is.
type spKind uint8

const (
	spPlaceholder spKind = iota // one of stable's two (256, -500) records at the start
	spSeed                      // -12345|0|0|seed at the end
	spBad                       // a record that does not read
	spCut                       // the record the end of the text cut through
)

var spNames = [...]string{"placeholder", "seed", "bad record", "cut record"}

// special is a record that is not input: it is an event at the input
// frame it comes before (the last one for the seed and a cut record).
type special struct {
	kind   spKind
	index  int32 // the record's number among all records
	at     int32 // the input frame it is shown at
	off, n int32 // its bytes in the text
	w      int64
	x, y   float64
	z      int64
	why    string // what does not read (spBad, spCut)
}

// recordSet is the frames text read into records.
type recordSet struct {
	frames   []frame
	specials []special
	records  int   // every record, input or not
	seed     int64 // the RNG seed, when hasSeed
	hasSeed  bool
	bad      int // records that do not read
	extra    int // records with more than four fields
	late     int // -12345 records that are not the last, read as input as osrparse reads them
	floatW   int // records whose w is written as a decimal
}

// maxBadListed is how many records that do not read get a diagnostic of
// their own; the rest are counted in one.
const maxBadListed = 16

// parseRecords reads the text's records. cut says the text stops where
// the stream broke, so the piece after the last comma is a record cut
// through and not taken for input.
func (d *decoder) parseRecords(text []byte, cut bool) {
	rs := &d.recs
	body := text
	var partial []byte
	partialAt := 0
	if cut {
		k := bytes.LastIndexByte(body, ',')
		partial, partialAt = body[k+1:], k+1
		body = body[:k+1]
	}
	// stable ends the text with a comma, lazer does not: trailing commas
	// end the last record
	for len(body) > 0 && body[len(body)-1] == ',' {
		body = body[:len(body)-1]
	}
	if len(body) > math.MaxInt32 {
		d.diag(model.Error, model.Span{Stream: StreamFrames, Off: math.MaxInt32}, "frames",
			"the frames text is longer than 2 GiB; the rest is not read", "", "")
		body = body[:math.MaxInt32]
	}
	n := 0
	if len(body) > 0 {
		n = bytes.Count(body, []byte{','}) + 1
	}
	span := model.Span{Stream: StreamFrames, Off: 0, Len: int64(len(body))}
	if !d.paid(d.b.Step("frame records", int64(n)), span) ||
		!d.paid(d.b.Items("frame records", int64(n), budget.SizeOf[frame]()), span) ||
		!d.paid(d.b.Alloc("frame records: text copy", int64(len(body))), span) {
		return
	}
	rs.frames = make([]frame, 0, n)
	rs.records = n
	s := string(body) // one copy: strconv reads substrings of it without more
	var t int64
	badListed := 0
	for i, p := 0, 0; i < n; i++ {
		e := strings.IndexByte(s[p:], ',')
		if e < 0 {
			e = len(s)
		} else {
			e += p
		}
		rec := s[p:e]
		off := p
		p = e + 1
		w, x, y, z, nf, why := parseRecord(rec)
		if why == "" && nf > 4 {
			rs.extra++
		}
		if why == "" && (w < math.MinInt32 || w > math.MaxInt32 || z < math.MinInt32 || z > math.MaxInt32) {
			why = "w or z is outside a 32-bit integer"
		}
		sp := special{index: int32(i), at: int32(len(rs.frames)), off: int32(off), n: int32(len(rec)), w: w, x: x, y: y, z: z}
		switch {
		case why != "":
			sp.kind, sp.why = spBad, why
			rs.specials = append(rs.specials, sp)
			rs.bad++
			if badListed < maxBadListed {
				badListed++
				d.diags = append(d.diags, model.Diagnostic{Severity: model.Error, Source: source,
					Span: model.Span{Stream: StreamFrames, Off: int64(off), Len: int64(len(rec))}, Frame: -1,
					Subject: fmt.Sprintf("frame record %d", i), Message: why + "; the record is left out and its time with it",
					Expected: "w|x|y|z", Found: fmt.Sprintf("%q", truncate([]byte(rec), 40))})
			}
		case w == seedDelta && i == n-1:
			// the last record carries the RNG seed, not input
			sp.kind = spSeed
			rs.seed, rs.hasSeed = z, true
			rs.specials = append(rs.specials, sp)
		case i < 2 && x == 256 && y == -500:
			// stable's placeholders: their time counts, their position is none
			sp.kind = spPlaceholder
			t += w
			rs.specials = append(rs.specials, sp)
		default:
			if w == seedDelta {
				rs.late++
			}
			if strings.ContainsAny(rec[:strings.IndexByte(rec, '|')], ".eE") {
				rs.floatW++
			}
			t += w
			rs.frames = append(rs.frames, frame{t: t, x: x, y: y, w: int32(w), z: int32(z), off: int32(off), n: int32(len(rec))})
		}
	}
	if badListed < rs.bad {
		d.diag(model.Error, model.Span{Stream: StreamFrames}, "frames", fmt.Sprintf("%d more records do not read (%d in all); left out", rs.bad-badListed, rs.bad), "", "")
	}
	if len(partial) > 0 {
		w, x, y, z, _, why := parseRecord(string(partial))
		if why == "" {
			why = "it may be whole, but the stream broke before its comma"
		}
		rs.specials = append(rs.specials, special{kind: spCut, index: int32(n), at: int32(len(rs.frames)),
			off: int32(partialAt), n: int32(len(partial)), w: w, x: x, y: y, z: z, why: why})
	}
	if rs.extra > 0 {
		d.diag(model.Warning, model.Span{Stream: StreamFrames}, "frames", fmt.Sprintf("%d records have more than four fields; the first four are read", rs.extra), "w|x|y|z", "")
	}
	if rs.late > 0 {
		d.diag(model.Info, model.Span{Stream: StreamFrames}, "frames",
			fmt.Sprintf("%d records with w = -12345 are not the last; read as input, as osrparse reads them (osu!lazer skips them)", rs.late), "", "")
	}
	if rs.floatW > 0 {
		d.diag(model.Info, model.Span{Stream: StreamFrames}, "frames", fmt.Sprintf("%d records write w as a decimal; read as whole milliseconds", rs.floatW), "", "")
	}
}

// parseRecord reads "w|x|y|z". why says what does not read; nf is the
// number of fields.
func parseRecord(rec string) (w int64, x, y float64, z int64, nf int, why string) {
	if rec == "" {
		return 0, 0, 0, 0, 0, "an empty record (two commas in a row)"
	}
	var f [4]string
	nf = 0
	for rest := rec; ; nf++ {
		i := strings.IndexByte(rest, '|')
		if nf < 4 {
			if i < 0 {
				f[nf] = rest
			} else {
				f[nf] = rest[:i]
			}
		}
		if i < 0 {
			nf++
			break
		}
		rest = rest[i+1:]
	}
	if nf < 4 {
		return 0, 0, 0, 0, nf, fmt.Sprintf("%d fields where a record has 4 (w|x|y|z)", nf)
	}
	var err error
	if w, err = strconv.ParseInt(f[0], 10, 64); err != nil {
		// osu!lazer reads w as a float; stable writes whole numbers
		v, ferr := strconv.ParseFloat(f[0], 64)
		if ferr != nil || v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
			return 0, 0, 0, 0, nf, fmt.Sprintf("w %q is not a whole number of milliseconds", f[0])
		}
		w = int64(v)
	}
	if x, err = strconv.ParseFloat(f[1], 64); err != nil {
		return w, 0, 0, 0, nf, fmt.Sprintf("x %q is not a number", f[1])
	}
	if y, err = strconv.ParseFloat(f[2], 64); err != nil {
		return w, x, 0, 0, nf, fmt.Sprintf("y %q is not a number", f[2])
	}
	if z, err = strconv.ParseInt(f[3], 10, 64); err != nil {
		return w, x, y, 0, nf, fmt.Sprintf("z %q is not a whole number", f[3])
	}
	return w, x, y, z, nf, ""
}

// readFrames reads the frames member, decompresses it and reads its
// records. false when the file ends inside it.
func (d *decoder) readFrames() bool {
	m := &d.frames
	*m = member{what: "frames", stream: StreamFrames}
	if !d.readMember(m) {
		return false
	}
	d.reached = stFrames
	d.inflate(m, false)
	d.memberDiags(m)
	switch {
	case m.null:
		d.diag(model.Warning, at(m.lenOff, 4), "frames", "no replay data: the frames block's length is -1 (how osu!'s score lists store a score without a replay)", "a length > 0", "-1")
	case m.n == 0 && !m.short:
		d.diag(model.Warning, at(m.lenOff, 4), "frames", "no replay data: the frames block is empty", "a length > 0", "0")
	}
	if m.text != nil {
		d.parseRecords(m.text, m.err != "" || m.budget)
		d.payBuild()
	}
	d.add(d.framesField())
	return !m.short
}

// framesField describes the frames member: its length, the LZMA header,
// the text and what its records are.
func (d *decoder) framesField() model.Field {
	m := &d.frames
	f := model.Field{Key: "frames", Label: "Frames (LZMA)", Span: at(m.lenOff, m.off+m.n-m.lenOff)}
	f.Fields = append(f.Fields, model.Field{Key: "length", Label: "Compressed length", Value: int64(m.declared), Span: at(m.lenOff, 4)})
	f.Fields = append(f.Fields, memberFields(m)...)
	rs := &d.recs
	if m.text != nil {
		f.Fields = append(f.Fields,
			model.Field{Key: "records", Label: "Records", Value: int64(rs.records), Span: model.Span{Stream: StreamFrames, Len: int64(len(m.text))}},
			model.Field{Key: "inputFrames", Label: "Input frames (the timeline)", Value: int64(len(rs.frames))})
		var ph int64
		for _, s := range rs.specials {
			if s.kind == spPlaceholder {
				ph++
			}
		}
		f.Fields = append(f.Fields, model.Field{Key: "placeholders", Label: "Placeholder records (256, -500)", Value: ph})
		seed := model.Field{Key: "rngSeed", Label: "RNG seed (-12345 record)", Name: "none (no seed record)"}
		if rs.hasSeed {
			seed.Value, seed.Name = rs.seed, ""
			for _, s := range rs.specials {
				if s.kind == spSeed {
					seed.Span = model.Span{Stream: StreamFrames, Off: int64(s.off), Len: int64(s.n)}
				}
			}
		}
		f.Fields = append(f.Fields, seed)
		if rs.bad > 0 {
			f.Fields = append(f.Fields, model.Field{Key: "badRecords", Label: "Records that do not read", Value: int64(rs.bad)})
		}
	}
	return f
}

// memberFields are an LZMA member's header values and what it gave.
func memberFields(m *member) []model.Field {
	var fs []model.Field
	switch {
	case m.null:
		return []model.Field{{Key: "data", Label: "Data", Value: "none (length -1)"}}
	case m.plain:
		fs = append(fs, model.Field{Key: "storage", Label: "Storage", Value: "plain text (no LZMA)", Span: at(m.off, m.n)})
	case m.header:
		lc, lp, pb := int64(m.props%9), int64(m.props/9%5), int64(m.props/45)
		fs = append(fs,
			model.Field{Key: "lzmaProperties", Label: "LZMA properties", Value: int64(m.props), Name: fmt.Sprintf("lc %d lp %d pb %d", lc, lp, pb), Span: at(m.off, 1)},
			model.Field{Key: "lzmaDictionary", Label: "LZMA dictionary size", Value: int64(m.dict), Span: at(m.off+1, 4)},
			sizeField(m),
			model.Field{Key: "compressed", Label: "Compressed stream", Value: int64(m.n - lzmaHeaderLen), Span: at(m.off+lzmaHeaderLen, m.n-lzmaHeaderLen)})
	}
	if m.text != nil || m.header {
		fs = append(fs, model.Field{Key: "textLength", Label: "Decompressed text bytes (stream " + m.stream + ")", Value: int64(len(m.text)),
			Span: model.Span{Stream: m.stream, Len: int64(len(m.text))}})
	}
	if m.err != "" {
		fs = append(fs, model.Field{Key: "stopped", Label: "Decompression stopped", Value: m.err, Span: at(m.errOff, 0)})
	}
	return fs
}

func sizeField(m *member) model.Field {
	f := model.Field{Key: "lzmaSize", Label: "Declared text size", Value: m.size, Span: at(m.off+5, 8)}
	if m.size == -1 {
		f.Name = "unknown (-1: the stream ends with a marker)"
	}
	return f
}

// idWidth is how many bytes of online score id a version writes: 8 from
// 2014-07-21, 4 from 2012-10-08, none before. Version 0 is no game's: the
// third-party writers that use it write 8, as osrparse reads.
func idWidth(v int32) int {
	switch {
	case v >= longIDVersion || v == 0:
		return 8
	case v >= shortIDVersion:
		return 4
	}
	return 0
}

// payBuild pays, as soon as the frames are read, for what the replay is
// built from them with: the timeline's time per frame, the key changes
// and an event for each change and each record that is no input. Paid
// here, a refusal later in the file (a score info claiming too much)
// leaves the frames their timeline. On refusal the frames are dropped.
func (d *decoder) payBuild() {
	rs := &d.recs
	changes := 0
	var prev uint32
	for i := range rs.frames {
		k := keysOf(d.h.mode, &rs.frames[i])
		changes += bits.OnesCount32(k ^ prev)
		prev = k
	}
	d.changes = changes
	ev := budget.SizeOf[model.Event]() + 8 // the event and its place in the frame index
	n := int64(len(rs.frames))
	if !d.paid(d.b.Items("frames: timeline", n+1, 8), d.framesSpan()) ||
		!d.paid(d.b.Items("frames: key changes", int64(changes), budget.SizeOf[change]()), d.framesSpan()) ||
		!d.paid(d.b.Items("frames: events", int64(changes+len(rs.specials)), ev), d.framesSpan()) {
		rs.frames, rs.specials = nil, nil
	}
}

// readTail reads what follows the frames: the online score id, lazer's
// score info, and reports bytes after them.
func (d *decoder) readTail() {
	h := &d.h
	v := h.version
	rest := len(d.data) - d.pos
	want := idWidth(v)
	width := want
	switch {
	case want == 8 && rest == 4 && v < scoreInfoVersion:
		width = 4
		d.diag(model.Warning, at(d.pos, 4), "onlineScoreId", "the online score id has 4 bytes where this version writes 8; read as an int32", "8 bytes", "4 bytes")
	case want == 4 && rest == 8:
		// osrparse reads 8 bytes whenever there are 8: replays of that time
		// downloaded later carry the newer, long id
		width = 8
		d.diag(model.Info, at(d.pos, 8), "onlineScoreId", "the online score id has 8 bytes where this version wrote 4 (a replay of that time downloaded later); read as an int64", "4 bytes", "8 bytes")
	case want == 0 && (rest == 8 || rest == 4):
		width = rest
		d.diag(model.Info, at(d.pos, rest), "onlineScoreId", fmt.Sprintf("version %d writes no online score id; the %d bytes after the frames are read as one, as osrparse reads them", v, rest), "", "")
	}
	if width > 0 && rest < width {
		d.cut(d.pos, width, "onlineScoreId", "the online score id")
		return
	}
	if width > 0 {
		if width == 8 {
			h.id = int64(le64(d.data[d.pos:]))
		} else {
			h.id = int64(int32(le32(d.data[d.pos:])))
		}
		h.idWidth, h.idSpan = width, at(d.pos, width)
		d.pos += width
		f := model.Field{Key: "onlineScoreId", Label: "Online score id", Value: h.id, Span: h.idSpan}
		switch h.id {
		case 0:
			f.Name = "0 (not submitted)"
		case -1:
			f.Name = "-1 (none; lazer's id is in the score info)"
		}
		d.add(f)
	}
	d.reached = stID
	if v >= scoreInfoVersion {
		if d.pos >= len(d.data) {
			d.cut(d.pos, 4, "scoreInfo", "the score info block's length (osu!lazer's versions from 30000001 write one)")
			return
		}
		m := &d.scoreInfo
		*m = member{what: "score info", stream: StreamScoreInfo}
		if !d.readMember(m) {
			return
		}
		d.inflate(m, true)
		d.memberDiags(m)
		if m.text != nil && m.err == "" && !m.budget {
			d.info = d.readScoreInfo(m.text)
		}
		d.add(d.scoreInfoField())
		if m.short {
			return
		}
	}
	d.reached = stEnd
	if rest := len(d.data) - d.pos; rest > 0 {
		d.diags = append(d.diags, model.Diagnostic{Severity: model.Warning, Source: source, Span: at(d.pos, rest), Frame: -1,
			Subject: "trailing bytes", Message: fmt.Sprintf("%d bytes after the end of the replay; not read", rest),
			Expected: "the end of the file", Found: fmt.Sprintf("% x", d.data[d.pos:d.pos+min(rest, 8)]), Skipped: true})
	}
}
