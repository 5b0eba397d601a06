package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rewind/actions/actionstest"
)

// The config of the run tests; the line numbers of the actions are in the
// sentences below.
const runConfig = `[[action]]
name = "note"
formats = ["slippi"]
command = [BIN, "{path}", "--player={player}", "{frame}", "{start}", "{end}", "{time}"]

[[action]]
name = "said"
command = "BIN '{player}' x{frame}y\t{path}"

[[action]]
name = "osu"
formats = ["osu"]
command = [BIN]
`

// rewind run hands the command each placeholder as one word: a file name
// and a player name full of what a shell would act on (spaces, quotes, ;,
// $(...), backquotes, newlines, a placeholder) arrive as they are, and
// nothing runs them. run waits and exits with the command's status.
func TestRun(t *testing.T) {
	w := newWorld(t)
	w.writeConfig(t, runConfig)
	hostile := filepath.Join(w.dir, `my game's "best" ; $(touch pwned) `+"`touch pwned`\n{player}.slp")
	data, err := os.ReadFile(v318)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hostile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	player := `Fox "the" 'fox'; rm -rf ~ $(reboot) {path}` + "\nline two"

	for i, tt := range []struct {
		args []string
		want []string
	}{
		// 0:10 is frame 600; 700 is --to; the time of frame 600 is 10 s
		{[]string{"--at", "0:10", "--to", "700", "--player", player, "note", hostile},
			[]string{hostile, "--player=" + player, "600", "600", "700", "10"}},
		// the string form: split into words once, from the config's text
		{[]string{"--player", player, "said", hostile},
			[]string{player, "x-123y", hostile}},
	} {
		r := w.rewind(t, nil, append([]string{"run"}, tt.args...)...)
		r.want(t, "run "+tt.args[len(tt.args)-2], 0, "")
		es := actionstest.WaitFor(t, w.log, "started", func(es []actionstest.Entry) bool { return len(actionstest.Starts(es)) == i+1 })
		if got := actionstest.Starts(es)[i].Args; !slices.Equal(got, tt.want) {
			t.Errorf("run %s: the command got\n  %q\nwant\n  %q", tt.args[len(tt.args)-2], got, tt.want)
		}
	}
	for _, dir := range []string{".", w.dir} {
		if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
			t.Errorf("a shell ran a name: %s/pwned exists", dir)
		}
	}

	// a name in rewind's own sentence stays on its line, escaped
	r := w.rewind(t, nil, "run", "osu", hostile)
	r.want(t, "run osu on the hostile name", 2, "rewind run: action osu is for osu replays (formats at "+w.config+":10), and "+
		strings.ReplaceAll(hostile, "\n", `\x0a`)+" is one of the Slippi replays\n")

	// the command's exit status is run's
	r = w.rewind(t, []string{actionstest.ExitEnv + "=7"}, "run", "note", v318)
	r.want(t, "run, the command exits 7", 7, "")
}

// What keeps run from running an action: one sentence each, exit 2, and
// nothing started.
func TestRunCannot(t *testing.T) {
	w := newWorld(t)
	gone := filepath.Join(w.dir, "nowhere", "prog")
	for _, tt := range []struct {
		config string
		args   []string
		stderr string
	}{
		{"", []string{"note", v318},
			"rewind run: " + w.config + " has no [[action]]; add one with a name and a command (rewind help run shows one)\n"},
		{runConfig, []string{"osu", v318},
			"rewind run: action osu is for osu replays (formats at " + w.config + ":10), and " + v318 + " is one of the Slippi replays\n"},
		{runConfig, []string{"nope", v318},
			`rewind run: no action "nope" in ` + w.config + "; its actions are note, said, osu\n"},
		{"[[action]]\nname = \"gone\"\ncommand = ['" + gone + "', '{path}']\n", []string{"gone", v318},
			"rewind run: cannot start " + gone + " (the command of action gone, " + w.config + ":1): no such file or directory\n"},
		{runConfig, []string{"note"}, "rewind run: name an action and a replay, like rewind run clip game.slp\n"},
		{runConfig, []string{"note", "testdata/missing.slp"}, "rewind run: testdata/missing.slp: no such file or folder\n"},
	} {
		os.Remove(w.config)
		if tt.config != "" {
			w.writeConfig(t, tt.config)
		}
		r := w.rewind(t, nil, append([]string{"run"}, tt.args...)...)
		r.want(t, "run "+tt.args[0], 2, tt.stderr)
	}
	if es := actionstest.Entries(t, w.log); len(es) != 0 {
		t.Errorf("something was started: %+v", es)
	}
}

// The shell completes run's first word with the config's actions, then a
// replay's path; and the manual has a page for watch and for run, each
// with its exit status.
func TestRunCompletesAndHasPages(t *testing.T) {
	w := newWorld(t)
	w.writeConfig(t, runConfig)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "run", ""}, "note said osu"},
		{[]string{"__complete", "run", "S"}, "said"},
		{[]string{"__complete", "run", "note", "testdata/samples/slippi/tests__data__v3.1"}, "testdata/samples/slippi/tests__data__v3.12.slp testdata/samples/slippi/tests__data__v3.16.slp testdata/samples/slippi/tests__data__v3.18.slp"},
		{[]string{"__complete", "watch", "testdata/samples/osr/st"}, "testdata/samples/osr/standard-2018-life-bar.osr testdata/samples/osr/standard-lazer-failed.osr"},
	} {
		r := w.rewind(t, nil, tt.args...)
		r.want(t, strings.Join(tt.args, " "), 0, "*")
		var got []string
		for line := range strings.Lines(r.stdout) {
			if strings.HasPrefix(line, ":") {
				break // the directive
			}
			got = append(got, strings.SplitN(strings.TrimSpace(line), "\t", 2)[0])
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%v: %q, want %s", tt.args, got, tt.want)
		}
	}
	dir := filepath.Join(w.dir, "man1")
	w.rewind(t, nil, "man", dir).want(t, "man", 0, "*")
	for _, page := range []string{"rewind-watch.1", "rewind-run.1"} {
		data, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "Exit status:") || !strings.Contains(string(data), ".SH SYNOPSIS") {
			t.Errorf("%s has no synopsis or exit status:\n%.600s", page, data)
		}
	}
}
