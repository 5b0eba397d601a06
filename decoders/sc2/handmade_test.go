package sc2

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/sc2/bitpack"
	"rewind/decoders/sc2/mpq"
	"rewind/decoders/sc2/protocol"
	"rewind/decoders/sc2/versioned"
	"rewind/model"
)

// Hand-made replays: a corpus replay with a member edited the way a replay
// of a class the corpus lacks differs from it (an A.I. seated after open
// slots, a tracker loop that wraps past 32 bits, an anonymized replay).
// The expected values are sc2reader's, run on the hand-made file itself:
// go test -run 'HandMade' -handmade-out DIR writes each one to DIR, where
// the command in the test's comment reads it.

var handmadeOut = flag.String("handmade-out", "", "write the hand-made replays of the HandMade tests to this folder")

// handmade is a corpus replay rebuilt with edit applied to each member
// (a member edit returns nil for is left out). It is written to
// -handmade-out as name when that is set.
func handmade(t *testing.T, rel, name string, edit func(member string, b []byte) []byte) []byte {
	t.Helper()
	data, err := os.ReadFile(corpus.File(t, "sc2", rel))
	if err != nil {
		t.Fatal(err)
	}
	a, err := mpq.Open(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var members []mpq.Member
	for _, n := range knownFiles {
		if n == fListfile || n == fArcAttributes || !a.Has(n) {
			continue
		}
		b, err := a.ReadFile(n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		// an empty member is left out: mpyq, which sc2reader reads
		// archives with, does not read one written with no sectors
		if b = edit(n, b); len(b) > 0 {
			members = append(members, mpq.Member{Name: n, Data: b})
		}
	}
	out := mpq.Write(a.UserData.Content, a.Header.SectorSizeShift, members)
	if *handmadeOut != "" {
		if err := os.WriteFile(filepath.Join(*handmadeOut, name), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// splice replaces the bytes of a decoded value in the stream it was read
// from.
func splice(b []byte, v *versioned.Value, with []byte) []byte {
	out := append([]byte{}, b[:v.Off]...)
	out = append(out, with...)
	return append(out, b[v.End:]...)
}

// keepDetailsPlayers keeps the players of replay.details with the given
// indices, in order.
func keepDetailsPlayers(t *testing.T, b []byte, keep ...int) []byte {
	t.Helper()
	v, err := versioned.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := v.Get(0)
	if pl.Kind == versioned.Optional {
		pl = &pl.Items[0]
	}
	var items [][]byte
	for _, i := range keep {
		items = append(items, b[pl.Items[i].Off:pl.Items[i].End])
	}
	return splice(b, pl, vArr(items...))
}

// lobbyBit is where a value of replay.initData starts, in bits from the
// stream's start, and how many bits it takes: path names struct members
// and array items under the stream's root type.
func lobbyBit(t *testing.T, p *protocol.Protocol, b []byte, path ...any) (int, uint) {
	t.Helper()
	tab := p.Types
	r := bitpack.New(b)
	typ := p.Init
	for _, step := range path {
		for tab[typ].Kind == bitpack.KOptional {
			if r.Bits(1) == 0 {
				t.Fatalf("%v: absent", path)
			}
			typ = tab[typ].Elem
		}
		switch s := step.(type) {
		case string:
			found := false
			for _, f := range tab[typ].Fields {
				if f.Name == s {
					typ, found = f.Type, true
					break
				}
				r.Skip(tab, f.Type)
			}
			if !found {
				t.Fatalf("%v: no member %s", path, s)
			}
		case int:
			if n := r.Int(tab[typ].Offset, tab[typ].Bits); int64(s) >= n {
				t.Fatalf("%v: %d items", path, n)
			}
			for range s {
				r.Skip(tab, tab[typ].Elem)
			}
			typ = tab[typ].Elem
		}
	}
	if r.Failed() || tab[typ].Kind != bitpack.KInt {
		t.Fatalf("%v: not an int (%v)", path, r.Err())
	}
	return 8*len(b) - r.BitsLeft(), tab[typ].Bits
}

// zeroBits clears n bits from bit pos: a bit-packed value is read from the
// low bits of each byte up, so bit k of the stream is bit k%8 of byte k/8,
// whatever the value's own bit order.
func zeroBits(b []byte, pos int, n uint) {
	for k := pos; k < pos+int(n); k++ {
		b[k/8] &^= 1 << (k % 8)
	}
}

// TestHandMadeAISeatedLate: a 4v4 private lobby of one human (slot 1) and
// one A.I. seated in slot 8, the slots between open, made from the
// corpus's 2.0.10 game of one human and seven A.I.s: slots 2 to 7 opened
// in replay.initData (m_control 0) and their players dropped from
// replay.details. The tracker events still name the A.I. of slot 8 as
// player 8, as the game numbers players by slot. sc2reader 1.8.0 reads the
// tracker events of the original and of the hand-made file the same:
// player 8's are the A.I.'s (sc2reader's Computer of slot 8, pid 8 in the
// original). Its build order, by the rule of TestSc2readerValues, over the
// tracker events whose control_pid is 8:
//
//	PYTHONPATH=sc2reader:mpyq python3 build.py ai-seated-late.SC2Replay (load_level=3, engine=None;
//	  UnitInitEvent, UnitBornEvent after loop 0 not started by an init, UpgradeCompleteEvent
//	  after loop 0 with count > 0; the rule's unit filter)
//
// gives 100 entries (sha 24ecd6a32e663b76), SCV at 308, 579, 850, then a
// Supply Depot at 955; the human's stay his: 81 (05d4b3becea4b68d).
func TestHandMadeAISeatedLate(t *testing.T) {
	data := handmade(t, "ggtracker__sc2reader/test_replays__2.0.10.26490__replay26490.SC2Replay", "ai-seated-late.SC2Replay",
		func(n string, b []byte) []byte {
			switch n {
			case fDetails:
				return keepDetailsPlayers(t, b, 0, 7)
			case fInit:
				p := protocol.Get(26490)
				b = append([]byte{}, b...)
				for slot := 1; slot <= 6; slot++ {
					pos, bits := lobbyBit(t, p, b, "m_syncLobbyState", "m_lobbyState", "m_slots", slot, "m_control")
					zeroBits(b, pos, bits)
				}
			}
			return b
		})
	d, err := decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.r.Players) != 2 || d.r.Players[1].Name != "A.I. 7 (Medium)" {
		t.Fatalf("players %v", d.r.Players)
	}
	st := d.r.Analysis().Stats.Native.(*Stats)
	for _, w := range []struct {
		p     int
		build refBuild
	}{
		{0, refBuild{n: 81, sha: "05d4b3becea4b68d", first: []refItem{{317, "Drone"}, {724, "Drone"}, {769, "Drone"}, {885, "Extractor"}}}},
		{1, refBuild{n: 100, sha: "24ecd6a32e663b76", first: []refItem{{308, "SCV"}, {579, "SCV"}, {850, "SCV"}, {955, "SupplyDepot"}}}},
	} {
		checkBuild(t, "ai-seated-late "+st.Players[w.p].Name, st.Players[w.p].BuildOrder, &w.build)
	}
	if w := st.Players[1].Workers; w == nil || w.AtEnd == 0 {
		t.Errorf("the A.I. has no workers: %+v", w)
	}
}

// TestHandMadeClanTagInName: early Heart of the Swarm clients (2.0.0 to
// 2.0.3) wrote a player's clan tag into the details name without a space
// ("[FC]Nordis"), in details without working-set slots, while the lobby
// names the user without it: the user was tied to no player, whose game
// events then counted for no one (APM 0). Made from the corpus's
// Newkirk City game (2.0.0, details without working-set slots) by writing
// its second player's details name "[FC]Zoulas". sc2reader 1.8.0 on the
// hand-made file:
//
//	PYTHONPATH=sc2reader:mpyq python3 -c 'import sc2reader; from sc2reader.engine.plugins import APMTracker;
//	  sc2reader.engine.register_plugin(APMTracker()); r = sc2reader.load_replay("clan-tag-in-name.SC2Replay", load_level=4);
//	  print([(p.name, p.avg_apm) for p in r.players])'
//
// gives [('prOkilleR', 111.88085106383002), ('Zoulas', 68.62978723404225)].
func TestHandMadeClanTagInName(t *testing.T) {
	data := handmade(t, "ggtracker__sc2reader/test_replays__2.0.3.24764__Newkirk City.SC2Replay", "clan-tag-in-name.SC2Replay",
		func(n string, b []byte) []byte {
			if n != fDetails {
				return b
			}
			v, err := versioned.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			pl, _ := v.Get(0)
			if pl.Kind == versioned.Optional {
				pl = &pl.Items[0]
			}
			name, _ := pl.Items[1].Get(0)
			if string(name.Bytes) != "Zoulas" {
				t.Fatalf("player 2 is %q", name.Bytes)
			}
			return splice(b, name, vBlob("[FC]Zoulas"))
		})
	checkAPM(t, "clan-tag-in-name", data, []refPlayer{
		{name: "prOkilleR", apm: ptr(111.88085106383002)},
		{name: "Zoulas", apm: ptr(68.62978723404225)},
	})
}

// TestHandMadeAnonymized: an anonymized replay keeps only the backups of
// the lobby and the details (replay.initData.backup, replay.details.backup,
// whose players have empty names) with the game events, the attributes,
// the game's metadata and the load info; the lobby was not read from the
// backup, so no user was tied to a player and every player's APM was 0.
// Made from the corpus's 4.3.0 ladder game Calm vs Aggression by leaving
// out every other member (replay.details, replay.initData, the tracker and
// message events among them). sc2reader 1.8.0 on the hand-made file (the
// command of TestHandMadeClanTagInName) gives [(”, 386.6516853932584),
// (”, 193.0427807486634)].
func TestHandMadeAnonymized(t *testing.T) {
	keep := map[string]bool{fAttributes: true, fBackup: true, fGame: true, fInitBackup: true,
		"replay.gamemetadata.json": true, "replay.load.info": true}
	data := handmade(t, "Blizzard__s2protocol/tests__s2replaystatsdata__2018-12-01_P_Calm_VS_T_Aggression.SC2Replay", "anonymized.SC2Replay",
		func(n string, b []byte) []byte {
			if !keep[n] {
				return nil
			}
			return b
		})
	checkAPM(t, "anonymized", data, []refPlayer{
		{name: "", apm: ptr(386.6516853932584)},
		{name: "", apm: ptr(193.0427807486634)},
	})
}

// checkAPM holds a replay's players, in order, to sc2reader's names and
// APMs.
func checkAPM(t *testing.T, what string, data []byte, want []refPlayer) {
	t.Helper()
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st := r.Analysis().Stats.Native.(*Stats)
	if len(st.Players) != len(want) {
		t.Fatalf("%s: %d players, sc2reader %d", what, len(st.Players), len(want))
	}
	for i, w := range want {
		got := st.Players[i]
		if got.Name != w.name {
			t.Errorf("%s P%d: name %q, sc2reader %q", what, i+1, got.Name, w.name)
		}
		if got.APM == nil || math.Abs(*got.APM-*w.apm) > 1e-9*math.Max(1, *w.apm) {
			t.Errorf("%s %s: APM %s, sc2reader %v", what, w.name, fmtPtr(got.APM), *w.apm)
		}
	}
}

// trackerEvent is one event of a tracker stream as it lies: its loop and
// its bytes after the loop delta (the event id and body).
type trackerEvent struct {
	loop int64
	id   int64
	rest []byte
}

// trackerEvents splits a tracker stream into its events.
func trackerEvents(t *testing.T, b []byte) []trackerEvent {
	t.Helper()
	var out []trackerEvent
	dec := versioned.NewDecoder(b)
	loop := int64(0)
	for !dec.Done() {
		delta, err := dec.Value()
		if err != nil {
			t.Fatal(err)
		}
		start := dec.Pos()
		id, err := dec.Value()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dec.Value(); err != nil {
			t.Fatal(err)
		}
		loop += delta.Items[0].Int
		out = append(out, trackerEvent{loop: loop, id: id.Int, rest: b[start:dec.Pos()]})
	}
	return out
}

// loopDelta is a tracker event's loop delta: a choice of a 6, 14, 22 or
// 32-bit count, as the game writes it.
func loopDelta(n int64) []byte {
	tag := int64(3)
	for i, bits := range []uint{6, 14, 22} {
		if n < 1<<bits {
			tag = int64(i)
			break
		}
	}
	return vChoice(tag, vInt(n))
}

// TestHandMadeTrackerLoopWraps: a 2.1.3 client wrote its PlayerSetup
// events late in the tracker stream, after the events of loop 3040, with a
// loop delta of 2^32 - 3040: the game counts loops in 32 bits, the sum
// wraps to loop 0, and the next event's delta brings it back to the loop
// it is at. rewind stopped reading there ("game loop 4294967296 out of
// range"), and the build orders lacked all that came after. Made from the
// corpus's 2.1.9 3v3 game (icza/mpq's public.SC2Replay, whose PlayerSetup
// events open its tracker stream at loop 0) by moving those events after
// the last event of loop 3040 in the same way. sc2reader 1.8.0 reads the
// hand-made file's tracker events through the wrap (its frame is the sum
// modulo 2^32); its build orders, by the rule of TestSc2readerValues:
//
//	PYTHONPATH=sc2reader:mpyq python3 build.py loop-wraps.SC2Replay (load_level=3, engine=None)
//
// are those of the original file.
func TestHandMadeTrackerLoopWraps(t *testing.T) {
	const at = 3040
	data := handmade(t, "icza__mpq/reps__public.SC2Replay", "loop-wraps.SC2Replay",
		func(n string, b []byte) []byte {
			if n != fTracker {
				return b
			}
			evs := trackerEvents(t, b)
			var setups, rest []trackerEvent
			for _, e := range evs {
				if e.id == tPlayerSetup && e.loop == 0 {
					setups = append(setups, e)
				} else {
					rest = append(rest, e)
				}
			}
			if len(setups) == 0 {
				t.Fatal("no PlayerSetup events at loop 0")
			}
			var out []byte
			loop := int64(0)
			put := func(delta int64, e trackerEvent) {
				out = append(append(out, loopDelta(delta)...), e.rest...)
			}
			moved := false
			for i, e := range rest {
				put(e.loop-loop, e)
				loop = e.loop
				if !moved && e.loop <= at && (i+1 == len(rest) || rest[i+1].loop > at) {
					put(1<<32-loop, setups[0])
					for _, s := range setups[1:] {
						put(0, s)
					}
					loop, moved = 0, true
				}
			}
			return out
		})
	d, err := decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, dg := range d.r.Diagnostics {
		if dg.Severity >= model.Warning {
			t.Errorf("%v", dg)
		}
	}
	st := d.r.Analysis().Stats.Native.(*Stats)
	for i, w := range []struct {
		name  string
		build refBuild
	}{
		{name: "Karen", build: refBuild{n: 96, sha: "7aa1a7c81edc46f0", first: []refItem{{316, "SCV"}, {721, "SCV"}, {992, "SCV"}, {1008, "SupplyDepot"}}}},
		{name: "ETHO", build: refBuild{n: 26, sha: "df30fa8e2d86c0bc", first: []refItem{{402, "Probe"}, {673, "Probe"}, {944, "Probe"}, {967, "Pylon"}}}},
		{name: "DakotaFannin", build: refBuild{n: 300, sha: "8ab58e304296d2e1", first: []refItem{{305, "Drone"}, {534, "Drone"}, {753, "Drone"}, {900, "Drone"}}}},
		{name: "Sasha", build: refBuild{n: 125, sha: "7f9acac43a62205e", first: []refItem{{329, "Probe"}, {600, "Probe"}, {871, "Probe"}, {1019, "Pylon"}}}},
		{name: "inquisition", build: refBuild{n: 185, sha: "bf56b3534b1c73f2", first: []refItem{{535, "Probe"}, {806, "Probe"}, {948, "Pylon"}, {1077, "Probe"}}}},
		{name: "frainhat", build: refBuild{n: 133, sha: "411cb1f03e0aa438", first: []refItem{{317, "SCV"}, {588, "SCV"}, {979, "SCV"}, {1170, "SupplyDepot"}}}},
	} {
		if st.Players[i].Name != w.name {
			t.Fatalf("P%d is %s, sc2reader's player %d %s", i+1, st.Players[i].Name, i+1, w.name)
		}
		checkBuild(t, "loop-wraps "+w.name, st.Players[i].BuildOrder, &w.build)
	}
}
