package tui

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"rewind/internal/cputime"
	"rewind/library"
	"rewind/model"
	"rewind/theme"
)

func testHeaders() []library.Header {
	mk := func(path string, f model.Format, start time.Time, title string, dur time.Duration, size int64, probs int, players ...string) library.Header {
		h := library.Header{Path: path, Kind: library.File, Format: f, Start: start, Title: title, Duration: dur, Size: size, Problems: probs}
		for i, c := range players {
			h.Players = append(h.Players, library.Player{Slot: "P" + itoa(i+1), Character: c})
		}
		return h
	}
	day := func(d int) time.Time { return time.Date(2023, 1, d, 12, 30, 0, 0, time.UTC) }
	// in the order a walk finds them
	return []library.Header{
		mk("bsor/song.bsor", model.Format("bsor"), day(5), "Believer", 3*time.Minute+24*time.Second, 1_100_000, 0, "Quest 2"),
		{Path: "sc2/broken.SC2Replay", Kind: library.File, Format: model.Format("sc2"), Err: "mpq: at 0x0: bad header", Size: 1024},
		mk("slippi/Game_20230101.slp", model.Format("slippi"), day(1), "Battlefield", 8*time.Minute, 2_400_000, 0, "Fox", "Marth"),
		mk("slippi/corrupt.slp", model.Format("slippi"), day(2), "Yoshi's Story", 40*time.Second, 120_000, 3, "Sheik", "Peach", "Fox", "Falco"),
		mk("slippi/ics.slp", model.Format("slippi"), day(3), "Final Destination", 3*time.Minute, 900_000, 0, "Ice Climbers", "Falco"),
		mk("teehistorian/x.teehistorian", model.Format("teehistorian"), time.Time{}, "Kobra 4", 12*time.Minute, 340_000, 1),
	}
}

// feed puts headers into the browser's store and hands their rows in as
// one batch of a scan (done: the scan ends with it), running the jobs a
// long list starts until the list has settled.
func feed(b *browser, done bool, hs ...library.Header) {
	var batch []library.Scanned
	for i := range hs {
		batch = append(batch, library.Scanned{ID: b.store.Put(&hs[i]), Read: true})
	}
	settle(b, func() tea.Cmd { cmd, _ := b.Update(rowsMsg{gen: b.gen, batch: batch, done: done}); return cmd })
}

// settle runs what an update returns, as Bubble Tea would but on this
// goroutine, until nothing is left: sort and filter jobs land.
func settle(b *browser, update func() tea.Cmd) {
	var run func(cmd tea.Cmd)
	run = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		switch m := cmd().(type) {
		case tea.BatchMsg:
			for _, c := range m {
				run(c)
			}
		case sortedMsg:
			c, _ := b.Update(m)
			run(c)
		}
	}
	run(update())
}

// key sends a key and lets the jobs it starts land.
func (b *browser) press(k string) *row {
	var open *row
	settle(b, func() tea.Cmd {
		cmd, rw := b.Update(keyMsg(k))
		open = rw
		return cmd
	})
	return open
}

func newTestBrowser(w, h int) *browser {
	b := newBrowser(theme.New(false), "testdata")
	b.Update(tea.WindowSizeMsg{Width: w, Height: h})
	feed(b, true, testHeaders()...)
	return b
}

type browserModel struct{ b *browser }

func (m browserModel) Init() tea.Cmd { return nil }
func (m browserModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd, _ := m.b.Update(msg)
	return m, cmd
}
func (m browserModel) View() string { return m.b.View() }

