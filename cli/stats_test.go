package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders"
	"rewind/model"
)

func TestStatsHelpAndMistakes(t *testing.T) {
	for _, args := range [][]string{{"stats", "--help"}, {"help", "stats"}, {"stats", "-h"}} {
		out, errOut, code := runCLI(t, args...)
		if code != 0 || !strings.HasPrefix(out, "Per-player stats of each replay") || !strings.Contains(out, "\nUsage:\n  rewind stats [--json] [--by KEY[,KEY...] [--player WHO]... [--where QUERY] [--lras-loss] [--set-gap D] [--no-cache]] [FILE|DIR...]\n") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %.40q, stderr %q", args, code, out, errOut)
		}
	}
	for _, args := range [][]string{{"stats", "--bogus", "x.slp"}, {"stats", "--json=maybe", "x.slp"}} {
		out, errOut, code := runCLI(t, args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "rewind stats: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", args, code, out, errOut)
		}
	}
}

// TestStatsJSON: one object per file; for a Slippi replay "stats" is the
// decoder's slippi-js shape unchanged (decoders/slippi's tests check it is
// JSON.stringify(getStats()) byte for byte); for BSOR it is BeatLeader's
// ScoreStatistic shape (hitTracker, accuracyTracker, winTracker,
// scoreGraphTracker), so scripts written against BeatLeader's API read it.
func TestStatsJSON(t *testing.T) {
	const sample = "testdata/samples/slippi/tests__data__v3.16.slp"
	bsor, _ := filepath.Glob("testdata/samples/bsor/*.bsor")
	if _, errOut, code := runCLI(t, "stats", "--json", sample, "testdata/samples/no-such.slp"); code != 2 {
		t.Errorf("exit %d with a missing file, want 2 (%s)", code, errOut)
	}
	out, _, code := runCLI(t, "stats", "--json", sample, bsor[0])
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want one per file", len(lines))
	}
	type object struct {
		Path   string
		Format string
		Stats  json.RawMessage
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
	var slp, other object
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
	data, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	r, err := decoders.Decode(data, sample, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(r.Analysis().Stats.Native)
	if !bytes.Equal(slp.Stats, want) {
		t.Errorf("stats:\n got %.200s\nwant %.200s", slp.Stats, want)
	}
	var beatleader map[string]json.RawMessage
	if err := json.Unmarshal(other.Stats, &beatleader); err != nil {
		t.Fatalf("bsor stats %.200s: %v", other.Stats, err)
	}
	for _, k := range []string{"hitTracker", "accuracyTracker", "winTracker", "scoreGraphTracker"} {
		if beatleader[k] == nil {
			t.Errorf("bsor stats lack BeatLeader's %q: %.200s", k, other.Stats)
		}
	}
	if other.Format != "bsor" || len(other.Tables) == 0 {
		t.Errorf("bsor object: %+v", other)
	}
}

func TestStatsGolden(t *testing.T) {
	out, _, code := runCLI(t, "stats", "testdata/samples/slippi/tests__data__v3.16.slp", "testdata/samples/slippi/tests__data__netplay.slp", "testdata/samples/fzgx")
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	golden(t, "stats-samples.txt", out)
}

// runCLI runs the real binary (built in TestMain) and returns stdout,
// stderr and the exit status.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	r := rewind(t, args...)
	return r.stdout, r.stderr, r.code
}
