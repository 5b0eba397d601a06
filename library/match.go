package library

import (
	"cmp"
	"math/bits"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/unicode/norm"

	"rewind/model"
)

// fold is the form queries compare: lower case, accents dropped, and any
// run of what is not a letter or a digit one space ("Pokémon Stadium" ->
// "pokemon stadium", "ABCD#123" -> "abcd 123"). Keeping the word breaks
// stops a short query matching across words ("fd" is not in "fountain
// of dreams").
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		s = norm.NFD.String(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	gap := false
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && ('a' <= r && r <= 'z' || '0' <= r && r <= '9'):
		case 'A' <= r && r <= 'Z':
			r += 'a' - 'A'
		case r >= utf8.RuneSelf && unicode.Is(unicode.Mn, r):
			continue // an accent: part of the letter before it
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			r = unicode.ToLower(r)
		default:
			gap = b.Len() > 0
			continue
		}
		if gap {
			b.WriteByte(' ')
			gap = false
		}
		b.WriteRune(r)
	}
	if !ascii {
		return norm.NFC.String(b.String()) // Hangul and the like recompose
	}
	return b.String()
}

// tight is fold without the spaces, for values whose separators do not
// matter (a connect code ABCD#123 is abcd123 too).
func tight(s string) string { return strings.ReplaceAll(fold(s), " ", "") }

// tokens are the folded words of s.
func tokens(s string) []string { return strings.Fields(fold(s)) }

// fileTokens are the words of a file name, split also where a lower-case
// letter meets a capital ("FodPlatforms" -> fod, platforms).
func fileTokens(s string) []string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return tokens(b.String())
}

// prep is a text prepared for matching, once per distinct string: folded,
// folded without spaces, its words, and its initials when it has several.
type prep struct {
	fold, tight string
	words       []string
	inits       string
}

func newPrep(s string) *prep {
	p := &prep{fold: fold(s)}
	p.tight = strings.ReplaceAll(p.fold, " ", "")
	p.words = strings.Fields(p.fold)
	if len(p.words) > 1 {
		var b strings.Builder
		for _, t := range p.words {
			r, _ := utf8.DecodeRuneInString(t)
			b.WriteRune(r)
		}
		p.inits = b.String()
	}
	return p
}

var emptyPrep = &prep{}

// text is one text of a row: prepared, and its number in the store (-1
// for a header outside one), which keys the matcher's caches.
type text struct {
	p  *prep
	id int32
}

type pview struct {
	name, code, char text
	team             string
	res              text          // the player's result words
	outcome          model.Outcome // a header's: its summary's, else the result words' (a row's: from res)
}

// texts returns player i's name, code and character (not the team: a word
// does not look at it, and reading it was a cache miss a row).
func (v *view) texts(i int) (name, code, char text) {
	if v.pl != nil {
		p := &v.pl[i]
		return text{nil, int32(p.name)}, text{nil, int32(p.code)}, text{nil, int32(v.roles[p.role].char)}
	}
	p := &v.players[i]
	return p.name, p.code, p.char
}

// view is what a query looks at in a row, made without allocating from a
// store's row (Matcher) or from a header (Doc).
type view struct {
	format   model.Format
	fmtText  string      // the format's id and name, folded
	players  []pview     // a header's players
	pl       []playerRec // or a store row's, with the store's strings and roles
	strs     []string
	roles    []roleRec
	title    text
	mode     text
	result   text
	file     string // the file name's words, folded, one space apart
	start    int64  // wall-clock time of play as unix seconds, as if in UTC
	dated    bool
	dur      int64
	size     int64
	problems int
	checked  bool
	// outs are a store row's outcomes from its summary (outcomeNibbles);
	// 0 without one
	outs uint32
}

// nPlayers is the number of players in the row.
func (v *view) nPlayers() int {
	if v.pl != nil {
		return len(v.pl)
	}
	return len(v.players)
}

