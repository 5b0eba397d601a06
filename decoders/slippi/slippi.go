// Package slippi decodes Super Smash Bros. Melee replays (.slp) written by Project Slippi.
package slippi

import "rewind/model"

// Decode reads a whole file. It returns nil and an error only when the
// file cannot be read at all; damage after a readable start gives a partial
// replay with diagnostics.
func Decode(data []byte, opt model.DecodeOptions) (*model.Replay, error) {
	return nil, model.ErrNotSupported
}
