package sc2

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func protocolNamed(t testing.TB, name string) *protocol {
	t.Helper()
	for _, p := range protocols {
		if p.name == name {
			return p
		}
	}
	t.Fatalf("no protocol %s", name)
	return nil
}

// gameHead writes what precedes a game event body: the loop delta (as the
// 2-bit-selected varuint), the 5-bit user and the 7-bit event id.
func gameHead(w *bitWriter, delta uint64, user, id uint64) {
	w.align()
	switch {
	case delta < 1<<6:
		w.bits(0, 2)
		w.bits(delta, 6)
	case delta < 1<<14:
		w.bits(1, 2)
		w.bits(delta, 14)
	default:
		w.bits(3, 2)
		w.bits(delta, 32)
	}
	w.bits(user, 5)
	w.bits(id, 7)
}

// TestWoLGameEventsHandBuilt builds a 17326 stream (camera, command with a
// target point, control group recall, leave) and checks events, loops and
// the readable summaries with scaled coordinates.
func TestWoLGameEventsHandBuilt(t *testing.T) {
	p := protocolNamed(t, "17326")
	w := &bitWriter{}
	gameHead(w, 0, 1, 49) // CameraUpdate: x, y 16 bits in 1/256; three absent optionals
	w.bits(100*256, 16)
	w.bits(50*256, 16)
	w.bits(0, 3)
	gameHead(w, 16, 2, 27) // Cmd: flags 17 bits, ability, target point, no other unit
	w.bits(0, 17)
	w.bits(1, 1)
	w.bits(3771, 16)
	w.bits(1, 5)
	w.bits(0, 1)
	w.bits(1, 2) // TargetPoint
	w.bits(30*4096, 20)
	w.bits(40*4096, 20)
	w.bits(1<<31, 32) // z = 0 with the -2^31 offset
	w.bits(0, 1)
	gameHead(w, 100, 1, 29) // ControlGroupUpdate: group 3, recall, no mask
	w.bits(3, 4)
	w.bits(2, 2)
	w.bits(0, 2)
	gameHead(w, 0, 1, 25) // PlayerLeave: empty body
	b := w.out
	if !p.gameReadsExactly(b) {
		t.Fatal("stream does not read to its end")
	}
	d := &decoder{userToPl: map[int]int{}, slotToPl: map[int]int{}, r: &model.Replay{}}
	d.gameEvents(b, p)
	if len(d.r.Diagnostics) != 0 {
		t.Fatalf("diagnostics %v", d.r.Diagnostics)
	}
	want := []struct {
		loop    int32
		summary string
	}{
		{0, "CameraUpdate user 1: camera to (100.00, 50.00)"},
		{16, "Cmd user 2: ability 3771 cmd 1 at (30.00, 40.00)"},
		{116, "ControlGroupUpdate user 1: recall group 3"},
		{116, "PlayerLeave user 1: leaves"},
	}
	if len(d.game.events) != len(want) {
		t.Fatalf("%d events, want %d", len(d.game.events), len(want))
	}
	for i, wv := range want {
		e := &d.game.events[i]
		if e.loop != wv.loop {
			t.Errorf("event %d loop %d, want %d", i, e.loop, wv.loop)
		}
		if s := d.game.summary(d, e); s != wv.summary {
			t.Errorf("event %d summary %q, want %q", i, s, wv.summary)
		}
	}
	// a stream cut inside the command keeps the camera event and says where
	d2 := &decoder{userToPl: map[int]int{}, slotToPl: map[int]int{}, r: &model.Replay{}}
	d2.gameEvents(b[:8], p)
	if len(d2.game.events) != 1 || len(d2.r.Diagnostics) != 1 || d2.r.Diagnostics[0].Span.Stream != fGame {
		t.Errorf("cut stream: %d events, diagnostics %v", len(d2.game.events), d2.r.Diagnostics)
	}
}

