package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// repairTime is the modification time the tests give a file before its
// repair, so Slippi's estimated startAt, and the report, are stable.
var repairTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// stage copies a file into dir with the fixed modification time.
func stage(t *testing.T, dir, src string, data []byte) string {
	t.Helper()
	if data == nil {
		var err error
		if data, err = os.ReadFile(src); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, repairTime, repairTime); err != nil {
		t.Fatal(err)
	}
	return p
}

// onlyFiles lists a folder, failing on a leftover temporary file.
func onlyFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
		names = append(names, e.Name())
	}
	return names
}

func TestRepairHelp(t *testing.T) {
	for _, args := range [][]string{{"repair", "--help"}, {"repair", "-h"}, {"help", "repair"}} {
		r := rewind(t, args...)
		r.want(t, strings.Join(args, " "), 0, "")
		golden(t, "help-repair.txt", r.stdout)
	}
}

// TestRepairSlippi repairs the corpus's cut recording (corrupt.slp: raw
// length 0, cut inside the gecko list) through the binary: the report
// (golden), a new file that checks clean, nothing else left in the folder.
func TestRepairSlippi(t *testing.T) {
	dir := t.TempDir()
	in := stage(t, dir, corrupt, nil)
	out := filepath.Join(dir, "fixed.slp")
	r := rewindWith(t, runOpts{dir: dir}, "repair", filepath.Base(in), "-o", "fixed.slp")
	r.want(t, "repair corrupt.slp", 0, "")
	golden(t, "repair-corrupt.txt", r.stdout)
	c := rewind(t, "check", out)
	c.want(t, "check fixed.slp", 0, "")
	if !strings.Contains(c.stdout, "slippi               1       1") {
		t.Errorf("check of the repaired file:\n%s", c.stdout)
	}
	st, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("repaired file mode %v, want 0644", st.Mode().Perm())
	}
	if names := onlyFiles(t, dir); len(names) != 2 {
		t.Errorf("folder holds %v, want the input and fixed.slp", names)
	}
	// the input is untouched
	if b, _ := os.ReadFile(in); !bytes.Equal(b, mustRead(t, corrupt)) {
		t.Error("the input changed")
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRepairEveryFormat repairs a damaged file of each format with a
// repair, through the binary, and checks the result with `rewind check`.
func TestRepairEveryFormat(t *testing.T) {
	dir := t.TempDir()
	bsor := mustRead(t, "testdata/samples/bsor/easy-full-play.bsor")
	tee := mustRead(t, "testdata/samples/teehistorian/idle_clean_shutdown.teehistorian")
	gci := append([]byte(nil), mustRead(t, "testdata/samples/fzgx/time-attack.gci")...)
	gci[0x41] ^= 0x20
	sc2 := append([]byte(nil), mustRead(t, "testdata/samples/sc2/lotv-5.0.15-winter-madness.SC2Replay")...)
	for i := 80000; i < 80008; i++ { // inside the tracker events' compressed sectors
		sc2[i] ^= 0xA5
	}
	for _, tt := range []struct {
		file string
		data []byte
		want []string
	}{
		{"testdata/samples/bsor/easy-full-play.bsor", bsor[:len(bsor)/2], []string{"fixed        frames count 2,682 ->", "synthesised  empty sections 2 (notes)"}},
		{"testdata/samples/teehistorian/idle_clean_shutdown.teehistorian", tee[:len(tee)-1], []string{"synthesised  FINISH (0x40)"}},
		{"testdata/samples/fzgx/time-attack.gci", gci, []string{"fixed        checksum at 0x40:"}},
		{"testdata/samples/sc2/lotv-5.0.15-winter-madness.SC2Replay", sc2, []string{"cut          replay.tracker.events:", "synthesised  a new archive"}},
		{"testdata/samples/slippi/tests__data__v3.18.slp", nil, nil}, // whole
	} {
		in := stage(t, dir, tt.file, tt.data)
		out := in + ".fixed"
		r := rewind(t, "repair", in, "-o", out)
		r.want(t, "repair "+tt.file, 0, "")
		if tt.want == nil {
			if !strings.Contains(r.stdout, "needs no repair") || !strings.Contains(r.stdout, "nothing written") {
				t.Errorf("%s: %s", tt.file, r.stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s: a whole replay was written", tt.file)
			}
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%s: report lacks %q:\n%s", tt.file, w, r.stdout)
			}
		}
		rewind(t, "check", out).want(t, "check "+out, 0, "")
	}
	onlyFiles(t, dir)
}

// TestRepairRefusals: the command line's and the files' mistakes, one
// sentence each, exit 2, nothing written and nothing replaced.
func TestRepairRefusals(t *testing.T) {
	dir := t.TempDir()
	in := stage(t, dir, corrupt, nil)
	existing := filepath.Join(dir, "existing.slp")
	os.WriteFile(existing, []byte("keep me"), 0o644)
	link := filepath.Join(dir, "link.slp")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.slp")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	gci := mustRead(t, "testdata/samples/fzgx/time-attack.gci")
	cutGCI := filepath.Join(dir, "cut.gci")
	os.WriteFile(cutGCI, gci[:20000], 0o644)
	const p = "rewind repair: "
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"repair"}, 2, p + "name the replay to repair, like rewind repair broken.slp -o fixed.slp"},
		{[]string{"repair", in}, 2, p + "name the new file with -o OUT; rewind never repairs a replay in place"},
		{[]string{"repair", in, in, "-o", "x"}, 2, p + "repairs one replay, and 2 were given"},
		{[]string{"repair", in, "-o"}, 2, p + "-o needs a value, like -o fixed.slp"},
		{[]string{"repair", in, "-o", in}, 2, p + "-o " + in + " is the replay being repaired (the same file through another path or a hard link); rewind never writes to the file it reads"},
		{[]string{"repair", in, "-o", link}, 2, p + "-o " + link + " is the replay being repaired (the same file through a symlink); rewind never writes to the file it reads"},
		{[]string{"repair", in, "-o", hard, "--force"}, 2, p + "-o " + hard + " is the replay being repaired (the same file through another path or a hard link); rewind never writes to the file it reads"},
		{[]string{"repair", in, "-o", existing}, 2, p + "-o " + existing + " exists; add --force to replace it"},
		{[]string{"repair", in, "-o", dir}, 2, p + "-o " + dir + " is a folder; name the new file, like -o " + filepath.Join(dir, "repaired.slp")},
		{[]string{"repair", in, "-o", filepath.Join(dir, "no", "such", "x.slp")}, 2, p + "-o " + filepath.Join(dir, "no", "such", "x.slp") + ": its folder " + filepath.Join(dir, "no", "such") + " does not exist"},
		{[]string{"repair", filepath.Join(dir, "missing.slp"), "-o", "x"}, 2, p + filepath.Join(dir, "missing.slp") + ": no such file"},
		{[]string{"repair", dir, "-o", "x"}, 2, p + dir + " is a folder, not a regular file; rewind reads only regular files"},
		{[]string{"repair", "testdata/samples/slippi/MANIFEST.tsv", "-o", "x"}, 2, p + `testdata/samples/slippi/MANIFEST.tsv: not a replay: a text file beginning "file\tsource path in the corpus\toriginal …"`},
		{[]string{"repair", "testdata/samples/sc2/broken-5.0.10-truncated.SC2Replay", "-o", filepath.Join(dir, "x")}, 1, p + "could not repair testdata/samples/sc2/broken-5.0.10-truncated.SC2Replay: the archive's tables are lost (table offset 0x8d0 is past the end of the file (1232 bytes)): no member can be found, so nothing but the replay header survives"},
		{[]string{"repair", "decoders/fzgx/testdata/emblem-falcon.gci", "-o", filepath.Join(dir, "x")}, 2, p + "decoders/fzgx/testdata/emblem-falcon.gci: fzgx: at 0x42: this is an F-Zero GX emblem save (file type 04 01), not a replay (05 04)"},
		{[]string{"repair", cutGCI, "-o", filepath.Join(dir, "x.gci")}, 1, p + "could not repair " + cutGCI + ": recomputing the checksum leaves a problem, and rewind does not rewrite the replay data: fzgx: block count at 0x38: file size does not match the block count (expected 24640 bytes (0x40 + 3 blocks of 0x2000), found 20000 bytes)"},
	} {
		r := rewind(t, tt.args...)
		r.want(t, strings.Join(tt.args, " "), tt.code, tt.stderr+"\n")
		if r.stdout != "" {
			t.Errorf("%v: stdout %q", tt.args, r.stdout)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Error("an existing OUT was replaced without --force")
	}
	if b, _ := os.ReadFile(in); !bytes.Equal(b, mustRead(t, corrupt)) {
		t.Error("the input changed")
	}
	names := onlyFiles(t, dir)
	if len(names) != 5 { // corrupt, existing, link, hard, cut.gci
		t.Errorf("folder holds %v", names)
	}
}

