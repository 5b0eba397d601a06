package library

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"rewind/decoders"
	"rewind/model"
)

// QueryHelp documents the query language, for `rewind find --help`, the
// browser's ? screen and the README; the formats come from the registry.
var QueryHelp = strings.NewReplacer("FORMATS\n", formatHelp(), "CHARWORDS", wordsOf(charWords(), ", "),
	"TITLEWORDS", wordsOf(titleWords(), ", "), "CHARKEYS", keyList(charWords()), "TITLEKEYS", keyList(titleWords())).Replace(queryHelp)

const queryHelp = `All terms must hold; -term negates one; "quote values with spaces".
  word               a player, code, character, title, mode or file name
                     with the word; a close misspelling or the initials
                     (fd: Final Destination) match too, ranked lower
FORMATS
  player:NAME        a player's name holds NAME (also name:)
  code:ABCD#123      a connect code, toon handle or player id holds it
  @me                you played: one of the identities in the config's
                     me (also player:@me)
  winner:X loser:X   X won or lost, by the game's own result (a team's
                     players with their team; quitting, as Slippi's LRAS,
                     loses); X is a code, name, character or @me
  is:win, is:loss    winner:@me, loser:@me
  char:fox           a CHARWORDS starts with it
                     (also CHARKEYS)
  title:"final d"    the TITLEWORDS holds it
                     (also TITLEKEYS)
  mode:ranked        the mode holds it
  result:"no cont"   how the game ended holds it
  file:corrupt       the file name holds it
  fox>marth          one player is Fox and another Marth, not on one
                     team, either order; > means versus, not who won;
                     a side is a character or part of a player's name
  date:>=2024-01-01  =, <, <=, >, >= a year, month or day, or a range
                     2024-01..2024-03 (both ends whole); in the time
                     zone the file gives
  len:>5m            length of play: 90s, 5m, 1h30m or 1:30; len:5m is
                     5:00 to 5:59; a range 3m..4m ends at 4:00
  size:>10mb         file size in b, kb, mb or gb
  problems:>0        problems known: a full check's count, else the
                     header's; an unreadable file counts one
  checked:no         whether a full check has run (yes or no)
Moment terms choose the moments rewind moments lists (replay terms still
choose the replays):
  kind:combo         the moment's kind: stock, kill, conversion, combo,
                     build, train, research (upgrade), miss, badcut, ...
  damage:>=40        damage dealt (Melee percent); hits:>=5 moves that hit
  kill, -kill        the punish ended in a kill, or did not
  by:fox on:marth    who did it and to whom: character, name, code or @me
  move:upsmash       the last or killing move, the unit built
  start:>90          the victim's percent when it started`

// QueryError is a mistake in a query, with the column (1-based, in
// characters) where it is.
type QueryError struct {
	Col int
	Msg string
}

func (e *QueryError) Error() string { return fmt.Sprintf("query column %d: %s", e.Col, e.Msg) }

// Query is a parsed filter: every term must hold.
type Query struct {
	Text  string
	terms []term
	// moments are the terms about moments (kind:combo damage:>=40): they
	// choose the moments `rewind moments` lists, not the replays
	moments []term
}

type termKind int

const (
	tWord termKind = iota
	tFormat
	tPlayer
	tCode
	tChar
	tTitle
	tMode
	tResult
	tFile
	tMatchup
	tDate
	tLen
	tSize
	tProblems
	tChecked
	// the first person (me.go)
	tMe     // @me: one of the player's identities played
	tWinner // winner:X, is:win
	tLoser  // loser:X, is:loss
	tIs     // is:win or is:loss, parsed into tWinner or tLoser
	// moment terms (momentquery.go): they choose moments, not replays
	tKind
	tDamage
	tHits
	tKill
	tBy
	tOn
	tMove
	tStart
)

// keys are the terms' names; the words the formats call their titles and
// characters ("stage", "song", "race", "machine") are added from the
// registry, so a format brings its own.
var keys = func() map[string]termKind {
	k := map[string]termKind{
		"format": tFormat, "player": tPlayer, "name": tPlayer, "code": tCode,
		"char": tChar, "character": tChar, "title": tTitle,
		"mode": tMode, "result": tResult, "file": tFile,
		"date": tDate, "len": tLen, "length": tLen, "duration": tLen, "size": tSize,
		"problems": tProblems, "checked": tChecked,
		"winner": tWinner, "loser": tLoser, "is": tIs,
		"kind": tKind, "damage": tDamage, "hits": tHits, "by": tBy, "on": tOn, "move": tMove, "start": tStart,
	}
	for _, w := range titleWords() {
		if _, taken := k[w]; !taken {
			k[w] = tTitle
		}
	}
	for _, w := range charWords() {
		if _, taken := k[w]; !taken {
			k[w] = tChar
		}
	}
	return k
}()

