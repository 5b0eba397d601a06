//go:build windows

package library

// The index is replaced by renaming a new file over it while this and
// other rewind processes hold the old one open, and the new file is still
// open itself when it is renamed. Windows refuses to rename a file, or
// over a file, that is open without FILE_SHARE_DELETE, which os.OpenFile
// does not ask for (Wine shows "Sharing violation" on the first flush of
// a new index); these opens ask for it, and renameOver replaces with
// POSIX semantics, so the old file stays readable through the handles
// that have it, as on unix.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// openShared opens an existing index file for reading and writing.
func openShared(name string) (*os.File, error) {
	return createShared(name, syscall.OPEN_EXISTING)
}

// createTempShared makes a new file in dir named pattern with a number in
// place of its "*", as os.CreateTemp does.
func createTempShared(dir, pattern string) (*os.File, error) {
	prefix, suffix, _ := strings.Cut(pattern, "*")
	seed := uint32(time.Now().UnixNano()) ^ uint32(os.Getpid())
	for try := 0; ; try++ {
		seed = seed*1664525 + 1013904223
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(seed), 10)+suffix)
		f, err := createShared(name, syscall.CREATE_NEW)
		if err == nil || try >= 100 || !os.IsExist(err) {
			return f, err
		}
	}
}

func createShared(name string, disposition uint32) (*os.File, error) {
	p, err := syscall.UTF16PtrFromString(name)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	// DELETE access lets renameOver rename the file through this handle
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE|windows.DELETE,
		syscall.FILE_SHARE_READ|syscall.FILE_SHARE_WRITE|syscall.FILE_SHARE_DELETE,
		nil, disposition, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(h), name), nil
}

// renameOver moves f, made by createTempShared, to newpath, replacing the
// file there even while it is open, as rename(2) does: FileRenameInfoEx
// with POSIX semantics (Windows 10 1709 and later, on NTFS). Where that is
// refused (an older Windows, another file system, Wine), os.Rename, which
// replaces a file nobody holds open.
func renameOver(f *os.File, newpath string) error {
	name, err := windows.UTF16FromString(newpath)
	if err != nil {
		return err
	}
	// FILE_RENAME_INFO: Flags, RootDirectory, FileNameLength, FileName[]
	type renameInfo struct {
		Flags          uint32
		RootDirectory  windows.Handle
		FileNameLength uint32
		FileName       [1]uint16
	}
	buf := make([]byte, int(unsafe.Offsetof(renameInfo{}.FileName))+len(name)*2)
	info := (*renameInfo)(unsafe.Pointer(&buf[0]))
	info.Flags = windows.FILE_RENAME_REPLACE_IF_EXISTS | windows.FILE_RENAME_POSIX_SEMANTICS
	info.FileNameLength = uint32((len(name) - 1) * 2) // without the NUL
	copy(unsafe.Slice(&info.FileName[0], len(name)), name)
	if windows.SetFileInformationByHandle(windows.Handle(f.Fd()), windows.FileRenameInfoEx, &buf[0], uint32(len(buf))) == nil {
		return nil
	}
	return os.Rename(f.Name(), newpath)
}
