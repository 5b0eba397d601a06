package watch

import (
	"path/filepath"

	"golang.org/x/sys/windows"
)

// remoteFS names the drive of the folder at path when it is a network
// drive or share (\\server\share): ReadDirectoryChangesW over SMB depends
// on the server, and many a NAS sends nothing. Empty for a local drive.
func remoteFS(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	vol := filepath.VolumeName(abs)
	if vol == "" {
		return ""
	}
	root, err := windows.UTF16PtrFromString(vol + `\`)
	if err != nil {
		return ""
	}
	if windows.GetDriveType(root) == windows.DRIVE_REMOTE {
		return "a network drive (" + vol + ")"
	}
	return ""
}