// TestLayoutDifferences checks by hand-built bytes what tells the WoL
// layouts apart: 16939's event 11 is the user options (17326's is a bank
// signature) and 18574/19132 read 18 command-flag bits where 17326 reads 17.
func TestLayoutDifferences(t *testing.T) {
	w := &bitWriter{}
	gameHead(w, 0, 1, 11)
	w.bits(0, 4) // four option bools
	if !protocolNamed(t, "16939").gameReadsExactly(w.out) {
		t.Error("16939: user options event 11 does not read")
	}
	if protocolNamed(t, "16939").events[11].name != "UserOptions" || protocolNamed(t, "17326").events[11].name != "BankSignature" {
		t.Error("event 11 names")
	}
	// Cmd with no ability and no target: flags, absent ability, None, no other unit.
	cmd := func(flagBits uint) []byte {
		w := &bitWriter{}
		gameHead(w, 0, 1, 27)
		w.bits(0, flagBits)
		w.bits(0, 1)
		w.bits(0, 2)
		w.bits(0, 1)
		return w.out
	}
	for _, c := range []struct {
		proto string
		bits  uint
	}{{"16939", 17}, {"17326", 17}, {"18574", 18}, {"19132", 18}, {"19679", 18}} {
		p := protocolNamed(t, c.proto)
		if !p.gameReadsExactly(cmd(c.bits)) {
			t.Errorf("%s: command with %d flag bits does not read", c.proto, c.bits)
		}
	}
}

// corpusGameBuilds are the base builds whose game events and lobby decode,
// with the layout each uses and how many corpus files carry that base build
// in their header (88500 has one more, testError2, cut before its streams).
var corpusGameBuilds = map[int]struct {
	layout string
	files  int
}{
	16561: {"16939", 5}, 16605: {"16939", 3}, 16755: {"16939", 3}, 16939: {"16939", 8},
	17326: {"17326", 17}, 18092: {"17326", 8}, 18574: {"18574", 7}, 19132: {"19132", 11},
	19595: {"19679", 1}, 19679: {"19679", 15}, 21029: {"19679", 1},
	24247: {"24247", 4}, 24764: {"24944", 7}, 24944: {"24944", 8}, 26490: {"26490", 2}, 39576: {"39576", 3}, 56787: {"56787", 1}, 64469: {"64469", 2}, 65895: {"65895", 1},
	70154: {"71663", 2}, 71663: {"71663", 1}, 78285: {"77379", 2},
	80949: {"97364", 1}, 87702: {"97364", 1}, 88500: {"97364", 1}, 91115: {"97364", 1},
	94137: {"97364", 1}, 95299: {"97364", 2}, 95841: {"97364", 2}, 96883: {"97364", 2},
}

func baseBuildOf(fs []model.Field) int64 {
	for _, f := range fs {
		if f.Key == "baseBuild" {
			switch v := f.Value.(type) {
			case int64:
				return v
			case uint64:
				return int64(v)
			}
		}
		if b := baseBuildOf(f.Fields); b != 0 {
			return b
		}
	}
	return 0
}

