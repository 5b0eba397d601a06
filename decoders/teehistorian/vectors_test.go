package teehistorian

import (
	"bufio"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"rewind/model"
)

// testHeader is the JSON header DDNet's own writer test expects
// (EXPECTED.md, src/test/teehistorian_test.cpp:110-138), with a fixed time.
const testHeader = `{"comment":"teehistorian@ddnet.tw","version":"2","version_minor":"22",` +
	`"game_uuid":"a1eb7182-796e-3b3e-941d-38ca71b2a4a8","server_version":"DDNet test",` +
	`"start_time":"2024-05-06T07:08:09+0200","server_name":"server name","server_port":"8303",` +
	`"game_type":"game type","map_name":"Kobra 3 Solo","map_size":"903514",` +
	`"map_sha256":"0123456789012345678901234567890123456789012345678901234567890123",` +
	`"map_crc":"eceaf25c","prng_description":"test-prng:02468ace","config":{},"tuning":{},` +
	`"uuids":["teehistorian-test@ddnet.tw","teehistorian-ddnetver-old@ddnet.tw","my-own-object@heinrich5991.de"]}`

// file wraps a message stream in the UUID and a header.
func file(header string, body []byte) []byte {
	b := append([]byte{}, fileUUID[:]...)
	b = append(b, header...)
	b = append(b, 0)
	return append(b, body...)
}

type vector struct{ name, line, hex, calls string }

func readVectors(t *testing.T) []vector {
	t.Helper()
	f, err := os.Open("testdata/ddnet_teehistorian_test_vectors.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vs []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 4 {
			t.Fatalf("bad line %q", sc.Text())
		}
		vs = append(vs, vector{cols[0], cols[1], cols[2], cols[3]})
	}
	return vs
}

func decodeOK(t *testing.T, data []byte) *model.Replay {
	t.Helper()
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return r
}

// tev is an event as the tests read it: the record with what the replay
// says of it.
type tev struct {
	model.Event
	Frame   int
	Player  int
	Kind    string
	Summary string
	Span    model.Span
	Fields  []model.Field
}

// expand is every event of r with its kind, summary, span and fields.
func expand(r *model.Replay) []tev {
	out := make([]tev, len(r.Events))
	for i := range r.Events {
		e := r.Events[i]
		out[i] = tev{e, int(e.Frame), int(e.Player), r.EventKind(i), r.EventSummary(i), r.EventSpan(i), r.EventFields(i)}
	}
	return out
}

