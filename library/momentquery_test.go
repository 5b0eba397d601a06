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
