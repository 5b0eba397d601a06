package tui

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/decoders"
	"rewind/internal/cputime"
	"rewind/library"
	"rewind/library/aggregate"
	"rewind/library/dolphin"
	"rewind/model"
	"rewind/theme"
)

// aggGames is an archive of one player's 1v1s over three months against
// two characters, with one stat.
func aggGames() []aggregate.Game {
	var games []aggregate.Game
	for i := 0; i < 30; i++ {
		opp := []string{"Marth", "Sheik"}[i%2]
		out := model.OutcomeWin
		if i%3 == 0 {
			out = model.OutcomeLoss
		}
		other := map[model.Outcome]model.Outcome{model.OutcomeWin: model.OutcomeLoss, model.OutcomeLoss: model.OutcomeWin}[out]
		games = append(games, aggregate.Game{
			Path: fmt.Sprintf("games/%02d.slp", i), Format: "slippi", Title: "Battlefield", Duration: 4 * time.Minute,
			Start: time.Date(2024, time.Month(1+i/10), 1+i%10, 18, 0, 0, 0, time.UTC),
			Players: []aggregate.Player{{Slot: "P1", Name: "Me", Code: "ME#1", Character: "Fox"},
				{Slot: "P2", Name: "Them", Code: fmt.Sprintf("OP#%d", i%4), Character: opp}},
			Summary: &model.Summary{Players: []model.PlayerSummary{
				{Outcome: out, Stats: []model.Stat{{Key: "killCount", Value: float64(i % 5)}}}, {Outcome: other}}},
		})
	}
	return games
}

// openAgg opens the view and waits for its first grouping.
func openAgg(games []aggregate.Game, skipped []skipCount, what string) *aggView {
	return openAggList(listOf(games), skipped, what)
}

// listOf is games in a List, as the browser hands them to the view.
func listOf(games []aggregate.Game) *aggregate.List {
	l := aggregate.NewList()
	for i := range games {
		l.Add(&games[i])
	}
	return l
}

// openAggList is openAgg on a List.
func openAggList(games *aggregate.List, skipped []skipCount, what string) *aggView {
	v, cmd := newAggView(theme.New(false), games, skipped, what, nil)
	v.Update(cmd())
	return v
}

// aggPress gives the view a key and waits for the grouping it asks for.
func aggPress(v *aggView, k tea.KeyMsg) tea.Cmd {
	cmd := v.Update(k)
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if m, ok := msg.(aggRanMsg); ok {
		v.Update(m)
		return nil
	}
	return func() tea.Msg { return msg }
}

