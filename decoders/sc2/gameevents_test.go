package sc2

import (
	"strings"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/decoders/sc2/bitpack"
	"rewind/decoders/sc2/names"
	"rewind/decoders/sc2/protocol"
	"rewind/model"
)

// testDecoder is a decoder of a replay of the base build with two players,
// for feeding it hand-built streams.
func testDecoder(base int, expansion string) *decoder {
	d := &decoder{userToPl: map[int]int{}, slotToPl: map[int]int{}, initStream: fInit, r: &model.Replay{Streams: map[string][]byte{}},
		b: budget.New(1<<20, model.Limits{}), baseBuild: base, names: names.Pick(expansion, base)}
	for _, n := range []string{"firebat", "Stardust"} {
		d.players = append(d.players, playerInfo{name: n})
		d.r.Players = append(d.r.Players, model.Player{Name: n})
	}
	return d
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

// buildSupplyDepot writes a 17326 Cmd: 17 bits of flags, ability 114
// (TerranBuild) command 1 (BuildSupplyDepot), a target point (x, y in
// 1/4096 of a cell, z 0 with the -2^31 offset), no other unit.
func buildSupplyDepot(w *bitWriter, delta, user, x, y uint64) {
	gameHead(w, delta, user, 27)
	w.bits(0, 17)
	w.bits(1, 1)
	w.bits(114, 16)
	w.bits(1, 5)
	w.bits(0, 1)
	w.bits(1, 2)
	w.bits(x, 20)
	w.bits(y, 20)
	w.bits(1<<31, 32)
	w.bits(0, 1)
}

// TestWoLGameEventsHandBuilt builds a 17326 stream (camera, a command with
// a target point, a control group recall, leave) from the layout of
// protocol17326.py and checks the events, loops and readable summaries,
// with the ability named from WoL/17326_abilities.csv (114 TerranBuild,
// whose command 1 is BuildSupplyDepot in ability_lookup.csv).
func TestWoLGameEventsHandBuilt(t *testing.T) {
	w := &bitWriter{}
	gameHead(w, 0, 1, 49) // CameraUpdate: x, y 16 bits in 1/256; three absent optionals
	w.bits(100*256, 16)
	w.bits(50*256, 16)
	w.bits(0, 3)
	buildSupplyDepot(w, 16, 2, 52*4096+2048, 31*4096)
	gameHead(w, 100, 1, 29) // ControlGroupUpdate: group 3, recall, no mask
	w.bits(3, 4)
	w.bits(2, 2)
	w.bits(0, 2)
	gameHead(w, 0, 1, 25) // PlayerLeave: empty body
	b := w.out

	d := testDecoder(17326, "WoL")
	var diags []model.Diagnostic
	d.decodeGame(b, &diags)
	if len(diags) != 0 || d.game == nil {
		t.Fatalf("diagnostics %v", diags)
	}
	if d.game.table.p.Base != 17326 {
		t.Errorf("read with the table of %d", d.game.table.p.Base)
	}
	// WoL game events count senders by occupied lobby slot from 1
	d.occupiedToPl = map[int]int{1: 0, 2: 1}
	want := []struct {
		loop    int32
		summary string
	}{
		{0, "firebat: camera to (100.0, 50.0)"},
		{16, "Stardust: Build Supply Depot at (52.5, 31.0)"},
		{116, "firebat: recall group 3"},
		{116, "firebat: leaves"},
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
	d2 := testDecoder(17326, "WoL")
	var diags2 []model.Diagnostic
	d2.decodeGame(b[:8], &diags2)
	if d2.game == nil || len(d2.game.events) != 1 || len(diags2) != 1 || diags2[0].Span.Stream != fGame ||
		diags2[0].Span.Off < 3 || diags2[0].Span.Off > 8 || diags2[0].Severity != model.Error {
		t.Errorf("cut stream: %v events, diagnostics %v", d2.game, diags2)
	}
}

// TestLayoutDifferences checks by hand-built bytes what tells the WoL
// tables apart (protocol16939.py, protocol17326.py, protocol18574.py):
// 16939's event 11 is the user options, 17326's a bank signature; 18574
// reads 18 command-flag bits where 17326 reads 17.
func TestLayoutDifferences(t *testing.T) {
	if protocol.Get(16939).Game[11].Name != "UserOptions" || protocol.Get(17326).Game[11].Name != "BankSignature" {
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
		base int
		bits uint
	}{{16939, 17}, {17326, 17}, {18574, 18}, {19132, 18}, {19679, 18}} {
		et := gameTable(protocol.Get(c.base))
		if _, err := et.readEvents(cmd(c.bits), nil); err != nil {
			t.Errorf("%d: command with %d flag bits does not read: %v", c.base, c.bits, err)
		}
	}
}

// TestNeighbourTable gives a build without a table of its own (24764) a
// stream written for 24944's: the nearest table that reads it is taken,
// and a note says so.
func TestNeighbourTable(t *testing.T) {
	w := &bitWriter{}
	gameHead(w, 3, 0, 5)  // UserFinishedLoadingSync, no body
	gameHead(w, 0, 1, 14) // CameraSave (26490's body, gen/patches.txt): which, then x and y
	w.bits(2, 3)
	w.bits(40*256, 16)
	w.bits(30*256, 16)
	d := testDecoder(24764, "HotS")
	var diags []model.Diagnostic
	d.decodeGame(w.out, &diags)
	if d.game == nil || d.game.table.p.Base != 24944 || len(d.game.events) != 2 {
		t.Fatalf("game %+v", d.game)
	}
	d.tableNote()
	if len(diags) != 0 || len(d.r.Diagnostics) != 1 || d.r.Diagnostics[0].Severity != model.Info ||
		!strings.Contains(d.r.Diagnostics[0].Message, "table of base build 24944") || d.r.Diagnostics[0].Subject != fGame {
		t.Errorf("diagnostics %v %v", diags, d.r.Diagnostics)
	}
	d.userToPl[1] = 1 // HotS game events name lobby users
	if s := d.game.summary(d, &d.game.events[1]); s != "Stardust: save camera 3 at (40.0, 30.0)" {
		t.Errorf("summary %q", s)
	}
}

// TestBitArrayIsOneValue reads a selection mask that starts in the middle
// of a byte: s2protocol reads a bit array as one number of its length,
// most significant bit first in the bit-packed order; index i is bit i of
// that number.
func TestBitArrayIsOneValue(t *testing.T) {
	tab := bitpack.Table{
		0: {Kind: bitpack.KInt, Bits: 3},
		1: {Kind: bitpack.KBitArray, Bits: 9},
		2: {Kind: bitpack.KStruct, Fields: []bitpack.Field{{Name: "pad", Type: 0}, {Name: "mask", Type: 1}}},
	}
	for _, c := range []struct {
		n     uint64
		value uint64
		want  []int
	}{
		{11, 0b100_0000_0101, []int{0, 2, 10}},
		{9, 0b1_0000_0001, []int{0, 8}},
		{16, 0x8001, []int{0, 15}},
		{3, 0b110, []int{1, 2}},
		{0, 0, nil},
	} {
		w := &bitWriter{}
		w.bits(5, 3)               // three bits before: the array starts mid-byte
		w.bits(c.n, 9)             // its length
		w.bits(c.value, uint(c.n)) // one value of n bits, as s2protocol reads it
		dec := bitpack.Decoder{Tab: tab}
		r := bitpack.New(w.out)
		v := dec.Read(r, 2)
		m, _ := v.Get("mask")
		if r.Err() != nil || m.Int != int64(c.n) {
			t.Fatalf("n %d: %v, length %d", c.n, r.Err(), m.Int)
		}
		got := m.Indices()
		if len(got) != len(c.want) {
			t.Errorf("n %d value %b: indices %v, want %v", c.n, c.value, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("n %d value %b: indices %v, want %v", c.n, c.value, got, c.want)
			}
		}
		if s := bitString(m); len(s) != int(c.n) {
			t.Errorf("bit string %q of %d bits", s, c.n)
		}
	}
}

// TestWoLPingInTheMap reads a Wings of Liberty ping: the recipient is 2
// bits (protocol16939.py), so the point that follows is where it was.
func TestWoLPingInTheMap(t *testing.T) {
	w := &bitWriter{}
	w.bits(0, 2)
	w.bits(10, 6)
	w.bits(1, 5) // user
	w.bits(1, 4) // ping
	w.bits(1, 2) // allies
	w.bits(uint64(139480+1<<31), 32)
	w.bits(uint64(40960+1<<31), 32)
	d := testDecoder(16939, "WoL")
	var diags []model.Diagnostic
	d.decodeMessages(w.out, &diags)
	if len(diags) != 0 || d.msgs == nil || len(d.msgs.events) != 1 {
		t.Fatalf("messages %+v, diagnostics %v", d.msgs, diags)
	}
	e := d.msgs.events[0]
	if e.recipient != 1 || e.x != 139480 || e.y != 40960 {
		t.Errorf("ping %+v, want allies at (139480, 40960)", e)
	}
	if s := d.msgSummary(&d.msgs.events[0]); s != "ping [allies] Stardust at (34.1, 10.0)" {
		t.Errorf("summary %q", s)
	}
}