// titleWords are what the formats call their titles, each once, in
// registry order: stage, song, map, course, beatmap.
func titleWords() []string {
	var out []string
	for _, f := range decoders.Formats {
		if f.Title != "" && !slices.Contains(out, f.Title) {
			out = append(out, f.Title)
		}
	}
	return out
}

// charWords are what the formats call their players' characters.
func charWords() []string {
	out := []string{"character"}
	for _, f := range decoders.Formats {
		if f.Character != "" && !slices.Contains(out, f.Character) {
			out = append(out, f.Character)
		}
	}
	return out
}

// wordsOf joins words for a sentence: "stage, song, map or course".
func wordsOf(ws []string, sep string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], sep) + " or " + ws[len(ws)-1]
}

// keyList is the words as terms: "stage:, song:, map:".
func keyList(ws []string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w + ":"
	}
	return strings.Join(out, ", ")
}

type term struct {
	kind    termKind
	neg     bool
	col     int
	text    string // the value as typed (for highlighting)
	val     string // folded value
	sides   [2]string
	formats map[model.Format]bool
	lo, hi  int64 // [lo, hi) for date (wall-clock unix seconds), len (ns), size, problems
	yes     bool
	// word terms: the value's length in runes, the edits a misspelling of
	// it may have, and whether it is ASCII and its letterMask
	runes, edits int
	ascii        bool
	mask         uint64
	// moment terms: the kinds of kind:, the [flo, fhi) of damage:, hits:
	// and start:
	kinds    map[model.MomentKind]bool
	flo, fhi float64
	// @me, and winner:, loser:, by: and on: with @me: the identities
	me []string
}

// ParseQuery parses a query once; Match then runs on each row.
func ParseQuery(s string) (*Query, error) {
	q := &Query{Text: s}
	toks, err := tokenize(s)
	if err != nil {
		return nil, err
	}
	for _, tk := range toks {
		t, err := parseTerm(tk)
		if err != nil {
			return nil, err
		}
		if t.kind >= tKind {
			q.moments = append(q.moments, t)
			continue
		}
		q.terms = append(q.terms, t)
	}
	return q, nil
}

// token is one whitespace-separated piece, quotes removed; raw keeps the
// structure characters (: and >) that were outside quotes, marked by their
// positions.
type token struct {
	col    int    // 1-based column of its first character
	text   string // unquoted text
	cols   []int  // column of each byte of text
	quoted []bool // whether each byte of text came from inside quotes
}

func tokenize(s string) ([]token, error) {
	var out []token
	col := 0
	var cur *token
	inQuote, quoteCol := false, 0
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		col++
		switch {
		case r == '"':
			if cur == nil {
				out = append(out, token{col: col})
				cur = &out[len(out)-1]
			}
			inQuote = !inQuote
			quoteCol = col
		case unicode.IsSpace(r) && !inQuote:
			cur = nil
		default:
			if cur == nil {
				out = append(out, token{col: col})
				cur = &out[len(out)-1]
			}
			for range size {
				cur.cols = append(cur.cols, col)
				cur.quoted = append(cur.quoted, inQuote)
			}
			cur.text += s[i : i+size]
		}
	}
	if inQuote {
		return nil, &QueryError{Col: quoteCol, Msg: `this quote is not closed`}
	}
	return out, nil
}

// at is the column of byte i of the token's text (the end when past it).
func (tk token) at(i int) int {
	if i < len(tk.cols) {
		return tk.cols[i]
	}
	if len(tk.cols) > 0 {
		return tk.cols[len(tk.cols)-1] + 1
	}
	return tk.col
}

// find returns the first unquoted c in the token's text from byte i.
func (tk token) find(c byte, from int) int {
	for i := from; i < len(tk.text); i++ {
		if tk.text[i] == c && !tk.quoted[i] {
			return i
		}
	}
	return -1
}

