package library

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"rewind/model"
)

func sampleSummary() *Summary {
	return &Summary{
		Partial: true,
		Summary: model.Summary{
			First: -123, Last: 28800,
			Players: []model.PlayerSummary{
				{Outcome: model.OutcomeWin, Stats: []model.Stat{
					{Key: "kills", Value: 4}, {Key: "damage", Value: 512.25}, {Key: "openingsPerKill", Value: 3.1666666666666665},
					{Key: "killMoves", Name: "up smash", Value: 2}, {Key: "negative", Value: -7}, {Key: "tiny", Value: 1e-300}, {Key: "big", Value: 1 << 60},
				}},
				{Outcome: model.OutcomeQuit},
				{},
			},
			Moments: []model.MomentRecord{
				{Kind: model.MomentStock, Frame: -123, End: -123, Time: 0, EndTime: 0, By: 0, On: 1},
				{Kind: model.MomentCombo, Frame: 500, End: 620, Time: 10.383333333333333, EndTime: 12.383333333333333, By: 1, On: 0,
					Facts: model.MomentFacts{Damage: 47.5, Hits: 6, Kill: true, Move: "up smash", StartPercent: 91, EndPercent: 138.5}},
				{Kind: model.MomentTrain, Frame: 20, End: 20, Time: 1.25, EndTime: 1.25, By: -1, On: -1, Facts: model.MomentFacts{Move: "Marine"}},
			},
		},
	}
}

// TestSummaryBlob: a summary survives its blob exactly, floats included.
func TestSummaryBlob(t *testing.T) {
	for _, s := range []*Summary{sampleSummary(), {}, {Err: "not a replay: an empty file"}, {Generic: true, Summary: model.Summary{Players: []model.PlayerSummary{{Outcome: model.OutcomeDraw}}}}} {
		blob := encodeSummary(nil, s)
		got, err := decodeSummary(blob, true)
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("got  %+v\nwant %+v", got, s)
		}
		// without the moments: the rest the same
		lean, err := decodeSummary(blob, false)
		want := *s
		want.Moments = nil
		if err != nil || !reflect.DeepEqual(lean, &want) {
			t.Errorf("without moments: %+v %v\nwant %+v", lean, err, &want)
		}
	}
	// -0 and NaN keep their bits
	s := &Summary{Summary: model.Summary{Players: []model.PlayerSummary{{Stats: []model.Stat{{Key: "z", Value: math.Copysign(0, -1)}, {Key: "n", Value: math.NaN()}}}}}}
	got, err := decodeSummary(encodeSummary(nil, s), true)
	if err != nil || !math.Signbit(got.Players[0].Stats[0].Value) || !math.IsNaN(got.Players[0].Stats[1].Value) {
		t.Errorf("-0 and NaN: %+v %v", got, err)
	}
}

// TestSummaryBlobDamaged: every cut and every flipped byte of a blob gives
// an error or a summary, never a panic or an allocation beyond the blob.
func TestSummaryBlobDamaged(t *testing.T) {
	blob := encodeSummary(nil, sampleSummary())
	for n := range len(blob) {
		if _, err := decodeSummary(blob[:n], true); err == nil {
			t.Errorf("cut at %d of %d: no error", n, len(blob))
		}
	}
	for i := range blob {
		for _, bit := range []byte{0x01, 0x40, 0x80} {
			b := append([]byte(nil), blob...)
			b[i] ^= bit
			decodeSummary(b, true)
			decodeSummary(b, false)
		}
	}
	// a count far beyond the bytes is refused before anything is made
	huge := []byte{summaryVersion, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f, 0}
	if _, err := decodeSummary(huge, false); err == nil {
		t.Error("a billion players in ten bytes: no error")
	}
}

func TestOutcomeOf(t *testing.T) {
	for word, want := range map[string]model.Outcome{
		"Win": model.OutcomeWin, "Loss": model.OutcomeLoss, "Tie": model.OutcomeDraw, // sc2 details
		"1st": model.OutcomeWin, "2nd": model.OutcomeLoss, "4th": model.OutcomeLoss, "LRAS": model.OutcomeQuit, // slippi placements
		"cleared": model.OutcomeWin, "failed": model.OutcomeLoss, // bsor
		"finished": model.OutcomeUnknown, "finished 1:23.456": model.OutcomeUnknown, "": model.OutcomeUnknown,
		"12th": model.OutcomeLoss, "no contest": model.OutcomeNoContest,
	} {
		if got := outcomeOf(word); got != want {
			t.Errorf("%q: %q, want %q", word, got, want)
		}
	}
}

