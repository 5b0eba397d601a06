package cli

import (
	"io"
	"path/filepath"
	"testing"

	"rewind/decoders"
	"rewind/model"
)

// BenchmarkStatsJSON is `rewind stats --json` over the shared corpus's
// 2-player .slp files in one invocation, in process (the command as Run
// runs it, output discarded): the set issue 46 compares with slippc's
// analysis (`slippc -i FILE -a OUT.json`). allocs/op and B/op are the
// whole set's; allocs/file divides them among its files.
func BenchmarkStatsJSON(b *testing.B) {
	files := twoPlayerSlp(b)
	args := append([]string{"stats", "--json"}, files...)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if code := Run(args, io.Discard, io.Discard, samplesFS); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(files)), "files")
}

// twoPlayerSlp lists the corpus's .slp files whose Game Start seats two
// players.
func twoPlayerSlp(b *testing.B) []string {
	all, _ := filepath.Glob("../shared/corpus/slp/*/*.slp") // TestMain works from the repository's root
	if len(all) == 0 {
		b.Skip("the shared corpus is not here")
	}
	var files []string
	for _, f := range all {
		r, err := decoders.Open(f, model.DecodeOptions{HeaderOnly: true})
		if err == nil && len(r.Players) == 2 {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		b.Fatal("no 2-player .slp in the corpus")
	}
	return files
}
