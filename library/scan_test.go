package library

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"rewind/decoders"
	"rewind/model"
)

const samplesDir = "../testdata/samples"

// corpusDir is the shared corpus when it is there.
func corpusDir(t testing.TB) string {
	d := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(d); err != nil {
		t.Skip("no ../shared/corpus: ", err)
	}
	return d
}

// TestReadHeaderSameAsDecode: the ranged read (mapped pages or one read
// into a reused buffer) gives exactly what a header-only decode of the
// whole file in memory gives, for every real file.
func TestReadHeaderSameAsDecode(t *testing.T) {
	dirs := []string{samplesDir}
	if _, err := os.Stat(filepath.Join("..", "..", "shared", "corpus")); err == nil {
		dirs = append(dirs, filepath.Join("..", "..", "shared", "corpus"))
	}
	n := 0
	Walk(dirs, func(e Entry) bool {
		if e.Kind != File {
			return true
		}
		n++
		got := ReadHeader(e)
		data, err := os.ReadFile(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		want := Header{Path: e.Path, Kind: File, Size: int64(len(data)), ModTime: got.ModTime}
		decodeHeader(&want, data, false)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", e.Path, got, want)
		}
		return true
	})
	if n < 20 {
		t.Errorf("only %d files", n)
	}
}

// TestReadHeaderValues: header values of sample files against what other
// projects' tests assert (corpus EXPECTED.md), read through the scanner.
func TestReadHeaderValues(t *testing.T) {
	got := map[string]Header{}
	Scan(context.Background(), Paths([]string{samplesDir}), ScanOptions{}, func(h Header) bool {
		got[filepath.Base(h.Path)] = h
		return true
	})
	// peppi tests/peppi.rs:300-321: Game Start P1 is Ice Climbers
	if ics := got["tests__data__ics.slp"]; ics.Format != model.Format("slippi") || len(ics.Players) < 1 || ics.Players[0].Character != "Ice Climbers" {
		t.Errorf("ics: %+v", ics)
	}
	// peppi tests/peppi.rs:488-514: netplay names and connect codes
	np := got["tests__data__netplay.slp"]
	if len(np.Players) != 2 || np.Players[0].Name != "abcdefghijk" || np.Players[0].Code != "ABCD#123" || np.Players[1].Code != "XX#000" {
		t.Errorf("netplay: %+v", np.Players)
	}
	// slippi-js test/game.spec.ts:71-76: a Shift JIS name tag
	if nt := got["slp__nametags.slp"]; len(nt.Players) < 1 || nt.Players[0].Name != "AMNイ" {
		t.Errorf("nametags: %+v", nt.Players)
	}
	// the truncated SC2 file is a replay whose header is readable
	if b := got["broken-5.0.10-truncated.SC2Replay"]; b.Format != model.Format("sc2") {
		t.Errorf("broken sc2: %+v", b)
	}
	for name, h := range got {
		if h.Kind != File || h.Size <= 0 || h.ModTime.IsZero() {
			t.Errorf("%s: kind %v size %d mtime %v", name, h.Kind, h.Size, h.ModTime)
		}
		if h.Checked() && h.Err == "" {
			t.Errorf("%s: a header read claims a full check", name)
		}
	}
}

