package diff

// Hand-built replays: every rule of the comparison on values whose answer
// is known by construction.

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"rewind/model"
)

// game is a hand-built replay: frames first..first+n-1 at 60 a second,
// players with a percent that state gives, and the events listed.
type game struct {
	first   int64
	n       int
	title   string
	start   time.Time
	players []model.Player
	percent func(number int64, player int) float64
	events  []hev
}

// hev is a hand-built event: its frame, player, kind and mark, and the
// percent its one field says.
type hev struct {
	frame, player int
	kind, flag    string
	pct           float64
}

func (g game) replay() *model.Replay {
	r := &model.Replay{Format: "slippi", FormatName: "Slippi", Title: g.title, Start: g.start,
		Players: g.players, Timeline: model.Timeline{Count: g.n, First: g.first, Rate: 60, Unit: "frame"},
		Path: "hand-built", Marks: []string{superseded}}
	kinds := map[string]model.KindID{}
	for i, e := range g.events {
		k, ok := kinds[e.kind]
		if !ok {
			k = model.KindID(len(r.Kinds))
			kinds[e.kind] = k
			r.Kinds = append(r.Kinds, e.kind)
		}
		ev := model.Event{Frame: int32(e.frame), Player: int16(e.player), Kind: k, Ref: int32(i)}
		if e.flag == superseded {
			ev.Flags |= model.Mark(0)
		}
		r.Events = append(r.Events, ev)
	}
	r.Summarize = func(ev *model.Event) string { return r.KindName(ev.Kind) }
	r.Detail = func(ev *model.Event) []model.Field {
		return []model.Field{{Key: "percent", Label: "Percent", Value: g.events[ev.Ref].pct}}
	}
	r.State = func(f, p int) model.PlayerState {
		pct := g.percent(r.Timeline.Number(f), p)
		return model.PlayerState{Present: true, Fields: []model.Field{
			{Key: "post", Label: "Post", Fields: []model.Field{
				{Key: "percent", Label: "Percent", Value: pct},
				{Key: "stocks", Label: "Stocks", Value: int64(4)},
			}},
		}}
	}
	r.Finish()
	return r
}

func twoPlayers() []model.Player {
	return []model.Player{{Slot: "P1", Character: "Fox", Code: "AAA#1"}, {Slot: "P2", Character: "Marth", Code: "BBB#2"}}
}

func flat(int64, int) float64 { return 10 }

func TestCompareFields(t *testing.T) {
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	f := func(key string, v any) model.Field { return model.Field{Key: key, Label: key, Value: v} }
	group := func(key string, fs ...model.Field) model.Field { return model.Field{Key: key, Label: key, Fields: fs} }
	for _, c := range []struct {
		name   string
		a, b   []model.Field
		paths  []string // the differing paths, in order
		aValue any      // the first difference's A value
	}{
		{"equal", []model.Field{f("x", int64(1)), f("y", "s")}, []model.Field{f("x", int64(1)), f("y", "s")}, nil, nil},
		{"value", []model.Field{f("x", int64(1))}, []model.Field{f("x", int64(2))}, []string{"x"}, int64(1)},
		{"nested", []model.Field{group("post", f("percent", 9.0))}, []model.Field{group("post", f("percent", 26.5))}, []string{"post.percent"}, 9.0},
		{"spans ignored", []model.Field{{Key: "x", Value: int64(1), Span: model.Span{Off: 10, Len: 4}}},
			[]model.Field{{Key: "x", Value: int64(1), Span: model.Span{Off: 99, Len: 4}}}, nil, nil},
		{"repeated keys by place", []model.Field{group("port", f("x", 1.0)), group("port", f("x", 2.0))},
			[]model.Field{group("port", f("x", 1.0)), group("port", f("x", 3.0))}, []string{"port[1].x"}, 2.0},
		{"reordered keys", []model.Field{f("x", int64(1)), f("y", int64(2))}, []model.Field{f("y", int64(2)), f("x", int64(1))}, nil, nil},
		{"only in A and only in B", []model.Field{f("x", int64(1)), f("gone", true)}, []model.Field{f("x", int64(1)), f("new", false)},
			[]string{"gone", "new"}, true},
		{"NaN equals NaN", []model.Field{f("x", math.NaN())}, []model.Field{f("x", math.NaN())}, nil, nil},
		{"types differ", []model.Field{f("x", float32(1))}, []model.Field{f("x", float64(1))}, []string{"x"}, float32(1)},
		{"bytes by content", []model.Field{f("b", []byte{1, 2})}, []model.Field{f("b", []byte{1, 2})}, nil, nil},
		{"times by instant", []model.Field{f("t", at)}, []model.Field{f("t", at.In(time.FixedZone("x", 3600)))}, nil, nil},
		{"names of valueless fields", []model.Field{{Key: "k", Name: "A"}}, []model.Field{{Key: "k", Name: "B"}}, []string{"k"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var paths []string
			var first any
			compareFields("", c.a, c.b, 0, func(path string, fa, fb *model.Field) {
				if len(paths) == 0 && fa != nil {
					first = fa.Value
				}
				paths = append(paths, path)
			})
			if strings.Join(paths, ",") != strings.Join(c.paths, ",") {
				t.Errorf("paths %v, want %v", paths, c.paths)
			}
			if len(c.paths) > 0 && !Equal(first, c.aValue) {
				t.Errorf("first A value %v, want %v", first, c.aValue)
			}
		})
	}
}

