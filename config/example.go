package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Example is the file `rewind config init` writes: every key, commented
// out, with what it does, so a person uncomments what they need.
const Example = `# rewind's settings. Every key is optional; uncomment what you need.
# rewind reads this file when it starts. "rewind config" shows what it read
# and anything wrong with it; a mistake never stops rewind.

# Folders of replays that rewind, info, find, stats, moments and export open
# when no path is given. Without this key rewind looks in the folders the
# games and their recorders use by default (Slippi Launcher's, StarCraft
# II's, osu!'s, BeatLeader's) and, when none exists, opens its samples.
# library = ["~/Slippi", "~/Documents/StarCraft II/Accounts"]

# Who you are, in any format: connect codes, toon handles, BeatLeader or
# osu! ids, or names. Queries say @me for any of them (find @me, is:win,
# winner:@me, stats --player @me). "rewind config me --guess" lists the
# most frequent identities in your replays, ready to paste here.
# me = ["ABCD#123", "1-S2-1-2358439"]

# Slippi's playback Dolphin and the Melee ISO it runs, for "rewind watch"
# and w in the TUI (as Slippi Launcher starts it: -i COMMFILE -e ISO).
# [slippi]
# dolphin = "~/.config/Slippi Launcher/playback/Slippi_Playback-x86_64.AppImage"
# iso = "~/Games/Melee.iso"

# How to hand an .osr to osu! (default: the system's opener for the file).
# [osu]
# command = "osu! {path}"

# Commands to run on a replay or a moment: from the TUI with key, or as
# "rewind run NAME FILE". The command line is split into words (quotes
# group words) and run without a shell; in each word {path}, {frame},
# {start}, {end}, {time}, {queue} and {player} become the replay's path,
# the frame, the moment's first and last frames, the time in seconds, a
# Dolphin queue file of the moments, and the player.
# [[action]]
# name = "clip"
# key = "C"
# formats = ["slippi"]
# command = "obs-cli recording start --name {player}-{frame}"
`

// Init writes Example to the config file when there is none, making its
// folder, and returns the file's path. It never overwrites: an existing
// file is an error that names it.
func Init() (string, error) {
	path, err := Path()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return path, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return path, fmt.Errorf("%s already exists; rewind never writes over it (edit it, or remove it first)", path)
	}
	if err != nil {
		return path, err
	}
	if _, err := f.WriteString(Example); err != nil {
		f.Close()
		os.Remove(path)
		return path, err
	}
	return path, f.Close()
}
