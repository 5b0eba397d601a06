package diff

// Real files: twins of corpus Slippi replays with one value rewritten, a
// file against itself, a repaired cut copy against its original, a cut
// copy left as it is, two different StarCraft II games.

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rewind/decoders"
	"rewind/model"
)

// corpusFile is a file of ../shared/corpus; the test skips (with the
// message decoders/internal/corpus gives, which CI counts) without it.
func corpusFile(t testing.TB, rel string) string {
	t.Helper()
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		t.Skipf("shared corpus not found at %s: skipping the real-file tests", root)
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the shared corpus has no %s: renamed or moved?", rel)
	}
	return p
}

func decodeFile(t testing.TB, path string) (*model.Replay, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeBytes(t, data, path), data
}

func decodeBytes(t testing.TB, data []byte, name string) *model.Replay {
	t.Helper()
	r, err := decoders.Decode(data, name, model.DecodeOptions{})
	if r == nil {
		t.Fatalf("%s: %v", name, err)
	}
	r.Path = name
	return r
}

// postPercent finds the bytes of a player's post-frame percent at frame
// number n through the decoder's event spans: the post-frame event of the
// player at that frame that is the game's final record (not rolled back),
// and its percent field.
func postPercent(t *testing.T, r *model.Replay, n int64, player int) model.Span {
	t.Helper()
	f := int(n - r.Timeline.First)
	var found []model.Span
	for _, ev := range frameEvents(r, f, nil) {
		if ev.kind != "post" || ev.player != player {
			continue
		}
		fl, ok := model.Find(eventFields(r, ev.index), "percent")
		if ok {
			found = append(found, fl.Span)
		}
	}
	if len(found) != 1 {
		t.Fatalf("frame %d: %d post-frame percents of P%d", n, len(found), player+1)
	}
	if found[0].Len != 4 || found[0].Stream != "" {
		t.Fatalf("frame %d: the percent is %d bytes in %q, not a float32 of the file", n, found[0].Len, found[0].Stream)
	}
	return found[0]
}

// TestTwinPercent: a copy of a real 2-player replay with one player's
// post-frame percent rewritten at one frame differs at that frame only, in
// that field, with both values: A's as the spec reads the bytes (a
// big-endian float32) and B's as written.
func TestTwinPercent(t *testing.T) {
	cases := []struct {
		file   string
		frame  int64
		player int
		want   float64 // A's value, from the corpus ground truth when it gives one; NaN: read the bytes
	}{
		// EXPECTED.md: frame index 1000 = frame 877, P2 Fox post percent 85.6 (peppi tests/peppi.rs)
		{"slp/hohav__peppi/tests__data__game.slp", 877, 1, 85.6},
		{"slp/project-slippi__slippi-js/slp__lCancel.slp", 700, 0, math.NaN()},
		// heavy rollback: the final copy of the frame is the one rewritten
		{"slp/project-slippi__slippi-js/slp__rollbackFrameTest.slp", 4000, 1, math.NaN()},
		{"slp/PMcca__go-slippi/replays__netplay-online.slp", 9000, 0, math.NaN()},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			a, data := decodeFile(t, corpusFile(t, c.file))
			sp := postPercent(t, a, c.frame, c.player)
			orig := math.Float32frombits(binary.BigEndian.Uint32(data[sp.Off:]))
			if !math.IsNaN(c.want) && math.Abs(float64(orig)-c.want) > 1e-4 {
				t.Fatalf("the percent bytes at %#x read %v, the ground truth says %v", sp.Off, orig, c.want)
			}
			twin := append([]byte(nil), data...)
			changed := orig + 17.5
			binary.BigEndian.PutUint32(twin[sp.Off:], math.Float32bits(changed))
			b := decodeBytes(t, twin, "twin.slp")
			res, err := Compare(a, b, Options{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if !res.SameGame || res.Identical {
				t.Fatalf("same game %v (%s), identical %v", res.SameGame, res.Why, res.Identical)
			}
			d := res.First
			if d == nil || d.Frame != c.frame || d.Player != c.player || d.Kind != KindState || !strings.Contains(d.Field, "percent") {
				t.Fatalf("first difference %+v, want frame %d P%d state ...percent", d, c.frame, c.player+1)
			}
			if !sameNumber(d.A, float64(orig)) || !sameNumber(d.B, float64(changed)) {
				t.Errorf("values %v (%T) and %v, want %v and %v", d.A, d.A, d.B, orig, changed)
			}
			if res.DifferingFrames != 1 || res.DifferingFields != 1 || len(res.Ranges) != 1 || res.Ranges[0] != (Range{c.frame, c.frame}) {
				t.Errorf("%d frames, %d fields, ranges %v; want the one frame %d, one field (the event repeats the state)",
					res.DifferingFrames, res.DifferingFields, res.Ranges, c.frame)
			}
			if len(res.OnlyA)+len(res.OnlyB)+len(res.End) > 0 {
				t.Errorf("only A %v, only B %v, end %v", res.OnlyA, res.OnlyB, res.End)
			}
			// the per-frame answer the split view asks for agrees
			if at := At(a, b, c.frame, Options{}); len(at) != 1 || at[0].Field != d.Field {
				t.Errorf("At(%d) = %+v", c.frame, at)
			}
			if at := At(a, b, c.frame-1, Options{}); len(at) != 0 {
				t.Errorf("At(%d) = %+v, want nothing", c.frame-1, at)
			}
		})
	}
}

