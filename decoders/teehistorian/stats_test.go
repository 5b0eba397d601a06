package teehistorian

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rewind/decoders/internal/analysistest"
	at "rewind/decoders/internal/analysistest"
	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// analysisOf decodes a file and returns its analysis, checking the rules
// every analysis keeps, and that each teehistorian moment is one record's.
func analysisOf(t *testing.T, data []byte) (*model.Replay, *model.Analysis) {
	t.Helper()
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := r.Analysis()
	at.Check(t, r, a)
	for _, m := range a.Moments {
		if m.End != m.Frame || m.Span.Len <= 0 || m.Span.End() > int64(len(data)) {
			t.Errorf("moment %q at %d-%d, span %v", m.Summary, m.Frame, m.End, m.Span)
		}
	}
	return r, a
}

// secondsOf is a table cell's duration, which the cell holds in seconds.
func secondsOf(f model.Field) time.Duration {
	return time.Duration(f.Value.(float64) * float64(time.Second))
}

// nearDur checks a time the README gives from ≈ ticks (±50 ticks at each
// end, so ±2 s for a span between two of them).
func nearDur(t *testing.T, what string, got time.Duration, wantTicks int) {
	t.Helper()
	want := time.Duration(wantTicks) * 20 * time.Millisecond
	if got < want-2*time.Second || got > want+2*time.Second {
		t.Errorf("%s %v, README says ≈%v", what, got, want)
	}
}

