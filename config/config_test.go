package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// sandbox points the config at a fresh folder and home of the test's own,
// never the user's.
func sandbox(t *testing.T) (home, cfg string) {
	t.Helper()
	home = t.TempDir()
	cfg = filepath.Join(home, "config")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("AppData", filepath.Join(home, "AppData", "Roaming"))
	t.Setenv(Env, "")
	return home, cfg
}

// uncommented is Example with every setting's comment sign taken off: what
// a person who wants them all writes.
func uncommented() string {
	return regexp.MustCompile(`(?m)^# ([a-z]+ = |\[)`).ReplaceAllString(Example, "$1")
}

func TestExampleReads(t *testing.T) {
	home, _ := sandbox(t)
	c := Parse("config.toml", []byte(Example))
	if len(c.Problems) != 0 || c.Library != nil || c.Me != nil || c.Actions != nil {
		t.Fatalf("the example as written sets nothing and is clean; got %+v", c)
	}
	text := uncommented()
	actionLine := strings.Count(text[:strings.Index(text, "[[action]]")], "\n") + 1
	c = Parse("config.toml", []byte(text))
	if len(c.Problems) != 0 {
		t.Fatalf("the example uncommented: problems %v", c.Problems)
	}
	want := Config{
		File:    "config.toml",
		Library: []string{filepath.Join(home, "Slippi"), filepath.Join(home, "Documents/StarCraft II/Accounts")},
		Me:      []string{"ABCD#123", "1-S2-1-2358439"},
		Slippi: Slippi{
			Dolphin: filepath.Join(home, ".config/Slippi Launcher/playback/Slippi_Playback-x86_64.AppImage"),
			ISO:     filepath.Join(home, "Games/Melee.iso"),
		},
		Osu: Osu{Command: []string{"osu!", "{path}"}},
		Actions: []Action{{Name: "clip", Key: "C", Formats: []string{"slippi"},
			Command: []string{"obs-cli", "recording", "start", "--name", "{player}-{frame}"}, Line: actionLine}},
	}
	c.lines = nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("the example uncommented reads\n%+v\nwant\n%+v", c, want)
	}
}

// TestProblems: every mistake is one sentence with the file, the line and
// the key, and what else the file says still counts.
func TestProblems(t *testing.T) {
	sandbox(t)
	tests := []struct {
		name, text string
		want       []string // Problem.Error() of each
		me         []string // what still counts
	}{
		{"syntax error", "me = [\"A#1\"]\nlibrary = [\"~/x\"\n",
			[]string{`config.toml:2: not TOML: array is incomplete`}, nil},
		{"unknown key", "me = \"A#1\"\nlibary = [\"~/Slippi\"]\n",
			[]string{"config.toml:2: libary: unknown key; the keys are library, me, [slippi], [osu] and [[action]]"}, []string{"A#1"}},
		{"unknown key in a table", "me = [\"A#1\"]\n[slippi]\ndolphin = \"/d\"\nisopath = \"/iso\"\n",
			[]string{"config.toml:4: slippi.isopath: unknown key; [slippi] has dolphin, iso"}, []string{"A#1"}},
		{"wrong kind", "me = 123\n",
			[]string{"config.toml:1: me: is a number; want a list of identities (connect codes, toon handles, ids or names)"}, nil},
		{"wrong item", "me = [\"A#1\", 7]\n",
			[]string{"config.toml:1: me: item 2 is a number; want a list of identities (connect codes, toon handles, ids or names), each in quotes"}, []string{"A#1"}},
		{"action without a command", "me=['A#1']\n\n[[action]]\nname = \"x\"\n",
			[]string{"config.toml:3: action[1]: has no command"}, []string{"A#1"}},
		{"action with an open quote", "[[action]]\nname = \"x\"\ncommand = \"echo 'hi\"\n",
			[]string{"config.toml:3: action[1].command: a ' at column 6 is not closed"}, nil},
		{"two actions of one name", "[[action]]\nname = \"x\"\ncommand = \"a\"\n[[action]]\nname = \"X\"\ncommand = \"b\"\n",
			[]string{"config.toml:5: action[2].name: X is the name of an action above; the first one counts"}, nil},
		{"a key that is not one", "[[action]]\nname = \"x\"\nkey = \"abc\"\ncommand = \"a\"\n",
			[]string{`config.toml:3: action[1].key: "abc" is not one key; want a letter, or a name such as ctrl+k or f5`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Parse("config.toml", []byte(tt.text))
			var got []string
			for _, p := range c.Problems {
				got = append(got, p.Error())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("problems %q, want %q", got, tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) || strings.Contains(got[i], "\n") {
					t.Errorf("problem %q, want one line starting %q", got[i], tt.want[i])
				}
			}
			if !reflect.DeepEqual(c.Me, tt.me) {
				t.Errorf("me %q, want %q", c.Me, tt.me)
			}
		})
	}
}

