package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"rewind/actions"
	"rewind/config"
	"rewind/decoders"
	"rewind/library/dolphin"
	"rewind/model"
	"rewind/theme"
)

const watchAbout = `Play a replay in the game itself, from a frame or a time: a Slippi replay in
Slippi's playback Dolphin running the Melee ISO, an osu! replay in osu!.
rewind starts the game and returns at once; it never waits for it.

Dolphin is started as Slippi Launcher starts it: -i with a communication
file (Slippi's comm spec: the replay's absolute path, startFrame, endFrame,
a new commandId) and -e with the ISO. A second watch while that Dolphin is
open, from this shell or another rewind, writes the file again with a new
commandId, and the same Dolphin plays the new replay. Several Slippi
replays play one after the other (the comm spec's queue), each whole.

--at and --to take the replay's own frame numbers (Slippi counts from
-123) or game times (1:23.4, 83.4s); one outside the replay is moved to its
first or last frame, and stderr says so. osu! plays a replay from its
start.

The config file ($REWIND_CONFIG, else config.toml in the rewind folder of
the user's config directory) says where the games are:

  [slippi]
  dolphin = "~/.config/Slippi Launcher/playback/Slippi_Playback-x86_64.AppImage"
  iso = "~/Games/Melee.iso"

  [osu]
  command = "osu! {path}"   # without it, the system's program for .osr files

Other formats have no player of their own: an [[action]] runs any command
on a replay (rewind help run).
`

const watchNotes = `Output: nothing on stdout; on stderr one line saying what was started or
handed over, after a line for each --at or --to moved into the replay.

Exit status: 0 the game was started or handed the replay, 2 nothing is
configured to play it (the sentence names the key to set in the config
file), the program could not be started, the file cannot be read or the
command line is wrong.
`

// watchOptions are watch's flags.
type watchOptions struct {
	at, to string
}

func watchCommand() *cobra.Command {
	o := &watchOptions{}
	cmd := &cobra.Command{
		Use:                   "watch [--at FRAME|TIME] [--to FRAME|TIME] FILE...",
		Short:                 "play a replay in the game: Slippi's playback Dolphin, osu!",
		Long:                  watchAbout,
		Annotations:           map[string]string{notesKey: watchNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.StringVar(&o.at, "at", "", "start at `FRAME|TIME`: a frame number or a game time, e.g. 600 or 1:23.4")
	f.StringVar(&o.to, "to", "", "stop at `FRAME|TIME` (Dolphin), e.g. 900 or 1:30")
	cmd.RegisterFlagCompletionFunc("at", noFiles)
	cmd.RegisterFlagCompletionFunc("to", noFiles)
	return cmd
}

func (o *watchOptions) run(c *call, paths []string) int {
	switch {
	case len(paths) == 0:
		return c.errorf("name the replay to watch, like rewind watch --at 1:23 game.slp")
	case len(paths) > 1 && (o.at != "" || o.to != ""):
		return c.errorf("--at and --to are for one replay; %d replays play one after the other, each whole", len(paths))
	}
	cfg := config.Load()
	var req actions.Request
	for i, path := range paths {
		r, q, code := replayAt(c, path, o.at, o.to)
		if code != 0 {
			return code
		}
		if i == 0 {
			req = q
		}
		if len(paths) > 1 {
			if f := decoders.ByID(q.Format); f == nil || !f.Dolphin {
				return c.errorf("only Slippi replays play one after the other, and %s is one of the %ss", c.epath(path), r.FormatName)
			}
			tl := &r.Timeline
			last := tl.Number(tl.Count - 1)
			req.Clips = append(req.Clips, dolphin.Clip{Path: path, Start: tl.First, End: last, Last: last})
		}
	}
	note, err := actions.NewPlayer("").Watch(cfg, req)
	if err != nil {
		return configError(c, cfg, err)
	}
	if f := decoders.ByID(req.Format); (o.at != "" || o.to != "") && (f == nil || !f.Dolphin) {
		c.notef("the game plays %s from its start; it has no way to start elsewhere", c.epath(paths[0]))
	}
	c.notef("%s", theme.Safe(note))
	return 0
}

// configError says why an action or a watch failed, in one sentence, with
// exit status 2; when the config file lacks a setting, what is wrong with
// the file (which may be why) comes first.
func configError(c *call, cfg config.Config, err error) int {
	if errors.Is(err, actions.ErrNotConfigured) {
		for _, p := range cfg.Problems {
			c.notef("%v", p)
		}
	}
	// one sentence, one line: a newline in a name it quotes is escaped
	return c.errorf("%s", theme.Safe(err.Error()))
}

// replayAt decodes the replay at path and makes the request for it: from
// --at (the first frame without it) to --to (the last). A frame or time
// outside the replay is moved to its first or last frame, with a note.
func replayAt(c *call, path, at, to string) (*model.Replay, actions.Request, int) {
	var req actions.Request
	inputs := collect([]string{path}, nil)
	if len(inputs) != 1 || inputs[0].Name != path {
		return nil, req, c.errorf("%s is a folder; name a replay file", c.epath(path))
	}
	r, err := decodeInput(inputs[0], model.DecodeOptions{NoEvents: true})
	if err != nil {
		return nil, req, c.errorf("%s: %s", c.epath(path), reason(path, err))
	}
	tl := &r.Timeline
	first, last := 0, max(tl.Count-1, 0)
	lo, hi := first, last
	for _, flag := range []struct {
		name, text string
		index      *int
	}{{"--at", at, &lo}, {"--to", to, &hi}} {
		pt, err := readPoint(flag.text)
		if err != nil {
			return nil, req, c.errorf("%s: %v", flag.name, err)
		}
		if pt.set {
			*flag.index = pointIn(c, tl, flag.name, pt)
		}
	}
	if hi < lo {
		return nil, req, c.errorf("--to %s comes before --at %s", to, at)
	}
	req = actions.At(r, lo)
	req.Path = path
	req.End = tl.Number(hi)
	return r, req, 0
}

// pointIn is the frame index a --at or --to names, moved into the replay
// when it is outside, with a note: a frame number by its number, a time
// by the first frame on screen at that time.
func pointIn(c *call, tl *model.Timeline, flag string, pt framePoint) int {
	last := max(tl.Count-1, 0)
	if !pt.isTime {
		i := tl.Index(pt.number)
		switch {
		case pt.number < tl.Number(0):
			c.notef("%s %s is before the replay's first %s; %s %d is taken", flag, pt.text, unitOf(tl), unitOf(tl), tl.Number(i))
		case pt.number > tl.Number(last):
			c.notef("%s %s is past the replay's last %s; %s %d is taken", flag, pt.text, unitOf(tl), unitOf(tl), tl.Number(i))
		}
		return i
	}
	i := tl.At(pt.time)
	switch {
	case pt.time < tl.Time(0):
		c.notef("%s %s is before the replay's first %s (%s); %s %d is taken", flag, pt.text, unitOf(tl), model.FormatDuration(tl.Time(0)), unitOf(tl), tl.Number(i))
	case pt.time > tl.Time(last):
		c.notef("%s %s is past the replay's last %s (%s); %s %d is taken", flag, pt.text, unitOf(tl), model.FormatDuration(tl.Time(last)), unitOf(tl), tl.Number(i))
	}
	return i
}
