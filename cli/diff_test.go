package cli

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rewind/decoders"
	"rewind/model"
)

// diffJSON is the part of `rewind diff --json` the tests read.
type diffJSON struct {
	Identical bool   `json:"identical"`
	SameGame  bool   `json:"sameGame"`
	Why       string `json:"why"`
	Unit      string `json:"unit"`
	First     *struct {
		Kind   string  `json:"kind"`
		Frame  int64   `json:"frame"`
		Time   float64 `json:"time"`
		Player string  `json:"player"`
		Field  string  `json:"field"`
		A, B   any
	} `json:"first"`
	DifferingFrames int        `json:"differingFrames"`
	DifferingFields int        `json:"differingFields"`
	Ranges          [][2]int64 `json:"ranges"`
	OnlyA           [][2]int64 `json:"onlyA"`
	Pairs           [][2]string
	Tables          []struct {
		Key     string `json:"key"`
		PlayerA string `json:"playerA"`
		PlayerB string `json:"playerB"`
		List    bool   `json:"list"`
		Rows    []struct {
			Key   string   `json:"key"`
			TimeA *float64 `json:"timeA"`
			TimeB *float64 `json:"timeB"`
			Later *float64 `json:"later"`
		} `json:"rows"`
	} `json:"tables"`
}

// twinFile writes a copy of a sample with P1's post-frame percent at frame
// number n rewritten (found through the decoder's event spans) and returns
// its path, the percent in the sample (read from the bytes as the spec
// says: a big-endian float32) and the one written.
func twinFile(t *testing.T, sample string, n int64) (string, float64, float64) {
	t.Helper()
	data, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	r, err := decoders.Decode(data, sample, model.DecodeOptions{})
	if r == nil {
		t.Fatal(err)
	}
	f := r.Timeline.Index(n)
	lo, hi := r.EventRange(f)
	for i := lo; i < hi; i++ {
		if r.EventKind(i) != "post" || r.Events[i].Player != 0 || r.EventFlag(i) != "" {
			continue
		}
		fl, ok := model.Find(r.EventFields(i), "percent")
		if !ok || fl.Span.Len != 4 {
			continue
		}
		twin := append([]byte(nil), data...)
		was := math.Float32frombits(binary.BigEndian.Uint32(twin[fl.Span.Off:]))
		now := was + 17.5
		binary.BigEndian.PutUint32(twin[fl.Span.Off:], math.Float32bits(now))
		path := filepath.Join(t.TempDir(), "twin.slp")
		if err := os.WriteFile(path, twin, 0o644); err != nil {
			t.Fatal(err)
		}
		return path, float64(was), float64(now)
	}
	t.Fatalf("%s: no post-frame percent of P1 at frame %d", sample, n)
	return "", 0, 0
}

