package sc2

import "testing"

func TestMatchup(t *testing.T) {
	for _, tt := range []struct {
		a, b []string
		want string
	}{
		{[]string{"Zerg"}, []string{"Protoss"}, "PvZ"},
		{[]string{"Protoss"}, []string{"Zerg"}, "PvZ"},
		{[]string{"Terran"}, []string{"Terran"}, "TvT"},
		{[]string{"Zerg", "Protoss"}, []string{"Terran", "Terran"}, "PZvTT"},
	} {
		if got := matchup(tt.a, tt.b); got != tt.want {
			t.Errorf("%v vs %v: %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}