func TestAggregateView(t *testing.T) {
	f := decoders.ByID("slippi")
	old := f.Stats
	f.Stats = []model.StatDef{{Key: "killCount", Label: "Kills", Agg: model.AggSum}}
	t.Cleanup(func() { f.Stats = old })
	v := openAgg(aggGames(), nil, "all replays")
	for _, size := range [][2]int{{160, 48}, {80, 24}} {
		v.setSize(size[0], size[1])
		out := ansi.Strip(v.View())
		lines := strings.Split(out, "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > size[0] {
				t.Errorf("%dx%d: a line of %d cells: %q", size[0], size[1], ansi.StringWidth(l), l)
			}
		}
		for _, want := range []string{"stats by character", "Fox", "Marth", "win%", "30 games"} {
			if !strings.Contains(out, want) {
				t.Errorf("%dx%d: %q not shown:\n%s", size[0], size[1], want, out)
			}
		}
	}
	v.setSize(160, 48)
	// a group's charts are its own player-games by month: Fox (mine) won
	// 6 of 10 in January (losing games 0, 3, 6 and 9), 7 of 10 since; the
	// opponents' sides of the same games are not in them
	var wins, games []int
	for _, mg := range v.months["Fox"] {
		wins, games = append(wins, mg.Wins), append(games, mg.Games)
	}
	if !slices.Equal(wins, []int{6, 7, 7}) || !slices.Equal(games, []int{10, 10, 10}) {
		t.Errorf("Fox by month: wins %v of %v, want [6 7 7] of 10 each", wins, games)
	}
	// a key asks for a grouping off the UI goroutine: until it comes the
	// view shows the last one and says so, and an older one is dropped
	stale := v.Update(keyMsg("b"))
	v.setSize(80, 24)
	if out := ansi.Strip(v.View()); !strings.Contains(out, "stats by character  grouping 30 games by vs…") {
		t.Errorf("the title names the key of the groups shown and the one asked for, within 80 columns:\n%s", out)
	}
	v.setSize(160, 48)
	fresh := v.Update(keyMsg("B"))
	if out := ansi.Strip(v.View()); !strings.Contains(out, "stats by character") || !strings.Contains(out, "grouping 30 games by character…") || !strings.Contains(out, "Fox") {
		t.Errorf("while grouping:\n%s", out)
	}
	v.Update(stale())
	if !v.grouping || aggKeys[v.key] != aggregate.KeyCharacter {
		t.Errorf("a stale grouping was taken")
	}
	v.Update(fresh())
	if v.grouping || strings.Contains(ansi.Strip(v.View()), "grouping") {
		t.Errorf("still grouping")
	}
	// the player picker lists the most frequent first, each code with the
	// name it played under: ME#1 (Me) played all 30
	aggPress(v, keyMsg("p"))
	if out := ansi.Strip(v.View()); !regexp.MustCompile(`ME#1 +Me +30 games`).MatchString(out) {
		t.Errorf("picker:\n%s", out)
	}
	aggPress(v, keyMsg("down"))
	aggPress(v, keyMsg("enter"))
	if v.player != "ME#1" {
		t.Fatalf("player %q", v.player)
	}
	aggPress(v, keyMsg("b")) // vs: my opponents' characters
	if aggKeys[v.key] != aggregate.KeyVs || len(v.res.Groups) != 2 {
		t.Fatalf("key %v, %d groups", aggKeys[v.key], len(v.res.Groups))
	}
	out := ansi.Strip(v.View())
	for _, want := range []string{"stats by vs", "win rate by month", "Kills"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not shown:\n%s", want, out)
		}
	}
	// o puts the worst win rate first
	aggPress(v, keyMsg("b")) // matchup
	aggPress(v, keyMsg("o"))
	if !strings.Contains(ansi.Strip(v.View()), "worst win rate first") {
		t.Errorf("o: %s", ansi.Strip(v.View()))
	}
	for i := 1; i < len(v.res.Groups); i++ {
		a, _ := v.res.Groups[i-1].WinRate()
		b, _ := v.res.Groups[i].WinRate()
		if a > b {
			t.Errorf("worst first: %v before %v", a, b)
		}
	}
	aggPress(v, keyMsg("B"))
	// enter opens the group's games in the browser
	cmd := v.Update(tea.KeyMsg{Type: tea.KeyEnter})
	msg, ok := cmd().(aggOpenMsg)
	if !ok || len(msg.members) != 15 {
		t.Fatalf("enter: %#v", cmd())
	}
}

// An archive of more months than the chart has room for shows its latest
// months and says how many, and its axis names months without one label
// running into the next.
func TestAggregateChartMonths(t *testing.T) {
	var games []aggregate.Game
	for m := 0; m < 60; m++ { // five years, a game a month: 2019-01 to 2023-12
		g := aggGames()[m%30]
		g.Start = time.Date(2019+m/12, time.Month(1+m%12), 5, 18, 0, 0, 0, time.UTC)
		games = append(games, g)
	}
	v := openAgg(games, nil, "all replays")
	for _, size := range [][2]int{{160, 48}, {80, 24}, {200, 60}} {
		v.setSize(size[0], size[1])
		out := ansi.Strip(v.View())
		shown := (max(size[0]/2-2, 20) + 1) / 2 // a column and a gap a month
		if want := fmt.Sprintf("win rate, last %d of 60 months, Fox", shown); !strings.Contains(out, want) {
			t.Errorf("%dx%d: %q not shown:\n%s", size[0], size[1], want, out)
		}
		// the axis: the last line above the help; its labels are months
		// in order, the first the earliest month shown, none touching
		lines := strings.Split(out, "\n")
		axis := lines[len(lines)-2]
		labels := regexp.MustCompile(`\S+`).FindAllString(axis, -1)
		first := time.Date(2019, time.Month(1+60-shown), 1, 0, 0, 0, 0, time.UTC).Format("06-01")
		if len(labels) < 4 || labels[0] != first || !regexp.MustCompile(`^( ?\d\d-\d\d +)+\d\d-\d\d$`).MatchString(strings.TrimRight(axis, " ")) {
			t.Errorf("%dx%d: axis %q, want months from %s a space or more apart", size[0], size[1], axis, first)
		}
		if !slices.IsSorted(labels[:len(labels)/2]) {
			t.Errorf("%dx%d: axis %q not in order", size[0], size[1], axis)
		}
	}
}

