package actions

// The programs a Player starts are played in these tests by the stand-in
// (package actionstest): this test binary, run again with actionstest.Env naming
// a log. No test starts a real Dolphin or osu!.

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"rewind/actions/actionstest"
	"rewind/config"
	"rewind/decoders"
	"rewind/library/dolphin"
	"rewind/model"
)

func TestMain(m *testing.M) {
	if actionstest.Run() {
		return
	}
	os.Exit(m.Run())
}

// sandbox is one test's world: a temporary home and config folder, a
// Player folder, a Melee ISO (an empty file: the stand-in never reads
// it) and the stand-in's log.
type sandbox struct {
	dir, log, iso, bin string
	cfg                config.Config
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv(config.Env, filepath.Join(dir, "config.toml"))
	s := &sandbox{dir: dir, log: filepath.Join(dir, "stand-in.log"), iso: filepath.Join(dir, "Melee.iso")}
	t.Setenv(actionstest.Env, s.log)
	if err := os.WriteFile(s.iso, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s.bin = bin
	s.cfg = config.Config{File: filepath.Join(dir, "config.toml"), Slippi: config.Slippi{Dolphin: bin, ISO: s.iso}}
	t.Cleanup(func() { actionstest.KillAll(t, s.log) })
	return s
}

func (s *sandbox) entries(t *testing.T) []actionstest.Entry { return actionstest.Entries(t, s.log) }

func (s *sandbox) waitFor(t *testing.T, what string, ok func([]actionstest.Entry) bool) []actionstest.Entry {
	t.Helper()
	return actionstest.WaitFor(t, s.log, what, ok)
}

var (
	starts = actionstest.Starts
	comms  = actionstest.Comms
)

const v318 = "../testdata/samples/slippi/tests__data__v3.18.slp"

// at decodes a sample and makes the request at a frame number.
func at(t *testing.T, path string, frame int64) Request {
	t.Helper()
	r, err := decoders.Open(path, model.DecodeOptions{NoEvents: true})
	if err != nil {
		t.Fatal(err)
	}
	r.Path = path
	return At(r, r.Timeline.Index(frame))
}

// The target: Watch starts the configured Dolphin as Slippi Launcher
// does, -b -e ISO -i COMMFILE, and the file names the replay by its
// absolute path, from the frame asked to the replay's last, 817
// (metadata.lastFrame per slippi-js 9.1.2: node -e with SlippiGame
// (...).getMetadata().lastFrame on tests__data__v3.18.slp), with a
// commandId.
func TestWatchStartsDolphin(t *testing.T) {
	s := newSandbox(t)
	p := NewPlayer(filepath.Join(s.dir, "playback"))
	note, err := p.Watch(s.cfg, at(t, v318, 600))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(note, "started the playback Dolphin (process ") || !strings.HasSuffix(note, v318+" from frame 600 to 817") {
		t.Errorf("note %q", note)
	}
	es := s.waitFor(t, "read its communication file", func(es []actionstest.Entry) bool { return len(comms(t, es)) > 0 })
	args := starts(es)[0].Args
	if len(args) != 5 || args[0] != "-b" || args[1] != "-e" || args[2] != s.iso || args[3] != "-i" || filepath.Dir(args[4]) != filepath.Join(s.dir, "playback") {
		t.Fatalf("Dolphin's arguments %q, want -b -e %s -i <a file in the Player's folder>", args, s.iso)
	}
	abs, _ := filepath.Abs(v318)
	c := comms(t, es)[0]
	for key, want := range map[string]any{"mode": "normal", "replay": abs, "startFrame": 600.0, "endFrame": 817.0, "isRealTimeMode": false} {
		if c[key] != want {
			t.Errorf("comm %s = %v, want %v", key, c[key], want)
		}
	}
	if id, _ := c["commandId"].(string); id == "" {
		t.Errorf("no commandId: %v", c)
	}
}

// A second Watch while Dolphin runs hands it the new replay through its
// file with a new commandId, from the same Player and from another one on
// the same folder (another rewind, through the record); once Dolphin has
// exited, the next Watch starts another.
func TestWatchAgainHandsOver(t *testing.T) {
	s := newSandbox(t)
	dir := filepath.Join(s.dir, "playback")
	p := NewPlayer(dir)
	if _, err := p.Watch(s.cfg, at(t, v318, 600)); err != nil {
		t.Fatal(err)
	}
	s.waitFor(t, "read its first file", func(es []actionstest.Entry) bool { return len(comms(t, es)) == 1 })
	for i, frame := range []int64{700, 100} {
		player := p
		if i == 1 {
			player = NewPlayer(dir)
		}
		note, err := player.Watch(s.cfg, at(t, v318, frame))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(note, "the playback Dolphin already open (process ") {
			t.Errorf("watch %d: %q", i+2, note)
		}
		es := s.waitFor(t, "read the new file", func(es []actionstest.Entry) bool { return len(comms(t, es)) == i+2 })
		if n := len(starts(es)); n != 1 {
			t.Fatalf("watch %d started Dolphin again: %d starts", i+2, n)
		}
		cs := comms(t, es)
		if cs[i+1]["startFrame"] != float64(frame) || cs[i+1]["commandId"] == cs[i]["commandId"] {
			t.Errorf("watch %d wrote %v after %v: want startFrame %d and a new commandId", i+2, cs[i+1], cs[i], frame)
		}
	}
	// Dolphin closes: the Player that started it reaps it, and its file
	// and record go with it
	first := starts(s.entries(t))[0].PID
	proc, _ := os.FindProcess(first)
	proc.Kill()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, recordName)); errors.Is(err, os.ErrNotExist) {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the record of an exited Dolphin stayed")
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "comm-*.json")); len(left) != 0 {
		t.Errorf("the communication file of an exited Dolphin stayed: %v", left)
	}
	note, err := NewPlayer(dir).Watch(s.cfg, at(t, v318, 0))
	if err != nil || !strings.HasPrefix(note, "started the playback Dolphin") {
		t.Fatalf("after Dolphin exited: %q, %v", note, err)
	}
	es := s.waitFor(t, "started again", func(es []actionstest.Entry) bool { return len(starts(es)) == 2 })
	if starts(es)[1].PID == first {
		t.Error("the same process twice")
	}
}

