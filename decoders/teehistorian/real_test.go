package teehistorian

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func sample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Samples(t, "teehistorian"), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cmd is a console command as generated/README.md lists it.
type cmd struct {
	cid  int64
	text string // command and arguments as commandText writes them
}

func commands(r *model.Replay) []cmd {
	var out []cmd
	for _, e := range events(r, "cmd") {
		var args []string
		for _, f := range e.Fields {
			if f.Key == "arg" {
				args = append(args, f.Value.(string))
			}
		}
		c, _ := model.Find(e.Fields, "cmd")
		id, _ := model.Find(e.Fields, "cid")
		out = append(out, cmd{id.Value.(int64), commandText(c.Value.(string), args)})
	}
	return out
}

func wantCommands(t *testing.T, r *model.Replay, want []cmd) {
	t.Helper()
	got := commands(r)
	if len(got) != len(want) {
		t.Fatalf("commands %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("command %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// near checks a tick that README.md gives as ≈ (±50 ticks).
func near(t *testing.T, what string, got, want int) {
	t.Helper()
	if got < want-50 || got > want+50 {
		t.Errorf("%s at tick %d, README says ≈%d", what, got, want)
	}
}

func firstEvent(t *testing.T, r *model.Replay, kind, contains string) tev {
	t.Helper()
	for _, e := range expand(r) {
		if e.Kind == kind && strings.Contains(e.Summary, contains) {
			return e
		}
	}
	t.Fatalf("no %s event with %q", kind, contains)
	return tev{}
}

func cmdEvent(t *testing.T, r *model.Replay, name string) tev {
	t.Helper()
	for _, e := range events(r, "cmd") {
		if c, _ := model.Find(e.Fields, "cmd"); c.Value == name {
			return e
		}
	}
	t.Fatalf("no command %s", name)
	return tev{}
}

// Every recording in generated/ decodes to what its README.md says.
func TestGeneratedRecordings(t *testing.T) {
	type check func(t *testing.T, r *model.Replay)
	tutorial := func(t *testing.T, r *model.Replay) {
		for k, v := range map[string]any{"mapName": "Tutorial", "mapSize": int64(1082711), "mapCrc": uint64(0x8d4c6486)} {
			if f, _ := model.Find(r.Header, k); f.Value != v {
				t.Errorf("%s = %#v, want %#v", k, f.Value, v)
			}
		}
		if f, _ := model.Find(r.Header, "mapSha256"); !strings.HasPrefix(f.Value.(string), "0dafbba3") || !strings.HasSuffix(f.Value.(string), "d953") {
			t.Errorf("sha256 %v", f.Value)
		}
	}
	dm1 := func(t *testing.T, r *model.Replay) {
		if f, _ := model.Find(r.Header, "mapSha256"); r.Title != "dm1" || !strings.HasPrefix(f.Value.(string), "0b0c481d") || !strings.HasSuffix(f.Value.(string), "26cf") {
			t.Errorf("map %q sha256 %v", r.Title, f.Value)
		}
		if f, ok := model.Find(r.Header, "svSixup"); !ok || f.Value != "0" {
			t.Errorf("config sv_sixup %v", f.Value)
		}
	}
	files := map[string]check{
		"idle_clean_shutdown.teehistorian": func(t *testing.T, r *model.Replay) {
			tutorial(t, r)
			if f, _ := model.Find(r.Header, "startTime"); f.Name != "2026-11-22T02:05:32+0000" {
				t.Errorf("start time %q", f.Name)
			}
			if len(r.Players) != 0 {
				t.Errorf("%d players, want none", len(r.Players))
			}
			wantCommands(t, r, []cmd{{-1, "shutdown"}})
			e := events(r, "cmd")[0]
			// TICK_SKIP dt=549 -> tick 550; flags 4
			if e.Frame != 550 || val(t, e, "flags") != int64(4) {
				t.Errorf("shutdown at tick %d flags %v", e.Frame, val(t, e, "flags"))
			}
		},
		"console_commands_then_reload.teehistorian": func(t *testing.T, r *model.Replay) {
			tutorial(t, r)
			wantCommands(t, r, []cmd{{-1, `say hello`}, {-1, `tune gravity 0.3`},
				{-1, `broadcast "teehistorian test broadcast"`},
				{-1, `add_vote "Option: Super gravity" "tune gravity 1.0"`}, {-1, `remove_vote "Option: Moon gravity"`},
				{-1, `sv_name "renamed corpus server"`}, {-1, `echo echo-from-console`}, {-1, `tune_reset gravity`},
				{-1, `say "second message"`}, {-1, `tune ground_friction 0.6`}, {-1, `reload`}})
			if e := events(r, "cmd"); e[0].Frame != 150 {
				t.Errorf("say hello at tick %d, want 150", e[0].Frame)
			}
			near(t, "reload", cmdEvent(t, r, "reload").Frame, 450)
		},
		"console_after_reload_then_change_map.teehistorian": func(t *testing.T, r *model.Replay) {
			tutorial(t, r)
			if f, _ := model.Find(r.Header, "svName"); f.Value != "renamed corpus server" {
				t.Errorf("config sv_name %v", f.Value)
			}
			wantCommands(t, r, []cmd{{-1, `say "after reload"`}, {-1, `tune gravity 0.1`}, {-1, `change_map dm1`}})
			if e := events(r, "cmd"); e[0].Frame != 105 {
				t.Errorf("say at tick %d, want 105", e[0].Frame)
			}
			near(t, "change_map", cmdEvent(t, r, "change_map").Frame, 180)
		},
		"console_dm1_after_change_map_shutdown.teehistorian": func(t *testing.T, r *model.Replay) {
			dm1(t, r)
			wantCommands(t, r, []cmd{{-1, `say "on dm1"`}, {-1, `shutdown`}})
			if e := events(r, "cmd"); e[0].Frame != 100 {
				t.Errorf("say at tick %d, want 100", e[0].Frame)
			}
			near(t, "shutdown", cmdEvent(t, r, "shutdown").Frame, 150)
		},
		"two_players_chat_kill_spec_rcon_vote_dummy.teehistorian": func(t *testing.T, r *model.Replay) {
			dm1(t, r)
			names := map[int]string{0: "alice", 1: "bob", 2: "alice_dummy"}
			if len(r.Players) != 3 {
				t.Fatalf("%d players", len(r.Players))
			}
			for cid, n := range names {
				if p := r.Players[player(t, r, cid)]; p.Name != n {
					t.Errorf("client %d is %q, want %q", cid, p.Name, n)
				}
			}
			if c, _ := model.Find(r.Players[0].Fields, "clan"); c.Value != "thcorpus" {
				t.Errorf("alice's clan %v", c.Value)
			}
			j := events(r, "join")
			if len(j) != 6 || j[0].Frame != 150 || cidOf(r, j[0]) != 0 {
				t.Errorf("joins %d, first at %d", len(j), j[0].Frame)
			}
			near(t, "bob's join", firstEvent(t, r, "join", "client 1").Frame, 600)
			near(t, "bob's emoticon", firstEvent(t, r, "msg", "Cl_Emoticon hearts").Frame, 1180)
			if e := firstEvent(t, r, "msg", "Cl_Emoticon"); val(t, e, "emoticon") != int64(2) || cidOf(r, e) != 1 {
				t.Error("bob sends emoticon 2")
			}
			kill := firstEvent(t, r, "msg", "Cl_Kill")
			near(t, "alice's kill", kill.Frame, 1237)
			if cidOf(r, kill) != 0 {
				t.Error("alice kills herself")
			}
			spec := firstEvent(t, r, "msg", "Cl_SetTeam spectators")
			near(t, "bob to spectators", spec.Frame, 1337)
			near(t, "bob back", firstEvent(t, r, "msg", "Cl_SetTeam game").Frame, 1550)
			if val(t, spec, "team") != int64(-1) || cidOf(r, spec) != 1 {
				t.Error("bob's Cl_SetTeam -1")
			}
			for _, e := range events(r, "msg") {
				if strings.Contains(e.Summary, "Cl_Say") {
					t.Errorf("chat is not recorded by DDNet, found %s", e.Summary)
				}
			}
			wantCommands(t, r, []cmd{{0, "timeout KLjA5YVkRmfhnmg7"}, {1, "timeout GS3LmkVnW6UX55Ya"},
				{0, "team 5"}, {0, "team 0"}, {0, `say "rcon hello from alice"`}, {0, "tune gravity 0.4"},
				{-1, "tune gravity 0.25"}, {0, "logout"}, {2, "timeout RF55L7BD5XjfbpLc"},
				{-1, `kick 2 "kicked by corpus script"`}, {-1, "shutdown"}})
			near(t, "/team 5", cmdEvent(t, r, "team").Frame, 1650)
			teams := events(r, "team")
			if len(teams) != 2 || val(t, teams[0], "team") != int64(5) || val(t, teams[1], "team") != int64(0) {
				t.Errorf("player-team events %v", teams)
			}
			wantEvents(t, r, "auth", []evWant{
				{events(r, "auth")[0].Frame, 0, map[string]any{"level": int64(3), "authName": "default_admin"}},
				{events(r, "auth")[1].Frame, 0, nil}})
			near(t, "rcon login", events(r, "auth")[0].Frame, 2055)
			near(t, "rcon logout", events(r, "auth")[1].Frame, 2395)
			near(t, "dummy join", firstEvent(t, r, "join", "client 2").Frame, 2450)
			drops := events(r, "drop")
			wantReasons := []struct {
				cid    int64
				reason string
				tick   int
			}{{2, "Kicked (kicked by corpus script)", 2760}, {1, "", 2865}, {0, "", 2925}}
			if len(drops) != 3 {
				t.Fatalf("%d drops", len(drops))
			}
			for i, w := range wantReasons {
				if cidOf(r, drops[i]) != w.cid || val(t, drops[i], "reason") != w.reason {
					t.Errorf("drop %d: %s", i, drops[i].Summary)
				}
				near(t, drops[i].Summary, drops[i].Frame, w.tick)
			}
			for _, kind := range []string{"version", "ready"} {
				if n := len(events(r, kind)); n != 3 {
					t.Errorf("%d %s events, want 3", n, kind)
				}
			}
			for _, e := range events(r, "version") {
				if val(t, e, "version") != int64(16040) {
					t.Errorf("client version %v", val(t, e, "version"))
				}
			}
			near(t, "shutdown", cmdEvent(t, r, "shutdown").Frame, 3035)
			// alice was present and moving; after her drop she is gone
			a := player(t, r, 0)
			if !r.PlayerState(1000, a).Present || r.PlayerState(r.Timeline.Count-1, a).Present {
				t.Error("alice's presence")
			}
			if v, _ := stateVal(r, 2200, a, "authLevel"); v != int64(3) {
				t.Errorf("alice's auth level during the rcon session: %v", v)
			}
			if v, _ := stateVal(r, 1700, a, "team"); v != int64(5) {
				t.Errorf("alice's team after /team 5: %v", v)
			}
		},
		"player_rcon_change_map_part1_tutorial.teehistorian": func(t *testing.T, r *model.Replay) {
			tutorial(t, r)
			if len(r.Players) != 1 || r.Players[0].Name != "alice" {
				t.Fatalf("players %+v", r.Players)
			}
			j := events(r, "join")
			if len(j) != 2 || j[0].Frame != 146 || j[1].Frame != 146 {
				t.Errorf("joins %v", j)
			}
			wantEvents(t, r, "auth", []evWant{{events(r, "auth")[0].Frame, 0, map[string]any{"level": int64(3)}}})
			cm := cmdEvent(t, r, "change_map")
			near(t, "change_map", cm.Frame, 540)
			if cidOf(r, cm) != 0 || val(t, cm, "arg") != "dm1" {
				t.Errorf("change_map %s", cm.Summary)
			}
			// she moves right and jumps: her x grows
			x0, _ := stateVal(r, events(r, "spawn")[0].Frame, 0, "x")
			x1, _ := stateVal(r, cm.Frame, 0, "x")
			if x0 == nil || x1 == nil || x1.(int64) <= x0.(int64) {
				t.Errorf("alice's x %v -> %v, she moved right", x0, x1)
			}
		},
		"player_rcon_change_map_part2_dm1.teehistorian": func(t *testing.T, r *model.Replay) {
			dm1(t, r)
			wantEvents(t, r, "auth", []evWant{
				{0, 0, map[string]any{"level": int64(3), "authName": "default_admin"}},
				{events(r, "auth")[1].Frame, 0, nil}})
			if len(events(r, "join")) != 0 {
				t.Error("alice was already connected: no JOIN")
			}
			si := firstEvent(t, r, "msg", "Cl_StartInfo")
			if si.Frame != 26 || val(t, si, "name") != "alice" {
				t.Errorf("StartInfo at %d", si.Frame)
			}
			near(t, "kill", firstEvent(t, r, "msg", "Cl_Kill").Frame, 730)
			near(t, "logout", events(r, "auth")[1].Frame, 830)
			drops := events(r, "drop")
			if len(drops) != 1 || cidOf(r, drops[0]) != 0 {
				t.Fatalf("drops %v", drops)
			}
			near(t, "drop", drops[0].Frame, 880)
			near(t, "shutdown", cmdEvent(t, r, "shutdown").Frame, 990)
			// she hooks and fires at some point
			hooked, fired := false, false
			for f := 0; f < r.Timeline.Count; f++ {
				st := r.PlayerState(f, 0)
				if in, ok := model.Find(st.Fields, "input"); ok {
					hooked = hooked || in.Fields[5].Value != int64(0)
					fired = fired || in.Fields[4].Value != int64(0)
				}
			}
			if !hooked || !fired {
				t.Errorf("hook %v fire %v", hooked, fired)
			}
			if !r.PlayerState(0, 0).Present {
				t.Error("alice is present from tick 0 (auth-init)")
			}
		},
	}
	for name, check := range files {
		t.Run(strings.TrimSuffix(name, ".teehistorian"), func(t *testing.T) {
			r := decodeOK(t, sample(t, name))
			if r.Result != resultComplete || r.Partial || len(r.Diagnostics) != 0 {
				t.Errorf("result %q partial %v diagnostics %v", r.Result, r.Partial, r.Diagnostics)
			}
			if r.Version != "2.4" || r.Mode != "TestDDraceNetwork" {
				t.Errorf("version %q mode %q", r.Version, r.Mode)
			}
			if u, _ := model.Find(r.Header, "uuids"); len(u.Fields) != 47 {
				t.Errorf("%d uuids, want 47", len(u.Fields))
			}
			if last := expand(r)[len(r.Events)-1]; last.Kind != "end" || last.Frame != r.Timeline.Count-1 {
				t.Errorf("last event %s at %d of %d", last.Kind, last.Frame, r.Timeline.Count)
			}
			check(t, r)
		})
	}
}

// The shared corpus: every generated file decodes clean; the KoG dummy is
// refused with a sentence saying what it is.
func TestCorpus(t *testing.T) {
	dir := corpus.Dir(t, "teehistorian")
	paths, _ := filepath.Glob(filepath.Join(dir, "generated", "*.teehistorian"))
	if len(paths) != 7 {
		t.Errorf("%d generated recordings, want 7", len(paths))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decode(data, model.DecodeOptions{})
		if err != nil || r.Result != resultComplete || r.Problems() != 0 {
			t.Errorf("%s: %v %v", filepath.Base(p), err, r)
		}
	}
	data, err := os.ReadFile(corpus.File(t, "teehistorian", "KoG-teeworlds__teehistorian-py/tests__dummy.teehistorian"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(data, model.DecodeOptions{})
	var fe *model.FormatError
	if r != nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), "13 bytes of text") ||
		!strings.Contains(err.Error(), `"invalid data"`) {
		t.Errorf("dummy: %v", err)
	}
}
