package sc2

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"rewind/decoders/internal/analysistest"
	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// TestAnalysisSamples holds every sample's analysis to the shared rules
// and to what its era gives: tracker events (2.0.8 and later) a build
// order with supply, older replays the orders.
func TestAnalysisSamples(t *testing.T) {
	for _, p := range samples(t) {
		r := decodeFile(t, p)
		a := r.Analysis()
		analysistest.Check(t, r, a)
		name := filepath.Base(p)
		if strings.HasPrefix(name, "broken") {
			continue
		}
		if len(analysistest.Moments(a, model.MomentEnd)) != 1 {
			t.Errorf("%s: no game end moment", name)
		}
		players := analysistest.Table(t, a, "players", -1)
		if len(players.Columns) != len(r.Players) {
			t.Errorf("%s: %d columns for %d players", name, len(players.Columns), len(r.Players))
		}
		if r.Timeline.Count < 2*60*16 {
			continue // a game of seconds (wol-1.0.1) has no build order
		}
		bo := analysistest.Table(t, a, "buildOrder", analysistest.Any)
		tracked := !strings.HasPrefix(name, "wol")
		if got := bo.Columns[0] == "Supply"; got != tracked {
			t.Errorf("%s: build order columns %q", name, bo.Columns)
		}
		for _, row := range bo.Rows {
			if row.Frame < 0 || row.Frame >= r.Timeline.Count {
				t.Errorf("%s: build order row %q at frame %d", name, row.Label, row.Frame)
			}
		}
		if len(a.Charts) == 0 || a.Charts[0].Title != "APM" {
			t.Errorf("%s: no APM chart", name)
		}
	}
}

// TestKoreanChat: sc2reader's test_kr_realm_and_tampered_messages asserts
// messages[0].text == messages[5].text == "sc2.replays.net" (EXPECTED.md).
func TestKoreanChat(t *testing.T) {
	r := decodeFile(t, filepath.Join(corpus.Samples(t, "sc2"), "wol-1.1.3-kr-encrypted-listfile.SC2Replay"))
	chat := analysistest.Moments(r.Analysis(), model.MomentChat)
	if len(chat) < 6 {
		t.Fatalf("%d chat moments", len(chat))
	}
	for _, i := range []int{0, 5} {
		if f, _ := model.Find(chat[i].Fields, "text"); f.Value != "sc2.replays.net" || !strings.HasSuffix(chat[i].Summary, ": sc2.replays.net") {
			t.Errorf("chat %d: %q", i, chat[i].Summary)
		}
	}
	tb := analysistest.Table(t, r.Analysis(), "chat", -1)
	if len(tb.Rows) != len(chat) {
		t.Errorf("%d chat rows for %d moments", len(tb.Rows), len(chat))
	}
}

// golden is a row of sc2-replay-utils' build order golden.
type golden struct {
	start, finish         int // seconds
	used, made            int
	kind, action, outcome string
	line                  int
}

func mmss(t *testing.T, s string) int {
	m, err1 := strconv.Atoi(s[:2])
	sec, err2 := strconv.Atoi(s[3:])
	if err1 != nil || err2 != nil {
		t.Fatalf("time %q", s)
	}
	return m*60 + sec
}

func readGolden(t *testing.T, path string) []golden {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []golden
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		c := strings.Split(l, ",")
		used, _ := strconv.Atoi(c[2])
		made, _ := strconv.Atoi(c[3])
		out = append(out, golden{start: mmss(t, c[0]), finish: mmss(t, c[1]), used: used, made: made, kind: c[4],
			action: c[5], outcome: c[7], line: n})
	}
	return out
}

// morphs are the golden's structures that come from a type change, whose
// start it estimates and whose finish is the change.
var morphs = map[string]bool{"OrbitalCommand": true, "PlanetaryFortress": true, "WarpGate": true}

