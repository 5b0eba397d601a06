package bsor

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

// expectation is one corpus file's ground truth, from the corpus MANIFEST.tsv
// notes and EXPECTED.md (not from this decoder's output).
type expectation struct {
	rel, sample                 string
	mod, game, platform, hmd    string
	difficulty, mode, modifiers string
	score                       int64
	frames                      int
	good, bad, miss, bomb       int64
	walls, heights, pauses      int64
	offsets, user               bool
	failed                      bool
	nameRecovered               bool
	loneSix                     bool
	scoringTypes                string // prefix of the scoringTypes field
	scoreExact                  bool   // the computed score must equal the recorded one
}

var expectations = []expectation{
	{rel: "Lyall-A__BSOR2JSON/test.bsor", mod: "0.9.9", game: "1.29.1_4575554838", platform: "steam", hmd: "Oculus Rift S",
		difficulty: "Expert", mode: "Standard", score: 814242, frames: 11452, good: 937, pauses: 2, offsets: true, user: true, scoreExact: true},
	{rel: "MetaGuard__xror/test__data__bsor__sample1.bsor", mod: "0.5.4", game: "1.27.0_3631158313", platform: "steam", hmd: "VIVE Pro 2",
		difficulty: "ExpertPlus", mode: "Standard", score: 1406415, frames: 27931, good: 1641, bad: 2, miss: 2, scoreExact: true},
	{rel: "MetaGuard__SimSaber/generatedReplays__102-Expert-Standard-85ED6A233B87576D8A101927AB4AC10B6A0B74F4.bsor", mod: "0.2.0", game: "1.17.1",
		platform: "oculus", hmd: "Oculus Quest 2", difficulty: "Expert", mode: "Standard", modifiers: "DA,FS", score: 790870, frames: 16352,
		good: 905, miss: 1, pauses: 2, scoringTypes: "0 ", scoreExact: true},
	{rel: "MetaGuard__SimSaber/generatedReplays__76561198059961776-ExpertPlus-Standard-67B7AE187626B78F5C6EEAAE0C78FA5B2C61D2CA.bsor", mod: "0.5.8",
		game: "1.28.0_4124311467", platform: "oculus", hmd: "Oculus Quest", difficulty: "ExpertPlus", mode: "Standard", score: 1107043, frames: 16966,
		good: 1317, bad: 4, miss: 9, bomb: 2, scoringTypes: "2 NoScore", scoreExact: true},
	{rel: "MetaGuard__SimSaber/testData__motion__replay.bsor", sample: "easy-full-play.bsor", mod: "0.7.1", game: "1.29.1_4575554838", platform: "steam",
		hmd: "VIVE Pro 2", difficulty: "Easy", mode: "Standard", score: 11766, frames: 2682, good: 21, scoreExact: true},
	{rel: "MetaGuard__SimSaber/generatedReplays__generatedwithscore@9763e0da.bsor", mod: "0.7.1", game: "1.29.1_4575554838", platform: "steam",
		hmd: "Oculus Quest", difficulty: "ExpertPlus", mode: "Standard", score: 829208, frames: 17506, good: 934, loneSix: true},
	{rel: "MetaGuard__MetaGuardPlus/evaluation__usability__replays__6__1@a6cddf9e.bsor", sample: "utf16-name-prefix-clip.bsor", mod: "0.5.4",
		game: "1.27.0", platform: "steam", hmd: "Index", difficulty: "ExpertPlus", mode: "Standard", score: 796714, frames: 900,
		good: 1136, bad: 15, miss: 34, heights: -1, failed: true, nameRecovered: true, scoreExact: true},
	{rel: "MetaGuard__MetaGuardPlus/evaluation__usability__replays__4__1@ab1d4891.bsor", sample: "oldest-0.1.0-clip.bsor", mod: "0.1.0", game: "1.17.1",
		platform: "oculus", hmd: "Oculus Quest", difficulty: "Expert", mode: "Standard", score: 742216, frames: 900, good: 1022, bad: 17, miss: 19,
		walls: 1, failed: true, scoringTypes: "0 ", scoreExact: true},
	{rel: "MetaGuard__MetaGuardPlus/evaluation__usability__replays__8__2@c5bf80cb.bsor", sample: "walls-heights-pauses-clip.bsor", mod: "0.6.0",
		game: "1.28.0_4124315132", platform: "steam", hmd: "Oculus Rift S", difficulty: "Hard", mode: "Standard", score: 291082, frames: 900,
		good: 470, bad: 10, miss: 8, walls: 6, heights: 8025, pauses: 2, failed: true, scoreExact: true},
	{rel: "MetaGuard__MetaGuardPlus/preview__2-anonymized__76561197970860970-ExpertPlus-Standard-3585B3438A5B78DEAFAAA9D8FBA9A9E88556D218.bsor",
		mod: "0.5.4", game: "1.27.0_3631158313", platform: "steam", hmd: "Vive MV.", difficulty: "ExpertPlus", mode: "Standard", score: 794678,
		frames: 900, good: 945, heights: 12030, failed: true, scoreExact: true},
}

