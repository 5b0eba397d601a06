package sc2

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/decoders/sc2/mpq"
	"rewind/model"
)

func decodeFile(t testing.TB, path string) *model.Replay {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	return r
}

func playerByName(r *model.Replay, name string) *model.Player {
	for i := range r.Players {
		if r.Players[i].Name == name {
			return &r.Players[i]
		}
	}
	return nil
}

func chats(r *model.Replay) []string {
	var out []string
	for i := range r.Events {
		if r.EventKind(i) == "chat" {
			f, _ := model.Find(r.EventFields(i), "string")
			out = append(out, f.Value.(string))
		}
	}
	return out
}

func has(r *model.Replay, kind string) bool {
	for i := range r.Events {
		if r.EventKind(i) == kind {
			return true
		}
	}
	return false
}

// TestCrossCheck asserts EXPECTED.md's table of version, loops, map and
// the number of details players.
func TestCrossCheck(t *testing.T) {
	cases := []struct {
		file    string
		version string
		base    int
		loops   int
		title   string
		players int
	}{
		{"ggtracker__sc2reader/test_replays__1.2.2.17811__2.SC2Replay", "1.2.2.17811", 17326, 8796, "Lost Temple", 2},
		{"ggtracker__sc2reader/test_replays__1.2.2.17811__8.SC2Replay", "1.2.2.17811", 17326, 38677, "Abyss", 4},
		{"ggtracker__sc2reader/test_replays__1.2.2.17811__10.SC2Replay", "1.2.2.17811", 17326, 22875, "Extinction", 8},
		{"ggtracker__sc2reader/test_replays__1.2.2.17811__5.SC2Replay", "1.2.2.17811", 17326, 24650, "The Ruins of Tarsonis", 4},
		{"ggtracker__sc2reader/test_replays__1.1.3.16939__11.SC2Replay", "1.1.3.16939", 16939, 5806, "밀림 분지", 2},
		{"ggtracker__sc2reader/test_replays__1.2.2.17811__13.SC2Replay", "1.2.2.17811", 17326, 19915, "Metalopolis", 2},
		{"ggtracker__sc2reader/test_replays__1.2.2.17811__4.SC2Replay", "1.2.2.17811", 17326, 17949, "Xel'Naga Caverns", 2},
		{"ggtracker__sc2reader/test_replays__2.0.3.24764__Antiga Shipyard (3).SC2Replay", "2.0.3.24764", 24764, 24745, "Antiga Shipyard", 2},
		{"ggtracker__sc2reader/test_replays__2.0.0.24247__Korhal City (19).SC2Replay", "2.0.3.24764", 24764, 18315, "Korhal City", 2},
		{"ggtracker__sc2reader/test_replays__2.0.3.24764__ggtracker_1571740.SC2Replay", "2.0.3.24764", 24764, 27297, "Akilon Wastes", 2},
		{"ggtracker__sc2reader/test_replays__2.0.3.24764__resume_from_replay.SC2Replay", "2.0.3.24764", 24764, 28221, "Antiga Shipyard", 2},
		{"ggtracker__sc2reader/test_replays__gameheart__gameheart.SC2Replay", "2.0.8.25604", 24944, 10725, "DHGH - Whirlwind", 7},
		{"ggtracker__sc2reader/test_replays__2.0.8.25605__ggtracker_3621402.SC2Replay", "2.0.9.26147", 24944, 14849, "Whirlwind LE", 2},
		{"ggtracker__sc2reader/test_replays__2.0.11.26825__bad_unit_ids_1.SC2Replay", "2.0.11.26825", 26490, 8921, "Akilon Flats", 2},
		{"ggtracker__sc2reader/test_replays__lotv__lotv2.SC2Replay", "2.5.5.37164", 37164, 38181, "Orbital Shipyard", 2},
		{"ggtracker__sc2reader/test_replays__3.0.0.38996__1.SC2Replay", "3.0.4.38996", 38996, 8805, "Prion Terraces", 2},
		{"ggtracker__sc2reader/test_replays__3.1.0__dusktowers.SC2Replay", "3.1.0.39576", 39576, 15868, "Dusk Towers", 2},
		{"ipax77__s2protocol.NET/s2protocol.NET.tests__replays__test8.SC2Replay", "5.0.12.91115", 91115, 19791, "Direct Strike", 6},
		{"ipax77__s2protocol.NET/s2protocol.NET.tests__replays__testError2.SC2Replay", "5.0.10.88500", 88500, 378, "", 0},
		{"paulocanedo__sc2-replay-utils/examples__winter_madness_69.SC2Replay", "5.0.15.96883", 96883, 15467, "Winter Madness LE", 2},
		{"paulocanedo__sc2-replay-utils/examples__replay_observed.SC2Replay", "5.0.15.95841", 95841, 11687, "10000 Feet LE", 2},
		{"Blizzard__s2protocol/tests__s2replaystatsdata__2018-11-29_Z_iaguz_VS_P_Luneth.SC2Replay", "4.7.1.70326", 70154, 13218, "Lost and Found LE", 2},
	}
	corpus.Dir(t, "sc2") // skip here, not in every subtest, when the corpus is absent
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			r := decodeFile(t, corpus.File(t, "sc2", c.file))
			base, _ := model.Find(r.Header, "baseBuild")
			loops, _ := model.Find(r.Header, "elapsedGameLoops")
			if r.Version != c.version || base.Value != int64(c.base) || loops.Value != int64(c.loops) {
				t.Errorf("version %s base %v loops %v, want %s %d %d", r.Version, base.Value, loops.Value, c.version, c.base, c.loops)
			}
			// details players: the players, and the ones a GameHeart
			// lobby lists that only watch (gameheart.go)
			obs, _ := model.Find(r.Header, "gameHeartObservers")
			if r.Title != c.title || len(r.Players)+len(obs.Fields) != c.players {
				t.Errorf("title %q players %d+%d observers, want %q %d", r.Title, len(r.Players), len(obs.Fields), c.title, c.players)
			}
			if r.Timeline.Count != c.loops+1 {
				t.Errorf("timeline %d frames, want %d", r.Timeline.Count, c.loops+1)
			}
		})
	}
}

