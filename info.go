package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"rewind/model"
)

type infoPlayer struct {
	Slot      string `json:"slot"`
	Name      string `json:"name,omitempty"`
	Code      string `json:"code,omitempty"`
	Character string `json:"character,omitempty"`
	Team      string `json:"team,omitempty"`
	Result    string `json:"result,omitempty"`
}

// infoJSON is the object `rewind info --json` writes per file.
type infoJSON struct {
	Path            string       `json:"path"`
	Format          model.Format `json:"format,omitempty"`
	FormatName      string       `json:"formatName,omitempty"`
	Version         string       `json:"version,omitempty"`
	Size            *int64       `json:"size,omitempty"` // from the file system; absent when unknown
	Start           *time.Time   `json:"start,omitempty"`
	Title           string       `json:"title,omitempty"`
	Mode            string       `json:"mode,omitempty"`
	DurationSeconds float64      `json:"durationSeconds"`
	ClockSeconds    *float64     `json:"clockSeconds,omitempty"` // the game's own clock where it is not real time
	ClockName       string       `json:"clockName,omitempty"`
	Frames          int          `json:"frames"`
	Rate            float64      `json:"rate,omitempty"`
	Result          string       `json:"result,omitempty"`
	Partial         bool         `json:"partial"`
	Players         []infoPlayer `json:"players"`
	Problems        int          `json:"problems"`
	Diagnostics     int          `json:"diagnostics"`
	Error           string       `json:"error,omitempty"`
	Reason          string       `json:"reason,omitempty"`  // why there is no replay: read, notReplay or refused
	Skipped         bool         `json:"skipped,omitempty"` // a device, FIFO or socket in a folder, never opened
}

const infoAbout = `Print a summary of each replay: format and version, date, stage or map or song,
mode, duration, result, players, and how many problems the decoder found.
Folders are walked for files with a replay's extension or magic bytes; with no
argument, the built-in samples.

Dates are shown in the zone the file records (teehistorian's start_time offset),
or UTC when the file stores UTC (Slippi, BSOR, StarCraft II): never in this
machine's zone, so the same file prints the same date everywhere.
`

const infoNotes = `Exit status: 0 when every file was read (problems are reported, not failed),
2 when a path cannot be read or is no replay, no replay was found, or the
command line is wrong.
`

func cmdInfo(c *command, args []string) int {
	c.about, c.notes = infoAbout, infoNotes
	asJSON := c.flags.Bool("json", false, "write one JSON object per file (NDJSON)")
	paths, code, ok := c.parse(args)
	if !ok {
		return code
	}
	inputs := collect(paths, nil)
	exit := 0
	// each file is decoded and written to text on a core of its own; the
	// texts come out in the order of the inputs
	type written struct {
		text   []byte
		failed bool
	}
	first := true
	inOrder(inputs, nil, func(in input) written {
		r, err := decodeInput(in, model.DecodeOptions{})
		var b bytes.Buffer
		if *asJSON {
			json.NewEncoder(&b).Encode(summarize(in, r, err))
		} else {
			writeInfo(&b, in, r, err)
		}
		return written{b.Bytes(), err != nil && !in.Skipped}
	}, func(w written) {
		if w.failed {
			exit = 2 // info reports problems; only a file it cannot read makes it fail
		}
		if !*asJSON && !first {
			fmt.Fprintln(c.stdout)
		}
		first = false
		c.stdout.Write(w.text)
	})
	if replays(inputs) == 0 {
		if exit == 0 { // nothing unreadable said why already
			c.errorf("no replay found%s", under(paths))
		}
		return 2
	}
	return exit
}

// under names the paths a search went through, for "no replay found".
func under(paths []string) string {
	switch len(paths) {
	case 0:
		return " in the built-in samples"
	case 1:
		return " in " + paths[0]
	}
	return fmt.Sprintf(" in the %d paths given", len(paths))
}

