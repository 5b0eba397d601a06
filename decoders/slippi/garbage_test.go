package slippi

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

// A 0.1.0 recording whose post-frame updates name ports no player has (a
// two-player game with updates of player index 4, 5 and 124 was reported).
// No such file is in the corpus: the case is built by hand from its
// slp__test.slp (0.1.0, P1 Falco vs P3 Captain Falcon) by rewriting the
// player index byte of four post-frame updates to 4, 3, 5 and 124, in two
// shapes: as recorded, and with Event Payloads listing no pre-frame update
// (the pre-frame updates taken out), as the reported files' do. The values compared are slippi-js 9.1.2's
// (testdata/slippijs/garbage-ports.json, written by garbage-ports.cjs,
// which makes the same bytes: the SHA-256 says so).

// sjRead is what garbage-ports.cjs reads from a file with slippi-js.
type sjRead struct {
	SettingsPlayers []struct {
		PlayerIndex int
		CharacterID int
	}
	Frames               int
	FramesPerPlayerIndex map[string]int
	LatestFrame          *int64
	GameEndMethod        *int
	Winners              []struct{ PlayerIndex int }
}

type garbageJS struct {
	Source string
	Edits  []struct {
		Offset   int
		Frame    int64
		From, To byte
	}
	Shapes map[string]struct {
		SHA256 string
		Whole  sjRead
		Cuts   []struct {
			Cut      [2]int
			Read     sjRead
			Status   string
			SHA256   string
			Repaired *sjRead
		}
	}
}

