package fzgx

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

const test00 = "eigenform__fgx-re/test_00.bin"

var emblemFiles = []struct {
	rel      string
	checksum uint16 // EXPECTED.md: "Verified here on both emblem GCIs"
}{
	{"fzerocentral__fzgx-image2emblem/processing__ImageToEmblem1_00__emblemOutput__fze0200002000v1.00_1CEEDA3A.dat.gci", 0x33E7},
	{"fzerocentral__fzgx-image2emblem/processing__source__ImageToEmblem1_01__emblemOutput__a__fze0_fzgx_Falcon________595.dat.gci", 0x8B4B},
}

// realReplay is test_00.bin (the data region of yoshifan's NA replay) with
// the GCI header rebuilt in front: 0x20A0 + 16288 bytes = 3 blocks.
func realReplay(t testing.TB) []byte {
	t.Helper()
	body, err := os.ReadFile(corpus.File(t, "fzgx", test00))
	if err != nil {
		t.Fatal(err)
	}
	// The modification time is unknown, so it stays unset (0); the comment
	// says the header is synthetic.
	return wrapGCI(gciOpts{region: 'E', name: "fzr000035804D31D70EE97E77.dat",
		comment: [2][]byte{[]byte("F-ZERO GX"), []byte("synthetic header (rewind test)")}}, body)
}

func decode(t testing.TB, data []byte, opt model.DecodeOptions) *model.Replay {
	t.Helper()
	r, err := Decode(data, opt)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return r
}

func field(t testing.TB, fs []model.Field, key string) model.Field {
	t.Helper()
	f, ok := model.Find(fs, key)
	if !ok {
		t.Fatalf("no field %q", key)
	}
	return f
}

func TestRealReplayMatchesExpected(t *testing.T) {
	t.Run("corpus", func(t *testing.T) { checkExpected(t, realReplay(t)) })
	t.Run("sample", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "fzgx"), "time-attack.gci"))
		if err != nil {
			t.Fatal(err)
		}
		checkExpected(t, data)
	})
}