func summarize(in input, r *model.Replay, err error) infoJSON {
	j := infoJSON{Path: in.Name, Players: []infoPlayer{}}
	if in.Size >= 0 {
		size := in.Size
		j.Size = &size
	}
	if err != nil {
		j.Error = reason(in.Name, err)
		if in.Skipped {
			j.Skipped = true
		} else {
			j.Reason, j.Format = failure(err)
		}
		return j
	}
	j.Format, j.FormatName, j.Version = r.Format, r.FormatName, r.Version
	j.Title, j.Mode, j.Result, j.Partial = r.Title, r.Mode, r.Result, r.Partial
	j.DurationSeconds, j.Frames, j.Rate = r.Duration.Seconds(), r.Timeline.Count, r.Timeline.Rate
	if tl := &r.Timeline; tl.Clock != nil && tl.Count > 0 {
		c := tl.Clock(tl.Count - 1).Seconds()
		j.ClockSeconds, j.ClockName = &c, tl.ClockName
	}
	j.Problems, j.Diagnostics = r.Problems(), len(r.Diagnostics)
	if !r.Start.IsZero() {
		t := r.Start
		j.Start = &t
	}
	for _, p := range r.Players {
		j.Players = append(j.Players, infoPlayer{p.Slot, p.Name, p.Code, p.Character, p.Team, p.Result})
	}
	return j
}

// writeInfo prints the human summary of one replay.
func writeInfo(w io.Writer, in input, r *model.Replay, err error) {
	fmt.Fprintln(w, in.Name)
	if err != nil {
		label := "unreadable"
		if in.Skipped {
			label = "skipped"
		} else if why, _ := failure(err); why != failRead {
			label = "error"
		}
		fmt.Fprintf(w, "  %-10s  %s\n", label, reason(in.Name, err))
		return
	}
	row := func(label, value string) {
		if value != "" {
			fmt.Fprintf(w, "  %-10s  %s\n", label, value)
		}
	}
	row("format", strings.TrimSpace(r.FormatName+" "+r.Version))
	if !r.Start.IsZero() {
		row("date", formatDate(r.Start))
	}
	row(titleLabel(r.Format), r.Title)
	row("mode", r.Mode)
	dur := ""
	if r.Duration > 0 {
		dur = model.FormatDuration(r.Duration)
	}
	if tl := &r.Timeline; tl.Clock != nil && tl.Count > 0 {
		// the clock players saw first, real time beside it
		dur = fmt.Sprintf("%s %s, %s real time", model.FormatDuration(tl.Clock(tl.Count-1)), tl.ClockName, dur)
	}
	if r.Timeline.Count > 0 {
		unit := r.Timeline.Unit
		if unit == "" {
			unit = "frame"
		}
		if r.Timeline.Count != 1 {
			unit += "s"
		}
		dur = strings.TrimSpace(fmt.Sprintf("%s (%s %s)", dur, model.FormatCount(int64(r.Timeline.Count)), unit))
	}
	row("duration", dur)
	row("result", r.Result)
	for i, p := range r.Players {
		label := ""
		if i == 0 {
			label = "players"
		}
		fmt.Fprintf(w, "  %-10s  %s\n", label, playerLine(p))
	}
	problems := fmt.Sprint(r.Problems())
	if n := len(r.Diagnostics) - r.Problems(); n > 0 {
		problems += fmt.Sprintf(" (+%d notes)", n)
	}
	if r.Partial {
		problems += ", partial"
	}
	row("problems", problems)
}

func titleLabel(f model.Format) string {
	switch f {
	case model.Slippi:
		return "stage"
	case model.BSOR:
		return "song"
	case model.FZGX:
		return "course"
	default:
		return "map"
	}
}

func playerLine(p model.Player) string {
	parts := []string{p.Slot}
	if p.Character != "" {
		parts = append(parts, p.Character)
	}
	if p.Name != "" {
		parts = append(parts, fmt.Sprintf("%q", p.Name))
	}
	if p.Code != "" {
		parts = append(parts, p.Code)
	}
	if p.Team != "" {
		if strings.HasPrefix(strings.ToLower(p.Team), "team") {
			parts = append(parts, p.Team)
		} else {
			parts = append(parts, "team "+p.Team)
		}
	}
	if p.Result != "" {
		parts = append(parts, "— "+p.Result)
	}
	return strings.Join(parts, "  ")
}