// TestBuildOrderGolden checks the build orders of a 22-minute 1v1 against
// sc2-replay-utils' hand-checked golden (testdata/old_republic_50_*.csv),
// where the two agree on what a time is: a structure or a warp-in at the
// loop it starts (UnitInit), with the supply of the last player-stats
// record; a unit at its birth, a morph and an upgrade when done (the
// golden's finish). Its start times of units and upgrades are estimates
// (the command or the build time) rewind does not make, and its worker
// rows rewind does not list. Its outcomes: D destroyed while building, X
// cancelled.
func TestBuildOrderGolden(t *testing.T) {
	r := decodeFile(t, corpus.File(t, "sc2", "paulocanedo__sc2-replay-utils/examples__old_republic_50.SC2Replay"))
	a := r.Analysis()
	analysistest.Check(t, r, a)
	for p, who := range []string{"Terror", "firebat"} {
		if r.Players[p].Name != who {
			t.Fatalf("player %d is %q", p, r.Players[p].Name)
		}
		bo := analysistest.Table(t, a, "buildOrder", p)
		checked := 0
		for _, g := range readGolden(t, filepath.Join("testdata", "old_republic_50_build_order_"+who+".csv")) {
			if g.kind == "W" {
				continue
			}
			want := g.finish
			atStart := g.kind == "S" && !morphs[g.action]
			if atStart {
				want = g.start
			}
			var found *model.StatRow
			for i := range bo.Rows {
				row := &bo.Rows[i]
				if row.Key != g.action {
					continue
				}
				sec := int(math.Round(float64(row.Frame) / 22.4))
				grouped := strings.Contains(row.Cells[1].Text(), "×")
				if sec == want || (grouped && sec+1 == want) {
					found = row
					break
				}
			}
			if found == nil {
				t.Errorf("%s line %d: no %s at %d:%02d", who, g.line, g.action, want/60, want%60)
				continue
			}
			checked++
			note := found.Cells[2].Text()
			switch g.outcome {
			case "X":
				if !strings.Contains(note, "cancelled") {
					t.Errorf("%s line %d: %s at %s not cancelled: %q", who, g.line, g.action, found.Label, note)
				}
			case "D":
				if !strings.Contains(note, "destroyed by") {
					t.Errorf("%s line %d: %s at %s not destroyed: %q", who, g.line, g.action, found.Label, note)
				}
			}
			if atStart && !strings.Contains(found.Cells[1].Text(), "×") {
				if s := found.Cells[0].Text(); s != strconv.Itoa(g.used)+"/"+strconv.Itoa(min(g.made, 200)) {
					t.Errorf("%s line %d: %s at %s supply %s, want %d/%d", who, g.line, g.action, found.Label, s, g.used, g.made)
				}
			}
		}
		if checked < 60 {
			t.Errorf("%s: %d golden rows checked", who, checked)
		}
		t.Logf("%s: %d golden rows agree", who, checked)
	}
	// "firebat começa um Bunker às 02:44 que é derrubado por Terror ...
	// morte real às 03:10 (loop 4261)" (golden_bunker_at_0244_is_destroyed_in_progress)
	var bunker *model.Moment
	for _, m := range analysistest.Moments(a, model.MomentKill) {
		if m.Frame == 4261 && m.On == 1 && strings.Contains(m.Summary, "Bunker") {
			bunker = &m
		}
	}
	if bunker == nil || bunker.By != 0 || !strings.Contains(bunker.Summary, "destroyed while building by Terror") {
		t.Errorf("no kill of firebat's Bunker by Terror at loop 4261: %+v", bunker)
	}
}

// TestLeaves: sc2reader's test_unknown_winner says the recording player,
// Boom, left second in this 4v4 (EXPECTED.md).
func TestLeaves(t *testing.T) {
	r := decodeFile(t, corpus.File(t, "sc2", "ggtracker__sc2reader/test_replays__1.2.2.17811__10.SC2Replay"))
	a := r.Analysis()
	analysistest.Check(t, r, a)
	var left []string
	for _, m := range analysistest.Moments(a, model.MomentDrop) {
		if m.By >= 0 {
			left = append(left, r.Players[m.By].Name)
		}
	}
	if len(left) < 2 || left[1] != "Boom" {
		t.Errorf("players leaving in order: %q", left)
	}
}

