package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestStatsHelpAndMistakes(t *testing.T) {
	for _, args := range [][]string{{"stats", "--help"}, {"help", "stats"}, {"stats", "-h"}} {
		out, errOut, code := runCLI(t, args...)
		if code != 0 || !strings.HasPrefix(out, "Usage: rewind stats") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %.40q, stderr %q", args, code, out, errOut)
		}
	}
	for _, args := range [][]string{{"stats"}, {"stats", "--bogus", "x.slp"}, {"stats", "--json=maybe", "x.slp"}} {
		out, errOut, code := runCLI(t, args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "rewind stats: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", args, code, out, errOut)
		}
	}
}

// TestStatsJSONIsSlippiJS: for a Slippi replay the "stats" member is
// slippi-js 9.1.2's getStats() value for value (the expectation its
// generator wrote for the same file); other formats have none yet.
func TestStatsJSONIsSlippiJS(t *testing.T) {
	const sample = "testdata/samples/slippi/tests__data__v3.16.slp"
	bsor, _ := filepath.Glob("testdata/samples/bsor/*.bsor")
	out, errOut, code := runCLI(t, append([]string{"stats", "--json", sample, "testdata/samples/no-such.slp"}, bsor[0])...)
	if code != 2 {
		t.Errorf("exit %d with a missing file, want 2 (%s)", code, errOut)
	}
	_ = out
	out, _, code = runCLI(t, "stats", "--json", sample, bsor[0])
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want one per file", len(lines))
	}
	var slp, other struct {
		Path   string
		Format string
		Stats  any
		Tables []struct {
			Key, Title string
			Player     int
			Columns    []string
			Rows       []struct {
				Key, Label string
				Values     []any
				Text       []string
			}
		}
	}
	if err := json.Unmarshal([]byte(lines[0]), &slp); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &other); err != nil {
		t.Fatal(err)
	}
	if slp.Path != sample || slp.Format != "slippi" || len(slp.Tables) == 0 || slp.Tables[0].Key != "overall" || len(slp.Tables[0].Columns) != 2 {
		t.Errorf("slippi object: %+v", slp)
	}
	for _, row := range slp.Tables[0].Rows {
		if len(row.Values) != 2 || len(row.Text) != 2 {
			t.Errorf("row %s: %d values, %d texts for 2 players", row.Key, len(row.Values), len(row.Text))
		}
	}
	if want := slippiJSExpectation(t, "hohav__peppi/tests__data__v3.16.slp"); !reflect.DeepEqual(slp.Stats, want) {
		t.Errorf("stats differ from slippi-js's:\n got %v\nwant %v", slp.Stats, want)
	}
	if other.Format != "bsor" || other.Stats != nil || other.Tables == nil {
		t.Errorf("bsor object: %+v", other)
	}
}

// slippiJSExpectation reads what slippi-js's getStats() gave for a corpus
// file (decoders/slippi/testdata/slippijs, written by expect.cjs).
func slippiJSExpectation(t *testing.T, file string) any {
	t.Helper()
	f, err := os.Open("decoders/slippi/testdata/slippijs/expected.ndjson.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var e struct {
			File  string
			Cut   int
			Stats any
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if e.File == file && e.Cut == 0 {
			return e.Stats
		}
	}
	t.Fatalf("no expectation for %s", file)
	return nil
}

func TestStatsGolden(t *testing.T) {
	out, _, code := runCLI(t, "stats", "testdata/samples/slippi/tests__data__v3.16.slp", "testdata/samples/slippi/tests__data__netplay.slp", "testdata/samples/fzgx")
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	golden(t, "stats-samples.txt", out)
}
