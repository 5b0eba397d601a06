//go:build unix

package cli

import (
	"bytes"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"rewind/library"
)

// interruptingWriter sends the process an interrupt at its first write
// (the command is then writing its sorted moments out, its runs spilled)
// and gives the signal time to arrive before the command goes on.
type interruptingWriter struct {
	bytes.Buffer
	once sync.Once
}

func (w *interruptingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() {
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		time.Sleep(300 * time.Millisecond)
	})
	return w.Buffer.Write(p)
}

// An interrupt while moments merges its spilled runs stops it (exit status
// 130, "interrupted") and leaves no temporary file, in the folder or open.
func TestMomentsInterruptedLeavesNoFile(t *testing.T) {
	// the test's own channel keeps an interrupt from ending the test
	// binary, whether or not the command listens yet
	caught := make(chan os.Signal, 1)
	signal.Notify(caught, os.Interrupt)
	defer signal.Stop(caught)
	cache := t.TempDir()
	t.Setenv(library.CacheEnv, cache)
	defer func(n int) { momentRunBytes = n }(momentRunBytes)
	momentRunBytes = 16 << 10
	var out interruptingWriter
	var errb bytes.Buffer
	code := run([]string{"moments", "--sort", "damage", "testdata/samples", ""}, &out, &errb)
	if code != 130 || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q; want 130 and interrupted", code, errb.String())
	}
	if n := strings.Count(out.String(), "\n"); n == 0 || n >= 999 {
		t.Errorf("%d lines written: want some, not all", n)
	}
	for _, f := range spillFiles(t, cache) {
		if strings.Contains(f, "rewind-moments-") {
			t.Errorf("%s left", f)
		}
	}
}
