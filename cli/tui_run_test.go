package cli

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"rewind/tui"
)

// lockedBuffer is a writer the TUI's renderer goroutine can share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunTUIHeadless runs runTUI, what `rewind FILE` runs on a terminal,
// once on a real replay and once on a broken one, with a pipe for the
// keyboard and a buffer for the screen.
func TestRunTUIHeadless(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"testdata/samples/fzgx/time-attack.gci", "F-Zero"},
		{"testdata/samples/sc2/broken-5.0.10-truncated.SC2Replay", "problem"},
	} {
		t.Run(c.path, func(t *testing.T) {
			in, keys := io.Pipe()
			out := &lockedBuffer{}
			tuiIO.in, tuiIO.out = in, out
			defer func() { tuiIO.in, tuiIO.out = nil, nil }()
			t.Setenv("REWIND_THEME", "light")
			done := make(chan error, 1)
			go func() { done <- runTUI(tui.Config{Paths: []string{c.path}, NoCache: true}) }()
			deadline := time.Now().Add(20 * time.Second)
			for !strings.Contains(out.String(), c.want) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if !strings.Contains(out.String(), c.want) {
				t.Fatalf("%q never drawn:\n%s", c.want, out.String())
			}
			io.WriteString(keys, "q")
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("runTUI did not return")
			}
		})
	}
}