// checkExpected asserts EXPECTED.md's values for test_00 in a whole .gci.
func checkExpected(t *testing.T, data []byte) {
	if len(data) != 24640 {
		t.Fatalf("wrapped size %d, EXPECTED.md says 24640", len(data))
	}
	r := decode(t, data, model.DecodeOptions{})
	replay := field(t, r.Header, "replay").Fields
	ints := []struct {
		key  string
		want int64
	}{
		{"racerArrayType", 5},
		{"courseId", 36},
		{"racerArrayElementCount", 1},
		{"gpDifficulty", 0},
		{"gameMode", 2},
		{"lapCount", 3},
		{"isHuman", 1},
		{"machineId", 6},
		{"aiRelated", 0},
		{"accelMaxspeedSlider", 100},
		{"colorSwap", 0},
		{"isCustom", 0},
		{"unknown52", 1},
		{"unknown53", 0},
		{"totalFrames", 3314},
		{"replayCheckpointArrayElementCount", 4},
		{"replayArrayElementCount", 1991},
	}
	for _, c := range ints {
		if got := field(t, replay, c.key).Value; got != c.want {
			t.Errorf("%s = %v, want %d", c.key, got, c.want)
		}
	}
	if got := field(t, replay, "unknown4").Value; got != uint64(0x496CFC59) {
		t.Errorf("unknown4 = %#x, want 0x496cfc59", got)
	}
	if got := field(t, replay, "unknown4").Name; got != "0x496cfc59" {
		t.Errorf("unknown4 shown as %q, want 0x496cfc59", got)
	}
	if got := field(t, replay, "unknown5").Value; got != uint64(0xCAE80767) {
		t.Errorf("unknown5 = %#x, want 0xcae80767", got)
	}
	if n := field(t, replay, "courseId").Name; n != "Mute City: Sonic Oval" {
		t.Errorf("course name %q", n)
	}
	if n := field(t, replay, "machineId").Name; n != "Blue Falcon" {
		t.Errorf("machine name %q", n)
	}
	if r.Title != "Mute City: Sonic Oval" || r.Mode != "Time Attack" || r.Version != "GFZE (North America)" {
		t.Errorf("summary: title %q mode %q version %q", r.Title, r.Mode, r.Version)
	}
	if want := 3132 * time.Second / 60; r.Duration != want {
		t.Errorf("Duration = %v, want %v (3314-182 frames)", r.Duration, want)
	}
	if r.Partial {
		t.Error("complete replay marked Partial")
	}

	// checkpoints: frames and the first position
	cps := field(t, replay, "replayCheckpointArray").Fields
	wantFrames := [][2]int64{{182, 182}, {1504, 1504}, {2401, 2401}, {3315, 3315}}
	if len(cps) != 4 {
		t.Fatalf("%d checkpoints, want 4", len(cps))
	}
	for i, w := range wantFrames {
		f1 := field(t, cps[i].Fields, "replayCheckpointFrame1").Value
		f2 := field(t, cps[i].Fields, "replayCheckpointFrame2").Value
		if f1 != w[0] || f2 != w[1] {
			t.Errorf("checkpoint %d frames %v/%v, want %d/%d", i+1, f1, f2, w[0], w[1])
		}
	}
	for k, w := range map[string]float64{"replayCheckpointPosition1X": 22.536, "replayCheckpointPosition1Y": 0.895, "replayCheckpointPosition1Z": 18.974} {
		if got := field(t, cps[0].Fields, k).Value.(float64); math.Abs(got-w) > 0.0005 {
			t.Errorf("checkpoint 1 %s = %v, want %v", k, got, w)
		}
	}

	// the bitstream ends at bit 109502 = byte 13688 of the region
	if sp := field(t, r.Header, "replay").Span; sp.Off != 0x20A0 || sp.Len != 13688 {
		t.Errorf("replay data span %v+%d, want 0x20a0+13688", sp, sp.Len)
	}

	// 1992 elements whose frame counts add up to the total frames, then zeros
	if got := field(t, replay, "replayArray"); got.Value != int64(1992) || got.Name != "1992 input runs covering 3314 frames" {
		t.Errorf("replay array %v %q, want 1992 runs covering 3314 frames", got.Value, got.Name)
	}
	if hasDiag(r, model.Info, "padding") {
		t.Error("the bytes after the bitstream are zeros, but a padding note was given")
	}

	// timeline: total frames, 60/s, race time 0 at frame 182
	tl := r.Timeline
	if tl.Count != 3314 || tl.Rate != 60 {
		t.Errorf("timeline count %d rate %v, want 3314, 60", tl.Count, tl.Rate)
	}
	if tl.Time(182) != 0 || tl.Time(0) != -182*time.Second/60 {
		t.Errorf("TimeOf(182) = %v, TimeOf(0) = %v", tl.Time(182), tl.Time(0))
	}

	// first inputs (EXPECTED.md): {04,0,100,0,frames 77,0,0}, {04,0,100,0,2,0,1},
	// {04,0,100,0,42,0,3}, frame counts after adding 1 to the field: runs of
	// 77, 2 and 42 frames from frame 0.
	inputs := []struct {
		frame    int
		accel, y int64
		element  int64
	}{{0, 100, 0, 0}, {76, 100, 0, 0}, {77, 100, 1, 1}, {78, 100, 1, 1}, {79, 100, 3, 2}, {120, 100, 3, 2}, {121, 100, -1, 3}} // -1: the fourth run is not in EXPECTED.md
	for _, c := range inputs {
		st := r.PlayerState(c.frame, 0)
		if got := field(t, st.Fields, "replayElementAccel").Value; got != c.accel {
			t.Errorf("frame %d accel %v, want %d", c.frame, got, c.accel)
		}
		if got := field(t, st.Fields, "replayElementSteerY").Value; c.y >= 0 && got != c.y {
			t.Errorf("frame %d steer y %v, want %d", c.frame, got, c.y)
		}
		if got := field(t, st.Fields, "inputElement").Value; got != c.element {
			t.Errorf("frame %d input element %v, want %d", c.frame, got, c.element)
		}
		if b := field(t, st.Fields, "replayElementButtons"); b.Value != uint64(0x04) || b.Name != "none" {
			t.Errorf("frame %d buttons %v %q, want 0x04 none", c.frame, b.Value, b.Name)
		}
	}

	// 1992 input events plus start, 4 checkpoints, finish
	kinds := map[string]int{}
	for i := range r.Events {
		kinds[r.EventKind(i)]++
	}
	if kinds["input"] != 1992 || kinds["checkpoint"] != 4 || kinds["start"] != 1 || kinds["finish"] != 1 {
		t.Errorf("event kinds %v", kinds)
	}

	// The inputs add up to the total frames (EXPECTED.md), so the only
	// diagnostics are infos: the GP difficulty the spec disagrees with and
	// the last checkpoint that lies past the end.
	if r.Problems() != 0 {
		for _, d := range r.Diagnostics {
			t.Log(d)
		}
		t.Errorf("%d problems, want 0", r.Problems())
	}
	if !hasDiag(r, model.Info, "GP difficulty") {
		t.Error("no info about the GP difficulty in Time Attack")
	}
	// EXPECTED.md: racer 0 is human, machine 6 = Blue Falcon, whose pilot
	// (spec: the pilot shares the machine's id) is Captain Falcon.
	if len(r.Players) != 1 || r.Players[0].Character != "Blue Falcon" || r.Players[0].Name != "Captain Falcon" {
		t.Errorf("players %+v", r.Players)
	} else if h, _ := model.Find(r.Players[0].Fields, "isHuman"); h.Name != "Human" {
		t.Errorf("racer 0 human flag %+v", h)
	}
}

func hasDiag(r *model.Replay, sev model.Severity, subject string) bool {
	for _, d := range r.Diagnostics {
		if d.Severity == sev && strings.Contains(d.Subject, subject) {
			return true
		}
	}
	return false
}