func TestDiffCommand(t *testing.T) {
	const sample = "testdata/samples/slippi/tests__data__v3.16.slp"
	twin, was, now := twinFile(t, sample, 100)

	t.Run("twin", func(t *testing.T) {
		r := rewind(t, "diff", "--json", sample, twin)
		r.want(t, "diff --json sample twin", 1, "")
		var j diffJSON
		if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
			t.Fatalf("%v: %s", err, r.stdout)
		}
		if j.Identical || !j.SameGame || j.First == nil {
			t.Fatalf("identical %v, same game %v, first %v", j.Identical, j.SameGame, j.First)
		}
		f := j.First
		if f.Frame != 100 || f.Player != "P1" || !strings.Contains(f.Field, "percent") || f.Kind != "state" {
			t.Errorf("first difference %+v, want frame 100, P1, a percent field of the state", *f)
		}
		if a, ok := f.A.(float64); !ok || math.Abs(a-was) > 1e-4 {
			t.Errorf("a = %v, the file says %v", f.A, was)
		}
		if b, ok := f.B.(float64); !ok || math.Abs(b-now) > 1e-4 {
			t.Errorf("b = %v, written %v", f.B, now)
		}
		if j.DifferingFrames != 1 || len(j.Ranges) != 1 || j.Ranges[0] != [2]int64{100, 100} {
			t.Errorf("%d differing frames, ranges %v", j.DifferingFrames, j.Ranges)
		}
		text := rewind(t, "diff", sample, twin)
		text.want(t, "diff sample twin", 1, "")
		if !strings.Contains(text.stdout, "First difference: frame 100 ") || !strings.Contains(text.stdout, "Differing frames: 100") {
			t.Errorf("text:\n%s", text.stdout)
		}
	})

	t.Run("itself", func(t *testing.T) {
		r := rewind(t, "diff", "--json", sample, sample)
		r.want(t, "diff a file with itself", 0, "")
		var j diffJSON
		if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || !j.Identical || !j.SameGame || j.First != nil {
			t.Errorf("%v: %s", err, r.stdout)
		}
	})

	t.Run("cannot compare", func(t *testing.T) {
		sc2 := "testdata/samples/sc2/hots-2.0.8-tracker.SC2Replay"
		r := rewind(t, "diff", sample, sc2)
		r.want(t, "diff slp sc2", 2, "*")
		if lines := strings.Split(strings.TrimSpace(r.stderr), "\n"); len(lines) != 1 ||
			!strings.Contains(r.stderr, sample) || !strings.Contains(r.stderr, sc2) ||
			!strings.Contains(r.stderr, "Slippi") || !strings.Contains(r.stderr, "StarCraft II") {
			t.Errorf("stderr %q: want one sentence naming both paths and formats", r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("stdout %q", r.stdout)
		}
		missing := filepath.Join(t.TempDir(), "gone.slp")
		r = rewind(t, "diff", sample, missing)
		r.want(t, "diff with a missing file", 2, "*")
		if !strings.Contains(r.stderr, missing) {
			t.Errorf("stderr %q does not name %s", r.stderr, missing)
		}
		notes := filepath.Join(t.TempDir(), "notes.slp")
		os.WriteFile(notes, []byte("hello, these are notes\n"), 0o644)
		r = rewind(t, "diff", notes, sample)
		r.want(t, "diff with a text file", 2, "*")
		if !strings.Contains(r.stderr, notes) || !strings.Contains(r.stderr, "not a replay") {
			t.Errorf("stderr %q", r.stderr)
		}
	})

	t.Run("command line", func(t *testing.T) {
		for _, args := range [][]string{
			{"diff", sample},
			{"diff", sample, sample, sample},
			{"diff", "--as", "maybe", sample, sample},
			{"diff", "--pair", "1-2", sample, sample},
			{"diff", "--limit", "x", sample, sample},
		} {
			r := rewind(t, args...)
			r.want(t, strings.Join(args, " "), 2, "*")
			if n := strings.Count(r.stderr, "\n"); n != 1 || !strings.HasPrefix(r.stderr, "rewind diff: ") {
				t.Errorf("%v: stderr %q, want one sentence", args, r.stderr)
			}
		}
		r := rewind(t, "diff", "--help")
		r.want(t, "diff --help", 0, "")
		for _, want := range []string{"Usage:\n  rewind diff", "--json", "--limit", "--as", "--pair", "Exit status"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("help lacks %q", want)
			}
		}
	})

	t.Run("repaired", func(t *testing.T) {
		dir := t.TempDir()
		data, _ := os.ReadFile(sample)
		cut := filepath.Join(dir, "cut.slp")
		os.WriteFile(cut, data[:len(data)*3/5], 0o644)
		fixed := filepath.Join(dir, "fixed.slp")
		rewind(t, "repair", cut, "-o", fixed).want(t, "repair", 0, "")
		rep, err := decoders.Open(fixed, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n := rep.Timeline.Number(rep.Timeline.Count - 1)
		r := rewind(t, "diff", "--json", "--limit", "0", sample, fixed)
		r.want(t, "diff sample repaired", 1, "")
		var j diffJSON
		if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
			t.Fatal(err)
		}
		if !j.SameGame || len(j.OnlyA) != 1 || j.OnlyA[0][0] != n+1 {
			t.Errorf("same game %v (%s), only in A %v; want from %d", j.SameGame, j.Why, j.OnlyA, n+1)
		}
		if j.First == nil || j.First.Frame < n {
			t.Errorf("first difference %+v before the repaired end %d", j.First, n)
		}
		text := rewind(t, "diff", sample, fixed)
		if want := "B ends early at frame " + itoa64(n) + ";"; !strings.Contains(text.stdout, want) {
			t.Errorf("text lacks %q:\n%s", want, text.stdout)
		}
	})

	t.Run("different games", func(t *testing.T) {
		a, b := "testdata/samples/sc2/lotv-5.0.15-winter-madness.SC2Replay", "testdata/samples/sc2/lotv-3.1.0-dusktowers-vs-ai.SC2Replay"
		r := rewind(t, "diff", "--json", "--limit", "0", a, b)
		r.want(t, "diff two sc2 games", 1, "")
		var j diffJSON
		if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
			t.Fatal(err)
		}
		if j.SameGame || j.Identical || j.First != nil {
			t.Fatalf("same game %v identical %v: %s", j.SameGame, j.Identical, j.Why)
		}
		// P1 is Terran in both: their build orders share items; P2 is
		// Terran in A and Protoss in B: theirs share none
		lists, withPairs := 0, 0
		for _, tb := range j.Tables {
			if tb.Key != "buildOrder" {
				continue
			}
			lists++
			paired := 0
			for _, row := range tb.Rows {
				if row.TimeA == nil || row.TimeB == nil {
					continue
				}
				paired++
				if row.Later == nil || math.Abs(*row.Later-(*row.TimeB-*row.TimeA)) > 1e-9 {
					t.Errorf("%s: later %v for times %v and %v", row.Key, row.Later, *row.TimeA, *row.TimeB)
				}
			}
			if !tb.List {
				t.Errorf("build order %s/%s is no list", tb.PlayerA, tb.PlayerB)
			}
			if paired > 0 {
				withPairs++
				if tb.PlayerA != "P1" || tb.PlayerB != "P1" {
					t.Errorf("items paired in the build orders of A %s and B %s", tb.PlayerA, tb.PlayerB)
				}
			}
		}
		if lists != 2 || withPairs != 1 {
			t.Errorf("%d build orders compared, %d with items paired; want 2 and 1", lists, withPairs)
		}
		text := rewind(t, "diff", "--limit", "8", a, b)
		golden(t, "diff-sc2-games.txt", text.stdout)
	})
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