// TestSummaryOfSample: slippi-js placings.spec.ts:18-27 says the winner of
// unranked_game1 is player index 1, not the one who quit.
func TestSummaryOfSample(t *testing.T) {
	h := ReadFull(Entry{Path: filepath.Join(samplesDir, "slippi", "slp__unranked_game1.slp"), Kind: File})
	s := h.Summary
	if s == nil || !s.Usable() || len(s.Players) != 2 {
		t.Fatalf("summary %+v", s)
	}
	if s.Players[1].Outcome != model.OutcomeWin || s.Players[0].Outcome == model.OutcomeWin {
		t.Errorf("outcomes %q %q", s.Players[0].Outcome, s.Players[1].Outcome)
	}
	if s.Partial != h.Check.Partial {
		t.Errorf("partial %v, check says %v", s.Partial, h.Check.Partial)
	}
	// Slippi counts frames from -123 (the spec's frame index)
	if s.First != -123 || s.Last <= 0 {
		t.Errorf("frames %d..%d", s.First, s.Last)
	}
	// a file that is no replay has a summary that says why
	bad := ReadFull(Entry{Path: filepath.Join(samplesDir, "slippi", "MANIFEST.tsv"), Kind: File})
	if bad.Summary == nil || bad.Summary.Usable() || bad.Summary.Err == "" {
		t.Errorf("manifest: %+v", bad.Summary)
	}
}

