package slippi

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// jsDeclared is one entry of testdata/slippijs/declared.json, what
// slippi-js 9.1.2 says of a corpus file (written by declared.cjs there):
// getWinners' players, the Game End's method and LRAS initiator (nil
// without one), the ports of settings.players.
type jsDeclared struct {
	Winners string
	Method  *int
	LRAS    *int
	Players *string
	Error   string
}

// declaredWant is each player's Declared outcome as the game's getWinners
// and Game End give it: a player getWinners names won; a player of
// settings.players it does not name lost when it names someone, had no
// contest in a No Contest or Unresolved game (0, 7) when it names no one,
// and quit in such a game when the LRAS initiator; anyone else unknown.
func declaredWant(r *model.Replay, winners string, method, lras *int, players string) string {
	won := strings.Split(winners, ",")
	listed := strings.Split(players, ",")
	noContest := method != nil && (*method == 0 || *method == 7)
	var out []string
	for _, p := range r.Players {
		o := model.OutcomeUnknown
		switch {
		case slices.Contains(won, p.Slot):
			o = model.OutcomeWin
		case !slices.Contains(listed, p.Slot):
		case noContest && lras != nil && p.Slot == fmt.Sprintf("P%d", *lras+1):
			o = model.OutcomeQuit
		case winners != "":
			o = model.OutcomeLoss
		case noContest:
			o = model.OutcomeNoContest
		}
		out = append(out, string(o))
	}
	return strings.Join(out, ",")
}

// declaredOf is the summary's Declared outcomes, by player, and the slots
// of the players whose Declared is a win, in port order.
func declaredOf(t *testing.T, r *model.Replay) (all, won string) {
	t.Helper()
	s := Summarize(r)
	if !s.Declares {
		t.Errorf("the summary does not set Declared")
	}
	var ds, ws []string
	for pl, p := range s.Players {
		ds = append(ds, string(p.Declared))
		if p.Declared == model.OutcomeWin {
			ws = append(ws, r.Players[pl].Slot)
		}
	}
	sort.Strings(ws)
	return strings.Join(ds, ","), strings.Join(ws, ",")
}

