//go:build !linux

package library

// lowPriority does nothing where priorities are per process: the checker
// still rests between files.
func lowPriority() {}
