// Package bsor decodes Beat Saber replays (.bsor) in BeatLeader's open replay format.
//
// A file is the magic 0x442d3d69, a version byte, then sections each opened
// by its id byte: 0 info, 1 frames, 2 note events, 3 wall events, 4 height
// changes, 5 pauses, and the optional 6 controller offsets and 7 user data.
// Everything is little-endian. The decoder reads the sections in order,
// recovers the known quirks of real files (see NOTES.md: UTF-16 length
// prefixes in front of UTF-8 bytes, frames with time 0, a lone trailing
// section id) and, when a section is damaged, looks for the next section by
// checking that the fixed-size sections after it chain up to the end of the
// file.
package bsor

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"rewind/decoders/internal/binread"
	"rewind/decoders/internal/budget"
	"rewind/model"
)

const (
	source = "bsor"
	magic  = 0x442d3d69

	frameSize  = 4 + 4 + 3*poseSize
	poseSize   = 7 * 4
	noteHead   = 16 // noteID, eventTime, spawnTime, eventType
	cutSize    = 4 + 4 + 12 + 4 + 4 + 4 + 12 + 12 + 4*4
	wallSize   = 16
	heightSize = 8
	pauseSize  = 12
	offsetSize = 2 * poseSize

	// maxString is the longest length prefix accepted before the reader
	// assumes the previous string's prefix was too short (NOTES.md: reference
	// decoders use 300 for the info strings).
	maxString = 300
	// maxSlide bounds how far the reader slides to recover a too-short prefix.
	maxSlide = 64
)

type vec3 struct{ X, Y, Z float32 }
type quat struct{ X, Y, Z, W float32 }
type pose struct {
	Pos vec3
	Rot quat
}

type frame struct {
	Time              float32
	FPS               int32
	Head, Left, Right pose
}

type cutInfo struct {
	SpeedOK, DirectionOK, SaberTypeOK, WasCutTooSoon bool
	SaberSpeed                                       float32
	SaberDir                                         vec3
	SaberType                                        int32
	TimeDeviation, CutDirDeviation                   float32
	CutPoint, CutNormal                              vec3
	CutDistanceToCenter, CutAngle                    float32
	BeforeCutRating, AfterCutRating                  float32
}

type note struct {
	Off                  int64
	ID                   int32
	EventTime, SpawnTime float32
	EventType            int32
	HasCut               bool
	Cut                  cutInfo
}

type wall struct {
	Off                    int64
	ID                     int32
	Energy, Time, SpawnTim float32
}

type height struct {
	Off    int64
	Height float32
	Time   float32
}

type pause struct {
	Off      int64
	Duration int64
	Time     float32
}

type userEntry struct {
	Key      string
	KeySpan  model.Span
	Value    []byte
	ValSpan  model.Span
	Fallback bool // the section was read as one blob, as the spec draws it
}

type info struct {
	Version, GameVersion, Timestamp        string
	PlayerID, PlayerName, Platform         string
	TrackingSystem, HMD, Controller        string
	Hash, SongName, Mapper, Difficulty     string
	Score                                  int32
	Mode, Environment, Modifiers           string
	JumpDistance                           float32
	LeftHanded                             bool
	Height, StartTime, FailTime, Speed     float32
	complete                               bool
	fields                                 []model.Field
	span                                   model.Span
	sectionOK                              bool
	nameRecovered, anyRecovered, anyEscape bool
}

// replay is everything read from the file, before it becomes a model.Replay.
type replay struct {
	data    []byte
	version byte
	info    info

	frames      []frame
	framesSpan  model.Span
	notes       []note
	notesSpan   model.Span
	walls       []wall
	wallsSpan   model.Span
	heights     []height
	heightsSpan model.Span
	pauses      []pause
	pausesSpan  model.Span

	hasOffsets  bool
	offsets     [2]pose
	offsetsSpan model.Span
	hasUser     bool
	user        []userEntry
	userSpan    model.Span

	// lastSection is the highest section id read completely.
	lastSection int
	truncated   bool // the file stops inside a section
	diags       []model.Diagnostic
	cut         cutRecord      // the record the end of the file cut through; have 0 when none
	b           *budget.Budget // the decode's one allowance
	over        bool           // the budget refused (recorded once)
	budget      int            // steps spent searching for sections (see probe)
	peekLast    float32        // header-only: the last frame's time, read without the frames
	peekCount   int            // header-only: the frame count, when the frames section is whole
	peekRate    float64        // header-only: the frames' median FPS
}