func parseTerm(tk token) (term, error) {
	t := term{col: tk.col}
	text, off := tk.text, 0
	if len(text) > 1 && text[0] == '-' && !tk.quoted[0] {
		t.neg = true
		off = 1
	}
	if c := tk.find(':', off); c > off {
		key := strings.ToLower(text[off:c])
		kind, ok := keys[key]
		if !ok {
			return t, &QueryError{Col: tk.at(off), Msg: fmt.Sprintf("%q is not a term; terms are %s", key+":", termNames())}
		}
		t.kind = kind
		v := text[c+1:]
		if v == "" {
			return t, &QueryError{Col: tk.at(c + 1), Msg: fmt.Sprintf("%s: needs a value", key)}
		}
		return t, t.value(key, v, tk, c+1)
	}
	if g := tk.find('>', off); g >= 0 {
		a, b := text[off:g], text[g+1:]
		if a == "" || b == "" || tk.find('>', g+1) >= 0 {
			return t, &QueryError{Col: tk.at(g), Msg: "a matchup is two sides joined by >: fox>marth"}
		}
		t.kind, t.text = tMatchup, a+">"+b
		t.sides = [2]string{tight(a), tight(b)}
		if t.sides[0] == "" || t.sides[1] == "" {
			return t, &QueryError{Col: tk.at(off), Msg: "a matchup side needs letters or digits"}
		}
		return t, nil
	}
	if strings.EqualFold(text[off:], "kill") {
		t.kind, t.text, t.yes = tKill, text[off:], true
		return t, nil
	}
	if strings.EqualFold(text[off:], "@me") && !tk.quoted[off] {
		t.kind, t.text = tMe, text[off:]
		return t, t.setMe(tk.at(off))
	}
	t.kind, t.text, t.val = tWord, text[off:], fold(text[off:])
	if t.val == "" {
		return t, &QueryError{Col: tk.at(off), Msg: fmt.Sprintf("%q has no letters or digits to look for", text[off:])}
	}
	// a misspelling of a word of 4 runes or more matches: one edit, two
	// from 8 runes
	t.runes, t.edits = utf8.RuneCountInString(t.val), 1
	if t.runes >= 8 {
		t.edits = 2
	}
	t.ascii, t.mask = asciiOnly(t.val), letterMask(t.val)
	return t, nil
}

// formatHelp is the format: line of QueryHelp: every id, then an alias of
// each, wrapped to the help's width.
func formatHelp() string {
	var words []string
	for i, f := range decoders.Formats {
		w := string(f.ID)
		if i < len(decoders.Formats)-1 {
			w += ","
		} else {
			w += ";"
		}
		words = append(words, w)
	}
	words = append(words, "also")
	for _, f := range decoders.Formats {
		if len(f.Aliases) > 0 {
			words = append(words, f.Aliases[0]+",")
		}
	}
	words = append(words, "or", "an", "extension")
	var b strings.Builder
	line := "  format:" + string(decoders.Formats[0].ID)
	line += strings.Repeat(" ", max(1, 21-len(line)))
	n := 0
	for _, w := range words {
		if n > 0 && len(line)+1+len(w) > 74 {
			b.WriteString(line + "\n")
			line, n = strings.Repeat(" ", 21), 0
		}
		if n > 0 {
			line += " "
		}
		line += w
		n++
	}
	b.WriteString(line + "\n")
	return b.String()
}

// formatIDs lists the formats' ids for a sentence: "slippi, bsor, sc2".
func formatIDs() string {
	ids := make([]string, len(decoders.Formats))
	for i, f := range decoders.Formats {
		ids[i] = string(f.ID)
	}
	return strings.Join(ids, ", ")
}

func termNames() string {
	return "format, player/name, code, char, stage/map/song/course, mode, result, winner, loser, is, file, date, len, size, problems, checked; for moments kind, damage, hits, by, on, move, start (and kill)"
}

