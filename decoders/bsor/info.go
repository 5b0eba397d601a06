package bsor

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"rewind/decoders/internal/binread"
	"rewind/model"
)

// escapeString keeps valid UTF-8 as it is and shows each byte of an invalid
// sequence as \xNN, so a name cut in the middle of a character stays visible.
func escapeString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			fmt.Fprintf(&sb, `\x%02x`, b[0])
			b = b[1:]
			continue
		}
		sb.Write(b[:n])
		b = b[n:]
	}
	return sb.String()
}

// platformAt reports whether a platform string ("steam", "oculus",
// "oculuspc") starts at p: the field after the player name, which tells
// where a name with a too-short length prefix really ends.
func platformAt(data []byte, p int) bool {
	if p < 0 || len(data)-p < 4 {
		return false
	}
	n := int(int32(le32(data[p:])))
	if n != 5 && n != 6 && n != 8 {
		return false
	}
	if len(data)-p-4 < n {
		return false
	}
	for _, c := range data[p+4 : p+4+n] {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// infoReader reads the info section's fields one after another, through a
// cursor whose first short read names the offset and what was wanted.
type infoReader struct {
	d      *replay
	r      *binread.Reader
	fields []model.Field
	failed bool
	stop   int // where reading stopped, once failed

	// the previous string, which a later too-short prefix extends
	prevField int
	prevDst   *string
	prevStart int // offset of its length prefix
}

// pos is where the next field starts, or where reading stopped.
func (ir *infoReader) pos() int {
	if ir.failed {
		return ir.stop
	}
	return ir.r.Pos()
}

// ok reports whether the reads of key so far were whole; the first short
// read is recorded as the file ending inside the info section.
func (ir *infoReader) ok(key string) bool {
	if ir.failed {
		return false
	}
	if !ir.r.Failed() {
		return true
	}
	var se *binread.ShortError
	errors.As(ir.r.Err(), &se)
	ir.fail(int(se.Off))
	ir.d.diag(model.Error, se.Off, "info "+key, "file ends inside the info section",
		fmt.Sprintf("%d bytes", se.Want), fmt.Sprintf("%d bytes", se.Have))
	return false
}

func (ir *infoReader) fail(at int) {
	ir.failed, ir.stop = true, at
}

func (ir *infoReader) add(f model.Field) { ir.fields = append(ir.fields, f) }

// str reads an int32-prefixed string. A prefix below 0 or above maxString
// means the previous string's prefix was too short (old mods wrote the
// UTF-16 length in front of UTF-8 bytes): the bytes slid over belong to the
// previous string, which is extended.
func (ir *infoReader) str(key, label string, dst *string) bool {
	if ir.failed {
		return false
	}
	start := ir.r.Pos()
	slid := 0
	var l int32
	for {
		ir.r.Seek(start + slid)
		if l = ir.r.I32(); !ir.ok(key) {
			return false
		}
		if l >= 0 && l <= maxString && ir.r.Has(int(l)) {
			break
		}
		if ir.prevDst == nil || slid >= maxSlide {
			ir.fail(start)
			ir.d.diag(model.Error, int64(start), "info "+key, "string length does not fit",
				fmt.Sprintf("0-%d, at most the bytes left", maxString), fmt.Sprint(int32(le32(ir.d.data[start:]))))
			return false
		}
		slid++
	}
	p := start + slid
	if slid > 0 {
		ir.extendPrev(p, "the next length prefix was out of range")
	}
	b := ir.r.Bytes(int(l))
	*dst = escapeString(b)
	ir.add(model.Field{Key: key, Label: label, Value: *dst, Span: model.Span{Off: int64(p), Len: int64(4 + l)}})
	if *dst != string(b) {
		ir.d.info.anyEscape = true
		ir.d.diag(model.Info, int64(p+4), "info "+key, `string is not valid UTF-8 (cut inside a character); invalid bytes shown as \xNN`, "", "")
	}
	ir.prevField, ir.prevDst, ir.prevStart = len(ir.fields)-1, dst, p
	return true
}

// extendPrev makes the previous string run up to end.
func (ir *infoReader) extendPrev(end int, why string) {
	data := ir.d.data
	f := &ir.fields[ir.prevField]
	declared := int(int32(le32(data[ir.prevStart:])))
	b := data[ir.prevStart+4 : end]
	*ir.prevDst = escapeString(b)
	f.Value = *ir.prevDst
	f.Span.Len = int64(end - ir.prevStart)
	ir.d.info.anyRecovered = true
	ir.d.diag(model.Info, int64(ir.prevStart), "info "+f.Key,
		fmt.Sprintf("length prefix is %d bytes short (old mods wrote the UTF-16 length in front of UTF-8 bytes); %s, so the string was extended to %d bytes", len(b)-declared, why, len(b)),
		"", fmt.Sprintf("length %d", declared))
}

// fixed records a fixed-size field read from off; it reports whether the
// read was whole.
func (ir *infoReader) fixed(key, label string, off, n int, v any) bool {
	if !ir.ok(key) {
		return false
	}
	ir.add(model.Field{Key: key, Label: label, Value: v, Span: model.Span{Off: int64(off), Len: int64(n)}})
	ir.prevDst = nil
	return true
}

func (ir *infoReader) i32(key, label string) int32 {
	off := ir.r.Pos()
	if v := ir.r.I32(); ir.fixed(key, label, off, 4, int64(v)) {
		return v
	}
	return 0
}

func (ir *infoReader) f32(key, label string) float32 {
	off := ir.r.Pos()
	if v := ir.r.F32(); ir.fixed(key, label, off, 4, f64(v)) {
		return v
	}
	return 0
}

func (ir *infoReader) boolean(key, label string) bool {
	off := ir.r.Pos()
	if v := ir.r.Bool(); ir.fixed(key, label, off, 1, v) {
		return v
	}
	return false
}

// parseInfo reads section 0 from pos (just after its id byte).
func (d *replay) parseInfo(pos int) int {
	in := &d.info
	ir := &infoReader{d: d, r: binread.LE(d.data)}
	ir.r.Seek(pos)
	ir.str("version", "Mod version", &in.Version)
	ir.str("gameVersion", "Game version", &in.GameVersion)
	if ir.str("timestamp", "Timestamp", &in.Timestamp) {
		f := &ir.fields[len(ir.fields)-1]
		if sec, err := strconv.ParseInt(strings.TrimSpace(in.Timestamp), 10, 64); err == nil {
			f.Value = time.Unix(sec, 0).UTC()
		}
	}
	ir.str("playerID", "Player ID", &in.PlayerID)
	if ir.str("playerName", "Player name", &in.PlayerName) {
		// The name is where the UTF-16 prefix quirk bites; the platform string
		// after it ("steam", "oculus", "oculuspc") shows where it really ends.
		if at := ir.r.Pos(); !platformAt(d.data, at) {
			for k := 1; k <= maxSlide; k++ {
				if platformAt(d.data, at+k) {
					ir.extendPrev(at+k, "the platform string starts later")
					ir.r.Seek(at + k)
					in.nameRecovered = true
					break
				}
			}
		}
	}
	ir.str("platform", "Platform", &in.Platform)
	ir.str("trackingSytem", "Tracking system", &in.TrackingSystem)
	ir.str("hmd", "Headset", &in.HMD)
	ir.str("controller", "Controller", &in.Controller)
	ir.str("hash", "Map hash", &in.Hash)
	ir.str("songName", "Song name", &in.SongName)
	ir.str("mapper", "Mapper", &in.Mapper)
	ir.str("difficulty", "Difficulty", &in.Difficulty)
	in.Score = ir.i32("score", "Score (unmodified)")
	ir.str("mode", "Mode", &in.Mode)
	ir.str("environment", "Environment", &in.Environment)
	if ir.str("modifiers", "Modifiers", &in.Modifiers) {
		ir.fields[len(ir.fields)-1].Name = modifiersName(in.Modifiers)
	}
	in.JumpDistance = ir.f32("jumpDistance", "Jump distance")
	in.LeftHanded = ir.boolean("leftHanded", "Left-handed")
	in.Height = ir.f32("height", "Height")
	in.StartTime = ir.f32("startTime", "Practice start time")
	in.FailTime = ir.f32("failTime", "Fail time")
	in.Speed = ir.f32("speed", "Practice speed")
	for i := range ir.fields {
		if ir.fields[i].Key == "startTime" || ir.fields[i].Key == "failTime" {
			if v, ok := ir.fields[i].Value.(float64); ok && v > 0 && v < 1e7 {
				ir.fields[i].Name = model.FormatDuration(secs(float32(v)))
			}
		}
	}
	in.fields = ir.fields
	in.complete = !ir.failed
	start := int64(pos - 1)
	if start < 5 {
		start = 5
	}
	in.span = model.Span{Off: start, Len: int64(ir.pos()) - start}
	return ir.pos()
}

// secs converts a song time in seconds to a Duration, clamping values a
// corrupt file could make overflow.
func secs(t float32) time.Duration {
	v := float64(t)
	if v != v {
		return 0
	}
	const lim = float64(1 << 62)
	d := v * float64(time.Second)
	if d > lim {
		return time.Duration(1 << 62)
	}
	if d < -lim {
		return -time.Duration(1 << 62)
	}
	return time.Duration(d)
}
