package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"rewind/decoders"
	"rewind/decoders/pack"
)

const completionAbout = `Write a script that makes the shell complete rewind's commands, flags and
paths: folders, files with a replay's extension (.slp, .bsor, .SC2Replay,
... in any case), packs (.zip, .tar, .tar.gz, .slp.gz, ...) and, after
pack.zip/, the replays inside a pack.

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
		// "games.zip/" or "games.zip/2024/Ga": the word goes into a pack
		return completeMembers(list, dir, base)
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
		case pack.HasPackExt(name, decoders.HasReplayExt):
			// a pack is read whole as it is, or gone into with a slash:
			// the word stops at its name so either can follow
			out = append(out, dir+name)
			folders++
		}
	}
	directive := cobra.ShellCompDirectiveNoFileComp
	if len(out) == 1 && folders == 1 {
		directive |= cobra.ShellCompDirectiveNoSpace // into the folder or pack, not past it
	}
	return out, directive
}

// completeMembers completes a word that goes into a pack: list is the
// part of it up to the last slash as a path to open ("games.zip/2024/"),
// dir the same as typed, and base what follows. The pack's folders come
// with a slash, as a folder on disk does, and its members with a replay's
// extension as they are. A list that leads to no pack completes nothing.
func completeMembers(list, dir, base string) ([]cobra.Completion, cobra.ShellCompDirective) {
	none := cobra.ShellCompDirectiveNoFileComp
	packPath, inner := strings.TrimSuffix(list, "/"), ""
	if st, err := os.Stat(packPath); err != nil || !st.Mode().IsRegular() {
		var ok bool
		if packPath, inner, ok = pack.Split(packPath); !ok {
			return nil, none
		}
		inner += "/"
	}
	pk, err := pack.Open(packPath)
	if err != nil {
		return nil, none
	}
	defer pk.Close()
	prefix := inner + base
	var out []cobra.Completion
	folders := map[string]bool{}
	for _, m := range pk.Members() {
		rest, ok := strings.CutPrefix(m.Name, prefix)
		if !ok || !decoders.HasReplayExt(m.Name) {
			continue
		}
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			// a folder inside the pack that holds a replay, once however
			// many it holds
			if sub := base + rest[:i+1]; !folders[sub] {
				folders[sub] = true
				out = append(out, dir+sub)
			}
			continue
		}
		out = append(out, dir+base+rest)
	}
	slices.Sort(out)
	directive := none
	if len(out) == 1 && len(folders) == 1 {
		directive |= cobra.ShellCompDirectiveNoSpace
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
