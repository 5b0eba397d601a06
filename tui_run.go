package main

import "rewind/tui"

func runTUI(paths []string, noCache bool) error {
	return tui.Run(tui.Config{Paths: paths, Samples: samples(), NoCache: noCache})
}