// TestUpstreamAssertions checks the assertions of the source projects'
// tests listed in EXPECTED.md.
func TestUpstreamAssertions(t *testing.T) {
	corpus.Dir(t, "sc2") // skip here, not from inside a subtest, when the corpus is absent
	f := func(rel string) *model.Replay { return decodeFile(t, corpus.File(t, "sc2", rel)) }

	t.Run("private_and_datetime", func(t *testing.T) {
		r := f("ggtracker__sc2reader/test_replays__1.2.2.17811__2.SC2Replay")
		if !strings.Contains(r.Mode, "private") {
			t.Errorf("mode %q, want private", r.Mode)
		}
		want := time.Date(2011, 2, 20, 22, 42, 12, 0, time.UTC)
		if d := r.Start.Sub(want); d < -time.Second || d > time.Second {
			t.Errorf("start %v, want %v", r.Start, want)
		}
	})
	t.Run("ffa_winner", func(t *testing.T) {
		r := f("ggtracker__sc2reader/test_replays__1.2.2.17811__8.SC2Replay")
		if !strings.HasPrefix(r.Mode, "FFA") {
			t.Errorf("mode %q, want FFA", r.Mode)
		}
		if r.Result != "Win: Boom" {
			t.Errorf("result %q, want Boom to win", r.Result)
		}
	})
	t.Run("unknown_winner", func(t *testing.T) {
		r := f("ggtracker__sc2reader/test_replays__1.2.2.17811__10.SC2Replay")
		if strings.HasPrefix(r.Result, "Win") {
			t.Errorf("result %q, want no winner", r.Result)
		}
	})
	t.Run("us_realm", func(t *testing.T) {
		r := f("ggtracker__sc2reader/test_replays__1.2.2.17811__5.SC2Replay")
		for name, code := range map[string]string{"ShadesofGray": "1-S2-1-2358439", "reddawn": "1-S2-1-2198663"} {
			if p := playerByName(r, name); p == nil || p.Code != code {
				t.Errorf("%s: %+v, want toon %s", name, p, code)
			}
		}
	})
	t.Run("kr_realm_and_tampered_messages", func(t *testing.T) {
		r := f("ggtracker__sc2reader/test_replays__1.1.3.16939__11.SC2Replay")
		for name, code := range map[string]string{"명지대학교": "3-S2-1-258945", "티에스엘사기수": "3-S2-1-102472"} {
			if p := playerByName(r, name); p == nil || p.Code != code {
				t.Errorf("%s: %+v, want toon %s", name, p, code)
			}
		}
		m := chats(r)
		if len(m) < 6 || m[0] != "sc2.replays.net" || m[5] != "sc2.replays.net" {
			t.Errorf("messages %q, want [0] and [5] sc2.replays.net", m)
		}
	})
	t.Run("teams", func(t *testing.T) {
		r := f("ggtracker__sc2reader/test_replays__1.2.2.17811__13.SC2Replay")
		if r.Players[0].Team == r.Players[1].Team {
			t.Errorf("both players on %s", r.Players[0].Team)
		}
		obs := 0
		for _, p := range r.Players {
			if o, _ := model.Find(p.Fields, "observe"); o.Value != int64(0) {
				obs++
			}
		}
		if obs == 0 {
			t.Error("no observer (test_observers)")
		}
	})
	t.Run("encrypted", func(t *testing.T) {
		r := f("ggtracker__sc2reader/test_replays__1.2.2.17811__4.SC2Replay")
		if r.Partial || len(r.Players) != 2 {
			t.Errorf("partial %v players %d", r.Partial, len(r.Players))
		}
	})
	t.Run("hots_vs_ai", func(t *testing.T) {
		r := f("ggtracker__sc2reader/test_replays__2.0.0.24247__Korhal City (19).SC2Replay")
		comp := 0
		for _, p := range r.Players {
			if c, _ := model.Find(p.Fields, "control"); c.Name == "Computer" {
				comp++
			}
		}
		if comp != 1 {
			t.Errorf("%d computer players, want 1", comp)
		}
	})
	// sc2reader's test_gameheartnormalizer_plugin: players SjoWBBII
	// (Terran) and Stardust (Protoss), 5 observers, 2 teams, Stardust's
	// team wins. rewind keeps the file's loops (sc2reader moves the events
	// back to the start of the play: its events[0].frame 0 and 636 s).
	t.Run("gameheart", func(t *testing.T) {
		path := "ggtracker__sc2reader/test_replays__gameheart__gameheart.SC2Replay"
		for _, opt := range []model.DecodeOptions{{}, {HeaderOnly: true}} {
			data, err := os.ReadFile(corpus.File(t, "sc2", path))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Decode(data, opt)
			if err != nil {
				t.Fatal(err)
			}
			want := []model.Player{{Slot: "P1", Name: "SjoWBBII", Character: "Terran", Team: "team 1", Result: "Loss"},
				{Slot: "P2", Name: "Stardust", Character: "Protoss", Team: "team 2", Result: "Win"}}
			if len(r.Players) != len(want) {
				t.Fatalf("header-only %v: %d players, want %d", opt.HeaderOnly, len(r.Players), len(want))
			}
			for i, w := range want {
				p := r.Players[i]
				if p.Slot != w.Slot || p.Name != w.Name || p.Character != w.Character || p.Team != w.Team || p.Result != w.Result {
					t.Errorf("header-only %v: %+v, want %+v", opt.HeaderOnly, p, w)
				}
			}
			obs, _ := model.Find(r.Header, "gameHeartObservers")
			if len(obs.Fields) != 5 || r.Result != "Win: Stardust" || !strings.HasPrefix(r.Mode, "1v1") {
				t.Errorf("header-only %v: %d observers, result %q, mode %q", opt.HeaderOnly, len(obs.Fields), r.Result, r.Mode)
			}
			if !opt.HeaderOnly && r.Timeline.Count != 10726 {
				t.Errorf("%d frames, want the file's 10726", r.Timeline.Count)
			}
		}
	})
	t.Run("bad_unit_ids", func(t *testing.T) {
		r := f("ggtracker__sc2reader/test_replays__2.0.11.26825__bad_unit_ids_1.SC2Replay")
		found := false
		for _, d := range r.Diagnostics {
			if d.Span.Stream == fTracker && d.Severity >= model.Warning {
				found = true
			}
		}
		if !found {
			t.Error("no diagnostic for the corrupt tracker file")
		}
	})
	t.Run("tracker_event_types", func(t *testing.T) {
		r := f("ipax77__s2protocol.NET/s2protocol.NET.tests__replays__test8.SC2Replay")
		for _, k := range []string{"born", "stats", "positions"} {
			if !has(r, k) {
				t.Errorf("no %s events", k)
			}
		}
	})
	t.Run("truncated", func(t *testing.T) {
		r := f("ipax77__s2protocol.NET/s2protocol.NET.tests__replays__testError2.SC2Replay")
		if !r.Partial || r.Problems() == 0 || has(r, "born") {
			t.Errorf("partial %v problems %d", r.Partial, r.Problems())
		}
	})
	t.Run("ladder_1v1", func(t *testing.T) {
		r := f("paulocanedo__sc2-replay-utils/examples__winter_madness_69.SC2Replay")
		if !strings.HasPrefix(r.Mode, "1v1") || !strings.Contains(r.Mode, "ladder") {
			t.Errorf("mode %q, want 1v1 ladder", r.Mode)
		}
	})
	t.Run("observed", func(t *testing.T) {
		r := f("paulocanedo__sc2-replay-utils/examples__replay_observed.SC2Replay")
		p := playerByName(r, "LiquidClem")
		if len(r.Players) != 2 || p == nil || p.Character != "Terran" {
			t.Fatalf("players %+v", r.Players)
		}
		pi := -1
		for i := range r.Players {
			if r.Players[i].Name == "LiquidClem" {
				pi = i
			}
		}
		n, first := 0, -1
		for i, e := range r.Events {
			if r.EventKind(i) == "camera" && int(e.Player) == pi {
				if first < 0 {
					first = int(e.Frame)
				}
				n++
			}
		}
		if n <= 500 || first < 0 || first >= 100 {
			t.Errorf("LiquidClem: %d camera events, first at loop %d; want >500, first < 100", n, first)
		}
		// the spectators are users 1 and 3: nothing of theirs is a player's
		slots, _ := model.Find(r.Header, "slots")
		if len(slots.Fields) == 0 {
			t.Error("no lobby slots from replay.initData")
		}
	})
	t.Run("ladder_amm_option", func(t *testing.T) {
		r := f("paulocanedo__sc2-replay-utils/examples__winter_madness_69.SC2Replay")
		amm, ok := model.Find(r.Header, "amm")
		if !ok || amm.Value != true {
			t.Errorf("game option amm %v %v, want true", amm.Value, ok)
		}
	})
	t.Run("invalid", func(t *testing.T) {
		data, err := os.ReadFile(corpus.File(t, "sc2", "icza__mpq/reps__invalid.SC2Replay_"))
		if err != nil {
			t.Fatal(err)
		}
		if r, err := Decode(data, model.DecodeOptions{}); err == nil || r != nil {
			t.Error("invalid file accepted")
		}
	})
	t.Run("s2protocol_streams", func(t *testing.T) {
		r := f("Blizzard__s2protocol/tests__s2replaystatsdata__2018-11-29_Z_iaguz_VS_P_Luneth.SC2Replay")
		for _, n := range []string{fDetails, fBackup, fInit, fGame, fMessages, fTracker} {
			if len(r.Bytes(n)) == 0 {
				t.Errorf("stream %s missing", n)
			}
		}
		// "initData decodes"
		if init, ok := model.Find(r.Header, "initData"); !ok || init.Value != "table of base build 70154" {
			t.Errorf("lobby %v", init.Value)
		}
	})
}

