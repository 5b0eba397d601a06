//go:build !linux

package library

import "os"

// readFolder lists an open folder into l through os.File.ReadDir. An error
// leaves what was read before it.
func readFolder(f *os.File, l *folderNames) error {
	l.reset()
	des, err := f.ReadDir(-1)
	for _, d := range des {
		l.add([]byte(d.Name()), d.Type())
	}
	return err
}
