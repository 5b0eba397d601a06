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
	g := Game{Path: h.Path, Format: h.Format, Start: h.Start, Duration: h.Duration, Title: h.Title, Err: h.Err}
	if len(h.Players) > 0 {
		g.Players = make([]Player, len(h.Players))
		for i, p := range h.Players {
			g.Players[i] = Player{Slot: p.Slot, Name: p.Name, Code: p.Code, Character: p.Character, Team: p.Team}
		}
	}
	switch s := h.Summary; {
	case s == nil:
		if g.Err == "" {
			g.Err = NoSummary
		}
	case s.Err != "":
		g.Err = s.Err
	default:
		sum := s.Summary
		g.Summary, g.Partial = &sum, s.Partial
	}
	return g
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
