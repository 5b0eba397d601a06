//go:build unix || windows

package library

// The index lock is between processes, so its tests run processes: the
// test binary starts itself again as a helper (lockHelperEnv set), and
// TestMain sends the helper to lockHelper instead of the tests. Each
// helper takes the lock through Index.locked, the code path a flush and a
// compaction take, which is flock on unix and LockFileEx on Windows.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lockHelperEnv holds "mode folder" for a helper process.
const lockHelperEnv = "REWIND_LOCK_HELPER"

// lockRounds is how often each helper of the exclusion test takes the
// lock, and lockHold how long it keeps it each time: long enough that two
// helpers without a lock are inside at once on nearly every round.
const (
	lockRounds = 40
	lockHold   = 2 * time.Millisecond
)

func TestMain(m *testing.M) {
	if arg := os.Getenv(lockHelperEnv); arg != "" {
		mode, dir, _ := strings.Cut(arg, " ")
		if err := lockHelper(mode, dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// lockHelper is one helper process. In mode "rounds" it waits for the
// file "go" in dir (so that both helpers start together), then lockRounds
// times takes the lock and, holding it, does what a torn record is made
// of: it claims the folder (a file created with O_EXCL, which fails when
// another holder is inside), reads a counter, waits lockHold, writes the
// counter plus one. In mode "once" it says it is about to lock (the file
// "ready"), takes the lock once and leaves the file "got".
func lockHelper(mode, dir string) error {
	x := &Index{path: filepath.Join(dir, "index")}
	switch mode {
	case "once":
		if err := os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644); err != nil {
			return err
		}
		return x.locked(func() error { return os.WriteFile(filepath.Join(dir, "got"), nil, 0o644) })
	case "rounds":
		if err := waitFor(filepath.Join(dir, "go")); err != nil {
			return err
		}
		for i := range lockRounds {
			err := x.locked(func() error {
				inside := filepath.Join(dir, "inside")
				f, err := os.OpenFile(inside, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
				if errors.Is(err, fs.ErrExist) {
					return fmt.Errorf("pid %d round %d: another process holds the lock too", os.Getpid(), i)
				}
				if err != nil {
					return err
				}
				f.Close()
				n, err := readCounter(dir)
				if err != nil {
					return err
				}
				time.Sleep(lockHold)
				if err := os.WriteFile(filepath.Join(dir, "counter"), []byte(strconv.Itoa(n+1)), 0o644); err != nil {
					return err
				}
				return os.Remove(inside)
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown lock helper mode %q", mode)
}

func readCounter(dir string) (int, error) {
	b, err := os.ReadFile(filepath.Join(dir, "counter"))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(string(b))
}

// waitFor polls for a file another process makes; a minute without it is
// an error (the other process died), not a hang.
func waitFor(path string) error {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%s did not appear within a minute", path)
}

// startLockHelper starts the test binary as a helper in mode on dir; the
// returned function waits for it and fails t with its output if it failed.
func startLockHelper(t *testing.T, mode, dir string) func() {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+mode+" "+dir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper %d (%s): %v\n%s", cmd.Process.Pid, mode, err, out.String())
		}
	}
}

// TestLockExcludesOtherProcesses runs two processes that take the index
// lock in turn: neither ever finds the other inside, and no increment of
// the shared counter is lost. Without the lock (lockFile a no-op) the
// helpers fail on the first overlap they meet.
func TestLockExcludesOtherProcesses(t *testing.T) {
	dir := t.TempDir()
	wait := []func(){startLockHelper(t, "rounds", dir), startLockHelper(t, "rounds", dir)}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, w := range wait {
		w()
	}
	if t.Failed() {
		return
	}
	if n, err := readCounter(dir); err != nil || n != 2*lockRounds {
		t.Errorf("counter %d (%v) after two processes counted %d each: increments were lost", n, err, lockRounds)
	}
}

// TestLockWaitsForHolder holds the lock in this process while a helper
// asks for it: the helper gets it only after this process lets go. With
// no lock the helper would be through within the pause; a slow start only
// makes the test weaker, never wrong.
func TestLockWaitsForHolder(t *testing.T) {
	dir := t.TempDir()
	l, err := os.OpenFile(filepath.Join(dir, "index.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	unlock, err := lockFile(l)
	if err != nil {
		t.Fatal(err)
	}
	wait := startLockHelper(t, "once", dir)
	if err := waitFor(filepath.Join(dir, "ready")); err != nil {
		unlock()
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	_, err = os.Stat(filepath.Join(dir, "got"))
	unlock()
	if err == nil {
		t.Error("another process took the lock while this one held it")
	}
	wait()
	if _, err := os.Stat(filepath.Join(dir, "got")); err != nil {
		t.Errorf("the helper did not take the lock after it was let go: %v", err)
	}
}
