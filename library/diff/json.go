package diff

import (
	"encoding/hex"
	"fmt"
	"math"
	"time"

	"rewind/model"
)

// JSON is the comparison as `rewind diff --json` writes it: typed values,
// times in seconds, players "P1".."Pn", frames by the format's numbers.
type JSON struct {
	Identical       bool        `json:"identical"`
	SameGame        bool        `json:"sameGame"`
	Why             string      `json:"why"`
	A               FileJSON    `json:"a"`
	B               FileJSON    `json:"b"`
	Unit            string      `json:"unit"`
	First           *DiffJSON   `json:"first"`
	DifferingFrames int         `json:"differingFrames"`
	DifferingFields int         `json:"differingFields"`
	Compared        [][2]int64  `json:"compared"`
	Ranges          [][2]int64  `json:"ranges"`
	OnlyA           [][2]int64  `json:"onlyA"`
	OnlyB           [][2]int64  `json:"onlyB"`
	Differences     []DiffJSON  `json:"differences"`
	End             []DiffJSON  `json:"end"`
	Pairs           [][2]string `json:"pairs,omitempty"`
	Tables          []TableJSON `json:"tables,omitempty"`
	Charts          []ChartJSON `json:"charts,omitempty"`
	Unmatched       []string    `json:"unmatched,omitempty"`
	Limit           int         `json:"limit"`
	More            int         `json:"more"`
}

// FileJSON is one side of the comparison.
type FileJSON struct {
	Path    string       `json:"path"`
	Format  model.Format `json:"format"`
	Title   string       `json:"title,omitempty"`
	Start   *time.Time   `json:"start,omitempty"`
	Frames  *[2]int64    `json:"frames"`
	Partial bool         `json:"partial"`
	Stopped *StopJSON    `json:"stopped,omitempty"`
	Players []PlayerJSON `json:"players"`
}

// PlayerJSON is who a player is, as the header says.
type PlayerJSON struct {
	Slot      string `json:"slot"`
	Name      string `json:"name,omitempty"`
	Code      string `json:"code,omitempty"`
	Character string `json:"character,omitempty"`
	Result    string `json:"result,omitempty"`
}

// StopJSON says where a file that did not decode whole stops.
type StopJSON struct {
	Frame  int64  `json:"frame"`
	Reason string `json:"reason"`
}

// DiffJSON is one difference.
type DiffJSON struct {
	Kind   Kind     `json:"kind"`
	Frame  *int64   `json:"frame,omitempty"`
	To     *int64   `json:"to,omitempty"`
	Time   *float64 `json:"time,omitempty"`
	Player string   `json:"player,omitempty"`
	Event  string   `json:"event,omitempty"`
	Field  string   `json:"field,omitempty"`
	A      any      `json:"a"`
	B      any      `json:"b"`
	AName  string   `json:"aName,omitempty"`
	BName  string   `json:"bName,omitempty"`
	Only   string   `json:"only,omitempty"`
}

// TableJSON is a table of A beside B's.
type TableJSON struct {
	Key     string       `json:"key"`
	TitleA  string       `json:"titleA"`
	TitleB  string       `json:"titleB"`
	PlayerA string       `json:"playerA,omitempty"`
	PlayerB string       `json:"playerB,omitempty"`
	List    bool         `json:"list"`
	Columns []ColumnJSON `json:"columns"`
	Rows    []RowJSON    `json:"rows"`
}

// ColumnJSON pairs a column of A's table with one of B's (indices, null
// where absent).
type ColumnJSON struct {
	Name string `json:"name"`
	A    *int   `json:"a"`
	B    *int   `json:"b"`
}

// RowJSON is a row of A beside B's: the cells' values and texts, the
// difference B − A per column pair where both are numbers, and for a list
// the times and how much later B is.
type RowJSON struct {
	Key   string   `json:"key"`
	Label string   `json:"label"`
	A     []any    `json:"a"`
	B     []any    `json:"b"`
	AText []string `json:"aText"`
	BText []string `json:"bText"`
	Delta []any    `json:"delta,omitempty"`
	TimeA *float64 `json:"timeA,omitempty"`
	TimeB *float64 `json:"timeB,omitempty"`
	Later *float64 `json:"later,omitempty"`
}

