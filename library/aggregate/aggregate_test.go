package aggregate

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"rewind/decoders"
	"rewind/library"
	"rewind/model"
)

// withStats gives the slippi format these StatDefs for one test: the
// aggregation reads how stats combine from the registry.
func withStats(t testing.TB, defs []model.StatDef) {
	f := decoders.ByID("slippi")
	old := f.Stats
	f.Stats = defs
	t.Cleanup(func() { f.Stats = old })
}

var testDefs = []model.StatDef{
	{Key: "killCount", Label: "Kills", Agg: model.AggSum},
	{Key: "conversionCount", Label: "Openings", Agg: model.AggSum},
	{Key: "openingsPerKill", Label: "Openings per kill", Agg: model.AggRatio, Num: "conversionCount", Den: "killCount"},
	{Key: "fastest", Label: "Fastest kill", Agg: model.AggMin, Unit: model.UnitSeconds},
	{Key: "killMoves", Label: "Kill moves", Agg: model.AggTally},
}

func at(day, hour, minute int) time.Time {
	return time.Date(2024, 3, day, hour, minute, 0, 0, time.UTC)
}

// game is a 1v1: me (code ME#1) against an opponent, with my outcome and
// stats.
func game(path string, start time.Time, meChar, oppCode, oppChar string, out model.Outcome, kills, convs, fastest float64, moves ...string) Game {
	other := map[model.Outcome]model.Outcome{model.OutcomeWin: model.OutcomeLoss, model.OutcomeLoss: model.OutcomeWin}[out]
	me := model.PlayerSummary{Outcome: out, Stats: []model.Stat{{Key: "killCount", Value: kills}, {Key: "conversionCount", Value: convs}, {Key: "fastest", Value: fastest}}}
	for _, m := range moves {
		me.Stats = append(me.Stats, model.Stat{Key: "killMoves", Name: m, Value: 1})
	}
	return Game{Path: path, Format: "slippi", Start: start, Duration: 5 * time.Minute, Title: "Battlefield",
		Players: []Player{{Slot: "P1", Name: "Me", Code: "ME#1", Character: meChar}, {Slot: "P2", Name: "Them", Code: oppCode, Character: oppChar}},
		Summary: &model.Summary{Players: []model.PlayerSummary{me, {Outcome: other}}}}
}

func TestGroupByOpponentCharacter(t *testing.T) {
	withStats(t, testDefs)
	games := []Game{
		game("a", at(1, 18, 0), "Fox", "AA#1", "Marth", model.OutcomeWin, 4, 10, 40, "up smash", "up smash", "back air"),
		game("b", at(1, 18, 6), "Fox", "AA#1", "Marth", model.OutcomeLoss, 1, 10, 90, "up smash"),
		game("c", at(1, 20, 0), "Fox", "BB#2", "Sheik", model.OutcomeWin, 4, 8, 30),
		{Path: "broken", Format: "slippi", Err: "not a replay"},
		{Path: "cut", Format: "slippi", Partial: true, Players: []Player{{Slot: "P1"}}},
	}
	res := Run(games, Options{By: []Key{KeyVs}, Players: []string{"me#1"}})
	if len(res.Groups) != 2 || res.Games != 3 || len(res.Skipped) != 2 {
		t.Fatalf("%d groups, %d games, skipped %v", len(res.Groups), res.Games, res.Skipped)
	}
	m := res.Groups[0]
	if m.Values[0] != "Marth" || m.Games != 2 || m.Wins != 1 || m.Losses != 1 {
		t.Fatalf("first group %+v", m)
	}
	vals := map[string]Value{}
	for _, v := range m.StatValues() {
		vals[v.Def.Key] = v
	}
	// openings per kill from the sums: 20 conversions over 5 kills, not
	// the mean of 2.5 and 10
	if v := vals["openingsPerKill"]; !v.OK || v.Ratio != 4 {
		t.Errorf("openings per kill %+v, want 4", v)
	}
	if v := vals["killCount"]; v.Total != 5 || v.Mean != 2.5 {
		t.Errorf("kills %+v", v)
	}
	if v := vals["fastest"]; v.Best != 40 {
		t.Errorf("fastest %+v, want the least, 40", v)
	}
	tl := m.TallyList()
	if len(tl) != 1 || tl[0].Buckets[0] != (Bucket{"up smash", 3}) || tl[0].Buckets[1] != (Bucket{"back air", 1}) {
		t.Errorf("tallies %+v", tl)
	}
	line, err := res.GroupJSON(m)
	if err != nil {
		t.Fatal(err)
	}
	var j map[string]any
	json.Unmarshal(line, &j)
	if j["group"].(map[string]any)["vs"] != "Marth" || j["winRate"] != 0.5 || j["ratios"].(map[string]any)["openingsPerKill"] != 4.0 ||
		j["timePlayedSeconds"] != 600.0 {
		t.Errorf("json %s", line)
	}
}

