//go:build unix

package library

import (
	"os"
	"runtime/debug"
	"syscall"
)

// mapRange maps n bytes of f from off read-only and calls fn with them;
// false when they cannot be mapped, or a page of them cannot be read (the
// file was cut short under the mapping: fn's work is then to be done
// again another way). fn must not keep the bytes.
func mapRange(f *os.File, off, n int64, fn func([]byte)) (ok bool) {
	page := int64(os.Getpagesize())
	from := off &^ (page - 1)
	if n <= 0 || int64(int(n+off-from)) != n+off-from {
		return false
	}
	var data []byte
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	if rc.Control(func(fd uintptr) {
		data, err = syscall.Mmap(int(fd), from, int(n+off-from), syscall.PROT_READ, syscall.MAP_SHARED)
	}) != nil || err != nil {
		return false
	}
	defer syscall.Munmap(data)
	// a page that cannot be read raises SIGBUS; make it a panic this
	// goroutine recovers from
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if _, fault := p.(interface{ Addr() uintptr }); !fault {
				panic(p)
			}
			ok = false
		}
	}()
	fn(data[off-from:])
	return true
}