func TestEmblemFilesRefused(t *testing.T) {
	corpus.Dir(t, "fzgx") // skip here, not in every subtest: a test whose subtests all skip must not pass
	for _, ef := range emblemFiles {
		t.Run(filepath.Base(ef.rel), func(t *testing.T) {
			data, err := os.ReadFile(corpus.File(t, "fzgx", ef.rel))
			if err != nil {
				t.Fatal(err)
			}
			// EXPECTED.md: 24640 bytes, GFZE8P, 3 blocks, file type 04 01
			if len(data) != 24640 || string(data[:6]) != "GFZE8P" || data[0x39] != 3 || data[0x42] != 4 || data[0x43] != 1 {
				t.Errorf("container facts differ from EXPECTED.md: % x", data[:6])
			}
			if got := uint16(data[0x40])<<8 | uint16(data[0x41]); got != ef.checksum {
				t.Errorf("stored checksum %#04x, want %#04x", got, ef.checksum)
			}
			if got := crc16(data[0x42:]); got != ef.checksum {
				t.Errorf("crc16 = %#04x, want %#04x", got, ef.checksum)
			}
			if got := bitwiseCRC(data[0x42:]); got != ef.checksum {
				t.Errorf("bitwise crc = %#04x, want %#04x", got, ef.checksum)
			}
			r, err := Decode(data, model.DecodeOptions{})
			var fe *model.FormatError
			if r != nil || !errors.As(err, &fe) {
				t.Fatalf("Decode = %v, %v; want a FormatError", r, err)
			}
			if !strings.Contains(err.Error(), "emblem") || fe.Off != 0x42 {
				t.Errorf("error %q does not name an emblem save at 0x42", err)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	body := minimalTA().stream()
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "game code"},
		{"other game", append([]byte("GALE01"), make([]byte, 0x40)...), "game code"},
		{"unknown region", []byte("GFZX8P\xff\x02"), "region"},
		{"cut before file type", []byte("GFZE8P\xff\x02"), "before its file type"},
		{"game data", wrapGCI(gciOpts{fileType: [2]byte{0x01, 0x0B}}, body), "game data save (file type 01 0b)"},
		{"ghost", wrapGCI(gciOpts{fileType: [2]byte{0x02, 0x01}}, body), "ghost data"},
		{"garage", wrapGCI(gciOpts{fileType: [2]byte{0x03, 0x01}}, body), "garage"},
		{"emblem", wrapGCI(gciOpts{fileType: [2]byte{0x04, 0x01}}, body), "an F-Zero GX emblem save"},
		{"unknown type", wrapGCI(gciOpts{fileType: [2]byte{0x09, 0x01}}, body), "unknown file type 09 01"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Decode(tc.data, model.DecodeOptions{})
			if r != nil || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Decode = %v, %v; want an error containing %q", r, err, tc.want)
			}
		})
	}
}

func TestChecksumMismatch(t *testing.T) {
	data := realReplay(t)
	good := crc16(data[0x42:])
	data[0x1000] ^= 0xFF // inside the banner/icon area: the stream is untouched
	r := decode(t, data, model.DecodeOptions{})
	var found *model.Diagnostic
	for i := range r.Diagnostics {
		if r.Diagnostics[i].Subject == "checksum" {
			found = &r.Diagnostics[i]
		}
	}
	if found == nil {
		t.Fatal("no checksum diagnostic")
	}
	if found.Severity != model.Warning || found.Span.Off != 0x40 {
		t.Errorf("checksum diagnostic %v", found)
	}
	computed := crc16(data[0x42:])
	if !strings.Contains(found.Expected, strings.TrimPrefix(hex4(computed), "0x")) || !strings.Contains(found.Found, strings.TrimPrefix(hex4(good), "0x")) {
		t.Errorf("diagnostic %q does not give both values %s and %s", found, hex4(computed), hex4(good))
	}
	// decoding went on
	if r.Title != "Mute City: Sonic Oval" || r.Timeline.Count != 3314 || r.Partial {
		t.Errorf("decoding stopped at the checksum: title %q count %d", r.Title, r.Timeline.Count)
	}
}

func hex4(v uint16) string { return fmt.Sprintf("%#04x", v) }

// TestSampleIsTheCorpusReplay holds testdata/samples/fzgx/time-attack.gci
// to what it is: the corpus's test_00 with the GCI header realReplay
// builds. FZGX_WRITE_SAMPLE=1 rewrites it after a deliberate change.
func TestSampleIsTheCorpusReplay(t *testing.T) {
	data := realReplay(t)
	p := filepath.Join(corpus.Samples(t, "fzgx"), "time-attack.gci")
	if os.Getenv("FZGX_WRITE_SAMPLE") == "1" {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("%s differs from the corpus replay with its header (FZGX_WRITE_SAMPLE=1 rewrites it)", p)
	}
}

// TestEmblemSampleRefused runs without the shared corpus: the emblem save
// kept in this package's testdata is refused with a sentence naming it.
func TestEmblemSampleRefused(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "emblem-falcon.gci"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(data, model.DecodeOptions{})
	if r != nil || err == nil || !strings.Contains(err.Error(), "emblem save") {
		t.Fatalf("Decode = %v, %v; want refusal naming an emblem save", r, err)
	}
}
