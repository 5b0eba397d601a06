package cli

// watch and run start other programs. In these tests the programs are a
// stand-in (package actionstest): this test binary, started again by the
// rewind binary with actionstest.Env naming a log, which logs its
// arguments and the communication files it reads. Each test has its own
// home, config folder, config file (REWIND_CONFIG) and cache
// (REWIND_CACHE, where the record of the running Dolphin is kept), and
// kills the stand-ins it started, by their process ids.

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rewind/actions/actionstest"
)

func init() {
	if actionstest.Run() {
		os.Exit(0)
	}
}

// v318 has frames -123 to 817: metadata.lastFrame 817 per slippi-js
// 9.1.2 (new SlippiGame(file).getMetadata().lastFrame, run on the file),
// at 60 frames a second with frame 0 at 0:00 (the Slippi spec), so 0:10 is
// frame 600. netplay's last frame is 4, by the same command.
const v318 = "testdata/samples/slippi/tests__data__v3.18.slp"

// world is one test's sandbox.
type world struct {
	dir, log, iso, config, bin string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := &world{dir: dir, log: filepath.Join(dir, "stand-in.log"), iso: filepath.Join(dir, "Melee 1.02.iso"), config: filepath.Join(dir, "config.toml"), bin: bin}
	if err := os.WriteFile(w.iso, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { actionstest.KillAll(t, w.log) })
	return w
}

