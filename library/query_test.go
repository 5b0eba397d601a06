package library

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"rewind/model"
)

func TestParseQueryErrors(t *testing.T) {
	for _, c := range []struct {
		q    string
		col  int
		want string // part of the message
	}{
		{`foo:bar`, 1, `"foo:" is not a term`},
		{`fox -colour:red`, 6, `"colour:" is not a term`},
		{`player:`, 8, "needs a value"},
		{`stage:"final dest`, 7, "quote is not closed"},
		{`date:2024-13-01`, 6, "not a date"},
		{`date:>=20x4`, 8, "not a date"},
		{`date:2024-01..2023-01`, 6, "range is empty"},
		{`date:2024-01..nope`, 15, "not a date"},
		{`date:..`, 6, "at least one end"},
		{`len:>5`, 6, "not a length"},
		{`len:5 minutes`, 5, "not a length"},
		{`len:1.5:20`, 5, "not a length"},
		{`size:10tb`, 6, "not a size"},
		{`problems:>some`, 11, "not a count"},
		{`problems:<`, 11, "value is missing"},
		{`format:n64`, 8, "none of slippi"},
		{`checked:maybe`, 9, "yes or no"},
		{`fox>`, 4, "matchup"},
		{`>marth`, 1, "matchup"},
		{`fox>marth>sheik`, 4, "matchup"},
		{`a b "#"`, 6, "no letters or digits"},
		{`é:1`, 1, `"é:" is not a term`},
		{`ääh date:x`, 10, "not a date"},
	} {
		_, err := ParseQuery(c.q)
		var qe *QueryError
		if !errors.As(err, &qe) {
			t.Errorf("%q: error %v, want a QueryError", c.q, err)
			continue
		}
		if qe.Col != c.col || !strings.Contains(qe.Msg, c.want) {
			t.Errorf("%q: column %d %q, want column %d and %q", c.q, qe.Col, qe.Msg, c.col, c.want)
		}
	}
}

