package cli

// Help and mistakes on the command line: every command's help (on stdout,
// exit 0, from --help, -h or rewind help COMMAND), and one sentence with
// exit status 2 for each mistake cobra and pflag find, worded as rewind
// words its own.

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// notesKey is the annotation a command's notes live under: what it writes
// and its exit statuses, printed after the flags (and in its man page).
const notesKey = "notes"

// writeHelp is every command's help, in cobra's layout: what the command
// does (Long), its usage line, its subcommands, its flags and its notes.
func writeHelp(w io.Writer, cmd *cobra.Command) {
	cmd.InitDefaultHelpFlag() // shown though help was asked through rewind help
	var b strings.Builder
	if long := strings.TrimRight(cmd.Long, " \n"); long != "" {
		b.WriteString(long + "\n\n")
	} else if cmd.Short != "" {
		b.WriteString(cmd.Short + "\n\n")
	}
	fmt.Fprintf(&b, "Usage:\n  %s\n", cmd.UseLine())
	if cmd.HasParent() && cmd.HasAvailableSubCommands() {
		b.WriteString("\nCommands:\n")
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				fmt.Fprintf(&b, "  %-*s  %s\n", sub.NamePadding(), sub.Name(), sub.Short)
			}
		}
	}
	if cmd.HasAvailableLocalFlags() {
		b.WriteString("\nFlags:\n")
		b.WriteString(strings.TrimRight(cmd.LocalFlags().FlagUsagesWrapped(80), " \n") + "\n")
	}
	if notes := strings.TrimRight(cmd.Annotations[notesKey], " \n"); notes != "" {
		b.WriteString("\n" + notes + "\n")
	}
	io.WriteString(w, b.String())
}

// helpCommand is `rewind help [COMMAND]`: the root's help, or a command's;
// a word that names no command is a mistake (exit 2), unlike cobra's own
// help command, which says so on stdout and exits 0.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:                   "help [COMMAND]",
		Short:                 "this text, or a command's",
		Long:                  "Print the help of rewind, or of one of its commands (rewind help check).",
		Annotations:           map[string]string{notesKey: "Exit status: 0, or 2 when no command has the name given."},
		DisableFlagsInUseLine: true,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var names []cobra.Completion
			if len(args) == 0 {
				for _, sub := range cmd.Root().Commands() {
					if (sub.IsAvailableCommand() || sub == cmd) && strings.HasPrefix(sub.Name(), toComplete) {
						names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
					}
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := helpFor(cmd.Root(), newCall(cmd), args); code != 0 {
				return exitStatus(code)
			}
			return nil
		},
	}
}

// helpFor runs `rewind help ARGS` under root.
func helpFor(root *cobra.Command, c *call, args []string) int {
	if len(args) == 0 {
		writeHelp(c.stdout, root)
		return 0
	}
	target, rest, err := root.Find(args)
	if err != nil || target == root || len(rest) > 0 {
		c.prog = "rewind help"
		return c.errorf("no command %q; the commands are %s", strings.Join(args, " "), commandNames(root))
	}
	writeHelp(c.stdout, target)
	return 0
}

// commandNames lists the commands rewind --help lists, for a mistake.
func commandNames(root *cobra.Command) string {
	var names []string
	for _, sub := range root.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return strings.Join(names, ", ")
}

// mistake words an error cobra or pflag returned as one sentence (without
// the "rewind check: " in front).
func mistake(cmd *cobra.Command, err error) string {
	var (
		unknown  *pflag.NotExistError
		syntax   *pflag.InvalidSyntaxError
		required *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
	)
	lists := fmt.Sprintf("(%s --help lists the flags)", cmd.CommandPath())
	switch {
	case errors.As(err, &unknown):
		as := "--" + unknown.GetSpecifiedName()
		if s := unknown.GetSpecifiedShortnames(); s != "" {
			as = "-" + s // the argument as typed: -x=1, -game.slp
		}
		return fmt.Sprintf("unknown flag %s %s", as, lists)
	case errors.As(err, &syntax):
		return fmt.Sprintf("unknown flag %s %s", syntax.GetSpecifiedFlag(), lists)
	case errors.As(err, &required):
		f := required.GetFlag()
		as := "--" + f.Name
		if required.GetSpecifiedShortnames() != "" {
			as = "-" + f.Shorthand
		}
		return fmt.Sprintf("%s needs a value, like %s %s", as, as, example(f))
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		as, value := "--"+f.Name, invalid.GetValue()
		switch f.Value.Type() {
		case "bool":
			return fmt.Sprintf("%s takes true or false, not %q", as, value)
		case "duration":
			return fmt.Sprintf("%s %s: not a duration; write it like 30s, 1m30s or 0", as, value)
		}
		return fmt.Sprintf("%s %s: %v", as, value, errors.Unwrap(invalid))
	}
	return err.Error()
}

// example is the first example a flag's usage gives ("like -123..0"), or
// its argument's name.
func example(f *pflag.Flag) string {
	if _, after, ok := strings.Cut(f.Usage, "e.g. "); ok {
		if w := strings.Fields(after); len(w) > 0 {
			return strings.TrimRight(w[0], ",;)")
		}
	}
	arg, _ := pflag.UnquoteUsage(f)
	return arg
}

// oneDashLongFlags rewrites -name to --name where name is a long flag of
// the command args run (-json, -help, -quiet): rewind's flags were written
// either way before it used pflag, which reads -json as -j -s -o -n, and
// scripts keep working. A single letter stays a shorthand (-o, -h), and
// everything after -- stays as it is.
func oneDashLongFlags(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == nil {
		cmd = root
	}
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		if a == "--" {
			break
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		if len(name) > 1 && (name == "help" || cmd.Flags().Lookup(name) != nil) {
			out[i] = "-" + a
		}
	}
	return out
}
