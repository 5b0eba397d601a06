package slippi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// The values these tests compare with are slippi-js 9.1.2's, written by
// testdata/slippijs/frames.cjs from the same sample files.

// jsKeys maps the names slippi-js gives the pre- and post-frame values it
// reads to this decoder's field keys (the spec's names).
var jsKeys = map[string]map[string]string{
	"pre": {
		"frame": "frameNumber", "playerIndex": "playerIndex", "isFollower": "isFollower", "seed": "randomSeed",
		"actionStateId": "actionStateId", "positionX": "xPosition", "positionY": "yPosition",
		"facingDirection": "facingDirection", "joystickX": "joystickX", "joystickY": "joystickY",
		"cStickX": "cStickX", "cStickY": "cStickY", "trigger": "trigger", "buttons": "processedButtons",
		"physicalButtons": "physicalButtons", "physicalLTrigger": "physicalLTrigger",
		"physicalRTrigger": "physicalRTrigger", "rawJoystickX": "xAnalogForUcf", "percent": "percent",
	},
	"post": {
		"frame": "frameNumber", "playerIndex": "playerIndex", "isFollower": "isFollower",
		"internalCharacterId": "internalCharacterId", "actionStateId": "actionStateId",
		"positionX": "xPosition", "positionY": "yPosition", "facingDirection": "facingDirection",
		"percent": "percent", "shieldSize": "shieldSize", "lastAttackLanded": "lastHittingAttackId",
		"currentComboCount": "currentComboCount", "lastHitBy": "lastHitBy", "stocksRemaining": "stocksRemaining",
		"actionStateCounter": "actionStateFrameCounter", "miscActionState": "miscAs", "isAirborne": "groundAirState",
		"lastGroundId": "lastGroundId", "jumpsRemaining": "jumpsRemaining", "lCancelStatus": "lCancelStatus",
		"hurtboxCollisionState": "hurtboxCollisionState", "hitlagRemaining": "hitlagFramesRemaining",
		"animationIndex": "animationIndex", "instanceHitBy": "instanceHitBy", "instanceId": "instanceId",
		"selfInducedSpeeds.airX": "selfInducedAirXSpeed", "selfInducedSpeeds.y": "selfInducedYSpeed",
		"selfInducedSpeeds.attackX": "attackBasedXSpeed", "selfInducedSpeeds.attackY": "attackBasedYSpeed",
		"selfInducedSpeeds.groundX": "selfInducedGroundXSpeed",
	},
}

// jsUpdate is one pre- or post-frame update as slippi-js reads it.
type jsUpdate map[string]any

// jsFrames: frame number -> player index -> "pre"/"post" -> update.
type jsFrames map[string]map[string]map[string]jsUpdate

func readJS(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "slippijs", name))
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// flat turns slippi-js's update into this decoder's keys; a value slippi-js
// reads as null (past the payload of the file's version) maps to nil.
func flat(kind string, u jsUpdate) map[string]any {
	out := map[string]any{}
	for k, v := range u {
		if m, ok := v.(map[string]any); ok {
			for kk, vv := range m {
				if key, ok := jsKeys[kind][k+"."+kk]; ok {
					out[key] = vv
				}
			}
			continue
		}
		if key, ok := jsKeys[kind][k]; ok {
			out[key] = v
		}
	}
	return out
}

// sameValue compares a slippi-js value with one of this decoder's (or a
// golden file's): floats as the float32 the file holds, integers exactly.
func sameValue(js, got any) bool {
	switch j := js.(type) {
	case nil:
		return got == nil
	case bool:
		g, ok := got.(bool)
		return ok && g == j
	case json.Number:
		want, err := j.Float64()
		if err != nil {
			return false
		}
		var g float64
		switch x := got.(type) {
		case int64:
			g = float64(x)
		case float64:
			g = x
		case json.Number:
			if g, err = x.Float64(); err != nil {
				return false
			}
		case bool: // slippi-js reads isAirborne and isFollower as booleans, a golden may too
			return false
		default:
			return false
		}
		w32, g32 := float32(want), float32(g)
		return w32 == g32 || (math.IsNaN(float64(w32)) && math.IsNaN(float64(g32)))
	}
	return false
}

// compareUpdate checks every value slippi-js reads against fields (this
// decoder's or a golden's, by key).
func compareUpdate(t *testing.T, where, kind string, js jsUpdate, value func(key string) (any, bool)) int {
	t.Helper()
	n := 0
	want := flat(kind, js)
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		w := want[key]
		got, ok := value(key)
		if w == nil {
			if ok {
				t.Errorf("%s %s.%s = %v; slippi-js reads no such value", where, kind, key, got)
			}
			continue
		}
		if !ok {
			t.Errorf("%s %s.%s missing; slippi-js reads %v", where, kind, key, w)
			continue
		}
		if !sameValue(w, got) {
			t.Errorf("%s %s.%s = %v; slippi-js reads %v", where, kind, key, got, w)
		}
		n++
	}
	return n
}

func fieldValue(fs []model.Field) func(string) (any, bool) {
	return func(key string) (any, bool) {
		f, ok := model.Find(fs, key)
		return f.Value, ok
	}
}

