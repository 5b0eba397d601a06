//go:build unix

package library

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, waiting while another
// process holds it; unlock (or closing f) releases it. Other rewind
// processes wait for it; nothing else honours it.
func lockFile(f *os.File) (unlock func(), err error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
		}
		if err != syscall.EINTR {
			return nil, err
		}
	}
}
