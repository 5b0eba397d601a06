package sc2

import (
	"strings"
	"testing"
	"time"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/sc2/mpq"
	"rewind/model"
)

// A small versioned encoder for hand-built streams.

func vint(n int64) []byte {
	neg := n < 0
	u := uint64(n)
	if neg {
		u = uint64(-n)
	}
	b := byte(u&0x3f) << 1
	if neg {
		b |= 1
	}
	u >>= 6
	var out []byte
	for {
		if u != 0 {
			b |= 0x80
		}
		out = append(out, b)
		if u == 0 {
			return out
		}
		b = byte(u & 0x7f)
		u >>= 7
	}
}

type kv struct {
	tag int64
	val []byte
}

func vInt(n int64) []byte   { return append([]byte{9}, vint(n)...) }
func vBlob(s string) []byte { return append(append([]byte{2}, vint(int64(len(s)))...), s...) }
func vOpt(v []byte) []byte {
	if v == nil {
		return []byte{4, 0}
	}
	return append([]byte{4, 1}, v...)
}
func vChoice(tag int64, v []byte) []byte {
	return append(append([]byte{3}, vint(tag)...), v...)
}
func vArr(items ...[]byte) []byte {
	out := append([]byte{0}, vint(int64(len(items)))...)
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}
func vStruct(fields ...kv) []byte {
	out := append([]byte{5}, vint(int64(len(fields)))...)
	for _, f := range fields {
		out = append(append(out, vint(f.tag)...), f.val...)
	}
	return out
}

// bitWriter is the inverse of bitpack.Reader.
type bitWriter struct {
	out  []byte
	used uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	for n > 0 {
		if w.used == 0 || w.used == 8 {
			w.out = append(w.out, 0)
			w.used = 0
		}
		c := 8 - w.used
		if c > n {
			c = n
		}
		chunk := (v >> (n - c)) & (1<<c - 1)
		w.out[len(w.out)-1] |= byte(chunk << w.used)
		w.used += c
		n -= c
	}
}
func (w *bitWriter) align() { w.used = 0 }
func (w *bitWriter) bytes(b []byte) {
	w.align()
	w.out = append(w.out, b...)
}

func attrRecord(id uint32, scope byte, val string) []byte {
	b := []byte{0xe7, 0x03, 0, 0, byte(id), byte(id >> 8), byte(id >> 16), byte(id >> 24), scope}
	v := []byte(val + "\x00\x00\x00\x00")[:4]
	for i := 3; i >= 0; i-- {
		b = append(b, v[i])
	}
	return b
}

type tev struct {
	delta int64
	id    int64
	body  []byte
}

func trackerStream(evs []tev) []byte {
	var out []byte
	for _, e := range evs {
		out = append(out, vChoice(0, vInt(e.delta))...)
		out = append(out, vInt(e.id)...)
		out = append(out, e.body...)
	}
	return out
}

func player(name, race string, team, result int64, id int64) []byte {
	return vStruct(
		kv{0, vBlob(name)},
		kv{1, vStruct(kv{0, vInt(2)}, kv{1, []byte{7, 0, 0, 'S', '2'}}, kv{2, vInt(1)}, kv{4, vInt(id)})},
		kv{2, vBlob(race)},
		kv{3, vStruct(kv{0, vInt(255)}, kv{1, vInt(180)}, kv{2, vInt(20)}, kv{3, vInt(30)})},
		kv{4, vInt(2)}, kv{5, vInt(team)}, kv{6, vInt(100)}, kv{7, vInt(0)}, kv{8, vInt(result)},
		kv{9, vOpt(vInt(team))},
	)
}

