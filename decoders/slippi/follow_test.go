package slippi

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

// seedOf is a random seed per file name, so each file is cut its own way
// and a failure repeats.
func seedOf(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int64(h.Sum64() >> 1)
}

// schedules are the ways a test feeds a file of n bytes: whole; byte by
// byte through the container, Event Payloads and Game Start (where the
// follower waits for a header to be whole); byte by byte through the last
// frames, Game End and the metadata; in random pieces as a recorder's
// writes fall (up to 4 KiB, and small ones up to 97 bytes).
func schedules(name string, n int) map[string][]int {
	return map[string][]int{
		"whole":       decodetest.WholeCuts(n),
		"head bytes":  decodetest.ByteCuts(n, 0, min(n, 1500), 4096),
		"tail bytes":  decodetest.ByteCuts(n, max(0, n-1200), n, 4096),
		"random 4KiB": decodetest.RandomCuts(n, 4096, seedOf(name)),
		"random 97":   decodetest.RandomCuts(n, 97, seedOf(name)+1),
	}
}

// TestFollowEqualsDecode feeds every sample to a follower in pieces of
// many sizes: what Finish returns is a whole decode of the file (events,
// frames, header, players, diagnostics, state, stats), and every snapshot
// handed out on the way is the start of it and never changes afterwards
// (decodetest.CheckFollow).
func TestFollowEqualsDecode(t *testing.T) {
	for name, data := range samples(t) {
		for how, cuts := range schedules(name, len(data)) {
			decodetest.CheckFollow(t, name+" fed "+how, Follow, Decode, data, cuts)
		}
	}
}

// TestFollowEveryEventBoundary cuts a netplay game (rollbacks: frames sent
// again) and an offline one at every event's start, one byte after it and
// one byte before its end: the follower waits for every record to be whole
// and settles frames only as far as no later byte can change them.
func TestFollowEveryEventBoundary(t *testing.T) {
	all := samples(t)
	for _, name := range []string{"tests__data__netplay.slp", "slp__nametags.slp"} {
		data := all[name]
		whole, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var cuts []int
		for _, ev := range whole.Events {
			cuts = append(cuts, int(ev.Off), int(ev.Off)+1, int(ev.End())-1)
		}
		fw := decodetest.CheckFollow(t, name, Follow, Decode, data, decodetest.SortedCuts(len(data), cuts...))
		if len(fw.Snapshots) < 50 {
			t.Errorf("%s: %d snapshots from %d pieces", name, len(fw.Snapshots), len(cuts))
		}
	}
}

// TestFollowCorpus follows every replay of the shared corpus in random
// pieces: rollback-heavy netplay, training mode (frames numbered by
// arrival, which the follower must not hand out too early), Multi-Man
// Melee's enemies, Fountain of Dreams, old versions without bookends.
func TestFollowCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(t, "slp"), "*", "*.slp"))
	if len(files) == 0 {
		t.Fatal("no .slp files in the shared corpus")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		decodetest.CheckFollow(t, name, Follow, Decode, data, decodetest.RandomCuts(len(data), 16384, seedOf(name)))
	}
}

// TestFollowEnded: Ended is empty until the last byte of Game End is fed,
// and says "Game End" from then on, the metadata after it included.
func TestFollowEnded(t *testing.T) {
	checked := 0
	for name, data := range samples(t) {
		whole, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		end := -1
		for _, ev := range whole.Events {
			if ev.Kind == kEnd {
				end = int(ev.End())
			}
		}
		if end < 0 {
			continue
		}
		checked++
		cuts := decodetest.SortedCuts(len(data), 2000, end-40, end-1, end, end+1, end+5, len(data)-1)
		cuts = append(decodetest.ByteCuts(end-40, end-60, end-40, 8192), cuts...)
		f := Follow(model.DecodeOptions{})
		for _, c := range cuts {
			f.Feed(data[:c])
			want := ""
			if c >= end {
				want = "Game End"
			}
			if got := f.Ended(); got != want {
				t.Errorf("%s fed %d bytes (Game End ends at %#x): Ended %q, want %q", name, c, end, got, want)
			}
		}
		if r, err := f.Finish(); err != nil || r.Result == "" {
			t.Errorf("%s: finish gave %v, %v", name, r, err)
		}
	}
	if checked < 5 {
		t.Errorf("only %d samples with a Game End", checked)
	}
}

