//go:build unix

// The walk's tests build their tree with a FIFO and symlinks and name
// /dev/zero: unix things (Windows has no FIFOs in the file system and makes
// symlinks only with privileges).

package library

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
)

// tree builds a folder with replays, a note, a FIFO, symlinks to a file and
// to a folder, a loop and a broken link, and returns its root.
func tree(t *testing.T, loop bool) string {
	t.Helper()
	root := t.TempDir()
	sample, err := os.ReadFile(filepath.Join("..", "testdata", "samples", "slippi", "tests__data__netplay.slp"))
	if err != nil {
		t.Fatal(err)
	}
	mk := func(rel string, data []byte) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("games/a.slp", sample)
	mk("games/b-no-extension", sample) // a replay found by its magic bytes
	mk("games/notes.md", []byte("# not a replay"))
	mk("games/data.bin", []byte("plain bytes, no replay"))
	mk("games/.hidden.slp", sample)
	mk("other/c.slp", sample)
	if err := syscall.Mkfifo(filepath.Join(root, "games", "pipe.slp"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"links/to-file.slp": "../games/a.slp",
		"links/to-folder":   "../other",
		"links/broken.slp":  "../nowhere.slp",
	}
	if loop {
		links["links/loop"] = ".."
	}
	os.MkdirAll(filepath.Join(root, "links"), 0o755)
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(root, l)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func collect(paths []string) []Entry {
	var out []Entry
	Walk(paths, func(e Entry) bool { out = append(out, e); return true })
	return out
}

func summary(root string, es []Entry) []string {
	var s []string
	for _, e := range es {
		rel, _ := filepath.Rel(root, e.Path)
		s = append(s, e.Kind.String()+" "+filepath.ToSlash(rel))
	}
	return s
}

func TestWalkFolder(t *testing.T) {
	root := tree(t, false)
	got := summary(root, collect([]string{filepath.Join(root, "games"), filepath.Join(root, "links")}))
	want := []string{
		"file games/a.slp",
		"file games/b-no-extension", // a replay found by its magic bytes
		"skipped games/pipe.slp",    // listed, never opened
		"unreadable links/broken.slp",
		"file links/to-file.slp",
		"file links/to-folder/c.slp",
	}
	// notes.md, data.bin and the hidden file are left out
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestWalkReportsLoops(t *testing.T) {
	root := tree(t, true)
	got := summary(root, collect([]string{root}))
	// every file once, whichever path reached it first
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g] {
			t.Errorf("%q listed twice", g)
		}
		seen[g] = true
	}
	if len(got) != 7 {
		t.Errorf("%d entries, want 7 (a, b, pipe, broken, loop, to-file, c): %q", len(got), got)
	}
	found := false
	for _, g := range got {
		if g == "unreadable links/loop" {
			found = true
		}
	}
	if !found {
		t.Errorf("a link back to the folder being walked is not reported as a loop: %q", got)
	}
}

func TestWalkNamedPaths(t *testing.T) {
	root := tree(t, false)
	tests := []struct {
		path     string
		kind     Kind
		sentence string
	}{
		{filepath.Join(root, "games", "a.slp"), File, ""},
		{filepath.Join(root, "games", "notes.md"), File, ""}, // named: taken as it is, the decoder says what it is
		{filepath.Join(root, "missing.slp"), Unreadable, "no such file or folder"},
		{filepath.Join(root, "games", "pipe.slp"), Unreadable, "a FIFO (named pipe), not a regular file"},
		{"/dev/zero", Unreadable, "a character device, not a regular file"},
		{filepath.Join(root, "links", "broken.slp"), Unreadable, "no such file or folder"},
	}
	for _, tt := range tests {
		es := collect([]string{tt.path})
		if len(es) != 1 {
			t.Errorf("%s: %d entries, want 1", tt.path, len(es))
			continue
		}
		e := es[0]
		if e.Kind != tt.kind || !e.Named {
			t.Errorf("%s: kind %v named %v, want %v named", tt.path, e.Kind, e.Named, tt.kind)
		}
		if tt.sentence != "" && (e.Err == nil || !strings.Contains(e.Err.Error(), tt.sentence)) {
			t.Errorf("%s: error %v, want it to say %q", tt.path, e.Err, tt.sentence)
		}
	}
}

func TestWalkGoesOnAfterABadPath(t *testing.T) {
	root := tree(t, false)
	got := summary(root, collect([]string{filepath.Join(root, "missing"), filepath.Join(root, "other")}))
	want := []string{"unreadable missing", "file other/c.slp"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWalkSymlinkedFolderWithoutSlash(t *testing.T) {
	root := tree(t, false)
	got := summary(root, collect([]string{filepath.Join(root, "links", "to-folder")}))
	if strings.Join(got, "|") != "file links/to-folder/c.slp" {
		t.Errorf("got %q", got)
	}
}

func TestWalkStops(t *testing.T) {
	root := tree(t, false)
	n := 0
	Walk([]string{root}, func(Entry) bool { n++; return false })
	if n != 1 {
		t.Errorf("fn returned false but was called %d times", n)
	}
}

func TestWalkFS(t *testing.T) {
	fsys := fstest.MapFS{
		"slippi/a.slp":        {Data: []byte("x")},
		"slippi/MANIFEST.tsv": {Data: []byte("x")},
		"sc2/b.SC2Replay":     {Data: []byte("x")},
	}
	var got []string
	WalkFS(fsys, ".", func(e Entry) bool { got = append(got, e.Path); return true })
	if strings.Join(got, "|") != "sc2/b.SC2Replay|slippi/a.slp" {
		t.Errorf("got %q", got)
	}
}