// Clips play as the comm spec's queue, each widened within its replay.
func TestWatchQueue(t *testing.T) {
	s := newSandbox(t)
	req := at(t, v318, 0)
	req.Clips = []dolphin.Clip{{Path: v318, Start: 300, End: 400, Last: 817}, {Path: v318, Start: 700, End: 800, Last: 817}}
	req.Lead, req.Trail = dolphin.DefaultLead, dolphin.DefaultTrail
	note, err := NewPlayer(filepath.Join(s.dir, "playback")).Watch(s.cfg, req)
	if err != nil || !strings.HasSuffix(note, "on a queue of 2 clips") {
		t.Fatalf("%q, %v", note, err)
	}
	c := comms(t, s.waitFor(t, "read the queue", func(es []actionstest.Entry) bool { return len(comms(t, es)) > 0 }))[0]
	q, _ := c["queue"].([]any)
	if c["mode"] != "queue" || len(q) != 2 {
		t.Fatalf("comm %v", c)
	}
	// 300-240 .. 400+180, and 700-240 .. 817 (the replay's last frame)
	for i, want := range [][2]float64{{60, 580}, {460, 817}} {
		it := q[i].(map[string]any)
		if it["startFrame"] != want[0] || it["endFrame"] != want[1] {
			t.Errorf("clip %d: %v..%v, want %v..%v", i+1, it["startFrame"], it["endFrame"], want[0], want[1])
		}
	}
}

