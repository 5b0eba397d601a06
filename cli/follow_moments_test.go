package cli

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The command rewind follow --exec runs in these tests is the test binary
// itself: with REWIND_TEST_RECORD set, it appends the moment's REWIND_*
// variables and its standard input to that file as one JSON line and
// exits, before any test runs; with REWIND_TEST_FAIL_ONCE naming a file
// that is not there yet, it makes the file and exits with status 3.
func init() {
	out := os.Getenv("REWIND_TEST_RECORD")
	if out == "" {
		return
	}
	in, _ := io.ReadAll(os.Stdin)
	env := map[string]string{}
	for _, k := range momentVars {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	line, _ := json.Marshal(execRecord{Env: env, Stdin: string(in)})
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		os.Exit(1)
	}
	f.Write(append(line, '\n'))
	f.Close()
	if marker := os.Getenv("REWIND_TEST_FAIL_ONCE"); marker != "" {
		if _, err := os.Stat(marker); err != nil {
			os.WriteFile(marker, nil, 0o644)
			os.Exit(3)
		}
	}
	os.Exit(0)
}

// momentVars are the variables follow --exec documents.
var momentVars = []string{"REWIND_PATH", "REWIND_FORMAT", "REWIND_KIND", "REWIND_FRAME", "REWIND_END_FRAME",
	"REWIND_TIME", "REWIND_BY", "REWIND_ON", "REWIND_DAMAGE", "REWIND_KILL"}

// execRecord is one run of the stand-in command.
type execRecord struct {
	Env   map[string]string `json:"env"`
	Stdin string            `json:"stdin"`
}

// standIn is --exec's value that runs the stand-in command, and the
// environment that makes it record into out.
func standIn(t *testing.T, out string) (exec string, env []string) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "'" + self + "'", []string{"REWIND_TEST_RECORD=" + out}
}

