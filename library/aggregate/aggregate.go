// Package aggregate answers questions about an archive: how a player does
// against a character, on a stage, month by month. It groups the
// player-games of many replays by keys (`rewind stats --by`) and adds up
// what each replay's summary (model.Summary, kept in the index) says:
// outcomes, time played and the format's stats, combined the way the
// format's StatDefs say (sums and means, bests, tallies, ratios of sums).
//
// It reads headers and summaries only, never a replay, and never names a
// format: the words it needs (what a format's characters are, how its
// stats combine) come from the registry.
package aggregate

import (
	"encoding/binary"
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"
	"time"

	"rewind/decoders"
	"rewind/model"
)

// Key is what player-games are grouped by.
type Key string

const (
	KeyPlayer    Key = "player"    // the player: connect code, toon handle or platform id, else the name
	KeyCharacter Key = "character" // the player's character, race or machine
	KeyOpponent  Key = "opponent"  // the players on the other side
	KeyVs        Key = "vs"        // the other side's characters
	KeyMatchup   Key = "matchup"   // both sides' characters, unordered: Fox-Marth
	KeyStage     Key = "stage"     // the stage, map, song or course
	KeyMonth     Key = "month"     // 2024-03, in the zone the file gives
	KeyWeek      Key = "week"      // 2024-W11 (ISO weeks)
	KeyDay       Key = "day"       // 2024-03-15
	KeySession   Key = "session"   // games less than SessionGap apart, named by the first one's start
	KeyFormat    Key = "format"    // slippi, sc2, ...
)

// Keys lists every key in the order help shows them.
var Keys = []Key{KeyPlayer, KeyCharacter, KeyOpponent, KeyVs, KeyMatchup, KeyStage, KeyMonth, KeyWeek, KeyDay, KeySession, KeyFormat}

// SessionGap is the most time between one game's end and the next game's
// start that keeps them in one session.
const SessionGap = 15 * time.Minute

// ParseKeys reads a --by list: "character,stage".
func ParseKeys(s string) ([]Key, error) {
	var out []Key
	for _, part := range strings.Split(s, ",") {
		part = strings.ToLower(strings.TrimSpace(part))
		if part == "" {
			continue
		}
		k, ok := keyNamed(part)
		if !ok {
			names := make([]string, len(Keys))
			for i, k := range Keys {
				names[i] = string(k)
			}
			return nil, fmt.Errorf("no key %q to group by; the keys are %s", part, strings.Join(names, ", "))
		}
		out = append(out, k)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--by needs a key, like --by character")
	}
	return out, nil
}

func keyNamed(s string) (Key, bool) {
	switch s {
	case "char", "race", "machine":
		return KeyCharacter, true
	case "map", "song", "course", "title":
		return KeyStage, true
	case "code", "name":
		return KeyPlayer, true
	}
	for _, k := range Keys {
		if string(k) == s {
			return k, true
		}
	}
	return "", false
}

// Player is one player as a replay's header names them.
type Player struct {
	Slot, Name, Code, Character, Team string
}

// Game is one replay as the archive knows it: its header's facts and its
// summary.
type Game struct {
	Path     string
	Format   model.Format
	Start    time.Time
	Duration time.Duration
	Title    string
	Players  []Player
	Summary  *model.Summary // nil when none was made, or the game is a List's
	// Partial says the full decode stopped early; Err why the file gives
	// no replay. Either way the game is skipped, never averaged in.
	Partial bool
	Err     string
	// a List's game (List.Game) reads its outcomes and stats from the
	// list's segment it is in
	seg *segment
	at  int
}

// Options choose what is counted.
type Options struct {
	By []Key
	// Players, when not empty, count only those players' sides (a person
	// with several codes or names): matched against code and name,
	// case-insensitively, ignoring spaces.
	Players []string
	// LRASLoss counts a game a player quit (Slippi's LRAS) as a loss.
	LRASLoss bool
	// Sessions are what a first pass over the same games found, for a
	// session key (NeedsSessions); Run makes them itself.
	Sessions *Sessions
}