// ChartJSON is a chart both draw.
type ChartJSON struct {
	Title  string       `json:"title"`
	Series []SeriesJSON `json:"series"`
}

// SeriesJSON is a pair of series compared part by part.
type SeriesJSON struct {
	Label   string     `json:"label,omitempty"`
	PlayerA string     `json:"playerA,omitempty"`
	PlayerB string     `json:"playerB,omitempty"`
	Parts   []PartJSON `json:"parts"`
	Higher  string     `json:"higher,omitempty"`
	Apart   float64    `json:"apart"`
	Gap     float64    `json:"gap"`
	GapAt   float64    `json:"gapAt"`
}

// PartJSON is a stretch of game time: values at its end, means over it.
type PartJSON struct {
	From  float64  `json:"from"`
	To    float64  `json:"to"`
	AtA   *float64 `json:"atA"`
	AtB   *float64 `json:"atB"`
	MeanA *float64 `json:"meanA"`
	MeanB *float64 `json:"meanB"`
}

// JSON makes the object `rewind diff --json` writes; limit is the
// differences and list rows it lists (0: all).
func (res *Result) JSON(limit int) JSON {
	j := JSON{Identical: res.Identical, SameGame: res.SameGame, Why: res.Why,
		A: fileJSON(res.A, res.StopA), B: fileJSON(res.B, res.StopB),
		Unit: res.A.Timeline.Unit, DifferingFrames: res.DifferingFrames, DifferingFields: res.DifferingFields,
		Ranges: ranges(res.Ranges), OnlyA: ranges(res.OnlyA), OnlyB: ranges(res.OnlyB),
		Differences: []DiffJSON{}, End: []DiffJSON{}, Compared: [][2]int64{}, Limit: limit}
	if j.Unit == "" {
		j.Unit = "frame"
	}
	if res.SameGame && res.Overlap.From <= res.Overlap.To && res.A.Timeline.Count > 0 && res.B.Timeline.Count > 0 {
		j.Compared = [][2]int64{{res.Overlap.From, res.Overlap.To}}
	}
	if res.First != nil {
		d := diffJSON(*res.First)
		j.First = &d
	}
	for i, d := range res.Differences {
		if limit > 0 && i >= limit {
			break
		}
		j.Differences = append(j.Differences, diffJSON(d))
	}
	if res.SameGame {
		j.More = res.DifferingFields + len(res.OnlyA) + len(res.OnlyB) - len(j.Differences)
	}
	for _, d := range res.End {
		j.End = append(j.End, diffJSON(d))
	}
	for _, p := range res.Pairs {
		j.Pairs = append(j.Pairs, [2]string{Player(p[0]), Player(p[1])})
	}
	for _, t := range res.Tables {
		j.Tables = append(j.Tables, tableJSON(t, limit))
	}
	for _, c := range res.Charts {
		cj := ChartJSON{Title: c.Title}
		for _, s := range c.Series {
			sj := SeriesJSON{Label: s.Label, PlayerA: Player(s.PlayerA), PlayerB: Player(s.PlayerB), Parts: []PartJSON{},
				Higher: s.Higher, Apart: seconds(s.Apart), Gap: finite(s.Gap), GapAt: seconds(s.GapAt)}
			for _, p := range s.Parts {
				sj.Parts = append(sj.Parts, PartJSON{From: seconds(p.From), To: seconds(p.To),
					AtA: opt(p.AtA), AtB: opt(p.AtB), MeanA: opt(p.MeanA), MeanB: opt(p.MeanB)})
			}
			cj.Series = append(cj.Series, sj)
		}
		j.Charts = append(j.Charts, cj)
	}
	j.Unmatched = res.Unmatched
	return j
}

