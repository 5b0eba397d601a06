//go:build !linux

package library

import "os"

// statter stats the entries of one folder by path.
type statter struct {
	prefix string
}

func newStatter(dir *os.File, prefix string) statter { return statter{prefix} }

// stat stats the entry named nameZ (the name and a NUL after it),
// following a symlink.
func (s statter) stat(nameZ []byte) (fileStat, error) {
	info, err := os.Stat(s.prefix + string(nameZ[:len(nameZ)-1]))
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{dir: info.IsDir(), regular: info.Mode().IsRegular(), special: info.Mode().Type(),
		size: info.Size(), mtime: info.ModTime()}, nil
}
