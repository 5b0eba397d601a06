package mpq

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
)

// Known hash values of "(hash table)" and "(block table)" as file keys,
// from the MPQ format's public description.
func TestHashString(t *testing.T) {
	cases := []struct {
		s    string
		kind uint32
		want uint32
	}{
		{"(hash table)", hashFileKey, 0xC3AF3770},
		{"(block table)", hashFileKey, 0xEC83B3A3},
	}
	for _, c := range cases {
		if got := hashString(c.s, c.kind); got != c.want {
			t.Errorf("hash(%q,%d) = %#x, want %#x", c.s, c.kind, got, c.want)
		}
	}
}

func corpusFiles(t testing.TB) []string {
	dir := corpus.Dir(t, "sc2")
	var files []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.Contains(strings.ToLower(p), ".sc2replay") || strings.HasSuffix(p, ".replay") {
			files = append(files, p)
		}
		return nil
	})
	return files
}

func TestCorpusOpen(t *testing.T) {
	ok, bad := 0, 0
	for _, p := range corpusFiles(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Open(data)
		if err != nil {
			bad++
			t.Logf("%s: %v", filepath.Base(p), err)
			continue
		}
		for _, w := range a.Warnings {
			t.Logf("%s: warning %v", filepath.Base(p), &w)
		}
		names, err := a.Files()
		if err != nil {
			t.Logf("%s: listfile: %v", filepath.Base(p), err)
		}
		for _, n := range names {
			if _, err := a.ReadFile(n); err != nil {
				t.Logf("%s: %v", filepath.Base(p), err)
			}
		}
		ok++
	}
	t.Logf("%d opened, %d failed", ok, bad)
}

// buildArchive makes a small archive with one stored file and one zlib
// file in a single sector, at format version v (0-3), with user data.
func buildArchive(t testing.TB, v uint16, files map[string][]byte, comp map[string]bool) []byte {
	const at = 0x200
	hsize := map[uint16]int{0: 32, 1: 44, 2: 68, 3: 208}[v]
	var body []byte
	type blk struct{ off, csize, size, flags uint32 }
	var blocks []blk
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		data := files[n]
		off := uint32(hsize + len(body))
		if comp[n] {
			var zb bytes.Buffer
			zw := zlib.NewWriter(&zb)
			zw.Write(data)
			zw.Close()
			sec := append([]byte{CompZlib}, zb.Bytes()...)
			tbl := make([]byte, 8)
			binary.LittleEndian.PutUint32(tbl, 8)
			binary.LittleEndian.PutUint32(tbl[4:], uint32(8+len(sec)))
			stored := append(tbl, sec...)
			body = append(body, stored...)
			blocks = append(blocks, blk{off, uint32(len(stored)), uint32(len(data)), FlagExists | FlagCompress})
		} else {
			body = append(body, data...)
			blocks = append(blocks, blk{off, uint32(len(data)), uint32(len(data)), FlagExists})
		}
	}
	nh := 16
	hw := make([]uint32, nh*4)
	for i := range hw {
		hw[i] = 0xFFFFFFFF
	}
	for bi, n := range names {
		i := hashString(n, hashTableOffset) % uint32(nh)
		for hw[4*i+3] != 0xFFFFFFFF {
			i = (i + 1) % uint32(nh)
		}
		hw[4*i], hw[4*i+1], hw[4*i+2], hw[4*i+3] = hashString(n, hashNameA), hashString(n, hashNameB), 0, uint32(bi)
	}
	bw := make([]uint32, 0, len(blocks)*4)
	for _, b := range blocks {
		bw = append(bw, b.off, b.csize, b.size, b.flags)
	}
	Encrypt(hw, hashString("(hash table)", hashFileKey))
	Encrypt(bw, hashString("(block table)", hashFileKey))
	hashOff := hsize + len(body)
	blockOff := hashOff + len(hw)*4
	out := make([]byte, at+blockOff+len(bw)*4)
	copy(out, "MPQ\x1b")
	binary.LittleEndian.PutUint32(out[4:], at)
	binary.LittleEndian.PutUint32(out[8:], at)
	binary.LittleEndian.PutUint32(out[12:], 3)
	copy(out[16:], "abc")
	h := out[at:]
	copy(h, "MPQ\x1a")
	binary.LittleEndian.PutUint32(h[4:], uint32(hsize))
	binary.LittleEndian.PutUint32(h[8:], uint32(len(out)-at))
	binary.LittleEndian.PutUint16(h[12:], v)
	binary.LittleEndian.PutUint16(h[14:], 3)
	binary.LittleEndian.PutUint32(h[16:], uint32(hashOff))
	binary.LittleEndian.PutUint32(h[20:], uint32(blockOff))
	binary.LittleEndian.PutUint32(h[24:], uint32(nh))
	binary.LittleEndian.PutUint32(h[28:], uint32(len(blocks)))
	copy(h[hsize:], body)
	for i, w := range hw {
		binary.LittleEndian.PutUint32(h[hashOff+4*i:], w)
	}
	for i, w := range bw {
		binary.LittleEndian.PutUint32(h[blockOff+4*i:], w)
	}
	return out
}