func (d *replay) diag(sev model.Severity, off int64, subject, msg, expected, found string) {
	d.diags = append(d.diags, model.Diagnostic{Severity: sev, Source: source, Span: model.Span{Off: off},
		Frame: -1, Subject: subject, Message: msg, Expected: expected, Found: found})
}

// paid reports whether the budget paid a claim (err is its answer). The
// first refusal is recorded as an error at off; the file is then read no
// further.
func (d *replay) paid(err error, off int) bool {
	if err == nil {
		return true
	}
	if !d.over {
		d.over = true
		d.diags = append(d.diags, d.b.Diagnostic(source, model.Span{Off: int64(off)}, -1))
	}
	return false
}

func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func f32(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }

func readPose(b []byte) pose {
	return pose{
		Pos: vec3{f32(b[0:]), f32(b[4:]), f32(b[8:])},
		Rot: quat{f32(b[12:]), f32(b[16:]), f32(b[20:]), f32(b[24:])},
	}
}

// Decode reads a whole file. It returns nil and an error only when the
// file cannot be read at all; damage after a readable start gives a partial
// replay with diagnostics.
func Decode(data []byte, opt model.DecodeOptions) (*model.Replay, error) {
	if len(data) < 4 || le32(data) != magic {
		found := fmt.Sprintf("% x", data[:min(4, len(data))])
		return nil, &model.FormatError{Source: source, Off: 0,
			Msg: fmt.Sprintf("not a BSOR replay: expected magic 69 3d 2d 44, found %s", found)}
	}
	d := &replay{data: data}
	d.parse(opt)
	return d.build(opt), nil
}

// parse reads the sections in order, stopping at the first damage it
// cannot step over.
func (d *replay) parse(opt model.DecodeOptions) {
	data := d.data
	d.b = budget.New(int64(len(data)), opt.Limits)
	if len(data) < 5 {
		d.truncated = true
		d.diag(model.Error, 4, "version", "file ends before the version byte", "1 byte", "end of file")
		return
	}
	d.version = data[4]
	if d.version != 1 {
		d.diag(model.Warning, 4, "version", "unknown file version; reading it as version 1", "1", fmt.Sprint(d.version))
	}
	pos := 5
	if pos >= len(data) {
		d.truncated = true
		d.diag(model.Error, int64(pos), "section 0", "file ends before the info section", "section id 0", "end of file")
		return
	}
	if data[pos] != 0 {
		d.diag(model.Error, int64(pos), "section 0", "info section id missing; reading the info from here anyway", "0", fmt.Sprint(data[pos]))
	} else {
		pos++
	}
	pos = d.parseInfo(pos)
	if !d.info.complete {
		d.truncated = true
		return
	}
	d.lastSection = 0
	if opt.HeaderOnly {
		// the last frame's time gives the duration, the count and each
		// frame's FPS the timeline, without reading the poses
		if pos+5 <= len(data) && data[pos] == 1 {
			c := int(int32(le32(data[pos+1:])))
			if c > 0 && c <= (len(data)-pos-5)/frameSize {
				first := pos + 5
				d.peekLast = f32(data[first+(c-1)*frameSize:])
				d.peekCount = c
				d.peekRate = medianFPS(c, func(i int) int32 { return int32(le32(data[first+i*frameSize+4:])) })
				if t0 := f32(data[first:]); d.peekRate == 0 && c > 1 && d.peekLast > t0 {
					d.peekRate = float64(c-1) / float64(d.peekLast-t0) // as the full decode does
				}
			}
		}
		return
	}
	if opt.Progress != nil {
		opt.Progress(int64(pos), int64(len(data)))
	}
	for id := 1; id <= 5; id++ {
		if pos >= len(data) {
			d.truncated = true
			d.diag(model.Error, int64(pos), fmt.Sprintf("section %d", id), "file ends before the section: "+lostSections(id), fmt.Sprintf("section id %d", id), "end of file")
			return
		}
		if int(data[pos]) != id {
			// look for this section, or failing that a later one, where the
			// sections chain up to the end of the file
			q, k := -1, id
			for ; k <= 5 && q < 0; k++ {
				q = d.findSection(pos, k)
			}
			k--
			if q < 0 {
				d.diag(model.Error, int64(pos), fmt.Sprintf("section %d", id), "section id not found; no later section could be located: "+lostSections(id), fmt.Sprint(id), fmt.Sprint(data[pos]))
				d.truncated = true
				return
			}
			msg := "section id not where expected; skipped to the next place where the sections chain up to the end"
			if k != id {
				msg = fmt.Sprintf("section id not where expected and the section not found; skipped to section %d", k)
			}
			d.diags = append(d.diags, model.Diagnostic{Severity: model.Error, Source: source,
				Span: model.Span{Off: int64(pos), Len: int64(q - pos)}, Frame: -1,
				Subject: fmt.Sprintf("section %d", id), Message: msg,
				Expected: fmt.Sprint(id), Found: fmt.Sprint(data[pos]), Skipped: true})
			pos = q
			id = k
		}
		var ok bool
		switch id {
		case 1:
			pos, ok = d.parseFrames(pos)
		case 2:
			pos, ok = d.parseNotes(pos)
		case 3:
			pos, ok = d.parseWalls(pos)
		case 4:
			pos, ok = d.parseHeights(pos)
		case 5:
			pos, ok = d.parsePauses(pos)
		}
		if !ok {
			d.truncated = true
			if id < 5 {
				// what the file never reached is lost, not merely short
				d.diag(model.Error, int64(pos), fmt.Sprintf("section %d", id+1),
					fmt.Sprintf("not read: the %s section before it stopped, so %s", sectionNames[id], lostSections(id+1)), "", "")
			}
			return
		}
		d.lastSection = id
		if opt.Progress != nil {
			opt.Progress(int64(pos), int64(len(data)))
		}
	}
	d.parseOptional(pos)
}