// TestIndexSummaries: a Summaries scan decodes each file once, the index
// keeps the summaries (in its file, read back on demand), a second scan and
// a new process read them from the index, and a file that changes is
// decoded again.
func TestIndexSummaries(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(samplesDir, "slippi")
	ents, _ := os.ReadDir(src)
	for _, e := range ents {
		if filepath.Ext(e.Name()) == ".slp" {
			data, _ := os.ReadFile(filepath.Join(src, e.Name()))
			os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644)
		}
	}
	path := filepath.Join(t.TempDir(), "index")
	scan := func(x *Index) map[string]*Summary {
		out := map[string]*Summary{}
		Scan(context.Background(), Paths([]string{dir}), ScanOptions{Index: x, Ordered: true, Summaries: true}, func(h Header) bool {
			if h.Summary == nil || h.Check == nil {
				t.Errorf("%s: summary %v check %v", h.Path, h.Summary, h.Check)
			}
			out[filepath.Base(h.Path)] = h.Summary
			return true
		})
		return out
	}
	x, _ := OpenIndex(path)
	before := fullReads.Load()
	first := scan(x)
	if n := fullReads.Load() - before; n != int64(len(first)) || n == 0 {
		t.Fatalf("%d full reads for %d files", n, len(first))
	}
	before = fullReads.Load()
	if again := scan(x); fullReads.Load() != before || !reflect.DeepEqual(again, first) {
		t.Errorf("second scan: %d full reads, same %v", fullReads.Load()-before, reflect.DeepEqual(again, first))
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	y, _ := OpenIndex(path)
	before = fullReads.Load()
	if again := scan(y); fullReads.Load() != before || !reflect.DeepEqual(again, first) {
		t.Errorf("new process: %d full reads, same %v", fullReads.Load()-before, reflect.DeepEqual(again, first))
	}
	// the summary sits in the file: the store holds no copy
	id, ok := y.Store().Lookup(filepath.Join(dir, "slp__unranked_game1.slp"))
	if !ok || y.s.x(y.s.rec(id)).sumRef&sumInArena != 0 {
		t.Errorf("summary kept in memory")
	}
	if s := y.Store().Summary(id); !reflect.DeepEqual(s, first["slp__unranked_game1.slp"]) {
		t.Errorf("Store.Summary: %+v", s)
	}
	// a SummaryReader reads each row's summary without moments into the
	// same memory, over and over: the same stats as one read alone
	rd := y.Store().SummaryReader()
	for round := range 2 {
		for name, want := range first {
			id, _ := y.Store().Lookup(filepath.Join(dir, name))
			got := rd.Read(id)
			alone := y.Store().SummaryStats(id)
			if got == nil || !reflect.DeepEqual(got.Players, want.Players) || !reflect.DeepEqual(got.Players, alone.Players) || len(got.Moments) != 0 {
				t.Errorf("round %d, %s: SummaryReader %+v, want %+v", round, name, got, want.Players)
			}
		}
	}
	// a MomentReader reads the moments too, into the same memory: the
	// files' moments differ in number and facts, and none is left over
	// from the file read before it
	mr := y.Store().MomentReader()
	withMoments := 0
	for round := range 2 {
		for name, want := range first {
			id, _ := y.Store().Lookup(filepath.Join(dir, name))
			got := mr.Read(id)
			if got == nil || !reflect.DeepEqual(*got, *want) {
				t.Errorf("round %d, %s: MomentReader %+v, want %+v", round, name, got, want)
			} else if len(got.Moments) > 0 {
				withMoments++
			}
		}
	}
	if withMoments < 4 {
		t.Errorf("%d reads with moments: the samples test nothing", withMoments)
	}
	// and neither allocates once it has read the rows: a million rows are
	// read through the same memory (the blob's buffer included)
	var ids []RowID
	for name := range first {
		id, _ := y.Store().Lookup(filepath.Join(dir, name))
		ids = append(ids, id)
	}
	for _, r := range []*SummaryReader{rd, mr} {
		// the least of three counts: AllocsPerRun counts the whole
		// process's allocations, and a goroutine an earlier test left
		// winding down (a checker, a scan's worker) may allocate meanwhile
		least := math.Inf(1)
		for range 3 {
			least = min(least, testing.AllocsPerRun(5, func() {
				for _, id := range ids {
					r.Read(id)
					r.Header(id)
				}
			}))
		}
		if least != 0 {
			t.Errorf("moments %v: %v allocations reading the rows again", r.moments, least)
		}
	}
	// a reader's header is the store's, but for the path
	for _, id := range ids {
		want := y.Store().Header(id)
		want.Path = ""
		if got := rd.Header(id); !reflect.DeepEqual(*got, want) {
			t.Errorf("SummaryReader.Header %+v, want %+v", *got, want)
		}
	}
	// a scan that wants headers reads no summary from the file
	reads := sumReads.Load()
	Scan(context.Background(), Paths([]string{dir}), ScanOptions{Index: y, Ordered: true}, func(h Header) bool { return true })
	if n := sumReads.Load() - reads; n != 0 {
		t.Errorf("a header scan read %d summaries", n)
	}
	// a changed file is decoded again; the others are not
	changed := filepath.Join(dir, "slp__unranked_game1.slp")
	os.Chtimes(changed, time.Now(), time.Now().Add(time.Hour))
	before = fullReads.Load()
	scan(y)
	if n := fullReads.Load() - before; n != 1 {
		t.Errorf("%d full reads after one file changed", n)
	}
	// a header-only put of a changed file drops the stale summary
	st, _ := os.Stat(changed)
	h := ReadHeader(Entry{Path: changed, Kind: File, Size: st.Size(), ModTime: st.ModTime().Add(time.Second)})
	h.ModTime = st.ModTime().Add(time.Second)
	y.Put(h)
	if s := y.Store().Summary(id); s != nil {
		t.Errorf("stale summary kept: %+v", s)
	}
	y.Close()
}

// TestIndexSummaryCompaction: summaries survive a rewrite of the file, by
// this process and by another one.
func TestIndexSummaryCompaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	a, _ := OpenIndex(path)
	b, _ := OpenIndex(path)
	want := sampleSummary()
	for i := range 50 {
		h := sampleHeader(filepath.Join("/r", itoa(i)+".slp"), i)
		h.Summary = want
		a.Put(h)
	}
	a.Flush()
	b.Put(sampleHeader("/r/b.slp", 1))
	b.Flush() // reads a's records
	for _, x := range []*Index{a, b} {
		x.ioMu.Lock()
		if err := x.locked(func() error { return x.compact(false) }); err != nil {
			t.Fatal(err)
		}
		x.ioMu.Unlock()
	}
	a.Put(sampleHeader("/r/c.slp", 2))
	a.Flush() // a reads b's rewrite
	for _, x := range []*Index{a, b} {
		id, ok := x.Store().Lookup("/r/7.slp")
		if got := x.Store().Summary(id); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("after compactions: %+v", got)
		}
	}
	a.Close()
	b.Close()
	c, _ := OpenIndex(path)
	id, _ := c.Store().Lookup("/r/49.slp")
	if got := c.Store().Summary(id); !reflect.DeepEqual(got, want) {
		t.Errorf("reopened: %+v", got)
	}
	if c.Len() != 52 {
		t.Errorf("%d rows", c.Len())
	}
	c.Close()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// TestIndexSummariesApart: summaries are written in blocks of their own
