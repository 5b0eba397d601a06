package teehistorian

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"testing"

	"rewind/model"
)

// statsJSON is the replay's "stats" as `rewind stats --json` writes it,
// read back into its own type (so a key the JSON misses fails to fill).
func statsJSON(t *testing.T, r *model.Replay) serverStats {
	t.Helper()
	b, err := json.Marshal(r.Analysis().Stats.Native)
	if err != nil {
		t.Fatal(err)
	}
	var s serverStats
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("stats JSON %s: %v", b, err)
	}
	return s
}

// finishesFile is DDNet's writer vectors PlayerFinish
// (RecordPlayerFinish(1, 1000000)) and TeamFinish (RecordTeamFinish(63,
// 1000)), then FINISH: times in ticks, 50 a second.
func finishesFile(t *testing.T) []byte {
	var body []byte
	for _, v := range readVectors(t) {
		if v.name == "PlayerFinish" || v.name == "TeamFinish" {
			b, err := hex.DecodeString(v.hex)
			if err != nil {
				t.Fatal(err)
			}
			body = append(body, b...)
		}
	}
	return file(testHeader, append(body, 0x40))
}

// Scenario c of generated/README.md, as JSON: three clients 0, 1 and 2
// (P1, P2, P3); alice joins at tick 150 and disconnects ≈2925, bob joins
// ≈600 and quits ≈2865, alice_dummy joins ≈2450 and is kicked ≈2760 with
// the reason the corpus script gave; alice self-kills once and logs in to
// rcon once.
func TestStatsJSONTwoPlayers(t *testing.T) {
	r, _ := analysisOf(t, sample(t, "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian"))
	s := statsJSON(t, r)
	if len(s.Players) != 3 {
		t.Fatalf("players %+v", s.Players)
	}
	for i, w := range []struct {
		slot, name       string
		joinTick, dropAt int
		reason           string
	}{{"P1", "alice", 150, 2925, ""}, {"P2", "bob", 600, 2865, ""}, {"P3", "alice_dummy", 2450, 2760, "Kicked (kicked by corpus script)"}} {
		p := s.Players[i]
		if p.Slot != w.slot || p.ClientID != i || p.Name != w.name || p.Joins != 1 || len(p.Drops) != 1 || p.Outcome != model.OutcomeUnknown {
			t.Errorf("player %d: %+v", i, p)
			continue
		}
		near(t, w.name+" drops", p.Drops[0].Tick, w.dropAt)
		if p.Drops[0].Reason != w.reason || p.Drops[0].Time != float64(p.Drops[0].Tick)/50 {
			t.Errorf("%s's drop %+v, want the reason %q", w.name, p.Drops[0], w.reason)
		}
		// connected from the join to the drop, in seconds
		near(t, w.name+" connected", int(p.TimeConnected*50), w.dropAt-w.joinTick)
		if p.BestTime != nil || len(p.Finishes) != 0 || p.Finishes == nil {
			t.Errorf("%s: finishes %v best %v, want [] and null", w.name, p.Finishes, p.BestTime)
		}
	}
	if a := s.Players[0]; a.SelfKills != 1 || a.RconLogins != 1 || a.TeamChanges != 2 || a.ChatLines != 1 {
		t.Errorf("alice %+v", a)
	}
	// alice's rcon say, a command of hers with her client id
	var says []commandJSON
	for _, c := range s.Players[0].Commands {
		if c.Command == "say" {
			says = append(says, c)
		}
	}
	if len(says) != 1 || says[0].Text != `say "rcon hello from alice"` || says[0].Via != "rcon" || says[0].ClientID != 0 {
		t.Errorf("alice's say %+v", says)
	}
	near(t, "rcon say", says[0].Tick, 2100)
	// the vote's tune runs as the server (client id -1)
	if len(s.ServerCommands) == 0 || s.ServerCommands[0].Text != "tune gravity 0.25" || s.ServerCommands[0].ClientID != -1 {
		t.Errorf("server commands %+v", s.ServerCommands)
	}
}