// value parses a keyed term's value; at is where it starts in the token.
func (t *term) value(key, v string, tk token, at int) error {
	col := tk.at(at)
	bad := func(format string, a ...any) error { return &QueryError{Col: col, Msg: fmt.Sprintf(format, a...)} }
	t.text = v
	switch t.kind {
	case tFormat:
		t.formats = formatsNamed(tight(v))
		if len(t.formats) == 0 {
			return bad("format %q is none of %s", v, formatIDs())
		}
	case tBy, tOn:
		if strings.EqualFold(v, "@me") {
			return t.setMe(col)
		}
		if msg := t.momentValue(v); msg != "" {
			return bad("%s", msg)
		}
	case tKind, tDamage, tHits, tMove, tStart:
		if msg := t.momentValue(v); msg != "" {
			return bad("%s", msg)
		}
	case tWinner, tLoser, tIs:
		return t.outcomeValue(key, v, col)
	case tPlayer, tCode:
		if strings.EqualFold(v, "@me") {
			t.kind = tMe
			return t.setMe(col)
		}
		t.val = fold(v)
		if t.kind == tCode {
			t.val = tight(v)
		}
		if t.val == "" {
			return bad("%q has no letters or digits to look for", v)
		}
	case tChecked:
		switch strings.ToLower(v) {
		case "yes", "y", "true", "1":
			t.yes = true
		case "no", "n", "false", "0":
		default:
			return bad("checked: is yes or no, not %q", v)
		}
	case tDate, tLen, tSize, tProblems:
		lo, hi, err := t.bounds(v)
		if err != nil {
			return &QueryError{Col: col + err.off, Msg: key + ": " + err.msg}
		}
		t.lo, t.hi = lo, hi
	default:
		t.val = fold(v)
		if t.kind == tCode || t.kind == tChar {
			t.val = tight(v)
		}
		if t.val == "" {
			return bad("%q has no letters or digits to look for", v)
		}
	}
	return nil
}

type valueError struct {
	off int // characters into the value
	msg string
}

const (
	minInt = -1 << 63
	maxInt = 1<<63 - 1
)

// bounds turns a comparison or a range into [lo, hi).
func (t *term) bounds(v string) (lo, hi int64, ve *valueError) {
	if i := strings.Index(v, ".."); i >= 0 {
		a, b := v[:i], v[i+2:]
		var alo, bhi int64 = minInt, maxInt
		if a != "" {
			l, _, err := t.point(a)
			if err != nil {
				return 0, 0, err
			}
			alo = l
		}
		if b != "" {
			l, h, err := t.point(b)
			if err != nil {
				err.off += utf8.RuneCountInString(v[:i+2])
				return 0, 0, err
			}
			bhi = h // a date range takes in its last day, month or year
			if t.kind != tDate {
				bhi = l + 1 // 3m..4m ends at 4:00
			}
		}
		if a == "" && b == "" {
			return 0, 0, &valueError{0, "a range needs at least one end: 2024-01..2024-03"}
		}
		if alo >= bhi {
			return 0, 0, &valueError{0, "the range is empty: its start is after its end"}
		}
		return alo, bhi, nil
	}
	op := ""
	for _, o := range []string{">=", "<=", ">", "<", "="} {
		if strings.HasPrefix(v, o) {
			op = o
			break
		}
	}
	l, h, err := t.point(v[len(op):])
	if err != nil {
		err.off += len(op)
		return 0, 0, err
	}
	hi = h
	if t.kind != tDate {
		// a length, size or count compares as the exact value; only
		// equality covers its unit (len:5m is 5:00 to 5:59)
		h = l + 1
	}
	switch op {
	case ">=":
		return l, maxInt, nil
	case ">":
		return h, maxInt, nil
	case "<=":
		return minInt, h, nil
	case "<":
		return minInt, l, nil
	}
	return l, hi, nil
}

// point parses one value into the span it names: a day is [midnight, next
// midnight), 5m is [5:00, 6:00), 3 problems is [3, 4).
func (t *term) point(s string) (lo, hi int64, ve *valueError) {
	if s == "" {
		return 0, 0, &valueError{0, "a value is missing after the comparison"}
	}
	switch t.kind {
	case tDate:
		for _, f := range []struct {
			layout string
			next   func(time.Time) time.Time
		}{
			{"2006-01-02T15:04", func(d time.Time) time.Time { return d.Add(time.Minute) }},
			{"2006-01-02", func(d time.Time) time.Time { return d.AddDate(0, 0, 1) }},
			{"2006-01", func(d time.Time) time.Time { return d.AddDate(0, 1, 0) }},
			{"2006", func(d time.Time) time.Time { return d.AddDate(1, 0, 0) }},
		} {
			if d, err := time.Parse(f.layout, s); err == nil {
				return d.Unix(), f.next(d).Unix(), nil
			}
		}
		return 0, 0, &valueError{0, fmt.Sprintf("%q is not a date: write 2024, 2024-03 or 2024-03-15", s)}
	case tLen:
		d, unit, ok := parseLength(s)
		if !ok {
			return 0, 0, &valueError{0, fmt.Sprintf("%q is not a length: write 90s, 5m, 1h30m or 1:30", s)}
		}
		return int64(d), int64(d + unit), nil
	case tSize:
		n, unit, ok := parseSize(s)
		if !ok {
			return 0, 0, &valueError{0, fmt.Sprintf("%q is not a size: write 500kb, 10mb or 1gb", s)}
		}
		return n, n + unit, nil
	default: // problems
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || n < 0 {
			return 0, 0, &valueError{0, fmt.Sprintf("%q is not a count", s)}
		}
		return n, n + 1, nil
	}
}

