package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"rewind/model"
)

const statsAbout = `Per-player stats of each replay: tables with the players side by side, or
with --json one JSON object per file (NDJSON):

  {"path": ..., "format": "slippi", "stats": {...}, "tables": [...]}

"stats" is the format's own well-known shape where one exists, else null.
For Slippi it is slippi-js 9.1.2's getStats() (stocks, conversions, combos,
actionCounts, overall, lastFrame, playableFrameCount, gameComplete), value
for value, so scripts written against slippi-js read it; keys slippi-js
leaves undefined are absent. "tables" are the tables the text shows: each
{"key", "title", "player" (-1: players side by side), "columns", "rows"},
a row {"key", "label", "frame" (when it points at one), "values", "text"}.
A file that cannot be read has "error" instead.
`

const statsNotes = `Exit status: 0, or 2 when a path cannot be read or is no replay, or the
command line is wrong.
`

// statsJSON is the object `rewind stats --json` writes per file.
type statsJSON struct {
	Path   string       `json:"path"`
	Format model.Format `json:"format,omitempty"`
	Stats  any          `json:"stats"`
	Tables []tableJSON  `json:"tables"`
	Error  string       `json:"error,omitempty"`
}

type tableJSON struct {
	Key     string    `json:"key"`
	Title   string    `json:"title"`
	Player  int       `json:"player"`
	Columns []string  `json:"columns"`
	Rows    []rowJSON `json:"rows"`
}

type rowJSON struct {
	Key    string   `json:"key"`
	Label  string   `json:"label"`
	Frame  *int     `json:"frame,omitempty"`
	Values []any    `json:"values"`
	Text   []string `json:"text"`
}

func cmdStats(c *command, args []string) int {
	c.about, c.notes = statsAbout, statsNotes
	asJSON := c.flags.Bool("json", false, "write one JSON object per file (NDJSON)")
	paths, code, ok := c.parse(args)
	if !ok {
		return code
	}
	if len(paths) == 0 {
		return c.errorf("name at least one replay file or folder")
	}
	exit := 0
	enc := json.NewEncoder(c.stdout)
	for i, in := range collect(paths, nil) {
		r, err := decodeInput(in, model.DecodeOptions{})
		if err != nil && !in.Skipped {
			exit = 2
		}
		if *asJSON {
			if err := enc.Encode(statsObject(in.Name, r, err)); err != nil {
				return c.errorf("%v", err)
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(c.stdout)
		}
		writeStats(c.stdout, in.Name, r, err)
	}
	return exit
}

func statsObject(path string, r *model.Replay, err error) statsJSON {
	if err != nil {
		return statsJSON{Path: path, Error: err.Error(), Tables: []tableJSON{}}
	}
	a := r.Analysis()
	j := statsJSON{Path: path, Format: r.Format, Stats: a.Stats.Native, Tables: []tableJSON{}}
	for _, t := range a.Stats.Tables {
		tj := tableJSON{Key: t.Key, Title: t.Title, Player: t.Player, Columns: t.Columns, Rows: []rowJSON{}}
		if tj.Columns == nil {
			tj.Columns = []string{}
		}
		for _, row := range t.Rows {
			rj := rowJSON{Key: row.Key, Label: row.Label, Values: []any{}, Text: []string{}}
			if row.Frame >= 0 {
				f := row.Frame
				rj.Frame = &f
			}
			for _, c := range row.Cells {
				rj.Values = append(rj.Values, jsonValue(c.Value))
				rj.Text = append(rj.Text, c.Text())
			}
			tj.Rows = append(tj.Rows, rj)
		}
		j.Tables = append(j.Tables, tj)
	}
	return j
}

// jsonValue keeps a cell's value JSON can carry: NaN and infinities become
// null, as JavaScript writes them.
func jsonValue(v any) any {
	if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil
	}
	return v
}

// writeStats prints one replay's tables.
func writeStats(w io.Writer, path string, r *model.Replay, err error) {
	fmt.Fprintln(w, path)
	if err != nil {
		fmt.Fprintf(w, "  unreadable  %v\n", err)
		return
	}
	tables := r.Analysis().Stats.Tables
	if len(tables) == 0 {
		fmt.Fprintf(w, "  no stats yet for this format (%s)\n", r.FormatName)
		return
	}
	for i, t := range tables {
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeTable(w, t)
	}
}

// writeTable prints a table with its title as the first column's heading
// and columns padded to their widest cell.
func writeTable(w io.Writer, t model.StatTable) {
	grid := [][]string{append([]string{t.Title}, t.Columns...)}
	for _, row := range t.Rows {
		line := []string{row.Label}
		for _, c := range row.Cells {
			line = append(line, c.Text())
		}
		grid = append(grid, line)
	}
	var width []int
	for _, line := range grid {
		for i, s := range line {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(s))
		}
	}
	for _, line := range grid {
		var b strings.Builder
		b.WriteString(" ")
		for i, s := range line {
			b.WriteString(" ")
			b.WriteString(s)
			if i < len(line)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(s)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