// parseOptional reads sections 6 and 7 and reports what follows them.
func (d *replay) parseOptional(pos int) {
	data := d.data
	for pos < len(data) {
		id := data[pos]
		switch {
		case id == 6 && !d.hasOffsets && !d.hasUser:
			if len(data)-pos-1 < offsetSize {
				d.diags = append(d.diags, model.Diagnostic{Severity: model.Warning, Source: source,
					Span: model.Span{Off: int64(pos), Len: int64(len(data) - pos)}, Frame: -1, Subject: "section 6",
					Message:  "controller offsets section id with too few bytes after it; ignored",
					Expected: fmt.Sprintf("%d bytes", offsetSize), Found: fmt.Sprintf("%d bytes", len(data)-pos-1)})
				return
			}
			d.hasOffsets = true
			d.offsets[0] = readPose(data[pos+1:])
			d.offsets[1] = readPose(data[pos+1+poseSize:])
			d.offsetsSpan = model.Span{Off: int64(pos), Len: 1 + offsetSize}
			pos += 1 + offsetSize
			d.lastSection = 6
		case id == 7 && !d.hasUser:
			end, ok := d.parseUser(pos)
			if !ok {
				return
			}
			pos = end
			d.lastSection = 7
		default:
			d.diags = append(d.diags, model.Diagnostic{Severity: model.Warning, Source: source,
				Span: model.Span{Off: int64(pos), Len: int64(len(data) - pos)}, Frame: -1, Subject: "trailing bytes",
				Message:  fmt.Sprintf("%d bytes after the last section", len(data)-pos),
				Expected: "end of file or section 6/7", Found: fmt.Sprintf("byte %#02x", id), Skipped: true})
			return
		}
	}
}

