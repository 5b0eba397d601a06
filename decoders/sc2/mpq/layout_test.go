package mpq

import (
	"os"
	"path/filepath"
	"testing"
)

// checkLayout asserts what holds for the layout of any archive: parts in
// file order, inside the file, never overlapping; one archive header and
// the two tables where the header says; each member's sectors numbered in
// order and adding up to its size.
func checkLayout(t *testing.T, name string, a *Archive, parts []Part) {
	t.Helper()
	kinds := map[PartKind]int{}
	size := map[int]int64{}
	next := map[int]int{}
	for i, p := range parts {
		kinds[p.Kind]++
		if p.Off < 0 || p.Len < 0 || p.Off+p.Len > int64(len(a.Data)) {
			t.Errorf("%s: part %d (%v) at %#x+%d is outside the file of %d bytes", name, i, p.Kind, p.Off, p.Len, len(a.Data))
		}
		if i > 0 && parts[i-1].Off+parts[i-1].Len > p.Off {
			t.Errorf("%s: part %d (%v %#x+%d) overlaps part %d (%v at %#x)", name, i-1, parts[i-1].Kind, parts[i-1].Off, parts[i-1].Len, i, p.Kind, p.Off)
		}
		if p.Kind == PartSector {
			if p.Sector != next[p.Block] {
				t.Errorf("%s: block %d lists sector %d after %d", name, p.Block, p.Sector, next[p.Block]-1)
			}
			next[p.Block]++
			size[p.Block] += p.Size
		}
	}
	for _, k := range []PartKind{PartHeader, PartHashTable, PartBlockTable} {
		if kinds[k] != 1 {
			t.Errorf("%s: %d parts of kind %v", name, kinds[k], k)
		}
	}
	for _, p := range parts {
		switch {
		case p.Kind == PartHeader && p.Off != a.Offset,
			p.Kind == PartHashTable && (p.Off != a.HashTableAt || p.Len != int64(a.Header.HashTableEntries)*16),
			p.Kind == PartBlockTable && (p.Off != a.BlockTableAt || p.Len != int64(a.Header.BlockTableEntries)*16):
			t.Errorf("%s: %v at %#x+%d is not where the header puts it", name, p.Kind, p.Off, p.Len)
		}
	}
	for bi, b := range a.Block {
		if b.Flags&FlagExists != 0 && b.FileSize > 0 && size[bi] != int64(b.FileSize) {
			t.Errorf("%s: block %d's sectors hold %d bytes, the block table says %d", name, bi, size[bi], b.FileSize)
		}
	}
}

