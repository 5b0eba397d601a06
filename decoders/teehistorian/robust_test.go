package teehistorian

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/decoders/teehistorian/twint"
	"rewind/model"
)

// msg builds a stream from ints, strings (NUL-terminated), uuids and raw bytes.
func msg(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = twint.Append(b, int32(v))
		case string:
			b = append(append(b, v...), 0)
		case uuid:
			b = append(b, v[:]...)
		case []byte:
			b = append(b, v...)
		default:
			panic(fmt.Sprintf("msg: %T", p))
		}
	}
	return b
}

// ex builds an EX message around a payload.
func ex(name string, payload []byte) []byte {
	return msg(idEx, uuidOf(name), len(payload), payload)
}

func hasDiag(r *model.Replay, sub string) *model.Diagnostic {
	for i := range r.Diagnostics {
		if strings.Contains(r.Diagnostics[i].String(), sub) {
			return &r.Diagnostics[i]
		}
	}
	return nil
}

func TestMessages(t *testing.T) {
	startInfo := msg(nmClStartInfo<<1, "nameless", "clan", 276, "pinky", 1, 65408, 123)
	tests := []struct {
		name    string
		body    []byte
		kind    string
		summary string
		fields  map[string]any
	}{
		{"console command from a client in chat", msg(idConsoleCommand, 3, 128, "team", 1, "5", idFinish),
			"cmd", "client 3 runs team 5 (chat)", map[string]any{"cid": int64(3), "flags": int64(128), "arg": "5"}},
		{"server console, no args", msg(idConsoleCommand, -1, 4, "shutdown", 0, idFinish),
			"cmd", "server runs shutdown", map[string]any{"cmd": "shutdown"}},
		{"drop with reason", msg(idJoin, 5, idDrop, 5, "timeout", idFinish),
			"drop", `client 5 leaves: "timeout"`, map[string]any{"reason": "timeout"}},
		{"start info", append(msg(idMessage, 1, len(startInfo)), append(startInfo, msg(idFinish)...)...),
			"msg", `client 1 (nameless) sends Cl_StartInfo name "nameless" clan "clan" skin "pinky" country 276`,
			map[string]any{"name": "nameless", "skin": "pinky", "colorBody": int64(65408)}},
		{"set team", msg(idMessage, 2, 2, nmClSetTeam<<1, -1, idFinish), "msg", "client 2 sends Cl_SetTeam spectators",
			map[string]any{"team": int64(-1)}},
		{"emoticon", msg(idMessage, 2, 2, nmClEmoticon<<1, 14, idFinish), "msg", "client 2 sends Cl_Emoticon eyes", nil},
		{"kill", msg(idMessage, 2, 1, nmClKill<<1, idFinish), "msg", "client 2 sends Cl_Kill", nil},
		{"vote", msg(idMessage, 2, 2, nmClVote<<1, 1, idFinish), "msg", "client 2 sends Cl_Vote yes", nil},
		{"call vote", msg(idMessage, 2, 12, nmClCallVote<<1, "option", "ab", "", idFinish), "msg",
			`client 2 sends Cl_CallVote option "ab" reason ""`, nil},
		{"say (not recorded by DDNet, decoded anyway)", msg(idMessage, 2, 5, nmClSay<<1, 0, "hi", idFinish), "msg",
			`client 2 sends Cl_Say team 0 "hi"`, map[string]any{"message": "hi"}},
		{"unknown game message raw", msg(idMessage, 2, 4, 60<<1, 7, 7, idFinish), "msg", "client 2 sends game message 60",
			map[string]any{"rest": []byte{7, 7}}},
		{"system message raw", msg(idMessage, 2, 2, 3<<1|1, 9, idFinish), "msg", "client 2 sends system message 3", nil},
		{"extension named by the header", append(ex("my-own-object@heinrich5991.de", []byte{1, 2, 3}), 0x40),
			"ex", "extension my-own-object@heinrich5991.de (3 bytes)", map[string]any{"data": []byte{1, 2, 3}}},
		{"extension nobody names", append(msg(idEx, uuid{1, 2, 3}, 2, []byte{9, 9}), 0x40),
			"ex", "extension 01020300-0000-0000-0000-000000000000 (2 bytes)", map[string]any{"size": int64(2)}},
		{"player new and old", msg(idPlayerNew, 4, 100, -200, idPlayerOld, 4, idFinish), "despawn", "client 4: tee disappears", nil},
		{"team finish", append(ex(extTeamFinish, msg(3, 3000)), 0x40), "finish", "team 3 finishes in 1:00.00 (3000 ticks)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := decodeOK(t, file(testHeader, tt.body))
			if r.Result != resultComplete || r.Problems() != 0 {
				t.Errorf("result %q diagnostics %v", r.Result, r.Diagnostics)
			}
			es := events(r, tt.kind)
			if len(es) == 0 {
				t.Fatalf("no %s event in %v", tt.kind, r.Events)
			}
			e := es[len(es)-1]
			if e.Summary != tt.summary {
				t.Errorf("summary %q, want %q", e.Summary, tt.summary)
			}
			for k, v := range tt.fields {
				if g := val(t, e, k); fmt.Sprint(g) != fmt.Sprint(v) {
					t.Errorf("%s = %#v, want %#v", k, g, v)
				}
			}
			// the event's span is its message's bytes
			data := file(testHeader, tt.body)
			id, _, _ := twint.Int(data[e.Off:])
			if e.Len <= 0 || e.End() > int64(len(data)) || (id != idEx && id != idMessage && id != idConsoleCommand && id != idDrop && id != idPlayerOld) {
				t.Errorf("span %v starts with id %d", e.Span, id)
			}
		})
	}
}

