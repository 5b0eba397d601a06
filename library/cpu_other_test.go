//go:build !unix

package library

import "time"

func cpuTime() time.Duration { return 0 }
