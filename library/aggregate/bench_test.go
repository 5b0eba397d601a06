package aggregate

import (
	"fmt"
	"runtime"
	"testing"
	"time"

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