func checkExpectation(t *testing.T, path string, e expectation) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := decode(t, data)
	h := r.Header
	str := func(key string) string { s, _ := field(t, h, key).Value.(string); return s }
	num := func(key string) int64 { v, _ := field(t, h, key).Value.(int64); return v }
	if r.Version != e.mod || !strings.HasPrefix(str("gameVersion"), e.game) || str("platform") != e.platform || str("hmd") != e.hmd {
		t.Errorf("versions/platform: %q %q %q %q", r.Version, str("gameVersion"), str("platform"), str("hmd"))
	}
	if str("difficulty") != e.difficulty || str("mode") != e.mode || str("modifiers") != e.modifiers || num("score") != e.score {
		t.Errorf("map: %q %q %q %d", str("difficulty"), str("mode"), str("modifiers"), num("score"))
	}
	if r.Timeline.Count != e.frames || num("framesCount") != int64(e.frames) {
		t.Errorf("frames %d", r.Timeline.Count)
	}
	got := [7]int64{num("good"), num("bad"), num("miss"), num("bomb"), num("wallCount"), num("heightCount"), num("pauseCount")}
	want := [7]int64{e.good, e.bad, e.miss, e.bomb, e.walls, e.heights, e.pauses}
	if e.heights < 0 { // not stated in the ground truth
		want[5] = got[5]
	}
	if got != want {
		t.Errorf("good/bad/miss/bomb/walls/heights/pauses %v, want %v", got, want)
	}
	_, hasOff := model.Find(h, "controllerOffsets")
	ud, hasUser := model.Find(h, "userData")
	if hasOff != e.offsets || hasUser != e.user {
		t.Errorf("sections 6/7: %v %v", hasOff, hasUser)
	}
	if e.user && num("entryCount") != 0 {
		t.Errorf("section 7 should be empty: %+v", ud)
	}
	if e.failed != strings.HasPrefix(r.Result, "failed at 0:30") {
		t.Errorf("result %q", r.Result)
	}
	if e.scoringTypes != "" && !strings.HasPrefix(str("scoringTypes"), e.scoringTypes) {
		t.Errorf("scoring types %q", str("scoringTypes"))
	}
	if e.nameRecovered {
		if !strings.HasPrefix(r.Players[0].Name, "🎃 Kahm") || !hasDiag(r, model.Info, "playerName") {
			t.Errorf("name %q, diagnostics %v", r.Players[0].Name, r.Diagnostics)
		}
	}
	if e.loneSix != hasDiag(r, model.Warning, "section 6 at") {
		t.Errorf("lone 0x06: %v", r.Diagnostics)
	}
	if r.Partial {
		t.Errorf("partial: %v", r.Diagnostics)
	}
	for _, d := range r.Diagnostics {
		if d.Severity == model.Error {
			t.Errorf("unexpected error: %s", d)
		}
	}
	diff := num("difference")
	if e.scoreExact && diff != 0 {
		t.Errorf("computed score differs from the recorded %d by %d", e.score, diff)
	}
	// the synthetic SimSaber file carries a score its simulator computed;
	// ours comes within 0.1%
	if !e.scoreExact && (diff*1000 > e.score || -diff*1000 > e.score) {
		t.Errorf("computed score off by %d", diff)
	}
	t.Logf("recorded %d, computed minus recorded %d", e.score, diff)
	// every frame has a state and scenes, times never go back
	for f := 0; f < r.Timeline.Count; f++ {
		if f > 0 && r.Timeline.Time(f) < r.Timeline.Time(f-1) {
			t.Fatalf("time goes back at frame %d", f)
		}
	}
	last := r.PlayerState(r.Timeline.Count-1, 0)
	if !last.Present || len(r.SceneAt(r.Timeline.Count-1)) != 2 {
		t.Errorf("state/scenes at the last frame")
	}
}