func TestStartInfoNamesPlayer(t *testing.T) {
	si := msg(nmClStartInfo<<1, "nameless", "clan", 276, "pinky", 1, 65408, 123)
	r := decodeOK(t, file(testHeader, append(msg(idJoin, 9, idMessage, 9, len(si)), append(si, 0x40)...)))
	p := r.Players[0]
	if sk, _ := model.Find(p.Fields, "skin"); p.Slot != "P10" || clientID(p) != 9 || p.Name != "nameless" || sk.Value != "pinky" {
		t.Errorf("player %+v", p)
	}
	st := r.PlayerState(0, 0)
	if n, _ := model.Find(st.Fields, "name"); !st.Present || n.Value != "nameless" {
		t.Errorf("state %+v", st)
	}
}

func TestBrokenStreams(t *testing.T) {
	tests := []struct {
		name   string
		body   []byte
		diag   string
		off    int // offset in the body the diagnostic names, -1 to skip
		events int
	}{
		{"ends without FINISH", msg(idTickSkip, 9, idJoin, 1), "ends without FINISH at tick 10 (offset ", 4, 1},
		{"unknown negative id", msg(idTickSkip, 0, idJoin, 1, -12, 5, 5, idFinish), "unknown message id -12", 4, 1},
		{"id past the client ids", msg(idJoin, 1, 64, idFinish), "unknown message id 64", 2, 1},
		{"cut inside EX", ex(extPlayerReady, msg(1))[:10], "the file ends inside this message", 0, 1},
		{"cut inside a varint", []byte{0x41, 0x80}, "the file ends inside this message", 0, 1},
		{"message size past the end", msg(idMessage, 1, 100, 1, 2), "the file ends inside this message", 0, 1},
		{"negative message size", msg(idMessage, 1, -3, idFinish), "negative message size", 0, 0},
		{"negative extension size", msg(idJoin, 1, idEx, uuid{}, -1, idFinish), "negative extension size", 2, 1},
		{"huge argument count", msg(idConsoleCommand, -1, 4, "x", 1<<30, idFinish), "argument count larger", 5, 1},
		{"negative argument count", msg(idJoin, 1, idConsoleCommand, -1, 4, "x", -2, idFinish), "negative argument count", 7, 1},
		{"bytes after FINISH", msg(idFinish, 1, 2, 3), "3 bytes follow FINISH", 1, 1},
		{"EX payload too long for its layout", append(ex(extPlayerReady, msg(1, 2)), 0x40), "1 bytes longer than its layout", 0, 2},
		{"EX payload too short for its layout", append(ex(extPlayerTeam, msg(1)), 0x40), "shorter than its layout", 0, 2},
		{"client id out of range", msg(idJoin, 99, idFinish), "client id out of range", 0, 2},
		{"diff without a tee", msg(3, 1, 1, idFinish), "client 3 moves but has no tee", 0, 1},
	}
	base := len(file(testHeader, nil))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := decodeOK(t, file(testHeader, tt.body))
			d := hasDiag(r, tt.diag)
			if d == nil {
				t.Fatalf("no diagnostic %q in %v", tt.diag, r.Diagnostics)
			}
			if tt.off >= 0 && d.Span.Off != int64(base+tt.off) {
				t.Errorf("diagnostic at %#x, want %#x", d.Span.Off, base+tt.off)
			}
			if len(r.Events) != tt.events {
				t.Errorf("%d events kept, want %d: %v", len(r.Events), tt.events, r.Events)
			}
		})
	}
}

