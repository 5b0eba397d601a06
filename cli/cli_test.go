package cli

// The CLI is tested through the real binary: TestMain builds it once, and
// every test runs it as a person or a script would, with its exit status,
// stdout and stderr checked. The tests run from the repository's root, where
// a person runs rewind, so the paths they name (testdata/samples/...,
// ../shared/corpus) read as the README's do. Dates are printed in the zone the file records,
// but TZ is still pinned (to UTC) for every run so no test depends on the
// machine; TestInfoUnderTimezones runs under other zones on purpose.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"rewind/model"
)

// bin is the rewind binary built by TestMain.
var bin string

func TestMain(m *testing.M) {
	flag.Parse()
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	samplesFS = os.DirFS("testdata")
	dir, err := os.MkdirTemp("", "rewind-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// readable by everyone: some tests run the binary as an unprivileged user
	os.Chmod(dir, 0o755)
	bin = filepath.Join(dir, "rewind")
	// the binary's index goes to a cache of this run, never the user's;
	// REWIND_CACHE, not XDG_CACHE_HOME, which would also move Go's build
	// cache and make the go build below rebuild every dependency
	os.Setenv("REWIND_CACHE", filepath.Join(dir, "cache"))
	// and its home and config directory are the run's too, empty: no test
	// reads the user's config or finds the user's replay folders
	// (sandboxEnv); Go's own commands keep the real ones, and their caches
	fakeHome = filepath.Join(dir, "home")
	os.MkdirAll(fakeHome, 0o755)
	build := exec.Command(goTool(), "build", "-o", bin, ".") // the root: main.go
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building rewind: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fakeHome is the home folder the binary runs with: empty, its config
// directory inside it.
var fakeHome string

// sandboxEnv is the environment the binary runs in: this process's, with
// the home and config folders of every operating system pointed at
// fakeHome (or home, when given), no $REWIND_CONFIG, and extra added.
func sandboxEnv(home string, extra ...string) []string {
	if home == "" {
		home = fakeHome
	}
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "APPDATA", "LOCALAPPDATA", "USERPROFILE", "WINEPREFIX", "REWIND_CONFIG":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"APPDATA="+filepath.Join(home, "AppData", "Roaming"), "LOCALAPPDATA="+filepath.Join(home, "AppData", "Local"), "USERPROFILE="+home)
	return append(env, extra...)
}

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// result is what one run of the binary gave.
type result struct {
	stdout, stderr string
	code           int
}

// runOpts changes how the binary is run.
type runOpts struct {
	dir string   // working folder; the repository's root when empty
	env []string // added to the environment (TZ=UTC is always set first)
	// home is the home folder (and the config directory's parent) the
	// binary runs with; empty: fakeHome
	home string
	cmd  func(*exec.Cmd)
}

// rewind runs the binary with args and TZ=UTC.
func rewind(t *testing.T, args ...string) result {
	t.Helper()
	return rewindWith(t, runOpts{}, args...)
}

func rewindWith(t *testing.T, o runOpts, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = o.dir
	cmd.Env = append(sandboxEnv(o.home, "TZ=UTC", "NO_COLOR=1"), o.env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if o.cmd != nil {
		o.cmd(cmd)
	}
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatalf("rewind %v: %v", args, err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("rewind %v: %v", args, err)
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("rewind %v: still running after 60 s (a hang)", args)
	}
	return result{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
}

// want checks the exit status, then that stderr is exactly stderr (or, with
// stderr "*", anything).
func (r result) want(t *testing.T, what string, code int, stderr string) {
	t.Helper()
	if r.code != code {
		t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", what, r.code, code, r.stdout, r.stderr)
	}
	if stderr != "*" && r.stderr != stderr {
		t.Errorf("%s: stderr\n  %q\nwant\n  %q", what, r.stderr, stderr)
	}
}

const (
	netplay = "testdata/samples/slippi/tests__data__netplay.slp"
	corrupt = "testdata/samples/slippi/tests__data__corrupt.slp"
	v312    = "testdata/samples/slippi/tests__data__v3.12.slp"
)

// sampleFiles lists the built-in samples on disk, so tests can name them.
func sampleFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, in := range collect(nil, nil) {
		out = append(out, filepath.Join("testdata", in.Name))
	}
	if len(out) < 20 {
		t.Fatalf("only %d samples found", len(out))
	}
	return out
}

// ndjson parses every line of out as a JSON object.
func ndjson(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var obj map[string]any
		if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
			t.Fatalf("line %d is not a JSON object: %v: %.200s", len(objs)+1, err, sc.Text())
		}
		objs = append(objs, obj)
	}
	return objs
}

var lowerCamel = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)

// checkKeys fails for a key that is not lowerCamelCase, anywhere in v
// except under the keys in data (whose keys are the decoder's own).
func checkKeys(t *testing.T, where string, v any, data map[string]bool) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !lowerCamel.MatchString(k) {
				t.Errorf("%s: key %q is not lowerCamelCase", where, k)
			}
			if !data[k] {
				checkKeys(t, where+"."+k, e, data)
			}
		}
	case []any:
		for _, e := range x {
			checkKeys(t, where, e, data)
		}
	}
}

func readGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("cli", "testdata", "golden", name))
	if err != nil && !*update {
		t.Fatalf("%v (go test -run %s -update creates it)", err, t.Name())
	}
	return string(b)
}

var update = flag.Bool("update", false, "rewrite the golden files in cli/testdata/golden")

