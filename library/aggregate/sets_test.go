package aggregate

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"rewind/model"
)

// TestFindSets: which games make a set and how it is scored, on games
// built by hand (a game is "A-B 2m W" : A against B, starting 2 minutes
// after the previous game ended, A winning; L: B winning, Q: A quit (LRAS),
// -: no winner; "=" starts at the same time as the game before it, a copy).
func TestFindSets(t *testing.T) {
	tests := []struct {
		name  string
		games []string
		want  []string // newest first: "A 2-1 B" (players in the first game's order) per set
	}{
		{"one game is a set of one", []string{"A-B 0m W"}, []string{"A 1-0 B"}},
		{"three games, gaps under 15m", []string{"A-B 0m W", "A-B 2m L", "B-A 14m L"}, []string{"A 2-1 B"}},
		{"a gap of 15m starts a new set", []string{"A-B 0m W", "A-B 15m W"}, []string{"A 1-0 B", "A 1-0 B"}},
		{"a game against another in between", []string{"A-B 0m W", "A-C 1m W", "A-B 1m W"}, []string{"A 1-0 B", "A 1-0 C", "A 1-0 B"}},
		{"others playing meanwhile do not break it", []string{"A-B 0m W", "C-D 0m W", "A-B 1m L"}, []string{"C 1-0 D", "A 1-1 B"}},
		{"a quit loses the game", []string{"A-B 0m Q", "A-B 1m W"}, []string{"A 1-1 B"}},
		{"no winner", []string{"A-B 0m -", "A-B 1m W"}, []string{"A 1-0 B"}},
		{"a copy is counted once", []string{"A-B 0m W", "A-B = W", "A-B 1m W"}, []string{"A 2-0 B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games := buildSetGames(t, tt.games)
			var got []string
			for _, s := range FindSets(each(games), 0) {
				got = append(got, fmt.Sprintf("%s %d-%d %s", s.Players[0].Key, s.Players[0].Wins, s.Players[1].Wins, s.Players[1].Key))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("sets %q, want %q", got, tt.want)
			}
		})
	}
	// who took it, and the score from either side
	s := FindSets(each(buildSetGames(t, []string{"A-B 0m W", "A-B 1m L", "A-B 1m W"})), 0)[0]
	if s.Winner != 0 || s.Side(func(k, _ string) bool { return k == "B" }) != 1 {
		t.Errorf("winner %d", s.Winner)
	}
	if a, b := s.Score(1); a != 1 || b != 2 {
		t.Errorf("B's score %d-%d, want 1-2", a, b)
	}
	// doubles and solo plays are in no set
	team := Game{Path: "t", Start: time.Unix(0, 0), Duration: time.Minute, Players: []Player{{Code: "A", Team: "red"}, {Code: "B", Team: "red"}},
		Summary: &model.Summary{Players: []model.PlayerSummary{{}, {}}}}
	solo := Game{Path: "s", Start: time.Unix(0, 0), Duration: time.Minute, Players: []Player{{Code: "A"}},
		Summary: &model.Summary{Players: []model.PlayerSummary{{}}}}
	if sets := FindSets(each([]Game{team, solo}), 0); len(sets) != 0 {
		t.Errorf("a team game and a solo play made %d sets", len(sets))
	}
}

func buildSetGames(t *testing.T, specs []string) []Game {
	var games []Game
	at := time.Date(2024, 3, 22, 20, 0, 0, 0, time.UTC)
	const took = 3 * time.Minute
	var prevStart time.Time
	for i, spec := range specs {
		f := strings.Fields(spec)
		a, b, _ := strings.Cut(f[0], "-")
		start := prevStart
		if f[1] != "=" {
			gap, err := time.ParseDuration(f[1])
			if err != nil {
				t.Fatal(err)
			}
			start = at.Add(gap)
			at = start.Add(took)
		}
		prevStart = start
		o := map[string][2]model.Outcome{"W": {"win", "loss"}, "L": {"loss", "win"}, "Q": {"quit", "win"}, "-": {"no-contest", "no-contest"}}[f[2]]
		games = append(games, Game{Path: fmt.Sprintf("g%d.slp", i), Format: "slippi", Start: start, Duration: took,
			Players: []Player{{Code: a, Name: strings.ToLower(a)}, {Code: b, Name: strings.ToLower(b)}},
			Summary: &model.Summary{Players: []model.PlayerSummary{{Outcome: o[0]}, {Outcome: o[1]}}}})
	}
	return games
}
