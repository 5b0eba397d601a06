package library

import (
	"fmt"
	"strconv"
	"strings"

	"rewind/model"
)

// The query language's moment terms: kind:combo damage:>=40 hits:>=5 kill
// by:fox on:marth move:upsmash start:>90. They are parsed with the replay
// terms (one language, one parser) but kept apart, because they choose the
// moments of a replay rather than the replay.

// momentValue parses a moment term's value; the sentence says what is
// wrong, empty when nothing is.
func (t *term) momentValue(v string) string {
	switch t.kind {
	case tKind:
		t.kinds = map[model.MomentKind]bool{}
		for _, k := range strings.Split(strings.ToLower(v), ",") {
			kind, ok := model.MomentKindNamed(k)
			if !ok {
				return fmt.Sprintf("%q is no kind of moment; kinds are %s", k, model.MomentKindNames())
			}
			t.kinds[kind] = true
		}
	case tBy, tOn, tMove:
		t.val = tight(v)
		if t.val == "" {
			return fmt.Sprintf("%q has no letters or digits to look for", v)
		}
	case tDamage, tHits, tStart:
		lo, hi, msg := numberBounds(v)
		if msg != "" {
			return msg
		}
		t.flo, t.fhi = lo, hi
	}
	return ""
}

// numberBounds turns >=40, <10, =5, 40 or 30..60 into [lo, hi): a number
// compares as itself (40 is 40 to just under 41, as len:5m is a minute).
func numberBounds(v string) (lo, hi float64, msg string) {
	const inf = 1e300
	num := func(s string) (float64, string) {
		f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || f != f {
			return 0, fmt.Sprintf("%q is not a number", s)
		}
		return f, ""
	}
	if a, b, ok := strings.Cut(v, ".."); ok {
		lo, hi = -inf, inf
		if a != "" {
			if lo, msg = num(a); msg != "" {
				return
			}
		}
		if b != "" {
			if hi, msg = num(b); msg != "" {
				return
			}
			hi++
		}
		if a == "" && b == "" {
			return 0, 0, "a range needs at least one end: 30..60"
		}
		return lo, hi, ""
	}
	for _, op := range []string{">=", "<=", ">", "<", "="} {
		if !strings.HasPrefix(v, op) {
			continue
		}
		x, msg := num(v[len(op):])
		if msg != "" {
			return 0, 0, msg
		}
		switch op {
		case ">=":
			return x, inf, ""
		case ">":
			return x + 1e-9, inf, ""
		case "<=":
			return -inf, x + 1e-9, ""
		case "<":
			return -inf, x, ""
		}
		return x, x + 1, ""
	}
	x, msg := num(v)
	return x, x + 1, msg
}

// HasMomentTerms reports whether the query chooses moments.
func (q *Query) HasMomentTerms() bool { return q != nil && len(q.moments) > 0 }

// MatchMoment reports whether a moment of a replay whose players are
// players satisfies every moment term. A caller with many moments uses a
// MomentMatcher.
func (q *Query) MatchMoment(m *model.MomentRecord, players []Player) bool {
	mm := MomentMatcher{q: q, players: players}
	return mm.Match(m)
}

// A MomentMatcher matches the moments of one replay after another against
// a query's moment terms, folding a name or a move once (not once a
// moment: an archive has hundreds of millions of moments, and the same
// few thousand names and moves).
type MomentMatcher struct {
	q       *Query
	players []Player
	folded  []foldedPlayer    // the players' names folded, made when a by: or on: term first asks
	tight   map[string]string // names and moves folded
}

// foldedPlayer is a player's names as terms compare them (tight).
type foldedPlayer struct{ char, name, code string }

// maxFolded bounds the folded names and moves a MomentMatcher keeps.
const maxFolded = 1 << 12

// MomentMatcher starts matching moments; SetPlayers names the replay's
// players before its moments are matched.
func (q *Query) MomentMatcher() *MomentMatcher { return &MomentMatcher{q: q} }

// SetPlayers starts on the moments of a replay whose players are players.
func (mm *MomentMatcher) SetPlayers(players []Player) {
	mm.players, mm.folded = players, mm.folded[:0]
}

// Match reports whether a moment of the replay satisfies every moment term.
func (mm *MomentMatcher) Match(m *model.MomentRecord) bool {
	if mm.q == nil {
		return true
	}
	for i := range mm.q.moments {
		t := &mm.q.moments[i]
		if mm.term(t, m) == t.neg {
			return false
		}
	}
	return true
}

func (mm *MomentMatcher) term(t *term, m *model.MomentRecord) bool {
	in := func(x float64) bool { return x >= t.flo && x < t.fhi }
	switch t.kind {
	case tKind:
		return t.kinds[m.Kind]
	case tDamage:
		return in(m.Facts.Damage)
	case tHits:
		return in(float64(m.Facts.Hits))
	case tStart:
		return in(m.Facts.StartPercent)
	case tKill:
		return m.Facts.Kill
	case tMove:
		return strings.Contains(mm.fold(m.Facts.Move), t.val)
	case tBy:
		return mm.playerIs(m.By, t)
	case tOn:
		return mm.playerIs(m.On, t)
	}
	return false
}

// playerIs reports whether player i is who t names: one of the
// identities for @me, else a character that starts with its value, or a
// name or code that holds it.
func (mm *MomentMatcher) playerIs(i int, t *term) bool {
	if i < 0 || i >= len(mm.players) {
		return false
	}
	if len(mm.folded) == 0 {
		for _, p := range mm.players {
			mm.folded = append(mm.folded, foldedPlayer{mm.fold(p.Character), mm.fold(p.Name), mm.fold(p.Code)})
		}
	}
	f := &mm.folded[i]
	if t.me != nil {
		return isMe(t.me, f.code) || isMe(t.me, f.name)
	}
	v := t.val
	return strings.HasPrefix(f.char, v) || strings.Contains(f.name, v) ||
		strings.Contains(f.code, v) || strings.EqualFold(mm.players[i].Slot, v)
}

// fold is tight(s), kept for the next time.
func (mm *MomentMatcher) fold(s string) string {
	if f, ok := mm.tight[s]; ok {
		return f
	}
	f := tight(s)
	if mm.tight == nil {
		mm.tight = map[string]string{}
	}
	if len(mm.tight) < maxFolded {
		mm.tight[s] = f
	}
	return f
}