// writeConfig writes the config file; BIN in text is the stand-in.
func (w *world) writeConfig(t *testing.T, text string) {
	t.Helper()
	text = strings.ReplaceAll(text, "BIN", tomlString(w.bin))
	text = strings.ReplaceAll(text, "ISO", tomlString(w.iso))
	if err := os.WriteFile(w.config, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tomlString is s as a TOML literal string.
func tomlString(s string) string {
	if strings.ContainsAny(s, "'\n") {
		panic("no literal string for " + s)
	}
	return "'" + s + "'"
}

// rewind runs the binary in the world.
func (w *world) rewind(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return rewindWith(t, runOpts{env: append([]string{
		"HOME=" + w.dir, "XDG_CONFIG_HOME=" + filepath.Join(w.dir, "xdg"), "REWIND_CONFIG=" + w.config,
		"REWIND_CACHE=" + filepath.Join(w.dir, "cache"), actionstest.Env + "=" + w.log,
	}, env...)}, args...)
}

const dolphinConfig = "[slippi]\ndolphin = BIN\niso = ISO\n"

// The target, then the same Dolphin handed the next replays by later runs
// of rewind watch, with --to, times, frames outside the replay moved in,
// and several replays as a queue.
func TestWatchDolphin(t *testing.T) {
	w := newWorld(t)
	w.writeConfig(t, dolphinConfig)
	abs, _ := filepath.Abs(v318)

	r := w.rewind(t, nil, "watch", "--at", "600", v318)
	r.want(t, "watch --at 600", 0, "*")
	if !regexp.MustCompile(`^rewind watch: started the playback Dolphin \(process \d+\) on ` + regexp.QuoteMeta(v318) + ` from frame 600 to 817\n$`).MatchString(r.stderr) {
		t.Errorf("stderr %q", r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout %q", r.stdout)
	}
	es := actionstest.WaitFor(t, w.log, "read its communication file", func(es []actionstest.Entry) bool { return len(actionstest.Comms(t, es)) == 1 })
	args := actionstest.Starts(es)[0].Args
	if len(args) != 5 || args[0] != "-b" || args[1] != "-e" || args[2] != w.iso || args[3] != "-i" || filepath.Dir(args[4]) != filepath.Join(w.dir, "cache", "playback") {
		t.Fatalf("Dolphin started with %q; want -b -e %s -i <a file in the cache>", args, w.iso)
	}
	first := actionstest.Comms(t, es)[0]
	for key, want := range map[string]any{"mode": "normal", "replay": abs, "startFrame": 600.0, "endFrame": 817.0, "isRealTimeMode": false} {
		if first[key] != want {
			t.Errorf("comm %s = %v, want %v", key, first[key], want)
		}
	}
	if id, _ := first["commandId"].(string); id == "" {
		t.Errorf("no commandId: %v", first)
	}

	ids := map[any]bool{first["commandId"]: true}
	for _, tt := range []struct {
		args       []string
		start, end float64
		notes      string
	}{
		{[]string{"--at", "0:05", "--to", "700"}, 300, 700, ""},
		{[]string{"--at", "0:10"}, 600, 817, ""},
		{[]string{"--at", "1:23.4"}, 817, 817, "rewind watch: --at 1:23.4 is past the replay's last frame (0:13.61); frame 817 is taken\n"},
		{[]string{"--at", "99999"}, 817, 817, "rewind watch: --at 99999 is past the replay's last frame; frame 817 is taken\n"},
		{[]string{"--at", "-500", "--to", "0:01"}, -123, 60, "rewind watch: --at -500 is before the replay's first frame; frame -123 is taken\n"},
		{[]string{"--to", "-2.5s"}, -123, -123, "rewind watch: --to -2.5s is before the replay's first frame (-0:02.05); frame -123 is taken\n"},
	} {
		n := len(actionstest.Comms(t, actionstest.Entries(t, w.log)))
		r := w.rewind(t, nil, append([]string{"watch"}, append(tt.args, v318)...)...)
		what := strings.Join(tt.args, " ")
		r.want(t, what, 0, "*")
		wantNote := regexp.QuoteMeta(tt.notes) + `rewind watch: the playback Dolphin already open \(process \d+\) plays ` + regexp.QuoteMeta(v318) +
			" from frame " + strconv.Itoa(int(tt.start)) + " to " + strconv.Itoa(int(tt.end)) + `\n$`
		if !regexp.MustCompile("^" + wantNote).MatchString(r.stderr) {
			t.Errorf("%s: stderr %q", what, r.stderr)
		}
		es := actionstest.WaitFor(t, w.log, "read the next file", func(es []actionstest.Entry) bool { return len(actionstest.Comms(t, es)) == n+1 })
		if len(actionstest.Starts(es)) != 1 {
			t.Fatalf("%s: Dolphin was started again", what)
		}
		c := actionstest.Comms(t, es)[n]
		if c["startFrame"] != tt.start || c["endFrame"] != tt.end || ids[c["commandId"]] {
			t.Errorf("%s: comm %v, want frames %v..%v and a new commandId", what, c, tt.start, tt.end)
		}
		ids[c["commandId"]] = true
	}

	r = w.rewind(t, nil, "watch", v318, netplay)
	r.want(t, "watch two replays", 0, "*")
	c := actionstest.Comms(t, actionstest.WaitFor(t, w.log, "read the queue", func(es []actionstest.Entry) bool {
		cs := actionstest.Comms(t, es)
		return cs[len(cs)-1]["mode"] == "queue"
	}))
	q, _ := c[len(c)-1]["queue"].([]any)
	netAbs, _ := filepath.Abs(netplay)
	if len(q) != 2 || q[0].(map[string]any)["path"] != abs || q[1].(map[string]any)["path"] != netAbs ||
		q[0].(map[string]any)["endFrame"] != 817.0 || q[1].(map[string]any)["startFrame"] != -123.0 || q[1].(map[string]any)["endFrame"] != 4.0 {
		t.Errorf("queue %v", q)
	}
}

// Without a Dolphin in the config: exit 2 and one sentence naming the key
// and the file; a Dolphin that is not there: one sentence; mistakes on the
// command line too. Nothing is started.
func TestWatchCannot(t *testing.T) {
	w := newWorld(t)
	gone := filepath.Join(w.dir, "nowhere", "Dolphin")
	for _, tt := range []struct {
		config string
		args   []string
		stderr string
	}{
		{"", []string{v318},
			"rewind watch: to watch Slippi replays in the game, set dolphin under [slippi] in " + w.config + " to Slippi's playback Dolphin, and iso to the Melee ISO\n"},
		{"[slippi]\ndolphin = BIN\n", []string{v318},
			"rewind watch: to watch Slippi replays in the game, set iso under [slippi] in " + w.config + " to the Melee ISO that the playback Dolphin runs\n"},
		{"[slippi]\ndolphin = '" + gone + "'\niso = ISO\n", []string{"--at", "600", v318},
			"rewind watch: cannot start " + gone + " (dolphin under [slippi] in " + w.config + "): no such file or directory\n"},
		{dolphinConfig, []string{"testdata/samples/sc2/hots-2.0.8-tracker.SC2Replay"},
			`rewind watch: StarCraft II replays have no player that rewind can start; add an [[action]] with formats = ["sc2"] to ` + w.config + " and run it with rewind run NAME FILE\n"},
		{dolphinConfig, []string{"--to", "0", "--at", "100", v318}, "rewind watch: --to 0 comes before --at 100\n"},
		{dolphinConfig, []string{"--at", "soon", v318}, `rewind watch: --at: "soon" is not a time: write m:ss, h:mm:ss or seconds with an s, like 1:05.5 or 65.5s` + "\n"},
		{dolphinConfig, []string{"--at", "x5", v318}, `rewind watch: --at: "x5" is neither a frame number nor a time (m:ss, h:mm:ss or 12.5s)` + "\n"},
		{dolphinConfig, []string{"--at", "1", v318, netplay}, "rewind watch: --at and --to are for one replay; 2 replays play one after the other, each whole\n"},
		{dolphinConfig, nil, "rewind watch: name the replay to watch, like rewind watch --at 1:23 game.slp\n"},
		{dolphinConfig, []string{"testdata/missing.slp"}, "rewind watch: testdata/missing.slp: no such file or folder\n"},
	} {
		os.Remove(w.config)
		if tt.config != "" {
			w.writeConfig(t, tt.config)
		}
		r := w.rewind(t, nil, append([]string{"watch"}, tt.args...)...)
		r.want(t, "watch "+strings.Join(tt.args, " "), 2, tt.stderr)
	}
	if es := actionstest.Entries(t, w.log); len(es) != 0 {
		t.Errorf("something was started: %+v", es)
	}
}

// osu!'s replay goes to the [osu] command, the path where {path} is; osu!
// plays from the start, and says so when asked for a frame.
func TestWatchOsu(t *testing.T) {
	w := newWorld(t)
	w.writeConfig(t, "[osu]\ncommand = [BIN, '--replay', '{path}']\n")
	osr := "testdata/samples/osr/standard-2018-life-bar.osr"
	abs, _ := filepath.Abs(osr)
	r := w.rewind(t, nil, "watch", "--at", "0:30", osr)
	r.want(t, "watch osr", 0, "*")
	if !regexp.MustCompile(`^rewind watch: the game plays ` + regexp.QuoteMeta(osr) + ` from its start; it has no way to start elsewhere\nrewind watch: handed ` + regexp.QuoteMeta(osr) + ` to osu! \(process \d+\)\n$`).MatchString(r.stderr) {
		t.Errorf("stderr %q", r.stderr)
	}
	es := actionstest.WaitFor(t, w.log, "started", func(es []actionstest.Entry) bool { return len(actionstest.Starts(es)) == 1 })
	if got := actionstest.Starts(es)[0].Args; !slices.Equal(got, []string{"--replay", abs}) {
		t.Errorf("osu! got %q", got)
	}
}