func sameNumber(v any, want float64) bool {
	x, ok := number(v)
	return ok && math.Abs(x-want) < 1e-4
}

// TestSelfIdentical: a file against itself is identical, by the bytes and
// by the walk.
func TestSelfIdentical(t *testing.T) {
	for _, f := range []string{
		"slp/project-slippi__slippi-js/slp__lCancel.slp",
		"slp/project-slippi__slippi-js/slp__itemExport.slp",
		"sc2/ggtracker__sc2reader/test_replays__1.2.2.17811__2.SC2Replay",
	} {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p := corpusFile(t, f)
			a, _ := decodeFile(t, p)
			b, _ := decodeFile(t, p)
			res, err := Compare(a, b, Options{})
			if err != nil || !res.Identical || !res.SameGame {
				t.Fatalf("Compare: %v, identical %v, same game %v (%s)", err, res.Identical, res.SameGame, res.Why)
			}
			walked := &Result{A: a, B: b}
			walk(walked, Options{Limit: 5})
			if !walked.Identical || walked.First != nil || walked.DifferingFrames != 0 {
				t.Fatalf("the walk finds %d differing frames, first %+v", walked.DifferingFrames, walked.First)
			}
			if n := walked.Overlap.To - walked.Overlap.From + 1; n != int64(a.Timeline.Count) {
				t.Errorf("compared %d frames of %d", n, a.Timeline.Count)
			}
		})
	}
}

// TestDifferentFormats: a Slippi replay against a StarCraft II one cannot
// be compared, with a sentence that names both formats.
func TestDifferentFormats(t *testing.T) {
	a, _ := decodeFile(t, corpusFile(t, "slp/project-slippi__slippi-js/slp__lCancel.slp"))
	b, _ := decodeFile(t, corpusFile(t, "sc2/ggtracker__sc2reader/test_replays__1.2.2.17811__2.SC2Replay"))
	_, err := Compare(a, b, Options{})
	var ie *IncomparableError
	if err == nil || !asIncomparable(err, &ie) {
		t.Fatalf("err = %v, want an IncomparableError", err)
	}
	if !strings.Contains(err.Error(), "Slippi") || !strings.Contains(err.Error(), "StarCraft II") {
		t.Errorf("%q does not name both formats", err)
	}
}

func asIncomparable(err error, target **IncomparableError) bool {
	e, ok := err.(*IncomparableError)
	*target = e
	return ok
}