// TestScanOrdered: an ordered scan delivers in walk order, and a second
// scan with the index reads no file (every header comes from the index).
func TestScanOrdered(t *testing.T) {
	var walked []string
	Walk([]string{samplesDir}, func(e Entry) bool { walked = append(walked, e.Path); return true })
	idx, err := OpenIndex(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	var first []Header
	Scan(context.Background(), Paths([]string{samplesDir}), ScanOptions{Index: idx, Ordered: true, Workers: 3}, func(h Header) bool {
		first = append(first, h)
		return true
	})
	if len(first) != len(walked) {
		t.Fatalf("%d headers for %d files", len(first), len(walked))
	}
	for i := range first {
		if first[i].Path != walked[i] {
			t.Fatalf("header %d is %s, walk gave %s", i, first[i].Path, walked[i])
		}
	}
	if idx.Len() != len(walked) {
		t.Errorf("index holds %d of %d", idx.Len(), len(walked))
	}
	// the second scan must not read: make every file unreadable to a read
	// by pointing the index at the same sizes and times but checking that
	// what comes back is what was stored
	var second []Header
	Scan(context.Background(), Paths([]string{samplesDir}), ScanOptions{Index: idx, Ordered: true}, func(h Header) bool {
		second = append(second, h)
		return true
	})
	for i := range first {
		a, b := first[i], second[i]
		a.Start, b.Start, a.ModTime, b.ModTime = a.Start.UTC(), b.Start.UTC(), a.ModTime.UTC(), b.ModTime.UTC()
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: index gave\n%+v\nread gave\n%+v", a.Path, b, a)
		}
	}
}

// TestScanLines: each header comes with the text line made of it on a
// worker, in walk order, over many batches (the samples walked again and
// again), with a change line made to the header seen by fn; a stop
// stops it.
func TestScanLines(t *testing.T) {
	var walked []string
	var paths []string
	for range 40 { // past a batch and its window of buffers
		paths = append(paths, samplesDir)
	}
	walkAll := func(yield func(Entry) bool) {
		for i := range paths {
			stop := false
			Walk(paths[i:i+1], func(e Entry) bool {
				if !yield(e) {
					stop = true
				}
				return !stop
			})
			if stop {
				return
			}
		}
	}
	walkAll(func(e Entry) bool { walked = append(walked, e.Path); return true })
	line := func(b []byte, h *Header) []byte {
		h.Title = "seen " + h.Title
		return append(append(b, h.Path...), '\n')
	}
	n := 0
	ScanLines(context.Background(), walkAll, ScanOptions{Ordered: true, Workers: 3}, line, func(h *Header, text []byte) bool {
		if string(text) != walked[n]+"\n" || h.Path != walked[n] || !strings.HasPrefix(h.Title, "seen ") {
			t.Fatalf("line %d: %q for %s (title %q), walk gave %s", n, text, h.Path, h.Title, walked[n])
		}
		n++
		return true
	})
	if n != len(walked) {
		t.Errorf("%d lines for %d files", n, len(walked))
	}
	n = 0
	ScanLines(context.Background(), walkAll, ScanOptions{Ordered: true}, line, func(*Header, []byte) bool { n++; return n < 5 })
	if n != 5 {
		t.Errorf("a stop after 5 gave %d", n)
	}
}

// TestScanStop: returning false stops the scan early and leaks nothing
// that blocks.
func TestScanStop(t *testing.T) {
	n := 0
	Scan(context.Background(), Paths([]string{samplesDir}), ScanOptions{Ordered: true}, func(h Header) bool {
		n++
		return n < 3
	})
	if n != 3 {
		t.Errorf("%d delivered after stopping at 3", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	Scan(ctx, Paths([]string{samplesDir}), ScanOptions{}, func(h Header) bool { return true })
}

// TestScanBadFiles: unreadable paths, a file no decoder claims and an
// empty replay-named file come through with a reason.
func TestScanBadFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "empty.slp"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "zip.slp"), []byte("PK\x03\x04zipzipzip"), 0o644)
	os.WriteFile(filepath.Join(dir, "locked.slp"), []byte("{U\x03raw[$U#l"), 0o000)
	got := map[string]Header{}
	Scan(context.Background(), Paths([]string{dir, filepath.Join(dir, "missing.slp")}), ScanOptions{}, func(h Header) bool {
		got[filepath.Base(h.Path)] = h
		return true
	})
	for name, want := range map[string]string{
		"empty.slp":   "not a replay: an empty file",
		"zip.slp":     "not a replay: a zip archive",
		"missing.slp": "no such file",
	} {
		if h := got[name]; !strings.Contains(h.Err, want) || !h.Checked() {
			t.Errorf("%s: %q, want %q", name, h.Err, want)
		}
	}
	if os.Getuid() != 0 {
		if h := got["locked.slp"]; !strings.Contains(h.Err, "permission denied") {
			t.Errorf("locked: %q", h.Err)
		}
	}
}

