package teehistorian

import (
	"bytes"
	"errors"
	"fmt"
	"rewind/decoders/internal/decodetest"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func repairSamples(t testing.TB) map[string][]byte {
	t.Helper()
	return corpus.SampleData(t, "teehistorian", "*.teehistorian")
}

// checkFinished decodes a repair's output: no warning or error, FINISH at
// the end, the ticks the report gives.
func checkFinished(t *testing.T, name string, rep *model.Repaired) *model.Replay {
	t.Helper()
	r := decodetest.Repaired(t, name, rep, Decode)
	if r.Result != resultComplete || rep.Data[len(rep.Data)-1] != finishByte {
		t.Errorf("%s: repaired file does not end with FINISH (%s)", name, r.Result)
	}
	if r.Timeline.Count != rep.Frames {
		t.Errorf("%s: report says %d ticks, the file holds %d", name, rep.Frames, r.Timeline.Count)
	}
	return r
}

// TestRepairCuts cuts the samples all through their message streams (a
// server that died mid-write; one sample at every byte) and repairs each cut: the stream is kept up
// to the last whole message, FINISH follows, and the file decodes clean. A
// cut right after a message keeps that message: every event of the
// original whose bytes lie before the cut is in the repaired file, and no
// other. A cut inside the JSON header cannot be repaired.
func TestRepairCuts(t *testing.T) {
	repaired, refused := 0, 0
	for name, data := range repairSamples(t) {
		orig, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		stream := 16 + bytes.IndexByte(data[16:], 0) + 1
		step := 3 // every byte of one recording, every third of the others
		if name == "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian" {
			step = 1
		}
		for cut := 17; cut < len(data); cut++ {
			if cut < stream && cut%16 != 0 || cut >= stream && (cut-stream)%step != 0 {
				continue // the header's refusal is the same all through
			}
			label := fmt.Sprintf("%s cut at %#x", name, cut)
			rep, err := Repair(data[:cut], model.RepairOptions{})
			if cut < stream {
				var re *model.RepairError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), "JSON header") {
					t.Fatalf("%s: %v, want the header refused", label, err)
				}
				refused++
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			r := checkFinished(t, label, rep)
			if !bytes.Equal(rep.Data[:len(rep.Data)-1], data[:len(rep.Data)-1]) {
				t.Fatalf("%s: the repaired stream is not a prefix of the old one", label)
			}
			// the events wholly before the cut, FINISH aside
			var want []string
			for _, e := range expand(orig) {
				if e.Kind != "end" && e.Off+e.Len <= int64(cut) {
					want = append(want, e.Summary)
				}
			}
			var got []string
			for _, e := range expand(r) {
				if e.Kind != "end" {
					got = append(got, e.Summary)
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%s: kept events\n%s\nwant the ones before the cut\n%s", label, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			repaired++
		}
	}
	t.Logf("%d cuts repaired and clean, %d cuts inside the header refused", repaired, refused)
}

// TestRepairWhole: every sample ends with FINISH and needs no repair.
func TestRepairWhole(t *testing.T) {
	for name, data := range repairSamples(t) {
		rep, err := Repair(data, model.RepairOptions{})
		if err != nil || rep.Whole == "" || rep.Data != nil {
			t.Errorf("%s: %v %+v, want whole", name, err, rep)
		}
	}
}

func TestRepairCases(t *testing.T) {
	data := repairSamples(t)["two_players_chat_kill_spec_rcon_vote_dummy.teehistorian"]
	for _, tt := range []struct {
		name string
		in   []byte
		want []string // in the report; "!" + text: a RepairError saying text
	}{
		{"no FINISH, at a message boundary", data[:len(data)-1], []string{"synthesised: FINISH (0x40) at 0x", "kept: the header (map dm1)"}},
		{"bytes after FINISH", append(append([]byte(nil), data...), 1, 2, 3), []string{"cut: 3 bytes from", "3 bytes follow FINISH", "its FINISH"}},
		{"unknown message id", append(append([]byte(nil), data[:len(data)-1]...), 0x4c, 0x40), []string{"cut: 2 bytes", "unknown message id -13", "synthesised: FINISH"}},
		{"header only", data[:bytes.IndexByte(data[16:], 0)+17], []string{"synthesised: FINISH (0x40)", "ticks 0..0"}},
		{"no teehistorian", []byte("invalid data\n"), []string{"!not a teehistorian file"}},
		{"header cut", data[:30], []string{"!the file ends inside the JSON header"}},
	} {
		rep, err := Repair(tt.in, model.RepairOptions{})
		if strings.HasPrefix(tt.want[0], "!") {
			var re *model.RepairError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want[0][1:]) {
				t.Errorf("%s: %v, want a RepairError saying %q", tt.name, err, tt.want[0][1:])
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		checkFinished(t, tt.name, rep)
		var b strings.Builder
		for _, s := range rep.Steps {
			fmt.Fprintf(&b, "%s: %s\n", s.Action, s.Text)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: the report does not say %q:\n%s", tt.name, w, b.String())
			}
		}
	}
}

// TestRepairBitFlips flips bits in every sample's stream: a flip that
// makes a message impossible is cut off with what follows; whatever is
// written decodes clean.
func TestRepairBitFlips(t *testing.T) {
	counts := map[string]int{}
	for name, data := range repairSamples(t) {
		for off := 16; off < len(data); off += 3 {
			in := append([]byte(nil), data...)
			in[off] ^= 1 << (off % 8)
			label := fmt.Sprintf("%s bit %d at %#x", name, off%8, off)
			rep, err := Repair(in, model.RepairOptions{})
			var re *model.RepairError
			switch {
			case err != nil && errors.As(err, &re):
				why := "could not repair: other"
				for _, w := range []string{"header", "JSON", "teehistorian UUID"} {
					if strings.Contains(re.Msg, w) {
						why = "could not repair: " + w
						break
					}
				}
				if why == "could not repair: other" {
					t.Logf("%s: %v", label, err)
				}
				counts[why]++
			case err != nil:
				t.Errorf("%s: %v is no RepairError", label, err)
			case rep.Whole != "":
				counts["whole"]++
			default:
				counts["repaired"]++
				checkFinished(t, label, rep)
			}
		}
	}
	t.Logf("bit flips: %v", counts)
	if counts["repaired"] == 0 {
		t.Error("no flip was repaired")
	}
}

// FuzzRepair: the repair never panics, and what it writes decodes clean.
func FuzzRepair(f *testing.F) {
	for _, data := range repairSamples(f) {
		f.Add(data[:len(data)*3/4])
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		rep, err := Repair(in, model.RepairOptions{})
		if err != nil || rep.Whole != "" {
			return
		}
		r, err := Decode(rep.Data, model.DecodeOptions{})
		if err != nil || r.Problems() > 0 || r.Result != resultComplete {
			t.Fatalf("repaired file: %v %v %s", err, r.Diagnostics, r.Result)
		}
	})
}
