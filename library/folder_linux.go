package library

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// direntBufs are the buffers getdents fills: one per folder being listed
// at a time, not one per folder.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// readFolder lists an open folder into l with getdents: os.File.ReadDir makes a
// DirEntry and a string for each of a folder's thousands of names, which
// a walk of a million files spent a fifth of its time on. "." and ".."
// are left out. An error leaves what was read before it.
func readFolder(f *os.File, l *folderNames) error {
	l.reset()
	fd := int(f.Fd())
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &os.PathError{Op: "readdirent", Path: f.Name(), Err: err}
		}
		if n <= 0 {
			return nil
		}
		// struct linux_dirent64: ino u64, off s64, reclen u16, type u8,
		// then the name and its NUL within reclen
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break // never from a kernel; nothing past it can be trusted
			}
			ino, typ, name := binary.NativeEndian.Uint64(b[0:8]), b[18], b[19:reclen]
			b = b[reclen:]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if ino == 0 || string(name) == "." || string(name) == ".." {
				continue // a deleted entry, or the folder itself and its parent
			}
			mode, known := direntType(typ)
			if !known {
				// the file system does not say (DT_UNKNOWN): ask without
				// following a symlink, as the walk needs to know one
				var st unix.Stat_t
				if unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
					mode = fs.ModeSymlink
				}
			}
			l.add(name, mode)
		}
	}
}

// direntType is the type bits of a dirent's d_type.
func direntType(t byte) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}
