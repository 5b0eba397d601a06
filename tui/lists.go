package tui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"rewind/model"
	"rewind/theme"
)

// listMode is what the list pane shows: the moments of the game (what a
// player would call its events) or the decoder's raw record stream.
type listMode int

const (
	listEvents listMode = iota
	listMoments
)

// rowList is the events or the moments as the list pane shows them: all
// of them, or the ones the filter keeps, by position.
type rowList struct {
	n   int     // rows in all
	vis []int32 // the rows shown, ascending; nil when the filter keeps all
}

func (l *rowList) len() int {
	if l.vis == nil {
		return l.n
	}
	return len(l.vis)
}

// at is the row index at a position.
func (l *rowList) at(pos int) int {
	if l.vis == nil {
		return pos
	}
	return int(l.vis[pos])
}

// pos is the position of the first shown row at or after row i; len()
// when none is.
func (l *rowList) pos(i int) int {
	if l.vis == nil {
		return max(0, min(i, l.n))
	}
	return sort.Search(len(l.vis), func(k int) bool { return int(l.vis[k]) >= i })
}

// shown reports whether row i is in the list.
func (l *rowList) shown(i int) bool {
	if l.vis == nil {
		return i >= 0 && i < l.n
	}
	k := l.pos(i)
	return k < len(l.vis) && int(l.vis[k]) == i
}

// filter keeps rows by kind and by player. A nil set keeps everything.
type filter struct {
	kinds   map[string]bool // kinds shown
	players map[int]bool    // players shown; -1 stands for rows of no player
}

func (f filter) active() bool { return f.kinds != nil || f.players != nil }

func (f filter) keepPlayer(p int) bool {
	if f.players == nil {
		return true
	}
	if p < 0 {
		p = -1
	}
	return f.players[p]
}

// describe says what the filter keeps, for the list's title: "only
// stock" when it keeps few kinds, "without gecko,frame" when it drops few.
func (f filter) describe(r *model.Replay) string {
	var parts []string
	say := func(on, off []string) {
		if len(on) <= len(off) {
			parts = append(parts, "only "+list3(on))
		} else {
			parts = append(parts, "without "+list3(off))
		}
	}
	if f.kinds != nil {
		var on, off []string
		for k, keep := range f.kinds {
			if keep {
				on = append(on, k)
			} else {
				off = append(off, k)
			}
		}
		sort.Strings(on)
		sort.Strings(off)
		say(on, off)
	}
	if f.players != nil {
		var on, off []string
		for p := -1; p < len(r.Players); p++ {
			if f.players[p] {
				on = append(on, playerSlot(r, p))
			} else {
				off = append(off, playerSlot(r, p))
			}
		}
		say(on, off)
	}
	return strings.Join(parts, " · ")
}

// list3 joins names with commas, the fourth and later counted.
func list3(names []string) string {
	if len(names) > 3 {
		names = append(names[:3:3], fmt.Sprintf("+%d", len(names)-3))
	}
	return strings.Join(names, ",")
}

// playerSlot names a player by slot ("P1"), "no player" for -1.
func playerSlot(r *model.Replay, p int) string {
	if p < 0 || p >= len(r.Players) {
		return "no player"
	}
	if s := theme.Safe(r.Players[p].Slot); s != "" {
		return s
	}
	return fmt.Sprintf("player %d", p+1)
}

// applyEvents rebuilds the shown events: one pass over the kind ids
// prepare interned, so a filter on 200,000 events costs well under a
// millisecond.
func (v *replayView) applyEvents() {
	f := v.evFilter
	v.evs = rowList{n: len(v.r.Events)}
	if !f.active() {
		return
	}
	kindOn := make([]bool, len(v.p.kinds))
	for i, k := range v.p.kinds {
		kindOn[i] = f.kinds == nil || f.kinds[k.name]
	}
	vis := make([]int32, 0, 1024)
	for i := range v.r.Events {
		if kindOn[v.p.kindOf[v.r.Events[i].Kind]] && f.keepPlayer(int(v.r.Events[i].Player)) {
			vis = append(vis, int32(i))
		}
	}
	v.evs.vis = vis
}

// applyMoments rebuilds the shown moments.
func (v *replayView) applyMoments() {
	f := v.momFilter
	v.moms = rowList{n: len(v.p.moments)}
	if !f.active() {
		return
	}
	vis := []int32{}
	for i := range v.p.moments {
		m := &v.p.moments[i]
		if (f.kinds == nil || f.kinds[string(m.Kind)]) && (f.keepPlayer(m.By) || (m.On >= 0 && f.keepPlayer(m.On))) {
			vis = append(vis, int32(i))
		}
	}
	v.moms.vis = vis
}

