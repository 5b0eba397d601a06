//go:build linux && (amd64 || arm64 || riscv64)

package library

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// fstatat is unix.Fstatat on a name that already ends in a NUL: the
// library call copies every name to add one, a million copies a walk.
// On these architectures newfstatat fills unix.Stat_t as it is.
func fstatat(fd int, nameZ []byte, st *unix.Stat_t) error {
	_, _, e := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&nameZ[0])), uintptr(unsafe.Pointer(st)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}
