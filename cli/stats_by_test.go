package cli

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// slippiJSStats are slippi-js 9.1.2's getStats() of corpus files (file name
// relative to ../shared/corpus/slp -> stats), as decoders/slippi's tests
// recorded them.
func slippiJSStats(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	f, err := os.Open("decoders/slippi/testdata/slippijs/expected.ndjson.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	sc := bufio.NewScanner(gz)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			File  string          `json:"file"`
			Stats json.RawMessage `json:"stats"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		out[line.File] = line.Stats
	}
	return out
}

// stats --by character adds up, per character, exactly what slippi-js's
// getStats() says of each two-player game: kills and damage summed by hand
// from slippi-js's overall entries equal rewind's totals, and the partial
// replay is skipped rather than counted.
func TestStatsByMatchesSlippiJS(t *testing.T) {
	js := slippiJSStats(t)
	// the files: every 2-player game slippi-js read, from the corpus when it
	// is here, else the samples that are copies of corpus files
	var files []string
	for name, raw := range js {
		var st struct {
			Overall []json.RawMessage `json:"overall"`
		}
		json.Unmarshal(raw, &st)
		if len(st.Overall) != 2 {
			continue
		}
		p := filepath.Join("..", "shared", "corpus", "slp", name)
		if _, err := os.Stat(p); err != nil {
			p = filepath.Join("testdata", "samples", "slippi", filepath.Base(name))
			if _, err := os.Stat(p); err != nil {
				continue
			}
		}
		files = append(files, p)
	}
	sort.Strings(files)
	if len(files) < 5 {
		t.Fatalf("only %d two-player games with slippi-js stats", len(files))
	}
	// which games rewind counts (not partial), and each port's character
	info := rewind(t, append([]string{"info", "--json", "--check"}, files...)...)
	info.want(t, "info", 0, "*")
	type player struct{ Slot, Character string }
	want := map[string][2]float64{} // character -> kills, damage
	partial := map[string]bool{}
	games := 0
	for _, line := range strings.Split(strings.TrimSpace(info.stdout), "\n") {
		var h struct {
			Path    string   `json:"path"`
			Partial bool     `json:"partial"`
			Players []player `json:"players"`
		}
		if err := json.Unmarshal([]byte(line), &h); err != nil {
			t.Fatal(err)
		}
		if h.Partial {
			partial[h.Path] = true
			continue
		}
		games++
		name := strings.TrimPrefix(h.Path, filepath.Join("..", "shared", "corpus", "slp")+"/")
		if strings.HasPrefix(h.Path, "testdata") {
			for k := range js {
				if filepath.Base(k) == filepath.Base(h.Path) {
					name = k
				}
			}
		}
		var st struct {
			Overall []struct {
				PlayerIndex int     `json:"playerIndex"`
				KillCount   float64 `json:"killCount"`
				TotalDamage float64 `json:"totalDamage"`
			} `json:"overall"`
		}
		json.Unmarshal(js[name], &st)
		for _, o := range st.Overall {
			slot := "P" + string(rune('1'+o.PlayerIndex))
			for _, p := range h.Players {
				if p.Slot == slot {
					w := want[p.Character]
					want[p.Character] = [2]float64{w[0] + o.KillCount, w[1] + o.TotalDamage}
				}
			}
		}
	}
	t.Logf("%d files, %d games counted, %d partial, %d characters", len(files), games, len(partial), len(want))
	if len(want) < 3 {
		t.Fatalf("only %d characters", len(want))
	}
	r := rewind(t, append([]string{"stats", "--by", "character", "--json"}, files...)...)
	r.want(t, "stats --by character", 0, "*")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	got := map[string][2]float64{}
	for _, line := range lines[:len(lines)-1] {
		var g struct {
			Group  map[string]string  `json:"group"`
			Totals map[string]float64 `json:"totals"`
		}
		if err := json.Unmarshal([]byte(line), &g); err != nil {
			t.Fatal(err)
		}
		got[g.Group["character"]] = [2]float64{g.Totals["killCount"], g.Totals["totalDamage"]}
	}
	for char, w := range want {
		g := got[char]
		if g[0] != w[0] || math.Abs(g[1]-w[1]) > 1e-6*max(1, w[1]) {
			t.Errorf("%s: kills %v damage %v, slippi-js summed: kills %v damage %v", char, g[0], g[1], w[0], w[1])
		}
	}
	var last struct {
		Skipped []struct{ Path, Reason string } `json:"skipped"`
		Games   int                             `json:"games"`
	}
	json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if last.Games != games || len(last.Skipped) != len(partial) {
		t.Errorf("counted %d games and skipped %v; want %d games and the partial %v", last.Games, last.Skipped, games, partial)
	}
	for _, s := range last.Skipped {
		if !partial[s.Path] || !strings.Contains(s.Reason, "partial") {
			t.Errorf("skipped %s: %s", s.Path, s.Reason)
		}
	}
}

// The head-to-head table: with --player only that side counts, opponent
// names the other side; text fits 100 columns; a mistake is one sentence.
func TestStatsByText(t *testing.T) {
	r := rewind(t, "stats", "--by", "opponent", "--player", "NIKK#513", "testdata/samples/slippi")
	r.want(t, "stats --by opponent", 0, "*")
	if !strings.Contains(r.stdout, "NIKK#142") || strings.Contains(r.stdout, "NIKK#513 ") {
		t.Errorf("head to head:\n%s", r.stdout)
	}
	for _, l := range strings.Split(r.stdout, "\n") {
		if len([]rune(l)) > 100 {
			t.Errorf("a line of %d columns: %q", len([]rune(l)), l)
		}
	}
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"stats", "--by", "colour", "testdata/samples"}, `no key "colour" to group by`},
		{[]string{"stats", "--player", "X", "testdata/samples"}, "they go with --by"},
		{[]string{"stats", "--by", "stage", "--where", "date:2024-13", "testdata/samples"}, "is not a date"},
	} {
		r := rewind(t, tt.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tt.says) {
			t.Errorf("%v: exit %d, %q", tt.args, r.code, r.stderr)
		}
	}
}

// A session key reads the games twice (their times, then the groups): a
// path that cannot be read is named once, and the exit status says so.
func TestStatsBySessionNamesAMissingPathOnce(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone.slp")
	r := rewind(t, "stats", "--by", "session", "testdata/samples/slippi", missing)
	if r.code != 2 || strings.Count(r.stderr, "gone.slp") != 1 {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "session") || strings.Count(r.stdout, "\n") < 2 {
		t.Errorf("no sessions:\n%s", r.stdout)
	}
}

// sjsCombo is one of slippi-js's combos: its file, frames, victim and
// damage.
type sjsCombo struct {
	file       string
	start, end int64
	victim     string
	damage     float64
}

// slippiJSCombos lists the 1v1 replays slippi-js's stats cover, in the
// corpus or, without ../shared, in the samples (sorted; not the corrupt
// one, whose moments are marked partial and compared elsewhere), their
// last frames and their combos.
func slippiJSCombos(t *testing.T) (files []string, last map[string]int64, combos []sjsCombo) {
	last = map[string]int64{}
	for name, raw := range slippiJSStats(t) {
		var st struct {
			LastFrame int64             `json:"lastFrame"`
			Overall   []json.RawMessage `json:"overall"`
			Combos    []struct {
				PlayerIndex    int      `json:"playerIndex"`
				StartFrame     int64    `json:"startFrame"`
				EndFrame       *int64   `json:"endFrame"`
				StartPercent   float64  `json:"startPercent"`
				CurrentPercent float64  `json:"currentPercent"`
				EndPercent     *float64 `json:"endPercent"`
			} `json:"combos"`
		}
		json.Unmarshal(raw, &st)
		if len(st.Overall) != 2 {
			continue
		}
		p := filepath.Join("..", "shared", "corpus", "slp", name)
		if _, err := os.Stat(p); err != nil {
			p = filepath.Join("testdata", "samples", "slippi", filepath.Base(name))
			if _, err := os.Stat(p); err != nil {
				continue
			}
		}
		if _, seen := last[p]; seen || strings.Contains(p, "corrupt") {
			continue
		}
		files = append(files, p)
		last[p] = st.LastFrame
		for _, c := range st.Combos {
			end := st.LastFrame
			dmg := c.CurrentPercent - c.StartPercent
			if c.EndFrame != nil {
				end = *c.EndFrame
			}
			if c.EndPercent != nil {
				dmg = *c.EndPercent - c.StartPercent
			}
			combos = append(combos, sjsCombo{p, c.StartFrame, end, "P" + string(rune('1'+c.PlayerIndex)), dmg})
		}
	}
	sort.Strings(files)
	return files, last, combos
}

// moments 'kind:combo damage:>=30' lists, per file, exactly slippi-js's
// combos of 30% or more, and --dolphin queues each with the lead and trail
// frames around it and an absolute path.
func TestMomentsMatchSlippiJS(t *testing.T) {
	type combo struct {
		file       string
		start, end int64
		victim     string
	}
	files, last, combos := slippiJSCombos(t)
	want := map[combo]bool{}
	for _, c := range combos {
		if c.damage >= 30 {
			want[combo{c.file, c.start, c.end, c.victim}] = true
		}
	}
	// the corpus has dozens; the samples alone (a clone without
	// ../shared) have one
	least := 5
	if _, err := os.Stat(filepath.Join("..", "shared", "corpus", "slp")); err != nil {
		t.Logf("../shared/corpus absent: only the samples' combos are compared")
		least = 1
	}
	if len(want) < least {
		t.Fatalf("only %d combos of 30%% in %d files", len(want), len(files))
	}
	queue := filepath.Join(t.TempDir(), "queue.json")
	r := rewind(t, append(append([]string{"moments", "--json", "--dolphin", queue}, files...), "kind:combo damage:>=30")...)
	r.want(t, "moments", 0, "*")
	got := map[combo]bool{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m struct {
			Path     string `json:"path"`
			Kind     string `json:"kind"`
			Frame    int64  `json:"frame"`
			EndFrame int64  `json:"endFrame"`
			On       string `json:"on"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		got[combo{m.Path, m.Frame, m.EndFrame, m.On}] = true
	}
	for c := range want {
		if !got[c] {
			t.Errorf("slippi-js's combo %+v not listed", c)
		}
	}
	for c := range got {
		if !want[c] {
			t.Errorf("combo %+v listed, not slippi-js's", c)
		}
	}
	data, err := os.ReadFile(queue)
	if err != nil {
		t.Fatal(err)
	}
	var q struct {
		Mode  string `json:"mode"`
		Queue []struct {
			Path       string `json:"path"`
			StartFrame int64  `json:"startFrame"`
			EndFrame   int64  `json:"endFrame"`
		} `json:"queue"`
	}
	json.Unmarshal(data, &q)
	if q.Mode != "queue" || len(q.Queue) != len(want) {
		t.Fatalf("queue mode %q with %d items, want %d", q.Mode, len(q.Queue), len(want))
	}
	for _, it := range q.Queue {
		if !filepath.IsAbs(it.Path) {
			t.Errorf("relative path %q", it.Path)
		}
		rel, _ := filepath.Rel(mustAbs(t, "."), it.Path)
		found := false
		for c := range want {
			if c.file == rel && it.StartFrame == max(-123, c.start-240) && it.EndFrame == min(last[c.file], c.end+180) {
				found = true
			}
		}
		if !found {
			t.Errorf("queue item %+v is no combo widened by 240 and 180 frames", it)
		}
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// stats --by character over SC2 replays counts, per race, the player-games
// that sc2reader 1.8.0 finds (play_race of every player of every replay it
// reads, recorded in decoders/sc2/testdata): races written in the client's
// language count under their English name. The files are the corpus's when
// it is here, else the samples that are copies of corpus files.
func TestStatsBySC2RacesMatchSc2reader(t *testing.T) {
	data, err := os.ReadFile("decoders/sc2/testdata/sc2reader-races.tsv")
	if err != nil {
		t.Fatal(err)
	}
	// the samples that are copies of corpus files, by corpus name
	samples := map[string]string{}
	manifest, _ := os.ReadFile("testdata/samples/sc2/MANIFEST.tsv")
	for _, line := range strings.Split(string(manifest), "\n") {
		if f := strings.Split(line, "\t"); len(f) >= 2 && f[0] != "file" {
			samples[f[1]] = filepath.Join("testdata", "samples", "sc2", f[0])
		}
	}
	want := map[string]int{}
	var files []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 2 || strings.HasPrefix(line, "#") || f[0] == "file" {
			continue
		}
		p := filepath.Join("..", "shared", "corpus", "sc2", f[0])
		if _, err := os.Stat(p); err != nil {
			if p = samples[f[0]]; p == "" {
				continue
			}
		}
		files = append(files, p)
		for race := range strings.SplitSeq(f[1], ",") {
			if race != "" { // a replay sc2reader reads no player from
				want[race]++
			}
		}
	}
	if len(files) < 5 {
		t.Fatalf("only %d SC2 replays with sc2reader's races", len(files))
	}
	t.Logf("%d replays, sc2reader's player-games by race %v", len(files), want)
	r := rewind(t, append([]string{"stats", "--by", "character", "--json"}, files...)...)
	r.want(t, "stats --by character", 0, "*")
	got := map[string]int{}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	for _, line := range lines[:len(lines)-1] {
		var g struct {
			Group map[string]string `json:"group"`
			Games int               `json:"games"`
		}
		if err := json.Unmarshal([]byte(line), &g); err != nil {
			t.Fatal(err)
		}
		got[g.Group["character"]] = g.Games
	}
	if !maps.Equal(got, want) {
		t.Errorf("player-games by race: rewind %v, sc2reader %v", got, want)
	}
}

// moments --limit N lists the first N of the order --sort gives: with
// damage, slippi-js's N biggest combos; in every order the first N lines
// of the whole list, though the run cuts its list as the replays come
// (every moment of the samples is hundreds more than a cut holds).
func TestMomentsLimit(t *testing.T) {
	files, _, combos := slippiJSCombos(t)
	var damages []float64
	for _, c := range combos {
		damages = append(damages, c.damage)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(damages)))
	if len(damages) < 4 {
		t.Fatalf("only %d slippi-js combos", len(damages))
	}
	r := rewind(t, append(append([]string{"moments", "--json", "--sort", "damage", "--limit", "3"}, files...), "kind:combo")...)
	r.want(t, "moments", 0, "*")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 {
		t.Fatalf("--limit 3: %d lines", len(lines))
	}
	for i, line := range lines {
		var m struct {
			Damage float64 `json:"damage"`
		}
		json.Unmarshal([]byte(line), &m)
		if math.Abs(m.Damage-damages[i]) > 1e-3 {
			t.Errorf("combo %d: damage %v, slippi-js's %d-biggest is %v", i+1, m.Damage, i+1, damages[i])
		}
	}
	for _, by := range []string{"date", "damage", "length"} {
		all := rewind(t, "moments", "--sort", by, "testdata/samples", "")
		some := rewind(t, "moments", "--sort", by, "--limit", "7", "testdata/samples", "")
		want := strings.SplitAfter(all.stdout, "\n")
		if len(want) < 300 {
			t.Fatalf("only %d moments in the samples", len(want))
		}
		if some.code != all.code || some.stdout != strings.Join(want[:7], "") {
			t.Errorf("--sort %s --limit 7 (exit %d):\n%s\nwant the first 7 of (exit %d):\n%s", by, some.code, some.stdout, all.code, strings.Join(want[:7], ""))
		}
	}
	if r := rewind(t, "moments", "--limit", "-1", "testdata/samples", ""); r.code != 2 || !strings.Contains(r.stderr, "--limit") {
		t.Errorf("--limit -1: exit %d, %q", r.code, r.stderr)
	}
}