// TestDeclaredAgreesWithGetWinners: for every corpus file and every
// sample, the players whose Declared outcome is a win are exactly the
// ones slippi-js 9.1.2's getWinners names (sjsWinners, and declared.json
// recorded again with declared.cjs agrees with it), and every other
// player's Declared is what getWinners and the Game End make it
// (declaredWant).
func TestDeclaredAgreesWithGetWinners(t *testing.T) {
	var js map[string]jsDeclared
	readJS(t, "declared.json", &js)
	type file struct{ name, path, rel string } // rel: the corpus name
	var files []file
	if dir, ok := corpus.Shared(t); ok {
		root := filepath.Join(dir, "slp")
		err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".slp") {
				rel, _ := filepath.Rel(root, p)
				files = append(files, file{rel, p, filepath.ToSlash(rel)})
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	} else {
		t.Logf("%s at %s: only the samples are compared", corpus.NotFound, dir)
	}
	sources := sampleSources(t)
	if len(sources) == 0 {
		t.Fatal("no samples listed in testdata/samples/slippi/MANIFEST.tsv")
	}
	for name, rel := range sources {
		files = append(files, file{"samples/" + name, filepath.Join(corpus.Samples(t, "slippi"), name), rel})
	}
	compared, named, byPlayer := 0, 0, 0
	for _, f := range files {
		key, rel := f.name, f.rel
		want, ok := sjsWinners[rel]
		rec, recOK := js[rel]
		if !ok || !recOK {
			t.Errorf("%s: no getWinners recorded (sjsWinners: %v, declared.json: %v); run testdata/slippijs/declared.cjs", key, ok, recOK)
			continue
		}
		if rec.Winners != want || rec.Error != "" {
			t.Errorf("%s: declared.json's getWinners %q (error %q), sjsWinners %q: the recordings disagree", key, rec.Winners, rec.Error, want)
		}
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decode(b, model.DecodeOptions{})
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		all, won := declaredOf(t, r)
		compared++
		if want != "" {
			named++
		}
		if won != want {
			t.Errorf("%s: Declared wins %q, getWinners %q", key, won, want)
		}
		players := ""
		if rec.Players != nil {
			players = *rec.Players
		}
		if w := declaredWant(r, want, rec.Method, rec.LRAS, players); all != w {
			t.Errorf("%s: Declared %s, want %s (getWinners %q, method %v, lras %v, players %q)", key, all, w, want, deref(rec.Method), deref(rec.LRAS), players)
		}
		byPlayer += len(r.Players)
	}
	t.Logf("%d files (%d samples), %d with winners, %d players' Declared compared", compared, len(sources), named, byPlayer)
	least := 46 + len(sources)
	if _, ok := corpus.Shared(t); !ok {
		least = len(sources)
	}
	if compared < least {
		t.Errorf("only %d files compared, want %d", compared, least)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// sampleSources maps each sample to its corpus name, from the samples'
// MANIFEST.tsv ("slp/<dir>/<file>").
func sampleSources(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(corpus.Samples(t, "slippi"), "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) >= 2 && strings.HasSuffix(cols[0], ".slp") {
			out[cols[0]] = strings.TrimPrefix(cols[1], "slp/")
		}
	}
	return out
}

// TestDeclaredHandBuiltOutcomes: for every hand-built game of
// summary_test.go's outcomeCases, the Declared wins are its sjs column
// (getWinners on the same bytes) and the other players' Declared follow
// from it and the case's Game End (every port listed).
func TestDeclaredHandBuiltOutcomes(t *testing.T) {
	for _, c := range outcomeCases {
		r := decodeBytes(t, outcomeBytes(c))
		all, won := declaredOf(t, r)
		if won != c.sjs {
			t.Errorf("%s: Declared wins %q, getWinners %q", c.name, won, c.sjs)
		}
		method, lras := int(c.method), c.lras
		var listed []string
		for port := range c.stocks {
			listed = append(listed, fmt.Sprintf("P%d", port+1))
		}
		if w := declaredWant(r, c.sjs, &method, &lras, strings.Join(listed, ",")); all != w {
			t.Errorf("%s: Declared %s, want %s", c.name, all, w)
		}
	}
}

// declaredCase is a hand-built game where getWinners' reading is its own,
// with what slippi-js 9.1.2's getWinners says of the same bytes (written
// by TestWriteDeclaredCases, read by testdata/slippijs/declared.cjs).
type declaredCase struct {
	name    string
	version [3]byte
	ports   []int // the ports Game Start lists (Fox on each)
	teams   []int // team by port; nil: no teams
	scene   byte  // major scene (3.7.0+); 0: VS
	last    []lastUpdate
	method  int  // -1: no Game End
	lras    int8 // the Game End's LRAS initiator (2.0.0+)
	place   []int8
	noEnd   bool   // Event Payloads lists no Game End
	sjs     string // getWinners' players, "" none
	want    string // Declared, by player
}

// lastUpdate is a post-frame update of the last frame.
type lastUpdate struct {
	port     byte
	follower bool
	stocks   byte
	percent  float32
}

var nan32 = float32(math.NaN())

var declaredCases = []declaredCase{
	{name: "No Contest in a 1v1 without an initiator: getWinners names the first player", version: [3]byte{3, 12, 0}, ports: []int{0, 1},
		last: []lastUpdate{{0, false, 4, 0}, {1, false, 4, 0}}, method: 7, lras: -1, sjs: "P1", want: "win,loss"},
	{name: "Unresolved with an initiator in a 1v1: the other won, the initiator quit", version: [3]byte{3, 12, 0}, ports: []int{0, 1},
		last: []lastUpdate{{0, false, 4, 0}, {1, false, 4, 0}}, method: 0, lras: 1, sjs: "P1", want: "win,quit"},
	{name: "TIME teams tied: the team whose update comes first wins alone", version: [3]byte{3, 12, 0}, ports: []int{0, 1, 2, 3}, teams: []int{1, 0, 1, 0},
		last:   []lastUpdate{{0, false, 1, 10}, {1, false, 1, 10}, {2, false, 1, 10}, {3, false, 1, 10}},
		method: 1, lras: -1, sjs: "P1,P3", want: "win,loss,win,loss"},
	{name: "TIME: the first player's percent NaN: no one", version: [3]byte{3, 12, 0}, ports: []int{0, 1},
		last: []lastUpdate{{0, false, 2, nan32}, {1, false, 2, 10}}, method: 1, lras: -1, sjs: "", want: ","},
	{name: "TIME: the second player's percent NaN: the first", version: [3]byte{3, 12, 0}, ports: []int{0, 1},
		last: []lastUpdate{{0, false, 2, 10}, {1, false, 2, nan32}}, method: 1, lras: -1, sjs: "P1", want: "win,loss"},
	{name: "TIME: Nana's percent does not count", version: [3]byte{3, 12, 0}, ports: []int{0, 1},
		last:   []lastUpdate{{0, false, 2, 50}, {0, true, 2, 0}, {1, false, 2, 40}},
		method: 1, lras: -1, sjs: "P2", want: "loss,win"},
	{name: "GAME! teams with placements: the winning team's placements", version: [3]byte{3, 13, 0}, ports: []int{0, 1, 2, 3}, teams: []int{0, 1, 0, 1},
		last:   []lastUpdate{{0, false, 0, 90}, {1, false, 2, 10}, {2, false, 0, 80}, {3, false, 0, 70}},
		method: 2, lras: -1, place: []int8{2, 0, 3, 1}, sjs: "P2,P4", want: "loss,win,loss,win"},
	{name: "GAME! with placements, everyone on stage out of stocks: no one", version: [3]byte{3, 13, 0}, ports: []int{0, 1},
		last: []lastUpdate{{0, false, 0, 90}, {1, false, 0, 80}}, method: 2, lras: -1, place: []int8{0, 1}, sjs: "", want: ","},
	{name: "no Game End: getWinners' final updates are the Game End's size too early, so no one", version: [3]byte{3, 12, 0}, ports: []int{0, 1},
		last: []lastUpdate{{0, false, 3, 0}, {1, false, 1, 0}}, method: -1, sjs: "", want: ","},
	{name: "no Game End listed: the last frame decides", version: [3]byte{3, 12, 0}, ports: []int{0, 1}, noEnd: true,
		last: []lastUpdate{{0, false, 3, 0}, {1, false, 1, 0}}, method: -1, sjs: "P1", want: "win,loss"},
	{name: "Multi-Man Melee TIME: the enemies on stage are ranked with the player", version: [3]byte{3, 12, 0}, ports: []int{0}, scene: sceneTenMan,
		last:   []lastUpdate{{0, false, 1, 50}, {3, false, 1, 0}, {4, false, 1, 0}},
		method: 1, lras: -1, sjs: "P4,P5", want: "loss,win,win"},
}

// declaredBytes builds the case's game: two frames, the first with every
// update at 4 stocks and 0%, the second with the case's updates.
func declaredBytes(c declaredCase) []byte {
	s := newSlp(c.version[0], c.version[1], c.version[2])
	if c.noEnd {
		delete(s.sizes, cmdEnd)
		s.order = slices.DeleteFunc(s.order, func(b byte) bool { return b == cmdEnd })
	}
	chars := make([]int, 4)
	for port := range chars {
		chars[port] = -1
		if slices.Contains(c.ports, port) {
			chars[port] = 2 // Fox
		}
	}
	s.start(chars...)
	st := s.events[len(s.events)-1]
	if c.teams != nil {
		st[0xD] = 1
		for port, tm := range c.teams {
			st[0x6E+0x24*port] = byte(tm)
		}
	}
	if c.scene != 0 {
		st[0x1A4] = c.scene
	}
	for f := int32(-123); f <= -122; f++ {
		s.frame(f)
		for _, u := range c.last {
			s.add(s.pre(f, u.port, u.follower, 14, 0))
		}
		for _, u := range c.last {
			stocks, pct := byte(4), float32(0)
			if f == -122 {
				stocks, pct = u.stocks, u.percent
			}
			ch := byte(1) // Fox
			if u.follower {
				ch = 0xB // Nana
			}
			b := s.post(f, u.port, u.follower, ch, stocks, pct)
			b[8], b[9] = 0, 14 // WAIT: on stage
			s.add(b)
		}
		s.bookend(f)
	}
	if c.method >= 0 {
		s.end(byte(c.method))
		e := s.events[len(s.events)-1]
		if len(e) > 2 {
			e[2] = byte(c.lras)
		}
		for port, pos := range c.place {
			e[3+port] = byte(pos)
		}
	}
	return s.bytes()
}

func TestDeclaredHandBuilt(t *testing.T) {
	for _, c := range declaredCases {
		r := decodeBytes(t, declaredBytes(c))
		all, won := declaredOf(t, r)
		if won != c.sjs {
			t.Errorf("%s: Declared wins %q, getWinners %q", c.name, won, c.sjs)
		}
		if all != c.want {
			t.Errorf("%s: Declared %s, want %s", c.name, all, c.want)
		}
	}
}

// TestWriteDeclaredCases writes the hand-built games as declared<i>.slp,
// into REWIND_WRITE_OUTCOMES (for slippi-js) or a temporary folder, and
// reads each back: it decodes as the game it was built as.
func TestWriteDeclaredCases(t *testing.T) {
	dir := os.Getenv("REWIND_WRITE_OUTCOMES")
	if dir == "" {
		dir = t.TempDir()
	}
	for i, c := range declaredCases {
		path := filepath.Join(dir, fmt.Sprintf("declared%02d.slp", i))
		if err := os.WriteFile(path, declaredBytes(c), 0o644); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatalf("%s (%s): %v", path, c.name, err)
		}
		for _, d := range r.Diagnostics {
			if d.Severity == model.Error {
				t.Errorf("%s (%s): %s", path, c.name, d.String())
			}
		}
		if len(r.Players) != len(c.ports)+len(slices.DeleteFunc(slices.Clone(c.last), func(u lastUpdate) bool {
			return u.follower || slices.Contains(c.ports, int(u.port))
		})) || r.Timeline.Count != 2 {
			t.Errorf("%s (%s): %d players, %d frames", path, c.name, len(r.Players), r.Timeline.Count)
		}
	}
}

