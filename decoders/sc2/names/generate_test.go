package names

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"rewind/decoders/internal/corpus"
)

// TestGeneratedNamesAreCurrent runs the generator on the id tables and
// compares its output with the committed names.txt: the data is never
// edited by hand and never falls behind the generator.
func TestGeneratedNamesAreCurrent(t *testing.T) {
	specs := filepath.Join(corpus.Root(t), "..", "shared", "specs", "ids", "sc2")
	if _, err := os.Stat(specs); err != nil {
		t.Skipf("specs not found at %s: skipping the generator check", specs)
	}
	out := filepath.Join(t.TempDir(), "names.txt")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", "./gen", "-in", specs, "-out", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, []byte(namesText)) {
		t.Error("names.txt differs from what the generator writes: run go generate ./decoders/sc2/names")
	}
}
