package sc2

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"rewind/decoders/sc2/mpq"
	"rewind/decoders/sc2/names"
	"rewind/decoders/sc2/protocol"
	"rewind/model"
)

// craft builds a replay of base build 88500 whose header claims loops
// game loops, with the given details and tracker streams, all compressed
// (the crafted inputs of issue 11 are small files that expand).
func craft(loops int64, details, tracker []byte) []byte {
	header := vStruct(
		kv{0, vBlob("StarCraft II replay\x1b11")},
		kv{1, vStruct(kv{0, vInt(1)}, kv{1, vInt(5)}, kv{2, vInt(0)}, kv{3, vInt(10)}, kv{4, vInt(88500)}, kv{5, vInt(88500)})},
		kv{2, vInt(2)}, kv{3, vInt(loops)}, kv{4, vInt(1)},
	)
	members := []mpq.Member{{Name: fDetails, Data: details}}
	if tracker != nil {
		members = append(members, mpq.Member{Name: fTracker, Data: tracker})
	}
	return mpq.Write(header, 3, members)
}

// detailsOf is a replay.details with the players given.
func detailsOf(players ...[]byte) []byte {
	return vStruct(kv{0, vOpt(vArr(players...))}, kv{1, vBlob("Budget Map")})
}

// measure decodes and returns the replay and the bytes allocated.
func measure(t *testing.T, data []byte, lim model.Limits) (*model.Replay, uint64) {
	t.Helper()
	names.Err() // the id and protocol tables are parsed once per process, not per decode
	protocol.Err()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := Decode(data, model.DecodeOptions{Limits: lim})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return r, after.TotalAlloc - before.TotalAlloc
}

// budgetDiag is the decode-budget diagnostic, which must name the claim.
func budgetDiag(t *testing.T, r *model.Replay, what string) model.Diagnostic {
	t.Helper()
	for _, d := range r.Diagnostics {
		if strings.Contains(d.Message, "decode budget exhausted") {
			if !strings.Contains(d.Subject, what) || d.Severity != model.Error || !strings.HasPrefix(d.Found, "a claim of ") {
				t.Errorf("budget diagnostic %+v, want one about %q", d, what)
			}
			if !r.Partial || r.Problems() == 0 {
				t.Error("a decode that ran out of budget is reported clean")
			}
			return d
		}
	}
	t.Fatalf("no budget diagnostic about %q: %v", what, r.Diagnostics)
	return model.Diagnostic{}
}

// Issue 11: replay.details with a million empty player structs (2.9 KB
// file, 2 GB). Here 200,000 in a file of a few KB and a budget of 4 MiB:
// the count is refused before anything is allocated for it.
func TestBudgetDetailsPlayers(t *testing.T) {
	empty := vStruct()
	ps := make([][]byte, 200_000)
	for i := range ps {
		ps[i] = empty
	}
	data := craft(100, detailsOf(ps...), nil)
	lim := model.Limits{Bytes: 4 << 20}
	r, alloc := measure(t, data, lim)
	d := budgetDiag(t, r, "replay.details")
	if d.Span.Stream != fDetails {
		t.Errorf("budget diagnostic at %+v, want in replay.details", d.Span)
	}
	if len(r.Players) != 0 {
		t.Errorf("%d players kept", len(r.Players))
	}
	// the decompressed stream (400 KB) and the budget, with room for the
	// archive and the model
	if bound := uint64(lim.Bytes) + 8<<20; alloc > bound {
		t.Errorf("allocated %d bytes for a %d-byte file, want at most %d", alloc, len(data), bound)
	}
	t.Logf("%d-byte file: %d bytes allocated", len(data), alloc)
}