// golden compares out with cli/testdata/golden/name, or rewrites it with
// -update. The goldens hold the layout; the values in them are checked
// against ground truth by TestInfoAgainstGroundTruth and
// TestDumpAgainstGroundTruth, and the decoders' own tests.
func golden(t *testing.T, name, out string) {
	t.Helper()
	p := filepath.Join("cli", "testdata", "golden", name)
	if *update {
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := readGolden(t, name); want != out {
		t.Errorf("output differs from %s (go test -update rewrites it after a deliberate change):\n%s", p, lineDiff(want, out))
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

// ---- help, version, flags -------------------------------------------------

func TestHelpEverywhere(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		golden string
	}{
		{[]string{"--help"}, "help-rewind.txt"},
		{[]string{"-h"}, "help-rewind.txt"},
		{[]string{"help"}, "help-rewind.txt"},
		{[]string{"info", "--help"}, "help-info.txt"},
		{[]string{"info", "-h"}, "help-info.txt"},
		{[]string{"help", "info"}, "help-info.txt"},
		{[]string{"dump", "--help"}, "help-dump.txt"},
		{[]string{"dump", netplay, "--help"}, "help-dump.txt"}, // help wins wherever it is
		{[]string{"help", "dump"}, "help-dump.txt"},
		{[]string{"check", "--help"}, "help-check.txt"},
		{[]string{"check", "-help"}, "help-check.txt"},
		{[]string{"help", "check"}, "help-check.txt"},
	} {
		r := rewind(t, tt.args...)
		r.want(t, strings.Join(tt.args, " "), 0, "")
		golden(t, tt.golden, r.stdout)
	}
	// every command's help, however asked, on stdout with exit 0
	for _, args := range [][]string{{"help", "help"}, {"help", "--help"}, {"help", "completion"}, {"completion", "-h"},
		{"help", "man"}, {"man", "--help"}, {"stats", "--json", "--help"}, {"export", "--help"}, {"find", "-h"}} {
		r := rewind(t, args...)
		r.want(t, strings.Join(args, " "), 0, "")
		if !strings.Contains(r.stdout, "\nUsage:\n  rewind ") || !strings.Contains(r.stdout, "Exit status: ") {
			t.Errorf("%v: %q", args, r.stdout)
		}
	}
}

// TestHelpListsEveryFlag: a flag added to a command shows in its help and
// in its usage line, and the help starts with what the command does and
// has the usage line cobra writes.
func TestHelpListsEveryFlag(t *testing.T) {
	for _, newCmd := range commands {
		cmd := newCmd()
		if cmd.Hidden {
			continue
		}
		var out, errb bytes.Buffer
		if code := run([]string{cmd.Name(), "--help"}, &out, &errb); code != 0 || errb.Len() > 0 {
			t.Errorf("%s --help: exit %d, stderr %q", cmd.Name(), code, errb.String())
		}
		help := out.String()
		if !strings.Contains(help, "\nUsage:\n  rewind "+cmd.Use+"\n") {
			t.Errorf("%s --help has no usage line %q:\n%s", cmd.Name(), cmd.Use, help)
		}
		if !strings.HasPrefix(help, strings.SplitN(cmd.Long, "\n", 2)[0]) {
			t.Errorf("%s --help does not start with what the command does: %.80q", cmd.Name(), help)
		}
		if notes := cmd.Annotations[notesKey]; notes == "" || !strings.Contains(help, "Exit status: ") {
			t.Errorf("%s --help says no exit status", cmd.Name())
		}
		n := 0
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			n++
			if !strings.Contains(help, "--"+f.Name+" ") && !strings.Contains(help, "--"+f.Name+"\n") {
				t.Errorf("%s --help does not list --%s", cmd.Name(), f.Name)
			}
			if !strings.Contains(cmd.Use, "--"+f.Name) && (f.Shorthand == "" || !strings.Contains(cmd.Use, "-"+f.Shorthand+" ")) {
				t.Errorf("%s's usage line does not show --%s", cmd.Name(), f.Name)
			}
		})
		if n == 0 && cmd.Name() != "completion" {
			t.Errorf("%s has no flags", cmd.Name())
		}
	}
}

func TestVersion(t *testing.T) {
	r := rewind(t, "--version")
	r.want(t, "--version", 0, "")
	if !strings.HasPrefix(r.stdout, "rewind ") || strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stdout, runtime.Version()) {
		t.Errorf("--version printed %q, want one line: rewind VERSION (... %s ...)", r.stdout, runtime.Version())
	}
}

// TestFlagMistakes: every mistake on the command line is one sentence on
// stderr, nothing on stdout, and exit status 2.
func TestFlagMistakes(t *testing.T) {
	const rangeHint = "a range is A..B, like -123..0 or 0:05..1:05.5"
	for _, tt := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"--nope"}, "rewind: unknown flag --nope (rewind --help lists the flags)"},
		{[]string{"--json"}, "rewind: unknown flag --json (rewind --help lists the flags)"},
		{[]string{"info", "--nope"}, "rewind info: unknown flag --nope (rewind info --help lists the flags)"},
		{[]string{"info", "-x=1", netplay}, "rewind info: unknown flag -x=1 (rewind info --help lists the flags)"},
		{[]string{"check", "testdata/samples", "--jsn"}, "rewind check: unknown flag --jsn (rewind check --help lists the flags)"},
		{[]string{"dump", "---frames", "1", netplay}, "rewind dump: unknown flag ---frames (rewind dump --help lists the flags)"},
		{[]string{"info", "--json=maybe"}, `rewind info: --json takes true or false, not "maybe"`},
		{[]string{"check", "--quiet=", "testdata"}, `rewind check: --quiet takes true or false, not ""`},
		{[]string{"check"}, "rewind check: name the files or folders to check, like rewind check ~/replays"},
		{[]string{"check", "--json", "--"}, "rewind check: name the files or folders to check, like rewind check ~/replays"},
		{[]string{"dump"}, "rewind dump: name one replay file to dump"},
		{[]string{"dump", netplay, v312}, "rewind dump: dumps one replay file, and 2 were given (rewind info summarises several)"},
		{[]string{"dump", "--frames"}, "rewind dump: --frames needs a value, like --frames -123..0"},
		{[]string{"dump", "--json=false", netplay}, "rewind dump: writes only NDJSON; --json=false has no other form to give (rewind info prints a summary for people)"},
		{[]string{"dump", "--frames", "abc", netplay}, `rewind dump: --frames: "abc" is neither a frame number nor a time (m:ss, h:mm:ss or 12.5s); ` + rangeHint},
		{[]string{"dump", "--frames", "1..x", netplay}, `rewind dump: --frames: "x" is neither a frame number nor a time (m:ss, h:mm:ss or 12.5s); ` + rangeHint},
		{[]string{"dump", "--frames", "1:0:05x", netplay}, `rewind dump: --frames: "1:0:05x" is not a time: write m:ss or h:mm:ss, with a fraction only on the seconds; ` + rangeHint},
		{[]string{"dump", "--frames", "1:75", netplay}, `rewind dump: --frames: "1:75" is not a time: 75 is not below 60; ` + rangeHint},
		// the old A:B form reads as a time and says how ranges are written now
		{[]string{"dump", "--frames", "-123:-121", netplay}, `rewind dump: --frames: "-123:-121" is not a time: write m:ss or h:mm:ss, with a fraction only on the seconds; ` + rangeHint},
		// netplay.slp has frames -123 to 4 (128 frames, EXPECTED.md), 60 per second
		{[]string{"dump", "--frames", "4..-100", netplay}, "rewind dump: --frames 4..-100: the range is reversed: 4 comes after -100"},
		{[]string{"dump", "--frames", "0..99999", netplay}, "rewind dump: --frames 0..99999: frame 99999 is outside the replay, which has frames -123 to 4"},
		{[]string{"dump", "--frames", "-124", netplay}, "rewind dump: --frames -124: frame -124 is outside the replay, which has frames -123 to 4"},
		{[]string{"dump", "--frames", "1:0:05", netplay}, "rewind dump: --frames 1:0:05: 1:0:05 is outside the replay, which runs from -0:02.05 to 0:00.08"},
		{[]string{"dump", "--frames", "0:01..0:00", netplay}, "rewind dump: --frames 0:01..0:00: 0:01 is outside the replay, which runs from -0:02.05 to 0:00.08"},
		{[]string{"dump", "--frames", "-2.1s..", netplay}, "rewind dump: --frames -2.1s..: -2.1s is outside the replay, which runs from -0:02.05 to 0:00.08"},
		{[]string{"dump", "testdata/samples"}, "rewind dump: testdata/samples is a folder; dump takes one replay file"},
		{[]string{"dump", "testdata/missing.slp"}, "rewind dump: testdata/missing.slp: no such file or folder"},
		{[]string{"dump", "testdata/samples/slippi/MANIFEST.tsv"}, `rewind dump: testdata/samples/slippi/MANIFEST.tsv: not a replay: a text file beginning "file\tsource path in the corpus\toriginal …"`},
		{[]string{"help", "nosuch"}, `rewind help: no command "nosuch"; the commands are info, dump, check, stats, moments, follow, diff, repair, find, export, watch, run, config, completion`},
		{[]string{"chekc", "testdata"}, "rewind: chekc is neither a command nor a file; the commands are info, dump, check, stats, moments, follow, diff, repair, find, export, watch, run, config, completion (rewind --help)"},
		{[]string{"repair", netplay, "-o"}, "rewind repair: -o needs a value, like -o fixed.slp"},
		{[]string{"repair", netplay, "--out"}, "rewind repair: --out needs a value, like --out fixed.slp"},
		{[]string{"dump", "--follow", "--idle", "soon", netplay}, "rewind dump: --idle soon: not a duration; write it like 30s, 1m30s or 0"},
		{[]string{"completion"}, "rewind completion: name one shell: bash, zsh, fish, powershell"},
		{[]string{"completion", "tcsh"}, `rewind completion: no completion for "tcsh"; the shells are bash, zsh, fish, powershell`},
		{[]string{"man"}, "rewind man: name the folder to write the pages to, like rewind man ./man1"},
	} {
		r := rewind(t, tt.args...)
		r.want(t, strings.Join(tt.args, " "), 2, tt.stderr+"\n")
		if r.stdout != "" {
			t.Errorf("%v: stdout %q, want nothing", tt.args, r.stdout)
		}
	}
}

