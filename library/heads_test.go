package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"rewind/model"
)

// TestSummaryHeadAlone: a blob's head, read alone (an aggregation's
// read), gives what the whole blob gives without its moments, and a
// damaged head is refused both ways, never read as other numbers; damage
// to the moments does not touch the head.
func TestSummaryHeadAlone(t *testing.T) {
	for _, s := range []*Summary{sampleSummary(), {}, {Err: "not a replay: an empty file"}, {Generic: true, Summary: model.Summary{Players: []model.PlayerSummary{{Outcome: model.OutcomeDraw}}}}} {
		blob := encodeSummary(nil, s)
		want, err := decodeSummary(blob, false)
		if err != nil {
			t.Fatal(err)
		}
		var hb headBatch
		hb.reset(1)
		hb.take(0, blob)
		head, ok, _ := hb.head(0)
		if !ok {
			t.Fatalf("%+v: no head", s)
		}
		var room summaryRoom
		got, err := room.head(head)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("head alone: %+v %v\nwant %+v", got, err, want)
		}
		at, n, _, _ := headAt(blob)
		for _, flip := range []int{at, at + n - 1, at + n/2} {
			bad := append([]byte(nil), blob...)
			bad[flip] ^= 0x20
			hb.reset(1)
			if hb.take(0, bad); hb.spots[0].at != blobDamaged {
				t.Errorf("%+v: a head with byte %d flipped read", s, flip)
			}
			if _, err := decodeSummary(bad, false); err == nil {
				t.Errorf("%+v: a blob with head byte %d flipped decoded", s, flip)
			}
		}
		if len(blob) > at+n {
			bad := append([]byte(nil), blob...)
			bad[len(bad)-1] ^= 0x20
			hb.reset(1)
			if hb.take(0, bad); hb.spots[0].at < 0 {
				t.Errorf("%+v: damage to the moments refused the head", s)
			}
		}
	}
}

// TestScanIntoAsScan: ScanInto hands add, in walk order, the headers and
// summaries (without moments) Scan delivers, whether the files are read
// (a first scan), their rows found in the index's memory (a second), or
// their summaries' heads read from the index file (a new process); a
// summary whose head is damaged in the file is made again from its
// replay.
func TestScanIntoAsScan(t *testing.T) {
	dir := t.TempDir()
	Walk([]string{samplesDir}, func(e Entry) bool {
		if e.Kind == File {
			data, _ := os.ReadFile(e.Path)
			os.WriteFile(filepath.Join(dir, filepath.Base(e.Path)), data, 0o644)
		}
		return true
	})
	type seen struct {
		Path    string
		Err     string
		Players []Player
		Sum     *Summary
	}
	keep := func(h *Header) seen {
		s := seen{Path: h.Path, Err: h.Err, Players: append([]Player(nil), h.Players...)}
		if h.Summary != nil {
			c := *h.Summary
			c.Moments = nil
			c.Players = nil
			for _, p := range h.Summary.Players {
				c.Players = append(c.Players, model.PlayerSummary{Outcome: p.Outcome, Stats: append([]model.Stat(nil), p.Stats...)})
			}
			s.Sum = &c
		}
		return s
	}
	var want []seen
	Scan(context.Background(), Paths([]string{dir}), ScanOptions{Ordered: true, Summaries: true, NoMoments: true}, func(h Header) bool {
		want = append(want, keep(&h))
		return true
	})
	path := filepath.Join(t.TempDir(), "index")
	x, _ := OpenIndex(path)
	into := func(x *Index) []seen {
		var got []seen
		opt := ScanOptions{Index: x, Ordered: true, Summaries: true, NoMoments: true}
		ScanInto(context.Background(), Paths([]string{dir}), opt, func() *[]seen { return new([]seen) },
			func(b *[]seen, h *Header) { *b = append(*b, keep(h)) },
			func(b *[]seen) bool { got = append(got, *b...); *b = (*b)[:0]; return true })
		return got
	}
	for _, pass := range []string{"read", "in memory"} {
		if got := into(x); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %d headers, want %d\n%+v\nwant\n%+v", pass, len(got), len(want), got, want)
		}
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	y, _ := OpenIndex(path)
	full, reads := fullReads.Load(), sumReads.Load()
	if got := into(y); !reflect.DeepEqual(got, want) {
		t.Errorf("from the file: %+v\nwant\n%+v", got, want)
	}
	if fullReads.Load() != full || sumReads.Load() == reads {
		t.Errorf("from the file: %d replays decoded, %d summaries read", fullReads.Load()-full, sumReads.Load()-reads)
	}
	// a byte of a head in the file flipped: that replay is decoded again
	var victim string
	for _, w := range want {
		if w.Sum != nil && len(w.Sum.Players) > 0 && w.Sum.Err == "" {
			victim = w.Path
			break
		}
	}
	id, _ := y.Store().Lookup(victim)
	ref, _ := y.s.sumRef(y.s.rec(id))
	y.release()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	start := make([]byte, 4+maxHeadPrefix)
	f.ReadAt(start, int64(ref&(1<<40-1)))
	at, n, _, ok := headAt(start[4:])
	if !ok {
		t.Fatalf("%s: no head at %d", victim, ref&(1<<40-1))
	}
	flip := int64(ref&(1<<40-1)) + 4 + int64(at+n-1)
	b := make([]byte, 1)
	f.ReadAt(b, flip)
	f.WriteAt([]byte{b[0] ^ 0x10}, flip)
	f.Close()
	z, _ := OpenIndex(path)
	defer z.Close()
	full = fullReads.Load()
	if got := into(z); !reflect.DeepEqual(got, want) {
		t.Errorf("a damaged head: %+v\nwant\n%+v", got, want)
	}
	if n := fullReads.Load() - full; n != 1 {
		t.Errorf("a damaged head: %d replays decoded, want 1", n)
	}
}