func TestGoldenBrowser(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		for _, c := range []struct {
			name string
			keys []string
		}{
			{"list", nil},
			{"filter", []string{"/", "f", "o", "x"}},
			{"query_error", split("/date:2023-13")},
			{"sorted_by_length", []string{"s", "s", "s"}},
			{"help", []string{"?"}},
		} {
			t.Run(c.name+"_"+itoa(sz[0])+"x"+itoa(sz[1]), func(t *testing.T) {
				tm := teatest.NewTestModel(t, browserModel{newTestBrowser(sz[0], sz[1])}, teatest.WithInitialTermSize(sz[0], sz[1]))
				for _, k := range c.keys {
					tm.Send(keyMsg(k))
				}
				if err := tm.Quit(); err != nil {
					t.Fatal(err)
				}
				out := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
				checkScreen(t, out, sz[0], sz[1])
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

func (b *browser) paths(ids []library.RowID) []string {
	var out []string
	for _, id := range ids {
		out = append(out, b.store.Path(id))
	}
	return out
}

// byPath is the header of the row of a path.
func (b *browser) byPath(p string) (library.Header, bool) {
	id, ok := b.store.Lookup(p)
	if !ok || !b.listed.has(id) {
		return library.Header{}, false
	}
	return b.store.Header(id), true
}

func TestBrowserKeys(t *testing.T) {
	b := newTestBrowser(160, 48)
	if got := b.store.Path(b.shown[0]); got != "bsor/song.bsor" {
		t.Errorf("newest first: %s", got)
	}
	if got := b.store.Header(b.shown[len(b.shown)-1]).Start; !got.IsZero() {
		t.Error("undated rows should go last")
	}
	b.Update(keyMsg("down"))
	b.Update(keyMsg("j"))
	if b.cur != 2 {
		t.Errorf("cursor %d", b.cur)
	}
	_, open := b.Update(keyMsg("enter"))
	if open == nil || open.src.path != "slippi/corrupt.slp" {
		t.Fatalf("enter opened %v", open)
	}
	b.Update(keyMsg("/"))
	for _, k := range split("fox") {
		b.Update(keyMsg(k))
	}
	if len(b.shown) != 2 {
		t.Errorf("filter fox: %d rows", len(b.shown))
	}
	if !strings.Contains(b.View(), "Fox") {
		t.Error("filtered rows not shown")
	}
	b.Update(keyMsg("backspace"))
	b.Update(keyMsg("esc"))
	if len(b.shown) != len(b.rows) {
		t.Error("esc did not clear the filter")
	}
	b.Update(keyMsg("end"))
	if b.cur != len(b.rows)-1 {
		t.Error("end")
	}
	b.Update(keyMsg("home"))
	if b.cur != 0 {
		t.Error("home")
	}
	if cmd, _ := b.Update(keyMsg("q")); cmd == nil {
		t.Error("q does not quit")
	}
}

// TestBrowserSortByFileShowsTheOrder: sorted by file, names too long for
// the column show their start, so the rows read in order; sorted by
// anything else they show their end, which tells them apart.
func TestBrowserSortByFileShowsTheOrder(t *testing.T) {
	b := newBrowser(theme.New(false), "testdata")
	b.Update(tea.WindowSizeMsg{Width: 120, Height: 20})
	var hs []library.Header
	for i, name := range []string{"b_replays__4__1@ab1d4891.bsor", "c__data__short_game_tbh10.slp", "a__then_change_map.teehistorian", "d_old_republic_50.SC2Replay"} {
		p := "corpus/some__very__long__folder__name/" + strings.Repeat("x", 30) + name
		hs = append(hs, library.Header{Path: p, Kind: library.File, Format: model.Format("slippi"), Size: int64(i)})
	}
	feed(b, true, hs...)
	for b.order.col != colFile {
		b.Update(keyMsg("s"))
	}
	view := b.View()
	var shown []string
	for _, line := range strings.Split(view, "\n") {
		if i := strings.Index(line, "xxxxx"); i >= 0 {
			shown = append(shown, strings.TrimSpace(line[i:]))
		}
	}
	if len(shown) != 4 || !slices.IsSorted(shown) || strings.HasPrefix(shown[0], "…") {
		t.Errorf("sorted by file, the column shows %q", shown)
	}
	b.Update(keyMsg("s")) // back to the date
	if view := b.View(); !strings.Contains(view, "…") || strings.Contains(view, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxb") {
		t.Errorf("sorted by date, long names do not show their end:\n%s", view)
	}
}

// TestBrowserSort: s steps through the columns, S reverses; rows without
// a value go last either way.
func TestBrowserSort(t *testing.T) {
	b := newTestBrowser(160, 48)
	want := map[column][]string{
		colFormat:   {"bsor/song.bsor", "sc2/broken.SC2Replay", "slippi/ics.slp", "slippi/corrupt.slp", "slippi/Game_20230101.slp", "teehistorian/x.teehistorian"},
		colLength:   {"teehistorian/x.teehistorian", "slippi/Game_20230101.slp", "bsor/song.bsor", "slippi/ics.slp", "slippi/corrupt.slp", "sc2/broken.SC2Replay"},
		colSize:     {"slippi/Game_20230101.slp", "bsor/song.bsor", "slippi/ics.slp", "teehistorian/x.teehistorian", "slippi/corrupt.slp", "sc2/broken.SC2Replay"},
		colProblems: {"slippi/corrupt.slp", "sc2/broken.SC2Replay", "teehistorian/x.teehistorian", "bsor/song.bsor", "slippi/ics.slp", "slippi/Game_20230101.slp"},
		colFile:     {"sc2/broken.SC2Replay", "slippi/corrupt.slp", "slippi/Game_20230101.slp", "slippi/ics.slp", "bsor/song.bsor", "teehistorian/x.teehistorian"},
	}
	for range nColumns {
		b.Update(keyMsg("s"))
		if w, ok := want[b.order.col]; ok {
			if got := b.paths(b.shown); !slices.Equal(got, w) {
				t.Errorf("by %s: %v\nwant %v", columnNames[b.order.col], got, w)
			}
		}
	}
	if b.order.col != colDate || !b.order.desc {
		t.Fatalf("back to %v", b.order)
	}
	b.Update(keyMsg("S"))
	got := b.paths(b.shown)
	if got[0] != "slippi/Game_20230101.slp" || got[len(got)-1] != "teehistorian/x.teehistorian" {
		t.Errorf("oldest first, undated last: %v", got)
	}
	// the cursor stays on its row through a sort
	b.Update(keyMsg("down"))
	sel := b.selected()
	b.Update(keyMsg("s"))
	if *b.selected() != *sel {
		t.Errorf("cursor moved to %s", b.selected().src.path)
	}
}

// TestBrowserFormat: f shows one format at a time, in registry order,
// then all again; esc clears it.
func TestBrowserFormat(t *testing.T) {
	b := newTestBrowser(120, 30)
	for _, want := range []model.Format{model.Format("slippi"), model.Format("bsor"), model.Format("teehistorian"), model.Format("sc2"), ""} {
		b.Update(keyMsg("f"))
		if b.format != want {
			t.Fatalf("format %q, want %q", b.format, want)
		}
		for _, id := range b.shown {
			if h := b.store.Header(id); want != "" && h.Format != want {
				t.Errorf("%s shown under %s", h.Path, want)
			}
		}
		if want != "" && !strings.Contains(b.View(), string(want)+" only") {
			t.Errorf("status does not say %s only", want)
		}
	}
	b.Update(keyMsg("f"))
	b.Update(keyMsg("esc"))
	if b.format != "" || len(b.shown) != len(b.rows) {
		t.Error("esc kept the format")
	}
}

// TestBrowserQuery: the filter is the query language; a mistake keeps the
// last good list and points at its column.
func TestBrowserQuery(t *testing.T) {
	b := newTestBrowser(120, 30)
	typeIn := func(q string) {
		b.Update(keyMsg("/"))
		for range 40 {
			b.Update(keyMsg("backspace"))
		}
		for _, k := range split(q) {
			b.Update(keyMsg(k))
		}
	}
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"char:fox", []string{"slippi/corrupt.slp", "slippi/Game_20230101.slp"}},
		{"fox>marth", []string{"slippi/Game_20230101.slp"}},
		{"format:slippi -fox", []string{"slippi/ics.slp"}},
		{"len:>5m", []string{"slippi/Game_20230101.slp", "teehistorian/x.teehistorian"}},
		{"problems:>0", []string{"slippi/corrupt.slp", "sc2/broken.SC2Replay", "teehistorian/x.teehistorian"}},
		{"date:2023-01-03", []string{"slippi/ics.slp"}},
	} {
		typeIn(c.q)
		if b.qErr != nil {
			t.Errorf("%q: %v", c.q, b.qErr)
		}
		if got := b.paths(b.shown); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.q, got, c.want)
		}
	}
	// typed in one go (a paste): the last good query was the date alone
	b.filter.SetValue("date:2023-01-03")
	b.refilter()
	b.filter.SetValue("date:2023-01-03 len:>5")
	b.refilter()
	if b.qErr == nil || b.qErr.Col != 22 {
		t.Fatalf("error %+v", b.qErr)
	}
	if got := b.paths(b.shown); !slices.Equal(got, []string{"slippi/ics.slp"}) {
		t.Errorf("a bad query changed the list: %v", got)
	}
	out := ansi.Strip(b.View())
	if !strings.Contains(out, "^ len: \"5\" is not a length") {
		t.Errorf("no error under the filter:\n%s", out)
	}
	if _, open := b.Update(keyMsg("enter")); open != nil {
		t.Error("enter opened a row while the query is wrong")
	}
}

