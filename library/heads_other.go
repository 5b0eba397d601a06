//go:build !unix

package library

import "os"

// mapRange is where files cannot be mapped: false, read them instead.
func mapRange(f *os.File, off, n int64, fn func([]byte)) bool { return false }
