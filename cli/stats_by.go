package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"rewind/library"
	"rewind/library/aggregate"
	"rewind/model"
	"rewind/theme"
)

// stats --by: the archive's answer, from the summaries in the index. A
// replay without one is decoded in full once (and the summary kept), so a
// second run reads no replay.

const statsByAbout = `
With --by KEY[,KEY...] stats adds up every replay under the paths instead:
the player-games of the replays that match --where QUERY (the browser's query
language), grouped by the keys:

  player     connect code, toon handle or platform id, else the name
  character  Melee character, SC2 race, F-Zero GX machine (formats without
             one are left out of this key)
  opponent   the players on the other side; vs their characters
  matchup    both sides' characters, unordered: Fox-Marth, PvZ
  stage      stage, map, song or course
  month, week, day, session (games less than 15 minutes apart), format

Without --player every player of every game counts once (a Fox ditto adds two
player-games to Fox); with --player WHO (a code or a name, repeatable for a
person with several) only that player's side counts, and opponent and vs
describe the others: --player ME --by opponent is the head-to-head table.

Each group has its player-games, wins, losses, the other outcomes by name
(no-contest, quit for Slippi's LRAS, draw, disconnect; --lras-loss counts a
quit as a loss), the win rate (wins over wins and losses), first and last
date, time played, and the format's stats: totals and means per game, bests
(a best time or score), ratios made from the sums (openings per kill is
conversions over kills, not a mean of ratios) and tallies (the most frequent
kill moves). With --json one object per group (NDJSON):

  {"group": {"character": "Fox"}, "games": 12, "wins": 7, "losses": 5,
   "winRate": 0.583, "outcomes": {"win": 7, "loss": 5}, "first": "...",
   "last": "...", "timePlayedSeconds": 2871.4, "formats": {"slippi": 12},
   "totals": {"killCount": 40, ...}, "means": {"killCount": 3.33, ...},
   "best": {...}, "ratios": {"openingsPerKill": 4.1, ...},
   "tallies": {"killMoves": {"up smash": 9, ...}}}

and a last object {"skipped": [{"path", "reason"}], "games": N}: replays that
could not be read or stopped early are counted there, never averaged in. A
player without a code is grouped by name and marked "byName": true. A player
or opponent key that is a code has the name it played under most beside it:
"names": {"player": "ShadesofGray"}; in the table 1-S2-1-2358439
"ShadesofGray".
`

// runBy is stats --by.
func (o *statsOptions) runBy(c *call, paths []string) int {
	players, code := c.expandMe(o.players)
	if players == nil && len(o.players) > 0 {
		return code
	}
	if ks := strings.Split(o.by, ","); slices.Contains(ks, "set") {
		if len(ks) > 1 {
			return c.errorf("--by set lists sets, and takes no other key (%s)", o.by)
		}
		return o.runSets(c, paths, players)
	}
	keys, err := aggregate.ParseKeys(o.by)
	if err != nil {
		return c.errorf("%v", err)
	}
	q, code := parseWhere(c, o.where)
	if q == nil {
		return code
	}
	// games are counted as they come, not kept: a million replays'
	// summaries would be gigabytes, their groups are not
	opt := aggregate.Options{By: keys, Players: players, LRASLoss: o.lrasLoss}
	if aggregate.NeedsSessions(keys) {
		// a session is named by its first game: a first pass reads the
		// games' times (the second comes from the index the first filled)
		opt.Sessions = aggregate.NewSessions()
		eachList(c, paths, q, o.noCache, true, func(l *aggregate.List, _ []aggregate.ListSkip) {
			for g := range l.All() {
				opt.Sessions.Note(g)
			}
		})
	}
	agg := aggregate.NewAggregator(opt)
	unreadable := eachList(c, paths, q, o.noCache, opt.Sessions == nil, agg.AddList)
	res := agg.Result()
	out := c.output()
	defer out.Flush()
	if o.json {
		for _, g := range res.Groups {
			line, err := res.GroupJSON(g)
			if err != nil {
				return c.errorf("%v", err)
			}
			out.Write(append(theme.EscapeJSON(line), '\n'))
		}
		line, err := res.SkippedJSON()
		if err != nil {
			return c.errorf("%v", err)
		}
		out.Write(append(theme.EscapeJSON(line), '\n'))
	} else {
		writeGroups(out, res)
	}
	out.Flush()
	if n := len(res.Skipped); n > 0 && !o.json {
		c.notef("%s replay%s skipped, not counted: %s", model.FormatCount(int64(n)), plural(n), skipSummary(res.Skipped))
	}
	switch {
	case unreadable:
		return 2
	case len(res.Groups) == 0 && res.Games == 0:
		who := ""
		if len(o.players) > 0 {
			who = " played by " + strings.Join(o.players, " or ")
		}
		_, from := c.walkFrom(paths)
		return c.errorf("no replay%s to count%s", who, under(paths, from))
	}
	return 0
}