// parseLength reads 90s, 5m, 1h30m, 1:30 or 1:02:03; unit is the
// smallest unit written, the span an equality covers.
func parseLength(s string) (d, unit time.Duration, ok bool) {
	if strings.Contains(s, ":") {
		parts := strings.Split(s, ":")
		if len(parts) > 3 {
			return 0, 0, false
		}
		for _, p := range parts {
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || len(p) == 0 {
				return 0, 0, false
			}
			d = d*60 + time.Duration(n)*time.Second
		}
		return d, time.Second, true
	}
	if s == "" || (s[0] < '0' || s[0] > '9') {
		return 0, 0, false
	}
	rest := s
	for rest != "" {
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.') {
			i++
		}
		if i == 0 || i == len(rest) {
			return 0, 0, false
		}
		n, err := strconv.ParseFloat(rest[:i], 64)
		if err != nil {
			return 0, 0, false
		}
		rest = rest[i:]
		j := 0
		for j < len(rest) && unicode.IsLetter(rune(rest[j])) {
			j++
		}
		switch strings.ToLower(rest[:j]) {
		case "h", "hr", "hrs", "hour", "hours":
			unit = time.Hour
		case "m", "min", "mins", "minute", "minutes":
			unit = time.Minute
		case "s", "sec", "secs", "second", "seconds":
			unit = time.Second
		default:
			return 0, 0, false
		}
		d += time.Duration(n * float64(unit))
		rest = rest[j:]
	}
	return d, unit, true
}

func parseSize(s string) (n, unit int64, ok bool) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == 0 {
		return 0, 0, false
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, 0, false
	}
	switch strings.ToLower(s[i:]) {
	case "", "b":
		unit = 1
	case "k", "kb", "kib":
		unit = 1 << 10
	case "m", "mb", "mib":
		unit = 1 << 20
	case "g", "gb", "gib":
		unit = 1 << 30
	default:
		return 0, 0, false
	}
	return int64(f * float64(unit)), unit, true
}

// formatsNamed maps a folded name to the formats it names: the id, an
// extension, a word of the format's name, or one of its aliases.
func formatsNamed(v string) map[model.Format]bool {
	out := map[model.Format]bool{}
	for _, f := range decoders.Formats {
		names := append([]string{string(f.ID)}, f.Aliases...)
		for _, e := range f.Exts {
			names = append(names, strings.TrimPrefix(e, "."))
		}
		names = append(names, tokens(f.Name)...)
		names = append(names, f.Name)
		for _, n := range names {
			if tight(n) == v {
				out[f.ID] = true
			}
		}
	}
	return out
}

// Empty reports whether the query has no terms (every row matches).
func (q *Query) Empty() bool { return q == nil || len(q.terms) == 0 }

// NeedsCheck reports whether the query asks about problems or checks, so
// an answer needs full decodes of the files not yet checked.
func (q *Query) NeedsCheck() bool {
	if q == nil {
		return false
	}
	for _, t := range q.terms {
		if t.kind == tProblems || t.kind == tChecked {
			return true
		}
	}
	return false
}

// HasWords reports whether the query has plain words, whose matches are
// ranked.
func (q *Query) HasWords() bool {
	if q == nil {
		return false
	}
	for _, t := range q.terms {
		if t.kind == tWord && !t.neg {
			return true
		}
	}
	return false
}

// Marks are the texts a view highlights where a row shows them: the plain
// words and the values of name-like terms, as typed.
func (q *Query) Marks() []string {
	if q == nil {
		return nil
	}
	var out []string
	for _, t := range q.terms {
		if t.neg {
			continue
		}
		switch t.kind {
		case tWord, tPlayer, tCode, tChar, tTitle, tMode, tResult, tFile:
			out = append(out, t.text)
		case tMatchup:
			a, b, _ := strings.Cut(t.text, ">")
			out = append(out, a, b)
		}
	}
	return out
}
