// Package osr decodes osu! replays (.osr), as the stable client and
// osu!lazer write them.
//
// A file is little-endian: the game mode byte, the game version, three
// strings (beatmap MD5, player name, replay MD5), the hit counts, score,
// max combo, the perfect flag, the mods, the life bar graph (a string),
// the timestamp in .NET ticks, an int32-length LZMA member holding the
// frames as text, the online score id (int64, int32 before 2014-07-21,
// absent before 2012-10-08), and for lazer versions 30000001 and up an
// int32-length LZMA member holding a JSON score info. A string is a marker
// byte, 0x00 for no string or 0x0b followed by a ULEB128 byte count and
// UTF-8 bytes.
//
// The frames are comma-separated records "w|x|y|z": w milliseconds since
// the record before (it may be negative), x and y the cursor (catch: the
// catcher's x; mania: x is the bit set of the columns held), z the keys
// (standard: M1 1, M2 2, K1 4 with M1, K2 8 with M2, smoke 16; taiko: the
// drums; catch: 1 while dashing). Stable starts a play with two
// placeholder records at (256, -500) and, since 2013, ends it with
// -12345|0|0|seed, the RNG seed; both are recognised and named, not taken
// for input, as osrparse and osu!lazer drop them. The timeline is the
// input records; its game time is the sum of every w up to the record
// (the song time in milliseconds), held non-decreasing for playback.
//
// The decompressed text is the inner stream "replay.frames" (and the
// lazer score info "score.info"), so events and state point at the bytes
// of their record; the file's own bytes of a record are somewhere in the
// compressed member, which a Region links to the text.
package osr

