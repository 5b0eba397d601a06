package slippi

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"rewind/model"
)

// completeTwoPlayer is each complete two-player game slippi-js computes
// stats for, with its getStats().
func completeTwoPlayer(t *testing.T, run func(t *testing.T, rel string, want *Stats)) int {
	games := 0
	for _, e := range loadExpectations(t) {
		var want *Stats
		if e.Cut > 0 || e.Error != "" || json.Unmarshal(e.Stats, &want) != nil || want == nil || len(want.Overall) != 2 || !want.GameComplete || len(want.Stocks) == 0 {
			continue
		}
		if replayFile(t, e.File) == "" {
			continue
		}
		games++
		t.Run(strings.ReplaceAll(e.File, "/", "__"), func(t *testing.T) { run(t, e.File, want) })
	}
	return games
}

func playerOfPort(r *model.Replay, port int) int {
	for i, p := range r.Players {
		if p.Slot == fmt.Sprintf("P%d", port+1) {
			return i
		}
	}
	return -1
}

// punishKey is a punish as slippi-js gives it and as a moment or an
// archive record should: frame numbers, who hit whom, the facts.
type punishKey struct {
	start, end int64
	by, on     int
	facts      model.MomentFacts
}

func (k punishKey) String() string {
	return fmt.Sprintf("%d..%d by %d on %d %+v", k.start, k.end, k.by, k.on, k.facts)
}

// jsPunish is what slippi-js's conversion or combo says, as a punishKey.
func jsPunish(r *model.Replay, st *Stats, by, on int, p *Punish) punishKey {
	end := st.LastFrame
	if p.EndFrame != nil {
		end = int64(*p.EndFrame)
	}
	endPct := float64(p.CurrentPercent)
	if p.EndPercent != nil {
		endPct = float64(*p.EndPercent)
	}
	move := ""
	if n := len(p.Moves); n > 0 && p.Moves[n-1].MoveID != nil {
		move = moveText(int(*p.Moves[n-1].MoveID))
	}
	return punishKey{start: p.StartFrame, end: end, by: playerOfPort(r, by), on: playerOfPort(r, on),
		facts: model.MomentFacts{Damage: endPct - float64(p.StartPercent), Hits: len(p.Moves), Kill: p.DidKill, Move: move,
			StartPercent: float64(p.StartPercent), EndPercent: endPct}}
}

func sortKeys(ks []punishKey) {
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].start != ks[j].start {
			return ks[i].start < ks[j].start
		}
		return ks[i].by < ks[j].by
	})
}

func samePunishes(t *testing.T, what string, got, want []punishKey) {
	t.Helper()
	sortKeys(got)
	sortKeys(want)
	if len(got) != len(want) {
		t.Errorf("%s: %d, slippi-js %d", what, len(got), len(want))
		return
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s %d:\n  got %v\n want %v (slippi-js)", what, i, got[i], want[i])
		}
	}
}

