package cli

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompleteHidden asks cobra's hidden __complete command what a shell
// would get: command names, flags, flag values and replay paths.
func TestCompleteHidden(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string // completions, in order
		not  []string // never offered
	}{
		{[]string{"__complete", "st"}, []string{"stats"}, nil},
		{[]string{"__complete", "he"}, []string{"help"}, nil},
		{[]string{"__complete", "ma"}, nil, []string{"man"}}, // hidden
		{[]string{"__complete", "check", "--q"}, []string{"--quiet"}, nil},
		{[]string{"__complete", "fo"}, []string{"follow"}, nil},
		{[]string{"__complete", "follow", "--p"}, []string{"--poll"}, nil},
		{[]string{"__complete", "follow", "testdata/samples/sc2/lotv-4"}, []string{"testdata/samples/sc2/lotv-4.3.0-backwater-vs-ai.SC2Replay"}, nil},
		{[]string{"__complete", "--theme", ""}, []string{"auto", "dark", "light"}, nil},
		{[]string{"__complete", "help", "ex"}, []string{"export"}, nil},
		{[]string{"__complete", "completion", "f"}, []string{"fish"}, nil},
		{[]string{"__complete", "info", "testdata/sa"}, []string{"testdata/samples/"}, nil},
		// files with a replay's extension, whatever its case; not the
		// README or the MANIFEST beside them
		{[]string{"__complete", "info", "testdata/samples/sc2/lotv-4"}, []string{"testdata/samples/sc2/lotv-4.3.0-backwater-vs-ai.SC2Replay"}, nil},
		{[]string{"__complete", "check", "testdata/samples/teehistorian/"}, nil, []string{"testdata/samples/teehistorian/README.md", "testdata/samples/teehistorian/MANIFEST.tsv"}},
		// at the top, a word that starts no command is a path
		{[]string{"__complete", "testdata/samples/fz"}, []string{"testdata/samples/fzgx/"}, nil},
	} {
		r := rewind(t, tt.args...)
		r.want(t, strings.Join(tt.args, " "), 0, "*")
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			if strings.HasPrefix(line, ":") {
				break // the directive
			}
			got = append(got, strings.SplitN(line, "\t", 2)[0])
		}
		if tt.want != nil && strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%v: %q, want %q", tt.args, got, tt.want)
		}
		for _, n := range tt.not {
			for _, g := range got {
				if g == n {
					t.Errorf("%v offers %s", tt.args, n)
				}
			}
		}
	}
}

// TestBashCompletion runs the bash script rewind writes, as bash runs it
// on a tab: __start_rewind with COMP_WORDS set. bash-completion's
// _get_comp_words_by_ref is stood in for by the few lines it does here,
// and compopt (which works only inside a completion bash started) by
// nothing, so the test needs bash only.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	script := filepath.Join(t.TempDir(), "rewind.bash")
	r := rewind(t, "completion", "bash")
	r.want(t, "completion bash", 0, "")
	if err := os.WriteFile(script, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ line, want string }{
		{"rewind st", "stats"},
		{"rewind check --qu", "--quiet"},
		{"rewind --theme li", "light"},
		{"rewind help rep", "repair"},
		{"rewind info testdata/samples/bsor/easy", "testdata/samples/bsor/easy-full-play.bsor"},
	} {
		words := strings.Fields(tt.line)
		prog := `_get_comp_words_by_ref() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
compopt() { :; } # works only inside a real completion
source "$1"
COMP_WORDS=(` + strings.Join(words, " ") + `)
COMP_CWORD=$((${#COMP_WORDS[@]}-1))
COMP_LINE="` + tt.line + `"
COMP_POINT=${#COMP_LINE}
__start_rewind
printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "-c", prog, "bash", script)
		cmd.Env = sandboxEnv("", "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != tt.want {
			t.Errorf("%s<TAB>: %q (%v), want %q", tt.line, out, err, tt.want)
		}
	}
}

// TestCompletionScripts: the four shells get a script that names rewind.
func TestCompletionScripts(t *testing.T) {
	for shell, want := range map[string]string{
		"bash":       "complete -o default -F __start_rewind rewind",
		"zsh":        "#compdef rewind",
		"fish":       "complete -c rewind",
		"powershell": "Register-ArgumentCompleter",
	} {
		r := rewind(t, "completion", shell)
		r.want(t, "completion "+shell, 0, "")
		if !strings.Contains(r.stdout, want) {
			t.Errorf("completion %s: no %q in %.200s", shell, want, r.stdout)
		}
	}
}

// TestCompletePackMembers: a pack completes like a file, and after its
// name and a slash, like a folder: its folders with a slash, its replays
// by name, nothing else it holds.
func TestCompletePackMembers(t *testing.T) {
	dir := t.TempDir()
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, name := range []string{"2024/game1.slp", "2024/game2.slp", "2025/x.SC2Replay", "top.bsor", "notes.txt", "tools/run.sh"} {
		w, _ := zw.Create(name)
		w.Write([]byte("not really a replay"))
	}
	zw.Close()
	zpath := filepath.Join(dir, "games.zip")
	os.WriteFile(zpath, zb.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "games.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "single.slp.gz"), nil, 0o644)
	for _, tt := range []struct {
		word   string
		want   []string
		intoIt bool // one folder: no space after it
	}{
		{dir + "/ga", []string{zpath}, true},
		{dir + "/si", []string{dir + "/single.slp.gz"}, true},
		{zpath + "/", []string{zpath + "/2024/", zpath + "/2025/", zpath + "/top.bsor"}, false},
		{zpath + "/20", []string{zpath + "/2024/", zpath + "/2025/"}, false},
		{zpath + "/2024", []string{zpath + "/2024/"}, true},
		{zpath + "/2024/", []string{zpath + "/2024/game1.slp", zpath + "/2024/game2.slp"}, false},
		{zpath + "/2024/game2", []string{zpath + "/2024/game2.slp"}, false},
		{zpath + "/no", nil, false},
		{zpath + "/nowhere/x", nil, false},
		{dir + "/games.txt/", nil, false},
	} {
		r := rewind(t, "__complete", "info", tt.word)
		r.want(t, "complete "+tt.word, 0, "*")
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		var got []string
		for _, line := range lines[:len(lines)-1] {
			got = append(got, strings.SplitN(line, "\t", 2)[0])
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: %q, want %q", tt.word, got, tt.want)
		}
		// the directive: 4 no file completion, 2 no space
		if directive := lines[len(lines)-1]; (directive == ":6") != tt.intoIt {
			t.Errorf("%s: directive %s", tt.word, directive)
		}
	}
}