func samples(t testing.TB) []string {
	return corpus.SampleFiles(t, "sc2", "*.SC2Replay")
}

func TestSamples(t *testing.T) {
	for _, p := range samples(t) {
		r := decodeFile(t, p)
		if r.Version == "" {
			t.Errorf("%s: no version", filepath.Base(p))
		}
		if strings.HasPrefix(filepath.Base(p), "broken") != r.Partial {
			t.Errorf("%s: partial %v", filepath.Base(p), r.Partial)
		}
		// O(1) state at every frame edge must not panic
		for _, f := range []int{0, r.Timeline.Count / 2, r.Timeline.Count - 1} {
			for pi := range r.Players {
				r.PlayerState(f, pi)
			}
			r.SceneAt(f)
		}
		for i := range r.Events {
			r.EventSummary(i)
			r.EventFields(i)
		}
	}
}

// TestSampleTracker checks the player state against the spec's rules on a
// sample with tracker events: supply is food/4096, units appear after birth.
func TestSampleTracker(t *testing.T) {
	r := decodeFile(t, filepath.Join(corpus.Samples(t, "sc2"), "lotv-5.0.15-winter-madness.SC2Replay"))
	if r.Timeline.Rate != 22.4 {
		t.Errorf("rate %v, want 22.4 on Faster", r.Timeline.Rate)
	}
	if got := r.Timeline.Time(224); got != 10*time.Second {
		t.Errorf("loop 224 at %v, want 10s", got)
	}
	st := r.PlayerState(0, 0)
	units, _ := model.Find(st.Fields, "unitsAlive")
	if len(units.Fields) == 0 {
		t.Error("no units alive at loop 0 (start workers and base are born then)")
	}
	end := r.PlayerState(r.Timeline.Count-1, 0)
	if sup, _ := model.Find(end.Brief, "supply"); sup.Value == "0/0" {
		t.Error("supply still 0/0 at the end")
	}
	if sc := r.SceneAt(r.Timeline.Count / 2); len(sc) != 1 || len(sc[0].Points) == 0 {
		t.Error("no units in the scene mid-game")
	}
	if len(r.Charts) == 0 {
		t.Error("no charts")
	}
}

