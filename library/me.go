package library

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"rewind/model"
)

// The first person in the query language: @me is any of the player's own
// identities (the config's me: connect codes, toon handles, ids or names,
// of any format), winner:X and loser:X ask who won by the game's own
// result, and is:win / is:loss are winner:@me / loser:@me.

// identities are the player's own, as SetIdentities set them.
var identities struct {
	sync.RWMutex
	tight []string // each identity as terms compare it (tight)
	unset string   // what to say when a query says @me and there are none
}

// SetIdentities sets who @me is: ids are the config's me, in any format.
// unset is the sentence a query that says @me gets while there are none,
// saying how to set them. It is set once, as rewind starts; a query parsed
// afterwards keeps the identities it was parsed with.
func SetIdentities(ids []string, unset string) {
	identities.Lock()
	defer identities.Unlock()
	identities.tight = identities.tight[:0]
	for _, id := range ids {
		if t := tight(id); t != "" && !slices.Contains(identities.tight, t) {
			identities.tight = append(identities.tight, t)
		}
	}
	identities.unset = unset
}

// Identities reports the identities @me stands for, as terms compare them.
func Identities() []string {
	identities.RLock()
	defer identities.RUnlock()
	return slices.Clone(identities.tight)
}

// meNotSet is the sentence for @me without identities.
func meNotSet() string {
	identities.RLock()
	defer identities.RUnlock()
	if identities.unset != "" {
		return identities.unset
	}
	return `@me is who you are, and nobody is set: put me = ["YOUR#CODE"] in rewind's config file (rewind config path names it)`
}

// meTerm gives t the identities, or the error to report.
func (t *term) setMe(col int) error {
	t.me = Identities()
	if len(t.me) == 0 {
		return &QueryError{Col: col, Msg: meNotSet()}
	}
	return nil
}

// isMe reports whether a text of a player (a name or a code, tight) is one
// of the identities: the whole text, not a part, so @me is not everyone
// whose name holds yours.
func isMe(me []string, tightText string) bool {
	return tightText != "" && slices.Contains(me, tightText)
}

// outcomeTerm parses winner:X, loser:X and is:win / is:loss.
func (t *term) outcomeValue(key, v string, col int) error {
	if t.kind == tIs {
		switch strings.ToLower(v) {
		case "win", "won", "winner":
			t.kind = tWinner
		case "loss", "lost", "loser":
			t.kind = tLoser
		default:
			return &QueryError{Col: col, Msg: fmt.Sprintf("is: is win or loss (is:win, is:loss), not %q", v)}
		}
		return t.setMe(col)
	}
	if strings.EqualFold(v, "@me") {
		return t.setMe(col)
	}
	t.val = tight(v)
	if t.val == "" {
		return &QueryError{Col: col, Msg: fmt.Sprintf("%s: %q has no letters or digits to look for", key, v)}
	}
	return nil
}

// wants reports whether an outcome is what the term asks of a player:
// winner: a win; loser: a loss, or leaving a game the others went on to
// decide (Slippi's LRAS, an SC2 player who left or dropped), as slippi-js's
// getWinners gives the game to the one who did not quit.
func (t *term) wants(o model.Outcome) bool {
	if t.kind == tLoser {
		return o == model.OutcomeLoss || o == model.OutcomeQuit || o == model.OutcomeDisconnect
	}
	return o == model.OutcomeWin
}

// outcomeNibbles packs the declared outcomes (DeclaredOf) of a summary's
// first eight players into four bits each, for a store row: the outcome's place in
// model.Outcomes plus one, 0 for none (unknown, or no summary).
func outcomeNibbles(s *Summary) uint32 {
	var outs uint32
	if !s.Usable() {
		return 0
	}
	for i := range s.Players[:min(len(s.Players), 8)] {
		if o := s.DeclaredOf(i); o != model.OutcomeUnknown {
			outs |= uint32(outcomeIndex(o)+1) << (4 * i)
		}
	}
	return outs
}

// outcomeIndex numbers the outcomes for the matcher's caches.
func outcomeIndex(o model.Outcome) int { return slices.Index(model.Outcomes, o) }

// playerOutcome is player i's outcome as the game's own result gives it
// (declaredOutcome): the summary's when there is one (a header's, or the
// outcomes a store row keeps of it), else what the result words say.
func (v *view) playerOutcome(c *matchCache, ti, i int) model.Outcome {
	if v.pl == nil {
		return v.players[i].outcome
	}
	if i < 8 {
		if k := v.outs >> (4 * i) & 0xf; k != 0 && int(k) <= len(model.Outcomes) {
			return model.Outcomes[k-1]
		}
	}
	p := v.player(i)
	k := c.cached(ti, roleResult, p.res, func(p *prep) int { return outcomeIndex(outcomeOf(p.fold)) })
	if k < 0 {
		return model.OutcomeUnknown
	}
	return model.Outcomes[k]
}

// matchMe reports whether player i is one of the identities.
func (t *term) matchMe(v *view, c *matchCache, ti, i int) bool {
	p := v.player(i)
	return c.boolCached(ti, roleCode, p.code, func(p *prep) bool { return isMe(t.me, p.tight) }) ||
		c.boolCached(ti, roleName, p.name, func(p *prep) bool { return isMe(t.me, p.tight) })
}

// matchWho reports whether player i is who an outcome term names: one of
// the identities for @me, else a character that starts with the value or
// a name or code that holds it (as by: reads a player).
func (t *term) matchWho(v *view, c *matchCache, ti, i int) bool {
	if t.me != nil {
		return t.matchMe(v, c, ti, i)
	}
	p := v.player(i)
	return c.boolCached(ti, roleChar, p.char, func(p *prep) bool { return charIs(p, t.val) }) ||
		c.boolCached(ti, roleName, p.name, func(p *prep) bool { return strings.Contains(p.tight, t.val) }) ||
		c.boolCached(ti, roleCode, p.code, func(p *prep) bool { return strings.Contains(p.tight, t.val) })
}

// matchOutcome: some player named by the term has the outcome it asks for.
// A team's players share their team's outcome, as each format's result
// gives it, so winner:X holds for every member of the winning team.
func (t *term) matchOutcome(v *view, c *matchCache, ti int) bool {
	for i := range v.nPlayers() {
		if t.matchWho(v, c, ti, i) && t.wants(v.playerOutcome(c, ti, i)) {
			return true
		}
	}
	return false
}

// anyMe: one of the players is one of the identities.
func (t *term) anyMe(v *view, c *matchCache, ti int) bool {
	for i := range v.nPlayers() {
		if t.matchMe(v, c, ti, i) {
			return true
		}
	}
	return false
}

// HasOutcomeTerms reports whether the query asks who won, whose answer is
// best from a full decode (the summary's outcomes) where the header's
// result words leave it open.
func (q *Query) HasOutcomeTerms() bool {
	if q == nil {
		return false
	}
	for _, t := range q.terms {
		if t.kind == tWinner || t.kind == tLoser {
			return true
		}
	}
	return false
}

// PlayerIsMe reports whether p is one of the identities (stats --player
// @me, the sets of @me).
func PlayerIsMe(p Player) bool {
	me := Identities()
	return isMe(me, tight(p.Code)) || isMe(me, tight(p.Name))
}
