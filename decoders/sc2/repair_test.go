package sc2

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/decodetest"
	"rewind/decoders/sc2/mpq"
	"rewind/model"
)

// damageSector flips bytes in the middle of one stored sector, as a bad
// disk block or a cut download would, and returns the damaged copy.
func damageSector(data []byte, p mpq.Part) []byte {
	out := append([]byte(nil), data...)
	mid := p.Off + p.Len/2
	for i := mid; i < mid+8 && i < p.Off+p.Len; i++ {
		out[i] ^= 0xA5
	}
	return out
}

// compressedSectors are the parts of a sample that a repair can be tried
// on: sectors whose compression makes damage show (a stored sector's
// damage reads as other bytes, which no rebuild can see).
func compressedSectors(t *testing.T, data []byte) []mpq.Part {
	t.Helper()
	d, err := decode(data, model.DecodeOptions{})
	if err != nil || d.arc == nil {
		return nil
	}
	parts, err := d.arc.Layout(d.memberNames())
	if err != nil {
		t.Fatal(err)
	}
	var out []mpq.Part
	for _, p := range parts {
		if p.Kind == mpq.PartSector && p.Len > 16 && p.Len < p.Size {
			out = append(out, p)
		}
	}
	return out
}

// TestRepairDamagedSectors damages each compressed sector of each sample
// in turn. The repair either rebuilds an archive that reads clean and
// holds every event the damaged file still gave, or refuses for one of
// the reasons it names; it never hands back a file with a problem.
func TestRepairDamagedSectors(t *testing.T) {
	for _, p := range samples(t) {
		name := filepath.Base(p)
		data, _ := os.ReadFile(p)
		parts := compressedSectors(t, data)
		if len(parts) == 0 {
			continue // the truncated sample: TestRepairRefusals
		}
		repaired, refused := 0, map[string]int{}
		for _, part := range parts {
			what := fmt.Sprintf("%s: %s sector %d at %#x", name, part.Name, part.Sector, part.Off)
			bad := damageSector(data, part)
			damaged, err := Decode(bad, model.DecodeOptions{})
			if err != nil {
				t.Fatalf("%s: damaged file does not open: %v", what, err)
			}
			if damaged.Problems() == 0 {
				t.Errorf("%s: damage not seen", what)
				continue
			}
			rep, err := Repair(bad, model.RepairOptions{})
			if err != nil {
				var re *model.RepairError
				if !errors.As(err, &re) {
					t.Fatalf("%s: %T %v", what, err, err)
				}
				refused[refusal(re.Msg)]++
				t.Logf("%s: %v", what, err)
				if refusal(re.Msg) == "" {
					t.Errorf("%s: refused for an unexpected reason: %v", what, err)
				}
				continue
			}
			repaired++
			r := decodetest.Repaired(t, what, rep, Decode)
			sameEvents(t, what, damaged, r, part.Name)
			if rep.Frames != r.Timeline.Count || rep.FramesIn != damaged.Timeline.Count {
				t.Errorf("%s: report says %d of %d frames, files have %d of %d", what, rep.Frames, rep.FramesIn, r.Timeline.Count, damaged.Timeline.Count)
			}
			if !strings.Contains(decodetest.Steps(rep), part.Name) {
				t.Errorf("%s: the report does not name the damaged member:\n%s", what, decodetest.Steps(rep))
			}
		}
		t.Logf("%s: %d damaged sectors: %d repaired, refused %v", name, len(parts), repaired, refused)
		if repaired == 0 {
			t.Errorf("%s: no damaged sector was repaired", name)
		}
	}
}

// refusal sorts a repair's refusal into the reasons Repair gives; "" for
// none of them.
func refusal(msg string) string {
	for _, r := range []string{"without it there is no player list", "the replay header", "the archive's tables are lost", "every member of the archive reads whole"} {
		if strings.Contains(msg, r) {
			return r
		}
	}
	return ""
}

// sameEvents checks that the repaired replay has every event the damaged
// one decoded, in every stream: a rebuild loses nothing that still read.
func sameEvents(t *testing.T, what string, damaged, repaired *model.Replay, member string) {
	t.Helper()
	type key struct {
		frame         int
		kind, summary string
		span          model.Span
	}
	have := map[key]int{}
	for i := range repaired.Events {
		have[key{int(repaired.Events[i].Frame), repaired.EventKind(i), repaired.EventSummary(i), repaired.EventSpan(i)}]++
	}
	lost := 0
	for i := range damaged.Events {
		k := key{int(damaged.Events[i].Frame), damaged.EventKind(i), damaged.EventSummary(i), damaged.EventSpan(i)}
		if have[k] == 0 && !damaged.EventPartial(i) {
			if lost == 0 {
				t.Errorf("%s: the repair lost event %s %q at %s (damaged %s)", what, k.kind, k.summary, k.span, member)
			}
			lost++
		}
		have[k]--
	}
	if lost > 1 {
		t.Errorf("%s: %d events lost in all", what, lost)
	}
}

// TestRepairWholeAndRefused: a whole replay needs no repair; a file whose
// tables are cut off, or whose streams are whole but say something wrong,
// is refused with the reason.
func TestRepairWholeAndRefused(t *testing.T) {
	dir := filepath.Dir(samples(t)[0])
	for _, tt := range []struct {
		file, want string
	}{
		{"lotv-5.0.15-winter-madness.SC2Replay", ""},
		{"wol-1.0.1-metalopolis.SC2Replay", ""},
		{"broken-5.0.10-truncated.SC2Replay", "the archive's tables are lost"},
	} {
		data, err := os.ReadFile(filepath.Join(dir, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Repair(data, model.RepairOptions{})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.file, err)
		case tt.want == "" && (rep.Whole == "" || rep.Data != nil):
			t.Errorf("%s: a whole replay was rebuilt:\n%s", tt.file, decodetest.Steps(rep))
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want a refusal saying %q", tt.file, err, tt.want)
		}
	}
}

// FuzzRepair repairs arbitrary bytes: it never panics, and what it writes
// always decodes without a problem.
func FuzzRepair(f *testing.F) {
	f.Add(synthReplay(synthTracker()))
	for _, p := range samples(f) {
		data, _ := os.ReadFile(p)
		if len(data) <= 4096 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Repair(data, model.RepairOptions{})
		if err != nil || rep.Data == nil {
			return
		}
		decodetest.Repaired(t, "repair", rep, Decode)
	})
}