// Result is the groups, largest first, and what was skipped.
type Result struct {
	By      []Key
	Groups  []*Group
	Skipped []Skip
	// Games counts the replays that added at least one player-game.
	Games int
}

// SkipReason says why Run leaves the game out ("" when it counts): it
// gives no replay, its decode stopped early, or it has no players.
func (g *Game) SkipReason() string {
	switch {
	case g.Err != "":
		return g.Err
	case g.Partial:
		return "partial replay (the decode stopped early)"
	case len(g.Players) == 0:
		return "no players"
	}
	return ""
}

// Skip is a replay left out, and why.
type Skip struct {
	Path, Reason string
}

// Group is the player-games that share their key values.
type Group struct {
	Values []string // one per key of Result.By
	// ByName is set when the player key of this group is a name, because
	// the player has no code.
	ByName bool
	Games  int // player-games
	// Outcomes counts the player-games by outcome.
	Outcomes map[model.Outcome]int
	// Wins and Losses follow Options.LRASLoss.
	Wins, Losses int
	First, Last  time.Time
	Played       time.Duration
	// Formats counts the player-games by format, for the stats' labels.
	Formats map[model.Format]int
	Stats   map[string]*StatSum // by stat key
	Tallies map[string]map[string]float64
	// Members are the games the group's player-games are of, as indices
	// into the games Run was given, each once, in the given order.
	Members []int32
	// Names says, per key of Result.By, the name a player key's code
	// played under most (an opponent key's: each opponent's, joined as the
	// codes are); "" for other keys and for a value that is a name.
	Names []string

	names []map[string]int // per key: the names seen, by player-games
	// slots are, per layout of a List's games, where each stat of it
	// adds up: a million player-games' stats each found in the maps by
	// key were a third of grouping a list
	slots map[*layout][]statSlot
}

// statSlot is where a stat of a layout adds up in a group: its sum, or its
// tally (the layout's name is the bucket).
type statSlot struct {
	sum   *StatSum
	tally map[string]float64
}

// StatSum is one stat over the group's games.
type StatSum struct {
	Sum      float64
	N        int // games that have the stat
	Min, Max float64
}

// WinRate is wins over decided games (wins and losses); ok is false when
// none was decided.
func (g *Group) WinRate() (rate float64, ok bool) {
	if g.Wins+g.Losses == 0 {
		return 0, false
	}
	return float64(g.Wins) / float64(g.Wins+g.Losses), true
}

// side is one player-game before grouping.
type side struct {
	index   int32 // the game's index in Run's games (the Aggregator's count)
	game    *Game
	player  int
	key     string // the player key
	byName  bool
	outcome model.Outcome
	session string
}

// Run groups the games' player-games.
func Run(games []Game, opt Options) *Result { return run(each(games), opt) }

// Run groups the list's games' player-games, as Run.
func (l *List) Run(opt Options) *Result { return run(l.All(), opt) }

func run(games iter.Seq[*Game], opt Options) *Result {
	if NeedsSessions(opt.By) && opt.Sessions == nil {
		opt.Sessions = sessionsOf(games)
	}
	a := NewAggregator(opt)
	for g := range games {
		a.Add(g)
	}
	return a.Result()
}

// each yields a pointer to each game.
func each(games []Game) iter.Seq[*Game] {
	return func(yield func(*Game) bool) {
		for i := range games {
			if !yield(&games[i]) {
				return
			}
		}
	}
}

// Aggregator groups player-games as games come (Run over a stream): it
// keeps the groups, not the games, so a million replays aggregate in the
// memory of their groups. A session key needs the players' sessions first:
// Options.Sessions, from a first pass over the same games.
type Aggregator struct {
	opt      Options
	want     map[string]bool
	res      *Result
	byValues map[string]*Group
	n        int32 // games added: the next game's index, for Members

	// scratch for a side's values, made into strings once for each
	// distinct value (strs, matchups, dates): a million sides' values
	// made anew were most of the garbage of an aggregation
	vals, parts  []string
	mine, theirs []string
	coded        []coded
	buf          []byte
	strs         map[string]string
	matchups     map[string]string
	dates        [3]dateValue
}