// TestFilterRank: a whole word ranks before part of a word, initials and
// misspellings; inside a tier the sort holds.
func TestFilterRank(t *testing.T) {
	b := newBrowser(theme.New(false), "rank")
	b.Update(tea.WindowSizeMsg{Width: 120, Height: 20})
	mk := func(path, title string, f model.Format, day int, chars ...string) library.Header {
		h := library.Header{Path: path, Kind: library.File, Format: f, Title: title, Start: time.Date(2023, 1, day, 0, 0, 0, 0, time.UTC)}
		for _, c := range chars {
			h.Players = append(h.Players, library.Player{Character: c})
		}
		return h
	}
	feed(b, true,
		mk("teehistorian/idle_clean_shutdown.teehistorian", "Tutorial", model.Format("teehistorian"), 3),
		mk("slippi/tests__data__ics.slp", "Final Destination", model.Format("slippi"), 1, "Ice Climbers", "Jigglypuff"),
		mk("slippi/other.slp", "Battlefield", model.Format("slippi"), 2, "Fox", "Marth"),
	)
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"ics", []string{"slippi/tests__data__ics.slp", "teehistorian/idle_clean_shutdown.teehistorian"}},
		{"ICS", []string{"slippi/tests__data__ics.slp", "teehistorian/idle_clean_shutdown.teehistorian"}},
		{"idle", []string{"teehistorian/idle_clean_shutdown.teehistorian"}},
		{"marth", []string{"slippi/other.slp"}},
		{"mrath", []string{"slippi/other.slp"}},
		{"fd", []string{"slippi/tests__data__ics.slp"}},
	} {
		b.filter.SetValue(c.q)
		b.refilter()
		if got := b.paths(b.shown); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.q, got, c.want)
		}
	}
}

// TestFilterEnterOpens: enter while typing a filter opens the highlighted
// row; esc leaves the filter and shows every row.
func TestFilterEnterOpens(t *testing.T) {
	b := newTestBrowser(80, 24)
	b.Update(keyMsg("/"))
	for _, k := range split("corrupt") {
		b.Update(keyMsg(k))
	}
	_, open := b.Update(keyMsg("enter"))
	if open == nil || open.src.path != "slippi/corrupt.slp" {
		t.Fatalf("enter opened %v", open)
	}
	b.Update(keyMsg("/"))
	b.Update(keyMsg("x"))
	b.Update(keyMsg("esc"))
	if b.editing || b.filter.Value() != "" || len(b.shown) != len(b.rows) {
		t.Errorf("esc: editing %v filter %q rows %d", b.editing, b.filter.Value(), len(b.shown))
	}
}

// TestBrowserColumns: at 80 columns the format names are whole, and the
// problems column tells unchecked files from checked ones.
func TestBrowserColumns(t *testing.T) {
	b := newTestBrowser(80, 24)
	out := b.View()
	for _, want := range []string{"teehistorian ", "slippi ", "2023-01-05", "Kobra 4", "unreadable", "not checked", "! 3+"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not shown:\n%s", want, out)
		}
	}
}

// TestFilterHighlight: the browser marks the characters the filter matched.
func TestFilterHighlight(t *testing.T) {
	defer colour()()
	b := newBrowser(theme.New(false), "x")
	b.Update(tea.WindowSizeMsg{Width: 160, Height: 20})
	feed(b, true, testHeaders()...)
	b.Update(keyMsg("/"))
	for _, k := range split("fox") {
		b.Update(keyMsg(k))
	}
	b.Update(keyMsg("enter"))
	b.Update(keyMsg("down")) // the cursor row is drawn reversed, the other one highlighted
	out := b.View()
	if !strings.Contains(out, b.pt.match.wrap("F")) {
		t.Errorf("no highlighted match in\n%s", out)
	}
}