// momentsStore puts games into a store as the index keeps them (header
// and summary) and returns their rows.
func momentsStore(games []aggregate.Game) (*library.Store, []library.RowID) {
	s := library.NewStore()
	var ids []library.RowID
	for _, g := range games {
		h := library.Header{Path: g.Path, Kind: library.File, Format: g.Format, Title: g.Title, Start: g.Start, Duration: g.Duration,
			Check: &library.Check{}, Summary: &library.Summary{Summary: *g.Summary}}
		for _, p := range g.Players {
			h.Players = append(h.Players, library.Player{Slot: p.Slot, Name: p.Name, Code: p.Code, Character: p.Character, Team: p.Team})
		}
		ids = append(ids, s.Put(&h))
	}
	return s, ids
}

// openMoments opens the moments view and waits for its first read.
func openMoments(s *library.Store, ids []library.RowID) *momentsView {
	v, cmd := newMomentsView(theme.New(false), s, ids, "all replays")
	v.setSize(120, 30)
	if v.reading != true || !strings.Contains(ansi.Strip(v.View()), "reading the moments of") {
		panic("the view does not say it is reading")
	}
	v.Update(cmd())
	return v
}

// momentGames are aggGames with two moments each: a combo of 10+i%
// (a kill for even i) and a stock.
func momentGames() []aggregate.Game {
	games := aggGames()
	for i := range games {
		games[i].Summary.Last = 5000
		games[i].Summary.Moments = []model.MomentRecord{
			{Kind: model.MomentCombo, Frame: int64(100 * i), End: int64(100*i + 60), Time: float64(i), EndTime: float64(i) + 1, By: 0, On: 1,
				Facts: model.MomentFacts{Damage: float64(10 + i), Hits: 3, Move: "up smash", Kill: i%2 == 0}},
			{Kind: model.MomentStock, Frame: int64(100*i + 60), End: int64(100*i + 60), By: 0, On: 1},
		}
	}
	return games
}

// The moments view lists the archive's moments that match its terms,
// biggest first; enter asks for the replay at the moment, d writes the
// Dolphin queue of the shown moments. The moments come from the
// summaries in the store.
func TestMomentsView(t *testing.T) {
	games := momentGames()
	v := openMoments(momentsStore(games))
	if len(v.rows) != 30 || v.rows[0].m.Facts.Damage != 39 || v.found != 30 {
		t.Fatalf("%d rows of %d, first %+v", len(v.rows), v.found, v.rows[0].m)
	}
	out := ansi.Strip(v.View())
	for _, want := range []string{"30 found", "kind:combo", "Fox→Marth", "39%", "kill up smash", "29.slp", "2024-03-10 18:00"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not shown:\n%s", want, out)
		}
	}
	// at 80 columns what a moment is still shows; the file goes first
	v.setSize(80, 24)
	out = ansi.Strip(v.View())
	for _, want := range []string{"damage", "39%", "kill up smash"} {
		if !strings.Contains(out, want) {
			t.Errorf("80x24: %q not shown:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("80x24: a line of %d cells: %q", ansi.StringWidth(l), l)
		}
	}
	v.setSize(120, 30)
	v.Update(v.setQuery("kind:combo damage:>=30 kill")())
	if len(v.rows) != 5 {
		t.Errorf("damage:>=30 kill: %d rows, want 5", len(v.rows))
	}
	// s orders the list held by date, newest first, without reading again
	if cmd := v.Update(keyMsg("s")); cmd != nil || v.sortBy != byDate || v.rows[0].m.Facts.Damage != 38 || v.rows[4].m.Facts.Damage != 30 {
		t.Errorf("by date: %v, %+v", cmd, v.rows)
	}
	v.Update(keyMsg("s"))
	v.Update(keyMsg("s"))
	cmd := v.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if m, ok := cmd().(momentOpenMsg); !ok || m.path != "games/28.slp" || m.frame != 2800 {
		t.Errorf("enter: %#v", cmd())
	}
	dir := t.TempDir()
	t.Chdir(dir)
	os.Mkdir("games", 0o755)
	for _, g := range games {
		os.WriteFile(g.Path, []byte("{U"), 0o644) // Dolphin needs the files there
	}
	v.Update(keyMsg("d"))
	if !strings.Contains(v.status, "wrote 5 clips") || !strings.Contains(v.status, "rewind-dolphin-queue.json") {
		t.Errorf("d: %q", v.status)
	}
	c, err := os.ReadFile("rewind-dolphin-queue.json")
	clip := fmt.Sprintf(`"startFrame": %d,
      "endFrame": %d,
      "gameStartAt": "2024-03-09 18:00:00",
      "gameStation": "P1 Fox (ME#1) vs P2 Marth (OP#0)"`, 2800-dolphin.DefaultLead, 2860+dolphin.DefaultTrail)
	if err != nil || !strings.Contains(string(c), clip) {
		t.Errorf("the queue: %v\n%s", err, c)
	}
}

