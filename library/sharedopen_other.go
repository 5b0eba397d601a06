//go:build !windows

package library

import "os"

// openShared opens an existing index file for reading and writing. Only
// Windows needs more than the os package (sharedopen_windows.go).
func openShared(name string) (*os.File, error) { return os.OpenFile(name, os.O_RDWR, 0) }

// createTempShared is os.CreateTemp.
func createTempShared(dir, pattern string) (*os.File, error) { return os.CreateTemp(dir, pattern) }

// renameOver moves f, made by createTempShared, to newpath.
func renameOver(f *os.File, newpath string) error { return os.Rename(f.Name(), newpath) }
