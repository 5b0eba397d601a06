//go:build linux && !(amd64 || arm64 || riscv64)

package library

import "golang.org/x/sys/unix"

// fstatat is unix.Fstatat on a name that ends in a NUL.
func fstatat(fd int, nameZ []byte, st *unix.Stat_t) error {
	return unix.Fstatat(fd, string(nameZ[:len(nameZ)-1]), st, 0)
}