// expandMe replaces @me among --player's values with the config's
// identities; nil and the exit status when @me is asked for and nobody is
// configured.
func (c *call) expandMe(players []string) ([]string, int) {
	var out []string
	for _, p := range players {
		if !strings.EqualFold(strings.TrimSpace(p), "@me") {
			out = append(out, p)
			continue
		}
		me := c.settings().Me
		if len(me) == 0 {
			return nil, c.errorf("--player %s", meUnset(c.settings().File))
		}
		out = append(out, me...)
	}
	return out, 0
}

// parseWhere parses --where; nil and the exit status on a mistake.
func parseWhere(c *call, text string) (*library.Query, int) {
	c.settings() // who @me is
	q, err := library.ParseQuery(text)
	if err != nil {
		var qe *library.QueryError
		if errors.As(err, &qe) {
			return nil, c.errorf("%s\n  %s\n  %s^", qe.Msg, text, strings.Repeat(" ", max(qe.Col-1, 0)))
		}
		return nil, c.errorf("%v", err)
	}
	return q, 0
}

// eachGame reads the headers and summaries of the replays under paths that
// match q's replay terms, on all cores through the index, and hands each
// game to fn as it comes, in walk order (fn keeps what it needs: a million
// games do not fit in memory). Moments are read only when asked (an
// aggregation does not need them), and then only those q's moment terms
// match are kept, chosen on the scan's workers. A path that cannot be read
// is named on stderr when tell is set (a second pass over the same paths
// does not name them again); unreadable says there was one.
func eachGame(c *call, paths []string, q *library.Query, noCache, moments, tell bool, fn func(*aggregate.Game)) (unreadable bool) {
	var idx *library.Index
	if !noCache {
		var done func()
		idx, done = c.openIndex()
		defer done()
	}
	return eachGameIn(context.Background(), c, paths, q, idx, moments, tell, fn)
}

// eachGameIn is eachGame through idx (nil: none), which the caller opened
// and closes (moments reads it again after the scan), until ctx ends.
func eachGameIn(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index, moments, tell bool, fn func(*aggregate.Game)) (unreadable bool) {
	opt := library.ScanOptions{Index: idx, Ordered: true, Summaries: true, NoMoments: !moments, Check: q.NeedsCheck()}
	if moments && q.HasMomentTerms() {
		opt.MomentTerms = q // without moment terms every moment is wanted
	}
	prog := newProgress(c.stderr)
	n := 0
	library.Scan(ctx, c.walk(paths), opt, func(h library.Header) bool {
		n++
		prog.found(n)
		switch {
		case h.Kind == library.Skipped:
			return true
		case h.Kind == library.Unreadable:
			unreadable = true
			if tell {
				prog.print(func() { c.notef("%s: %s", c.epath(h.Path), reason(h.Path, errors.New(h.Err))) })
			}
			return true
		case h.NotReplay:
			return true // a stray file in a folder
		case !q.Empty() && !q.Match(library.NewDoc(&h)): // a document folds every name: only for terms
			return true
		}
		g := aggregate.FromHeader(&h)
		fn(&g)
		return true
	})
	prog.finish()
	return unreadable
}

// gameBatch is the games a scan worker read of a batch of paths
// (eachList).
type gameBatch struct {
	games      *aggregate.List
	skips      []aggregate.ListSkip
	unreadable []library.Header // paths and why, in walk order
	found      int              // the paths the batch had
}

