package slippi

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"rewind/model"
)

// How the game ended for each player, as a word a script compares
// (model.Outcome). Where slippi-js 9.1.2's getWinners names winners in a
// game the decoder reads the same way, the winners are the same players
// (getWinners' own reading, edge cases and all, is declared below); where
// it names none, the game still may say:
//
//   - No Contest (2.0.0+) or Unresolved: the player who left with L+R+A+
//     Start quit; in a two-player game the other won (getWinners); everyone
//     else has no contest.
//   - Single-player modes (Classic, Multi-Man Melee, Home-Run Contest, ...)
//     have a winner only where the placements (3.13.0+) name one, as
//     getWinners reads them; the end methods of these modes (Stage Clear,
//     Game Clear, New Record, ...) do not say the same thing in every mode,
//     so the outcome is unknown otherwise. The fighters the mode brings on
//     have none.
//   - Everyone on stage at the end out of stocks: a draw (getWinners: no
//     winner).
//   - TIME!: the player, or the team (stocks and percent added up over its
//     members on stage), with the most stocks and then the least percent
//     won (getWinners); players or teams tied for first drew, where
//     getWinners calls all the players winners and of the teams the one
//     whose update comes first.
//   - GAME! (Resolved before 2.0.0): the placements (3.13.0+) name the
//     winner (getWinners); without them, the player or team that still
//     has stocks won.
//
// A team game counts by team: a team's win is each member's, eliminated
// members too (getWinners leaves a member out of a TIME! win when no longer
// on stage). Everyone else in the game lost. A file without a Game End
// (a recording cut short, training mode) has no outcome.
func (d *decoder) outcomes() []model.Outcome {
	out := make([]model.Outcome, len(d.portOf))
	if d.endOff < 0 || d.size[cmdEnd] < 1 {
		return out
	}
	ev := d.data[d.endOff : d.endOff+1+int(d.size[cmdEnd])]
	method := int(ev[1])
	var listed []int // players Game Start lists: not the enemies a mode brings on
	for pl, port := range d.portOf {
		if port < 4 && d.ports[port].used {
			listed = append(listed, pl)
		}
	}
	if method == 0 || d.version >= v200 && method == 7 {
		for _, pl := range listed {
			out[pl] = model.OutcomeNoContest
		}
		if lras := d.lrasInitiator(ev); lras >= 0 {
			out[lras] = model.OutcomeQuit
			if len(listed) == 2 {
				for _, pl := range listed {
					if pl != lras {
						out[pl] = model.OutcomeWin
					}
				}
			}
		}
		return out
	}
	solo := d.soloMode()
	onStage := d.finalPosts()
	switch {
	case solo:
	case len(onStage) > 0 && !slices.ContainsFunc(onStage, func(p finalPost) bool { return p.stocks != 0 }):
		for _, pl := range listed {
			out[pl] = model.OutcomeDraw
		}
		return out
	case d.version >= v200 && method == 1:
		d.timeOutcome(out, listed, onStage)
		return out
	}
	if winner := d.firstPlace(ev); winner >= 0 {
		d.sideWins(out, listed, []int{winner}, model.OutcomeWin)
		return out
	}
	if solo {
		return out
	}
	// GAME! or Resolved without placements: whoever still has stocks
	alive := map[int]bool{} // sides with stocks left
	var winners []int
	for _, pl := range listed {
		if s, ok := d.lastStocks(d.portOf[pl]); ok && s > 0 {
			if side := d.side(pl); !alive[side] {
				alive[side] = true
				winners = append(winners, pl)
			}
		}
	}
	switch len(alive) {
	case 0:
		for _, pl := range listed {
			out[pl] = model.OutcomeDraw
		}
	case 1:
		d.sideWins(out, listed, winners, model.OutcomeWin)
	}
	return out
}

// lrasInitiator is the player who left the game with L+R+A+Start (2.0.0+),
// -1 when none did or the player is not in the game.
func (d *decoder) lrasInitiator(ev []byte) int {
	if d.version < v200 || len(ev) < 3 {
		return -1
	}
	if l := int(int8(ev[2])); l >= 0 && l < 4 && d.ports[l].used && d.playerOf[l] >= 0 {
		return d.playerOf[l]
	}
	return -1
}