// TestReadStats: a store's rows read in batches (the aggregate view's
// read) are their headers, without the path, and their summaries without
// moments, whether the summaries are in the index file or in the store's
// memory.
func TestReadStats(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	x, _ := OpenIndex(path)
	own := newStore("/")
	var paths []string
	Scan(context.Background(), Paths([]string{samplesDir}), ScanOptions{Index: x, Ordered: true, Summaries: true}, func(h Header) bool {
		if h.Kind == File {
			paths = append(paths, h.Path)
			own.Put(&h)
		}
		return true
	})
	x.Close()
	y, _ := OpenIndex(path)
	defer y.Close()
	for name, c := range map[string]struct {
		s *Store
		x *Index
	}{"index": {y.Store(), y}, "own store": {own, nil}} {
		var ids []RowID
		for _, p := range paths {
			id, ok := c.s.Lookup(p)
			if !ok {
				t.Fatalf("%s: no row for %s", name, p)
			}
			// each row twice, so that a batch has more than one file's
			// spans and the second read of a row follows another's
			ids = append(ids, id, id)
		}
		withStats := 0
		c.s.ReadStats(c.x, ids, func(i int, h *Header) {
			want := c.s.Header(ids[i])
			want.Path = ""
			got := *h
			got.Summary = nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s: header %+v\nwant %+v", name, paths[i/2], got, want)
			}
			sum := c.s.SummaryStats(ids[i])
			if (h.Summary == nil) != (sum == nil) || sum != nil && !reflect.DeepEqual(*h.Summary, *sum) {
				t.Errorf("%s, %s: summary %+v\nwant %+v", name, paths[i/2], h.Summary, sum)
			}
			if sum != nil && len(sum.Players) > 0 && len(sum.Players[0].Stats) > 0 {
				withStats++
			}
		})
		if withStats < 8 {
			t.Errorf("%s: %d rows with stats: the test tests nothing", name, withStats)
		}
	}
}

// TestHeadAtShort: the start of a blob cut before its head begins is
// refused, never read past.
func TestHeadAtShort(t *testing.T) {
	blob := encodeSummary(nil, sampleSummary())
	at, _, _, ok := headAt(blob)
	if !ok {
		t.Fatal("no head")
	}
	for n := range at {
		if _, _, _, ok := headAt(blob[:n]); ok {
			t.Errorf("a start of %d bytes read", n)
		}
	}
}

// TestReadStatsOneByOne: rows read alone, or far apart in the index file,
// have their heads read one at a time, not mapped; a head longer than the
// first read of it is read whole.
func TestReadStatsOneByOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	x, _ := OpenIndex(path)
	var want []*Summary
	for i := range 3 {
		s := sampleSummary()
		s.Partial = false
		if i == 1 {
			// a head of some 3 kB
			for k := range 300 {
				s.Players[1].Stats = append(s.Players[1].Stats, model.Stat{Key: "moves", Name: strings.Repeat("m", k%40), Value: float64(k)})
			}
		}
		if at, n, _, _ := headAt(encodeSummary(nil, s)); i == 1 && at+n <= headGuess {
			t.Fatalf("a head of %d bytes: the test tests nothing", n)
		}
		x.Put(Header{Path: filepath.Join("/replays", fmt.Sprint(i, ".slp")), Kind: File, Size: 10, Format: "slippi", Summary: s})
		lean := *s
		lean.Moments = nil
		want = append(want, &lean)
	}
	x.Close()
	y, _ := OpenIndex(path)
	defer y.Close()
	for i, w := range want {
		id, _ := y.Store().Lookup(filepath.Join("/replays", fmt.Sprint(i, ".slp")))
		reads := sumReads.Load()
		y.Store().ReadStats(y, []RowID{id}, func(_ int, h *Header) {
			if h.Summary == nil || !reflect.DeepEqual(*h.Summary, *w) {
				t.Errorf("%d: %+v\nwant %+v", i, h.Summary, w)
			}
		})
		if sumReads.Load() == reads {
			t.Errorf("%d: not read from the file", i)
		}
	}
}
