package library

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"rewind/model"
)

// Header is what a header-only read learns about one file: the browser's
// columns, the fields of `info`, what a query matches. It is small and
// self-contained (no bytes of the file), so the index can keep millions.
type Header struct {
	Path       string // as the walk gave it (relative paths stay relative)
	Kind       Kind   // File, or why the path is Unreadable or Skipped
	Size       int64
	ModTime    time.Time
	Format     model.Format // empty when no decoder claims the file
	FormatName string
	Version    string
	Start      time.Time
	Title      string // stage, map, song or course
	Mode       string
	Duration   time.Duration
	Frames     int     // timeline length when the header states it, else 0
	Rate       float64 // frames per second of play
	Unit       string  // what a frame is called: "frame", "tick", "loop", "sample"
	// Clock is the game's own clock at the last frame where it is not real
	// time (StarCraft II's "game time" before Legacy of the Void), and
	// ClockName what players call it; zero and empty elsewhere.
	Clock     time.Duration
	ClockName string
	Result    string
	// Partial is what the decode that made the header said: a header-only
	// read always stops early, so it means something only beside Check.
	Partial bool
	Players []Player
	// Problems and Notes are the diagnostics the header read itself found
	// (warnings and errors; infos). A header read skips most of a file, so
	// these are a lower bound until Check is set.
	Problems, Notes int
	// Err says why the file has no header: it could not be read, it is no
	// replay, or its decoder refused it. One sentence.
	Err string
	// NotReplay is set when no decoder claims the file (Err says what it is).
	NotReplay bool
	// Check is the result of a full decode; nil until one has run.
	Check *Check
	// Summary is the archive record the same full decode made (outcomes,
	// stats, moments); nil until one ran, and unless the scan asked for
	// summaries (ScanOptions.Summaries) or the decode made it here.
	Summary *Summary
}

// Player is one participant as the header names it.
type Player struct {
	Slot      string
	Name      string
	Code      string
	Character string // character, race, machine or platform
	Team      string
	Result    string
}

// Check is what a full decode of the file found.
type Check struct {
	Problems int    // diagnostics of warning severity or worse
	Notes    int    // info diagnostics
	Partial  bool   // the decoder stopped early
	Err      string // the decoder refused the file outright
	First    string // the worst diagnostic, one line; empty when clean
}

// Unreadable reports whether the file has no header at all.
func (h *Header) Unreadable() bool { return h.Err != "" }

// Checked reports whether the problem count is final: a full decode ran,
// or the file could not be read at all (nothing more will be found).
func (h *Header) Checked() bool { return h.Check != nil || h.Err != "" }

// ProblemCount is the number of problems known: a full check's when one
// ran, else what the header read found; an unreadable file counts one.
func (h *Header) ProblemCount() int {
	switch {
	case h.Check != nil && h.Check.Err != "":
		return max(h.Check.Problems, 1)
	case h.Check != nil:
		return h.Check.Problems
	case h.Err != "":
		return 1
	}
	return h.Problems
}

// Name is the file's base name.
func (h *Header) Name() string { return filepath.Base(h.Path) }

// fromReplay takes a header-only (or full) replay's summary. It copies
// strings only, so the replay and the bytes behind it can go.
func fromReplay(h *Header, r *model.Replay) {
	h.Format, h.FormatName, h.Version = r.Format, r.FormatName, r.Version
	h.Start, h.Title, h.Mode = r.Start, r.Title, r.Mode
	h.Duration, h.Frames, h.Rate, h.Unit = r.Duration, r.Timeline.Count, r.Timeline.Rate, r.Timeline.Unit
	h.Clock, h.ClockName = 0, ""
	if tl := &r.Timeline; tl.Clock != nil && tl.Count > 0 {
		h.Clock, h.ClockName = tl.Clock(tl.Count-1), tl.ClockName
	}
	h.Result, h.Partial = r.Result, r.Partial
	h.Players = nil
	if len(r.Players) > 0 {
		h.Players = make([]Player, len(r.Players))
	}
	for i, p := range r.Players {
		h.Players[i] = Player{Slot: p.Slot, Name: p.Name, Code: p.Code, Character: p.Character, Team: p.Team, Result: p.Result}
	}
	h.Problems = r.Problems()
	h.Notes = len(r.Diagnostics) - h.Problems
}

// FromReplay is the header and the check of a replay decoded in full
// elsewhere (dump), so it is summarised as info summarises a file.
func FromReplay(path string, size int64, r *model.Replay) Header {
	h := Header{Path: path, Kind: File, Size: size}
	fromReplay(&h, r)
	h.Check = checkOf(r, nil)
	return h
}

