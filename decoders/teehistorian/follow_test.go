package teehistorian

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

func seedOf(data []byte) int64 {
	h := fnv.New64a()
	h.Write(data)
	return int64(h.Sum64() >> 1)
}

// streamStart is where the messages start: after the header's NUL (the
// end of a file that has none).
func streamStart(data []byte) int {
	if len(data) < 16 || bytes.IndexByte(data[16:], 0) < 0 {
		return len(data)
	}
	return bytes.IndexByte(data[16:], 0) + 17
}

// schedules are the ways a test feeds a file: whole; byte by byte through
// the UUID and the JSON header (the follower starts once the header's NUL
// is there) and the first messages; byte by byte through the last
// messages and FINISH; in random pieces up to 512 and up to 7 bytes.
func schedules(data []byte) map[string][]int {
	n, s := len(data), streamStart(data)
	return map[string][]int{
		"whole":      decodetest.WholeCuts(n),
		"head bytes": decodetest.ByteCuts(n, 0, min(n, s+200), 4096),
		"tail bytes": decodetest.ByteCuts(n, max(0, n-300), n, 4096),
		"random 512": decodetest.RandomCuts(n, 512, seedOf(data)),
		"random 7":   decodetest.RandomCuts(n, 7, seedOf(data)+1),
	}
}

// lateJoiners is a busy stream (busyStream's moves and inputs) whose
// clients join one by one from the highest id down: each join puts a
// client before every player there is, so a follower's snapshots must map
// their events' players again.
func lateJoiners(header []byte, size int) []byte {
	b := append([]byte{}, header...)
	joined := 16
	for tick := 1; len(b) < size; tick++ {
		if tick%40 == 1 && joined > 0 {
			joined--
			cid := joined
			b = append(b, msg(idJoin, cid, idInputNew, cid, 1, 100, -50, 0, 0, 0, 1, 0, 0, 0, idPlayerNew, cid, 1000+cid*64, 500)...)
		}
		for cid := joined; cid < 16; cid++ {
			b = append(b, msg(cid, (tick+cid)%7-3, (tick*cid)%5-2)...)
		}
		for cid := joined; cid < 16; cid++ {
			b = append(b, msg(idInputDiff, cid, 0, (tick+cid)%9-4, (tick+cid)%7-3, 0, tick%2, 0, 0, 0, 0, 0)...)
		}
		b = append(b, msg(idTickSkip, 0)...)
	}
	return append(b, msg(idFinish)...)
}

// TestFollowEqualsDecode feeds every sample to a follower in pieces of
// many sizes: Finish is a whole decode of the file (events, players,
// header, diagnostics, state, stats), and every snapshot on the way is the
// start of it and never changes afterwards.
func TestFollowEqualsDecode(t *testing.T) {
	for i, data := range allSamples(t) {
		for how, cuts := range schedules(data) {
			decodetest.CheckFollow(t, fmt.Sprintf("sample %d fed %s", i, how), Follow, Decode, data, cuts)
		}
	}
}

// TestFollowCorpus follows every teehistorian file of the shared corpus.
func TestFollowCorpus(t *testing.T) {
	var files []string
	filepath.WalkDir(corpus.Dir(t, "teehistorian"), func(p string, e os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".teehistorian") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no teehistorian files in the shared corpus")
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for how, cuts := range schedules(data) {
			decodetest.CheckFollow(t, filepath.Base(p)+" fed "+how, Follow, Decode, data, cuts)
		}
	}
}

// TestFollowPlayersMove: clients that join below the ids of the players
// there are move every player after them; snapshots map their events
// again, and stay the start of the final replay (players compared by
// slot), while the ticks handed out grow.
func TestFollowPlayersMove(t *testing.T) {
	data := lateJoiners(sample(t, "idle_clean_shutdown.teehistorian")[:streamStart(sample(t, "idle_clean_shutdown.teehistorian"))], 96<<10)
	fw := decodetest.CheckFollow(t, "late joiners", Follow, Decode, data, decodetest.RandomCuts(len(data), 700, 5))
	if len(fw.Final.Players) != 16 || fw.Final.Result != resultComplete {
		t.Fatalf("%d players, %q", len(fw.Final.Players), fw.Final.Result)
	}
	moved := 0
	for i := 1; i < len(fw.Snapshots); i++ {
		a, b := fw.Snapshots[i-1], fw.Snapshots[i]
		if len(a.Events) > 0 && len(b.Events) > 0 && &a.Events[0] != &b.Events[0] {
			moved++
		}
	}
	if moved < 10 {
		t.Errorf("the events were mapped again %d times; 15 clients joined before the others", moved)
	}
}

// TestFollowEnded: Ended is empty until FINISH is whole, and says FINISH
// from then on.
func TestFollowEnded(t *testing.T) {
	for i, data := range allSamples(t) {
		fin := len(data) - 1 // every sample ends with FINISH, one byte (0x40)
		if data[fin] != 0x40 {
			t.Fatalf("sample %d does not end with FINISH", i)
		}
		f := Follow(model.DecodeOptions{})
		for _, c := range decodetest.ByteCuts(len(data), fin-30, len(data), 1024) {
			f.Feed(data[:c])
			want := ""
			if c == len(data) {
				want = "FINISH"
			}
			if got := f.Ended(); got != want {
				t.Errorf("sample %d fed %d of %d bytes: Ended %q, want %q", i, c, len(data), got, want)
			}
		}
		if r, err := f.Finish(); err != nil || r.Result != resultComplete {
			t.Errorf("sample %d: %v %v", i, err, r)
		}
	}
}

