package theme

// Terminals are not trusted with data. A replay is untrusted input (a BSOR
// player name is whatever the player typed, a Slippi name whatever the
// console sent) and so is a file name: written raw, an ESC in either sets
// the window title, clears the screen or writes the clipboard (OSC 52),
// and a bidirectional override makes a name read as another. Every text
// writer of rewind (each command's text, each error that quotes a path or
// replay text) and the TUI pass such text through Safe, or Path for a file
// name; JSON goes through EscapeJSON. This file is the one place that says
// which characters are unsafe and how they are shown.

import (
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"strings"
	"unicode/utf8"
)

// Unsafe reports whether r must not reach a terminal as it is: C0 and C1
// control characters, DEL, and the invisible characters that reorder or
// hide text (bidirectional embeddings, overrides, isolates and marks,
// zero-width spaces and joiners, line and paragraph separators, the byte
// order mark).
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true // C0, DEL, C1
	case r < 0x61c:
		return false
	case r == 0x61c: // Arabic letter mark
		return true
	case r >= 0x200b && r <= 0x200f: // zero-width space, non-joiner, joiner; LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // line and paragraph separators; LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2060 && r <= 0x206f: // word joiner, invisible operators; LRI, RLI, FSI, PDI; deprecated format characters
		return true
	case r == 0xfeff: // zero-width no-break space, byte order mark
		return true
	case r >= 0xfff9 && r <= 0xfffb: // interlinear annotation
		return true
	}
	return false
}

// Safe returns s with every unsafe character written as a visible escape:
// \x1b for a C0 control or DEL, \u009b for a C1 control or an invisible
// character, and \xNN for each byte that is not UTF-8. Everything else,
// spaces and printable Unicode included, stays as it is, so Safe changes
// nothing in ordinary text and Safe(Safe(s)) == Safe(s).
func Safe(s string) string {
	i := firstUnsafe(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// firstUnsafe is the offset of the first byte Safe changes, len(s) when
// none: printable ASCII is checked a byte at a time, the rest rune by rune.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || Unsafe(r) {
			return i
		}
		i += n
	}
	return len(s)
}

// SafeLines is Safe for text of several lines: each line is made safe and
// the line breaks stay.
func SafeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Safe(l)
	}
	return strings.Join(lines, "\n")
}

// Path is how a file name is shown. Piped (onTerminal false) it is Safe:
// a script reads the name as it is, with only unsafe characters escaped.
// On a terminal it is quoted as GNU ls quotes names (its shell-escape
// style), so what a person sees can be pasted into a shell: single quotes
// around a name with a space or a character the shell reads, a quote
// inside closed and escaped (or the name in double quotes), and an unsafe
// character in ANSI-C quoting outside the single quotes:
//
//	a b.slp        ->  'a b.slp'
//	it's.slp       ->  "it's.slp"
//	e<ESC>x.slp    ->  'e'$'\033''x.slp'
//
// Unlike ls, invisible Unicode characters (U+202E, U+200B, ...) are shown
// escaped too, as $'\u202e', so a name cannot pass for another. On Windows
// a name is quoted for cmd and PowerShell instead (windowsPath).
func Path(p string, onTerminal bool) string {
	switch {
	case !onTerminal:
		return Safe(p)
	case windowsPaths:
		return windowsPath(p)
	}
	return shellPath(p)
}

// windowsPaths says that names are shown as Windows' shells read them.
var windowsPaths = runtime.GOOS == "windows"