// TestActionsOfHumans: sc2reader's test_hots_pids asserts the players who
// issue commands are exactly the human players (EXPECTED.md).
func TestActionsOfHumans(t *testing.T) {
	r := decodeFile(t, corpus.File(t, "sc2", "ggtracker__sc2reader/test_replays__2.0.3.24764__Antiga Shipyard (3).SC2Replay"))
	a := r.Analysis()
	analysistest.Check(t, r, a)
	players := analysistest.Table(t, a, "players", -1)
	orders := analysistest.Row(t, players, "trainOrders")
	for p := range r.Players {
		human := r.Players[p].Result != "" // both players of this 1v1 are people
		if n, _ := analysistest.Cell(t, players, "actions", p).Value.(int64); (n > 0) != human {
			t.Errorf("%s: %d actions", r.Players[p].Name, n)
		}
		if n, _ := orders.Cells[p].Value.(int64); (n > 0) != human {
			t.Errorf("%s: %d train orders", r.Players[p].Name, n)
		}
	}
}

// TestOracleOrders: sc2reader's test_oracle_parsing finds exactly 2
// Oracles in this Heart of the Swarm game without tracker events
// (EXPECTED.md); each was ordered, so its orders hold 2 Train Oracle at
// least.
func TestOracleOrders(t *testing.T) {
	r := decodeFile(t, corpus.File(t, "sc2", "ggtracker__sc2reader/test_replays__2.0.3.24764__ggtracker_1571740.SC2Replay"))
	a := r.Analysis()
	analysistest.Check(t, r, a)
	n := 0
	for _, m := range analysistest.Moments(a, model.MomentTrain) {
		if f, _ := model.Find(m.Fields, "command"); f.Value == "TrainOracle" {
			c, _ := model.Find(m.Fields, "count")
			n += int(c.Value.(int64))
		}
	}
	if n < 2 {
		t.Errorf("%d Train Oracle orders", n)
	}
}

// TestAPMHandBuilt follows sc2reader's APMTracker on a hand-built Wings of
// Liberty stream (17326's layout, see TestWoLGameEventsHandBuilt): 100
// control-group recalls in the first game minute and 40 camera moves,
// then the player leaves at loop 1920, game second 120. Every recall is an
// action, no camera move is; avg_apm = 100 × 1.4 / 120 s × 60 = 70; the
// first game minute holds 100 × 1.4 = 140 actions per real minute, the
// second none. The other player made no action.
func TestAPMHandBuilt(t *testing.T) {
	w := &bitWriter{}
	loop := uint64(0)
	for i := 0; i < 100; i++ {
		gameHead(w, 9, 1, 29) // ControlGroupUpdate: group 1, recall, no mask
		loop += 9
		w.bits(1, 4)
		w.bits(2, 2)
		w.bits(0, 2)
	}
	for i := 0; i < 40; i++ {
		gameHead(w, 1, 1, 49) // CameraUpdate
		loop++
		w.bits(100*256, 16)
		w.bits(50*256, 16)
		w.bits(0, 3)
	}
	gameHead(w, 1920-loop, 1, 25) // PlayerLeave
	d := testDecoder(17326, "WoL")
	var diags []model.Diagnostic
	d.decodeGame(w.out, &diags)
	if len(diags) != 0 || d.game == nil {
		t.Fatalf("diagnostics %v", diags)
	}
	d.occupiedToPl = map[int]int{1: 0, 2: 1}
	d.rate, d.speed, d.loops = 22.4, "Faster", 2000
	d.timeline()
	a := d.analyze()
	analysistest.Check(t, d.r, a)
	players := analysistest.Table(t, a, "players", -1)
	if got := analysistest.Cell(t, players, "apm", 0).Value.(float64); math.Abs(got-70) > 1e-9 {
		t.Errorf("APM %v, want 70", got)
	}
	if got := analysistest.Cell(t, players, "actions", 0).Value; got != int64(100) {
		t.Errorf("actions %v, want 100", got)
	}
	if got := analysistest.Cell(t, players, "apm", 1).Value.(float64); got != 0 {
		t.Errorf("APM of the idle player %v", got)
	}
	if got := analysistest.Cell(t, players, "played", 0).Value; got != 120*time.Second {
		t.Errorf("played until %v, want 2:00 of game time", got)
	}
	minutes := analysistest.Table(t, a, "minutes", -1)
	if len(minutes.Rows) != 3 { // 2,000 loops: two whole game minutes and a part
		t.Fatalf("%d minutes", len(minutes.Rows))
	}
	for m, want := range []float64{140, 0} {
		v := minutes.Rows[m].Cells[0].Value.(map[string]float64)["apm"]
		if math.Abs(v-want) > 1e-9 {
			t.Errorf("minute %d: APM %v, want %v", m, v, want)
		}
	}
	if drops := analysistest.Moments(a, model.MomentDrop); len(drops) != 1 || drops[0].Frame != 1920 || drops[0].By != 0 {
		t.Errorf("leaves %+v", drops)
	}
}

