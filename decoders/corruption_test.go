package decoders

// The corruption suite: every sample of every format, cut short at 200+
// points, and damaged 500 ways (bit flips, byte-range deletions), seeded
// and reproducible. Each case must finish without a panic or a hang, must
// keep the budget's promise (a forged length field must not make a decoder
// allocate by it), and a truncated file must come back refused or with a
// diagnostic that names an offset inside the data.

import (
	"fmt"
	"hash/fnv"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/corpus"
	"rewind/model"
)

const (
	truncations = 200
	mutations   = 500
	// hangLimit catches a decoder that loops forever; it is not a speed
	// requirement (speed is measured in the benchmarks).
	hangLimit = 20 * time.Second
)

// allocBudget is the most a decode of n input bytes may allocate: the
// budget's promise (64 MiB + 32× the input, budget.Promise), held against
// everything the decode allocated, garbage included, which bounds its peak.
func allocBudget(n int) uint64 { return uint64(budget.Promise(int64(n))) }

type sample struct {
	name string
	data []byte
}

func samples(t *testing.T) []sample {
	t.Helper()
	out := replaysUnder(filepath.Join(corpus.Root(t), "testdata", "samples"))
	if len(out) == 0 {
		t.Skip("no samples in testdata/samples")
	}
	return out
}

// replaysUnder reads the files below root that a format claims (not the
// manifests and readmes beside them), named by their path from root.
func replaysUnder(root string) []sample {
	var out []sample
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if f, err := Detect(data, path); err != nil || f == nil {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		out = append(out, sample{rel, data})
		return nil
	})
	return out
}

// decodeGuarded decodes with a hang guard and measures what it allocated.
// Allocation is measured process-wide, so these tests do not run in parallel.
func decodeGuarded(t *testing.T, data []byte, what string) (r *model.Replay, err error, alloc uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	defer func() {
		if d := time.Since(start); d > slowest.d {
			slowest.d, slowest.what = d, what
		}
	}()
	done := make(chan struct{})
	var panicked any
	go func() {
		defer close(done)
		defer func() { panicked = recover() }()
		r, err = Decode(data, "corrupt", model.DecodeOptions{})
	}()
	select {
	case <-done:
	case <-time.After(hangLimit):
		t.Fatalf("%s: decoding did not finish in %v (hang?)", what, hangLimit)
	}
	runtime.ReadMemStats(&after)
	if panicked != nil {
		t.Fatalf("%s: panic: %v", what, panicked)
	}
	return r, err, after.TotalAlloc - before.TotalAlloc
}

// slowest remembers the slowest case, logged (not asserted: speed is for
// the benchmarks) so a decoder that crawls on damaged input shows up.
var slowest struct {
	d    time.Duration
	what string
}

func logSlowest(t *testing.T) {
	t.Logf("slowest case: %v (%s)", slowest.d, slowest.what)
}

func seedFor(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int64(h.Sum64() >> 1)
}

func checkDiagnostics(t *testing.T, r *model.Replay, what string) {
	t.Helper()
	for _, d := range r.Diagnostics {
		limit := int64(len(r.Data))
		if d.Span.Stream != "" {
			limit = int64(len(r.Streams[d.Span.Stream]))
			if _, ok := r.Streams[d.Span.Stream]; !ok {
				continue // a stream that could not be extracted at all
			}
		}
		if d.Span.Off < 0 || d.Span.Off > limit || d.Span.Len < 0 || d.Span.End() > limit {
			t.Errorf("%s: diagnostic span %#x+%d outside the data (%d bytes): %s", what, d.Span.Off, d.Span.Len, limit, d)
		}
	}
}

func TestCorruptionTruncation(t *testing.T) {
	defer logSlowest(t)
	for _, s := range samples(t) {
		t.Run(s.name, func(t *testing.T) {
			n := len(s.data)
			points := truncations
			if n < points {
				points = n
			}
			for k := 0; k < points; k++ {
				cut := k * n / points
				if k == points-1 {
					cut = n - 1
				}
				what := fmt.Sprintf("%s cut at %d of %d (replay: go test -run 'TestCorruptionTruncation/%s' ./decoders/)", s.name, cut, n, s.name)
				r, err, alloc := decodeGuarded(t, s.data[:cut], what)
				if alloc > allocBudget(cut) {
					t.Errorf("%s: allocated %d bytes for %d input bytes", what, alloc, cut)
				}
				if err != nil {
					continue // refused with a sentence: fine for a cut file
				}
				checkDiagnostics(t, r, what)
				if r.Problems() == 0 {
					t.Errorf("%s: decoded with no problem reported", what)
				}
			}
		})
	}
}

func TestCorruptionMutation(t *testing.T) {
	defer logSlowest(t)
	for _, s := range samples(t) {
		t.Run(s.name, func(t *testing.T) {
			seed := seedFor(s.name)
			rng := rand.New(rand.NewSource(seed))
			buf := make([]byte, len(s.data))
			for k := 0; k < mutations; k++ {
				copy(buf, s.data)
				data := buf
				var desc string
				switch k % 3 {
				case 0, 1: // flip 1-8 bits
					flips := 1 + rng.Intn(8)
					desc = fmt.Sprintf("%d bit flips:", flips)
					for i := 0; i < flips; i++ {
						pos := rng.Intn(len(data))
						bit := rng.Intn(8)
						data[pos] ^= 1 << bit
						desc += fmt.Sprintf(" %#x.%d", pos, bit)
					}
				case 2: // delete a byte range
					a := rng.Intn(len(data))
					l := 1 + rng.Intn(min(256, len(data)-a))
					data = append(data[:a:a], s.data[a+l:]...)
					desc = fmt.Sprintf("deleted %d bytes at %#x", l, a)
				}
				what := fmt.Sprintf("%s case %d seed %d (%s)", s.name, k, seed, desc)
				r, err, alloc := decodeGuarded(t, data, what)
				if alloc > allocBudget(len(data)) {
					t.Errorf("%s: allocated %d bytes for %d input bytes", what, alloc, len(data))
				}
				if err == nil {
					checkDiagnostics(t, r, what)
				}
			}
		})
	}
}