// firstPlace is the player the placements (3.13.0+) put first, the first
// by port as getWinners takes it; -1 when none is.
func (d *decoder) firstPlace(ev []byte) int {
	if d.version < ver(3, 13, 0) || len(ev) < 7 {
		return -1
	}
	for port := 0; port < 4; port++ {
		if int8(ev[3+port]) == 0 && d.ports[port].used && d.playerOf[port] >= 0 {
			return d.playerOf[port]
		}
	}
	return -1
}

// side is a player's side: the team in a team game, else the player.
func (d *decoder) side(pl int) int {
	if port := d.portOf[pl]; d.isTeams() && port < 4 && d.ports[port].used {
		return 100 + d.ports[port].team
	}
	return pl
}

// sideWins gives the players on the sides of those players (their teams in
// a team game) the outcome o (a win, or a draw among sides tied for first),
// and the other listed players a loss.
func (d *decoder) sideWins(out []model.Outcome, listed, those []int, o model.Outcome) {
	sides := map[int]bool{}
	for _, pl := range those {
		sides[d.side(pl)] = true
	}
	for _, pl := range listed {
		switch {
		case sides[d.side(pl)]:
			out[pl] = o
		case out[pl] == "":
			out[pl] = model.OutcomeLoss
		}
	}
}

// finalPost is a player on stage at the last frame.
type finalPost struct {
	pl      int
	stocks  int
	percent float32
}

// finalPosts are the listed players with a post-frame update at the last
// frame (getWinners' final post-frame updates, followers left out).
func (d *decoder) finalPosts() []finalPost {
	var out []finalPost
	if d.post == nil || d.count == 0 {
		return out
	}
	for pl, port := range d.portOf {
		if port >= 4 || !d.ports[port].used {
			continue
		}
		if p, ok := d.postAt(d.count-1, port); ok {
			out = append(out, finalPost{pl: pl, stocks: int(p.stocks), percent: p.percent})
		}
	}
	return out
}

// lastStocks is the port's stocks in its last post-frame update.
func (d *decoder) lastStocks(port int) (int, bool) {
	if d.post == nil {
		return 0, false
	}
	for fi := d.count - 1; fi >= 0; fi-- {
		if p, ok := d.postAt(fi, port); ok {
			return int(p.stocks), true
		}
	}
	return 0, false
}

// timeOutcome decides a game that ran out of time from the players on
// stage at the end: most stocks, then least percent, by team in a team
// game (getWinners' last-frame rule). Sides tied for first drew.
func (d *decoder) timeOutcome(out []model.Outcome, listed []int, onStage []finalPost) {
	type score struct {
		side    int
		stocks  int
		percent float64
		players []int
	}
	var scores []*score
	bySide := map[int]*score{}
	for _, p := range onStage {
		s := bySide[d.side(p.pl)]
		if s == nil {
			s = &score{side: d.side(p.pl)}
			bySide[s.side] = s
			scores = append(scores, s)
		}
		s.stocks += p.stocks
		s.percent += float64(p.percent)
		s.players = append(s.players, p.pl)
	}
	if len(scores) == 0 {
		return
	}
	better := func(a, b *score) int {
		if c := cmp.Compare(b.stocks, a.stocks); c != 0 {
			return c
		}
		return cmp.Compare(a.percent, b.percent)
	}
	slices.SortStableFunc(scores, better)
	var top []int
	tied := 0
	for _, s := range scores {
		if better(s, scores[0]) == 0 {
			top = append(top, s.players...)
			tied++
		}
	}
	o := model.OutcomeWin
	if tied > 1 {
		o = model.OutcomeDraw
	}
	d.sideWins(out, listed, top, o)
}

