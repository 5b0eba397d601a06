package library

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
	"unsafe"

	"rewind/model"
)

func sampleHeader(path string, i int) Header {
	return Header{
		Path: path, Kind: File, Size: int64(1000 + i), ModTime: time.Unix(1700000000+int64(i), 123456789),
		Format: model.Format("slippi"), FormatName: "Slippi replay", Version: "3.14.0",
		Start: time.Date(2023, 1, 2, 3, 4, 5, 0, time.FixedZone("", 3600)), Title: "Battlefield", Mode: "online ranked",
		Duration: 8 * time.Minute, Frames: 28800, Rate: 59.94, Unit: "frame",
		Clock: 11*time.Minute + 200*time.Millisecond, ClockName: "game time", Result: "GAME!", Partial: true,
		Players:  []Player{{"P1", "Mang0", "MANG#0", "Fox", "", "1st"}, {"P2", "ザイン", "ZAIN#0", "Marth", "", ""}},
		Problems: 1, Notes: 2, Check: &Check{Problems: 3, Notes: 1, Partial: true, First: "slippi: event 0x55 at 0x12f0: not in Event Payloads"},
	}
}

func TestIndexRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "index")
	x, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sampleHeader(filepath.Join(dir, "a.slp"), 1)
	bare := Header{Path: filepath.Join(dir, "b.slp"), Kind: File, Size: 5, ModTime: time.Unix(5, 0), Err: "not a replay: an empty file", NotReplay: true}
	x.Put(h)
	x.Put(bare)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	y, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := y.Get(h.Path, h.Size, h.ModTime)
	if !ok {
		t.Fatal("not found")
	}
	// times compare by instant and zone offset
	if !got.Start.Equal(h.Start) || !got.ModTime.Equal(h.ModTime) {
		t.Errorf("times: %v %v", got.Start, got.ModTime)
	}
	if _, off := got.Start.Zone(); off != 3600 {
		t.Errorf("zone offset %d", off)
	}
	got.Start, got.ModTime, h.Start, h.ModTime = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, h) {
		t.Errorf("got  %+v\nwant %+v", got, h)
	}
	if b, ok := y.Get(bare.Path, bare.Size, bare.ModTime); !ok || b.Err != bare.Err || !b.NotReplay || b.Check != nil {
		t.Errorf("bare: %+v %v", b, ok)
	}
	// a changed file is a miss
	if _, ok := y.Get(h.Path, h.Size+1, time.Unix(1700000001, 123456789)); ok {
		t.Error("a bigger file hit")
	}
	if _, ok := y.Get(h.Path, h.Size, time.Unix(1700000002, 0)); ok {
		t.Error("a newer file hit")
	}
	// relative paths resolve against the working directory
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, h.Path)
	if _, ok := y.Get(rel, 1001, time.Unix(1700000001, 123456789)); !ok {
		t.Error("relative path missed")
	}
}

// TestIndexDamage: every kind of damage gives an index that works, keeps
// what came before the damage, and is rewritten whole on the next flush.
func TestIndexDamage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index")
	x, _ := OpenIndex(path)
	// nine blocks of one record, then a block of one more: damage to the
	// last block keeps the nine before it
	for i := range 10 {
		x.Put(sampleHeader(fmt.Sprintf("/r/%d.slp", i), i))
		if err := x.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	line := len(indexMagic) + len(buildID()) + 1
	for _, c := range []struct {
		name string
		data []byte
		keep int
	}{
		{"empty", nil, 0},
		{"garbage", []byte("\x00\x01garbage that is no index at all"), 0},
		{"other build", append([]byte(indexMagic+"someone-else\n"), good[line:]...), 0},
		{"cut mid-record", good[:len(good)-7], 9},
		{"flipped byte", flip(good, len(good)-20), 9},
		{"huge length", hugeLength(good, line), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(path, c.data, 0o600)
			y, err := OpenIndex(path)
			if err != nil {
				t.Fatal(err)
			}
			if y.Len() != c.keep {
				t.Errorf("kept %d, want %d", y.Len(), c.keep)
			}
			y.Put(sampleHeader("/r/new.slp", 99))
			if err := y.Close(); err != nil {
				t.Fatal(err)
			}
			z, _ := OpenIndex(path)
			if z.rewrite || z.Len() != c.keep+1 {
				t.Errorf("after rewrite: damaged %v, %d entries", z.rewrite, z.Len())
			}
		})
	}
	// an index path that is a folder cannot be used, but scanning goes on
	os.Remove(path)
	os.Mkdir(path, 0o755)
	y, err := OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	y.Put(sampleHeader("/r/x.slp", 1))
	if err := y.Close(); err == nil {
		t.Error("writing over a folder: no error")
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x40
	return c
}

func hugeLength(b []byte, at int) []byte {
	c := append([]byte(nil), b...)
	c[at], c[at+1], c[at+2], c[at+3] = 0xff, 0xff, 0xff, 0x7f
	return c
}

