package decoders

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// HasReplayExt reports whether a name ends in the extension of a known
// format (case-insensitive). Detection never relies on it; walks use it to
// pick files in folders without opening the rest.
func HasReplayExt(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, f := range Formats {
		for _, e := range f.Exts {
			if e == ext {
				return true
			}
		}
	}
	return false
}

// NotRegularError refuses a path that is not a regular file: a device, a
// FIFO, a socket. rewind reads only regular files, so /dev/zero cannot feed
// it forever and a FIFO cannot make it wait.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	what := "a special file"
	switch m := e.Mode; {
	case m&fs.ModeNamedPipe != 0:
		what = "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a block device"
	case m.IsDir():
		what = "a folder"
	}
	return fmt.Sprintf("%s is %s, not a regular file; rewind reads only regular files", e.Path, what)
}

// OpenRegular opens path for reading only when it is a regular file. It
// stats first and opens without blocking (a FIFO swapped in after the stat
// cannot hang the open), then checks the opened file again.
func OpenRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, nil
}
