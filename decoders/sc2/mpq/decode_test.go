package mpq_test

import (
	"strings"
	"testing"

	"rewind/decoders/sc2"
	"rewind/decoders/sc2/mpq"
	"rewind/model"
)

// TestCraftedArchivesDecode runs the SC2 decoder on issue 11's crafted
// archives: each gives a partial replay with an error diagnostic that
// names the member or count that hit the decode budget and by how much,
// never a clean report, within the memory the budget allows.
func TestCraftedArchivesDecode(t *testing.T) {
	for _, c := range mpq.CraftedArchives() {
		t.Run(c.Name, func(t *testing.T) {
			var r *model.Replay
			var err error
			used := mpq.Allocated(func() { r, err = sc2.Decode(c.Data, model.DecodeOptions{Limits: c.Limits}) })
			if err != nil || r == nil {
				t.Fatalf("Decode: %v", err)
			}
			if !r.Partial {
				t.Error("not partial")
			}
			found := false
			for _, d := range r.Diagnostics {
				text := strings.Join([]string{d.Subject, d.Message, d.Expected, d.Found}, " ")
				if d.Severity == model.Error && strings.Contains(text, c.What) && strings.Contains(text, c.Amount) {
					found = true
				}
			}
			if !found {
				for _, d := range r.Diagnostics {
					t.Logf("%v %s: %s (expected %s, found %s)", d.Severity, d.Subject, d.Message, d.Expected, d.Found)
				}
				t.Errorf("no error diagnostic names %q and %q", c.What, c.Amount)
			}
			bound := 64<<20 + 32*int64(len(c.Data))
			if c.Limits.Bytes > 0 {
				// outputs that grow by doubling (see crafted_test.go) and
				// the decoder's own fixed costs
				bound = 2*c.Limits.Bytes + 4<<20
			}
			if used > bound {
				t.Errorf("allocated %d bytes for a %d-byte file, bound %d", used, len(c.Data), bound)
			}
			t.Logf("%d-byte file: %d bytes allocated", len(c.Data), used)
		})
	}
}
