package main

import "errors"

func runTUI(paths []string) error { return errors.New("the TUI is not built yet") }
