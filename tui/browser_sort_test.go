package tui

import (
	"context"
	"fmt"
	"math/rand"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"rewind/library"
	"rewind/model"
	"rewind/theme"

	tea "github.com/charmbracelet/bubbletea"
)

// sortRef is the order sortRows means, from the rows' headers: the column
// (refCmp), then newest first, then row number. Descriptions are made
// once a row.
func sortRef(hs []library.Header, ids []library.RowID, o order) []library.RowID {
	descs := make([]string, len(hs))
	if o.col == colWhat {
		for i := range hs {
			descs[i] = strings.ToLower(describe(&hs[i]))
		}
	}
	want := slices.Clone(ids)
	slices.SortStableFunc(want, func(x, y library.RowID) int {
		a, b := &hs[x], &hs[y]
		var c int
		if o.col == colWhat {
			ha, hb := a.Title != "" || len(a.Players) > 0, b.Title != "" || len(b.Players) > 0
			switch {
			case ha != hb && ha:
				return -1
			case ha != hb:
				return 1
			case ha:
				c = strings.Compare(descs[x], descs[y])
				if o.desc {
					c = -c
				}
			}
		} else {
			c = refCmp(o, a, b)
		}
		if c == 0 && o.col != colDate {
			c = refCmp(order{colDate, true}, a, b)
		}
		if c == 0 {
			return cmpU64(uint64(x), uint64(y))
		}
		return c
	})
	return want
}

// manyRows is a store of rows enough for the sort's paths on all cores:
// names equal in many folders, names that start others, UTF-8 names,
// formats, modes and players from small pools (teams on some), dates
// missing or equal on many, checks on some.
func manyRows(t *testing.T, rng *rand.Rand, n int) (*library.Store, []library.Header, []library.RowID) {
	t.Helper()
	s := library.NewStore()
	stems := []string{"Game_2019", "game_2019", "replay", "Replay", "Ärger", "a", "Game_20190101T000000"}
	people := make([]string, 300)
	for i := range people {
		people[i] = fmt.Sprintf("player%d", i)
	}
	chars := []string{"Fox", "Falco", "Marth", ""}
	var hs []library.Header
	ids := make([]library.RowID, 0, n)
	for len(ids) < n {
		var name string
		switch rng.Intn(3) {
		case 0:
			name = stems[rng.Intn(len(stems))] + ".slp" // in many folders
		case 1:
			name = fmt.Sprintf("%s%d.slp", stems[rng.Intn(len(stems))], rng.Intn(50))
		default:
			name = fmt.Sprintf("%s_%06d.slp", stems[rng.Intn(len(stems))], rng.Intn(1_000_000))
		}
		h := library.Header{Path: fmt.Sprintf("d%d/%s", rng.Intn(5000), name), Kind: library.File,
			Format: model.Format([]string{"slippi", "sc2", "bsor", "teehistorian", "osu", ""}[rng.Intn(6)]), Mode: []string{"", "osu!catch"}[rng.Intn(2)],
			Size:     int64(rng.Intn(5000)),
			Duration: time.Duration(rng.Intn(50)-1) * time.Second, Title: []string{"", "Battlefield", "believer", "Battlefield"}[rng.Intn(4)], Problems: rng.Intn(3)}
		if rng.Intn(5) > 0 {
			h.Start = time.Date(2020, 1, 1+rng.Intn(20), rng.Intn(3), 0, 0, 0, time.UTC)
		}
		if rng.Intn(3) == 0 {
			h.Check = &library.Check{Problems: rng.Intn(3)}
		}
		for range rng.Intn(5) {
			p := library.Player{Name: people[rng.Intn(len(people))], Character: chars[rng.Intn(len(chars))]}
			if rng.Intn(2) == 0 {
				p.Name = ""
			}
			h.Players = append(h.Players, p)
		}
		if len(h.Players) == 4 && rng.Intn(2) == 0 {
			for i := range h.Players {
				h.Players[i].Team = []string{"red", "blue"}[i%2]
			}
		}
		if _, ok := s.Lookup(h.Path); ok {
			continue // one row a path
		}
		ids = append(ids, s.Put(&h))
	}
	hs = make([]library.Header, s.Len())
	for _, id := range ids {
		hs[id] = s.Header(id)
	}
	return s, hs, ids
}

