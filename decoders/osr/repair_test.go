package osr

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

func sampleBytes(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Samples(t, "osr"), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRepairWhole(t *testing.T) {
	rep, err := Repair(sampleBytes(t, "standard-2018-life-bar.osr"), model.RepairOptions{})
	if err != nil || rep.Whole == "" || rep.Data != nil || rep.Frames != 4130 {
		t.Fatalf("%+v %v", rep, err)
	}
}

// TestRepairCuts cuts samples inside their frames, as a copy that
// stopped: each repair decodes clean, holds exactly the input frames the
// cut file decoded (every value the same), keeps the header byte for byte,
// and for lazer writes a score info again.
func TestRepairCuts(t *testing.T) {
	for _, name := range []string{"standard-2018-life-bar.osr", "standard-lazer-failed.osr", "taiko-lazer-score-info.osr", "mania-2025-life-bar.osr"} {
		full := sampleBytes(t, name)
		_, whole := decodeAll(full)
		m := whole.frames
		for k := 1; k <= 12; k++ {
			cut := m.off + lzmaHeaderLen + (m.n-lzmaHeaderLen)*k/13
			data := full[:cut]
			_, broken := decodeAll(data)
			rep, err := Repair(data, model.RepairOptions{})
			if len(broken.recs.frames) == 0 {
				var re *model.RepairError
				if !errors.As(err, &re) {
					t.Errorf("%s cut at %d: nothing to keep, but %v", name, cut, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s cut at %d: %v", name, cut, err)
			}
			decodetest.Repaired(t, name, rep, Decode)
			_, fixed := decodeAll(rep.Data)
			got, want := fixed.recs.frames, broken.recs.frames
			if len(got) != len(want) || rep.Frames != len(want) {
				t.Fatalf("%s cut at %d: %d frames repaired, %d decoded before (report %d)", name, cut, len(got), len(want), rep.Frames)
			}
			for i := range got {
				a, b := got[i], want[i]
				if a.t != b.t || a.w != b.w || a.x != b.x || a.y != b.y || a.z != b.z {
					t.Fatalf("%s cut at %d: frame %d is %+v, was %+v", name, cut, i, a, b)
				}
			}
			if string(rep.Data[:m.lenOff]) != string(full[:m.lenOff]) {
				t.Errorf("%s cut at %d: the header changed", name, cut)
			}
			if fixed.h.version >= scoreInfoVersion && fixed.info == nil {
				t.Errorf("%s cut at %d: no score info", name, cut)
			}
			if !strings.Contains(decodetest.Steps(rep), "kept: the header") {
				t.Errorf("report:\n%s", decodetest.Steps(rep))
			}
		}
	}
}

// A cut inside the header leaves nothing to repair, and says so.
func TestRepairRefuses(t *testing.T) {
	full := sampleBytes(t, "standard-2018-life-bar.osr")
	for _, n := range []int{1, 5, 40, 100} {
		_, err := Repair(full[:n], model.RepairOptions{})
		var re *model.RepairError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "header") {
			t.Errorf("cut at %d: %v", n, err)
		}
	}
}

// Frames stored as plain text are compressed; trailing bytes go.
func TestRepairPlainAndTrailing(t *testing.T) {
	tf := newTestFile()
	tf.plainFrames = true
	tf.tail = []byte("junk")
	rep, err := Repair(tf.bytes(t), model.RepairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := decodetest.Repaired(t, "plain", rep, Decode)
	_, d := decodeAll(rep.Data)
	if d.frames.plain || r.Timeline.Count != 3 || !d.recs.hasSeed {
		t.Errorf("plain %v, %d frames, seed %v", d.frames.plain, r.Timeline.Count, d.recs.hasSeed)
	}
	if rep.BytesCut != 4 {
		t.Errorf("cut %d bytes, want the 4 trailing:\n%s", rep.BytesCut, decodetest.Steps(rep))
	}
}

func FuzzRepair(f *testing.F) {
	for _, name := range []string{"standard-2018-life-bar.osr", "taiko-lazer-score-info.osr"} {
		data := sampleBytes(f, name)
		f.Add(data[:len(data)/2])
		f.Add(data[:len(data)-20])
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
