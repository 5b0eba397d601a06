//go:build unix

package mpq

import (
	"syscall"
	"unsafe"
)

// mapBlock is a block array of n entries in memory of its own, outside the
// Go heap (see bzDecoder.tt), and the mapping to give back with
// unmapBlock; nil when the system refuses it.
func mapBlock(n int) ([]uint32, []byte) {
	m, err := syscall.Mmap(-1, 0, n*4, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil || len(m) < n*4 {
		return nil, nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(m))), n), m
}

// unmapBlock gives a mapping of mapBlock back to the system at once.
func unmapBlock(m []byte) { _ = syscall.Munmap(m) }