func TestCorpus(t *testing.T) {
	dir := corpus.Dir(t, "bsor")
	for _, e := range expectations {
		t.Run(filepath.Base(e.rel), func(t *testing.T) { checkExpectation(t, filepath.Join(dir, e.rel), e) })
	}
}

// TestSamples runs the same checks on the copies kept in testdata, so the
// core tests pass without the shared corpus.
func TestSamples(t *testing.T) {
	dir := corpus.Samples(t, "bsor")
	n := 0
	for _, e := range expectations {
		if e.sample == "" {
			continue
		}
		n++
		t.Run(e.sample, func(t *testing.T) { checkExpectation(t, filepath.Join(dir, e.sample), e) })
	}
	if n != 4 {
		t.Errorf("%d samples", n)
	}
}

// TestRoundTrip is xror's assertion: the steam sample's bytes are
// reproduced exactly from what was decoded, float bit patterns included.
func TestRoundTrip(t *testing.T) {
	dir := corpus.Dir(t, "bsor")
	for _, rel := range []string{"MetaGuard__xror/test__data__bsor__sample1.bsor", "Lyall-A__BSOR2JSON/test.bsor",
		"MetaGuard__MetaGuardPlus/evaluation__usability__replays__8__2@c5bf80cb.bsor"} {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		d := &replay{data: data}
		d.parse(model.DecodeOptions{})
		if out := fromReplay(d).bytes(); !bytes.Equal(out, data) {
			n := 0
			for n < len(out) && n < len(data) && out[n] == data[n] {
				n++
			}
			t.Errorf("%s: re-encoded bytes differ at %#x (%d vs %d bytes)", rel, n, len(out), len(data))
		}
	}
}

func sampleFiles(t testing.TB) [][]byte {
	dir := corpus.Samples(t, "bsor")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.bsor"))
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		t.Fatal("no samples")
	}
	return out
}

// exercise touches everything the TUI and CLI read.
func exercise(r *model.Replay) {
	n := r.Timeline.Count
	for _, f := range []int{0, n / 2, n - 1} {
		r.Timeline.Label(f)
		r.Timeline.Time(f)
		r.PlayerState(f, 0)
		r.SceneAt(f)
	}
	// a few hundred events of every kind, not all of them: the tests call
	// this thousands of times
	seen := map[string]int{}
	for i := range r.Events {
		k := r.EventKind(i)
		if seen[k] < 100 || i%97 == 0 {
			seen[k]++
			r.EventSummary(i)
			r.EventFields(i)
		}
	}
	for _, d := range r.Diagnostics {
		_ = d.String()
	}
}

func TestTruncation(t *testing.T) {
	data := sampleFiles(t)[0]
	full := decode(t, data)
	if full.Partial {
		t.Fatal("sample is partial")
	}
	var cuts []int
	for i := 0; i < 400 && i < len(data); i++ {
		cuts = append(cuts, i)
	}
	for i := 400; i < len(data); i += len(data) / 300 {
		cuts = append(cuts, i)
	}
	for _, c := range cuts {
		r, err := Decode(data[:c], model.DecodeOptions{})
		if c < 4 {
			if err == nil {
				t.Errorf("cut at %d: no error", c)
			}
			continue
		}
		if err != nil {
			t.Fatalf("cut at %d: %v", c, err)
		}
		exercise(r)
		if !r.Partial {
			t.Errorf("cut at %d: not partial", c)
		}
		found := false
		for _, d := range r.Diagnostics {
			if d.Severity == model.Error && d.Span.Off > 0 && d.Span.Off <= int64(c) {
				found = true
			}
		}
		if !found {
			t.Errorf("cut at %d: no error diagnostic with an offset: %v", c, r.Diagnostics)
		}
	}
}

