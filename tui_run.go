package main

import "rewind/tui"

func runTUI(paths []string) error {
	return tui.Run(tui.Config{Paths: paths, Samples: samples()})
}