// TestMomentsViewLimit: past maxMoments matches the view keeps the first
// in its order and says how many it found; a sort in another order reads
// them again (the first by date are not the biggest), the same whichever
// core read which rows; a new query stops a read under way.
func TestMomentsViewLimit(t *testing.T) {
	var games []aggregate.Game
	for range 70 { // more than one core's run: 1024 rows
		games = append(games, momentGames()...)
	}
	s, ids := momentsStore(games)
	all, found := findMoments(context.Background(), s, ids, nil, byDamage, 1<<20)
	if found != 2*len(games) || len(all) != found {
		t.Fatalf("%d of %d found, want %d", len(all), found, 2*len(games))
	}
	for _, by := range []momentSort{byDamage, byDate, byLength} {
		want := slices.Clone(all)
		sortMoments(want, by)
		for _, limit := range []int{1, 7, 100, 3000} {
			got, n := findMoments(context.Background(), s, ids, nil, by, limit)
			if n != found || !reflect.DeepEqual(got, want[:min(limit, len(want))]) {
				t.Errorf("by %s, limit %d: %d rows of %d found, not the first of them all", by, limit, len(got), n)
			}
		}
	}
	v := openMoments(s, ids)
	if v.found != len(games) || len(v.rows) != len(games) {
		t.Fatalf("%d rows of %d", len(v.rows), v.found)
	}
	v.rows, v.found = v.rows[:10], 20 // as if cut at 10
	if !strings.Contains(ansi.Strip(v.View()), "20 found, the first 10 by damage shown") {
		t.Errorf("a cut list does not say so:\n%s", ansi.Strip(v.View()))
	}
	cmd := v.Update(keyMsg("s"))
	if cmd == nil || !v.reading {
		t.Fatal("a cut list sorted by date is not read again")
	}
	if out := ansi.Strip(v.View()); !strings.Contains(out, "reading the moments of 2,100 replays…") || !strings.Contains(out, "the first 10 by damage shown") {
		t.Errorf("while the list by date is read, the one by damage is shown as such:\n%s", out)
	}
	// a query while the read is under way: the first read is stopped, its
	// result dropped
	first := v.gen
	v.typing = true
	v.input.SetValue("kind:stock")
	again := v.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if msg := cmd(); msg != nil {
		v.Update(msg)
		if m, ok := msg.(momentsReadMsg); !ok || m.gen != first {
			t.Errorf("the stopped read gave %#v", msg)
		}
	}
	if !v.reading || v.rows[0].m.Kind != model.MomentCombo {
		t.Error("a stopped read's moments were taken")
	}
	v.Update(again())
	if v.reading || len(v.rows) != len(games) || v.rows[0].m.Kind != model.MomentStock || v.sortBy != byDate {
		t.Errorf("kind:stock by date: reading %v, %d rows", v.reading, len(v.rows))
	}
}