func TestParseQuery(t *testing.T) {
	for _, c := range []struct {
		q     string
		n     int
		check bool
		words bool
	}{
		{``, 0, false, false},
		{`   `, 0, false, false},
		{`serral`, 1, false, true},
		{`-serral`, 1, false, false},
		{`player:"Mang 0" char:fox`, 2, false, false},
		{`"final destination"`, 1, false, true},
		{`fox>marth date:2024-01-01..2024-02 len:>5m problems:>0`, 4, true, false},
		{`checked:no`, 1, true, false},
		{`FORMAT:SC2 Race:zerg`, 2, false, false},
		{`"a:b"`, 1, false, true},           // quoted: a word, not a term
		{`code:"abc>def"`, 1, false, false}, // quoted: not a matchup
		{`-`, 1, false, true},
	} {
		q, err := ParseQuery(c.q)
		if c.q == "-" {
			// a lone dash is a word with no letters
			if err == nil {
				t.Errorf("%q: no error", c.q)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if len(q.terms) != c.n || q.NeedsCheck() != c.check || q.HasWords() != c.words {
			t.Errorf("%q: %d terms, check %v, words %v", c.q, len(q.terms), q.NeedsCheck(), q.HasWords())
		}
	}
}

// docs builds headers of every format with what their real files hold.
func queryDocs() map[string]*Doc {
	day := func(y int, m time.Month, d, hh int) time.Time { return time.Date(y, m, d, hh, 0, 0, 0, time.UTC) }
	hs := map[string]*Header{
		"online": {Path: "slp/Game_20230101T120000.slp", Format: model.Format("slippi"), FormatName: "Slippi replay",
			Start: day(2023, 1, 1, 12), Title: "Final Destination", Mode: "online ranked", Duration: 8*time.Minute + 2*time.Second, Size: 4 << 20,
			Players: []Player{{Slot: "P1", Name: "Mang0", Code: "MANG#0", Character: "Fox", Team: ""}, {Slot: "P2", Name: "Zain", Code: "ZAIN#0", Character: "Marth"}}},
		"ics": {Path: "slp/tests__data__ics.slp", Format: model.Format("slippi"), FormatName: "Slippi replay",
			Start: day(2020, 5, 3, 23), Title: "Pokémon Stadium", Duration: 90 * time.Second, Size: 900 << 10,
			Players: []Player{{Slot: "P1", Character: "Ice Climbers"}, {Slot: "P2", Character: "Jigglypuff"}}},
		"teams": {Path: "slp/doubles.slp", Format: model.Format("slippi"), Title: "Battlefield", Duration: 3 * time.Minute,
			Players: []Player{{Slot: "P1", Character: "Fox", Team: "red"}, {Slot: "P2", Character: "Marth", Team: "red"},
				{Slot: "P3", Character: "Sheik", Team: "blue"}, {Slot: "P4", Character: "Peach", Team: "blue"}}},
		"sc2": {Path: "sc2/serral_vs_clem.SC2Replay", Format: model.Format("sc2"), FormatName: "StarCraft II replay",
			Start: time.Date(2024, 2, 29, 23, 30, 0, 0, time.FixedZone("", -5*3600)), Title: "Hecate LE", Mode: "1v1 Faster ladder",
			Duration: 14 * time.Minute, Result: "", Players: []Player{{Slot: "player 1", Name: "Serral", Code: "2-S2-1-123", Character: "Zerg", Team: "team 1", Result: "Win"},
				{Slot: "player 2", Name: "Clem", Character: "Terran", Team: "team 2", Result: "Loss"}}},
		"bsor": {Path: "bsor/believer.bsor", Format: model.Format("bsor"), Title: "Believer", Duration: 3*time.Minute + 24*time.Second,
			Players: []Player{{Slot: "player", Name: "Ryuuou", Character: "Quest 2"}}, Check: &Check{Problems: 2}},
		"broken": {Path: "fzgx/broken.gci", Format: model.Format("fzgx"), Err: "fzgx: at 0x0: bad header"},
		"tee":    {Path: "tee/idle_clean_shutdown.teehistorian", Format: model.Format("teehistorian"), Title: "Tutorial", Problems: 1},
	}
	out := map[string]*Doc{}
	for k, h := range hs {
		out[k] = NewDoc(h)
	}
	return out
}

// queryCases are queries over queryDocs and the docs they match.
var queryCases = []struct {
	q    string
	want string // the matching docs, sorted, space-separated
}{
	{`format:slippi`, "ics online teams"},
	{`format:melee`, "ics online teams"},
	{`format:slp`, "ics online teams"},
	{`format:starcraft`, "sc2"},
	{`format:ddnet`, "tee"},
	{`-format:slippi`, "broken bsor sc2 tee"},
	{`player:mang`, "online"},
	{`name:SERRAL`, "sc2"},
	{`code:mang#0`, "online"},
	{`code:2-s2`, "sc2"},
	{`char:fox`, "online teams"},
	{`char:ic`, "ics"},
	{`char:ice`, "ics"},
	{`race:zerg`, "sc2"},
	{`stage:"pokemon stadium"`, "ics"},
	{`stage:ps`, "ics"},
	{`stage:fd`, "online"},
	{`stage:"final dest"`, "online"},
	{`stage:od`, ""}, // not across the words of "Pokémon Stadium" or "Final Destination"
	{`char:iceclimbers`, "ics"},
	{`code:"2 s2"`, "sc2"},
	{`map:hecate`, "sc2"},
	{`song:believer`, "bsor"},
	{`mode:ranked`, "online"},
	{`mode:ladder`, "sc2"},
	{`file:ics`, "ics"},
	{`fox>marth`, "online"}, // doubles: Fox and Marth are teammates
	{`marth>fox`, "online"},
	{`fox>sheik`, "teams"},
	{`zerg>terran`, "sc2"},
	{`serral>clem`, "sc2"},
	{`-fox>marth format:slippi`, "ics teams"},
	{`date:2023`, "online"},
	{`date:>=2023-01-01`, "online sc2"},
	{`date:<2023`, "ics"},
	{`date:2024-02-29`, "sc2"}, // 23:30 in the file's own zone, not the next day in UTC
	{`date:2020-05..2023-01`, "ics online"},
	{`len:>5m`, "online sc2"},
	{`len:8m`, "online"},
	{`len:1:30`, "ics"},
	{`len:<=3m`, "ics teams"},
	{`len:>3m`, "bsor online sc2"},
	{`len:3m..3:24`, "bsor teams"},
	{`len:3m..3:23`, "teams"},

	{`size:>1mb`, "online"},
	{`problems:>0`, "broken bsor tee"},
	{`problems:2`, "bsor"},
	{`problems:0 format:slippi`, "ics online teams"},
	{`checked:yes`, "broken bsor"},
	{`checked:no format:slippi`, "ics online teams"},
	{`serral`, "sc2"},
	{`seral`, "sc2"},   // one letter missing
	{`serarl`, "sc2"},  // two letters swapped
	{`serr`, "sc2"},    // part of a name
	{`fd`, "online"},   // initials of the stage
	{`ics`, "ics tee"}, // a word of the file name; initials of idle_clean_shutdown
	{`idle`, "tee"},
	{`pokemon`, "ics"},
	{`fox marth`, "online teams"},
	{`fox -sheik`, "online"},
	{`zzz`, ""},
	{``, "broken bsor ics online sc2 teams tee"},
}

func TestQueryMatch(t *testing.T) {
	docs := queryDocs()
	for _, c := range queryCases {
		q, err := ParseQuery(c.q)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		var got []string
		for _, k := range sortedKeys(docs) {
			if q.Match(docs[k]) {
				got = append(got, k)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%q matched %q, want %q", c.q, strings.Join(got, " "), c.want)
		}
	}
}

func TestQueryRank(t *testing.T) {
	docs := queryDocs()
	for _, c := range []struct {
		q, doc string
		tier   int
	}{
		{"serral", "sc2", 0},
		{"serr", "sc2", 1},
		{"fd", "online", 2},
		{"seral", "sc2", 3},
		{"ics", "ics", 0},
		{"ics", "tee", 2},
	} {
		q, _ := ParseQuery(c.q)
		ok, tier := q.Rank(docs[c.doc])
		if !ok || tier != c.tier {
			t.Errorf("%q on %s: %v tier %d, want tier %d", c.q, c.doc, ok, tier, c.tier)
		}
	}
}

func sortedKeys(m map[string]*Doc) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Pokémon Stadium":  "pokemon stadium",
		"ABCD#123":         "abcd 123",
		"명지대학교":            "명지대학교",
		"Mr. Game & Watch": "mr game watch",
		"  -x-  ":          "x",
		"":                 "",
	} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
	if got := strings.Join(fileTokens("tests__data__FodPlatforms.slp"), " "); got != "tests data fod platforms slp" {
		t.Errorf("tokens: %q", got)
	}
}

// TestMatcherAgrees: the matcher over a store's rows (prepared strings,
// caches, file names folded in scratch space, the work split over cores)
// keeps the same rows with the same tiers as matching each header alone,
// for every query of TestQueryMatch and more, on hand-made headers and on
// every sample file.
func TestMatcherAgrees(t *testing.T) {
	hs := matchHeaders()
	s := NewStore()
	var ids []RowID
	put := func(hs []*Header) {
		for _, h := range hs {
			ids = append(ids, s.Put(h))
		}
	}
	// half the rows first, then the rest: the file texts a filter prepares
	// for a chunk must grow with it
	put(hs[:len(hs)/2])
	agree(t, s, ids, hs[:len(hs)/2], []string{"fox", "tests data", "game", "madnes", "nametags"})
	put(hs[len(hs)/2:])
	queries := []string{"fox", "marth", "ics", "peach", "slp", "tests data", "corrupt", "game", "wol", "netplay", "terran", "believer",
		"nametags", "klaus", "bf", "ps", "ic", "-char:fox", "char:zerg>terran", "p1", "2023", "v3", "winter", "madnes", "metalopolis"}
	for _, c := range queryCases {
		queries = append(queries, c.q)
	}
	agree(t, s, ids, hs, queries)
}

// matchHeaders are the headers the matcher is held to per-header matching
// on: TestQueryMatch's and every sample file's.
func matchHeaders() []*Header {
	var hs []*Header
	for _, d := range queryDocs() {
		hs = append(hs, d.H)
	}
	Scan(context.Background(), Paths([]string{samplesDir}), ScanOptions{}, func(h Header) bool {
		hs = append(hs, &h)
		return true
	})
	return hs
}

// agree holds the matcher over a store's rows to Query.Rank over their
// headers.
func agree(t *testing.T, s *Store, ids []RowID, hs []*Header, queries []string) {
	t.Helper()
	for _, text := range queries {
		q, err := ParseQuery(text)
		if err != nil {
			t.Fatal(err)
		}
		kept, tiers, ok := q.Matcher(s, "").Filter(context.Background(), ids)
		if !ok {
			t.Fatal("not finished")
		}
		var want []RowID
		var wantTiers []uint8
		for i, h := range hs {
			if hit, tier := q.Rank(NewDoc(h)); hit {
				want = append(want, ids[i])
				wantTiers = append(wantTiers, uint8(tier))
			}
		}
		if !slices.Equal(kept, want) || !slices.Equal(tiers, wantTiers) {
			t.Errorf("%q: matcher kept %v %v, headers %v %v", text, kept, tiers, want, wantTiers)
		}
	}
}

// TestWithinEditsASCII: the ASCII path (bytes, ruled out early by the
// letters) answers as the rune path does, on random near words.
func TestWithinEditsASCII(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	letters := "abcdeox42"
	word := func() string {
		b := make([]byte, 1+rng.IntN(9))
		for i := range b {
			b[i] = letters[rng.IntN(len(letters))]
		}
		return string(b)
	}
	for range 20000 {
		a, b, k := word(), word(), 1+rng.IntN(2)
		if rng.IntN(2) == 0 { // a near miss: one or two edits of a
			bb := []byte(a)
			for range 1 + rng.IntN(2) {
				bb[rng.IntN(len(bb))] = letters[rng.IntN(len(letters))]
			}
			b = string(bb)
		}
		want := osaWithin([]rune(a), []rune(b), k)
		if d := len(a) - len(b); d > k || -d > k {
			want = false
		}
		if got := withinEdits(a, b, k); got != want {
			t.Fatalf("withinEdits(%q, %q, %d) = %v, want %v", a, b, k, got, want)
		}
	}
}

// TestFileTierShortcuts: the file name's tier, looked for only as far as it
// could beat the row's tier so far, and the misspelling test that rules
// ASCII words out by length and letters, give the row the tier a plain
// look at every word of the file name gives it (the word's own: a whole
// word, part of one, the initials, within its edits), on random words and
// file names, some not ASCII.
func TestFileTierShortcuts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	letters := []string{"a", "b", "e", "o", "x", "4", "2", "é"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(letters[rng.IntN(len(letters))])
		}
		return b.String()
	}
	plain := func(w, file string, edits int) int {
		words := strings.Fields(file)
		switch {
		case slices.Contains(words, w):
			return 0
		case strings.Contains(file, w):
			return 1
		case len(w) >= 2 && len(words) > 1 && initialsHave(file, w):
			return 2
		}
		if utf8.RuneCountInString(w) >= 4 {
			for _, x := range words {
				if withinEdits(w, x, edits) {
					return 3
				}
			}
		}
		return -1
	}
	for range 50000 {
		q, err := ParseQuery(word(1 + rng.IntN(9)))
		if err != nil || len(q.terms) != 1 {
			continue // "é" alone and the like fold to something else
		}
		tm := &q.terms[0]
		var file []string
		for range 1 + rng.IntN(4) {
			if rng.IntN(3) == 0 { // a near miss of the word
				file = append(file, tm.val[:rng.IntN(len(tm.val)+1)]+word(rng.IntN(3)))
			} else {
				file = append(file, word(1+rng.IntN(12)))
			}
		}
		f := strings.Join(file, " ")
		want := plain(tm.val, f, tm.edits)
		if got := fileTier(tm, f, -1); got != want {
			t.Fatalf("fileTier(%q, %q) = %d, want %d", tm.val, f, got, want)
		}
		best := rng.IntN(4)
		if got, want := min4(best, fileTier(tm, f, best)), min4(best, want); got != want {
			t.Fatalf("fileTier(%q, %q) after tier %d: row tier %d, want %d", tm.val, f, best, got, want)
		}
	}
}

// min4 is the better of two tiers, -1 being none.
func min4(a, b int) int {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// FuzzQuery: any text either fails to parse with a QueryError or gives a
// query whose matcher over a store's rows (caches, file texts, terms tried
// in the order that turns most rows away, the work split over cores)
// keeps the rows and tiers that matching each header alone does: the
// headers of TestQueryMatch and of every sample file.
func FuzzQuery(f *testing.F) {
	for _, c := range queryCases {
		f.Add(c.q)
	}
	for _, q := range []string{"game 2020", "marht", "fox -char:fox", "tests data fox", "2023 v3 -terran", "battlefeild", "é", "ic bf ps"} {
		f.Add(q)
	}
	hs := matchHeaders()
	s := NewStore()
	var ids []RowID
	for _, h := range hs {
		ids = append(ids, s.Put(h))
	}
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := ParseQuery(text); err != nil {
			if qe := (*QueryError)(nil); !errors.As(err, &qe) {
				t.Fatalf("%q: %v is no QueryError", text, err)
			}
			return
		}
		agree(t, s, ids, hs, []string{text})
	})
}
