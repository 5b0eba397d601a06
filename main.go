// rewind is a terminal replay browser and debugger for Slippi (.slp),
// BSOR (.bsor), DDNet teehistorian, F-Zero GX (.gci) and StarCraft II
// (.SC2Replay) replays.
//
//	rewind [FILE|DIR ...]          open the browser or a replay (the built-in samples with no argument)
//	rewind info [--json] FILE...   summary of each replay
//	rewind dump [--frames A:B] --json FILE   NDJSON: replay, frames, diagnostics
//	rewind check [--json] PATH...  find broken replays; exit 0 clean, 1 problems, 2 unreadable
//	rewind find [--json] PATH... QUERY   the replays that match a query
//	rewind export --out DIR PATH...      a Parquet dataset for DuckDB, Spark, pandas
//
// When standard output is not a terminal, rewind with no subcommand prints
// `info` instead of starting the TUI.
package main

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
)

// samples is the built-in sample library: small real replays of every format.
//
//go:embed testdata/samples
var samplesFS embed.FS

func samples() fs.FS {
	sub, err := fs.Sub(samplesFS, "testdata/samples")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	return sub
}

const usage = `rewind: a terminal replay browser and debugger

Usage:
  rewind [--no-cache] [FILE|DIR ...]    open replays in the TUI (no argument: the built-in samples)
  rewind info [--json] [FILE|DIR ...]   summary of each replay (no argument: the samples)
  rewind dump [--frames A:B] [--json] FILE
                                        NDJSON: the replay, one object per frame, one per diagnostic
  rewind check [--json] PATH...         decode every replay under PATH and report problems;
                                        exit 0 clean, 1 problems found, 2 unreadable
  rewind find [--json] PATH... QUERY    the replays under PATH that match a query (rewind help find)
  rewind export --out DIR [--shard i/n] PATH...
                                        write a Parquet dataset: replays, players, moments, events,
                                        diagnostics and frames per format, partitioned by format
  rewind help [COMMAND]                 this text, or a command's

Formats (detected by content, not by name): Slippi .slp, BSOR .bsor, DDNet .teehistorian,
F-Zero GX .gci, StarCraft II .SC2Replay.

Headers read by the browser and find are kept in an index in the user's cache directory
($XDG_CACHE_HOME/rewind); --no-cache reads every file instead.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks a command-line mistake: exit code 2 with the usage text.
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "info":
			return cmdInfo(args[1:], stdout, stderr)
		case "dump":
			return cmdDump(args[1:], stdout, stderr)
		case "check":
			return cmdCheck(args[1:], stdout, stderr)
		case "find":
			return cmdFind(args[1:], stdout, stderr)
		case "export":
			return cmdExport(args[1:], stdout, stderr)
		case "help", "-h", "-help", "--help":
			if len(args) > 1 {
				return run([]string{args[1], "--help"}, stdout, stderr)
			}
			fmt.Fprint(stdout, usage)
			return 0
		case "--":
			args = args[1:]
		}
	}
	noCache := false
	args = slices.DeleteFunc(slices.Clone(args), func(a string) bool {
		noCache = noCache || a == "--no-cache" || a == "-no-cache"
		return a == "--no-cache" || a == "-no-cache"
	})
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' {
			fmt.Fprintf(stderr, "rewind: unknown flag %s\n\n%s", a, usage)
			return 2
		}
	}
	if !isTerminal(os.Stdout) || stdout != io.Writer(os.Stdout) {
		return cmdInfo(args, stdout, stderr)
	}
	if err := runTUI(args, noCache); err != nil {
		fmt.Fprintln(stderr, "rewind:", err)
		return 1
	}
	return 0
}

// isTerminal reports whether f is a character device, without a dependency.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
