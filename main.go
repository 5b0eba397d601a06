// rewind is a terminal replay browser and debugger for Slippi (.slp),
// BSOR (.bsor), DDNet teehistorian, F-Zero GX (.gci) and StarCraft II
// (.SC2Replay) replays.
//
// Each command lives in its own file (info.go, dump.go, check.go, ...);
// cli.go holds what they share (flags, help, version); inputs.go turns
// paths into files to read; tui_run.go starts the TUI.
package main

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"rewind/decoders"
	"strings"
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

// commands is the table of contents: every subcommand, its usage line and
// what it does in a few words, in the order `rewind --help` lists them.
var commands = []struct {
	name, synopsis, summary string
	run                     func(c *command, args []string) int
}{
	{"info", "rewind info [--json] [--check] [--no-cache] [FILE|DIR ...]", "summary of each replay, header only (no argument: the samples)", cmdInfo},
	{"dump", "rewind dump [--frames A..B | --follow [--idle D]] [--json] FILE", "NDJSON: the replay, its moments, one object per frame, one per diagnostic; --follow: a file still being written", cmdDump},
	{"check", "rewind check [--json] [--quiet] PATH...", "decode every replay under PATH on all cores and report problems", cmdCheck},
	{"stats", "rewind stats [--json] FILE|DIR...", "per-player stats (Slippi: slippi-js getStats() in the JSON)", cmdStats},
	{"diff", "rewind diff [--json] [--limit N] [--as same|different] [--pair A=B] [--ignore KEY] A B", "compare two replays: where one game's files first differ, or two games side by side", cmdDiff},
	{"repair", "rewind repair FILE -o OUT [--force] [--json]", "repair a damaged replay into a new file, saying what was kept and cut", cmdRepair},
	{"find", "rewind find [--json] [--no-cache] PATH... QUERY", "the replays under PATH that match a query (rewind help find)", cmdFind},
	{"export", "rewind export --out DIR [--shard i/n] [--quiet] PATH...", "a Parquet dataset of replays, players, moments, events, diagnostics and frames", cmdExport},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "help" {
			return cmdHelp(args[1:], stdout, stderr)
		}
		if code, ok := runCommand(args[0], args[1:], stdout, stderr); ok {
			return code
		}
	}
	return cmdRoot(newCommand("", "rewind [FILE|DIR ...]", stdout, stderr), args)
}

// runCommand runs the subcommand called name, if there is one.
func runCommand(name string, args []string, stdout, stderr io.Writer) (int, bool) {
	for _, cmd := range commands {
		if name == cmd.name {
			return cmd.run(newCommand(cmd.name, cmd.synopsis, stdout, stderr), args), true
		}
	}
	return 0, false
}

// cmdHelp is `rewind help [COMMAND]`.
func cmdHelp(args []string, stdout, stderr io.Writer) int {
	root := newCommand("", "rewind [FILE|DIR ...]", stdout, stderr)
	if len(args) == 0 {
		return cmdRoot(root, []string{"--help"})
	}
	if code, ok := runCommand(args[0], []string{"--help"}, stdout, stderr); ok {
		return code
	}
	return root.errorf("no command %q; the commands are %s", args[0], commandNames())
}

func commandNames() string {
	var names []string
	for _, cmd := range commands {
		names = append(names, cmd.name)
	}
	return strings.Join(names, ", ")
}

// rootAbout is `rewind --help`: the commands, listed from the table.
func rootAbout() string {
	var b strings.Builder
	b.WriteString("A terminal replay browser and debugger: open a replay, scrub it frame by frame,\nsee which bytes broke.\n\n")
	b.WriteString("Commands:\n")
	rows := [][2]string{{"rewind [FILE|DIR ...]", "open replays in the TUI (no argument: the built-in samples)"},
		{"rewind --follow [--idle D] FILE", "open a replay while it is being written (Slippi, teehistorian); the view grows with it"}}
	for _, cmd := range commands {
		rows = append(rows, [2]string{cmd.synopsis, cmd.summary})
	}
	rows = append(rows, [2]string{"rewind help [COMMAND]", "this text, or a command's"})
	for _, r := range rows {
		fmt.Fprintf(&b, "  %s\n      %s\n", r[0], r[1])
	}
	b.WriteString("\nWith standard output not a terminal, rewind without a command prints info.\n")
	var formats []string
	for _, f := range decoders.Formats {
		formats = append(formats, strings.TrimSuffix(strings.TrimSuffix(f.Name, " replay"), " file")+" "+strings.Join(f.Exts, " "))
	}
	b.WriteString(wrapIndented("", "Formats are detected by content, not by name: "+strings.Join(formats, ", ")+".", 80))
	return b.String()
}