// TestIndexConcurrent: two indexes on one file (two rewind processes)
// append at once and one compacts meanwhile; every record survives.
func TestIndexConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	a, _ := OpenIndex(path)
	b, _ := OpenIndex(path)
	var wg sync.WaitGroup
	for w, x := range []*Index{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				x.Put(sampleHeader(fmt.Sprintf("/r/%d-%d.slp", w, i), i))
				if i%50 == 49 {
					if err := x.Flush(); err != nil {
						t.Error(err)
					}
				}
				if w == 1 && i == 250 {
					x.ioMu.Lock()
					if err := x.locked(func() error { return x.compact(false) }); err != nil {
						t.Error(err)
					}
					x.ioMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	a.Close()
	b.Close()
	c, _ := OpenIndex(path)
	if c.Len() != 1000 || c.rewrite {
		t.Errorf("%d entries, damaged %v", c.Len(), c.rewrite)
	}
}

// TestIndexCompact: superseded records go at Close once they outnumber the
// live ones, and so do files that no longer exist.
func TestIndexCompact(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index")
	file := filepath.Join(dir, "real.slp")
	os.WriteFile(file, []byte("x"), 0o644)
	st, _ := os.Stat(file)
	x, _ := OpenIndex(path)
	real := Header{Path: file, Kind: File, Size: st.Size(), ModTime: st.ModTime()}
	x.Put(real)
	x.Flush() // the file exists: later flushes append
	for range 3000 {
		x.Put(real)
	}
	x.Put(sampleHeader(filepath.Join(dir, "gone.slp"), 1))
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	y, _ := OpenIndex(path)
	y.wait()
	if y.records != 1 || y.Len() != 1 {
		t.Errorf("records %d, entries %d", y.records, y.Len())
	}
	if _, ok := y.Get(file, real.Size, real.ModTime); !ok {
		t.Error("live entry lost")
	}
}

func BenchmarkIndexOpen(b *testing.B) {
	path := filepath.Join(b.TempDir(), "index")
	x, _ := OpenIndex(path)
	for i := range 50000 {
		x.Put(sampleHeader(fmt.Sprintf("/home/someone/replays/2023/%05d/Game_20230101T%06d.slp", i/500, i), i))
	}
	x.Close()
	st, _ := os.Stat(path)
	b.ReportMetric(float64(st.Size())/50000, "bytes/entry")
	b.ResetTimer()
	for range b.N {
		y, _ := OpenIndex(path)
		if y.Len() != 50000 {
			b.Fatal(y.Len())
		}
	}
}

// TestRowSize: a row of the store stays as small as it was made (the
// browser holds a million).
func TestRowSize(t *testing.T) {
	if n := unsafe.Sizeof(rowRec{}); n > 88 {
		t.Errorf("rowRec is %d bytes", n)
	}
	if n := unsafe.Sizeof(playerRec{}); n > 12 {
		t.Errorf("playerRec is %d bytes", n)
	}
}

// TestTextRevision: a row's text revision changes when its text key does,
// whether this process put the row or read it from another's block, and
// not when another row is written or the row is written with the same
// text (a check of the file, a new size).
func TestTextRevision(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	a, _ := OpenIndex(path)
	defer a.Close()
	p := sampleHeader("/r/p.slp", 1)
	a.Put(p)
	if err := a.Flush(); err != nil {
		t.Fatal(err)
	}
	b, _ := OpenIndex(path)
	defer b.Close()
	rev := func(x *Index, path string) uint16 {
		var r uint16
		x.Store().Read([]RowID{mustLookup(t, x, path)}, func(_ int, row Row) { r = row.TextRevision() })
		return r
	}
	loaded := rev(b, p.Path)
	b.Put(sampleHeader("/r/q.slp", 2)) // another row
	if got := rev(b, p.Path); got != loaded {
		t.Errorf("another row's put: revision %d -> %d", loaded, got)
	}
	put := rev(a, p.Path)
	p.Size, p.Check = 2000, &Check{Problems: 7}
	a.Put(p)
	if got := rev(a, p.Path); got != put {
		t.Errorf("a put of the row with the same text: revision %d -> %d", put, got)
	}
	for _, change := range []func(h *Header){
		func(h *Header) { h.Players[0].Character = "Falco" },
		func(h *Header) { h.Players[1].Name = "Zain" },
		func(h *Header) { h.Players[1].Team = "Red" },
		func(h *Header) { h.Players = h.Players[:1] },
		func(h *Header) { h.Title = "Final Destination" },
		func(h *Header) { h.Mode = "unranked" },
		func(h *Header) { h.Err = "cut short" },
		func(h *Header) { h.Format = "osu" },
	} {
		change(&p)
		a.Put(p)
		if got := rev(a, p.Path); got == put {
			t.Errorf("%+v: the row's text changed and its revision stayed %d", p, got)
		}
		put = rev(a, p.Path)
	}
	if err := a.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(); err != nil { // reads a's blocks before its own
		t.Fatal(err)
	}
	if got := rev(b, p.Path); got == loaded {
		t.Errorf("the row read again from the other process's block kept its revision %d", got)
	}
	if h := b.Store().Header(mustLookup(t, b, p.Path)); h.Format != "osu" {
		t.Errorf("the other process's block was not read: %q", h.Format)
	}
}

func mustLookup(t *testing.T, x *Index, path string) RowID {
	t.Helper()
	id, ok := x.Store().Lookup(path)
	if !ok {
		t.Fatalf("%s: no row", path)
	}
	return id
}
