package decoders

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

// writer appends a replay to a file piece by piece, one piece each time
// Tail sleeps, on a clock that moves one poll per sleep: a recorder and
// a poller in step, without real time.
type writer struct {
	t      *testing.T
	path   string
	data   []byte
	cuts   []int
	next   int
	clock  time.Time
	closed func() // runs once everything is written (Slippi: set the raw length)
	polls  int
}

func (w *writer) options(poll, idle time.Duration) TailOptions {
	return TailOptions{Poll: poll, Idle: idle, Now: func() time.Time { return w.clock },
		Sleep: func(ctx context.Context, d time.Duration) {
			w.polls++
			w.clock = w.clock.Add(d)
			if w.next < len(w.cuts) {
				w.write(w.cuts[w.next])
				w.next++
				if w.next == len(w.cuts) && w.closed != nil {
					w.closed()
				}
			}
		}}
}

func (w *writer) write(upto int) {
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		w.t.Fatal(err)
	}
	st, _ := f.Stat()
	if _, err := f.Write(w.data[st.Size():upto]); err != nil {
		w.t.Fatal(err)
	}
	f.Close()
}

func sampleFile(t *testing.T, format, name string) []byte {
	b, err := os.ReadFile(filepath.Join(corpus.Samples(t, format), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTailSlippi follows a Slippi replay written as Dolphin writes one: the
// raw element's length 0 while the game runs, events in pieces, the
// metadata after Game End, then the length set at offset 11. The snapshots
// grow, following ends at Game End once the file stays as it is, and the
// final replay is a decode of the finished file (the rewritten length
// noticed).
func TestTailSlippi(t *testing.T) {
	whole := sampleFile(t, "slippi", "tests__data__netplay.slp")
	live := append([]byte(nil), whole...)
	binary.BigEndian.PutUint32(live[11:], 0)
	path := filepath.Join(t.TempDir(), "live.slp")
	os.WriteFile(path, live[:20], 0o644)
	w := &writer{t: t, path: path, data: live, cuts: decodetest.RandomCuts(len(live), 4096, 7)[1:], clock: time.Unix(0, 0)}
	w.closed = func() {
		f, _ := os.OpenFile(path, os.O_WRONLY, 0)
		f.WriteAt(whole[11:15], 11)
		f.Close()
	}
	var frames []int
	u, err := Tail(context.Background(), path, w.options(100*time.Millisecond, 0), func(u Update) {
		if u.Replay != nil && !u.Final {
			frames = append(frames, u.Replay.Timeline.Count)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// (the length's first byte, at 0xb, is 0 either way)
	if !u.Final || u.Ended != "Game End" || !strings.Contains(u.Note, "rewrote bytes from 0xc") {
		t.Errorf("final update: ended %q, note %q", u.Ended, u.Note)
	}
	want, _ := Decode(whole, path, model.DecodeOptions{})
	want.Path = path
	if s := decodetest.SameReplay(u.Replay, want); s != "" {
		t.Fatal(s)
	}
	if len(frames) < 10 || frames[len(frames)-1] <= frames[0] {
		t.Errorf("snapshots had %v frames", frames)
	}
	for i := 1; i < len(frames); i++ {
		if frames[i] < frames[i-1] {
			t.Fatalf("snapshot %d went back from %d to %d frames", i, frames[i-1], frames[i])
		}
	}
}

// TestTailTeehistorian follows a server's recording to FINISH; nothing is
// rewritten, so the final replay is the follower's own, equal to a decode.
func TestTailTeehistorian(t *testing.T) {
	data := sampleFile(t, "teehistorian", "two_players_chat_kill_spec_rcon_vote_dummy.teehistorian")
	path := filepath.Join(t.TempDir(), "live.teehistorian")
	os.WriteFile(path, nil, 0o644)
	w := &writer{t: t, path: path, data: data, cuts: decodetest.RandomCuts(len(data), 300, 3), clock: time.Unix(0, 0)}
	n := 0
	u, err := Tail(context.Background(), path, w.options(50*time.Millisecond, 0), func(Update) { n++ })
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Decode(data, path, model.DecodeOptions{})
	want.Path = path
	if s := decodetest.SameReplay(u.Replay, want); s != "" || u.Ended != "FINISH" || u.Note != "" {
		t.Fatalf("ended %q note %q: %s", u.Ended, u.Note, s)
	}
	if n < 5 {
		t.Errorf("%d updates", n)
	}
}

// TestTailIdle: a recorder that stops writing mid-game (Dolphin crashed)
// ends following after Idle without growth; the final replay is a decode
// of what was written, its cut event partial.
func TestTailIdle(t *testing.T) {
	data := sampleFile(t, "slippi", "slp__nametags.slp")
	cut := len(data)/2 + 3
	path := filepath.Join(t.TempDir(), "crashed.slp")
	os.WriteFile(path, nil, 0o644)
	w := &writer{t: t, path: path, data: data, cuts: decodetest.RandomCuts(cut, 2048, 1), clock: time.Unix(0, 0)}
	u, err := Tail(context.Background(), path, w.options(100*time.Millisecond, 2*time.Second), nil)
	if err != nil {
		t.Fatal(err)
	}
	if u.Ended != "no growth for 2s" || w.polls < 20 || w.polls > len(w.cuts)+25 {
		t.Errorf("ended %q after %d polls (%d pieces)", u.Ended, w.polls, len(w.cuts))
	}
	want, _ := Decode(data[:cut], path, model.DecodeOptions{})
	want.Path = path
	if s := decodetest.SameReplay(u.Replay, want); s != "" {
		t.Fatal(s)
	}
	if n := len(u.Replay.Events) - 1; !u.Replay.EventPartial(n) {
		t.Errorf("last event %+v is not partial", u.Replay.Events[n])
	}
}

// TestTailRefuses: what cannot be followed says why, with the path.
func TestTailRefuses(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	bsor := filepath.Join(dir, "play.bsor")
	os.WriteFile(bsor, sampleFile(t, "bsor", "easy-full-play.bsor"), 0o644)
	_, err := Tail(ctx, bsor, TailOptions{}, nil)
	var nl *NotLiveError
	if !errors.As(err, &nl) || err.Error() != "BSOR replay files are written whole, not live" {
		t.Errorf("BSOR: %v", err)
	}
	text := filepath.Join(dir, "notes.slp")
	os.WriteFile(text, []byte("these are my notes, not a replay"), 0o644)
	if _, err := Tail(ctx, text, TailOptions{}, nil); err == nil || !strings.Contains(err.Error(), "not a replay") {
		t.Errorf("text: %v", err)
	}
	if _, err := Tail(ctx, dir, TailOptions{}, nil); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("folder: %v", err)
	}

	// shrinking: the file is being rewritten
	data := sampleFile(t, "slippi", "slp__nametags.slp")
	path := filepath.Join(dir, "shrinks.slp")
	os.WriteFile(path, data[:5000], 0o644)
	clock := time.Unix(0, 0)
	opt := TailOptions{Now: func() time.Time { return clock }, Sleep: func(context.Context, time.Duration) {
		clock = clock.Add(time.Second)
		os.Truncate(path, 100)
	}}
	if _, err := Tail(ctx, path, opt, nil); err == nil || !strings.Contains(err.Error(), "shrank from 5,000 to 100 bytes") {
		t.Errorf("shrinking: %v", err)
	}
	// replaced: another file under the name
	os.WriteFile(path, data[:5000], 0o644)
	opt.Sleep = func(context.Context, time.Duration) {
		os.Remove(path)
		os.WriteFile(path, data, 0o644)
	}
	if _, err := Tail(ctx, path, opt, nil); err == nil || !strings.Contains(err.Error(), "was replaced") {
		t.Errorf("replaced: %v", err)
	}
}

// TestTailInterrupted: a cancelled context ends following with the replay
// of what is there.
func TestTailInterrupted(t *testing.T) {
	data := sampleFile(t, "slippi", "slp__nametags.slp")
	path := filepath.Join(t.TempDir(), "live.slp")
	os.WriteFile(path, data[:len(data)/2], 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	u, err := Tail(ctx, path, TailOptions{}, nil)
	if err != nil || u.Ended != "interrupted" || u.Replay == nil || u.Replay.Timeline.Count == 0 {
		t.Fatalf("%v %+v", err, u)
	}
}
