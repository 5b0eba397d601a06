// Package corpus finds test files for decoder tests: the small samples kept
// in the repository's testdata/samples, and the shared corpus of real files
// beside the checkout (../shared/corpus), which tests skip when it is absent.
package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Root is the module root (the directory holding go.mod), found by walking
// up from the working directory.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("corpus: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Dir returns ../shared/corpus/<format> next to the checkout, or skips the
// test with a message when it is not there.
func Dir(t testing.TB, format string) string {
	t.Helper()
	dir := filepath.Join(Root(t), "..", "shared", "corpus", format)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpus not found at %s: skipping the real-file tests", dir)
	}
	return dir
}

// File returns one file of the shared corpus, skipping when it is absent.
func File(t testing.TB, format, rel string) string {
	t.Helper()
	p := filepath.Join(Dir(t, format), rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file %s not found", p)
	}
	return p
}

// Samples returns testdata/samples/<format>, the files kept in the repository.
func Samples(t testing.TB, format string) string {
	t.Helper()
	return filepath.Join(Root(t), "testdata", "samples", format)
}