func TestStatsJSONFinishes(t *testing.T) {
	r, _ := analysisOf(t, finishesFile(t))
	s := statsJSON(t, r)
	if len(s.Players) != 1 {
		t.Fatalf("players %+v", s.Players)
	}
	p := s.Players[0]
	// 1000000 ticks is 20000 s, 1000 ticks 20 s
	if p.Slot != "P2" || p.ClientID != 1 || p.Result != "finished" || p.Outcome != model.OutcomeWin ||
		p.BestTime == nil || *p.BestTime != 20000 || len(p.Finishes) != 1 || p.Finishes[0].RaceTime != 20000 {
		t.Errorf("player %+v", p)
	}
	if !reflect.DeepEqual(s.TeamFinishes, []teamFinishJSON{{Team: 63, RaceTime: 20}}) {
		t.Errorf("team finishes %+v", s.TeamFinishes)
	}
}

func summaryStats(ps model.PlayerSummary) map[string]float64 {
	m := map[string]float64{}
	for _, s := range ps.Stats {
		m[s.Key] = s.Value
	}
	return m
}

func TestSummary(t *testing.T) {
	r, a := analysisOf(t, sample(t, "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian"))
	s := r.Summarized(Format.Summarize)
	if len(s.Players) != 3 {
		t.Fatalf("players %+v", s.Players)
	}
	for p, ps := range s.Players {
		if ps.Outcome != model.OutcomeUnknown {
			t.Errorf("player %d outcome %q without a finish", p, ps.Outcome)
		}
		st := summaryStats(ps)
		if st["joins"] != 1 || st["drops"] != 1 || st["finishes"] != 0 {
			t.Errorf("player %d stats %v", p, st)
		}
		if _, ok := st["bestTime"]; ok {
			t.Errorf("player %d has a best time without a finish", p)
		}
		for k := range st {
			if _, ok := Format.Stat(k); !ok {
				t.Errorf("stat %q has no StatDef", k)
			}
		}
	}
	// alice: connected from tick 150 to ≈2925, one self-kill
	st := summaryStats(s.Players[0])
	near(t, "alice connected", int(st["timeConnected"]*50), 2925-150)
	if st["selfKills"] != 1 {
		t.Errorf("alice's self-kills %v", st["selfKills"])
	}
	// the moments an archive keeps: three joins, the self-kill, three drops
	var kinds []model.MomentKind
	for _, m := range s.Moments {
		kinds = append(kinds, m.Kind)
	}
	j, k, d := model.MomentJoin, model.MomentKill, model.MomentDrop
	if !reflect.DeepEqual(kinds, []model.MomentKind{j, j, k, j, d, d, d}) {
		t.Errorf("moment kinds %v", kinds)
	}
	if m := s.Moments[0]; m.Frame != 150 || m.Time != 3 || m.By != 0 {
		t.Errorf("alice's join %+v, want tick 150 (3 s) by P1", m)
	}
	if m := s.Moments[2]; m.By != 0 || m.On != 0 {
		t.Errorf("self-kill %+v", m)
	}
	if len(a.Moments) <= len(s.Moments) {
		t.Errorf("the analysis's %d moments all kept", len(a.Moments))
	}

	r, _ = analysisOf(t, finishesFile(t))
	s = r.Summarized(Format.Summarize)
	if len(s.Players) != 1 || s.Players[0].Outcome != model.OutcomeWin || summaryStats(s.Players[0])["bestTime"] != 20000 {
		t.Errorf("finisher %+v", s.Players)
	}
	var fin []model.MomentRecord
	for _, m := range s.Moments {
		if m.Kind == model.MomentFinish {
			fin = append(fin, m)
		}
	}
	if len(fin) != 2 || fin[0].By != 0 || fin[1].By != -1 {
		t.Errorf("finishes %+v: the player's and the team's", fin)
	}
}