// TestCorpusGameEvents decodes the game events of every corpus file whose
// base build has a known layout and checks them structurally: the lobby
// and the stream read to their last byte, loops never go back and stay
// within the header's length, the first event comes in the first game
// second, and every command comes from a player of replay.details.
func TestCorpusGameEvents(t *testing.T) {
	got := map[int]int{}
	total := 0
	for _, path := range corpusFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			continue
		}
		base := int(baseBuildOf(r.Header))
		want, ok := corpusGameBuilds[base]
		if !ok {
			continue
		}
		name := filepath.Base(path)
		if strings.Contains(name, "testError2") { // truncated to 1232 bytes (EXPECTED.md): no streams
			continue
		}
		init, ok := model.Find(r.Header, "initData")
		if !ok || init.Value != "layout of base build "+want.layout {
			t.Errorf("%s (base %d): lobby %v, want layout %s", name, base, init.Value, want.layout)
			continue
		}
		resumed := strings.Contains(name, "resume_from_replay")
		for _, dg := range r.Diagnostics {
			if dg.Span.Stream == fGame && resumed {
				// the events after the game resumed from the replay do not
				// read with the layout: the stream stops there, said once
				continue
			}
			if dg.Span.Stream == fGame || dg.Span.Stream == fInit {
				t.Errorf("%s: %v", name, dg)
			}
		}
		if resumed {
			// EXPECTED.md (sc2reader test_replays.py:261-266): resume_from_replay
			// True, resume_method 0 — the hijack event and its method.
			found := false
			for i, e := range r.Events {
				if e.Kind == "hijack" {
					found = true
					if f, ok := model.Find(r.EventFields(i), "method"); !ok || f.Value != int64(0) {
						t.Errorf("%s: hijack method %v", name, f.Value)
					}
				}
			}
			if !found {
				t.Errorf("%s: no HijackReplayGame event", name)
			}
		}
		n, first, last := 0, -1, -1
		lastRef := -1
		byRef := map[int]int{}
		for _, e := range r.Events {
			if e.Span.Stream != fGame {
				continue
			}
			n++
			byRef[e.Ref] = e.Frame
			if e.Ref > lastRef {
				lastRef = e.Ref
			}
			if e.Kind == "cmd" && (e.Player < 0 || e.Player >= len(r.Players)) {
				t.Errorf("%s: command at loop %d from no player (ref %d)", name, e.Frame, e.Ref)
			}
		}
		for ref := 0; ref <= lastRef; ref++ {
			f, ok := byRef[ref]
			if !ok {
				t.Fatalf("%s: game event %d missing", name, ref)
			}
			if f < last {
				t.Errorf("%s: game event %d at loop %d after loop %d", name, ref, f, last)
				break
			}
			if first < 0 {
				first = f
			}
			last = f
		}
		if n < 50 || first < 0 || first >= 16 || last >= r.Timeline.Count {
			t.Errorf("%s: %d game events, loops %d..%d of %d", name, n, first, last, r.Timeline.Count)
		}
		got[base]++
		total += n
	}
	for base, w := range corpusGameBuilds {
		if got[base] != w.files {
			t.Errorf("base build %d: %d files decode their game events, want %d", base, got[base], w.files)
		}
	}
	t.Logf("%d game events from %d base builds", total, len(got))
}

// TestSampleLayouts runs from the built-in samples alone: each sample whose
// base build has a layout decodes its lobby and game events to the end,
// with commands from its players; the 1.0 sample keeps the presence note.
func TestSampleLayouts(t *testing.T) {
	for _, c := range []struct {
		file, layout string
	}{
		{"wol-1.1.3-kr-encrypted-listfile.SC2Replay", "16939"},
		{"hots-2.0.8-tracker.SC2Replay", "24944"},
		{"lotv-3.1.0-dusktowers-vs-ai.SC2Replay", "39576"},
		{"lotv-4.3.0-backwater-vs-ai.SC2Replay", "64469"},
		{"lotv-5.0.15-winter-madness.SC2Replay", "97364"},
		{"wol-1.0.1-metalopolis.SC2Replay", ""},
	} {
		t.Run(c.file, func(t *testing.T) {
			r := decodeFile(t, corpus.Samples(t, "sc2")+"/"+c.file)
			init, ok := model.Find(r.Header, "initData")
			if c.layout == "" {
				if ok {
					t.Errorf("lobby decoded with %v", init.Value)
				}
				found := false
				for _, d := range r.Diagnostics {
					if d.Span.Stream == fGame && strings.Contains(d.Message, "not decoded") {
						found = true
					}
				}
				if !found {
					t.Error("no presence note for replay.game.events")
				}
				return
			}
			if !ok || init.Value != "layout of base build "+c.layout {
				t.Fatalf("lobby %v, want layout %s", init.Value, c.layout)
			}
			for _, d := range r.Diagnostics {
				if d.Span.Stream == fGame && d.Severity >= model.Warning {
					t.Errorf("game events: %v", d)
				}
			}
			cmds, first := 0, -1
			for i, e := range r.Events {
				if e.Span.Stream != fGame {
					continue
				}
				if first < 0 || e.Frame < first {
					first = e.Frame
				}
				if e.Kind == "cmd" {
					cmds++
					if e.Player < 0 {
						t.Fatalf("command %q from no player", r.EventSummary(i))
					}
					if s := r.EventSummary(i); !strings.HasPrefix(s, "Cmd "+r.Players[e.Player].Name+": ") {
						t.Fatalf("summary %q", s)
					}
				}
			}
			if cmds == 0 || first != 0 {
				t.Errorf("%d commands, first game event at loop %d", cmds, first)
			}
			if w, _ := model.Find(r.Header, "mapSizeX"); w.Value == nil {
				t.Error("no map size from the lobby")
			}
		})
	}
}