// parseUser reads section 7. Real files hold a count of entries (key string,
// int32 length, bytes), not the single blob the spec draws; a section that
// does not parse as entries is read as the spec's blob.
func (d *replay) parseUser(pos int) (int, bool) {
	data := d.data
	start := pos
	if len(data)-pos < 5 {
		d.diags = append(d.diags, model.Diagnostic{Severity: model.Warning, Source: source,
			Span: model.Span{Off: int64(pos), Len: int64(len(data) - pos)}, Frame: -1, Subject: "section 7",
			Message: "user data section id without its count; ignored", Expected: "4-byte count", Found: fmt.Sprintf("%d bytes", len(data)-pos-1)})
		return pos, false
	}
	n := int32(le32(data[pos+1:]))
	p := pos + 5
	if n > 0 && int(n) <= (len(data)-p)/8 && !d.paid(d.b.Items("user data entries", int64(n), userEntryCost), pos+1) {
		return pos, false
	}
	if entries, end, ok := userEntries(data, p, n); ok {
		d.hasUser = true
		d.user = entries
		d.userSpan = model.Span{Off: int64(start), Len: int64(end - start)}
		return end, true
	}
	if n >= 0 && int(n) <= len(data)-p {
		d.hasUser = true
		d.user = []userEntry{{Key: "", Value: data[p : p+int(n)], ValSpan: model.Span{Off: int64(p), Len: int64(n)}, Fallback: true}}
		d.userSpan = model.Span{Off: int64(start), Len: int64(5 + int(n))}
		d.diag(model.Info, int64(pos), "section 7", "user data is not a list of keyed entries; read as one blob of the given length", "count of entries", fmt.Sprintf("%d bytes", n))
		return p + int(n), true
	}
	d.diags = append(d.diags, model.Diagnostic{Severity: model.Error, Source: source,
		Span: model.Span{Off: int64(pos), Len: int64(len(data) - pos)}, Frame: -1, Subject: "section 7",
		Message: "user data count does not fit in the file", Expected: fmt.Sprintf("at most %d", len(data)-p), Found: fmt.Sprint(n), Skipped: true})
	return pos, false
}

// userEntryCost is what one user data entry costs in all: its record here
// and, in the header (view.header), its field, the key and size fields
// under it and its boxed value. An entry takes 8 bytes of file at least,
// so paying for the record alone let a 1 MB file of 100,000 empty entries
// allocate 60 times its size.
var userEntryCost = budget.SizeOf[userEntry]() + 3*budget.SizeOf[model.Field]() + 32

// userEntries reads n entries of (key, length, bytes) from p, and fails
// without allocating more than the bytes justify.
func userEntries(data []byte, p int, n int32) ([]userEntry, int, bool) {
	if n < 0 || int(n) > (len(data)-p)/8 {
		return nil, 0, false
	}
	r := binread.LE(data)
	r.Seek(p)
	out := make([]userEntry, 0, n)
	for i := int32(0); i < n; i++ {
		ks := r.Pos()
		kl := r.I32()
		if kl < 0 || kl > 1024 {
			return nil, 0, false
		}
		key := r.Bytes(int(kl))
		vs := r.Pos()
		vl := r.I32()
		if vl < 0 {
			return nil, 0, false
		}
		value := r.Bytes(int(vl))
		if r.Failed() {
			return nil, 0, false
		}
		out = append(out, userEntry{Key: escapeString(key), KeySpan: model.Span{Off: int64(ks), Len: int64(4 + kl)},
			Value: value, ValSpan: model.Span{Off: int64(vs), Len: int64(4 + vl)}})
	}
	return out, r.Pos(), true
}

// count reads a section's record count at pos (just after the id byte);
// the callers check it against the bytes left.
func (d *replay) count(pos, id int) (n int, ok bool) {
	data := d.data
	if len(data)-pos < 4 {
		d.diag(model.Error, int64(pos), fmt.Sprintf("section %d", id), "file ends inside the record count", "4-byte count", fmt.Sprintf("%d bytes", len(data)-pos))
		return 0, false
	}
	c := int32(le32(data[pos:]))
	if c < 0 {
		d.diag(model.Error, int64(pos), fmt.Sprintf("section %d", id), "negative record count", "a count >= 0", fmt.Sprint(c))
		return 0, false
	}
	return int(c), true
}

// lostSections names the sections from id to the last required one (5),
// which a file that stops before id does not have.
func lostSections(id int) string {
	var names []string
	for k := id; k <= 5; k++ {
		names = append(names, fmt.Sprintf("%s (%d)", sectionNames[k], k))
	}
	if len(names) == 1 {
		return "the " + names[0] + " section is lost"
	}
	return "the " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " sections are lost"
}

var sectionNames = [...]string{"info", "frames", "notes", "walls", "heights", "pauses", "controller offsets", "user data"}