// Nothing configured is ErrNotConfigured, one sentence naming the key and
// the file; the other failures are one sentence each.
func TestWatchCannot(t *testing.T) {
	s := newSandbox(t)
	file := s.cfg.File
	missing := filepath.Join(s.dir, "no", "dolphin")
	tests := []struct {
		name  string
		slp   config.Slippi
		path  string
		unset bool
		want  string
	}{
		{"nothing", config.Slippi{}, v318, true,
			"to watch Slippi replays in the game, set dolphin under [slippi] in " + file + " to Slippi's playback Dolphin, and iso to the Melee ISO"},
		{"no iso", config.Slippi{Dolphin: s.bin}, v318, true,
			"to watch Slippi replays in the game, set iso under [slippi] in " + file + " to the Melee ISO that the playback Dolphin runs"},
		{"no such Dolphin", config.Slippi{Dolphin: missing, ISO: s.iso}, v318, false,
			"cannot start " + missing + " (dolphin under [slippi] in " + file + "): no such file or directory"},
		{"no Dolphin on PATH", config.Slippi{Dolphin: "no-such-dolphin-here", ISO: s.iso}, v318, false,
			"cannot start no-such-dolphin-here (dolphin under [slippi] in " + file + "): executable file not found in $PATH"},
		{"no such ISO", config.Slippi{Dolphin: s.bin, ISO: filepath.Join(s.dir, "gone.iso")}, v318, false,
			"the Melee ISO " + filepath.Join(s.dir, "gone.iso") + " (iso under [slippi] in " + file + ") cannot be read: no such file or directory"},
		{"StarCraft II", config.Slippi{Dolphin: s.bin, ISO: s.iso}, "../testdata/samples/sc2/hots-2.0.8-tracker.SC2Replay", true,
			`StarCraft II replays have no player that rewind can start; add an [[action]] with formats = ["sc2"] to ` + file + " and run it with rewind run NAME FILE"},
	}
	for _, tt := range tests {
		cfg := s.cfg
		cfg.Slippi = tt.slp
		_, err := NewPlayer(filepath.Join(s.dir, "playback")).Watch(cfg, at(t, tt.path, 0))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v\nwant %s", tt.name, err, tt.want)
		}
		if errors.Is(err, ErrNotConfigured) != tt.unset {
			t.Errorf("%s: errors.Is(ErrNotConfigured) = %v", tt.name, !tt.unset)
		}
	}
	if es := s.entries(t); len(es) != 0 {
		t.Errorf("something started: %+v", es)
	}
}

// osu!'s replay goes to the [osu] command, its path as the last word or
// where a word says {path}.
func TestWatchOsu(t *testing.T) {
	s := newSandbox(t)
	osr := "../testdata/samples/osr/standard-2018-life-bar.osr"
	abs, _ := filepath.Abs(osr)
	for i, tt := range []struct {
		command, want []string
	}{
		{[]string{s.bin, "--osu"}, []string{"--osu", abs}},
		{[]string{s.bin, "--replay={path}", "--then"}, []string{"--replay=" + abs, "--then"}},
	} {
		s.cfg.Osu.Command = tt.command
		note, err := NewPlayer(filepath.Join(s.dir, "playback")).Watch(s.cfg, at(t, osr, 0))
		if err != nil || !strings.HasPrefix(note, "handed "+osr+" to osu! (process ") {
			t.Fatalf("%q, %v", note, err)
		}
		es := s.waitFor(t, "started", func(es []actionstest.Entry) bool { return len(starts(es)) == i+1 })
		if got := starts(es)[i].Args; !slices.Equal(got, tt.want) {
			t.Errorf("osu! got %q, want %q", got, tt.want)
		}
	}
}

