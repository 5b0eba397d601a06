package mpq

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/corpus"
	"rewind/model"
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

// brokenCorpus are the corpus files that must not open, with the reason the
// corpus gives; every other file must open and read every member.
var brokenCorpus = map[string]string{
	"icza__mpq/reps__invalid.SC2Replay_":                                         "no MPQ signature", // a 20-byte junk file; icza/mpq TestInvalid expects failure
	"ipax77__s2protocol.NET/s2protocol.NET.tests__replays__testError2.SC2Replay": "(hash table)",     // truncated to 1232 bytes: the tables are gone
}

// sc2Members are the members of a replay, read even when the list file
// names fewer.
var sc2Members = []string{"replay.details", "replay.details.backup", "replay.attributes.events",
	"replay.initData", "replay.game.events", "replay.message.events", "replay.tracker.events",
	"replay.sync.events", "replay.sync.history", "replay.load.info", "replay.smartcam.events",
	"replay.resumable.events", "replay.server.battlelobby", "replay.gamemetadata.json", "(attributes)", "(listfile)"}

// members lists the names an archive's list file gives, then the SC2
// members it also holds.
func members(a *Archive) ([]string, error) {
	names, err := a.Files()
	seen := map[string]bool{}
	var all []string
	for _, n := range append(names, sc2Members...) {
		if !seen[n] && a.FindBlock(n) >= 0 {
			seen[n] = true
			all = append(all, n)
		}
	}
	return all, err
}

