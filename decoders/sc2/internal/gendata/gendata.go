// Package gendata is what the generators of the SC2 tables share (the
// protocol tables and the id names, each generated from ../shared/specs
// into a committed data file): a pool that numbers distinct lines, and
// the test that the committed file is what its generator writes.
package gendata

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"rewind/decoders/internal/corpus"
)

// Pool numbers distinct lines in the order they are first added.
type Pool struct {
	index map[string]int
	Lines []string
}

// Add returns the number of s, adding it when it is new.
func (p *Pool) Add(s string) int {
	if p.index == nil {
		p.index = map[string]int{}
	}
	if i, ok := p.index[s]; ok {
		return i
	}
	p.index[s] = len(p.Lines)
	p.Lines = append(p.Lines, s)
	return len(p.Lines) - 1
}

// CheckCurrent runs the generator of the package under test (./gen) on
// the specs folder (path elements under ../shared/specs) and compares its
// output with the committed data: the data is never edited by hand and
// never falls behind its generator. It skips when the specs are absent.
func CheckCurrent(t *testing.T, committed string, specs ...string) {
	t.Helper()
	in := filepath.Join(append([]string{corpus.Root(t), "..", "shared", "specs"}, specs...)...)
	if _, err := os.Stat(in); err != nil {
		t.Skipf("specs not found at %s: skipping the generator check", in)
	}
	out := filepath.Join(t.TempDir(), "generated.txt")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", "./gen", "-in", in, "-out", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, []byte(committed)) {
		t.Error("the committed data differs from what the generator writes: run go generate in this package")
	}
}
