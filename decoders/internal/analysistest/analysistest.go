// Package analysistest holds what the tests of every format's game code
// (decoders/<format>/stats.go, moments.go) check the same way: the rules a
// model.Analysis keeps, and lookups of its moments and table cells.
package analysistest

import (
	"encoding/json"
	"testing"

	"rewind/decoders/format"
	"rewind/model"
)

// Check asserts the rules every analysis keeps: moments in frame order and
// on the timeline, End not before Frame, player indices in range, a summary,
// and a span inside the file when there is one; every table row with one
// cell per column.
func Check(t testing.TB, r *model.Replay, a *model.Analysis) {
	t.Helper()
	for i, m := range a.Moments {
		if i > 0 && m.Frame < a.Moments[i-1].Frame {
			t.Fatalf("moment %d (%s) at frame %d, before the one at %d", i, m.Summary, m.Frame, a.Moments[i-1].Frame)
		}
		if m.Frame < 0 || m.Frame >= max(r.Timeline.Count, 1) || m.End < m.Frame || m.End >= max(r.Timeline.Count, 1) {
			t.Errorf("moment %q at frames %d-%d, timeline of %d", m.Summary, m.Frame, m.End, r.Timeline.Count)
		}
		if m.By < -1 || m.By >= len(r.Players) || m.On < -1 || m.On >= len(r.Players) {
			t.Errorf("moment %q: players %d and %d of %d", m.Summary, m.By, m.On, len(r.Players))
		}
		if m.Summary == "" || m.Kind == "" {
			t.Errorf("moment %+v has no kind or summary", m)
		}
		if m.Span.Len < 0 || (m.Span.Len > 0 && m.Span.Stream == "" && m.Span.End() > int64(len(r.Data)) && r.Data != nil) {
			t.Errorf("moment %q span %v outside the %d-byte file", m.Summary, m.Span, len(r.Data))
		}
	}
	for _, tb := range a.Stats.Tables {
		if tb.Key == "" || tb.Title == "" || len(tb.Columns) == 0 || tb.Player < -1 || tb.Player >= len(r.Players) {
			t.Errorf("table %q (%q): columns %q, player %d", tb.Key, tb.Title, tb.Columns, tb.Player)
		}
		for _, row := range tb.Rows {
			if len(row.Cells) != len(tb.Columns) || row.Label == "" {
				t.Errorf("table %s row %q: %d cells for %d columns", tb.Key, row.Label, len(row.Cells), len(tb.Columns))
			}
		}
	}
}

// Moments returns the moments of a kind, in order.
func Moments(a *model.Analysis, kind model.MomentKind) []model.Moment {
	var out []model.Moment
	for _, m := range a.Moments {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// Any matches a table whatever player it belongs to.
const Any = -2

// Table returns the first table with the key that belongs to the player
// (Any for any), failing the test when there is none.
func Table(t testing.TB, a *model.Analysis, key string, player int) model.StatTable {
	t.Helper()
	for _, tb := range a.Stats.Tables {
		if tb.Key == key && (player == Any || tb.Player == player) {
			return tb
		}
	}
	t.Fatalf("no table %q for player %d", key, player)
	return model.StatTable{}
}

// Row returns a table's row by key, failing the test when there is none.
func Row(t testing.TB, tb model.StatTable, key string) model.StatRow {
	t.Helper()
	for _, r := range tb.Rows {
		if r.Key == key {
			return r
		}
	}
	t.Fatalf("table %s has no row %q", tb.Key, key)
	return model.StatRow{}
}

// Cell returns the cell of a row in a column.
func Cell(t testing.TB, tb model.StatTable, row string, col int) model.Field {
	t.Helper()
	r := Row(t, tb, row)
	if col < 0 || col >= len(r.Cells) {
		t.Fatalf("table %s row %s has no column %d", tb.Key, row, col)
	}
	return r.Cells[col]
}

// Benchmark times a decoded replay's Analyze, the work the first call to
// Replay.Analysis does.
func Benchmark(b *testing.B, r *model.Replay) {
	if r.Analyze == nil {
		b.Fatal("the replay has no game analysis")
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Analyze()
	}
}

// Summary holds a replay's summary to what every summary keeps: an entry a
// player, stats the format declares, moments on the timeline by players
// that exist, and a JSON form.
func Summary(t testing.TB, r *model.Replay, f *format.Format) {
	t.Helper()
	s := r.Summarized(f.Summarize)
	if len(s.Players) != len(r.Players) {
		t.Fatalf("%d player summaries for %d players", len(s.Players), len(r.Players))
	}
	for _, p := range s.Players {
		for _, st := range p.Stats {
			if _, ok := f.Stat(st.Key); !ok || st.Value != st.Value {
				t.Errorf("stat %q = %v", st.Key, st.Value)
			}
		}
	}
	for _, m := range s.Moments {
		if m.Frame < s.First || m.End > s.Last || m.By >= len(r.Players) || m.On >= len(r.Players) {
			t.Errorf("moment %+v outside the replay (%d to %d, %d players)", m, s.First, s.Last, len(r.Players))
		}
	}
	if _, err := json.Marshal(s); err != nil {
		t.Error(err)
	}
}