// Without --player every player of every game counts once: a ditto adds
// two player-games to its character.
func TestEveryPlayerCounts(t *testing.T) {
	withStats(t, testDefs)
	games := []Game{
		game("a", at(1, 18, 0), "Fox", "AA#1", "Fox", model.OutcomeWin, 4, 10, 40),
		game("b", at(2, 18, 0), "Fox", "AA#1", "Marth", model.OutcomeLoss, 1, 10, 90),
	}
	res := Run(games, Options{By: []Key{KeyCharacter}})
	got := map[string]int{}
	for _, g := range res.Groups {
		got[g.Values[0]] = g.Games
	}
	if got["Fox"] != 3 || got["Marth"] != 1 || len(got) != 2 {
		t.Errorf("games by character %v", got)
	}
	res = Run(games, Options{By: []Key{KeyMatchup}})
	got = map[string]int{}
	for _, g := range res.Groups {
		got[g.Values[0]] = g.Games
	}
	if got["Fox-Fox"] != 2 || got["Fox-Marth"] != 2 || len(got) != 2 {
		t.Errorf("games by matchup %v (Fox-Marth and Marth-Fox are one)", got)
	}
}

// A doubles game: teammates are not opponents, and each member has the
// team's outcome (the format's summary says so).
func TestTeams(t *testing.T) {
	g := Game{Path: "d", Format: "slippi", Start: at(1, 1, 1), Title: "FD", Players: []Player{
		{Slot: "P1", Code: "A#1", Character: "Fox", Team: "red"}, {Slot: "P2", Code: "B#1", Character: "Falco", Team: "red"},
		{Slot: "P3", Code: "C#1", Character: "Marth", Team: "blue"}, {Slot: "P4", Code: "D#1", Character: "Sheik", Team: "blue"}},
		Summary: &model.Summary{Players: []model.PlayerSummary{{Outcome: model.OutcomeWin}, {Outcome: model.OutcomeWin}, {Outcome: model.OutcomeLoss}, {Outcome: model.OutcomeLoss}}}}
	res := Run([]Game{g}, Options{By: []Key{KeyOpponent, KeyMatchup}, Players: []string{"A#1"}})
	if len(res.Groups) != 1 {
		t.Fatalf("groups %+v", res.Groups)
	}
	gr := res.Groups[0]
	if gr.Values[0] != "C#1 + D#1" || gr.Values[1] != "Falco+Fox-Marth+Sheik" || gr.Wins != 1 {
		t.Errorf("doubles group %q, wins %d", gr.Values, gr.Wins)
	}
}

