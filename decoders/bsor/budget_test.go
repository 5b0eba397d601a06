package bsor

// The decode budget on BSOR: records of 8 to 16 bytes become an event (and
// its frame-ordered copy) of 144 bytes each, so a file of small records
// costs more than 32 times its size unless the budget stops it. Each case
// is built here and decoded with a budget scaled down to match.

import (
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

func decodeBudget(t *testing.T, data []byte, lim model.Limits) (*model.Replay, uint64) {
	t.Helper()
	r, alloc := decodetest.Budgeted(t, Decode, data, lim)
	exercise(r)
	return r, alloc
}

func TestBudgetSmallRecords(t *testing.T) {
	const n = 20000
	heights := sampleFile()
	heights.heights = make([]height, n)
	misses := sampleFile()
	misses.notes = make([]note, n)
	for i := range misses.notes {
		misses.notes[i] = note{EventType: 2, EventTime: float32(i)}
	}
	pauses := sampleFile()
	pauses.pauses = make([]pause, n)
	user := sampleFile()
	user.user = make([]userEntry, n)
	tests := []struct {
		name, what string
		file       *testFile
	}{
		{"height changes", "height changes", heights},
		{"missed notes", "note events", misses},
		{"pauses", "pauses", pauses},
		{"user data entries", "user data entries", user},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.file.bytes()
			lim := model.Limits{Bytes: 1 << 20}
			r, alloc := decodeBudget(t, data, lim)
			decodetest.Refused(t, r, tt.what)
			bound := lim.Bytes + 32*int64(len(data)) + 1<<20
			t.Logf("%d-byte file: allocated %d bytes (bound %d)", len(data), alloc, bound)
			if alloc > uint64(bound) {
				t.Errorf("allocated %d bytes for a %d-byte file; the bound is %d", alloc, len(data), bound)
			}
			if r.Title == "" || len(r.Players) != 1 {
				t.Errorf("header and player not kept: title %q, %d players", r.Title, len(r.Players))
			}
			if r.Result == "in progress" {
				t.Error("a decode the budget stopped is shown as a recording in progress")
			}
			// the default budget pays for all of it
			r, alloc = decodeBudget(t, data, model.Limits{})
			if r.Partial || len(r.Events)+len(userFields(r)) < n {
				t.Errorf("default budget: partial %v, %d events: %v", r.Partial, len(r.Events), r.Diagnostics)
			}
			if alloc > uint64(budget.Promise(int64(len(data)))) {
				t.Errorf("default budget: allocated %d bytes for %d", alloc, len(data))
			}
		})
	}
}

// The search for a section after damage pays its probes from the budget.
func TestBudgetSectionSearch(t *testing.T) {
	f := sampleFile()
	f.notes = make([]note, 5000)
	data := f.bytes()
	// damage the walls section's id so the reader searches for it
	p := len(data) - 1
	for ; p > 0 && data[p] != 3; p-- {
	}
	data[p] = 0xee
	r, _ := decodeBudget(t, data, model.Limits{Steps: 100})
	decodetest.Refused(t, r, "section search")
}

// userFields are the entries of the header's user data group.
func userFields(r *model.Replay) []model.Field {
	u, _ := model.Find(r.Header, "userData")
	var out []model.Field
	for _, f := range u.Fields {
		if f.Key == "entry" {
			out = append(out, f)
		}
	}
	return out
}

// Empty user data entries are 8 bytes of file each and a record, a header
// field and two fields under it each in memory: a 1 MB file of them (the
// hostile file that went 1-4% over the promise at its peak when only the
// record was paid for) stays well under it, and more of them are refused.
func TestBudgetUserEntries(t *testing.T) {
	for _, n := range []int{125_000, 500_000} {
		f := sampleFile()
		f.user = make([]userEntry, n)
		data := f.bytes()
		r, alloc := decodeBudget(t, data, model.Limits{})
		promise := uint64(budget.Promise(int64(len(data))))
		t.Logf("%d entries, %d-byte file: allocated %d bytes, %.0f%% of the promise", n, len(data), alloc, 100*float64(alloc)/float64(promise))
		if alloc > promise*3/4 {
			t.Errorf("allocated %d bytes for a %d-byte file: more than three quarters of the promise %d", alloc, len(data), promise)
		}
		switch got := len(userFields(r)); {
		case n == 125_000 && (got != n || r.Partial):
			t.Errorf("%d of %d entries, partial %v: %v", got, n, r.Partial, r.Diagnostics)
		case n == 500_000:
			decodetest.Refused(t, r, "user data entries")
		}
	}
}