// eachList is eachGame for an aggregation: the games that match q go, a
// batch at a time in walk order, to fn as a List (and the games they
// skip, where they came), made on the scan's workers from each summary's
// outcomes and stats alone, without a Game or a Summary made for each
// (a million of each were most of the time of a warm stats --by).
func eachList(c *call, paths []string, q *library.Query, noCache, tell bool, fn func(*aggregate.List, []aggregate.ListSkip)) (unreadable bool) {
	opt := library.ScanOptions{Ordered: true, Summaries: true, NoMoments: true, Check: q.NeedsCheck()}
	if !noCache {
		idx, done := c.openIndex()
		defer done()
		opt.Index = idx
	}
	prog := newProgress(c.stderr)
	n := 0
	newBatch := func() *gameBatch { return &gameBatch{games: aggregate.NewBatch()} }
	add := func(b *gameBatch, h *library.Header) {
		b.found++
		switch {
		case h.Kind == library.Skipped:
		case h.Kind == library.Unreadable:
			// a path shares its memory with its folder's other paths (the
			// walk's): a copy lets the folder's go
			b.unreadable = append(b.unreadable, library.Header{Path: strings.Clone(h.Path), Err: h.Err})
		case h.NotReplay: // a stray file in a folder
		case !q.Empty() && !q.Match(library.NewDoc(h)): // a document folds every name: only for terms
		default:
			if why := b.games.AddHeader(h); why != "" {
				b.skips = append(b.skips, aggregate.ListSkip{Skip: aggregate.Skip{Path: strings.Clone(h.Path), Reason: why}, At: b.games.Len()})
			}
		}
	}
	library.ScanInto(context.Background(), c.walk(paths), opt, newBatch, add, func(b *gameBatch) bool {
		n += b.found
		prog.found(n)
		for _, h := range b.unreadable {
			unreadable = true
			if tell {
				prog.print(func() { c.notef("%s: %s", c.epath(h.Path), reason(h.Path, errors.New(h.Err))) })
			}
		}
		fn(b.games, b.skips)
		b.games.Reset()
		b.skips, b.unreadable, b.found = b.skips[:0], b.unreadable[:0], 0
		return true
	})
	prog.finish()
	return unreadable
}

// writeGroups prints the groups as a table that fits statsWidth columns.
func writeGroups(w *output, res *aggregate.Result) {
	cols := res.Columns(12)
	widths := make([]int, len(cols))
	for i, col := range cols {
		widths[i] = ansi.StringWidth(col.Title)
		for _, g := range res.Groups {
			widths[i] = max(widths[i], ansi.StringWidth(col.Cell(g)))
		}
		if i < len(res.By) {
			widths[i] = min(widths[i], 40) // a code and its name: 1-S2-1-2358439 "ShadesofGray"
		}
	}
	// stats columns that do not fit are left out, right to left
	used := 0
	keep := len(cols)
	for i := range cols {
		if used+widths[i]+2 > statsWidth && i >= len(res.By)+4 {
			keep = i
			break
		}
		used += widths[i] + 2
	}
	cols, widths = cols[:keep], widths[:keep]
	line := func(cell func(i int, col aggregate.Column) string) {
		var b strings.Builder
		for i, col := range cols {
			if i > 0 {
				b.WriteString("  ")
			}
			s := cell(i, col)
			if ansi.StringWidth(s) > widths[i] {
				s = ansi.Truncate(s, widths[i]-1, "") + "…"
			}
			gap := strings.Repeat(" ", widths[i]-ansi.StringWidth(s))
			if col.Right {
				b.WriteString(gap + s)
			} else if i < len(cols)-1 {
				b.WriteString(s + gap)
			} else {
				b.WriteString(s)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(func(_ int, col aggregate.Column) string { return col.Title })
	for _, g := range res.Groups {
		line(func(_ int, col aggregate.Column) string { return theme.Safe(col.Cell(g)) })
	}
}

// skipSummary counts the skipped replays by reason.
func skipSummary(skips []aggregate.Skip) string {
	count := map[string]int{}
	for _, s := range skips {
		count[s.Reason]++
	}
	reasons := make([]string, 0, len(count))
	for r := range count {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if count[reasons[i]] != count[reasons[j]] {
			return count[reasons[i]] > count[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	var parts []string
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", count[r], theme.Safe(r)))
	}
	return strings.Join(parts, "; ")
}
