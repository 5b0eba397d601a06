package slippi

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"time"

	"rewind/model"
)

// A hand-built replay: the payload sizes and offsets below come from the
// spec's tables (slippi-slp.txt), not from real files.

type slp struct {
	version [3]byte
	sizes   map[byte]int // payload sizes (command byte excluded)
	order   []byte       // codes in Event Payloads order
	events  [][]byte
	rawZero bool   // write raw length 0
	meta    []byte // UBJSON metadata value; nil = none
}

func newSlp(major, minor, build byte) *slp {
	s := &slp{version: [3]byte{major, minor, build}, sizes: map[byte]int{}}
	// sizes as the version implies, from the spec's tables
	v := ver(int(major), int(minor), int(build))
	s.size(cmdStart, gameStartImplied(v)-1)
	s.size(cmdPre, implied(preDefs, v)-1)
	s.size(cmdPost, implied(postDefs, v)-1)
	s.size(cmdEnd, implied(gameEndDefs, v)-1)
	if v >= v220 {
		s.size(cmdFrame, implied(frameStartDefs, v)-1)
	}
	if v >= v300 {
		s.size(cmdItem, implied(itemDefs, v)-1)
		s.size(cmdBookend, implied(bookendDefs, v)-1)
	}
	return s
}

func (s *slp) size(code byte, n int) *slp {
	if _, ok := s.sizes[code]; !ok {
		s.order = append(s.order, code)
	}
	s.sizes[code] = n
	return s
}

// ev makes a zeroed event of the listed size for code.
func (s *slp) ev(code byte) []byte {
	b := make([]byte, 1+s.sizes[code])
	b[0] = code
	return b
}

func (s *slp) add(b []byte) *slp { s.events = append(s.events, b); return s }

func put32(b []byte, at int, v uint32) { binary.BigEndian.PutUint32(b[at:], v) }
func putF(b []byte, at int, f float32) { put32(b, at, math.Float32bits(f)) }

// start adds a Game Start with the given ports occupied by the external
// characters (-1 = empty), stage Battlefield.
func (s *slp) start(chars ...int) *slp {
	b := s.ev(cmdStart)
	copy(b[1:], s.version[:])
	binary.BigEndian.PutUint16(b[0x13:], 31)
	for port := 0; port < 4; port++ {
		c := -1
		if port < len(chars) {
			c = chars[port]
		}
		if c < 0 {
			b[0x66+0x24*port] = 3
		} else {
			b[0x65+0x24*port] = byte(c)
			b[0x67+0x24*port] = 4
		}
	}
	return s.add(b)
}

func (s *slp) pre(frame int32, port byte, follower bool, state uint16, x float32) []byte {
	b := s.ev(cmdPre)
	put32(b, 1, uint32(frame))
	b[5] = port
	if follower {
		b[6] = 1
	}
	binary.BigEndian.PutUint16(b[0xB:], state)
	putF(b, 0xD, x)
	return b
}

func (s *slp) post(frame int32, port byte, follower bool, char byte, stocks byte, pct float32) []byte {
	b := s.ev(cmdPost)
	put32(b, 1, uint32(frame))
	b[5] = port
	if follower {
		b[6] = 1
	}
	b[7] = char
	putF(b, 0x16, pct)
	b[0x21] = stocks
	return b
}

func (s *slp) frame(n int32) *slp {
	if _, ok := s.sizes[cmdFrame]; ok {
		b := s.ev(cmdFrame)
		put32(b, 1, uint32(n))
		s.add(b)
	}
	return s
}

func (s *slp) bookend(n int32) *slp {
	if _, ok := s.sizes[cmdBookend]; ok {
		b := s.ev(cmdBookend)
		put32(b, 1, uint32(n))
		if len(b) >= 9 {
			put32(b, 5, uint32(n))
		}
		s.add(b)
	}
	return s
}

func (s *slp) end(method byte) *slp {
	b := s.ev(cmdEnd)
	b[1] = method
	if len(b) > 2 {
		b[2] = 0xff
	}
	for i := 3; i < len(b); i++ {
		b[i] = 0xff
	}
	return s.add(b)
}

