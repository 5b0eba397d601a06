package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"rewind/decoders"
	"rewind/library"
	"rewind/model"
	"rewind/theme"
)

type infoPlayer struct {
	Slot      string `json:"slot"`
	Name      string `json:"name,omitempty"`
	Code      string `json:"code,omitempty"`
	Character string `json:"character,omitempty"`
	Team      string `json:"team,omitempty"`
	Result    string `json:"result,omitempty"`
	// Outcome is the result as a word a script compares (win, loss,
	// draw, no-contest, quit, disconnect); absent when unknown
	Outcome model.Outcome `json:"outcome,omitempty"`
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
	Frames          int          `json:"frames"` // 0 when only the header was read and it does not say
	Rate            float64      `json:"rate,omitempty"`
	Result          string       `json:"result,omitempty"`
	Players         []infoPlayer `json:"players"`
	// Checked says whether the file was decoded in full (--check, or an
	// earlier check the index remembers). Until then Problems and
	// Diagnostics count what the header read found, and Partial is absent.
	Checked     bool   `json:"checked"`
	Partial     *bool  `json:"partial,omitempty"`
	Problems    int    `json:"problems"`
	Diagnostics int    `json:"diagnostics"`
	Error       string `json:"error,omitempty"`
	Reason      string `json:"reason,omitempty"`  // why there is no replay: read, notReplay or refused
	Skipped     bool   `json:"skipped,omitempty"` // a device, FIFO or socket in a folder, never opened
}

const infoAbout = `Print a summary of each replay: format and version, date, stage or map or song,
mode, duration, result, players, and the problems a check found.
Folders are walked for files with a replay's extension or magic bytes.
` + withoutPaths + `

Only what the summary needs is read (a replay's header, its metadata, the small
members of an SC2 archive), on every core, and remembered in the index in the
user's cache directory, so a folder lists fast the second time. The problems
line says "not checked" until the file was decoded in full: --check does that
here, and the index keeps the result of any earlier check (info --check, the
browser, find with a problems: term).

Dates are shown in the zone the file records (teehistorian's start_time offset),
or UTC when the file stores UTC (Slippi, BSOR, StarCraft II): never in this
machine's zone, so the same file prints the same date everywhere.
`

const infoNotes = `A file found in a folder that is no replay (no format claims it, or its
format's decoder refuses it, like an F-Zero GX emblem save) is skipped with a
note on stderr that names it.

Exit status: 0 when every file was read (problems are reported, not failed,
and a folder's stray non-replay files are skipped), 2 when a path cannot be
read, a file named on the command line is no replay, no replay was found, or
the command line is wrong.
`

// infoOptions are info's flags.
type infoOptions struct {
	json, check, noCache bool
}

