package cli

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"rewind/library/aggregate"
	"rewind/model"
	"rewind/theme"
)

const statsAbout = `Per-player stats of each replay: tables with the players side by side, or
with --json one JSON object per file (NDJSON):

  {"path": ..., "format": "slippi", "stats": {...}, "tables": [...]}

"stats" is the format's typed object: durations in seconds, players P1..Pn,
an outcome word (win, loss, draw, no-contest, quit, disconnect) beside the
prose result. For Slippi it is slippi-js 9.1.2's getStats() (stocks,
conversions, combos, actionCounts, overall, lastFrame, playableFrameCount,
gameComplete), value for value, so scripts written against slippi-js read
it; keys slippi-js leaves undefined are absent; for StarCraft II each
player's apm (as sc2reader counts it), gameApm and buildOrder; for BSOR
BeatLeader's score statistic. "tables" are the tables the text shows: each
{"key", "title", "player" (-1: players side by side), "columns", "rows"},
a row {"key", "label", "frame" (when it points at one), "values", "text"}.
A file that cannot be read has "error" instead.

` + withoutPaths + `
`

const statsNotes = `A file found in a folder that is no replay is skipped with a note on stderr.

Exit status: 0, or 2 when a path cannot be read, a file named on the command
line is no replay, or the command line is wrong.
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

// statsOptions are stats's flags.
type statsOptions struct {
	json bool
	// stats --by (stats_by.go)
	by, where         string
	players           []string
	lrasLoss, noCache bool
	setGap            time.Duration // --by set
}

func statsCommand() *cobra.Command {
	o := &statsOptions{}
	cmd := &cobra.Command{
		Use:                   "stats [--json] [--by KEY[,KEY...] [--player WHO]... [--where QUERY] [--lras-loss] [--set-gap D] [--no-cache]] [FILE|DIR...]",
		Short:                 "per-player stats of each replay, or added up across an archive with --by",
		Long:                  statsAbout + statsByAbout + statsSetsAbout,
		Annotations:           map[string]string{notesKey: statsNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "write one JSON object per file (NDJSON); with --by one per group")
	f.StringVar(&o.by, "by", "", "add up every replay, grouped by `KEYS`: player, character, opponent, vs, matchup, stage, month, week, day, session, format; or set alone, the sets")
	f.StringArrayVar(&o.players, "player", nil, "with --by, count only this player's side (a code or a name; repeat for several)")
	f.StringVar(&o.where, "where", "", "with --by, count only the replays that match `QUERY` (the browser's query language)")
	f.BoolVar(&o.lrasLoss, "lras-loss", false, "with --by, count a game a player quit (Slippi's LRAS) as their loss")
	f.BoolVar(&o.noCache, "no-cache", false, "with --by, read every replay; neither use nor fill the index")
	f.DurationVar(&o.setGap, "set-gap", aggregate.SessionGap, "with --by set, the most time between one game's end and the next's start in a set")
	cmd.RegisterFlagCompletionFunc("by", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var keys []string
		for _, k := range aggregate.Keys {
			keys = append(keys, string(k))
		}
		return keys, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
	return cmd
}

func (o *statsOptions) run(c *call, paths []string) int {
	if o.by != "" {
		return o.runBy(c, paths)
	}
	if len(o.players) > 0 || o.where != "" || o.lrasLoss {
		return c.errorf("--player, --where and --lras-loss add up an archive: they go with --by, like --by character")
	}
	exit := 0
	out := c.output()
	if o.json {
		out = c.jsonOutput() // writeJSON escapes what a terminal would act on
	}
	defer out.Flush()
	first := true
	var werr error
	// one file's stats, written while its replay is at hand (a file on
	// disk is mapped for the length of it; nothing of the replay is kept)
	write := func(in input, r *model.Replay, err error) {
		if in.stray(err) {
			out.Flush()
			c.notef("skipped %s: %s", c.epath(in.Name), reason(in.Name, err))
			return
		}
		if err != nil && !in.Skipped {
			exit = 2
		}
		if r != nil {
			// the analysis reads the bytes: done before anything is
			// written, a page that cannot be read (the file shrank) runs
			// this again over a copy and must find nothing written
			r.Analysis()
		}
		if o.json {
			werr = writeJSON(out, statsObject(in.Name, r, err))
			out.item()
			return
		}
		if !first {
			fmt.Fprintln(out)
		}
		first = false
		writeStats(out, in.Name, r, err)
		out.item()
	}
	lib, _ := c.libraryPaths(paths)
	for _, in := range collect(lib, nil) {
		// stats reads the analysis, which a decode without event records
		// gives as a whole one does (a Slippi replay's records were a
		// quarter of what its stats allocated), and the file's bytes are
		// mapped rather than copied into a buffer made for each file
		if !checkMapped(in, func(r *model.Replay, err error) { write(in, r, err) }) {
			r, err := decodeInput(in, model.DecodeOptions{NoEvents: true})
			write(in, r, err)
		}
		if werr != nil {
			return c.errorf("%v", werr)
		}
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
// null, as JavaScript writes them; a duration is seconds.
func jsonValue(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	case time.Duration:
		return x.Seconds()
	}
	return v
}

// writeStats prints one replay's tables.
func writeStats(w *output, path string, r *model.Replay, err error) {
	fmt.Fprintln(w, w.path(path))
	if err != nil {
		fmt.Fprintf(w, "  unreadable  %s\n", theme.Safe(reason(path, err)))
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
		writeTable(w, t, statsWidth)
	}
}

// statsWidth is how wide stats text may run: a table that needs more is
// cut into groups of columns, each under the labels again.
const statsWidth = 100

// writeTable prints a table: the labels under its title (on a line of its
// own when it is wider than they are) and a column per player (or per
// heading), padded to their widest cell and three spaces apart. Columns
// that do not fit in width go into the next group, under the title and the
// labels again; a column too wide alone is cut with an ellipsis.
func writeTable(w io.Writer, t model.StatTable, width int) {
	const indent, gap = 2, 3
	labels := []string{""}
	for _, row := range t.Rows {
		labels = append(labels, theme.Safe(row.Label))
	}
	labelW := 0
	for _, l := range labels {
		labelW = max(labelW, ansi.StringWidth(l))
	}
	labelW = min(labelW, width/2)
	// the title heads the labels when it fits there, else has a line of
	// its own: a long title there widened the labels of every row
	title := theme.Safe(t.Title)
	ownLine := ansi.StringWidth(title) > labelW
	if !ownLine {
		labels[0] = title
	}
	// cols[i] is column i top to bottom: its heading, then a cell per row
	n := len(t.Columns)
	for _, row := range t.Rows {
		n = max(n, len(row.Cells))
	}
	cols := make([][]string, n)
	colW := make([]int, n)
	room := width - indent - labelW - gap // for one column alone
	for i := range cols {
		head := ""
		if i < len(t.Columns) {
			head = theme.Safe(t.Columns[i])
		}
		cols[i] = append(cols[i], head)
		for _, row := range t.Rows {
			cell := ""
			if i < len(row.Cells) {
				cell = theme.Safe(row.Cells[i].Text())
			}
			cols[i] = append(cols[i], cell)
		}
		for j, s := range cols[i] {
			if ansi.StringWidth(s) > room && i < n-1 {
				cols[i][j] = ansi.Truncate(s, room, "…") // the last column wraps instead
			}
			colW[i] = max(colW[i], ansi.StringWidth(cols[i][j]))
		}
	}
	// groups of columns that fit, at least one column each; the table's
	// last column (a chat message, a description) wraps in what is left
	// of the line when that is at least minWrap wide
	const minWrap = 24
	type group struct{ lo, hi, lastW int }
	var groups []group
	for lo := 0; lo < n || lo == 0; {
		hi, used, lastW := lo, indent+labelW, 0
		for hi < n {
			left := width - used - gap
			if colW[hi] <= left {
				lastW = colW[hi]
			} else if hi == n-1 && (left >= minWrap || hi == lo) {
				lastW = max(left, 1)
			} else if hi == lo {
				lastW = colW[hi]
			} else {
				break
			}
			used += gap + lastW
			hi++
		}
		groups = append(groups, group{lo, hi, lastW})
		if hi == lo {
			break
		}
		lo = hi
	}
	pad := func(s string, w int) string { return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0)) }
	for g, cut := range groups {
		if g > 0 {
			fmt.Fprintln(w)
		}
		if len(groups) > 1 || ownLine {
			more := ""
			if len(groups) > 1 {
				more = fmt.Sprintf(" (columns %d–%d of %d)", cut.lo+1, cut.hi, n)
			}
			for _, l := range strings.Split(ansi.Wrap(title+more, width-indent, " "), "\n") {
				fmt.Fprintf(w, "%*s%s\n", indent, "", strings.TrimRight(l, " "))
			}
			labels[0] = ""
		}
		for r, label := range labels {
			var b strings.Builder
			b.WriteString(strings.Repeat(" ", indent))
			b.WriteString(pad(ansi.Truncate(label, labelW, "…"), labelW))
			var more []string // the wrapped last cell's further lines
			for i := cut.lo; i < cut.hi; i++ {
				b.WriteString(strings.Repeat(" ", gap))
				cell, cw := cols[i][r], colW[i]
				if i == cut.hi-1 && cut.lastW < cw {
					lines := strings.Split(ansi.Wrap(cell, cut.lastW, " "), "\n")
					cell, more, cw = lines[0], lines[1:], cut.lastW
				}
				b.WriteString(pad(cell, cw))
			}
			fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
			if len(more) > 0 {
				at := ansi.StringWidth(b.String()) - cut.lastW
				for _, m := range more {
					fmt.Fprintln(w, strings.TrimRight(strings.Repeat(" ", at)+m, " "))
				}
			}
		}
	}
}