func TestHeaderProblems(t *testing.T) {
	// no NUL after the JSON: the header is cut
	r, err := Decode(append(fileUUID[:], `{"version":"2"`...), model.DecodeOptions{})
	if err != nil || !r.Partial || hasDiag(r, "no NUL terminator") == nil {
		t.Errorf("cut header: %v %v", err, r)
	}
	// bad JSON: diagnostic, the stream is still read
	r = decodeOK(t, file(`{"version":"2","map_name":`, msg(idJoin, 1, idFinish)))
	if hasDiag(r, "not valid JSON") == nil || len(events(r, "join")) != 1 || r.Result != resultComplete {
		t.Errorf("bad JSON: %v %v", r.Diagnostics, r.Events)
	}
	r = decodeOK(t, file(`{"version":"3"}`, msg(idFinish)))
	if hasDiag(r, "unknown teehistorian version") == nil {
		t.Errorf("version 3: %v", r.Diagnostics)
	}
	for _, data := range [][]byte{nil, []byte("short"), bytes.Repeat([]byte{0xff}, 40), []byte("invalid data\n")} {
		if r, err := Decode(data, model.DecodeOptions{}); r != nil || err == nil || !strings.Contains(err.Error(), "not a teehistorian file") {
			t.Errorf("%q: %v", data, err)
		}
	}
}

// A TICK_SKIP of 2^31-1 ticks in six bytes may not make a timeline of
// 2^31 frames.
func TestTickSkipCap(t *testing.T) {
	r := decodeOK(t, file(testHeader, msg(idTickSkip, 1<<31-1, idJoin, 1, idFinish)))
	if r.Timeline.Count > capBaseTicks+capTicksPerByte*16 || hasDiag(r, "can justify") == nil {
		t.Errorf("count %d diagnostics %v", r.Timeline.Count, r.Diagnostics)
	}
	if j := events(r, "join"); len(j) != 1 || j[0].Frame != r.Timeline.Count-1 {
		t.Errorf("join %v", j)
	}
}

func TestHeaderOnly(t *testing.T) {
	data := sample(t, "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian")
	r, err := Decode(data, model.DecodeOptions{HeaderOnly: true})
	if err != nil || r.Title != "dm1" || r.Result != resultComplete || len(r.Players) != 3 || r.Players[1].Name != "bob" || r.Duration == 0 {
		t.Fatalf("%v %+v", err, r)
	}
	if len(r.Events) != 0 || r.State != nil {
		t.Error("header-only decode builds no timeline")
	}
}

func TestPictures(t *testing.T) {
	r := decodeOK(t, sample(t, "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian"))
	sc := r.SceneAt(1000)
	if len(sc) != 1 || len(sc[0].Points) != 2 {
		t.Fatalf("scene at 1000: %+v", sc)
	}
	b := sc[0].Bounds
	for _, p := range sc[0].Points {
		if p.X < b.MinX || p.X > b.MaxX || p.Y < b.MinY || p.Y > b.MaxY || p.Y > 0 {
			t.Errorf("point %+v outside %+v (y flipped: negative)", p, b)
		}
	}
	if len(r.Charts) != 2 {
		t.Fatalf("charts %v", r.Charts)
	}
	present := r.Charts[0].Series[0].Values
	mx := 0.0
	for _, v := range present {
		mx = max(mx, v)
	}
	if mx != 3 {
		t.Errorf("at most %v players present, want 3", mx)
	}
}