// checkContract holds a decode to the decoders' contract: a refusal is a
// FormatError at an offset in the file and nothing else; a replay's
// diagnostics point inside the bytes they name; a partial replay says why
// with a warning or an error; events sit on the timeline and can be shown.
func checkContract(t *testing.T, what string, data []byte, r *model.Replay, err error) {
	t.Helper()
	if err != nil {
		fe, ok := err.(*model.FormatError)
		if r != nil || !ok || fe.Off < 0 || fe.Off > int64(len(data)) {
			t.Fatalf("%s: refusal %v with replay %v", what, err, r != nil)
		}
		return
	}
	if r == nil {
		t.Fatalf("%s: no replay and no error", what)
	}
	for _, d := range r.Diagnostics {
		limit := int64(len(data))
		if d.Span.Stream != "" {
			b := r.Bytes(d.Span.Stream)
			if b == nil {
				continue // a stream the archive names but could not give
			}
			limit = int64(len(b))
		}
		if d.Span.Off < 0 || d.Span.Off > limit || d.Span.Len < 0 {
			t.Fatalf("%s: diagnostic outside its %d bytes: %v", what, limit, d)
		}
	}
	if r.Partial && r.Problems() == 0 {
		t.Fatalf("%s: partial without a warning or an error: %v", what, r.Diagnostics)
	}
	for i, e := range r.Events {
		if e.Frame < 0 || int(e.Frame) >= r.Timeline.Count {
			t.Fatalf("%s: event %d at frame %d of %d", what, i, e.Frame, r.Timeline.Count)
		}
		if i < 100 {
			r.EventSummary(i)
			r.EventFields(i)
		}
	}
	for pi := range r.Players {
		r.PlayerState(r.Timeline.Count-1, pi)
	}
	r.SceneAt(r.Timeline.Count / 2)
}