// cutAndRepair cuts a file at a fraction of its bytes and repairs the cut
// copy with the format's own repair.
func cutAndRepair(t *testing.T, data []byte, frac float64) (cut, repaired []byte) {
	t.Helper()
	f, err := decoders.Detect(data, "x")
	if err != nil || f.Repair == nil {
		t.Fatalf("no repair: %v", err)
	}
	cut = data[:int(float64(len(data))*frac)]
	rep, err := f.Repair(cut, model.RepairOptions{})
	if err != nil || rep.Data == nil {
		t.Fatalf("repair: %v", err)
	}
	return cut, rep.Data
}

// TestRepairedEndsEarly: a repaired cut copy against its original: B ends
// early at its last frame N, and nothing differs before N.
func TestRepairedEndsEarly(t *testing.T) {
	for _, c := range []struct {
		file string
		frac float64
	}{
		{"slp/project-slippi__slippi-js/slp__lCancel.slp", 0.6},
		{"slp/project-slippi__slippi-js/slp__rollbackFrameTest.slp", 0.45},
		{"slp/hohav__peppi/tests__data__items.slp", 0.3},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			a, data := decodeFile(t, corpusFile(t, c.file))
			_, rep := cutAndRepair(t, data, c.frac)
			b := decodeBytes(t, rep, "repaired.slp")
			res, err := Compare(a, b, Options{Limit: -1})
			if err != nil {
				t.Fatal(err)
			}
			if !res.SameGame {
				t.Fatalf("not the same game: %s", res.Why)
			}
			n := b.Timeline.Number(b.Timeline.Count - 1)
			lastA := a.Timeline.Number(a.Timeline.Count - 1)
			if len(res.OnlyA) != 1 || res.OnlyA[0] != (Range{n + 1, lastA}) || len(res.OnlyB) != 0 {
				t.Fatalf("only in A %v, only in B %v; want %d..%d only in A", res.OnlyA, res.OnlyB, n+1, lastA)
			}
			for _, d := range res.Differences {
				if d.Kind != KindFrames && d.Frame < n {
					t.Errorf("a difference before frame %d: %+v", n, d)
				}
			}
			var text strings.Builder
			res.WriteText(&text, 20)
			if want := "B ends early at frame " + fmtNum(n) + ";"; !strings.Contains(text.String(), want) {
				t.Errorf("the text does not say %q:\n%s", want, text.String())
			}
		})
	}
}

