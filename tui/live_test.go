package tui

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"rewind/decoders"
	"rewind/decoders/slippi"
	"rewind/model"
	"rewind/theme"
)

// snapshots follows a sample in pieces of 4 KiB and returns the
// snapshots a tailing loop would hand out, and the final replay.
func snapshots(t *testing.T, name string) ([]*model.Replay, *model.Replay) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "samples", "slippi", name))
	if err != nil {
		t.Fatal(err)
	}
	f := slippi.Follow(model.DecodeOptions{})
	var out []*model.Replay
	for c := 4096; ; c += 4096 {
		f.Feed(data[:min(c, len(data))])
		if r := f.Replay(); r != nil && r.Timeline.Count > 0 {
			out = append(out, r)
		}
		if c >= len(data) {
			break
		}
	}
	final, err := f.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return out, final
}

// liveApp is an app following a file whose updates the test hands over
// itself (no tailing goroutine).
func liveApp(w, h int) *app {
	a := &app{th: theme.New(false), mode: modeLoading, live: &liveFeed{box: make(chan liveMsg, 1), cancel: func() {}}}
	a.load = &loadState{name: "live.slp"}
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a
}

func (a *app) feedLive(r *model.Replay, final bool, ended string) {
	a.Update(liveMsg{u: decoders.Update{Replay: r, Final: final, Ended: ended}, p: prepare(r), done: final, feed: a.live})
}

// TestLiveFollowsTheEdge feeds a view the snapshots of a growing replay:
// the cursor stays on the last frame while the user leaves it there; once
// moved back it stays put and the status says how far behind the live
// edge it is; end rejoins the edge; the final replay says why following
// ended.
func TestLiveFollowsTheEdge(t *testing.T) {
	snaps, final := snapshots(t, "tests__data__v3.18.slp")
	if len(snaps) < 20 {
		t.Fatalf("%d snapshots", len(snaps))
	}
	a := liveApp(160, 48)
	if !strings.Contains(a.View(), "following live.slp: waiting") {
		t.Errorf("before the first snapshot:\n%s", a.View())
	}
	for _, r := range snaps[:5] {
		a.feedLive(r, false, "")
		if a.mode != modeReplay || a.rv.frame != r.Timeline.Count-1 {
			t.Fatalf("at %d frames the cursor is on %d, not the live edge", r.Timeline.Count, a.rv.frame)
		}
	}
	v := a.rv
	if !strings.Contains(v.View(), "● live") {
		t.Errorf("no live mark in the status:\n%s", v.View())
	}
	press(v, "home")
	for _, r := range snaps[5:10] {
		a.feedLive(r, false, "")
		if v.frame != 0 {
			t.Fatalf("the user went to the first frame; the update moved the cursor to %d", v.frame)
		}
	}
	behind := snaps[9].Timeline.Count - 1
	if want := model.FormatCount(int64(behind)) + " frames behind"; !strings.Contains(v.View(), want) {
		t.Errorf("status does not say %q:\n%s", want, v.View())
	}
	press(v, "end")
	for _, r := range snaps[10:] {
		a.feedLive(r, false, "")
		if v.frame != r.Timeline.Count-1 {
			t.Fatalf("after end the cursor is on %d of %d frames", v.frame, r.Timeline.Count)
		}
	}
	a.feedLive(final, true, "Game End")
	if v.r != final || v.frame != final.Timeline.Count-1 || !strings.Contains(v.View(), "ended: Game End") {
		t.Errorf("final: frame %d of %d\n%s", v.frame, final.Timeline.Count, v.View())
	}
	// and at 80x24 the status still says it
	v.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if !strings.Contains(v.View(), "ended: Game End") {
		t.Errorf("80x24:\n%s", v.View())
	}
}

// TestLiveKeepsTheUsersPlace: the event the user put the cursor on stays
// under it as updates add events, and the list shows them all.
func TestLiveKeepsTheUsersPlace(t *testing.T) {
	snaps, _ := snapshots(t, "tests__data__netplay.slp")
	a := liveApp(120, 40)
	a.feedLive(snaps[0], false, "")
	v := a.rv
	press(v, "home", "down", "down", "down")
	ev, frame := v.ev, v.frame
	for _, r := range snaps[1:] {
		a.feedLive(r, false, "")
	}
	if v.ev != ev || v.frame != frame || v.evs.len() != len(snaps[len(snaps)-1].Events) {
		t.Errorf("event cursor %d (was %d), frame %d (was %d), %d rows of %d events", v.ev, ev, v.frame, frame, v.evs.len(), len(snaps[len(snaps)-1].Events))
	}
}

// TestLiveRun runs the whole program on a file a writer appends to (as
// Dolphin writes it, the raw length set last), headless, until the
// recording ends, and reads the last screen.
func TestLiveRun(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "samples", "slippi", "tests__data__netplay.slp"))
	if err != nil {
		t.Fatal(err)
	}
	live := append([]byte(nil), data...)
	binary.BigEndian.PutUint32(live[11:], 0)
	path := filepath.Join(t.TempDir(), "live.slp")
	os.WriteFile(path, live[:2000], 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() {
		f, _ := os.OpenFile(path, os.O_WRONLY, 0)
		defer f.Close()
		for at := 2000; at < len(live) && ctx.Err() == nil; at += 5000 {
			time.Sleep(20 * time.Millisecond)
			f.WriteAt(live[at:min(at+5000, len(live))], int64(at))
		}
		f.WriteAt(data[11:15], 11)
	}()
	a := newApp(Config{Paths: []string{path}, Follow: true, Poll: 10 * time.Millisecond}, theme.New(false))
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	cmd := a.Init()
	for cmd != nil && ctx.Err() == nil {
		msg := cmd()
		_, cmd = a.Update(msg)
		a.View() // the lazy parts read while the loop decodes on
	}
	a.live.cancel()
	if a.rv == nil || !strings.Contains(a.View(), "ended: Game End") || a.rv.r.Timeline.Count != 128 {
		t.Fatalf("last screen:\n%s", a.View())
	}
}