// player returns player i; a store's texts are prepared when a term first
// needs them.
func (v *view) player(i int) pview {
	if v.pl != nil {
		p := &v.pl[i]
		role := &v.roles[p.role]
		return pview{name: text{nil, int32(p.name)}, code: text{nil, int32(p.code)}, char: text{nil, int32(role.char)}, team: v.strs[role.team], res: text{nil, int32(role.result)}}
	}
	return v.players[i]
}

// Doc is a header prepared for matching: every text folded once.
type Doc struct {
	H *Header
	v view
}

// prepCache keeps the prepared texts of headers' strings for NewDoc: the
// same names, characters and stages come back row after row.
var prepCache struct {
	sync.Mutex
	m map[string]*prep
}

func cachedPrep(s string) *prep {
	if s == "" {
		return emptyPrep
	}
	prepCache.Lock()
	p, ok := prepCache.m[s]
	prepCache.Unlock()
	if ok {
		return p
	}
	p = newPrep(s)
	prepCache.Lock()
	if prepCache.m == nil || len(prepCache.m) >= 1<<16 {
		prepCache.m = map[string]*prep{}
	}
	prepCache.m[s] = p
	prepCache.Unlock()
	return p
}

// NewDoc prepares h for queries. The Doc keeps h.
func NewDoc(h *Header) *Doc {
	d := &Doc{H: h}
	v := &d.v
	t := func(s string) text { return text{cachedPrep(s), -1} }
	v.format, v.fmtText = h.Format, fold(string(h.Format)+" "+h.FormatName)
	v.title, v.mode, v.result = t(h.Title), t(h.Mode), t(h.Result)
	for i, p := range h.Players {
		v.players = append(v.players, pview{name: t(p.Name), code: t(p.Code), char: t(p.Character), team: p.Team, res: t(p.Result), outcome: declaredOutcome(h, i)})
	}
	v.file = fileText(h.Path, nil)
	if !h.Start.IsZero() {
		v.start, v.dated = wallClock(h.Start), true
	}
	v.dur, v.size, v.problems, v.checked = int64(h.Duration), h.Size, h.ProblemCount(), h.Checked()
	return d
}

// wallClock is the time as its own zone reads it, as unix seconds in UTC:
// date: terms compare the day the file gives.
func wallClock(t time.Time) int64 {
	_, off := t.Zone()
	return t.Unix() + int64(off)
}

// fileText is the words of a path's file name, extension dropped, folded
// and one space apart; buf is scratch it may use (the result is then only
// good until buf is used again).
func fileText(path string, buf []byte) string {
	base := path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		base = path[i+1:]
	}
	if filepath.Separator != '/' {
		base = filepath.Base(base)
	}
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	b := buf[:0]
	gap, prevLower := false, false
	for i := 0; i < len(base); i++ {
		c := base[i]
		k := asciiClass[c]
		switch k {
		case clOther:
			gap, prevLower = len(b) > 0, false
			continue
		case clHigh:
			return strings.Join(fileTokens(base), " ")
		}
		// a space for each run of other characters and where a lower-case
		// letter meets a capital
		if gap || k == clUpper && prevLower {
			b = append(b, ' ')
			gap = false
		}
		if k == clUpper {
			c += 'a' - 'A'
		}
		b = append(b, c)
		prevLower = k == clLower
	}
	if buf != nil {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return string(b)
}

const (
	clOther = iota
	clLower
	clUpper
	clDigit
	clHigh
)

var asciiClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = clHigh
		case 'a' <= c && c <= 'z':
			t[c] = clLower
		case 'A' <= c && c <= 'Z':
			t[c] = clUpper
		case '0' <= c && c <= '9':
			t[c] = clDigit
		}
	}
	return t
}()

// Match reports whether the document satisfies every term.
func (q *Query) Match(d *Doc) bool {
	ok, _ := q.Rank(d)
	return ok
}

// Rank reports whether the document matches and, for queries with plain
// words, how well: 0 a whole word, 1 part of a text, 2 initials, 3 a
// misspelling; the worst word's tier counts.
func (q *Query) Rank(d *Doc) (ok bool, tier int) {
	if q == nil {
		return true, 0
	}
	return q.rank(&d.v, nil)
}

