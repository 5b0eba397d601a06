package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"rewind/config"
	"rewind/library"
	"rewind/library/aggregate"
	"rewind/model"
	"rewind/theme"
)

// rewind config: where the config file is, a commented example to start
// one, what rewind read from it, and a guess at who "me" is.

const configAbout = `rewind's settings live in one TOML file in the user's config directory
(config.toml in the rewind folder: $XDG_CONFIG_HOME or ~/.config on Linux,
~/Library/Application Support on macOS, %AppData% on Windows; $REWIND_CONFIG
names another). Every key is optional:

  library = ["~/Slippi"]     the folders rewind, info, find, stats, moments
                             and export read when given no path
  me = ["ABCD#123"]          who you are (codes, toon handles, ids or names):
                             @me, is:win and stats --player @me
  [slippi] dolphin, iso      the playback Dolphin and Melee ISO for watch
  [osu] command              how to hand an .osr to osu!
  [[action]] name, key, formats, command
                             commands run on a replay (rewind run, the TUI)

Without a library, rewind reads the replay folders the games keep by default
that exist here (Slippi Launcher's, StarCraft II's, osu!'s, BeatLeader's),
and, when there is none, its built-in samples.

rewind config alone prints the file's path, what rewind read from it and
anything wrong with it. rewind never writes the file unless asked: config
init writes a commented example, and only where there is no file yet.`

const configNotes = `Writes: rewind config, the file's path and the settings read (with --json one
object: file, exists, library, me, slippi, osu, actions, problems); config
path, the path alone; config init, the path written; config me --guess, a
"me = [...]" to paste, the players of the most games first (--json: one
object per player: who, name, games).

Exit status: 0; 1 when the config file has problems (config, which still
prints what it read); 2 when init finds a file already there, or the command
line is wrong.`

type configOptions struct {
	json  bool
	guess bool
	limit int
}

func configCommand() *cobra.Command {
	o := &configOptions{}
	cmd := &cobra.Command{
		Use:                   "config [path|init|me --guess [PATH...]] [--json]",
		Short:                 "where rewind's settings are, what it read, and who you are",
		Long:                  configAbout,
		Annotations:           map[string]string{notesKey: configNotes},
		DisableFlagsInUseLine: true,
		Args:                  cobra.NoArgs,
		RunE:                  runs(o.show),
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "write what was read as one JSON object")
	path := &cobra.Command{
		Use:                   "path",
		Short:                 "print the config file's path (it may not exist yet)",
		Annotations:           map[string]string{notesKey: "Writes the path. Exit status: 0, or 2 when there is no config directory."},
		DisableFlagsInUseLine: true,
		Args:                  cobra.NoArgs,
		RunE: runs(func(c *call, _ []string) int {
			p, err := config.Path()
			if err != nil {
				return c.errorf("%v", err)
			}
			fmt.Fprintln(c.stdout, p)
			return 0
		}),
	}
	initCmd := &cobra.Command{
		Use:                   "init",
		Short:                 "write a commented example config file, never over one",
		Annotations:           map[string]string{notesKey: "Writes the path of the file made. Exit status: 0, or 2 when a file is already there (it is left as it is) or cannot be written."},
		DisableFlagsInUseLine: true,
		Args:                  cobra.NoArgs,
		RunE: runs(func(c *call, _ []string) int {
			p, err := config.Init()
			if err != nil {
				return c.errorf("%v", err)
			}
			fmt.Fprintln(c.stdout, p)
			return 0
		}),
	}
	me := &cobra.Command{
		Use:                   "me --guess [--limit N] [--json] [PATH...]",
		Short:                 "your replays' players, most games first, as a me = [...] to paste",
		Long:                  "Without --guess, print the identities the config names. With --guess, read the\nreplays under PATH (no path: the library) and list their players (connect\ncode, toon handle or id, else the name) by games played, most first, as a\nTOML list ready to paste into the config file: keep the lines that are you.\nrewind never applies a guess by itself.",
		Annotations:           map[string]string{notesKey: "Exit status: 0; 1 when no replay names a player; 2 when a path cannot be read or the command line is wrong."},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.me),
	}
	me.Flags().BoolVar(&o.guess, "guess", false, "list the players of the replays under PATH (no path: the library)")
	me.Flags().IntVar(&o.limit, "limit", 10, "how many players to list")
	me.Flags().BoolVar(&o.json, "json", false, "one JSON object per player: who, name, games")
	cmd.AddCommand(path, initCmd, me)
	return cmd
}