// TestRepairForceAndWhole: --force replaces OUT; a whole replay writes
// nothing, or with --force an identical copy.
func TestRepairForceAndWhole(t *testing.T) {
	dir := t.TempDir()
	in := stage(t, dir, corrupt, nil)
	out := filepath.Join(dir, "out.slp")
	os.WriteFile(out, []byte("old"), 0o644)
	rewind(t, "repair", in, "-o", out, "--force").want(t, "repair --force", 0, "")
	if b := mustRead(t, out); string(b) == "old" || !bytes.HasPrefix(b, []byte("{U\x03raw[$U#l")) {
		t.Error("--force did not replace OUT with the repair")
	}
	whole := stage(t, dir, netplay, nil)
	copyOut := filepath.Join(dir, "copy.slp")
	r := rewind(t, "repair", whole, "-o", copyOut, "--force")
	r.want(t, "repair whole --force", 0, "")
	if !strings.Contains(r.stdout, "needs no repair") || !strings.Contains(r.stdout, "copied it to "+copyOut+" (--force)") {
		t.Errorf("stdout: %s", r.stdout)
	}
	if !bytes.Equal(mustRead(t, copyOut), mustRead(t, whole)) {
		t.Error("the --force copy of a whole replay differs from it")
	}
}

// TestRepairJSON: --json writes one object a script reads.
func TestRepairJSON(t *testing.T) {
	dir := t.TempDir()
	in := stage(t, dir, corrupt, nil)
	r := rewind(t, "repair", in, "-o", filepath.Join(dir, "o.slp"), "--json")
	r.want(t, "repair --json", 0, "")
	var j map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	checkKeys(t, "repair", j, nil)
	facts, _ := j["facts"].(map[string]any)
	// corrupt.slp (MANIFEST.tsv): v3.7.0, cut inside the gecko list after
	// Game Start, so no frame; a 3.7.0 game without a result is a No Contest
	if j["status"] != "repaired" || j["format"] != "slippi" || j["frames"] != 0.0 || facts["gameEndMethod"] != 7.0 || facts["lastFrame"] != -124.0 {
		t.Errorf("json: %s", r.stdout)
	}
	steps, _ := j["steps"].([]any)
	if len(steps) < 4 {
		t.Errorf("steps: %v", steps)
	}
	cut := filepath.Join(dir, "cut.gci")
	os.WriteFile(cut, mustRead(t, "testdata/samples/fzgx/time-attack.gci")[:20000], 0o644)
	r = rewind(t, "repair", cut, "-o", filepath.Join(dir, "o.gci"), "--json")
	if r.code != 1 || !strings.Contains(r.stdout, `"status":"failed"`) {
		t.Errorf("failed repair --json: exit %d %s", r.code, r.stdout)
	}
}