import (
	"encoding/binary"
	"fmt"
	"time"
	"unicode/utf8"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

const (
	source = "osr"

	// StreamFrames and StreamScoreInfo are the decompressed members.
	StreamFrames    = "replay.frames"
	StreamScoreInfo = "score.info"

	// firstLazerVersion is the first version osu!lazer writes;
	// scoreInfoVersion the first that appends the score info member.
	firstLazerVersion = 30000000
	scoreInfoVersion  = 30000001
	// longIDVersion is the first version whose online score id is an
	// int64; shortIDVersion the first with an id at all (an int32).
	longIDVersion  = 20140721
	shortIDVersion = 20121008

	// seedDelta is the w of the record that carries the RNG seed.
	seedDelta = -12345
)

// Game modes, as the mode byte numbers them.
const (
	modeStd = iota
	modeTaiko
	modeCatch
	modeMania
)

var modeNames = [...]string{"osu!", "osu!taiko", "osu!catch", "osu!mania"}

// str is a string field as the file has it: present is false for the 0x00
// marker ("no string").
type str struct {
	s       string
	present bool
	span    model.Span // the marker, the length and the bytes
	text    int        // where the bytes start
}

// lifePoint is one point of the life bar graph: a song time in ms and the
// life there (0 to 1), with its bytes in the file.
type lifePoint struct {
	t    int64
	life float64
	span model.Span
}

// header is everything before and around the frames.
type header struct {
	mode                        uint8
	version                     int32
	beatmap, player, replayHash str
	counts                      [6]uint16 // 300, 100, 50, geki, katu, miss
	score                       int32
	combo                       uint16
	perfect                     uint8
	mods                        uint32
	life                        str
	lifePoints                  []lifePoint
	ticks                       int64
	id                          int64
	idWidth                     int // 0 (none), 4 or 8 bytes
	idSpan                      model.Span
}

// stage is how far the fixed part of the file was read.
type stage int

const (
	stNothing stage = iota
	stMode
	stVersion
	stBeatmap
	stPlayer
	stReplayHash
	stCounts
	stScore
	stCombo
	stPerfect
	stMods
	stLife
	stTime
	stFrames // the frames member's length and bytes
	stID
	stScoreInfo
	stEnd
)

// decoder is one decode: the file, what was read from it, and the one
// budget every part of it draws on.
type decoder struct {
	data    []byte
	b       *budget.Budget
	over    bool // the budget refused (recorded once)
	diags   []model.Diagnostic
	fields  []model.Field // the header's fields in file order
	h       header
	reached stage // the last stage read whole
	pos     int   // where reading stopped

	frames    member // the LZMA member of the frames
	scoreInfo member // lazer's score info member (version >= 30000001)
	info      *scoreInfo

	recs    recordSet // the frames' records, once parsed
	changes int       // how many key changes the frames hold (paid for)
}

func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func (d *decoder) diag(sev model.Severity, span model.Span, subject, msg, expected, found string) {
	d.diags = append(d.diags, model.Diagnostic{Severity: sev, Source: source, Span: span,
		Frame: -1, Subject: subject, Message: msg, Expected: expected, Found: found})
}

// paid reports whether the budget paid a claim (err is its answer). The
// first refusal is recorded as an error at span; the decode then winds
// down.
func (d *decoder) paid(err error, span model.Span) bool {
	if err == nil {
		return true
	}
	if !d.over {
		d.over = true
		d.diags = append(d.diags, d.b.Diagnostic(source, span, -1))
	}
	return false
}

// at is a span of n bytes at off in the file.
func at(off, n int) model.Span { return model.Span{Off: int64(off), Len: int64(n)} }

// Decode reads a whole file. It refuses only what is no osu! replay at all
// (empty, or a first byte that is no game mode); damage after that gives a
// partial replay with diagnostics.
func Decode(data []byte, opt model.DecodeOptions) (*model.Replay, error) {
	if len(data) == 0 {
		return nil, &model.FormatError{Source: source, Off: 0, Msg: "not an osu! replay: the file is empty"}
	}
	if data[0] > modeMania {
		return nil, &model.FormatError{Source: source, Off: 0,
			Msg: fmt.Sprintf("not an osu! replay: game mode byte %d (expected 0-3: standard, taiko, catch, mania)", data[0])}
	}
	d := &decoder{data: data, b: budget.New(int64(len(data)), opt.Limits)}
	d.parse(opt)
	return d.build(opt), nil
}

// parse reads the file in order, stopping where it cannot go on.
func (d *decoder) parse(opt model.DecodeOptions) {
	if !d.readHeader() {
		return
	}
	if opt.Progress != nil {
		opt.Progress(int64(d.pos), int64(len(d.data)))
	}
	if !d.readFrames() {
		return
	}
	d.readTail()
	if opt.Progress != nil {
		opt.Progress(int64(len(d.data)), int64(len(d.data)))
	}
}

// cut records that the file ends inside a field of n bytes at off.
func (d *decoder) cut(off, n int, subject, what string) {
	have := max(len(d.data)-off, 0)
	d.diag(model.Error, at(min(off, len(d.data)), have), subject,
		fmt.Sprintf("the file ends inside %s; what follows it is lost", what),
		fmt.Sprintf("%d bytes", n), fmt.Sprintf("%d bytes", have))
	d.pos = len(d.data)
}

// fixed reads n bytes at d.pos for the field key, or records the cut.
func (d *decoder) fixed(key, what string, n int) ([]byte, bool) {
	if len(d.data)-d.pos < n {
		d.cut(d.pos, n, key, what)
		return nil, false
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b, true
}

func (d *decoder) add(f model.Field) { d.fields = append(d.fields, f) }

// readHeader reads everything before the frames member. It stops at the
// first field it cannot read, after recording why.
func (d *decoder) readHeader() bool {
	h := &d.h
	h.mode = d.data[0]
	d.pos = 1
	d.reached = stMode
	d.add(model.Field{Key: "mode", Label: "Game mode", Value: int64(h.mode), Name: modeNames[h.mode], Span: at(0, 1)})

	b, ok := d.fixed("version", "the game version", 4)
	if !ok {
		return false
	}
	h.version = int32(le32(b))
	d.reached = stVersion
	d.add(model.Field{Key: "version", Label: "Game version", Value: int64(h.version), Name: versionName(h.version), Span: at(d.pos-4, 4)})

	for _, s := range []struct {
		key, label string
		dst        *str
		st         stage
	}{
		{"beatmapHash", "Beatmap MD5", &h.beatmap, stBeatmap},
		{"playerName", "Player", &h.player, stPlayer},
		{"replayHash", "Replay MD5", &h.replayHash, stReplayHash},
	} {
		if !d.readString(s.key, s.label, s.dst) {
			return false
		}
		d.reached = s.st
		d.add(stringField(s.key, s.label, *s.dst))
	}

	b, ok = d.fixed("hitCounts", "the hit counts", 12)
	if !ok {
		return false
	}
	names := countNames(h.mode)
	group := model.Field{Key: "hitCounts", Label: "Hit counts", Span: at(d.pos-12, 12)}
	for i := range h.counts {
		h.counts[i] = le16(b[2*i:])
		group.Fields = append(group.Fields, model.Field{Key: countKeys[i], Label: names[i], Value: int64(h.counts[i]), Span: at(d.pos-12+2*i, 2)})
	}
	d.reached = stCounts
	d.add(group)

	if b, ok = d.fixed("score", "the score", 4); !ok {
		return false
	}
	h.score = int32(le32(b))
	d.reached = stScore
	d.add(model.Field{Key: "score", Label: "Score", Value: int64(h.score), Span: at(d.pos-4, 4)})

	if b, ok = d.fixed("maxCombo", "the max combo", 2); !ok {
		return false
	}
	h.combo = le16(b)
	d.reached = stCombo
	d.add(model.Field{Key: "maxCombo", Label: "Max combo", Value: int64(h.combo), Span: at(d.pos-2, 2)})

	if b, ok = d.fixed("perfect", "the perfect flag", 1); !ok {
		return false
	}
	h.perfect = b[0]
	d.reached = stPerfect
	pf := model.Field{Key: "perfect", Label: "Perfect (full combo)", Value: h.perfect != 0, Span: at(d.pos-1, 1)}
	if h.perfect > 1 {
		pf.Name = fmt.Sprintf("true (byte %d)", h.perfect)
	}
	d.add(pf)

	if b, ok = d.fixed("mods", "the mods", 4); !ok {
		return false
	}
	h.mods = le32(b)
	d.reached = stMods
	d.add(modsField(h.mods, at(d.pos-4, 4)))
	if l := modsLong(h.mods); l != "" {
		d.add(model.Field{Key: "modsLong", Label: "Mods in full", Value: l, Span: at(d.pos-4, 4)})
	}

	if !d.readString("lifeBar", "the life bar graph", &h.life) {
		return false
	}
	d.reached = stLife
	d.add(d.lifeField())

	if b, ok = d.fixed("timestamp", "the timestamp", 8); !ok {
		return false
	}
	h.ticks = int64(le64(b))
	d.reached = stTime
	d.add(d.timeField(at(d.pos-8, 8)))
	d.add(model.Field{Key: "timestampTicks", Label: ".NET ticks (100 ns since 0001-01-01)", Value: h.ticks, Span: at(d.pos-8, 8)})
	return true
}

// readString reads a string field: a marker byte, 0x00 (no string) or
// 0x0b followed by a ULEB128 length and the bytes.
func (d *decoder) readString(key, label string, dst *str) bool {
	start := d.pos
	if d.pos >= len(d.data) {
		d.cut(d.pos, 1, key, label+"'s string marker")
		return false
	}
	switch m := d.data[d.pos]; m {
	case 0x00:
		*dst = str{span: at(start, 1)}
		d.pos++
		return true
	case 0x0b:
	default:
		d.diag(model.Error, at(d.pos, 1), key,
			fmt.Sprintf("%s: string marker is neither 0x00 nor 0x0b, so where the string ends is unknown and nothing after it can be read", label),
			"0x00 (no string) or 0x0b (a string follows)", fmt.Sprintf("0x%02x", m))
		return false
	}
	p := d.pos + 1
	var n uint64
	for shift := 0; ; shift += 7 {
		if p >= len(d.data) {
			d.cut(d.pos, p-d.pos+1, key, label+"'s length")
			return false
		}
		c := d.data[p]
		p++
		if shift >= 35 {
			d.diag(model.Error, at(d.pos+1, p-d.pos-1), key, label+": the ULEB128 length runs past 5 bytes", "a length of at most 5 bytes", fmt.Sprintf("% x", d.data[d.pos+1:p]))
			return false
		}
		n |= uint64(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	if n > uint64(len(d.data)-p) {
		d.diag(model.Error, at(p, len(d.data)-p), key,
			fmt.Sprintf("%s: the string's length runs past the end of the file; what follows it is lost", label),
			fmt.Sprintf("%d bytes", n), fmt.Sprintf("%d bytes left", len(d.data)-p))
		d.pos = len(d.data)
		return false
	}
	raw := d.data[p : p+int(n)]
	if !utf8.Valid(raw) {
		d.diag(model.Warning, at(p, int(n)), key, label+" is not valid UTF-8; shown with the bad bytes escaped", "UTF-8", "invalid bytes")
	}
	*dst = str{s: escapeString(raw), present: true, span: at(start, p+int(n)-start), text: p}
	d.pos = p + int(n)
	return true
}

// escapeString keeps valid UTF-8 as it is and shows each byte of an
// invalid sequence as \xNN.
func escapeString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			out = fmt.Appendf(out, `\x%02x`, b[0])
			b = b[1:]
			continue
		}
		out = append(out, b[:n]...)
		b = b[n:]
	}
	return string(out)
}

func stringField(key, label string, s str) model.Field {
	f := model.Field{Key: key, Label: label, Value: s.s, Span: s.span}
	if !s.present {
		f.Name = "(none: marker 0x00)"
	}
	return f
}

// versionName says what wrote the file: the stable client's build date,
// osu!lazer's score version, or neither.
func versionName(v int32) string {
	switch {
	case v >= firstLazerVersion && v < firstLazerVersion+10000000:
		return fmt.Sprintf("osu!lazer (score version %d)", v)
	case validDate(v):
		return fmt.Sprintf("stable %04d-%02d-%02d", v/10000, v/100%100, v%100)
	case v == 0:
		return "0 (not a game version; third-party writers use it)"
	}
	return ""
}

// validDate reports whether v reads as a YYYYMMDD date from osu!'s years.
func validDate(v int32) bool {
	y, m, dd := v/10000, v/100%100, v%100
	return y >= 2007 && y <= 2099 && m >= 1 && m <= 12 && dd >= 1 && dd <= 31
}

// ticksEpoch is 0001-01-01 UTC in Unix seconds, where .NET ticks count from.
const ticksEpoch = -62135596800

// maxTicks is the last tick of 9999-12-31, .NET's DateTime.MaxValue.
const maxTicks = 3155378975999999999

// ticksTime is the instant of .NET ticks (100 ns since 0001-01-01 UTC),
// exact to the tick: no float on the way.
func ticksTime(ticks int64) time.Time {
	sec := ticks / 10_000_000
	rest := ticks % 10_000_000
	return time.Unix(ticksEpoch+sec, rest*100).UTC()
}

func (d *decoder) timeField(span model.Span) model.Field {
	t := d.h.ticks
	f := model.Field{Key: "timestamp", Label: "Played (UTC)", Span: span}
	switch {
	case t < 0 || t > maxTicks:
		f.Value = t
		f.Name = "not a date (outside 0001-01-01 to 9999-12-31)"
		d.diag(model.Warning, span, "timestamp", "the timestamp is no .NET date; left out", "0 to 3155378975999999999 ticks", fmt.Sprint(t))
	default:
		f.Value = ticksTime(t)
	}
	return f
}

// start is when the play happened, zero when the file does not say: a
// date before osu! was released (2007) is a writer that left it unset, as
// the year-1 timestamps of some test files are.
func (d *decoder) start() time.Time {
	t := d.h.ticks
	if d.reached < stTime || t < 0 || t > maxTicks {
		return time.Time{}
	}
	if tt := ticksTime(t); tt.Year() >= 2007 {
		return tt
	}
	return time.Time{} // before osu! existed: a writer that left it unset
}