// TestSortRowsMany: over a list long enough to be read and sorted on all
// cores, the sort orders rows as the reference does, every column and
// direction, with one description cache kept across the sorts as the
// browser keeps it.
func TestSortRowsMany(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	s, hs, ids := manyRows(t, rng, 70_000)
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	whats := newWhatCache()
	for col := range nColumns {
		for _, desc := range []bool{false, true} {
			o := order{col, desc}
			got, _ := sortRows(context.Background(), s, ids, o, whats)
			checkOrder(t, fmt.Sprintf("by %s desc %v", columnNames[col], desc), hs, got, sortRef(hs, ids, o))
		}
	}
}

// checkOrder reports the first row where got and want differ.
func checkOrder(t *testing.T, what string, hs []library.Header, got, want []library.RowID) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if got[i] != want[i] {
			a, b := hs[got[i]], hs[want[i]]
			t.Errorf("%s: at %d got %d %q %q %v, want %d %q %q %v", what, i, got[i], describe(&a), path.Base(a.Path), a.Start,
				want[i], describe(&b), path.Base(b.Path), b.Start)
			return
		}
	}
}

// TestSortRowsAfterChange: a sort after the store changed (rows added, a
// row's players, teams or title changed, a check landing) orders rows as
// the reference does with the description cache kept from the sorts
// before, as the browser keeps it.
func TestSortRowsAfterChange(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	s, _, ids := manyRows(t, rng, 40_000)
	whats := newWhatCache()
	for col := range nColumns {
		sortRows(context.Background(), s, ids, order{col, defaultDesc(col)}, whats)
	}
	// change a few hundred rows in place, each in one way
	for _, id := range ids[:600] {
		h := s.Header(id)
		switch id % 4 {
		case 0:
			h.Title = "Final Destination"
		case 1:
			if len(h.Players) > 0 {
				h.Players[0].Name = "newcomer"
			}
		case 2:
			h.Players = []library.Player{{Name: "a", Character: "Fox", Team: "red"}, {Name: "b", Character: "Fox", Team: "red"},
				{Name: "c", Character: "Falco", Team: "blue"}}
		case 3:
			h.Check = &library.Check{Problems: 7}
		}
		s.Put(&h)
	}
	// and add rows: new names, new players
	more, _, _ := manyRows(t, rand.New(rand.NewSource(10)), 5_000)
	for id := range library.RowID(more.Len()) {
		h := more.Header(id)
		h.Path = "more/" + h.Path
		h.Players = append(h.Players, library.Player{Name: fmt.Sprint("late", id%7), Character: "Peach"})
		ids = append(ids, s.Put(&h))
	}
	hs := make([]library.Header, s.Len())
	for _, id := range ids {
		hs[id] = s.Header(id)
	}
	for col := range nColumns {
		for _, desc := range []bool{false, true} {
			o := order{col, desc}
			got, _ := sortRows(context.Background(), s, ids, o, whats)
			checkOrder(t, fmt.Sprintf("by %s desc %v", columnNames[col], desc), hs, got, sortRef(hs, ids, o))
		}
	}
}

