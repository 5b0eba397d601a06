package actions

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"
)

// detach starts a guest in a process group of its own, so Ctrl-C in
// rewind's console does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// refuseShell refuses a batch file: Windows runs it through cmd.exe,
// which reads its arguments again, so a file name with & or | in it would
// run as a command. A program gets its words as they are.
func refuseShell(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".bat", ".cmd":
		return fmt.Errorf("%s is a batch file, which Windows runs through cmd.exe, where a file name could run as a command; point the command at a program", filepath.Base(path))
	}
	return nil
}

// opener opens path with the program Windows associates with its kind of
// file, through ShellExecute: the path goes to the shell as a file, never
// through cmd.exe or a command line to parse (start would be cmd.exe's,
// and rundll32 gets a command line that its FileProtocolHandler reads
// again). It starts the program itself, so there is no command to return.
// No association is ErrNotConfigured.
func opener(path string) (*exec.Cmd, error) {
	verb, err := windows.UTF16PtrFromString("open")
	if err != nil {
		return nil, err
	}
	file, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	dir, err := windows.UTF16PtrFromString(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	err = windows.ShellExecute(0, verb, file, nil, dir, windows.SW_SHOWNORMAL)
	if errors.Is(err, windows.ERROR_NO_ASSOCIATION) {
		return nil, notConfigured("no program is set to open .osr files")
	}
	return nil, err
}

// alive reports whether process pid still runs the program exe: a number
// that Windows gave another program since does not count.
func alive(pid int, _, exe string) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil || code != 259 { // STILL_ACTIVE
		return false
	}
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n := uint32(len(buf))
	if windows.QueryFullProcessImageName(h, 0, &buf[0], &n) != nil {
		return false
	}
	return strings.EqualFold(windows.UTF16ToString(buf[:n]), exe)
}

// exitStatus is a finished program's exit code.
func exitStatus(ps *os.ProcessState) int { return ps.ExitCode() }
