package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

// sampleFiles lists the built-in samples on disk, so tests can name them.
func sampleFiles(t *testing.T) []string {
	t.Helper()
	ins, err := sampleInputs(os.DirFS("testdata/samples"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, in := range ins {
		out = append(out, filepath.Join("testdata/samples", strings.TrimPrefix(in.Name, "samples/")))
	}
	return out
}

func TestHelpEverywhere(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help"}, {"info", "--help"}, {"dump", "--help"}, {"check", "--help"}, {"help", "check"}} {
		out, errOut, code := runCLI(t, args...)
		if code != 0 {
			t.Errorf("%v: exit %d", args, code)
		}
		if !strings.Contains(out+errOut, "Usage") && !strings.Contains(out+errOut, "rewind") {
			t.Errorf("%v: no usage text: %q %q", args, out, errOut)
		}
	}
}

func TestNoTerminalPrintsInfoForSamples(t *testing.T) {
	// With stdout not a terminal (a buffer), plain `rewind` prints info.
	out, _, code := runCLI(t)
	if code == 2 {
		t.Fatalf("exit 2: a built-in sample is unreadable:\n%s", out)
	}
	for _, f := range sampleFiles(t) {
		name := "samples/" + strings.TrimPrefix(filepath.ToSlash(f), "testdata/samples/")
		if !strings.Contains(out, name) {
			t.Errorf("info output does not mention %s", name)
		}
	}
}

func TestInfoJSON(t *testing.T) {
	out, _, _ := runCLI(t, "info", "--json")
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 0
	for sc.Scan() {
		var j infoJSON
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		if j.Error != "" {
			t.Errorf("%s: %s", j.Path, j.Error)
		}
		n++
	}
	if n != len(sampleFiles(t)) {
		t.Errorf("%d objects for %d samples", n, len(sampleFiles(t)))
	}
}

func TestCheckExitCodes(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.slp")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "check", empty)
	if code != 2 {
		t.Errorf("empty file: exit %d, want 2", code)
	}
	if !strings.Contains(out, "unreadable: not a replay although its name ends in .slp: an empty file") {
		t.Errorf("empty file: output %q", out)
	}
	// a folder of non-replays has nothing to check and nothing wrong
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# notes\n"), 0o644)
	os.Remove(empty)
	if _, _, code := runCLI(t, "check", dir); code != 0 {
		t.Errorf("folder without replays: exit %d, want 0", code)
	}
	if _, _, code := runCLI(t, "check", filepath.Join(dir, "missing.slp")); code != 2 {
		t.Errorf("missing file: exit %d, want 2", code)
	}
}

func TestCheckJSONSummary(t *testing.T) {
	out, _, _ := runCLI(t, "check", "--json", "testdata/samples")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last struct {
		Summary map[string]formatTally `json:"summary"`
		Exit    int                    `json:"exit"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatalf("summary line: %v", err)
	}
	total := 0
	for _, tl := range last.Summary {
		total += tl.Files
		if tl.Clean+tl.Problems+tl.Unreadable != tl.Files {
			t.Errorf("tally does not add up: %+v", tl)
		}
	}
	if total != len(lines)-1 {
		t.Errorf("summary counts %d files, %d result lines", total, len(lines)-1)
	}
}

func TestDumpNDJSON(t *testing.T) {
	for _, f := range sampleFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, errOut, code := runCLI(t, "dump", "--json", "--frames", ":", f)
			if code == 2 {
				t.Skipf("unreadable: %s", errOut)
			}
			sc := bufio.NewScanner(strings.NewReader(out))
			sc.Buffer(nil, 64<<20)
			types := map[string]int{}
			first := ""
			for sc.Scan() {
				var obj map[string]any
				if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
					t.Fatalf("invalid JSON line: %v: %.200s", err, sc.Text())
				}
				typ, _ := obj["type"].(string)
				if first == "" {
					first = typ
				}
				types[typ]++
			}
			if first != "replay" || types["replay"] != 1 {
				t.Errorf("want one replay object first, got %v (first %q)", types, first)
			}
		})
	}
}