// events returns the events of a kind.
func events(r *model.Replay, kind string) []tev {
	var out []tev
	for _, e := range expand(r) {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// val returns an event field's value by key (first match).
func val(t *testing.T, e tev, key string) any {
	t.Helper()
	f, ok := model.Find(e.Fields, key)
	if !ok {
		t.Fatalf("event %q has no field %q", e.Summary, key)
	}
	return f.Value
}

// cidOf is the client id of an event's player.
func cidOf(r *model.Replay, e tev) int64 {
	if e.Player < 0 {
		return -1
	}
	f, _ := model.Find(r.Players[e.Player].Fields, "cid")
	return f.Value.(int64)
}

// player finds the player index of a client id.
func player(t *testing.T, r *model.Replay, cid int) int {
	t.Helper()
	for i, p := range r.Players {
		if f, _ := model.Find(p.Fields, "cid"); f.Value == int64(cid) {
			return i
		}
	}
	t.Fatalf("no player with client id %d", cid)
	return -1
}

func stateVal(r *model.Replay, frame, p int, key string) (any, bool) {
	f, ok := model.Find(r.PlayerState(frame, p).Fields, key)
	return f.Value, ok
}

func wantPos(t *testing.T, r *model.Replay, frame, cid int, x, y int64) {
	t.Helper()
	p := player(t, r, cid)
	gx, _ := stateVal(r, frame, p, "x")
	gy, _ := stateVal(r, frame, p, "y")
	if gx != x || gy != y {
		t.Errorf("client %d at tick %d: (%v, %v), want (%d, %d)", cid, frame, gx, gy, x, y)
	}
}

func wantNoTee(t *testing.T, r *model.Replay, frame, cid int) {
	t.Helper()
	if p := player(t, r, cid); p >= 0 {
		if a, _ := stateVal(r, frame, p, "alive"); a != false {
			t.Errorf("client %d has a tee at tick %d", cid, frame)
		}
	}
}

// want checks a list of (frame, client id, field, value) for the events of
// a kind, in order.
type evWant struct {
	frame int
	cid   int64
	kv    map[string]any
}

func wantEvents(t *testing.T, r *model.Replay, kind string, want []evWant) {
	t.Helper()
	got := events(r, kind)
	if len(got) != len(want) {
		for _, e := range got {
			t.Logf("  %d %s", e.Frame, e.Summary)
		}
		t.Fatalf("%d %q events, want %d", len(got), kind, len(want))
	}
	for i, w := range want {
		e := got[i]
		if e.Frame != w.frame || cidOf(r, e) != w.cid {
			t.Errorf("%s event %d: tick %d client %d, want tick %d client %d (%s)", kind, i, e.Frame, cidOf(r, e), w.frame, w.cid, e.Summary)
		}
		for k, v := range w.kv {
			if g := val(t, e, k); g != v {
				t.Errorf("%s event %d field %s = %#v, want %#v", kind, i, k, g, v)
			}
		}
	}
}

// Every vector of DDNet's writer test decodes to what the writer calls
// describe (values from the calls in the TSV and the teehistorian spec).
func TestWriterVectors(t *testing.T) {
	saveID := "fb13a576-d35f-4893-b815-eedc6d98015b"
	checks := map[string]func(t *testing.T, r *model.Replay){
		"Empty": func(t *testing.T, r *model.Replay) {
			if len(r.Events) != 0 || r.Timeline.Count != 1 {
				t.Errorf("events %d count %d", len(r.Events), r.Timeline.Count)
			}
		},
		"Finished": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "end", []evWant{{0, -1, nil}})
		},
		"TickImplicitOneTick": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "spawn", []evWant{{1, 0, map[string]any{"x": int64(1), "y": int64(2)}}})
			wantPos(t, r, 1, 0, 1, 2)
		},
		"TickImplicitTwoTicks": func(t *testing.T, r *model.Replay) {
			wantPos(t, r, 1, 0, 1, 2)
			wantPos(t, r, 2, 0, 2, 1)
			if r.Timeline.Count != 3 {
				t.Errorf("count %d, want ticks 0..2", r.Timeline.Count)
			}
		},
		"TickImplicitDescendingClientId": func(t *testing.T, r *model.Replay) {
			wantPos(t, r, 1, 1, 2, 3)
			wantNoTee(t, r, 1, 0)
			wantPos(t, r, 2, 0, 4, 5)
			wantPos(t, r, 2, 1, 2, 3)
		},
		"TickExplicitAscendingClientId": func(t *testing.T, r *model.Replay) {
			wantPos(t, r, 1, 0, 4, 5)
			wantNoTee(t, r, 1, 1)
			wantPos(t, r, 2, 0, 4, 5)
			wantPos(t, r, 2, 1, 2, 3)
		},
		"TickImplicitEmpty": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "end", []evWant{{0, -1, nil}})
		},
		"TickExplicitStart": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "spawn", []evWant{{500, 0, nil}})
			wantPos(t, r, 500, 0, -1, -1)
		},
		"TickExplicitPlayerMessage": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "msg", []evWant{{1, 63, map[string]any{"msgSize": int64(1), "msgId": int64(0)}}})
		},
		"ExtraMessage": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "test", []evWant{{1, -1, map[string]any{"uuid": "6bb8ba88-0f0b-382e-8dae-dbf4052b8b7d"}}})
		},
		"DDNetVersion": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "version", []evWant{
				{0, 0, map[string]any{"version": int64(13010), "versionStr": "DDNet 13.1 (3623f5e4cd184556)", "connectionId": saveID}},
				{0, 1, map[string]any{"version": int64(13010)}},
			})
		},
		"Auth": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "auth", []evWant{
				{0, 0, map[string]any{"level": int64(3), "authName": "default_admin"}},
				{0, 1, map[string]any{"level": int64(2), "authName": "foobar"}},
				{0, 2, map[string]any{"level": int64(1), "authName": "help"}},
				{0, 1, nil},
			})
			for cid, lvl := range map[int]int64{0: 3, 1: 0, 2: 1} {
				if v, _ := stateVal(r, 0, player(t, r, cid), "authLevel"); v != lvl {
					t.Errorf("client %d auth level %v, want %d", cid, v, lvl)
				}
			}
		},
		"JoinLeave": func(t *testing.T, r *model.Replay) {
			j := events(r, "join")
			if len(j) != 4 || !strings.Contains(j[0].Summary, "0.6") || !strings.Contains(j[2].Summary, "0.7") ||
				cidOf(r, j[1]) != 6 || cidOf(r, j[3]) != 7 {
				t.Errorf("joins: %v", j)
			}
			wantEvents(t, r, "drop", []evWant{{0, 6, map[string]any{"reason": "too many pancakes"}}})
			if r.PlayerState(0, player(t, r, 6)).Present || !r.PlayerState(0, player(t, r, 7)).Present {
				t.Error("client 6 dropped, client 7 stays")
			}
		},
		"Input": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "input", []evWant{{1, 0, map[string]any{"direction": int64(1), "prevWeapon": int64(10)}},
				{1, 0, map[string]any{"direction": int64(0), "targetX": int64(2)}}})
			st := r.PlayerState(1, 0)
			in, ok := model.Find(st.Fields, "input")
			if !ok || len(in.Fields) != 10 {
				t.Fatal("no input in the state")
			}
			for i, f := range in.Fields {
				want := int64(i + 1)
				if i == 0 {
					want = 0 // 1 + the INPUT_DIFF's -1
				}
				if f.Value != want {
					t.Errorf("input %s = %v, want %d", f.Key, f.Value, want)
				}
			}
		},
		"SaveSuccess": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "save", []evWant{{0, -1, map[string]any{"team": int64(21), "saveId": saveID, "save": "2\tH.\nll0"}}})
		},
		"SaveFailed": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "save", []evWant{{0, -1, map[string]any{"team": int64(12)}}})
		},
		"LoadSuccess": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "load", []evWant{{0, -1, map[string]any{"team": int64(21), "saveId": saveID, "save": "2\tH.\nll0"}}})
		},
		"LoadFailed": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "load", []evWant{{0, -1, map[string]any{"team": int64(12)}}})
		},
		"PlayerSwap": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "swap", []evWant{{1, 11, map[string]any{"cid1": int64(11), "cid2": int64(21)}}})
		},
		"PlayerTeam": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "team", []evWant{
				{1, 33, map[string]any{"team": int64(54)}},
				{2, 3, map[string]any{"team": int64(12)}},
				{2, 33, map[string]any{"team": int64(0)}},
			})
			if v, _ := stateVal(r, 1, player(t, r, 33), "team"); v != int64(54) {
				t.Errorf("client 33 team at tick 1: %v", v)
			}
		},
		"TeamPractice": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "practice", []evWant{
				{1, -1, map[string]any{"team": int64(23), "practice": int64(1)}},
				{2, -1, map[string]any{"team": int64(1), "practice": int64(1)}},
				{2, -1, map[string]any{"team": int64(23), "practice": int64(0)}},
			})
		},
		"PlayerRejoinVer6": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "join", []evWant{{0, 2, nil}})
		},
		"PlayerReady": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "ready", []evWant{{0, 63, nil}})
		},
		"PlayerReadyMultiple": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "ready", []evWant{{1, 0, nil}, {1, 11, nil}, {2, 63, nil}})
		},
		"AntibotEmpty": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "antibot", []evWant{{0, -1, map[string]any{"size": int64(0)}}})
		},
		"AntibotEmptyNulBytes": func(t *testing.T, r *model.Replay) {
			e := events(r, "antibot")
			if len(e) != 1 || string(val(t, e[0], "data").([]byte)) != "\x00\x00\x00\x00" {
				t.Errorf("antibot: %v", e)
			}
		},
		"AntibotEmptyMessage": func(t *testing.T, r *model.Replay) {
			e := events(r, "antibot")
			if len(e) != 1 || string(val(t, e[0], "data").([]byte)) != "🤖" {
				t.Errorf("antibot: %v", e)
			}
		},
		"PlayerName": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "name", []evWant{{0, 21, map[string]any{"name": "nameless tee"}}})
			if n := r.Players[player(t, r, 21)].Name; n != "nameless tee" {
				t.Errorf("player name %q", n)
			}
		},
		"PlayerFinish": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "finish", []evWant{{0, 1, map[string]any{"time": int64(1000000)}}})
		},
		"TeamFinish": func(t *testing.T, r *model.Replay) {
			wantEvents(t, r, "finish", []evWant{{0, -1, map[string]any{"team": int64(63), "time": int64(1000)}}})
		},
		// no bytes: the header gains prev_game_uuid (headers below)
		"PrevGameUuid": func(t *testing.T, r *model.Replay) {
			f, ok := model.Find(r.Header, "prevGameUuid")
			if !ok || f.Value != "fe19c218-f555-4002-a273-126c59ccc17a" || f.Label != "Previous game UUID" {
				t.Errorf("prev game uuid %+v", f)
			}
		},
	}
	// the header a vector's writer had, when not testHeader
	headers := map[string]string{
		"PrevGameUuid": strings.Replace(testHeader, `"server_version"`, `"prev_game_uuid":"fe19c218-f555-4002-a273-126c59ccc17a","server_version"`, 1),
	}
	vs := readVectors(t)
	if len(vs) != 31 {
		t.Fatalf("%d vectors, want 31", len(vs))
	}
	for _, v := range vs {
		t.Run(v.name, func(t *testing.T) {
			body, err := hex.DecodeString(v.hex)
			if err != nil {
				t.Fatal(err)
			}
			header := testHeader
			if h, ok := headers[v.name]; ok {
				header = h
			}
			r := decodeOK(t, file(header, body))
			finished := strings.Contains(v.calls, "Finish();")
			if finished != (r.Result == resultComplete) || finished == r.Partial {
				t.Errorf("result %q partial %v; writer calls Finish: %v", r.Result, r.Partial, finished)
			}
			for _, d := range r.Diagnostics {
				if finished || !strings.Contains(d.Message, "ends without FINISH") {
					t.Errorf("diagnostic: %s", d)
				}
			}
			check := checks[v.name]
			if check == nil {
				t.Fatalf("no check for vector %s (line %s)", v.name, v.line)
			}
			check(t, r)
		})
	}
}

