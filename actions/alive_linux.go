package actions

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strconv"
)

// alive reports whether process pid is the Dolphin a record names: its
// command line (/proc/PID/cmdline) holds the communication file, which
// no other process's does, so a number taken since by another process
// does not count. A zombie's command line is empty.
func alive(pid int, comm, _ string) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return signalZero(pid)
	}
	for arg := range bytes.SplitSeq(data, []byte{0}) {
		if string(arg) == comm {
			return true
		}
	}
	return false
}
