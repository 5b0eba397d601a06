package tui

import (
	"rewind/library/diff"
	"rewind/model"
)

// RunDiff opens the split view of two replays.
func RunDiff(cfg Config, a, b *model.Replay, opt diff.Options) (*diff.Result, error) {
	return nil, nil
}
