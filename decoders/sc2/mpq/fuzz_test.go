package mpq

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// fuzzSeeds are small archives (each under 2 KB) of every kind the reader
// handles, so that mutations reach every branch without the fuzzer
// spending its time minimising large inputs.
func fuzzSeeds(t testing.TB) [][]byte {
	text := []byte(strings.Repeat("seed text, ", 500)) // 5,500 bytes: 2 sectors of 4096
	one := func(s spec) []byte { return s.build() }
	member := func(stored []byte, size int, flags uint32) spec {
		return spec{userData: []byte("u"), version: 1, shift: 3,
			blocks: []block{{stored: stored, size: uint32(size), flags: FlagExists | flags}},
			names:  []hashName{{"m", 0}}}
	}
	enc := member(nil, len(text), FlagCompress|FlagEncrypted|FlagFixKey)
	enc.blocks[0].stored = encryptMember(block{stored: sectored(text, 4096, zlibSector), size: uint32(len(text)), flags: enc.blocks[0].flags}, 44, "m", 4096)
	seeds := [][]byte{
		buildArchive(t, 1, map[string][]byte{"a": []byte("hi"), "b": bytes.Repeat([]byte("z"), 300)}, map[string]bool{"b": true}),
		buildArchive(t, 3, map[string][]byte{"(listfile)": []byte("x\r\n"), "x": []byte("data")}, nil),
		one(member(sectored(text, 4096, bzip2Sector), len(text), FlagCompress)),
		one(member(bzip2Sector(text), len(text), FlagCompress|FlagSingleUnit)),
		one(member(withCRC(sectored(text, 4096, zlibSector)), len(text), FlagCompress|FlagSectorCRC)),
		one(enc),
		one(spec{version: 0, shift: 3, tail: 40, blocks: []block{{stored: []byte("no user data"), size: 12, flags: FlagExists}}, names: []hashName{{"m", 0}}}),
		one(spec{userData: []byte("u"), version: 2, shift: 3, slots: 16, unused: hashDeleted,
			blocks: []block{listfile(3, "gone")}, names: []hashName{{"(listfile)", 0}, {"dup", 0}}}),
	}
	if b, err := os.ReadFile(filepath.Join(corpus.Samples(t, "sc2"), "broken-5.0.10-truncated.SC2Replay")); err == nil {
		seeds = append(seeds, b)
	}
	return seeds
}

func TestFuzzSeedsAreSmall(t *testing.T) {
	for i, s := range fuzzSeeds(t) {
		if len(s) > 2048 {
			t.Errorf("seed %d is %d bytes", i, len(s))
		}
		if _, err := Open(s, nil); err != nil && i < 8 {
			t.Errorf("seed %d: %v", i, err)
		}
	}
}

// FuzzMPQ checks the reader's contract on any bytes: no panic; an error is
// an *Error whose offset lies inside the data; an archive that opens is
// usable: its tables are as the header says, every member reads to its
// declared size or fails with such an *Error, never more, and its layout
// lies inside the file. The budget is scaled down so that no input costs
// more than a fraction of a megabyte.
func FuzzMPQ(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n := int64(len(data))
		check := func(what string, err error) {
			if err == nil {
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%s: %T %v is not an *mpq.Error", what, err, err)
			}
			if e.Off < 0 || e.Off > n {
				t.Fatalf("%s: %v: offset outside the %d bytes", what, err, n)
			}
			if e.Msg == "" {
				t.Fatalf("%s: error without a message", what)
			}
		}
		b := budget.New(n, model.Limits{Bytes: 256<<10 + 64*n, Steps: 1<<16 + 512*n})
		a, err := Open(data, b)
		check("Open", err)
		if err != nil {
			return
		}
		if a == nil {
			t.Fatal("no archive and no error")
		}
		if len(a.Hash) != int(a.Header.HashTableEntries) || len(a.Block) != int(a.Header.BlockTableEntries) || a.Offset < 0 || a.Offset >= n {
			t.Fatalf("tables %d/%d for a header of %d/%d, header at %d", len(a.Hash), len(a.Block), a.Header.HashTableEntries, a.Header.BlockTableEntries, a.Offset)
		}
		names, err := a.Files()
		check("Files", err)
		names = append(names, "m", "a", "b", "x", "replay.details")
		for i, name := range names {
			if i > 64 {
				break
			}
			got, err := a.ReadFile(name)
			check("ReadFile "+name, err)
			if bi := a.FindBlock(name); bi >= 0 && len(got) > int(a.Block[bi].FileSize) {
				t.Fatalf("%s: %d bytes for a declared %d", name, len(got), a.Block[bi].FileSize)
			}
		}
		for bi := range a.Block {
			if bi > 64 {
				break
			}
			got, err := a.ReadBlock("?", bi)
			check("ReadBlock", err)
			if err == nil && len(got) != int(a.Block[bi].FileSize) {
				t.Fatalf("block %d: %d bytes without an error, declared %d", bi, len(got), a.Block[bi].FileSize)
			}
			if len(got) > int(a.Block[bi].FileSize) {
				t.Fatalf("block %d: %d bytes, declared %d", bi, len(got), a.Block[bi].FileSize)
			}
		}
		parts, err := a.Layout(names)
		check("Layout", err)
		for _, p := range parts {
			if p.Off < 0 || p.Len < 0 || p.Off+p.Len > n {
				t.Fatalf("part %+v outside the %d bytes", p, n)
			}
		}
	})
}