// NewAggregator starts an aggregation. With a session key and no
// Options.Sessions no game has a session, and none is counted.
func NewAggregator(opt Options) *Aggregator {
	if NeedsSessions(opt.By) && opt.Sessions == nil {
		opt.Sessions = NewSessions()
	}
	if opt.Sessions != nil {
		opt.Sessions.done()
	}
	a := &Aggregator{opt: opt, want: map[string]bool{},
		res: &Result{By: opt.By}, byValues: map[string]*Group{}, strs: map[string]string{}, matchups: map[string]string{}}
	for _, w := range opt.Players {
		a.want[tight(w)] = true
	}
	return a
}

// Add counts a game, the next of the games Members index. g is not kept
// past the call.
func (a *Aggregator) Add(g *Game) {
	if why := g.SkipReason(); why != "" {
		a.skip(Skip{g.Path, why})
		return
	}
	gi := a.n
	a.n++
	added := false
	for pi, p := range g.Players {
		if len(a.want) > 0 && !a.want[tight(p.Code)] && !a.want[tight(p.Name)] {
			continue
		}
		s := side{index: gi, game: g, player: pi}
		s.key, s.byName = playerKey(p)
		s.outcome = g.outcome(pi)
		if a.opt.Sessions != nil {
			s.session = a.opt.Sessions.session(s.key, g.Start)
		}
		a.group(&s)
		added = true
	}
	if added {
		a.res.Games++
	}
}

// AddList counts the games of a list, in order, as Add would each; skips
// are the games left out of the list (SkipReason) and where: before the
// list's game At, in order.
func (a *Aggregator) AddList(l *List, skips []ListSkip) {
	i := 0
	for g := range l.All() {
		for len(skips) > 0 && skips[0].At <= i {
			a.skip(skips[0].Skip)
			skips = skips[1:]
		}
		a.Add(g)
		i++
	}
	for _, s := range skips {
		a.skip(s.Skip)
	}
}

// ListSkip is a game left out of a list (AddList): why, and where.
type ListSkip struct {
	Skip
	At int // the list's game it came before
}

// skip counts a game left out.
func (a *Aggregator) skip(s Skip) {
	a.n++
	a.res.Skipped = append(a.res.Skipped, s)
}

// group adds a side to the group of its key values.
func (a *Aggregator) group(s *side) {
	values, ok := a.keyValues(s)
	if !ok {
		return
	}
	var grp *Group
	if len(values) == 1 {
		grp = a.byValues[values[0]]
	} else {
		a.buf = a.buf[:0]
		for i, v := range values {
			if i > 0 {
				a.buf = append(a.buf, 0)
			}
			a.buf = append(a.buf, v...)
		}
		grp = a.byValues[string(a.buf)]
	}
	if grp == nil {
		values = slices.Clone(values)
		grp = &Group{Values: values, Outcomes: map[model.Outcome]int{}, Formats: map[model.Format]int{},
			Stats: map[string]*StatSum{}, Tallies: map[string]map[string]float64{}}
		a.byValues[strings.Join(values, "\x00")] = grp
		a.res.Groups = append(a.res.Groups, grp)
	}
	grp.add(s, a.opt)
	a.countNames(grp, s)
}

// Result finishes the aggregation: the groups, largest first.
func (a *Aggregator) Result() *Result {
	res := a.res
	for _, grp := range res.Groups {
		grp.Names = make([]string, len(a.opt.By))
		for i, seen := range grp.names {
			grp.Names[i] = mostUsed(seen)
		}
		grp.names, grp.slots = nil, nil
	}
	res.SortByGames()
	return res
}

// SortByGames puts the groups in Result's order: most player-games first,
// then by their values.
func (res *Result) SortByGames() {
	sort.SliceStable(res.Groups, func(i, j int) bool {
		a, b := res.Groups[i], res.Groups[j]
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		return slices.Compare(a.Values, b.Values) < 0
	})
}

func needs(keys []Key, k Key) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