// that opening the index steps over; a blob whose bytes are damaged costs
// that row its summary (it is made again), not the rows or the other
// summaries, and a summary block cut short makes the index rewrite itself.
func TestIndexSummariesApart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	want := sampleSummary()
	x, _ := OpenIndex(path)
	for i := range 40 {
		h := sampleHeader(filepath.Join("/r", itoa(i)+".slp"), i)
		h.Summary = want
		x.Put(h)
	}
	x.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blob := encodeSummary(nil, want)
	// the file: header line, a summary block, then the records' block
	at := len(indexMagic) + strings.IndexByte(string(data[len(indexMagic):]), '\n') + 1
	head := binary.LittleEndian.Uint32(data[at:])
	if head&sumBlock == 0 || int(head&^sumBlock) != 40*(4+len(blob)) {
		t.Fatalf("first block %#x, want a summary block of %d bytes", head, 40*(4+len(blob)))
	}
	// open reads no summary: every one is read from the file when asked
	y, _ := OpenIndex(path)
	if y.Len() != 40 {
		t.Fatalf("%d rows", y.Len())
	}
	for i := range 40 {
		id, _ := y.Store().Lookup(filepath.Join("/r", itoa(i)+".slp"))
		if ref, ok := y.s.sumRef(y.s.rec(id)); !ok || ref&sumInArena != 0 {
			t.Fatalf("row %d: summary ref %#x %v", i, ref, ok)
		}
	}
	y.Close()
	// damage the third summary's bytes
	bad := append([]byte(nil), data...)
	bad[at+8+2*(4+len(blob))+4+len(blob)/2] ^= 0x55
	os.WriteFile(path, bad, 0o600)
	z, _ := OpenIndex(path)
	if z.Len() != 40 {
		t.Fatalf("damaged blob: %d rows", z.Len())
	}
	for i := range 40 {
		id, _ := z.Store().Lookup(filepath.Join("/r", itoa(i)+".slp"))
		got := z.Store().Summary(id)
		if i == 2 && got != nil {
			t.Errorf("the damaged summary read back: %+v", got)
		}
		if i != 2 && !reflect.DeepEqual(got, want) {
			t.Errorf("summary %d: %+v", i, got)
		}
	}
	z.Close()
	// a file that ends inside a summary block
	os.WriteFile(path, data[:at+100], 0o600)
	c, _ := OpenIndex(path)
	if c.Len() != 0 || !c.rewrite {
		t.Errorf("cut summary block: %d rows, rewrite %v", c.Len(), c.rewrite)
	}
	c.Close()
}

// TestNoMomentsKeepsTheIndexWhole: a scan that wants summaries without
// moments hands them out so, and still puts every file's moments in the
// index, hard links to one file included (they share one read).
func TestNoMomentsKeepsTheIndexWhole(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(samplesDir, "slippi", "tests__data__v3.18.slp")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(dir, "a.slp")
	os.WriteFile(first, data, 0o644)
	for _, name := range []string{"b.slp", "c.slp", "d.slp"} {
		if err := os.Link(first, filepath.Join(dir, name)); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
	}
	x, _ := OpenIndex(filepath.Join(t.TempDir(), "index"))
	defer x.Close()
	n := 0
	Scan(context.Background(), Paths([]string{dir}), ScanOptions{Index: x, Ordered: true, Summaries: true, NoMoments: true}, func(h Header) bool {
		if h.Summary == nil || h.Summary.Err != "" || len(h.Summary.Moments) != 0 {
			t.Errorf("%s: summary %+v", h.Path, h.Summary)
		}
		n++
		return true
	})
	if n != 4 {
		t.Fatalf("%d headers", n)
	}
	Scan(context.Background(), Paths([]string{dir}), ScanOptions{Index: x, Ordered: true, Summaries: true}, func(h Header) bool {
		if h.Summary == nil || len(h.Summary.Moments) == 0 {
			t.Errorf("%s: the index lost its moments: %+v", h.Path, h.Summary)
		}
		return true
	})
}