// setFilter changes the filter of the list shown and puts the cursor on
// the first row the filter keeps at or after the frame.
func (v *replayView) setFilter(f filter) {
	if v.list == listMoments {
		v.momFilter = f
		v.applyMoments()
		v.syncMoment()
	} else {
		v.evFilter = f
		v.applyEvents()
		v.syncEvent()
	}
	v.refilterMatches()
	if v.rowsShown() == 0 {
		v.status = "the filter keeps nothing: f changes it, esc clears it"
	}
}

func (v *replayView) curFilter() filter {
	if v.list == listMoments {
		return v.momFilter
	}
	return v.evFilter
}

// rowsShown is how many rows the list pane has under its filter.
func (v *replayView) rowsShown() int {
	if v.list == listMoments {
		return v.moms.len()
	}
	return v.evs.len()
}

// kindCount is one kind of row and how many rows have it.
type kindCount struct {
	name string
	n    int
}

// maxKinds bounds the distinct event kinds kept apart; a file that names
// more (no decoder does) has the rest counted as one.
const maxKinds = 1024

// internKinds counts the events' kinds in order of first appearance, and
// gives each of the replay's kind ids its place among them (kinds of the
// same name share one).
func internKinds(r *model.Replay) ([]kindCount, []uint16) {
	ids := map[string]uint16{}
	var kinds []kindCount
	var of []uint16 // of[k]+1: the place of kind id k, 0 until seen
	for i := range r.Events {
		k := int(r.Events[i].Kind)
		if k >= len(of) {
			of = append(of, make([]uint16, k+1-len(of))...)
		}
		if of[k] == 0 {
			name := r.KindName(r.Events[i].Kind)
			id, ok := ids[name]
			if !ok {
				if len(kinds) >= maxKinds {
					id = maxKinds - 1
				} else {
					id = uint16(len(kinds))
					ids[name] = id
					kinds = append(kinds, kindCount{name: name})
				}
			}
			of[k] = id + 1
		}
		kinds[of[k]-1].n++
	}
	for k := range of {
		of[k]--
	}
	return kinds, of
}

// momentKinds counts the moments' kinds in order of first appearance.
func momentKinds(ms []model.Moment) []kindCount {
	at := map[model.MomentKind]int{}
	var out []kindCount
	for _, m := range ms {
		i, ok := at[m.Kind]
		if !ok {
			i = len(out)
			at[m.Kind] = i
			out = append(out, kindCount{name: string(m.Kind)})
		}
		out[i].n++
	}
	return out
}

// chooser is the `f` filter: the kinds and the players of the list shown,
// each ticked on or off.
type chooser struct {
	items    []chooseItem
	cur, top int
}

type chooseItem struct {
	player   int // the player for a player item, -1 for "no player"
	isPlayer bool
	name     string // the kind, or the player's label
	n        int    // rows of this kind or player
	on       bool
}

// openChooser starts the filter chooser on the current list's kinds and
// players, ticked as the filter stands.
func (v *replayView) openChooser() {
	kinds := v.p.kinds
	var perPlayer map[int]int
	if v.list == listMoments {
		kinds = momentKinds(v.p.moments)
		perPlayer = map[int]int{}
		for _, m := range v.p.moments {
			perPlayer[max(momentPlayer(&m), -1)]++
		}
	} else {
		perPlayer = v.p.evPlayers
	}
	f := v.curFilter()
	c := &chooser{}
	for _, k := range kinds {
		c.items = append(c.items, chooseItem{name: k.name, n: k.n, on: f.kinds == nil || f.kinds[k.name]})
	}
	for p := 0; p < len(v.r.Players); p++ {
		if perPlayer[p] > 0 {
			c.items = append(c.items, chooseItem{isPlayer: true, player: p, name: theme.Safe(v.r.Players[p].Label()), n: perPlayer[p], on: f.keepPlayer(p)})
		}
	}
	if perPlayer[-1] > 0 {
		c.items = append(c.items, chooseItem{isPlayer: true, player: -1, name: "no player", n: perPlayer[-1], on: f.keepPlayer(-1)})
	}
	v.chooser = c
}