func (q *Query) rank(v *view, c *matchCache) (ok bool, tier int) {
	if c != nil && len(c.order) == len(q.terms) {
		return q.rankIn(v, c)
	}
	for i := range q.terms {
		t := &q.terms[i]
		hit, tr := t.match(v, c, i)
		if hit == t.neg {
			return false, 0
		}
		if t.kind == tWord && !t.neg {
			tier = max(tier, tr)
		}
	}
	return true, tier
}

// rankIn is rank with the terms tried in the cache's order, the one that
// turned most rows away first, and each turn-away counted: a row every
// term must keep is rejected by the first that does not, so "game 2020"
// over a million file names named game_... looks for 2020 first.
func (q *Query) rankIn(v *view, c *matchCache) (ok bool, tier int) {
	for _, i := range c.order {
		t := &q.terms[i]
		hit, tr := t.match(v, c, i)
		if hit == t.neg {
			c.rejected[i]++
			return false, 0
		}
		if t.kind == tWord && !t.neg {
			tier = max(tier, tr)
		}
	}
	return true, tier
}

// reorder puts the terms that turned most rows away so far first.
func (c *matchCache) reorder() {
	slices.SortStableFunc(c.order, func(a, b int) int { return cmp.Compare(c.rejected[b], c.rejected[a]) })
}

// the roles a text plays, for the caches: the same string may be a
// player's name in one row and a stage in another
const (
	roleName = iota
	roleCode
	roleChar
	roleTitle
	roleMode
	roleResult
	nRoles
)

// matchCache remembers, per term and role, what a term found in each
// string of a store: a row's players and stage are mostly strings met
// thousands of rows before. One per goroutine.
type matchCache struct {
	c       [][nRoles][]uint8 // term -> role -> string id -> tier+1, noHit, or 0 unknown
	fmts    []fmtMemo         // term -> the last format text looked in
	resolve func(id int32) *prep
	// the order the matcher tries the terms in, and how many rows each
	// turned away (rankIn)
	order    []int
	rejected []int
}

// fmtMemo is whether a word term is in a format text.
type fmtMemo struct {
	text       string
	hit, known bool
}

const noHit = 0xff

// cached returns what f gives for t, from the cache when t has a number.
func (c *matchCache) cached(term, role int, t text, f func(p *prep) int) int {
	if c == nil || t.id < 0 || term >= len(c.c) {
		return f(t.p)
	}
	tab := c.c[term][role]
	if int(t.id) >= len(tab) {
		grown := make([]uint8, max(int(t.id)+1, 2*len(tab)))
		copy(grown, tab)
		c.c[term][role], tab = grown, grown
	}
	if v := tab[t.id]; v != 0 {
		if v == noHit {
			return -1
		}
		return int(v) - 1
	}
	if t.p == nil {
		t.p = c.resolve(t.id) // a store's text, prepared when first needed
	}
	r := f(t.p)
	if r < 0 {
		tab[t.id] = noHit
	} else {
		tab[t.id] = uint8(r + 1)
	}
	return r
}

// boolCached is cached for a yes or no.
func (c *matchCache) boolCached(term, role int, t text, f func(p *prep) bool) bool {
	return c.cached(term, role, t, func(p *prep) int {
		if f(p) {
			return 0
		}
		return -1
	}) >= 0
}

