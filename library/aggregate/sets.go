package aggregate

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"rewind/model"
)

// Sets: the games two players played one after another, scored like a
// tournament set. A set is a run of games between the same two players
// (by code, else by name), each starting less than the gap after the
// previous one ended, with neither player playing anyone else in between.
// Only games of two players on two sides count: a doubles game or a solo
// play is no one's set.

// Set is one set, its players in the order of its first game's slots.
type Set struct {
	Players [2]SetPlayer
	Games   []SetGame // in time order
	// Winner is the player who won more games (0 or 1); -1 when they won
	// as many.
	Winner int
}

// SetPlayer is one side of a set.
type SetPlayer struct {
	Key    string // the code, else the name (ByName)
	ByName bool
	Name   string // the name played under most
	Wins   int
	// Characters counts the games by the character played, as played.
	Characters map[string]int
}

// SetGame is one game of a set.
type SetGame struct {
	// Index is the game's place in the games FindSets was given, from 0
	// (the browser shows a set's games by it).
	Index    int
	Path     string
	Format   model.Format
	Start    time.Time
	Duration time.Duration
	Title    string    // stage, map
	Chars    [2]string // each side's character, in the set's player order
	Names    [2]string
	// Winner is the side that won the game (0 or 1), -1 none: as the
	// summary's outcome reads it, a quit (Slippi's LRAS) losing the game
	// to the other.
	Winner int
}

// Start is when the set's first game started; End when its last ended.
func (s *Set) Start() time.Time { return s.Games[0].Start }
func (s *Set) End() time.Time {
	g := s.Games[len(s.Games)-1]
	return g.Start.Add(g.Duration)
}

// Score is the games won by each side, the given side first: "2-1".
func (s *Set) Score(side int) (mine, theirs int) {
	return s.Players[side].Wins, s.Players[1-side].Wins
}

// Side is the side of the set that key plays, -1 when neither.
func (s *Set) Side(match func(key, name string) bool) int {
	for i, p := range s.Players {
		if match(p.Key, p.Name) {
			return i
		}
	}
	return -1
}

// setGame is a game of two sides as FindSets sorts them.
type setGame struct {
	keys   [2]string
	byName [2]bool
	g      SetGame
}

// FindSets finds the sets of the games, newest first; gap is the most
// time between one game's end and the next's start within a set
// (SessionGap when 0). A game that is skipped (SkipReason), has no start,
// or is not one player against one is in no set.
func FindSets(games iter.Seq[*Game], gap time.Duration) []Set {
	if gap <= 0 {
		gap = SessionGap
	}
	var list []setGame
	i := 0
	for g := range games {
		if sg, ok := twoSides(g); ok {
			sg.g.Index = i
			list = append(list, sg)
		}
		i++
	}
	slices.SortStableFunc(list, func(a, b setGame) int { return a.g.Start.Compare(b.g.Start) })
	// each player's last game so far, as an index into list, to tell a
	// run of one pair's games apart from games with others in between
	last := map[string]int{}
	open := map[[2]string]int{} // a pair's set under way: index into sets
	var sets []Set
	var ends []int // each set's last game, as an index into list
	for i := range list {
		sg := &list[i]
		pair := sortedPair(sg.keys)
		k, ok := open[pair]
		if ok && list[ends[k]].g.Start.Equal(sg.g.Start) {
			continue // the same game again (a copy of the file): counted once
		}
		if ok {
			// both players' previous game is this set's last one, and it
			// ended less than gap before this one starts
			prev := list[ends[k]].g
			l0, l1 := last[sg.keys[0]], last[sg.keys[1]]
			if l0 != ends[k] || l1 != ends[k] || sg.g.Start.Sub(prev.Start.Add(prev.Duration)) >= gap {
				ok = false
			}
		}
		if !ok {
			sets = append(sets, Set{Players: [2]SetPlayer{
				{Key: sg.keys[0], ByName: sg.byName[0], Characters: map[string]int{}},
				{Key: sg.keys[1], ByName: sg.byName[1], Characters: map[string]int{}}}})
			ends = append(ends, i)
			k = len(sets) - 1
			open[pair] = k
		}
		ends[k] = i
		s := &sets[k]
		g := sg.g
		if s.Players[0].Key != sg.keys[0] { // the set's order, not this game's slots
			g.Chars[0], g.Chars[1] = g.Chars[1], g.Chars[0]
			g.Names[0], g.Names[1] = g.Names[1], g.Names[0]
			if g.Winner >= 0 {
				g.Winner = 1 - g.Winner
			}
		}
		s.Games = append(s.Games, g)
		last[sg.keys[0]], last[sg.keys[1]] = i, i
	}
	for i := range sets {
		s := &sets[i]
		names := [2]map[string]int{{}, {}}
		for _, g := range s.Games {
			for side := range 2 {
				if g.Chars[side] != "" {
					s.Players[side].Characters[g.Chars[side]]++
				}
				if g.Names[side] != "" {
					names[side][g.Names[side]]++
				}
			}
			if g.Winner >= 0 {
				s.Players[g.Winner].Wins++
			}
		}
		for side := range 2 {
			if s.Players[side].ByName {
				s.Players[side].Name = s.Players[side].Key
			} else {
				s.Players[side].Name = mostUsed(names[side])
			}
		}
		switch a, b := s.Players[0].Wins, s.Players[1].Wins; {
		case a > b:
			s.Winner = 0
		case b > a:
			s.Winner = 1
		default:
			s.Winner = -1
		}
	}
	// newest first
	slices.SortStableFunc(sets, func(a, b Set) int { return cmp.Compare(b.Start().UnixNano(), a.Start().UnixNano()) })
	return sets
}

