package bsor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"rewind/decoders/internal/decodetest"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func sampleBytes(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Samples(t, "bsor"), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func repairFact(rep *model.Repaired, key string) int64 {
	for _, f := range rep.Facts {
		if f.Key == key {
			return f.Value.(int64)
		}
	}
	return -1
}

// checkClean decodes a repair's output: no warning or error, and the
// counts the report gives.
func checkClean(t *testing.T, name string, rep *model.Repaired) *model.Replay {
	t.Helper()
	r := decodetest.Repaired(t, name, rep, Decode)
	d := &replay{data: rep.Data}
	d.parse(model.DecodeOptions{})
	got := map[string]int64{"frames": int64(len(d.frames)), "notes": int64(len(d.notes)), "walls": int64(len(d.walls)),
		"heights": int64(len(d.heights)), "pauses": int64(len(d.pauses))}
	for k, v := range got {
		if f := repairFact(rep, k); f != v {
			t.Errorf("%s: report says %d %s, the file holds %d", name, f, k, v)
		}
	}
	if d.lastSection < 5 {
		t.Errorf("%s: sections stop at %d, a reader expects 1 to 5", name, d.lastSection)
	}
	return r
}

// TestRepairCuts cuts each sample at 40 points, as a recording that
// stopped: every cut after the info section is repaired, keeps exactly the
// frame records that lie wholly before the cut, keeps the notes as a byte
// for byte prefix of the original's, and decodes clean. A cut inside the
// info section cannot be repaired and says so.
func TestRepairCuts(t *testing.T) {
	files := corpus.SampleFiles(t, "bsor", "*.bsor")
	repaired, refused := 0, 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		orig := &replay{data: data}
		orig.parse(model.DecodeOptions{})
		framesStart := int(orig.framesSpan.Off) + 5
		for k := 1; k < 40; k++ {
			cut := len(data) * k / 40
			in := data[:cut]
			name := fmt.Sprintf("%s cut at %d/40 (%d bytes)", filepath.Base(f), k, cut)
			rep, err := Repair(in, model.RepairOptions{})
			if cut < framesStart-5 {
				var re *model.RepairError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), "info section is not whole") {
					t.Errorf("%s: %v, want the info section refused", name, err)
				}
				refused++
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			checkClean(t, name, rep)
			wantFrames := min(len(orig.frames), max(cut-framesStart, 0)/frameSize)
			if got := repairFact(rep, "frames"); got != int64(wantFrames) {
				t.Errorf("%s: %d frames kept, %d lie wholly before the cut", name, got, wantFrames)
			}
			d := &replay{data: rep.Data}
			d.parse(model.DecodeOptions{})
			for i, n := range d.notes {
				o := orig.notes[i]
				if n.ID != o.ID || n.EventTime != o.EventTime || n.HasCut != o.HasCut || int(o.Off)+noteHead > cut {
					t.Errorf("%s: note %d is not the original's", name, i)
					break
				}
			}
			if rep.BytesCut > 0 && !strings.Contains(decodetest.Steps(rep), "cut: ") {
				t.Errorf("%s: bytes cut but no cut step", name)
			}
			repaired++
		}
	}
	t.Logf("%d cut samples repaired and clean, %d cuts inside the info section refused", repaired, refused)
}

// TestRepairCorpus: every clean corpus file needs no repair; the one whose
// tail is a lone section 6 id (MANIFEST.tsv) loses that byte and keeps its
// records, as EXPECTED.md counts them.
func TestRepairCorpus(t *testing.T) {
	dir := corpus.Dir(t, "bsor")
	for _, e := range expectations {
		data, err := os.ReadFile(filepath.Join(dir, e.rel))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Repair(data, model.RepairOptions{})
		if err != nil {
			t.Errorf("%s: %v", e.rel, err)
			continue
		}
		if !e.loneSix {
			if rep.Whole == "" || rep.Data != nil {
				t.Errorf("%s: a clean replay was repaired: %s", e.rel, decodetest.Steps(rep))
			}
			continue
		}
		checkClean(t, e.rel, rep)
		if rep.BytesCut != 1 || len(rep.Data) != len(data)-1 || repairFact(rep, "frames") != int64(e.frames) ||
			repairFact(rep, "notes") != e.good+e.bad+e.miss+e.bomb {
			t.Errorf("%s: cut %d bytes, %d frames, %d notes; want the lone byte only, %d frames, %d notes:\n%s",
				e.rel, rep.BytesCut, repairFact(rep, "frames"), repairFact(rep, "notes"), e.frames, e.good+e.bad+e.miss+e.bomb, decodetest.Steps(rep))
		}
	}
}

