package slippi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/decodetest"
	"sort"
	"strings"
	"testing"
	"time"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/ubjson"
	"rewind/model"
)

// repairTime is the modification time every repaired input gets in these
// tests and in testdata/slippijs/repair.cjs, so the estimated startAt and
// so the repaired bytes are the same everywhere.
var repairTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// cutRecording is a replay as a crash leaves it: the header and the first
// k/parts of the event stream, raw length 0, no metadata (repair.cjs cuts
// the same way).
func cutRecording(data []byte, k, parts int) []byte {
	raw := int(binary.BigEndian.Uint32(data[len(magic):]))
	if raw == 0 {
		raw = len(data) - rawStart
	}
	out := append([]byte(nil), data[:rawStart+raw*k/parts]...)
	binary.BigEndian.PutUint32(out[len(magic):], 0)
	return out
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fact(rep *model.Repaired, key string) any {
	for _, f := range rep.Facts {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// checkRepaired decodes a repair's output and checks what every repaired
// file must be: no warning or error, the frames the report gives, a Game
// End as the last event of the raw element, the metadata's lastFrame.
func checkRepaired(t *testing.T, name string, in []byte, rep *model.Repaired) *model.Replay {
	t.Helper()
	r := decodetest.Repaired(t, name, rep, Decode)
	if rep.Frames > 0 && r.Timeline.Count != rep.Frames && !strings.Contains(rep.Steps[0].Text, "training mode") {
		t.Errorf("%s: report says %d frames, the decoder reads %d", name, rep.Frames, r.Timeline.Count)
	}
	if r.Result == "no Game End" {
		t.Errorf("%s: repaired file has no Game End", name)
	}
	raw := int(binary.BigEndian.Uint32(rep.Data[len(magic):]))
	end := rawStart + raw - 1 - int(binary.BigEndian.Uint16(endSizeEntry(rep.Data)))
	if end < rawStart || rep.Data[end] != cmdEnd {
		t.Errorf("%s: the raw element does not end with Game End", name)
	}
	// the kept stream is the old one's, byte for byte
	keptEnd := end
	if fact(rep, "gameEndMethod") != nil && bytes.Contains([]byte(rep.Steps[0].Text), []byte("its Game End")) {
		keptEnd = rawStart + raw
	}
	if why := keptStream(in, rep.Data[rawStart:keptEnd], r); why != "" {
		t.Errorf("%s: the repaired stream is not the old one's first %d bytes: %s", name, keptEnd-rawStart, why)
	}
	meta, _, err := ubjson.Decode(rep.Data[rawStart+raw+len(metadataKey):], 0, budget.New(int64(len(rep.Data)), model.Limits{}))
	if err != nil {
		t.Fatalf("%s: metadata: %v", name, err)
	}
	// the recorder's own metadata, kept, has a lastFrame from 1.0 on only
	kept := strings.Contains(decodetest.Steps(rep), "as the recorder wrote it")
	if lf, ok := meta.Get("lastFrame"); !ok && !kept || ok && lf.Int != fact(rep, "lastFrame").(int64) && rep.Frames > 0 {
		t.Errorf("%s: metadata lastFrame %v, report %v", name, lf, fact(rep, "lastFrame"))
	}
	return r
}

// keptStream says how kept, the stream a repair wrote, differs from the
// start of the old file's (in, from Event Payloads on), or "" when it is
// those events byte for byte, but for pre- and post-frame updates of ports
// no player of the repaired file r has, which the repair leaves out whole.
func keptStream(in, kept []byte, r *model.Replay) string {
	var size [256]int
	for i := range size {
		size[i] = -1
	}
	if len(in) < rawStart+2 {
		return "the old file ends before Event Payloads"
	}
	size[cmdPayloads] = int(in[rawStart+1])
	for q := rawStart + 2; q+3 <= min(len(in), rawStart+1+size[cmdPayloads]); q += 3 {
		size[in[q]] = int(binary.BigEndian.Uint16(in[q+1:]))
	}
	players := map[int]bool{}
	for _, p := range r.Players {
		var port int
		if _, err := fmt.Sscanf(p.Slot, "P%d", &port); err == nil {
			players[port-1] = true
		}
	}
	i, j := rawStart, 0
	for j < len(kept) {
		if i >= len(in) || size[in[i]] < 0 {
			return fmt.Sprintf("it goes on past the old events (new offset %#x)", rawStart+j)
		}
		c, n := in[i], 1+size[in[i]]
		if i+n <= len(in) && j+n <= len(kept) && bytes.Equal(in[i:i+n], kept[j:j+n]) {
			i, j = i+n, j+n
			continue
		}
		if (c == cmdPre || c == cmdPost) && n >= 7 && i+n <= len(in) && !players[int(in[i+5])] {
			i += n
			continue
		}
		return fmt.Sprintf("the old event at %#x differs from the new one at %#x", i, rawStart+j)
	}
	return ""
}

// endSizeEntry finds Game End's size in Event Payloads.
func endSizeEntry(data []byte) []byte {
	n := int(data[rawStart+1])
	for q := rawStart + 2; q+3 <= rawStart+1+n; q += 3 {
		if data[q] == cmdEnd {
			return data[q+1 : q+3]
		}
	}
	return []byte{0xff, 0xff}
}

// TestRepairCuts cuts every sample at 20 points, as a crash would, and
// repairs each: the new file decodes clean, keeps a prefix of the old
// stream, and keeps more frames the later the cut.
func TestRepairCuts(t *testing.T) {
	files := corpus.SampleFiles(t, "slippi", "*.slp")
	repaired := 0
	for _, f := range files {
		data := readFile(t, f)
		prev := 0
		for k := 1; k <= 20; k++ {
			in := cutRecording(data, k, 20)
			name := fmt.Sprintf("%s cut %d/20", filepath.Base(f), k)
			rep, err := Repair(in, model.RepairOptions{ModTime: repairTime})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			checkRepaired(t, name, in, rep)
			if rep.Frames < prev {
				t.Errorf("%s: %d frames, fewer than the %d of an earlier cut", name, rep.Frames, prev)
			}
			prev = rep.Frames
			repaired++
		}
	}
	t.Logf("%d cut samples repaired, all decode clean", repaired)
}

// TestRepairWhole: a replay that is complete needs no repair, and a forced
// look at it gives the same answer; the files that stopped are repaired.
func TestRepairWhole(t *testing.T) {
	stopped := map[string]bool{"tests__data__corrupt.slp": true, "slp__incomplete.slp": true, "test__replays__streaming_game.slp": true}
	files, _ := filepath.Glob(filepath.Join(corpus.Samples(t, "slippi"), "*.slp"))
	if dir := filepath.Join(corpus.Root(t), "..", "shared", "corpus", "slp"); dirExists(dir) {
		more, _ := filepath.Glob(filepath.Join(dir, "*", "*.slp"))
		files = append(files, more...)
	} else {
		t.Log("shared corpus absent: samples only")
	}
	for _, f := range files {
		data := readFile(t, f)
		rep, err := Repair(data, model.RepairOptions{ModTime: repairTime})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if stopped[filepath.Base(f)] {
			checkRepaired(t, f, data, rep)
			continue
		}
		if rep.Whole == "" || rep.Data != nil {
			t.Errorf("%s: a complete replay was repaired: %v", f, rep.Steps)
		}
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// TestRepairMetadataAgainstRecorder strips the metadata of every replay
// that has one (the whole stream kept, raw length 0: a crash right after
// Game End) and compares the rebuilt metadata with what the recorder
// (Dolphin, or the console's relay) wrote: lastFrame and the frames per
// character of every player, and the names of online games (3.9.0+, where
// Game Start carries them).
func TestRepairMetadataAgainstRecorder(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus.Samples(t, "slippi"), "*.slp"))
	if dir := filepath.Join(corpus.Root(t), "..", "shared", "corpus", "slp"); dirExists(dir) {
		more, _ := filepath.Glob(filepath.Join(dir, "*", "*.slp"))
		files = append(files, more...)
	}
	compared := 0
	for _, f := range files {
		data := readFile(t, f)
		raw := int(binary.BigEndian.Uint32(data[len(magic):]))
		if raw == 0 {
			continue
		}
		orig, _, err := ubjson.Decode(data[rawStart+raw+len(metadataKey):], 0, budget.New(1<<20, model.Limits{}))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		in := cutRecording(data, 1, 1)
		rep, err := Repair(in, model.RepairOptions{ModTime: repairTime})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checkRepaired(t, f, in, rep)
		newRaw := int(binary.BigEndian.Uint32(rep.Data[len(magic):]))
		out := rep.Data[rawStart+newRaw+len(metadataKey):]
		got, _, err := ubjson.Decode(out, 0, budget.New(1<<20, model.Limits{}))
		if err != nil {
			t.Fatalf("%s: rebuilt metadata: %v", f, err)
		}
		if lf, ok := orig.Get("lastFrame"); ok {
			if g, _ := got.Get("lastFrame"); g == nil || g.Int != lf.Int {
				t.Errorf("%s: lastFrame %v, the recorder wrote %d", f, g, lf.Int)
			}
		}
		op, _ := orig.Get("players")
		gp, _ := got.Get("players")
		if op == nil || len(op.Keys) == 0 {
			continue // old and console recordings list no players
		}
		for i, port := range op.Keys {
			g, ok := gp.Get(port)
			if !ok {
				t.Errorf("%s: port %s missing from the rebuilt players", f, port)
				continue
			}
			if want, ok := op.Vals[i].Get("characters"); ok {
				gc, _ := g.Get("characters")
				if fmt.Sprint(charMap(want)) != fmt.Sprint(charMap(gc)) {
					t.Errorf("%s: port %s characters %v, the recorder wrote %v", f, port, charMap(gc), charMap(want))
				}
			}
			// EXPECTED.md: v3.12.slp's metadata names P2 "yyyyyyyyy" (9 y),
			// its Game Start "yyyyyyyyyy" (10): the file was edited by hand
			if versionOf(data) >= ver(3, 9, 0) && filepath.Base(f) != "tests__data__v3.12.slp" {
				wn, _ := op.Vals[i].Get("names")
				gn, _ := g.Get("names")
				for _, k := range []string{"netplay", "code"} {
					a, _ := wn.Get(k)
					b, _ := gn.Get(k)
					if (a == nil) != (b == nil) || a != nil && a.Str != b.Str {
						t.Errorf("%s: port %s names.%s %v, the recorder wrote %v", f, port, k, b, a)
					}
				}
			}
		}
		compared++
	}
	if compared == 0 {
		t.Fatal("no replay with players in its metadata")
	}
	t.Logf("%d recordings' metadata rebuilt as their recorder wrote it", compared)
}

// versionOf is the version in a file's Game Start.
func versionOf(data []byte) uint32 {
	wk, err := walkStream(data)
	if err != nil {
		return 0
	}
	return wk.version
}

func charMap(v *ubjson.Value) map[string]int64 {
	m := map[string]int64{}
	if v == nil {
		return m
	}
	for i, k := range v.Keys {
		m[k] = v.Vals[i].Int
	}
	return m
}

// jsRepaired is one line of testdata/slippijs/repaired.ndjson.gz: what
// slippi-js 9.1.2 read from a file `rewind repair` wrote.
type jsRepaired struct {
	Source   string `json:"source"`
	Cut      int    `json:"cut"`
	Of       int    `json:"of"`
	Status   string `json:"status"`
	SHA256   string `json:"sha256"`
	SlippiJS struct {
		Settings *struct {
			SlpVersion string `json:"slpVersion"`
			StageID    int    `json:"stageId"`
			Players    []struct {
				PlayerIndex int `json:"playerIndex"`
				CharacterID int `json:"characterId"`
			} `json:"players"`
		} `json:"settings"`
		Frames    int    `json:"frames"`
		LastFrame *int64 `json:"lastFrame"`
		GameEnd   *struct {
			Method int64  `json:"gameEndMethod"`
			LRAS   *int64 `json:"lrasInitiatorIndex"`
		} `json:"gameEnd"`
		GameEndLast *int64 `json:"gameEndLast"`
		Metadata    *struct {
			StartAt   string `json:"startAt"`
			LastFrame int64  `json:"lastFrame"`
			Players   map[string]struct {
				Characters map[string]int64 `json:"characters"`
			} `json:"players"`
		} `json:"metadata"`
	} `json:"slippijs"`
}

// TestRepairAgainstSlippiJS repairs the inputs repair.cjs repaired (the
// same cuts, the same modification time), checks that the bytes are the
// ones slippi-js read, and that what rewind's report says is what slippi-js
// read from them: the settings, the frames, lastFrame and the Game End.
func TestRepairAgainstSlippiJS(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "slippijs", "repaired.ndjson.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	checked, skipped := 0, 0
	for sc.Scan() {
		var js jsRepaired
		if err := json.Unmarshal(sc.Bytes(), &js); err != nil {
			t.Fatal(err)
		}
		name := js.Source
		if js.Cut > 0 {
			name += fmt.Sprintf(" cut %d/%d", js.Cut, js.Of)
		}
		var path string
		if s, ok := strings.CutPrefix(js.Source, "samples/"); ok {
			path = filepath.Join(corpus.Samples(t, "slippi"), s)
		} else {
			path = filepath.Join(corpus.Root(t), "..", "shared", "corpus", "slp", strings.TrimPrefix(js.Source, "corpus/"))
			if _, err := os.Stat(path); err != nil {
				skipped++
				continue
			}
		}
		in := readFile(t, path)
		if js.Cut > 0 {
			in = cutRecording(in, js.Cut, js.Of)
		}
		rep, err := Repair(in, model.RepairOptions{ModTime: repairTime})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		sum := sha256.Sum256(rep.Data)
		if hex.EncodeToString(sum[:]) != js.SHA256 {
			t.Errorf("%s: the repaired bytes are not the ones slippi-js read; run testdata/slippijs/repair.cjs again", name)
			continue
		}
		r := checkRepaired(t, name, in, rep)
		sj := js.SlippiJS
		if sj.Frames != rep.Frames {
			t.Errorf("%s: report %d frames, slippi-js %d", name, rep.Frames, sj.Frames)
		}
		if sj.LastFrame == nil || *sj.LastFrame != fact(rep, "lastFrame").(int64) {
			t.Errorf("%s: report lastFrame %v, slippi-js %v", name, fact(rep, "lastFrame"), sj.LastFrame)
		}
		if sj.GameEnd == nil || sj.GameEnd.Method != fact(rep, "gameEndMethod").(int64) || sj.GameEndLast == nil || *sj.GameEndLast != sj.GameEnd.Method {
			t.Errorf("%s: report Game End method %v, slippi-js %+v (last event %v)", name, fact(rep, "gameEndMethod"), sj.GameEnd, sj.GameEndLast)
		}
		if sj.Metadata == nil || sj.Metadata.LastFrame != lastLeader(t, rep) {
			t.Errorf("%s: slippi-js reads metadata %+v", name, sj.Metadata)
		}
		if s := sj.Settings; s == nil {
			t.Errorf("%s: slippi-js has no settings", name)
		} else {
			if s.SlpVersion != r.Version {
				t.Errorf("%s: slippi-js version %s, rewind %s", name, s.SlpVersion, r.Version)
			}
			kept := rep.Steps[0].Text
			if st := stageName(s.StageID); !strings.Contains(kept, " on "+st+")") {
				t.Errorf("%s: slippi-js stage %s; report: %s", name, st, kept)
			}
			for _, p := range s.Players {
				if who := fmt.Sprintf("P%d %s", p.PlayerIndex+1, externalName(p.CharacterID)); !strings.Contains(kept, who) {
					t.Errorf("%s: slippi-js player %s; report: %s", name, who, kept)
				}
			}
		}
		checked++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no repaired file checked")
	}
	t.Logf("%d repaired files read by slippi-js as rewind's report says (%d corpus inputs absent)", checked, skipped)
}

// lastLeader is the metadata lastFrame the repair wrote.
func lastLeader(t *testing.T, rep *model.Repaired) int64 {
	raw := int(binary.BigEndian.Uint32(rep.Data[len(magic):]))
	meta, _, err := ubjson.Decode(rep.Data[rawStart+raw+len(metadataKey):], 0, budget.New(int64(len(rep.Data)), model.Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	lf, _ := meta.Get("lastFrame")
	return lf.Int
}

// TestRepairCorpusStopped checks the corpus's recordings that stopped
// against what MANIFEST.tsv and EXPECTED.md say they hold.
func TestRepairCorpusStopped(t *testing.T) {
	for _, tt := range []struct {
		rel        string
		frames     int    // kept
		lastFrame  int64  // kept
		method     int64  // of the Game End in the new file
		cutWhy     string // in the cut step
		rawLenFrom string
	}{
		// cut mid message splitter after Game Start: no frame at all
		{"hohav__peppi/tests__data__corrupt.slp", 0, -124, 7, "Message Splitter at 0x6edf is cut off", "raw length 0 (still recording)"},
		// raw length 0, no metadata, no Game End; frames -123..7656
		{"project-slippi__slippi-js/slp__incomplete.slp", 7780, 7656, 0, "", "raw length 0 (still recording)"},
		// raw length 0 but Game End (method 3) and metadata: only the length
		{"hohav__py-slippi/test__replays__streaming_game.slp", 5209, 5085, 3, "", "raw length 0 (still recording)"},
	} {
		in := readFile(t, corpus.File(t, "slp", tt.rel))
		rep, err := Repair(in, model.RepairOptions{ModTime: repairTime})
		if err != nil {
			t.Errorf("%s: %v", tt.rel, err)
			continue
		}
		checkRepaired(t, tt.rel, in, rep)
		if rep.Frames != tt.frames || fact(rep, "lastFrame") != tt.lastFrame || fact(rep, "gameEndMethod") != tt.method {
			t.Errorf("%s: frames %d lastFrame %v method %v, want %d %d %d", tt.rel, rep.Frames, fact(rep, "lastFrame"), fact(rep, "gameEndMethod"), tt.frames, tt.lastFrame, tt.method)
		}
		text := decodetest.Steps(rep)
		if tt.cutWhy != "" && !strings.Contains(text, tt.cutWhy) {
			t.Errorf("%s: the report does not say %q:\n%s", tt.rel, tt.cutWhy, text)
		}
		if !strings.Contains(text, tt.rawLenFrom) {
			t.Errorf("%s: the report does not fix the %s:\n%s", tt.rel, tt.rawLenFrom, text)
		}
	}
}

// TestRepairDamage flips bits all over small samples. A flip the decoder
// cannot notice leaves a file that needs no repair; a flip in the stream
// is cut off with everything after it; a flip in the header, Event
// Payloads or Game Start cannot be repaired and says why. Whatever is
// written decodes clean.
func TestRepairDamage(t *testing.T) {
	counts := map[string]int{}
	for _, name := range []string{"tests__data__netplay.slp", "slp__nametags.slp", "tests__data__v3.12.slp"} {
		data := readFile(t, filepath.Join(corpus.Samples(t, "slippi"), name))
		// spread over the file, and the raw length, Event Payloads, the
		// metadata and the closing brace in particular
		offs := []int{11, 12, 13, 14, rawStart + 1, rawStart + 5, len(data) - 1, len(data) - 60}
		for i := 0; i < 160; i++ {
			offs = append(offs, (i*7919+13)%len(data))
		}
		for _, off := range offs {
			for _, bit := range []byte{0x01, 0x10, 0x80} {
				in := append([]byte(nil), data...)
				in[off] ^= bit
				label := fmt.Sprintf("%s bit %#02x at %#x", name, bit, off)
				rep, err := Repair(in, model.RepairOptions{ModTime: repairTime})
				var re *model.RepairError
				switch {
				case err != nil && errors.As(err, &re):
					counts["could not repair"]++
				case err != nil:
					t.Errorf("%s: %v is no RepairError", label, err)
				case rep.Whole != "":
					counts["whole"]++
					if r, err := Decode(in, model.DecodeOptions{}); err != nil || r.Problems() > 0 {
						t.Errorf("%s: called whole, but the decoder finds problems", label)
					}
				default:
					counts["repaired"]++
					checkRepaired(t, label, in, rep)
				}
			}
		}
	}
	t.Logf("bit flips: %v", counts)
	if counts["repaired"] == 0 || counts["whole"] == 0 {
		t.Errorf("expected both repaired and whole files among the flips: %v", counts)
	}
}

// TestRepairRefuses: files with no game to keep get one sentence each.
func TestRepairRefuses(t *testing.T) {
	good := readFile(t, filepath.Join(corpus.Samples(t, "slippi"), "tests__data__netplay.slp"))
	payEnd := rawStart + 1 + int(good[rawStart+1])
	noEnd := append([]byte(nil), good...)
	for q := rawStart + 2; q+3 <= payEnd; q += 3 {
		if noEnd[q] == cmdEnd {
			noEnd[q] = 0xEE // Game End no longer listed
		}
	}
	for _, tt := range []struct {
		name string
		in   []byte
		want string
	}{
		{"header only", good[:rawStart], "before Event Payloads"},
		{"no Event Payloads", append(append([]byte(nil), good[:rawStart]...), 0x36, 0, 0), "does not start with Event Payloads"},
		{"inside Event Payloads", good[:rawStart+10], "ends inside Event Payloads"},
		{"no Game Start", good[:payEnd], "no Game Start follows Event Payloads"},
		{"Game Start cut off", good[:payEnd+100], "Game Start at"},
		{"Game End not listed", noEnd, "does not list Game End"},
		{"not Slippi", []byte("hello"), "not a Slippi replay"},
	} {
		_, err := Repair(tt.in, model.RepairOptions{})
		var re *model.RepairError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a RepairError saying %q", tt.name, err, tt.want)
		}
	}
}

// FuzzRepair: the repair never panics, and whatever it writes decodes
// without a problem.
func FuzzRepair(f *testing.F) {
	for _, name := range []string{"tests__data__netplay.slp", "slp__nametags.slp"} {
		data := readFile(f, filepath.Join(corpus.Samples(f, "slippi"), name))
		f.Add(cutRecording(data, 1, 8))
		f.Add(data[:min(len(data), 6000)])
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		rep, err := Repair(in, model.RepairOptions{ModTime: repairTime})
		if err != nil || rep.Whole != "" {
			return
		}
		r, err := Decode(rep.Data, model.DecodeOptions{})
		if err != nil {
			t.Fatalf("repaired file does not decode: %v", err)
		}
		if r.Problems() > 0 {
			t.Fatalf("repaired file has problems: %v", r.Diagnostics)
		}
	})
}

// BenchmarkRepair repairs a sample cut in the middle (no shared corpus
// needed).
func BenchmarkRepair(b *testing.B) {
	data := readFile(b, filepath.Join(corpus.Samples(b, "slippi"), "tests__data__v3.18.slp"))
	in := cutRecording(data, 1, 2)
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		if _, err := Repair(in, model.RepairOptions{ModTime: repairTime}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRepairFrameBoundaries cuts right after and right before the event
// that completes a frame: its Frame Bookend from 3.0.0 (v3.16), the last
// post-frame update of its characters before (nametags 1.7.1, and ics
// 1.0.0 where Nana has her own updates). The frame is kept exactly when
// the cut follows that event.
func TestRepairFrameBoundaries(t *testing.T) {
	for _, tt := range []struct {
		file string
		kind model.KindID // the event that completes a frame
		nth  int          // which one (early, before any rollback)
	}{
		{"tests__data__v3.16.slp", kBookend, 10},
		{"slp__nametags.slp", kPost, 41},
		{"tests__data__ics.slp", kPost, 61},
	} {
		data := readFile(t, filepath.Join(corpus.Samples(t, "slippi"), tt.file))
		r, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var evs []model.Event
		for _, e := range r.Events {
			if e.Kind == tt.kind {
				evs = append(evs, e)
			}
		}
		sort.Slice(evs, func(i, j int) bool { return evs[i].Off < evs[j].Off })
		frameOf := func(e model.Event) int64 { return int64(int32(binary.BigEndian.Uint32(data[e.Off+1:]))) }
		// the last completing event of a frame: the next one is of another frame
		i := tt.nth
		for frameOf(evs[i+1]) == frameOf(evs[i]) {
			i++
		}
		done := evs[i]
		f := frameOf(done)
		for _, c := range []struct {
			cut  int64
			want int64
		}{{done.Off + done.Len, f}, {done.Off, f - 1}, {done.Off + done.Len - 1, f - 1}} {
			in := append([]byte(nil), data[:c.cut]...)
			binary.BigEndian.PutUint32(in[len(magic):], 0)
			rep, err := Repair(in, model.RepairOptions{ModTime: repairTime})
			if err != nil {
				t.Fatalf("%s cut at %#x: %v", tt.file, c.cut, err)
			}
			checkRepaired(t, tt.file, in, rep)
			if got := fact(rep, "lastFrame"); got != c.want {
				t.Errorf("%s cut at %#x (the %s of frame %d ends at %#x): last frame kept %v, want %d",
					tt.file, c.cut, kindNames[tt.kind], f, done.Off+done.Len, got, c.want)
			}
		}
	}
}
