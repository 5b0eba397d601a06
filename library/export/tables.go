package export

import (
	"time"

	"rewind/model"
)

// The tables every format shares. Column names are rewind's JSON keys
// (info --json, dump), in lowerCamelCase; path joins the tables. The
// format is the hive partition (format=slippi), not a column in the files.

// replayRow is one file.
type replayRow struct {
	Path            string     `parquet:"path"`
	Name            string     `parquet:"name"`
	SHA256          string     `parquet:"sha256"` // hex, of the whole file
	Size            int64      `parquet:"size"`
	Modified        time.Time  `parquet:"modified,timestamp(millisecond)"`
	FormatName      string     `parquet:"formatName,dict"`
	Version         string     `parquet:"version,dict"`
	Start           *time.Time `parquet:"start,optional,timestamp(millisecond)"`
	Title           string     `parquet:"title,dict"`
	Mode            string     `parquet:"mode,dict"`
	Result          string     `parquet:"result,dict"`
	DurationSeconds float64    `parquet:"durationSeconds"`
	Frames          int32      `parquet:"frames"`
	Rate            float64    `parquet:"rate"`
	Unit            string     `parquet:"unit,dict"`
	Players         int32      `parquet:"players"`
	Events          int64      `parquet:"events"`
	Partial         bool       `parquet:"partial"`
	Problems        int32      `parquet:"problems"` // diagnostics of warning severity or worse
	Notes           int32      `parquet:"notes"`
	Error           string     `parquet:"error,optional"` // the file could not be decoded at all
}

type playerRow struct {
	Path      string `parquet:"path,dict"`
	Index     int32  `parquet:"index"`
	Slot      string `parquet:"slot,dict"`
	Name      string `parquet:"name,dict"`
	Code      string `parquet:"code,dict"`
	Character string `parquet:"character,dict"`
	Team      string `parquet:"team,dict"`
	Result    string `parquet:"result,dict"`
	// Outcome is the word a script compares (win, loss, draw, no-contest,
	// quit, disconnect; empty when unknown), from the replay's summary.
	Outcome string `parquet:"outcome,dict"`
}

// playerStatRow is one stat of one player in one replay, as the summary
// that stats --by adds up keeps it: a value, or (Name set) one bucket of a
// tally such as the kill moves. Groups in DuckDB sum these as stats --by
// does (see the README).
type playerStatRow struct {
	Path   string  `parquet:"path,dict"`
	Player int32   `parquet:"player"`
	Key    string  `parquet:"key,dict"`
	Name   string  `parquet:"name,dict"`
	Value  float64 `parquet:"value"`
}

type momentRow struct {
	Path    string  `parquet:"path,dict"`
	Index   int32   `parquet:"index"`
	Kind    string  `parquet:"kind,dict"`
	Frame   int64   `parquet:"frame"` // the format's frame number
	End     int64   `parquet:"end"`
	Time    float64 `parquet:"time"` // seconds of game time at Frame
	EndTime float64 `parquet:"endTime"`
	// By did it (the attacker, who took the stock, trained the unit), On
	// had it done to them (the victim); player indices, -1 when none.
	By           int32   `parquet:"by"`
	On           int32   `parquet:"on"`
	Damage       float64 `parquet:"damage"`
	Hits         int32   `parquet:"hits"`
	Kill         bool    `parquet:"kill"`
	Move         string  `parquet:"move,dict"` // the last or killing move, the unit built
	StartPercent float64 `parquet:"startPercent"`
	EndPercent   float64 `parquet:"endPercent"`
	Summary      string  `parquet:"summary"`
	Stream       string  `parquet:"stream,dict"`
	Offset       int64   `parquet:"offset"`
	Length       int64   `parquet:"length"`
}

type eventRow struct {
	Path    string  `parquet:"path,dict"`
	Index   int64   `parquet:"index"`
	Frame   int64   `parquet:"frame"` // the format's frame number
	Time    float64 `parquet:"time"`
	Player  int32   `parquet:"player"` // -1 when none
	Kind    string  `parquet:"kind,dict"`
	Summary string  `parquet:"summary"`
	Notable bool    `parquet:"notable"`
	Flag    string  `parquet:"flag,dict"`
	Stream  string  `parquet:"stream,dict"`
	Offset  int64   `parquet:"offset"`
	Length  int64   `parquet:"length"`
}

type diagnosticRow struct {
	Path     string `parquet:"path,dict"`
	Index    int32  `parquet:"index"`
	Severity string `parquet:"severity,dict"`
	Source   string `parquet:"source,dict"`
	Stream   string `parquet:"stream,dict"`
	Offset   int64  `parquet:"offset"`
	Length   int64  `parquet:"length"`
	Frame    *int64 `parquet:"frame,optional"`
	Subject  string `parquet:"subject,dict"`
	Message  string `parquet:"message"`
	Expected string `parquet:"expected"`
	Found    string `parquet:"found"`
	Skipped  bool   `parquet:"skipped"`
	Text     string `parquet:"text"`
}

// Tables are the shared tables' names, in the order they are written.
var Tables = []string{"replays", "players", "player_stats", "moments", "events", "diagnostics"}

func replayOf(path, name, sum string, size int64, mod time.Time, r *model.Replay, err error) replayRow {
	row := replayRow{Path: path, Name: name, SHA256: sum, Size: size, Modified: mod.UTC()}
	if r == nil {
		if err != nil {
			row.Error = err.Error()
		}
		return row
	}
	row.FormatName, row.Version = r.FormatName, r.Version
	if !r.Start.IsZero() {
		t := r.Start.UTC()
		row.Start = &t
	}
	row.Title, row.Mode, row.Result = r.Title, r.Mode, r.Result
	row.DurationSeconds = r.Duration.Seconds()
	row.Frames, row.Rate, row.Unit = int32(r.Timeline.Count), r.Timeline.Rate, r.Timeline.Unit
	row.Players, row.Events = int32(len(r.Players)), int64(len(r.Events))
	row.Partial = r.Partial
	row.Problems = int32(r.Problems())
	row.Notes = int32(len(r.Diagnostics)) - row.Problems
	return row
}