// TestFollowCutRecording: a recording that stops in the middle of an event
// (Dolphin crashed) waits for the rest while following; Finish reports the
// event as a partial one, with the error at its offset and its frame, as a
// whole decode of the cut file does.
func TestFollowCutRecording(t *testing.T) {
	data := samples(t)["tests__data__netplay.slp"]
	for _, cut := range []int{len(data) / 3, len(data) / 2, len(data)*2/3 + 7} {
		in := data[:cut]
		f := Follow(model.DecodeOptions{})
		for _, c := range decodetest.RandomCuts(len(in), 2048, int64(cut)) {
			f.Feed(in[:c])
		}
		if e := f.Ended(); e != "" {
			t.Errorf("cut at %#x: Ended %q while the rest of the event may still come", cut, e)
		}
		snap := f.Replay()
		for _, ev := range snap.Events {
			if ev.Flags&model.Partial != 0 {
				t.Errorf("cut at %#x: a snapshot holds a partial event at %#x before Finish", cut, ev.Off)
			}
		}
		r, err := f.Finish()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Decode(in, model.DecodeOptions{})
		if s := decodetest.SameReplay(r, want); s != "" {
			t.Fatalf("cut at %#x: %s", cut, s)
		}
		var partial *model.Event
		for i := range r.Events {
			if r.Events[i].Flags&model.Partial != 0 {
				partial = &r.Events[i]
			}
		}
		if partial == nil || partial.End() != int64(cut) {
			t.Fatalf("cut at %#x: no partial event running to the end: %v", cut, partial)
		}
		found := false
		for _, d := range r.Diagnostics {
			if d.Severity == model.Error && d.Span.Off == partial.Off && strings.HasPrefix(d.Message, "cut off:") {
				// before the first frame (the gecko list) the error has no frame
				found = d.Frame == int(partial.Frame) || (d.Frame == -1 && (partial.Kind == kGecko || partial.Kind == kStart))
			}
		}
		if !found {
			t.Errorf("cut at %#x: no cut-off error at %#x in frame %d: %v", cut, partial.Off, partial.Frame, r.Diagnostics)
		}
	}
}

// TestFollowRefused: bytes that are no Slippi replay end the follower at
// once, and Finish refuses them with the whole decode's sentence.
func TestFollowRefused(t *testing.T) {
	for _, in := range [][]byte{
		[]byte("PK\x03\x04 not a replay at all"),
		append(append([]byte(nil), magic...), 0, 0, 0, 0, 0x36, 1, 2, 3),
	} {
		f := Follow(model.DecodeOptions{})
		f.Feed(in)
		if f.Ended() == "" {
			t.Errorf("%q: Ended is empty, so a tailing loop would wait for more", in)
		}
		if f.Replay() != nil {
			t.Errorf("%q: a snapshot of a refused file", in)
		}
		_, err := f.Finish()
		_, werr := Decode(in, model.DecodeOptions{})
		if err == nil || werr == nil || err.Error() != werr.Error() {
			t.Errorf("%q: finish refused with %v, decode with %v", in, err, werr)
		}
	}
	// a prefix of the header is no refusal yet: the rest may come
	f := Follow(model.DecodeOptions{})
	f.Feed(magic[:5])
	if f.Ended() != "" || f.Replay() != nil {
		t.Errorf("5 bytes of the header: Ended %q", f.Ended())
	}
}

// TestFollowBudget: a follower's budget grows with the file (budget.Extend),
// so a file decoded as it is written gets the allowance of the same file
// decoded whole; a limit the caller fixed stays, and a follower stopped by
// it ends (Ended says why) with the whole decode's partial replay.
func TestFollowBudget(t *testing.T) {
	data := samples(t)["tests__data__v3.18.slp"]
	lim := model.Limits{Bytes: 384 << 10}
	want, _ := Decode(data, model.DecodeOptions{Limits: lim})
	decodetest.Refused(t, want, "")
	f := Follow(model.DecodeOptions{Limits: lim})
	ended := ""
	for _, c := range decodetest.RandomCuts(len(data), 4096, 3) {
		f.Feed(data[:c])
		if ended = f.Ended(); ended != "" {
			break
		}
	}
	if !strings.Contains(ended, "budget") {
		t.Errorf("a follower out of budget ends with %q", ended)
	}
	if _, err := f.Finish(); err != nil {
		t.Fatal(err)
	}
}

