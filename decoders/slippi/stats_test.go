package slippi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// The expectations are what slippi-js 9.1.2's getStats() returns for every
// file of the shared corpus, written once by testdata/slippijs/expect.cjs
// (node + npm) so that these tests need neither.

type expectation struct {
	File  string          `json:"file"`
	Cut   int             `json:"cut"` // the file cut short: see cutShort
	Stats json.RawMessage `json:"stats"`
	Error string          `json:"error"`
}

func loadExpectations(t testing.TB) []expectation {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "slippijs", "expected.ndjson.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []expectation
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var e expectation
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// cutShort is expect.cjs's cut: the file's first k/3 of the event stream
// with the raw length zeroed, as a replay still being recorded.
func cutShort(data []byte, k int) []byte {
	rawLen := int(binary.BigEndian.Uint32(data[11:]))
	b := append([]byte(nil), data[:min(len(data), 15+rawLen*k/3)]...)
	binary.BigEndian.PutUint32(b[11:], 0)
	return b
}

// replayFile finds an expectation's file: the copy in testdata/samples, else
// the shared corpus; "" when neither is there.
func replayFile(t testing.TB, rel string) string {
	s := filepath.Join(corpus.Samples(t, "slippi"), filepath.Base(rel))
	if _, err := os.Stat(s); err == nil {
		return s
	}
	p := filepath.Join(corpus.Root(t), "..", "shared", "corpus", "slp", rel)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

// nativeJSON is the replay's slippi-js stats as JSON values (null when there
// are none).
func nativeJSON(t testing.TB, r *model.Replay) any {
	t.Helper()
	b, err := json.Marshal(r.Analysis().Stats.Native)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// compareJSON compares two decoded JSON values leaf by leaf and returns the
// number of leaves compared and the differences by path. Numbers compare
// exactly: JSON.stringify and Go both write the shortest decimal that reads
// back as the same float64, so equal text means equal bits.
func compareJSON(path string, want, got any, diffs *[]string) int {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: want an object, got %v", path, got))
			return 1
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		n := 0
		for _, k := range sorted {
			wv, wok := w[k]
			gv, gok := g[k]
			switch {
			case !wok:
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: slippi-js has no such key, got %v", path, k, gv))
				n++
			case !gok:
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: missing, want %v", path, k, wv))
				n++
			default:
				n += compareJSON(path+"."+k, wv, gv, diffs)
			}
		}
		return n
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*diffs = append(*diffs, fmt.Sprintf("%s: want %d items, got %v", path, len(w), lenOf(got)))
			return 1
		}
		n := 0
		for i := range w {
			n += compareJSON(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], diffs)
		}
		return n
	default:
		if want != got {
			*diffs = append(*diffs, fmt.Sprintf("%s: want %v, got %v", path, want, got))
		}
		return 1
	}
}

func lenOf(v any) string {
	if a, ok := v.([]any); ok {
		return fmt.Sprintf("%d items", len(a))
	}
	return fmt.Sprint(v)
}