// synthReplay builds a replay of 100 loops with one event of every
// tracker type, a chat line and a ping.
func synthReplay(tracker []byte) []byte {
	header := vStruct(
		kv{0, vBlob("StarCraft II replay\x1b11")},
		kv{1, vStruct(kv{0, vInt(1)}, kv{1, vInt(5)}, kv{2, vInt(0)}, kv{3, vInt(10)}, kv{4, vInt(88500)}, kv{5, vInt(88500)})},
		kv{2, vInt(2)}, kv{3, vInt(100)}, kv{4, vInt(1)},
	)
	// 2020-01-02 03:04:05 UTC as a FILETIME
	ft := (time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC).Unix())*10000000 + 116444736000000000
	details := vStruct(
		kv{0, vOpt(vArr(player("&lt;ABC&gt;<sp/>Alice", "Protoss", 0, 1, 111), player("Bob", "Zerg", 1, 2, 222)))},
		kv{1, vBlob("Test Map LE")},
		kv{5, vInt(ft)}, kv{6, vInt(36000000000)},
		kv{12, vInt(4)},
	)
	var w bitWriter
	// chat at loop 30 from user 0 to allies
	w.bits(0, 2)
	w.bits(30, 6)
	w.bits(0, 5)
	w.bits(0, 4)
	w.bits(1, 3)
	w.bits(5, 11)
	w.bytes([]byte("gl hf"))
	w.align()
	// ping at loop 35 from user 1 to all at (4096, 8192)
	w.bits(0, 2)
	w.bits(5, 6)
	w.bits(1, 5)
	w.bits(1, 4)
	w.bits(0, 3)
	w.bits(4096+1<<31, 32)
	w.bits(8192+1<<31, 32)
	w.align()
	attrs := []byte{0, 0xe7, 0x03, 0, 0, 8, 0, 0, 0}
	attrs = append(attrs, attrRecord(3000, 16, "Fasr")...)
	attrs = append(attrs, attrRecord(2001, 16, "1v1")...)
	attrs = append(attrs, attrRecord(3009, 16, "Amm")...)
	attrs = append(attrs, attrRecord(500, 1, "Humn")...)
	attrs = append(attrs, attrRecord(500, 2, "Humn")...)
	attrs = append(attrs, attrRecord(2002, 1, "T1")...)
	attrs = append(attrs, attrRecord(2002, 2, "T2")...)
	attrs = append(attrs, attrRecord(3001, 2, "Zerg")...)
	return mpq.Write(header, 3, []mpq.Member{
		{Name: fAttributes, Data: attrs, Stored: true},
		{Name: fDetails, Data: details, Stored: true},
		{Name: fMessages, Data: w.out, Stored: true},
		{Name: fTracker, Data: tracker},
	})
}

func synthTracker() []byte {
	return trackerStream([]tev{
		{0, tPlayerSetup, vStruct(kv{0, vInt(1)}, kv{1, vInt(1)}, kv{2, vOpt(vInt(0))}, kv{3, vOpt(vInt(0))})},
		{0, tPlayerSetup, vStruct(kv{0, vInt(2)}, kv{1, vInt(1)}, kv{2, vOpt(vInt(1))}, kv{3, vOpt(vInt(1))})},
		{0, tUnitBorn, vStruct(kv{0, vInt(10)}, kv{1, vInt(1)}, kv{2, vBlob("Probe")}, kv{3, vInt(1)}, kv{4, vInt(1)}, kv{5, vInt(20)}, kv{6, vInt(30)})},
		{0, tUnitBorn, vStruct(kv{0, vInt(11)}, kv{1, vInt(1)}, kv{2, vBlob("Drone")}, kv{3, vInt(2)}, kv{4, vInt(2)}, kv{5, vInt(100)}, kv{6, vInt(100)})},
		{0, tUnitBorn, vStruct(kv{0, vInt(12)}, kv{1, vInt(1)}, kv{2, vBlob("MineralField")}, kv{3, vInt(0)}, kv{4, vInt(0)}, kv{5, vInt(50)}, kv{6, vInt(50)})},
		{10, tPlayerStats, vStruct(kv{0, vInt(1)}, kv{1, vStruct(kv{0, vInt(50)}, kv{4, vInt(12)}, kv{11, vInt(100)}, kv{14, vInt(50)}, kv{29, vInt(12 * 4096)}, kv{30, vInt(15 * 4096)})})},
		{10, tUnitInit, vStruct(kv{0, vInt(13)}, kv{1, vInt(1)}, kv{2, vBlob("Pylon")}, kv{3, vInt(1)}, kv{4, vInt(1)}, kv{5, vInt(22)}, kv{6, vInt(32)})},
		{20, tUnitDone, vStruct(kv{0, vInt(13)}, kv{1, vInt(1)})},
		{10, tUnitTypeChange, vStruct(kv{0, vInt(11)}, kv{1, vInt(1)}, kv{2, vBlob("DroneBurrowed")})},
		{10, tUnitOwnerChange, vStruct(kv{0, vInt(10)}, kv{1, vInt(1)}, kv{2, vInt(2)}, kv{3, vInt(2)})},
		{10, tUpgrade, vStruct(kv{0, vInt(1)}, kv{1, vBlob("WarpGateResearch")}, kv{2, vInt(1)})},
		{10, tUnitPositions, vStruct(kv{0, vInt(10)}, kv{1, vArr(vInt(0), vInt(24), vInt(34))})},
		{10, tUnitDied, vStruct(kv{0, vInt(10)}, kv{1, vInt(1)}, kv{2, vOpt(vInt(1))}, kv{3, vInt(24)}, kv{4, vInt(34)}, kv{5, vOpt(nil)}, kv{6, vOpt(nil)})},
	})
}

