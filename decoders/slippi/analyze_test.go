package slippi

import (
	"encoding/json"
	"math/rand"
	"path/filepath"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// checkAnalysis runs the game code on a decoded (possibly damaged) replay
// and checks what every analysis must satisfy: moments inside the
// timeline and in order, players that exist, JSON that encodes, one cell per
// column.
func checkAnalysis(t testing.TB, r *model.Replay) {
	t.Helper()
	a := r.Analysis()
	n := r.Timeline.Count
	for i, m := range a.Moments {
		if m.Frame < 0 || m.End < m.Frame || m.End >= max(n, 1) {
			t.Fatalf("moment %d (%s) at frames %d..%d of %d", i, m.Kind, m.Frame, m.End, n)
		}
		if i > 0 && m.Frame < a.Moments[i-1].Frame {
			t.Fatalf("moment %d at %d after %d", i, m.Frame, a.Moments[i-1].Frame)
		}
		if m.By < -1 || m.By >= len(r.Players) || m.On < -1 || m.On >= len(r.Players) || m.Summary == "" {
			t.Fatalf("moment %d: %+v", i, m)
		}
	}
	if _, err := json.Marshal(a.Stats.Native); err != nil {
		t.Fatalf("stats do not encode: %v", err)
	}
	for _, tb := range a.Stats.Tables {
		for _, row := range tb.Rows {
			if len(row.Cells) != len(tb.Columns) {
				t.Fatalf("table %s row %s: %d cells for %d columns", tb.Key, row.Key, len(row.Cells), len(tb.Columns))
			}
		}
	}
	// the archive summary: one entry per player, records on the timeline
	s := Summarize(r)
	if len(s.Players) != len(r.Players) {
		t.Fatalf("summary of %d players for %d", len(s.Players), len(r.Players))
	}
	for i, m := range s.Moments {
		if m.End < m.Frame || m.By < -1 || m.By >= len(r.Players) || m.On < -1 || m.On >= len(r.Players) {
			t.Fatalf("record %d: %+v", i, m)
		}
	}
	if _, err := json.Marshal(s); err != nil {
		t.Fatalf("summary does not encode: %v", err)
	}
}

// TestAnalyzeDamaged runs the game code on cut and bit-flipped samples.
func TestAnalyzeDamaged(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for name, b := range samples(t) {
		for k := 1; k <= 40; k++ {
			if r, err := Decode(b[:len(b)*k/40], model.DecodeOptions{}); err == nil {
				checkAnalysis(t, r)
			}
		}
		for k := 0; k < 40; k++ {
			c := append([]byte(nil), b...)
			for j := 0; j < 1+k%8; j++ {
				c[rng.Intn(len(c))] ^= 1 << rng.Intn(8)
			}
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s flip %d: panic %v", name, k, p)
					}
				}()
				if r, err := Decode(c, model.DecodeOptions{}); err == nil {
					checkAnalysis(t, r)
				}
			}()
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	// small seeds, as FuzzSlippi: the start (Game Start, first frames) and
	// the end (last frames, Game End) of each sample
	for _, b := range samples(f) {
		f.Add(b[:min(len(b), 2500)])
		f.Add(append(append([]byte(nil), b[:min(len(b), 900)]...), b[max(0, len(b)-1500):]...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, err := Decode(b, model.DecodeOptions{}); err == nil {
			checkAnalysis(t, r)
		}
	})
}

func benchAnalyze(b *testing.B, rel string) {
	r := load(b, rel)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Analyze() // not Analysis(), which keeps the first result
	}
}

// BenchmarkAnalyze: stats, moments and tables of the largest sample
// (v3.18, 366 KB, 941 frames).
func BenchmarkAnalyze(b *testing.B) {
	benchAnalyze(b, "hohav__peppi/tests__data__v3.18.slp")
}

// BenchmarkAnalyzeRollback: the 4 MB online game of 9,277 frames with
// heavy rollback.
func BenchmarkAnalyzeRollback(b *testing.B) {
	benchAnalyze(b, "project-slippi__slippi-js/slp__rollbackFrameTest.slp")
}

// BenchmarkAnalyzeCorpus analyzes every replay of the shared corpus once per
// iteration (decoded beforehand); divide by the file count for a file's cost.
func BenchmarkAnalyzeCorpus(b *testing.B) {
	dir := corpus.Dir(b, "slp")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.slp"))
	var rs []*model.Replay
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		rs = append(rs, load(b, rel))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range rs {
			r.Analyze()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rs))/1e6, "ms/file")
}
