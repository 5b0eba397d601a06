//go:build !unix

package library

import "os"

// lockFile is a no-op where advisory locks are not available: two rewind
// processes writing at once may tear a record, which the CRC catches.
func lockFile(f *os.File) error { return nil }
