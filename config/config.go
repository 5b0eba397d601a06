// Package config reads rewind's settings: one TOML file in the user's
// config directory (os.UserConfigDir()/rewind/config.toml: $XDG_CONFIG_HOME
// or ~/.config on Linux, ~/Library/Application Support on macOS, %AppData%
// on Windows), or the file $REWIND_CONFIG names.
//
// The file says where the player's replays are (library), who the player
// is (me), how to start the games' own players ([slippi], [osu]) and what
// commands to run on a replay ([[action]]). Every key is optional.
//
// A config is read once, when rewind starts, and never stops it: a file
// that cannot be read, a syntax error, an unknown key or a value of the
// wrong kind is a Problem, one sentence naming the file, the line and the
// key, and the rest of the file still counts. The file is written only when
// the person asks (Init), and never over an existing one.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Env names a config file to read instead of the one in the user's config
// directory (tests, and a person with several setups).
const Env = "REWIND_CONFIG"

// Config is what the file says.
type Config struct {
	// File is the file read, or the one that would be: its path even when
	// it does not exist (Exists says).
	File   string
	Exists bool
	// Library is the folders of replays to open when no path is given,
	// with ~ expanded, in the order written. A folder that does not exist
	// is left out, with a Problem.
	Library []string
	// Me is the player's identities: connect codes, toon handles, player
	// ids or names, of any format.
	Me      []string
	Slippi  Slippi
	Osu     Osu
	Actions []Action
	// Problems is what was wrong with the file, each one sentence; what
	// they name was left out and the rest kept.
	Problems []Problem

	lines map[string]int // the file's keys and their lines
}

// Slippi is how to play a Melee replay in the game: Slippi's playback
// Dolphin and the Melee disc image it runs.
type Slippi struct {
	Dolphin string // the playback Dolphin executable
	ISO     string // the Melee ISO
}

// Osu is how to hand a replay to osu!: a command line whose words may use
// the placeholders an action's do; empty means the operating system's
// opener for .osr files.
type Osu struct {
	Command []string
}

// Action is a command the person configured to run on a replay or a moment:
// from the TUI with Key, or as `rewind run NAME FILE`.
type Action struct {
	Name string
	Key  string // one key in the TUI; empty: only from the command line
	// Formats are the format ids or names it applies to (slippi, sc2...);
	// empty: every format.
	Formats []string
	// Command is the command line split into words; placeholders such as
	// {path} and {frame} are replaced in each word, never through a shell.
	Command []string
	Line    int // where the action starts in the file
}

// Problem is one thing wrong with the config file.
type Problem struct {
	File string
	Line int    // 1-based; 0 when the problem is not at a line (the file cannot be read)
	Key  string // the key, dotted ("slippi.dolphin", "action[2].command"); empty for a syntax error
	Msg  string
}

func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		b.WriteString(":" + strconv.Itoa(p.Line))
	}
	b.WriteString(": ")
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Path is the config file's path: $REWIND_CONFIG when set, else
// config.toml in the rewind folder of the user's config directory.
func Path() (string, error) {
	if p := os.Getenv(Env); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no config directory: %w", err)
	}
	return filepath.Join(dir, "rewind", "config.toml"), nil
}

// Load reads the config file. It never fails: without a file the config is
// empty, and whatever is wrong with one is in Problems.
func Load() Config {
	path, err := Path()
	if err != nil {
		return Config{Problems: []Problem{{Msg: err.Error() + "; set " + Env + " to a config file"}}}
	}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Config{File: path}
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return Config{File: path, Exists: true, Problems: []Problem{{File: path, Msg: "cannot be read: " + err.Error()}}}
	}
	c := Parse(path, data)
	c.Exists = true
	c.checkFolders()
	return c
}

// Parse reads a config file's text; name is what Problems call the file.
// Folders are not looked at (Load does).
func Parse(name string, data []byte) Config {
	c := Config{File: name}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		c.Problems = append(c.Problems, syntaxProblem(name, err))
		return c
	}
	c.lines = keyLines(data)
	r := reader{file: name, lines: c.lines}
	for _, k := range sortedKeys(doc) {
		v := doc[k]
		switch k {
		case "library":
			c.Library = r.words(k, v, "a list of folders")
		case "me":
			c.Me = r.words(k, v, "a list of identities (connect codes, toon handles, ids or names)")
		case "slippi":
			c.Slippi = r.slippi(v)
		case "osu":
			c.Osu = r.osu(v)
		case "action":
			c.Actions = r.actions(v)
		default:
			r.problem(k, "unknown key; the keys are library, me, [slippi], [osu] and [[action]]")
		}
	}
	c.Library = expandHome(c.Library)
	c.Slippi.Dolphin = expandHome1(c.Slippi.Dolphin)
	c.Slippi.ISO = expandHome1(c.Slippi.ISO)
	c.Problems = append(c.Problems, r.problems...)
	c.sortProblems()
	return c
}

