//go:build unix

package library

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, released when f is
// closed. Other rewind processes wait for it; nothing else honours it.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}