// chooserKey handles a key while the chooser is open.
func (v *replayView) chooserKey(k string) {
	c := v.chooser
	n := len(c.items)
	switch k {
	case "up", "k":
		c.cur = max(c.cur-1, 0)
	case "down", "j":
		c.cur = min(c.cur+1, n-1)
	case "home":
		c.cur = 0
	case "end":
		c.cur = n - 1
	case " ", "x":
		if n > 0 {
			c.items[c.cur].on = !c.items[c.cur].on
		}
	case "a":
		// all of this section on, or all off when all are on
		sect := n > 0 && c.items[c.cur].isPlayer
		all := true
		for _, it := range c.items {
			if it.isPlayer == sect && !it.on {
				all = false
			}
		}
		for i := range c.items {
			if c.items[i].isPlayer == sect {
				c.items[i].on = !all
			}
		}
	case "o":
		// only this one of its section
		if n > 0 {
			sect := c.items[c.cur].isPlayer
			for i := range c.items {
				if c.items[i].isPlayer == sect {
					c.items[i].on = i == c.cur
				}
			}
		}
	case "enter":
		v.chooser = nil
		v.setFilter(c.filter())
	case "esc", "f", "q":
		v.chooser = nil
	default:
		v.status = "filter: space ticks · a all · o only this · enter applies · esc cancels"
	}
}

// filter is the chooser's ticks as a filter: a section with every box
// ticked filters nothing.
func (c *chooser) filter() filter {
	var f filter
	kinds, players := map[string]bool{}, map[int]bool{}
	allK, allP := true, true
	for _, it := range c.items {
		switch {
		case it.isPlayer:
			players[it.player] = it.on
			allP = allP && it.on
		default:
			kinds[it.name] = it.on
			allK = allK && it.on
		}
	}
	if !allK {
		f.kinds = kinds
	}
	if !allP {
		f.players = players
	}
	return f
}

// parseTerms takes `kind:` and `player:` terms out of a `/` query: the
// text left is the search. "kind:stock,kill player:P1 -kind:gecko".
// Kinds are matched against the list's kinds, players by slot, number,
// character, name or code; a term that matches nothing is an error
// sentence for the status line.
func (v *replayView) parseTerms(q string) (text string, f filter, terms bool, errText string) {
	var rest []string
	var kinds []kindCount
	if v.list == listMoments {
		kinds = momentKinds(v.p.moments)
	} else {
		kinds = v.p.kinds
	}
	for _, w := range strings.Fields(q) {
		neg := strings.HasPrefix(w, "-")
		key, val, ok := strings.Cut(strings.TrimPrefix(w, "-"), ":")
		key = strings.ToLower(key)
		if !ok || val == "" || (key != "kind" && key != "k" && key != "player" && key != "p") {
			rest = append(rest, w)
			continue
		}
		terms = true
		for _, one := range strings.Split(val, ",") {
			if one == "" {
				continue
			}
			if key == "kind" || key == "k" {
				found := false
				for _, k := range kinds {
					if strings.EqualFold(k.name, one) {
						found = true
						if f.kinds == nil {
							f.kinds = map[string]bool{}
							for _, k2 := range kinds {
								f.kinds[k2.name] = neg
							}
						}
						f.kinds[k.name] = !neg
					}
				}
				if !found {
					var names []string
					for _, k := range kinds {
						names = append(names, k.name)
					}
					return "", filter{}, true, fmt.Sprintf("no kind %q here; kinds: %s", one, strings.Join(names, ", "))
				}
				continue
			}
			ps := v.matchPlayers(one)
			if len(ps) == 0 {
				return "", filter{}, true, fmt.Sprintf("no player %q", one)
			}
			if f.players == nil {
				f.players = map[int]bool{}
				for p := -1; p < len(v.r.Players); p++ {
					f.players[p] = neg
				}
			}
			for _, p := range ps {
				f.players[p] = !neg
			}
		}
	}
	return strings.Join(rest, " "), f, terms, ""
}

// matchPlayers finds players by slot ("P2", "p2"), number ("2"), "none",
// or a character, name or code containing the text.
func (v *replayView) matchPlayers(s string) []int {
	r := v.r
	ls := strings.ToLower(s)
	if ls == "none" || ls == "-" {
		return []int{-1}
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(r.Players) {
		return []int{n - 1}
	}
	for i, p := range r.Players {
		if strings.EqualFold(strings.TrimSpace(p.Slot), s) {
			return []int{i}
		}
	}
	var out []int
	for i, p := range r.Players {
		for _, t := range []string{p.Character, p.Name, p.Code, p.Slot} {
			if t != "" && strings.Contains(strings.ToLower(t), ls) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}