func (t *term) match(v *view, c *matchCache, ti int) (bool, int) {
	switch t.kind {
	case tWord:
		return wordMatch(t, v, c, ti)
	case tFormat:
		return t.formats[v.format], 0
	case tPlayer:
		for i := range v.nPlayers() {
			if p := v.player(i); c.boolCached(ti, roleName, p.name, func(p *prep) bool { return strings.Contains(p.fold, t.val) }) {
				return true, 0
			}
		}
		return false, 0
	case tCode:
		for i := range v.nPlayers() {
			if p := v.player(i); c.boolCached(ti, roleCode, p.code, func(p *prep) bool { return strings.Contains(p.tight, t.val) }) {
				return true, 0
			}
		}
		return false, 0
	case tChar:
		for i := range v.nPlayers() {
			if p := v.player(i); c.boolCached(ti, roleChar, p.char, func(p *prep) bool { return charIs(p, t.val) }) {
				return true, 0
			}
		}
		return false, 0
	case tTitle:
		return c.boolCached(ti, roleTitle, v.title, func(p *prep) bool {
			return strings.Contains(p.fold, t.val) || len(t.val) >= 2 && len(p.inits) >= 2 && strings.HasPrefix(p.inits, t.val)
		}), 0
	case tMode:
		return c.boolCached(ti, roleMode, v.mode, func(p *prep) bool { return strings.Contains(p.fold, t.val) }), 0
	case tResult:
		return c.boolCached(ti, roleResult, v.result, func(p *prep) bool { return strings.Contains(p.fold, t.val) }), 0
	case tFile:
		return strings.Contains(v.file, t.val), 0
	case tMatchup:
		return matchup(t, v, c, ti), 0
	case tDate:
		return v.dated && v.start >= t.lo && v.start < t.hi, 0
	case tLen:
		return v.dur > 0 && v.dur >= t.lo && v.dur < t.hi, 0
	case tSize:
		return v.size >= t.lo && v.size < t.hi, 0
	case tProblems:
		n := int64(v.problems)
		return n >= t.lo && n < t.hi, 0
	case tChecked:
		return v.checked == t.yes, 0
	case tMe:
		return t.anyMe(v, c, ti), 0
	case tWinner, tLoser:
		return t.matchOutcome(v, c, ti), 0
	}
	return false, 0
}

// charIs reports whether a character is v: its name starts with v, or, for
// a name of several words, its initials do (ic: Ice Climbers).
func charIs(p *prep, v string) bool {
	return p.tight != "" && (strings.HasPrefix(p.tight, v) || len(v) >= 2 && len(p.inits) >= 2 && strings.HasPrefix(p.inits, v))
}

// matchup looks for two players, one per side, not on the same team: a
// side is a character (as char: reads it) or a player whose name holds it.
func matchup(t *term, v *view, c *matchCache, ti int) bool {
	side := func(i, s int) bool {
		val := t.sides[s]
		// each side keeps its own caches, in roles the term does not use
		charRole, nameRole := [2]int{roleChar, roleTitle}[s], [2]int{roleName, roleMode}[s]
		p := v.player(i)
		if c.boolCached(ti, charRole, p.char, func(p *prep) bool { return charIs(p, val) }) {
			return true
		}
		return len(val) >= 3 && c.boolCached(ti, nameRole, p.name, func(p *prep) bool { return strings.Contains(p.fold, val) })
	}
	for i := range v.nPlayers() {
		if !side(i, 0) {
			continue
		}
		for j := range v.nPlayers() {
			if i == j || !side(j, 1) {
				continue
			}
			if ti, tj := v.player(i).team, v.player(j).team; ti != "" && ti == tj {
				continue
			}
			return true
		}
	}
	return false
}

// wordMatch finds a plain word in a row's texts and says how well: each
// text on its own gives its best tier (a whole word 0, part of it 1, its
// initials 2, a misspelling 3), and the row takes the best of them. It runs
// for every row at each keystroke, so the caches are read first, inline,
// and a text is looked at (through cached's closure) only when they do not
// know it.
func wordMatch(t *term, v *view, c *matchCache, ti int) (bool, int) {
	best := -1
	// better keeps the best tier so far and reports a whole word (done)
	better := func(r int) bool {
		if r >= 0 && (best < 0 || r < best) {
			best = r
		}
		return best == 0
	}
	for i := range v.nPlayers() {
		name, code, char := v.texts(i)
		if better(c.word(t, ti, roleName, name)) || better(c.word(t, ti, roleCode, code)) || better(c.word(t, ti, roleChar, char)) {
			return true, 0
		}
	}
	if better(c.word(t, ti, roleTitle, v.title)) || better(c.word(t, ti, roleMode, v.mode)) {
		return true, 0
	}
	if c.inFormat(t, ti, v.fmtText) && better(1) {
		return true, 0
	}
	if best != 0 {
		better(fileTier(t, v.file, best))
	}
	return best >= 0, best
}