func fileJSON(r *model.Replay, st *Stop) FileJSON {
	f := FileJSON{Path: r.Path, Format: r.Format, Title: r.Title, Partial: r.Partial, Players: []PlayerJSON{}}
	if !r.Start.IsZero() {
		t := r.Start
		f.Start = &t
	}
	if tl := &r.Timeline; tl.Count > 0 {
		f.Frames = &[2]int64{tl.First, tl.Number(tl.Count - 1)}
	}
	if st != nil {
		f.Stopped = &StopJSON{Frame: st.Frame, Reason: st.Reason}
	}
	for i, p := range r.Players {
		f.Players = append(f.Players, PlayerJSON{Slot: Player(i), Name: p.Name, Code: p.Code, Character: p.Character, Result: p.Result})
	}
	return f
}

func ranges(rs []Range) [][2]int64 {
	out := make([][2]int64, 0, len(rs))
	for _, r := range rs {
		out = append(out, [2]int64{r.From, r.To})
	}
	return out
}

func diffJSON(d Difference) DiffJSON {
	j := DiffJSON{Kind: d.Kind, Player: Player(d.Player), Event: d.Event, Field: d.Field,
		A: Value(d.A), B: Value(d.B), AName: d.AName, BName: d.BName, Only: d.Only}
	if d.Kind != KindEnd {
		f, t := d.Frame, seconds(d.Time)
		j.Frame, j.Time = &f, &t
		if d.Kind == KindFrames {
			to := d.To
			j.To = &to
		}
	}
	return j
}

func tableJSON(t TableDiff, limit int) TableJSON {
	tj := TableJSON{Key: t.Key, TitleA: t.TitleA, TitleB: t.TitleB, PlayerA: Player(t.PlayerA), PlayerB: Player(t.PlayerB),
		List: t.List, Columns: []ColumnJSON{}, Rows: []RowJSON{}}
	idx := func(i int) *int {
		if i < 0 {
			return nil
		}
		return &i
	}
	for _, c := range t.Columns {
		tj.Columns = append(tj.Columns, ColumnJSON{Name: c.Name, A: idx(c.A), B: idx(c.B)})
	}
	for i, r := range t.Rows {
		if t.List && limit > 0 && i >= limit {
			break
		}
		rj := RowJSON{Key: r.Key, Label: r.Label, A: []any{}, B: []any{}, AText: []string{}, BText: []string{}}
		for _, side := range []struct {
			row  *model.StatRow
			vals *[]any
			text *[]string
		}{{r.A, &rj.A, &rj.AText}, {r.B, &rj.B, &rj.BText}} {
			if side.row == nil {
				*side.vals, *side.text = nil, nil
				continue
			}
			for _, c := range side.row.Cells {
				*side.vals = append(*side.vals, Value(c.Value))
				*side.text = append(*side.text, c.Text())
			}
		}
		if !t.List {
			for _, c := range t.Columns {
				d, ok := Delta(Cell(r.A, c.A), Cell(r.B, c.B))
				if !ok {
					d = nil
				}
				rj.Delta = append(rj.Delta, Value(d))
			}
		}
		if r.A != nil && r.TimeA >= 0 {
			s := seconds(r.TimeA)
			rj.TimeA = &s
		}
		if r.B != nil && r.TimeB >= 0 {
			s := seconds(r.TimeB)
			rj.TimeB = &s
		}
		if r.HasTimes() {
			s := seconds(r.TimeB - r.TimeA)
			rj.Later = &s
		}
		tj.Rows = append(tj.Rows, rj)
	}
	return tj
}

// Value is a field value as JSON carries it: numbers as numbers, bytes as
// hex, times as RFC 3339, durations in seconds, and NaN or an infinity (real
// replays hold garbage floats) as its name, which JSON has no number for.
func Value(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprint(x)
		}
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Sprint(x)
		}
	case []byte:
		return hex.EncodeToString(x)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case time.Duration:
		return seconds(x)
	case map[string]float64:
		out := make(map[string]any, len(x))
		for k, f := range x {
			out[k] = Value(f)
		}
		return out
	}
	return v
}

func opt(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// seconds is a duration in seconds, as the nearest float to its
// nanoseconds (Duration.Seconds adds the parts and can land a hair off:
// 1.6666666669999999 for 1.666666667 s).
func seconds(d time.Duration) float64 { return float64(d) / 1e9 }