// fixedSection reads a section of fixed-size records. When the count does
// not fit, it looks for the next section on the record grid and reads the
// whole records before it.
func (d *replay) fixedSection(pos, id, size int) (start, n, next int, ok bool) {
	data := d.data
	c, ok := d.count(pos+1, id)
	start = pos + 5
	subject := fmt.Sprintf("section %d", id)
	if ok && c <= (len(data)-start)/size {
		end := start + c*size
		// A count that fits can still be wrong; trust it when what follows is
		// the next section (or the end for the last mandatory one).
		if id == 5 || d.chains(end, id+1) || end == len(data) {
			return start, c, end, true
		}
		if q := d.gridSearch(start, size, id+1); q >= 0 && q != end {
			d.diag(model.Error, int64(pos+1), subject, fmt.Sprintf("%s count disagrees with where the next section starts; read the records up to it", sectionNames[id]),
				fmt.Sprint((q-start)/size), fmt.Sprint(c))
			return start, (q - start) / size, q, true
		}
		return start, c, end, true
	}
	if q := d.gridSearch(start, size, id+1); q >= 0 {
		found := "unreadable"
		if ok {
			found = fmt.Sprint(c)
		}
		d.diag(model.Error, int64(pos+1), subject, fmt.Sprintf("%s count does not fit; read the records up to the next section", sectionNames[id]),
			fmt.Sprint((q-start)/size), found)
		return start, (q - start) / size, q, true
	}
	if !ok {
		return start, 0, pos, false
	}
	have := 0
	if len(data) > start {
		have = (len(data) - start) / size
	}
	if rest := len(data) - start - have*size; rest > 0 {
		d.cut = cutRecord{section: id, off: int64(start + have*size), have: rest, size: size}
	}
	d.cut.section, d.cut.diag = id, len(d.diags)+1
	d.diag(model.Error, int64(len(data)), subject, fmt.Sprintf("file ends inside the %s section; kept the %d whole records before the end", sectionNames[id], have),
		fmt.Sprintf("%d records (%d bytes)", c, c*size), fmt.Sprintf("%d bytes", len(data)-start))
	return start, have, len(data), false
}

func (d *replay) parseFrames(pos int) (int, bool) {
	start, n, next, ok := d.fixedSection(pos, 1, frameSize)
	frames, err := budget.Make[frame](d.b, "frames", n)
	if !d.paid(err, pos+1) {
		return pos, false
	}
	d.frames = frames
	for i := range d.frames {
		d.frames[i] = readFrame(d.data[start+i*frameSize:])
	}
	d.framesSpan = model.Span{Off: int64(pos), Len: int64(min(start+n*frameSize, len(d.data)) - pos)}
	return next, ok
}

func (d *replay) parseWalls(pos int) (int, bool) {
	start, n, next, ok := d.fixedSection(pos, 3, wallSize)
	walls, err := budget.Make[wall](d.b, "wall events", n)
	if !d.paid(err, pos+1) {
		return pos, false
	}
	d.walls = walls
	for i := range d.walls {
		o := start + i*wallSize
		d.walls[i] = readWall(int64(o), d.data[o:])
	}
	d.wallsSpan = model.Span{Off: int64(pos), Len: int64(min(start+n*wallSize, len(d.data)) - pos)}
	return next, ok
}

func (d *replay) parseHeights(pos int) (int, bool) {
	start, n, next, ok := d.fixedSection(pos, 4, heightSize)
	heights, err := budget.Make[height](d.b, "height changes", n)
	if !d.paid(err, pos+1) {
		return pos, false
	}
	d.heights = heights
	for i := range d.heights {
		o := start + i*heightSize
		d.heights[i] = readHeight(int64(o), d.data[o:])
	}
	d.heightsSpan = model.Span{Off: int64(pos), Len: int64(min(start+n*heightSize, len(d.data)) - pos)}
	return next, ok
}

func (d *replay) parsePauses(pos int) (int, bool) {
	start, n, next, ok := d.fixedSection(pos, 5, pauseSize)
	pauses, err := budget.Make[pause](d.b, "pauses", n)
	if !d.paid(err, pos+1) {
		return pos, false
	}
	d.pauses = pauses
	for i := range d.pauses {
		o := start + i*pauseSize
		d.pauses[i] = readPause(int64(o), d.data[o:])
	}
	d.pausesSpan = model.Span{Off: int64(pos), Len: int64(min(start+n*pauseSize, len(d.data)) - pos)}
	return next, ok
}

