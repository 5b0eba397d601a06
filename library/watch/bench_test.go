package watch

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkAppeared measures how long a new replay takes to show: from
// just before the file is written to the Appeared event in the consumer's
// hands, with the default options (the browser shows a new replay from
// this event; the issue asks for under a second). Files are written at
// random moments, as a recorder makes them, not in step with the polls.
// ns/op is that time plus the write; ms/appeared is the mean, ms-max the
// slowest.
//
//	go test ./library/watch -run '^$' -bench Appeared -benchtime 40x
func BenchmarkAppeared(b *testing.B) {
	osr := read(b, "../../testdata/samples/osr/mania-2025-life-bar.osr")
	for _, poll := range []bool{false, true} {
		name := "notify"
		if poll {
			name = "poll"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			w := New(Options{Poll: poll})
			defer w.Close()
			if err := w.Add(dir); err != nil {
				b.Fatal(err)
			}
			var lat []time.Duration
			b.ResetTimer()
			for i := range b.N {
				// files come at any moment, not in step with the polls
				b.StopTimer()
				time.Sleep(time.Duration(rand.Int64N(int64(600 * time.Millisecond))))
				b.StartTimer()
				path := filepath.Join(dir, fmt.Sprintf("replay-%d.osr", i))
				start := time.Now()
				if err := os.WriteFile(path, osr, 0o644); err != nil {
					b.Fatal(err)
				}
				for ev := range w.Events() {
					if ev.Op == Appeared && ev.Path == path {
						lat = append(lat, time.Since(start))
						break
					}
				}
			}
			b.StopTimer()
			var sum time.Duration
			for _, d := range lat {
				sum += d
			}
			b.ReportMetric(float64(sum.Microseconds())/1000/float64(len(lat)), "ms/appeared")
			b.ReportMetric(float64(slices.Max(lat).Microseconds())/1000, "ms-max")
		})
	}
}
