package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"rewind/library"
	"rewind/library/aggregate"
	"rewind/model"
)

// sampleGames are the replays of testdata/samples and, when it is there,
// the corpus, with their summaries, as moments gets them from a scan.
func sampleGames(t *testing.T) []aggregate.Game {
	t.Helper()
	sampled.Do(func() { sampled.games = scanGames(t) })
	return sampled.games
}

var sampled struct {
	sync.Once
	games []aggregate.Game
}

func scanGames(t *testing.T) []aggregate.Game {
	paths := []string{"testdata/samples"}
	if fileExists("../shared/corpus") {
		paths = append(paths, "../shared/corpus")
	} else {
		t.Log("../shared/corpus is absent: the samples only")
	}
	var games []aggregate.Game
	library.Scan(context.Background(), library.Paths(paths), library.ScanOptions{Ordered: true, Summaries: true}, func(h library.Header) bool {
		if g := aggregate.FromHeader(&h); g.Summary != nil && len(g.Summary.Moments) > 0 {
			games = append(games, g)
		}
		return true
	})
	return games
}

// sortedLines is what a sorter hands out, as moments --json and its lines
// write them.
func sortedLines(t *testing.T, s *momentSorter) []string {
	t.Helper()
	var lines []string
	err := s.each(context.Background(), func(g *gameView, m *model.MomentRecord) bool {
		b, err := json.Marshal(momentJSON(g, m))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b)+"\n"+momentLine(g.path, g, m))
		return true
	})
	if err != nil {
		t.Fatalf("each: %v", err)
	}
	return lines
}

// spillFiles are the sorter's files still in dir, and, where the system
// shows them (Linux), those this process still has open.
func spillFiles(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		found = append(found, e.Name())
	}
	if runtime.GOOS == "linux" {
		fds, _ := os.ReadDir("/proc/self/fd")
		for _, fd := range fds {
			if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
				found = append(found, "open: "+target)
			}
		}
	}
	return found
}

// A sort that spills (a run of a few kilobytes: many runs on the real
// replays, merged) hands out the moments in the order, and as, the sort
// in memory does, in every order; its file is gone from the folder while
// it merges and closed after.
func TestMomentSorterSpills(t *testing.T) {
	games := sampleGames(t)
	for _, by := range []string{"date", "damage", "length"} {
		t.Run(by, func(t *testing.T) {
			mem := &momentSorter{by: by, runBytes: 1 << 40, dir: t.TempDir()}
			dir := t.TempDir()
			spilled := &momentSorter{by: by, runBytes: 16 << 10, dir: dir}
			for i := range games {
				if err := mem.add(&games[i]); err != nil {
					t.Fatal(err)
				}
				if err := spilled.add(&games[i]); err != nil {
					t.Fatal(err)
				}
			}
			if len(mem.runs) != 0 {
				t.Fatalf("the sort in memory wrote %d runs", len(mem.runs))
			}
			want := sortedLines(t, mem)
			if len(spilled.runs) < 3 {
				t.Fatalf("%d runs written: the test wants several merged", len(spilled.runs))
			}
			if files := spillFiles(t, dir); runtime.GOOS == "linux" && len(files) != 1 {
				t.Errorf("while sorting: %v, want only the file, open, gone from the folder", files)
			}
			got := sortedLines(t, spilled)
			if len(got) != len(want) {
				t.Fatalf("%d moments, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("moment %d:\n%s\nwant\n%s", i, got[i], want[i])
				}
			}
			spilled.close()
			if files := spillFiles(t, dir); len(files) != 0 {
				t.Errorf("after the sort: %v left", files)
			}
		})
	}
}