// TestSortByPlayersTeams: rows of the same players read differently with
// teams ("Fox & Falco vs Marth & Sheik") and without ("Fox vs Falco vs
// Marth vs Sheik"), and sort by what they read.
func TestSortByPlayersTeams(t *testing.T) {
	players := func(teams ...string) []library.Player {
		var ps []library.Player
		for i, c := range []string{"Fox", "Falco", "Marth", "Sheik"} {
			p := library.Player{Character: c}
			if teams != nil {
				p.Team = teams[i]
			}
			ps = append(ps, p)
		}
		return ps
	}
	tests := []struct {
		what string
		rows [][]library.Player
		want []library.RowID // ascending
	}{
		{"no teams first", [][]library.Player{players(), players("red", "red", "blue", "blue")}, []library.RowID{1, 0}},
		{"teams first", [][]library.Player{players("red", "red", "blue", "blue"), players()}, []library.RowID{0, 1}},
		{"other teams", [][]library.Player{players("red", "blue", "red", "blue"), players("red", "red", "blue", "blue")}, []library.RowID{1, 0}},
	}
	for _, tt := range tests {
		s := library.NewStore()
		var ids []library.RowID
		for i, ps := range tt.rows {
			ids = append(ids, s.Put(&library.Header{Path: fmt.Sprintf("g%d.slp", i), Kind: library.File, Players: ps}))
		}
		got, _ := sortRows(context.Background(), s, ids, order{colWhat, false}, newWhatCache())
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.what, got, tt.want)
		}
	}
}

// TestBrowserSortByPlayersKeepsItsCache: the browser keeps one description
// cache across sorts of its store, and a sort after a row's players
// changed and a row was added orders by what the rows read now.
func TestBrowserSortByPlayersKeepsItsCache(t *testing.T) {
	b := newTestBrowser(160, 48)
	for b.order.col != colWhat {
		b.press("s")
	}
	whats := b.whats
	if whats == nil {
		t.Fatal("no description cache after a sort by players")
	}
	hs := testHeaders()
	changed := hs[2] // slippi/Game_20230101.slp: Fox vs Marth
	changed.Players = []library.Player{{Slot: "P1", Character: "Zelda"}, {Slot: "P2", Character: "Marth"}}
	added := hs[4]
	added.Path, added.Players = "slippi/added.slp", []library.Player{{Slot: "P1", Character: "Bowser"}}
	feed(b, true, changed, added)
	b.press("S") // and back: a new sort of the changed list
	b.press("S")
	if b.whats != whats {
		t.Error("the sort made a new description cache for the same store")
	}
	ids := b.store.RowsUnder([]string{"bsor", "sc2", "slippi", "teehistorian"})
	hdrs := make([]library.Header, b.store.Len())
	for _, id := range ids {
		hdrs[id] = b.store.Header(id)
	}
	checkOrder(t, "by players", hdrs, b.shown, sortRef(hdrs, ids, b.order))
}

// TestBrowserPreparesDescriptions: once a long list's walk is done, the
// browser describes its rows in the background, and a sort by players then
// finds every row's description in the cache and orders as it should.
func TestBrowserPreparesDescriptions(t *testing.T) {
	b := newBrowser(theme.New(false), "many")
	b.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	chars := []string{"Fox", "Marth", "Sheik", "Falco", "Peach", "Jigglypuff"}
	var hs []library.Header
	for i := range syncLimit + 500 {
		hs = append(hs, library.Header{Path: fmt.Sprintf("d/%05d.slp", i), Kind: library.File, Title: []string{"Battlefield", "Dream Land N64"}[i%2],
			Start:   time.Date(2023, 1, 1+i%300, 0, 0, 0, 0, time.UTC),
			Players: []library.Player{{Name: fmt.Sprint("p", i%13), Character: chars[i%6]}, {Character: chars[i/6%6]}}})
	}
	feed(b, true, hs...)
	if b.whats == nil {
		t.Fatal("no descriptions prepared")
	}
	kept := 0
	var key []uint32
	b.store.Read(b.all, func(_ int, r library.Row) {
		if b.whats.rowKey(r, newWhatPart(), &key)&fromCache != 0 {
			kept++
		}
	})
	if kept != len(b.all) {
		t.Errorf("%d of %d rows described in the background", kept, len(b.all))
	}
	for b.order.col != colWhat {
		b.press("s")
	}
	list := make([]library.Header, b.store.Len())
	for _, id := range b.all {
		list[id] = b.store.Header(id)
	}
	checkOrder(t, "by players", list, b.shown, sortRef(list, b.all, b.order))
}

