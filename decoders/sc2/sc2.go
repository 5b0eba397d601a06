// Package sc2 decodes StarCraft II replays (.SC2Replay): MPQ archives of versioned and bit-packed streams.
package sc2

import "rewind/model"

// Decode reads a whole file. It returns nil and an error only when the
// file cannot be read at all; damage after a readable start gives a partial
// replay with diagnostics.
func Decode(data []byte, opt model.DecodeOptions) (*model.Replay, error) {
	return nil, model.ErrNotSupported
}
