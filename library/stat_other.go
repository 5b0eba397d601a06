//go:build !linux

package library

import "os"

// statter stats the entries of one folder by path.
type statter struct {
	prefix string
}

func newStatter(dir *os.File, prefix string) statter { return statter{prefix} }

func (s statter) stat(name string) (fileStat, error) {
	info, err := os.Stat(s.prefix + name)
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{dir: info.IsDir(), regular: info.Mode().IsRegular(), special: info.Mode().Type(),
		size: info.Size(), mtime: info.ModTime()}, nil
}