func TestBitFlips(t *testing.T) {
	for _, data := range sampleFiles(t) {
		buf := make([]byte, len(data))
		seed := uint64(0x9e3779b97f4a7c15)
		for k := 0; k < 150; k++ {
			copy(buf, data)
			for j := 0; j < 1+k%4; j++ {
				seed ^= seed << 13
				seed ^= seed >> 7
				seed ^= seed << 17
				// favour the structure at the start of the file
				span := len(buf)
				if k%2 == 0 {
					span = min(span, 2048)
				}
				pos := int(seed % uint64(span))
				buf[pos] ^= 1 << (seed >> 60 % 8)
			}
			r, err := Decode(buf, model.DecodeOptions{})
			if err != nil {
				continue // the magic itself was hit
			}
			exercise(r)
			for f := 1; f < r.Timeline.Count; f++ {
				if r.Timeline.Time(f) < r.Timeline.Time(f-1) {
					t.Fatalf("flip %d: time goes back at frame %d", k, f)
				}
			}
		}
	}
}

// shrink cuts a real file down to a fuzz seed: its own info section, bytes
// and quirks as they are, then every section with at most k records.
func shrink(data []byte, k int) []byte {
	d := &replay{data: data}
	d.parse(model.DecodeOptions{})
	if !d.info.complete {
		return data[:min(len(data), 2048)]
	}
	cut := func(n int) int { return min(n, k) }
	tf := fromReplay(d)
	tf.frames, tf.notes, tf.walls = tf.frames[:cut(len(tf.frames))], tf.notes[:cut(len(tf.notes))], tf.walls[:cut(len(tf.walls))]
	tf.heights, tf.pauses = tf.heights[:cut(len(tf.heights))], tf.pauses[:cut(len(tf.pauses))]
	enc := tf.bytes()
	e := &replay{data: enc}
	e.parse(model.DecodeOptions{HeaderOnly: true})
	out := append([]byte(nil), data[:d.info.span.End()]...)
	return append(out, enc[e.info.span.End():]...)
}

func FuzzBSOR(f *testing.F) {
	// Small seeds: Go's fuzzer minimises every new input it finds, and
	// crawls on inputs of many kilobytes. The samples cut down to a few
	// records of each section (their info sections as they are, quirks
	// included), a truncated one, and the hand-built files.
	for _, b := range sampleFiles(f) {
		small := shrink(b, 3)
		f.Add(small)
		f.Add(small[:len(small)*2/3])
	}
	f.Add(sampleFile().bytes())
	tf := sampleFile()
	tf.in.PlayerName, tf.nameLen = "🎃 Kahmi 🎃", 9
	f.Add(tf.bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []model.DecodeOptions{{}, {HeaderOnly: true}} {
			r, err := Decode(data, opt)
			decodetest.Check(t, r, err, data, opt)
			if !opt.HeaderOnly {
				decodetest.NoEvents(t, Decode, data, r, err)
			}
		}
	})
}

func BenchmarkDecodeBSOR(b *testing.B) {
	var data []byte
	if _, ok := corpus.Shared(b); ok {
		// the largest corpus file
		data, _ = os.ReadFile(corpus.File(b, "bsor", "MetaGuard__xror/test__data__bsor__sample1.bsor"))
	}
	if data == nil {
		for _, s := range sampleFiles(b) {
			if len(s) > len(data) {
				data = s
			}
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data, model.DecodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeBSORHeaderOnly(b *testing.B) {
	data := sampleFiles(b)[0]
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data, model.DecodeOptions{HeaderOnly: true}); err != nil {
			b.Fatal(err)
		}
	}
}