// TestLayoutOfBuiltArchive: every part of an archive built here, where
// each offset is known from how it was built.
func TestLayoutOfBuiltArchive(t *testing.T) {
	text := make([]byte, 9000) // 3 sectors of 4096: 4096, 4096, 808
	for i := range text {
		text[i] = "abcdefgh"[i%8]
	}
	member := sectored(text, 4096, zlibSector)
	s := spec{userData: []byte("replay header"), version: 1, shift: 3, tail: 100,
		blocks: []block{
			{stored: member, size: uint32(len(text)), flags: FlagExists | FlagCompress},
			{stored: []byte("plain"), size: 5, flags: FlagExists},
		},
		names: []hashName{{"replay.details", 0}, {"plain.txt", 1}}}
	data := s.build()
	a := open(t, data)
	parts, err := a.Layout([]string{"replay.details", "plain.txt"})
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "built", a, parts)
	const at = 0x200 // the archive header: the user data rounded up to 512 bytes
	m0 := int64(at + 44)
	sec := func(i int) (int64, int64) { // a sector's offset and stored length, from the offset table
		lo, hi := int64(le32(member[4*i:])), int64(le32(member[4*i+4:]))
		return m0 + lo, hi - lo
	}
	s0, l0 := sec(0)
	s1, l1 := sec(1)
	s2, l2 := sec(2)
	end := int64(len(data) - 100)
	want := []Part{
		{Kind: PartUserData, Off: 0, Len: 16, Block: -1, Sector: -1, Size: 16},
		{Kind: PartUserContent, Off: 16, Len: 13, Block: -1, Sector: -1, Size: 13},
		{Kind: PartHeader, Off: at, Len: 44, Block: -1, Sector: -1, Size: 44},
		{Kind: PartSectorTable, Off: m0, Len: 16, Block: 0, Name: "replay.details", Sector: -1, Size: 16},
		{Kind: PartSector, Off: s0, Len: l0, Block: 0, Name: "replay.details", Sector: 0, Size: 4096, Comp: CompZlib},
		{Kind: PartSector, Off: s1, Len: l1, Block: 0, Name: "replay.details", Sector: 1, Size: 4096, Comp: CompZlib},
		{Kind: PartSector, Off: s2, Len: l2, Block: 0, Name: "replay.details", Sector: 2, Size: 808, Comp: CompZlib},
		{Kind: PartSector, Off: m0 + int64(len(member)), Len: 5, Block: 1, Name: "plain.txt", Sector: 0, Size: 5},
		{Kind: PartHashTable, Off: a.HashTableAt, Len: 16 * 16, Block: -1, Sector: -1, Size: 256},
		{Kind: PartBlockTable, Off: a.HashTableAt + 256, Len: 32, Block: -1, Sector: -1, Size: 32},
		{Kind: PartTrailing, Off: end, Len: 100, Block: -1, Sector: -1, Size: 100},
	}
	if len(parts) != len(want) {
		t.Fatalf("%d parts, want %d:\n%+v", len(parts), len(want), parts)
	}
	for i := range want {
		if parts[i] != want[i] {
			t.Errorf("part %d = %+v\n          want %+v", i, parts[i], want[i])
		}
	}
}

// TestLayoutOfDamage: a member whose offset table goes wrong lists its good
// sectors, then one part for the rest of its bytes saying why.
func TestLayoutOfDamage(t *testing.T) {
	text := make([]byte, 9000)
	member := sectored(text, 4096, zlibSector)
	putLE32(member[8:], 0xFFFF) // sector 1 ends far past the member
	s := spec{userData: []byte("u"), version: 1, shift: 3,
		blocks: []block{{stored: member, size: uint32(len(text)), flags: FlagExists | FlagCompress}},
		names:  []hashName{{"m", 0}}}
	a := open(t, s.build())
	parts, err := a.Layout([]string{"m"})
	if err != nil {
		t.Fatal(err)
	}
	var got []Part
	for _, p := range parts {
		if p.Block == 0 {
			got = append(got, p)
		}
	}
	if len(got) != 3 || got[1].Sector != 0 || got[2].Sector != 1 || got[2].Err == "" || got[2].Off+got[2].Len != a.BlockAt(0)+int64(len(member)) {
		t.Errorf("damaged member's parts: %+v", got)
	}
	if b, err := a.ReadFile("m"); len(b) != 4096 || err == nil {
		t.Errorf("read %d bytes, %v; want the first sector and an error", len(b), err)
	}
}

// TestLayoutOfSamples lists the parts of every sample: one sector part per
// 16 KiB (or 4 KiB) of each sectored member, every byte of the tables.
func TestLayoutOfSamples(t *testing.T) {
	for _, p := range sampleFiles(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		a, err := Open(data, nil)
		if err != nil {
			continue // the truncated sample: TestSampleFormatVersions covers it
		}
		names, _ := members(a)
		parts, err := a.Layout(names)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkLayout(t, name, a, parts)
		for _, pt := range parts {
			if pt.Kind == PartSector && pt.Name == "" {
				t.Errorf("%s: block %d has no name", name, pt.Block)
			}
			if pt.Err != "" {
				t.Errorf("%s: %s: %s", name, pt.Name, pt.Err)
			}
		}
	}
}

func TestLayoutOfCorpus(t *testing.T) {
	for _, p := range corpusFiles(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Open(data, nil)
		if err != nil {
			continue // the broken files: TestCorpusOpen
		}
		names, _ := members(a)
		parts, err := a.Layout(names)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		checkLayout(t, filepath.Base(p), a, parts)
	}
}