// TestAlignByNumber: frames are aligned by the format's number, not the
// index: B starts 5 frames later and goes on 5 frames longer.
func TestAlignByNumber(t *testing.T) {
	a := game{first: -5, n: 10, players: twoPlayers(), percent: flat}.replay()
	b := game{first: 0, n: 10, players: twoPlayers(), percent: flat}.replay()
	res, err := Compare(a, b, Options{Mode: Same, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Overlap != (Range{0, 4}) || res.DifferingFrames != 0 {
		t.Errorf("overlap %v, %d differing", res.Overlap, res.DifferingFrames)
	}
	if len(res.OnlyA) != 1 || res.OnlyA[0] != (Range{-5, -1}) || len(res.OnlyB) != 1 || res.OnlyB[0] != (Range{5, 9}) {
		t.Errorf("only A %v, only B %v", res.OnlyA, res.OnlyB)
	}
	if res.Identical || res.First == nil || res.First.Kind != KindFrames || res.First.Frame != -5 || res.First.Only != "A" {
		t.Errorf("first %+v", res.First)
	}
	var text strings.Builder
	res.WriteText(&text, 0)
	for _, want := range []string{"B starts late at frame 0; A starts at -5 (5 frames only in A).",
		"A ends early at frame 4; B goes on to 9 (5 frames only in B).", "All 5 frames both files have agree (0..4)."} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	// a difference at frame number 2: index 7 of A, 2 of B
	b2 := game{first: 0, n: 10, players: twoPlayers(), percent: func(n int64, p int) float64 {
		if n == 2 && p == 1 {
			return 11
		}
		return 10
	}}.replay()
	res, _ = Compare(a, b2, Options{Mode: Same, Limit: -1})
	var states []Difference
	for _, d := range res.Differences {
		if d.Kind == KindState {
			states = append(states, d)
		}
	}
	if len(states) != 1 || states[0].Frame != 2 || states[0].IndexA != 7 || states[0].IndexB != 2 || states[0].Player != 1 ||
		states[0].Field != "post.percent" || states[0].A != 10.0 || states[0].B != 11.0 {
		t.Errorf("state differences %+v", states)
	}
	if res.Ranges[0] != (Range{2, 2}) {
		t.Errorf("ranges %v", res.Ranges)
	}
}

// TestEvents: events pair by kind and player in file order; one only in a
// file is a difference of its own; a superseded copy (rolled back) is not
// compared; a field an event shares with the state is counted once.
func TestEvents(t *testing.T) {
	ev := func(f, player int, kind, flag string, pct float64) hev { return hev{f, player, kind, flag, pct} }
	pct := func(n int64, p int) float64 {
		if n == 3 && p == 0 {
			return 12
		}
		return 10
	}
	a := game{n: 6, players: twoPlayers(), percent: flat, events: []hev{
		ev(1, 0, "post", "", 10), ev(1, 1, "post", "", 10),
		ev(2, 0, "post", superseded, 99), ev(2, 0, "post", "", 10),
		ev(3, 0, "post", "", 10), ev(4, -1, "item", "", 0), ev(4, -1, "end", "", 0),
	}}.replay()
	b := game{n: 6, players: twoPlayers(), percent: pct, events: []hev{
		ev(1, 1, "post", "", 10), ev(1, 0, "post", "", 10), // another order: paired by player
		ev(2, 0, "post", "", 10), // no rolled-back copy
		ev(3, 0, "post", "", 12), ev(4, -1, "item", "", 5),
	}}.replay()
	res, err := Compare(a, b, Options{Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Differences {
		got = append(got, strings.Join([]string{fmtNum(d.Frame), string(d.Kind), d.Event, d.Field, d.Only}, "/"))
	}
	want := []string{"3/state/post/post.percent/", "4/event/item/percent/", "4/event/end//A"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("differences %v, want %v", got, want)
	}
	if res.DifferingFrames != 2 || res.DifferingFields != 3 {
		t.Errorf("%d frames, %d fields", res.DifferingFrames, res.DifferingFields)
	}
	// the state difference names the event that records it
	if d := res.Differences[0]; d.EventA != 4 || d.EventB != 3 {
		t.Errorf("the percent's events %d and %d, want 4 and 3", d.EventA, d.EventB)
	}
	// what Ignore names is left out: the end event (a kind), the percent
	// (a key, in the state and in the events)
	res, _ = Compare(a, b, Options{Limit: -1, Ignore: []string{"end", "percent"}})
	if res.DifferingFrames != 0 || !res.Identical {
		t.Errorf("ignoring end and percent: %d frames differ, first %+v", res.DifferingFrames, res.First)
	}
	if at := At(a, b, 4, Options{Ignore: []string{"end"}}); len(at) != 1 || at[0].Event != "item" {
		t.Errorf("At ignoring end: %+v", at)
	}
}

func TestSameGame(t *testing.T) {
	start := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	base := game{n: 20, title: "Battlefield", start: start, players: twoPlayers(), percent: flat}
	other := func(change func(g *game)) *model.Replay {
		g := base
		g.players = twoPlayers()
		change(&g)
		return g.replay()
	}
	a := base.replay()
	for _, c := range []struct {
		name   string
		b      *model.Replay
		same   bool
		saying string
	}{
		{"same", other(func(g *game) { g.start = start.Add(30 * time.Second) }), true, "started 30 s apart"},
		{"no start", other(func(g *game) { g.start = time.Time{} }), true, "B does not say when it started"},
		{"title", other(func(g *game) { g.title = "Final Destination" }), false, "different stages: Battlefield and Final Destination"},
		{"character", other(func(g *game) { g.players[1].Character = "Sheik" }), false, "P2 is Marth in A and Sheik in B"},
		{"code", other(func(g *game) { g.players[0].Code = "CCC#3" }), false, "P1 is AAA#1 in A and CCC#3 in B"},
		{"a code one file lacks", other(func(g *game) { g.players[0].Code = "" }), true, "started 0 s apart"},
		{"players", other(func(g *game) { g.players = g.players[:1] }), false, "A has 2 players and B 1"},
		{"no overlap", other(func(g *game) { g.first = 100 }), false, "their frames do not overlap"},
		{"made-up start, same frames", other(func(g *game) { g.start = start.Add(5 * 24 * time.Hour) }), true, "agree field for field"},
		{"another game", other(func(g *game) {
			g.start = start.Add(10 * time.Minute)
			g.percent = func(int64, int) float64 { return 0 }
		}), false, "started 10 min apart"},
	} {
		t.Run(c.name, func(t *testing.T) {
			same, why := sameGame(a, c.b, newFrameCmp(a, c.b, Options{}))
			if same != c.same || !strings.Contains(why, c.saying) {
				t.Errorf("same %v (%s), want %v saying %q", same, why, c.same, c.saying)
			}
		})
	}
	_, err := Compare(a, &model.Replay{Format: "sc2", FormatName: "StarCraft II"}, Options{})
	if _, ok := err.(*IncomparableError); !ok || !strings.Contains(err.Error(), "a Slippi replay and B a StarCraft II replay") {
		t.Errorf("err %v", err)
	}
}

func TestPairPlayers(t *testing.T) {
	a := &model.Replay{Players: []model.Player{{Name: "me", Character: "Terran"}, {Name: "x", Character: "Zerg"}, {Code: "C1", Character: "Protoss"}}}
	b := &model.Replay{Players: []model.Player{{Name: "pro", Character: "Zerg"}, {Code: "c1"}, {Name: "y", Character: "Terran"}}}
	got := pairPlayers(a, b, nil)
	want := [][2]int{{0, 2}, {1, 0}, {2, 1}} // by character, by character, by code
	if len(got) != len(want) {
		t.Fatalf("pairs %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("pairs %v, want %v", got, want)
		}
	}
	got = pairPlayers(a, b, [][2]int{{0, 0}, {9, 9}})
	if got[0] != [2]int{0, 0} {
		t.Errorf("asked pair ignored: %v", got)
	}
}

// TestLists: two build orders aligned item by item, the nth of an item
// with the nth, in time order, with B's time minus A's; a table whose rows
// share one key pairs by label.
func TestLists(t *testing.T) {
	row := func(key string, frame int) model.StatRow {
		return model.StatRow{Key: key, Label: key, Frame: frame, Cells: []model.Field{{Key: "what", Value: key}}}
	}
	a := game{n: 6000, players: []model.Player{{Character: "Terran"}}, percent: flat}.replay()
	b := game{n: 6000, players: []model.Player{{Character: "Terran"}}, percent: flat}.replay()
	ta := model.StatTable{Key: "buildOrder", Player: 0, Columns: []string{"What"},
		Rows: []model.StatRow{row("Depot", 600), row("Barracks", 1200), row("Barracks", 1800), row("Factory", 2400)}}
	tb := model.StatTable{Key: "buildOrder", Player: 0, Columns: []string{"What"},
		Rows: []model.StatRow{row("Barracks", 900), row("Depot", 660), row("Starport", 1000), row("Barracks", 2100)}}
	td := compareTables(a, b, &ta, &tb, [][2]int{{0, 0}})
	if !td.List {
		t.Fatal("not a list")
	}
	var got []string
	for _, r := range td.Rows {
		s := r.Key
		switch {
		case r.HasTimes():
			s += " " + signedSeconds((r.TimeB - r.TimeA).Seconds())
		case r.A == nil:
			s += " onlyB"
		default:
			s += " onlyA"
		}
		got = append(got, s)
	}
	// Depot 10 s → 11 s; Starport only in B at 16.67 s; Barracks 20 s →
	// 15 s (placed at A's time), 30 s → 35 s; Factory only in A at 40 s
	want := "Depot +1s,Starport onlyB,Barracks −5s,Barracks +5s,Factory onlyA"
	if strings.Join(got, ",") != want {
		t.Errorf("rows %v\nwant %v", strings.Join(got, ","), want)
	}
	minute := func(label string, frame int, v float64) model.StatRow {
		return model.StatRow{Key: "minute", Label: label, Frame: frame, Cells: []model.Field{{Value: v}}}
	}
	ma := model.StatTable{Key: "minutes", Player: -1, Columns: []string{"P1"}, Rows: []model.StatRow{minute("0:00", 0, 1), minute("1:00", 3600, 2)}}
	mb := model.StatTable{Key: "minutes", Player: -1, Columns: []string{"P1"}, Rows: []model.StatRow{minute("1:00", 3600, 5)}}
	md := compareTables(a, b, &ma, &mb, [][2]int{{0, 0}})
	if len(md.Rows) != 2 || md.Rows[0].B != nil || md.Rows[1].B == nil || md.Rows[1].B.Label != "1:00" {
		t.Errorf("minutes paired %+v", md.Rows)
	}
	if d, ok := Delta(Cell(md.Rows[1].A, 0), Cell(md.Rows[1].B, 0)); !ok || d != 3.0 {
		t.Errorf("delta %v %v", d, ok)
	}
}

// TestCharts: B's series is below A's for the first half of the game and
// above it for the second: they part for good at the middle.
func TestCharts(t *testing.T) {
	n := 60 * 60 // a minute
	vals := func(f func(i int) float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	a := game{n: n, players: []model.Player{{Character: "X"}}, percent: flat}.replay()
	b := game{n: n, players: []model.Player{{Character: "X"}}, percent: flat}.replay()
	a.Charts = []model.Chart{{Title: "score", Series: []model.Series{{Label: "P1", Player: 0, Values: vals(func(int) float64 { return 5 })}}}}
	b.Charts = []model.Chart{{Title: "Score", Series: []model.Series{{Label: "P1", Player: 0, Values: vals(func(i int) float64 {
		if i < n/2 {
			return 4
		}
		return 8
	})}}}}
	res, err := Compare(a, b, Options{Mode: Different})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Charts) != 1 || len(res.Charts[0].Series) != 1 {
		t.Fatalf("charts %+v", res.Charts)
	}
	s := res.Charts[0].Series[0]
	if s.Higher != "B" || (s.Apart-30*time.Second).Abs() > 200*time.Millisecond || s.Gap != 3 {
		t.Errorf("higher %q from %v, gap %v", s.Higher, s.Apart, s.Gap)
	}
	// a 59.98 s span in parts of 10 s: 0:10 .. 0:50, and the end
	if len(s.Parts) != 6 || s.Parts[0].To != 10*time.Second || s.Parts[0].MeanB != 4 || s.Parts[5].AtB != 8 {
		t.Errorf("parts %+v", s.Parts)
	}
}

// TestLimitAndMemory: a long game where every other frame differs keeps
// all the counts and ranges but only Limit differences.
func TestLimitAndMemory(t *testing.T) {
	a := game{n: 20000, players: twoPlayers(), percent: flat}.replay()
	b := game{n: 20000, players: twoPlayers(), percent: func(n int64, p int) float64 {
		if n%2 == 0 {
			return 11
		}
		return 10
	}}.replay()
	res, _ := Compare(a, b, Options{Limit: 7})
	if len(res.Differences) != 7 || res.DifferingFrames != 10000 || res.DifferingFields != 20000 || len(res.Ranges) != 10000 {
		t.Errorf("%d listed, %d frames, %d fields, %d ranges", len(res.Differences), res.DifferingFrames, res.DifferingFields, len(res.Ranges))
	}
	j := res.JSON(3)
	if len(j.Differences) != 3 || j.More != 20000-3 {
		t.Errorf("JSON lists %d, more %d", len(j.Differences), j.More)
	}
}

// TestJSON: typed values, seconds, players P1..Pn, the keys the README
// documents.
func TestJSON(t *testing.T) {
	a := game{first: -123, n: 200, title: "Battlefield", players: twoPlayers(), percent: flat}.replay()
	b := game{first: -123, n: 150, title: "Battlefield", players: twoPlayers(), percent: func(n int64, p int) float64 {
		if n == 0 && p == 1 {
			return 12.5
		}
		return 10
	}}.replay()
	a.Result, b.Result = "GAME!", "No Contest"
	a.Duration, b.Duration = 3*time.Second, 2500*time.Millisecond
	res, _ := Compare(a, b, Options{Limit: 10})
	out, err := json.Marshal(res.JSON(10))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(out, &m)
	for _, k := range []string{"identical", "sameGame", "why", "a", "b", "unit", "first", "differingFrames", "differingFields",
		"compared", "ranges", "onlyA", "onlyB", "differences", "end", "limit", "more"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, out)
		}
	}
	first := m["first"].(map[string]any)
	if first["frame"] != 0.0 || first["time"] != 0.0 || first["player"] != "P2" || first["field"] != "post.percent" ||
		first["a"] != 10.0 || first["b"] != 12.5 {
		t.Errorf("first %v", first)
	}
	onlyA := m["onlyA"].([]any)
	if len(onlyA) != 1 || onlyA[0].([]any)[0] != 27.0 || onlyA[0].([]any)[1] != 76.0 {
		t.Errorf("onlyA %v", onlyA)
	}
	end := m["end"].([]any)
	if len(end) != 2 || end[1].(map[string]any)["field"] != "duration" || end[1].(map[string]any)["a"] != 3.0 || end[1].(map[string]any)["b"] != 2.5 {
		t.Errorf("end %v", end)
	}
}