func unitsAlive(r *model.Replay, frame, p int) map[string]int64 {
	st := r.PlayerState(frame, p)
	f, _ := model.Find(st.Fields, "unitsAlive")
	m := map[string]int64{}
	for _, u := range f.Fields {
		m[u.Key] = u.Value.(int64)
	}
	return m
}

func TestSynthetic(t *testing.T) {
	r, err := Decode(synthReplay(synthTracker()), model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Partial || r.Problems() > 0 {
		t.Fatalf("partial %v: %v", r.Partial, r.Diagnostics)
	}
	if r.Version != "5.0.10.88500" || r.Title != "Test Map LE" || r.Timeline.Count != 101 {
		t.Errorf("version %q title %q count %d", r.Version, r.Title, r.Timeline.Count)
	}
	if !r.Start.Equal(time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("start %v", r.Start)
	}
	if r.Mode != "1v1 Faster ladder" || r.Result != "Win: Alice" {
		t.Errorf("mode %q result %q", r.Mode, r.Result)
	}
	loops := 100.0
	if want := time.Duration(loops / 22.4 * float64(time.Second)); r.Duration != want {
		t.Errorf("duration %v want %v", r.Duration, want)
	}
	a, b := r.Players[0], r.Players[1]
	if a.Name != "Alice" || a.Code != "2-S2-1-111" || a.Character != "Protoss" || a.Team != "team 1" || a.Result != "Win" {
		t.Errorf("player 1 %+v", a)
	}
	if c, _ := model.Find(a.Fields, "clanTag"); c.Value != "ABC" {
		t.Errorf("clan %v", c.Value)
	}
	if b.Name != "Bob" || b.Team != "team 2" || b.Result != "Loss" {
		t.Errorf("player 2 %+v", b)
	}
	kinds := map[string]int{}
	for i := range r.Events {
		kinds[r.EventKind(i)]++
	}
	for k, n := range map[string]int{"setup": 2, "born": 3, "stats": 1, "init": 1, "done": 1, "type": 1, "owner": 1,
		"upgrade": 1, "positions": 1, "died": 1, "chat": 1, "ping": 1, "end": 1} {
		if kinds[k] != n {
			t.Errorf("%d %s events, want %d (%v)", kinds[k], k, n, kinds)
		}
	}
	// loops: born 0, stats 10, init 20, done 40, type 50, owner 60,
	// upgrade 70, positions 80, died 90
	for _, c := range []struct {
		frame, p int
		want     map[string]int64
	}{
		{0, 0, map[string]int64{"Probe": 1}},
		{25, 0, map[string]int64{"Probe": 1, "Pylon": 1}},
		{49, 1, map[string]int64{"Drone": 1}},
		{55, 1, map[string]int64{"DroneBurrowed": 1}},
		{65, 0, map[string]int64{"Pylon": 1}},
		{65, 1, map[string]int64{"DroneBurrowed": 1, "Probe": 1}},
		{95, 1, map[string]int64{"DroneBurrowed": 1}},
		{100, 0, map[string]int64{"Pylon": 1}},
	} {
		got := unitsAlive(r, c.frame, c.p)
		if len(got) != len(c.want) {
			t.Errorf("loop %d player %d: %v, want %v", c.frame, c.p, got, c.want)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("loop %d player %d: %v, want %v", c.frame, c.p, got, c.want)
			}
		}
	}
	// before the first record (loop 10, within the first game second) its
	// values show: the game's starting state, not zeros
	if st := r.PlayerState(0, 0); st.Brief[0].Value != int64(50) {
		t.Errorf("minerals before the first stats: %v", st.Brief[0].Value)
	}
	st := r.PlayerState(10, 0)
	if m, _ := model.Find(st.Brief, "minerals"); m.Value != int64(50) {
		t.Errorf("minerals %v", m.Value)
	}
	if s, _ := model.Find(st.Brief, "supply"); s.Value != "12/15" {
		t.Errorf("supply %v (food is fixed point /4096)", s.Value)
	}
	if a, _ := model.Find(st.Brief, "army"); a.Value != int64(150) {
		t.Errorf("army %v", a.Value)
	}
	sc := r.SceneAt(85)
	found := false
	for _, p := range sc[0].Points {
		if p.Label == "Probe" && p.X == 24 && p.Y == 34 && p.Player == 1 {
			found = true
		}
		if p.Label == "MineralField" {
			t.Error("neutral units drawn")
		}
	}
	if !found {
		t.Errorf("probe not at its UnitPositions place: %+v", sc[0].Points)
	}
	for i, e := range r.Events {
		switch r.EventKind(i) {
		case "chat":
			s := r.EventSummary(i)
			if e.Frame != 30 || e.Player != 0 || !strings.Contains(s, "gl hf") || !strings.Contains(s, "[allies]") {
				t.Errorf("chat at %d by %d: %q", e.Frame, e.Player, s)
			}
		case "ping":
			if e.Frame != 35 || e.Player != 1 {
				t.Errorf("ping at %d by %d", e.Frame, e.Player)
			}
		case "born":
			fs := r.EventFields(i)
			if tag, _ := model.Find(fs, "unitTag"); e.Frame == 0 && tag.Value == nil {
				t.Error("no unit tag")
			}
			if r.EventSpan(i).Stream != fTracker || e.Len == 0 {
				t.Errorf("span %+v", r.EventSpan(i))
			}
		case "died":
			if s := r.EventSummary(i); !strings.Contains(s, "Probe") {
				t.Errorf("died summary %q", s)
			}
		}
	}
	// m_useScaledTime: the client showed real time, loops / 22.4 on Faster
	if r.Timeline.Label(5) != "0:00.22" || r.Timeline.Time(224) != 10*time.Second || r.Timeline.Number(5) != 5 {
		t.Errorf("label %q time %v", r.Timeline.Label(5), r.Timeline.Time(224))
	}
}

