package slippi

import (
	"os"
	"path/filepath"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func benchFile(b *testing.B, path string, opt model.DecodeOptions) {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(data, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSlippi decodes the 4 MB heavy-rollback replay fully.
func BenchmarkDecodeSlippi(b *testing.B) {
	benchFile(b, corpus.File(b, "slp", "project-slippi__slippi-js/slp__rollbackFrameTest.slp"), model.DecodeOptions{})
}

func BenchmarkDecodeSlippiHeaderOnly(b *testing.B) {
	benchFile(b, corpus.File(b, "slp", "project-slippi__slippi-js/slp__rollbackFrameTest.slp"), model.DecodeOptions{HeaderOnly: true})
}

// BenchmarkDecodeSlippiSample runs without the shared corpus.
func BenchmarkDecodeSlippiSample(b *testing.B) {
	benchFile(b, filepath.Join(corpus.Samples(b, "slippi"), "tests__data__v3.18.slp"), model.DecodeOptions{})
}

// BenchmarkDecodeSlippiCorpus reads and fully decodes every .slp file of the
// shared corpus, as `rewind check` does; compare with slippi-js reading
// settings, metadata and all frames of the same files.
func BenchmarkDecodeSlippiCorpus(b *testing.B) { benchCorpus(b, model.DecodeOptions{}) }

// BenchmarkCheckSlippiCorpus is the decode `rewind check` makes: every
// byte read and checked, no event list kept.
func BenchmarkCheckSlippiCorpus(b *testing.B) { benchCorpus(b, model.DecodeOptions{NoEvents: true}) }

// BenchmarkStatsSlippiCorpus is what `rewind stats` asks of each .slp file
// of the shared corpus: a decode without event records and its analysis
// (slippi-js's stats, the tables, the moments, the summary).
func BenchmarkStatsSlippiCorpus(b *testing.B) {
	benchCorpusWith(b, model.DecodeOptions{NoEvents: true}, func(r *model.Replay) { r.Analysis() })
}

func benchCorpus(b *testing.B, opt model.DecodeOptions) {
	benchCorpusWith(b, opt, func(r *model.Replay) { r.Problems() })
}

func benchCorpusWith(b *testing.B, opt model.DecodeOptions, then func(*model.Replay)) {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(b, "slp"), "*", "*.slp"))
	// the files are read once: rewind maps them, so reading is not the
	// decode's cost
	var datas [][]byte
	var total int64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		datas = append(datas, data)
		total += int64(len(data))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, data := range datas {
			r, err := Decode(data, opt)
			if err != nil {
				b.Fatal(err)
			}
			then(r)
		}
	}
}
