package slippi

// The decode budget on Slippi's own rows of issue 11: every case is built
// here, decoded with the default budget (the promise: 64 MiB + 32× the
// file) and with a budget scaled down so that it runs in milliseconds.

import (
	"bytes"
	"encoding/binary"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

// nullContainers is a UBJSON array of n typed containers of each nulls:
// nine bytes of file per container, each a claim of `each` values.
func nullContainers(n, each int) []byte {
	b := []byte("[#l")
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	for i := 0; i < n; i++ {
		b = append(b, "[$Z#l"...)
		b = binary.BigEndian.AppendUint32(b, uint32(each))
	}
	return b
}

// withKey puts key: value into the top-level object of a replay, after
// the raw element and the metadata.
func withKey(file []byte, key string, value []byte) []byte {
	out := append([]byte(nil), file[:len(file)-1]...) // without the closing '}'
	out = append(out, 'U', byte(len(key)))
	out = append(out, key...)
	out = append(out, value...)
	return append(out, '}')
}

// withMeta is the replay with meta as its metadata.
func withMeta(s *slp, meta []byte) []byte {
	saved := s.meta
	s.meta = meta
	defer func() { s.meta = saved }()
	return s.bytes()
}

func decodeBudget(t *testing.T, data []byte, lim model.Limits) (*model.Replay, uint64) {
	t.Helper()
	r, alloc := decodetest.Budgeted(t, Decode, data, lim)
	exercise(t, r)
	return r, alloc
}

func TestBudgetNullContainers(t *testing.T) {
	game := basic(newSlp(3, 18, 0), 3).end(2)
	game.meta = []byte("{U\x07startAtSU\x142018-06-22T07:52:59Z}")
	good := game.bytes()
	tests := []struct {
		name string
		data []byte
		lim  model.Limits
	}{
		// issue 11: 8 KB ran out of memory, 800 bytes took 3.5 GB and
		// came back clean
		{"extra key, 1000 containers of 65536 nulls", withKey(good, "x", nullContainers(1000, 65536)), model.Limits{}},
		{"extra key, 88 containers of 65536 nulls", withKey(good, "x", nullContainers(88, 65536)), model.Limits{}},
		{"extra key, scaled budget", withKey(good, "x", nullContainers(100, 4096)), model.Limits{Bytes: 1 << 20}},
		{"metadata member, scaled budget", withMeta(game, append(append([]byte("{U\x05nulls"), nullContainers(100, 4096)...), '}')), model.Limits{Bytes: 1 << 20}},
		{"one container of 2^31 nulls", withKey(good, "x", []byte("[$Z#l\x7f\xff\xff\xff")), model.Limits{}},
		{"nested typed containers", withKey(good, "x", append([]byte("[$[#l\x00\x00\x03\xe8"), bytes.Repeat([]byte("$Z#l\x00\x01\x00\x00"), 1000)...)), model.Limits{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, alloc := decodeBudget(t, tt.data, tt.lim)
			decodetest.Refused(t, r, "UBJSON ")
			bound := budget.Promise(int64(len(tt.data)))
			if tt.lim.Bytes > 0 {
				// the scaled budget, plus what a small replay costs
				bound = tt.lim.Bytes + 32*int64(len(tt.data)) + 1<<20
			}
			t.Logf("%d-byte file: allocated %d bytes (bound %d)", len(tt.data), alloc, bound)
			if alloc > uint64(bound) {
				t.Errorf("allocated %d bytes for a %d-byte file; the bound is %d", alloc, len(tt.data), bound)
			}
			// what came before the key is kept
			if len(r.Players) != 2 || r.Timeline.Count != 3 || r.Start.IsZero() && tt.name != "metadata member, scaled budget" {
				t.Errorf("partial replay lost what came before: %d players, %d frames, start %v", len(r.Players), r.Timeline.Count, r.Start)
			}
		})
	}
}

func TestBudgetRealMetadataFits(t *testing.T) {
	// the same key with a few nulls is no problem at all
	good := basic(newSlp(3, 18, 0), 3).end(2).bytes()
	r, _ := decodeBudget(t, withKey(good, "x", nullContainers(3, 10)), model.Limits{})
	if r.Problems() != 0 {
		t.Errorf("small extra key reported: %v", r.Diagnostics)
	}
	f, ok := model.Find(r.Header, "x")
	if !ok || len(f.Fields) != 3 || len(f.Fields[2].Fields) != 10 {
		t.Errorf("extra key not kept whole: %+v", f)
	}
}

func TestBudgetEventsAndFrames(t *testing.T) {
	// 1-byte events (a code listed with payload size 0) cost an Event
	// record each and its extras: 48 bytes per byte of file
	s := basic(newSlp(3, 18, 0), 3)
	s.size(0x50, 0)
	for i := 0; i < 40000; i++ {
		s.add([]byte{0x50})
	}
	data := s.end(2).bytes()
	r, alloc := decodeBudget(t, data, model.Limits{Bytes: 1 << 20})
	d := decodetest.Refused(t, r, "events")
	if d.Span.Off <= int64(len(magic)) {
		t.Errorf("budget diagnostic at %v, want the event stream", d.Span)
	}
	if len(r.Players) != 2 || r.Title == "" {
		t.Errorf("header and players not kept: %d players, title %q", len(r.Players), r.Title)
	}
	if alloc > 2<<20 {
		t.Errorf("allocated %d bytes under a budget of 1 MiB", alloc)
	}
	// with the default budget the same file decodes clean
	r, _ = decodeBudget(t, data, model.Limits{})
	if r.Partial || len(r.Events) < 20000 {
		t.Errorf("default budget: partial %v, %d events", r.Partial, len(r.Events))
	}
}
