package library

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// packFolder is a folder with a zip of the Slippi samples (and a text file
// the walk passes over), one sample as .slp.gz, and a zip with no replay.
func packFolder(t *testing.T) (dir string, names []string) {
	t.Helper()
	dir = t.TempDir()
	samples, _ := filepath.Glob("../testdata/samples/slippi/*.slp")
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, s := range samples {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := zw.Create("set/" + filepath.Base(s))
		w.Write(data)
		names = append(names, filepath.Join(dir, "pack.zip")+"/set/"+filepath.Base(s))
	}
	w, _ := zw.Create("README.txt")
	w.Write([]byte("gg"))
	zw.Close()
	os.WriteFile(filepath.Join(dir, "pack.zip"), zb.Bytes(), 0o644)
	data, _ := os.ReadFile(samples[0])
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	gw.Write(data)
	gw.Close()
	os.WriteFile(filepath.Join(dir, "one.slp.gz"), gb.Bytes(), 0o644)
	names = append(names, filepath.Join(dir, "one.slp.gz")+"/one.slp")
	var eb bytes.Buffer
	ew := zip.NewWriter(&eb)
	w, _ = ew.Create("photo.jpg")
	w.Write([]byte("not a replay"))
	ew.Close()
	os.WriteFile(filepath.Join(dir, "holiday.zip"), eb.Bytes(), 0o644)
	sort.Strings(names)
	return dir, names
}

// A folder's packs are walked as folders of their replays; the scan reads
// their headers and checks them, and the index keeps them by pack and
// member, so a second scan reads none.
func TestPacksScan(t *testing.T) {
	dir, want := packFolder(t)
	idx, err := OpenIndex(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	scan := func() (got []string, read int) {
		Scan(context.Background(), Paths([]string{dir}), ScanOptions{Index: idx, Ordered: true, Summaries: true}, func(h Header) bool {
			if h.Kind != File || h.Err != "" {
				t.Errorf("%s: %v %s", h.Path, h.Kind, h.Err)
			}
			if h.Format != "slippi" || h.Check == nil || h.Summary == nil {
				t.Errorf("%s: format %q, check %v, summary %v", h.Path, h.Format, h.Check, h.Summary)
			}
			got = append(got, h.Path)
			return true
		})
		sort.Strings(got)
		return got, 0
	}
	got, _ := scan()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("scanned\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	idx.Flush()
	// the index serves the next scan: every member the walk lists is
	// fresh there, by the pack's time and the member's size
	Walk([]string{dir}, func(e Entry) bool {
		if h, ok := idx.Get(e.Path, e.Size, e.ModTime); !ok || h.Summary == nil && h.Check == nil {
			t.Errorf("%s: not fresh in the index", e.Path)
		}
		return true
	})
}

// A pack named on the command line lists its replays; one with none in it
// is reported; a member path reads alone; a missing member is named.
func TestPacksNamed(t *testing.T) {
	dir, want := packFolder(t)
	var got []Entry
	Walk([]string{filepath.Join(dir, "pack.zip"), filepath.Join(dir, "holiday.zip"), want[0], filepath.Join(dir, "pack.zip", "nope.slp")},
		func(e Entry) bool { got = append(got, e); return true })
	if len(got) != len(want)-1+3 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	last := got[len(got)-3:]
	if last[0].Kind != Unreadable || !strings.Contains(last[0].Err.Error(), "no replay in it") {
		t.Errorf("holiday.zip: %+v", last[0])
	}
	if last[1].Kind != File || !last[1].Packed || last[1].Path != want[0] {
		t.Errorf("a member named: %+v", last[1])
	}
	if last[2].Kind != Unreadable || !strings.Contains(last[2].Err.Error(), "has no member set") && !strings.Contains(last[2].Err.Error(), "no member") {
		t.Errorf("a missing member: %+v", last[2])
	}
	h := ReadFull(got[0])
	if h.Err != "" || h.Check == nil || h.Summary == nil {
		t.Errorf("ReadFull of %s: %+v", got[0].Path, h)
	}
}
