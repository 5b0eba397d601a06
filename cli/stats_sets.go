package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"rewind/library/aggregate"
	"rewind/model"
	"rewind/theme"
)

// stats --by set: the games two players played one after another, scored
// like a tournament set (aggregate.FindSets).

const statsSetsAbout = `
With --by set stats lists sets instead of groups, newest first: consecutive
games of one player against one other (by code, else name) that start less
than --set-gap (15m) after the previous ended, scored like a tournament set:
games won each, and who took the set (a quit, Slippi's LRAS, loses the game).
With --player WHO (@me for the config's me) only WHO's sets, from WHO's side:
opponent, score (WHO's wins first), the result, the characters each side
played and the stages. With --json one object per set:

  {"start": "...", "end": "...", "games": 3, "score": [2, 1],
   "players": [{"player": "ABCD#123", "name": "...", "wins": 2,
                "characters": {"Fox": 3}}, {...}],
   "winner": 0, "stages": {"Battlefield": 2, ...}, "paths": [...]}

with, when --player is given, "outcome" (win, loss or draw: WHO's) and
"opponent", and WHO first in players and score.
`

// setJSON is one set, as stats --by set --json writes it.
type setJSON struct {
	Start    string          `json:"start"`
	End      string          `json:"end"`
	Games    int             `json:"games"`
	Score    [2]int          `json:"score"`
	Players  [2]setPlayerRow `json:"players"`
	Winner   int             `json:"winner"` // index into players; -1 a draw
	Outcome  model.Outcome   `json:"outcome,omitempty"`
	Opponent string          `json:"opponent,omitempty"`
	Stages   map[string]int  `json:"stages"`
	Paths    []string        `json:"paths"`
}

type setPlayerRow struct {
	Player     string         `json:"player"`
	ByName     bool           `json:"byName,omitempty"`
	Name       string         `json:"name,omitempty"`
	Wins       int            `json:"wins"`
	Characters map[string]int `json:"characters"`
}

// runSets is stats --by set.
func (o *statsOptions) runSets(c *call, paths []string, players []string) int {
	if o.setGap <= 0 {
		return c.errorf("--set-gap takes a time above 0, like 15m, not %s", o.setGap)
	}
	q, code := parseWhere(c, o.where)
	if q == nil {
		return code
	}
	var games []aggregate.Game
	unreadable := eachGame(c, paths, q, o.noCache, false, true, func(g *aggregate.Game) {
		if len(g.Players) != 2 || g.SkipReason() != "" {
			return // in no set: keep only what a set reads
		}
		light := aggregate.Game{Path: g.Path, Format: g.Format, Start: g.Start, Duration: g.Duration, Title: g.Title, Players: g.Players}
		outs := make([]model.PlayerSummary, len(g.Players))
		for i := range outs {
			outs[i].Outcome = g.Outcome(i)
		}
		light.Summary = &model.Summary{Players: outs}
		games = append(games, light)
	})
	sets := aggregate.FindSets(slices.Values(ptrs(games)), o.setGap)
	want := map[string]bool{}
	for _, p := range players {
		want[fold(p)] = true
	}
	side := func(s *aggregate.Set) int {
		if len(want) == 0 {
			return 0
		}
		return s.Side(func(key, name string) bool { return want[fold(key)] || want[fold(name)] })
	}
	out := c.output()
	if o.json {
		out = c.jsonOutput()
	}
	defer out.Flush()
	shown := 0
	var rows [][]string
	for i := range sets {
		s := &sets[i]
		me := side(s)
		if me < 0 {
			continue
		}
		shown++
		if o.json {
			writeJSON(out, setObject(s, me, len(want) > 0))
			continue
		}
		rows = append(rows, s.Cells(me, len(want) > 0))
	}
	if !o.json && shown > 0 {
		writeSetTable(out, rows, len(want) > 0)
	}
	out.Flush()
	switch {
	case unreadable:
		return 2
	case shown == 0:
		who := ""
		if len(players) > 0 {
			who = " of " + strings.Join(players, " or ")
		}
		return c.errorf("no set%s: no two games of one player against one other, less than %s apart", who, o.setGap)
	}
	return 0
}

func ptrs(games []aggregate.Game) []*aggregate.Game {
	out := make([]*aggregate.Game, len(games))
	for i := range games {
		out[i] = &games[i]
	}
	return out
}

// fold compares codes and names as --player does: case and spaces aside.
func fold(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", "")
}

// setObject is a set's JSON, side me first when mine is set.
func setObject(s *aggregate.Set, me int, mine bool) setJSON {
	order := [2]int{0, 1}
	if mine && me == 1 {
		order = [2]int{1, 0}
	}
	j := setJSON{Start: s.Start().Format(time.RFC3339), End: s.End().Format(time.RFC3339), Games: len(s.Games),
		Winner: -1, Stages: map[string]int{}, Paths: make([]string, 0, len(s.Games))}
	for k, side := range order {
		p := s.Players[side]
		j.Players[k] = setPlayerRow{Player: p.Key, ByName: p.ByName, Name: p.Name, Wins: p.Wins, Characters: p.Characters}
		j.Score[k] = p.Wins
		if s.Winner == side {
			j.Winner = k
		}
	}
	if mine {
		j.Opponent = s.Players[order[1]].Key
		switch s.Winner {
		case me:
			j.Outcome = model.OutcomeWin
		case -1:
			j.Outcome = model.OutcomeDraw
		default:
			j.Outcome = model.OutcomeLoss
		}
	}
	for _, g := range s.Games {
		if g.Title != "" {
			j.Stages[g.Title]++
		}
		j.Paths = append(j.Paths, g.Path)
	}
	return j
}

// writeSetTable prints the sets' rows under their titles, columns as wide
// as their widest cell (players and stages cut to fit).
func writeSetTable(w *output, rows [][]string, mine bool) {
	titles := aggregate.SetTitles(mine)
	widths := make([]int, len(titles))
	for i, t := range titles {
		widths[i] = ansi.StringWidth(t)
		for _, r := range rows {
			widths[i] = max(widths[i], ansi.StringWidth(theme.Safe(r[i])))
		}
	}
	widths[2] = min(widths[2], 44)
	line := func(cells []string) {
		var b strings.Builder
		for i, s := range cells {
			s = theme.Safe(s)
			if i > 0 {
				b.WriteString("  ")
			}
			if i < len(cells)-1 && ansi.StringWidth(s) > widths[i] {
				s = ansi.Truncate(s, widths[i]-1, "") + "…"
			}
			if i == 1 || i == 3 { // games and score read as numbers
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(s)) + s)
			} else if i < len(cells)-1 {
				b.WriteString(s + strings.Repeat(" ", widths[i]-ansi.StringWidth(s)))
			} else {
				b.WriteString(s)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(titles)
	for _, r := range rows {
		line(r)
	}
}