// TestBrowserChecks: a check result makes a row's problems final, moves
// it when the list is sorted by problems and lets a problems: filter see it.
func TestBrowserChecks(t *testing.T) {
	b := newTestBrowser(120, 30)
	b.filter.SetValue("problems:>0")
	b.refilter()
	before := len(b.shown)
	// the checker puts what it found in the store, then says which rows
	check := func(p string, c *library.Check) library.RowID {
		id, ok := b.store.Lookup(p)
		if !ok {
			h := library.Header{Path: p, Kind: library.File}
			id = b.store.Put(&h) // a row not listed
		}
		h := b.store.Header(id)
		h.Check = c
		b.store.Put(&h)
		return id
	}
	ids := []library.RowID{
		check("slippi/ics.slp", &library.Check{Problems: 2, First: "slippi: event 0x55 at 0x12f0: not in Event Payloads"}),
		check("slippi/corrupt.slp", &library.Check{}),
		check("not/listed.slp", &library.Check{}),
	}
	settle(b, func() tea.Cmd { cmd, _ := b.Update(checksMsg{gen: b.gen, ids: ids}); return cmd })
	got := b.paths(b.shown)
	if len(got) != before || !slices.Contains(got, "slippi/ics.slp") || slices.Contains(got, "slippi/corrupt.slp") {
		t.Errorf("after checks: %v", got)
	}
	if h, _ := b.byPath("slippi/ics.slp"); probText(&h) != "! 2" {
		t.Errorf("ics: %q", probText(&h))
	}
	if h, _ := b.byPath("slippi/corrupt.slp"); probText(&h) != "clean" {
		t.Errorf("corrupt: %q", probText(&h))
	}
	if b.checked != 3 { // ics, corrupt and the unreadable one
		t.Errorf("checked %d", b.checked)
	}
	// sorted by problems, a check that lands moves its row
	b.filter.SetValue("")
	b.refilter()
	for b.order.col != colProblems {
		b.press("s")
	}
	id := check("bsor/song.bsor", &library.Check{Problems: 9})
	settle(b, func() tea.Cmd { cmd, _ := b.Update(checksMsg{gen: b.gen, ids: []library.RowID{id}}); return cmd })
	if b.store.Path(b.shown[0]) != "bsor/song.bsor" {
		t.Errorf("most problems first: %v", b.paths(b.shown))
	}
	// opening a file is a full check
	b.opened("teehistorian/x.teehistorian", &model.Replay{}, nil)
	if h, _ := b.byPath("teehistorian/x.teehistorian"); probText(&h) != "clean" {
		t.Errorf("opened: %q", probText(&h))
	}
	b.opened("sc2/broken.SC2Replay", nil, fmt.Errorf("mpq: at 0x0: bad header"))
	if h, _ := b.byPath("sc2/broken.SC2Replay"); h.ProblemCount() != 1 {
		t.Errorf("opened broken: %d", h.ProblemCount())
	}
}

// TestBrowserIncremental: rows arriving in batches, with a filter and a
// sort, end up exactly where sorting and filtering everything at once puts
// them, whether the list is sorted on the UI goroutine or in jobs off it.
func TestBrowserIncremental(t *testing.T) {
	for _, n := range []int{300, syncLimit + 700} {
		b := newBrowser(theme.New(false), "many")
		b.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
		rng := rand.New(rand.NewSource(int64(n)))
		mk := func(i int) library.Header {
			f := []model.Format{model.Format("slippi"), model.Format("sc2"), model.Format("bsor")}[rng.Intn(3)]
			h := library.Header{Path: fmt.Sprintf("d/%05d.x", i), Kind: library.File, Format: f, Size: int64(rng.Intn(1000)),
				Duration: time.Duration(rng.Intn(600)) * time.Second, Title: []string{"Battlefield", "Hecate LE", "Believer"}[rng.Intn(3)]}
			if rng.Intn(10) > 0 {
				h.Start = time.Date(2023, 1, 1+rng.Intn(300), 0, 0, 0, 0, time.UTC)
			}
			h.Players = []library.Player{{Character: []string{"Fox", "Zerg", "Marth"}[rng.Intn(3)]}, {Character: "Falco"}}
			return h
		}
		b.filter.SetValue("battle -char:marth")
		b.refilter()
		b.order = order{colLength, true}
		var all []library.Header
		var queued []tea.Cmd
		for i := 0; i < n; {
			k := 1 + rng.Intn(400)
			var batch []library.Scanned
			for ; k > 0 && i < n; k-- {
				h := mk(i)
				all = append(all, h)
				batch = append(batch, library.Scanned{ID: b.store.Put(&h), Read: true})
				i++
			}
			cmd, _ := b.Update(rowsMsg{gen: b.gen, batch: batch})
			queued = append(queued, cmd)
			if i > n/2 && len(queued) > 0 && rng.Intn(3) == 0 {
				// change the query mid-scan: a long list's jobs land late,
				// some after newer ones started
				b.filter.SetValue("battle -char:marth len:>1m")
				queued = append(queued, b.refilter())
			}
			if rng.Intn(4) == 0 && len(queued) > 0 {
				c := queued[0]
				queued = queued[1:]
				settle(b, func() tea.Cmd { return c })
			}
		}
		for _, c := range queued {
			settle(b, func() tea.Cmd { return c })
		}
		b.filter.SetValue("battle -char:marth len:>1m")
		settle(b, b.refilter)
		settle(b, func() tea.Cmd { cmd, _ := b.Update(rowsMsg{gen: b.gen, done: true}); return cmd })
		// the same order sorting all headers at once: length, then newest
		// first, then the order they came
		idx := make([]int, len(all))
		for i := range idx {
			idx[i] = i
		}
		cmp := func(i, j int) int {
			x, y := all[i], all[j]
			dx, dy := x.Duration, y.Duration
			if (dx <= 0) != (dy <= 0) {
				if dx <= 0 {
					return 1
				}
				return -1
			}
			if dx != dy {
				return int(dy - dx)
			}
			if x.Start.IsZero() != y.Start.IsZero() {
				if x.Start.IsZero() {
					return 1
				}
				return -1
			}
			if c := y.Start.Compare(x.Start); c != 0 {
				return c
			}
			return i - j
		}
		slices.SortStableFunc(idx, cmp)
		var want []string
		for _, i := range idx {
			want = append(want, all[i].Path)
		}
		if got := b.paths(b.rows); !slices.Equal(got, want) {
			t.Fatalf("%d rows: order differs", n)
		}
		q, _ := library.ParseQuery("battle -char:marth len:>1m")
		var wantShown []string
		for _, i := range idx {
			if q.Match(library.NewDoc(&all[i])) {
				wantShown = append(wantShown, all[i].Path)
			}
		}
		if got := b.paths(b.shown); !slices.Equal(got, wantShown) {
			t.Errorf("%d rows: %d shown, want %d", n, len(got), len(wantShown))
		}
	}
}

