package library

import (
	"os"
	"time"

	"golang.org/x/sys/unix"

	"rewind/decoders/mapped"
)

// statter stats the entries of one open folder by name, relative to the
// folder (fstatat): the kernel does not walk the path from the root again
// for each of a folder's thousands of files.
type statter struct {
	fd int
}

func newStatter(dir *os.File, prefix string) statter { return statter{int(dir.Fd())} }

func (s statter) stat(name string) (fileStat, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(s.fd, name, &st, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fileStat{}, &os.PathError{Op: "stat", Path: name, Err: err}
		}
		break
	}
	fi := fileStat{size: st.Size, mtime: time.Unix(st.Mtim.Unix()),
		dev: uint64(st.Dev), ino: st.Ino, links: uint64(st.Nlink)}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		fi.dir = true
	case unix.S_IFREG:
		fi.regular = true
	default:
		fi.special = mapped.ModeOf(st.Mode)
	}
	return fi, nil
}