// TestMomentsAgreeWithSlippiJS checks the moments against slippi-js's
// stats for every complete two-player game:
//   - a stock moment where each of its stocks ends, taken by the player and
//     with the move of the conversion that killed;
//   - one conversion moment per conversion, with its frames, who hit whom,
//     damage, hits, last move, kill and percents;
//   - a combo moment per combo that does not start with a conversion by
//     the same player on the same player, and no two punishes of one
//     player on another starting on the same frame (no twins);
//   - the archive records: every conversion and every combo, kind by kind
//     exactly slippi-js's lists;
//   - everything in frame order.
func TestMomentsAgreeWithSlippiJS(t *testing.T) {
	stocks, kills, convs, combos := 0, 0, 0, 0
	games := completeTwoPlayer(t, func(t *testing.T, rel string, want *Stats) {
		r := load(t, rel)
		ms := r.Analysis().Moments
		d := momentsByKind(ms)
		stockAt := map[int64]model.Moment{}
		for _, m := range d[model.MomentStock] {
			stockAt[r.Timeline.Number(m.Frame)] = m
		}
		ended := 0
		for _, s := range want.Stocks {
			if s.EndFrame == nil {
				continue
			}
			ended++
			m, ok := stockAt[int64(*s.EndFrame)]
			if !ok || m.On != playerOfPort(r, s.PlayerIndex) {
				t.Errorf("P%d's stock ending at frame %d: no moment (%+v)", s.PlayerIndex+1, *s.EndFrame, m)
			}
		}
		if len(d[model.MomentStock]) != ended {
			t.Errorf("%d stock moments, slippi-js ends %d stocks", len(d[model.MomentStock]), ended)
		}
		for _, c := range want.Conversions {
			if !c.DidKill {
				continue
			}
			m := stockAt[int64(*c.EndFrame)]
			last := c.Moves[len(c.Moves)-1]
			if m.By != playerOfPort(r, c.LastHitBy) || field(m, "moveId") != int64(*last.MoveID) || !m.Facts.Kill || m.Facts.Move != moveText(int(*last.MoveID)) {
				t.Errorf("stock at %d: taken by %d with move %v (%+v), slippi-js's killing conversion: P%d, move %d", *c.EndFrame, m.By, field(m, "moveId"), m.Facts, c.LastHitBy+1, *last.MoveID)
			}
			kills++
		}
		// the timeline: conversions, and the combos that start inside one
		keyOf := func(m model.Moment) punishKey {
			return punishKey{r.Timeline.Number(m.Frame), r.Timeline.Number(m.End), m.By, m.On, m.Facts}
		}
		var gotConv, wantConv, gotCombo, wantCombo []punishKey
		opening := map[[3]int64]bool{}
		for i := range want.Conversions {
			c := &want.Conversions[i]
			wantConv = append(wantConv, jsPunish(r, want, c.LastHitBy, c.PlayerIndex, &c.Punish))
			opening[[3]int64{int64(c.LastHitBy), int64(c.PlayerIndex), c.StartFrame}] = true
		}
		for i := range want.Combos {
			c := &want.Combos[i]
			if !opening[[3]int64{int64(c.LastHitBy), int64(c.PlayerIndex), c.StartFrame}] {
				wantCombo = append(wantCombo, jsPunish(r, want, c.LastHitBy, c.PlayerIndex, &c.Punish))
			}
		}
		for _, m := range d[model.MomentConversion] {
			gotConv = append(gotConv, keyOf(m))
		}
		for _, m := range d[model.MomentCombo] {
			gotCombo = append(gotCombo, keyOf(m))
		}
		samePunishes(t, "conversion moments", gotConv, wantConv)
		samePunishes(t, "combo moments", gotCombo, wantCombo)
		twins := map[[3]int]model.MomentKind{}
		for _, m := range append(d[model.MomentConversion], d[model.MomentCombo]...) {
			k := [3]int{m.Frame, m.By, m.On}
			if other, ok := twins[k]; ok {
				t.Errorf("a %s and a %s by %d on %d both start at frame %d", other, m.Kind, m.By, m.On, r.Timeline.Number(m.Frame))
			}
			twins[k] = m.Kind
		}
		// the archive: each kind whole
		gotConv, gotCombo, wantCombo = nil, nil, nil
		for i := range want.Combos {
			c := &want.Combos[i]
			wantCombo = append(wantCombo, jsPunish(r, want, c.LastHitBy, c.PlayerIndex, &c.Punish))
		}
		for _, rec := range Summarize(r).Moments {
			k := punishKey{rec.Frame, rec.End, rec.By, rec.On, rec.Facts}
			switch rec.Kind {
			case model.MomentConversion:
				gotConv = append(gotConv, k)
			case model.MomentCombo:
				gotCombo = append(gotCombo, k)
			}
		}
		samePunishes(t, "conversion records", gotConv, wantConv)
		samePunishes(t, "combo records", gotCombo, wantCombo)
		for i := 1; i < len(ms); i++ {
			if ms[i].Frame < ms[i-1].Frame {
				t.Fatalf("moment %d at frame %d follows one at %d", i, ms[i].Frame, ms[i-1].Frame)
			}
		}
		if len(d[model.MomentEnd]) != 1 {
			t.Errorf("%d end moments, want 1", len(d[model.MomentEnd]))
		}
		stocks += ended
		convs += len(want.Conversions)
		combos += len(want.Combos)
	})
	t.Logf("%d games: %d stock moments at slippi-js's stock ends, %d killing moves as its conversions have them, %d conversions and %d combos", games, stocks, kills, convs, combos)
}

func momentsByKind(ms []model.Moment) map[model.MomentKind][]model.Moment {
	out := map[model.MomentKind][]model.Moment{}
	for _, m := range ms {
		out[m.Kind] = append(out[m.Kind], m)
	}
	return out
}