// checkFrames compares the decoder's state at each frame slippi-js listed.
func checkFrames(t *testing.T, r *model.Replay, frames jsFrames) int {
	t.Helper()
	compared := 0
	for fk, players := range frames {
		fn, err := strconv.ParseInt(fk, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		for pk, upd := range players {
			port, _ := strconv.Atoi(pk)
			pl := playerByPort(t, r, fmt.Sprintf("P%d", port+1))
			st := r.PlayerState(frameIndex(r, fn), pl)
			if !st.Present {
				t.Errorf("frame %d P%d: no state; slippi-js has one", fn, port+1)
				continue
			}
			for _, kind := range []string{"pre", "post"} {
				js := upd[kind]
				g, ok := model.Find(st.Fields, kind)
				if js == nil {
					if ok {
						t.Errorf("frame %d P%d: a %s update slippi-js does not have", fn, port+1, kind)
					}
					continue
				}
				compared += compareUpdate(t, fmt.Sprintf("frame %d P%d", fn, port+1), kind, js, fieldValue(g.Fields))
			}
		}
	}
	return compared
}

// TestNetplayFramesMatchSlippiJS: the decoder's pre/post values for the
// first frames of netplay.slp are slippi-js's.
func TestNetplayFramesMatchSlippiJS(t *testing.T) {
	var js struct {
		File   string
		Frames jsFrames
	}
	readJS(t, "netplay-frames.json", &js)
	r := load(t, peppi+js.File)
	if n := checkFrames(t, r, js.Frames); n < 250 {
		t.Errorf("compared %d values; slippi-js lists about 280 for 3 frames of 2 players", n)
	}
}

// TestNetplayGoldenMatchesSlippiJS: the per-frame values in the CLI golden
// cli/testdata/golden/dump-netplay-two-frames.ndjson are slippi-js's, so a
// golden rewritten by -update cannot take a wrong value along unnoticed.
func TestNetplayGoldenMatchesSlippiJS(t *testing.T) {
	var js struct {
		File   string
		Frames jsFrames
	}
	readJS(t, "netplay-frames.json", &js)
	b, err := os.ReadFile(filepath.Join("..", "..", "cli", "testdata", "golden", "dump-netplay-two-frames.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	type jsonState map[string]map[string]any
	var frames, compared int
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Type    string
			Frame   int64
			Players []struct {
				Index   int
				Present bool
				State   jsonState
			}
		}
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&line); err != nil {
			t.Fatal(err)
		}
		if line.Type != "frame" {
			continue
		}
		frames++
		want := js.Frames[strconv.FormatInt(line.Frame, 10)]
		if len(line.Players) != len(want) {
			t.Errorf("golden frame %d: %d players; slippi-js has %d", line.Frame, len(line.Players), len(want))
		}
		for _, p := range line.Players {
			if !p.Present {
				t.Errorf("golden frame %d player %d absent", line.Frame, p.Index)
				continue
			}
			idx, ok := p.State["pre"]["playerIndex"].(json.Number)
			if !ok {
				t.Fatalf("golden frame %d player %d: no pre.playerIndex", line.Frame, p.Index)
			}
			upd := want[idx.String()]
			for _, kind := range []string{"pre", "post"} {
				g := p.State[kind]
				compared += compareUpdate(t, fmt.Sprintf("golden frame %d player %d", line.Frame, p.Index), kind, upd[kind],
					func(key string) (any, bool) { v, ok := g[key]; return v, ok })
			}
		}
	}
	// the golden holds frames -122 and -121 (rewind dump --frames -122..-121)
	if frames != 2 || compared < 170 {
		t.Errorf("golden: %d frames, %d values compared; want 2 frames, about 180 values", frames, compared)
	}
}

// TestUnlistedPortAsPlayer: a port that Game Start leaves empty but frame
// updates name (Multi-Man Melee's enemies) is a player with every frame
// slippi-js reads for it. The file is v3.16.slp patched as frames.cjs
// patches it; the counts and values are slippi-js's.
func TestUnlistedPortAsPlayer(t *testing.T) {
	var js struct {
		File  string
		Patch struct {
			GameStartOffset int
			PlayerType2     byte
			MajorScene      byte
			Stage           uint16
		}
		SettingsPlayers      []int
		FramesPerPlayerIndex map[string]int
		Frames               jsFrames
	}
	readJS(t, "unlisted-port.json", &js)
	b, err := os.ReadFile(filepath.Join(corpus.Samples(t, "slippi"), js.File))
	if err != nil {
		t.Fatal(err)
	}
	g := js.Patch.GameStartOffset
	if b[g] != cmdStart {
		t.Fatalf("no Game Start at %#x", g)
	}
	b[g+0x66+0x24] = js.Patch.PlayerType2
	b[g+0x1A4] = js.Patch.MajorScene
	b[g+0x13], b[g+0x14] = byte(js.Patch.Stage>>8), byte(js.Patch.Stage)
	r, err := Decode(b, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "slippi-js settings players", fmt.Sprint(js.SettingsPlayers), "[0]")
	eq(t, "players", len(r.Players), len(js.FramesPerPlayerIndex))
	eq(t, "mode", r.Mode, "multi-man melee (10-man)")
	eq(t, "stage", r.Title, "Battlefield (Multi-Man Melee)")
	for _, d := range r.Diagnostics {
		if d.Subject == "player index" {
			t.Errorf("diagnostic: %s", d.Message)
		}
	}
	enemy := playerByPort(t, r, "P2")
	if c, err := js.Frames["-123"]["1"]["post"]["internalCharacterId"].(json.Number).Int64(); err != nil {
		t.Fatal(err)
	} else {
		eq(t, "enemy character", r.Players[enemy].Character, internalName(int(c)))
	}
	for idx, want := range js.FramesPerPlayerIndex {
		port, _ := strconv.Atoi(idx)
		pl := playerByPort(t, r, fmt.Sprintf("P%d", port+1))
		got := 0
		for fi := 0; fi < r.Timeline.Count; fi++ {
			if r.PlayerState(fi, pl).Present {
				got++
			}
		}
		eq(t, "frames of P"+strconv.Itoa(port+1), got, want)
	}
	checkFrames(t, r, js.Frames)
	// A header-only listing finds the enemy too.
	h, err := Decode(b, model.DecodeOptions{HeaderOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "header-only players", len(h.Players), len(r.Players))
}