// A sort that fails, or is interrupted, leaves no file behind either.
func TestMomentSorterCleansUp(t *testing.T) {
	games := sampleGames(t)
	fill := func(t *testing.T, dir string) *momentSorter {
		s := &momentSorter{by: "damage", runBytes: 16 << 10, dir: dir}
		for i := range games {
			if err := s.add(&games[i]); err != nil {
				t.Fatal(err)
			}
		}
		if len(s.runs) < 2 {
			t.Fatalf("%d runs", len(s.runs))
		}
		return s
	}
	t.Run("interrupted", func(t *testing.T) {
		dir := t.TempDir()
		s := fill(t, dir)
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		err := s.each(ctx, func(*gameView, *model.MomentRecord) bool {
			if n++; n == 100 {
				cancel()
			}
			return true
		})
		if err != context.Canceled || n >= 100+256 {
			t.Errorf("each after cancel: %v, %d moments handed out", err, n)
		}
		s.close()
		if files := spillFiles(t, dir); len(files) != 0 {
			t.Errorf("%v left", files)
		}
	})
	t.Run("file damaged", func(t *testing.T) {
		dir := t.TempDir()
		s := fill(t, dir)
		if err := s.file.Truncate(s.runs[1].off + s.runs[1].n/2); err != nil {
			t.Fatal(err)
		}
		err := s.each(context.Background(), func(*gameView, *model.MomentRecord) bool { return true })
		if err == nil {
			t.Errorf("a damaged run read back without an error")
		}
		s.close()
		if files := spillFiles(t, dir); len(files) != 0 {
			t.Errorf("%v left", files)
		}
	})
	t.Run("no folder", func(t *testing.T) {
		dir := t.TempDir()
		s := &momentSorter{by: "length", runBytes: 16 << 10, dir: filepath.Join(dir, "gone")}
		var err error
		for i := range games {
			if err = s.add(&games[i]); err != nil {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), "sorting the moments") {
			t.Errorf("spilling into a missing folder: %v", err)
		}
		s.close()
		if files := spillFiles(t, dir); len(files) != 0 {
			t.Errorf("%v left", files)
		}
	})
}

// The command writes the same bytes whether its sort spills or not, in
// every order, as lines and as JSON; and the date order over the index
// (replay by replay, in the order of their starts) is the sort's by date
// without it (--no-cache, spilled), byte for byte.
func TestMomentsSpilledSameAsInMemory(t *testing.T) {
	paths := []string{"testdata/samples"}
	if fileExists("../shared/corpus") {
		paths = append(paths, "../shared/corpus")
	}
	cache := t.TempDir()
	t.Setenv(library.CacheEnv, cache)
	moments := func(runBytes int, args ...string) (string, int) {
		t.Helper()
		defer func(n int) { momentRunBytes = n }(momentRunBytes)
		momentRunBytes = runBytes
		var out, errb bytes.Buffer
		code := run(append(append([]string{"moments"}, args...), append(paths, "")...), &out, &errb)
		return out.String(), code
	}
	const inMemory, small = 1 << 40, 16 << 10
	for _, json := range []string{"", "--json"} {
		for _, by := range []string{"date", "damage", "length"} {
			args := []string{"--sort", by}
			if json != "" {
				args = append(args, json)
			}
			want, wantCode := moments(inMemory, args...)
			if strings.Count(want, "\n") < 900 || wantCode != 0 && wantCode != 2 {
				t.Fatalf("moments %v: %d lines, exit %d", args, strings.Count(want, "\n"), wantCode)
			}
			if by == "date" {
				args = append(args, "--no-cache") // the order over the index writes as it reads: no sort
			}
			if got, code := moments(small, args...); got != want || code != wantCode {
				t.Errorf("moments %v: spilled %d lines (exit %d), in memory %d (exit %d)", args, strings.Count(got, "\n"), code, strings.Count(want, "\n"), wantCode)
			}
		}
	}
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "rewind-moments-") {
			t.Errorf("%s left in the cache folder", e.Name())
		}
	}
}

// The date order over the index writes each path as the walk spelled it,
// though the index knows the replays by another spelling of their folder:
// as the sort without the index does.
func TestMomentsByDateKeepsPathsAsWalked(t *testing.T) {
	t.Setenv(library.CacheEnv, t.TempDir())
	abs, err := filepath.Abs("testdata/samples")
	if err != nil {
		t.Fatal(err)
	}
	moments := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(append([]string{"moments"}, args...), &out, &errb); code != 0 {
			t.Fatalf("moments %v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	moments("testdata/samples", "") // fills the index
	for _, dir := range []string{"testdata/samples", "./testdata/samples", "testdata/../testdata/samples/", abs} {
		want := moments("--no-cache", dir, "")
		if got := moments(dir, ""); got != want {
			t.Errorf("moments %s over the index differs from --no-cache (%d and %d bytes)", dir, len(got), len(want))
		}
		if !strings.Contains(want, dir) && !strings.Contains(want, filepath.Clean(dir)) {
			t.Errorf("moments %s names no path under it", dir)
		}
	}
}