func (s *slp) bytes() []byte {
	var raw []byte
	raw = append(raw, cmdPayloads, byte(1+3*len(s.order)))
	for _, c := range s.order {
		raw = append(raw, c, byte(s.sizes[c]>>8), byte(s.sizes[c]))
	}
	for _, e := range s.events {
		raw = append(raw, e...)
	}
	out := append([]byte(nil), magic...)
	n := uint32(len(raw))
	if s.rawZero {
		n = 0
	}
	out = binary.BigEndian.AppendUint32(out, n)
	out = append(out, raw...)
	if s.meta != nil {
		out = append(out, metadataKey...)
		out = append(out, s.meta...)
	}
	return append(out, '}')
}

func decodeBytes(t *testing.T, b []byte) *model.Replay {
	t.Helper()
	r, err := Decode(b, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r.Data = b
	return r
}

// basic builds a two-player game of n frames from -123.
func basic(s *slp, n int) *slp {
	s.start(2, 9) // Fox, Marth
	for f := int32(-123); f < int32(-123+n); f++ {
		s.frame(f)
		s.add(s.pre(f, 0, false, 14, 1)).add(s.pre(f, 1, false, 14, 2))
		s.add(s.post(f, 0, false, 1, 4, 0)).add(s.post(f, 1, false, 18, 4, 0))
		s.bookend(f)
	}
	return s
}

func TestBytesMinimal(t *testing.T) {
	for _, v := range [][3]byte{{0, 1, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {3, 7, 0}, {3, 14, 0}, {3, 16, 0}, {3, 18, 0}} {
		s := basic(newSlp(v[0], v[1], v[2]), 3).end(2)
		r := decodeBytes(t, s.bytes())
		name := verString(ver(int(v[0]), int(v[1]), int(v[2])))
		eq(t, name+" version", r.Version, name)
		eq(t, name+" frames", r.Timeline.Count, 3)
		eq(t, name+" first", r.Timeline.First, int64(-123))
		eq(t, name+" players", len(r.Players), 2)
		eq(t, name+" P1", r.Players[0].Character, "Fox")
		eq(t, name+" title", r.Title, "Battlefield")
		if r.Problems() != 0 {
			t.Errorf("%s: %v", name, r.Diagnostics)
		}
		var covered int64
		for _, e := range r.Events {
			covered += e.Len
		}
		eq(t, name+" bytes covered", covered, int64(len(s.bytes())-len(magic)-4-1))
		st := r.PlayerState(1, 1)
		eq(t, name+" present", st.Present, true)
		eq(t, name+" character", get(t, st.Fields, "post", "internalCharacterId").Name, "Marth")
		eq(t, name+" action", get(t, st.Fields, "pre", "actionStateId").Name, "WAIT")
		eq(t, name+" x", get(t, st.Fields, "pre", "xPosition").Value, 2.0)
	}
}

func TestBytesVersionBoundaries(t *testing.T) {
	cases := []struct {
		v       [3]byte
		group   string
		key     string
		present bool
	}{
		{[3]byte{1, 3, 0}, "pre", "percent", false},
		{[3]byte{1, 4, 0}, "pre", "percent", true},
		{[3]byte{1, 1, 0}, "pre", "xAnalogForUcf", false},
		{[3]byte{1, 2, 0}, "pre", "xAnalogForUcf", true},
		{[3]byte{3, 14, 0}, "pre", "yAnalogForUcf", false},
		{[3]byte{3, 15, 0}, "pre", "yAnalogForUcf", true},
		{[3]byte{0, 1, 0}, "post", "actionStateFrameCounter", false},
		{[3]byte{0, 2, 0}, "post", "actionStateFrameCounter", true},
		{[3]byte{1, 9, 0}, "post", "stateBitFlags1", false},
		{[3]byte{2, 0, 0}, "post", "stateBitFlags1", true},
		{[3]byte{2, 0, 0}, "post", "hurtboxCollisionState", false},
		{[3]byte{2, 1, 0}, "post", "hurtboxCollisionState", true},
		{[3]byte{3, 4, 0}, "post", "selfInducedAirXSpeed", false},
		{[3]byte{3, 5, 0}, "post", "selfInducedAirXSpeed", true},
		{[3]byte{3, 7, 0}, "post", "hitlagFramesRemaining", false},
		{[3]byte{3, 8, 0}, "post", "hitlagFramesRemaining", true},
		{[3]byte{3, 10, 0}, "post", "animationIndex", false},
		{[3]byte{3, 11, 0}, "post", "animationIndex", true},
		{[3]byte{3, 15, 0}, "post", "instanceId", false},
		{[3]byte{3, 16, 0}, "post", "instanceId", true},
	}
	for _, c := range cases {
		r := decodeBytes(t, basic(newSlp(c.v[0], c.v[1], c.v[2]), 2).end(2).bytes())
		_, ok := lookup(r.PlayerState(0, 0).Fields, c.group, c.key)
		if ok != c.present {
			t.Errorf("%v %s.%s present=%v, want %v", c.v, c.group, c.key, ok, c.present)
		}
	}
	starts := []struct {
		v       [3]byte
		key     []string
		present bool
	}{
		{[3]byte{1, 2, 0}, []string{"port1", "nametag"}, false},
		{[3]byte{1, 3, 0}, []string{"port1", "nametag"}, true},
		{[3]byte{1, 4, 0}, []string{"pal"}, false},
		{[3]byte{1, 5, 0}, []string{"pal"}, true},
		{[3]byte{1, 9, 0}, []string{"frozenPs"}, false},
		{[3]byte{2, 0, 0}, []string{"frozenPs"}, true},
		{[3]byte{3, 6, 0}, []string{"majorScene"}, false},
		{[3]byte{3, 7, 0}, []string{"majorScene"}, true},
		{[3]byte{3, 8, 0}, []string{"port2", "connectCode"}, false},
		{[3]byte{3, 9, 0}, []string{"port2", "connectCode"}, true},
		{[3]byte{3, 10, 0}, []string{"port1", "slippiUid"}, false},
		{[3]byte{3, 11, 0}, []string{"port1", "slippiUid"}, true},
		{[3]byte{3, 11, 0}, []string{"languageOption"}, false},
		{[3]byte{3, 12, 0}, []string{"languageOption"}, true},
		{[3]byte{3, 13, 0}, []string{"matchId"}, false},
		{[3]byte{3, 14, 0}, []string{"tiebreakerNumber"}, true},
	}
	for _, c := range starts {
		r := decodeBytes(t, basic(newSlp(c.v[0], c.v[1], c.v[2]), 1).end(2).bytes())
		_, ok := lookup(get(t, r.Header, "gameStart").Fields, c.key...)
		if ok != c.present {
			t.Errorf("%v gameStart.%s present=%v, want %v", c.v, strings.Join(c.key, "."), ok, c.present)
		}
	}
	ends := []struct {
		v         [3]byte
		key       string
		present   bool
		method    string
		methodRaw byte
	}{
		{[3]byte{1, 0, 0}, "lrasInitiator", false, "Resolved", 3},
		{[3]byte{2, 0, 0}, "lrasInitiator", true, "TIME!", 1},
		{[3]byte{3, 12, 0}, "playerPlacementP1", false, "GAME!", 2},
		{[3]byte{3, 13, 0}, "playerPlacementP1", true, "No Contest", 7},
	}
	for _, c := range ends {
		r := decodeBytes(t, basic(newSlp(c.v[0], c.v[1], c.v[2]), 1).end(c.methodRaw).bytes())
		ge := get(t, r.Header, "gameEnd").Fields
		if _, ok := lookup(ge, c.key); ok != c.present {
			t.Errorf("%v gameEnd.%s present=%v, want %v", c.v, c.key, ok, c.present)
		}
		eq(t, "method", get(t, ge, "gameEndMethod").Name, c.method)
		eq(t, "result", r.Result, c.method)
	}
}

func TestBytesShortAndLongPayloads(t *testing.T) {
	// 3.16 implies 0x40 bytes of pre-frame payload; list only 0x3B
	s := newSlp(3, 16, 0)
	s.size(cmdPre, 0x3B)
	r := decodeBytes(t, basic(s, 2).end(2).bytes())
	var warned bool
	for _, d := range r.Diagnostics {
		if d.Subject == "event 0x37" && d.Severity == model.Warning {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no diagnostic for a short pre-frame payload: %v", r.Diagnostics)
	}
	if _, ok := lookup(r.PlayerState(0, 0).Fields, "pre", "percent"); ok {
		t.Error("percent decoded from a payload too short to hold it")
	}
	// a longer payload is fine and its extra bytes are kept
	s = newSlp(3, 16, 0)
	s.size(cmdPost, implied(postDefs, ver(3, 16, 0))-1+3)
	r = decodeBytes(t, basic(s, 2).end(2).bytes())
	if r.Problems() != 0 {
		t.Errorf("longer payload gave problems: %v", r.Diagnostics)
	}
	eq(t, "extra bytes", len(get(t, r.PlayerState(0, 0).Fields, "post", "extra").Value.([]byte)), 3)
}

func TestBytesEventTypes(t *testing.T) {
	s := newSlp(3, 18, 0)
	s.size(cmdFod, 9).size(cmdWhispy, 5).size(cmdStadium, 8).size(cmdSplit, 516).size(cmdGecko, 0xffff&(512+20)).size(0x60, 4)
	s.start(2, 9)
	// gecko list in two Message Splitter pieces: 04 code at 0x80123456,
	// a C2 code with 2 lines, then a 06 code writing 3 bytes (padded to 8)
	list := []byte{0x04, 0x12, 0x34, 0x56, 0, 0, 0, 1}
	list = append(list, 0xC2, 0, 0, 0, 0, 0, 0, 2)
	list = append(list, make([]byte, 16)...)
	list = append(list, 0x06, 0, 0, 0, 0, 0, 0, 3, 'a', 'b', 'c', 0, 0, 0, 0, 0)
	for i, part := range [][]byte{list[:20], list[20:]} {
		b := s.ev(cmdSplit)
		copy(b[1:], part)
		binary.BigEndian.PutUint16(b[0x201:], uint16(len(part)))
		b[0x203] = cmdGecko
		if i == 1 {
			b[0x204] = 1
		}
		s.add(b)
	}
	s.frame(-123)
	s.add(s.pre(-123, 0, false, 14, 1)).add(s.post(-123, 0, false, 1, 4, 0))
	s.add(s.pre(-123, 1, false, 14, 2)).add(s.post(-123, 1, false, 18, 4, 0))
	it := s.ev(cmdItem)
	put32(it, 1, uint32(0xFFFFFF85)) // -123
	binary.BigEndian.PutUint16(it[5:], 99)
	putF(it, 0x14, 10)
	putF(it, 0x18, 20)
	put32(it, 0x22, 7)
	it[0x27] = 5
	it[0x2A] = 1
	s.add(it)
	fod := s.ev(cmdFod)
	put32(fod, 1, uint32(0xFFFFFF85))
	fod[5] = 1
	putF(fod, 6, 20.15)
	s.add(fod)
	wh := s.ev(cmdWhispy)
	put32(wh, 1, uint32(0xFFFFFF85))
	wh[5] = 2
	s.add(wh)
	st := s.ev(cmdStadium)
	put32(st, 1, uint32(0xFFFFFF85))
	binary.BigEndian.PutUint16(st[5:], 5)
	binary.BigEndian.PutUint16(st[7:], 3)
	s.add(st)
	s.add([]byte{0x60, 1, 2, 3, 4}) // listed, not understood
	s.bookend(-123)
	s.end(2)
	r := decodeBytes(t, s.bytes())

	byKind := map[model.KindID][]model.Field{}
	for i := range r.Events {
		byKind[r.Events[i].Kind] = r.EventFields(i)
	}
	eq(t, "item type", get(t, byKind[kItem], "typeId").Name, itemName(99))
	eq(t, "item x", get(t, byKind[kItem], "xPosition").Value, 10.0)
	eq(t, "item spawn", get(t, byKind[kItem], "spawnId").Value, int64(7))
	eq(t, "item turnip", get(t, byKind[kItem], "misc2").Name, "wink")
	eq(t, "item owner", get(t, byKind[kItem], "owner").Name, "P2")
	eq(t, "fod side", get(t, byKind[kFod], "platform").Name, "left")
	eq(t, "fod height", get(t, byKind[kFod], "height").Value, 20.15)
	eq(t, "whispy", get(t, byKind[kWhispy], "direction").Name, "right")
	eq(t, "stadium event", get(t, byKind[kStadium], "event").Name, "rising")
	eq(t, "stadium form", get(t, byKind[kStadium], "transformation").Name, "fire")
	eq(t, "bookend", get(t, byKind[kBookend], "latestFinalizedFrame").Value, int64(-123))
	eq(t, "frame start", get(t, byKind[kFrame], "frameNumber").Value, int64(-123))
	eq(t, "unknown payload", len(get(t, byKind[kUnknown], "payload").Value.([]byte)), 4)
	eq(t, "gecko codes", get(t, r.Header, "geckoList", "codeCount").Value, int64(3))
	eq(t, "gecko first", get(t, r.Header, "geckoList", "firstAddress").Value, int64(0x80123456))
	eq(t, "gecko pieces", get(t, r.Header, "geckoList", "messages").Value, int64(2))
	var scenePoints int
	for _, p := range r.SceneAt(0)[0].Points {
		if p.Kind == "item" && p.X == 10 && p.Y == 20 && p.Player == 1 {
			scenePoints++
		}
	}
	eq(t, "item in scene", scenePoints, 1)
	var info bool
	for _, d := range r.Diagnostics {
		if d.Subject == "event 0x60" && d.Severity == model.Info {
			info = true
		} else if d.Severity >= model.Warning {
			t.Errorf("problem: %s", d)
		}
	}
	if !info {
		t.Error("no diagnostic for the listed unknown event")
	}
	for i := range r.Events {
		if r.EventSummary(i) == "" {
			t.Errorf("event %d (%s) has no summary", i, r.EventKind(i))
		}
	}
}

func TestBytesUnlistedCodeStops(t *testing.T) {
	s := basic(newSlp(3, 0, 0), 2)
	s.add([]byte{0x55, 1, 2, 3})
	s.frame(-121).add(s.pre(-121, 0, false, 14, 1))
	r := decodeBytes(t, s.bytes())
	eq(t, "frames", r.Timeline.Count, 2)
	var found bool
	for _, d := range r.Diagnostics {
		if d.Severity == model.Error && d.Subject == "event 0x55" {
			found = true
			if !strings.Contains(d.String(), "at 0x") {
				t.Errorf("no offset: %s", d)
			}
		}
	}
	if !found || !r.Partial {
		t.Errorf("partial=%v diags=%v", r.Partial, r.Diagnostics)
	}
}

func TestBytesRollback(t *testing.T) {
	s := newSlp(3, 7, 0)
	s.start(2, 9)
	send := func(f int32, x float32) {
		s.frame(f)
		s.add(s.pre(f, 0, false, 14, x)).add(s.pre(f, 1, false, 14, x))
		s.add(s.post(f, 0, false, 1, 4, 0)).add(s.post(f, 1, false, 18, 4, 0))
		s.bookend(f)
	}
	send(-123, 1)
	send(-122, 1)
	send(-121, 1)
	send(-122, 2) // rollback: -122 and -121 again
	send(-121, 2)
	send(-120, 2)
	s.end(2)
	r := decodeBytes(t, s.bytes())
	eq(t, "frames", r.Timeline.Count, 4)
	eq(t, "kept x", get(t, r.PlayerState(1, 0).Fields, "pre", "xPosition").Value, 2.0)
	var flagged int
	for _, e := range r.Events {
		if e.Flags&flagRolledBack != 0 {
			flagged++
			if e.Frame != 1 && e.Frame != 2 {
				t.Errorf("frame %d flagged", e.Frame)
			}
		}
	}
	eq(t, "flagged events", flagged, 2*6) // two frames of 6 events each
	eq(t, "rollback frames", get(t, r.Header, "rollbacks", "rollbackFrames").Value, int64(2))
	eq(t, "resent frames", get(t, r.Header, "rollbacks", "resentFrames").Value, int64(2))
	eq(t, "mean", get(t, r.Header, "rollbacks", "meanRollbackLength").Value, 2.0)
	// events are in frame order for the timeline
	for i := 1; i < len(r.Events); i++ {
		if r.Events[i].Frame < r.Events[i-1].Frame {
			t.Fatal("events not sorted by frame")
		}
	}
}

func TestBytesFollowerAndStocks(t *testing.T) {
	s := newSlp(3, 0, 0)
	s.start(14, 9) // Ice Climbers, Marth
	for i, f := range []int32{-1, 0, 1} {
		s.frame(f)
		s.add(s.pre(f, 0, false, 14, 1)).add(s.pre(f, 0, true, 14, 3)).add(s.pre(f, 1, false, 14, 2))
		s.add(s.post(f, 0, false, 10, 4, 0)).add(s.post(f, 0, true, 11, 4, 0)).add(s.post(f, 1, false, 18, byte(4-i), float32(10*i)))
		s.bookend(f)
	}
	s.end(2)
	r := decodeBytes(t, s.bytes())
	eq(t, "players", len(r.Players), 2)
	st := r.PlayerState(0, 0)
	eq(t, "nana", get(t, st.Fields, "follower", "post", "internalCharacterId").Name, "Nana")
	eq(t, "nana x", get(t, st.Fields, "follower", "pre", "xPosition").Value, 3.0)
	var lost int
	for i := range r.Events {
		if r.Events[i].Flags&model.Notable != 0 && r.Events[i].Kind == kPost {
			lost++
			if !strings.Contains(r.EventSummary(i), "lost a stock") {
				t.Errorf("summary %q", r.EventSummary(i))
			}
		}
	}
	eq(t, "stocks lost", lost, 2)
	eq(t, "chart", r.Charts[1].Series[1].Values[2], 2.0)
	eq(t, "percent chart", r.Charts[0].Series[1].Values[1], 10.0)
	eq(t, "duration", r.Duration, 2*time.Second/60) // frames 0 and 1
}

func TestBytesRawLengthZero(t *testing.T) {
	s := basic(newSlp(3, 0, 0), 3).end(2)
	s.rawZero = true
	s.meta = []byte("{U\x07startAtSU\x142018-06-22T07:52:59ZU\x09lastFramel\xff\xff\xff\x85}")
	r := decodeBytes(t, s.bytes())
	eq(t, "frames", r.Timeline.Count, 3)
	eq(t, "result", r.Result, "GAME!")
	eq(t, "lastFrame", get(t, r.Header, "metadata", "lastFrame").Value, int64(-123))
	// the header says the length is not written yet, once, beside its 0
	raw := get(t, r.Header, "raw")
	eq(t, "raw length", raw.Value, int64(0))
	eq(t, "raw length name", raw.Name, "in progress (length not yet written)")
	if r.Problems() != 0 || r.Partial {
		t.Errorf("partial=%v %v", r.Partial, r.Diagnostics)
	}
	// cut in the middle of the stream: what was read stays
	b := s.bytes()
	r = decodeBytes(t, b[:len(b)-len(s.meta)-30])
	if !r.Partial || r.Problems() == 0 {
		t.Errorf("cut stream: partial=%v %v", r.Partial, r.Diagnostics)
	}
	eq(t, "players", len(r.Players), 2)
}

func TestNames(t *testing.T) {
	eq(t, "sjis", sjis([]byte{0x82, 0x60, 0x82, 0x6c, 0x82, 0x6d, 0x83, 0x43, 0, 0}), "AMNイ")
	eq(t, "halfwidth", halfWidth("XX＃111"), "XX#111")
	eq(t, "buttons", buttonNames(0x80000110), "A+Z+AnyTrigger")
	eq(t, "buttons unused", buttonNames(0x2000), "0x2000")
	eq(t, "flags", nameOf(nFlags5, 0xC8, nameCtx{}), "follower+dead+offscreen")
	eq(t, "flags unknown", nameOf(nFlags1, 0x01, nameCtx{}), "0x01")
	eq(t, "action common", actionName(14, -1), "WAIT")
	eq(t, "action special", actionName(355, 19), "TRANSFORM_GROUND")
	eq(t, "internal", internalName(25), "Ganondorf")
	eq(t, "stage", stageName(32), "Final Destination")
	eq(t, "attack", moveName(15), "Back Air")
	eq(t, "costume", costumeName(2, 1), "Red")
}