// TestIndexTableFitsItsRows: the rows' table is sized by the rows an
// index holds, not by the bytes of its file, which are mostly summaries
// or none: header records first and summaries after (info, then stats
// --by) once made it the size of 25 million rows for a million.
func TestIndexTableFitsItsRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index")
	x, _ := OpenIndex(path)
	const n = 3000
	for i := range n {
		x.Put(sampleHeader(filepath.Join("/r", itoa(i)+".slp"), i))
	}
	x.Flush()
	sum := sampleSummary()
	for i := range n {
		h := sampleHeader(filepath.Join("/r", itoa(i)+".slp"), i)
		h.Summary = sum
		x.Put(h)
	}
	x.Close()
	y, _ := OpenIndex(path)
	defer y.Close()
	if y.Len() != n {
		t.Fatalf("%d rows", y.Len())
	}
	if got := len(y.s.table); got > 4*n {
		t.Errorf("a table of %d slots for %d rows", got, n)
	}
}

// TestDecodeSummaryIntoReuses: a summary read into the memory of one read
// before it (a SummaryReader's) keeps nothing of it: fewer players, stats
// and moments, and moments without the facts the earlier ones had.
func TestDecodeSummaryIntoReuses(t *testing.T) {
	full := &Summary{Summary: model.Summary{
		First: -123, Last: 9000,
		Players: []model.PlayerSummary{
			{Outcome: model.OutcomeWin, Stats: []model.Stat{{Key: "apm", Value: 300.5}, {Key: "kills", Value: 4}}},
			{Outcome: model.OutcomeLoss, Stats: []model.Stat{{Key: "moves", Name: "up smash", Value: 2}}},
		},
		Moments: []model.MomentRecord{
			{Kind: model.MomentCombo, Frame: 10, End: 70, Time: 0.2, EndTime: 1.2, By: 0, On: 1,
				Facts: model.MomentFacts{Damage: 45.5, Hits: 6, Kill: true, Move: "up smash", StartPercent: 20, EndPercent: 65.5}},
			{Kind: model.MomentStock, Frame: 80, End: 80, Time: 1.3, EndTime: 1.3, By: 1, On: 0},
		},
	}}
	bare := &Summary{Generic: true, Summary: model.Summary{
		Players: []model.PlayerSummary{{Outcome: model.OutcomeDraw}},
		Moments: []model.MomentRecord{{Kind: model.MomentStock, Frame: 5, End: 5, Time: 0.1, EndTime: 0.1, By: -1, On: 0}},
	}}
	var into Summary
	var strs []string
	for _, s := range []*Summary{full, bare, full, bare} {
		blob := encodeSummary(nil, s)
		want, err := decodeSummary(blob, true)
		if err != nil {
			t.Fatal(err)
		}
		if strs, err = decodeSummaryInto(&into, blob, sumMoments, strs); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(into, *want) {
			t.Errorf("read into the last one's memory:\n%+v\nwant\n%+v", into, *want)
		}
	}
}

