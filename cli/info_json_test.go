package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"rewind/library"
	"rewind/model"
	"rewind/theme"
)

// TestInfoJSONSameAsWriteJSON: the hand-written info line, escaped as info
// writes it, is byte for byte what writeJSON writes, for values that fill
// every field (found by reflection, so a field added to infoJSON and not to
// appendInfoJSON fails here) and for the strings and numbers encoding/json
// and theme.EscapeJSON treat specially.
func TestInfoJSONSameAsWriteJSON(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	strs := []string{"", "plain", `q"uote\back`, "tab\tnl\ncr\rbs\bff\f", "\x00\x01\x1f\x7f", "<a href='x'>&amp;</a>",
		"é ザイン 명지", "bad \xff\xfe utf8", "sep \u2028 \u2029", "Pokémon Stadium", "c1 \u0085 \u009b bidi \u202e \u2066"}
	floats := []float64{0, 1, -1, 0.5, 480.5, 59.94, 1e-7, 1.5e-7, 123456789012345678901234.0, 1e21, 1e20, 3.141592653589793, -0.0, 5e-324}
	fill := func(v reflect.Value) {
		var rec func(v reflect.Value)
		rec = func(v reflect.Value) {
			switch v.Kind() {
			case reflect.String:
				v.SetString(strs[rng.Intn(len(strs))])
			case reflect.Int, reflect.Int64:
				v.SetInt(int64(rng.Intn(3)-1) * rng.Int63n(1<<40))
			case reflect.Float64:
				v.SetFloat(floats[rng.Intn(len(floats))])
			case reflect.Bool:
				v.SetBool(rng.Intn(2) == 0)
			case reflect.Pointer:
				if rng.Intn(4) == 0 {
					return // nil
				}
				if v.Type().Elem() == reflect.TypeOf(time.Time{}) {
					tm := time.Date(1990+rng.Intn(40), 3, 15, 23, 59, 1, rng.Intn(2)*123456789, time.FixedZone("", (rng.Intn(25)-12)*3600))
					v.Set(reflect.ValueOf(&tm))
					return
				}
				p := reflect.New(v.Type().Elem())
				rec(p.Elem())
				v.Set(p)
			case reflect.Slice:
				if rng.Intn(5) == 0 {
					return // nil
				}
				n := rng.Intn(4)
				s := reflect.MakeSlice(v.Type(), n, n)
				for i := range n {
					rec(s.Index(i))
				}
				v.Set(s)
			case reflect.Struct:
				for i := range v.NumField() {
					rec(v.Field(i))
				}
			default:
				t.Fatalf("infoJSON has a %s field: teach appendInfoJSON and this test", v.Kind())
			}
		}
		rec(v)
	}
	check := func(j *infoJSON) {
		t.Helper()
		var want bytes.Buffer
		writeJSON(&want, j)
		if got := appendInfoJSON(nil, *j); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("\n got %s\nwant %s", got, want.Bytes())
		}
	}
	for range 3000 {
		var j infoJSON
		fill(reflect.ValueOf(&j).Elem())
		check(&j)
	}
	// refused values are refused the same way (nothing written)
	nan, y := math.NaN(), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	check(&infoJSON{Path: "x", DurationSeconds: nan})
	check(&infoJSON{Path: "x", Start: &y})
	check(&infoJSON{Path: "x", Format: model.Format("slippi"), Players: []infoPlayer{}})
}

// TestJSONStringSameAsMarshal: strings of every length, plain or with a
// character to escape anywhere in them (so the eight-at-a-time scan meets
// it at each place in a word), come out as encoding/json writes them,
// escaped for terminals by theme.EscapeJSON.
func TestJSONStringSameAsMarshal(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	special := []string{`"`, `\`, "<", ">", "&", "\x00", "\x1f", "\x7f", "\n", "é", "\xff", "\u2028", "\u2029", "\u009b", "~", " ",
		"\u0085", "\u061c", "\u200b", "\u202e", "\u2066", "\ufeff", "\ufffb", "\u00a0", "ザ", "😀"}
	for n := range 20000 {
		var sb strings.Builder
		for range rng.Intn(40) {
			if rng.Intn(10) == 0 {
				sb.WriteString(special[rng.Intn(len(special))])
			} else {
				sb.WriteByte(byte(0x20 + rng.Intn(0x5f)))
			}
		}
		s := sb.String()
		want, _ := json.Marshal(s)
		want = theme.EscapeJSON(want)
		if got := jsonString(nil, s); string(got) != string(want) {
			t.Fatalf("case %d %q: %s, want %s", n, s, got, want)
		}
	}
}

// BenchmarkInfoLine is one line of `info --json` from a replay's header,
// as info makes it on the scan's workers: a million of them is the bulk of
// a warm info of a million files.
func BenchmarkInfoLine(b *testing.B) {
	var hs []library.Header
	library.Scan(context.Background(), library.FSPaths(samples(), "."), library.ScanOptions{}, func(h library.Header) bool {
		hs = append(hs, h)
		return true
	})
	if len(hs) == 0 {
		b.Fatal("no samples")
	}
	b.ReportAllocs()
	var buf []byte
	for i := range b.N {
		h := hs[i%len(hs)]
		buf = appendInfoJSON(buf[:0], summarize(&h))
	}
}

// BenchmarkJSONString is the strings of an info line: a path, a title,
// names and characters, mostly plain ASCII.
func BenchmarkJSONString(b *testing.B) {
	strs := []string{"/tmp/million/2019/01/01/slp__nametags2_0189.slp", "Final Destination", "slippi", "Slippi replay",
		"P1", "Mang0", "Fox", "online ranked", "/home/player/replays/2023-05/Game_20230514T201533.slp", "ザイン", "Pokémon Stadium"}
	b.SetBytes(int64(len(strings.Join(strs, ""))))
	var buf []byte
	for range b.N {
		buf = buf[:0]
		for _, s := range strs {
			buf = jsonString(buf, s)
		}
	}
}