// TestRepairDamaged: structural damage the decoder steps over or stops at.
func TestRepairDamaged(t *testing.T) {
	data := sampleBytes(t, "walls-heights-pauses-clip.bsor")
	orig := &replay{data: data}
	orig.parse(model.DecodeOptions{})
	set32 := func(b []byte, off int64, v int32) []byte {
		b = append([]byte(nil), b...)
		binary.LittleEndian.PutUint32(b[off:], uint32(v))
		return b
	}
	for _, tt := range []struct {
		name string
		in   []byte
		want []string // in the report
		// counts kept
		frames, notes, walls, heights, pauses int
	}{
		{"trailing bytes", append(append([]byte(nil), data...), 9, 9, 9), []string{"3 bytes that no whole record holds", "trailing bytes"},
			900, len(orig.notes), 6, 8025, 2},
		{"frames count too large", set32(data, orig.framesSpan.Off+1, 1<<20), []string{"frames count 1,048,576 -> 900"},
			900, len(orig.notes), 6, 8025, 2},
		{"walls count too small", set32(data, orig.wallsSpan.Off+1, 2), []string{"walls count 2 -> 6"},
			900, len(orig.notes), 6, 8025, 2},
		{"pauses count negative", set32(data, orig.pausesSpan.Off+1, -1), []string{"pauses count -1 -> 0", "negative record count"},
			900, len(orig.notes), 6, 8025, 0},
		{"version byte", append(append([]byte(nil), data[:4]...), append([]byte{7}, data[5:]...)...), []string{"version byte 7 -> 1"},
			900, len(orig.notes), 6, 8025, 2},
		{"cut in the heights", data[:orig.heightsSpan.Off+5+heightSize*100+3], []string{"heights count 8,025 -> 100", "empty section 5 (pauses)"},
			900, len(orig.notes), 6, 100, 0},
	} {
		rep, err := Repair(tt.in, model.RepairOptions{})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		checkClean(t, tt.name, rep)
		text := decodetest.Steps(rep)
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the report does not say %q:\n%s", tt.name, w, text)
			}
		}
		got := []int64{repairFact(rep, "frames"), repairFact(rep, "notes"), repairFact(rep, "walls"), repairFact(rep, "heights"), repairFact(rep, "pauses")}
		want := []int64{int64(tt.frames), int64(tt.notes), int64(tt.walls), int64(tt.heights), int64(tt.pauses)}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: kept %v, want %v:\n%s", tt.name, got, want, text)
		}
	}
	for _, tt := range []struct {
		name string
		in   []byte
		want string
	}{
		{"no BSOR", []byte("nope"), "not a BSOR replay"},
		{"cut in the info", data[:40], "the info section is not whole"},
		{"no info", data[:5], "the info section is not whole"},
	} {
		_, err := Repair(tt.in, model.RepairOptions{})
		var re *model.RepairError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a RepairError saying %q", tt.name, err, tt.want)
		}
	}
}

// TestRepairBitFlips flips bits all over a sample: whatever is repaired
// decodes clean; what is not says why.
func TestRepairBitFlips(t *testing.T) {
	data := sampleBytes(t, "oldest-0.1.0-clip.bsor")
	counts := map[string]int{}
	for i := 0; i < 300; i++ {
		off := (i*104729 + 7) % len(data)
		in := append([]byte(nil), data...)
		in[off] ^= 1 << (i % 8)
		name := fmt.Sprintf("bit %d at %#x", i%8, off)
		rep, err := Repair(in, model.RepairOptions{})
		var re *model.RepairError
		switch {
		case err != nil && errors.As(err, &re):
			counts["could not repair"]++
		case err != nil:
			t.Errorf("%s: %v is no RepairError", name, err)
		case rep.Whole != "":
			counts["whole"]++
		default:
			counts["repaired"]++
			checkClean(t, name, rep)
		}
	}
	t.Logf("bit flips: %v", counts)
}

// FuzzRepair: the repair never panics, and what it writes decodes clean.
func FuzzRepair(f *testing.F) {
	for _, name := range []string{"easy-full-play.bsor", "oldest-0.1.0-clip.bsor"} {
		data := sampleBytes(f, name)
		f.Add(data[:1500])
		f.Add(data[:3000])
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		rep, err := Repair(in, model.RepairOptions{})
		if err != nil || rep.Whole != "" {
			return
		}
		r, err := Decode(rep.Data, model.DecodeOptions{})
		if err != nil || r.Problems() > 0 {
			t.Fatalf("repaired file: %v %v", err, r.Diagnostics)
		}
	})
}
