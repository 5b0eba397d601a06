package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"rewind/decoders"
	"rewind/theme"
	"rewind/tui"
)

// rootOptions are rewind's own flags.
type rootOptions struct {
	version bool
	theme   string
	noCache bool
	follow  bool
	idle    time.Duration
}

// rootCommand is rewind without a command: the TUI on the paths (the
// built-in samples without one), or info when standard output is not a
// terminal.
func rootCommand() *cobra.Command {
	o := &rootOptions{}
	cmd := &cobra.Command{
		Use:                   "rewind [FILE|DIR ...]",
		Short:                 "a terminal replay browser and debugger",
		Args:                  cobra.ArbitraryArgs,
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completeRoot,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.BoolVar(&o.follow, "follow", false, "open one file while it is being written (Slippi, teehistorian) and grow the view with it; wait for it to be created")
	f.DurationVar(&o.idle, "idle", 0, "with --follow, stop following (or waiting for the file) after this long without a new byte, e.g. 30s; 0 (the default) follows until the recording ends")
	f.BoolVar(&o.noCache, "no-cache", false, "read every header; neither use nor fill the index in the user's cache directory")
	f.StringVar(&o.theme, "theme", "", "colours: light, dark or auto (default: $REWIND_THEME, else auto)")
	f.BoolVar(&o.version, "version", false, "print the version and exit")
	cmd.RegisterFlagCompletionFunc("theme", fixedWords("auto", "dark", "light"))
	cmd.RegisterFlagCompletionFunc("idle", noFiles)
	return cmd
}

// rootAbout is `rewind --help`'s text: what rewind is, the commands (from
// the command tree, so a new command shows by itself) and the formats
// (from the registry).
func rootAbout(root *cobra.Command) string {
	var b strings.Builder
	b.WriteString("A terminal replay browser and debugger: open a replay, scrub it frame by frame,\nsee which bytes broke.\n\n")
	b.WriteString("Commands:\n")
	rows := [][2]string{{"rewind [FILE|DIR ...]", "open replays in the TUI (no argument: your library, else the built-in samples)"},
		{"rewind --follow [--idle D] FILE", "open a replay while it is being written (Slippi, teehistorian); the view grows with it"}}
	for _, sub := range root.Commands() {
		if sub.IsAvailableCommand() {
			rows = append(rows, [2]string{sub.UseLine(), sub.Short})
		}
	}
	rows = append(rows, [2]string{"rewind help [COMMAND]", "this text, or a command's"})
	for _, r := range rows {
		b.WriteString("  " + r[0] + "\n")
		b.WriteString(wrapIndented("      ", r[1], 80))
	}
	b.WriteString("\nWith standard output not a terminal, rewind without a command prints info.\n")
	var formats []string
	for _, f := range decoders.Formats {
		formats = append(formats, strings.TrimSuffix(strings.TrimSuffix(f.Name, " replay"), " file")+" "+strings.Join(f.Exts, " "))
	}
	b.WriteString(wrapIndented("", "Formats are detected by content, not by name: "+strings.Join(formats, ", ")+".", 80))
	return b.String()
}

func (o *rootOptions) run(c *call, paths []string) int {
	if o.follow && len(paths) != 1 {
		return c.errorf("--follow opens one file, and %d were given", len(paths))
	}
	if o.version {
		fmt.Fprintln(c.stdout, versionLine())
		return 0
	}
	if o.theme != "" {
		if _, _, err := theme.ParseChoice(o.theme); err != nil {
			return c.errorf("--theme: %v", err)
		}
	}
	// a word that is neither a command nor a file is a mistyped command
	if len(paths) > 0 && !strings.ContainsAny(paths[0], `./\`) && !o.follow {
		if _, err := os.Lstat(paths[0]); err != nil {
			return c.errorf("%s is neither a command nor a file; the commands are %s (rewind --help)", paths[0], commandNames(c.root))
		}
	}
	if c.stdout != io.Writer(os.Stdout) || !isTerminal(os.Stdout) {
		if o.follow {
			// for a pipe, what following gives scripts
			return (&dumpOptions{json: true, follow: true, idle: o.idle}).run(c.as("dump"), paths)
		}
		return (&infoOptions{}).run(c.as("info"), paths)
	}
	if o.follow {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		err := waitForFile(ctx, c, paths[0], o.idle)
		stop()
		if err != nil {
			return c.errorf("%s", err)
		}
	}
	settings := loadSettings()
	settingsSaid.Do(func() {}) // its problems show in the browser, not under it
	cfg := tui.Config{Paths: paths, Theme: o.theme, NoCache: o.noCache, Follow: o.follow, Idle: o.idle, Settings: settings}
	if len(paths) == 0 {
		lib, from := c.libraryPaths(nil)
		cfg.Paths = lib
		if lib != nil {
			cfg.Title = strings.Join(tildes(lib), " ") + " (" + from + ")"
		} else {
			cfg.Notes = append(cfg.Notes, samplesHint())
		}
		for _, p := range settings.Problems {
			cfg.Notes = append(cfg.Notes, "config: "+strings.Replace(p.Error(), p.File, homeTilde(p.File), 1))
		}
	}
	if err := runTUI(cfg); err != nil {
		c.notef("%v", err)
		return 1
	}
	return 0
}

// as is the call as another command, for what rewind itself hands over
// (info when piped): its mistakes are that command's.
func (c *call) as(name string) *call {
	d := *c
	d.prog, d.name = "rewind "+name, name
	return &d
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
