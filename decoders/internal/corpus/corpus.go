// Package corpus finds test files for decoder tests: the small samples kept
// in the repository's testdata/samples, and the shared corpus of real files
// beside the checkout (../shared/corpus).
//
// Without ../shared (a fresh clone) the real-file tests skip, each with the
// same message, NotFound, which CI counts. With ../shared present, a format
// folder or a named file that is missing fails the test: a renamed corpus
// file must not turn a test into a pass.
package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// NotFound starts the message of every test skipped for lack of the shared
// corpus; .ci/run counts the tests that skip with it.
const NotFound = "shared corpus not found"

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

// Shared is ../shared/corpus beside the checkout, and whether it is there.
func Shared(t testing.TB) (string, bool) {
	t.Helper()
	dir := filepath.Join(Root(t), "..", "shared", "corpus")
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// Dir returns ../shared/corpus/<format>. Without the shared corpus the
// test skips; with it, a missing format folder fails the test.
func Dir(t testing.TB, format string) string {
	t.Helper()
	root, ok := Shared(t)
	if !ok {
		t.Skipf("%s at %s: skipping the real-file tests", NotFound, root)
	}
	dir := filepath.Join(root, format)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("the shared corpus has no %s folder (%s): renamed or moved?", format, dir)
	}
	return dir
}

// File returns one file of the shared corpus. Without the shared corpus
// the test skips; with it, a missing file fails the test.
func File(t testing.TB, format, rel string) string {
	t.Helper()
	p := filepath.Join(Dir(t, format), rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("corpus file %s not found: renamed or moved? (%v)", p, err)
	}
	return p
}

// Samples returns testdata/samples/<format>, the files kept in the repository.
func Samples(t testing.TB, format string) string {
	t.Helper()
	return filepath.Join(Root(t), "testdata", "samples", format)
}

// SampleFiles lists the files of testdata/samples/<format> that match
// pattern (a filepath.Match pattern such as "*.slp"); none is a failure,
// since the samples are part of the repository.
func SampleFiles(t testing.TB, format, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Samples(t, format), pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s samples matching %s in %s (%v)", format, pattern, Samples(t, format), err)
	}
	return files
}

// SampleData reads the files SampleFiles lists, by base name.
func SampleData(t testing.TB, format, pattern string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range SampleFiles(t, format, pattern) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}