// TestTruncation cuts a sample at many offsets: the archive's tables are
// at its end, so every cut leaves a partial replay (header and whatever
// the cut spares) with an error at or before the cut, never a refusal
// once the signature is there.
func TestTruncation(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "sc2"), "hots-2.0.8-tracker.SC2Replay"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n += 1 + n/16 {
		cut := data[:n]
		r, err := Decode(cut, model.DecodeOptions{})
		what := fmt.Sprintf("cut at %d", n)
		checkContract(t, what, cut, r, err)
		if err != nil {
			if n >= 4 {
				t.Errorf("%s: refused: %v", what, err)
			}
			continue
		}
		if !r.Partial {
			t.Errorf("%s: not partial", what)
		}
		found := false
		for _, d := range r.Diagnostics {
			if d.Severity == model.Error && d.Span.Stream == "" && d.Span.Off <= int64(n) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no error at or before the cut: %v", what, r.Diagnostics)
		}
		if n > 1100 && r.Version != "2.0.8.25604" {
			t.Errorf("%s: version %q from the intact header", what, r.Version)
		}
	}
}

// TestBitFlip flips one bit in many places of a sample. A flip in the
// stored bytes of a stream the decoder reads gives a partial replay with
// an error about that stream; any flip gives a replay that keeps the
// contract.
func TestBitFlip(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "sc2"), "lotv-4.3.0-backwater-vs-ai.SC2Replay"))
	if err != nil {
		t.Fatal(err)
	}
	arc, err := mpq.Open(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	// where the streams the decoder reads are stored
	type block struct {
		name   string
		lo, hi int64
	}
	var blocks []block
	for _, n := range []string{fDetails, fAttributes, fInit, fGame, fMessages, fTracker} {
		// a stream stored as it is has no check: a flip there changes a
		// value (a name's letter) and is not an error
		if bi := arc.FindBlock(n); bi >= 0 && arc.Block[bi].CompressedSize < arc.Block[bi].FileSize {
			at := arc.BlockAt(bi)
			blocks = append(blocks, block{name: n, lo: at, hi: at + int64(arc.Block[bi].CompressedSize)})
		}
	}
	buf := make([]byte, len(data))
	inStream, caught := 0, 0
	for i := 0; i < len(data); i += 151 {
		copy(buf, data)
		buf[i] ^= 1 << (i % 8)
		r, err := Decode(buf, model.DecodeOptions{})
		what := fmt.Sprintf("bit %d of byte %#x", i%8, i)
		checkContract(t, what, buf, r, err)
		for _, b := range blocks {
			if int64(i) < b.lo || int64(i) >= b.hi {
				continue
			}
			inStream++
			if err != nil || !r.Partial {
				continue
			}
			for _, d := range r.Diagnostics {
				if d.Severity >= model.Warning && (d.Subject == b.name || d.Span.Stream == b.name ||
					strings.HasPrefix(d.Subject, b.name) || (d.Span.Stream == "" && d.Span.Off >= b.lo && d.Span.Off <= b.hi)) {
					caught++
					break
				}
			}
		}
	}
	// bzip2 checks every block
	if inStream == 0 || caught != inStream {
		t.Errorf("%d of %d flips inside the decoded streams gave a partial replay with a diagnostic about the stream", caught, inStream)
	}
	t.Logf("%d of %d flips inside the decoded streams caught", caught, inStream)
}

