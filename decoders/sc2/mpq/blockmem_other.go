//go:build !unix

package mpq

// mapBytes has no memory outside the Go heap to offer here: the block
// array is the collector's, like a small one (bzDecoder.tt).
func mapBytes(n int) []byte { return nil }

func unmapBlock(m []byte) {}
