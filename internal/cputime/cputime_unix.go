//go:build unix

// Package cputime reads the CPU time this process has used, user and
// system: the benchmarks report it beside the wall clock, which a machine
// shared with other work stretches.
package cputime

import (
	"syscall"
	"time"
)

// Used is the CPU time this process has used so far.
func Used() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
