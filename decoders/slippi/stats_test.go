package slippi

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// The expectations are what slippi-js 9.1.2's getStats() returns for every
// file of the shared corpus, written once by testdata/slippijs/expect.cjs
// (node + npm) so that these tests need neither.

type expectation struct {
	File  string          `json:"file"`
	Stats json.RawMessage `json:"stats"`
	Error string          `json:"error"`
}

func loadExpectations(t testing.TB) []expectation {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "slippijs", "expected.ndjson.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []expectation
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var e expectation
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// replayFile finds an expectation's file: the copy in testdata/samples, else
// the shared corpus; "" when neither is there.
func replayFile(t testing.TB, rel string) string {
	s := filepath.Join(corpus.Samples(t, "slippi"), filepath.Base(rel))
	if _, err := os.Stat(s); err == nil {
		return s
	}
	p := filepath.Join(corpus.Root(t), "..", "shared", "corpus", "slp", rel)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

func decodeFile(t testing.TB, path string) *model.Replay {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// nativeJSON is the replay's slippi-js stats as JSON values (null when there
// are none).
func nativeJSON(t testing.TB, r *model.Replay) any {
	t.Helper()
	b, err := json.Marshal(r.Analysis().Stats.Native)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// compareJSON compares two decoded JSON values leaf by leaf and returns the
// number of leaves compared and the differences by path. Numbers compare
// exactly: JSON.stringify and Go both write the shortest decimal that reads
// back as the same float64, so equal text means equal bits.
func compareJSON(path string, want, got any, diffs *[]string) int {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: want an object, got %v", path, got))
			return 1
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		n := 0
		for _, k := range sorted {
			wv, wok := w[k]
			gv, gok := g[k]
			switch {
			case !wok:
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: slippi-js has no such key, got %v", path, k, gv))
				n++
			case !gok:
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: missing, want %v", path, k, wv))
				n++
			default:
				n += compareJSON(path+"."+k, wv, gv, diffs)
			}
		}
		return n
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*diffs = append(*diffs, fmt.Sprintf("%s: want %d items, got %v", path, len(w), lenOf(got)))
			return 1
		}
		n := 0
		for i := range w {
			n += compareJSON(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], diffs)
		}
		return n
	default:
		if want != got {
			*diffs = append(*diffs, fmt.Sprintf("%s: want %v, got %v", path, want, got))
		}
		return 1
	}
}

func lenOf(v any) string {
	if a, ok := v.([]any); ok {
		return fmt.Sprintf("%d items", len(a))
	}
	return fmt.Sprint(v)
}

// TestStatsMatchSlippiJS compares every value of getStats() on every corpus
// file slippi-js computes stats for (the samples in testdata when the
// shared corpus is absent). Rollback files are among them: slippi-js
// computes stats only when asked, after the whole file was read, from one
// object per frame whose pre- and post-frame updates each later copy of the
// frame overwrote, so it sees the last copy of every frame, the one the
// decoder keeps.
func TestStatsMatchSlippiJS(t *testing.T) {
	files, values, mismatches := 0, 0, 0
	var refused, absent []string
	for _, e := range loadExpectations(t) {
		if e.Error != "" {
			refused = append(refused, fmt.Sprintf("%s (throws %q)", e.File, e.Error))
			continue
		}
		if string(e.Stats) == "null" {
			refused = append(refused, e.File+" (getStats() is undefined)")
		}
		path := replayFile(t, e.File)
		if path == "" {
			absent = append(absent, e.File)
			continue
		}
		t.Run(strings.ReplaceAll(e.File, "/", "__"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Decode(data, model.DecodeOptions{})
			if err != nil {
				// not a replay to either reader
				if string(e.Stats) != "null" {
					t.Fatalf("slippi-js computes stats, rewind refuses: %v", err)
				}
				return
			}
			var want any
			if err := json.Unmarshal(e.Stats, &want); err != nil {
				t.Fatal(err)
			}
			var diffs []string
			n := compareJSON("stats", want, nativeJSON(t, r), &diffs)
			files++
			values += n
			mismatches += len(diffs)
			for i, d := range diffs {
				if i == 20 {
					t.Errorf("... and %d more", len(diffs)-20)
					break
				}
				t.Error(d)
			}
		})
	}
	t.Logf("%d files compared, %d values, %d mismatches", files, values, mismatches)
	for _, r := range refused {
		t.Logf("slippi-js gives no stats for %s", r)
	}
	if len(absent) > 0 {
		t.Logf("%d files skipped: not in testdata/samples and the shared corpus is absent", len(absent))
	}
}