// TestStatsMatchSlippiJS compares every value of getStats() on every corpus
// file slippi-js computes stats for (the samples in testdata when the
// shared corpus is absent), and then the JSON text: rewind writes what
// JSON.stringify writes, byte for byte. Rollback files are among them: slippi-js
// computes stats only when asked, after the whole file was read, from one
// object per frame whose pre- and post-frame updates each later copy of the
// frame overwrote, so it sees the last copy of every frame, the one the
// decoder keeps.
func TestStatsMatchSlippiJS(t *testing.T) {
	files, cuts, values, mismatches := 0, 0, 0, 0
	var refused, absent []string
	for _, e := range loadExpectations(t) {
		if e.Error != "" {
			refused = append(refused, fmt.Sprintf("%s (throws %q)", e.File, e.Error))
			continue
		}
		if string(e.Stats) == "null" {
			refused = append(refused, e.File+" (getStats() is undefined)")
		}
		path := replayFile(t, e.File)
		if path == "" {
			absent = append(absent, e.File)
			continue
		}
		name := strings.ReplaceAll(e.File, "/", "__")
		if e.Cut > 0 {
			name += fmt.Sprintf("/cut%d", e.Cut)
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if e.Cut > 0 {
				data = cutShort(data, e.Cut)
			}
			r, err := Decode(data, model.DecodeOptions{})
			if err != nil {
				// not a replay to either reader
				if string(e.Stats) != "null" {
					t.Fatalf("slippi-js computes stats, rewind refuses: %v", err)
				}
				return
			}
			var want any
			if err := json.Unmarshal(e.Stats, &want); err != nil {
				t.Fatal(err)
			}
			var diffs []string
			n := compareJSON("stats", want, nativeJSON(t, r), &diffs)
			// and the same text, keys in the same order
			if b, _ := json.Marshal(r.Analysis().Stats.Native); len(diffs) == 0 && !bytes.Equal(b, e.Stats) {
				t.Errorf("same values, different JSON text than JSON.stringify:\n%.300s\n%.300s", b, e.Stats)
			}
			files++
			if e.Cut > 0 {
				cuts++
			}
			values += n
			mismatches += len(diffs)
			for i, d := range diffs {
				if i == 20 {
					t.Errorf("... and %d more", len(diffs)-20)
					break
				}
				t.Error(d)
			}
		})
	}
	t.Logf("%d replays compared (%d cut short), %d values, %d mismatches", files, cuts, values, mismatches)
	for _, r := range refused {
		t.Logf("slippi-js gives no stats for %s", r)
	}
	if len(absent) > 0 {
		t.Logf("%d files skipped: not in testdata/samples and the shared corpus is absent", len(absent))
	}
}

// TestStatsGroundTruth checks the values slippi-js's own tests assert
// (corpus EXPECTED.md, "Derived-stats assertions").
func TestStatsGroundTruth(t *testing.T) {
	const sjs = "project-slippi__slippi-js/"
	for _, c := range []struct {
		file  string
		check func(t *testing.T, s *Stats)
	}{
		{sjs + "slp__test.slp", func(t *testing.T, s *Stats) {
			same(t, "lastFrame", s.LastFrame, 3694)
			same(t, "stocks", len(s.Stocks), 5)
			if end := s.Stocks[len(s.Stocks)-1].EndFrame; end == nil || *end != 3694 {
				t.Errorf("last stock ends at %v, want 3694", end)
			}
			same(t, "conversions", len(s.Conversions), 10)
			mv := s.Conversions[0].Moves
			same(t, "first conversion's moves", len(mv), 4)
			same(t, "its first move", *mv[0].MoveID, 15)
			same(t, "its last move", *mv[len(mv)-1].MoveID, 17)
			a := s.ActionCounts[0]
			same(t, "wavedashes", a.WavedashCount, 16)
			same(t, "wavelands", a.WavelandCount, 1)
			same(t, "air dodges", a.AirDodgeCount, 3)
			same(t, "forward tilts", a.AttackCount.Ftilt, 3)
			same(t, "dash attacks", a.AttackCount.Dash, 1)
			same(t, "forward smashes", a.AttackCount.Fsmash, 4)
			same(t, "back airs", a.AttackCount.Bair, 4)
			same(t, "inputs", *s.Overall[0].InputCounts.Total, 494)
		}},
		{sjs + "slp__lCancel.slp", func(t *testing.T, s *Stats) {
			same(t, "P1 L-cancels", s.ActionCounts[0].LCancelCount, SuccessFail{3, 4})
			same(t, "P2 L-cancels", s.ActionCounts[1].LCancelCount, SuccessFail{5, 4})
		}},
		{sjs + "slp__actionEdgeCases.slp", func(t *testing.T, s *Stats) {
			a := s.ActionCounts[0]
			same(t, "back airs", a.AttackCount.Bair, 8)
			same(t, "spot dodges", a.SpotDodgeCount, 4)
			same(t, "forward tilts", a.AttackCount.Ftilt, 3)
			same(t, "forward smashes", a.AttackCount.Fsmash, 3)
			same(t, "jabs", [4]int{a.AttackCount.Jab1, a.AttackCount.Jab2, a.AttackCount.Jab3, a.AttackCount.Jabm}, [4]int{4, 3, 2, 1})
			same(t, "grabs", a.GrabCount, SuccessFail{4, 1})
			same(t, "dash attacks", a.AttackCount.Dash, 2)
		}},
		{sjs + "slp__consistencyTest__PichuVSelf-All-22.slp", func(t *testing.T, s *Stats) {
			// Pichu's self-damage is no damage done
			if s.Overall[0].TotalDamage < 32 {
				t.Errorf("Pichu's damage %v, want at least 32", s.Overall[0].TotalDamage)
			}
			same(t, "Pichu's conversions", s.Overall[0].ConversionCount, 3)
			same(t, "Pichu's kills", s.Overall[0].KillCount, 0)
			same(t, "the Ice Climbers' damage", s.Overall[1].TotalDamage, 0)
		}},
		{sjs + "slp__consistencyTest__NessVFox-Absorb.slp", func(t *testing.T, s *Stats) {
			// Ness absorbing a laser heals him: no damage done by Fox
			same(t, "Ness's damage", s.Overall[0].TotalDamage, 0)
			same(t, "Ness's conversions", s.Overall[0].ConversionCount, 0)
			same(t, "Fox's conversions", s.Overall[1].ConversionCount, 2)
			same(t, "Fox's kills", s.Overall[1].KillCount, 0)
		}},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			r := load(t, c.file)
			s, ok := r.Analysis().Stats.Native.(*Stats)
			if !ok {
				t.Fatalf("no slippi-js stats: %T", r.Analysis().Stats.Native)
			}
			c.check(t, s)
		})
	}
}