// parseNotes reads section 2. Records are 16 bytes, plus the cut info for
// good and bad cuts, so a bad event type loses the record grid; the reader
// then looks for section 3 by chaining.
func (d *replay) parseNotes(pos int) (int, bool) {
	data := d.data
	c, ok := d.count(pos+1, 2)
	start := pos + 5
	d.notesSpan = model.Span{Off: int64(pos)}
	if !ok {
		return pos, false
	}
	if c > (len(data)-start)/noteHead {
		d.diag(model.Error, int64(pos+1), "section 2", "note count larger than the bytes left can hold; reading the notes that fit",
			fmt.Sprintf("at most %d", (len(data)-start)/noteHead), fmt.Sprint(c))
		c = (len(data) - start) / noteHead
	}
	if !d.paid(d.b.Items("note events", int64(c), budget.SizeOf[note]()), pos+1) {
		return pos, false
	}
	d.notes = make([]note, 0, c)
	p := start
	for i := 0; i < c; i++ {
		if len(data)-p < noteHead {
			d.diag(model.Error, int64(p), fmt.Sprintf("note %d", i), "file ends inside a note event", fmt.Sprintf("%d bytes", noteHead), fmt.Sprintf("%d bytes", len(data)-p))
			d.notesSpan.Len = int64(p - pos)
			if len(data) > p {
				d.cut = cutRecord{section: 2, off: int64(p), have: len(data) - p, size: noteHead}
			}
			return len(data), false
		}
		n := readNoteHead(int64(p), data[p:])
		if n.EventType < 0 || n.EventType > 3 {
			d.diag(model.Error, int64(p+12), fmt.Sprintf("note %d", i), "unknown note event type; the rest of the notes cannot be framed", "0-3 (good, bad, miss, bomb)", fmt.Sprint(n.EventType))
			d.notesSpan.Len = int64(p - pos)
			if q := d.findSection(p, 3); q >= 0 {
				d.diags = append(d.diags, model.Diagnostic{Severity: model.Error, Source: source, Span: model.Span{Off: int64(p), Len: int64(q - p)},
					Frame: -1, Subject: "section 2", Message: "skipped to section 3", Skipped: true})
				return q, true
			}
			return p, false
		}
		p += noteHead
		if n.EventType == 0 || n.EventType == 1 {
			if len(data)-p < cutSize {
				d.diag(model.Error, int64(p), fmt.Sprintf("note %d", i), "file ends inside the cut info", fmt.Sprintf("%d bytes", cutSize), fmt.Sprintf("%d bytes", len(data)-p))
				d.notesSpan.Len = int64(p - pos)
				d.cut = cutRecord{section: 2, off: n.Off, have: len(data) - int(n.Off), size: noteHead + cutSize}
				return len(data), false
			}
			n.HasCut = true
			n.Cut = readCut(data[p:])
			p += cutSize
		}
		d.notes = append(d.notes, n)
	}
	d.notesSpan.Len = int64(p - pos)
	return p, true
}

// The record readers take the record's bytes (at least a whole record)
// and, for records that are events, where they start in the file.

func readFrame(r []byte) frame {
	return frame{Time: f32(r), FPS: int32(le32(r[4:])),
		Head: readPose(r[8:]), Left: readPose(r[8+poseSize:]), Right: readPose(r[8+2*poseSize:])}
}

func readWall(off int64, r []byte) wall {
	return wall{Off: off, ID: int32(le32(r)), Energy: f32(r[4:]), Time: f32(r[8:]), SpawnTim: f32(r[12:])}
}

func readHeight(off int64, r []byte) height {
	return height{Off: off, Height: f32(r), Time: f32(r[4:])}
}

func readPause(off int64, r []byte) pause {
	return pause{Off: off, Duration: int64(binary.LittleEndian.Uint64(r)), Time: f32(r[8:])}
}

func readNoteHead(off int64, r []byte) note {
	return note{Off: off, ID: int32(le32(r)), EventTime: f32(r[4:]), SpawnTime: f32(r[8:]), EventType: int32(le32(r[12:]))}
}

// cutRecord is the record the end of the file cut through: its section,
// where it starts, the bytes of it there are and the bytes a whole one
// has. The events list it as a partial event.
type cutRecord struct {
	section    int
	off        int64
	have, size int
	diag       int // 1 + the index of the diagnostic that says where the section ends; 0 if none
}