// TestJSONFalse: --json=false gives the text form where there is one.
func TestJSONFalse(t *testing.T) {
	for _, cmd := range []string{"info", "check"} {
		text := rewind(t, cmd, netplay)
		r := rewind(t, cmd, "--json=false", netplay)
		r.want(t, cmd+" --json=false", 0, "")
		if r.stdout != text.stdout || strings.HasPrefix(r.stdout, "{") {
			t.Errorf("%s --json=false:\n%s\nwant the text form\n%s", cmd, r.stdout, text.stdout)
		}
	}
}

// TestDoubleDash: -- ends the flags, so a file may start with a dash, and
// flags may follow the paths.
func TestDoubleDash(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(netplay)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "-game.slp"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := rewindWith(t, runOpts{dir: dir}, "check", "--", "-game.slp")
	r.want(t, "check -- -game.slp", 0, "")
	if !strings.Contains(r.stdout, "\nslippi               1       1         0           0\n") {
		t.Errorf("check -- -game.slp did not check it:\n%s", r.stdout)
	}
	r = rewindWith(t, runOpts{dir: dir}, "check", "-game.slp")
	r.want(t, "check -game.slp", 2, "rewind check: unknown flag -game.slp (rewind check --help lists the flags)\n")

	// after --, --json is a path
	r = rewind(t, "info", "--", "--json")
	r.want(t, "info -- --json", 2, "*")
	if r.stdout != "--json\n  unreadable  no such file or folder\n" {
		t.Errorf("info -- --json: %q", r.stdout)
	}
	// flags after the paths still count
	r = rewind(t, "check", "testdata/samples", "--quiet")
	r.want(t, "check PATH --quiet", 1, "")
	if !strings.HasPrefix(r.stdout, "\nformat ") {
		t.Errorf("check PATH --quiet printed more than the summary:\n%s", r.stdout)
	}
}

// ---- check ------------------------------------------------------------------

func TestCheckGolden(t *testing.T) {
	r := rewind(t, "check", "testdata/samples")
	r.want(t, "check samples", 1, "") // two samples are damaged on purpose
	golden(t, "check-samples.txt", r.stdout)
}

func TestCheckQuiet(t *testing.T) {
	full := rewind(t, "check", "testdata/samples")
	r := rewind(t, "check", "--quiet", "testdata/samples")
	r.want(t, "check --quiet", 1, "")
	table := full.stdout[strings.Index(full.stdout, "\nformat "):]
	if r.stdout != table {
		t.Errorf("check --quiet printed\n%s\nwant only the summary\n%s", r.stdout, table)
	}
	r = rewind(t, "check", "--quiet", "--json", "testdata/samples")
	r.want(t, "check --quiet --json", 1, "")
	objs := ndjson(t, r.stdout)
	if len(objs) != 1 || objs[0]["type"] != "summary" {
		t.Errorf("check --quiet --json: want the summary object alone, got %d objects", len(objs))
	}
}

// TestCheckJSON: one file object per replay, with dump's diagnostic
// fields, lowerCamelCase keys, and the summary object last, adding up.
func TestCheckJSON(t *testing.T) {
	r := rewind(t, "check", "--json", "testdata/samples")
	r.want(t, "check --json", 1, "")
	objs := ndjson(t, r.stdout)
	files := len(sampleFiles(t))
	if len(objs) != files+1 {
		t.Fatalf("%d objects for %d samples", len(objs), files)
	}
	for _, o := range objs {
		checkKeys(t, "check --json", o, map[string]bool{"byFormat": true})
	}
	last := objs[len(objs)-1]
	if last["type"] != "summary" || last["exit"] != 1.0 {
		t.Fatalf("last object: %v", last)
	}
	var sum checkSummary
	b, _ := json.Marshal(last)
	json.Unmarshal(b, &sum)
	var byFormat tally
	for _, tl := range sum.ByFormat {
		if tl.Clean+tl.Problems+tl.Unreadable != tl.Files {
			t.Errorf("tally does not add up: %+v", tl)
		}
		byFormat.Files += tl.Files
		byFormat.Clean += tl.Clean
	}
	// the samples' MANIFEST.tsv files say which two are damaged on purpose
	want := tally{Files: files, Clean: files - 2, Problems: 2}
	if sum.Total != want || byFormat.Files != files || byFormat.Clean != files-2 {
		t.Errorf("summary %+v (by format %+v), want %+v", sum.Total, byFormat, want)
	}
	if sum.ByFormat["slippi"] == nil || *sum.ByFormat["slippi"] != (tally{Files: 9, Clean: 8, Problems: 1}) {
		t.Errorf("slippi row %+v", sum.ByFormat["slippi"])
	}

	// the diagnostics of a file are dump's diagnostic objects, field for field
	var fromCheck []any
	for _, o := range objs {
		if o["path"] == "testdata/samples/slippi/tests__data__corrupt.slp" {
			fromCheck = o["diagnostics"].([]any)
			if o["status"] != "problems" || o["partial"] != true || o["problems"] != 2.0 || o["format"] != "slippi" {
				t.Errorf("corrupt.slp: %v", o)
			}
		}
	}
	d := rewind(t, "dump", corrupt)
	d.want(t, "dump corrupt.slp", 1, "")
	var fromDump []any
	for _, o := range ndjson(t, d.stdout) {
		if o["type"] == "diagnostic" {
			delete(o, "type")
			fromDump = append(fromDump, o)
		}
	}
	a, _ := json.Marshal(fromCheck)
	b, _ = json.Marshal(fromDump)
	if len(fromCheck) != 3 || string(a) != string(b) {
		t.Errorf("check --json diagnostics\n%s\ndiffer from dump's\n%s", a, b)
	}
	// the cut Message Splitter: every field a diagnostic can have
	var cut map[string]any
	for _, d := range fromCheck {
		if d.(map[string]any)["severity"] == "error" {
			cut = d.(map[string]any)
		}
	}
	for _, key := range []string{"severity", "source", "offset", "length", "subject", "message", "expected", "found", "text"} {
		if _, ok := cut[key]; !ok {
			t.Errorf("check --json diagnostic has no %q: %v", key, cut)
		}
	}
	if cut["offset"] != float64(0x6edf) || cut["expected"] != "517 bytes" || cut["found"] != "289 bytes" {
		t.Errorf("corrupt.slp's error: %v; want offset 0x6edf, expected 517 bytes, found 289 bytes", cut)
	}
}