// checkFolders leaves out the library folders that do not exist, each with
// a Problem: rewind opens the others.
func (c *Config) checkFolders() {
	kept := c.Library[:0]
	for i, dir := range c.Library {
		fi, err := os.Stat(dir)
		if err == nil && fi.IsDir() {
			kept = append(kept, dir)
			continue
		}
		what := "does not exist"
		switch {
		case err == nil:
			what = "is not a folder"
		case !errors.Is(err, fs.ErrNotExist):
			what = "cannot be read"
		}
		c.Problems = append(c.Problems, Problem{File: c.File, Line: c.lines["library"], Key: fmt.Sprintf("library[%d]", i+1), Msg: dir + " " + what + "; rewind opens the other folders"})
	}
	c.Library = kept
	c.sortProblems()
}

// sortProblems puts the problems in the file's order, as a person reads it.
func (c *Config) sortProblems() {
	slices.SortStableFunc(c.Problems, func(a, b Problem) int { return a.Line - b.Line })
}

// syntaxProblem words a TOML syntax error as one sentence with its line.
func syntaxProblem(name string, err error) Problem {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		msg := de.Error()
		if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "toml: ") {
			msg = msg[i+2:]
		}
		key := strings.Join(de.Key(), ".")
		return Problem{File: name, Line: row, Key: key, Msg: "not TOML: " + msg + "; the file is ignored until it is mended"}
	}
	return Problem{File: name, Msg: "not TOML: " + err.Error() + "; the file is ignored until it is mended"}
}

// reader turns the document's values into settings, noting problems.
type reader struct {
	file     string
	lines    map[string]int // dotted key -> line, as written
	problems []Problem
}

func (r *reader) problem(key, msg string) {
	r.problems = append(r.problems, Problem{File: r.file, Line: r.line(key), Key: key, Msg: msg})
}

