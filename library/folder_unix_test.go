//go:build unix

package library

// The listing test makes symlinks and a FIFO, which Windows gives only
// with privileges (symlinks) or not at all (FIFOs).

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFolderListsAsReadDir holds the walk's own listing to the standard
// library's on a folder larger than one getdents buffer, with names of every
// length, a subfolder, symlinks and a FIFO: the same names, the same types,
// in the same order once sorted, and each path joined as filepath.Join does.
func TestReadFolderListsAsReadDir(t *testing.T) {
	dir := t.TempDir()
	for i := range 3000 {
		name := fmt.Sprintf("%d-%s.slp", i, strings.Repeat("x", i%200))
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"link-to-sub", "broken-link"} {
		if err := os.Symlink(map[string]string{"link-to-sub": "sub", "broken-link": "nowhere"}[l], filepath.Join(dir, l)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}

	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var l folderNames
	if err := readFolder(f, &l); err != nil {
		t.Fatal(err)
	}
	l.sort()
	des, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		t.Fatal(err)
	}
	if len(l.ents) != len(des) {
		t.Fatalf("listed %d entries, ReadDir %d", len(l.ents), len(des))
	}
	paths := l.paths(dir + string(filepath.Separator))
	for i, d := range des {
		e := l.ents[i]
		if got := string(l.name(e)); got != d.Name() {
			t.Fatalf("entry %d: %q, ReadDir %q", i, got, d.Name())
		}
		if z := l.nameZ(e); z[len(z)-1] != 0 {
			t.Fatalf("entry %d: %q has no NUL after it", i, d.Name())
		}
		if e.typ != d.Type() {
			t.Errorf("%s: type %v, ReadDir %v", d.Name(), e.typ, d.Type())
		}
		if want := filepath.Join(dir, d.Name()); paths[i] != want {
			t.Fatalf("entry %d: path %q, want %q", i, paths[i], want)
		}
	}

	// a listing reused for a smaller folder holds only that folder
	small := t.TempDir()
	os.WriteFile(filepath.Join(small, "only.slp"), nil, 0o644)
	g, err := os.Open(small)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := readFolder(g, &l); err != nil || len(l.ents) != 1 || string(l.name(l.ents[0])) != "only.slp" {
		t.Fatalf("reused listing: %d entries, err %v", len(l.ents), err)
	}
}