// outcomeWords says who won for the end moment ("team blue won (P1 Captain
// Falcon, P2 Ganondorf)", "P2 Marth won", "a draw"), and the first winner.
func (d *decoder) outcomeWords(out []model.Outcome) (string, int) {
	var won, drew []int
	for pl, o := range out {
		switch o {
		case model.OutcomeWin:
			won = append(won, pl)
		case model.OutcomeDraw:
			drew = append(drew, pl)
		}
	}
	names := func(pls []int) string {
		var s []string
		for _, pl := range pls {
			s = append(s, d.r.Players[pl].Label())
		}
		return strings.Join(s, ", ")
	}
	switch {
	case len(won) > 1 && d.isTeams() && d.side(won[0]) == d.side(won[len(won)-1]):
		return "team " + d.r.Players[won[0]].Team + " won (" + names(won) + ")", won[0]
	case len(won) > 0:
		return names(won) + " won", won[0]
	case len(drew) > 0:
		return "a draw (" + names(drew) + ")", -1
	}
	return "", -1
}

// declared is each player's outcome as the game's own result gives it,
// read the way slippi-js 9.1.2's getWinners reads the file
// (model.PlayerSummary.Declared, which the query language's winner: and
// loser: ask): a player getWinners names won; when it names winners, every
// other player Game Start lists lost, except the one who left with
// L+R+A+Start in a No Contest or Unresolved game, who quit. When it names
// none, the players of a No Contest or Unresolved game have no contest (the
// one who left quit) and everyone else's outcome is unknown. Where slippi-js
// throws instead of answering, every outcome is unknown.
//
// Unlike outcomes, this is no reading of the game: it is getWinners' rules
// on getWinners' reads of the bytes (asSlippiJS), so that a search for the
// games a player won finds the ones slippi-js gives the player. Who the
// players are: getWinners names ports. Its LRAS and placements rules name
// ports Game Start lists; its last-frame rule (TIME!, or no Game End where
// it looks for one) names any port a final post-frame update names other
// than a follower (Nana), so in Multi-Man Melee an enemy (ports 2-6) can
// be among the winners, and is then given the win here too; an enemy is
// never given a loss, Game Start does not list it. A port that is no
// player here (only a damaged file names one) is left out.
func (d *decoder) declared() []model.Outcome {
	out := make([]model.Outcome, len(d.portOf))
	g := d.asSlippiJS()
	if g == nil {
		return out
	}
	player := func(port int) int {
		if port >= 0 && port < maxSlots {
			return d.playerOf[port]
		}
		return -1
	}
	won := g.winners()
	for _, port := range won {
		if pl := player(port); pl >= 0 {
			out[pl] = model.OutcomeWin
		}
	}
	noContest := g.end && (g.method == 0 || g.method == 7)
	for _, p := range g.players {
		pl := player(p.port)
		switch {
		case pl < 0 || out[pl] == model.OutcomeWin:
		case noContest && g.lras.ok && g.lras.v == float64(p.port):
			out[pl] = model.OutcomeQuit
		case len(won) > 0:
			out[pl] = model.OutcomeLoss
		case noContest:
			out[pl] = model.OutcomeNoContest
		}
	}
	return out
}

// jsNum is a number slippi-js reads from a payload; ok is false where it
// reads undefined (the payload ends before the field).
type jsNum struct {
	v  float64
	ok bool
}

// same is JavaScript's ===: both undefined, or equal numbers (NaN equals
// nothing).
func (a jsNum) same(b jsNum) bool { return a.ok == b.ok && (!a.ok || a.v == b.v) }

// or0 is JavaScript's a ?? 0.
func (a jsNum) or0() float64 {
	if a.ok {
		return a.v
	}
	return 0
}

func jsU8(b []byte, at int) jsNum {
	if at < len(b) {
		return jsNum{float64(b[at]), true}
	}
	return jsNum{}
}

func jsI8(b []byte, at int) jsNum {
	if at < len(b) {
		return jsNum{float64(int8(b[at])), true}
	}
	return jsNum{}
}

func jsI32(b []byte, at int) jsNum {
	if at+4 <= len(b) {
		return jsNum{float64(int32(binary.BigEndian.Uint32(b[at:]))), true}
	}
	return jsNum{}
}