// TestOrdersHandBuilt: without tracker events the build order is the
// orders: the hand-built stream's Build Supply Depot (114/1 in 17326's
// tables) is a build moment, an intent.
func TestOrdersHandBuilt(t *testing.T) {
	w := &bitWriter{}
	buildSupplyDepot(w, 16, 2, 52*4096, 31*4096)
	d := testDecoder(17326, "WoL")
	var diags []model.Diagnostic
	d.decodeGame(w.out, &diags)
	d.occupiedToPl = map[int]int{1: 0, 2: 1}
	d.rate, d.speed, d.loops = 22.4, "Faster", 100
	d.timeline()
	a := d.analyze()
	analysistest.Check(t, d.r, a)
	builds := analysistest.Moments(a, model.MomentBuild)
	if len(builds) != 1 || builds[0].By != 1 || builds[0].Frame != 16 || builds[0].Summary != "Build Supply Depot ordered" {
		t.Fatalf("builds %+v", builds)
	}
	bo := analysistest.Table(t, a, "buildOrder", 1)
	if len(bo.Rows) != 1 || bo.Rows[0].Label != "0:01" || bo.Rows[0].Cells[0].Text() != "Build Supply Depot" {
		t.Errorf("orders %+v", bo.Rows)
	}
}

// TestAnalysisCorpus: every replay of the corpus gives an analysis that
// keeps the shared rules.
func TestAnalysisCorpus(t *testing.T) {
	for _, p := range corpusFiles(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			continue // refused: not a replay (EXPECTED.md's invalid file)
		}
		analysistest.Check(t, r, r.Analysis())
	}
}

// BenchmarkAnalyze times the analysis on the largest sample, a 22-minute
// ladder 1v1 (29,818 loops) of the corpus, and a 40-minute Wings of
// Liberty FFA (38,677 loops, 4 players) whose orders are read from the
// game events.
func BenchmarkAnalyze(b *testing.B) {
	b.Run("sample", func(b *testing.B) {
		analysistest.Benchmark(b, decodeFile(b, filepath.Join(corpus.Samples(b, "sc2"), "lotv-5.0.15-winter-madness.SC2Replay")))
	})
	b.Run("1v1-22min", func(b *testing.B) {
		analysistest.Benchmark(b, decodeFile(b, corpus.File(b, "sc2", "paulocanedo__sc2-replay-utils/examples__old_republic_50.SC2Replay")))
	})
	b.Run("wol-ffa-40min", func(b *testing.B) {
		analysistest.Benchmark(b, decodeFile(b, corpus.File(b, "sc2", "ggtracker__sc2reader/test_replays__1.2.2.17811__8.SC2Replay")))
	})
}
