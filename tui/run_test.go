package tui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// screenBuffer collects what the program writes, safe for the renderer's
// goroutine, and says when a text has appeared.
type screenBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screenBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screenBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansi.Strip(s.buf.String())
}

// waitFor waits until every text has been drawn.
func (s *screenBuffer) waitFor(t *testing.T, texts ...string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		out, all := s.String(), true
		for _, x := range texts {
			all = all && strings.Contains(out, x)
		}
		if all {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%q never drawn; the screen so far:\n%s", texts, s.String())
}

// runHeadless runs Run on the paths with a pipe for the keyboard, and
// returns the screen, the pipe's writing end and Run's result channel.
func runHeadless(t *testing.T, cfg Config) (*screenBuffer, io.Writer, chan error) {
	t.Helper()
	in, keys := io.Pipe()
	out := &screenBuffer{}
	cfg.Input, cfg.Output = in, out
	cfg.Theme = "dark"
	done := make(chan error, 1)
	go func() { done <- Run(cfg) }()
	t.Cleanup(func() { keys.Close() })
	return out, keys, done
}

func waitRun(t *testing.T, done chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return")
		return nil
	}
}

// TestRunHeadless runs the real entry point, Run, without a terminal: on a
// real replay (it decodes, draws, takes keys and quits), on a broken one
// (it opens with its problems, e goes to the first), on a file that is no
// replay (Run returns the sentence), and through the browser to the
// error view of a file that cannot be opened.
func TestRunHeadless(t *testing.T) {
	sample := func(p string) string { return filepath.Join("..", "testdata", "samples", filepath.FromSlash(p)) }
	t.Run("real replay", func(t *testing.T) {
		out, keys, done := runHeadless(t, Config{Paths: []string{sample("slippi/tests__data__ics.slp")}})
		out.waitFor(t, "Final Destination", "moments", "? help")
		io.WriteString(keys, "v")
		out.waitFor(t, "stage ")
		io.WriteString(keys, "q")
		if err := waitRun(t, done); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("broken replay", func(t *testing.T) {
		out, keys, done := runHeadless(t, Config{Paths: []string{sample("slippi/tests__data__corrupt.slp")}})
		out.waitFor(t, "2 problems", "partial")
		io.WriteString(keys, "e")
		out.waitFor(t, "problems  ↑↓ problem")
		io.WriteString(keys, "q")
		if err := waitRun(t, done); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("not a replay", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "notes.slp")
		os.WriteFile(path, []byte("hello, these are notes\n"), 0o644)
		_, _, done := runHeadless(t, Config{Paths: []string{path}})
		err := waitRun(t, done)
		if err == nil || !strings.Contains(err.Error(), "notes.slp") {
			t.Fatalf("error %v, want one naming the file", err)
		}
	})
	t.Run("error view", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "fake.slp"), []byte("PK\x03\x04zipzipzip"), 0o644)
		out, keys, done := runHeadless(t, Config{Paths: []string{dir}})
		out.waitFor(t, "a zip archive")
		io.WriteString(keys, "\r")
		out.waitFor(t, "cannot open", "esc back · q quit")
		io.WriteString(keys, "q")
		if err := waitRun(t, done); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("bad theme", func(t *testing.T) {
		err := Run(Config{Theme: "sepia"})
		if err == nil || err.Error() != `--theme: unknown theme "sepia": want light, dark or auto` {
			t.Errorf("error %v", err)
		}
	})
}
