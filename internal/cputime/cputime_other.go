//go:build !unix

package cputime

import "time"

// Used is 0 where the system does not say (the benchmarks then report
// wall time alone).
func Used() time.Duration { return 0 }
