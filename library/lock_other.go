//go:build !unix && !windows

package library

import "os"

// lockFile is a no-op where the OS has no file lock that Go reaches
// (Plan 9, js/wasm, wasip1): two rewind processes writing at once may
// tear a record, which the CRC catches.
func lockFile(f *os.File) (unlock func(), err error) { return func() {}, nil }
