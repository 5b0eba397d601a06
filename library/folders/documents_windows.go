//go:build windows

package folders

import "golang.org/x/sys/windows"

// documentsFolder is the Documents known folder as Windows resolves it
// (SHGetKnownFolderPath), which follows a redirection to OneDrive or a
// network share; "" when Windows has none.
func documentsFolder() string {
	p, err := windows.KnownFolderPath(windows.FOLDERID_Documents, windows.KF_FLAG_DEFAULT)
	if err != nil {
		return ""
	}
	return p
}
