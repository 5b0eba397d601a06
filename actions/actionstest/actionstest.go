// Package actionstest plays Dolphin, osu! and configured commands in the tests
// of actions and of the commands, so that no test starts a real game. A
// test binary becomes the stand-in when it is started with Env naming a
// log (Run, first thing in TestMain or an init): it logs its arguments,
// and, given -i FILE as Dolphin is, every version of FILE it reads, until
// it is killed by its process id (KillAll, when the test ends) or its
// log's folder is gone. Started without -i it exits at once, with the
// status ExitEnv says.
package actionstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Env names the log; ExitEnv the stand-in's exit status when it is not
// playing Dolphin.
const (
	Env     = "REWIND_STAND_IN_LOG"
	ExitEnv = "REWIND_STAND_IN_EXIT"
)

// Entry is one line of the log: the stand-in's arguments when it starts,
// then each communication file it read.
type Entry struct {
	PID  int             `json:"pid"`
	Args []string        `json:"args,omitempty"`
	Comm json.RawMessage `json:"comm,omitempty"`
}

// Run plays the stand-in and reports true when Env is set; the caller
// then exits. It reports false at once otherwise.
func Run() bool {
	log := os.Getenv(Env)
	if log == "" {
		return false
	}
	write := func(e Entry) {
		data, _ := json.Marshal(e)
		f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			os.Exit(3)
		}
		f.Write(append(data, '\n')) // one write: lines from several stand-ins never mix
		f.Close()
	}
	args := os.Args[1:]
	write(Entry{PID: os.Getpid(), Args: args})
	i := slices.Index(args, "-i")
	if i < 0 || i+1 >= len(args) {
		code, _ := strconv.Atoi(os.Getenv(ExitEnv))
		os.Exit(code)
	}
	var last []byte
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Dir(log)); err != nil {
			break
		}
		data, err := os.ReadFile(args[i+1])
		if err != nil || bytes.Equal(data, last) || !json.Valid(data) {
			continue
		}
		last = data
		write(Entry{PID: os.Getpid(), Comm: bytes.TrimSpace(data)})
	}
	os.Exit(0)
	return true
}

// Entries reads the log; a line still being written is left for the next
// read.
func Entries(t testing.TB, log string) []Entry {
	t.Helper()
	data, err := os.ReadFile(log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []Entry
	for line := range strings.Lines(string(data[:bytes.LastIndexByte(data, '\n')+1])) {
		var e Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("stand-in log line %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

// WaitFor reads the log until ok says it has what the test waits for.
func WaitFor(t testing.TB, log, what string, ok func([]Entry) bool) []Entry {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		es := Entries(t, log)
		if ok(es) {
			return es
		}
		if time.Now().After(end) {
			t.Fatalf("the stand-in never %s; its log: %+v", what, es)
		}
	}
}

// Starts are the entries of stand-ins starting, with their arguments.
func Starts(es []Entry) []Entry {
	var out []Entry
	for _, e := range es {
		if e.Args != nil {
			out = append(out, e)
		}
	}
	return out
}

// Comms are the communication files the log shows, decoded.
func Comms(t testing.TB, es []Entry) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range es {
		if e.Comm == nil {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(e.Comm, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// KillAll ends the stand-ins the log names, by their process ids.
func KillAll(t testing.TB, log string) {
	for _, e := range Starts(Entries(t, log)) {
		if p, err := os.FindProcess(e.PID); err == nil {
			p.Kill()
		}
	}
}