func allSamples(t testing.TB) [][]byte {
	var out [][]byte
	for _, p := range corpus.SampleFiles(t, "teehistorian", "*.teehistorian") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// checkReplay looks at everything a decoded replay offers, to catch panics
// and broken invariants.
func checkReplay(t *testing.T, r *model.Replay) {
	if r.Timeline.Count < 1 || r.Timeline.Count > capMaxTicks+1 {
		t.Fatalf("count %d", r.Timeline.Count)
	}
	for i := range r.Events {
		e := r.Events[i]
		if e.Frame < 0 || int(e.Frame) >= r.Timeline.Count || int(e.Player) >= len(r.Players) || e.End() > r.Size {
			t.Fatalf("event %+v", e)
		}
		r.EventSummary(i)
	}
	for _, f := range []int{0, r.Timeline.Count / 2, r.Timeline.Count - 1} {
		for p := range r.Players {
			r.PlayerState(f, p)
		}
		r.SceneAt(f)
	}
}

func TestTruncation(t *testing.T) {
	for _, data := range allSamples(t) {
		full := decodeOK(t, data)
		stream := bytes.IndexByte(data[16:], 0) + 17
		for cut := 0; cut < len(data); cut += 1 + cut/40 {
			r, err := Decode(data[:cut], model.DecodeOptions{})
			if cut < 16 {
				if err == nil {
					t.Fatalf("cut %d: accepted", cut)
				}
				continue
			}
			if err != nil || !r.Partial {
				t.Fatalf("cut %d: %v partial=%v", cut, err, r != nil && r.Partial)
			}
			checkReplay(t, r)
			if cut >= stream {
				d := hasDiag(r, "ends without FINISH at tick")
				if d == nil || d.Span.Off > int64(cut) || d.Span.Off < int64(stream) {
					t.Fatalf("cut %d: %v", cut, r.Diagnostics)
				}
				if len(r.Events) > len(full.Events) {
					t.Fatalf("cut %d: more events than the whole file", cut)
				}
			}
		}
	}
}

func TestBitFlips(t *testing.T) {
	for _, data := range allSamples(t) {
		stream := bytes.IndexByte(data[16:], 0) + 17
		buf := make([]byte, len(data))
		for i := stream; i < len(data); i += 4 {
			for _, bit := range []byte{0x01, 0x40, 0x80} {
				copy(buf, data)
				buf[i] ^= bit
				r, err := Decode(buf, model.DecodeOptions{})
				if err != nil {
					t.Fatalf("flip at %d: %v", i, err)
				}
				checkReplay(t, r)
			}
		}
	}
}

func FuzzTeehistorian(f *testing.F) {
	for _, s := range allSamples(f) {
		f.Add(s)
	}
	for _, v := range readVectorsTB(f) {
		f.Add(file(testHeader, v))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []model.DecodeOptions{{}, {HeaderOnly: true}} {
			r, err := Decode(data, opt)
			decodetest.Check(t, r, err, data, opt)
		}
	})
}

func readVectorsTB(tb testing.TB) [][]byte {
	b, err := os.ReadFile("testdata/ddnet_teehistorian_test_vectors.tsv")
	if err != nil {
		tb.Fatal(err)
	}
	var out [][]byte
	for _, line := range strings.Split(string(b), "\n")[1:] {
		cols := strings.Split(line, "\t")
		if len(cols) == 4 {
			var body []byte
			fmt.Sscanf(cols[2], "%x", &body)
			out = append(out, body)
		}
	}
	return out
}

// busyStream is a synthetic busy server: 16 players who move and send
// input every tick, with a console command now and then, until the
// stream is size bytes long. Most real streams look like this: PLAYER_DIFF
// and INPUT_DIFF with a few events between.
func busyStream(header []byte, size int) []byte {
	b := append([]byte{}, header...)
	for cid := 0; cid < 16; cid++ {
		b = append(b, msg(idJoin, cid, idInputNew, cid, 1, 100, -50, 0, 0, 0, 1, 0, 0, 0, idPlayerNew, cid, 1000+cid*64, 500)...)
	}
	for tick := 2; len(b) < size; tick++ {
		for cid := 0; cid < 16; cid++ {
			b = append(b, msg(cid, (tick+cid)%7-3, (tick*cid)%5-2)...)
		}
		for cid := 0; cid < 16; cid++ {
			b = append(b, msg(idInputDiff, cid, 0, (tick+cid)%9-4, (tick+cid)%7-3, 0, tick%2, 0, 0, 0, 0, 0)...)
		}
		if tick%500 == 0 {
			b = append(b, msg(idConsoleCommand, tick%16, 128, "team", 1, "5")...)
		}
	}
	return append(b, 0x40)
}

