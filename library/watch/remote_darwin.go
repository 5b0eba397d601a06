package watch

import "golang.org/x/sys/unix"

// remoteFS names the file system of the folder at path when it is not
// local (the system's MNT_LOCAL flag): kqueue hears nothing of what other
// machines do on a network volume. Empty for a local one.
func remoteFS(path string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil || st.Flags&unix.MNT_LOCAL != 0 {
		return ""
	}
	return "a network volume (" + unix.ByteSliceToString(st.Fstypename[:]) + ")"
}