// ---- info -------------------------------------------------------------------

func TestInfoGolden(t *testing.T) {
	r := rewind(t, "info")
	r.want(t, "info", 0, "")
	golden(t, "info-samples.txt", r.stdout)
}

// TestInfoCheckGolden: with --check every sample is decoded in full, so
// the problems line is final (the default reads headers only).
func TestInfoCheckGolden(t *testing.T) {
	r := rewind(t, "info", "--check")
	r.want(t, "info --check", 0, "")
	golden(t, "info-samples-checked.txt", r.stdout)
}

// TestInfoHeaderOnlyAgrees: the header read tells what the full decode
// tells about every sample, except what needs the whole file: the problem
// counts and partial.
func TestInfoHeaderOnlyAgrees(t *testing.T) {
	head := ndjson(t, rewind(t, "info", "--json", "--no-cache", "testdata/samples").stdout)
	full := ndjson(t, rewind(t, "info", "--json", "--no-cache", "--check", "testdata/samples").stdout)
	if len(head) != len(full) || len(head) == 0 {
		t.Fatalf("%d objects header-only, %d checked", len(head), len(full))
	}
	for i := range head {
		h, f := head[i], full[i]
		if h["checked"] != false || f["checked"] != true || h["partial"] != nil || f["partial"] == nil {
			t.Errorf("%v: checked %v/%v, partial %v/%v", h["path"], h["checked"], f["checked"], h["partial"], f["partial"])
		}
		for _, k := range []string{"checked", "partial", "problems", "diagnostics"} {
			delete(h, k)
			delete(f, k)
		}
		// an outcome may need the whole game (who still had stocks after a
		// No Contest), like the problems: a header read's is what the
		// result words say, and then it agrees with the full decode's
		for _, o := range []map[string]any{h, f} {
			ps, _ := o["players"].([]any)
			for i, p := range ps {
				pm := p.(map[string]any)
				if ho, ok := h["players"].([]any)[i].(map[string]any)["outcome"]; ok && o["path"] == h["path"] {
					if fo := f["players"].([]any)[i].(map[string]any)["outcome"]; fo != ho {
						t.Errorf("%v P%d: outcome %v header-only, %v checked", h["path"], i+1, ho, fo)
					}
				}
				delete(pm, "outcome")
			}
		}
		if !reflect.DeepEqual(h, f) {
			t.Errorf("header-only\n%v\nchecked\n%v", h, f)
		}
	}
}

// TestInfoRemembersCheck: a check's result goes into the index, and a
// later header-only info shows it; a changed file is read again.
func TestInfoRemembersCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "corrupt.slp")
	data, err := os.ReadFile(corrupt)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, data, 0o644)
	o := runOpts{env: []string{"REWIND_CACHE=" + filepath.Join(dir, "cache")}}
	problems := func(args ...string) string {
		t.Helper()
		r := rewindWith(t, o, append([]string{"info"}, args...)...)
		r.want(t, "info", 0, "")
		for _, line := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(line, "  problems") {
				return strings.TrimSpace(strings.TrimPrefix(line, "  problems"))
			}
		}
		t.Fatalf("no problems line: %q", r.stdout)
		return ""
	}
	if got := problems(file); got != "1 in the header; the rest not checked (--check decodes it all)" {
		t.Errorf("before a check: %q", got)
	}
	checked := problems("--check", file)
	if checked != "2 (+1 notes), partial" {
		t.Errorf("--check: %q", checked)
	}
	if got := problems(file); got != checked {
		t.Errorf("after a check the index says %q, want %q", got, checked)
	}
	if got := problems("--no-cache", file); got == checked {
		t.Errorf("--no-cache used the index: %q", got)
	}
	// a file that changes is read again: its check is gone
	os.WriteFile(file, append(data, 0), 0o644)
	os.Chtimes(file, time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	if got := problems(file); got == checked {
		t.Errorf("a changed file kept its old check: %q", got)
	}
}

func TestNoTerminalPrintsInfo(t *testing.T) {
	// with stdout a pipe, plain rewind prints info instead of the TUI
	r := rewind(t)
	r.want(t, "rewind", 0, "")
	if info := rewind(t, "info"); r.stdout != info.stdout {
		t.Errorf("rewind | cat differs from rewind info")
	}
	r = rewind(t, netplay)
	r.want(t, "rewind FILE", 0, "")
	if !strings.HasPrefix(r.stdout, netplay+"\n  format      Slippi 3.7.0\n") {
		t.Errorf("rewind FILE | cat: %q", r.stdout)
	}
}

func TestInfoJSON(t *testing.T) {
	r := rewind(t, "info", "--json")
	r.want(t, "info --json", 0, "")
	objs := ndjson(t, r.stdout)
	files := sampleFiles(t)
	if len(objs) != len(files) {
		t.Fatalf("%d objects for %d samples", len(objs), len(files))
	}
	for i, o := range objs {
		checkKeys(t, "info --json", o, nil)
		st, err := os.Stat(files[i])
		if err != nil {
			t.Fatal(err)
		}
		if o["size"] != float64(st.Size()) {
			t.Errorf("%s: size %v, the file has %d bytes", files[i], o["size"], st.Size())
		}
		if o["error"] != nil {
			t.Errorf("%s: %v", files[i], o["error"])
		}
	}
}

