package teehistorian

// The decode budget on teehistorian's rows of issue 11 (4M JOIN messages or
// a 4M-element header array in 8 MB took 1.9 GB): each case is built here
// at a small scale and decoded with a budget scaled down to match, so it
// runs in milliseconds, and once with the default budget.

import (
	"bytes"
	"fmt"
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
	if r.Title != "Kobra 3 Solo" || len(r.Events) < 100 || r.EventKind(0) != "spawn" {
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

// sayCommands is a stream of CONSOLE_COMMAND "say" from the server console,
// each with args empty arguments (a NUL byte each), up to about size bytes.
func sayCommands(size, args int) []byte {
	one := append(msg(idConsoleCommand, -1, 0, "say", args), make([]byte, args)...)
	return append(bytes.Repeat(one, max(1, size/len(one))), msg(idFinish)...)
}

// Console commands of many empty arguments, one byte of file each: the
// hostile 4 MB file that went 1-4% over the promise at its peak, when every
// argument became a string, a label and a word of the summary. Arguments
// past the shown ones are read without copying, the shown ones are written
// into the summary without a string each, so these stay far under; many
// short commands are stopped by the budget for their events.
func TestBudgetConsoleArguments(t *testing.T) {
	const size = 4 << 20
	tests := []struct {
		name string
		args int
	}{
		{"one command", size - 16},
		{"commands of 1000 arguments", 1000},
		{"commands of 64 arguments", shownArgs},
		{"commands of 16 arguments", 16},
		{"commands of 2 arguments", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := file(testHeader, sayCommands(size, tt.args))
			r, alloc := decodeBudget(t, data, model.Limits{})
			promise := uint64(budget.Promise(int64(len(data))))
			t.Logf("%d-byte file: allocated %d bytes, %.0f%% of the promise; %d events", len(data), alloc, 100*float64(alloc)/float64(promise), len(r.Events))
			if alloc > promise*3/4 {
				t.Errorf("allocated %d bytes: more than three quarters of the promise %d", alloc, promise)
			}
			if r.Partial {
				// small records: the events' own cost stops them
				decodetest.Refused(t, r, "events")
			}
			if len(r.Events) < 2 {
				t.Fatalf("%d events: %v", len(r.Events), r.Diagnostics)
			}
			ev := &r.Events[0]
			more := tt.args - shownArgs
			want := "server runs say" + strings.Repeat(` ""`, min(tt.args, shownArgs))
			if more > 0 {
				want += fmt.Sprintf(" and %d more arguments", more)
			}
			if got := r.EventSummary(0); got != want {
				t.Errorf("summary %.200q, want %.200q", got, want)
			}
			fs := r.EventFields(0)
			var shown int
			for _, f := range fs {
				if f.Key == "arg" {
					shown++
				}
			}
			rest, ok := model.Find(fs, "moreArgs")
			if shown != min(tt.args, shownArgs) || ok != (more > 0) {
				t.Errorf("%d argument fields and a moreArgs field %v; want %d and %v", shown, ok, min(tt.args, shownArgs), more > 0)
			}
			if ok && (rest.Value != int64(more) || rest.Span.Len != int64(more) || rest.Span.End() != ev.End()) {
				t.Errorf("moreArgs %v over %v, want %d over the last %d bytes of %v", rest.Value, rest.Span, more, more, model.Span{Off: ev.Off, Len: ev.Len})
			}
		})
	}
}