// TestWhatCacheRowChangedWhileSorting: a row that changes between the
// read of its text key and its description (a scan writes while a sort
// reads) leaves no description under its old key, so a later sort
// describes that key again.
func TestWhatCacheRowChangedWhileSorting(t *testing.T) {
	s := library.NewStore()
	h := library.Header{Path: "a.slp", Kind: library.File, Title: "Battlefield", Players: []library.Player{{Character: "Fox"}}}
	id := s.Put(&h)
	part := newWhatPart()
	var key []uint32
	s.Read([]library.RowID{id}, func(_ int, r library.Row) { key = r.TextKey(nil) })
	part.number(key, id)
	h.Players[0].Character = "Marth"
	s.Put(&h)
	w := newWhatCache()
	w.merge(s, []*whatPart{part})
	if len(w.byKey) != 0 {
		t.Errorf("the old key is described as %q", w.list[w.byKey[string(keyBytes(nil, key))]])
	}
	// the key read now is described as the row reads now
	s.Read([]library.RowID{id}, func(_ int, r library.Row) { key = r.TextKey(nil) })
	part = newWhatPart()
	part.number(key, id)
	descs := w.merge(s, []*whatPart{part})
	if got := w.list[descs[0][0]]; got != "battlefield · marth" { // one player: what was played first
		t.Errorf("described as %q", got)
	}
}

// TestWhatCacheKeepsRows: a sort by players keeps each row's description
// with the row's text revision, and a later sort with the same cache,
// after some rows' players or titles changed and rows were added, orders
// by what every row reads now, reading again just the rows changed since;
// prepare describes the rows the cache lacks.
func TestWhatCacheKeepsRows(t *testing.T) {
	s := library.NewStore()
	chars := []string{"Fox", "Marth", "Sheik", "Falco", "Peach"}
	header := func(i int, title string) library.Header {
		return library.Header{Path: fmt.Sprintf("g%02d.slp", i), Kind: library.File, Title: title,
			Start:   time.Date(2024, 1, 1, 0, i%7, 0, 0, time.UTC),
			Players: []library.Player{{Slot: "P1", Character: chars[i%5]}, {Slot: "P2", Character: chars[i*3%5]}}}
	}
	var ids []library.RowID
	hs := map[library.RowID]library.Header{}
	put := func(h library.Header) {
		id := s.Put(&h)
		if _, ok := hs[id]; !ok {
			ids = append(ids, id)
		}
		hs[id] = h
	}
	for i := range 40 {
		put(header(i, "Battlefield"))
	}
	w := newWhatCache()
	check := func(what string) {
		t.Helper()
		list := make([]library.Header, len(ids))
		for id, h := range hs {
			list[id] = h
		}
		for _, desc := range []bool{false, true} {
			o := order{colWhat, desc}
			got, _ := sortRows(context.Background(), s, ids, o, w)
			checkOrder(t, fmt.Sprintf("%s, descending %v", what, desc), list, got, sortRef(list, ids, o))
		}
	}
	kept := func() (n int) {
		var key []uint32
		s.Read(ids, func(_ int, r library.Row) {
			if w.rowKey(r, newWhatPart(), &key)&fromCache != 0 {
				n++
			}
		})
		return n
	}
	check("first sort")
	if n := kept(); n != len(ids) {
		t.Errorf("%d of %d rows kept their description", n, len(ids))
	}
	put(header(3, "Final Destination"))
	h := header(17, "Battlefield")
	h.Players[0].Character = "Bowser"
	put(h)
	put(header(40, "Yoshi's Story"))
	if n := kept(); n != len(ids)-3 {
		t.Errorf("%d of %d rows kept a description after three were written", n, len(ids))
	}
	check("after changes")
	if n := kept(); n != len(ids) {
		t.Errorf("%d of %d rows kept their description after the second sort", n, len(ids))
	}
	// what the browser runs in the background: the rows the cache lacks
	put(header(5, "Pokémon Stadium"))
	put(header(41, "Battlefield"))
	w.prepare(s, ids)
	if n := kept(); n != len(ids) {
		t.Errorf("%d of %d rows kept their description after prepare", n, len(ids))
	}
	check("after prepare")
}

