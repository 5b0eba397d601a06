// Package cli is rewind's command line: one file per command (info.go,
// dump.go, check.go, ...), each a function that returns its cobra.Command
// with its flags; commands below is the table of contents. tui_run.go is
// rewind itself (the TUI); cli.go holds what the commands share, help.go
// the help and the wording of mistakes, inputs.go turns paths into files
// to read. main.go at the module's root hands the arguments to Run.
package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/cobra"

	"rewind/theme"
)

// samplesFS holds the built-in sample library (small real replays of every
// format) as its folder samples/: embedded by main.go at the root, where
// testdata/samples is, and handed over by Run.
var samplesFS fs.FS

// samples is the sample library's folder.
func samples() fs.FS {
	sub, err := fs.Sub(samplesFS, "samples")
	if err != nil {
		return samplesFS
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
	followCommand,
	diffCommand,
	repairCommand,
	findCommand,
	exportCommand,
	watchCommand,
	runCommand,
	configCommand,
	completionCommand,
	manCommand,
}

// Run runs rewind with args, with the built-in sample library as the
// folder samples/ of the file system samples, and returns the exit status: the command's own, or 2 for a mistake on
// the command line, said in one sentence.
func Run(args []string, stdout, stderr io.Writer, samples fs.FS) int {
	samplesFS = samples
	return run(args, stdout, stderr)
}

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
