// Package actions hands a replay to another program: the game's own player
// (Slippi's playback Dolphin for Melee, osu! for its replays) and the
// commands a person configured as [[action]]s. `rewind watch`, `rewind
// run` and the TUI's w and action keys all come here.
//
// A launched program is a guest: it is started, never waited on, its
// output goes nowhere near rewind's terminal, and it is reaped in the
// background so no zombie is left. What cannot be started is said in one
// sentence that names the config key to set; when the key is not set at
// all the error is ErrNotConfigured (errors.Is), for `rewind watch` to
// exit 2 and the TUI to say it in its status line.
//
// A command line is a list of words run without a shell: the placeholders
// ({path}, {frame}, ...) are replaced inside each word, once, so a file or
// player name is always one word, whatever it holds (spaces, quotes, ;,
// $(...), a newline, another placeholder).
//
// The API is a Request (what to play, built by At for a replay at a frame)
// and a Player (NewPlayer), long-lived, which remembers the Dolphin it
// started: a second Watch while it runs hands it the new replay.
package actions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"rewind/config"
	"rewind/decoders"
	"rewind/decoders/pack"
	"rewind/library"
	"rewind/library/dolphin"
	"rewind/model"
)

// ErrNotConfigured is what Watch, Run and Find's errors are (errors.Is)
// when the config file lacks the setting they need. The error's text is
// one sentence that names the key to set and the file.
var ErrNotConfigured = errors.New("not configured")

// notConfigured is an ErrNotConfigured with its sentence.
type notConfigured string

func (e notConfigured) Error() string        { return string(e) }
func (e notConfigured) Is(target error) bool { return target == ErrNotConfigured }

// Request is what to hand over: a replay and where in it, or a queue of
// clips. Frames are the format's own numbers (Slippi counts from -123),
// as the replay's Timeline.Number gives them.
type Request struct {
	Path   string       // the replay file
	Format model.Format // its format's id
	// Frame is the frame the person is at (the cursor, a moment's first
	// frame), and Time its game time: {frame} and {time}.
	Frame int64
	Time  time.Duration
	// Start and End are the stretch to play: {start} and {end}. Dolphin
	// plays the replay from Start to End.
	Start, End int64
	// Player is who the person means ({player}): a name as the TUI shows
	// it, or what --player said; empty when nobody in particular.
	Player string
	// Clips, when set, are a queue of Slippi moments to play one after
	// the other instead (Path and the frames above still fill the
	// placeholders), each widened by Lead frames before and Trail after
	// (dolphin.DefaultLead and DefaultTrail for moments).
	Clips       []dolphin.Clip
	Lead, Trail int64
}

// At is the request to play replay r from the frame at index i (clamped
// to the timeline) to its end.
func At(r *model.Replay, i int) Request {
	tl := &r.Timeline
	i = tl.Clamp(i)
	req := Request{Path: r.Path, Format: r.Format, Frame: tl.Number(i), Time: tl.Time(i)}
	req.Start, req.End = req.Frame, tl.Number(max(tl.Count-1, 0))
	return req
}

// osuID is osu!'s format id: its replays open in the game. (Slippi's
// hand-off is declared by its format, decoders.Format.Dolphin; the osu!
// one, the operating system's opener, has no such field yet.)
const osuID model.Format = "osu"

// Applies reports whether action a runs on replays of format f: its
// Formats are empty, or one of them names f as the query language's
// format: term does (an id, an alias, an extension, a word of the name).
// A name that is no format is an error, one sentence.
func Applies(a config.Action, f model.Format) (bool, error) {
	if len(a.Formats) == 0 {
		return true, nil
	}
	doc := library.NewDoc(&library.Header{Format: f})
	for _, name := range a.Formats {
		q, err := library.ParseQuery("format:" + strconv.Quote(name))
		if err != nil {
			var qe *library.QueryError
			if errors.As(err, &qe) {
				err = errors.New(qe.Msg)
			}
			return false, fmt.Errorf("action %s: formats: %v", a.Name, err)
		}
		if q.Match(doc) {
			return true, nil
		}
	}
	return false, nil
}