func readCut(b []byte) cutInfo {
	return cutInfo{
		SpeedOK: b[0] != 0, DirectionOK: b[1] != 0, SaberTypeOK: b[2] != 0, WasCutTooSoon: b[3] != 0,
		SaberSpeed:          f32(b[4:]),
		SaberDir:            vec3{f32(b[8:]), f32(b[12:]), f32(b[16:])},
		SaberType:           int32(le32(b[20:])),
		TimeDeviation:       f32(b[24:]),
		CutDirDeviation:     f32(b[28:]),
		CutPoint:            vec3{f32(b[32:]), f32(b[36:]), f32(b[40:])},
		CutNormal:           vec3{f32(b[44:]), f32(b[48:]), f32(b[52:])},
		CutDistanceToCenter: f32(b[56:]),
		CutAngle:            f32(b[60:]),
		BeforeCutRating:     f32(b[64:]),
		AfterCutRating:      f32(b[68:]),
	}
}

var fixedSizes = [...]int{1: frameSize, 3: wallSize, 4: heightSize, 5: pauseSize}

// chainBudget caps the work spent verifying candidate section starts, so a
// hostile file cannot make the search quadratic. The probes are paid from
// the decode's budget too, probeBatch at a time, so the search's cost is
// accounted where every other loop's is.
const (
	chainBudget = 1 << 22
	probeBatch  = 1 << 10
)

// probe counts one step of the section search; false when the search must
// give up (its cap, or the decode budget's refusal, recorded).
func (d *replay) probe(at int) bool {
	d.budget++
	if d.budget%probeBatch == 0 && !d.paid(d.b.Step("section search", probeBatch), at) {
		return false
	}
	return d.budget <= chainBudget && !d.over
}

// chains reports whether a section with the given id starts at p and the
// sections after it follow one another up to the end of the file (or to
// sections 6/7). Note records are walked; the other sections are jumped.
func (d *replay) chains(p, id int) bool {
	data := d.data
	for ; id <= 5; id++ {
		if p >= len(data)-4 || int(data[p]) != id {
			return false
		}
		c := int(int32(le32(data[p+1:])))
		if c < 0 {
			return false
		}
		p += 5
		switch id {
		case 1, 3, 4, 5:
			size := fixedSizes[id]
			if c > (len(data)-p)/size {
				return false
			}
			p += c * size
		case 2:
			if c > (len(data)-p)/noteHead {
				return false
			}
			for i := 0; i < c; i++ {
				if !d.probe(p) || len(data)-p < noteHead {
					return false
				}
				t := int32(le32(data[p+12:]))
				p += noteHead
				switch t {
				case 0, 1:
					p += cutSize
				case 2, 3:
				default:
					return false
				}
				if p > len(data) {
					return false
				}
			}
		}
	}
	return p == len(data) || data[p] == 6 || data[p] == 7
}

// findSection looks forward from p for a place where section id starts and
// chains to the end, byte by byte.
func (d *replay) findSection(p, id int) int {
	for q := p; q < len(d.data); q++ {
		if int(d.data[q]) != id {
			continue
		}
		if !d.probe(q) {
			return -1
		}
		if d.chains(q, id) {
			return q
		}
	}
	return -1
}

// gridSearch looks for the section after a fixed-size one on its record
// grid, the first place that chains.
func (d *replay) gridSearch(start, size, next int) int {
	if next > 5 {
		return -1
	}
	for q := start; q < len(d.data); q += size {
		if int(d.data[q]) != next {
			continue
		}
		if !d.probe(q) {
			return -1
		}
		if d.chains(q, next) {
			return q
		}
	}
	return -1
}

// modifierNames are BeatLeader's modifier abbreviations.
var modifierNames = map[string]string{
	"DA": "Disappearing Arrows",
	"FS": "Faster Song",
	"SF": "Super Fast Song",
	"SS": "Slower Song",
	"GN": "Ghost Notes",
	"NA": "No Arrows",
	"NB": "No Bombs",
	"NF": "No Fail",
	"NO": "No Obstacles",
	"SA": "Strict Angles",
	"SC": "Small Notes",
	"PM": "Pro Mode",
	"CS": "Fail on Saber Clash",
	"IF": "One Life",
	"BE": "Four Lives",
	"OD": "Old Dots",
	"OP": "Out of Platform",
}

// modifierList splits the comma-separated modifiers.
func modifierList(s string) []string {
	var out []string
	for _, m := range strings.Split(s, ",") {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
}

func modifiersName(s string) string {
	var names []string
	for _, m := range modifierList(s) {
		if n, ok := modifierNames[m]; ok {
			names = append(names, n)
		} else {
			names = append(names, m)
		}
	}
	return strings.Join(names, ", ")
}