func TestBuiltArchives(t *testing.T) {
	files := map[string][]byte{
		"(listfile)": []byte("a.txt\r\nb.bin\r\n"),
		"a.txt":      []byte("hello, stored"),
		"b.bin":      bytes.Repeat([]byte("zlib "), 100),
	}
	for _, v := range []uint16{0, 1, 2, 3} {
		data := buildArchive(t, v, files, map[string]bool{"b.bin": true})
		a, err := Open(data)
		if err != nil {
			t.Fatalf("v%d: %v", v+1, err)
		}
		if a.Header.FormatVersion != v || a.Offset != 0x200 || string(a.UserData.Content) != "abc" || a.Header.SectorSize() != 4096 {
			t.Errorf("v%d: header %+v", v+1, a.Header)
		}
		names, err := a.Files()
		if err != nil || len(names) != 2 {
			t.Errorf("v%d: listfile %q %v", v+1, names, err)
		}
		for n, want := range files {
			got, err := a.ReadFile(n)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("v%d: %s = %q %v", v+1, n, got, err)
			}
		}
		if _, err := a.ReadFile("missing"); !NotFound(err) {
			t.Errorf("v%d: missing file: %v", v+1, err)
		}
	}
}

func TestErrorsNameFileAndOffset(t *testing.T) {
	data := buildArchive(t, 1, map[string][]byte{"b.bin": bytes.Repeat([]byte("x"), 5000)}, map[string]bool{"b.bin": true})
	a, err := Open(data)
	if err != nil {
		t.Fatal(err)
	}
	bi := a.FindBlock("b.bin")
	at := a.BlockAt(bi)
	data[at+8] = 0x77 // compression byte of the only sector
	_, err = a.ReadFile("b.bin")
	e, ok := err.(*Error)
	if !ok || e.File != "b.bin" || e.Off != at+8 {
		t.Errorf("got %v, want an error naming b.bin at %#x", err, at+8)
	}
	// tables past the end
	if _, err := Open(data[:0x220]); err == nil || !strings.Contains(err.Error(), "table") {
		t.Errorf("cut archive: %v", err)
	}
	if _, err := Open([]byte("MPQ")); err == nil {
		t.Error("3 bytes accepted")
	}
}

// TestCorpusTables asserts the MPQ header values EXPECTED.md's MANIFEST
// notes give: format v3 with 16384-byte sectors for the LotV files.
func TestCorpusTables(t *testing.T) {
	p := corpus.File(t, "sc2", "Blizzard__s2protocol/tests__s2replaystatsdata__2018-11-29_Z_iaguz_VS_P_Luneth.SC2Replay")
	data, _ := os.ReadFile(p)
	a, err := Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if a.Header.FormatVersionName() != 4 && a.Header.FormatVersionName() != 3 {
		t.Errorf("format version %d", a.Header.FormatVersionName())
	}
	if a.Header.SectorSize() != 16384 || a.Offset != 1024 {
		t.Errorf("sector %d offset %d", a.Header.SectorSize(), a.Offset)
	}
}

func FuzzMPQ(f *testing.F) {
	f.Add(buildArchive(f, 1, map[string][]byte{"a": []byte("hi"), "b": bytes.Repeat([]byte("z"), 300)}, map[string]bool{"b": true}))
	f.Add(buildArchive(f, 3, map[string][]byte{"(listfile)": []byte("x\n"), "x": []byte("data")}, nil))
	if files, _ := filepath.Glob(filepath.Join(corpus.Samples(f, "sc2"), "*.SC2Replay")); len(files) > 0 {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && len(b) < 20000 {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Open(data)
		if err != nil || a == nil {
			return
		}
		names, _ := a.Files()
		for _, n := range append(names, "a", "b", "x", "replay.details") {
			a.ReadFile(n)
		}
		for i := range a.Block {
			if i > 64 {
				break
			}
			a.ReadBlock("?", i)
		}
	})
}

func TestBuildRoundTrip(t *testing.T) {
	files := map[string][]byte{"replay.details": bytes.Repeat([]byte("details "), 1000), "tiny": []byte("t")}
	data := Build([]byte("header"), files, map[string]bool{"replay.details": true})
	a, err := Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if string(a.UserData.Content) != "header" {
		t.Errorf("user data %q", a.UserData.Content)
	}
	for n, want := range files {
		if got, err := a.ReadFile(n); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v", n, len(got), err)
		}
	}
	if names, _ := a.Files(); len(names) != 2 {
		t.Errorf("listfile %q", names)
	}
}