// TestInfoExitStatus: info reports problems without failing; a path it
// cannot read, a file that is no replay, or finding nothing exits 2.
func TestInfoExitStatus(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("hello world\n"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	os.WriteFile(filepath.Join(empty, "README.md"), []byte("# no replays here\n"), 0o644)

	r := rewind(t, "info", corrupt)
	r.want(t, "info corrupt.slp", 0, "")

	r = rewind(t, "info", netplay, filepath.Join(dir, "missing.slp"))
	r.want(t, "info good missing", 2, "")
	if !strings.HasSuffix(r.stdout, "\n\n"+filepath.Join(dir, "missing.slp")+"\n  unreadable  no such file or folder\n") {
		t.Errorf("info good missing: %q", r.stdout)
	}

	r = rewind(t, "info", "--json", text)
	r.want(t, "info --json notes.txt", 2, "")
	objs := ndjson(t, r.stdout)
	if len(objs) != 1 || objs[0]["size"] != 12.0 || objs[0]["reason"] != "notReplay" ||
		objs[0]["error"] != `not a replay: a text file beginning "hello world"` {
		t.Errorf("info --json on a 12-byte text file: %v", objs)
	}

	r = rewind(t, "info", empty)
	r.want(t, "info on a folder without replays", 2, "rewind info: no replay found in "+empty+"\n")
}

// ---- dump -------------------------------------------------------------------

func TestDumpGolden(t *testing.T) {
	// two frames of a small online game: the replay object (header,
	// players), every field of pre and post frames, events with offsets
	r := rewind(t, "dump", "--frames", "-122..-121", netplay)
	r.want(t, "dump", 0, "")
	golden(t, "dump-netplay-two-frames.ndjson", r.stdout)
}

// TestDumpNDJSON dumps every sample whole (180 MB of NDJSON in all): every
// line is valid JSON, the replay object first, then moments, frames and
// diagnostics, as many frames and diagnostics as the summary says, and the
// keys dump itself writes are lowerCamelCase.
func TestDumpNDJSON(t *testing.T) {
	typeOf := regexp.MustCompile(`^\{"type":"([a-z]+)"`)
	for _, f := range sampleFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := rewind(t, "dump", f)
			types := map[string]int{}
			order := ""
			var sum map[string]any
			for i, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
				m := typeOf.FindStringSubmatch(line)
				if m == nil || !json.Valid([]byte(line)) {
					t.Fatalf("line %d is not a JSON object with a type: %.200s", i+1, line)
				}
				typ := m[1]
				if !strings.HasSuffix(order, typ) {
					order += " " + typ
				}
				types[typ]++
				if types[typ] > 20 {
					continue // the keys of the first ones stand for the rest
				}
				var o map[string]any
				json.Unmarshal([]byte(line), &o)
				if i == 0 {
					sum, _ = o["summary"].(map[string]any)
				}
				// inside header, state and fields the keys are the decoders'
				checkKeys(t, typ, o, map[string]bool{"header": true, "state": true, "fields": true})
			}
			if !regexp.MustCompile(`^ replay( moment)?( frame)?( region)?( diagnostic)?$`).MatchString(order) || sum == nil {
				t.Fatalf("objects in the order%s", order)
			}
			code := 0
			if sum["problems"].(float64) > 0 {
				code = 1
			}
			r.want(t, "dump", code, "")
			if types["frame"] != int(sum["frames"].(float64)) || types["diagnostic"] != int(sum["diagnostics"].(float64)) {
				t.Errorf("%v for a summary of %v frames and %v diagnostics", types, sum["frames"], sum["diagnostics"])
			}
			// an SC2 archive lists its structure: header, tables, sectors
			// (a format without a container may list some too)
			if sum["format"] == "sc2" && types["region"] == 0 {
				t.Errorf("%v regions for format %v", types["region"], sum["format"])
			}
		})
	}
}

func TestDumpFrames(t *testing.T) {
	// netplay.slp: frames -123 to 4, 60 per second, frame 0 at 0:00
	for _, tt := range []struct {
		spec string
		want string // frame numbers
	}{
		{"..", "-123 -122 … 3 4"},
		{"-123..-121", "-123 -122 -121"},
		{"2..", "2 3 4"},
		{"..-122", "-123 -122"},
		{"0", "0"},
		{"0:00", "0"},
		{"0:00.05", "3"},                    // 3/60 s
		{"0:00.04", "2"},                    // frame 2 (0.0333 s) is on screen at 0.04 s
		{"-0:02.05..-0:02.03", "-123 -122"}, // -123/60 = -2.05 s
		{"0:00.05..4", "3 4"},
		{"0:00.08", "4"}, // the last frame is on screen until 5/60 s
	} {
		r := rewind(t, "dump", "--frames", tt.spec, netplay)
		r.want(t, "--frames "+tt.spec, 0, "")
		var got []string
		for _, o := range ndjson(t, r.stdout) {
			if o["type"] == "frame" {
				got = append(got, fmt.Sprint(o["frame"]))
			}
		}
		s := strings.Join(got, " ")
		if len(got) > 5 {
			s = strings.Join(got[:2], " ") + " … " + strings.Join(got[len(got)-2:], " ")
			if len(got) != 128 {
				s += fmt.Sprintf(" (%d)", len(got))
			}
		}
		if s != tt.want {
			t.Errorf("--frames %s: frames %s, want %s", tt.spec, s, tt.want)
		}
	}
}

// ---- ground truth for the values the goldens hold ---------------------------

