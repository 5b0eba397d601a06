package theme

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// attack is what a hostile player name or file name holds: set the window
// title, clear the screen, write the clipboard (OSC 52), a CSI as a C1
// control, a right-to-left override, a zero-width space, a byte that is
// no UTF-8.
const attack = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b31m\u202egnp.exe\u200b\xff"

func TestSafe(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"plain name.slp", "plain name.slp"},
		{"Pokémon Stadium — AMNイ", "Pokémon Stadium — AMNイ"}, // printable Unicode stays
		{"tab\there", `tab\x09here`},
		{"line\nbreak\r", `line\x0abreak\x0d`},
		{"\x00\x1f\x7f", `\x00\x1f\x7f`},
		{"csi\u009b2J", `csi\u009b2J`},           // C1, valid UTF-8
		{"nel\u0085", `nel\u0085`},               // C1 NEL
		{"cut\xe3\x82", `cut\xe3\x82`},           // a character cut short
		{"bad\xff\xfe", `bad\xff\xfe`},           // not UTF-8 at all
		{"\u202eevil\u202c", `\u202eevil\u202c`}, // override and pop
		{"\u2066iso\u2069", `\u2066iso\u2069`},   // isolate
		{"zw\u200b\u200c\u200d\u2060\ufeff", `zw\u200b\u200c\u200d\u2060\ufeff`},
		{"sep\u2028\u2029", `sep\u2028\u2029`},
		{"back\\slash", `back\slash`},
		{attack, `\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b31m\u202egnp.exe\u200b\xff`},
	} {
		got := Safe(tt.in)
		if got != tt.want {
			t.Errorf("Safe(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := Safe(got); again != got {
			t.Errorf("Safe is not idempotent on %q: %q", got, again)
		}
		if !printable(got) {
			t.Errorf("Safe(%q) = %q still holds an unsafe byte", tt.in, got)
		}
	}
}

// printable reports whether s is valid UTF-8 without an unsafe character.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if Unsafe(r) {
			return false
		}
	}
	return true
}

func TestSafeLines(t *testing.T) {
	if got, want := SafeLines("a\x1bb\n  c\u009bd\n"), "a\\x1bb\n  c\\u009bd\n"; got != want {
		t.Errorf("SafeLines: %q, want %q", got, want)
	}
}

// TestPathOnTerminal: names quoted as GNU ls --quoting-style=shell-escape
// quotes them (the cases were run through ls 9 in a UTF-8 locale), except
// that invisible characters, which ls prints raw, are escaped.
func TestPathOnTerminal(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain.slp", "plain.slp"},
		{"dir/sub-dir/a_b.c,d@e:f%g+h.slp", "dir/sub-dir/a_b.c,d@e:f%g+h.slp"},
		{"ü.slp", "ü.slp"},
		{"a b.slp", "'a b.slp'"},
		{"it's.slp", `"it's.slp"`},
		{"it's $x", `'it'\''s $x'`},
		{"a$b", "'a$b'"},
		{"x=y", "'x=y'"},
		{"a#b", "a#b"},
		{"#a", "'#a'"},
		{"~a", "'~a'"},
		{"a~", "a~"},
		{"a{b}", "a{b}"},
		{"{", "'{'"},
		{"a?b", "'a?b'"},
		{"a[b]", "'a[b]'"},
		{`a\b`, `'a\b'`},
		{"a\"b", `'a"b'`},
		{"(T)Ocrucius VS (Z)Rairden.SC2Replay", "'(T)Ocrucius VS (Z)Rairden.SC2Replay'"},
		{"e\x1b]0;x\x07.slp", `'e'$'\033'']0;x'$'\a''.slp'`},
		{"nl\nx", `'nl'$'\n''x'`},
		{"a\tb", `'a'$'\t''b'`},
		{"x\x1b", `'x'$'\033'`},
		{"\x1bx", `$'\033''x'`},
		{"bad\xff.slp", `'bad'$'\377''.slp'`},
		{"c1\u009b.slp", `'c1'$'\302\233''.slp'`},
		{"bidi\u202ex.slp", `'bidi'$'\u202e''x.slp'`},
		{"", "''"},
	} {
		got := shellPath(tt.in)
		if got != tt.want {
			t.Errorf("shellPath(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if !printable(got) {
			t.Errorf("Path(%q) = %q holds an unsafe byte", tt.in, got)
		}
	}
	// piped, a name is only made safe
	if got := Path("a b\x1b.slp", false); got != `a b\x1b.slp` {
		t.Errorf("Path piped: %q", got)
	}
}

