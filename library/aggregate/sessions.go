package aggregate

import (
	"iter"
	"slices"
	"sort"
	"sync"
	"time"
)

// Sessions are the players' sessions: a player's games, in time order,
// belong to one session while each starts less than SessionGap after the
// previous one ended. A session key needs every game of a player before
// the first can be named, so the games are seen twice: once to find the
// sessions (Note each, then Options.Sessions), once to group them. Between
// the passes only each player's game times are held, not the games: a
// million replays' summaries are gigabytes, their times a few tens of MB.
//
// A session is a function of the player and the game's start (the latest
// session start not after it), so the second pass may meet the games in
// any order, and a game the first pass did not see (a file added between
// the passes) gets the session its start falls into, or one of its own.
type Sessions struct {
	plays map[string][]play // per player key, the games' times, until done
	spans map[string][]span // per player key, its sessions, in order
	once  sync.Once         // makes spans once, whichever aggregation comes first
}

// span is a session: its first game's start and its last game's end, and
// its name.
type span struct {
	first, end time.Time
	name       string
}

// play is one player-game's time.
type play struct {
	start time.Time
	took  time.Duration
}

// NeedsSessions reports whether grouping by keys needs a first pass over
// the games (Sessions).
func NeedsSessions(keys []Key) bool { return needs(keys, KeySession) }

// NewSessions starts a first pass.
func NewSessions() *Sessions { return &Sessions{plays: map[string][]play{}} }

// Sessions is the first pass over the list's games.
func (l *List) Sessions() *Sessions { return sessionsOf(l.All()) }

func sessionsOf(games iter.Seq[*Game]) *Sessions {
	ss := NewSessions()
	for g := range games {
		ss.Note(g)
	}
	return ss
}

// Note adds a game's player-games to the first pass, as the grouping will
// count them: a game it skips (SkipReason) or without a start has no
// session.
func (ss *Sessions) Note(g *Game) {
	if ss.spans != nil {
		return // an aggregation has begun: the first pass is over
	}
	if g.SkipReason() != "" || g.Start.IsZero() {
		return
	}
	for _, p := range g.Players {
		key, _ := playerKey(p)
		ss.plays[key] = append(ss.plays[key], play{g.Start, g.Duration})
	}
}

// done turns each player's game times into their sessions; after it the
// Sessions are only read, by any number of aggregations at once.
func (ss *Sessions) done() { ss.once.Do(ss.find) }

// find turns each player's game times into their sessions.
func (ss *Sessions) find() {
	ss.spans = make(map[string][]span, len(ss.plays))
	for key, list := range ss.plays {
		slices.SortStableFunc(list, func(a, b play) int { return a.start.Compare(b.start) })
		var spans []span
		for i, p := range list {
			if i == 0 || p.start.Sub(spans[len(spans)-1].end) >= SessionGap {
				spans = append(spans, span{first: p.start, end: p.start, name: sessionName(p.start)})
			}
			last := &spans[len(spans)-1]
			if e := p.start.Add(p.took); e.After(last.end) {
				last.end = e
			}
		}
		ss.spans[key] = slices.Clip(spans)
		delete(ss.plays, key) // let each list go as soon as it is read
	}
	ss.plays = nil
}

// session names the session a player's game that started at start belongs
// to: the first game's start, to the minute. A game the first pass did
// not see that falls in no session (before the player's first, or
// SessionGap or more after the end of the one before it) starts one of
// its own.
func (ss *Sessions) session(key string, start time.Time) string {
	if start.IsZero() {
		return ""
	}
	spans := ss.spans[key]
	// the last session that starts at or before start
	if i := sort.Search(len(spans), func(i int) bool { return spans[i].first.After(start) }); i > 0 && start.Sub(spans[i-1].end) < SessionGap {
		return spans[i-1].name
	}
	return sessionName(start)
}

// sessionName names a session by its first game's start, to the minute.
func sessionName(first time.Time) string { return first.Format("2006-01-02 15:04") }