// A game quit counts as a loss only when asked; games less than 15 minutes
// apart are one session; a player without a code is grouped by name.
func TestQuitSessionsAndNames(t *testing.T) {
	games := []Game{
		game("a", at(1, 18, 0), "Fox", "AA#1", "Marth", model.OutcomeQuit, 0, 0, 0),
		game("b", at(1, 18, 14), "Fox", "AA#1", "Marth", model.OutcomeWin, 0, 0, 0),
		game("c", at(1, 19, 0), "Fox", "AA#1", "Marth", model.OutcomeWin, 0, 0, 0),
	}
	games[2].Players[0].Code = ""
	res := Run(games, Options{By: []Key{KeySession}, Players: []string{"ME#1", "me"}})
	if len(res.Groups) != 2 || res.Groups[0].Values[0] != "2024-03-01 18:00" || res.Groups[0].Games != 2 || res.Groups[0].Losses != 0 {
		t.Fatalf("sessions %+v", res.Groups)
	}
	if res.Groups[0].Outcomes[model.OutcomeQuit] != 1 {
		t.Errorf("outcomes %v", res.Groups[0].Outcomes)
	}
	res = Run(games, Options{By: []Key{KeyPlayer}, Players: []string{"ME#1", "me"}, LRASLoss: true})
	var named *Group
	for _, g := range res.Groups {
		if g.ByName {
			named = g
		}
		if !g.ByName && g.Losses != 1 {
			t.Errorf("the quit is no loss with LRASLoss: %+v", g)
		}
	}
	if named == nil || named.Values[0] != "Me" {
		t.Errorf("no group by name: %+v", res.Groups)
	}
}

func TestParseKeys(t *testing.T) {
	k, err := ParseKeys("char, map,month")
	if err != nil || len(k) != 3 || k[0] != KeyCharacter || k[1] != KeyStage || k[2] != KeyMonth {
		t.Errorf("%v %v", k, err)
	}
	if _, err := ParseKeys("colour"); err == nil {
		t.Error("colour is no key")
	}
}

// TestNamesBesideCodes: a player key that is a code carries the name it
// played under most, an opponent key the opponents' names in the order of
// their codes; a key that is a name carries none.
func TestNamesBesideCodes(t *testing.T) {
	games := []Game{
		game("a", at(1, 18, 0), "Fox", "AA#1", "Marth", model.OutcomeWin, 0, 0, 0),
		game("b", at(2, 18, 0), "Fox", "AA#1", "Marth", model.OutcomeWin, 0, 0, 0),
		game("c", at(3, 18, 0), "Fox", "AA#1", "Marth", model.OutcomeLoss, 0, 0, 0),
		game("d", at(4, 18, 0), "Fox", "", "Marth", model.OutcomeLoss, 0, 0, 0),
	}
	games[2].Players[0].Name = "Me again" // once under another name
	res := Run(games, Options{By: []Key{KeyPlayer, KeyOpponent}, Players: []string{"ME#1"}})
	names := map[string][]string{}
	for _, g := range res.Groups {
		names[g.Values[1]] = g.Names
	}
	if got := names["AA#1"]; len(got) != 2 || got[0] != "Me" || got[1] != "Them" {
		t.Errorf("against AA#1: names %q, want Me (two games of three) and Them", got)
	}
	if got := names["Them"]; len(got) != 2 || got[0] != "Me" || got[1] != "" {
		t.Errorf("against a player without a code: names %q, want Me and none", got)
	}
	line, err := res.GroupJSON(res.Groups[0])
	if err != nil {
		t.Fatal(err)
	}
	var j struct{ Names map[string]string }
	json.Unmarshal(line, &j)
	if j.Names["player"] != "Me" || j.Names["opponent"] != "Them" {
		t.Errorf("JSON names %v in %s", j.Names, line)
	}
}

