package library

import (
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
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

// Doc is a header prepared for matching: every text folded once.
type Doc struct {
	H *Header

	names, teams              []string
	codes, chars              []string // without spaces: ABCD#123 is abcd123
	charInits                 []string // initials of each character's words
	title, mode, result, file string
	titleInits                string // fd: Final Destination
	format                    string
	// words are the tokens of the names, characters, title, mode and file
	// name, for whole-word matches and misspellings; inits are the
	// initials of the multi-word texts among them.
	words []string
	inits []string
	start int64 // wall-clock time of play as unix seconds, as if in UTC
}

// NewDoc prepares h for queries. The Doc keeps h.
func NewDoc(h *Header) *Doc {
	d := &Doc{H: h}
	base := strings.TrimSuffix(filepath.Base(h.Path), filepath.Ext(h.Path))
	d.title, d.mode, d.result = fold(h.Title), fold(h.Mode), fold(h.Result)
	d.file = strings.Join(fileTokens(base), " ")
	d.format = fold(string(h.Format) + " " + h.FormatName)
	add := func(ts []string) {
		d.words = append(d.words, ts...)
		if len(ts) > 1 {
			var b strings.Builder
			for _, t := range ts {
				r, _ := utf8.DecodeRuneInString(t)
				b.WriteRune(r)
			}
			d.inits = append(d.inits, b.String())
		}
	}
	for _, p := range h.Players {
		d.names = append(d.names, fold(p.Name))
		d.codes = append(d.codes, tight(p.Code))
		d.chars = append(d.chars, tight(p.Character))
		d.teams = append(d.teams, p.Team)
		var b strings.Builder
		for _, t := range tokens(p.Character) {
			r, _ := utf8.DecodeRuneInString(t)
			b.WriteRune(r)
		}
		d.charInits = append(d.charInits, b.String())
		add(tokens(p.Name))
		add(tokens(p.Character))
		d.words = append(d.words, tokens(p.Code)...)
	}
	add(tokens(h.Title))
	d.titleInits = initialsOf(h.Title)
	add(tokens(h.Mode))
	add(fileTokens(base))
	if !h.Start.IsZero() {
		y, m, day := h.Start.Date()
		hh, mm, ss := h.Start.Clock()
		d.start = time.Date(y, m, day, hh, mm, ss, 0, time.UTC).Unix()
	}
	return d
}

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
	for i := range q.terms {
		t := &q.terms[i]
		hit, tr := t.match(d)
		if hit == t.neg {
			return false, 0
		}
		if t.kind == tWord && !t.neg {
			tier = max(tier, tr)
		}
	}
	return true, tier
}

func (t *term) match(d *Doc) (bool, int) {
	h := d.H
	switch t.kind {
	case tWord:
		return wordMatch(t.val, d)
	case tFormat:
		return t.formats[h.Format], 0
	case tPlayer:
		return anyContains(d.names, t.val), 0
	case tCode:
		return anyContains(d.codes, t.val), 0
	case tChar:
		for i := range d.chars {
			if charIs(d, i, t.val) {
				return true, 0
			}
		}
		return false, 0
	case tTitle:
		return strings.Contains(d.title, t.val) || len(t.val) >= 2 && len(d.titleInits) >= 2 && strings.HasPrefix(d.titleInits, t.val), 0
	case tMode:
		return strings.Contains(d.mode, t.val), 0
	case tResult:
		return strings.Contains(d.result, t.val), 0
	case tFile:
		return strings.Contains(d.file, t.val), 0
	case tMatchup:
		return matchup(d, t.sides[0], t.sides[1]), 0
	case tDate:
		return !h.Start.IsZero() && d.start >= t.lo && d.start < t.hi, 0
	case tLen:
		return h.Duration > 0 && int64(h.Duration) >= t.lo && int64(h.Duration) < t.hi, 0
	case tSize:
		return h.Size >= t.lo && h.Size < t.hi, 0
	case tProblems:
		n := int64(h.ProblemCount())
		return n >= t.lo && n < t.hi, 0
	case tChecked:
		return h.Checked() == t.yes, 0
	}
	return false, 0
}

func initialsOf(s string) string {
	var b strings.Builder
	for _, t := range tokens(s) {
		r, _ := utf8.DecodeRuneInString(t)
		b.WriteRune(r)
	}
	return b.String()
}

func anyContains(list []string, v string) bool {
	for _, s := range list {
		if strings.Contains(s, v) {
			return true
		}
	}
	return false
}

func prefixOfAny(list []string, v string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, v) {
			return true
		}
	}
	return false
}

// charIs reports whether player i's character is v: its name starts with
// v, or, for a name of several words, its initials do (ic: Ice Climbers).
func charIs(d *Doc, i int, v string) bool {
	c := d.chars[i]
	return c != "" && (strings.HasPrefix(c, v) || len(v) >= 2 && len(d.charInits[i]) >= 2 && strings.HasPrefix(d.charInits[i], v))
}

// side reports whether player i is what a matchup side names: a character
// (as char: reads it) or a player whose name holds it.
func side(d *Doc, i int, v string) bool {
	return charIs(d, i, v) || len(v) >= 3 && strings.Contains(d.names[i], v)
}

// matchup looks for two players, one per side, not on the same team.
func matchup(d *Doc, a, b string) bool {
	for i := range d.chars {
		if !side(d, i, a) {
			continue
		}
		for j := range d.chars {
			if i == j || !side(d, j, b) {
				continue
			}
			if d.teams[i] != "" && d.teams[i] == d.teams[j] {
				continue
			}
			return true
		}
	}
	return false
}

// wordMatch finds a plain word in the document's texts, best tier first.
func wordMatch(w string, d *Doc) (bool, int) {
	for _, t := range d.words {
		if t == w {
			return true, 0
		}
	}
	for _, s := range [][]string{d.names, d.codes, d.chars} {
		if anyContains(s, w) {
			return true, 1
		}
	}
	if strings.Contains(d.title, w) || strings.Contains(d.mode, w) || strings.Contains(d.file, w) || strings.Contains(d.format, w) {
		return true, 1
	}
	if len(w) >= 2 && prefixOfAny(d.inits, w) {
		return true, 2
	}
	if n := utf8.RuneCountInString(w); n >= 4 {
		limit := 1
		if n >= 8 {
			limit = 2
		}
		for _, t := range d.words {
			if withinEdits(w, t, limit) {
				return true, 3
			}
		}
	}
	return false, 0
}

// withinEdits reports whether a and b are at most k edits apart
// (insertions, deletions, substitutions, swaps of neighbours), in runes.
func withinEdits(a, b string, k int) bool {
	if d := len(a) - len(b); d > k*utf8.UTFMax || -d > k*utf8.UTFMax {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > k || -d > k {
		return false
	}
	// Damerau-Levenshtein (optimal string alignment) over three rows
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
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