func (grp *Group) add(s *side, opt Options) {
	g := s.game
	grp.Games++
	if n := len(grp.Members); n == 0 || grp.Members[n-1] != s.index {
		grp.Members = append(grp.Members, s.index)
	}
	if s.byName && needs(opt.By, KeyPlayer) {
		grp.ByName = true
	}
	grp.Outcomes[s.outcome]++
	switch s.outcome {
	case model.OutcomeWin:
		grp.Wins++
	case model.OutcomeLoss:
		grp.Losses++
	case model.OutcomeQuit:
		if opt.LRASLoss {
			grp.Losses++
		}
	}
	if !g.Start.IsZero() {
		if grp.First.IsZero() || g.Start.Before(grp.First) {
			grp.First = g.Start
		}
		if g.Start.After(grp.Last) {
			grp.Last = g.Start
		}
	}
	grp.Played += g.Duration
	grp.Formats[g.Format]++
	if g.seg != nil {
		grp.addListStats(g, s.player)
		return
	}
	g.playerStats(s.player, func(key, name string, v float64) {
		if name != "" {
			t := grp.Tallies[key]
			if t == nil {
				t = map[string]float64{}
				grp.Tallies[key] = t
			}
			t[name] += v
			return
		}
		sum := grp.Stats[key]
		if sum == nil {
			sum = &StatSum{Min: v, Max: v}
			grp.Stats[key] = sum
		}
		sum.Sum += v
		sum.N++
		sum.Min = min(sum.Min, v)
		sum.Max = max(sum.Max, v)
	})
}

// addListStats adds a List's game's player's stats, as add does a
// summary's: the same sums in the same order, found through the slots of
// the player's layout.
func (grp *Group) addListStats(g *Game, pi int) {
	p := g.seg.player(g.at, pi)
	if p == nil || p.layout == 0 {
		return
	}
	lay := g.seg.layouts[p.layout]
	slots, ok := grp.slots[lay]
	if !ok {
		slots = make([]statSlot, len(lay.keys))
		for i, key := range lay.keys {
			if lay.names[i] != "" {
				t := grp.Tallies[key]
				if t == nil {
					t = map[string]float64{}
					grp.Tallies[key] = t
				}
				slots[i].tally = t
				continue
			}
			sum := grp.Stats[key]
			if sum == nil {
				sum = &StatSum{} // N 0: the first value sets Min and Max
				grp.Stats[key] = sum
			}
			slots[i].sum = sum
		}
		if grp.slots == nil {
			grp.slots = map[*layout][]statSlot{}
		}
		grp.slots[lay] = slots
	}
	b := g.seg.vals[p.vals>>valShift][p.vals&(1<<valShift-1):]
	for i := range slots {
		v, n := value(b)
		b = b[n:]
		if t := slots[i].tally; t != nil {
			t[lay.names[i]] += v
			continue
		}
		sum := slots[i].sum
		if sum.N == 0 {
			sum.Min, sum.Max = v, v
		}
		sum.Sum += v
		sum.N++
		sum.Min = min(sum.Min, v)
		sum.Max = max(sum.Max, v)
	}
}

// countNames notes the names behind the codes of a side's player and
// opponent keys.
func (a *Aggregator) countNames(grp *Group, s *side) {
	g := s.game
	for i, k := range a.opt.By {
		var name string
		switch k {
		case KeyPlayer:
			if !s.byName {
				name = g.Players[s.player].Name
			}
		case KeyOpponent:
			// in the order of the codes the value joins (others sorts them)
			os := a.coded[:0]
			me := g.Players[s.player]
			named := false
			for i, o := range g.Players {
				if i == s.player || (me.Team != "" && o.Team == me.Team) || o.Code == "" && o.Name == "" {
					continue
				}
				if o.Code == "" {
					os = append(os, coded{o.Name, ""})
				} else {
					os = append(os, coded{o.Code, o.Name})
					named = named || o.Name != ""
				}
			}
			a.coded = os
			if !named {
				break
			}
			slices.SortStableFunc(os, func(x, y coded) int { return strings.Compare(x.code, y.code) })
			names := a.parts[:0]
			for _, o := range os {
				if o.name != "" {
					names = append(names, o.name)
				} else {
					names = append(names, "–") // a name already, or none
				}
			}
			a.parts = names
			name = a.join(names, " + ")
		}
		if name == "" {
			continue
		}
		if grp.names == nil {
			grp.names = make([]map[string]int, len(a.opt.By))
		}
		if grp.names[i] == nil {
			grp.names[i] = map[string]int{}
		}
		grp.names[i][name]++
	}
}

