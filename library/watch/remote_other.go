//go:build !linux && !darwin && !windows

package watch

// remoteFS cannot tell a network file system here; a rescan still finds
// one whose notifications do not come.
func remoteFS(string) string { return "" }