// inFormat reports whether a word term is in a row's format text, known
// from the row before when the text is the same (rows of one format come
// in runs).
func (c *matchCache) inFormat(t *term, ti int, fmtText string) bool {
	if c == nil || ti >= len(c.fmts) {
		return strings.Contains(fmtText, t.val)
	}
	m := &c.fmts[ti]
	if !m.known || m.text != fmtText {
		m.text, m.hit, m.known = fmtText, strings.Contains(fmtText, t.val), true
	}
	return m.hit
}

// word is a word term's tier in a text of a role, from the cache when it
// has it.
func (c *matchCache) word(t *term, ti, role int, x text) int {
	if c == nil || x.id < 0 || ti >= len(c.c) {
		return wordTier(t, x.p, role)
	}
	tab := c.c[ti][role]
	if int(x.id) < len(tab) {
		if v := tab[x.id]; v == noHit {
			return -1
		} else if v != 0 {
			return int(v) - 1
		}
	}
	return c.cached(ti, role, x, func(p *prep) int { return wordTier(t, p, role) })
}

// wordTier is a word term's tier in one prepared text: a name, title or
// mode is searched folded and by its initials, a code or character
// without spaces (a code's initials mean nothing).
func wordTier(t *term, p *prep, role int) int {
	w := t.val
	for _, x := range p.words {
		if x == w {
			return 0
		}
	}
	sub, inits := p.fold, true
	switch role {
	case roleCode:
		sub, inits = p.tight, false
	case roleChar:
		sub = p.tight
	}
	if strings.Contains(sub, w) {
		return 1
	}
	if inits && len(w) >= 2 && strings.HasPrefix(p.inits, w) {
		return 2
	}
	if t.runes >= 4 {
		for _, x := range p.words {
			if withinEdits(w, x, t.edits) {
				return 3
			}
		}
	}
	return -1
}

// fileTier is a word term's tier in a file name's words (a text made per
// row, so not cached), looked for only as far as it could beat best, the
// row's tier so far (-1: none): after a part of a player's name, only a
// whole word in the file name counts.
func fileTier(t *term, file string, best int) int {
	w := t.val
	if best < 0 {
		best = 4
	}
	if i := strings.Index(file, w); i >= 0 {
		// a whole word?
		for j := i; ; {
			end := j + len(w)
			if (j == 0 || file[j-1] == ' ') && (end == len(file) || file[end] == ' ') {
				return 0
			}
			k := strings.Index(file[j+1:], w)
			if k < 0 {
				return 1
			}
			j += 1 + k
		}
	}
	if best <= 2 {
		return -1
	}
	if len(w) >= 2 && strings.IndexByte(file, ' ') >= 0 && initialsHave(file, w) {
		return 2
	}
	if best <= 3 || t.runes < 4 || !misspelt(t, file) {
		return -1
	}
	return 3
}

// misspelt reports whether a word of a file text is a misspelling of a
// word term: the one test a row that matches nothing pays for every word
// of its file name, so ASCII words are first ruled out by their length
// and by the letters one has and the other lacks (letterMask), before
// the edits are counted.
func misspelt(t *term, file string) bool {
	w, k := t.val, t.edits
	for rest := file; rest != ""; {
		x := rest
		if j := strings.IndexByte(rest, ' '); j >= 0 {
			x, rest = rest[:j], rest[j+1:]
		} else {
			rest = ""
		}
		// most words are ruled out by their length in bytes alone (a
		// rune's edit changes it by at most utf8.UTFMax)
		if d := len(x) - len(w); d > k*utf8.UTFMax || -d > k*utf8.UTFMax {
			continue
		}
		high, mask := false, uint64(0)
		for j := 0; j < len(x); j++ {
			high = high || x[j] >= utf8.RuneSelf
			mask |= 1 << (x[j] & 63)
		}
		if high || !t.ascii {
			if withinEdits(w, x, k) {
				return true
			}
			continue
		}
		// an edit takes away at most one letter and brings at most one
		if d := len(x) - len(w); d > k || -d > k ||
			bits.OnesCount64(t.mask&^mask) > k || bits.OnesCount64(mask&^t.mask) > k {
			continue
		}
		if bagDistance(w, x) <= k && osaWithin([]byte(w), []byte(x), k) {
			return true
		}
	}
	return false
}

