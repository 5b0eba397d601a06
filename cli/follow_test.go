package cli

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDumpFollow runs dump --follow on a Slippi replay that a writer
// appends in pieces, the raw length 0 until the end as Dolphin writes it:
// every frame line is the one a dump of the finished file writes, then come
// the replay line, the moments, the diagnostics and the end line, which
// says Game End.
func TestDumpFollow(t *testing.T) {
	whole, err := os.ReadFile(netplay)
	if err != nil {
		t.Fatal(err)
	}
	live := append([]byte(nil), whole...)
	binary.BigEndian.PutUint32(live[11:], 0)
	path := filepath.Join(t.TempDir(), "live.slp")
	if err := os.WriteFile(path, live[:3000], 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		for at := 3000; at < len(live); at += 4096 {
			time.Sleep(30 * time.Millisecond)
			f.WriteAt(live[at:min(at+4096, len(live))], int64(at))
		}
		f.WriteAt(whole[11:15], 11)
	}()
	got := rewind(t, "dump", "--follow", path)
	got.want(t, "dump --follow", 0, "")
	want := rewind(t, "dump", netplay)
	lines := strings.Split(strings.TrimSpace(got.stdout), "\n")
	wantLines := strings.Split(strings.TrimSpace(want.stdout), "\n")
	var frames, wantFrames []string
	for _, l := range lines {
		if strings.HasPrefix(l, `{"type":"frame"`) {
			frames = append(frames, l)
		}
	}
	for _, l := range wantLines {
		if strings.HasPrefix(l, `{"type":"frame"`) {
			wantFrames = append(wantFrames, l)
		}
	}
	if len(frames) != len(wantFrames) || len(frames) < 100 {
		t.Fatalf("%d frame lines, dump writes %d", len(frames), len(wantFrames))
	}
	for i := range frames {
		if frames[i] != wantFrames[i] {
			t.Fatalf("frame line %d:\n got %.300s\nwant %.300s", i, frames[i], wantFrames[i])
		}
	}
	if !strings.HasPrefix(lines[len(frames)], `{"type":"replay"`) {
		t.Errorf("after the frames: %.100s", lines[len(frames)])
	}
	var end struct {
		Type, Ended, Note string
		Bytes             int64
		Frames            int
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &end); err != nil || end.Type != "end" || end.Ended != "Game End" ||
		end.Bytes != int64(len(whole)) || end.Frames != len(frames) || !strings.Contains(end.Note, "rewrote") {
		t.Errorf("end line %s (%v)", lines[len(lines)-1], err)
	}
}

// TestDumpFollowRefuses: files written whole, --frames with --follow, and
// a recording that stops without its end (ended by --idle, exit 1: the
// replay is cut).
func TestDumpFollowRefuses(t *testing.T) {
	r := rewind(t, "dump", "--follow", "testdata/samples/bsor/easy-full-play.bsor")
	r.want(t, "BSOR", 2, "rewind dump: testdata/samples/bsor/easy-full-play.bsor: BSOR replay files are written whole, not live\n")
	r = rewind(t, "dump", "--follow", "--frames", "0..10", netplay)
	r.want(t, "--frames", 2, "rewind dump: --frames and --follow do not go together: following writes every frame as it completes\n")

	data, _ := os.ReadFile(netplay)
	path := filepath.Join(t.TempDir(), "crashed.slp")
	os.WriteFile(path, data[:len(data)/2], 0o644)
	start := time.Now()
	r = rewindWith(t, runOpts{cmd: func(*exec.Cmd) {}}, "dump", "--follow", "--idle", "500ms", path)
	r.want(t, "crashed recording", 1, "")
	if el := time.Since(start); el < 400*time.Millisecond {
		t.Errorf("ended after %v, before --idle 500ms", el)
	}
	if !strings.Contains(r.stdout, `"ended":"no growth for 500ms"`) || !strings.Contains(r.stdout, `"flag":"partial"`) {
		t.Errorf("end of a crashed recording: %.300s", r.stdout[max(0, len(r.stdout)-300):])
	}
}