// TestInfoAgainstGroundTruth checks the values info prints for the samples
// against what other projects' tests assert (../shared/corpus/*/EXPECTED.md,
// quoted here with the test they come from, so this runs without ../shared)
// and the samples' own MANIFEST.tsv and README.md.
func TestInfoAgainstGroundTruth(t *testing.T) {
	r := rewind(t, "info", "--json", "--check", "testdata/samples")
	r.want(t, "info --json --check", 0, "")
	got := map[string]infoJSON{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var j infoJSON
		if err := json.Unmarshal([]byte(line), &j); err != nil {
			t.Fatal(err)
		}
		got[strings.TrimPrefix(j.Path, "testdata/samples/")] = j
	}
	type player struct{ character, name, code, result string }
	for _, tt := range []struct {
		file    string
		source  string
		start   string // RFC 3339, as the file records it
		title   string
		frames  int
		players []player
		check   func(j infoJSON) string
	}{
		{file: "slippi/tests__data__v3.12.slp", source: "peppi tests/json.rs:8-37, peppi.rs:531-643, arrow.rs:12-60",
			start: "2022-06-04T21:58:00Z", title: "Pokémon Stadium", frames: 124,
			// Game Start's names (10 y), metadata's codes with an ASCII #
			players: []player{{"Marth", "xxxxxx", "XX#111", ""}, {"Marth", "yyyyyyyyyy", "YYYY#222", "LRAS"}},
			check: func(j infoJSON) string {
				if !strings.Contains(j.Result, "No Contest") || !strings.Contains(j.Result, "LRAS by P2") {
					return "game end: method NoContest (7), LRAS initiator P2; got " + j.Result
				}
				return ""
			}},
		{file: "slippi/tests__data__netplay.slp", source: "peppi tests/peppi.rs:488-514 (characters 13 and 18 for 128 frames)",
			frames: 128, players: []player{{"Samus", "abcdefghijk", "ABCD#123", ""}, {"Marth", "nobody", "XX#000", ""}}},
		{file: "slippi/tests__data__ics.slp", source: "peppi tests/peppi.rs:300-318 (characters {10,11}:344 and {15}:344)",
			frames: 344, players: []player{{"Ice Climbers", "", "", ""}, {"Jigglypuff", "", "", ""}}},
		{file: "slippi/slp__nametags.slp", source: "slippi-js test/game.spec.ts:71-76 (nametag P1 \"AMNイ\", P2 \"\")",
			players: []player{{"", "AMNイ", "", ""}, {"", "", "", ""}}},
		{file: "slippi/slp__unranked_game1.slp", source: "slippi-js test/placings.spec.ts:18-27 (one winner, playerIndex 1, not the LRAS initiator)",
			players: []player{{"", "", "", "LRAS"}, {"", "", "", "1st"}}},
		{file: "slippi/tests__data__v3.16.slp", source: "peppi tests/peppi.rs:668-679 (match mode.unranked-2024-02-15..., game 1)",
			check: func(j infoJSON) string {
				if j.Mode != "online unranked g1" {
					return "mode " + j.Mode
				}
				return ""
			}},
		{file: "slippi/tests__data__corrupt.slp", source: "peppi tests/peppi.rs:767-770 (reading must fail: cut inside a Message Splitter)",
			check: func(j infoJSON) string {
				if j.Partial == nil || !*j.Partial || j.Problems == 0 {
					return "not reported partial with problems"
				}
				return ""
			}},
		{file: "sc2/wol-1.1.3-kr-encrypted-listfile.SC2Replay", source: "sc2reader test_replays.py:165-177 (profiles 3/1/258945 and 3/1/102472)",
			players: []player{{"", "명지대학교", "3-S2-1-258945", ""}, {"", "티에스엘사기수", "3-S2-1-102472", ""}}},
		{file: "sc2/broken-5.0.10-truncated.SC2Replay", source: "s2protocol.NET CurruptedErrorTests.cs:46-76 (file truncated to 1232 bytes)",
			check: func(j infoJSON) string {
				if j.Size == nil || *j.Size != 1232 || j.Partial == nil || !*j.Partial || j.Problems == 0 {
					return "want 1232 bytes, partial, with problems"
				}
				return ""
			}},
		{file: "bsor/easy-full-play.bsor", source: "samples MANIFEST.tsv (2682 frames, mod 0.7.1)", frames: 2682,
			check: func(j infoJSON) string {
				if j.Version != "0.7.1" {
					return "version " + j.Version
				}
				return ""
			}},
		{file: "bsor/oldest-0.1.0-clip.bsor", source: "corpus bsor EXPECTED.md scan table (900 frames, failTime 30)", frames: 900,
			check: func(j infoJSON) string {
				if j.Result != "failed at 0:30" {
					return "result " + j.Result
				}
				return ""
			}},
		{file: "fzgx/time-attack.gci", source: "samples MANIFEST.tsv (eigenform/fgx-re test_00.bin: Mute City: Sonic Oval, Blue Falcon, 3314 frames)",
			title: "Mute City: Sonic Oval", frames: 3314, players: []player{{"Blue Falcon", "", "", ""}}},
		{file: "teehistorian/idle_clean_shutdown.teehistorian", source: "samples teehistorian/README.md (start_time 2026-11-22T02:05:32+0000; TICK_SKIP dt=549 -> tick 550, then FINISH)",
			start: "2026-11-22T02:05:32Z", title: "Tutorial", frames: 551},
	} {
		j, ok := got[tt.file]
		if !ok {
			t.Errorf("%s: not in info's output", tt.file)
			continue
		}
		fail := func(format string, args ...any) {
			t.Errorf("%s: %s (ground truth: %s)", tt.file, fmt.Sprintf(format, args...), tt.source)
		}
		if tt.start != "" && (j.Start == nil || j.Start.Format(time.RFC3339) != tt.start) {
			fail("start %v, want %s", j.Start, tt.start)
		}
		if tt.title != "" && j.Title != tt.title {
			fail("title %q, want %q", j.Title, tt.title)
		}
		if tt.frames != 0 && j.Frames != tt.frames {
			fail("%d frames, want %d", j.Frames, tt.frames)
		}
		if tt.players != nil && len(j.Players) != len(tt.players) {
			fail("%d players, want %d", len(j.Players), len(tt.players))
		}
		for i, p := range tt.players {
			if i >= len(j.Players) {
				break
			}
			g := j.Players[i]
			for _, f := range [][3]string{{"character", p.character, g.Character}, {"name", p.name, g.Name}, {"code", p.code, g.Code}, {"result", p.result, g.Result}} {
				if f[1] != "" && f[1] != f[2] {
					fail("player %d %s %q, want %q", i+1, f[0], f[2], f[1])
				}
			}
		}
		if tt.check != nil {
			if msg := tt.check(j); msg != "" {
				fail("%s", msg)
			}
		}
	}
}

// TestDumpAgainstGroundTruth checks per-frame values dump writes against
// the values peppi's tests assert (EXPECTED.md, Frames / events and
// Metadata).
func TestDumpAgainstGroundTruth(t *testing.T) {
	frame := func(file, spec string) map[string]any {
		r := rewind(t, "dump", "--frames", spec, file)
		r.want(t, "dump "+file, 0, "")
		for _, o := range ndjson(t, r.stdout) {
			if o["type"] == "frame" {
				return o
			}
		}
		t.Fatalf("dump --frames %s %s: no frame", spec, file)
		return nil
	}
	state := func(f map[string]any, player int, part string) map[string]any {
		return f["players"].([]any)[player].(map[string]any)["state"].(map[string]any)[part].(map[string]any)
	}
	// peppi tests/arrow.rs:12-60: v3.12, first frame id -123, P1 pre random
	// seed 39656, state 322, position (-40, 32)
	f := frame(v312, "-123")
	pre := state(f, 0, "pre")
	if f["frame"] != -123.0 || pre["randomSeed"] != 39656.0 || pre["actionStateId"] != 322.0 || pre["xPosition"] != -40.0 || pre["yPosition"] != 32.0 {
		t.Errorf("v3.12 frame -123 P1 pre: frame %v seed %v state %v position (%v, %v); want -123, 39656, 322, (-40, 32)",
			f["frame"], pre["randomSeed"], pre["actionStateId"], pre["xPosition"], pre["yPosition"])
	}
	// peppi tests/peppi.rs:488-514: netplay, internal characters 13 (P1) and
	// 18 (P2) on every frame; the golden's frames are two of them
	for _, spec := range []string{"-122", "-121", "4"} {
		f := frame(netplay, spec)
		if a, b := state(f, 0, "post")["internalCharacterId"], state(f, 1, "post")["internalCharacterId"]; a != 13.0 || b != 18.0 {
			t.Errorf("netplay frame %s: internal characters %v and %v, want 13 and 18", spec, a, b)
		}
	}
}

// ---- dates ----------------------------------------------------------------