// garbageCase builds the file of a shape from the corpus's copy of the
// source; the test skips when the corpus is absent.
func garbageCase(t *testing.T, js *garbageJS, shape string) []byte {
	t.Helper()
	b, err := os.ReadFile(corpus.File(t, "slp", js.Source))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range js.Edits {
		if e.Offset < 7 || e.Offset >= len(b) || b[e.Offset] != e.From || b[e.Offset-5] != cmdPost {
			t.Fatalf("%s: no post-frame update of player index %d at %#x", js.Source, e.From, e.Offset-5)
		}
		b[e.Offset] = e.To
	}
	if shape == "post-only" {
		b = withoutPreFrames(t, b)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != js.Shapes[shape].SHA256 {
		t.Fatalf("%s: built %s, slippi-js read %s", shape, got, js.Shapes[shape].SHA256)
	}
	return b
}

// withoutPreFrames takes the pre-frame updates and their Event Payloads
// entry out of a whole file.
func withoutPreFrames(t *testing.T, b []byte) []byte {
	t.Helper()
	var size [256]int
	payEnd := rawStart + 1 + int(b[rawStart+1])
	raw := []byte{cmdPayloads, 0}
	for q := rawStart + 2; q+3 <= payEnd; q += 3 {
		size[b[q]] = int(binary.BigEndian.Uint16(b[q+1:]))
		if b[q] != cmdPre {
			raw = append(raw, b[q:q+3]...)
		}
	}
	raw[1] = byte(len(raw) - 1)
	end := rawStart + int(binary.BigEndian.Uint32(b[len(magic):]))
	for p := payEnd; p < end; {
		n := 1 + size[b[p]]
		if n == 1 || p+n > end {
			t.Fatalf("no listed event at %#x", p)
		}
		if b[p] != cmdPre {
			raw = append(raw, b[p:p+n]...)
		}
		p += n
	}
	out := append([]byte(nil), b[:rawStart]...)
	binary.BigEndian.PutUint32(out[len(magic):], uint32(len(raw)))
	out = append(out, raw...)
	return append(out, b[end:]...)
}

// samePlayers checks a replay's players against slippi-js's settings:
// the same ports and characters, and no other.
func samePlayers(t *testing.T, what string, r *model.Replay, sj *sjRead) {
	t.Helper()
	var got, want []string
	for _, p := range r.Players {
		got = append(got, p.Slot+" "+p.Character)
	}
	for _, p := range sj.SettingsPlayers {
		want = append(want, fmt.Sprintf("P%d %s", p.PlayerIndex+1, externalName(p.CharacterID)))
	}
	eq(t, what+" players", strings.Join(got, ", "), strings.Join(want, ", "))
}

// TestGarbagePortsNoPlayer: the players are the two Game Start lists,
// whole, header-only and followed, with every frame slippi-js reads; the
// updates of the other ports give no player and are reported.
func TestGarbagePortsNoPlayer(t *testing.T) {
	var js garbageJS
	readJS(t, "garbage-ports.json", &js)
	for _, shape := range []string{"recorded", "post-only"} {
		b := garbageCase(t, &js, shape)
		sj := js.Shapes[shape].Whole
		r, err := Decode(b, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		samePlayers(t, shape, r, &sj)
		eq(t, shape+" frames", r.Timeline.Count, sj.Frames)
		if sj.LatestFrame == nil || r.Timeline.First+int64(r.Timeline.Count)-1 != *sj.LatestFrame {
			t.Errorf("%s: last frame %d, slippi-js %v", shape, r.Timeline.First+int64(r.Timeline.Count)-1, sj.LatestFrame)
		}
		for _, p := range sj.SettingsPlayers {
			pl := playerByPort(t, r, fmt.Sprintf("P%d", p.PlayerIndex+1))
			n := 0
			for fi := 0; fi < r.Timeline.Count; fi++ {
				if r.PlayerState(fi, pl).Present {
					n++
				}
			}
			eq(t, fmt.Sprintf("%s frames of P%d", shape, p.PlayerIndex+1), n, sj.FramesPerPlayerIndex[strconv.Itoa(p.PlayerIndex)])
		}
		// the updates slippi-js files under the other player indices
		stray := 0
		var others []int
		for idx, n := range sj.FramesPerPlayerIndex {
			listed := false
			for _, p := range sj.SettingsPlayers {
				listed = listed || strconv.Itoa(p.PlayerIndex) == idx
			}
			if i, _ := strconv.Atoi(idx); !listed {
				stray += n
				others = append(others, i+1)
			}
		}
		sort.Ints(others)
		var ports []string
		for _, p := range others {
			ports = append(ports, strconv.Itoa(p))
		}
		var diag *model.Diagnostic
		for i, d := range r.Diagnostics {
			if d.Subject == "player index" {
				diag = &r.Diagnostics[i]
			}
		}
		if diag == nil || diag.Severity != model.Warning || !strings.Contains(diag.Message, fmt.Sprintf(": %d;", stray)) ||
			diag.Found != "ports "+strings.Join(ports, ", ") ||
			b[diag.Span.Off] != cmdPost || b[diag.Span.Off+5] != js.Edits[0].To {
			t.Errorf("%s: want one warning for the %d updates of ports %s, at the first; got %+v", shape, stray, ports, diag)
		}
		// the outcomes (stats --by and the browser read the summary): the
		// winners getWinners names, and otherwise those of the file the
		// case was made from, which has no stray update
		sum := Summarize(r)
		eq(t, shape+" summary players", len(sum.Players), len(sj.SettingsPlayers))
		for _, w := range sj.Winners {
			pl := playerByPort(t, r, fmt.Sprintf("P%d", w.PlayerIndex+1))
			eq(t, fmt.Sprintf("%s outcome of P%d", shape, w.PlayerIndex+1), sum.Players[pl].Outcome, model.OutcomeWin)
		}
		src := load(t, js.Source)
		for i, p := range Summarize(src).Players {
			if i < len(sum.Players) {
				eq(t, shape+" outcome of "+src.Players[i].Slot, sum.Players[i].Outcome, p.Outcome)
			}
		}

		h, err := Decode(b, model.DecodeOptions{HeaderOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		samePlayers(t, shape+" header-only", h, &sj)
		decodetest.CheckFollow(t, shape+" followed", Follow, Decode, b, decodetest.RandomCuts(len(b), 1<<16, seedOf(shape)))
	}
}

// TestGarbagePortsRepair: the file, as it is and cut at 40, 70 and 95% of
// its stream, repairs into one slippi-js reads with Game Start's two
// players and every frame the cut left whole: the repair passes over the
// updates of other ports as the decoder does, and leaves them out.
func TestGarbagePortsRepair(t *testing.T) {
	var js garbageJS
	readJS(t, "garbage-ports.json", &js)
	for _, shape := range []string{"recorded", "post-only"} {
		b := garbageCase(t, &js, shape)
		for _, c := range js.Shapes[shape].Cuts {
			name := fmt.Sprintf("%s cut %d/%d", shape, c.Cut[0], c.Cut[1])
			in := b
			if c.Cut[0] > 0 {
				in = cutRecording(b, c.Cut[0], c.Cut[1])
			}
			rep, err := Repair(in, model.RepairOptions{ModTime: repairTime})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			sum := sha256.Sum256(rep.Data)
			if c.Repaired == nil || hex.EncodeToString(sum[:]) != c.SHA256 {
				t.Errorf("%s: the repaired bytes are not the ones slippi-js read; run testdata/slippijs/garbage-ports.cjs again", name)
				continue
			}
			sj := c.Repaired
			r := checkRepaired(t, name, in, rep)
			samePlayers(t, name, r, sj)
			eq(t, name+" slippi-js settings players", len(sj.SettingsPlayers), len(c.Read.SettingsPlayers))
			eq(t, name+" frames", rep.Frames, sj.Frames)
			// every frame slippi-js reads from the cut file but the last,
			// which the cut may have left without all its updates
			if lost := c.Read.Frames - sj.Frames; lost < 0 || lost > 1 {
				t.Errorf("%s: repaired %d frames; slippi-js reads %d in the cut file", name, sj.Frames, c.Read.Frames)
			}
			if !bytes.Contains([]byte(decodetest.Steps(rep)), []byte("no player has")) {
				t.Errorf("%s: the report does not say what it left out:\n%s", name, decodetest.Steps(rep))
			}
		}
	}
}
