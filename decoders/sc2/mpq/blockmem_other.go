//go:build !unix

package mpq

// mapBlock and mapBytes have no memory outside the Go heap to offer here:
// the block array is the collector's, like a small one.
func mapBlock(n int) ([]uint32, []byte) { return nil, nil }

func mapBytes(n int) []byte { return nil }

func unmapBlock(m []byte) {}