// TestArchiveMakesGamesOfCountedRows: the browser's a makes a game only of
// a row whose summary counts; the rest (no summary yet, unreadable, a
// partial decode) are counted by reason, which the view's skipped line
// gives, every reason with its count.
func TestArchiveMakesGamesOfCountedRows(t *testing.T) {
	b := newBrowser(theme.New(false), "archive")
	b.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	players := []library.Player{{Slot: "P1", Name: "Me", Code: "ME#1", Character: "Fox"}, {Slot: "P2", Name: "Them", Code: "OP#1", Character: "Marth"}}
	sum := func(partial bool) *library.Summary {
		return &library.Summary{Partial: partial, Summary: model.Summary{Players: []model.PlayerSummary{{Outcome: model.OutcomeWin}, {Outcome: model.OutcomeLoss}}}}
	}
	var hs []library.Header
	for i := range 12 {
		h := library.Header{Path: fmt.Sprintf("g/%02d.slp", i), Kind: library.File, Format: "slippi", Title: "Battlefield",
			Start: time.Date(2024, 1, 1+i, 12, 0, 0, 0, time.UTC), Players: players}
		switch {
		case i < 3: // counted
			h.Check, h.Summary = &library.Check{}, sum(false)
		case i == 3:
			h.Check, h.Summary = &library.Check{Partial: true}, sum(true)
		case i == 4:
			h.Err, h.Players = "g/04.slp: cut short at 0x10", nil
		default: // not checked yet
		}
		hs = append(hs, h)
	}
	feed(b, true, hs...)
	// a says what it is doing while the games are read, and a second a
	// waits for the first
	cmd, _ := b.Update(keyMsg("a"))
	if cmd == nil || !strings.Contains(ansi.Strip(b.View()), "reading 12 rows for the stats…") {
		t.Fatalf("a: %v\n%s", cmd, ansi.Strip(b.View()))
	}
	if again, _ := b.Update(keyMsg("m")); again != nil {
		t.Error("m while a's games are read started another")
	}
	msg, ok := cmd().(archiveMsg)
	if !ok {
		t.Fatal("a gave no archive")
	}
	if msg.games.Len() != 3 || len(msg.ids) != 3 {
		t.Fatalf("%d games, %d ids, want the 3 that count", msg.games.Len(), len(msg.ids))
	}
	want := []skipCount{{"g/04.slp: cut short at 0x10", 1}, {aggregate.NoSummary, 7}, {"partial replay (the decode stopped early)", 1}} // by reason
	got := append([]skipCount(nil), msg.skipped...)
	slices.SortFunc(got, func(a, b skipCount) int { return strings.Compare(a.reason, b.reason) })
	if !slices.Equal(got, want) {
		t.Errorf("skipped %v, want %v", got, want)
	}
	v := openAggList(msg.games, msg.skipped, msg.what)
	v.setSize(160, 48)
	out := ansi.Strip(v.View())
	for _, want := range []string{"3 games", "9 skipped", "7 " + aggregate.NoSummary, "1 partial replay", "1 g/04.slp: cut short"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not shown:\n%s", want, out)
		}
	}
	// games without characters, by character: the view says what to do
	var plain []aggregate.Game
	for g := range msg.games.All() {
		c := *g
		c.Players = slices.Clone(g.Players)
		for p := range c.Players {
			c.Players[p].Character = ""
		}
		c.Summary = &model.Summary{Players: []model.PlayerSummary{{Outcome: model.OutcomeWin}, {Outcome: model.OutcomeLoss}}}
		plain = append(plain, c)
	}
	v = openAgg(plain, nil, msg.what)
	v.setSize(160, 48)
	if out := ansi.Strip(v.View()); !strings.Contains(out, "none of the 3 games counted has a character: b picks another key") {
		t.Errorf("no characters:\n%s", out)
	}
	v = openAgg(nil, msg.skipped, msg.what)
	v.setSize(160, 48)
	if out := ansi.Strip(v.View()); !strings.Contains(out, "none of the rows shown has a summary yet") {
		t.Errorf("no summaries:\n%s", out)
	}
}

