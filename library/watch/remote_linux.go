package watch

import "golang.org/x/sys/unix"

// remoteFS names the file system of the folder at path when its changes
// made elsewhere send no inotify event (inotify sees what this machine's
// kernel does to a file, not what the server or another client does): a
// network or host-shared file system. Empty for a local one.
func remoteFS(path string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return ""
	}
	switch uint32(st.Type) {
	case unix.NFS_SUPER_MAGIC:
		return "NFS"
	case unix.SMB_SUPER_MAGIC, unix.SMB2_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC:
		return "an SMB share"
	case unix.V9FS_MAGIC:
		return "9p (WSL's Windows drives, a VM's shared folder)"
	case unix.FUSE_SUPER_MAGIC:
		return "a FUSE file system (sshfs, rclone, ...)"
	case unix.AFS_SUPER_MAGIC, unix.CODA_SUPER_MAGIC, unix.NCP_SUPER_MAGIC, unix.CEPH_SUPER_MAGIC:
		return "a network file system"
	case vboxsfMagic:
		return "a VirtualBox shared folder"
	}
	return ""
}

// vboxsfMagic is VirtualBox's shared folders' f_type ("VBSF"), which
// x/sys does not list.
const vboxsfMagic = 0x786f4256