func readRecords(t *testing.T, path string) []execRecord {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []execRecord
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r execRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("record %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

// background is rewind running while a test writes replays for it (its
// output in lockedBuffers, tui_run_test.go's).
type background struct {
	cmd            *exec.Cmd
	stdout, stderr lockedBuffer
	done           chan struct{}
}

// freshHome points everything rewind reads or writes of the user's at
// temporary folders.
func freshHome(t *testing.T) []string {
	home := t.TempDir()
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"REWIND_CONFIG=" + filepath.Join(home, "rewind.toml")}
}

func startRewind(t *testing.T, env []string, args ...string) *background {
	t.Helper()
	b := &background{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	b.cmd.Env = append(sandboxEnv("", "TZ=UTC", "NO_COLOR=1"), env...)
	b.cmd.Stdout, b.cmd.Stderr = &b.stdout, &b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { b.cmd.Wait(); close(b.done) }()
	t.Cleanup(func() {
		b.cmd.Process.Kill()
		<-b.done
	})
	return b
}

// waitFor polls until ok; a minute without it is a hang.
func (b *background) waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !ok() {
		select {
		case <-b.done:
			t.Fatalf("rewind ended (%v) while waiting for %s\nstderr: %s", b.cmd.ProcessState, what, b.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within a minute\nstderr: %s", what, b.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// interrupt sends what Ctrl-C sends and waits for rewind to end.
func (b *background) interrupt(t *testing.T) result {
	t.Helper()
	return b.signal(t, os.Interrupt)
}

// signal sends sig and waits for rewind to end.
func (b *background) signal(t *testing.T, sig os.Signal) result {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no signals to send on Windows")
	}
	b.cmd.Process.Signal(sig)
	select {
	case <-b.done:
	case <-time.After(time.Minute):
		t.Fatalf("still running a minute after %v\nstderr: %s", sig, b.stderr.String())
	}
	return result{b.stdout.String(), b.stderr.String(), b.cmd.ProcessState.ExitCode()}
}

// writeLive writes a replay to path as its recorder does: in chunks of n
// bytes, gap apart; a Slippi replay with the raw element's length 0 until
// the end, when it is set, as Dolphin does.
func writeLive(t *testing.T, path string, whole []byte, n int, gap time.Duration) {
	t.Helper()
	live := bytes.Clone(whole)
	slp := bytes.HasPrefix(whole, []byte("{U\x03raw[$U#l"))
	if slp {
		binary.BigEndian.PutUint32(live[11:], 0)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for at := 0; at < len(live); at += n {
		if at > 0 {
			time.Sleep(gap)
		}
		if _, err := f.Write(live[at:min(at+n, len(live))]); err != nil {
			t.Fatal(err)
		}
	}
	if slp {
		f.WriteAt(whole[11:15], 11)
	}
}

// TestFollowStocks is issue 44's target: a real .slp written into a watched
// folder in 64 KB chunks 20 ms apart, as Dolphin writes it; follow DIR --on
// kind:stock --exec CMD runs CMD once per stock lost, with the frames
// slippi-js 9.1.2 gives those stocks (stocks[].endFrame and playerIndex in
// decoders/slippi/testdata/slippijs/expected.ndjson.gz, written by
// `node expect.cjs` there), and a second recording started after the
// first, in a month folder made after follow started, is followed too. CMD
// gets the moment's facts in REWIND_* and on stdin the moments --json
// object; Ctrl-C ends it with status 0 and the count. With notifications
// and with --poll.
func TestFollowStocks(t *testing.T) {
	games := []string{"PMcca__go-slippi/replays__netplay-online.slp", "hohav__py-slippi/test__replays__netplay_name.slp"}
	var data [][]byte
	for _, g := range games {
		b, err := os.ReadFile(filepath.Join("..", "shared", "corpus", "slp", g))
		if err != nil {
			t.Skipf("the shared corpus is not here (%v)", err)
		}
		data = append(data, b)
	}
	// slippi-js's stocks that ended, in order: the frame and who lost it
	js := slippiJSStats(t)
	type stock struct {
		frame int64
		on    string
	}
	want := make([][]stock, len(games))
	for i, g := range games {
		var st struct {
			Stocks []struct {
				PlayerIndex int    `json:"playerIndex"`
				EndFrame    *int64 `json:"endFrame"`
			} `json:"stocks"`
		}
		if err := json.Unmarshal(js[g], &st); err != nil {
			t.Fatal(err)
		}
		for _, s := range st.Stocks {
			if s.EndFrame != nil {
				want[i] = append(want[i], stock{*s.EndFrame, fmt.Sprintf("P%d", s.PlayerIndex+1)})
			}
		}
		slices.SortFunc(want[i], func(a, b stock) int { return int(a.frame - b.frame) })
	}
	if len(want[0]) != 7 || len(want[1]) != 5 {
		t.Fatalf("slippi-js's stocks: %v", want)
	}
	for _, poll := range []bool{false, true} {
		t.Run(fmt.Sprintf("poll=%v", poll), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(t.TempDir(), "ran.ndjson")
			cmd, env := standIn(t, out)
			args := []string{"follow", dir, "--on", "kind:stock", "--exec", cmd}
			if poll {
				args = append(args, "--poll")
			}
			b := startRewind(t, append(freshHome(t), env...), args...)
			b.waitFor(t, "the watch to start", func() bool { return strings.Contains(b.stderr.String(), "watching") })
			paths := []string{filepath.Join(dir, "Game_20220717T131612.slp"), filepath.Join(dir, "2022-07", "Game_20220717T132030.slp")}
			writeLive(t, paths[0], data[0], 64<<10, 20*time.Millisecond)
			b.waitFor(t, "the first game's end", func() bool { return strings.Contains(b.stderr.String(), "Game_20220717T131612.slp ended") })
			os.Mkdir(filepath.Dir(paths[1]), 0o755)
			time.Sleep(100 * time.Millisecond) // a new month folder, then a new game in it
			writeLive(t, paths[1], data[1], 64<<10, 20*time.Millisecond)
			b.waitFor(t, "the second game's end", func() bool { return strings.Contains(b.stderr.String(), "Game_20220717T132030.slp ended") })
			// the commands run one at a time after their moments fire: on a
			// slow machine (the race detector) the last are still queued
			b.waitFor(t, "every command to have run", func() bool {
				data, _ := os.ReadFile(out)
				return bytes.Count(data, []byte("\n")) >= len(want[0])+len(want[1])
			})
			r := b.interrupt(t)
			r.want(t, "follow, interrupted", 0, "*")
			if !strings.HasSuffix(r.stderr, "rewind follow: interrupted; 12 moments fired\n") {
				t.Errorf("stderr ends:\n%s", r.stderr)
			}
			for _, p := range paths {
				if !strings.Contains(r.stderr, "rewind follow: "+p+" ended (Game End): ") {
					t.Errorf("stderr does not say %s ended at its Game End:\n%s", p, r.stderr)
				}
			}
			runs := readRecords(t, out)
			got := make([][]stock, len(games))
			for _, run := range runs {
				e := run.Env
				i := slices.Index(paths, e["REWIND_PATH"])
				if i < 0 {
					t.Fatalf("a run for %q", e["REWIND_PATH"])
				}
				var frame int64
				fmt.Sscan(e["REWIND_FRAME"], &frame)
				got[i] = append(got[i], stock{frame, e["REWIND_ON"]})
				var obj map[string]any
				if err := json.Unmarshal([]byte(run.Stdin), &obj); err != nil || !strings.HasSuffix(run.Stdin, "}\n") {
					t.Fatalf("stdin %q: %v", run.Stdin, err)
				}
				if e["REWIND_KIND"] != "stock" || e["REWIND_FORMAT"] != "slippi" || e["REWIND_END_FRAME"] != e["REWIND_FRAME"] ||
					obj["kind"] != "stock" || obj["path"] != e["REWIND_PATH"] || fmt.Sprint(obj["frame"]) != e["REWIND_FRAME"] ||
					obj["on"] != e["REWIND_ON"] || fmt.Sprint(obj["time"]) != e["REWIND_TIME"] || fmt.Sprint(obj["kill"]) != e["REWIND_KILL"] {
					t.Errorf("environment %v and stdin %s disagree", e, run.Stdin)
				}
			}
			for i := range games {
				if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
					t.Errorf("%s: CMD ran for stocks (frame, lost by) %v\nslippi-js's stocks: %v", games[i], got[i], want[i])
				}
			}
		})
	}
}

// TestFollowJSON: --json writes each moment as it fires, the object
// rewind moments --json writes for it (its replay's start aside: a Slippi
// recording says when it started only in the metadata at its end), once,
// in the order the moments end, for a Slippi game and a DDNet teehistorian
// written live and a StarCraft II replay written whole into the folder; a
// text file dropped there is ignored with a note, and following goes on.
func TestFollowJSON(t *testing.T) {
	samples := []string{
		"testdata/samples/slippi/tests__data__v3.16.slp",
		"testdata/samples/teehistorian/two_players_chat_kill_spec_rcon_vote_dummy.teehistorian",
		"testdata/samples/sc2/lotv-4.3.0-backwater-vs-ai.SC2Replay",
	}
	dir := t.TempDir()
	b := startRewind(t, freshHome(t), "follow", "--json", dir)
	b.waitFor(t, "the watch to start", func() bool { return strings.Contains(b.stderr.String(), "watching") })
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("game 3 desynced at 2:14\n"), 0o644)
	// a replay written long ago, moved in: no game being recorded
	old := filepath.Join(t.TempDir(), "2019.SC2Replay")
	data, _ := os.ReadFile("testdata/samples/sc2/hots-2.0.8-tracker.SC2Replay")
	os.WriteFile(old, data, 0o644)
	then := time.Date(2019, 5, 1, 20, 0, 0, 0, time.UTC)
	os.Chtimes(old, then, then)
	if err := os.Rename(old, filepath.Join(dir, "2019.SC2Replay")); err != nil {
		t.Skipf("the temporary folders are on two file systems: %v", err)
	}
	var paths []string
	for _, s := range samples {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(s))
		paths = append(paths, p)
		if strings.HasSuffix(s, ".SC2Replay") {
			os.WriteFile(p, data, 0o644) // written whole
		} else {
			writeLive(t, p, data, 2048, 10*time.Millisecond)
		}
	}
	b.waitFor(t, "every file finished", func() bool {
		e := b.stderr.String()
		return strings.Count(e, " moments fired\n") == 3
	})
	r := b.interrupt(t)
	r.want(t, "follow --json", 0, "*")
	if !strings.Contains(r.stderr, "rewind follow: "+filepath.Join(dir, "notes.txt")+`: not a replay: a text file beginning "game 3 desynced at 2:14"; ignored`) {
		t.Errorf("no note of the text file:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "rewind follow: "+filepath.Join(dir, "2019.SC2Replay")+" was last written 2019-05-01 ") {
		t.Errorf("no note of the replay moved in:\n%s", r.stderr)
	}
	got := map[string][]map[string]any{}
	for _, obj := range ndjson(t, r.stdout) {
		p := obj["path"].(string)
		got[p] = append(got[p], obj)
	}
	total := 0
	for i, s := range samples {
		m := rewind(t, "moments", "--json", "--no-cache", s, "")
		m.want(t, "moments "+s, 0, "")
		want := ndjson(t, m.stdout)
		total += len(want)
		if len(want) == 0 {
			t.Fatalf("%s has no moments", s)
		}
		key := func(o map[string]any) string {
			o = maps.Clone(o)
			delete(o, "path")
			delete(o, "start")
			b, _ := json.Marshal(o)
			return string(b)
		}
		var gk, wk []string
		for _, o := range got[paths[i]] {
			gk = append(gk, key(o))
		}
		for _, o := range want {
			wk = append(wk, key(o))
		}
		sorted := slices.IsSortedFunc(got[paths[i]], func(a, b map[string]any) int {
			return int(a["endTime"].(float64)*1e6 - b["endTime"].(float64)*1e6)
		})
		if !sorted {
			t.Errorf("%s: moments not in the order they end: %v", s, gk)
		}
		slices.Sort(gk)
		slices.Sort(wk)
		if !slices.Equal(gk, wk) {
			t.Errorf("%s: follow --json wrote\n%s\nmoments --json writes\n%s", s, strings.Join(gk, "\n"), strings.Join(wk, "\n"))
		}
	}
	if !strings.HasSuffix(r.stderr, fmt.Sprintf("rewind follow: interrupted; %d moments fired\n", total)) {
		t.Errorf("stderr ends:\n%s", r.stderr)
	}
}

// TestFollowFailingCommand: a command that fails is reported on stderr
// (which command, for which moment, its exit status) and following goes
// on: the next moments still run it, and the count says one failed.
// Files named on the command line: follow ends by itself once each has
// finished.
func TestFollowFailingCommand(t *testing.T) {
	game := "testdata/samples/sc2/lotv-4.3.0-backwater-vs-ai.SC2Replay"
	dir := t.TempDir()
	path := filepath.Join(dir, "ladder.SC2Replay")
	data, _ := os.ReadFile(game)
	os.WriteFile(path, data, 0o644)
	out := filepath.Join(t.TempDir(), "ran.ndjson")
	cmd, env := standIn(t, out)
	env = append(append(env, freshHome(t)...), "REWIND_TEST_FAIL_ONCE="+filepath.Join(t.TempDir(), "failed"))
	r := rewindWith(t, runOpts{env: env}, "follow", path, "--on", "kind:train", "--exec", cmd)
	r.want(t, "follow, a failing command", 0, "*")
	runs := readRecords(t, out)
	if len(runs) != 2 {
		t.Fatalf("%d runs of the command, want one per unit trained (2)\nstderr: %s", len(runs), r.stderr)
	}
	first := runs[0].Env
	fail := fmt.Sprintf("rewind follow: --exec %s, for the train at frame %s of %s: exit status 3\n", strings.Trim(cmd, "'"), first["REWIND_FRAME"], path)
	if strings.Count(r.stderr, fail) != 1 || !strings.HasSuffix(r.stderr, "rewind follow: 2 moments fired, 1 command failed\n") {
		t.Errorf("stderr:\n%s\nwant once:\n%s", r.stderr, fail)
	}
}

// TestFollowRefuses: the mistakes follow says in one sentence, and a file
// named that is no replay (exit 2, once it is looked at).
func TestFollowRefuses(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("not a replay at all\n"), 0o644)
	for _, tt := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"follow"}, "rewind follow: no replay folder to follow: name one, like rewind follow ~/Slippi --on kind:stock --exec CMD, or set library in the config file (rewind help config)\n"},
		{[]string{"follow", dir}, "rewind follow: needs --exec CMD to run a command for each moment, or --json to write them\n"},
		{[]string{"follow", dir, "--exec", `say "hi`}, "rewind follow: --exec: a \" is not closed\n"},
		{[]string{"follow", dir, "--exec", "  "}, "rewind follow: --exec is empty; want a command, like --exec 'notify-send stock'\n"},
		{[]string{"follow", dir, "--json", "--idle", "-1s"}, "rewind follow: --idle takes a duration, 0 or more, not -1s\n"},
		{[]string{"follow", filepath.Join(dir, "no", "such.slp"), "--json"}, "*"},
		{[]string{"follow", notes, "--json"}, "*"},
	} {
		r := rewindWith(t, runOpts{env: freshHome(t)}, tt.args...)
		r.want(t, strings.Join(tt.args, " "), 2, tt.stderr)
		if tt.stderr == "*" && (strings.Count(r.stderr, "\n") < 1 || !strings.HasPrefix(r.stderr, "rewind follow: ")) {
			t.Errorf("%v: stderr %q", tt.args, r.stderr)
		}
	}
	r := rewindWith(t, runOpts{env: freshHome(t)}, "follow", "--json", "--on", "kind:nope", dir)
	r.want(t, "a wrong query", 2, "*")
	r = rewindWith(t, runOpts{env: freshHome(t)}, "follow", dir, "--exec", "no-such-program-anywhere --flag")
	r.want(t, "a command that is nowhere", 2, "*")
	if !strings.HasPrefix(r.stderr, "rewind follow: --exec: no-such-program-anywhere cannot be run: executable file not found in ") {
		t.Errorf("a command that is nowhere: %q", r.stderr)
	}
}