// shellPath is a name quoted as GNU ls's shell-escape style (Path).
func shellPath(p string) string {
	if p == "" {
		return "''"
	}
	special, unsafe, quote := false, false, false
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == utf8.RuneError && n <= 1, Unsafe(r):
			unsafe = true
		case r == '\'':
			quote = true
		case r < 0x80 && shellSpecial(p, i, byte(r)):
			special = true
		}
		i += n
	}
	switch {
	case !special && !unsafe && !quote:
		return p
	case !unsafe && quote && !strings.ContainsAny(p, "\"$`\\!"):
		return `"` + p + `"` // it's.slp -> "it's.slp"
	}
	var b strings.Builder
	const plain, ansiC = 1, 2 // inside '...' or $'...'
	mode := 0
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		bad := r == utf8.RuneError && n <= 1 || Unsafe(r)
		want := plain
		if bad {
			want = ansiC
		}
		if mode != want {
			if mode != 0 {
				b.WriteByte('\'')
			}
			if want == ansiC {
				b.WriteByte('$')
			}
			b.WriteByte('\'')
			mode = want
		}
		switch {
		case bad && r > 0x9f && r != utf8.RuneError:
			fmt.Fprintf(&b, `\u%04x`, r) // an invisible character, as bash writes it
		case bad:
			for _, c := range []byte(p[i : i+n]) { // bytes, as ls writes them
				b.WriteString(cEscape(c))
			}
		case r == '\'':
			b.WriteString(`'\''`)
		default:
			b.WriteString(p[i : i+n])
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

// windowsPath is a name as a Windows terminal shows it: as it is (with
// its backslashes) when cmd and PowerShell both read it as one word, as
// dir and Get-ChildItem print it; otherwise in double quotes, as
// Explorer's "Copy as path" writes it and as both shells read a name with
// a space. Inside the quotes the characters PowerShell reads in a
// double-quoted string (` $ ") take its escape character, and an unsafe
// character is written `u{202e} (PowerShell 6 and later); cmd has no
// escape for either, and a name holds them rarely. A byte that is not
// UTF-8 is shown \xff as Safe shows it: no shell can name it.
//
//	C:\Replays\a.slp           ->  C:\Replays\a.slp
//	C:\My Replays\a.slp        ->  "C:\My Replays\a.slp"
//	a$b.slp                    ->  "a`$b.slp"
//	bidi<U+202E>x.slp          ->  "bidi`u{202e}x.slp"
func windowsPath(p string) string {
	quote := p == ""
	for i := 0; i < len(p) && !quote; {
		r, n := utf8.DecodeRuneInString(p[i:])
		quote = r == utf8.RuneError && n <= 1 || Unsafe(r) || r < 0x80 && windowsSpecial(p, i, byte(r))
		i += n
	}
	if !quote {
		return p
	}
	var b strings.Builder
	b.Grow(len(p) + 2)
	b.WriteByte('"')
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, p[i])
		case Unsafe(r):
			fmt.Fprintf(&b, "`u{%x}", r)
		case r == '`' || r == '$' || r == '"':
			b.WriteByte('`')
			b.WriteRune(r)
		default:
			b.WriteString(p[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
}

// windowsSpecial reports whether the ASCII character c at offset i of p
// makes cmd or PowerShell read a bare word as something else: a space,
// cmd's operators, variables and separators (& ^ % ! ( ) ; , =),
// PowerShell's (' ` $ @ { } and [ ] as wildcards), the characters a
// Windows name cannot hold but a packed replay's can (" < > |), and # and
// ~ at the start of a word (a comment, the home folder).
func windowsSpecial(p string, i int, c byte) bool {
	switch c {
	case ' ', '&', '^', '%', '!', '(', ')', ';', ',', '\'', '`', '$', '@', '{', '}', '[', ']', '=', '"', '<', '>', '|':
		return true
	case '#', '~':
		return i == 0
	}
	return false
}

// shellSpecial reports whether the ASCII character c at offset i of p
// makes ls quote the name: a space and the characters a shell reads (# and
// ~ only at the start; braces only alone).
func shellSpecial(p string, i int, c byte) bool {
	switch c {
	case ' ', '!', '"', '$', '&', '(', ')', '*', ';', '<', '=', '>', '?', '[', '\\', '^', '`', '|':
		return true
	case '#', '~':
		return i == 0
	case '{', '}':
		return len(p) == 1
	}
	return false
}

// cEscape is a byte in ANSI-C quoting: the C names of the common controls,
// three octal digits for the rest (as ls writes them).
func cEscape(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\v':
		return `\v`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	}
	return fmt.Sprintf(`\%03o`, c)
}

// EscapeJSON rewrites encoded JSON so that no unsafe character is in it
// raw: encoding/json escapes C0 controls and U+2028/U+2029 but writes DEL,
// C1 controls and bidirectional overrides as they are, and a person reads
// NDJSON on a terminal too. Outside strings JSON is ASCII, so every such
// rune is inside a string and \uXXXX there is the same value. b is
// returned as it is when there is nothing to rewrite.
func EscapeJSON(b []byte) []byte {
	i := jsonPlainPrefix(b)
	for ; i < len(b); i++ {
		if b[i] == 0x7f {
			break
		}
		if b[i] >= 0x80 {
			r, _ := utf8.DecodeRune(b[i:])
			if Unsafe(r) {
				break
			}
		}
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		if b[i] == 0x7f {
			out = append(out, `\u007f`...)
			i++
			continue
		}
		if b[i] < 0x80 {
			out = append(out, b[i])
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if Unsafe(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// Writer passes text to w with Safe applied to each line: a last guard
// for a command's text output, so a field that a writer forgot to pass
// through Safe still reaches the terminal escaped. Line breaks and tabs
// pass (a tab moves the cursor, nothing more); the escapes Safe or Path
// already made are printable and pass unchanged. A character split between
// two writes is held until the next one or Flush.
type Writer struct {
	w    io.Writer
	held []byte
	buf  []byte
}

// plainByte says which bytes a Writer passes as they are: printable ASCII,
// line breaks and tabs.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	t['\n'], t['\t'] = true, true
	return t
}()

// jsonPlainPrefix is how many bytes at the front of b are ASCII other
// than DEL, found eight at a time. encoding/json escapes the C0 controls
// itself but writes DEL as it is.
func jsonPlainPrefix(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if x := binary.LittleEndian.Uint64(b[i:]); x&highBits != 0 || hasByte(x, 0x7f) {
			break
		}
	}
	for i < len(b) && b[i] < 0x7f {
		i++
	}
	return i
}

// plainPrefix is a lower bound on how many bytes at the front of b are
// printable ASCII (0x20 to 0x7e), found eight at a time; the caller goes
// on byte by byte from there.
func plainPrefix(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// a byte with its high bit, one under 0x20, or DEL ends the run
		if x&highBits != 0 || (x-0x20*lowBits)&^x&highBits != 0 || hasByte(x, 0x7f) {
			break
		}
	}
	return i
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// hasByte says whether one of the eight bytes of x is c.
func hasByte(x uint64, c byte) bool {
	y := x ^ (lowBits * uint64(c))
	return (y-lowBits)&^y&highBits != 0
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (s *Writer) Write(p []byte) (int, error) {
	data := p
	if len(s.held) > 0 {
		data = append(s.held, p...)
		s.held = nil
	}
	// hold an incomplete character at the end for the next write
	end := len(data)
	for k := 1; k <= 3 && k <= len(data); k++ {
		c := data[len(data)-k]
		if c < 0x80 {
			break
		}
		if c >= 0xc0 { // a lead byte: is its character complete?
			if !utf8.FullRune(data[len(data)-k:]) {
				end = len(data) - k
			}
			break
		}
	}
	plain := plainPrefix(data[:end])
	for plain < end && plainByte[data[plain]] {
		plain++
	}
	if plain == end {
		// nothing to escape (NDJSON, almost always): no copy
		if end < len(data) {
			s.held = append([]byte(nil), data[end:]...)
		}
		if _, err := s.w.Write(data[:end]); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	s.buf = s.buf[:0]
	for i := 0; i < end; {
		// a run of printable ASCII goes in one copy (a million lines of
		// NDJSON are almost nothing else)
		j := i + plainPrefix(data[i:end])
		for j < end && plainByte[data[j]] {
			j++
		}
		if j > i {
			s.buf = append(s.buf, data[i:j]...)
			i = j
			continue
		}
		c := data[i]
		r, n := utf8.DecodeRune(data[i:end])
		switch {
		case r == utf8.RuneError && n <= 1:
			s.buf = fmt.Appendf(s.buf, `\x%02x`, c)
			n = 1
		case r < 0x80:
			s.buf = fmt.Appendf(s.buf, `\x%02x`, r)
		case Unsafe(r):
			s.buf = fmt.Appendf(s.buf, `\u%04x`, r)
		default:
			s.buf = append(s.buf, data[i:i+n]...)
		}
		i += n
	}
	if end < len(data) {
		s.held = append([]byte(nil), data[end:]...)
	}
	if _, err := s.w.Write(s.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a character still held as the bytes it is (escaped, since
// it is incomplete).
func (s *Writer) Flush() error {
	if len(s.held) == 0 {
		return nil
	}
	var b []byte
	for _, c := range s.held {
		b = fmt.Appendf(b, `\x%02x`, c)
	}
	s.held = nil
	_, err := s.w.Write(b)
	return err
}
