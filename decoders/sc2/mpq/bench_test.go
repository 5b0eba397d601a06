package mpq

import (
	"os"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

func loadAll(b *testing.B, paths []string) ([][]byte, int64) {
	var files [][]byte
	var total int64
	for _, p := range paths {
		d, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, d)
		total += int64(len(d))
	}
	return files, total
}

// readAll opens an archive and reads every member it names or SC2 knows.
func readAll(data []byte) {
	a, err := Open(data, budget.New(int64(len(data)), model.Limits{}))
	if err != nil {
		return
	}
	names, _ := members(a)
	for _, n := range names {
		a.ReadFile(n)
	}
}

func benchReadAll(b *testing.B, paths []string) {
	files, total := loadAll(b, paths)
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range files {
			readAll(d)
		}
	}
}

// BenchmarkReadAll opens each archive and decompresses every member: the
// MPQ layer's share of an SC2 decode. MB/s counts the files' own bytes.
func BenchmarkReadAll(b *testing.B) {
	b.Run("samples", func(b *testing.B) { benchReadAll(b, sampleFiles(b)) })
	b.Run("corpus", func(b *testing.B) { benchReadAll(b, corpusFiles(b)) })
}