func TestCorpusOpen(t *testing.T) {
	dir := corpus.Dir(t, "sc2")
	opened := 0
	for _, p := range corpusFiles(t) {
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Open(data, budget.New(int64(len(data)), model.Limits{}))
		if want, broken := brokenCorpus[rel]; broken {
			var me *Error
			if !errors.As(err, &me) || !strings.Contains(err.Error(), want) || me.Off > int64(len(data)) {
				t.Errorf("%s: Open = %v, want an *Error about %q inside the file", rel, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		for _, w := range a.Warnings {
			t.Errorf("%s: warning %v", rel, &w)
		}
		names, err := members(a)
		if err != nil {
			t.Errorf("%s: list file: %v", rel, err)
		}
		if len(names) < 4 {
			t.Errorf("%s: only %d members found: %q", rel, len(names), names)
		}
		for _, n := range names {
			b, err := a.ReadFile(n)
			if err != nil {
				t.Errorf("%s: %v", rel, err)
			} else if bi := a.FindBlock(n); len(b) != int(a.Block[bi].FileSize) {
				t.Errorf("%s: %s is %d bytes, the block table says %d", rel, n, len(b), a.Block[bi].FileSize)
			}
		}
		opened++
	}
	if want := len(corpusFiles(t)) - len(brokenCorpus); opened != want {
		t.Errorf("%d files opened and read, want %d", opened, want)
	}
}

// archiveFacts are the MPQ values the corpus MANIFEST notes for a file:
// "mpq v3 sector=16384 comp=0x10" (v is the format version field as
// stored, 0-3; comp lists the compression bytes its sectors use).
type archiveFacts struct {
	version, sector int
	comps           string
}

var reManifestMPQ = regexp.MustCompile(`mpq v(\d) sector=(\d+) comp=([0-9a-fx+]+|none)`)

// The samples in testdata, with the corpus MANIFEST's notes of the files
// they were copied from (testdata/samples/sc2/MANIFEST.tsv names them).
var sampleFacts = map[string]archiveFacts{
	"wol-1.0.1-metalopolis.SC2Replay":           {1, 4096, "0x10"},
	"wol-1.1.3-kr-encrypted-listfile.SC2Replay": {1, 4096, "0x02+0x10"},
	"hots-2.0.8-tracker.SC2Replay":              {3, 16384, "0x10"},
	"lotv-3.1.0-dusktowers-vs-ai.SC2Replay":     {3, 16384, "0x10"},
	"lotv-4.3.0-backwater-vs-ai.SC2Replay":      {3, 16384, "0x10"},
	"lotv-5.0.15-winter-madness.SC2Replay":      {3, 16384, "0x10"},
	"broken-5.0.10-truncated.SC2Replay":         {3, 16384, "none"},
}

// checkFacts asserts a file's exact format version, header size, sector
// size and the compression bytes its sectors use (through Layout).
func checkFacts(t *testing.T, name string, data []byte, want archiveFacts) {
	t.Helper()
	a, err := Open(data, nil)
	if a == nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	h := a.Header
	// Format version field 1 is the 44-byte header of version 2, field 3
	// the 208-byte header of version 4 (the MPQ format's header sizes).
	wantHeader := map[int]uint32{0: 32, 1: 44, 2: 68, 3: 208}[want.version]
	if int(h.FormatVersion) != want.version || h.FormatVersionName() != want.version+1 || h.HeaderSize != wantHeader || h.SectorSize() != want.sector {
		t.Errorf("%s: format version field %d (version %d), header %d bytes, %d-byte sectors; want field %d, header %d, %d-byte sectors",
			name, h.FormatVersion, h.FormatVersionName(), h.HeaderSize, h.SectorSize(), want.version, wantHeader, want.sector)
	}
	if err != nil {
		if want.comps != "none" {
			t.Errorf("%s: %v", name, err)
		}
		return
	}
	names, _ := members(a)
	parts, err := a.Layout(names)
	if err != nil {
		t.Errorf("%s: layout: %v", name, err)
	}
	seen := map[byte]bool{}
	for _, p := range parts {
		if p.Comp != 0 {
			seen[p.Comp] = true
		}
	}
	var comps []string
	for c := range seen {
		comps = append(comps, fmt.Sprintf("0x%02x", c))
	}
	sort.Strings(comps)
	got := strings.Join(comps, "+")
	if got == "" {
		got = "none"
	}
	if got != want.comps {
		t.Errorf("%s: sectors compressed with %s, want %s", name, got, want.comps)
	}
}

func TestSampleFormatVersions(t *testing.T) {
	for _, p := range sampleFiles(t) {
		name := filepath.Base(p)
		want, ok := sampleFacts[name]
		if !ok {
			t.Errorf("%s: no expected values; add the corpus MANIFEST's", name)
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkFacts(t, name, data, want)
	}
}

// TestCorpusFormatVersions checks every corpus file against its MANIFEST
// notes.
func TestCorpusFormatVersions(t *testing.T) {
	dir := corpus.Dir(t, "sc2")
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 7 {
			continue
		}
		m := reManifestMPQ.FindStringSubmatch(cols[6])
		if m == nil {
			continue
		}
		v, _ := strconv.Atoi(m[1])
		ss, _ := strconv.Atoi(m[2])
		data, err := os.ReadFile(filepath.Join(dir, cols[0]))
		if err != nil {
			t.Errorf("%s: %v", cols[0], err)
			continue
		}
		checkFacts(t, cols[0], data, archiveFacts{v, ss, m[3]})
		checked++
	}
	if checked < 140 {
		t.Errorf("only %d MANIFEST rows carry MPQ notes", checked)
	}
}

func TestBuiltArchives(t *testing.T) {
	files := map[string][]byte{
		"(listfile)": []byte("a.txt\r\nb.bin\r\n"),
		"a.txt":      []byte("hello, stored"),
		"b.bin":      bytes.Repeat([]byte("zlib "), 100),
	}
	for _, v := range []uint16{0, 1, 2, 3} {
		data := buildArchive(t, v, files, map[string]bool{"b.bin": true})
		a := open(t, data)
		if a.Header.FormatVersion != v || a.Offset != 0x200 || string(a.UserData.Content) != "abc" || a.Header.SectorSize() != 4096 {
			t.Errorf("v%d: header %+v", v+1, a.Header)
		}
		if a.End != int64(len(data)) || len(a.Warnings) != 0 {
			t.Errorf("v%d: archive ends at %d of %d bytes; warnings %v", v+1, a.End, len(data), a.Warnings)
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

// TestSectorsOfEveryKind reads members stored each way the format allows:
// zlib and bzip2 sectors, single units, stored, encrypted (with and
// without the fixed key), with sector checksums, and a last sector
// shorter than the others.
func TestSectorsOfEveryKind(t *testing.T) {
	text := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog. ", 300)) // 13,500 bytes: 4 sectors of 4096
	noise := make([]byte, 5000)
	for i := range noise {
		noise[i] = byte(i * 7919 >> 3)
	}
	const ss = 4096
	cases := []struct {
		name  string
		data  []byte
		make  func(data []byte) []byte
		flags uint32
	}{
		{"zlib sectors", text, func(d []byte) []byte { return sectored(d, ss, zlibSector) }, FlagCompress},
		{"bzip2 sectors", text, func(d []byte) []byte { return sectored(d, ss, bzip2Sector) }, FlagCompress},
		{"bzip2 single unit", text, bzip2Sector, FlagCompress | FlagSingleUnit},
		{"zlib single unit", text, zlibSector, FlagCompress | FlagSingleUnit},
		{"stored", text, func(d []byte) []byte { return d }, 0},
		{"stored single unit", noise, func(d []byte) []byte { return d }, FlagSingleUnit},
		{"sectors that do not compress", noise, func(d []byte) []byte { return sectored(d, ss, zlibSector) }, FlagCompress},
		{"sector checksums", text, func(d []byte) []byte { return withCRC(sectored(d, ss, zlibSector)) }, FlagCompress | FlagSectorCRC},
	}
	for _, c := range cases {
		for _, enc := range []uint32{0, FlagEncrypted, FlagEncrypted | FlagFixKey} {
			name := fmt.Sprintf("%s, flags %#x", c.name, enc)
			const member = "dir\\member.bin"
			s := spec{userData: []byte("u"), version: 1, shift: 3}
			b := block{stored: c.make(c.data), size: uint32(len(c.data)), flags: FlagExists | c.flags | enc}
			if enc != 0 {
				b.stored = encryptMember(b, 44, member, ss)
			}
			s.blocks = []block{b}
			s.names = []hashName{{member, 0}}
			data := s.build()
			a := open(t, data)
			got, err := a.ReadFile(member)
			if err != nil || !bytes.Equal(got, c.data) {
				t.Errorf("%s: %d bytes, %v", name, len(got), err)
			}
			parts, err := a.Layout([]string{member})
			if err != nil {
				t.Errorf("%s: layout: %v", name, err)
			}
			checkLayout(t, name, a, parts)
		}
	}
}

// withCRC adds a checksum entry to a sector offset table (the checksums
// themselves, 4 bytes a sector, follow the last sector; their values are
// not checked by the reader).
func withCRC(stored []byte) []byte {
	n := int(le32(stored))/4 - 1 // sectors
	tbl := make([]byte, 4*(n+2))
	body := stored[4*(n+1):]
	for i := 0; i <= n; i++ {
		putLE32(tbl[4*i:], le32(stored[4*i:])+4)
	}
	end := le32(tbl[4*n:])
	putLE32(tbl[4*(n+1):], end+uint32(4*n))
	return append(append(tbl, body...), make([]byte, 4*n)...)
}

// encryptMember encrypts a block's stored bytes as the format does: the
// offset table with key-1, each sector with key+i (a single unit with key).
func encryptMember(b block, off uint32, name string, ss int) []byte {
	key := FileKey(name, BlockEntry{Offset: off, FileSize: b.size, Flags: b.flags})
	out := append([]byte(nil), b.stored...)
	enc := func(p []byte, k uint32) {
		w := make([]uint32, len(p)/4)
		for i := range w {
			w[i] = le32(p[4*i:])
		}
		Encrypt(w, k)
		for i, v := range w {
			putLE32(p[4*i:], v)
		}
	}
	switch {
	case b.flags&FlagSingleUnit != 0:
		enc(out, key)
	case b.flags&FlagCompress == 0:
		for i := 0; i*ss < len(out); i++ {
			enc(out[i*ss:min(len(out), (i+1)*ss)], key+uint32(i))
		}
	default:
		n := (int(b.size) + ss - 1) / ss
		entries := n + 1
		if b.flags&FlagSectorCRC != 0 {
			entries++
		}
		offs := make([]uint32, entries)
		for i := range offs {
			offs[i] = le32(out[4*i:])
		}
		for i := 0; i < n; i++ {
			enc(out[offs[i]:offs[i+1]], key+uint32(i))
		}
		enc(out[:4*entries], key-1)
	}
	return out
}

func putLE32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

func TestErrorsNameFileAndOffset(t *testing.T) {
	data := buildArchive(t, 1, map[string][]byte{"b.bin": bytes.Repeat([]byte("x"), 5000)}, map[string]bool{"b.bin": true})
	a := open(t, data)
	bi := a.FindBlock("b.bin")
	at := a.BlockAt(bi)
	second := at + int64(le32(data[at+4:]))
	data[second] = 0x77 // compression byte of the second sector
	b, err := a.ReadFile("b.bin")
	e, ok := err.(*Error)
	if !ok || e.File != "b.bin" || e.Off != second || !strings.Contains(e.Msg, "0x77") {
		t.Errorf("got %v, want an error naming b.bin and 0x77 at the second sector (%#x)", err, second)
	}
	if len(b) != 4096 {
		t.Errorf("read %d bytes, want the first sector's 4096", len(b))
	}
	// tables past the end
	if _, err := Open(data[:0x220], nil); err == nil || !strings.Contains(err.Error(), "table") {
		t.Errorf("cut archive: %v", err)
	}
	if _, err := Open([]byte("MPQ"), nil); err == nil {
		t.Error("3 bytes accepted")
	}
}

// TestTrailingBytes: bytes after the end the archive header gives are
// reported at that end, and Extent finds the end from the file's first
// bytes alone.
func TestTrailingBytes(t *testing.T) {
	for _, v := range []uint16{1, 3} {
		s := spec{userData: []byte("header"), version: v, shift: 3, tail: 3000,
			blocks: []block{{stored: []byte("data"), size: 4, flags: FlagExists}}, names: []hashName{{"f", 0}}}
		data := s.build()
		end := int64(len(data) - 3000)
		a := open(t, data)
		if a.End != end || len(a.Warnings) != 1 || a.Warnings[0].Off != end ||
			!strings.Contains(a.Warnings[0].Msg, "3000 bytes after the end of the archive") {
			t.Errorf("v%d: end %d (want %d), warnings %v", v, a.End, end, a.Warnings)
		}
		if got, err := a.ReadFile("f"); err != nil || string(got) != "data" {
			t.Errorf("v%d: member %q %v", v, got, err)
		}
		// Extent from the first bytes: first too few, then enough
		e, need, err := Extent(data[:20])
		if err != nil || need <= 20 {
			t.Fatalf("v%d: Extent(20 bytes) = %d, need %d, %v", v, e, need, err)
		}
		e, need, err = Extent(data[:need])
		if err != nil || need != 0 || e != end {
			t.Errorf("v%d: Extent = %d, need %d, %v; want %d", v, e, need, err, end)
		}
	}
	if _, _, err := Extent([]byte("PK\x03\x04")); err == nil {
		t.Error("Extent accepted a zip")
	}
	// a size field that ends the archive before its tables is not taken
	// for trailing bytes
	s := spec{userData: []byte("header"), version: 1, shift: 3,
		blocks: []block{{stored: []byte("data"), size: 4, flags: FlagExists}}, names: []hashName{{"f", 0}}}
	data := s.build()
	putLE32(data[0x200+8:], 100)
	a := open(t, data)
	if a.End != int64(len(data)) || len(a.Warnings) != 1 || a.Warnings[0].Off != 0x208 || !strings.Contains(a.Warnings[0].Msg, "but its tables end at") {
		t.Errorf("archive size 100: end %d of %d, warnings %v", a.End, len(data), a.Warnings)
	}
}

// TestConcurrentReads reads every member of a real file from many
// goroutines over one archive and one budget (run with -race).
func TestConcurrentReads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "sc2"), "lotv-5.0.15-winter-madness.SC2Replay"))
	if err != nil {
		t.Fatal(err)
	}
	a := open(t, data)
	names, _ := members(a)
	want := map[string][]byte{}
	for _, n := range names {
		want[n], _ = a.ReadFile(n)
	}
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func() {
			for _, n := range names {
				got, err := a.ReadFile(n)
				if err == nil && !bytes.Equal(got, want[n]) {
					err = fmt.Errorf("%s differs", n)
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
