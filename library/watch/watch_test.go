package watch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"rewind/decoders"
	"rewind/model"
)

// The samples: a Slippi replay (written live) and a BSOR one (written
// whole), from the built-in sample library.
const (
	slpSample  = "../../testdata/samples/slippi/slp__nametags.slp"
	bsorSample = "../../testdata/samples/bsor/oldest-0.1.0-clip.bsor"
)

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// record writes a Slippi replay to path as Dolphin does: created with its
// first bytes, appended in chunks of n every gap with the raw element's
// length 0, the length set once it is all there.
func record(t testing.TB, path string, whole []byte, n int, gap time.Duration) {
	t.Helper()
	live := bytes.Clone(whole)
	binary.BigEndian.PutUint32(live[11:], 0)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	for at := 0; at < len(live); at += n {
		if at > 0 {
			time.Sleep(gap)
		}
		if _, err := f.WriteAt(live[at:min(at+n, len(live))], int64(at)); err != nil {
			t.Error(err)
			return
		}
	}
	f.WriteAt(whole[11:15], 11)
}

// collector reads a watcher's events into a list until a condition holds.
type collector struct {
	w   *Watcher
	evs []Event
}

// until reads events until ok holds of those read so far; a minute
// without it is a hang, not a slow machine.
func (c *collector) until(t testing.TB, what string, ok func([]Event) bool) {
	t.Helper()
	deadline := time.After(time.Minute)
	for !ok(c.evs) {
		select {
		case ev, open := <-c.w.Events():
			if !open {
				t.Fatalf("events closed while waiting for %s; got %s", what, show(c.evs))
			}
			c.evs = append(c.evs, ev)
		case <-deadline:
			t.Fatalf("no %s within a minute; got %s", what, show(c.evs))
		}
	}
}

// has reports whether an event op of a path ending in name is among evs.
func has(evs []Event, op Op, name string) bool {
	return slices.ContainsFunc(evs, func(e Event) bool { return e.Op == op && strings.HasSuffix(e.Path, name) })
}

// story is what happened to each file, in order, a run of Grew as one.
func story(root string, evs []Event) map[string][]string {
	out := map[string][]string{}
	for _, e := range evs {
		rel, _ := filepath.Rel(root, e.Path)
		rel = filepath.ToSlash(rel)
		s := e.Op.String()
		if e.Op == Finished {
			s += " (" + e.Ended + ")"
		}
		if l := out[rel]; len(l) > 0 && l[len(l)-1] == s && e.Op == Grew {
			continue
		}
		out[rel] = append(out[rel], s)
	}
	return out
}

func show(evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "\n  %s %s size %d %s %s %v", e.Op, e.Path, e.Size, e.Ended, e.Note, e.Err)
	}
	return b.String()
}