func field(m model.Moment, key string) any {
	for _, f := range m.Fields {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// TestMomentSummaries checks the words on slippi-js's own test game
// (test.slp: 5 stocks, the last ending at 3694; the first conversion has 4
// moves from a back air (15) to a down air (17)).
func TestMomentSummaries(t *testing.T) {
	r := load(t, "project-slippi__slippi-js/slp__test.slp")
	d := momentsByKind(r.Analysis().Moments)
	conv := d[model.MomentConversion][0]
	if s := conv.Summary; !strings.HasPrefix(s, "neutral win: 4 hits, ") || !strings.Contains(s, "% on Captain Falcon (back air, ") || !strings.Contains(s, "down air)") {
		t.Errorf("first conversion: %q", s)
	}
	if conv.By != 0 || conv.On != 1 || conv.End <= conv.Frame || conv.Facts.Hits != 4 || conv.Facts.Move != "down air" {
		t.Errorf("first conversion: player %d on %d, frames %d..%d, %+v", conv.By, conv.On, conv.Frame, conv.End, conv.Facts)
	}
	last := d[model.MomentStock][len(d[model.MomentStock])-1]
	if r.Timeline.Number(last.Frame) != 3694 || last.On != 1 || last.By != 0 || !strings.HasPrefix(last.Summary, "lost the last stock to Falco's ") {
		t.Errorf("last stock: frame %d, P%d by %d: %q", r.Timeline.Number(last.Frame), last.On, last.By, last.Summary)
	}
	first := d[model.MomentStock][0]
	if !strings.HasSuffix(first.Summary, "(3 left)") || !strings.HasPrefix(first.Summary, "lost a stock to Falco's ") {
		t.Errorf("first stock: %q", first.Summary)
	}
	if e := d[model.MomentEnd]; len(e) != 1 || !strings.HasPrefix(e[0].Summary, "game ended: ") {
		t.Errorf("end: %+v", e)
	}
}

// TestAnalysisWithoutGame: files with no frames or cut inside the gecko
// list have an analysis without panicking; a header-only decode has none.
func TestAnalysisWithoutGame(t *testing.T) {
	for _, name := range []string{"tests__data__corrupt.slp", "slp__geckoCodes.slp"} {
		r := load(t, name)
		a := r.Analysis()
		if s, ok := a.Stats.Native.(*Stats); !ok || s.GameComplete {
			t.Errorf("%s: stats %+v", name, a.Stats.Native)
		}
		if len(a.Stats.Tables) == 0 || a.Stats.Tables[0].Key != "overall" {
			t.Errorf("%s: tables %+v", name, a.Stats.Tables)
		}
		for pl, p := range Summarize(r).Players {
			if p.Outcome != model.OutcomeUnknown {
				t.Errorf("%s: P%d outcome %q without a Game End", name, pl+1, p.Outcome)
			}
		}
	}
	h := loadOpt(t, "slp__geckoCodes.slp", model.DecodeOptions{HeaderOnly: true})
	if s := Summarize(h); len(s.Players) != len(h.Players) || len(s.Moments) != 0 {
		t.Errorf("header-only summary: %+v", s)
	}
}

// doublesJS is what slippi-js 9.1.2 reads of doubles.slp's stocks
// (testdata/slippijs/doubles.json): the teams, every frame a player's stock
// count changes, the last stock counts, getWinners().
type doublesJS struct {
	File    string
	IsTeams bool
	Players []struct {
		PlayerIndex, TeamID, StartStocks int
	}
	StockChanges []struct {
		Frame         int64
		PlayerIndex   int
		From, To      int
		ActionStateID int
	}
	LastStocks map[string]int
	Winners    []struct{ PlayerIndex int }
}

// TestDoubles: a team game by team. Every drop of a stock count slippi-js
// reads is a stock moment; a drop while alive (not a dead action state)
// as a teammate's count rises from 0 is a stock that teammate took (no
// death, no kill; EXPECTED.md: P1 absent 7755..7782, back at 7783); a
// stock goes to a teammate as no kill; a player loses "the last stock"
// once, at the last drop to 0; no one takes more stocks than the other
// team had; the team with stocks left at the end won, each member (slippi-js
// names no winner: there are no placements before 3.13).
func TestDoubles(t *testing.T) {
	var js doublesJS
	readJS(t, "doubles.json", &js)
	r := load(t, "project-slippi__slippi-js/slp__doubles.slp")
	if !js.IsTeams || len(js.Winners) != 0 {
		t.Fatalf("slippi-js: teams %v, winners %v", js.IsTeams, js.Winners)
	}
	team := map[int]int{}
	for _, p := range js.Players {
		team[p.PlayerIndex] = p.TeamID
	}
	ms := r.Analysis().Moments
	stockAt := map[[2]int64]model.Moment{}
	for _, m := range momentsByKind(ms)[model.MomentStock] {
		stockAt[[2]int64{r.Timeline.Number(m.Frame), int64(m.On)}] = m
	}
	drops, taken := 0, 0
	lastDrop := map[int]int64{}
	for _, c := range js.StockChanges {
		if c.To > c.From {
			continue
		}
		drops++
		lastDrop[c.PlayerIndex] = c.Frame
		m, ok := stockAt[[2]int64{c.Frame, int64(playerOfPort(r, c.PlayerIndex))}]
		if !ok {
			t.Errorf("P%d's stock count drops at %d: no moment", c.PlayerIndex+1, c.Frame)
			continue
		}
		// a teammate who comes back on at that frame took it
		mate := -1
		for _, o := range js.StockChanges {
			if o.Frame == c.Frame && o.From == 0 && o.To > 0 && team[o.PlayerIndex] == team[c.PlayerIndex] {
				mate = o.PlayerIndex
			}
		}
		if mate >= 0 && c.ActionStateID > asDyingEnd {
			taken++
			if m.By != playerOfPort(r, mate) || m.Facts.Kill || field(m, "how") != "taken by a teammate" || !strings.HasPrefix(m.Summary, "gave a stock to teammate ") {
				t.Errorf("the stock P%d took from P%d at %d: %+v", mate+1, c.PlayerIndex+1, c.Frame, m)
			}
		}
		if m.By >= 0 && team[c.PlayerIndex] == team[portOf(r, m.By)] && m.Facts.Kill {
			t.Errorf("a kill of a teammate at %d: %q", c.Frame, m.Summary)
		}
	}
	eq(t, "stock moments", len(momentsByKind(ms)[model.MomentStock]), drops)
	eq(t, "stocks taken by a teammate out of stocks (P1 back at 7783)", taken, 1)
	for _, m := range momentsByKind(ms)[model.MomentStock] {
		if strings.HasPrefix(m.Summary, "lost the last stock") && r.Timeline.Number(m.Frame) != lastDrop[portOf(r, m.On)] {
			t.Errorf("%s at %d: not the player's last stock (%d)", r.Players[m.On].Slot, r.Timeline.Number(m.Frame), lastDrop[portOf(r, m.On)])
		}
	}
	s := Summarize(r)
	alive := map[int]bool{}
	for idx, n := range js.LastStocks {
		var i int
		fmt.Sscan(idx, &i)
		if n > 0 {
			alive[team[i]] = true
		}
	}
	if len(alive) != 1 {
		t.Fatalf("teams with stocks at the end: %v", alive)
	}
	stocksOf := map[int]int{} // start stocks per team
	for _, p := range js.Players {
		stocksOf[p.TeamID] += p.StartStocks
	}
	for _, p := range js.Players {
		pl := playerOfPort(r, p.PlayerIndex)
		want := model.OutcomeLoss
		if alive[p.TeamID] {
			want = model.OutcomeWin
		}
		eq(t, fmt.Sprintf("P%d outcome", p.PlayerIndex+1), s.Players[pl].Outcome, want)
		took := statOf(s.Players[pl], "stocksTaken")
		other := 0
		for tm, n := range stocksOf {
			if tm != p.TeamID {
				other += n
			}
		}
		if took > float64(other) {
			t.Errorf("P%d took %g stocks; the other team had %d", p.PlayerIndex+1, took, other)
		}
	}
	end := momentsByKind(ms)[model.MomentEnd][0]
	if !strings.Contains(end.Summary, "team blue won (") { // team id 1: blue
		t.Errorf("end: %q", end.Summary)
	}
}

func portOf(r *model.Replay, pl int) int {
	var port int
	fmt.Sscanf(r.Players[pl].Slot, "P%d", &port)
	return port - 1
}

func statOf(p model.PlayerSummary, key string) float64 {
	v := math.NaN()
	for _, s := range p.Stats {
		if s.Key == key {
			if math.IsNaN(v) {
				v = 0
			}
			v += s.Value
		}
	}
	return v
}
