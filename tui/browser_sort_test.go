package tui

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"rewind/library"
)

// TestSortByPlayersTeams: rows of the same players read differently with
// teams ("Fox & Falco vs Marth & Sheik") and without ("Fox vs Falco vs
// Marth vs Sheik"), and sort by what they read.
func TestSortByPlayersTeams(t *testing.T) {
	players := func(teams ...string) []library.Player {
		var ps []library.Player
		for i, c := range []string{"Fox", "Falco", "Marth", "Sheik"} {
			p := library.Player{Character: c}
			if teams != nil {
				p.Team = teams[i]
			}
			ps = append(ps, p)
		}
		return ps
	}
	tests := []struct {
		what string
		rows [][]library.Player
		want []library.RowID // ascending
	}{
		{"no teams first", [][]library.Player{players(), players("red", "red", "blue", "blue")}, []library.RowID{1, 0}},
		{"teams first", [][]library.Player{players("red", "red", "blue", "blue"), players()}, []library.RowID{0, 1}},
		{"other teams", [][]library.Player{players("red", "blue", "red", "blue"), players("red", "red", "blue", "blue")}, []library.RowID{1, 0}},
	}
	for _, tt := range tests {
		s := library.NewStore()
		var ids []library.RowID
		for i, ps := range tt.rows {
			ids = append(ids, s.Put(&library.Header{Path: fmt.Sprintf("g%d.slp", i), Kind: library.File, Players: ps}))
		}
		got, _ := sortRows(context.Background(), s, ids, order{colWhat, false}, newWhatCache())
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.what, got, tt.want)
		}
	}
}