// Scenario c of generated/README.md: three clients, a self-kill, a
// spectator round trip, /team 5 and /team 0, rcon say and tune, a vote that
// runs tune as the server, a kick and two plain drops.
func TestAnalysisTwoPlayers(t *testing.T) {
	r, a := analysisOf(t, sample(t, "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian"))
	if len(r.Players) != 3 || r.Players[0].Name != "alice" || r.Players[1].Name != "bob" || r.Players[2].Name != "alice_dummy" {
		t.Fatalf("players %+v", r.Players)
	}
	joins := at.Moments(a, model.MomentJoin)
	if len(joins) != 3 || joins[0].Frame != 150 || joins[0].By != 0 || joins[1].By != 1 || joins[2].By != 2 {
		t.Fatalf("joins %+v", joins)
	}
	near(t, "bob joins", joins[1].Frame, 600)
	near(t, "alice_dummy joins", joins[2].Frame, 2450)
	if joins[0].Summary != "alice joins the server" {
		t.Errorf("join summary %q", joins[0].Summary)
	}

	drops := at.Moments(a, model.MomentDrop)
	if len(drops) != 3 || drops[0].By != 2 || drops[1].By != 1 || drops[2].By != 0 {
		t.Fatalf("drops %+v", drops)
	}
	near(t, "kick", drops[0].Frame, 2760)
	near(t, "bob quits", drops[1].Frame, 2865)
	near(t, "alice disconnects", drops[2].Frame, 2925)
	if !strings.Contains(drops[0].Summary, "is kicked") || !strings.Contains(drops[0].Summary, "kicked by corpus script") {
		t.Errorf("kick summary %q", drops[0].Summary)
	}

	kills := at.Moments(a, model.MomentKill)
	if len(kills) != 1 || kills[0].By != 0 || kills[0].On != 0 {
		t.Fatalf("kills %+v", kills)
	}
	near(t, "Cl_Kill", kills[0].Frame, 1237)

	teams := at.Moments(a, model.MomentTeam)
	if len(teams) != 4 {
		t.Fatalf("team moments %+v", teams)
	}
	for i, w := range []struct {
		player, tick int
		says         string
	}{{1, 1337, "spectators"}, {1, 1550, "game"}, {0, 1650, "team 5"}, {0, 1900, "leaves team 5"}} {
		near(t, "team change", teams[i].Frame, w.tick)
		if teams[i].By != w.player || !strings.Contains(teams[i].Summary, w.says) {
			t.Errorf("team moment %d: %+v, want player %d %q", i, teams[i], w.player, w.says)
		}
	}

	// chat text is not recorded; the one chat line is alice's rcon say
	chat := at.Moments(a, model.MomentChat)
	if len(chat) != 1 || chat[0].By != 0 || !strings.Contains(chat[0].Summary, `"rcon hello from alice"`) {
		t.Fatalf("chat %+v", chat)
	}
	near(t, "rcon say", chat[0].Frame, 2100)
	// votes are not recorded: the vote shows only as the server running tune
	if v := at.Moments(a, model.MomentVote); len(v) != 0 {
		t.Errorf("vote moments %+v in a file that cannot hold votes", v)
	}
	server := at.Table(t, a, "serverCommands", -1)
	if len(server.Rows) == 0 || server.Rows[0].Cells[0].Value != "tune gravity 0.25" {
		t.Errorf("server commands %+v", server.Rows)
	} else {
		near(t, "vote's tune", server.Rows[0].Frame, 2205)
	}
	end := at.Moments(a, model.MomentEnd)
	if len(end) != 1 || end[0].Summary != "the server shuts down; the recording ends" {
		t.Fatalf("end %+v", end)
	}
	near(t, "shutdown", end[0].Frame, 3035)

	players := at.Table(t, a, "players", -1)
	if len(players.Columns) != 3 || players.Columns[0] != "alice (P1, client 0)" || players.Columns[2] != "alice_dummy (P3, client 2)" {
		t.Fatalf("columns %q", players.Columns)
	}
	conn := func(p int) time.Duration { return secondsOf(at.Cell(t, players, "connected", p)) }
	nearDur(t, "alice connected", conn(0), 2925-150)
	nearDur(t, "bob connected", conn(1), 2865-600)
	nearDur(t, "alice_dummy connected", conn(2), 2760-2450)
	for p, want := range []int64{2, 2, 0} {
		if got := at.Cell(t, players, "teamChanges", p).Value; got != want {
			t.Errorf("player %d team changes %v, want %d", p, got, want)
		}
	}
	if at.Cell(t, players, "selfKills", 0).Value != int64(1) || at.Cell(t, players, "rconLogins", 0).Value != int64(1) {
		t.Errorf("alice self-kills/logins")
	}
	if at.Cell(t, players, "dropReason", 2).Value != "Kicked (kicked by corpus script)" || at.Cell(t, players, "dropReason", 1).Value != "none given" {
		t.Errorf("drop reasons %v %v", at.Cell(t, players, "dropReason", 2).Value, at.Cell(t, players, "dropReason", 1).Value)
	}

	// alice's commands: the README's /team 5, /team 0 (chat), then rcon
	// say, tune and logout; DDNet clients also send /timeout on joining
	var got []string
	for _, row := range at.Table(t, a, "commands", 0).Rows {
		got = append(got, row.Cells[0].Value.(string)+" via "+row.Cells[1].Value.(string))
	}
	want := []string{"team 5 via chat", "team 0 via chat", `say "rcon hello from alice" via rcon`, "tune gravity 0.4 via rcon", "logout via rcon"}
	if len(got) != len(want)+1 || !strings.HasPrefix(got[0], "timeout ") || strings.Join(got[1:], "|") != strings.Join(want, "|") {
		t.Errorf("alice's commands %q, want timeout then %q", got, want)
	}
	if used := at.Cell(t, players, "commandsUsed", 0).Value; used != "timeout, team, say, tune, logout" {
		t.Errorf("commands used %q", used)
	}
	for p := 1; p <= 2; p++ {
		if at.Cell(t, players, "commands", p).Value != int64(1) { // their /timeout only
			t.Errorf("player %d commands %v", p, at.Cell(t, players, "commands", p).Value)
		}
	}
}