func jsF32(b []byte, at int) jsNum {
	if at+4 <= len(b) {
		return jsNum{float64(math.Float32frombits(binary.BigEndian.Uint32(b[at:]))), true}
	}
	return jsNum{}
}

// jsPost is a final post-frame update as getWinners reads it.
type jsPost struct {
	index, frame, stocks, percent jsNum
	follower                      bool
}

// jsPlayer is one of settings.players: a port Game Start does not call
// empty (a type past the payload is undefined, not empty).
type jsPlayer struct {
	port int
	team jsNum
}

// jsGame is what getWinners reads of a file.
type jsGame struct {
	settings bool       // getSettings() answers: without it getWinners names no one
	players  []jsPlayer // settings.players, from the Game Start the settings come from
	teams    bool
	end      bool // a Game End where getWinners looks for one
	method   byte
	lras     jsNum
	place    [4]jsNum // each port's position
	finals   []jsPost // the final post-frame updates, in file order
}

// jsMaxFinals is the most final post-frame updates asSlippiJS keeps: six
// ports with a follower each make twelve, so only a crafted file has more,
// and that file is given no Declared outcome rather than a list as long as
// the file (slippi-js reads them all). Below 64, jsSort is V8's own order.
const jsMaxFinals = 63

// jsBytes is what slippi-js's read of n bytes at pos gives: the file's
// bytes, zeros past its end; a position before the start copies from the
// start (its buffer copy clamps the start).
func (d *decoder) jsBytes(pos, n int) []byte {
	if pos >= 0 && pos+n <= len(d.data) {
		return d.data[pos : pos+n]
	}
	b := make([]byte, n)
	switch {
	case pos < 0:
		copy(b, d.data[:max(0, min(pos+n, len(d.data)))])
	case pos < len(d.data):
		copy(b, d.data[pos:])
	}
	return b
}