// coded is an opponent's code (or name, without one) and name.
type coded struct{ code, name string }

// join is strings.Join, made once for each distinct result: the values of
// a million sides' keys are a few thousand strings.
func (a *Aggregator) join(parts []string, sep string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	a.buf = a.buf[:0]
	for i, p := range parts {
		if i > 0 {
			a.buf = append(a.buf, sep...)
		}
		a.buf = append(a.buf, p...)
	}
	return a.made(a.buf)
}

// made is the string of b, made once for each distinct b (up to a bound).
func (a *Aggregator) made(b []byte) string {
	if s, ok := a.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(a.strs) >= 1<<16 {
		clear(a.strs)
	}
	a.strs[s] = s
	return s
}

// mostUsed is the name seen most (the first by name of equals); "" for
// none.
func mostUsed(names map[string]int) string {
	best, n := "", 0
	for name, k := range names {
		if k > n || k == n && name < best {
			best, n = name, k
		}
	}
	return best
}

// keyValues are the side's values for the keys, in the aggregator's
// memory (good until the next side); ok is false when a key does not
// apply to the side (a character key for a format without characters).
func (a *Aggregator) keyValues(s *side) ([]string, bool) {
	g := s.game
	p := g.Players[s.player]
	values := a.vals[:0]
	defer func() { a.vals = values[:0] }()
	for _, k := range a.opt.By {
		var v string
		switch k {
		case KeyPlayer:
			v = s.key
		case KeyCharacter:
			if !hasCharacters(g.Format) || p.Character == "" {
				return nil, false
			}
			v = p.Character
		case KeyOpponent:
			v = a.others(g, s.player, func(o Player) string {
				if o.Code != "" {
					return o.Code
				}
				return o.Name
			})
		case KeyVs:
			if !hasCharacters(g.Format) {
				return nil, false
			}
			v = a.others(g, s.player, func(o Player) string { return o.Character })
		case KeyMatchup:
			if !hasCharacters(g.Format) {
				return nil, false
			}
			v = a.matchup(g, s.player)
		case KeyStage:
			v = g.Title
		case KeyMonth, KeyWeek, KeyDay:
			if g.Start.IsZero() {
				return nil, false
			}
			v = a.date(k, g.Start)
		case KeySession:
			if s.session == "" {
				return nil, false
			}
			v = s.session
		case KeyFormat:
			v = string(g.Format)
		}
		values = append(values, v)
	}
	return values, true
}

// date is a month, week or day key's value of a start: made once for the
// games of one day after another (a walk's order), not for each side.
func (a *Aggregator) date(k Key, t time.Time) string {
	var at [3]int
	switch k {
	case KeyWeek:
		at[0], at[1] = t.ISOWeek()
	default:
		y, m, d := t.Date()
		at = [3]int{y, int(m), d}
		if k == KeyMonth {
			at[2] = 0
		}
	}
	if c := &a.dates[dateSlot(k)]; c.v != "" && c.at == at {
		return c.v
	}
	var v string
	switch k {
	case KeyMonth:
		v = t.Format("2006-01")
	case KeyWeek:
		v = fmt.Sprintf("%d-W%02d", at[0], at[1])
	default:
		v = t.Format("2006-01-02")
	}
	a.dates[dateSlot(k)] = dateValue{at, v}
	return v
}

// dateValue is a date key's last value, and the date it is of.
type dateValue struct {
	at [3]int
	v  string
}

func dateSlot(k Key) int {
	switch k {
	case KeyMonth:
		return 0
	case KeyWeek:
		return 1
	}
	return 2
}

