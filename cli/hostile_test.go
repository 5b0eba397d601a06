package cli

// Terminals are not trusted with data: a replay whose player name, song
// and mapper hold terminal control sequences, under a file name that
// holds them too, goes through every command, and no control character
// (C0 but line breaks and tabs, DEL, C1) or invisible override reaches
// stdout or stderr raw, in text or in JSON.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"rewind/decoders/bsor/bsortest"
	"rewind/theme"
)

// hostile is what an attacker puts in a name: set the window title, clear
// the screen, write the clipboard (OSC 52), a CSI as a C1 control, a
// right-to-left override, a DEL, a byte that is no UTF-8.
const hostile = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b31m\u202eevil\x7f\xff"

// hostileName is a file name with ESC, BEL and DEL in it.
const hostileName = "e\x1b]0;pwned\x07\x7f.bsor"

// craftBSOR is a real BSOR replay (testdata's easy-full-play.bsor) with
// its player name, song name and mapper replaced by text.
func craftBSOR(t *testing.T, text string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/samples/bsor/easy-full-play.bsor")
	if err != nil {
		t.Fatal(err)
	}
	return bsortest.WithText(data, text)
}

// noRawControls fails when out holds a byte sequence a terminal acts on:
// a C0 control other than a line break or tab, DEL, a C1 control, an
// invisible override, or bytes that are no UTF-8.
func noRawControls(t *testing.T, what, out string) {
	t.Helper()
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		if r == utf8.RuneError && n <= 1 {
			t.Errorf("%s: byte %#x at %d is no UTF-8: %q", what, out[i], i, around(out, i))
			return
		}
		if r != '\n' && r != '\t' && theme.Unsafe(r) {
			t.Errorf("%s: raw %U at %d: %q", what, r, i, around(out, i))
			return
		}
		i += n
	}
}

func around(s string, i int) string { return s[max(0, i-40):min(len(s), i+40)] }

func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	dir := t.TempDir()
	bad := craftBSOR(t, hostile)
	file := filepath.Join(dir, hostileName)
	if err := os.WriteFile(file, bad, 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	// a folder with the replay, a stray file that is no replay, and a
	// damaged copy, all with hostile names
	folder := filepath.Join(dir, "d\x1b[31m")
	os.Mkdir(folder, 0o755)
	os.WriteFile(filepath.Join(folder, hostileName), bad, 0o644)
	os.WriteFile(filepath.Join(folder, "stray\x1b[2J.slp"), []byte("\x1b]0;not a replay\x07\n"), 0o644)
	cut := filepath.Join(dir, "cut\x1b[2J.bsor")
	os.WriteFile(cut, bad[:len(bad)/2], 0o644)
	missing := filepath.Join(dir, "missing\x1b]0;x\x07.slp")

	// the decoder keeps the text: this test would pass for nothing if
	// the name never got through
	if j := rewind(t, "info", "--json", file); !strings.Contains(j.stdout, `\u001b]0;pwned\u0007`) {
		t.Fatalf("the crafted name is not in the replay: %s", j.stdout)
	}
	for _, args := range [][]string{
		{"info", file},
		{"info", "--check", file, folder},
		{"info", "--json", file, folder},
		{"info", missing},
		{file},
		{"check", file, folder, cut, missing},
		{"check", "--json", file, folder, cut},
		{"stats", file, folder},
		{"stats", "--json", file},
		{"stats", "--by", "player", "--json", dir},
		{"stats", "--by", "player", dir},
		{"moments", "--json", dir, "kind:end"},
		{"diff", "--json", file, cut},
		{"find", dir, "evil"},
		{"find", dir, "problems:>=0"},
		{"find", "--json", dir, "format:bsor"},
		{"find", missing, "x"},
		{"find", dir, "date:2024-13\x1b[2J"},
		{"dump", file},
		{"dump", missing},
		{"dump", folder},
		{"dump", "--follow", file},
		{"dump", "--frames", "\x1b[2J", file},
		{"repair", file, "-o", filepath.Join(dir, "whole\x1b.bsor")},
		{"repair", cut, "-o", filepath.Join(dir, "fixed\x1b[2J.bsor")},
		{"repair", "--json", cut, "-o", filepath.Join(dir, "fixed2\x1b[2J.bsor")},
		{"repair", missing, "-o", filepath.Join(dir, "x.bsor")},
		{"repair", file, "-o", filepath.Join(dir, "no\x1b", "x.bsor")},
		{"export", "--out", filepath.Join(dir, "ds\x1b[2J"), folder, missing},
		{"\x1b[2Jnocommand"},
		{"info", "--nope\x1b[2J"},
		{"help", "\x1b[2J"},
	} {
		r := rewind(t, args...)
		what := strings.Join(args, " ")
		noRawControls(t, what+" (stdout)", r.stdout)
		noRawControls(t, what+" (stderr)", r.stderr)
		if r.code == 0 && r.stdout == "" && r.stderr == "" {
			t.Errorf("%s said nothing", what)
		}
		if slices.Contains(args, "--json") {
			ndjson(t, r.stdout) // escaped, and still JSON a script reads
		}
	}
}

// TestHostileJSONKeepsTheValue: JSON escapes the hostile text and a
// script reads the same name back.
func TestHostileJSONKeepsTheValue(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "x.bsor")
	os.WriteFile(file, craftBSOR(t, "ok\u009b2J\u202e\u2028\x7f"), 0o644)
	r := rewind(t, "info", "--json", file)
	r.want(t, "info --json", 0, "")
	objs := ndjson(t, r.stdout)
	players := objs[0]["players"].([]any)
	if name := players[0].(map[string]any)["name"]; name != "ok\u009b2J\u202e\u2028\x7f" {
		t.Errorf("name read back as %q", name)
	}
	for _, esc := range []string{`\u009b`, `\u202e`, `\u2028`, `\u007f`} {
		if !strings.Contains(r.stdout, esc) {
			t.Errorf("JSON does not escape %s: %s", esc, r.stdout)
		}
	}
}