// TestHeaderShifted moves the archive one byte later than the user data
// says, as in a known corrupt file: found by scanning, with a warning.
func TestHeaderShifted(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "sc2"), "wol-1.0.1-metalopolis.SC2Replay"))
	if err != nil {
		t.Fatal(err)
	}
	at := int(binary.LittleEndian.Uint32(data[8:]))
	shifted := append(append(append([]byte{}, data[:at]...), 0), data[at:]...)
	r, err := Decode(shifted, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Title != "Metalopolis" {
		t.Errorf("title %q", r.Title)
	}
	found := false
	for _, d := range r.Diagnostics {
		if d.Subject == "archive header" && d.Span.Off == int64(at) {
			found = true
		}
	}
	if !found {
		t.Errorf("no diagnostic at %#x: %v", at, r.Diagnostics)
	}
}

// TestAnonymized hides replay.details the way anonymizers do (the backup
// stays) by renaming its hash entry.
func TestAnonymized(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "sc2"), "lotv-5.0.15-winter-madness.SC2Replay"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := mpq.Open(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	words := make([]uint32, len(a.Hash)*4)
	hit := false
	for i, h := range a.Hash {
		if h.HashA == mpq.HashString(fDetails, 1) && h.HashB == mpq.HashString(fDetails, 2) {
			h.HashA ^= 0x5a5a
			hit = true
		}
		words[4*i], words[4*i+1], words[4*i+2], words[4*i+3] = h.HashA, h.HashB, uint32(h.Locale)|uint32(h.Platform)<<16, h.BlockIndex
	}
	if !hit {
		t.Fatal("replay.details not in the hash table")
	}
	mpq.Encrypt(words, mpq.HashString("(hash table)", 3))
	buf := append([]byte{}, data...)
	for i, w := range words {
		binary.LittleEndian.PutUint32(buf[a.HashTableAt+int64(4*i):], w)
	}
	r, err := Decode(buf, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Players) != 2 || r.Title != "Winter Madness LE" {
		t.Errorf("players %d title %q from the backup", len(r.Players), r.Title)
	}
	found := false
	for _, d := range r.Diagnostics {
		if d.Subject == fDetails && strings.Contains(d.Message, "backup") {
			found = true
		}
	}
	if !found {
		t.Error("no diagnostic about the backup")
	}
	if h, err := Decode(buf, model.DecodeOptions{HeaderOnly: true}); err != nil || len(h.Players) != 2 {
		t.Errorf("header-only: %v", err)
	}
}