func hasCharacters(f model.Format) bool {
	d := decoders.ByID(f)
	return d != nil && d.Character != ""
}

// others joins what name says of the players not on the side's team,
// sorted so the same opponents make the same group: "OP#1 + OP#2".
func (a *Aggregator) others(g *Game, pi int, name func(Player) string) string {
	me := g.Players[pi]
	out := a.parts[:0]
	for i, o := range g.Players {
		if i == pi || (me.Team != "" && o.Team == me.Team) {
			continue
		}
		if n := name(o); n != "" {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	a.parts = out
	return a.join(out, " + ")
}

// matchup names both sides' characters, the side's own first within each
// side but the two sides in a fixed order, so Fox against Marth and Marth
// against Fox are one matchup: Fox-Marth, Fox+Falco-Marth+Sheik.
func (a *Aggregator) matchup(g *Game, pi int) string {
	me := g.Players[pi]
	mine, theirs := a.mine[:0], a.theirs[:0]
	for i, o := range g.Players {
		if i == pi || (me.Team != "" && o.Team == me.Team) {
			mine = append(mine, o.Character)
		} else {
			theirs = append(theirs, o.Character)
		}
	}
	slices.Sort(mine)
	slices.Sort(theirs)
	a.mine, a.theirs = mine, theirs
	// the format's word for the sides, made once for each sides
	a.buf = binary.AppendUvarint(a.buf[:0], uint64(len(g.Format)))
	a.buf = append(a.buf, g.Format...)
	for _, side := range [2][]string{mine, theirs} {
		a.buf = binary.AppendUvarint(a.buf, uint64(len(side)))
		for _, c := range side {
			a.buf = binary.AppendUvarint(a.buf, uint64(len(c)))
			a.buf = append(a.buf, c...)
		}
	}
	if v, ok := a.matchups[string(a.buf)]; ok {
		return v
	}
	var v string
	if d := decoders.ByID(g.Format); d != nil && d.Matchup != nil {
		v = d.Matchup(mine, theirs)
	} else {
		x, y := strings.Join(mine, "+"), strings.Join(theirs, "+")
		if y < x {
			x, y = y, x
		}
		v = x
		if y != "" {
			v = x + "-" + y
		}
	}
	if len(a.matchups) >= 1<<16 {
		clear(a.matchups)
	}
	a.matchups[string(a.buf)] = v
	return v
}

// playerKey is what a player is known by across games: the code, else the
// name (byName).
func playerKey(p Player) (key string, byName bool) {
	if p.Code == "" {
		return p.Name, true
	}
	return p.Code, false
}

// tight folds a name or code for comparing: lower case, no spaces.
func tight(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", "")
}

// PlayerGames is a player of an archive: a code (a name for a player
// without one), the name the code played under most, and the player-games.
type PlayerGames struct {
	Who   string
	Name  string // "" when Who is a name
	Games int
}

// Frequent lists the players of the games, most games first (then by
// code): the choice of whose games count (Options.Players).
func Frequent(games []Game) []PlayerGames { return frequent(each(games)) }

// Frequent lists the players of the list's games, as Frequent.
func (l *List) Frequent() []PlayerGames { return frequent(l.All()) }

func frequent(games iter.Seq[*Game]) []PlayerGames {
	counts := map[string]int{}
	names := map[string]map[string]int{} // a code's names, by games
	for g := range games {
		for _, p := range g.Players {
			who := p.Code
			if who == "" {
				who = p.Name
			} else if p.Name != "" {
				if names[who] == nil {
					names[who] = map[string]int{}
				}
				names[who][p.Name]++
			}
			if who != "" {
				counts[who]++
			}
		}
	}
	out := make([]PlayerGames, 0, len(counts))
	for who, n := range counts {
		out = append(out, PlayerGames{Who: who, Name: mostUsed(names[who]), Games: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Games != out[j].Games {
			return out[i].Games > out[j].Games
		}
		return out[i].Who < out[j].Who
	})
	return out
}