// A session key groups in two passes: the first only notes the games'
// times, the second may meet the games in another order, and a game the
// first pass did not see (a file added between the passes) joins the
// session its start falls into. Every game here lasts 5 minutes: a game
// that starts less than 15 minutes after the last one ended continues it.
func TestSessionsInTwoPasses(t *testing.T) {
	long := func(g Game) Game { g.Duration = 5 * time.Minute; return g }
	games := []Game{
		long(game("a", at(2, 20, 0), "Fox", "AA#1", "Marth", model.OutcomeWin, 0, 0, 0)),  // 20:00-20:05
		long(game("b", at(2, 20, 19), "Fox", "AA#1", "Marth", model.OutcomeWin, 0, 0, 0)), // 14 min after: same
		long(game("c", at(2, 20, 39), "Fox", "BB#1", "Marth", model.OutcomeWin, 0, 0, 0)), // 15 min after: new
		long(game("d", time.Time{}, "Fox", "AA#1", "Marth", model.OutcomeWin, 0, 0, 0)),   // no start: no session
	}
	ss := NewSessions()
	for i := len(games) - 1; i >= 0; i-- {
		ss.Note(&games[i]) // the first pass's order does not matter
	}
	late := long(game("e", at(2, 20, 50), "Fox", "AA#1", "Marth", model.OutcomeWin, 0, 0, 0))
	early := long(game("f", at(2, 19, 0), "Fox", "AA#1", "Marth", model.OutcomeWin, 0, 0, 0))
	agg := NewAggregator(Options{By: []Key{KeyPlayer, KeySession}, Sessions: ss})
	for _, g := range []Game{games[2], late, games[0], games[3], early, games[1]} {
		agg.Add(&g)
	}
	got := map[string]int{}
	for _, g := range agg.Result().Groups {
		got[g.Values[0]+" "+g.Values[1]] = g.Games
	}
	want := map[string]int{
		"ME#1 2024-03-02 20:00": 2, "ME#1 2024-03-02 20:39": 2, "ME#1 2024-03-02 19:00": 1,
		"AA#1 2024-03-02 20:00": 2, "AA#1 2024-03-02 19:00": 1, "AA#1 2024-03-02 20:50": 1, // e: 26 min after AA#1 ended at 20:24
		"BB#1 2024-03-02 20:39": 1,
	}
	if len(got) != len(want) {
		t.Errorf("groups %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d player-games, want %d (all: %v)", k, got[k], n, got)
		}
	}
	// two aggregations at once over sessions no aggregation has used yet
	// (the TUI groups by key and by key and month together): found once,
	// then only read, and they agree
	fresh := NewSessions()
	for i := range games {
		fresh.Note(&games[i])
	}
	done := make(chan *Result)
	for range 2 {
		go func() { done <- Run(games, Options{By: []Key{KeySession}, Sessions: fresh}) }()
	}
	if a, b := <-done, <-done; len(a.Groups) != len(b.Groups) || len(a.Groups) == 0 {
		t.Errorf("two aggregations over the same sessions: %d and %d groups", len(a.Groups), len(b.Groups))
	}
	// Run makes its own first pass: the same groups as the list gives
	res := Run(games, Options{By: []Key{KeySession}})
	if len(res.Groups) != 2 || res.Groups[0].Games != 4 || res.Groups[0].Values[0] != "2024-03-02 20:00" {
		t.Errorf("Run: %+v", res.Groups)
	}
}