// For lists the actions of cfg that run on replays of format f, in the
// order the file has them: what the TUI offers on a replay.
func For(cfg config.Config, f model.Format) []config.Action {
	var out []config.Action
	for _, a := range cfg.Actions {
		if ok, _ := Applies(a, f); ok {
			out = append(out, a)
		}
	}
	return out
}

// Find returns the action named name (any case). A config without actions
// is ErrNotConfigured; a name it does not have is an error that lists the
// names it has.
func Find(cfg config.Config, name string) (config.Action, error) {
	if len(cfg.Actions) == 0 {
		return config.Action{}, notConfigured(fmt.Sprintf("%s has no [[action]]; add one with a name and a command (rewind help run shows one)", file(cfg)))
	}
	var names []string
	for _, a := range cfg.Actions {
		if strings.EqualFold(a.Name, name) {
			return a, nil
		}
		names = append(names, a.Name)
	}
	return config.Action{}, fmt.Errorf("no action %q in %s; its actions are %s", name, file(cfg), strings.Join(names, ", "))
}

// file names the config file in a sentence.
func file(cfg config.Config) string {
	if cfg.File == "" {
		return "the config file ($" + config.Env + ")"
	}
	return cfg.File
}

// where names an action's place in the config file.
func where(cfg config.Config, a config.Action) string {
	if a.Line > 0 {
		return fmt.Sprintf("%s:%d", file(cfg), a.Line)
	}
	return file(cfg)
}

// formatName is a format as a sentence names it: "StarCraft II replays".
func formatName(f model.Format) string {
	if d := decoders.ByID(f); d != nil {
		return d.Name + "s"
	}
	return string(f) + " replays"
}

// expand replaces the placeholders in each word of a command line. Every
// placeholder of a word is replaced in one pass over the word as written,
// so what a value holds (a "{frame}" in a file name) is never read again,
// and a word stays one word whatever it becomes. queue is called, once,
// only when a word has {queue}.
func expand(words []string, req Request, path string, queue func() (string, error)) ([]string, error) {
	pairs := []string{
		"{path}", path,
		"{frame}", strconv.FormatInt(req.Frame, 10),
		"{start}", strconv.FormatInt(req.Start, 10),
		"{end}", strconv.FormatInt(req.End, 10),
		"{time}", strconv.FormatFloat(req.Time.Seconds(), 'f', -1, 64),
		"{player}", req.Player,
	}
	if slices.ContainsFunc(words, func(w string) bool { return strings.Contains(w, "{queue}") }) {
		q, err := queue()
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, "{queue}", q)
	}
	r := strings.NewReplacer(pairs...)
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = r.Replace(w)
	}
	return out, nil
}

// hasPath reports whether a command line says where the replay's path
// goes.
func hasPath(words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(w, "{path}") })
}

// absPath is the request's path made absolute, so a command that changes
// folder, and Dolphin, still find the file.
func absPath(req Request) (string, error) {
	if req.Path == "" {
		return "", errors.New("no replay to hand over")
	}
	p, err := filepath.Abs(req.Path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", req.Path, err)
	}
	return p, nil
}

// onDisk says why Dolphin or osu! cannot open the replay at path, or
// nothing: they open files, not members of a pack.
func onDisk(path string) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.Mode().IsRegular():
		return nil
	case err == nil:
		return fmt.Errorf("%s is not a file", path)
	case errors.Is(err, os.ErrNotExist):
		if pk, _, ok := pack.Split(path); ok {
			return fmt.Errorf("%s is inside %s; the game opens files, so unpack it first", path, pk)
		}
		return fmt.Errorf("%s: no such file", path)
	}
	return err
}