// configJSON is rewind config --json.
type configJSON struct {
	File     string         `json:"file"`
	Exists   bool           `json:"exists"`
	Library  []string       `json:"library"`
	Me       []string       `json:"me"`
	Slippi   config.Slippi  `json:"slippi"`
	Osu      config.Osu     `json:"osu"`
	Actions  []actionJSON   `json:"actions"`
	Problems []problemJSON  `json:"problems"`
	Reads    map[string]any `json:"reads"`
}

type actionJSON struct {
	Name    string   `json:"name"`
	Key     string   `json:"key,omitempty"`
	Formats []string `json:"formats,omitempty"`
	Command []string `json:"command"`
}

type problemJSON struct {
	Line    int    `json:"line,omitempty"`
	Key     string `json:"key,omitempty"`
	Message string `json:"message"`
}

// show is rewind config: the file, what was read, the problems.
func (o *configOptions) show(c *call, _ []string) int {
	cfg := loadSettings() // the problems are printed below, not as notes
	paths, from := c.quietLibraryPaths(cfg)
	if o.json {
		j := configJSON{File: cfg.File, Exists: cfg.Exists, Library: nonNil(cfg.Library), Me: nonNil(cfg.Me),
			Slippi: cfg.Slippi, Osu: cfg.Osu, Actions: []actionJSON{}, Problems: []problemJSON{},
			Reads: map[string]any{"paths": nonNil(paths), "from": from}}
		for _, a := range cfg.Actions {
			j.Actions = append(j.Actions, actionJSON{a.Name, a.Key, a.Formats, a.Command})
		}
		for _, p := range cfg.Problems {
			j.Problems = append(j.Problems, problemJSON{p.Line, p.Key, p.Msg})
		}
		out := c.jsonOutput()
		writeJSON(out, j)
		out.Flush()
	} else {
		out := c.output()
		state := ""
		if !cfg.Exists {
			state = " (no file yet: rewind config init writes an example)"
		}
		fmt.Fprintf(out, "config   %s%s\n", out.path(cfg.File), state)
		if len(cfg.Library) > 0 {
			fmt.Fprintf(out, "library  %s\n", joinPaths(out, cfg.Library))
		}
		switch {
		case len(paths) > 0:
			fmt.Fprintf(out, "reads    %s (%s)\n", joinPaths(out, paths), from)
		default:
			fmt.Fprintf(out, "reads    the built-in samples (no library, and no game's replay folder here)\n")
		}
		if len(cfg.Me) > 0 {
			fmt.Fprintf(out, "me       %s\n", strings.Join(cfg.Me, ", "))
		} else {
			fmt.Fprintf(out, "me       nobody (rewind config me --guess lists the players in your replays)\n")
		}
		if cfg.Slippi.Dolphin != "" || cfg.Slippi.ISO != "" {
			fmt.Fprintf(out, "slippi   dolphin %s, iso %s\n", orNone(out, cfg.Slippi.Dolphin), orNone(out, cfg.Slippi.ISO))
		}
		if len(cfg.Osu.Command) > 0 {
			fmt.Fprintf(out, "osu      %s\n", strings.Join(cfg.Osu.Command, " "))
		}
		for _, a := range cfg.Actions {
			key, formats := "", ""
			if a.Key != "" {
				key = " (key " + a.Key + ")"
			}
			if len(a.Formats) > 0 {
				formats = " on " + strings.Join(a.Formats, ", ")
			}
			fmt.Fprintf(out, "action   %s%s%s: %s\n", a.Name, key, formats, strings.Join(a.Command, " "))
		}
		for _, p := range cfg.Problems {
			fmt.Fprintf(out, "problem  %s\n", p.Error())
		}
		out.Flush()
	}
	if len(cfg.Problems) > 0 {
		return 1
	}
	return 0
}