func BenchmarkDecodeTeehistorian(b *testing.B) {
	data := sample(b, "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian")
	stream := bytes.IndexByte(data[16:], 0) + 17
	// the sample's messages repeated (every tick after the first
	// repetition is explicit, so this is a valid stream)
	repeated := append([]byte{}, data[:stream]...)
	for len(repeated) < 256<<10 {
		repeated = append(repeated, data[stream:len(data)-1]...)
		repeated = append(repeated, msg(idTickSkip, 0)...)
	}
	repeated = append(repeated, 0x40)
	for _, bc := range []struct {
		name string
		data []byte
	}{{"busy16players", busyStream(data[:stream], 4<<20)}, {"samplesRepeated", repeated}} {
		b.Run(bc.name, func(b *testing.B) {
			r, err := Decode(bc.data, model.DecodeOptions{})
			if err != nil || r.Problems() != 0 {
				b.Fatal(err, r.Diagnostics)
			}
			msgs := countMessages(b, bc.data)
			b.SetBytes(int64(len(bc.data)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Decode(bc.data, model.DecodeOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(msgs)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

func countMessages(tb testing.TB, data []byte) int {
	d := &decoder{data: data, lastPlayer: maxClients, r: &model.Replay{}, b: budget.New(int64(len(data)), model.Limits{})}
	nul := bytes.IndexByte(data[16:], 0)
	d.stream = 16 + nul + 1
	d.pos = d.stream
	d.opt.HeaderOnly = true
	d.feed()
	return d.msgs
}

// The worst a small file can ask for: the timeline at its cap with all 64
// client slots seen. It must stay quick (the fuzzer meets such files).
func TestWorstCaseTimeline(t *testing.T) {
	var body []byte
	for cid := 0; cid < maxClients; cid++ {
		body = append(body, msg(idPlayerNew, cid, cid, cid)...)
	}
	body = append(body, msg(idTickSkip, 1<<31-1, idJoin, 3)...)
	start := time.Now()
	r := decodeOK(t, file(testHeader, body))
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v", el)
	}
	t.Logf("count %d in %v", r.Timeline.Count, time.Since(start))
	checkReplay(t, r)
}

// Event fields come lazily from Detail; each field's span lies inside its
// event's span, and the first is the message id.
func TestDetail(t *testing.T) {
	r, err := Decode(sample(t, "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian"), model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range expand(r) {
		fs := r.EventFields(i)
		if len(fs) < 1 || fs[0].Key != "id" || fs[0].Span.Off != e.Off {
			t.Fatalf("event %d (%s): fields %v", i, e.Summary, fs)
		}
		var walk func([]model.Field)
		walk = func(fs []model.Field) {
			for _, f := range fs {
				if f.Span.Off < e.Off || f.Span.End() > e.End() {
					t.Errorf("event %d (%s): field %s span %v+%d outside %v+%d", i, e.Summary, f.Key, f.Span, f.Span.Len, e.Span, e.Len)
				}
				walk(f.Fields)
			}
		}
		walk(fs)
	}
	// the byte under the cursor finds its event
	e := firstEvent(t, r, "msg", "Cl_Kill")
	if j := r.EventAt("", e.Off+1); j < 0 || r.EventSpan(j) != e.Span {
		t.Errorf("EventAt: %d", j)
	}
}

func TestProgress(t *testing.T) {
	data := busyStream(file(testHeader, nil), 256<<10)
	calls := int64(0)
	last := int64(-1)
	_, err := Decode(data, model.DecodeOptions{Progress: func(done, total int64) {
		if done < last || total != int64(len(data)) {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
		calls++
	}})
	if err != nil || calls < 2 {
		t.Errorf("%v, %d progress calls", err, calls)
	}
}