// TestInfoUnderTimezones runs info under zones far apart: a person sees the
// date as the file records it (UTC for Slippi, BSOR and SC2, the recorded
// offset for teehistorian), the same on every machine.
func TestInfoUnderTimezones(t *testing.T) {
	// a teehistorian whose server ran at +05:30: the sample with its
	// start_time offset changed (same length, so the header stays valid)
	dir := t.TempDir()
	src := "testdata/samples/teehistorian/idle_clean_shutdown.teehistorian"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	old := []byte(`"start_time":"2026-11-22T02:05:32+0000"`)
	if bytes.Count(data, old) != 1 {
		t.Fatalf("%s: start_time not found as the README says", src)
	}
	india := filepath.Join(dir, "india.teehistorian")
	os.WriteFile(india, bytes.Replace(data, old, []byte(`"start_time":"2026-11-22T02:05:32+0530"`), 1), 0o644)

	var env []string
	if _, err := time.LoadLocation("Pacific/Kiritimati"); err != nil {
		// no zoneinfo on this machine: use the copy that comes with Go
		env = append(env, "ZONEINFO="+filepath.Join(runtime.GOROOT(), "lib", "time", "zoneinfo.zip"))
	}
	var first result
	for i, tz := range []string{"UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kolkata"} {
		r := rewindWith(t, runOpts{env: append(env, "TZ="+tz)}, "info", v312, src, india)
		r.want(t, "info under TZ="+tz, 0, "")
		for _, want := range []string{
			"  date        2022-06-04 21:58:00 UTC\n",    // startAt "2022-06-04T21:58:00Z" (EXPECTED.md)
			"  date        2026-11-22 02:05:32 UTC\n",    // start_time "2026-11-22T02:05:32+0000"
			"  date        2026-11-22 02:05:32 +05:30\n", // start_time "2026-11-22T02:05:32+0530"
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("TZ=%s: no %q in\n%s", tz, want, r.stdout)
			}
		}
		j := rewindWith(t, runOpts{env: append(env, "TZ="+tz)}, "info", "--json", india)
		if !strings.Contains(j.stdout, `"start":"2026-11-22T02:05:32+05:30"`) {
			t.Errorf("TZ=%s: info --json: %s", tz, j.stdout)
		}
		if i == 0 {
			first = r
		} else if r.stdout != first.stdout {
			t.Errorf("TZ=%s prints differently from TZ=UTC:\n%s", tz, lineDiff(first.stdout, r.stdout))
		}
	}
}

// TestFormatDate is the rule itself.
func TestFormatDate(t *testing.T) {
	for _, tt := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2020, 8, 16, 7, 2, 53, 0, time.UTC), "2020-08-16 07:02:53 UTC"},
		{time.Date(2020, 8, 16, 7, 2, 53, 0, time.FixedZone("", 0)), "2020-08-16 07:02:53 UTC"},
		{time.Date(2020, 8, 16, 7, 2, 53, 0, time.FixedZone("PDT", -7*3600)), "2020-08-16 07:02:53 -07:00"},
		{time.Date(2020, 8, 16, 7, 2, 53, 0, time.FixedZone("", 14*3600)), "2020-08-16 07:02:53 +14:00"},
	} {
		if got := formatDate(tt.t); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.t, got, tt.want)
		}
	}
}

// ---- frames -----------------------------------------------------------------

func TestParseFramesSpec(t *testing.T) {
	for _, tt := range []struct {
		in  string
		err bool
	}{
		{"", false}, {"..", false}, {"5", false}, {"-5..5", false}, {"1:05.5", false},
		{"0:05..1:05.5", false}, {"..0:30", false}, {"12.5s..", false},
		{"x", true}, {"1..2..3", true}, {"1:", true}, {"5...", true}, {"--5", true},
	} {
		_, err := parseFrames(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v, want error %v", tt.in, err, tt.err)
		}
	}
}

// ---- moments ----------------------------------------------------------------

// TestDumpMoments writes the moments of a replay built here (no format
// fills them yet): one object per moment that touches the frames dumped,
// after the replay object, keyed like events.
func TestDumpMoments(t *testing.T) {
	r := &model.Replay{
		Format: model.Format("slippi"), FormatName: "Slippi",
		Players:  []model.Player{{Slot: "P1"}, {Slot: "P2"}},
		Timeline: model.Timeline{Count: 10, First: -2, Rate: 10, Unit: "frame"},
	}
	r.Analyze = func() *model.Analysis {
		return &model.Analysis{Moments: []model.Moment{
			{Kind: model.MomentStock, Frame: 3, End: 3, By: 0, On: 1,
				Summary: "lost a stock to P1's forward smash (3 left)", Span: model.Span{Off: 0x1a2c, Len: 52},
				Fields: []model.Field{{Key: "stocksRemaining", Value: int64(3)}, {Key: "moveId", Value: int64(14), Name: "forward smash"}}},
			{Kind: model.MomentCombo, Frame: 5, End: 8, By: 0, On: 1, Summary: "combo: 4 hits, 38%"},
			{Kind: model.MomentChat, Frame: 9, End: 9, By: -1, On: -1, Summary: "gg", Span: model.Span{Stream: "replay.message.events", Off: 7, Len: 5}},
		}}
	}
	r.Finish()
	dump := func(lo, hi int) []string {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		writeDump(w, input{Name: "built.slp", Size: 100}, r, lo, hi)
		w.Flush()
		var moments []string
		for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			if strings.HasPrefix(line, `{"type":"moment"`) {
				moments = append(moments, line)
			}
		}
		return moments
	}
	stock := `{"type":"moment","kind":"stock","index":3,"frame":1,"time":0.1,"by":"P1","on":"P2","summary":"lost a stock to P1's forward smash (3 left)","offset":6700,"length":52,"fields":{"stocksRemaining":3,"moveId":14,"moveIdName":"forward smash"}}`
	combo := `{"type":"moment","kind":"combo","index":5,"frame":3,"time":0.3,"endIndex":8,"endFrame":6,"endTime":0.6,"by":"P1","on":"P2","summary":"combo: 4 hits, 38%"}`
	chat := `{"type":"moment","kind":"chat","index":9,"frame":7,"time":0.7,"summary":"gg","stream":"replay.message.events","offset":7,"length":5}`
	for _, tt := range []struct {
		lo, hi int
		want   []string
	}{
		{0, 9, []string{stock, combo, chat}},
		{6, 7, []string{combo}}, // inside the combo's range
		{0, 2, nil},
		{8, 9, []string{combo, chat}},
	} {
		got := dump(tt.lo, tt.hi)
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("frames %d..%d:\n%s\nwant\n%s", tt.lo, tt.hi, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
		for _, m := range got {
			var o map[string]any
			if err := json.Unmarshal([]byte(m), &o); err != nil {
				t.Fatal(err)
			}
			checkKeys(t, "moment", o, map[string]bool{"fields": true})
		}
	}
}

// ---- what a new user tripped on ------------------------------------------------