// runApp drives the app's commands on goroutines, as Bubble Tea would,
// until cond holds or time runs out.
func runApp(t testing.TB, a *app, cmd tea.Cmd, cond func() bool) {
	t.Helper()
	runAppWith(t, a, cmd, make(chan tea.Msg, 64), "", cond)
}

// runAppWith is runApp over a channel of messages the caller keeps, so
// that commands still waiting (a watcher's next event) reach the next
// call.
func runAppWith(t testing.TB, a *app, cmd tea.Cmd, msgs chan tea.Msg, what string, cond func() bool) {
	t.Helper()
	var spawn func(tea.Cmd)
	spawn = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			m := c()
			if batch, ok := m.(tea.BatchMsg); ok {
				for _, c := range batch {
					spawn(c)
				}
				return
			}
			if m != nil {
				msgs <- m
			}
		}()
	}
	spawn(cmd)
	deadline := time.After(5 * time.Minute)
	for !cond() {
		select {
		case m := <-msgs:
			if _, quit := m.(tea.QuitMsg); quit {
				continue
			}
			_, c := a.Update(m)
			spawn(c)
		case <-deadline:
			t.Fatal("timed out", what)
		}
	}
}

// TestScanSamples lists the built-in samples the way `rewind` with no
// argument does: every file becomes a row, none panics, the background
// check reaches every row, and opening one reaches the replay view.
func TestScanSamples(t *testing.T) {
	dir := os.DirFS("../testdata/samples")
	a := newApp(Config{Samples: dir}, theme.New(false))
	defer a.br.close()
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	runApp(t, a, a.Init(), func() bool { return a.br.done && a.br.checked == len(a.br.rows) })
	checkScreen(t, a.View(), 120, 40)
	if len(a.br.rows) == 0 {
		t.Skip("no samples yet")
	}
	for i := 1; i < len(a.br.rows); i++ {
		p, q := a.br.store.Header(a.br.rows[i-1]).Start, a.br.store.Header(a.br.rows[i]).Start
		if !q.IsZero() && (p.IsZero() || p.Before(q)) {
			t.Errorf("rows %d and %d out of date order", i-1, i)
		}
	}
	// the corrupt sample's problems come from the check, not the header
	if h, ok := a.br.byPath("slippi/tests__data__corrupt.slp"); !ok || h.Check == nil || h.ProblemCount() == 0 {
		t.Errorf("corrupt.slp: %+v", h)
	}
	if !strings.Contains(a.View(), "all checked") {
		t.Errorf("status:\n%s", a.View())
	}
	_, cmd := a.Update(keyMsg("enter"))
	if cmd == nil {
		if a.mode != modeError {
			t.Fatal("enter did nothing")
		}
		return
	}
	if a.mode != modeLoading {
		t.Fatalf("mode %v", a.mode)
	}
	checkScreen(t, a.View(), 120, 40)
	// the batch holds the header read and the progress tick; run the reads
	// and decodes it leads to
	for _, c := range cmd().(tea.BatchMsg) {
		if _, tick := c().(loadTickMsg); !tick {
			runOpen(a, c)
		}
	}
	if a.mode != modeReplay && a.mode != modeError {
		t.Fatalf("mode %v after loading", a.mode)
	}
	checkScreen(t, a.View(), 120, 40)
}

// TestScanDir: a folder with a replay-named file that is none, an empty
// one and a text file lists the first two with the reason, not the third.
func TestScanDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(dir+"/"+name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("notes.log", []byte("hello\n"))
	write("empty.slp", nil)
	write("fake.slp", []byte("PK\x03\x04zipzipzip"))
	a := newApp(Config{Paths: []string{dir}, NoCache: true}, theme.New(false))
	defer a.br.close()
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	runApp(t, a, a.Init(), func() bool { return a.br.done })
	if len(a.br.rows) != 2 {
		t.Fatalf("%d rows: %v", len(a.br.rows), a.br.paths(a.br.rows))
	}
	out := ansi.Strip(a.View())
	for _, want := range []string{"an empty file", "a zip archive", "unreadable"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not shown:\n%s", want, out)
		}
	}
	checkScreen(t, a.View(), 100, 20)
}

