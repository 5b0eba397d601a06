//go:build !unix

package decoders

import "os"

func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