// TestLoad reads the file in the config directory of each operating
// system's layout, and leaves out library folders that do not exist.
func TestLoad(t *testing.T) {
	home, cfg := sandbox(t)
	if c := Load(); c.Exists || len(c.Problems) != 0 || c.File == "" {
		t.Fatalf("no file: %+v", c)
	}
	dir := filepath.Dir(mustPath(t))
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd":
		if want := filepath.Join(cfg, "rewind"); dir != want {
			t.Errorf("config folder %s, want %s ($XDG_CONFIG_HOME/rewind)", dir, want)
		}
	case "darwin":
		if want := filepath.Join(home, "Library", "Application Support", "rewind"); dir != want {
			t.Errorf("config folder %s, want %s", dir, want)
		}
	case "windows":
		if want := filepath.Join(home, "AppData", "Roaming", "rewind"); dir != want {
			t.Errorf("config folder %s, want %s", dir, want)
		}
	}
	os.MkdirAll(filepath.Join(home, "Slippi"), 0o755)
	os.MkdirAll(dir, 0o755)
	os.WriteFile(mustPath(t), []byte("# mine\nlibrary = [\"~/Slippi\", \"~/Gone\"]\nme = \"A#1\"\n"), 0o644)
	c := Load()
	if !c.Exists || !reflect.DeepEqual(c.Library, []string{filepath.Join(home, "Slippi")}) || !reflect.DeepEqual(c.Me, []string{"A#1"}) {
		t.Errorf("loaded %+v", c)
	}
	if len(c.Problems) != 1 || c.Problems[0].Error() != mustPath(t)+":2: library[2]: "+filepath.Join(home, "Gone")+" does not exist; rewind opens the other folders" {
		t.Errorf("problems %v", c.Problems)
	}
	// a folder that is missing is told in the file's order with the rest
	os.WriteFile(mustPath(t), []byte("me = \"A#1\"\ncolour = 1\nlibrary = [\"~/Gone\"]\nsize = 2\n"), 0o644)
	var lines []string
	for _, p := range Load().Problems {
		lines = append(lines, strconv.Itoa(p.Line)+" "+p.Key)
	}
	if want := []string{"2 colour", "3 library[1]", "4 size"}; !reflect.DeepEqual(lines, want) {
		t.Errorf("problems at %q, want %q", lines, want)
	}
	t.Setenv(Env, filepath.Join(home, "elsewhere.toml"))
	if c := Load(); c.File != filepath.Join(home, "elsewhere.toml") || c.Exists {
		t.Errorf("$%s: %+v", Env, c)
	}
}

// TestInit writes the example once and never over a file.
func TestInit(t *testing.T) {
	sandbox(t)
	path, err := Init()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != Example {
		t.Fatalf("init wrote %q", b)
	}
	os.WriteFile(path, []byte("me = \"mine\"\n"), 0o644)
	if _, err := Init(); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("a second init: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "me = \"mine\"\n" {
		t.Errorf("a second init changed the file: %q", b)
	}
}

func mustPath(t *testing.T) string {
	p, err := Path()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  bool
	}{
		{"a b  c", []string{"a", "b", "c"}, false},
		{`obs "scene one" 'it''s'`, []string{"obs", "scene one", "its"}, false},
		{`say "a \"quoted\" word"`, []string{"say", `a "quoted" word`}, false},
		{`C:\Games\osu!\osu!.exe {path}`, []string{`C:\Games\osu!\osu!.exe`, "{path}"}, false},
		{`a\ b`, []string{"a b"}, false},
		{`echo $(rm -rf ~); ls | x`, []string{"echo", "$(rm", "-rf", "~);", "ls", "|", "x"}, false},
		{`""`, []string{""}, false},
		{"", nil, false},
		{`"open`, nil, true},
	}
	for _, tt := range tests {
		got, err := SplitWords(tt.in)
		if (err != nil) != tt.err || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}
