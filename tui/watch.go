package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"rewind/actions"
	"rewind/config"
	"rewind/decoders"
	"rewind/library"
	"rewind/library/dolphin"
	"rewind/model"
	"rewind/theme"
)

// Watch it in the game (w) and the config's [[action]]s, from the replay
// view (the cursor's frame, or the moment under the moments cursor), the
// archive moments view (a moment; W the list as a queue) and the browser
// (the replay at the cursor, whole). The actions package starts the
// program as a guest, off the screen's goroutine; what it said comes back
// as a handoffMsg for the status line. The views only build the request.

// handoff is what the views share to hand a replay over: the config's
// settings and the Player that remembers the Dolphin it started.
type handoff struct {
	cfg    config.Config
	player *actions.Player
}

func newHandoff(cfg config.Config) *handoff {
	return &handoff{cfg: cfg, player: actions.NewPlayer("")}
}

// me is the config's identities (the stats view starts on them).
func (h *handoff) me() []string {
	if h == nil {
		return nil
	}
	return h.cfg.Me
}

// handoffMsg is what a hand-off said: what was started, or in one
// sentence why nothing was (the config key to set, the program that is
// not there).
type handoffMsg struct {
	text string
	err  error
}

// Text is the status line's sentence.
func (m handoffMsg) Text() string {
	if m.err != nil {
		return theme.Safe(m.err.Error())
	}
	return theme.Safe(m.text)
}

// watchKey and queueKey are w and W; they are the same in every view.
var (
	watchKey = key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch"))
	queueKey = key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "watch the list as a queue"))
)

// watch starts the game's own player on the request.
func (h *handoff) watch(req actions.Request) tea.Cmd {
	if h == nil {
		return nil
	}
	return func() tea.Msg {
		note, err := h.player.Watch(h.cfg, req)
		return handoffMsg{note, err}
	}
}

// action returns the configured action on key k for a replay of format f,
// and whether there is one. A key rewind uses for itself is never an
// action's (taken says which are, for the help).
func (h *handoff) action(k string, f model.Format) (config.Action, bool) {
	if h == nil {
		return config.Action{}, false
	}
	for _, a := range actions.For(h.cfg, f) {
		if a.Key != "" && a.Key == k {
			return a, true
		}
	}
	return config.Action{}, false
}

// run starts action a on the request.
func (h *handoff) run(a config.Action, req actions.Request) tea.Cmd {
	return func() tea.Msg {
		note, err := h.player.Run(h.cfg, a, req)
		return handoffMsg{note, err}
	}
}

// canWatch reports whether w has a player to start for format f: the
// footers show w watch only there.
func canWatch(f model.Format) bool {
	d := decoders.ByID(f)
	return d != nil && (d.Dolphin || f == "osu")
}

// helpLines lists w and the actions for the ? screens: each action with
// its key, what it runs and the formats it is for, and a word when its
// key is one rewind uses (taken reports whether it is).
func (h *handoff) helpLines(taken func(k string) bool) []string {
	lines := []string{"w        watch the replay in the game at the cursor (Slippi's playback Dolphin, osu!); W the moments listed, as a queue"}
	if h == nil || len(h.cfg.Actions) == 0 {
		return append(lines, "actions  none: [[action]] entries in the config file run a command on a replay (rewind help config)")
	}
	for _, a := range h.cfg.Actions {
		k := a.Key
		switch {
		case k == "":
			k = "(no key)"
		case taken != nil && taken(k):
			k += " (rewind's own key: rewind run " + a.Name + " only)"
		}
		for_ := ""
		if len(a.Formats) > 0 {
			for_ = " · " + strings.Join(a.Formats, ", ")
		}
		lines = append(lines, fmt.Sprintf("%-8s %s: %s%s", k, a.Name, strings.Join(a.Command, " "), for_))
	}
	return lines
}

// momentRequest is the request to play one moment of a replay: its
// stretch, widened as Project Clippi widens a clip, within the replay.
func momentRequest(path string, f model.Format, start, end, last int64, player string) actions.Request {
	return actions.Request{Path: path, Format: f, Frame: start, Start: start, End: end, Player: player,
		Clips: []dolphin.Clip{{Path: path, Start: start, End: end, Last: last}},
		Lead:  dolphin.DefaultLead, Trail: dolphin.DefaultTrail}
}

// rowRequest is the request to play a browser row's replay whole: for
// Slippi from the first frame Dolphin can start at.
func rowRequest(h *library.Header) actions.Request {
	req := actions.Request{Path: h.Path, Format: h.Format}
	if d := decoders.ByID(h.Format); d != nil && d.Dolphin {
		req.Start, req.Frame = dolphin.FirstFrame, dolphin.FirstFrame
		req.End = dolphin.FirstFrame + int64(max(h.Frames-1, 0))
	} else if h.Frames > 0 {
		req.End = int64(h.Frames - 1)
	}
	return req
}

// playerName is how a request names a player ({player}): the name, else
// the code, else the slot.
func playerName(p model.Player) string {
	switch {
	case p.Name != "":
		return p.Name
	case p.Code != "":
		return p.Code
	}
	return p.Slot
}
