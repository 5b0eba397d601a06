package diff

import (
	"fmt"
	"sort"
	"time"

	"rewind/model"
)

// TableDiff is one stats table of A beside B's table with the same key.
type TableDiff struct {
	Key            string
	TitleA, TitleB string
	// PlayerA and PlayerB are the players a list belongs to (a build
	// order); -1 for tables with the players side by side.
	PlayerA, PlayerB int
	// List is a table of one player's rows in time order (a build order):
	// rows are aligned by item, the nth of an item in A with the nth in B,
	// with the time between them.
	List bool
	// ByPlayer says the columns are the players (paired), not headings.
	ByPlayer bool
	Columns  []ColumnPair
	Rows     []RowDiff
}

// ColumnPair puts a column of A's table beside one of B's: the same
// player's column (paired players) or the same heading. -1 where a side
// has no such column.
type ColumnPair struct {
	Name string
	A, B int
}

// RowDiff is a row of A beside the row of B with the same key (the nth with
// the nth when a key repeats). A or B is nil when only one table has it.
type RowDiff struct {
	Key, Label string
	A, B       *model.StatRow
	// TimeA and TimeB are the game times the rows point at (a list's
	// rows), -1 when a row points at no frame.
	TimeA, TimeB time.Duration
}

// HasTimes reports whether both rows point at a time, so the row has a
// delta.
func (r RowDiff) HasTimes() bool { return r.A != nil && r.B != nil && r.TimeA >= 0 && r.TimeB >= 0 }

// ChartDiff is a chart both replays draw, its series paired.
type ChartDiff struct {
	Title  string
	Series []SeriesDiff
}

// SeriesDiff is one series of A beside B's for the same player (paired) or
// of the same label, sampled at the same game times.
type SeriesDiff struct {
	Label            string
	PlayerA, PlayerB int
	// Parts split the game time both cover at round times (every 30 s, 2
	// min, ...): each part's end, the values there and the means over it.
	Parts []Part
	// Apart is when the series part for good: from this time to the end B
	// stays above A (Higher "B") or below (Higher "A"); Higher is empty
	// when they end level.
	Apart  time.Duration
	Higher string
	// Gap is the largest difference B - A (by size) and when.
	Gap   float64
	GapAt time.Duration
}

// Part is a stretch of game time of a chart comparison.
type Part struct {
	From, To     time.Duration
	AtA, AtB     float64 // the values at To; NaN where a series has none
	MeanA, MeanB float64 // the means over the part; NaN where a series has none
}

// summaries compares two different games by their analysis: the stats
// tables, the charts, the players paired.
func summaries(res *Result, opt Options) {
	a, b := res.A, res.B
	res.Pairs = pairPlayers(a, b, opt.Pairs)
	pairB := map[int]int{}
	for _, p := range res.Pairs {
		pairB[p[0]] = p[1]
	}
	ta, tb := a.Analysis().Stats.Tables, b.Analysis().Stats.Tables
	usedB := make([]bool, len(tb))
	for i := range ta {
		t := &ta[i]
		j := -1
		for k := range tb {
			if usedB[k] || tb[k].Key != t.Key {
				continue
			}
			if t.Player >= 0 {
				pb, ok := pairB[t.Player]
				if !ok || tb[k].Player != pb {
					continue
				}
			} else if tb[k].Player >= 0 {
				continue
			}
			j = k
			break
		}
		if j < 0 {
			res.Unmatched = append(res.Unmatched, fmt.Sprintf("%s only in A", tableName(t)))
			continue
		}
		usedB[j] = true
		res.Tables = append(res.Tables, compareTables(a, b, t, &tb[j], res.Pairs))
	}
	for k := range tb {
		if !usedB[k] {
			res.Unmatched = append(res.Unmatched, fmt.Sprintf("%s only in B", tableName(&tb[k])))
		}
	}
	res.Charts = compareCharts(a, b, res.Pairs, &res.Unmatched)
}

func tableName(t *model.StatTable) string {
	if t.Player >= 0 {
		return fmt.Sprintf("table %s of %s", t.Key, Player(t.Player))
	}
	return "table " + t.Key
}