// TestArchiveJoinsItsWorkersInOrder: rows enough for every core are read
// in runs and joined: the games keep the order of the rows shown, each
// game its own row's header, and none is lost or read twice.
func TestArchiveJoinsItsWorkersInOrder(t *testing.T) {
	b := newBrowser(theme.New(false), "archive")
	b.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	players := []library.Player{{Slot: "P1", Name: "Me", Code: "ME#1", Character: "Fox"}, {Slot: "P2", Name: "Them", Code: "OP#1", Character: "Marth"}}
	const n = 10_000
	hs := make([]library.Header, n)
	for i := range hs {
		hs[i] = library.Header{Path: fmt.Sprintf("g/%05d.slp", i), Kind: library.File, Format: "slippi", Title: "Battlefield",
			Start: time.Date(2024, 1, 1, 0, i, 0, 0, time.UTC), Players: players,
			Summary: &library.Summary{Summary: model.Summary{Players: []model.PlayerSummary{
				{Outcome: model.OutcomeWin, Stats: []model.Stat{{Key: "killCount", Value: float64(i)}}}, {Outcome: model.OutcomeLoss}}}}}
	}
	feed(b, true, hs...)
	cmd, _ := b.Update(keyMsg("a"))
	msg, ok := cmd().(archiveMsg)
	if !ok || msg.games.Len() != n || len(msg.ids) != n {
		t.Fatalf("%d games, %d ids, want %d", msg.games.Len(), len(msg.ids), n)
	}
	if !slices.Equal(msg.ids, b.shown) {
		t.Errorf("the games are not in the order of the rows shown")
	}
	i := 0
	for g := range msg.games.All() {
		// each row starts a minute after the last: the start names it (the
		// games keep no paths, the view names rows by index)
		if h := b.store.Header(msg.ids[i]); g.Path != "" || !g.Start.Equal(h.Start) {
			t.Fatalf("game %d (%q) started %v, its row %s %v", i, g.Path, g.Start, h.Path, h.Start)
		}
		i++
	}
	v := openAggList(msg.games, msg.skipped, msg.what)
	if v.res.Games != n || len(v.res.Groups) != 2 || v.res.Groups[0].Values[0] != "Fox" || v.res.Groups[0].Stats["killCount"].Sum != n*(n-1)/2 {
		t.Errorf("grouped %d games, groups %+v", v.res.Games, v.res.Groups)
	}
}

// BenchmarkFindMoments reads the moments of 100,000 replays of 60 moments
// each (six million) from the store, as the moments view does for a
// query, keeping the first maxMoments by damage; heapB/op is what the
// read allocates.
func BenchmarkFindMoments(b *testing.B) {
	s := library.NewStore()
	var ids []library.RowID
	players := []library.Player{{Slot: "P1", Name: "Me", Code: "ME#1", Character: "Fox"}, {Slot: "P2", Name: "Them", Code: "OP#1", Character: "Marth"}}
	for i := range 100_000 {
		sum := &library.Summary{Summary: model.Summary{Last: 9000, Players: []model.PlayerSummary{{Outcome: model.OutcomeWin}, {Outcome: model.OutcomeLoss}}}}
		for j := range 60 {
			kind := []model.MomentKind{model.MomentCombo, model.MomentConversion, model.MomentStock}[j%3]
			sum.Moments = append(sum.Moments, model.MomentRecord{Kind: kind, Frame: int64(100 * j), End: int64(100*j + 50), Time: float64(j), EndTime: float64(j) + 0.8,
				By: j % 2, On: 1 - j%2, Facts: model.MomentFacts{Damage: float64((i*7 + j*13) % 90), Hits: j % 6, Move: "up smash", Kill: j%9 == 0}})
		}
		h := library.Header{Path: fmt.Sprintf("g/%06d.slp", i), Kind: library.File, Format: "slippi", Start: time.Unix(1_600_000_000+int64(i)*600, 0).UTC(),
			Players: players, Check: &library.Check{}, Summary: sum}
		ids = append(ids, s.Put(&h))
	}
	for _, text := range []string{"kind:combo", "by:fox kind:combo damage:>=40", ""} {
		q, _ := library.ParseQuery(text)
		b.Run(strings.ReplaceAll(text, " ", "_"), func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cpu := cputime.Used()
			found := 0
			for range b.N {
				_, found = findMoments(context.Background(), s, ids, q, byDamage, maxMoments)
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64((cputime.Used()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N), "heapB/op")
			b.ReportMetric(float64(found), "found")
		})
	}
}

