package cli

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"rewind/theme"
)

// appendInfoJSON appends the line `info --json` writes for j: exactly
// what writeJSON writes (json.Marshal, theme.EscapeJSON and a newline;
// TestInfoJSONSameAsWriteJSON holds it so), in a tenth of the time, which
// a million files notice. A value encoding/json would refuse (a NaN, a
// year past 9999) goes through it, refusal included.
func appendInfoJSON(b []byte, jv infoJSON) []byte {
	j := &jv
	if !plainInfo(j) {
		out, err := marshalInfo(jv)
		if err != nil {
			return b // as writeJSON: nothing written
		}
		return append(append(b, theme.EscapeJSON(out)...), '\n')
	}
	b = append(b, `{"path":`...)
	b = jsonString(b, j.Path)
	b = optString(b, `,"format":`, string(j.Format))
	b = optString(b, `,"formatName":`, j.FormatName)
	b = optString(b, `,"version":`, j.Version)
	if j.Size != nil {
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, *j.Size, 10)
	}
	if j.Start != nil {
		b = append(b, `,"start":"`...)
		b = j.Start.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	}
	b = optString(b, `,"title":`, j.Title)
	b = optString(b, `,"mode":`, j.Mode)
	b = append(b, `,"durationSeconds":`...)
	b = jsonFloat(b, j.DurationSeconds)
	if j.ClockSeconds != nil {
		b = append(b, `,"clockSeconds":`...)
		b = jsonFloat(b, *j.ClockSeconds)
	}
	b = optString(b, `,"clockName":`, j.ClockName)
	b = append(b, `,"frames":`...)
	b = strconv.AppendInt(b, int64(j.Frames), 10)
	if j.Rate != 0 {
		b = append(b, `,"rate":`...)
		b = jsonFloat(b, j.Rate)
	}
	b = optString(b, `,"result":`, j.Result)
	b = append(b, `,"players":`...)
	if j.Players == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range j.Players {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"slot":`...)
			b = jsonString(b, p.Slot)
			b = optString(b, `,"name":`, p.Name)
			b = optString(b, `,"code":`, p.Code)
			b = optString(b, `,"character":`, p.Character)
			b = optString(b, `,"team":`, p.Team)
			b = optString(b, `,"result":`, p.Result)
			b = optString(b, `,"outcome":`, string(p.Outcome))
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"checked":`...)
	b = strconv.AppendBool(b, j.Checked)
	if j.Partial != nil {
		b = append(b, `,"partial":`...)
		b = strconv.AppendBool(b, *j.Partial)
	}
	b = append(b, `,"problems":`...)
	b = strconv.AppendInt(b, int64(j.Problems), 10)
	b = append(b, `,"diagnostics":`...)
	b = strconv.AppendInt(b, int64(j.Diagnostics), 10)
	b = optString(b, `,"error":`, j.Error)
	b = optString(b, `,"reason":`, j.Reason)
	if j.Skipped {
		b = append(b, `,"skipped":true`...)
	}
	return append(b, "}\n"...)
}

// marshalInfo is encoding/json's line for j. Its own copy of j goes to
// the heap, not appendInfoJSON's, which a million lines would pay for.
func marshalInfo(j infoJSON) ([]byte, error) { return json.Marshal(&j) }

// plainInfo reports whether every value of j is one appendInfoJSON writes
// itself: finite numbers, years 0 to 9999.
func plainInfo(j *infoJSON) bool {
	finite := func(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }
	if !finite(j.DurationSeconds) || !finite(j.Rate) || j.ClockSeconds != nil && !finite(*j.ClockSeconds) {
		return false
	}
	if j.Start != nil {
		if y := j.Start.Year(); y < 0 || y > 9999 {
			return false
		}
	}
	return true
}

func optString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return jsonString(append(b, key...), s)
}

// jsonFloat writes a float as encoding/json does (ES6 number formatting).
func jsonFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// jsonString writes a string as encoding/json does with HTML escaping (an
// Encoder's default) and then theme.EscapeJSON: quotes, backslashes and
// control characters escaped, <, > and & as \u003c and the like, invalid
// UTF-8 as \ufffd, and DEL and every other character a terminal would act
// on (theme.Unsafe: C1 controls, the invisible ones) as \u escapes, the
// line and paragraph separators among them. One pass, not two: a million
// lines notice.
func jsonString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if theme.Unsafe(r) { // all of them under U+10000: four digits
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonPlain says which bytes go into a JSON string as they are: printable
// ASCII (not DEL) but for the quote, the backslash and the three HTML
// characters. A look-up a byte is faster than eight bytes at a time here:
// the strings are short.
var jsonPlain = func() (t [256]bool) {
	for c := ' '; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune(`"\<>&`, c)
	}
	return t
}()
