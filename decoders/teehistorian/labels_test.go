package teehistorian

import "testing"

// TestTeamName: DDNet's teamscore.h has TEAM_FLOCK = 0 (no team) and
// TEAM_SUPER = MAX_CLIENTS = 64; the teams between are numbered.
func TestTeamName(t *testing.T) {
	for _, c := range []struct {
		team int32
		want string
	}{{0, ""}, {1, "team 1"}, {5, "team 5"}, {63, "team 63"}, {64, "super team"}} {
		if got := teamName(c.team); got != c.want {
			t.Errorf("teamName(%d) = %q, want %q", c.team, got, c.want)
		}
	}
}
