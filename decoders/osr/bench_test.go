package osr

import (
	"os"
	"path/filepath"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func benchFile(b *testing.B, data []byte, opt model.DecodeOptions) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeOSR decodes the largest sample (a catch play of 22,665
// frames), whole and header only.
func BenchmarkDecodeOSR(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(b, "osr"), "catch-2015-hidden.osr"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("full", func(b *testing.B) { benchFile(b, data, model.DecodeOptions{}) })
	b.Run("header", func(b *testing.B) { benchFile(b, data, model.DecodeOptions{HeaderOnly: true}) })
}

// BenchmarkDecodeMarathon decodes the corpus's largest file (211,193
// frames, 4.7 MB of frame text).
func BenchmarkDecodeMarathon(b *testing.B) {
	data, err := os.ReadFile(corpus.File(b, "osr", "abraker95__ultimate_osu_analyzer/unit_tests__replays__osu__Toy - Within Temptation - The Unforgiving [Marathon] (2018-02-06) Osu.osr"))
	if err != nil {
		b.Fatal(err)
	}
	benchFile(b, data, model.DecodeOptions{})
}