// TestStrayFilesInFolders: a folder's files that are no replay (a text
// file with a replay's name, an F-Zero GX emblem save) are named on stderr
// and fail nothing in info, stats and export; named on the command line
// they stay errors. check reports them: finding such files is its job.
func TestStrayFilesInFolders(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "games")
	os.Mkdir(folder, 0o755)
	copyFile := func(src, dst string) {
		t.Helper()
		if err := os.WriteFile(dst, mustRead(t, src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(netplay, filepath.Join(folder, "game.slp"))
	copyFile("decoders/fzgx/testdata/emblem-falcon.gci", filepath.Join(folder, "emblem.gci"))
	os.WriteFile(filepath.Join(folder, "notes.slp"), []byte("my notes\n"), 0o644)
	// the reason is the file's, as info and stats word it
	emblem := "rewind %s: skipped " + filepath.Join(folder, "emblem.gci") + ": fzgx: at 0x42: this is an F-Zero GX emblem save (file type 04 01), not a replay (05 04)\n"
	notes := "rewind %s: skipped " + filepath.Join(folder, "notes.slp") + ": not a replay%s: a text file beginning \"my notes\"\n"
	r := rewind(t, "info", "--no-cache", folder)
	r.want(t, "info DIR", 0, fmt.Sprintf(emblem, "info")+fmt.Sprintf(notes, "info", ""))
	if !strings.HasPrefix(r.stdout, filepath.Join(folder, "game.slp")+"\n") || strings.Count(r.stdout, "\n  format ") != 1 {
		t.Errorf("info DIR lists more than the replay:\n%s", r.stdout)
	}
	j := rewind(t, "info", "--json", "--no-cache", folder)
	j.want(t, "info --json DIR", 0, "*")
	if n := len(ndjson(t, j.stdout)); n != 1 {
		t.Errorf("info --json DIR: %d objects, want the replay's alone", n)
	}
	rewind(t, "info", "--no-cache", filepath.Join(folder, "notes.slp")).want(t, "info on a named non-replay", 2, "")

	s := rewind(t, "stats", folder)
	s.want(t, "stats DIR", 0, fmt.Sprintf(emblem, "stats")+fmt.Sprintf(notes, "stats", " although its name ends in .slp"))
	rewind(t, "stats", filepath.Join(folder, "emblem.gci")).want(t, "stats on a named non-replay", 2, "")

	e := rewind(t, "export", "--quiet", "--out", filepath.Join(dir, "ds"), folder)
	e.want(t, "export DIR", 0, "*")
	for _, name := range []string{"emblem.gci", "notes.slp"} {
		if !strings.Contains(e.stderr, filepath.Join(folder, name)+": ") {
			t.Errorf("export does not name %s: %q", name, e.stderr)
		}
	}
	e = rewind(t, "export", "--quiet", "--out", filepath.Join(dir, "ds2"), filepath.Join(folder, "notes.slp"))
	e.want(t, "export on a named non-replay", 1, "*")

	c := rewind(t, "check", folder)
	c.want(t, "check DIR", 2, "")
	if !strings.Contains(c.stdout, "not a replay") {
		t.Errorf("check does not report the stray files:\n%s", c.stdout)
	}
}

// TestFindJSONPartial: find --json says partial only once a check has run,
// and then what the check says (corrupt.slp is cut inside the gecko list,
// peppi tests/peppi.rs:767-770; netplay.slp is whole).
func TestFindJSONPartial(t *testing.T) {
	r := rewind(t, "find", "--json", "--no-cache", "testdata/samples/slippi", "format:slippi")
	r.want(t, "find --json", 0, "")
	for _, o := range ndjson(t, r.stdout) {
		if _, ok := o["partial"]; ok || o["checked"] != false {
			t.Errorf("%v: partial %v before a check", o["path"], o["partial"])
		}
	}
	r = rewind(t, "find", "--json", "--no-cache", "testdata/samples/slippi", "problems:>=0")
	r.want(t, "find --json problems:>=0", 0, "")
	for _, o := range ndjson(t, r.stdout) {
		check, _ := o["check"].(map[string]any)
		if check == nil || o["partial"] != check["partial"] {
			t.Errorf("%v: partial %v, check %v", o["path"], o["partial"], check)
		}
		switch o["path"] {
		case corrupt:
			if o["partial"] != true {
				t.Errorf("corrupt.slp: partial %v", o["partial"])
			}
		case netplay:
			if o["partial"] != false {
				t.Errorf("netplay.slp: partial %v", o["partial"])
			}
		}
	}
}

// TestHeaderProblemsAreProblems: what a header read counts as problems is
// never more than the full check finds (a note is no problem, and a header
// read that walked the events once more counted Game Start and Game End
// twice: "a second Game Start", "2 Game End events"), on the samples and
// the corpus's Slippi files.
func TestHeaderProblemsAreProblems(t *testing.T) {
	paths := []string{"testdata/samples"}
	if _, err := os.Stat("../shared/corpus/slp"); err == nil {
		paths = append(paths, "../shared/corpus/slp")
	} else {
		t.Log("../shared is absent: the samples alone")
	}
	head := ndjson(t, rewind(t, append([]string{"info", "--json", "--no-cache"}, paths...)...).stdout)
	full := ndjson(t, rewind(t, append([]string{"info", "--json", "--no-cache", "--check"}, paths...)...).stdout)
	if len(head) != len(full) || len(head) < 20 {
		t.Fatalf("%d header reads, %d checks", len(head), len(full))
	}
	for i := range head {
		if h, f := head[i]["problems"].(float64), full[i]["problems"].(float64); h > f {
			t.Errorf("%v: %v problems in the header, %v in the whole file", head[i]["path"], h, f)
		}
	}
}

// TestFollowWaitsForTheFile: dump --follow (and rewind --follow piped) on
// a path a recorder has not created yet waits for it, saying so, and gives
// up after --idle naming the path.
func TestFollowWaitsForTheFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "never.slp")
	for _, args := range [][]string{{"dump", "--follow", "--idle", "300ms", missing}, {"--follow", "--idle", "300ms", missing}} {
		r := rewind(t, args...)
		r.want(t, strings.Join(args, " "), 2, "rewind dump: "+missing+" does not exist yet; waiting for up to 300ms (--idle)\n"+
			"rewind dump: "+missing+": no such file or folder: nothing created it within 300ms (--idle)\n")
	}
	// the file comes once rewind said it waits for it
	later := filepath.Join(dir, "later.slp")
	cmd := exec.Command(bin, "dump", "--follow", "--idle", "20s", later)
	cmd.Env = sandboxEnv("", "TZ=UTC")
	stderr, _ := cmd.StderrPipe()
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	said, _ := bufio.NewReader(stderr).ReadString('\n')
	if said != "rewind dump: "+later+" does not exist yet; waiting for up to 20s (--idle)\n" {
		t.Errorf("before the file: %q", said)
	}
	os.WriteFile(later, mustRead(t, netplay), 0o644)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("dump --follow on a file created later: %v", err)
	}
	r := result{stdout: out.String()}
	objs := ndjson(t, r.stdout)
	if last := objs[len(objs)-1]; last["type"] != "end" || last["frames"] != 128.0 { // netplay.slp: 128 frames (EXPECTED.md)
		t.Errorf("end line %v", last)
	}
}