// A List's games (what the TUI keeps) group exactly as the games they
// were added from, under every key: the same groups, counts, sums and
// tallies, and the same sessions and players; a list made of two appended
// groups as one made at once, and so does a batch's list.
func TestListGroupsTheSame(t *testing.T) {
	withStats(t, testDefs)
	games := func() []Game {
		gs := []Game{
			game("a", at(1, 18, 0), "Fox", "AA#1", "Marth", model.OutcomeWin, 4, 10, 40, "up smash", "up smash", "back air"),
			game("b", at(1, 18, 6), "Fox", "AA#1", "Marth", model.OutcomeLoss, 1, 10, 90, "up smash"),
			game("c", at(2, 20, 0), "Falco", "BB#2", "Sheik", model.OutcomeQuit, 4, 8, 30),
			{Path: "broken", Format: "slippi", Err: "not a replay"},
			game("d", time.Date(2024, 3, 2, 23, 30, 0, 5, time.FixedZone("EST", -5*3600)), "Fox", "BB#2", "Fox", model.OutcomeWin, 2.5, 3, 1e20),
			game("e", time.Time{}, "Sheik", "", "Peach", model.OutcomeDraw, -3, 0, 0),
		}
		gs[4].Duration, gs[5].Partial = 90*time.Second, true
		gs[5].Summary.Players = gs[5].Summary.Players[:1] // the summary lacks a player
		for i := range gs {
			gs[i].Path = "" // a list keeps none
		}
		return gs
	}
	whole := NewList()
	for _, g := range games() {
		whole.Add(&g)
	}
	halves, second := NewList(), NewList()
	for i, g := range games() {
		if i < 2 {
			halves.Add(&g)
		} else {
			second.Add(&g)
		}
	}
	halves.Append(second)
	batch := NewBatch() // a batch's, its players kept game by game
	for _, g := range games() {
		batch.Add(&g)
	}
	for name, l := range map[string]*List{"one list": whole, "two appended": halves, "a batch's": batch} {
		if l.Len() != len(games()) {
			t.Fatalf("%s: %d games", name, l.Len())
		}
		// by place, from the last: each segment's games
		var byPlace Game
		for i := l.Len() - 1; i >= 0; i-- {
			if l.Game(i, &byPlace); !byPlace.Start.Equal(games()[i].Start) || byPlace.Title != games()[i].Title {
				t.Errorf("%s: Game(%d) is not the game added %d", name, i, i)
			}
		}
		i := 0
		for g := range l.All() {
			want := games()[i]
			if !g.Start.Equal(want.Start) || g.Start.Location().String() != want.Start.Location().String() || g.Duration != want.Duration ||
				g.Title != want.Title || g.Format != want.Format || g.Err != want.Err || g.Partial != want.Partial || !slices.Equal(g.Players, want.Players) {
				t.Errorf("%s: game %d: %+v, want %+v", name, i, *g, want)
			}
			i++
		}
		for _, k := range Keys {
			for _, lras := range []bool{false, true} {
				opt := Options{By: []Key{k}, LRASLoss: lras}
				want, err := json.Marshal(Run(games(), opt))
				if err != nil {
					t.Fatal(err)
				}
				got, _ := json.Marshal(l.Run(opt))
				if string(got) != string(want) {
					t.Errorf("%s, by %s: \n%s\nwant\n%s", name, k, got, want)
				}
			}
		}
		if !reflect.DeepEqual(l.Frequent(), Frequent(games())) {
			t.Errorf("%s: Frequent %+v", name, l.Frequent())
		}
		opt := Options{By: []Key{KeySession, KeyCharacter}, Sessions: l.Sessions()}
		want, _ := json.Marshal(Run(games(), Options{By: opt.By}))
		if got, _ := json.Marshal(l.Run(opt)); string(got) != string(want) {
			t.Errorf("%s: sessions:\n%s\nwant\n%s", name, got, want)
		}
	}
}