// TestBrowserIndex: the first run fills the index in the cache directory;
// the second lists the same rows from it, checks included.
func TestBrowserIndex(t *testing.T) {
	t.Setenv("REWIND_CACHE", t.TempDir())
	src, _ := filepath.Abs("../testdata/samples/slippi")
	run := func() *app {
		a := newApp(Config{Paths: []string{src}}, theme.New(false))
		a.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
		runApp(t, a, a.Init(), func() bool { return a.br.done && a.br.checked == len(a.br.rows) })
		a.br.close()
		return a
	}
	first := run()
	if first.br.index == nil {
		t.Fatalf("no index: %s", first.br.indexErr)
	}
	second := run()
	if second.br.index.Len() != len(first.br.rows) {
		t.Errorf("index holds %d of %d", second.br.index.Len(), len(first.br.rows))
	}
	for _, id := range second.br.rows {
		if h := second.br.store.Header(id); h.Check == nil {
			t.Errorf("%s: check not kept", h.Path)
		}
	}
}

// TestBrowserIndexConfirms: the second time, the index's rows are listed
// before the walk (a file removed since is among them), then the walk
// confirms the list: the removed file leaves it, a changed one is read
// again, a new one joins.
func TestBrowserIndexConfirms(t *testing.T) {
	t.Setenv("REWIND_CACHE", t.TempDir())
	dir := t.TempDir()
	src := "../testdata/samples/slippi"
	for _, name := range []string{"tests__data__ics.slp", "tests__data__netplay.slp", "slp__nametags.slp"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	names := func(a *app) []string {
		var out []string
		for _, id := range a.br.all {
			out = append(out, filepath.Base(a.br.store.Path(id)))
		}
		slices.Sort(out)
		return out
	}
	first := newApp(Config{Paths: []string{dir}}, theme.New(false))
	first.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	runApp(t, first, first.Init(), func() bool { return first.br.done })
	first.br.close()

	os.Remove(filepath.Join(dir, "slp__nametags.slp"))
	changed := filepath.Join(dir, "tests__data__ics.slp")
	os.Chtimes(changed, time.Now(), time.Now().Add(time.Hour))
	data, _ := os.ReadFile(filepath.Join(src, "tests__data__corrupt.slp"))
	os.WriteFile(filepath.Join(dir, "tests__data__corrupt.slp"), data, 0o644)

	second := newApp(Config{Paths: []string{dir}}, theme.New(false))
	defer second.br.close()
	second.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	var before []string
	runApp(t, second, second.Init(), func() bool {
		if before == nil && len(second.br.all) > 0 {
			before = names(second) // what was listed first
		}
		return second.br.done
	})
	if want := []string{"slp__nametags.slp", "tests__data__ics.slp", "tests__data__netplay.slp"}; !slices.Equal(before, want) {
		t.Errorf("listed first %v, want the index's %v", before, want)
	}
	if want := []string{"tests__data__corrupt.slp", "tests__data__ics.slp", "tests__data__netplay.slp"}; !slices.Equal(names(second), want) {
		t.Errorf("after the walk %v, want %v", names(second), want)
	}
	if h, ok := second.br.byPath(changed); !ok || !h.ModTime.After(time.Now().Add(30*time.Minute)) {
		t.Errorf("changed file not read again: %+v", h.ModTime)
	}
}

func BenchmarkBrowserView(b *testing.B) {
	br := newBrowser(newTestTheme(), "bench")
	br.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	var many []library.Header
	for len(many) < 10000 {
		for _, h := range testHeaders() {
			h.Path = fmt.Sprint(len(many), h.Path)
			many = append(many, h)
		}
	}
	feed(br, true, many...)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = br.View()
	}
}

