//go:build windows

package library

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockAll is the byte range locked, low and high halves: all of the file,
// locked whatever its size (the lock file stays empty). cmd/go's own file
// lock takes the same range.
const lockAll = ^uint32(0)

// lockFile takes an exclusive lock on f with LockFileEx, waiting while
// another process (or another handle) holds it. f is opened for
// synchronous I/O, so the call returns only once the lock is held.
// Windows frees the lock of a closed handle on its own, but only when it
// gets round to it (LockFileEx's documentation advises unlocking
// explicitly), so unlock releases it at once, before the file is closed.
func lockFile(f *os.File) (unlock func(), err error) {
	h := windows.Handle(f.Fd())
	var ol windows.Overlapped // offset 0
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, lockAll, lockAll, &ol); err != nil {
		return nil, err
	}
	return func() { windows.UnlockFileEx(h, 0, lockAll, lockAll, &ol) }, nil
}