// TestCheckFile: a full check finds what a header read cannot (the corrupt
// Slippi sample).
func TestCheckFile(t *testing.T) {
	e := Entry{Path: filepath.Join(samplesDir, "slippi", "tests__data__corrupt.slp"), Kind: File}
	h := ReadHeader(e)
	c := CheckFile(e)
	r, _ := decoders.Open(e.Path, model.DecodeOptions{})
	if c.Problems != r.Problems() || c.Problems == 0 || c.First == "" {
		t.Errorf("check %+v, decode has %d problems", c, r.Problems())
	}
	if h.Checked() {
		t.Error("header read counts as checked")
	}
	h.Check = c
	if h.ProblemCount() != c.Problems {
		t.Errorf("problem count %d", h.ProblemCount())
	}
}

func BenchmarkScanCorpus(b *testing.B) {
	dir := corpusDir(b)
	var files int
	for range b.N {
		files = 0
		Scan(context.Background(), Paths([]string{dir}), ScanOptions{}, func(h Header) bool { files++; return true })
	}
	b.ReportMetric(float64(files*b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkScanFirstRow measures what the browser waits for before it
// draws: the time from starting a scan (no index) to the first header,
// delivered as soon as read. REWIND_SCAN_DIR names a bigger folder (the
// 50,000-file archive of issue 13); the default is the shared corpus.
func BenchmarkScanFirstRow(b *testing.B) {
	dir := os.Getenv("REWIND_SCAN_DIR")
	if dir == "" {
		dir = corpusDir(b)
	}
	var first time.Duration
	for range b.N {
		ctx, cancel := context.WithCancel(context.Background())
		start := time.Now()
		Scan(ctx, Paths([]string{dir}), ScanOptions{}, func(h Header) bool {
			first += time.Since(start)
			return false
		})
		cancel()
	}
	b.ReportMetric(float64(first.Microseconds())/float64(b.N)/1000, "ms-to-first")
}

// TestChecker: queued rows are checked in order, a preferred one first,
// each once, and results land in the store and the index.
func TestChecker(t *testing.T) {
	idx, _ := OpenIndex(filepath.Join(t.TempDir(), "index"))
	defer idx.Close()
	var ids []RowID
	ScanRows(context.Background(), Paths([]string{filepath.Join(samplesDir, "slippi")}), ScanOptions{Index: idx, Ordered: true}, nil, func(ss []Scanned) bool {
		for _, s := range ss {
			ids = append(ids, s.ID)
		}
		return true
	})
	c := NewChecker(idx, nil, nil)
	c.Prefer(ids[len(ids)-1])
	c.Add(ids)
	c.Add(ids) // twice: checked once
	seen := map[RowID]bool{}
	first := RowID(0)
	for id := range c.Results() {
		if len(seen) == 0 {
			first = id
		}
		if seen[id] {
			t.Errorf("%d checked twice", id)
		}
		seen[id] = true
		if len(seen) == len(ids) {
			break
		}
	}
	c.Close()
	if first != ids[len(ids)-1] {
		t.Errorf("first checked %d, preferred %d", first, ids[len(ids)-1])
	}
	s := idx.Store()
	for _, id := range ids {
		h := s.Header(id)
		got, ok := idx.Get(h.Path, h.Size, h.ModTime)
		if !ok || got.Check == nil || s.Summary(id) == nil {
			t.Errorf("%s: not in the index with a check and a summary", h.Path)
		}
		if filepath.Base(h.Path) == "tests__data__corrupt.slp" && got.ProblemCount() == 0 {
			t.Errorf("corrupt.slp checked clean")
		}
	}
	// closing twice and adding after close are harmless
	c.Close()
	c.Add(ids[:1])
}