// twoSides reads a game of one player against one: each side's key,
// character and name, and who won.
func twoSides(g *Game) (setGame, bool) {
	if g.SkipReason() != "" || g.Start.IsZero() || len(g.Players) != 2 {
		return setGame{}, false
	}
	a, b := g.Players[0], g.Players[1]
	if a.Team != "" && a.Team == b.Team {
		return setGame{}, false
	}
	var sg setGame
	for i, p := range [2]Player{a, b} {
		sg.keys[i], sg.byName[i] = playerKey(p)
		if sg.keys[i] == "" {
			return setGame{}, false
		}
		sg.g.Chars[i], sg.g.Names[i] = p.Character, p.Name
	}
	if tight(sg.keys[0]) == tight(sg.keys[1]) {
		return setGame{}, false // one player on both sides (a ditto against oneself, a test file)
	}
	sg.g.Path, sg.g.Format, sg.g.Start, sg.g.Duration, sg.g.Title = g.Path, g.Format, g.Start, g.Duration, g.Title
	sg.g.Winner = -1
	o := [2]model.Outcome{g.outcome(0), g.outcome(1)}
	switch {
	case o[0] == model.OutcomeWin && o[1] != model.OutcomeWin:
		sg.g.Winner = 0
	case o[1] == model.OutcomeWin && o[0] != model.OutcomeWin:
		sg.g.Winner = 1
	case lost(o[0]) && !lost(o[1]) && o[1] != model.OutcomeUnknown:
		sg.g.Winner = 1
	case lost(o[1]) && !lost(o[0]) && o[0] != model.OutcomeUnknown:
		sg.g.Winner = 0
	}
	return sg, true
}

// Outcome is player pi's outcome in the game, from its summary (or its
// list's record): what a set scores.
func (g *Game) Outcome(pi int) model.Outcome { return g.outcome(pi) }

// SetTitles are the heads of a table of sets (Cells): of everyone's, or,
// mine, of one player's from their side.
func SetTitles(mine bool) []string {
	if mine {
		return []string{"date", "games", "opponent", "score", "result", "mine", "theirs", "stages"}
	}
	return []string{"date", "games", "players", "score", "winner", "characters", "vs", "stages"}
}

// Cells are the set's line in a table under SetTitles: its first game's
// start, the games, the players and who took it (mine: the opponent, the
// score from side's view and the result), each side's characters, most
// played first, and the stages in the order played. The TUI and stats
// --by set print the same cells.
func (s *Set) Cells(side int, mine bool) []string {
	who := func(p SetPlayer) string {
		if p.ByName || p.Name == "" || p.Name == p.Key {
			return p.Key
		}
		return p.Key + " " + strconv.Quote(p.Name)
	}
	chars := func(p SetPlayer) string {
		names := slices.Sorted(maps.Keys(p.Characters))
		slices.SortStableFunc(names, func(a, b string) int { return p.Characters[b] - p.Characters[a] })
		return strings.Join(names, "+")
	}
	var stages []string
	for _, g := range s.Games {
		if g.Title != "" && !slices.Contains(stages, g.Title) {
			stages = append(stages, g.Title)
		}
	}
	row := []string{s.Start().Format("2006-01-02 15:04"), strconv.Itoa(len(s.Games))}
	them := 1 - side
	if mine {
		a, b := s.Score(side)
		result := "drew"
		switch s.Winner {
		case side:
			result = "won"
		case them:
			result = "lost"
		}
		row = append(row, who(s.Players[them]), fmt.Sprintf("%d-%d", a, b), result, chars(s.Players[side]), chars(s.Players[them]))
	} else {
		winner := "—"
		if s.Winner >= 0 {
			winner = s.Players[s.Winner].Key
		}
		row = append(row, who(s.Players[0])+" vs "+who(s.Players[1]), fmt.Sprintf("%d-%d", s.Players[0].Wins, s.Players[1].Wins), winner,
			chars(s.Players[0]), chars(s.Players[1]))
	}
	return append(row, strings.Join(stages, ", "))
}

// lost reports whether an outcome gives the game to the other side.
func lost(o model.Outcome) bool {
	return o == model.OutcomeLoss || o == model.OutcomeQuit || o == model.OutcomeDisconnect
}

func sortedPair(k [2]string) [2]string {
	if strings.Compare(k[0], k[1]) > 0 {
		k[0], k[1] = k[1], k[0]
	}
	return k
}
