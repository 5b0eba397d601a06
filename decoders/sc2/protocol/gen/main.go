// Command gen turns Blizzard's per-build StarCraft II protocol tables
// (s2protocol's protocolNNNNN.py, one per base build) into rewind's compact
// form: the file the protocol package embeds. It reads the Python files as
// data (their top-level literals), never runs them.
//
//	go run ./gen -in ../../../../shared/specs/sc2-protocols -out tables.txt
//
// The compact form pools what builds share. Every distinct type line (a type
// with its references to other types of the same build) is written once;
// a build lists its types as ranges of pool lines. Events are pooled the
// same way. See the protocol package for the format.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"rewind/decoders/sc2/internal/gendata"
)

func main() {
	in := flag.String("in", "", "folder of protocolNNNNN.py files")
	derivedFile := flag.String("patches", "gen/patches.txt", "patches to Blizzard's tables and tables derived from a neighbour's")
	out := flag.String("out", "tables.txt", "file to write")
	flag.Parse()
	if err := run(*in, *derivedFile, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(in, derivedFile, out string) error {
	tabs, err := readAll(in)
	if err != nil {
		return err
	}
	src, err := os.ReadFile(derivedFile)
	if err != nil {
		return err
	}
	ps, ds, err := parseDerived(string(src))
	if err != nil {
		return fmt.Errorf("%s: %v", derivedFile, err)
	}
	// The steps apply in the file's order, so a borrow may patch a table
	// derived above it.
	for i := 0; i <= len(ds); i++ {
		for _, p := range ps {
			if p.after != i {
				continue
			}
			if err := p.apply(tabs); err != nil {
				return err
			}
		}
		if i == len(ds) {
			break
		}
		d := ds[i]
		t, err := d.apply(tabs)
		if err != nil {
			return fmt.Errorf("%s: %v", derivedFile, err)
		}
		if d.from != 0 {
			tabs = append(tabs, t)
		}
	}
	sort.Slice(tabs, func(i, j int) bool { return tabs[i].base < tabs[j].base })
	return write(out, tabs, ps, ds)
}

// typ is one typeinfo.
type typ struct {
	kind      string // i b B a o s c x f n r32 r64 (see the protocol package)
	off, bits int64
	elem      int
	fields    []field // struct members, or choice alternatives with their tag
}

type field struct {
	name string
	typ  int
	tag  int64 // struct: the versioned tag; choice: the choice's tag value
}

// event is one entry of an event table: its id, body type and short name.
type event struct {
	id, typ int
	name    string
}

// table is one build's protocol.
type table struct {
	base                   int
	types                  []typ
	game, message, tracker []event
	roots                  [8]int // see rootNames; -1 when the table has none
	derivedFrom            int    // the neighbour a derived table comes from
}

// rootNames are the typeid constants a table names, in the order of
// table.roots and of the keys written for them.
var rootNames = [8][2]string{
	{"svaruint32_typeid", "loop"},
	{"replay_userid_typeid", "user"},
	{"game_eventid_typeid", "gameid"},
	{"message_eventid_typeid", "messageid"},
	{"tracker_eventid_typeid", "trackerid"},
	{"replay_header_typeid", "header"},
	{"game_details_typeid", "details"},
	{"replay_initdata_typeid", "init"},
}

var fileName = regexp.MustCompile(`^protocol(\d+)\.py$`)

func readAll(dir string) ([]*table, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var tabs []*table
	for _, e := range ents {
		m := fileName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		base, _ := strconv.Atoi(m[1])
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		t, err := readTable(base, string(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.Name(), err)
		}
		tabs = append(tabs, t)
	}
	if len(tabs) == 0 {
		return nil, fmt.Errorf("no protocolNNNNN.py in %s", dir)
	}
	sort.Slice(tabs, func(i, j int) bool { return tabs[i].base < tabs[j].base })
	return tabs, nil
}

func readTable(base int, src string) (*table, error) {
	want := map[string]bool{"typeinfos": true, "game_event_types": true, "message_event_types": true, "tracker_event_types": true}
	for _, r := range rootNames {
		want[r[0]] = true
	}
	lit, err := literals(src, want)
	if err != nil {
		return nil, err
	}
	t := &table{base: base}
	infos, ok := lit["typeinfos"].([]any)
	if !ok {
		return nil, fmt.Errorf("no typeinfos list")
	}
	for i, x := range infos {
		ty, err := convType(x)
		if err != nil {
			return nil, fmt.Errorf("type %d: %v", i, err)
		}
		t.types = append(t.types, ty)
	}
	for _, s := range []struct {
		name string
		into *[]event
	}{{"game_event_types", &t.game}, {"message_event_types", &t.message}, {"tracker_event_types", &t.tracker}} {
		d, ok := lit[s.name].(dict)
		if !ok {
			return nil, fmt.Errorf("no %s dict", s.name)
		}
		for _, p := range d {
			id, ok1 := p.key.(int64)
			v, ok2 := p.val.([]any)
			if !ok1 || !ok2 || len(v) != 2 {
				return nil, fmt.Errorf("%s: bad entry %v", s.name, p)
			}
			ty, ok1 := v[0].(int64)
			name, ok2 := v[1].(string)
			if !ok1 || !ok2 || ty < 0 || int(ty) >= len(t.types) {
				return nil, fmt.Errorf("%s: bad entry %v", s.name, p)
			}
			*s.into = append(*s.into, event{id: int(id), typ: int(ty), name: shortName(name)})
		}
		sort.Slice(*s.into, func(i, j int) bool { return (*s.into)[i].id < (*s.into)[j].id })
	}
	for i, r := range rootNames {
		v, present := lit[r[0]]
		if !present {
			return nil, fmt.Errorf("no %s", r[0])
		}
		t.roots[i] = -1
		if n, ok := v.(int64); ok {
			if n < 0 || int(n) >= len(t.types) {
				return nil, fmt.Errorf("%s = %d is not a type", r[0], n)
			}
			t.roots[i] = int(n)
		}
	}
	for i, ty := range t.types {
		for _, r := range ty.refs() {
			if r < 0 || r >= len(t.types) {
				return nil, fmt.Errorf("type %d refers to type %d of %d", i, r, len(t.types))
			}
		}
	}
	return t, nil
}

// shortName drops the namespace and the "Event" suffix:
// NNet.Game.SCmdEvent -> Cmd, NNet.Game.SChatMessage -> ChatMessage,
// NNet.Replay.Tracker.SUnitBornEvent -> UnitBorn.
func shortName(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimPrefix(s, "S")
	return strings.TrimSuffix(s, "Event")
}

func num(x any) (int64, error) {
	n, ok := x.(int64)
	if !ok {
		return 0, fmt.Errorf("%v is not an integer", x)
	}
	return n, nil
}

// bounds reads an (offset, bits) pair.
func bounds(x any) (int64, int64, error) {
	b, ok := x.([]any)
	if !ok || len(b) != 2 {
		return 0, 0, fmt.Errorf("bounds %v", x)
	}
	off, err := num(b[0])
	if err != nil {
		return 0, 0, err
	}
	bits, err := num(b[1])
	if err != nil || bits < 0 || bits > 64 {
		return 0, 0, fmt.Errorf("bounds %v", x)
	}
	return off, bits, nil
}

func convType(x any) (typ, error) {
	tu, ok := x.([]any)
	if !ok || len(tu) != 2 {
		return typ{}, fmt.Errorf("not a (kind, args) pair: %v", x)
	}
	kind, _ := tu[0].(string)
	args, _ := tu[1].([]any)
	var t typ
	var err error
	switch kind {
	case "_int", "_blob", "_bitarray":
		if len(args) != 1 {
			return t, fmt.Errorf("%s args %v", kind, args)
		}
		t.kind = map[string]string{"_int": "i", "_blob": "b", "_bitarray": "x"}[kind]
		t.off, t.bits, err = bounds(args[0])
	case "_array":
		if len(args) != 2 {
			return t, fmt.Errorf("array args %v", args)
		}
		t.kind = "a"
		t.off, t.bits, err = bounds(args[0])
		if err == nil {
			var e int64
			e, err = num(args[1])
			t.elem = int(e)
		}
	case "_optional":
		if len(args) != 1 {
			return t, fmt.Errorf("optional args %v", args)
		}
		t.kind = "o"
		var e int64
		e, err = num(args[0])
		t.elem = int(e)
	case "_struct":
		t.kind = "s"
		ms, ok := args[0].([]any)
		if len(args) != 1 || !ok {
			return t, fmt.Errorf("struct args %v", args)
		}
		for _, m := range ms {
			f, ok := m.([]any)
			if !ok || len(f) != 3 {
				return t, fmt.Errorf("struct member %v", m)
			}
			name, ok := f[0].(string)
			ty, err1 := num(f[1])
			tag, err2 := num(f[2])
			if !ok || err1 != nil || err2 != nil || strings.ContainsAny(name, " :=") {
				return t, fmt.Errorf("struct member %v", m)
			}
			t.fields = append(t.fields, field{name: name, typ: int(ty), tag: tag})
		}
	case "_choice":
		t.kind = "c"
		if len(args) != 2 {
			return t, fmt.Errorf("choice args %v", args)
		}
		t.off, t.bits, err = bounds(args[0])
		d, ok := args[1].(dict)
		if !ok {
			return t, fmt.Errorf("choice alternatives %v", args[1])
		}
		for _, p := range d {
			tag, err1 := num(p.key)
			v, ok := p.val.([]any)
			if err1 != nil || !ok || len(v) != 2 {
				return t, fmt.Errorf("choice alternative %v", p)
			}
			name, ok := v[0].(string)
			ty, err2 := num(v[1])
			if !ok || err2 != nil || strings.ContainsAny(name, " :=") {
				return t, fmt.Errorf("choice alternative %v", p)
			}
			t.fields = append(t.fields, field{name: name, typ: int(ty), tag: tag})
		}
		sort.Slice(t.fields, func(i, j int) bool { return t.fields[i].tag < t.fields[j].tag })
	case "_bool", "_fourcc", "_null", "_real32", "_real64":
		t.kind = map[string]string{"_bool": "B", "_fourcc": "f", "_null": "n", "_real32": "r32", "_real64": "r64"}[kind]
	default:
		return t, fmt.Errorf("unknown kind %q", kind)
	}
	return t, err
}

// refs lists the types a type refers to.
func (t typ) refs() []int {
	switch t.kind {
	case "a", "o":
		return []int{t.elem}
	case "s", "c":
		var r []int
		for _, f := range t.fields {
			r = append(r, f.typ)
		}
		return r
	}
	return nil
}

// line is the type in the compact form.
func (t typ) line() string {
	var sb strings.Builder
	sb.WriteString(t.kind)
	switch t.kind {
	case "i", "b", "x":
		fmt.Fprintf(&sb, " %d %d", t.off, t.bits)
	case "a":
		fmt.Fprintf(&sb, " %d %d %d", t.off, t.bits, t.elem)
	case "o":
		fmt.Fprintf(&sb, " %d", t.elem)
	case "s":
		for _, f := range t.fields {
			fmt.Fprintf(&sb, " %s:%d:%d", f.name, f.typ, f.tag)
		}
	case "c":
		fmt.Fprintf(&sb, " %d %d", t.off, t.bits)
		for _, f := range t.fields {
			fmt.Fprintf(&sb, " %d=%s:%d", f.tag, f.name, f.typ)
		}
	}
	return sb.String()
}

// patch gives one build's table an event (one it lacks, or one whose body
// it gets wrong), copying the event's body type (and what it refers to)
// from another build's table.
type patch struct {
	into, from int
	stream     string // "game"
	id         int    // the event id in into
	fromID     int    // the event id in from (an event can move between builds)
	// body and name, when set, make an event no table has (an "event"
	// line): from and fromID are unused
	body  *typ
	name  string
	why   string
	after int // how many derivations the file lists before it
}

func find(tabs []*table, base int) *table {
	for _, t := range tabs {
		if t.base == base {
			return t
		}
	}
	return nil
}

func (p patch) apply(tabs []*table) error {
	into, from := find(tabs, p.into), find(tabs, p.from)
	if p.body != nil {
		from = into
	}
	if into == nil || from == nil || p.stream != "game" {
		return fmt.Errorf("patch %+v: no such table", p)
	}
	if p.body != nil {
		for _, e := range into.game {
			if e.id == p.id {
				return fmt.Errorf("patch %+v: build %d has game event %d", p, p.into, p.id)
			}
		}
		into.types = append(into.types, *p.body)
		memo := map[int]int{}
		ty := copyType(into, into, len(into.types)-1, memo) // an identical type already there, or the new one
		if ty != len(into.types)-1 {
			into.types = into.types[:len(into.types)-1]
		}
		into.game = append(into.game, event{id: p.id, typ: ty, name: p.name})
		sort.Slice(into.game, func(i, j int) bool { return into.game[i].id < into.game[j].id })
		return nil
	}
	kept := into.game[:0]
	for _, e := range into.game {
		if e.id != p.id {
			kept = append(kept, e)
		}
	}
	into.game = kept
	var src *event
	for i := range from.game {
		if from.game[i].id == p.fromID {
			src = &from.game[i]
		}
	}
	if src == nil {
		return fmt.Errorf("patch %+v: build %d has no such event", p, p.from)
	}
	memo := map[int]int{}
	ty := copyType(into, from, src.typ, memo)
	into.game = append(into.game, event{id: p.id, typ: ty, name: src.name})
	sort.Slice(into.game, func(i, j int) bool { return into.game[i].id < into.game[j].id })
	return nil
}

// copyType copies type t of from into dst, reusing an identical type of
// dst where there is one, and returns its index in dst.
func copyType(dst, from *table, t int, memo map[int]int) int {
	if i, ok := memo[t]; ok {
		return i
	}
	ty := from.types[t]
	c := ty
	c.fields = append([]field(nil), ty.fields...)
	switch c.kind {
	case "a", "o":
		c.elem = copyType(dst, from, ty.elem, memo)
	case "s", "c":
		for i := range c.fields {
			c.fields[i].typ = copyType(dst, from, ty.fields[i].typ, memo)
		}
	}
	line := c.line()
	for i, d := range dst.types {
		if d.line() == line {
			memo[t] = i
			return i
		}
	}
	dst.types = append(dst.types, c)
	memo[t] = len(dst.types) - 1
	return memo[t]
}

// ranges writes indices as "3-7,9,12-20".
func ranges(idx []int) string {
	var sb strings.Builder
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if sb.Len() > 0 {
			sb.WriteByte(',')
		}
		if j == i {
			fmt.Fprint(&sb, idx[i])
		} else {
			fmt.Fprintf(&sb, "%d-%d", idx[i], idx[j])
		}
		i = j + 1
	}
	return sb.String()
}

func write(path string, tabs []*table, patches []patch, derived []derivation) error {
	var types, events gendata.Pool
	var builds []string
	for _, t := range tabs {
		var ti []int
		for _, ty := range t.types {
			ti = append(ti, types.Add(ty.line()))
		}
		line := fmt.Sprintf("b %d types=%s", t.base, ranges(ti))
		if t.derivedFrom > 0 {
			line += fmt.Sprintf(" derived=%d", t.derivedFrom)
		}
		for _, s := range []struct {
			key string
			evs []event
		}{{"game", t.game}, {"message", t.message}, {"tracker", t.tracker}} {
			var ei []int
			for _, e := range s.evs {
				ei = append(ei, events.Add(fmt.Sprintf("%d %d %s", e.id, e.typ, e.name)))
			}
			line += fmt.Sprintf(" %s=%s", s.key, ranges(ei))
		}
		for i, r := range rootNames {
			if t.roots[i] < 0 {
				line += " " + r[1] + "=-"
			} else {
				line += fmt.Sprintf(" %s=%d", r[1], t.roots[i])
			}
		}
		builds = append(builds, line)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	nd := 0
	for _, d := range derived {
		if d.from != 0 {
			nd++
		}
	}
	fmt.Fprintf(w, "# rewind: StarCraft II protocol tables of %d base builds (%d-%d) and %d derived ones.\n", len(tabs)-nd, tabs[0].base, tabs[len(tabs)-1].base, nd)
	fmt.Fprintln(w, "# Generated by `go generate` (decoders/sc2/protocol/gen) from Blizzard's s2protocol")
	fmt.Fprintln(w, "# tables (specs/sc2-protocols, MIT licence); do not edit. The format is described in")
	fmt.Fprintln(w, "# decoders/sc2/protocol/protocol.go.")
	for _, p := range patches {
		if p.body != nil {
			fmt.Fprintf(w, "# Patch: build %d %s event %d, %s, with a body of %q (gen/patches.txt): %s.\n", p.into, p.stream, p.id, p.name, p.body.line(), p.why)
			continue
		}
		from := fmt.Sprintf("build %d", p.from)
		if p.fromID != p.id {
			from += fmt.Sprintf("'s event %d", p.fromID)
		}
		fmt.Fprintf(w, "# Patch: build %d %s event %d from %s (gen/patches.txt): %s.\n", p.into, p.stream, p.id, from, p.why)
	}
	for _, d := range derived {
		if d.from == 0 {
			fmt.Fprintf(w, "# Edited: build %d (gen/patches.txt): %s.\n", d.base, d.why)
		} else {
			fmt.Fprintf(w, "# Derived: build %d from build %d (gen/patches.txt): %s.\n", d.base, d.from, d.why)
		}
	}
	for _, l := range types.Lines {
		fmt.Fprintln(w, "t", l)
	}
	for _, l := range events.Lines {
		fmt.Fprintln(w, "e", l)
	}
	for _, l := range builds {
		fmt.Fprintln(w, l)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// derivation is a table for a build Blizzard published none for: a
// neighbour's with struct members dropped and types replaced.
type derivation struct {
	base, from int // from 0: an edit of base's own table
	why        string
	drops      map[int][]string
	types      map[int]typ
	retypes    []retype
	adds       []addition
}

// addition gives a struct a member its neighbour lacks.
type addition struct {
	typ           int
	after, member string
	to            typ
}

// retype gives a struct member a new type, added to the table.
type retype struct {
	typ    int
	member string
	to     typ
}

func parseDerived(src string) ([]patch, []derivation, error) {
	var out []derivation
	var ps []patch
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		w := strings.Fields(line)
		bad := fmt.Errorf("line %d: %q", n+1, line)
		switch w[0] {
		case "borrow":
			// borrow BASE game ID from BUILD [game ID2]: WHY
			head, why, _ := strings.Cut(line, ":")
			hw := strings.Fields(head)
			if (len(hw) != 6 && len(hw) != 8) || hw[2] != "game" || hw[4] != "from" || (len(hw) == 8 && hw[6] != "game") {
				return nil, nil, bad
			}
			into, err1 := strconv.Atoi(hw[1])
			id, err2 := strconv.Atoi(hw[3])
			from, err3 := strconv.Atoi(hw[5])
			fromID, err4 := id, error(nil)
			if len(hw) == 8 {
				fromID, err4 = strconv.Atoi(hw[7])
			}
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
				return nil, nil, bad
			}
			ps = append(ps, patch{into: into, from: from, stream: "game", id: id, fromID: fromID, why: strings.TrimSpace(why), after: len(out)})
		case "event":
			// event BASE game ID NAME TYPE: WHY
			head, why, _ := strings.Cut(line, ":")
			hw := strings.Fields(head)
			if len(hw) < 6 || hw[2] != "game" {
				return nil, nil, bad
			}
			into, err1 := strconv.Atoi(hw[1])
			id, err2 := strconv.Atoi(hw[3])
			if err1 != nil || err2 != nil {
				return nil, nil, bad
			}
			body, err := parseLine(hw[5:])
			if err != nil || body.kind == "a" || body.kind == "o" {
				return nil, nil, fmt.Errorf("line %d: an event's body is an integer, bool, blob or bit array here", n+1)
			}
			ps = append(ps, patch{into: into, stream: "game", id: id, body: &body, name: hw[4], why: strings.TrimSpace(why), after: len(out)})
		case "derive":
			head, why, _ := strings.Cut(line, ":")
			hw := strings.Fields(head)
			if len(hw) != 4 || hw[2] != "from" {
				return nil, nil, bad
			}
			base, err1 := strconv.Atoi(hw[1])
			from, err2 := strconv.Atoi(hw[3])
			if err1 != nil || err2 != nil {
				return nil, nil, bad
			}
			out = append(out, derivation{base: base, from: from, why: strings.TrimSpace(why), drops: map[int][]string{}, types: map[int]typ{}})
		case "edit":
			head, why, _ := strings.Cut(line, ":")
			hw := strings.Fields(head)
			if len(hw) != 2 {
				return nil, nil, bad
			}
			base, err := strconv.Atoi(hw[1])
			if err != nil {
				return nil, nil, bad
			}
			out = append(out, derivation{base: base, why: strings.TrimSpace(why), drops: map[int][]string{}, types: map[int]typ{}})
		case "add", "retype":
			// add TYPE AFTER NEW LINE: a member NEW of type LINE after AFTER
			// retype TYPE MEMBER LINE: MEMBER gets type LINE
			names := 1
			if w[0] == "add" {
				names = 2
			}
			if len(out) == 0 || len(w) < 3+names {
				return nil, nil, bad
			}
			t, err := strconv.Atoi(w[1])
			if err != nil {
				return nil, nil, bad
			}
			ty, err := parseLine(w[2+names:])
			if err != nil {
				return nil, nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			d := &out[len(out)-1]
			if w[0] == "add" {
				d.adds = append(d.adds, addition{typ: t, after: w[2], member: w[3], to: ty})
			} else {
				d.retypes = append(d.retypes, retype{typ: t, member: w[2], to: ty})
			}
		case "drop", "type":
			if len(out) == 0 || len(w) < 3 {
				return nil, nil, bad
			}
			t, err := strconv.Atoi(w[1])
			if err != nil {
				return nil, nil, bad
			}
			d := &out[len(out)-1]
			if w[0] == "drop" {
				d.drops[t] = append(d.drops[t], w[2:]...)
			} else {
				ty, err := parseLine(w[2:])
				if err != nil {
					return nil, nil, fmt.Errorf("line %d: %v", n+1, err)
				}
				d.types[t] = ty
			}
		default:
			return nil, nil, bad
		}
	}
	return ps, out, nil
}

// parseLine reads the compact form of the kinds a derivation replaces.
func parseLine(w []string) (typ, error) {
	var t typ
	nums := make([]int64, 0, 3)
	for _, s := range w[1:] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return t, fmt.Errorf("type %q: only integers, bools, arrays, optionals, blobs and bit arrays can be written here", strings.Join(w, " "))
		}
		nums = append(nums, n)
	}
	t.kind = w[0]
	switch {
	case (t.kind == "i" || t.kind == "b" || t.kind == "x") && len(nums) == 2:
		t.off, t.bits = nums[0], nums[1]
	case t.kind == "a" && len(nums) == 3:
		t.off, t.bits, t.elem = nums[0], nums[1], int(nums[2])
	case t.kind == "o" && len(nums) == 1:
		t.elem = int(nums[0])
	case t.kind == "B" && len(nums) == 0:
	default:
		return t, fmt.Errorf("type %q", strings.Join(w, " "))
	}
	return t, nil
}

func (d derivation) apply(tabs []*table) (*table, error) {
	var t *table
	if d.from == 0 {
		// an edit of the build's own table, in place
		if t = find(tabs, d.base); t == nil {
			return nil, fmt.Errorf("edit %d: no such table", d.base)
		}
	} else {
		if find(tabs, d.base) != nil {
			return nil, fmt.Errorf("build %d has a table of its own", d.base)
		}
		from := find(tabs, d.from)
		if from == nil {
			return nil, fmt.Errorf("build %d: no table %d to derive from", d.base, d.from)
		}
		t = &table{base: d.base, derivedFrom: d.from, roots: from.roots,
			game: append([]event(nil), from.game...), message: append([]event(nil), from.message...), tracker: append([]event(nil), from.tracker...)}
		t.types = make([]typ, len(from.types))
		for i, ty := range from.types {
			t.types[i] = ty
			t.types[i].fields = append([]field(nil), ty.fields...)
		}
	}
	for i, ms := range d.drops {
		if i < 0 || i >= len(t.types) || t.types[i].kind != "s" {
			return nil, fmt.Errorf("build %d: type %d of %d is not a struct", d.base, i, d.from)
		}
		for _, m := range ms {
			k := -1
			for j, f := range t.types[i].fields {
				if f.name == m {
					k = j
				}
			}
			if k < 0 {
				return nil, fmt.Errorf("build %d: type %d of %d has no member %s", d.base, i, d.from, m)
			}
			t.types[i].fields = append(t.types[i].fields[:k], t.types[i].fields[k+1:]...)
		}
	}
	for i, ty := range d.types {
		if i < 0 || i >= len(t.types) {
			return nil, fmt.Errorf("build %d: no type %d in %d", d.base, i, d.from)
		}
		if ty.kind == "a" && (ty.elem < 0 || ty.elem >= len(t.types)) {
			return nil, fmt.Errorf("build %d: type %d refers to type %d", d.base, i, ty.elem)
		}
		t.types[i] = ty
	}
	for _, r := range d.retypes {
		if r.typ < 0 || r.typ >= len(t.types) || t.types[r.typ].kind != "s" {
			return nil, fmt.Errorf("build %d: type %d is not a struct", d.base, r.typ)
		}
		if r.to.kind == "o" || r.to.kind == "a" {
			if r.to.elem < 0 || r.to.elem >= len(t.types) {
				return nil, fmt.Errorf("build %d: retype refers to type %d", d.base, r.to.elem)
			}
		}
		k := -1
		for j, f := range t.types[r.typ].fields {
			if f.name == r.member {
				k = j
			}
		}
		if k < 0 {
			return nil, fmt.Errorf("build %d: type %d has no member %s", d.base, r.typ, r.member)
		}
		t.types = append(t.types, r.to)
		t.types[r.typ].fields = append([]field(nil), t.types[r.typ].fields...)
		t.types[r.typ].fields[k].typ = len(t.types) - 1
	}
	for _, a := range d.adds {
		if a.typ < 0 || a.typ >= len(t.types) || t.types[a.typ].kind != "s" {
			return nil, fmt.Errorf("build %d: type %d is not a struct", d.base, a.typ)
		}
		if (a.to.kind == "o" || a.to.kind == "a") && (a.to.elem < 0 || a.to.elem >= len(t.types)) {
			return nil, fmt.Errorf("build %d: add refers to type %d", d.base, a.to.elem)
		}
		fs := t.types[a.typ].fields
		k := -1
		for j, f := range fs {
			if f.name == a.after {
				k = j
			}
		}
		if k < 0 {
			return nil, fmt.Errorf("build %d: type %d has no member %s", d.base, a.typ, a.after)
		}
		t.types = append(t.types, a.to)
		// bit-packed streams ignore the tag; the versioned ones are not derived
		nf := field{name: a.member, typ: len(t.types) - 1, tag: -1}
		t.types[a.typ].fields = append(append(append([]field(nil), fs[:k+1]...), nf), fs[k+1:]...)
	}
	return t, nil
}