// TestPathForWindows: on a Windows terminal a name is shown as cmd's dir
// and PowerShell's Get-ChildItem show it, double-quoted (as Explorer's
// "Copy as path") when either shell would read it as more than one word,
// with PowerShell's escapes inside. The function is pure, so this runs on
// every system.
func TestPathForWindows(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`C:\Users\me\Slippi\Game_20240101T120000.slp`, `C:\Users\me\Slippi\Game_20240101T120000.slp`},
		{`\\nas\replays\a.slp`, `\\nas\replays\a.slp`},
		{`C:\Users\me\OneDrive\Documents\StarCraft II\a.SC2Replay`, `"C:\Users\me\OneDrive\Documents\StarCraft II\a.SC2Replay"`},
		{"(T)Ocrucius VS (Z)Rairden.SC2Replay", `"(T)Ocrucius VS (Z)Rairden.SC2Replay"`},
		{"it's.slp", `"it's.slp"`},
		{"a&b.slp", `"a&b.slp"`},
		{"50%.slp", `"50%.slp"`},
		{"a[1].slp", `"a[1].slp"`},
		{"x=y", `"x=y"`},
		{"a$b.slp", "\"a`$b.slp\""},
		{"a`b.slp", "\"a``b.slp\""},
		{`pack.zip\a"b.slp`, "\"pack.zip\\a`\"b.slp\""},
		{"#a", `"#a"`},
		{"a#b", "a#b"},
		{"~a", `"~a"`},
		{"a~1", "a~1"},
		{"ü.slp", "ü.slp"},
		{"a/b.slp", "a/b.slp"},
		{"e\x1b]0;x\x07.slp", "\"e`u{1b}]0;x`u{7}.slp\""},
		{"bidi\u202ex.slp", "\"bidi`u{202e}x.slp\""},
		{"bad\xff.slp", `"bad\xff.slp"`},
		{"", `""`},
	} {
		got := windowsPath(tt.in)
		if got != tt.want {
			t.Errorf("windowsPath(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if !printable(got) {
			t.Errorf("windowsPath(%q) = %q holds an unsafe byte", tt.in, got)
		}
	}
}

// TestPathThroughBash: what Path shows on a terminal, pasted into bash,
// names the file itself.
func TestPathThroughBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	for _, name := range []string{"a b.slp", "it's.slp", "it's $x", "e\x1b]0;x\x07.slp", "nl\nx", "bad\xff.slp", "c1\u009b.slp", "bidi\u202ex.slp", "\x1bx", "#a", "a\\b"} {
		out, err := exec.Command(bash, "-c", `printf %s `+shellPath(name)).Output()
		if err != nil || string(out) != name {
			t.Errorf("bash reads %s as %q (%v), want %q", shellPath(name), out, err, name)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	b, err := json.Marshal(map[string]string{"name": attack + "\u2028ok\x7f é"})
	if err != nil {
		t.Fatal(err)
	}
	got := EscapeJSON(b)
	for _, c := range got {
		if c < 0x20 || c == 0x7f {
			t.Fatalf("raw control byte %#x in %q", c, got)
		}
	}
	if !printable(string(got)) {
		t.Errorf("EscapeJSON left an unsafe character: %q", got)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	// the value is the same (the invalid byte was U+FFFD already)
	if want := strings.ToValidUTF8(attack, "\ufffd") + "\u2028ok\x7f é"; back["name"] != want {
		t.Errorf("round trip: %q, want %q", back["name"], want)
	}
	plain := []byte(`{"a":"é"}`)
	if got := EscapeJSON(plain); &got[0] != &plain[0] {
		t.Error("EscapeJSON copied JSON that needed nothing")
	}
}

// TestWriter: text written in pieces, a character split between writes,
// comes out as Safe makes each line; line breaks and tabs pass.
func TestWriter(t *testing.T) {
	text := "name\t" + attack + "\nnext イ line\n"
	for step := 1; step <= 7; step++ {
		var out bytes.Buffer
		w := NewWriter(&out)
		for i := 0; i < len(text); i += step {
			w.Write([]byte(text[i:min(i+step, len(text))]))
		}
		w.Flush()
		want := "name\t" + Safe(attack) + "\nnext イ line\n"
		if out.String() != want {
			t.Errorf("in pieces of %d: %q, want %q", step, out.String(), want)
		}
	}
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Write([]byte("cut \xe3\x82"))
	w.Flush()
	if out.String() != `cut \xe3\x82` {
		t.Errorf("a cut character at the end: %q", out.String())
	}
}

// TestSafeFileNames: a file name with ESC made on this file system reads
// back safe.
func TestSafeFileNames(t *testing.T) {
	dir := t.TempDir()
	name := "e\x1b[2Jx.slp"
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || Safe(ents[0].Name()) != `e\x1b[2Jx.slp` {
		t.Errorf("%v", ents)
	}
}