// TestPartialComparedAsFarAsItGoes: a cut copy, not repaired, is compared
// up to where it stops, and the report says where that is.
func TestPartialComparedAsFarAsItGoes(t *testing.T) {
	a, data := decodeFile(t, corpusFile(t, "slp/project-slippi__slippi-js/slp__lCancel.slp"))
	cut, _ := cutAndRepair(t, data, 0.5)
	b := decodeBytes(t, cut, "cut.slp")
	res, err := Compare(a, b, Options{Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	n := b.Timeline.Number(b.Timeline.Count - 1)
	if res.StopB == nil || !res.StopB.Partial || res.StopB.Frame != n || res.StopB.Reason == "" {
		t.Fatalf("stop %+v, want partial at %d with a reason", res.StopB, n)
	}
	if res.StopA != nil {
		t.Errorf("A stops: %+v", res.StopA)
	}
	for _, d := range res.Differences {
		if d.Kind != KindFrames && d.Frame < n {
			t.Errorf("a difference before the cut frame %d: %+v", n, d)
		}
	}
	var text strings.Builder
	res.WriteText(&text, 5)
	if !strings.Contains(text.String(), "B is partial") {
		t.Errorf("the text does not say B is partial:\n%s", text.String())
	}
}

// TestSC2BuildOrders: two different StarCraft II games are compared side by
// side; the build orders of paired players are aligned item by item (the
// nth of an item in A with the nth in B), in time order, with B's time
// minus A's.
func TestSC2BuildOrders(t *testing.T) {
	a, _ := decodeFile(t, corpusFile(t, "sc2/Blizzard__s2protocol/tests__s2replaystatsdata__2018-11-29_Z_iaguz_VS_P_Luneth.SC2Replay"))
	b, _ := decodeFile(t, corpusFile(t, "sc2/Blizzard__s2protocol/tests__s2replaystatsdata__2019-01-25_P_IIIIIIIIIIII_VS_Z_PrEaTure.SC2Replay"))
	res, err := Compare(a, b, Options{Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.SameGame || res.Identical {
		t.Fatalf("same game %v: %s", res.SameGame, res.Why)
	}
	// the Zerg with the Zerg, the Protoss with the Protoss
	for _, p := range res.Pairs {
		if a.Players[p[0]].Character != b.Players[p[1]].Character {
			t.Errorf("paired %s with %s", PlayerName(a, p[0]), PlayerName(b, p[1]))
		}
	}
	lists := 0
	for _, td := range res.Tables {
		if td.Key != "buildOrder" {
			continue
		}
		lists++
		if !td.List {
			t.Errorf("build order of %s not a list", Player(td.PlayerA))
		}
		ta := tableOf(a, "buildOrder", td.PlayerA)
		tb := tableOf(b, "buildOrder", td.PlayerB)
		paired := 0
		var last = -1.0
		for _, r := range td.Rows {
			at := r.TimeA
			if r.A == nil {
				at = r.TimeB
			}
			if at.Seconds() < last {
				t.Errorf("rows out of time order at %s", r.Key)
			}
			last = at.Seconds()
			if r.A == nil || r.B == nil {
				continue
			}
			paired++
			if r.A.Key != r.B.Key || nthOf(ta, r.A) != nthOf(tb, r.B) {
				t.Errorf("%s (#%d) paired with %s (#%d)", r.A.Key, nthOf(ta, r.A), r.B.Key, nthOf(tb, r.B))
			}
			if r.TimeA != clock(a, r.A.Frame) || r.TimeB != clock(b, r.B.Frame) {
				t.Errorf("%s: times %v %v are not the rows' frames' times", r.Key, r.TimeA, r.TimeB)
			}
		}
		if paired == 0 {
			t.Errorf("no item of %s's build order paired", Player(td.PlayerA))
		}
		if len(td.Rows) < max(len(ta.Rows), len(tb.Rows)) {
			t.Errorf("%d rows for lists of %d and %d", len(td.Rows), len(ta.Rows), len(tb.Rows))
		}
	}
	if lists != 2 {
		t.Errorf("%d build orders compared, want 2", lists)
	}
	var text strings.Builder
	res.WriteText(&text, 10)
	if !strings.Contains(text.String(), "buildOrder: A P1") || !strings.Contains(text.String(), "B − A") {
		t.Errorf("no build order in the text:\n%s", text.String())
	}
}

// clock is the game's clock at a frame: its own where it has one (StarCraft
// II before Legacy of the Void), else the game time.
func clock(r *model.Replay, f int) time.Duration {
	if r.Timeline.Clock != nil {
		return r.Timeline.Clock(f)
	}
	return r.Timeline.Time(f)
}

func tableOf(r *model.Replay, key string, player int) *model.StatTable {
	for i, t := range r.Analysis().Stats.Tables {
		if t.Key == key && t.Player == player {
			return &r.Analysis().Stats.Tables[i]
		}
	}
	return nil
}

// nthOf is which occurrence of its key a row is in its table.
func nthOf(t *model.StatTable, row *model.StatRow) int {
	n := 0
	for i := range t.Rows {
		if &t.Rows[i] == row {
			return n
		}
		if t.Rows[i].Key == row.Key {
			n++
		}
	}
	return -1
}

// BenchmarkWalk walks a 9,277-frame online game (heavy rollback) against
// a second decode of it: every frame's state and events compared.
func BenchmarkWalk(b *testing.B) {
	p := corpusFile(b, "slp/project-slippi__slippi-js/slp__rollbackFrameTest.slp")
	a, _ := decodeFile(b, p)
	c, _ := decodeFile(b, p)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := &Result{A: a, B: c}
		walk(res, Options{}) // not Compare: the same bytes would skip the walk
		if !res.Identical {
			b.Fatal("differs")
		}
	}
	b.ReportMetric(float64(a.Timeline.Count), "frames/op")
}