// TestSortByPlayersFormatAndMode: rows of one title and player read
// differently when the format names its title by a hash (osu!: the player
// and the mode lead) and when the mode differs, and sort by what they
// read.
func TestSortByPlayersFormatAndMode(t *testing.T) {
	const beatmap = "2d0dfe625839ac940b346daa224706b5"
	row := func(f model.Format, mode string) library.Header {
		return library.Header{Kind: library.File, Format: f, Title: beatmap, Mode: mode, Players: []library.Player{{Name: "Lexii"}}}
	}
	tests := []struct {
		what string
		rows []library.Header
		want []library.RowID // ascending
	}{
		// "lexii · osu!catch · 2d0d…" after "2d0d… · lexii"
		{"osu! first", []library.Header{row("osu", "osu!catch"), row("slippi", "osu!catch")}, []library.RowID{1, 0}},
		{"modes", []library.Header{row("osu", "osu!mania"), row("osu", "osu!catch")}, []library.RowID{1, 0}},
	}
	for _, tt := range tests {
		s := library.NewStore()
		var ids []library.RowID
		for i, h := range tt.rows {
			h.Path = fmt.Sprintf("r%d.osr", i)
			ids = append(ids, s.Put(&h))
		}
		got, _ := sortRows(context.Background(), s, ids, order{colWhat, false}, newWhatCache())
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.what, got, tt.want)
		}
	}
}

// TestSortRowsByFileRepeatedNames: rows named as a real archive names them
// (numbered copies of stems that share long starts, each name in several
// folders, some names past the sort's window, some dates equal or missing)
// sort by file name as the reference sorts them, both directions, over a
// list long enough for the sort's paths on all cores.
func TestSortRowsByFileRepeatedNames(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	stems := []string{
		"test_replays__1.3.1.18221__1v1_Metalopol", "test_replays__1.3.1.18221__1v1_MetalopoL", "TEST_replays__1.3.1.18221__",
		"test_replays__1.3.4.18701__24557", "Starcraft2.ReplayParser.Tests__Replays__",
		"s2protocol.NET.tests__replays__test1", "s2protocol.NET.tests__replays__test10",
		strings.Repeat("a_folder_name_so_long_it_runs_past_the_window__", 3), "x",
	}
	s := library.NewStore()
	var ids []library.RowID
	for len(ids) < 90_000 {
		stem := stems[rng.Intn(len(stems))]
		name := fmt.Sprintf("%s_%04d.SC2Replay", stem, rng.Intn(300))
		if rng.Intn(20) == 0 {
			name = stem // ends where others go on
		}
		h := library.Header{Path: fmt.Sprintf("./%d/%02d/%s", 2019+rng.Intn(4), rng.Intn(40), name), Kind: library.File, Format: model.Format("sc2")}
		if rng.Intn(4) > 0 {
			h.Start = time.Unix(int64(1_600_000_000+rng.Intn(50)*3600), 0)
		}
		if _, ok := s.Lookup(h.Path); ok {
			continue
		}
		ids = append(ids, s.Put(&h))
	}
	hs := make([]library.Header, s.Len())
	for _, id := range ids {
		hs[id] = s.Header(id)
	}
	for _, desc := range []bool{false, true} {
		o := order{colFile, desc}
		got, _ := sortRows(context.Background(), s, ids, o, newWhatCache())
		checkOrder(t, fmt.Sprintf("by file desc %v", desc), hs, got, sortRef(hs, ids, o))
	}
}
