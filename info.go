package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"rewind/decoders"
	"rewind/model"
)

// newFlags makes a flag set whose --help prints the command's usage.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses flags anywhere among the arguments (Go's flag package
// stops at the first file name otherwise). It returns the exit code to use
// when parsing ended the command: 0 for --help, 2 for a mistake.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, 0, false
			}
			return nil, 2, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, 0, true
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), 0, true
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

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
	Size            int64        `json:"size"`
	Start           *time.Time   `json:"start,omitempty"`
	Title           string       `json:"title,omitempty"`
	Mode            string       `json:"mode,omitempty"`
	DurationSeconds float64      `json:"durationSeconds"`
	Frames          int          `json:"frames"`
	Rate            float64      `json:"rate,omitempty"`
	Result          string       `json:"result,omitempty"`
	Partial         bool         `json:"partial"`
	Players         []infoPlayer `json:"players"`
	Problems        int          `json:"problems"`
	Diagnostics     int          `json:"diagnostics"`
	Error           string       `json:"error,omitempty"`
}

func cmdInfo(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("info", "rewind info [--json] [FILE|DIR ...]", stderr)
	asJSON := fs.Bool("json", false, "write one JSON object per file (NDJSON)")
	paths, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	inputs, err := collect(paths)
	if err != nil {
		fmt.Fprintln(stderr, "rewind:", err)
		return 2
	}
	exit := 0
	enc := json.NewEncoder(stdout)
	for i, in := range inputs {
		r, err := decodeInput(in, model.DecodeOptions{})
		if err != nil {
			exit = 2
		} else if r.Problems() > 0 && exit == 0 {
			exit = 1
		}
		if *asJSON {
			enc.Encode(summarize(in.Name, r, err))
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		writeInfo(stdout, in.Name, r, err)
	}
	// info reports; only an unreadable file makes it fail
	if exit == 1 {
		exit = 0
	}
	return exit
}

func decodeInput(in input, opt model.DecodeOptions) (*model.Replay, error) {
	data, err := in.Read()
	if err != nil {
		return nil, err
	}
	r, err := decoders.Decode(data, in.Name, opt)
	if r != nil {
		r.Path = in.Name
	}
	return r, err
}

func summarize(path string, r *model.Replay, err error) infoJSON {
	if err != nil {
		return infoJSON{Path: path, Error: err.Error(), Players: []infoPlayer{}}
	}
	j := infoJSON{
		Path: path, Format: r.Format, FormatName: r.FormatName, Version: r.Version, Size: r.Size,
		Title: r.Title, Mode: r.Mode, DurationSeconds: r.Duration.Seconds(), Frames: r.Timeline.Count,
		Rate: r.Timeline.Rate, Result: r.Result, Partial: r.Partial, Problems: r.Problems(),
		Diagnostics: len(r.Diagnostics), Players: []infoPlayer{},
	}
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
func writeInfo(w io.Writer, path string, r *model.Replay, err error) {
	fmt.Fprintln(w, path)
	if err != nil {
		fmt.Fprintf(w, "  unreadable  %v\n", err)
		return
	}
	row := func(label, value string) {
		if value != "" {
			fmt.Fprintf(w, "  %-10s  %s\n", label, value)
		}
	}
	row("format", strings.TrimSpace(r.FormatName+" "+r.Version))
	if !r.Start.IsZero() {
		row("date", r.Start.Format("2006-01-02 15:04:05 MST"))
	}
	row(titleLabel(r.Format), r.Title)
	row("mode", r.Mode)
	dur := ""
	if r.Duration > 0 {
		dur = model.FormatDuration(r.Duration)
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