func TestHeaderOnly(t *testing.T) {
	for _, p := range samples(t) {
		data, _ := os.ReadFile(p)
		r, err := Decode(data, model.DecodeOptions{HeaderOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.Version == "" {
			t.Errorf("%s: no version", filepath.Base(p))
		}
		full := decodeFile(t, p)
		if r.Title != full.Title || r.Duration != full.Duration || len(r.Players) != len(full.Players) || !r.Start.Equal(full.Start) {
			t.Errorf("%s: header-only %q %v %d differs from full %q %v %d", filepath.Base(p), r.Title, r.Duration, len(r.Players), full.Title, full.Duration, len(full.Players))
		}
	}
}

// FuzzSC2 decodes arbitrary bytes, starting from small files (a few KB
// at most, so that the fuzzer runs many inputs): the contract holds for
// every input (see checkContract).
func FuzzSC2(f *testing.F) {
	f.Add(synthReplay(synthTracker()))
	for _, p := range samples(f) {
		data, _ := os.ReadFile(p)
		if len(data) <= 2048 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(data, model.DecodeOptions{})
		checkContract(t, "input", data, r, err)
		decodetest.NoEvents(t, Decode, data, r, err)
		if r == nil {
			return
		}
		// the analysis, its JSON (no NaN or infinity) and the summary
		a := r.Analysis()
		if _, err := json.Marshal(a.Stats.Native); err != nil {
			t.Errorf("stats JSON: %v", err)
		}
		if s := Format.Summarize(r); s != nil && len(s.Players) != len(r.Players) {
			t.Errorf("%d player summaries for %d players", len(s.Players), len(r.Players))
		}
	})
}

func BenchmarkDecodeSC2(b *testing.B) {
	benchFile(b, "ipax77__s2protocol.NET/s2protocol.NET.tests__replays__test10.SC2Replay")
}

// benchFile decodes one corpus file.
func benchFile(b *testing.B, rel string) {
	data, err := os.ReadFile(corpus.File(b, "sc2", rel))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var r *model.Replay
	for i := 0; i < b.N; i++ {
		if r, err = Decode(data, model.DecodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	// live-MB is the heap a decode leaves: the replay, and what the
	// package keeps for the next decode (decompressors, id tables). B/op
	// counts what is reused between decodes only once; a one-off decode
	// (rewind check of one file) pays for it all, and its peak RSS
	// follows what is live, not what is allocated.
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/1e6, "live-MB")
	runtime.KeepAlive(r)
}

// BenchmarkDecodeCorpus decodes every file of the corpus, as `rewind
// check` does; with -cpu 1 it gives the rate per core.
func BenchmarkDecodeCorpus(b *testing.B) {
	var files [][]byte
	size := 0
	for _, p := range corpusFiles(b) {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		size += len(data)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, data := range files {
			Decode(data, model.DecodeOptions{})
		}
	}
}

// BenchmarkOpen1v1 opens a 22-minute ladder 1v1 (29,818 loops, 147 KB).
func BenchmarkOpen1v1(b *testing.B) {
	benchFile(b, "paulocanedo__sc2-replay-utils/examples__old_republic_50.SC2Replay")
}

// TestStreamsReadWhenAsked: the streams nothing decodes (smartcam, sync,
// the battle lobby) are not decompressed by the decode; the hex view gets
// them through Replay.Bytes, once, from any goroutine.
func TestStreamsReadWhenAsked(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "sc2"), "lotv-5.0.15-winter-madness.SC2Replay"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lazy := []string{"replay.smartcam.events", "replay.sync.events", "replay.server.battlelobby"}
	for _, n := range lazy {
		if ls := d.st.m[n]; ls == nil || ls.data != nil {
			t.Errorf("%s: decompressed by the decode (%v)", n, ls)
		}
		if _, ok := d.r.Streams[n]; ok {
			t.Errorf("%s in Streams", n)
		}
	}
	for _, n := range []string{fDetails, fInit, fGame, fMessages, fTracker, fAttributes} {
		if len(d.r.Streams[n]) == 0 {
			t.Errorf("decoded stream %s not in Streams", n)
		}
	}
	var wg sync.WaitGroup
	got := make([][]byte, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = d.r.Bytes("replay.smartcam.events")
		}()
	}
	wg.Wait()
	bi := d.arc.FindBlock("replay.smartcam.events")
	for i := range got {
		if len(got[i]) != int(d.arc.Block[bi].FileSize) || &got[i][0] != &got[0][0] {
			t.Errorf("reader %d got %d bytes, want the one copy of %d", i, len(got[i]), d.arc.Block[bi].FileSize)
		}
	}
}

// decodedCorpus decodes every corpus file that gives a replay, for the
// benchmarks that time what comes after the decode.
func decodedCorpus(b *testing.B) []*model.Replay {
	var rs []*model.Replay
	for _, p := range corpusFiles(b) {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if r, _ := Decode(data, model.DecodeOptions{}); r != nil {
			rs = append(rs, r)
		}
	}
	return rs
}

// BenchmarkSummaries writes the one-line summary of every event of the
// corpus, as `rewind export` does for its events table (the decode is
// not timed).
func BenchmarkSummaries(b *testing.B) {
	rs := decodedCorpus(b)
	n := 0
	for _, r := range rs {
		n += len(r.Events)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, r := range rs {
			for i := range r.Events {
				r.EventSummary(i)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/event")
}

// BenchmarkStatsRows turns the PlayerStats events of the corpus into rows
// of export's frames_sc2 table, through their fields (the decode is not
// timed).
func BenchmarkStatsRows(b *testing.B) {
	rs := decodedCorpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, r := range rs {
			StatsRows(r, func([]StatsRow) error { return nil })
		}
	}
}
