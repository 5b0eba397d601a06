//go:build unix

package actions

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

// detach puts a guest in a session of its own: away from rewind's
// terminal, so neither Ctrl-C there nor the terminal closing reaches it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// refuseShell is for Windows, where a batch file runs through cmd.exe.
func refuseShell(string) error { return nil }

// opener is the command that opens path with the desktop's program for
// its kind of file: open on macOS, xdg-open elsewhere, each given the
// path as one argument. No opener at all is ErrNotConfigured.
func opener(path string) (*exec.Cmd, error) {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	cmd := exec.Command(name, path)
	if errors.Is(cmd.Err, exec.ErrNotFound) {
		return nil, notConfigured(name + " is not installed, so nothing opens .osr files here")
	}
	return cmd, nil
}

// exitStatus is a finished program's exit status as a shell gives it:
// its exit code, or 128 plus the signal that ended it.
func exitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
