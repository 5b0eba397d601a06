// rewind is a terminal replay browser and debugger for game replays: the
// formats the decoders registry lists (decoders.Formats), each declared in
// its own package under decoders/.
//
// The command line is built with cobra. Each command lives in its own file
// (info.go, dump.go, check.go, ...) as a function that returns its
// cobra.Command with its flags; main.go lists them (commands) and runs the
// one asked for. tui_run.go is rewind itself (the TUI); cli.go holds what
// the commands share, help.go the help and the wording of mistakes,
// inputs.go turns paths into files to read.
package main

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"rewind/theme"
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

// commands is the table of contents: every command under rewind, in the
// order rewind --help lists them. A new command is one file with a
// function that returns its cobra.Command, and one line here.
var commands = []func() *cobra.Command{
	infoCommand,
	dumpCommand,
	checkCommand,
	statsCommand,
	momentsCommand,
	diffCommand,
	repairCommand,
	findCommand,
	exportCommand,
	completionCommand,
	manCommand,
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs rewind with args and returns the exit status: the command's
// own, or 2 for a mistake on the command line, said in one sentence.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(oneDashLongFlags(root, args))
	cmd, err := root.ExecuteC()
	var status exitStatus
	switch {
	case err == nil:
		return 0
	case errors.As(err, &status):
		return int(status)
	}
	if cmd == nil {
		cmd = root
	}
	fmt.Fprintf(stderr, "%s: %s\n", cmd.CommandPath(), theme.Safe(mistake(cmd, err)))
	return 2
}

// newRoot builds the command tree: rewind, the commands under it, help.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	cobra.EnableCommandSorting = false // the order of commands above
	root := rootCommand()
	for _, c := range commands {
		root.AddCommand(c())
	}
	root.SetHelpCommand(helpCommand())
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) { writeHelp(cmd.OutOrStdout(), cmd) })
	root.SetUsageFunc(func(cmd *cobra.Command) error { writeHelp(cmd.OutOrStdout(), cmd); return nil })
	root.CompletionOptions.DisableDefaultCmd = true // completion.go is rewind's own
	root.SilenceErrors, root.SilenceUsage = true, true
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.Long = rootAbout(root)
	return root
}
