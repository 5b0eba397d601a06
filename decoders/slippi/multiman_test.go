package slippi

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

// multiManClip is a real 10-Man Multi-Man Melee replay (slippi-js's
// slp/gameModeTest/10-Man.slp) up to frame 0's Frame Bookend, raw length 0,
// as a recording still being written: Game Start lists only the player
// (port 1); the enemies' frame updates name player indices 3, 4 and 5
// (ports 4-6), past Game Start's four ports. The values compared come from
// slippi-js 9.1.2 reading the same bytes (testdata/slippijs/multiman-10man.json).
const multiManClip = "multiman-10man-clip.slp"

type multiManJS struct {
	File                 string
	GameMode             int
	StageID              int
	SettingsPlayers      []int
	FrameCount           int
	FramesPerPlayerIndex map[string]int
	FirstCharacter       map[string]int
	Frames               jsFrames
	// Repaired is what slippi-js reads from a cut copy that rewind repaired.
	Repaired struct {
		Cut                  [2]int
		FramesPerPlayerIndex map[string]int
		MetadataPlayers      []string
		GameEndMethod        int
	}
}

func loadMultiMan(t *testing.T) ([]byte, multiManJS) {
	t.Helper()
	var js multiManJS
	readJS(t, "multiman-10man.json", &js)
	b, err := os.ReadFile(filepath.Join("testdata", js.File))
	if err != nil {
		t.Fatal(err)
	}
	return b, js
}

// TestMultiManEnemies: the enemies are players on the ports their frame
// updates name, with every frame and value slippi-js reads for them, and
// no warning: the mode brings them on.
func TestMultiManEnemies(t *testing.T) {
	b, js := loadMultiMan(t)
	r, err := Decode(b, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "slippi-js settings players", fmt.Sprint(js.SettingsPlayers), "[0]")
	eq(t, "slippi-js game mode (major scene)", js.GameMode, sceneTenMan)
	eq(t, "mode", r.Mode, "multi-man melee (10-man)")
	eq(t, "frames", r.Timeline.Count, js.FrameCount)
	for _, d := range r.Diagnostics {
		if d.Severity >= model.Warning {
			t.Errorf("diagnostic: %s", d.String())
		}
	}
	eq(t, "players", len(r.Players), len(js.FramesPerPlayerIndex))
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
		if port > 0 {
			eq(t, "character of P"+strconv.Itoa(port+1), r.Players[pl].Character, internalName(js.FirstCharacter[idx]))
		}
	}
	if n := checkFrames(t, r, js.Frames); n < 400 {
		t.Errorf("compared %d values; slippi-js lists about 90 for each of 11 player-frames", n)
	}
	// A listing finds the enemies too: the header read walks the events of
	// a single-player mode.
	h, err := Decode(b, model.DecodeOptions{HeaderOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(h.Players, r.Players) {
		t.Errorf("header-only players\n%+v\nfull decode\n%+v", h.Players, r.Players)
	}
}

// TestMultiManFollow: a follower meets the enemies past the fourth port
// after its frame arrays are made for four; it decodes the file again and
// ends as a whole decode does.
func TestMultiManFollow(t *testing.T) {
	b, _ := loadMultiMan(t)
	for how, cuts := range schedules(multiManClip, len(b)) {
		decodetest.CheckFollow(t, multiManClip+" fed "+how, Follow, Decode, b, cuts)
	}
}

// TestMultiManRepair: a cut copy repairs into a file that keeps the
// enemies' frames (they are no damage in this mode) and lists them in the
// metadata, as the recorder does; slippi-js reads the repaired bytes with
// the frames per player index and the metadata players compared here.
func TestMultiManRepair(t *testing.T) {
	b, js := loadMultiMan(t)
	want := js.Repaired
	cut := cutRecording(b, want.Cut[0], want.Cut[1])
	rep, err := Repair(cut, model.RepairOptions{ModTime: repairTime})
	if err != nil {
		t.Fatal(err)
	}
	r := checkRepaired(t, fmt.Sprintf("%s cut %d/%d", multiManClip, want.Cut[0], want.Cut[1]), cut, rep)
	got := map[string]int{}
	for pl, p := range r.Players {
		n := 0
		for fi := 0; fi < r.Timeline.Count; fi++ {
			if r.PlayerState(fi, pl).Present {
				n++
			}
		}
		port, _ := strconv.Atoi(p.Slot[1:])
		got[strconv.Itoa(port-1)] = n
	}
	if !reflect.DeepEqual(got, want.FramesPerPlayerIndex) {
		t.Errorf("repaired: frames per player index %v, slippi-js reads %v", got, want.FramesPerPlayerIndex)
	}
	var keys []string
	if m, ok := lookup(r.Header, "metadata", "players"); ok {
		for _, f := range m.Fields {
			keys = append(keys, f.Key)
		}
	}
	eq(t, "metadata players", fmt.Sprint(keys), fmt.Sprint(want.MetadataPlayers))
	eq(t, "Game End method", fact(rep, "gameEndMethod"), int64(want.GameEndMethod))
}