// letterMask is the set of bytes of an ASCII word, folded onto 64 bits: two
// bytes may share a bit, which only lets more words through to the count.
func letterMask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		m |= 1 << (s[i] & 63)
	}
	return m
}

// initialsHave reports whether the initials of the words of s (one space
// apart) start with w.
func initialsHave(s, w string) bool {
	at := 0 // bytes of w matched
	for i := 0; i < len(s) && at < len(w); {
		_, size := utf8.DecodeRuneInString(s[i:])
		if s[i:i+size] != w[at:min(at+size, len(w))] {
			return false
		}
		at += size
		k := strings.IndexByte(s[i:], ' ')
		if k < 0 {
			break
		}
		i += k + 1
	}
	return at >= len(w)
}

// withinEdits reports whether a and b are at most k edits apart
// (insertions, deletions, substitutions, swaps of neighbours), in runes.
func withinEdits(a, b string, k int) bool {
	if d := len(a) - len(b); d > k*utf8.UTFMax || -d > k*utf8.UTFMax {
		return false
	}
	if asciiOnly(a) && asciiOnly(b) {
		// the usual case, a file name's words: bytes are runes, and most
		// words are ruled out by their letters alone
		if d := len(a) - len(b); d > k || -d > k || bagDistance(a, b) > k {
			return false
		}
		return osaWithin([]byte(a), []byte(b), k)
	}
	// runes on the stack for the usual short words
	var ba, bb [48]rune
	ra, rb := toRunes(a, ba[:0]), toRunes(b, bb[:0])
	if d := len(ra) - len(rb); d > k || -d > k {
		return false
	}
	return osaWithin(ra, rb, k)
}

func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// bagDistance is a lower bound of the edits between two ASCII words: the
// letters one has that the other lacks, the larger count of the two sides.
// No edit changes that by more than one and a swap not at all.
func bagDistance(a, b string) int {
	var count [utf8.RuneSelf]int8
	for i := 0; i < len(a); i++ {
		count[a[i]]++
	}
	for i := 0; i < len(b); i++ {
		count[b[i]]--
	}
	more, fewer := 0, 0
	for i := 0; i < len(a); i++ {
		if c := count[a[i]]; c > 0 {
			more += int(c)
			count[a[i]] = 0
		}
	}
	for i := 0; i < len(b); i++ {
		if c := count[b[i]]; c < 0 {
			fewer -= int(c)
			count[b[i]] = 0
		}
	}
	return max(more, fewer)
}

// osaWithin is withinEdits over runes or bytes: Damerau-Levenshtein
// (optimal string alignment) over three rows, stopped once a row is past k.
func osaWithin[T rune | byte](ra, rb []T, k int) bool {
	var r0, r1, r2 [49]int
	prev2, prev, cur := r0[:0], r1[:0], r2[:0]
	if len(rb)+1 > len(r0) {
		prev2, prev, cur = make([]int, 0, len(rb)+1), make([]int, 0, len(rb)+1), make([]int, 0, len(rb)+1)
	}
	prev2, prev, cur = prev2[:len(rb)+1], prev[:len(rb)+1], cur[:len(rb)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > k {
			return false
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)] <= k
}

func toRunes(s string, buf []rune) []rune {
	for _, r := range s {
		buf = append(buf, r)
	}
	return buf
}
