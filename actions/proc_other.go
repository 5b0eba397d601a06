//go:build !unix && !windows

package actions

import (
	"os"
	"os/exec"
)

func detach(*exec.Cmd) {}

func refuseShell(string) error { return nil }

func opener(string) (*exec.Cmd, error) {
	return nil, notConfigured("this system has no program rewind knows to open .osr files with")
}

// alive cannot tell here: every watch starts a Dolphin of its own.
func alive(int, string, string) bool { return false }

// exitStatus is a finished program's exit code.
func exitStatus(ps *os.ProcessState) int { return ps.ExitCode() }
