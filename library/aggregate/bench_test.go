package aggregate

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"rewind/internal/cputime"
	"rewind/library"
	"rewind/model"
)

// BenchmarkRunListMillion groups a List of a million 1v1 games (what the
// TUI's aggregate view does at each key it is asked for) and reports the
// heap the list takes.
func BenchmarkRunListMillion(b *testing.B) {
	withStats(b, testDefs)
	chars := []string{"Fox", "Falco", "Marth", "Sheik", "Peach", "Jigglypuff", "Captain Falcon", "Ice Climbers"}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l := NewList()
	for i := range 1_000_000 {
		g := game(fmt.Sprint(i), at(1, 0, 0).Add(time.Duration(i)*7*time.Minute), chars[i%8], fmt.Sprintf("OP#%d", i%5000), chars[i/8%8],
			[]model.Outcome{model.OutcomeWin, model.OutcomeLoss}[i%2], float64(i%5), float64(i%13), float64(i%400)+0.25, "up smash")
		l.Add(&g)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perGame := float64(after.HeapAlloc-before.HeapAlloc) / float64(l.Len())
	for _, k := range []Key{KeyCharacter, KeyOpponent} {
		b.Run(string(k), func(b *testing.B) {
			for range b.N {
				l.Run(Options{By: []Key{k}})
			}
			b.ReportMetric(perGame, "heapB/game")
		})
	}
	runtime.KeepAlive(l)
}

// writeBenchIndex writes an index of n synthetic replays' headers and
// summaries (two players, eight stats each and a tally, 150 moments: the
// bytes of a real summary) at path, and returns the walk's entries for
// them.
func writeBenchIndex(b *testing.B, path string, n int) []library.Entry {
	x, err := library.OpenIndex(path)
	if err != nil {
		b.Fatal(err)
	}
	chars := []string{"Fox", "Falco", "Marth", "Sheik", "Peach", "Jigglypuff", "Captain Falcon", "Ice Climbers"}
	stages := []string{"Battlefield", "Final Destination", "Yoshi's Story", "Dream Land N64", "Fountain of Dreams", "Pokémon Stadium"}
	entries := make([]library.Entry, n)
	for i := range n {
		k := i / 750
		h := library.Header{
			Path: fmt.Sprintf("/replays/%d/%02d/Game_%07d.slp", 2019+k/12, k%12+1, i), Kind: library.File,
			Size: int64(1_000_000 + i%100_000), ModTime: time.Unix(1_700_000_000+int64(i), 0),
			Format: "slippi", Start: time.Unix(1_600_000_000+int64(i)*97, 0).UTC(), Title: stages[i%len(stages)],
			Duration: time.Duration(60+i%400) * time.Second,
			Players: []library.Player{
				{Slot: "P1", Name: fmt.Sprintf("player%d", i%500), Code: fmt.Sprintf("PL%d#%d", i%500, i%500), Character: chars[i%len(chars)]},
				{Slot: "P2", Name: fmt.Sprintf("player%d", i*7%500), Code: fmt.Sprintf("PL%d#%d", i*7%500, i*7%500), Character: chars[i/3%len(chars)]},
			},
		}
		sum := &library.Summary{}
		for p := range 2 {
			ps := model.PlayerSummary{Outcome: []model.Outcome{model.OutcomeWin, model.OutcomeLoss}[(i+p)%2]}
			for s, key := range []string{"killCount", "conversionCount", "fastest", "damage", "apm", "openings", "lcancels", "techs"} {
				ps.Stats = append(ps.Stats, model.Stat{Key: key, Value: float64((i*(s+3)+p)%97) + float64(s%2)*0.25})
			}
			ps.Stats = append(ps.Stats, model.Stat{Key: "killMoves", Name: []string{"up smash", "back air", "forward smash"}[i%3], Value: 1})
			sum.Players = append(sum.Players, ps)
		}
		for m := range 150 {
			sum.Moments = append(sum.Moments, model.MomentRecord{Kind: model.MomentCombo, Frame: int64(m * 90), End: int64(m*90 + 40),
				Time: float64(m) * 1.5, EndTime: float64(m)*1.5 + 0.66, By: m % 2, On: 1 - m%2,
				Facts: model.MomentFacts{Damage: float64(m%60) + 0.5, Hits: m%7 + 1, Move: "up smash", StartPercent: float64(m % 90), EndPercent: float64(m%90) + 30}})
		}
		h.Summary = sum
		if err := x.Put(h); err != nil {
			b.Fatal(err)
		}
		entries[i] = library.Entry{Path: h.Path, Kind: library.File, Size: h.Size, ModTime: h.ModTime}
	}
	if err := x.Close(); err != nil {
		b.Fatal(err)
	}
	return entries
}

// BenchmarkStatsByIndex groups the games of 200,000 replays whose headers
// and summaries are in the index, by character, as stats --by does (the
// walk replaced by entries that match the rows): through Scan, a Game
// each and an Aggregator, as it did ("scan"); through ScanInto, a List a
// batch and AddList ("into"); and as the TUI's aggregate view reads the
// rows of a store into a List and groups it ("rows"). It reports the CPU a
// game costs; the index is opened anew for each run, its file in the page
// cache.
func BenchmarkStatsByIndex(b *testing.B) {
	withStats(b, testDefs)
	path := filepath.Join(b.TempDir(), "index")
	entries := writeBenchIndex(b, path, 200_000)
	walk := func(yield func(library.Entry) bool) {
		for _, e := range entries {
			if !yield(e) {
				return
			}
		}
	}
	opt := Options{By: []Key{KeyCharacter}}
	run := map[string]func(x *library.Index, ids []library.RowID) *Result{
		"scan": func(x *library.Index, _ []library.RowID) *Result {
			a := NewAggregator(opt)
			library.Scan(context.Background(), walk, library.ScanOptions{Index: x, Ordered: true, Summaries: true, NoMoments: true}, func(h library.Header) bool {
				g := FromHeader(&h)
				a.Add(&g)
				return true
			})
			return a.Result()
		},
		"into": func(x *library.Index, _ []library.RowID) *Result {
			a := NewAggregator(opt)
			type batch struct {
				l     *List
				skips []ListSkip
			}
			library.ScanInto(context.Background(), walk, library.ScanOptions{Index: x, Ordered: true, Summaries: true, NoMoments: true},
				func() *batch { return &batch{l: NewBatch()} },
				func(b *batch, h *library.Header) {
					if why := b.l.AddHeader(h); why != "" {
						b.skips = append(b.skips, ListSkip{Skip{h.Path, why}, b.l.Len()})
					}
				},
				func(b *batch) bool { a.AddList(b.l, b.skips); b.l.Reset(); b.skips = b.skips[:0]; return true })
			return a.Result()
		},
		"rows": func(x *library.Index, ids []library.RowID) *Result {
			l := NewList()
			x.Store().ReadStats(x, ids, func(_ int, h *library.Header) { l.AddHeader(h) })
			return l.Run(opt)
		},
	}
	for _, name := range []string{"scan", "into", "rows"} {
		b.Run(name, func(b *testing.B) {
			var cpu time.Duration
			for range b.N {
				x, err := library.OpenIndex(path)
				if err != nil {
					b.Fatal(err)
				}
				// the index read and the rows found outside what is measured
				ids := make([]library.RowID, len(entries))
				for i, e := range entries {
					ids[i], _ = x.Store().Lookup(e.Path)
				}
				start := cputime.Used()
				res := run[name](x, ids)
				cpu += cputime.Used() - start
				x.Close()
				if res.Games != len(entries) {
					b.Fatalf("%d games", res.Games)
				}
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*len(entries)), "cpu-ns/game")
		})
	}
}