// FuzzFollow: any bytes fed in any pieces never panic, Finish equals a
// whole decode of the bytes, and no snapshot changes once handed out.
// The seeds are each sample's first 1,200 bytes (the header, all of Game
// Start, the start of the gecko list or the first frames) and its first
// 900 before its last 600 (Game Start, then the end of the stream and the
// metadata out of step with the events, as damage splices a file): small,
// as a run's checks cost more the more the bytes hold.
func FuzzFollow(f *testing.F) {
	for name, b := range samples(f) {
		f.Add(b[:min(len(b), 1200)], seedOf(name))
		f.Add(append(append([]byte(nil), b[:min(len(b), 900)]...), b[max(0, len(b)-600):]...), seedOf(name)+1)
	}
	f.Fuzz(func(t *testing.T, data []byte, seed int64) {
		decodetest.CheckFollowAny(t, "fuzz", Follow, Decode, data, fuzzPieces(len(data), seed))
	})
}

// fuzzPieces is how a FuzzFollow run feeds n bytes: pieces of 1 to most
// bytes (decodetest.RandomCuts), of which a run keeps at most
// fuzzPieceRun in a row, at a place the seed picks, and feeds what comes
// before and after them in one piece each. Every piece costs a snapshot
// and its checks (the most of a run's time): a few of them a run leave the
// fuzzer many runs, which spread the small pieces over the file. A
// schedule of fuzzPieceRun pieces or fewer is fed as it is, as were the
// inputs kept in testdata/fuzz.
func fuzzPieces(n int, seed int64) []int {
	cuts := decodetest.RandomCuts(n, 1+int(uint64(seed)%300), seed)
	if len(cuts) <= fuzzPieceRun {
		return cuts
	}
	from := int((uint64(seed) >> 32) % uint64(len(cuts)-fuzzPieceRun+1))
	run := cuts[from : from+fuzzPieceRun : from+fuzzPieceRun]
	if run[len(run)-1] == n {
		return run
	}
	return append(run, n)
}

const fuzzPieceRun = 16

// BenchmarkFollow compares following a replay as it is written (pieces of
// 4 KiB, as a poller reading every 100 ms sees a netplay game grow, and of
// 256 bytes; a snapshot after every piece, as the TUI takes them) with one
// decode of the whole file. Following costs about one decode, not one per
// piece.
func BenchmarkFollow(b *testing.B) {
	files := map[string]string{"sample-366KB": filepath.Join(corpus.Samples(b, "slippi"), "tests__data__v3.18.slp")}
	if dir, ok := corpus.Shared(b); ok {
		files["rollback-4MB"] = filepath.Join(dir, "slp", "project-slippi__slippi-js", "slp__rollbackFrameTest.slp")
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		data, err := os.ReadFile(files[name])
		if err != nil {
			b.Fatal(err)
		}
		decodetest.BenchFollow(b, name, data, Follow, Decode)
	}
}

// TestFollowCutAtEveryEvent finishes a follower on recordings cut one byte
// into an event, for a spread of events: the event cut off belongs to the
// frame the stream was in, often one a snapshot has already shown (the
// cut came right after its bookend); Finish still equals a whole decode
// of the cut file.
func TestFollowCutAtEveryEvent(t *testing.T) {
	all := samples(t)
	for _, name := range []string{"tests__data__netplay.slp", "slp__nametags.slp", "tests__data__v3.12.slp"} {
		data := all[name]
		whole, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		step := max(1, len(whole.Events)/16)
		for i := 1; i < len(whole.Events); i += step {
			for _, cut := range []int{int(whole.Events[i].Off), int(whole.Events[i].Off) + 1} {
				decodetest.CheckFollow(t, fmt.Sprintf("%s cut at %#x", name, cut), Follow, Decode, data[:cut],
					decodetest.RandomCuts(cut, 3000, int64(i)))
			}
		}
		// and at the end of every event of the last frames, Game End's too
		for _, ev := range whole.Events[max(0, len(whole.Events)-8):] {
			for _, cut := range []int{int(ev.End()), int(ev.End()) + 1} {
				cut = min(cut, len(data))
				decodetest.CheckFollow(t, fmt.Sprintf("%s cut at %#x", name, cut), Follow, Decode, data[:cut],
					decodetest.SortedCuts(cut, int(ev.Off), cut-1))
			}
		}
	}
}
