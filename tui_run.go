package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"rewind/theme"
	"rewind/tui"
)

// cmdRoot is rewind without a command: the TUI on the paths (the built-in
// samples without one), or `info` when standard output is not a terminal.
func cmdRoot(c *command, args []string) int {
	c.about = rootAbout()
	showVersion := c.flags.Bool("version", false, "print the version and exit")
	themeName := c.flags.String("theme", "", "colours: light, dark or auto (default: $REWIND_THEME, else auto)")
	noCache := c.flags.Bool("no-cache", false, "read every header; neither use nor fill the index in the user's cache directory")
	paths, code, ok := c.parse(args)
	if !ok {
		return code
	}
	if *showVersion {
		fmt.Fprintln(c.stdout, versionLine())
		return 0
	}
	if *themeName != "" {
		if _, _, err := theme.ParseChoice(*themeName); err != nil {
			return c.errorf("--theme: %v", err)
		}
	}
	// a word that is neither a command nor a file is a mistyped command
	if len(paths) > 0 && !strings.ContainsAny(paths[0], `./\`) {
		if _, err := os.Lstat(paths[0]); err != nil {
			return c.errorf("%s is neither a command nor a file; the commands are %s (rewind --help)", paths[0], commandNames())
		}
	}
	if c.stdout != os.Stdout || !isTerminal(os.Stdout) {
		code, _ := runCommand("info", append([]string{"--"}, paths...), c.stdout, c.stderr)
		return code
	}
	if err := runTUI(paths, *themeName, *noCache); err != nil {
		fmt.Fprintln(c.stderr, "rewind:", err)
		return 1
	}
	return 0
}

// tuiIO replaces the terminal when a test runs the TUI headless; nil
// fields are the terminal.
var tuiIO struct {
	in  io.Reader
	out io.Writer
}

func runTUI(paths []string, themeName string, noCache bool) error {
	return tui.Run(tui.Config{Paths: paths, Samples: samples(), Theme: themeName, NoCache: noCache, Input: tuiIO.in, Output: tuiIO.out})
}