// TestDeclaredMultiManClip: the Multi-Man Melee clip (a recording cut
// short, raw length 0) has no Game End and no final updates where
// getWinners looks, which names no one (declared.cjs on testdata/), so
// no one's Declared is set, the enemies' neither.
func TestDeclaredMultiManClip(t *testing.T) {
	b, _ := loadMultiMan(t)
	r, err := Decode(b, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	all, _ := declaredOf(t, r)
	eq(t, "Declared", all, strings.Repeat(",", len(r.Players)-1))
}

// FuzzDeclared: on any input the summary's Declared outcomes are made
// without a panic, are words a script knows, and hold together: no one
// lost in a game getWinners names no winner in, and no one has no contest
// in a game it names one in.
func FuzzDeclared(f *testing.F) {
	for _, c := range declaredCases {
		f.Add(declaredBytes(c))
	}
	for _, c := range outcomeCases {
		f.Add(outcomeBytes(c))
	}
	for _, b := range samples(f) {
		// the start (Game Start, the first frames) and the end (the final
		// updates, Game End) are what getWinners reads
		f.Add(append(append([]byte(nil), b[:min(len(b), 900)]...), b[max(0, len(b)-500):]...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := Decode(b, model.DecodeOptions{})
		if err != nil {
			return
		}
		s := Summarize(r)
		if len(s.Players) != len(r.Players) {
			t.Fatalf("%d summaries for %d players", len(s.Players), len(r.Players))
		}
		seen := map[model.Outcome]bool{}
		for _, p := range s.Players {
			if !slices.Contains(model.Outcomes, p.Declared) {
				t.Fatalf("Declared %q", p.Declared)
			}
			seen[p.Declared] = true
		}
		if seen[model.OutcomeNoContest] && (seen[model.OutcomeLoss] || seen[model.OutcomeWin]) || seen[model.OutcomeDraw] || seen[model.OutcomeDisconnect] {
			t.Fatalf("Declared %v", seen)
		}
	})
}
