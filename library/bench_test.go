package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"rewind/internal/cputime"
	"rewind/model"
)

// synthHeader is the i-th header of a synthetic archive: nested folders of
// 750 files, players, characters and stages drawn from small pools as in a
// real one, a check on some, a summary on a few.
func synthHeader(root string, i int) Header {
	chars := []string{"Fox", "Falco", "Marth", "Sheik", "Jigglypuff", "Captain Falcon", "Peach", "Ice Climbers"}
	stages := []string{"Battlefield", "Final Destination", "Yoshi's Story", "Dream Land N64", "Fountain of Dreams", "Pokémon Stadium"}
	k := i / 750
	dir := fmt.Sprintf("%s/%d/%02d/%02d", root, 2019+k/336, k/28%12+1, k%28+1)
	h := Header{
		Path: fmt.Sprintf("%s/Game_%04d%02d%02dT%06d.slp", dir, 2019+k/336, k/28%12+1, k%28+1, i%1000000),
		Kind: File, Size: int64(1_000_000 + i%100_000), ModTime: time.Unix(1_700_000_000+int64(i), 0),
		Format: model.Format("slippi"), FormatName: "Slippi replay", Version: "3.14.0",
		Start: time.Unix(1_600_000_000+int64(i)*97, 0).UTC(), Title: stages[i%len(stages)], Mode: "online ranked",
		Duration: time.Duration(60+i%400) * time.Second, Frames: 3600 + i%24000, Rate: 60, Unit: "frame", Result: "GAME!",
		Players: []Player{
			{Slot: "P1", Name: fmt.Sprintf("player%d", i%500), Code: fmt.Sprintf("PL%d#%d", i%500, i%500), Character: chars[i%len(chars)], Result: "1st"},
			{Slot: "P2", Name: fmt.Sprintf("player%d", (i*7)%500), Code: fmt.Sprintf("PL%d#%d", (i*7)%500, (i*7)%500), Character: chars[(i/3)%len(chars)], Result: "2nd"},
		},
	}
	if i%3 == 0 {
		h.Check = &Check{Problems: i % 2}
	}
	return h
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// BenchmarkStoreRows fills a store with a million synthetic rows and reports
// what a row costs in memory (the browser and a warm scan hold one per
// replay) and what putting one costs.
func BenchmarkStoreRows(b *testing.B) {
	const n = 1_000_000
	hs := make([]Header, 0, 10_000)
	for i := range cap(hs) {
		hs = append(hs, synthHeader("/home/someone/replays", i))
	}
	for range b.N {
		before := heapInUse()
		s := newStore("/")
		start := time.Now()
		for i := range n {
			h := hs[i%len(hs)]
			h.Path = fmt.Sprintf("/home/someone/replays/%d/%02d/Game_%07d.slp", i/100000, i/750%100, i)
			s.Put(&h)
		}
		took := time.Since(start)
		after := heapInUse()
		b.ReportMetric(float64(after-before)/n, "bytes/row")
		b.ReportMetric(float64(took.Nanoseconds())/n, "ns/put")
		runtime.KeepAlive(s)
	}
}

// writeSynthIndex writes an index of n synthetic rows at path.
func writeSynthIndex(tb testing.TB, path string, n int) {
	x, err := OpenIndex(path)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		h := synthHeader("/home/someone/replays", i)
		x.Put(h)
	}
	if err := x.Close(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkIndexOpenMillion reads a million-row index into its store: the
// wait before a warm scan or the browser can answer.
func BenchmarkIndexOpenMillion(b *testing.B) {
	path := filepath.Join(b.TempDir(), "index")
	writeSynthIndex(b, path, 1_000_000)
	st, _ := os.Stat(path)
	b.ReportMetric(float64(st.Size())/1e6, "bytes/row")
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		before := heapInUse() // two collections, not part of the open
		b.StartTimer()
		x, _ := OpenIndex(path)
		if x.Len() != 1_000_000 {
			b.Fatal(x.Len())
		}
		b.StopTimer()
		b.ReportMetric(float64(heapInUse()-before)/1e6, "heap-bytes/row")
		x.release()
		b.StartTimer()
	}
}

// BenchmarkScanWarmMillion is a warm ordered scan (info) of a million rows
// from the index, with the walk replaced by entries that match them: what
// a scan costs beyond the system calls of the walk.
func BenchmarkScanWarmMillion(b *testing.B) {
	path := filepath.Join(b.TempDir(), "index")
	const n = 1_000_000
	writeSynthIndex(b, path, n)
	x, _ := OpenIndex(path)
	defer x.release()
	entries := make([]Entry, n)
	for i := range entries {
		h := synthHeader("/home/someone/replays", i)
		entries[i] = Entry{Path: h.Path, Kind: File, Size: h.Size, ModTime: h.ModTime}
	}
	walk := func(yield func(Entry) bool) {
		for _, e := range entries {
			if !yield(e) {
				return
			}
		}
	}
	b.ResetTimer()
	cpu := cputime.Used()
	for range b.N {
		got := 0
		Scan(context.Background(), walk, ScanOptions{Index: x, Ordered: true}, func(h Header) bool {
			got++
			return true
		})
		if got != n {
			b.Fatal(got)
		}
	}
	b.ReportMetric(float64((cputime.Used()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// millionStore is a store of a million synthetic rows, made once.
var millionStore = sync.OnceValues(func() (*Store, []RowID) {
	s := newStore("/")
	ids := make([]RowID, 1_000_000)
	for i := range ids {
		h := synthHeader("/home/someone/replays", i)
		ids[i] = s.Put(&h)
	}
	return s, ids
})

// BenchmarkFilterMillion is one filter keystroke over a million rows: the
// browser's target is 100 ms.
func BenchmarkFilterMillion(b *testing.B) {
	s, ids := millionStore()
	for _, text := range []string{"f", "fo", "fox", "char:fox", "fox>marth", "player42", "battlefield -char:sheik", "len:>5m", "game 2020", "marht"} {
		q, err := ParseQuery(text)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(text, func(b *testing.B) {
			kept := 0
			cpu := cputime.Used()
			for range b.N {
				got, _, _ := q.Matcher(s, "").Filter(context.Background(), ids)
				kept = len(got)
			}
			b.ReportMetric(float64(kept), "rows")
			b.ReportMetric(float64((cputime.Used()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkWalk walks 20 folders of 1,000 empty replays each (the walk
// lists and stats; nothing is read) and reports what a file costs: the
// walk of a million files is this times a million, divided by the cores.
func BenchmarkWalk(b *testing.B) {
	root := b.TempDir()
	const folders, each = 20, 1000
	for d := range folders {
		dir := filepath.Join(root, fmt.Sprintf("%02d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for i := range each {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("Game_20240101T%06d.slp", i)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Used()
	for range b.N {
		n := 0
		walkBatches([]string{root}, func(batch []Entry) bool { n += len(batch); return true })
		if n != folders*each {
			b.Fatalf("walked %d files, want %d", n, folders*each)
		}
	}
	b.ReportMetric(float64((cputime.Used()-cpu).Nanoseconds())/float64(b.N*folders*each), "cpu-ns/file")
}
