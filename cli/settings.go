package cli

// The config file as a run of rewind reads it (package config), and what
// it decides for every command: who @me is, and which folders a command
// reads when it is given no path (the library).

import (
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"rewind/config"
	"rewind/library"
	"rewind/library/folders"
)

// withoutPaths says what a command reads when it is given no path, for
// its help.
const withoutPaths = `Without a path, the library: the folders the config file names (rewind help
config), else the replay folders the games keep by default that exist here
(Slippi Launcher's, StarCraft II's, osu!'s, BeatLeader's), else the built-in
samples.`

// settings is the config file, read once a run.
var settings struct {
	once sync.Once
	cfg  config.Config
}

// loadSettings reads the config file the first time it is asked, and
// tells the query language who @me is. The TUI shows the problems in its
// status line; commands say them on stderr (call.settings).
func loadSettings() config.Config {
	settings.once.Do(func() {
		settings.cfg = config.Load()
		library.SetIdentities(settings.cfg.Me, meUnset(settings.cfg.File))
	})
	return settings.cfg
}

// settingsSaid keeps a command from saying the config's problems twice.
var settingsSaid sync.Once

// settings is the config file for a command, whose problems it says on
// stderr, once, each one sentence: a broken config never stops rewind.
func (c *call) settings() config.Config {
	cfg := loadSettings()
	settingsSaid.Do(func() {
		for _, p := range cfg.Problems {
			c.notef("config: %s", p.Error())
		}
	})
	return cfg
}

// meUnset is what a query that says @me gets while me is not set.
func meUnset(file string) string {
	where := "rewind's config file (rewind config path names it)"
	if file != "" {
		where = file
	}
	return `@me is who you are, and the config names nobody: add me = ["YOUR#CODE"] to ` + where + ` (rewind config me --guess lists the players in your replays)`
}

// libraryPaths are the paths a command reads: the ones given; without
// any, the library the config names; else the replay folders the games
// keep by default that exist here. nil means none of them: the built-in
// samples. from says where the paths came from, for a title ("" when
// given).
func (c *call) libraryPaths(paths []string) (out []string, from string) {
	if len(paths) > 0 {
		return paths, ""
	}
	if cfg := c.settings(); len(cfg.Library) > 0 {
		return cfg.Library, "library in " + homeTilde(cfg.File)
	}
	var games []string
	for _, f := range defaultFolders() {
		out = append(out, f.Path)
		if len(games) == 0 || games[len(games)-1] != f.Game {
			games = append(games, f.Game)
		}
	}
	if len(out) > 0 {
		return out, strings.Join(games, ", ") + " default folders"
	}
	return nil, "samples"
}

// defaultFolders finds the games' default replay folders that exist here
// (library/folders, in this machine's environment).
func defaultFolders() []folders.Folder { return folders.Find(folders.System()) }

// samplesHint is the line that says how to point rewind at replays when it
// opens the samples for want of any.
func samplesHint() string {
	path := "rewind's config file"
	if p, err := config.Path(); err == nil {
		path = homeTilde(p)
	}
	return "These are the built-in samples: no replay folder was found. Open yours with rewind DIR, or set library = [\"DIR\"] in " + path + "."
}

// tildes is homeTilde of each path.
func tildes(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = homeTilde(p)
	}
	return out
}

// homeTilde writes a path under the home folder as ~/..., as people do.
func homeTilde(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	if rel, err := filepath.Rel(home, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return "~" + string(filepath.Separator) + rel
	}
	return p
}

// walk is what a command given paths reads: the paths, else the library
// (libraryPaths), else the built-in samples, whose paths read samples/...
func (c *call) walk(paths []string) iter.Seq[library.Entry] {
	w, _ := c.walkFrom(paths)
	return w
}

// walkFrom is walk, and where the replays came from when no path was
// given (for a title, or a sentence).
func (c *call) walkFrom(paths []string) (walk iter.Seq[library.Entry], from string) {
	lib, from := c.libraryPaths(paths)
	if lib == nil {
		return library.FSPaths(samplesFS, "samples"), "the built-in samples"
	}
	return library.Paths(lib), from
}

// onDisk reports whether the replays a command reads for paths are files
// on disk (the paths, the library), not the built-in samples.
func onDisk(c *call, paths []string) bool {
	lib, _ := c.libraryPaths(paths)
	return lib != nil
}
