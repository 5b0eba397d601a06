package library

import (
	"strings"
	"testing"

	"rewind/model"
)

// Moment terms choose moments by kind, numbers, kill, who and the move;
// replay terms beside them still choose replays.
func TestMomentTerms(t *testing.T) {
	players := []Player{{Slot: "P1", Name: "Mang0", Code: "MANG#0", Character: "Fox"}, {Slot: "P2", Name: "Zain", Code: "ZAIN#0", Character: "Marth"}}
	combo := model.MomentRecord{Kind: model.MomentCombo, By: 0, On: 1,
		Facts: model.MomentFacts{Damage: 45.5, Hits: 6, Kill: true, Move: "up smash", StartPercent: 95}}
	stock := model.MomentRecord{Kind: model.MomentStock, By: -1, On: 0}
	tests := []struct {
		q           string
		combo, stck bool
	}{
		{"kind:combo", true, false},
		{"kind:combo,stock", true, true},
		{"kind:punish", false, false}, // an alias of conversion
		{"damage:>=40", true, false},
		{"damage:>=45.6", false, false},
		{"damage:30..44", false, false},
		{"damage:30..45", true, false}, // 45 covers 45 to 46, as len:5m covers a minute
		{"damage:40..50", true, false},
		{"hits:6", true, false},
		{"hits:>6", false, false},
		{"kill", true, false},
		{"-kill", false, true},
		{"by:fox on:marth", true, false},
		{"by:mang0", true, false},
		{"on:fox", false, true},
		{"by:marth", false, false},
		{"move:upsmash", true, false},
		{"move:up", true, false},
		{"start:>90", true, false},
		{"player:mang0 kind:combo", true, false}, // a replay term does not judge moments
	}
	for _, tt := range tests {
		q, err := ParseQuery(tt.q)
		if err != nil {
			t.Fatalf("%q: %v", tt.q, err)
		}
		if got := q.MatchMoment(&combo, players); got != tt.combo {
			t.Errorf("%q on the combo: %v", tt.q, got)
		}
		if got := q.MatchMoment(&stock, players); got != tt.stck {
			t.Errorf("%q on the stock: %v", tt.q, got)
		}
		if !q.HasMomentTerms() {
			t.Errorf("%q has no moment terms", tt.q)
		}
	}
	q, _ := ParseQuery("player:mang0 kind:combo")
	if len(q.terms) != 1 || len(q.moments) != 1 {
		t.Errorf("replay terms %d, moment terms %d", len(q.terms), len(q.moments))
	}
}

// TestMomentMatcher: a MomentMatcher over replay after replay answers as
// MatchMoment does for each (the players folded for one replay are not
// the next one's), and a replay's moments after the first allocate
// nothing.
func TestMomentMatcher(t *testing.T) {
	replays := []struct {
		players []Player
		moments []model.MomentRecord
	}{
		{[]Player{{Slot: "P1", Name: "Mang0", Character: "Fox"}, {Slot: "P2", Name: "Zain", Character: "Marth"}},
			[]model.MomentRecord{{Kind: model.MomentCombo, By: 0, On: 1, Facts: model.MomentFacts{Damage: 50, Move: "up smash"}},
				{Kind: model.MomentCombo, By: 1, On: 0, Facts: model.MomentFacts{Damage: 20, Move: "Forward Air"}}}},
		{[]Player{{Slot: "P1", Name: "Hbox", Character: "Jigglypuff"}, {Slot: "P2", Name: "Fox McCloud", Code: "FOX#1", Character: "Falco"}},
			[]model.MomentRecord{{Kind: model.MomentCombo, By: 0, On: 1, Facts: model.MomentFacts{Damage: 70, Move: "rest"}},
				{Kind: model.MomentStock, By: 1, On: 0}}},
		{nil, []model.MomentRecord{{Kind: model.MomentCombo, By: 0, On: 1}}},
	}
	for _, text := range []string{"by:fox", "on:fox damage:>=30", "move:upsmash", "move:air -by:p2", "kind:combo by:jiggly", ""} {
		q, err := ParseQuery(text)
		if err != nil {
			t.Fatal(err)
		}
		mm := q.MomentMatcher()
		for round := range 2 {
			for ri, r := range replays {
				mm.SetPlayers(r.players)
				for mi := range r.moments {
					if got, want := mm.Match(&r.moments[mi]), q.MatchMoment(&r.moments[mi], r.players); got != want {
						t.Errorf("%q, round %d, replay %d, moment %d: %v, MatchMoment %v", text, round, ri, mi, got, want)
					}
				}
			}
		}
		r := replays[1]
		if n := testing.AllocsPerRun(10, func() {
			mm.SetPlayers(r.players)
			for mi := range r.moments {
				mm.Match(&r.moments[mi])
			}
		}); n != 0 {
			t.Errorf("%q: %v allocations for a replay's moments", text, n)
		}
	}
}

func TestMomentTermMistakes(t *testing.T) {
	for _, tt := range []struct{ q, says string }{
		{"kind:combos", `"combos" is no kind of moment`},
		{"damage:>=lots", `"lots" is not a number`},
		{"hits:..", "a range needs at least one end"},
	} {
		_, err := ParseQuery(tt.q)
		if err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%q: %v, want %q", tt.q, err, tt.says)
		}
	}
}