// checkOf summarises a full decode.
func checkOf(r *model.Replay, err error) *Check {
	c := &Check{}
	if r == nil {
		if err == nil {
			err = fmt.Errorf("nothing decoded")
		}
		c.Err = err.Error()
		return c
	}
	c.Problems = r.Problems()
	c.Notes = len(r.Diagnostics) - c.Problems
	c.Partial = r.Partial
	worst := -1
	for i, d := range r.Diagnostics {
		if d.Severity >= model.Warning && (worst < 0 || d.Severity > r.Diagnostics[worst].Severity) {
			worst = i
		}
	}
	if worst >= 0 {
		c.First = r.Diagnostics[worst].String()
	}
	return c
}

// jsonHeader is the JSON form of a Header (`rewind find --json`): the keys
// of `rewind info --json`, plus when the file changed and the check.
type jsonHeader struct {
	Path            string       `json:"path"`
	Format          model.Format `json:"format,omitempty"`
	FormatName      string       `json:"formatName,omitempty"`
	Version         string       `json:"version,omitempty"`
	Size            int64        `json:"size"`
	Modified        time.Time    `json:"modified,omitzero"`
	Start           *time.Time   `json:"start,omitempty"`
	Title           string       `json:"title,omitempty"`
	Mode            string       `json:"mode,omitempty"`
	DurationSeconds float64      `json:"durationSeconds"`
	ClockSeconds    *float64     `json:"clockSeconds,omitempty"`
	ClockName       string       `json:"clockName,omitempty"`
	Frames          int          `json:"frames"`
	Rate            float64      `json:"rate,omitempty"`
	Result          string       `json:"result,omitempty"`
	// Partial is the full check's (check.partial), there only once a
	// check ran: a header read stops early by design and cannot tell.
	Partial *bool        `json:"partial,omitempty"`
	Players []jsonPlayer `json:"players"`
	// Problems is the count known so far; Checked says whether a full
	// decode ran (false: only the header was read).
	Problems    int        `json:"problems"`
	Diagnostics int        `json:"diagnostics"` // those the header read found
	Checked     bool       `json:"checked"`
	Check       *jsonCheck `json:"check,omitempty"`
	Error       string     `json:"error,omitempty"`
}

type jsonPlayer struct {
	Slot      string `json:"slot"`
	Name      string `json:"name,omitempty"`
	Code      string `json:"code,omitempty"`
	Character string `json:"character,omitempty"`
	Team      string `json:"team,omitempty"`
	Result    string `json:"result,omitempty"`
	// Outcome is the result as a word a script compares (PlayerOutcome)
	Outcome model.Outcome `json:"outcome,omitempty"`
}

type jsonCheck struct {
	Problems int    `json:"problems"`
	Notes    int    `json:"notes"`
	Partial  bool   `json:"partial"`
	Error    string `json:"error,omitempty"`
	First    string `json:"first,omitempty"`
}

// MarshalJSON writes the header as `rewind find --json` prints it.
func (h Header) MarshalJSON() ([]byte, error) {
	j := jsonHeader{
		Path: h.Path, Format: h.Format, FormatName: h.FormatName, Version: h.Version, Size: h.Size,
		Modified: h.ModTime.UTC(), Title: h.Title, Mode: h.Mode, DurationSeconds: h.Duration.Seconds(),
		Frames: h.Frames, Rate: h.Rate, Result: h.Result, Players: []jsonPlayer{},
		Problems: h.ProblemCount(), Diagnostics: h.Problems + h.Notes, Checked: h.Checked(), Error: h.Err,
	}
	if !h.Start.IsZero() {
		t := h.Start
		j.Start = &t
	}
	if h.ClockName != "" {
		c := h.Clock.Seconds()
		j.ClockSeconds, j.ClockName = &c, h.ClockName
	}
	for i, p := range h.Players {
		j.Players = append(j.Players, jsonPlayer{Slot: p.Slot, Name: p.Name, Code: p.Code, Character: p.Character,
			Team: p.Team, Result: p.Result, Outcome: PlayerOutcome(&h, i)})
	}
	if c := h.Check; c != nil {
		j.Check = &jsonCheck{c.Problems, c.Notes, c.Partial, c.Err, c.First}
		partial := c.Partial
		j.Partial = &partial
	}
	return json.Marshal(j)
}
