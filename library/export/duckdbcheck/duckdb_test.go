//go:build cgo

package duckdbcheck

import (
	"context"
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"rewind/library"
	"rewind/library/aggregate"
	"rewind/library/export"
)

// readmeQuery is the SQL block the README marks as the stats --by
// character query, with its dataset folder ds/ made dir.
func readmeQuery(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- stats-by-character.sql[^>]*-->\\s*```sql\\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("the README has no stats-by-character.sql block")
	}
	return strings.ReplaceAll(string(m[1]), "'ds/", "'"+filepath.ToSlash(dir)+"/")
}

// TestDuckDBStatsByCharacter exports the Slippi samples, runs the README's
// query in DuckDB and holds every row to stats --by character's group.
func TestDuckDBStatsByCharacter(t *testing.T) {
	samples := "../../../testdata/samples/slippi"
	dir := t.TempDir()
	if _, err := export.Export(context.Background(), []export.Input{{Path: samples}}, export.Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(readmeQuery(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type row struct {
		games, wins, losses    int
		played                 float64
		kills, damage, perKill sql.NullFloat64
	}
	got := map[string]row{}
	for rows.Next() {
		var char string
		var r row
		if err := rows.Scan(&char, &r.games, &r.wins, &r.losses, &r.played, &r.kills, &r.damage, &r.perKill); err != nil {
			t.Fatal(err)
		}
		got[char] = r
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}

	// stats --by character over the same files, as the command adds them up
	var games []aggregate.Game
	library.Scan(context.Background(), library.Paths([]string{samples}), library.ScanOptions{Ordered: true, Summaries: true},
		func(h library.Header) bool {
			if h.Kind == library.File && !h.NotReplay {
				games = append(games, aggregate.FromHeader(&h))
			}
			return true
		})
	res := aggregate.Run(games, aggregate.Options{By: []aggregate.Key{aggregate.KeyCharacter}})
	if len(res.Groups) < 3 || len(got) != len(res.Groups) {
		t.Fatalf("DuckDB has %d characters, stats --by %d", len(got), len(res.Groups))
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	for _, g := range res.Groups {
		char := g.Values[0]
		r, ok := got[char]
		if !ok {
			t.Errorf("%s: not in DuckDB's answer", char)
			continue
		}
		if r.games != g.Games || r.wins != g.Wins || r.losses != g.Losses || !near(r.played, g.Played.Seconds()) {
			t.Errorf("%s: DuckDB %d games %d-%d %.3fs, stats --by %d games %d-%d %.3fs", char, r.games, r.wins, r.losses, r.played,
				g.Games, g.Wins, g.Losses, g.Played.Seconds())
		}
		vals := map[string]aggregate.Value{}
		for _, v := range g.StatValues() {
			vals[v.Def.Key] = v
		}
		for _, c := range []struct {
			name string
			db   sql.NullFloat64
			v    aggregate.Value
			x    float64
		}{
			{"kills", r.kills, vals["killCount"], vals["killCount"].Total},
			{"damage", r.damage, vals["totalDamage"], vals["totalDamage"].Total},
			{"openings per kill", r.perKill, vals["openingsPerKill"], vals["openingsPerKill"].Ratio},
		} {
			if c.db.Valid != c.v.OK || (c.db.Valid && !near(c.db.Float64, c.x)) {
				t.Errorf("%s %s: DuckDB %v, stats --by %v (%v)", char, c.name, c.db, c.x, c.v.OK)
			}
		}
	}
}
