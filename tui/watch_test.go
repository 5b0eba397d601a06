package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"rewind/actions"
	"rewind/actions/actionstest"
	"rewind/config"
	"rewind/theme"
)

// watchSandbox is a handoff to a stand-in Dolphin (this test binary, run
// again: actionstest) with an ISO that is an empty file, in a home and
// config folder of the test's own.
func watchSandbox(t *testing.T, cfg config.Config) (*handoff, string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv(config.Env, filepath.Join(dir, "config.toml"))
	log := filepath.Join(dir, "stand-in.log")
	t.Setenv(actionstest.Env, log)
	iso := filepath.Join(dir, "Melee.iso")
	os.WriteFile(iso, nil, 0o644)
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.File = filepath.Join(dir, "config.toml")
	if cfg.Slippi.Dolphin == "" {
		cfg.Slippi = config.Slippi{Dolphin: bin, ISO: iso}
	}
	t.Cleanup(func() { actionstest.KillAll(t, log) })
	return &handoff{cfg: cfg, player: actions.NewPlayer(filepath.Join(dir, "playback"))}, log
}

// pressCmd sends a key to the replay view and runs the command it gives,
// returning the message that command makes.
func pressCmd(t *testing.T, v *replayView, k string) tea.Msg {
	t.Helper()
	cmd := v.onKey(keyMsg(k))
	if cmd == nil {
		t.Fatalf("%s gave no command (status %q)", k, v.status)
	}
	return cmd()
}

// TestWatchKey: w in a replay hands Dolphin the replay from the frame at
// the cursor, and, on a moment in the moments list, that moment widened as
// Project Clippi widens a clip; the status says what started.
func TestWatchKey(t *testing.T) {
	h, log := watchSandbox(t, config.Config{})
	path, _ := filepath.Abs(filepath.Join("..", "testdata", "samples", "slippi", "tests__data__v3.18.slp"))
	r := openSample(t, "slippi/tests__data__v3.18.slp")
	r.Path = path
	v := newReplayView(r, prepare(r), theme.New(false))
	v.hand = h
	v.setSize(160, 48)
	v.focus = paneInspector // the frame, not a moment
	v.seek(723)             // frame 600: Slippi counts from -123
	msg := pressCmd(t, v, "w").(handoffMsg)
	if msg.err != nil || !strings.HasPrefix(msg.Text(), "started the playback Dolphin") {
		t.Fatalf("w: %q", msg.Text())
	}
	es := actionstest.WaitFor(t, log, "read its communication file", func(es []actionstest.Entry) bool { return len(actionstest.Comms(t, es)) > 0 })
	c := actionstest.Comms(t, es)[0]
	if c["replay"] != path || c["startFrame"] != 600.0 || c["endFrame"] != 817.0 {
		t.Errorf("the comm file: %v; want %s from 600 to 817 (slippi-js's lastFrame)", c, path)
	}
	// the first moment, from the moments list
	if len(v.p.moments) == 0 {
		t.Fatal("no moments to watch")
	}
	v.focus, v.list, v.mom = paneEvents, listMoments, 0
	m := v.p.moments[0]
	tl := &r.Timeline
	pressCmd(t, v, "w")
	es = actionstest.WaitFor(t, log, "read a second file", func(es []actionstest.Entry) bool { return len(actionstest.Comms(t, es)) > 1 })
	c = actionstest.Comms(t, es)[1]
	q, _ := c["queue"].([]any)
	if len(actionstest.Starts(es)) != 1 || len(q) != 1 {
		t.Fatalf("a second w: %d Dolphins, comm %v; want the same Dolphin with one clip", len(actionstest.Starts(es)), c)
	}
	item := q[0].(map[string]any)
	wantStart := max(int64(-123), tl.Number(m.Frame)-240)
	wantEnd := min(tl.Number(m.End)+180, int64(817))
	if item["startFrame"] != float64(wantStart) || item["endFrame"] != float64(wantEnd) {
		t.Errorf("the moment %d..%d: %v; want %d..%d", tl.Number(m.Frame), tl.Number(m.End), item, wantStart, wantEnd)
	}
}

// TestWatchNotConfigured: without a playback Dolphin in the config, w says
// which key to set, in one sentence, and starts nothing; an action key
// runs the configured action.
func TestWatchNotConfigured(t *testing.T) {
	h, log := watchSandbox(t, config.Config{Slippi: config.Slippi{Dolphin: "", ISO: ""}})
	h.cfg.Slippi = config.Slippi{}
	r := openSample(t, "slippi/tests__data__v3.18.slp")
	v := newReplayView(r, prepare(r), theme.New(false))
	v.hand = h
	v.setSize(80, 24)
	msg := pressCmd(t, v, "w").(handoffMsg)
	if !strings.Contains(msg.Text(), "set dolphin under [slippi] in "+h.cfg.File) || strings.Contains(msg.Text(), "\n") {
		t.Errorf("w without a Dolphin: %q", msg.Text())
	}
	if es := actionstest.Entries(t, log); len(es) != 0 {
		t.Errorf("something started: %+v", es)
	}
}