// asSlippiJS reads what slippi-js 9.1.2's getWinners reads, as it reads
// it; nil where slippi-js throws instead (an Event Payloads of size 0, a
// Game Start too short to hold its version, a post-frame update of the
// first frame or a Frame Bookend before any Game Start). It differs from
// the decoder's own reading in a damaged file:
//
//   - the raw element is the declared length, or the rest of the file
//     when that is 0 (or past 2^31); the payload sizes are Event Payloads'
//     entries, a size cut off by the end of the list being 0;
//   - the settings come from the events read in order from the start up to
//     the first one that is not listed or does not fit: a Game Start of
//     1.6.0 or later, else the last Game Start before a post-frame update
//     of a frame after -123; a Game Start or post-frame update carried in
//     split messages (no recorder sends one) is not followed here;
//   - the Game End is the last event-sized bytes of the raw element, when
//     they start with its code;
//   - the final post-frame updates are the run of post-frame updates that
//     ends right before the last Frame Bookend and the Game End (their
//     sizes, whether or not the stream holds them), back to one of another
//     frame or anything else.
func (d *decoder) asSlippiJS() *jsGame {
	rawPos := len(magic) + 4 // newDecoder checked the magic
	if len(d.data) <= rawPos {
		return nil
	}
	rawLen := int(int32(binary.BigEndian.Uint32(d.data[len(magic):])))
	if rawLen <= 0 {
		rawLen = len(d.data) - rawPos
	}
	var size [256]int // payload sizes, -1 when not listed
	for i := range size {
		size[i] = -1
	}
	n := int(d.jsBytes(rawPos+1, 1)[0])
	if n == 0 {
		return nil
	}
	size[cmdPayloads] = n
	list := d.jsBytes(rawPos+2, n-1)
	for i := 0; i < len(list); i += 3 {
		var hi, lo int
		if i+1 < len(list) {
			hi = int(list[i+1])
		}
		if i+2 < len(list) {
			lo = int(list[i+2])
		}
		size[list[i]] = hi<<8 | lo
	}

	g := &jsGame{}
	var start []byte
	complete := false
	// past the file's end the bytes read 0, which names none of the events
	// that matter here: the walk can stop there
	for p, stop := rawPos, min(rawPos+rawLen, len(d.data)); p < stop && !(complete && start != nil); {
		c := d.data[p]
		if size[c] < 0 || size[c]+1 > rawPos+rawLen-p {
			break
		}
		ev := d.jsBytes(p, size[c]+1)
		switch c {
		case cmdStart:
			if len(ev) < 4 {
				return nil // "3.undefined.undefined": semver throws
			}
			start = ev
			complete = complete || ver(int(ev[1]), int(ev[2]), int(ev[3])) >= ver(1, 6, 0)
		case cmdPost:
			if complete {
				break
			}
			frame := jsI32(ev, 1)
			if frame.ok && frame.v <= -123 {
				if start == nil {
					return nil // the Sheik fix reads the settings' players
				}
				if ch := jsU8(ev, 7); ch.ok && (ch.v == 7 || ch.v == 0x13) && !jsListed(start, jsU8(ev, 5)) {
					return nil // and sets the character of a player that is not there
				}
			}
			complete = frame.ok && frame.v > -123
		case cmdBookend:
			if start == nil {
				return nil // it reads the settings' game mode
			}
		}
		p += len(ev)
	}
	if start != nil {
		g.settings = complete
		g.teams = jsU8(start, 0xD).or0() != 0
		for port := 0; port < 4; port++ {
			if jsListed(start, jsNum{float64(port), true}) {
				g.players = append(g.players, jsPlayer{port: port, team: jsU8(start, 0x6E+0x24*port)})
			}
		}
	}

	rawEnd := rawPos + rawLen
	endSize := 0
	if sz := size[cmdEnd]; sz > 0 {
		endSize = sz + 1
		if ev := d.jsBytes(rawEnd-endSize, endSize); ev[0] == cmdEnd {
			g.end, g.method, g.lras = true, ev[1], jsI8(ev, 2)
			for port := range g.place {
				g.place[port] = jsI8(ev, 3+port)
			}
		}
	}
	if size[cmdPost] < 0 {
		return g
	}
	postSize := size[cmdPost] + 1
	pos := rawEnd - endSize - postSize
	if size[cmdBookend] > 0 {
		pos -= size[cmdBookend] + 1
	}
	var frame jsNum
	for {
		ev := d.jsBytes(pos, postSize)
		if ev[0] != cmdPost {
			break
		}
		u := jsPost{index: jsU8(ev, 5), frame: jsI32(ev, 1), stocks: jsU8(ev, 0x21), percent: jsF32(ev, 0x16)}
		u.follower = jsU8(ev, 6).or0() != 0
		if !frame.ok {
			frame = u.frame
		} else if !frame.same(u.frame) {
			break
		}
		if len(g.finals) == jsMaxFinals {
			return nil
		}
		g.finals = append(g.finals, u)
		if pos -= postSize; pos < rawPos {
			break
		}
	}
	slices.Reverse(g.finals)
	return g
}

// jsListed says whether settings.players, from Game Start start, holds
// the player index: a port whose type is not 3 (empty).
func jsListed(start []byte, index jsNum) bool {
	if !index.ok || index.v > 3 {
		return false
	}
	t := jsU8(start, 0x66+0x24*int(index.v))
	return !t.ok || t.v != 3
}

