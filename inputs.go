package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"rewind/decoders"
)

// input is one file to decode: from the disk or from the sample library.
type input struct {
	Name string
	Read func() ([]byte, error)
}

// replayExt reports whether a name has the extension of a known format.
func replayExt(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, f := range decoders.Formats {
		for _, e := range f.Exts {
			if e == ext {
				return true
			}
		}
	}
	return false
}

// collect turns command-line paths into inputs. Files named explicitly are
// always taken; inside directories only files that look like replays (by
// extension or by magic bytes) are, so a README in an archive is not
// reported as a broken replay. No path means the built-in samples.
func collect(paths []string) ([]input, error) {
	if len(paths) == 0 {
		return sampleInputs(samples())
	}
	var out []input
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, fileInput(p))
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			if replayExt(path) {
				found = append(found, path)
			} else if _, err := decoders.Sniff(path); err == nil {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		for _, f := range found {
			out = append(out, fileInput(f))
		}
	}
	return out, nil
}

func fileInput(p string) input {
	return input{Name: p, Read: func() ([]byte, error) { return os.ReadFile(p) }}
}

// sampleInputs lists the replays of the embedded sample library.
func sampleInputs(fsys fs.FS) ([]input, error) {
	var out []input
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !replayExt(path) {
			return nil
		}
		out = append(out, input{Name: "samples/" + path, Read: func() ([]byte, error) { return fs.ReadFile(fsys, path) }})
		return nil
	})
	return out, err
}