// TestMomentsReadWhileAway: a read of the moments that ends while a replay
// opened from the view is on screen still reaches the view, which shows
// its list, not "reading", on the way back.
func TestMomentsReadWhileAway(t *testing.T) {
	s, ids := momentsStore(momentGames())
	a := &app{th: theme.New(false), w: 120, h: 30, br: newTestBrowser(120, 30)}
	_, cmd := a.Update(archiveMsg{kind: archiveMoments, ids: ids, what: "all replays"})
	a.mv.store = s // the test browser's store holds no summaries
	if a.mode != modeMoments || cmd == nil || !a.mv.reading {
		t.Fatalf("mode %v, reading %v", a.mode, a.mv.reading)
	}
	a.mode = modeReplay // as enter opened a replay
	cmd = a.mv.read()   // the read the view started, over the store
	a.Update(cmd())
	if a.mv.reading || len(a.mv.rows) != 30 {
		t.Errorf("back from the replay: reading %v, %d rows", a.mv.reading, len(a.mv.rows))
	}
}

// TestAggregateMeAndSets: with me in the config the stats view starts on
// @me's games, and the picker offers @me first; t lists the sets, from
// @me's side, newest first, and enter hands the browser a set's games.
func TestAggregateMeAndSets(t *testing.T) {
	at := time.Date(2024, 3, 22, 20, 0, 0, 0, time.UTC)
	game := func(start time.Duration, a, b string, aWins bool) aggregate.Game {
		o := [2]model.Outcome{model.OutcomeWin, model.OutcomeLoss}
		if !aWins {
			o[0], o[1] = o[1], o[0]
		}
		return aggregate.Game{Path: fmt.Sprintf("%s-%s-%d.slp", a, b, start/time.Minute), Format: "slippi", Start: at.Add(start), Duration: 3 * time.Minute,
			Title:   "Battlefield",
			Players: []aggregate.Player{{Slot: "P1", Code: a, Name: a, Character: "Fox"}, {Slot: "P2", Code: b, Name: b, Character: "Marth"}},
			Summary: &model.Summary{Players: []model.PlayerSummary{{Outcome: o[0]}, {Outcome: o[1]}}}}
	}
	// a set ME 2-1 RIVAL, an hour later a set OTHER-RIVAL (not mine), then ME 0-1 OTHER
	games := []aggregate.Game{
		game(0, "ME#1", "RIVAL#2", true), game(4*time.Minute, "RIVAL#2", "ME#1", true), game(8*time.Minute, "ME#1", "RIVAL#2", true),
		game(70*time.Minute, "OTHER#3", "RIVAL#2", true),
		game(140*time.Minute, "ME#1", "OTHER#3", false),
	}
	v, cmd := newAggView(theme.New(false), listOf(games), nil, "all replays", []string{"me#1"})
	v.Update(cmd())
	v.setSize(140, 30)
	out := ansi.Strip(v.View())
	if !strings.Contains(out, "player: @me") || !strings.Contains(out, "4 games") {
		t.Errorf("the view does not start on @me's 4 games:\n%s", out)
	}
	v.Update(keyMsg("p"))
	if picker := ansi.Strip(v.View()); !strings.Contains(picker, "@me") || !strings.Contains(picker, "you: me#1") {
		t.Errorf("the picker does not offer @me:\n%s", picker)
	}
	v.Update(keyMsg("esc"))
	cmd = v.Update(keyMsg("t"))
	v.Update(cmd())
	out = ansi.Strip(v.View())
	lines := strings.Split(out, "\n")
	var rows []string
	for _, l := range lines {
		if strings.Contains(l, "2024-03-22") {
			rows = append(rows, strings.Join(strings.Fields(l), " "))
		}
	}
	want := []string{
		`> 2024-03-22 22:20 1 OTHER#3 0-1 lost Fox Marth Battlefield`,
		`2024-03-22 20:00 3 RIVAL#2 2-1 won Fox+Marth Marth+Fox Battlefield`, // most played first
	}
	if len(rows) != 2 || rows[0] != want[0] || rows[1] != want[1] {
		t.Errorf("@me's sets:\n%q\nwant\n%q\n%s", rows, want, out)
	}
	v.Update(keyMsg("down"))
	cmd = v.Update(keyMsg("enter"))
	open, ok := cmd().(aggOpenMsg)
	if !ok || !slices.Equal(open.members, []int32{0, 1, 2}) {
		t.Errorf("enter on the set: %+v", open)
	}
}