// TestFollowStops: a message that cannot be read ends the follower (the
// stream cannot go on), naming its offset; a file that is no teehistorian
// is refused as a whole decode refuses it.
func TestFollowStops(t *testing.T) {
	data := file(testHeader, msg(idTickSkip, 3, idJoin, 2, -12, 1, 2, 3))
	f := Follow(model.DecodeOptions{})
	f.Feed(data)
	at := len(file(testHeader, msg(idTickSkip, 3, idJoin, 2)))
	if want := fmt.Sprintf("%#x", at); !strings.Contains(f.Ended(), want) {
		t.Errorf("Ended %q, want the offset %s", f.Ended(), want)
	}
	for _, in := range [][]byte{[]byte("not a teehistorian file, just text"), bytes.Repeat([]byte{0xff}, 40)} {
		f := Follow(model.DecodeOptions{})
		f.Feed(in)
		if f.Ended() == "" || f.Replay() != nil {
			t.Errorf("%q: Ended %q", in, f.Ended())
		}
		_, err := f.Finish()
		_, werr := Decode(in, model.DecodeOptions{})
		if err == nil || werr == nil || err.Error() != werr.Error() {
			t.Errorf("%q: finish %v, decode %v", in, err, werr)
		}
	}
	// the UUID's first bytes and a header without its NUL: waiting
	f = Follow(model.DecodeOptions{})
	for _, c := range []int{3, 16, 40} {
		f.Feed(data[:c])
		if f.Ended() != "" || f.Replay() != nil {
			t.Errorf("%d bytes: Ended %q", c, f.Ended())
		}
	}
}

// TestFollowWaitsForCounts: a console command whose argument count is
// larger than the bytes written so far may be whole once the rest is
// written: while following it waits, without the diagnostic a whole decode
// of the short file gives.
func TestFollowWaitsForCounts(t *testing.T) {
	data := file(testHeader, msg(idJoin, 1, idConsoleCommand, 1, 0, "say", 3, "a", "b", "c", idFinish))
	cut := len(data) - 6 // inside the arguments
	f := Follow(model.DecodeOptions{})
	f.Feed(data[:cut])
	if s := f.Replay(); s == nil || len(s.Diagnostics) != 0 {
		t.Fatalf("while waiting: %v", s)
	}
	f.Feed(data)
	r, err := f.Finish()
	want, _ := Decode(data, model.DecodeOptions{})
	if err != nil || decodetest.SameReplay(r, want) != "" {
		t.Fatalf("%v: %s", err, decodetest.SameReplay(r, want))
	}
	if len(events(r, "cmd")) != 1 || r.Problems() != 0 {
		t.Errorf("events %v diagnostics %v", r.Events, r.Diagnostics)
	}
}

// FuzzFollow: any bytes fed in any pieces never panic, Finish equals a
// whole decode, and no snapshot changes once handed out.
func FuzzFollow(f *testing.F) {
	for _, s := range allSamples(f) {
		f.Add(s, seedOf(s))
	}
	for _, v := range readVectorsTB(f) {
		f.Add(file(testHeader, v), int64(len(v)))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed int64) {
		most := 1 + int(uint64(seed)%200)
		decodetest.CheckFollowAny(t, "fuzz", Follow, Decode, data, decodetest.RandomCuts(len(data), most, seed))
	})
}

// BenchmarkFollow compares following a busy server's recording as it is
// written (pieces of 4 KiB and of 256 bytes, with and without a snapshot
// after each, as the TUI takes them) with one decode of the whole file.
func BenchmarkFollow(b *testing.B) {
	head := sample(b, "idle_clean_shutdown.teehistorian")
	head = head[:streamStart(head)]
	for _, bc := range []struct {
		name string
		data []byte
	}{{"busy-1MB", busyStream(head, 1<<20)}, {"late-joiners-256KB", lateJoiners(head, 256<<10)}} {
		decodetest.BenchFollow(b, bc.name, bc.data, Follow, Decode)
	}
}

// TestFollowSnapshotCharts: a snapshot's input chart, counted from the
// inputs before each tick as ticks complete, is the chart a pass over the
// inputs of its ticks gives.
func TestFollowSnapshotCharts(t *testing.T) {
	head := sample(t, "idle_clean_shutdown.teehistorian")
	data := busyStream(head[:streamStart(head)], 256<<10)
	d, _ := newDecoder(data, model.DecodeOptions{}, budget.New(int64(len(data)), model.Limits{}))
	d.feed()
	fw := decodetest.Follow(Follow(model.DecodeOptions{}), data, decodetest.RandomCuts(len(data), 3000, 2))
	checked := 0
	for _, s := range fw.Snapshots {
		count := s.Timeline.Count
		if count < 200 {
			continue
		}
		n := min(count, 512)
		want := make([]float64, n)
		for _, tk := range d.inputTicks {
			if b := int(int64(tk) * int64(n) / int64(count)); int(tk) < count && b < n {
				want[b]++
			}
		}
		for i := range want {
			want[i] /= float64(count) / float64(n)
		}
		if got := s.Charts[1].Series[0].Values; decodetest.Diff(got, want) != "" {
			t.Fatalf("snapshot of %d ticks: inputs %s", count, decodetest.Diff(got, want))
		}
		checked++
	}
	if checked < 5 {
		t.Errorf("%d snapshots checked", checked)
	}
}