// TestScanMomentTerms: a scan with MomentTerms delivers in each summary
// the moments the terms match, and only those, whether the file is
// decoded (no index, or not in it yet) or its summary read from the
// index; the index keeps every moment.
func TestScanMomentTerms(t *testing.T) {
	dir := filepath.Join(samplesDir, "slippi")
	all := map[string]*Summary{}
	Scan(context.Background(), Paths([]string{dir}), ScanOptions{Ordered: true, Summaries: true}, func(h Header) bool {
		all[h.Path] = h.Summary
		return true
	})
	x, _ := OpenIndex(filepath.Join(t.TempDir(), "index"))
	defer x.Close()
	for _, text := range []string{"kind:combo", "by:p1 -kind:combo", "kind:conversion damage:>=1"} {
		q, err := ParseQuery(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, idx := range []*Index{nil, x, x} { // decoded, decoded and put, read back
			kept := 0
			Scan(context.Background(), Paths([]string{dir}), ScanOptions{Index: idx, Ordered: true, Summaries: true, MomentTerms: q}, func(h Header) bool {
				full := all[h.Path]
				if h.Summary == nil || full == nil || h.Summary.Err != "" {
					return true
				}
				var want []model.MomentRecord
				for i := range full.Moments {
					if q.MatchMoment(&full.Moments[i], h.Players) {
						want = append(want, full.Moments[i])
					}
				}
				if !reflect.DeepEqual(h.Summary.Moments, want) || !reflect.DeepEqual(h.Summary.Players, full.Players) {
					t.Errorf("%q, index %v, %s: %d moments, want %d", text, idx != nil, h.Path, len(h.Summary.Moments), len(want))
				}
				kept += len(want)
				return true
			})
			if kept == 0 {
				t.Errorf("%q: no moment matched: the test tests nothing", text)
			}
		}
	}
	// the index still has them all
	for path, full := range all {
		id, ok := x.Store().Lookup(path)
		if full == nil || full.Err != "" {
			continue
		}
		if !ok || !reflect.DeepEqual(x.Store().Summary(id).Moments, full.Moments) {
			t.Errorf("%s: the index lost moments", path)
		}
	}
}

// FuzzDecodeSummary: any blob (an index file's bytes a CRC vouched for)
// decodes without a panic or an allocation larger than itself; its head
// read alone gives what its stats decode gives; read into
// the memory of another summary (a reader's) it gives what a fresh decode
// gives; and a summary that decodes encodes back to one that decodes the
// same. Summaries are compared by their encoding: a NaN is itself there.
func FuzzDecodeSummary(f *testing.F) {
	f.Add(encodeSummary(nil, &Summary{Summary: model.Summary{First: -123, Last: 9000,
		Players: []model.PlayerSummary{{Outcome: model.OutcomeWin, Stats: []model.Stat{{Key: "apm", Value: 300.5}, {Key: "moves", Name: "up smash", Value: 2}}}, {Outcome: model.OutcomeLoss}},
		Moments: []model.MomentRecord{{Kind: model.MomentCombo, Frame: 10, End: 70, Time: 0.2, EndTime: 1.2, By: 0, On: 1,
			Facts: model.MomentFacts{Damage: 45.5, Hits: 6, Kill: true, Move: "up smash", StartPercent: 20, EndPercent: 65.5}}}}}))
	f.Add(encodeSummary(nil, &Summary{Err: "not a replay"}))
	f.Add([]byte{})
	other := encodeSummary(nil, &Summary{Partial: true, Summary: model.Summary{
		Players: []model.PlayerSummary{{Outcome: model.OutcomeDraw, Stats: []model.Stat{{Key: "a", Value: 1}, {Key: "b", Value: 2}, {Key: "c", Value: 3}}}, {}, {}},
		Moments: []model.MomentRecord{{Kind: model.MomentStock, Facts: model.MomentFacts{Move: "x", Damage: 1, Hits: 2}}, {Kind: model.MomentKill}}}})
	f.Fuzz(func(t *testing.T, b []byte) {
		// the head read alone (an aggregation's read) is what the blob's
		// stats decode gives, or refused with it
		lean, leanErr := decodeSummary(b, false)
		var hb headBatch
		hb.reset(1)
		hb.take(0, b)
		head, ok, _ := hb.head(0)
		var alone *Summary
		var aloneErr error = errCorrupt
		if ok {
			var hr summaryRoom
			alone, aloneErr = hr.head(head)
		}
		if (leanErr == nil) != (aloneErr == nil) || leanErr == nil && !bytes.Equal(encodeSummary(nil, alone), encodeSummary(nil, lean)) {
			t.Fatalf("head alone: %+v %v; the blob's stats: %+v %v", alone, aloneErr, lean, leanErr)
		}
		fresh, err := decodeSummary(b, true)
		var room summaryRoom
		if _, err := room.decode(other, true); err != nil {
			t.Fatal(err)
		}
		into, err2 := room.decode(b, true)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("into another's memory: %v, fresh: %v", err2, err)
		}
		if err != nil {
			return
		}
		enc := encodeSummary(nil, fresh)
		if !bytes.Equal(encodeSummary(nil, into), enc) {
			t.Fatalf("into another's memory: %+v, fresh: %+v", into, fresh)
		}
		again, err := decodeSummary(enc, true)
		if err != nil || !bytes.Equal(encodeSummary(nil, again), enc) {
			t.Fatalf("encoded again: %v\n%+v\nwant\n%+v", err, again, fresh)
		}
	})
}
