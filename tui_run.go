package main

import (
	"io"

	"rewind/tui"
)

// tuiIO replaces the terminal when a test runs the TUI headless; nil
// fields are the terminal.
var tuiIO struct {
	in  io.Reader
	out io.Writer
}

func runTUI(paths []string) error {
	return tui.Run(tui.Config{Paths: paths, Samples: samples(), Input: tuiIO.in, Output: tuiIO.out})
}
