//go:build linux

package cli

// Runs through a pseudo-terminal: what check draws on a terminal, and the
// TUI's entry point, headless.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// pty opens a pseudo-terminal of the given size and returns its two ends.
func pty(t *testing.T, cols, rows uint16) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	ioctl := func(req uintptr, arg unsafe.Pointer) error {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), req, uintptr(arg)); e != 0 {
			return e
		}
		return nil
	}
	var n uint32
	var unlock int32
	if err := ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatal(err)
	}
	if err := ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatal(err)
	}
	ws := struct{ rows, cols, x, y uint16 }{rows, cols, 0, 0}
	if err := ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// screen collects what a program writes to the terminal.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor polls the screen until it holds text.
func (s *screen) waitFor(text string, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(s.String(), text) {
			return true
		}
	}
	return false
}

// TestCheckProgressOnTerminal: on a terminal, check draws a progress line
// on stderr naming the file it is on, cut to the terminal's width, and
// removes it before the report; piped, stderr stays empty.
func TestCheckProgressOnTerminal(t *testing.T) {
	master, tty := pty(t, 60, 24)
	var out bytes.Buffer
	cmd := exec.Command(bin, "check", "testdata/samples")
	cmd.Env = sandboxEnv("", "TZ=UTC")
	cmd.Stdout, cmd.Stderr = &out, tty
	var term screen
	go io.Copy(&term, master)
	if err := cmd.Run(); cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("exit %d (%v), want 1", cmd.ProcessState.ExitCode(), err)
	}
	tty.Close()
	time.Sleep(100 * time.Millisecond) // let the copy drain
	drawn := term.String()
	// the count of the samples, however many the formats bring
	total := fmt.Sprintf("/%d", len(sampleFiles(t)))
	for _, want := range []string{"\r\x1b[Kchecking ", total, "\r\x1b[K"} {
		if !strings.Contains(drawn, want) {
			t.Errorf("the terminal did not get %q:\n%q", want, drawn)
		}
	}
	// the line names the file being decoded: which one a redraw catches
	// depends on the machine (an SC2 sample usually, but a loaded one
	// once showed only others), so any sample's extension will do
	if !progressNamesFile.MatchString(drawn) {
		t.Errorf("no progress line names a file:\n%q", drawn)
	}
	if !strings.HasSuffix(drawn, "\r\x1b[K") {
		t.Errorf("the progress line is left on the screen: %q", drawn[max(0, len(drawn)-80):])
	}
	for _, line := range strings.Split(drawn, "\r\x1b[K") {
		if w := len([]rune(strings.TrimRight(line, "\r\n"))); w > 59 {
			t.Errorf("a progress line of %d columns on a 60-column terminal: %q", w, line)
		}
	}
	if piped := rewind(t, "check", "testdata/samples"); piped.stderr != "" || piped.stdout != out.String() {
		t.Errorf("piped, check wrote %q on stderr, or a different report", piped.stderr)
	}
}

// progressNamesFile is a progress line with the file being decoded:
// count, two spaces, the path's end with a replay's extension.
var progressNamesFile = regexp.MustCompile(`checking [█░]+ \d+/\d+  \S+\.(slp|SC2Replay|bsor|osr|gci|teehistorian)\r`)

// TestTUIEntryPoint runs `rewind FILE` on a terminal, once on a real
// replay and once on a broken one, and quits with q.
func TestTUIEntryPoint(t *testing.T) {
	for _, tt := range []struct{ file, shows string }{
		{netplay, "Fountain of Dreams"},
		{corrupt, "Message Splitter"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			master, tty := pty(t, 160, 48)
			cmd := exec.Command(bin, tt.file)
			cmd.Env = sandboxEnv("", "TZ=UTC", "TERM=xterm-256color")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
			var term screen
			go io.Copy(&term, master)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// the alternate screen: the TUI, not info's text
			if !term.waitFor("\x1b[?1049h", 20*time.Second) || !term.waitFor(tt.shows, 20*time.Second) {
				cmd.Process.Kill()
				t.Fatalf("the TUI never showed %q:\n%q", tt.shows, term.String())
			}
			master.Write([]byte("q"))
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("rewind %s: %v", tt.file, err)
				}
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("q did not quit")
			}
		})
	}
}

// TestPathsQuotedOnTerminal: on a terminal a file name is quoted as ls
// quotes it, so it can be pasted into a shell; piped, it is the name with
// only its control characters escaped.
func TestPathsQuotedOnTerminal(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "my game\x1b[2J.slp")
	if err := os.WriteFile(name, mustRead(t, netplay), 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	master, tty := pty(t, 200, 24)
	cmd := exec.Command(bin, "info", "--no-cache", name)
	cmd.Env = sandboxEnv("", "TZ=UTC")
	cmd.Stdout, cmd.Stderr = tty, tty
	var term screen
	go io.Copy(&term, master)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	want := "'" + dir + "/my game'$'\\033''[2J.slp'"
	if !term.waitFor(want, 5*time.Second) {
		t.Errorf("the terminal did not get %s:\n%q", want, term.String())
	}
	if strings.Contains(term.String(), "\x1b[2J") {
		t.Error("the name's ESC reached the terminal")
	}
	piped := rewind(t, "info", "--no-cache", name)
	if !strings.HasPrefix(piped.stdout, dir+"/my game\\x1b[2J.slp\n") {
		t.Errorf("piped: %q", piped.stdout)
	}
}