// line finds a key's line: the key itself, else the nearest table above it
// that the file names.
func (r *reader) line(key string) int {
	for k := key; k != ""; {
		if l, ok := r.lines[k]; ok {
			return l
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return 0
}

// words reads a list of strings; a single string is a list of one.
func (r *reader) words(key string, v any, want string) []string {
	switch v := v.(type) {
	case string:
		if v == "" {
			return nil
		}
		return []string{v}
	case []any:
		var out []string
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				r.problem(key, fmt.Sprintf("item %d is %s; want %s, each in quotes", i+1, kind(e), want))
				continue
			}
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	r.problem(key, fmt.Sprintf("is %s; want %s", kind(v), want))
	return nil
}

// text reads one string.
func (r *reader) text(key string, v any, want string) string {
	if s, ok := v.(string); ok {
		return strings.TrimSpace(s)
	}
	r.problem(key, fmt.Sprintf("is %s; want %s in quotes", kind(v), want))
	return ""
}

// table reads a table's keys, calling set for each; unknown keys are
// problems that list the known ones.
func (r *reader) table(key string, v any, known []string, set func(k string, v any)) {
	m, ok := v.(map[string]any)
	if !ok {
		r.problem(key, fmt.Sprintf("is %s; want a table [%s]", kind(v), key))
		return
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(known, k) {
			r.problem(key+"."+k, "unknown key; ["+key+"] has "+strings.Join(known, ", "))
			continue
		}
		set(k, m[k])
	}
}

func (r *reader) slippi(v any) Slippi {
	var s Slippi
	r.table("slippi", v, []string{"dolphin", "iso"}, func(k string, v any) {
		switch k {
		case "dolphin":
			s.Dolphin = r.text("slippi.dolphin", v, "the playback Dolphin's path")
		case "iso":
			s.ISO = r.text("slippi.iso", v, "the Melee ISO's path")
		}
	})
	return s
}

func (r *reader) osu(v any) Osu {
	var o Osu
	r.table("osu", v, []string{"command"}, func(k string, v any) {
		o.Command = r.command("osu.command", v)
	})
	return o
}

// command reads a command line: a string split into words as a shell
// would (quotes group, nothing else is special), or a list of words.
func (r *reader) command(key string, v any) []string {
	switch v := v.(type) {
	case string:
		words, err := SplitWords(v)
		if err != nil {
			r.problem(key, err.Error())
			return nil
		}
		if len(words) == 0 {
			r.problem(key, "is empty; want a command line")
		}
		return words
	case []any:
		return r.words(key, v, "a command line, one word per item")
	}
	r.problem(key, fmt.Sprintf("is %s; want a command line in quotes", kind(v)))
	return nil
}

func (r *reader) actions(v any) []Action {
	list, ok := v.([]any)
	if !ok {
		r.problem("action", fmt.Sprintf("is %s; want [[action]] tables", kind(v)))
		return nil
	}
	var out []Action
	names := map[string]bool{}
	for i, e := range list {
		key := fmt.Sprintf("action[%d]", i+1)
		var a Action
		a.Line = r.lines[key]
		r.table(key, e, []string{"name", "key", "formats", "command"}, func(k string, v any) {
			switch k {
			case "name":
				a.Name = r.text(key+".name", v, "a name")
			case "key":
				a.Key = r.text(key+".key", v, "a key")
			case "formats":
				a.Formats = r.words(key+".formats", v, "a list of formats (slippi, sc2, osu...)")
			case "command":
				a.Command = r.command(key+".command", v)
			}
		})
		switch {
		case a.Name == "":
			r.problem(key, "has no name; `rewind run NAME` needs one")
			continue
		case len(a.Command) == 0:
			if _, written := r.lines[key+".command"]; !written {
				r.problem(key, "has no command")
			}
			continue
		case names[strings.ToLower(a.Name)]:
			r.problem(key+".name", a.Name+" is the name of an action above; the first one counts")
			continue
		case len([]rune(a.Key)) > 1 && !namedKey(a.Key):
			r.problem(key+".key", fmt.Sprintf("%q is not one key; want a letter, or a name such as ctrl+k or f5", a.Key))
			a.Key = ""
		}
		names[strings.ToLower(a.Name)] = true
		out = append(out, a)
	}
	return out
}

// namedKey reports whether k names a key the way Bubble Tea does
// (ctrl+k, alt+x, f5, tab).
func namedKey(k string) bool {
	k = strings.ToLower(k)
	for _, prefix := range []string{"ctrl+", "alt+", "shift+"} {
		k = strings.TrimPrefix(k, prefix)
	}
	if len([]rune(k)) == 1 {
		return true
	}
	if len(k) >= 2 && k[0] == 'f' {
		if n, err := strconv.Atoi(k[1:]); err == nil && n >= 1 && n <= 20 {
			return true
		}
	}
	return slices.Contains([]string{"tab", "enter", "space", "up", "down", "left", "right", "home", "end", "pgup", "pgdown", "delete", "insert"}, k)
}

// kind names a TOML value's kind for a problem.
func kind(v any) string {
	switch v.(type) {
	case string:
		return "text"
	case int64, float64:
		return "a number"
	case bool:
		return "true or false"
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// keyLines maps each key the document writes to its line: "library",
// "slippi" (the table's header), "slippi.dolphin", "action[2]",
// "action[2].command". A document that does not parse gives what it could.
func keyLines(data []byte) map[string]int {
	lines := map[string]int{}
	if data == nil {
		return lines
	}
	var p unstable.Parser
	p.Reset(data)
	table := ""
	arrays := map[string]int{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = dotted(e.Key())
			if e.Kind == unstable.ArrayTable {
				arrays[table]++
				table = fmt.Sprintf("%s[%d]", table, arrays[table])
			}
			lines[table] = lineOf(&p, e)
		case unstable.KeyValue:
			k := dotted(e.Key())
			if table != "" {
				k = table + "." + k
			}
			if _, seen := lines[k]; !seen {
				lines[k] = lineOf(&p, e)
			}
		}
	}
	return lines
}

func dotted(it unstable.Iterator) string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, ".")
}

// lineOf is the line an expression's key starts on.
func lineOf(p *unstable.Parser, e *unstable.Node) int {
	it := e.Key()
	if it.Next() {
		return p.Shape(it.Node().Raw).Start.Line
	}
	return p.Shape(e.Raw).Start.Line
}

// expandHome turns a leading ~ into the user's home folder.
func expandHome(dirs []string) []string {
	for i, d := range dirs {
		dirs[i] = expandHome1(d)
	}
	return dirs
}

func expandHome1(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, `~\`) {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, p[1:])
}

// SplitWords splits a command line into words the way a shell reads
// quotes: 'single' and "double" quotes group words, a backslash before a
// space or a quote escapes it, and nothing else is special: no variables,
// no globs, no pipes. The words are run as they are.
func SplitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("a ' at column %d is not closed", i+1)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && s[i+1] == '"' {
					i++
				}
				w.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf(`a " is not closed`)
			}
			inWord = true
		case ch == '\\' && i+1 < len(s) && strings.IndexByte(" \t'\"", s[i+1]) >= 0:
			// only a space or a quote is escaped, so a Windows path
			// (C:\Games\osu!.exe) reads as written
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