// Scenario e, file 2: alice is carried over the map change (no JOIN), sends
// Cl_Kill ≈730 and drops ≈880; the server shuts down ≈990.
func TestAnalysisCarriedOver(t *testing.T) {
	r, a := analysisOf(t, sample(t, "player_rcon_change_map_part2_dm1.teehistorian"))
	if len(r.Players) != 1 || len(at.Moments(a, model.MomentJoin)) != 0 {
		t.Fatalf("players %+v joins %+v", r.Players, at.Moments(a, model.MomentJoin))
	}
	players := at.Table(t, a, "players", -1)
	if at.Cell(t, players, "connectedAtStart", 0).Value != "yes" {
		t.Errorf("alice was connected before the recording")
	}
	nearDur(t, "alice connected", secondsOf(at.Cell(t, players, "connected", 0)), 880)
	kills, drops := at.Moments(a, model.MomentKill), at.Moments(a, model.MomentDrop)
	if len(kills) != 1 || len(drops) != 1 {
		t.Fatalf("kills %+v drops %+v", kills, drops)
	}
	near(t, "Cl_Kill", kills[0].Frame, 730)
	near(t, "drop", drops[0].Frame, 880)
	if end := at.Moments(a, model.MomentEnd); len(end) != 1 || !strings.HasPrefix(end[0].Summary, "the server shuts down") {
		t.Errorf("end %+v", end)
	}
}

// The server-console files: `say` lines are the recorded chat, and the
// last command says why the recording ends.
func TestAnalysisServerConsole(t *testing.T) {
	for _, tt := range []struct {
		file string
		chat []string // README: the say commands, in order
		tick int      // README: the first say's exact tick
		end  string
	}{
		{"idle_clean_shutdown.teehistorian", nil, 0, "the server shuts down"},
		{"console_commands_then_reload.teehistorian", []string{"hello", "second message"}, 150, "the map reloads"},
		{"console_after_reload_then_change_map.teehistorian", []string{"after reload"}, 105, "the map changes to dm1"},
		{"console_dm1_after_change_map_shutdown.teehistorian", []string{"on dm1"}, 100, "the server shuts down"},
		{"player_rcon_change_map_part1_tutorial.teehistorian", nil, 0, "the map changes to dm1"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data := sample(t, tt.file)
			_, a := analysisOf(t, data)
			chat := at.Moments(a, model.MomentChat)
			if len(chat) != len(tt.chat) {
				t.Fatalf("chat %+v, want %q", chat, tt.chat)
			}
			for i, c := range chat {
				if c.By != -1 || c.Summary != `the server says "`+tt.chat[i]+`"` {
					t.Errorf("chat %d: %+v", i, c)
				}
				// the words are one field over the argument's bytes
				m, ok := model.Find(c.Fields, "message")
				if !ok || m.Value != tt.chat[i] || string(data[m.Span.Off:m.Span.End()]) != tt.chat[i]+"\x00" || len(c.Fields) != 3 {
					t.Errorf("chat %d fields %+v", i, c.Fields)
				}
			}
			if len(chat) > 0 && chat[0].Frame != tt.tick {
				t.Errorf("first say at %d, README says %d", chat[0].Frame, tt.tick)
			}
			end := at.Moments(a, model.MomentEnd)
			if len(end) != 1 || end[0].Summary != tt.end+"; the recording ends" {
				t.Errorf("end %+v", end)
			}
		})
	}
}

