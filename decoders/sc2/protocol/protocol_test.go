package protocol

import (
	"testing"

	"rewind/decoders/sc2/bitpack"
)

// TestTablesParse builds every table of tables.txt: each parses, refers
// only to its own types, and has the roots and events every build has.
func TestTablesParse(t *testing.T) {
	if err := Err(); err != nil {
		t.Fatal(err)
	}
	bases := Bases()
	own := 0
	for _, b := range bases {
		if Get(b).Derived == 0 {
			own++
		}
	}
	if own != 91 || len(bases) != 98 || bases[0] != 15405 || bases[len(bases)-1] != 97425 {
		t.Fatalf("%d builds (%d Blizzard's) %v..., want the 91 of specs/sc2-protocols (15405-97425) and 7 derived", len(bases), own, bases[:3])
	}
	if Get(24247).Derived != 24944 || Get(39576).Derived != 51702 {
		t.Errorf("derived tables: 24247 from %d, 39576 from %d", Get(24247).Derived, Get(39576).Derived)
	}
	for _, b := range bases {
		p := Get(b)
		if p == nil {
			t.Fatalf("build %d: no protocol", b)
		}
		if p.Loop < 0 || p.GameID < 0 || p.MessageID < 0 || p.Init < 0 || p.Details < 0 || p.Header < 0 {
			t.Errorf("build %d: roots %+v", b, p)
		}
		if len(p.Game) < 27 || p.Game[27].Name != "Cmd" || len(p.Message) < 3 || p.Message[0].Name != "ChatMessage" {
			t.Errorf("build %d: %d game events (27 %v), %d message events", b, len(p.Game), p.Game[min(27, len(p.Game)-1)], len(p.Message))
		}
		// the loop delta is s2protocol's SVarUint32: a 2-bit choice of 6, 14, 22 or 32 bits
		lt := p.Types[p.Loop]
		if lt.Kind != bitpack.KChoice || lt.Bits != 2 || len(lt.Fields) != 4 {
			t.Errorf("build %d: loop type %+v", b, lt)
		}
		for i, w := range []uint{6, 14, 22, 32} {
			if f := p.Types[lt.Fields[i].Type]; f.Kind != bitpack.KInt || f.Bits != w {
				t.Errorf("build %d: loop alternative %d is %+v", b, i, f)
			}
		}
	}
	// Wings of Liberty tables have no user id type (5 bits are written);
	// tracker events start at 24944's table, which lacks them (README);
	// 26490 lists events 0-8 (player setup came later).
	if Get(15405).User != -1 || Get(23260).User != -1 || Get(24944).User < 0 {
		t.Error("user id types")
	}
	if len(Get(24944).Tracker) != 0 || len(Get(26490).Tracker) != 9 {
		t.Errorf("tracker events: 24944 %d, 26490 %d", len(Get(24944).Tracker), len(Get(26490).Tracker))
	}
	// the generator's patch: 24944 reads camera saves with 26490's body
	if e := Get(24944).Game[14]; e.Name != "CameraSave" || e.Type < 0 {
		t.Errorf("24944 event 14: %+v", e)
	}
}

// TestKnownTypes spot-checks types against protocol97364.py.
func TestKnownTypes(t *testing.T) {
	p := Get(97364)
	if p.Init != 73 || p.Details != 40 || p.Header != 18 || p.User != 8 {
		t.Errorf("roots init %d details %d header %d user %d, want 73 40 18 8", p.Init, p.Details, p.Header, p.User)
	}
	// #100: the command event's struct; #102 the 9-bit selection mask
	cmd := p.Types[100]
	if cmd.Kind != bitpack.KStruct || len(cmd.Fields) != 6 || cmd.Fields[1].Name != "m_abil" || cmd.Fields[1].Type != 93 {
		t.Errorf("type 100 %+v", cmd)
	}
	if m := p.Types[102]; m.Kind != bitpack.KBitArray || m.Bits != 9 {
		t.Errorf("type 102 %+v", m)
	}
	if c := p.Types[98]; c.Kind != bitpack.KChoice || c.Fields[2].Name != "TargetUnit" || c.Fields[2].Type != 97 {
		t.Errorf("type 98 %+v", c)
	}
	if e := p.Game[27]; e.Type != 100 {
		t.Errorf("event 27 %+v", e)
	}
}

func TestNearest(t *testing.T) {
	var got []int
	for p := range Nearest(24764) {
		got = append(got, p.Base)
		if len(got) == 3 {
			break
		}
	}
	if len(got) != 3 || got[0] != 24944 || got[1] != 24247 || got[2] != 23925 {
		t.Errorf("nearest to 24764: %v, want 24944 24247 23925", got)
	}
	for p := range Nearest(16939) {
		if p.Base != 16939 {
			t.Errorf("own table not first: %d", p.Base)
		}
		break
	}
}