// quietLibraryPaths is libraryPaths without paths given and without saying
// the config's problems (config prints them itself).
func (c *call) quietLibraryPaths(cfg config.Config) ([]string, string) {
	settingsSaid.Do(func() {})
	return c.libraryPaths(nil)
}

func joinPaths(out *output, paths []string) string {
	s := make([]string, len(paths))
	for i, p := range paths {
		s[i] = out.path(p)
	}
	return strings.Join(s, ", ")
}

func orNone(out *output, p string) string {
	if p == "" {
		return "(not set)"
	}
	return out.path(p)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// identity is a player across games, as config me --guess --json writes
// it: a code (else the name), the name the code played under most, and
// the games.
type identity struct {
	Who   string `json:"who"`
	Name  string `json:"name,omitempty"`
	Games int    `json:"games"`
}

// me is rewind config me: the identities configured, or with --guess the
// players of the library's replays, most games first.
func (o *configOptions) me(c *call, paths []string) int {
	cfg := c.settings()
	if !o.guess {
		if len(paths) > 0 {
			return c.errorf("paths go with --guess: rewind config me --guess [PATH...]")
		}
		for _, m := range cfg.Me {
			fmt.Fprintln(c.stdout, m)
		}
		if len(cfg.Me) == 0 {
			c.notef("the config names nobody; rewind config me --guess lists the players in your replays")
		}
		return 0
	}
	if o.limit < 1 {
		return c.errorf("--limit takes a count of 1 or more, not %d", o.limit)
	}
	walk, from := c.walkFrom(paths)
	idx, done := c.openIndex()
	defer done()
	opt := library.ScanOptions{Index: idx}
	var games []aggregate.Game // players alone: what Frequent counts
	replays, unreadable := 0, false
	library.Scan(context.Background(), walk, opt, func(h library.Header) bool {
		switch {
		case h.Kind == library.Unreadable:
			unreadable = true
			c.notef("%s: %s", c.epath(h.Path), reason(h.Path, errors.New(h.Err)))
			return true
		case h.Kind != library.File || h.Err != "":
			return true
		}
		replays++
		g := aggregate.FromHeader(&h)
		games = append(games, aggregate.Game{Players: g.Players})
		return true
	})
	list := aggregate.Frequent(games)
	if len(list) == 0 {
		if unreadable && replays == 0 {
			return 2 // the sentence naming the path said it all
		}
		c.notef("no player is named in the %s replay%s%s", model.FormatCount(int64(replays)), plural(replays), fromText(from))
		if unreadable {
			return 2
		}
		return 1
	}
	list = list[:min(len(list), o.limit)]
	if o.json {
		out := c.jsonOutput()
		for _, id := range list {
			writeJSON(out, identity(id))
		}
		out.Flush()
	} else {
		out := c.output()
		file := cfg.File
		if file == "" {
			file = "the config file"
		}
		fmt.Fprintf(out, "# the players of %s replay%s%s, most games first:\n", model.FormatCount(int64(replays)), plural(replays), fromText(from))
		fmt.Fprintf(out, "# keep the lines that are you, and paste them into %s\n", out.path(file))
		fmt.Fprintln(out, "me = [")
		w := 0
		for _, id := range list {
			w = max(w, len(strconv.Quote(id.Who)))
		}
		for _, id := range list {
			q := strconv.Quote(id.Who) + ","
			note := model.FormatCount(int64(id.Games)) + " game"
			if id.Games != 1 {
				note += "s"
			}
			if id.Name != "" {
				note = theme.Safe(id.Name) + ", " + note
			}
			fmt.Fprintf(out, "  %-*s  # %s\n", w+1, q, note)
		}
		fmt.Fprintln(out, "]")
		out.Flush()
	}
	if unreadable {
		return 2
	}
	return 0
}

// fromText says where replays were read for a sentence: " under ~/Slippi".
func fromText(from string) string {
	if from == "" {
		return ""
	}
	return " (" + from + ")"
}
