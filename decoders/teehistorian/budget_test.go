package teehistorian

// The decode budget on teehistorian's rows of issue 11 (4M JOIN messages or
// a 4M-element header array in 8 MB took 1.9 GB): each case is built here
// at a small scale and decoded with a budget scaled down to match, so it
// runs in milliseconds, and once with the default budget.

import (
	"bytes"
	"strings"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

func decodeBudget(t *testing.T, data []byte, lim model.Limits) (*model.Replay, uint64) {
	t.Helper()
	r, alloc := decodetest.Budgeted(t, Decode, data, lim)
	checkReplay(t, r)
	return r, alloc
}

// joins is a stream of n JOIN messages for client 3 (two bytes each).
func joins(n int) []byte {
	return append(bytes.Repeat(msg(idJoin, 3), n), msg(idFinish)...)
}

// headerArray is a header whose "x" key holds n zeros (two bytes each).
func headerArray(n int) string {
	return strings.TrimSuffix(testHeader, "}") + `,"x":[` + strings.TrimSuffix(strings.Repeat("0,", n), ",") + `]}`
}

func TestBudgetRows(t *testing.T) {
	const scaled = 1 << 20 // a 1 MiB budget
	tests := []struct {
		name, what string
		data       []byte
		lim        model.Limits
	}{
		{"JOIN messages, scaled", "events", file(testHeader, joins(40000)), model.Limits{Bytes: scaled}},
		{"header array, scaled", "header fields", file(headerArray(40000), msg(idFinish)), model.Limits{Bytes: scaled}},
		{"TICK_SKIP timeline, scaled", "timeline ticks",
			file(testHeader, msg(idJoin, 1, idTickSkip, 1<<31-1, idJoin, 2, idFinish)), model.Limits{Bytes: scaled}},
		{"JOIN messages, default budget", "events", file(testHeader, joins(1<<20)), model.Limits{}},
		{"header array, default budget", "header fields", file(headerArray(1<<20), msg(idFinish)), model.Limits{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, alloc := decodeBudget(t, tt.data, tt.lim)
			decodetest.Refused(t, r, tt.what)
			bound := budget.Promise(int64(len(tt.data)))
			if tt.lim.Bytes > 0 {
				bound = tt.lim.Bytes + 32*int64(len(tt.data)) + 1<<20
			}
			t.Logf("%d-byte file: allocated %d bytes (bound %d), %d events, %d ticks", len(tt.data), alloc, bound, len(r.Events), r.Timeline.Count)
			if alloc > uint64(bound) {
				t.Errorf("allocated %d bytes for a %d-byte file; the bound is %d", alloc, len(tt.data), bound)
			}
		})
	}
}

// What was decoded before the budget ran out stays: the header, the
// events before, and the players' state.
func TestBudgetKeepsWhatCameBefore(t *testing.T) {
	body := msg(idPlayerNew, 0, 10, 20, idInputNew, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0)
	body = append(body, joins(40000)...)
	r, _ := decodeBudget(t, file(testHeader, body), model.Limits{Bytes: 1 << 20})
	decodetest.Refused(t, r, "events")
	if r.Title != "Kobra 3 Solo" || len(r.Events) < 100 || r.Events[0].Kind != "spawn" {
		t.Fatalf("title %q, %d events", r.Title, len(r.Events))
	}
	if st := r.PlayerState(r.Timeline.Count-1, 0); !st.Present {
		t.Errorf("no state for the player seen before the refusal: %+v", st)
	}
	// and the same file decodes whole under the default budget
	r, _ = decodeBudget(t, file(testHeader, body), model.Limits{})
	if r.Partial || len(r.Events) != 40003 {
		t.Errorf("default budget: partial %v, %d events", r.Partial, len(r.Events))
	}
}