// Placeholders are replaced inside each word, once: a value is never read
// again for placeholders, and never split.
func TestExpand(t *testing.T) {
	req := Request{Frame: 600, Start: 590, End: 817, Time: 10*time.Second + 16666667, Player: "Fox {frame} $(rm -rf ~); echo 'x'\nnext"}
	path := `/r/a b'c"d;$(touch pwned)` + "\n{player}.slp"
	got, err := expand([]string{"prog", "{path}", "--at={frame}", "{start}..{end}", "{time}s", "{player}", "{unknown}", ""}, req, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"prog", path, "--at=600", "590..817", "10.016666667s", req.Player, "{unknown}", ""}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// {queue} is a Dolphin queue file of the request's stretch, written once,
// only when a word asks for it; other formats have none.
func TestQueuePlaceholder(t *testing.T) {
	s := newSandbox(t)
	p := NewPlayer(filepath.Join(s.dir, "playback"))
	req := at(t, v318, 600)
	got, err := expand([]string{"{queue}", "--also={queue}"}, req, req.Path, p.queueFor(req))
	if err != nil {
		t.Fatal(err)
	}
	if got[1] != "--also="+got[0] {
		t.Errorf("two queue files: %q", got)
	}
	data, err := os.ReadFile(got[0])
	if err != nil {
		t.Fatal(err)
	}
	var c dolphin.Comm
	if err := json.Unmarshal(data, &c); err != nil || c.Mode != "queue" || len(c.Queue) != 1 || c.Queue[0].StartFrame != 600 || c.Queue[0].EndFrame != 817 {
		t.Errorf("queue file %s: %v", data, err)
	}
	osr := at(t, "../testdata/samples/osr/standard-2018-life-bar.osr", 0)
	if _, err := expand([]string{"{queue}"}, osr, osr.Path, p.queueFor(osr)); err == nil || err.Error() != "{queue} is a Slippi Dolphin queue, and ../testdata/samples/osr/standard-2018-life-bar.osr is one of the osu! replays" {
		t.Errorf("{queue} of an osu! replay: %v", err)
	}
}

// An action applies to the formats it names as the query language names
// them (id, alias, extension); a name that is no format is a sentence.
func TestApplies(t *testing.T) {
	for _, tt := range []struct {
		formats []string
		format  model.Format
		want    bool
		err     string
	}{
		{nil, "sc2", true, ""},
		{[]string{"slippi"}, "slippi", true, ""},
		{[]string{"Melee"}, "slippi", true, ""},
		{[]string{"slp"}, "slippi", true, ""},
		{[]string{"sc2", "osu!"}, "osu", true, ""},
		{[]string{"slippi"}, "osu", false, ""},
		{[]string{"chess"}, "slippi", false, `action a: formats: format "chess" is none of`},
	} {
		got, err := Applies(config.Action{Name: "a", Formats: tt.formats}, tt.format)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.HasPrefix(err.Error(), tt.err) {
			t.Errorf("%v on %s: %v, %v; want %v, %q", tt.formats, tt.format, got, err, tt.want, tt.err)
		}
	}
}

// Run starts an action as a guest with its words as written, whatever
// the file's and the player's names hold; an action for other formats,
// an unknown name and no actions at all are one sentence each.
func TestRun(t *testing.T) {
	s := newSandbox(t)
	hostile := filepath.Join(s.dir, `a b'c"d;$(touch pwned)`+"\n`id`.slp")
	data, err := os.ReadFile(v318)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hostile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s.cfg.Actions = []config.Action{
		{Name: "note", Formats: []string{"slippi"}, Command: []string{s.bin, "{path}", "{player}", "{frame}", "{time}"}, Line: 7},
		{Name: "osu only", Formats: []string{"osu"}, Command: []string{s.bin}, Line: 12},
	}
	req := at(t, hostile, 600)
	req.Player = `Fox "The Fox"; rm -rf ~ $(reboot)` + "\n"
	a, err := Find(s.cfg, "NOTE")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(filepath.Join(s.dir, "playback"))
	note, err := p.Run(s.cfg, a, req)
	if err != nil || !strings.HasPrefix(note, "started note (process ") {
		t.Fatalf("%q, %v", note, err)
	}
	es := s.waitFor(t, "started", func(es []actionstest.Entry) bool { return len(starts(es)) == 1 })
	if want := []string{hostile, req.Player, "600", "10"}; !slices.Equal(starts(es)[0].Args, want) {
		t.Errorf("args %q\nwant %q", starts(es)[0].Args, want)
	}
	if _, err := os.Stat("pwned"); err == nil {
		t.Error("a shell ran the name")
	}

	_, err = p.Run(s.cfg, s.cfg.Actions[1], req)
	if want := "action osu only is for osu replays (formats at " + s.cfg.File + ":12), and " + hostile + " is one of the Slippi replays"; err == nil || err.Error() != want {
		t.Errorf("format left out: %v\nwant %s", err, want)
	}
	if _, err := Find(s.cfg, "nope"); err == nil || err.Error() != `no action "nope" in `+s.cfg.File+"; its actions are note, osu only" || errors.Is(err, ErrNotConfigured) {
		t.Errorf("unknown action: %v", err)
	}
	if _, err := Find(config.Config{File: s.cfg.File}, "note"); err == nil || !errors.Is(err, ErrNotConfigured) ||
		err.Error() != s.cfg.File+" has no [[action]]; add one with a name and a command (rewind help run shows one)" {
		t.Errorf("no actions: %v", err)
	}
	missing := config.Action{Name: "gone", Command: []string{filepath.Join(s.dir, "nowhere", "prog"), "{path}"}, Line: 3}
	if _, err := p.Run(s.cfg, missing, req); err == nil ||
		err.Error() != "cannot start "+missing.Command[0]+" (the command of action gone, "+s.cfg.File+":3): no such file or directory" {
		t.Errorf("missing program: %v", err)
	}
}