// Issue 11: a header claiming 2^40 game loops and 100,000 players with an
// empty tracker (1.2 KB, 4.5 GB: an index per player per 16 loops). The
// loop count is held to what the file can justify, with an error; the
// players are refused by the budget.
func TestBudgetLoopsAndPlayers(t *testing.T) {
	p := vStruct(kv{0, vBlob("P")}, kv{2, vBlob("Zerg")})
	ps := make([][]byte, 100_000)
	for i := range ps {
		ps[i] = p
	}
	data := craft(1<<40, detailsOf(ps...), trackerStream(nil))
	// room for the timeline the file's size justifies (8 bytes a frame)
	lim := model.Limits{Bytes: 8*int64(100000+64*len(data)) + 4<<20}
	r, alloc := measure(t, data, lim)
	found := false
	for _, d := range r.Diagnostics {
		if d.Subject == "replay header" && strings.Contains(d.Message, "implausibly large") && d.Severity == model.Error {
			found = true
		}
	}
	if !found {
		t.Errorf("no diagnostic about the header's loops: %v", r.Diagnostics)
	}
	if r.Timeline.Count > 100000+64*len(data)+1 {
		t.Errorf("timeline of %d frames for a %d-byte file", r.Timeline.Count, len(data))
	}
	budgetDiag(t, r, "replay.details")
	// the budget, and the archive layer's own buffers (a zlib reader for
	// each of the details stream's 4 KB sectors, 20 MB here)
	if bound := uint64(lim.Bytes) + 24<<20; alloc > bound {
		t.Errorf("allocated %d bytes for a %d-byte file, want at most %d", alloc, len(data), bound)
	}
	t.Logf("%d-byte file: %d bytes allocated, %d frames", len(data), alloc, r.Timeline.Count)
}

// Issue 11: 10,000 distinct unit type names for each of 16 players in the
// tracker (100 KB, out of memory: unit counts by player and type every 256
// loops). Here 2,000 names over 100,000 loops with a 16 MiB budget: the
// count index is refused, the events and the per-loop stats stay.
func TestBudgetUnitTypes(t *testing.T) {
	var players [][]byte
	for i := 0; i < 16; i++ {
		players = append(players, player(fmt.Sprintf("P%d", i), "Zerg", int64(i), 0, int64(i+1)))
	}
	var evs []tev
	for i := 0; i < 2000; i++ {
		evs = append(evs, tev{0, tUnitBorn, vStruct(kv{0, vInt(int64(i))}, kv{1, vInt(1)}, kv{2, vBlob(fmt.Sprintf("Type%05d", i))},
			kv{3, vInt(int64(i%16 + 1))}, kv{4, vInt(int64(i%16 + 1))}, kv{5, vInt(10)}, kv{6, vInt(10)})})
	}
	evs = append(evs, tev{50, tPlayerStats, vStruct(kv{0, vInt(1)}, kv{1, vStruct(kv{0, vInt(75)})})})
	data := craft(100_000, detailsOf(players...), trackerStream(evs))
	lim := model.Limits{Bytes: 16 << 20}
	r, alloc := measure(t, data, lim)
	d := budgetDiag(t, r, "replay.tracker.events: unit counts")
	if d.Span.Stream != fTracker {
		t.Errorf("budget diagnostic at %+v, want in the tracker", d.Span)
	}
	born := 0
	for i := range r.Events {
		if r.EventKind(i) == "born" {
			born++
		}
	}
	if born != 2000 {
		t.Errorf("%d born events kept, want 2000", born)
	}
	if m, _ := model.Find(r.PlayerState(60, 0).Brief, "minerals"); m.Value != int64(75) {
		t.Errorf("player state without the unit counts: minerals %v", m.Value)
	}
	if bound := uint64(lim.Bytes) + 16<<20; alloc > bound {
		t.Errorf("allocated %d bytes for a %d-byte file, want at most %d", alloc, len(data), bound)
	}
	t.Logf("%d-byte file: %d bytes allocated", len(data), alloc)
}

// The default budget decodes every real sample as before: none of them
// comes near it.
func TestBudgetLeavesSamplesAlone(t *testing.T) {
	for _, p := range samples(t) {
		r := decodeFile(t, p)
		for _, d := range r.Diagnostics {
			if strings.Contains(d.Message, "decode budget") {
				t.Errorf("%s: %v", p, d)
			}
		}
	}
}