func same[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestStatsFollowPlayerFlagsInFile: slippi-js 9.1.2 reads the player flag
// bits (stamina mode, silent, low gravity, invisible, black stock icon,
// metal, warp-in, rumble) from the team shade byte (Game Start 0x6C + 0x24i)
// instead of the Player Bitfield (0x71 + 0x24i). rewind follows the file:
// with every shade byte set and every bit field clear, the flags read clear,
// and the stats, which use no flag, stay slippi-js's for the unchanged file.
func TestStatsFollowPlayerFlagsInFile(t *testing.T) {
	const rel = "hohav__peppi/tests__data__v3.18.slp"
	var want json.RawMessage
	for _, e := range loadExpectations(t) {
		if e.File == rel && e.Cut == 0 {
			want = e.Stats
		}
	}
	data, err := os.ReadFile(path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(data, []byte{cmdStart, 3, 18, 0})
	if start < 0 {
		t.Fatal("no Game Start 3.18.0")
	}
	for port := 0; port < 4; port++ {
		data[start+0x6C+0x24*port] = 0xFF // what slippi-js takes for the flags
		data[start+0x71+0x24*port] = 0    // the flags
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, port := range []string{"port1", "port2"} {
		if f := get(t, r.Header, "gameStart", port, "playerBitfield"); f.Value != int64(0) {
			t.Errorf("%s flags = %v (%s), want 0: the bit field is clear", port, f.Value, f.Name)
		}
	}
	var w any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	var diffs []string
	compareJSON("stats", w, nativeJSON(t, r), &diffs)
	for _, d := range diffs {
		t.Error(d)
	}
}

// TestOpeningTypes covers what the corpus does not: slippi-js labels a
// conversion without moves by looking up the end of the last conversion on
// the player hit (not on the attacker), and it takes an end frame of 0 as
// none. Cases follow its _populateConversionTypes.
func TestOpeningTypes(t *testing.T) {
	conv := func(victim, start int64, end *Int, moves int) *punish {
		p := &punish{victim: int(victim), attacker: 1 - int(victim), Punish: Punish{StartFrame: start, EndFrame: end}}
		for i := 0; i < moves; i++ {
			p.Moves = append(p.Moves, MoveLanded{PlayerIndex: 1 - int(victim)})
		}
		return p
	}
	for _, c := range []struct {
		name  string
		convs []*punish
		want  []string
	}{
		{"same start: a trade", []*punish{conv(0, 10, intPtr(50), 1), conv(1, 10, intPtr(60), 1)}, []string{"trade", "trade"}},
		{"hit back before being let go: a counter-attack", []*punish{conv(0, 10, intPtr(80), 2), conv(1, 40, intPtr(90), 1)}, []string{"neutral-win", "counter-attack"}},
		{"after the punish ended: neutral", []*punish{conv(0, 10, intPtr(30), 2), conv(1, 40, intPtr(90), 1)}, []string{"neutral-win", "neutral-win"}},
		{"no moves: its own end counts", []*punish{conv(0, 10, intPtr(30), 0)}, []string{"counter-attack"}},
		{"no moves, still going: neutral", []*punish{conv(0, 10, nil, 0)}, []string{"neutral-win"}},
		{"an end at frame 0 is none", []*punish{conv(0, -100, intPtr(0), 1), conv(1, -50, nil, 1)}, []string{"neutral-win", "neutral-win"}},
	} {
		openingTypes(c.convs)
		for i, p := range c.convs {
			if p.opening != c.want[i] {
				t.Errorf("%s: conversion %d is %s, want %s", c.name, i, p.opening, c.want[i])
			}
		}
	}
}

// TestNumJSON: a Num is written as encoding/json writes a float64, which
// follows ECMAScript's Number::toString (plain from 1e-6 to 1e21, else an
// exponent without leading zeros), except NaN and infinities (null, as
// JSON.stringify writes them) and -0 ("0"); and Int as an int64.
func TestNumJSON(t *testing.T) {
	vals := []float64{1, -1, 0.5, 1.0 / 3, 100, 123456789, 1e20, 1e21, -1e21, 9.999999999999999e20, 1e-6, 9.99e-7, 1e-7, -1.5e-7, 1e-10,
		5e-324, math.MaxFloat64, 2.5e-8, 12.345, 0.1 + 0.2, 1e300, 1e-300, 58.000003814697266}
	for i := uint64(1); i < 20000; i++ {
		vals = append(vals, math.Float64frombits(i*0x9E3779B97F4A7C15)) // spread over every exponent
	}
	for _, f := range vals {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		want, _ := json.Marshal(f)
		got, _ := Num(f).MarshalJSON()
		if string(got) != string(want) {
			t.Fatalf("%v: %s, encoding/json %s", f, got, want)
		}
	}
	for f, want := range map[float64]string{math.NaN(): "null", math.Inf(1): "null", math.Inf(-1): "null", math.Copysign(0, -1): "0", 0: "0"} {
		if got, _ := Num(f).MarshalJSON(); string(got) != want {
			t.Errorf("%v: %s, want %s", f, got, want)
		}
	}
	type withInt struct {
		A *Int `json:"a,omitempty"`
		B *Int `json:"b,omitempty"`
	}
	if b, _ := json.Marshal(withInt{A: intPtr(-123)}); string(b) != `{"a":-123}` {
		t.Errorf("Int: %s", b)
	}
}

// TestStickRegion: the regions of slippi-js's getJoystickRegion (its
// JoystickRegion enum: DZ 0, NE 1, SE 2, SW 3, NW 4, N 5, E 6, S 7, W 8):
// an axis at or past ±0.2875 as a float64, so the float32 nearest 0.2875
// (0.28749999...) is not past it, and an absent (NaN) axis in neither
// direction, as JavaScript's comparisons with undefined.
func TestStickRegion(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []struct {
		x, y float32
		want uint8
	}{
		{0, 0, 0}, {0.2875, -0.2875, 0}, {nan, nan, 0},
		{0.2876, 0.2876, 1}, {1, -1, 2}, {-0.2876, -0.2876, 3}, {-1, 1, 4},
		{0.2875, 0.2876, 5}, {nan, 1, 5}, {0.2876, 0, 6}, {1, nan, 6},
		{0.2875, -1, 7}, {-1, -0.2875, 8}, {-1, nan, 8},
	} {
		if got := stickRegion(c.x, c.y); got != c.want {
			t.Errorf("stickRegion(%v, %v) = %d, want %d", c.x, c.y, got, c.want)
		}
	}
}

// TestLandingLagTable: the table has every playable character's aerials;
// for other characters (slippi-js throws there) no edge cancel is counted.
func TestLandingLagTable(t *testing.T) {
	for char := int16(0); char <= 26; char++ {
		for a := int32(asAerialLandStart); a <= asAerialLandEnd; a++ {
			if lag, lc, ok := landingLag(char, a); !ok || lc <= 0 || lag <= lc {
				t.Errorf("character %d landing %#x: %d/%d %v", char, a, lag, lc, ok)
			}
		}
	}
	if lag, lc, ok := landingLag(6, asAerialLandEnd); lag != 50 || lc != 25 || !ok {
		t.Errorf("Link's down air: %d/%d, want 50/25", lag, lc)
	}
	if _, _, ok := landingLag(0x20, asAerialLandStart); ok {
		t.Error("a landing lag for Sandbag")
	}
}