// winners are the ports getWinners names, in no particular order (a port
// can be named twice in a damaged file); nil when it names none.
func (g *jsGame) winners() []int {
	if !g.settings {
		return nil
	}
	if g.end && (g.method == 0 || g.method == 7) {
		// No Contest or Unresolved: the other player of two wins; with no
		// initiator (-1) that is the first
		if g.lras.ok && len(g.players) == 2 {
			for _, p := range g.players {
				if float64(p.port) != g.lras.v {
					return []int{p.port}
				}
			}
		}
		return nil
	}
	var active []jsPost
	for _, u := range g.finals {
		if !u.follower {
			active = append(active, u)
		}
	}
	// everyone out of stocks (or no one on stage): no one won
	if !slices.ContainsFunc(active, func(u jsPost) bool { return !u.stocks.same(jsNum{0, true}) }) {
		return nil
	}
	if (!g.end || g.method == 1) && len(active) >= 2 {
		if g.teams {
			return g.teamWinners(active)
		}
		// most stocks, then least percent; everyone tied with the first
		jsSort(active, jsBetter)
		var out []int
		for _, u := range active {
			if u.stocks.same(active[0].stocks) && u.percent.same(active[0].percent) && u.index.ok {
				out = append(out, int(u.index.v))
			}
		}
		return out
	}
	if !g.end {
		return nil
	}
	first := slices.IndexFunc(g.place[:], func(p jsNum) bool { return p.same(jsNum{0, true}) })
	if first < 0 {
		return nil
	}
	if g.teams {
		if team := g.team(first); team.ok {
			var out []int
			for port := range g.place {
				if g.team(port).same(team) {
					out = append(out, port)
				}
			}
			return out
		}
	}
	return []int{first}
}

// team is the team of the port's player in settings.players, undefined
// when the port has none.
func (g *jsGame) team(port int) jsNum {
	for _, p := range g.players {
		if p.port == port {
			return p.team
		}
	}
	return jsNum{}
}

// jsBetter orders updates as getWinners ranks players: most stocks, then
// least percent.
func jsBetter(a, b jsPost) float64 {
	if d := b.stocks.or0() - a.stocks.or0(); d != 0 {
		return d
	}
	return a.percent.or0() - b.percent.or0()
}

// teamWinners is getWinners' last-frame rule in a team game: stocks and
// percent added up by team (a player settings.players does not hold is
// left out, one without a team counts as team -1), the team with most
// stocks and then least percent wins whole, a tie going to the team whose
// update came first.
func (g *jsGame) teamWinners(active []jsPost) []int {
	type side struct {
		team            float64
		stocks, percent float64
		ports           []int
	}
	var sides []*side
	for _, u := range active {
		if !u.index.ok || !slices.ContainsFunc(g.players, func(p jsPlayer) bool { return float64(p.port) == u.index.v }) {
			continue
		}
		team := -1.0
		if t := g.team(int(u.index.v)); t.ok {
			team = t.v
		}
		i := slices.IndexFunc(sides, func(s *side) bool { return s.team == team })
		if i < 0 {
			i = len(sides)
			sides = append(sides, &side{team: team})
		}
		s := sides[i]
		s.stocks += u.stocks.or0()
		s.percent += u.percent.or0()
		s.ports = append(s.ports, int(u.index.v))
	}
	if len(sides) == 0 {
		return nil
	}
	jsSort(sides, func(a, b *side) float64 {
		if d := b.stocks - a.stocks; d != 0 {
			return d
		}
		return a.percent - b.percent
	})
	return sides[0].ports
}

// jsSort sorts as V8's Array.prototype.sort does a list shorter than 64
// (TimSort's one run): the first ascending or strictly descending stretch,
// that reversed, then binary insertion of the rest; a comparison that is
// NaN counts as equal. The order matters where the comparison is not
// consistent (a NaN or infinite percent) and decides who is first.
func jsSort[T any](s []T, compare func(a, b T) float64) {
	order := func(a, b T) float64 {
		if c := compare(a, b); !math.IsNaN(c) {
			return c
		}
		return 0
	}
	if len(s) < 2 {
		return
	}
	run, desc := 2, order(s[1], s[0]) < 0
	for ; run < len(s); run++ {
		if o := order(s[run], s[run-1]); desc && o >= 0 || !desc && o < 0 {
			break
		}
	}
	if desc {
		slices.Reverse(s[:run])
	}
	for i := run; i < len(s); i++ {
		pivot := s[i]
		lo, hi := 0, i
		for lo < hi {
			mid := lo + (hi-lo)>>1
			if order(pivot, s[mid]) < 0 {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		copy(s[lo+1:i+1], s[lo:i])
		s[lo] = pivot
	}
}
