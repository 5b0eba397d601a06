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
// players satisfies every moment term.
func (q *Query) MatchMoment(m *model.MomentRecord, players []Player) bool {
	if q == nil {
		return true
	}
	for i := range q.moments {
		t := &q.moments[i]
		if t.matchMoment(m, players) == t.neg {
			return false
		}
	}
	return true
}

func (t *term) matchMoment(m *model.MomentRecord, players []Player) bool {
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
		return strings.Contains(tight(m.Facts.Move), t.val)
	case tBy:
		return playerIs(players, m.By, t.val)
	case tOn:
		return playerIs(players, m.On, t.val)
	}
	return false
}

// playerIs reports whether player i is called v: a character that starts
// with it, or a name or code that holds it.
func playerIs(players []Player, i int, v string) bool {
	if i < 0 || i >= len(players) {
		return false
	}
	p := players[i]
	return strings.HasPrefix(tight(p.Character), v) || strings.Contains(tight(p.Name), v) ||
		strings.Contains(tight(p.Code), v) || strings.EqualFold(p.Slot, v)
}