// BenchmarkBrowserScan lists a folder the way `rewind DIR` does and reports
// when the first rows showed and when the list was whole: cold (no index)
// and warm (the index from the cold run). REWIND_BROWSE_DIR names the
// folder (the corpus otherwise).
func BenchmarkBrowserScan(b *testing.B) {
	dir := os.Getenv("REWIND_BROWSE_DIR")
	if dir == "" {
		dir = "../../shared/corpus"
	}
	if _, err := os.Stat(dir); err != nil {
		b.Skip(err)
	}
	b.Setenv("REWIND_CACHE", b.TempDir())
	for _, pass := range []string{"cold", "warm"} {
		b.Run(pass, func(b *testing.B) {
			var first, whole, cpu time.Duration
			rows := 0
			for range b.N {
				cpu0 := cputime.Used()
				a := newApp(Config{Paths: []string{dir}, NoCache: false}, newTestTheme())
				a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
				start := time.Now()
				a.br.started = start
				runApp(b, a, a.Init(), func() bool {
					if first == 0 && len(a.br.rows) > 0 {
						first = time.Since(start)
						_ = a.View()
					}
					return a.br.done
				})
				whole = time.Since(start)
				cpu = cputime.Used() - cpu0
				_ = a.View()
				rows = len(a.br.rows)
				a.br.close()
			}
			b.ReportMetric(float64(first.Microseconds())/1000, "ms-first-rows")
			b.ReportMetric(float64(whole.Microseconds())/1000, "ms-whole-list")
			b.ReportMetric(float64(cpu.Microseconds())/1000, "ms-cpu")
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// TestDescribeNamesPlayersFirst: a row names players as people do, the
// name with the character, race or machine after it; the character alone
// when the file has no name; one player's song or course first, but a
// beatmap's hash after the player.
func TestDescribeNamesPlayersFirst(t *testing.T) {
	tests := []struct {
		h    library.Header
		want string
	}{
		{library.Header{Title: "Winter Madness LE", Players: []library.Player{{Name: "firebat", Character: "Terran"}, {Name: "hAmiLton", Character: "Terran"}}},
			"firebat (Terran) vs hAmiLton (Terran) · Winter Madness LE"},
		{library.Header{Title: "Final Destination", Players: []library.Player{{Character: "Ice Climbers"}, {Character: "Falco"}}},
			"Ice Climbers vs Falco · Final Destination"},
		{library.Header{Title: "dm1", Players: []library.Player{{Name: "alice"}, {Name: "bob"}}},
			"alice vs bob · dm1"},
		{library.Header{Title: "Enemy — Joetastic (Hard)", Players: []library.Player{{Name: "Engisire", Code: "VIVE"}}},
			"Enemy — Joetastic (Hard) · Engisire"},
		{library.Header{Players: []library.Player{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}, {Name: "f"}}},
			"a vs b vs c vs d vs +2"},
		{library.Header{Err: "not a replay: an empty file"}, "not a replay: an empty file"},
		// osu! names its beatmap by a hash: the player and the mode lead
		{library.Header{Format: "osu", Title: "2d0dfe625839ac940b346daa224706b5", Mode: "osu!catch +HD", Players: []library.Player{{Name: "Lexii"}}},
			"Lexii · osu!catch +HD · 2d0dfe625839ac940b346daa224706b5"},
		{library.Header{Format: "osu", Title: "6dd2938dfb35fc68465974a431096d89", Mode: "osu!mania", Players: []library.Player{{Slot: "P1"}}},
			"osu!mania · 6dd2938dfb35fc68465974a431096d89"},
	}
	for _, tt := range tests {
		if got := describe(&tt.h); got != tt.want {
			t.Errorf("describe = %q\n     want %q", got, tt.want)
		}
	}
}

// runOpen runs what opening a file sets off, as the program would: the
// header read, the full decode, the analysis; not the progress ticks.
func runOpen(a *app, cmd tea.Cmd) {
	for cmd != nil {
		msg := cmd()
		switch msg.(type) {
		case loadTickMsg, nil:
			return
		}
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				runOpen(a, c)
			}
			return
		}
		_, cmd = a.Update(msg)
	}
}

// millionRows is a store of a million synthetic rows (nested folders,
// players and stages from small pools, a check on some), made once.
var millionRows = sync.OnceValues(func() (*library.Store, []library.RowID) {
	s := library.NewStore()
	chars := []string{"Fox", "Falco", "Marth", "Sheik", "Jigglypuff", "Captain Falcon", "Peach", "Ice Climbers"}
	stages := []string{"Battlefield", "Final Destination", "Yoshi's Story", "Dream Land N64", "Fountain of Dreams", "Pokémon Stadium"}
	ids := make([]library.RowID, 1_000_000)
	for i := range ids {
		k := i / 750
		h := library.Header{
			Path: fmt.Sprintf("/replays/%d/%02d/%02d/Game_%d%02d%02dT%06d.slp", 2019+k/336, k/28%12+1, k%28+1, 2019+k/336, k/28%12+1, k%28+1, i),
			Kind: library.File, Size: int64(1_000_000 + i*7919%100_000), Format: model.Format("slippi"), FormatName: "Slippi replay",
			Start: time.Unix(1_600_000_000+int64(i*7919%1_000_000)*97, 0).UTC(), Title: stages[i%len(stages)],
			Duration: time.Duration(60+i*31%400) * time.Second, Problems: i % 5 / 4,
			Players: []library.Player{{Slot: "P1", Name: fmt.Sprint("player", i%500), Character: chars[i%len(chars)]},
				{Slot: "P2", Name: fmt.Sprint("player", i*7%500), Character: chars[i/3%len(chars)]}},
		}
		if i%3 == 0 {
			h.Check = &library.Check{Problems: i % 2}
		}
		ids[i] = s.Put(&h)
	}
	return s, ids
})

// BenchmarkBrowserSortMillion is a sort key press over a million rows, each
// column (the browser's target is 100 ms); cpu-ms/op is the CPU it took.
func BenchmarkBrowserSortMillion(b *testing.B) {
	s, ids := millionRows()
	for col := range nColumns {
		b.Run(strings.Fields(columnNames[col])[0], func(b *testing.B) {
			cpu := cputime.Used()
			for range b.N {
				if out, _ := sortRows(context.Background(), s, ids, order{col, defaultDesc(col)}, newWhatCache()); len(out) != len(ids) {
					b.Fatal(len(out))
				}
			}
			b.ReportMetric(float64((cputime.Used()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
	// by players again, as the browser sorts once it sorted so before
	// (the other direction, or the list changed): the rows' descriptions
	// are kept
	b.Run("players-again", func(b *testing.B) {
		whats := newWhatCache()
		sortRows(context.Background(), s, ids, order{colWhat, false}, whats)
		b.ResetTimer()
		cpu := cputime.Used()
		for i := range b.N {
			if out, _ := sortRows(context.Background(), s, ids, order{colWhat, i%2 == 0}, whats); len(out) != len(ids) {
				b.Fatal(len(out))
			}
		}
		b.ReportMetric(float64((cputime.Used()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
	})
}

// BenchmarkBrowserFilterMillion is a filter key press over a million sorted
// rows, as the browser runs it (the matcher on all cores, then the tiers).
func BenchmarkBrowserFilterMillion(b *testing.B) {
	s, ids := millionRows()
	rows, _ := sortRows(context.Background(), s, ids, order{colDate, true}, newWhatCache())
	for _, text := range []string{"f", "fox", "char:fox", "fox>marth", "player42", "len:>5m", "final dest -char:sheik"} {
		q, err := library.ParseQuery(text)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(text, func(b *testing.B) {
			cpu := cputime.Used()
			kept := 0
			for range b.N {
				msg := jobIn{store: s, rows: rows, q: q}.run(context.Background())
				kept = len(msg.shown)
			}
			b.ReportMetric(float64((cputime.Used()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(kept), "rows")
		})
	}
}

// TestSortRows: the radix sort orders rows as comparing them does, for
// every column and direction: the column (missing values last), then
// newest first, then the order the rows were found.
func TestSortRows(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	s := library.NewStore()
	var ids []library.RowID
	words := []string{"Game", "game", "a", "A_b", "zz", "Ärger", "game_2019", "Game_2019_", "x"}
	for range 3000 {
		h := library.Header{Path: fmt.Sprintf("d/%s%d.slp", words[rng.Intn(len(words))], rng.Intn(40)), Kind: library.File,
			Format: model.Format([]string{"slippi", "sc2", "bsor", ""}[rng.Intn(4)]), Size: int64(rng.Intn(50)),
			Duration: time.Duration(rng.Intn(5)-1) * time.Minute, Title: []string{"", "Battlefield", "believer"}[rng.Intn(3)], Problems: rng.Intn(3)}
		if rng.Intn(5) > 0 {
			h.Start = time.Date(2020, 1, 1+rng.Intn(5), 0, 0, 0, 0, time.UTC)
		}
		if rng.Intn(3) == 0 {
			h.Check = &library.Check{Problems: rng.Intn(3)}
		}
		if rng.Intn(2) == 0 {
			h.Players = []library.Player{{Name: words[rng.Intn(len(words))]}}
		}
		if _, ok := s.Lookup(h.Path); ok {
			continue // one row a path
		}
		ids = append(ids, s.Put(&h))
	}
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	hs := map[library.RowID]library.Header{}
	for _, id := range ids {
		hs[id] = s.Header(id)
	}
	for col := range nColumns {
		for _, desc := range []bool{false, true} {
			o := order{col, desc}
			got, _ := sortRows(context.Background(), s, ids, o, newWhatCache())
			want := slices.Clone(ids)
			slices.SortStableFunc(want, func(x, y library.RowID) int {
				a, b := hs[x], hs[y]
				c := refCmp(o, &a, &b)
				if c == 0 && col != colDate {
					c = refCmp(order{colDate, true}, &a, &b)
				}
				if c == 0 {
					return cmpU64(uint64(x), uint64(y))
				}
				return c
			})
			if !slices.Equal(got, want) {
				for i := range got {
					if got[i] != want[i] {
						a, b := hs[got[i]], hs[want[i]]
						t.Errorf("by %s desc %v: at %d got %d %q %q %v, want %d %q %q %v", columnNames[col], desc, i, got[i], describe(&a), a.Path, a.Start, want[i], describe(&b), b.Path, b.Start)
						break
					}
				}
			}
		}
	}
}

// refCmp compares two headers on a column, as the browser means it.
func refCmp(o order, a, b *library.Header) int {
	missing := func(ma, mb bool) (int, bool) {
		switch {
		case ma && mb:
			return 0, true
		case ma:
			return 1, true
		case mb:
			return -1, true
		}
		return 0, false
	}
	var c int
	switch o.col {
	case colDate:
		if m, ok := missing(a.Start.IsZero(), b.Start.IsZero()); ok {
			return m
		}
		c = a.Start.Compare(b.Start)
	case colFormat:
		c = strings.Compare(string(a.Format), string(b.Format))
	case colWhat:
		ha, hb := a.Title != "" || len(a.Players) > 0, b.Title != "" || len(b.Players) > 0
		if m, ok := missing(!ha, !hb); ok {
			return m
		}
		c = strings.Compare(strings.ToLower(describe(a)), strings.ToLower(describe(b)))
	case colLength:
		if m, ok := missing(a.Duration <= 0, b.Duration <= 0); ok {
			return m
		}
		c = cmpU64(uint64(a.Duration), uint64(b.Duration))
	case colSize:
		c = cmpU64(uint64(a.Size), uint64(b.Size))
	case colProblems:
		c = a.ProblemCount() - b.ProblemCount()
		if c == 0 && a.Checked() != b.Checked() {
			c = 1
			if !a.Checked() {
				c = -1
			}
		}
	case colFile:
		c = strings.Compare(strings.ToLower(path.Base(a.Path)), strings.ToLower(path.Base(b.Path)))
	}
	if o.desc {
		c = -c
	}
	return max(-1, min(1, c))
}

// TestRadixSortStable: the radix sort, on one core and split over several
// (a long list), orders as a stable sort by key does: keys of every width,
// many equal, a few missing (all bits set), keys bunched in a corner of
// their range (a bucket long enough to be sorted on all cores itself),
// every key missing.
func TestRadixSortStable(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	keys := []struct {
		what string
		key  func(i int) uint64
	}{
		{"3 bits", func(int) uint64 { return rng.Uint64() >> 61 }},
		{"20 bits", func(int) uint64 { return rng.Uint64() >> 44 }},
		{"64 bits", func(int) uint64 { return rng.Uint64() }},
		{"bunched", func(i int) uint64 {
			if i%100 == 0 {
				return rng.Uint64() // a few far away
			}
			return 1<<40 + rng.Uint64()>>40
		}},
		{"all missing", func(int) uint64 { return missing }},
	}
	for _, n := range []int{10, 30, 5_000, 1 << 17} {
		for _, tt := range keys {
			what, key := tt.what, tt.key
			a := make([]kv, n)
			for i := range a {
				a[i] = kv{key(i), uint32(i)}
				if rng.Intn(50) == 0 {
					a[i].k = missing
				}
			}
			want := slices.Clone(a)
			slices.SortStableFunc(want, func(x, y kv) int { return cmpU64(x.k, y.k) })
			local := slices.Clone(a)
			got, _ := radixSort(a, make([]kv, n))
			if !slices.Equal(got, want) {
				t.Errorf("%d keys, %s: not the stable order", n, what)
			}
			// a bucket's sort on its own, with a count buffer too short
			if sortLocal(local, make([]kv, n), nil); !slices.Equal(local, want) {
				t.Errorf("%d keys, %s: sortLocal: not the stable order", n, what)
			}
		}
	}
}
