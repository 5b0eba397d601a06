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
	follow := c.flags.Bool("follow", false, "open one file while it is being written (Slippi, teehistorian) and grow the view with it")
	idle := c.flags.Duration("idle", 0, "with --follow, stop following after this long without a new byte, e.g. 30s; 0 (the default) follows until the recording ends")
	paths, code, ok := c.parse(args)
	if !ok {
		return code
	}
	if *follow && len(paths) != 1 {
		return c.errorf("--follow opens one file, and %d were given", len(paths))
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
		if *follow {
			// for a pipe, what following gives scripts
			code, _ := runCommand("dump", []string{"--follow", "--idle", idle.String(), "--", paths[0]}, c.stdout, c.stderr)
			return code
		}
		code, _ := runCommand("info", append([]string{"--"}, paths...), c.stdout, c.stderr)
		return code
	}
	if *follow {
		if _, err := os.Stat(paths[0]); err != nil {
			return c.errorf("%s: %s", paths[0], reason(paths[0], err))
		}
	}
	if err := runTUI(tui.Config{Paths: paths, Theme: *themeName, NoCache: *noCache, Follow: *follow, Idle: *idle}); err != nil {
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

func runTUI(cfg tui.Config) error {
	cfg.Samples, cfg.Input, cfg.Output = samples(), tuiIO.in, tuiIO.out
	return tui.Run(cfg)
}