func infoCommand() *cobra.Command {
	o := &infoOptions{}
	cmd := &cobra.Command{
		Use:                   "info [--json] [--check] [--no-cache] [FILE|DIR ...]",
		Short:                 "summary of each replay, header only (no argument: your library)",
		Long:                  infoAbout,
		Annotations:           map[string]string{notesKey: infoNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "write one JSON object per file (NDJSON)")
	f.BoolVar(&o.check, "check", false, "decode every file in full, so the problems line is final (and the index remembers it)")
	f.BoolVar(&o.noCache, "no-cache", false, "read every file; neither use nor fill the index in the user's cache directory")
	return cmd
}

func (o *infoOptions) run(c *call, paths []string) int {
	walk, from := c.walkFrom(paths)
	opt := library.ScanOptions{Ordered: true, Check: o.check}
	if !o.noCache {
		idx, done := c.openIndex()
		defer done()
		opt.Index = idx
	}
	exit, files, first := 0, 0, true
	out := c.output()
	if o.json {
		out = c.jsonOutput()
	}
	defer out.Flush()
	named := namedPaths(paths)
	// the JSON lines are made on the scan's workers: writeJSON's bytes,
	// escaped for terminals, written by hand (a million lines notice)
	line := func(b []byte, h *library.Header) []byte {
		if !o.json || stray(h, named) {
			return b
		}
		return appendInfoJSON(b, summarize(h))
	}
	library.ScanLines(context.Background(), walk, opt, line, func(h *library.Header, text []byte) bool {
		if stray(h, named) {
			// a file in a folder that is no replay: named on stderr, not a failure
			out.Flush()
			c.notef("skipped %s: %s", c.epath(h.Path), reason(h.Path, errors.New(h.Err)))
			return true
		}
		if h.Kind == library.File {
			files++
		}
		if h.Err != "" && h.Kind != library.Skipped {
			exit = 2 // info reports problems; only a file it cannot read makes it fail
		}
		if o.json {
			out.Write(text)
		} else {
			if !first {
				out.WriteByte('\n')
			}
			writeInfo(out, h)
		}
		first = false
		out.item()
		return true
	})
	if files == 0 {
		if exit == 0 { // nothing unreadable said why already
			c.errorf("no replay found%s", under(paths, from))
		}
		return 2
	}
	return exit
}

// namedPaths is the set of paths named on the command line.
func namedPaths(paths []string) map[string]bool {
	named := make(map[string]bool, len(paths))
	for _, p := range paths {
		named[p] = true
	}
	return named
}

// stray reports whether h is a file found in a folder that gives no
// replay: no format claims it, or its format's decoder refuses it (an
// F-Zero GX emblem save, a text file named .slp). Commands that summarise
// replays pass over such a file with a note on stderr; a file named on
// the command line that is no replay stays an error, and a path that
// cannot be read stays unreadable.
func stray(h *library.Header, named map[string]bool) bool {
	return h.Kind == library.File && h.Err != "" && !named[h.Path]
}

// openIndex opens the index in the user's cache directory for info and
// find; without one (no cache directory, a read-only disk) they read every
// file, and say so once.
func (c *call) openIndex() (*library.Index, func()) {
	idx, err := library.OpenIndex("")
	if err != nil {
		c.notef("no index: %v", err)
		return nil, func() {}
	}
	return idx, func() {
		if err := idx.Close(); err != nil {
			c.notef("index: %v", err)
		}
	}
}

// under names the paths a search went through, for "no replay found":
// the paths given, else where the command looked (walkFrom).
func under(paths []string, from string) string {
	switch len(paths) {
	case 0:
		return " in " + from
	case 1:
		return " in " + theme.Safe(paths[0])
	}
	return fmt.Sprintf(" in the %d paths given", len(paths))
}

// failureOf says how a header without a replay failed: read (the path),
// notReplay (no format claims it) or refused (its decoder did).
func failureOf(h *library.Header) string {
	switch {
	case h.Kind == library.Unreadable:
		return failRead
	case h.NotReplay:
		return failNotReplay
	}
	return failRefused
}

func summarize(h *library.Header) infoJSON {
	j := infoJSON{Path: h.Path, Players: make([]infoPlayer, 0, len(h.Players))}
	if h.Size > 0 || h.Size == 0 && h.Kind != library.Unreadable { // an unreadable path has no size
		size := h.Size
		j.Size = &size
	}
	if h.Err != "" {
		j.Error = reason(h.Path, errors.New(h.Err))
		if h.Kind == library.Skipped {
			j.Skipped = true
		} else if j.Reason = failureOf(h); j.Reason == failRefused {
			j.Format = h.Format
		}
		return j
	}
	j.Format, j.FormatName, j.Version = h.Format, h.FormatName, h.Version
	j.Title, j.Mode, j.Result = h.Title, h.Mode, h.Result
	j.DurationSeconds, j.Frames, j.Rate = h.Duration.Seconds(), h.Frames, h.Rate
	if h.ClockName != "" {
		c := h.Clock.Seconds()
		j.ClockSeconds, j.ClockName = &c, h.ClockName
	}
	j.Problems, j.Diagnostics = h.ProblemCount(), h.Problems+h.Notes
	if ck := h.Check; ck != nil {
		j.Checked, j.Partial, j.Diagnostics = true, &ck.Partial, ck.Problems+ck.Notes
	}
	if !h.Start.IsZero() {
		t := h.Start
		j.Start = &t
	}
	for i, p := range h.Players {
		j.Players = append(j.Players, infoPlayer{Slot: p.Slot, Name: p.Name, Code: p.Code, Character: p.Character,
			Team: p.Team, Result: p.Result, Outcome: library.PlayerOutcome(h, i)})
	}
	return j
}

// writeInfo prints the human summary of one replay.
func writeInfo(w *output, h *library.Header) {
	fmt.Fprintln(w, w.path(h.Path))
	if h.Err != "" {
		label := "unreadable"
		if h.Kind == library.Skipped {
			label = "skipped"
		} else if failureOf(h) != failRead {
			label = "error"
		}
		fmt.Fprintf(w, "  %-10s  %s\n", label, theme.Safe(reason(h.Path, errors.New(h.Err))))
		return
	}
	row := func(label, value string) {
		if value != "" {
			fmt.Fprintf(w, "  %-10s  %s\n", label, theme.Safe(value))
		}
	}
	row("format", strings.TrimSpace(h.FormatName+" "+h.Version))
	if !h.Start.IsZero() {
		row("date", formatDate(h.Start))
	}
	row(titleLabel(h.Format), h.Title)
	row("mode", h.Mode)
	dur := ""
	if h.Duration > 0 {
		dur = model.FormatDuration(h.Duration)
	}
	if h.ClockName != "" {
		// the clock players saw first, real time beside it
		dur = fmt.Sprintf("%s %s, %s real time", model.FormatDuration(h.Clock), h.ClockName, dur)
	}
	if h.Frames > 0 {
		unit := h.Unit
		if unit == "" {
			unit = "frame"
		}
		if h.Frames != 1 {
			unit += "s"
		}
		dur = strings.TrimSpace(fmt.Sprintf("%s (%s %s)", dur, model.FormatCount(int64(h.Frames)), unit))
	}
	row("duration", dur)
	row("result", h.Result)
	for i, p := range h.Players {
		label := ""
		if i == 0 {
			label = "players"
		}
		fmt.Fprintf(w, "  %-10s  %s\n", label, theme.Safe(playerLine(p)))
	}
	row("problems", problemsLine(h))
}

// problemsLine is what a check found, or, before one, what the header read
// found and that the rest is unread.
func problemsLine(h *library.Header) string {
	ck := h.Check
	switch {
	case ck == nil && h.Problems == 0:
		return "not checked (only the header was read; --check decodes it all)"
	case ck == nil:
		return fmt.Sprintf("%d in the header; the rest not checked (--check decodes it all)", h.Problems)
	}
	s := counted(h.ProblemCount(), ck.Notes)
	if ck.Partial {
		s += ", partial"
	}
	return s
}

func counted(problems, notes int) string {
	s := fmt.Sprint(problems)
	if notes > 0 {
		s += fmt.Sprintf(" (+%d notes)", notes)
	}
	return s
}

// titleLabel is what the format calls a replay's title: "stage", "song".
func titleLabel(f model.Format) string {
	if d := decoders.ByID(f); d != nil && d.Title != "" {
		return d.Title
	}
	return "title"
}

func playerLine(p library.Player) string {
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