// TestFollowTerminated: SIGTERM (a service manager stopping it) ends follow
// as Ctrl-C does: status 0, and how many moments fired.
func TestFollowTerminated(t *testing.T) {
	b := startRewind(t, freshHome(t), "follow", "--json", t.TempDir())
	b.waitFor(t, "the watch to start", func() bool { return strings.Contains(b.stderr.String(), "watching") })
	r := b.signal(t, syscall.SIGTERM)
	r.want(t, "follow, terminated", 0, "*")
	if !strings.HasSuffix(r.stderr, "rewind follow: interrupted; 0 moments fired\n") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// TestFollowMomentsAsDecoded: every moment of a real netplay game written
// live in 16 KB chunks 20 ms apart (some ten snapshots) fires once, with
// the facts rewind moments --json gives the finished file: a combo or a
// conversion is not taken for over while it goes on (its replay's start
// aside, which Slippi writes at the end).
func TestFollowMomentsAsDecoded(t *testing.T) {
	src := filepath.Join("..", "shared", "corpus", "slp", "PMcca__go-slippi", "replays__netplay-online.slp")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skipf("the shared corpus is not here (%v)", err)
	}
	dir := t.TempDir()
	b := startRewind(t, freshHome(t), "follow", "--json", dir)
	b.waitFor(t, "the watch to start", func() bool { return strings.Contains(b.stderr.String(), "watching") })
	writeLive(t, filepath.Join(dir, "Game.slp"), data, 16<<10, 20*time.Millisecond)
	b.waitFor(t, "the game's end", func() bool { return strings.Contains(b.stderr.String(), "Game.slp ended") })
	r := b.interrupt(t)
	r.want(t, "follow --json", 0, "*")
	m := rewind(t, "moments", "--json", "--no-cache", src, "")
	m.want(t, "moments", 0, "")
	key := func(out string) []string {
		var keys []string
		for _, o := range ndjson(t, out) {
			delete(o, "path")
			delete(o, "start")
			b, _ := json.Marshal(o)
			keys = append(keys, string(b))
		}
		slices.Sort(keys)
		return keys
	}
	got, want := key(r.stdout), key(m.stdout)
	if len(want) < 80 || !slices.Equal(got, want) {
		t.Errorf("follow --json wrote %d moments, moments --json %d; first differences:", len(got), len(want))
		for i := 0; i < min(len(got), len(want)) && i < 200; i++ {
			if got[i] != want[i] {
				t.Errorf("\n got %s\nwant %s", got[i], want[i])
				break
			}
		}
	}
}