// TestCorruptTracker keeps the events before a bad byte and says where it is.
func TestCorruptTracker(t *testing.T) {
	tr := synthTracker()
	bad := len(tr)
	tr = append(tr, vChoice(0, vInt(1))...)
	tr = append(tr, vInt(1)...)
	tr = append(tr, 0x0f) // no such tag
	r, err := Decode(synthReplay(tr), model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial {
		t.Error("not partial")
	}
	var d *model.Diagnostic
	for i := range r.Diagnostics {
		if r.Diagnostics[i].Span.Stream == fTracker {
			d = &r.Diagnostics[i]
		}
	}
	if d == nil || d.Span.Off != int64(bad+len(vChoice(0, vInt(1)))+len(vInt(1))) {
		t.Fatalf("diagnostic %+v, want one at the bad tag", d)
	}
	n := 0
	for i := range r.Events {
		if r.EventSpan(i).Stream == fTracker {
			n++
		}
	}
	if n != 13 {
		t.Errorf("%d tracker events kept, want 13", n)
	}
}

// TestTrackerTruncation cuts the tracker stream at every offset: the
// events before the cut stay, and a cut inside an event is reported with
// an offset in the stream.
func TestTrackerTruncation(t *testing.T) {
	full := synthTracker()
	for n := 0; n < len(full); n++ {
		r, err := Decode(synthReplay(full[:n]), model.DecodeOptions{})
		if err != nil {
			t.Fatalf("cut at %d: %v", n, err)
		}
		var d *model.Diagnostic
		for i := range r.Diagnostics {
			if r.Diagnostics[i].Span.Stream == fTracker && r.Diagnostics[i].Severity == model.Error {
				d = &r.Diagnostics[i]
			}
		}
		if d != nil && (d.Span.Off < 0 || d.Span.Off > int64(n)) {
			t.Errorf("cut at %d: diagnostic at %d", n, d.Span.Off)
		}
		if d == nil && r.Partial {
			t.Errorf("cut at %d: partial without a tracker diagnostic", n)
		}
	}
}

// TestSampleGameEvents checks the 5.0.15 sample's game events: decoded to
// the end of the stream, commands present, both players leave at the end.
func TestSampleGameEvents(t *testing.T) {
	r := decodeFile(t, corpus.Samples(t, "sc2")+"/lotv-5.0.15-winter-madness.SC2Replay")
	kinds := map[string]int{}
	for i, e := range r.Events {
		kinds[r.EventKind(i)]++
		if r.EventKind(i) == "leave" && e.Flags&model.Notable == 0 {
			t.Error("leave not notable")
		}
	}
	if kinds["cmd"] == 0 || kinds["select"] == 0 || kinds["camera"] == 0 || kinds["leave"] == 0 {
		t.Errorf("game event kinds %v", kinds)
	}
	for _, d := range r.Diagnostics {
		if d.Span.Stream == fGame && d.Severity >= model.Warning {
			t.Errorf("game events: %v", d)
		}
	}
	for i, e := range r.Events {
		if r.EventKind(i) == "cmd" {
			// a command reads as its player and the command's name
			if s := r.EventSummary(i); !strings.HasPrefix(s, r.Players[e.Player].Name+": ") || strings.Contains(s, "ability") {
				t.Errorf("summary %q", s)
			}
			if fs := r.EventFields(i); len(fs) < 4 {
				t.Errorf("fields %v", fs)
			}
			break
		}
	}
}

// FuzzBitPacked feeds arbitrary bytes to the bit-packed stream decoders of
// a few builds' tables: no panic, and every diagnostic points inside the
// stream it names; a stream that stops reading says where with an error.
func FuzzBitPacked(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0x02, 0x00, 'h', 'i', 0xff, 0x13})
	w := &bitWriter{}
	gameHead(w, 0, 1, 49)
	w.bits(100*256, 16)
	w.bits(50*256, 16)
	w.bits(0, 3)
	f.Add(w.out)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, c := range []struct {
			base int
			exp  string
		}{{16939, "WoL"}, {24944, "HotS"}, {97364, "LotV"}} {
			d := testDecoder(c.base, c.exp)
			var diags []model.Diagnostic
			d.decodeInit(b, &diags)
			d.decodeGame(b, &diags)
			d.decodeMessages(b, &diags)
			for _, dg := range diags {
				if dg.Span.Stream == "" || dg.Span.Off < 0 || dg.Span.Off > int64(len(b)) {
					t.Fatalf("%d: diagnostic outside the stream of %d bytes: %v", c.base, len(b), dg)
				}
			}
			if d.game != nil {
				if d.game.table.p == nil {
					t.Fatal("game stream without a table")
				}
				for i := range d.game.events {
					if i > 50 {
						break
					}
					e := &d.game.events[i]
					if e.off < 0 || e.end > int32(len(b)) || e.off >= e.end {
						t.Fatalf("event %d at %d-%d of %d bytes", i, e.off, e.end, len(b))
					}
					d.game.summary(d, e)
					d.game.detail(d, e)
				}
			}
			if d.msgs != nil {
				for i := range d.msgs.events {
					d.msgSummary(&d.msgs.events[i])
					msgFields(&d.msgs.events[i])
				}
			}
		}
	})
}

