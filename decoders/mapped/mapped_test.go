package mapped

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"rewind/decoders"
)

func TestWith(t *testing.T) {
	dir := t.TempDir()
	small := bytes.Repeat([]byte("ab"), 1000)
	large := bytes.Repeat([]byte("0123456789"), 100_000) // mapped: over smallFile
	for _, tc := range []struct {
		name  string
		data  []byte
		whole bool
	}{
		{"small", small, false},
		{"small-whole", small, true},
		{"large", large, false},
		{"large-whole", large, true},
		{"empty", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			mtime := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
			if err := os.Chtimes(path, mtime, mtime); err != nil {
				t.Fatal(err)
			}
			calls := 0
			size, mt, err := With(path, tc.whole, func(data []byte) {
				calls++
				if !bytes.Equal(data, tc.data) {
					t.Errorf("got %d bytes, want the file's %d", len(data), len(tc.data))
				}
			})
			if err != nil || calls != 1 {
				t.Fatalf("err %v, %d calls; want nil, 1", err, calls)
			}
			if size != int64(len(tc.data)) || !mt.Equal(mtime) {
				t.Errorf("size %d mtime %v, want %d %v", size, mt, len(tc.data), mtime)
			}
		})
	}
}

func TestWithRefuses(t *testing.T) {
	dir := t.TempDir()
	called := false
	fn := func([]byte) { called = true }
	_, _, err := With(dir, true, fn)
	var nr *decoders.NotRegularError
	if !errors.As(err, &nr) || nr.Path != dir {
		t.Errorf("a folder: err %v, want a NotRegularError naming it", err)
	}
	missing := filepath.Join(dir, "gone.slp")
	_, _, err = With(missing, false, fn)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: err %v, want a PathError naming it", err)
	}
	if called {
		t.Error("fn was called for a path that gives no bytes")
	}
}
