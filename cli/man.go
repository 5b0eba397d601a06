package cli

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// manCommand is `rewind man DIR`: the manual pages, rewind.1 and one per
// command (rewind-check.1, ...), made by cobra's doc generator from the
// same text as the help. It is hidden, as gh keeps its page generator out
// of the commands people use: it is for whoever packages rewind (make the
// pages once, install them with the binary), not for reading replays. The
// README names it.
func manCommand() *cobra.Command {
	return &cobra.Command{
		Use:                   "man DIR",
		Short:                 "write the manual pages (rewind.1, rewind-info.1, ...) to DIR",
		Long:                  "Write the manual pages of rewind and each of its commands, section 1, to DIR (created if missing), for packaging: man -l DIR/rewind.1 reads one.",
		Annotations:           map[string]string{notesKey: "Exit status: 0, or 2 when DIR cannot be written or the command line is wrong."},
		Hidden:                true,
		DisableFlagsInUseLine: true,
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveFilterDirs
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			c := newCall(cmd)
			if len(args) != 1 {
				return exitStatus(c.errorf("name the folder to write the pages to, like rewind man ./man1"))
			}
			dir := args[0]
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return exitStatus(c.errorf("%s", withPath(c.epath(dir), err)))
			}
			root := cmd.Root()
			withNotes(root)
			root.DisableAutoGenTag = true // the same pages from the same source
			header := &doc.GenManHeader{Title: "REWIND", Section: "1", Source: manSource(), Manual: "rewind manual"}
			if err := doc.GenManTree(root, header, dir); err != nil {
				return exitStatus(c.errorf("%v", err))
			}
			pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
			c.notef("wrote %d pages to %s", len(pages), c.epath(dir))
			return nil
		},
	}
}

// withNotes puts each command's notes (output, exit status) at the end of
// its description, where a man page has them; the help prints them after
// the flags instead.
func withNotes(cmd *cobra.Command) {
	cmd.InitDefaultHelpFlag()
	if notes := cmd.Annotations[notesKey]; notes != "" {
		cmd.Long = strings.TrimRight(cmd.Long, "\n") + "\n\n" + notes
	}
	for _, sub := range cmd.Commands() {
		withNotes(sub)
	}
}

// manSource is the pages' source line: rewind and its module version
// when the build has one (the footer has no room for --version's whole
// line).
func manSource() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return strings.TrimSpace("rewind " + v)
}
