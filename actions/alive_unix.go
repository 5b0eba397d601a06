//go:build unix

package actions

import (
	"errors"
	"syscall"
)

// signalZero reports whether a process pid exists (signal 0 checks
// without sending).
func signalZero(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
