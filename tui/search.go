package tui

import (
	"fmt"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/sahilm/fuzzy"

	"rewind/model"
	"rewind/theme"
)

// searchQuery runs a `/` query: its kind: and player: terms set the list's
// filter at once, the rest of the text is searched for in a command (it
// costs a pass over every event, which must not hold up the key press).
func (v *replayView) searchQuery(q string) tea.Cmd {
	text, f, terms, bad := v.parseTerms(q)
	if bad != "" {
		v.status = bad
		return nil
	}
	if terms {
		v.setFilter(f)
	}
	return v.search(text)
}

// search looks for q in the list shown.
func (v *replayView) search(q string) tea.Cmd {
	v.query = q
	v.matches, v.allMatch, v.match = nil, nil, -1
	v.matchList = v.list
	if q == "" {
		return nil
	}
	v.searching = true
	r, p, list := v.r, v.p, v.list
	if list == listMoments {
		return func() tea.Msg { return searchDoneMsg{query: q, list: list, matches: searchMoments(r, p, q)} }
	}
	return func() tea.Msg { return searchDoneMsg{query: q, list: list, matches: searchEvents(r, p, q)} }
}

// refilterMatches keeps the matches the list's filter shows, so n and N
// never land on a hidden row.
func (v *replayView) refilterMatches() {
	if v.matchList != v.list {
		v.matches = nil
		return
	}
	l := &v.evs
	if v.list == listMoments {
		l = &v.moms
	}
	if l.vis == nil {
		v.matches = v.allMatch
		return
	}
	v.matches = nil
	for _, m := range v.allMatch {
		if l.shown(m) {
			v.matches = append(v.matches, m)
		}
	}
	v.match = -1
}

func (v *replayView) noMatchText() string {
	if len(v.allMatch) > 0 {
		return fmt.Sprintf("%s matches for %q, all hidden by the filter (esc clears it)", thousands(int64(len(v.allMatch))), v.query)
	}
	return fmt.Sprintf("no match for %q", v.query)
}

// searchEvents returns, in event order, the events whose text (player,
// kind, flag, summary) matches q and every event of a player whose name,
// character or code matches.
func searchEvents(r *model.Replay, p *prepared, q string) []int {
	texts, players := p.searchText(r)
	return searchRows(texts, players, func(i int) int { return int(r.Events[i].Player) }, q)
}

// searchMoments is searchEvents over the moments: kind, player and summary.
func searchMoments(r *model.Replay, p *prepared, q string) []int {
	labels := make([]string, len(r.Players))
	players := make([]string, len(r.Players))
	for i, pl := range r.Players {
		labels[i] = theme.Safe(pl.Label())
		players[i] = theme.Safe(pl.Label() + " " + pl.Name + " " + pl.Code)
	}
	texts := make([]string, len(p.moments))
	for i, m := range p.moments {
		s := string(m.Kind) + " " + theme.Safe(m.Summary)
		if m.By >= 0 && m.By < len(labels) {
			s = labels[m.By] + " " + s
		}
		if m.On >= 0 && m.On < len(labels) && m.On != m.By {
			s += " " + labels[m.On]
		}
		texts[i] = s
	}
	return searchRows(texts, players, func(i int) int { return momentPlayer(&p.moments[i]) }, q)
}

// searchRows matches q against the rows' texts and the players'. Letters
// of a word scattered over a long summary fuzzily match almost every row,
// so when some rows or players hold the query as typed, those are the
// answer; only when none does is every fuzzy match (sahilm/fuzzy's).
func searchRows(texts, players []string, playerOf func(int) int, q string) []int {
	lq := strings.ToLower(q)
	var rows, pls []int
	for i, s := range texts {
		if strings.Contains(strings.ToLower(s), lq) {
			rows = append(rows, i)
		}
	}
	for i, s := range players {
		if strings.Contains(strings.ToLower(s), lq) {
			pls = append(pls, i)
		}
	}
	if len(rows) == 0 && len(pls) == 0 {
		for _, m := range fuzzy.Find(q, texts) {
			rows = append(rows, m.Index)
		}
		for _, m := range fuzzy.Find(q, players) {
			pls = append(pls, m.Index)
		}
	}
	if len(pls) > 0 {
		of := make(map[int]bool, len(pls))
		for _, i := range pls {
			of[i] = true
		}
		for i := range texts {
			if of[playerOf(i)] {
				rows = append(rows, i)
			}
		}
	}
	sort.Ints(rows)
	out := rows[:0]
	for i, e := range rows {
		if i == 0 || e != rows[i-1] {
			out = append(out, e)
		}
	}
	return out
}

// nextMatch moves to the next (d=1) or previous match from the cursor.
func (v *replayView) nextMatch(d int) {
	if len(v.matches) == 0 {
		switch {
		case v.searching:
			v.status = "still searching…"
		case v.query != "":
			v.status = v.noMatchText()
		default:
			v.status = "no search: / searches"
		}
		return
	}
	cur := v.ev
	if v.matchList == listMoments {
		cur = v.mom
	}
	var i int
	if d > 0 {
		i = sort.SearchInts(v.matches, cur+1)
		if v.match < 0 {
			i = sort.SearchInts(v.matches, cur)
		}
		if i >= len(v.matches) {
			i = 0
		}
	} else {
		i = sort.SearchInts(v.matches, cur) - 1
		if i < 0 {
			i = len(v.matches) - 1
		}
	}
	v.match = i
	if v.matchList == listMoments {
		v.selectMoment(v.matches[i])
	} else {
		v.selectEvent(v.matches[i])
	}
}