// TestTrackerPastTheEnd: tracker events after the header's last loop are
// kept, shown at the last frame, and reported (not silently clamped).
func TestTrackerPastTheEnd(t *testing.T) {
	tr := synthTracker()
	tr = append(tr, trackerStream([]tev{{60, tUpgrade, vStruct(kv{0, vInt(1)}, kv{1, vBlob("Late")}, kv{2, vInt(1)})}})...)
	r, err := Decode(synthReplay(tr), model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var d *model.Diagnostic
	for i := range r.Diagnostics {
		if r.Diagnostics[i].Span.Stream == fTracker && r.Diagnostics[i].Severity == model.Warning {
			d = &r.Diagnostics[i]
		}
	}
	// the synthetic tracker ends at loop 90; 90 + 60 is past the header's 100
	if d == nil || d.Found != "loop 150" || !strings.Contains(d.Expected, "up to 100") || d.Frame != 100 {
		t.Fatalf("diagnostic %+v", d)
	}
	last := -1
	for i := range r.Events {
		if r.EventKind(i) == "upgrade" && strings.Contains(r.EventSummary(i), "Late") {
			last = i
		}
	}
	if last < 0 || r.Events[last].Frame != 100 {
		t.Fatalf("late event not kept at the last frame")
	}
	if f, _ := model.Find(r.EventFields(last), "gameloop"); f.Value != int64(150) {
		t.Errorf("late event's loop %v, want 150", f.Value)
	}
}