// DDNet's writer test vectors PlayerFinish (RecordPlayerFinish(1, 1000000))
// and TeamFinish (RecordTeamFinish(63, 1000)): times are in ticks.
func TestAnalysisFinishes(t *testing.T) {
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
	_, a := analysisOf(t, file(testHeader, append(body, 0x40)))
	fin := at.Moments(a, model.MomentFinish)
	if len(fin) != 2 {
		t.Fatalf("finishes %+v", fin)
	}
	// 1000000 ticks at 50 per second is 20000 s; 1000 ticks 20 s
	if fin[0].Summary != "client 1 finishes in 5:33:20.00" || fin[0].By != 0 {
		t.Errorf("player finish %+v", fin[0])
	}
	if fin[1].Summary != "team 63 finishes in 0:20.00" || fin[1].By != -1 {
		t.Errorf("team finish %+v", fin[1])
	}
	players := at.Table(t, a, "players", -1)
	if at.Cell(t, players, "finishes", 0).Value != int64(1) || at.Cell(t, players, "bestTime", 0).Value != 20000.0 {
		t.Errorf("finishes %v best %v", at.Cell(t, players, "finishes", 0).Value, at.Cell(t, players, "bestTime", 0).Value)
	}
	teams := at.Table(t, a, "teamFinishes", -1)
	if len(teams.Rows) != 1 || teams.Rows[0].Cells[1].Value != 20.0 || teams.Rows[0].Cells[1].Text() != "0:20.00" {
		t.Errorf("team finishes %+v", teams.Rows)
	}
}

// Chat and votes, for a server that records them (DDNet does not): the
// messages as the Teeworlds 0.6 protocol packs them.
func TestAnalysisChatAndVotes(t *testing.T) {
	say := msg(nmClSay<<1, 1, "gg")
	call := msg(nmClCallVote<<1, "option", "Moon gravity", "why not")
	vote := msg(nmClVote<<1, -1)
	body := msg(idJoin, 4, idMessage, 4, len(say))
	body = append(body, say...)
	body = append(body, msg(idMessage, 4, len(call))...)
	body = append(body, call...)
	body = append(body, msg(idMessage, 4, len(vote))...)
	body = append(body, vote...)
	_, a := analysisOf(t, file(testHeader, append(body, 0x40)))
	chat, votes := at.Moments(a, model.MomentChat), at.Moments(a, model.MomentVote)
	if len(chat) != 1 || chat[0].Summary != `client 4 (to the team): "gg"` {
		t.Errorf("chat %+v", chat)
	}
	if len(votes) != 2 || votes[0].Summary != `client 4 calls a vote: option "Moon gravity" (reason "why not")` || votes[1].Summary != "client 4 votes no" {
		t.Errorf("votes %+v", votes)
	}
}

// The corpus's server (DDNet 16.4) predates the player-finish extension:
// its header's extension list does not name it, so no recording can hold a
// race finish.
func TestAnalysisCorpusHasNoFinishes(t *testing.T) {
	dir := corpus.Dir(t, "teehistorian")
	paths, _ := filepath.Glob(filepath.Join(dir, "generated", "*.teehistorian"))
	if len(paths) == 0 {
		t.Skip("no generated recordings")
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, a := analysisOf(t, data)
		if f, _ := model.Find(r.Header, "serverVersion"); f.Value != "0.6.4, 16.4" {
			t.Errorf("%s: server %v", filepath.Base(p), f.Value)
		}
		uuids, _ := model.Find(r.Header, "uuids")
		if len(uuids.Fields) != 47 {
			t.Errorf("%s: %d extension names, README says 47", filepath.Base(p), len(uuids.Fields))
		}
		for _, u := range uuids.Fields {
			if u.Name == extPlayerFinish || u.Name == extTeamFinish {
				t.Errorf("%s names %s", filepath.Base(p), u.Name)
			}
		}
		if n := len(at.Moments(a, model.MomentFinish)); n != 0 {
			t.Errorf("%s: %d finishes", filepath.Base(p), n)
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	data := sample(b, "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian")
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	at.Benchmark(b, r)
}

// Cut recordings still analyse: no panic, moments in order and on the
// timeline, sessions that never closed counted to the end.
func TestAnalysisDamaged(t *testing.T) {
	for _, data := range allSamples(t) {
		for c := 17; c < len(data); c += 13 {
			analysisOf(t, data[:c])
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, data := range allSamples(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			return
		}
		at.Check(t, r, r.Analysis())
		analysistest.Summary(t, r, &Format)
	})
}
