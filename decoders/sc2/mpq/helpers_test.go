package mpq

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dsnet/compress/bzip2"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// bzip2Sector is data bzip2-compressed behind its compression byte.
func bzip2Sector(data []byte) []byte {
	var b bytes.Buffer
	b.WriteByte(CompBzip2)
	w, _ := bzip2.NewWriter(&b, &bzip2.WriterConfig{Level: 9})
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// open opens an archive with the default budget of its size.
func open(t testing.TB, data []byte) *Archive {
	t.Helper()
	a, err := Open(data, budget.New(int64(len(data)), model.Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// buildArchive makes a small archive at format version v (0-3) with the
// user data "abc", the files stored as they are or, when comp names them,
// as zlib sectors.
func buildArchive(t testing.TB, v uint16, files map[string][]byte, comp map[string]bool) []byte {
	s := spec{userData: []byte("abc"), version: v, shift: 3}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	s.add(names, files, comp)
	return s.build()
}

// corpusFiles lists the shared corpus's SC2 files (skipping without it).
func corpusFiles(t testing.TB) []string {
	dir := corpus.Dir(t, "sc2")
	var files []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.Contains(strings.ToLower(filepath.Base(p)), ".sc2replay") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatalf("no .SC2Replay files under %s", dir)
	}
	return files
}

// sampleFiles lists testdata/samples/sc2.
func sampleFiles(t testing.TB) []string {
	return corpus.SampleFiles(t, "sc2", "*.SC2Replay")
}