// TestListAddHeader: AddHeader adds what FromHeader makes of a header and
// skips what it would skip, for the same reason, though its header and
// summary are read into the same memory each time (a SummaryReader's).
func TestListAddHeader(t *testing.T) {
	withStats(t, testDefs)
	players := []library.Player{{Slot: "P1", Name: "Me", Code: "ME#1", Character: "Fox"}, {Slot: "P2", Name: "Them", Code: "OP#1", Character: "Marth"}}
	sum := func(kills float64, partial bool) *library.Summary {
		return &library.Summary{Partial: partial, Summary: model.Summary{Players: []model.PlayerSummary{
			{Outcome: model.OutcomeWin, Stats: []model.Stat{{Key: "killCount", Value: kills}}}, {Outcome: model.OutcomeLoss}}}}
	}
	var hs []library.Header
	for i := range 8 {
		h := library.Header{Path: fmt.Sprint(i), Format: "slippi", Title: "Battlefield", Start: at(1+i, 18, 0), Duration: time.Minute, Players: players[:2-i%2]}
		switch i {
		case 2:
			h.Err = "not a replay"
		case 3:
			h.Summary = sum(1, true)
		case 4: // no summary yet
		case 5:
			h.Summary, h.Players = sum(2, false), nil
		default:
			h.Summary = sum(float64(i), false)
		}
		hs = append(hs, h)
	}
	want, got := NewList(), NewList()
	var wantSkips, gotSkips []string
	var h library.Header
	var s library.Summary
	for i := range hs {
		g := FromHeader(&hs[i])
		if why := g.SkipReason(); why != "" {
			wantSkips = append(wantSkips, why)
		} else {
			want.Add(&g)
		}
		h = hs[i]
		if hs[i].Summary != nil {
			s = *hs[i].Summary
			h.Summary = &s
		}
		if why := got.AddHeader(&h); why != "" {
			gotSkips = append(gotSkips, why)
		}
	}
	if !slices.Equal(gotSkips, wantSkips) || len(gotSkips) != 4 {
		t.Errorf("skipped %q, want %q", gotSkips, wantSkips)
	}
	for _, k := range []Key{KeyCharacter, KeyOpponent, KeyMonth} {
		w, _ := json.Marshal(want.Run(Options{By: []Key{k}}))
		g, _ := json.Marshal(got.Run(Options{By: []Key{k}}))
		if string(g) != string(w) || got.Len() != 4 {
			t.Errorf("by %s: %d games\n%s\nwant\n%s", k, got.Len(), g, w)
		}
	}
}

// TestListChunks: a list whose values fill several chunks (and one made of
// two such lists appended) reads every value back: the same groups as the
// games give.
func TestListChunks(t *testing.T) {
	withStats(t, testDefs)
	var games []Game
	for i := range 6000 {
		g := game("", at(1+i%28, 18, 0), []string{"Fox", "Marth"}[i%2], fmt.Sprintf("OP#%d", i%7), "Sheik", model.OutcomeWin, float64(i)+0.5, float64(i%13)/3, 1e300)
		for j := range 60 {
			g.Summary.Players[0].Stats = append(g.Summary.Players[0].Stats, model.Stat{Key: "killMoves", Name: fmt.Sprint("move", j), Value: float64(i*j) + 0.25})
		}
		games = append(games, g)
	}
	whole, first, second := NewList(), NewList(), NewList()
	whole.Grow(len(games), 2)
	for i := range games {
		whole.Add(&games[i])
		if i < 2500 {
			first.Add(&games[i])
		} else {
			second.Add(&games[i])
		}
	}
	first.Append(second)
	if len(whole.segs) != 1 || len(whole.segs[0].vals) < 3 || len(first.segs) != 2 || len(first.segs[1].vals) < 2 || second.Len() != 0 {
		t.Fatalf("%d and %d segments: the test tests nothing", len(whole.segs), len(first.segs))
	}
	for _, k := range []Key{KeyCharacter, KeyOpponent} {
		want, _ := json.Marshal(Run(games, Options{By: []Key{k}}))
		for name, l := range map[string]*List{"one": whole, "appended": first} {
			if got, _ := json.Marshal(l.Run(Options{By: []Key{k}})); string(got) != string(want) {
				t.Errorf("%s list, by %s: not the games' groups", name, k)
			}
		}
	}
}

