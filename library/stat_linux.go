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

// stat stats the entry named nameZ (the name and a NUL after it),
// following a symlink.
func (s statter) stat(nameZ []byte) (fileStat, error) {
	var st unix.Stat_t
	for {
		err := fstatat(s.fd, nameZ, &st)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fileStat{}, &os.PathError{Op: "stat", Path: string(nameZ[:len(nameZ)-1]), Err: err}
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
