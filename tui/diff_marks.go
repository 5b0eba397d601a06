package tui

import "rewind/library/diff"

// diffMarks is what differs at the current frame between the file a
// replay view shows and the other file of a diff, in the terms that view
// draws: the players whose state differs and which of their fields, and
// the events that differ. The players and events panes ask it (a nil
// *diffMarks, outside a diff, marks nothing).
type diffMarks struct {
	fields map[int]map[string]bool // per player (-1: none): the last keys of differing fields
	events map[int]bool            // event indices of this file
}

// newDiffMarks collects the marks for side A (isA) or B of differences.
func newDiffMarks(ds []diff.Difference, isA bool) *diffMarks {
	m := &diffMarks{fields: map[int]map[string]bool{}, events: map[int]bool{}}
	for _, d := range ds {
		if d.Player >= 0 {
			if m.fields[d.Player] == nil {
				m.fields[d.Player] = map[string]bool{}
			}
			m.fields[d.Player][leafKey(d.Field)] = true
		}
		ev := d.EventB
		if isA {
			ev = d.EventA
		}
		if ev >= 0 {
			m.events[ev] = true
		}
	}
	return m
}

// playerMark is drawn after a player's slot: ≠ when anything of the
// player differs.
func (m *diffMarks) playerMark(p *paints, player int) string {
	if m == nil || len(m.fields[player]) == 0 {
		return ""
	}
	return p.err.wrap("≠")
}

// paintField marks a brief value whose field differs.
func (m *diffMarks) paintField(p *paints, player int, key, text string) string {
	if m == nil || !m.fields[player][key] {
		return text
	}
	return p.err.wrap(text)
}

// event reports whether event i differs.
func (m *diffMarks) event(i int) bool { return m != nil && m.events[i] }
