package aggregate

import (
	"strings"

	"rewind/library"
)

// NoSummary is why a replay the index has no summary of is skipped.
const NoSummary = "no summary (the replay was not decoded in full)"

// FromHeader is a scanned replay as a Game: its header's facts and the
// summary the index keeps (a Summary that says why it has none makes the
// game a skipped one, with that reason).
func FromHeader(h *library.Header) Game {
	var g Game
	fromHeader(h, &g)
	if g.Summary != nil {
		sum := *g.Summary
		g.Summary = &sum
	}
	return g
}

// fromHeader is FromHeader into g, reusing the room of its players; g's
// Summary is the header's.
func fromHeader(h *library.Header, g *Game) {
	players := g.Players[:0]
	*g = Game{Path: h.Path, Format: h.Format, Start: h.Start, Duration: h.Duration, Title: h.Title, Err: h.Err}
	for _, p := range h.Players {
		players = append(players, Player{Slot: p.Slot, Name: p.Name, Code: p.Code, Character: p.Character, Team: p.Team})
	}
	if len(players) > 0 {
		g.Players = players
	}
	switch s := h.Summary; {
	case s == nil:
		if g.Err == "" {
			g.Err = NoSummary
		}
	case s.Err != "":
		g.Err = s.Err
	default:
		g.Summary, g.Partial = &s.Summary, s.Partial
	}
}

// AddHeader adds the game of a scanned replay (FromHeader) unless it does
// not count, and says why then (SkipReason): with a SummaryReader's header
// and summary, a million replays are added without a Game made for each.
func (l *List) AddHeader(h *library.Header) (skip string) {
	fromHeader(h, &l.scratch)
	defer func() { l.scratch.Summary = nil }() // the reader's, not the list's to keep
	if why := l.scratch.SkipReason(); why != "" {
		return why
	}
	l.Add(&l.scratch)
	return ""
}

// Who names the game's players for a line or an overlay: "P1 Fox
// (ABCD#123) vs P2 Marth (EFGH#456)".
func (g *Game) Who() string {
	var sides []string
	for _, p := range g.Players {
		s := p.Slot
		if p.Character != "" {
			s += " " + p.Character
		} else if p.Name != "" {
			s += " " + p.Name
		}
		if p.Code != "" {
			s += " (" + p.Code + ")"
		}
		sides = append(sides, s)
	}
	return strings.Join(sides, " vs ")
}
