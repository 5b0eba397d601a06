package protocol

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"rewind/decoders/internal/corpus"
)

// TestGeneratedTablesAreCurrent runs the generator on the specs and
// compares its output with the committed tables.txt: the data is never
// edited by hand and never falls behind the generator or its patches.
func TestGeneratedTablesAreCurrent(t *testing.T) {
	specs := filepath.Join(corpus.Root(t), "..", "shared", "specs", "sc2-protocols")
	if _, err := os.Stat(specs); err != nil {
		t.Skipf("specs not found at %s: skipping the generator check", specs)
	}
	out := filepath.Join(t.TempDir(), "tables.txt")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", "./gen", "-in", specs, "-out", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, []byte(tablesText)) {
		t.Error("tables.txt differs from what the generator writes: run go generate ./decoders/sc2/protocol")
	}
}
