// Package mapped hands a caller the bytes of a regular file without copying
// a large one: it is mapped read-only for the length of a call. Scans of
// thousands of files (the library's header reads, check's full decodes)
// use it; a replay that is kept (the TUI's, whose inspector shows its
// bytes) is read with decoders.Open instead.
package mapped

import (
	"io/fs"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"rewind/decoders"
)

// With opens a regular file and calls fn with its bytes, which fn must not
// keep. whole says fn will read every byte (a full decode), so the kernel
// may read ahead; otherwise fn jumps (a header-only decode). A small file is read into a reused buffer; a large one is
// mapped read-only, so the kernel reads only the pages a header-only
// decode touches. Raw system calls keep a scan of thousands of files to
// four or five calls each (open, fstat, read or mmap/munmap, close).
//
// When a mapped page cannot be read (the file shrank under us) fn's panic
// is recovered and the file is read whole, fn running again from the
// start. A FIFO or device swapped in for the file is refused without
// blocking: the open does not wait and fstat must show a regular file.
func With(path string, whole bool, fn func(data []byte)) (size int64, mtime time.Time, err error) {
	var fd int
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return 0, time.Time{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return 0, time.Time{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	mtime = time.Unix(st.Mtim.Unix())
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return 0, mtime, &decoders.NotRegularError{Path: path, Mode: ModeOf(st.Mode)}
	}
	size = st.Size
	if size > smallFile && mapFile(fd, size, whole, fn) {
		return size, mtime, nil
	}
	data, err := preadAll(fd, size)
	if err != nil {
		return size, mtime, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	defer putBuf(data)
	fn(data)
	return int64(len(data)), mtime, nil
}

// preadAll reads the whole file from offset 0, taking what is there if it
// grew or shrank since fstat.
func preadAll(fd int, size int64) ([]byte, error) {
	buf := getBuf(size + 1) // one byte more shows a file that grew
	n := 0
	for {
		if n == len(buf) {
			buf = append(buf, 0)[:n] // grew: make room and go on
			buf = buf[:cap(buf)]
		}
		m, err := syscall.Pread(fd, buf[n:], int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			putBuf(buf)
			return nil, err
		}
		if m == 0 {
			return buf[:n], nil
		}
		n += m
	}
}

func mapFile(fd int, size int64, whole bool, fn func([]byte)) (ok bool) {
	if int64(int(size)) != size {
		return false
	}
	data, err := syscall.Mmap(fd, 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return false
	}
	defer syscall.Munmap(data)
	if whole {
		// every page will be read: read ahead, and map the pages already
		// in memory a run at a time instead of one fault each
		syscall.Madvise(data, syscall.MADV_SEQUENTIAL)
	} else {
		// no read-ahead: a header-only decode jumps (Slippi's front and
		// back, BSOR's info and last frame), and read-ahead, 8 MB on some
		// disks, would read the whole file for it
		syscall.Madvise(data, syscall.MADV_RANDOM)
	}
	// a page that cannot be read raises SIGBUS; make it a panic this
	// goroutine can recover from
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if _, fault := p.(interface{ Addr() uintptr }); !fault {
				panic(p)
			}
			ok = false
		}
	}()
	fn(data)
	return true
}

// ModeOf is the fs.FileMode of a stat's type bits (a FIFO, socket, device
// or folder where a regular file was wanted).
func ModeOf(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFDIR:
		return fs.ModeDir
	}
	return fs.ModeIrregular
}

// smallFile is the size up to which a file is read rather than mapped.
const smallFile = 256 << 10

var smallBufs = sync.Pool{New: func() any { b := make([]byte, smallFile+1); return &b }}

// getBuf returns a buffer of n bytes, reused when n is small.
func getBuf(n int64) []byte {
	if n > smallFile+1 {
		return make([]byte, n)
	}
	return (*smallBufs.Get().(*[]byte))[:n]
}

func putBuf(b []byte) {
	if cap(b) == smallFile+1 {
		b = b[:cap(b)]
		smallBufs.Put(&b)
	}
}
