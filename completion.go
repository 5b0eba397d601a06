package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"rewind/decoders"
)

const completionAbout = `Write a script that makes the shell complete rewind's commands, flags and
paths: folders, and files with a replay's extension (.slp, .bsor, .SC2Replay,
... in any case).

  bash        source <(rewind completion bash)
              (or save it in /etc/bash_completion.d/rewind; bash-completion
              is needed, as for every cobra program's bash completion)
  zsh         rewind completion zsh > "${fpath[1]}/_rewind"
              (compinit must be on: autoload -U compinit; compinit)
  fish        rewind completion fish > ~/.config/fish/completions/rewind.fish
  powershell  rewind completion powershell | Out-String | Invoke-Expression
`

// completionCommand is `rewind completion SHELL`: cobra's generators, with
// descriptions, for the four shells they know.
func completionCommand() *cobra.Command {
	shells := []string{"bash", "zsh", "fish", "powershell"}
	return &cobra.Command{
		Use:                   "completion bash|zsh|fish|powershell",
		Short:                 "a script for the shell to complete commands, flags and replay paths",
		Long:                  completionAbout,
		Annotations:           map[string]string{notesKey: "Exit status: 0, or 2 when the shell is not one of the four."},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     fixedWords(shells...),
		RunE: func(cmd *cobra.Command, args []string) error {
			c := newCall(cmd)
			if len(args) != 1 {
				return exitStatus(c.errorf("name one shell: %s", strings.Join(shells, ", ")))
			}
			root, w := cmd.Root(), c.stdout
			var err error
			switch args[0] {
			case "bash":
				err = root.GenBashCompletionV2(w, true)
			case "zsh":
				err = root.GenZshCompletion(w)
			case "fish":
				err = root.GenFishCompletion(w, true)
			case "powershell":
				err = root.GenPowerShellCompletionWithDesc(w)
			default:
				return exitStatus(c.errorf("no completion for %q; the shells are %s", args[0], strings.Join(shells, ", ")))
			}
			if err != nil {
				return exitStatus(c.errorf("%v", err))
			}
			return nil
		},
	}
}

// completePaths completes replay paths: folders (with a slash, so the next
// tab goes in) and files with a registered extension, in any case
// (.SC2Replay is .sc2replay in the registry). Hidden entries show only
// when the word starts with a dot. It lists the folder itself rather than
// asking the shell to filter by extension: the shells' filters are case
// sensitive, and at rewind's top level paths share the word with command
// names.
func completePaths(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	dir, base := filepath.Split(toComplete)
	list := dir
	if list == "" {
		list = "."
	} else if strings.HasPrefix(list, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			list = filepath.Join(home, list[2:])
		}
	}
	ents, err := os.ReadDir(list)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	folders := 0
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(list, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		switch {
		case isDir:
			out = append(out, dir+name+"/")
			folders++
		case decoders.HasReplayExt(name):
			out = append(out, dir+name)
		}
	}
	directive := cobra.ShellCompDirectiveNoFileComp
	if len(out) == 1 && folders == 1 {
		directive |= cobra.ShellCompDirectiveNoSpace // into the folder, not past it
	}
	return out, directive
}

// completeRoot completes rewind's own arguments: cobra offers the command
// names; paths come too, unless the word starts a command name, so
// "rewind st<TAB>" is "rewind stats".
func completeRoot(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) == 0 && toComplete != "" {
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
		}
	}
	return completePaths(cmd, args, toComplete)
}

// fixedWords completes one of words (a flag's value, a shell).
func fixedWords(words ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, w := range words {
			if strings.HasPrefix(w, toComplete) {
				out = append(out, w)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// noFiles completes a flag's value that is no path (a duration, a range).
func noFiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}