// A table cell reads at an archive's scale: counts grouped by thousands,
// time played from seconds to thousands of hours.
func TestCells(t *testing.T) {
	for _, c := range []struct {
		x    float64
		unit model.Unit
		want string
	}{
		{678403, model.UnitCount, "678,403"},
		{-1234, model.UnitCount, "-1,234"},
		{7, model.UnitCount, "7"},
		{97.14159, model.UnitCount, "97.1"},
		{99.97, model.UnitCount, "100"},
		{23.98, model.UnitCount, "24.0"},
		{9.996, model.UnitCount, "10.0"},
		{1.154, model.UnitCount, "1.15"},
		{-0.5, model.UnitCount, "-0.50"},
		{2e15, model.UnitCount, "2000000000000000"},
		{1234.6, model.UnitCount, "1,235"},
		{0.5, model.UnitPercent, "50.0%"},
		{40.25, model.UnitDamage, "40.2%"},
		{153.46, model.UnitSeconds, "2:33.46"},
	} {
		if got := FormatValue(c.x, c.unit); got != c.want {
			t.Errorf("FormatValue(%v, %v) = %q, want %q", c.x, c.unit, got, c.want)
		}
	}
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{13*time.Second + 400*time.Millisecond, "13s"},
		{59600 * time.Millisecond, "1m"},
		{42*time.Minute + 10*time.Second, "42m"},
		{3*time.Hour + 5*time.Minute, "3h05m"},
		{159763 * time.Hour, "159,763h"},
	} {
		if got := Played(c.d); got != c.want {
			t.Errorf("Played(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestAddListAsAdd: games added a list at a time (stats --by's batches),
// with the games the lists left out counted where they came, group as the
// same games added one by one: the same groups, members, sums and skips
// in the same order, under every key; and a list Reset and filled again
// (a batch's list going round) groups as a new one.
func TestAddListAsAdd(t *testing.T) {
	withStats(t, testDefs)
	var games []Game
	for i := range 40 {
		g := game(fmt.Sprint(i), at(1+i%9, 18, i), []string{"Fox", "Marth", "Sheik"}[i%3], fmt.Sprintf("OP#%d", i%4), []string{"Falco", "Peach"}[i%2],
			[]model.Outcome{model.OutcomeWin, model.OutcomeLoss, model.OutcomeQuit}[i%3], float64(i%5)+0.1, float64(i%7)/3, float64(i))
		switch i % 11 {
		case 3:
			g.Err = "not a replay"
		case 7:
			g.Partial = true
		case 9:
			g.Players = nil
		}
		games = append(games, g)
	}
	for _, batch := range []*List{NewList(), NewBatch()} {
		testAddListAsAdd(t, games, batch)
	}
}

func testAddListAsAdd(t *testing.T, games []Game, batch *List) {
	// a list whose tables grew past what a Reset keeps
	for i := range 5000 {
		g := game("", at(1, 18, 0), "Fox", fmt.Sprintf("MANY#%d", i), "Falco", model.OutcomeWin, 1, 1, 1)
		batch.Add(&g)
	}
	for _, k := range Keys {
		for _, players := range [][]string{nil, {"op#1"}} {
			opt := Options{By: []Key{k}, Players: players}
			if NeedsSessions(opt.By) {
				opt.Sessions = NewSessions()
				for i := range games {
					opt.Sessions.Note(&games[i])
				}
			}
			one := NewAggregator(opt)
			for i := range games {
				one.Add(&games[i])
			}
			want, _ := json.Marshal(one.Result())
			lists := NewAggregator(opt)
			for lo := 0; lo < len(games); lo += 6 {
				batch.Reset()
				var skips []ListSkip
				for i := lo; i < min(lo+6, len(games)); i++ {
					if why := games[i].SkipReason(); why != "" {
						skips = append(skips, ListSkip{Skip{games[i].Path, why}, batch.Len()})
						continue
					}
					batch.Add(&games[i])
				}
				lists.AddList(batch, skips)
			}
			if got, _ := json.Marshal(lists.Result()); string(got) != string(want) {
				t.Errorf("batch %v, by %s, players %v:\n%s\nwant\n%s", batch.batch, k, players, got, want)
			}
		}
	}
}