// TestLifecycle: what a player's replay folder goes through, watched with
// notifications and by polling, gives the same story for each file:
//   - a Slippi recording made in a subfolder created after the watch
//     began appears, grows, and finishes at its Game End with the whole
//     game (as many frames as a decode of the finished file);
//   - a BSOR replay (written whole) appears and finishes after the quiet
//     period, then is removed;
//   - a text file is ignored, once, saying what it is;
//   - a replay already there when the watch began says nothing until it
//     changes, and then appears;
//   - a replay renamed is removed under its old name and appears under the
//     new one.
func TestLifecycle(t *testing.T) {
	slp, bsor := read(t, slpSample), read(t, bsorSample)
	want := map[string][]string{
		"2024-05/Game_1.slp": {"appeared", "grew", "finished (Game End)"},
		"clip.bsor":          {"appeared", "finished (no growth for 400ms)", "removed"},
		"notes.txt":          {"ignored"},
		"old.bsor":           {"appeared", "finished (no growth for 400ms)", "removed"},
		"renamed.bsor":       {"appeared", "finished (no growth for 400ms)"},
	}
	stories := map[bool]map[string][]string{}
	for _, poll := range []bool{false, true} {
		t.Run(fmt.Sprintf("poll=%v", poll), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "old.bsor"), bsor, 0o644); err != nil {
				t.Fatal(err)
			}
			w := New(Options{Poll: poll, Interval: 100 * time.Millisecond, Coalesce: 100 * time.Millisecond, Quiet: 400 * time.Millisecond})
			defer w.Close()
			if err := w.Add(dir); err != nil {
				t.Fatal(err)
			}
			c := &collector{w: w}
			if poll {
				c.until(t, "the polling event", func(evs []Event) bool { return has(evs, Polling, filepath.Base(dir)) })
				c.evs = nil
			}
			month := filepath.Join(dir, "2024-05")
			if err := os.Mkdir(month, 0o755); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond) // the new folder is watched before the game starts
			record(t, filepath.Join(month, "Game_1.slp"), slp, 2048, 5*time.Millisecond)
			c.until(t, "the game's end", func(evs []Event) bool { return has(evs, Finished, "Game_1.slp") })
			os.WriteFile(filepath.Join(dir, "clip.bsor"), bsor, 0o644)
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("kept for the tournament: game 3 was a desync\n"), 0o644)
			c.until(t, "the clip finished", func(evs []Event) bool { return has(evs, Finished, "clip.bsor") && has(evs, Ignored, "notes.txt") })
			os.Remove(filepath.Join(dir, "clip.bsor"))
			// the old file changes: it appears
			os.Chtimes(filepath.Join(dir, "old.bsor"), time.Now(), time.Now())
			os.WriteFile(filepath.Join(dir, "old.bsor"), bsor, 0o644)
			c.until(t, "the old file finished", func(evs []Event) bool { return has(evs, Removed, "clip.bsor") && has(evs, Finished, "old.bsor") })
			os.Rename(filepath.Join(dir, "old.bsor"), filepath.Join(dir, "renamed.bsor"))
			c.until(t, "the renamed file finished", func(evs []Event) bool { return has(evs, Finished, "renamed.bsor") })

			got := story(dir, c.evs)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("events:\n got %v\nwant %v%s", got, want, show(c.evs))
			}
			stories[poll] = got
			for _, e := range c.evs {
				switch {
				case e.Op == Ignored && !strings.Contains(fmt.Sprint(e.Err), `not a replay: a text file beginning "kept for the tournament`):
					t.Errorf("notes.txt ignored because %v", e.Err)
				case e.Op == Finished && strings.HasSuffix(e.Path, ".slp"):
					whole, err := decoders.Decode(slp, "Game_1.slp", model.DecodeOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if e.Replay == nil || e.Replay.Timeline.Count != whole.Timeline.Count || e.Size != int64(len(slp)) || e.Format.ID != "slippi" {
						t.Errorf("the game finished with %d bytes, replay %v; the file has %d bytes and %d frames", e.Size, e.Replay != nil, len(slp), whole.Timeline.Count)
					}
				case e.Op == Grew && strings.HasSuffix(e.Path, ".slp") && e.Replay == nil && e.Size > 1024:
					t.Errorf("a live file grew to %d bytes with no snapshot", e.Size)
				case e.Op == Appeared && strings.HasSuffix(e.Path, ".bsor") && e.Format.ID != "bsor":
					t.Errorf("%s appeared as %v", e.Path, e.Format.ID)
				}
			}
		})
	}
	if fmt.Sprint(stories[false]) != fmt.Sprint(stories[true]) {
		t.Errorf("polling tells another story:\nnotify %v\n  poll %v", stories[false], stories[true])
	}
}

// TestNamedFile: a file given to Add that is not there yet is watched for
// in its folder: it appears when it is made, and its neighbours say
// nothing. One that is there appears at once and is followed from its
// start, even if its recording is over.
func TestNamedFile(t *testing.T) {
	slp := read(t, slpSample)
	for _, poll := range []bool{false, true} {
		t.Run(fmt.Sprintf("poll=%v", poll), func(t *testing.T) {
			dir := t.TempDir()
			done := filepath.Join(dir, "done.slp")
			os.WriteFile(done, slp, 0o644)
			w := New(Options{Poll: poll, Interval: 100 * time.Millisecond, Coalesce: 100 * time.Millisecond, Quiet: 300 * time.Millisecond})
			defer w.Close()
			later := filepath.Join(dir, "later.slp")
			for _, p := range []string{later, done} {
				if err := w.Add(p); err != nil {
					t.Fatal(err)
				}
			}
			c := &collector{w: w}
			c.until(t, "the finished file", func(evs []Event) bool { return has(evs, Finished, "done.slp") })
			os.WriteFile(filepath.Join(dir, "neighbour.slp"), slp, 0o644)
			record(t, later, slp, 8192, time.Millisecond)
			c.until(t, "the named file", func(evs []Event) bool { return has(evs, Finished, "later.slp") })
			time.Sleep(500 * time.Millisecond) // room for a wrong event about the neighbour
			for _, e := range c.evs {
				if e.Op == Polling {
					continue
				}
				if strings.HasSuffix(e.Path, "neighbour.slp") {
					t.Errorf("an event about a file not named: %s", show([]Event{e}))
				}
			}
			got := story(dir, c.evs)
			for _, name := range []string{"done.slp", "later.slp"} {
				if want := []string{"appeared", "grew", "finished (Game End)"}; !slices.Equal(got[name], want) {
					t.Errorf("%s: %v, want %v", name, got[name], want)
				}
			}
			if w.Add(filepath.Join(dir, "nowhere", "x.slp")) == nil {
				t.Error("a file in a folder that does not exist was taken")
			}
		})
	}
}

