package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
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

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// golden compares out with testdata/golden/name, or rewrites it with -update.
// The golden files guard the CLI's output against accidental change; the
// values in them are checked against ground truth by the decoders' tests.
func golden(t *testing.T, name, out string) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if string(want) != out {
		t.Errorf("output differs from %s (go test -update rewrites it after a deliberate change):\n%s", p, lineDiff(string(want), out))
	}
}

// lineDiff shows the first lines that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}

func TestInfoGolden(t *testing.T) {
	out, _, code := runCLI(t, "info")
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	golden(t, "info-samples.txt", out)
}

func TestDumpGolden(t *testing.T) {
	// the first frames of a small online game: header, players, every
	// field of pre and post frames, events with offsets
	out, _, code := runCLI(t, "dump", "--frames", "-123:-121", "testdata/samples/slippi/tests__data__netplay.slp")
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	golden(t, "dump-netplay-first-frames.ndjson", out)
}

func TestCheckGolden(t *testing.T) {
	out, _, code := runCLI(t, "check", "testdata/samples")
	if code != 1 {
		t.Errorf("exit %d, want 1 (two samples are damaged on purpose)", code)
	}
	golden(t, "check-samples.txt", out)
}
