package cli

import (
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"rewind/actions"
	"rewind/config"
)

const runAbout = `Run an action of the config file on a replay: a command of your own, given
the replay's path, a frame, a time or a player in its words. The TUI runs
the same actions with their keys.

  [[action]]
  name = "clip"
  key = "C"              # its key in the TUI (optional)
  formats = ["slippi"]   # the formats it is for (optional: every format)
  command = "obs-cli recording start --name {player}-{frame}"

The command line is split into words (quotes group words, a backslash
escapes a space or a quote; a list of words works too) and run without a
shell. In each word {path} becomes the replay's absolute path, {frame}
and {start} the --at frame (the first frame without it), {end} the --to
frame (the last frame without it), {time} the --at frame's game time in
seconds, {player} what --player says, and {queue} a Slippi Dolphin queue
file of that stretch. A file or player name is one word whatever it
holds: spaces, quotes, ;, $(...) and newlines reach the command as they
are, because no shell reads them.

run waits for the command, which reads and writes rewind's own input and
output, and exits with its exit status, as the command run by hand would,
so a script can rely on it. (The TUI's keys start the command and go on.)
`

const runNotes = `Output: the command's own; rewind writes one sentence on stderr when it
cannot run it, starting "rewind run:".

Exit status: the command's (128 + the signal's number when a signal ended
it), or 2 when rewind could not run it: the config file has no [[action]]
(the sentence names the key), no action has the name, the action is not
for the replay's format, its program cannot be started, the file cannot be
read or the command line is wrong.
`

// runOptions are run's flags.
type runOptions struct {
	at, to, player string
}

func runCommand() *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:                   "run [--at FRAME|TIME] [--to FRAME|TIME] [--player WHO] ACTION FILE",
		Short:                 "run an action of the config file on a replay, and wait for it",
		Long:                  runAbout,
		Annotations:           map[string]string{notesKey: runNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completeRun,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.StringVar(&o.at, "at", "", "{frame}, {start} and {time} at `FRAME|TIME`: a frame number or a game time, e.g. 600 or 1:23.4")
	f.StringVar(&o.to, "to", "", "{end} at `FRAME|TIME`, e.g. 900 or 1:30")
	f.StringVar(&o.player, "player", "", "{player}: this `WHO` (a name, a code, anything), as written")
	for _, name := range []string{"at", "to", "player"} {
		cmd.RegisterFlagCompletionFunc(name, noFiles)
	}
	return cmd
}

func (o *runOptions) run(c *call, args []string) int {
	if len(args) != 2 {
		return c.errorf("name an action and a replay, like rewind run clip game.slp")
	}
	cfg := config.Load()
	a, err := actions.Find(cfg, args[0])
	if err != nil {
		return configError(c, cfg, err)
	}
	_, req, code := replayAt(c, args[1], o.at, o.to)
	if code != 0 {
		return code
	}
	req.Player = o.player
	// Ctrl-C in the terminal reaches the command too; rewind outlives it
	// to pass on its status. (Caught, not ignored: an ignored signal would
	// stay ignored in the command.)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	status, err := actions.NewPlayer("").Wait(cfg, a, req, os.Stdin, c.stdout, c.stderr)
	if err != nil {
		return configError(c, cfg, err)
	}
	return status
}

// completeRun completes run's arguments: the actions of the config file,
// then a replay's path.
func completeRun(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return completePaths(cmd, args, toComplete)
	}
	var out []cobra.Completion
	for _, a := range config.Load().Actions {
		if strings.HasPrefix(strings.ToLower(a.Name), strings.ToLower(toComplete)) {
			out = append(out, cobra.CompletionWithDesc(a.Name, strings.Join(a.Command, " ")))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