// compareTables aligns two tables with the same key. Rows pair by key,
// the nth of a key in A with the nth in B (the nth Barracks with the nth
// Barracks); a table whose rows all have one key (a minute by minute
// table, a chat log) has no item to pair by, and its rows pair by label
// (the 6:00 row with the 6:00 row), rows without a partner standing alone.
// Rows that point at frames are put in time order.
func compareTables(a, b *model.Replay, ta, tb *model.StatTable, pairs [][2]int) TableDiff {
	td := TableDiff{Key: ta.Key, TitleA: ta.Title, TitleB: tb.Title, PlayerA: ta.Player, PlayerB: tb.Player}
	timed := hasFrames(ta) || hasFrames(tb)
	td.List = ta.Player >= 0 && timed
	td.Columns, td.ByPlayer = pairColumns(a, b, ta, tb, pairs)
	by := func(r *model.StatRow) string { return r.Key }
	if oneKey(ta, tb) {
		by = func(r *model.StatRow) string { return r.Label }
	}
	byKey := map[string][]int{}
	for j := range tb.Rows {
		k := by(&tb.Rows[j])
		byKey[k] = append(byKey[k], j)
	}
	seen := map[string]int{}
	usedB := make([]bool, len(tb.Rows))
	for i := range ta.Rows {
		ra := &ta.Rows[i]
		k := by(ra)
		n := seen[k]
		seen[k]++
		rd := RowDiff{Key: ra.Key, Label: ra.Label, A: ra, TimeA: rowTime(a, ra), TimeB: -1}
		if js := byKey[k]; n < len(js) {
			rb := &tb.Rows[js[n]]
			usedB[js[n]] = true
			rd.B, rd.TimeB = rb, rowTime(b, rb)
		}
		td.Rows = append(td.Rows, rd)
	}
	for j := range tb.Rows {
		if !usedB[j] {
			rb := &tb.Rows[j]
			td.Rows = append(td.Rows, RowDiff{Key: rb.Key, Label: rb.Label, B: rb, TimeA: -1, TimeB: rowTime(b, rb)})
		}
	}
	if timed {
		// one list in time order: a pair at A's time, a row only B has at
		// its own
		at := func(r RowDiff) time.Duration {
			if r.A != nil {
				return r.TimeA
			}
			return r.TimeB
		}
		sort.SliceStable(td.Rows, func(i, j int) bool { return at(td.Rows[i]) < at(td.Rows[j]) })
	}
	return td
}

// rowTime is when a row happens by the game's clock (Timeline.Clock where
// the game has its own, as its labels count), -1 when it points at no frame.
func rowTime(r *model.Replay, row *model.StatRow) time.Duration {
	tl := &r.Timeline
	if row.Frame < 0 || row.Frame >= tl.Count {
		return -1
	}
	if tl.Clock != nil {
		return tl.Clock(row.Frame)
	}
	return tl.Time(row.Frame)
}

// oneKey reports whether every row of both tables has the same key.
func oneKey(ta, tb *model.StatTable) bool {
	key, n := "", 0
	for _, t := range []*model.StatTable{ta, tb} {
		for i := range t.Rows {
			if n > 0 && t.Rows[i].Key != key {
				return false
			}
			key = t.Rows[i].Key
			n++
		}
	}
	return n > 1
}

func hasFrames(t *model.StatTable) bool {
	for _, r := range t.Rows {
		if r.Frame >= 0 {
			return true
		}
	}
	return false
}

// pairColumns puts A's columns beside B's: by the paired players when both
// tables have a column per player, else by heading.
func pairColumns(a, b *model.Replay, ta, tb *model.StatTable, pairs [][2]int) ([]ColumnPair, bool) {
	var cols []ColumnPair
	if ta.Player < 0 && len(ta.Columns) == len(a.Players) && len(tb.Columns) == len(b.Players) && len(a.Players) > 0 {
		usedB := make([]bool, len(tb.Columns))
		pairedA := make([]bool, len(ta.Columns))
		for _, p := range pairs {
			cols = append(cols, ColumnPair{Name: Player(p[0]) + "/" + Player(p[1]), A: p[0], B: p[1]})
			usedB[p[1]], pairedA[p[0]] = true, true
		}
		for i := range ta.Columns {
			if !pairedA[i] {
				cols = append(cols, ColumnPair{Name: Player(i) + "/-", A: i, B: -1})
			}
		}
		for j := range tb.Columns {
			if !usedB[j] {
				cols = append(cols, ColumnPair{Name: "-/" + Player(j), A: -1, B: j})
			}
		}
		return cols, true
	}
	usedB := make([]bool, len(tb.Columns))
	for i, c := range ta.Columns {
		j := -1
		for k, d := range tb.Columns {
			if !usedB[k] && norm(d) == norm(c) {
				j = k
				break
			}
		}
		if j < 0 && len(ta.Columns) == len(tb.Columns) && !usedB[i] {
			j = i // same place, other heading
		}
		if j >= 0 {
			usedB[j] = true
		}
		cols = append(cols, ColumnPair{Name: c, A: i, B: j})
	}
	for k, d := range tb.Columns {
		if !usedB[k] {
			cols = append(cols, ColumnPair{Name: d, A: -1, B: k})
		}
	}
	return cols, false
}

// Cell returns a row's cell at a column, nil when there is none.
func Cell(row *model.StatRow, col int) *model.Field {
	if row == nil || col < 0 || col >= len(row.Cells) {
		return nil
	}
	return &row.Cells[col]
}

// Delta is B's value minus A's for two numeric cells (a time.Duration for
// two durations, else a float64), and for two cells of
// named numbers (map[string]float64, as a per-minute row holds) the
// difference of each; ok is false when the cells are not numbers.
func Delta(a, b *model.Field) (d any, ok bool) {
	if a == nil || b == nil {
		return nil, false
	}
	if x, ok1 := a.Value.(time.Duration); ok1 {
		if y, ok2 := b.Value.(time.Duration); ok2 {
			return y - x, true
		}
	}
	if x, ok1 := number(a.Value); ok1 {
		if y, ok2 := number(b.Value); ok2 {
			return y - x, true
		}
		return nil, false
	}
	ma, ok1 := a.Value.(map[string]float64)
	mb, ok2 := b.Value.(map[string]float64)
	if !ok1 || !ok2 {
		return nil, false
	}
	out := map[string]float64{}
	for k, x := range ma {
		if y, ok := mb[k]; ok {
			out[k] = y - x
		}
	}
	return out, len(out) > 0
}
