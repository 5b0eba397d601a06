package cli

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tournament pack of 12 replays lists 12 in info and check decodes the
// 12; a .slp.gz reads as its replay; dump takes a member's path.
func TestPackedReplays(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, pat := range []string{"testdata/samples/slippi/*.slp", "testdata/samples/bsor/*.bsor"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	files = files[:12]
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := zw.Create(filepath.Join("round "+string(rune('1'+i%3)), filepath.Base(f)))
		w.Write(data)
	}
	zw.Close()
	zpath := filepath.Join(dir, "pack.zip")
	os.WriteFile(zpath, zb.Bytes(), 0o644)

	info := rewind(t, "info", "--json", zpath)
	info.want(t, "info pack.zip", 0, "")
	if n := strings.Count(info.stdout, `"path":"`+zpath+"/round "); n != 12 {
		t.Errorf("info lists %d members, want 12:\n%s", n, info.stdout)
	}
	check := rewind(t, "check", "--json", zpath)
	if check.code > 1 || !strings.Contains(check.stdout, `"total":{"files":12,`) {
		t.Errorf("check: exit %d\n%s%s", check.code, check.stdout, check.stderr)
	}

	data, _ := os.ReadFile(netplay)
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	gw.Write(data)
	gw.Close()
	gpath := filepath.Join(dir, "netplay.slp.gz")
	os.WriteFile(gpath, gb.Bytes(), 0o644)
	r := rewind(t, "info", gpath)
	r.want(t, "info .slp.gz", 0, "")
	if !strings.Contains(r.stdout, "Slippi 3.7.0") || !strings.Contains(r.stdout, gpath+"/netplay.slp") {
		t.Errorf("info of a .slp.gz:\n%s", r.stdout)
	}
	d := rewind(t, "dump", gpath+"/netplay.slp")
	d.want(t, "dump of a member", 0, "")
	if !strings.Contains(d.stdout, `"version":"3.7.0"`) {
		t.Errorf("dump of a member: %.300s", d.stdout)
	}
	miss := rewind(t, "dump", zpath+"/round 1/missing.slp")
	if miss.code != 2 || !strings.Contains(miss.stderr, "missing.slp") {
		t.Errorf("a missing member: exit %d %q", miss.code, miss.stderr)
	}
}