func TestHeaderFields(t *testing.T) {
	r := decodeOK(t, file(testHeader, []byte{0x40}))
	want := map[string]any{
		"uuid": "699db17b-8efb-34ff-b1d8-da6f60c15dd1", "comment": "teehistorian@ddnet.tw", "version": "2",
		"versionMinor": "22", "gameUuid": "a1eb7182-796e-3b3e-941d-38ca71b2a4a8", "serverVersion": "DDNet test",
		"serverName": "server name", "serverPort": int64(8303), "gameType": "game type", "mapName": "Kobra 3 Solo",
		"mapSize": int64(903514), "mapSha256": "0123456789012345678901234567890123456789012345678901234567890123",
		"mapCrc": uint64(0xeceaf25c), "prngDescription": "test-prng:02468ace",
	}
	for k, v := range want {
		f, ok := model.Find(r.Header, k)
		if !ok || f.Value != v {
			t.Errorf("%s = %#v, want %#v", k, f.Value, v)
		}
	}
	st, _ := model.Find(r.Header, "startTime")
	if tm, ok := st.Value.(time.Time); !ok || !tm.Equal(time.Date(2024, 5, 6, 5, 8, 9, 0, time.UTC)) {
		t.Errorf("start time %v", st.Value)
	}
	if r.Version != "2.22" || r.Title != "Kobra 3 Solo" || r.Mode != "game type" || !r.Start.Equal(st.Value.(time.Time)) {
		t.Errorf("summary %q %q %q %v", r.Version, r.Title, r.Mode, r.Start)
	}
	// spans cover the key and its value in the file
	data := file(testHeader, nil)
	for key, text := range map[string]string{"mapName": `"map_name":"Kobra 3 Solo"`, "config": `"config":{}`,
		"uuid": string(fileUUID[:]), "mapCrc": `"map_crc":"eceaf25c"`} {
		f, _ := model.Find(r.Header, key)
		if got := string(data[f.Span.Off:f.Span.End()]); got != text {
			t.Errorf("span of %s covers %q, want %q", key, got, text)
		}
	}
	u, _ := model.Find(r.Header, "uuids")
	if len(u.Fields) != 3 || u.Fields[0].Value != "6bb8ba88-0f0b-382e-8dae-dbf4052b8b7d" || u.Fields[2].Name != "my-own-object@heinrich5991.de" {
		t.Errorf("uuids %+v", u.Fields)
	}
}
