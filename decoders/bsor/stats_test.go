package bsor

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/analysistest"
	at "rewind/decoders/internal/analysistest"
	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func num(f model.Field) float64 {
	switch v := f.Value.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return math.NaN()
}

func approx(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// checkMoments adds BSOR's own rule to the common ones: every moment is
// the one player's.
func checkMoments(t *testing.T, r *model.Replay, a *model.Analysis) {
	t.Helper()
	at.Check(t, r, a)
	for _, m := range a.Moments {
		if m.By != 0 || m.On != -1 || m.End != m.Frame || m.Span.Len <= 0 {
			t.Errorf("moment %+v", m)
		}
	}
}

func statTable(t *testing.T, a *model.Analysis, key string) model.StatTable {
	t.Helper()
	return at.Table(t, a, key, at.Any)
}

// definitionsFile is a replay whose statistics can be worked out by hand
// from BeatLeader's definitions (ReplayStatistic.cs); the expected values
// below are that working.
func definitionsFile() *testFile {
	tf := sampleFile()
	tf.frames = nil
	for i := 0; i <= 20; i++ { // 0 to 10 s
		tf.frames = append(tf.frames, frame{Time: float32(i) * 0.5, FPS: 90, Head: pose{Pos: vec3{0, 1.5, 0.1}}})
	}
	cut := func(saber int32, before, after, dist, normalZ, dev float32) cutInfo {
		c := goodCut(before, after, dist)
		c.SaberType, c.CutNormal, c.TimeDeviation = saber, vec3{0, 0, normalZ}, dev
		return c
	}
	bad := cut(1, 0.5, 0.5, 0.1, 0, 0)
	bad.SaberTypeOK = false
	tf.notes = []note{
		// id = scoring*10000 + line*1000 + layer*100 + colour*10 + direction
		{ID: 30001, EventTime: 1.0, SpawnTime: 1.0, Cut: cut(0, 0.9, 0.5, 0, -0.2, 0.010)},     // red: 63+15+15 = 93
		{ID: 31001, EventTime: 1.5, SpawnTime: 1.5, Cut: cut(0, 1.2, 1.0, 0.15, 0.4, 0.030)},   // red: 70+30+8 = 108
		{ID: 30101, EventTime: 2.0, SpawnTime: 2.0, Cut: cut(0, 6, 0.2, 0.3, 0, 0.020)},        // red, pre rating >= 5: 70+6+0 = 76
		{ID: 53011, EventTime: 2.5, SpawnTime: 2.5, Cut: cut(1, 0.1, 0.8, 0.06, -0.5, -0.010)}, // blue arc tail: 70+24+12 = 106
		{ID: 72011, EventTime: 3.0, SpawnTime: 3.0, Cut: cut(1, 0, 0, 0, 0.9, 0.030)},          // blue chain link: 20
		{ID: 32011, EventTime: 3.5, SpawnTime: 3.5, EventType: 2},                              // blue miss
		{ID: 31101, EventTime: 4.0, SpawnTime: 4.0, EventType: 1, Cut: bad},                    // red cut by the right saber
		{ID: 999, EventTime: 4.5, SpawnTime: 4.5, EventType: 3},                                // bomb
		{ID: 30201, EventTime: 5.0, SpawnTime: 5.0, EventType: 1},                              // bad cut, zeros (old mod)
		{ID: 33011, EventTime: 6.0, SpawnTime: 6.0, Cut: cut(1, 1, 1, 0, 0.1, 0)},              // blue: 115
	}
	tf.walls = []wall{{ID: 112, Energy: 0.3, Time: 5.5, SpawnTim: 5.4}}
	tf.heights = nil
	tf.pauses = []pause{{Duration: 7, Time: 2.2}, {Duration: 4, Time: 8.0}} // the second after the last note
	return tf
}

func TestStatsDefinitions(t *testing.T) {
	data := definitionsFile().bytes()
	r := decode(t, data)
	a := r.Analysis()
	checkMoments(t, r, a)

	h := statTable(t, a, "hands")
	if strings.Join(h.Columns, "|") != "Left (red)|Right (blue)|Both" {
		t.Fatalf("columns %q", h.Columns)
	}
	for _, w := range []struct {
		row         string
		left, right float64
		tol         float64
	}{
		{"goodCuts", 3, 3, 0},
		{"averageCut", (93 + 108 + 76) / 3.0, (106 + 115) / 2.0, 0.01}, // chain links have no centre part
		{"preswing", (0.9 + 1.2) / 2 * 100, 100, 0.01},                 // >= 5 dropped; arc tails and links fixed
		{"postswing", (0.5 + 1.0 + 0.2) / 3 * 100, (0.8 + 1.0) / 2 * 100, 0.01},
		{"preswingPoints", (63 + 70) / 2.0, 70, 0.01},
		{"accuracyPoints", (15 + 8 + 0) / 3.0, (12 + 15) / 2.0, 0.01},
		{"postswingPoints", (15 + 30 + 6) / 3.0, (24 + 30) / 2.0, 0.01},
		{"timeDependence", (0.2 + 0.4 + 0) / 3, (0.5 + 0.1) / 2, 0.001},
		{"timing", (10 + 30 + 20) / 3.0, (-10 + 30 + 0) / 3.0, 0.1}, // every good cut, in ms
		{"misses", 0, 1, 0},
		{"badCuts", 0, 1, 0}, // by the saber that cut; the zeroed one is neither
	} {
		approx(t, w.row+" left", num(at.Cell(t, h, w.row, 0)), w.left, w.tol)
		approx(t, w.row+" right", num(at.Cell(t, h, w.row, 1)), w.right, w.tol)
	}
	if num(at.Cell(t, h, "badCuts", 2)) != 2 || num(at.Cell(t, h, "badCutsUnrecorded", 2)) != 1 || num(at.Cell(t, h, "bombHits", 2)) != 1 {
		t.Errorf("bad cuts / bombs in the Both column")
	}
	if at.Cell(t, h, "bombHits", 0).Text() != "—" {
		t.Errorf("bombs are given a hand")
	}
	// a swing rating reads as the share of the angle the game pays in full:
	// the game's 1 is 100° before the cut, 60° after it
	pre, post := at.Row(t, h, "preswing"), at.Row(t, h, "postswing")
	if pre.Cells[0].Text() != "105.0%" || !strings.Contains(pre.Label, "100°") || !strings.Contains(post.Label, "60°") {
		t.Errorf("pre-swing %q %q, post-swing %q", pre.Label, pre.Cells[0].Text(), post.Label)
	}

	s := statTable(t, a, "score")
	if s.Player != -1 || len(s.Columns) != 1 || s.Columns[0] != "P1 Tester" {
		t.Errorf("score table %q player %d", s.Columns, s.Player)
	}
	for row, want := range map[string]float64{"maxCombo": 5, "maxStreak": 1, "misses": 1, "badCuts": 2, "bombHits": 1,
		"wallHits": 1, "pauses": 1, "pausedTime": 7, "pausesOutside": 1} {
		approx(t, row, num(at.Cell(t, s, row, 0)), want, 0)
	}

	g := statTable(t, a, "grid")
	if len(g.Rows) != 3 || g.Rows[2].Key != "bottom" {
		t.Fatalf("grid rows %+v", g.Rows)
	}
	approx(t, "grid bottom line 0", num(g.Rows[2].Cells[0]), 93, 0.01)
	approx(t, "grid bottom line 1", num(g.Rows[2].Cells[1]), 108, 0.01)
	approx(t, "grid bottom line 3", num(g.Rows[2].Cells[3]), (106+115)/2.0, 0.01) // the link on line 2 is not counted
	approx(t, "grid middle line 0", num(g.Rows[1].Cells[0]), 76, 0.01)
	if g.Rows[2].Cells[2].Text() != "—" || g.Rows[0].Cells[0].Text() != "—" {
		t.Errorf("empty grid cells %+v", g.Rows)
	}

	// BeatLeader's shape for JSON, with its quirks: bombs on the right hand,
	// a zeroed bad cut on the left (saberType 0)
	st := a.Stats.Native.(*playStats).scoreStatistic
	if st.HitTracker.RightBombs != 1 || st.HitTracker.LeftBombs != 0 || st.HitTracker.LeftBadCuts != 1 || st.HitTracker.RightBadCuts != 1 {
		t.Errorf("hit tracker %+v", st.HitTracker)
	}
	if st.WinTracker.NbOfPause != 1 || st.WinTracker.TotalPauseDuration != 7 || !st.WinTracker.Won || st.WinTracker.EndTime != 10 {
		t.Errorf("win tracker %+v", st.WinTracker)
	}
	approx(t, "average head height", st.WinTracker.AverageHeadPosition.Y, 1.5, 1e-6)
	approx(t, "average height (info, no height events)", st.WinTracker.AverageHeight, 1.8, 1e-6)
	if len(st.AccuracyTracker.LeftAverageCut) != 3 || len(st.AccuracyTracker.GridAcc) != 12 {
		t.Errorf("accuracy tracker %+v", st.AccuracyTracker)
	}
	// the graph: one value per second to 10 s; 1 before the first note;
	// second 1 is the mean accuracy after notes 1 (x1) and 2 (x2)
	gr := st.ScoreGraphTracker.Graph
	if len(gr) != 10 || gr[0] != 1 {
		t.Fatalf("graph %v", gr)
	}
	approx(t, "graph second 1", gr[1], (93.0/115+(93+2*108)/(115+2*115.0))/2, 1e-9)
	if gr[7] != gr[6] || gr[9] != gr[6] {
		t.Errorf("graph after the last note %v", gr)
	}
	b, err := json.Marshal(a.Stats.Native)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"hitTracker"`, `"leftPreswing"`, `"rightPostswing"`, `"leftTimeDependence"`, `"gridAcc"`, `"nbOfPause"`, `"scoreGraphTracker"`, `"maxStreak":1`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("native JSON lacks %s: %s", k, b)
		}
	}

	// moments: the two pauses, the miss, both bad cuts, the bomb, the wall
	want := []struct {
		kind model.MomentKind
		says string
	}{
		{model.MomentPause, "paused for 7 s"},
		{model.MomentMiss, "missed blue down note (right hand), line 2 bottom; combo 5 broken"},
		{model.MomentBadCut, "bad cut (wrong saber): red down note, right saber, line 1 middle"},
		{model.MomentBomb, "hit a bomb at line 1 bottom"},
		{model.MomentBadCut, "bad cut (saber and reason not recorded): red down note, line 0 top"},
		{model.MomentWall, "hit a crouch wall (line 1, width 2); energy 30% after it"},
		{model.MomentPause, "paused for 4 s"},
	}
	if len(a.Moments) != len(want) {
		t.Fatalf("moments %+v", a.Moments)
	}
	for i, w := range want {
		if m := a.Moments[i]; m.Kind != w.kind || m.Summary != w.says {
			t.Errorf("moment %d: %s %q, want %s %q", i, m.Kind, m.Summary, w.kind, w.says)
		}
	}
	// a moment's span is the record's, the same bytes as its event
	for _, i := range eventsOf(r, "miss") {
		if m := at.Moments(a, model.MomentMiss)[0]; m.Span != r.EventSpan(i) || m.Frame != int(r.Events[i].Frame) {
			t.Errorf("miss moment %+v, event %+v", m, r.Events[i])
		}
	}
	if len(a.Charts) != 1 || len(a.Charts[0].Series[0].Values) != 21 || a.Charts[0].Series[0].Values[0] != 100 {
		t.Errorf("charts %+v", a.Charts)
	}
}

// maxNormal is the best score for n plain notes: the multiplier is x1 for
// the first note, x2 for the next 4, x4 for the next 8, then x8.
func maxNormal(n int) int64 {
	var s int64
	for i := 1; i <= n; i++ {
		m := int64(8)
		switch {
		case i == 1:
			m = 1
		case i <= 5:
			m = 2
		case i <= 13:
			m = 4
		}
		s += 115 * m
	}
	return s
}

// checkAnalysis compares one real file's analysis with its ground truth.
func checkAnalysis(t *testing.T, path string, e expectation) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := decode(t, data)
	a := r.Analysis()
	checkMoments(t, r, a)
	counts := map[model.MomentKind]int64{model.MomentMiss: e.miss, model.MomentBadCut: e.bad, model.MomentBomb: e.bomb,
		model.MomentWall: e.walls, model.MomentPause: e.pauses}
	for k, want := range counts {
		if got := int64(len(at.Moments(a, k))); got != want {
			t.Errorf("%s moments %d, EXPECTED says %d", k, got, want)
		}
	}
	h, s := statTable(t, a, "hands"), statTable(t, a, "score")
	if l, r := num(at.Cell(t, h, "misses", 0)), num(at.Cell(t, h, "misses", 1)); l+r != float64(e.miss) || num(at.Cell(t, h, "misses", 2)) != float64(e.miss) {
		t.Errorf("misses %v + %v, want %d", l, r, e.miss)
	}
	if num(at.Cell(t, h, "badCuts", 2)) != float64(e.bad) || num(at.Cell(t, s, "bombHits", 0)) != float64(e.bomb) ||
		num(at.Cell(t, s, "wallHits", 0)) != float64(e.walls) || num(at.Cell(t, h, "goodCuts", 2)) != float64(e.good) {
		t.Errorf("bad cuts / bombs / walls / good cuts")
	}
	fc := e.bad == 0 && e.miss == 0 && e.bomb == 0 && e.walls == 0
	acc, fcAcc := num(at.Cell(t, s, "accuracy", 0)), num(at.Cell(t, s, "fcAccuracy", 0))
	if fc {
		// a full combo: the combo is every note, and full-combo accuracy is
		// the accuracy
		if num(at.Cell(t, s, "maxCombo", 0)) != float64(e.good) {
			t.Errorf("max combo %v of a full combo of %d", num(at.Cell(t, s, "maxCombo", 0)), e.good)
		}
		approx(t, "FC accuracy of a full combo", fcAcc, acc, 1e-9)
		st, _ := model.Find(r.Header, "scoringTypes")
		types := model.FormatValue(st.Value)
		plain := (strings.HasPrefix(types, "3 Normal ×") || strings.HasPrefix(types, "0 Default (old mod) ×")) && !strings.Contains(types, ",")
		if e.scoreExact && plain {
			// all plain notes: accuracy is the recorded score over the best
			approx(t, "accuracy", acc, float64(e.score)/float64(maxNormal(int(e.good)))*100, 1e-9)
			t.Logf("accuracy %.4f%% = %d / %d", acc, e.score, maxNormal(int(e.good)))
		}
	} else if fcAcc < acc {
		t.Errorf("full-combo accuracy %v below the accuracy %v", fcAcc, acc)
	}
	st := a.Stats.Native.(*playStats).scoreStatistic
	hit := st.HitTracker
	if hit.LeftMiss+hit.RightMiss != int(e.miss) || hit.LeftBadCuts+hit.RightBadCuts != int(e.bad) || hit.LeftBombs != 0 || hit.RightBombs != int(e.bomb) {
		t.Errorf("hit tracker %+v", hit)
	}
	if st.WinTracker.Won == e.failed || st.WinTracker.NbOfPause > int(e.pauses) {
		t.Errorf("win tracker %+v", st.WinTracker)
	}
	if _, err := json.Marshal(st); err != nil {
		t.Error(err)
	}
	if len(a.Charts) != 1 {
		t.Fatalf("charts %d", len(a.Charts))
	}
	for _, v := range a.Charts[0].Series[0].Values {
		if !(v >= 0 && v <= 100) {
			t.Fatalf("accuracy %v", v)
		}
	}
}

func TestStatsCorpus(t *testing.T) {
	dir := corpus.Dir(t, "bsor")
	for _, e := range expectations {
		t.Run(filepath.Base(e.rel), func(t *testing.T) { checkAnalysis(t, filepath.Join(dir, e.rel), e) })
	}
}

func TestStatsSamples(t *testing.T) {
	dir := corpus.Samples(t, "bsor")
	for _, e := range expectations {
		if e.sample != "" {
			t.Run(e.sample, func(t *testing.T) { checkAnalysis(t, filepath.Join(dir, e.sample), e) })
		}
	}
}

// The oldest mod (0.1.0) writes zeros for a bad cut's details: its 17 bad
// cuts say no saber and no reason, not "left saber, wrong in every way".
func TestStatsOldModBadCuts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "bsor"), "oldest-0.1.0-clip.bsor"))
	if err != nil {
		t.Fatal(err)
	}
	a := decode(t, data).Analysis()
	bad := at.Moments(a, model.MomentBadCut)
	if len(bad) != 17 {
		t.Fatalf("%d bad cuts, EXPECTED says 17", len(bad))
	}
	for _, m := range bad {
		if !strings.Contains(m.Summary, "saber and reason not recorded") {
			t.Errorf("bad cut %q", m.Summary)
		}
	}
	if n := num(at.Cell(t, statTable(t, a, "hands"), "badCutsUnrecorded", 2)); n != 17 {
		t.Errorf("unrecorded bad cuts %v", n)
	}
}

// Damaged files still analyse: no panic, moments in order.
func TestStatsDamaged(t *testing.T) {
	data := sampleFiles(t)[0]
	for c := 4; c < len(data); c += len(data)/97 + 1 {
		r, err := Decode(data[:c], model.DecodeOptions{})
		if err != nil {
			t.Fatalf("cut at %d: %v", c, err)
		}
		a := r.Analysis()
		checkMoments(t, r, a)
		if _, err := json.Marshal(a.Stats.Native); err != nil {
			t.Errorf("cut at %d: %v", c, err)
		}
	}
	// bit flips in the notes, walls and pauses give any values at all
	buf := make([]byte, len(data))
	seed := uint64(0x2545f4914f6cdd1d)
	for k := 0; k < 200; k++ {
		copy(buf, data)
		for j := 0; j < 8; j++ {
			seed ^= seed << 13
			seed ^= seed >> 7
			seed ^= seed << 17
			buf[seed%uint64(len(buf))] ^= 1 << (seed >> 61)
		}
		if r, err := Decode(buf, model.DecodeOptions{}); err == nil {
			a := r.Analysis()
			checkMoments(t, r, a)
			if _, err := json.Marshal(a.Stats.Native); err != nil {
				t.Errorf("flip %d: %v", k, err)
			}
		}
	}
	if r, _ := Decode(data, model.DecodeOptions{HeaderOnly: true}); r.Analyze != nil || len(r.Analysis().Moments) != 0 {
		t.Errorf("a header-only decode has game analysis")
	}
}

func FuzzAnalyzeBSOR(f *testing.F) {
	f.Add(definitionsFile().bytes())
	f.Add(sampleFile().bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			return
		}
		a := r.Analysis()
		checkMoments(t, r, a)
		if _, err := json.Marshal(a.Stats.Native); err != nil {
			t.Fatal(err)
		}
		analysistest.Summary(t, r, &Format)
	})
}

func BenchmarkAnalyzeBSOR(b *testing.B) {
	path := filepath.Join(corpus.Samples(b, "bsor"), "utf16-name-prefix-clip.bsor")
	if shared, ok := corpus.Shared(b); ok {
		path = filepath.Join(shared, "bsor", "MetaGuard__xror/test__data__bsor__sample1.bsor") // the largest
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	at.Benchmark(b, r)
}