// TestCoalesce: a recorder writing 60 times a second makes no more Grew
// events than one per Coalesce (and one more at each end), for a live
// file (its follower reads) and for one written whole (the watcher
// looks); bounds that hold on a machine of any speed, since a slower one
// only makes fewer.
func TestCoalesce(t *testing.T) {
	slp, bsor := read(t, slpSample), read(t, bsorSample)
	for _, tt := range []struct {
		name string
		data []byte
	}{{"game.slp", slp}, {"song.bsor", bsor}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			const coalesce = 200 * time.Millisecond
			w := New(Options{Coalesce: coalesce, Quiet: 500 * time.Millisecond})
			defer w.Close()
			if err := w.Add(dir); err != nil {
				t.Fatal(err)
			}
			c := &collector{w: w}
			start := time.Now()
			writes := 90 // 1.5 s at 60 a second
			record(t, filepath.Join(dir, tt.name), tt.data, len(tt.data)/writes+1, time.Second/60)
			took := time.Since(start)
			c.until(t, "the end", func(evs []Event) bool { return has(evs, Finished, tt.name) })
			grew := 0
			for _, e := range c.evs {
				if e.Op == Grew {
					grew++
				}
			}
			if limit := int(took/coalesce) + 2; grew == 0 || grew > limit {
				t.Errorf("%d writes in %v made %d Grew events; want 1 to %d", writes, took, grew, limit)
			}
		})
	}
}

// TestRemovedWhileFollowed: a live file deleted while it is written is
// Removed once its follower has stopped, and nothing about it comes after.
func TestRemovedWhileFollowed(t *testing.T) {
	slp := read(t, slpSample)
	dir := t.TempDir()
	w := New(Options{Coalesce: 50 * time.Millisecond, Interval: 100 * time.Millisecond})
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "crash.slp")
	os.WriteFile(path, slp[:len(slp)/2], 0o644)
	c := &collector{w: w}
	c.until(t, "a snapshot", func(evs []Event) bool {
		return slices.ContainsFunc(evs, func(e Event) bool { return e.Op == Grew && e.Replay != nil })
	})
	os.Remove(path)
	c.until(t, "the removal", func(evs []Event) bool { return has(evs, Removed, "crash.slp") })
	time.Sleep(300 * time.Millisecond)
	select {
	case e := <-w.Events():
		t.Errorf("after Removed: %s", show([]Event{e}))
	default:
	}
}

// TestCloseLeavesNoGoroutines: Close ends every goroutine the watcher
// started (its loop, fsnotify's reader, the followers), whether the
// consumer read everything or nothing, with files being followed.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	slp := read(t, slpSample)
	before := runtime.NumGoroutine()
	for _, poll := range []bool{false, true} {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "sub"), 0o755)
		w := New(Options{Poll: poll, Interval: 50 * time.Millisecond, Coalesce: 20 * time.Millisecond, MaxFollow: 2})
		if err := w.Add(dir); err != nil {
			t.Fatal(err)
		}
		// five live files at once, two followed, three waiting; nobody reads
		for i := range 5 {
			os.WriteFile(filepath.Join(dir, "sub", fmt.Sprintf("g%d.slp", i)), slp[:len(slp)/2], 0o644)
		}
		time.Sleep(400 * time.Millisecond)
		w.Close()
		w.Close() // twice is fine
		if _, open := <-w.Events(); open {
			// an event may have been in hand; the channel is closed after it
			for range w.Events() {
			}
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before, %d after Close:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
	w := New(Options{})
	w.Close()
	if err := w.Add(t.TempDir()); err == nil || !errors.Is(err, err) {
		t.Errorf("Add after Close: %v", err)
	}
}

// TestDeafFileSystem: a folder whose notifications stop coming (as on a
// share that another machine writes) is found out at the rescans, polled
// from then on, and the replay made meanwhile appears. The system's watch
// is taken off the folder behind the watcher's back to make it deaf.
func TestDeafFileSystem(t *testing.T) {
	bsor := read(t, bsorSample)
	dir := t.TempDir()
	w := New(Options{Rescan: 200 * time.Millisecond, Interval: 100 * time.Millisecond, Quiet: 300 * time.Millisecond})
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	if w.fsw == nil {
		t.Skip("no file notifications here")
	}
	w.fsw.Remove(dir)
	os.WriteFile(filepath.Join(dir, "from-the-other-pc.bsor"), bsor, 0o644)
	c := &collector{w: w}
	c.until(t, "the replay made meanwhile", func(evs []Event) bool { return has(evs, Finished, "from-the-other-pc.bsor") })
	if c.evs[0].Op != Polling || c.evs[0].Path != dir || !strings.Contains(c.evs[0].Note, "no notification came") {
		t.Errorf("first event: %s", show(c.evs[:1]))
	}
	os.WriteFile(filepath.Join(dir, "next.bsor"), bsor, 0o644)
	c.until(t, "the next replay, polled", func(evs []Event) bool { return has(evs, Appeared, "next.bsor") })
}
