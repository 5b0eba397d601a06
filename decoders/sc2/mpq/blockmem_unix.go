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
	m := mapBytes(n * 4)
	if m == nil {
		return nil, nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(m))), n), m
}

// mapBytes is n bytes of memory of their own, outside the Go heap (see
// bzDecoder.lo), to give back with unmapBlock; nil when the system
// refuses it.
func mapBytes(n int) []byte {
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil || len(m) < n {
		return nil
	}
	return m
}

// unmapBlock gives a mapping of mapBlock or mapBytes back to the system at
// once.
func unmapBlock(m []byte) { _ = syscall.Munmap(m) }
