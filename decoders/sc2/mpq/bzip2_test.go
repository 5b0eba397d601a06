package mpq

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dsnet/compress/bzip2"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// bzipped compresses data with dsnet's writer at a level.
func bzipped(t testing.TB, data []byte, level int) []byte {
	var b bytes.Buffer
	w, err := bzip2.NewWriter(&b, &bzip2.WriterConfig{Level: level})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBzip2LikeDsnet: whatever a sector holds, unbzip2 (bzDecoder, then
// dsnet when it refuses) gives the bytes and the error dsnet alone gives,
// and bzDecoder takes the well-formed streams itself.
func TestBzip2LikeDsnet(t *testing.T) {
	text := bytes.Repeat([]byte("SC2 tracker events\x00\x00\x00\x00\x00\x01\x02"), 3000)
	runs := append(bytes.Repeat([]byte{7}, 1000), bytes.Repeat([]byte{1, 1, 1, 1, 2}, 200)...)
	two := make([]byte, 250_000) // two blocks at level 1
	for i := range two {
		two[i] = byte(i * i >> 7)
	}
	good := bzipped(t, text, 9)
	crc := append([]byte(nil), good...)
	crc[len(crc)/2] ^= 0x10
	tests := []struct {
		name string
		src  []byte
		size int
		fast bool // bzDecoder takes it
	}{
		{"text", good, len(text), true},
		{"runs of four and more", bzipped(t, runs, 1), len(runs), true},
		{"two blocks", bzipped(t, two, 1), len(two), true},
		{"two streams", append(bzipped(t, text[:100], 1), bzipped(t, text[100:300], 1)...), 300, true},
		{"empty", bzipped(t, nil, 1), 0, true},
		{"declared size too small", good, len(text) - 1, false},
		{"declared size too large", good, len(text) + 1, false},
		{"damaged", crc, len(text), false},
		{"cut", good[:len(good)-3], len(text), false},
		{"trailing bytes", append(append([]byte(nil), good...), 0, 0), len(text), false},
		{"not bzip2", []byte("BZx9 nothing"), 10, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, werr := unbzip2Dsnet([]byte("head"), tt.size, tt.size+4, tt.src)
			got, gerr := unbzip2([]byte("head"), tt.size, tt.size+4, tt.src)
			if !bytes.Equal(got, want) || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
				t.Errorf("got %d bytes, %v; dsnet %d bytes, %v", len(got), gerr, len(want), werr)
			}
			var z bzDecoder
			if _, ok := z.decode([]byte("head"), tt.size, tt.size+4, tt.src); ok != tt.fast {
				t.Errorf("bzDecoder took it: %v, want %v", ok, tt.fast)
			}
		})
	}
}

// TestBzip2ErrorsSayBzip2Once: a damaged sector's error names the method
// once ("bzip2: corrupted input ..."), not "bzip2: bzip2: ...".
func TestBzip2ErrorsSayBzip2Once(t *testing.T) {
	text := bytes.Repeat([]byte("SC2 tracker events\x00\x01\x02"), 3000)
	good := bzipped(t, text, 9)
	for _, src := range [][]byte{
		append([]byte("BZh9"), bytes.Repeat([]byte{0x55}, 40)...), // a header, then no block
		func() []byte { b := append([]byte(nil), good...); b[len(b)/2] ^= 0x10; return b }(),
		good[:len(good)/2],
	} {
		_, err := decompress(nil, len(text), len(text), append([]byte{CompBzip2}, src...))
		if err == nil {
			t.Fatal("a damaged stream read")
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "bzip2") || strings.Count(msg, "bzip2") != 1 {
			t.Errorf("%q: want the method named once", msg)
		}
	}
}

// bzSector is one bzip2-compressed sector of a corpus file.
type bzSector struct {
	where string // file, member and offset, for a failure
	src   []byte // after the compression byte
	size  int
}

// corpusBzip2Sectors lists every bzip2 sector of the corpus's readable,
// unencrypted members.
func corpusBzip2Sectors(tb testing.TB) []bzSector {
	var out []bzSector
	for _, p := range corpusFiles(tb) {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		a, err := Open(data, budget.New(int64(len(data)), model.Limits{}))
		if a == nil || err != nil {
			continue
		}
		names, _ := members(a)
		for _, name := range names {
			bi := a.FindBlock(name)
			if bi < 0 || a.Block[bi].Flags&FlagEncrypted != 0 {
				continue
			}
			secs, err := a.sectors(name, bi, a.key(name, bi))
			if err != nil {
				continue
			}
			for _, s := range secs {
				if s.Compressed() && data[s.Off] == CompBzip2 {
					out = append(out, bzSector{fmt.Sprintf("%s %s sector at %#x", p, name, s.Off), data[s.Off+1 : s.Off+s.Len], s.Size})
				}
			}
		}
	}
	return out
}

// TestBzip2CorpusFast: every bzip2 sector of the corpus is taken by
// bzDecoder, with the bytes dsnet gives.
func TestBzip2CorpusFast(t *testing.T) {
	var z bzDecoder
	n := 0
	for _, s := range corpusBzip2Sectors(t) {
		want, err := unbzip2Dsnet(nil, s.size, s.size, s.src)
		if err != nil {
			continue // damaged in the corpus on purpose
		}
		got, ok := z.decode(nil, s.size, s.size, s.src)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("%s: taken %v, %d bytes, dsnet %d", s.where, ok, len(got), len(want))
		}
		n++
	}
	if n == 0 {
		t.Fatal("no bzip2 sectors in the corpus")
	}
}

// BenchmarkBzip2Corpus decodes every bzip2 sector of the corpus: with
// bzDecoder (as unbzip2 does; lean, as a check does) and with dsnet's
// reader alone.
func BenchmarkBzip2Corpus(b *testing.B) {
	secs := corpusBzip2Sectors(b)
	for _, bm := range []struct {
		name string
		f    func(out []byte, size, limit int, src []byte) ([]byte, error)
	}{{"unbzip2", unbzip2}, {"lean", func(out []byte, size, limit int, src []byte) ([]byte, error) {
		return unbzip2As(out, size, limit, src, true)
	}}, {"dsnet", unbzip2Dsnet}} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			var out []byte
			for range b.N {
				for _, s := range secs {
					out, _ = bm.f(out[:0], s.size, s.size, s.src)
				}
			}
		})
	}
}

// FuzzBzip2LikeDsnet: on any bytes, unbzip2 gives what dsnet alone gives
// (bytes and error), and bzDecoder takes only what dsnet decodes without
// an error, to the same bytes. A run's time goes with the bytes a stream
// holds (four decodes of them), so the seeds hold little: 80 copies of
// the text are just past the block a lean decode holds in its 2.5-byte
// arrays (more than mappedBlock entries, size + size/4 + 16 > 4096: 76
// copies and more).
func FuzzBzip2LikeDsnet(f *testing.F) {
	text := []byte("SC2 replay.tracker.events \x00\x00\x00\x00\x00\x07\x07\x07\x07\x07\x07 units")
	f.Add(bzipped(f, text, 1), uint16(len(text)))
	f.Add(bzipped(f, bytes.Repeat(text, 20), 1), uint16(20*len(text)))
	f.Add(bzipped(f, bytes.Repeat(text, 80), 1), uint16(80*len(text))) // a lean decode's 2.5-byte block
	f.Add(append(bzipped(f, text[:9], 1), bzipped(f, text[9:], 1)...), uint16(len(text)))
	// one bzDecoder for every run, as unbzip2's are kept between sectors:
	// a new one would make (and, past keptBlock entries, map outside the
	// heap and never give back) its block array in every run
	var z bzDecoder
	f.Fuzz(func(t *testing.T, src []byte, size uint16) {
		n := int(size)
		fast, ok := z.decode(nil, n, n, src)
		want, werr := unbzip2Dsnet([]byte("x"), n, n+1, src)
		if ok && (werr != nil || !bytes.Equal(fast, want[1:])) {
			t.Fatalf("bzDecoder took a stream dsnet gives %d bytes and %v for", len(want)-1, werr)
		}
		// A lean decode differs from the other only in a block of more
		// than mappedBlock entries, and no block of a stream of n bytes
		// has more than z.blockMax (set by the decode above): below, the
		// lean run would repeat the other, dsnet's fallback included,
		// which on a damaged prefix code can take 20 ms.
		leans := []bool{false, true}
		if z.blockMax <= mappedBlock {
			leans = leans[:1]
		}
		for _, lean := range leans {
			got, gerr := unbzip2As([]byte("x"), n, n+1, src, lean)
			if !bytes.Equal(got, want) || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
				t.Fatalf("unbzip2 (lean %v) %d bytes, %v; dsnet %d bytes, %v", lean, len(got), gerr, len(want), werr)
			}
		}
	})
}

// TestBzCRC: the 8-bytes-a-step CRC equals the byte-a-step definition on
// every length and alignment (a wrong CRC would send every stream to the
// fallback decoder, and only speed would show it), and the check value
// of the bzip2 CRC-32 ("123456789" -> 0xfc891918).
func TestBzCRC(t *testing.T) {
	slow := func(b []byte) uint32 {
		c := ^uint32(0)
		for _, x := range b {
			c ^= uint32(x) << 24
			for k := 0; k < 8; k++ {
				if c&0x80000000 != 0 {
					c = c<<1 ^ 0x04c11db7
				} else {
					c <<= 1
				}
			}
		}
		return ^c
	}
	if got := bzCRC([]byte("123456789")); got != 0xfc891918 {
		t.Errorf("check value %#x, want 0xfc891918", got)
	}
	b := make([]byte, 100)
	for i := range b {
		b[i] = byte(i*7 + i*i)
	}
	for lo := 0; lo < 9; lo++ {
		for hi := lo; hi <= len(b); hi++ {
			if got, want := bzCRC(b[lo:hi]), slow(b[lo:hi]); got != want {
				t.Fatalf("[%d:%d]: %#x, want %#x", lo, hi, got, want)
			}
		}
	}
}

// TestBzip2BlockArrays: a decode alone gives its large block array back
// as soon as the stream is done; decodes side by side keep theirs for the
// next stream, until the last one ends with none started beside another
// lately.
func TestBzip2BlockArrays(t *testing.T) {
	data := make([]byte, 400_000) // a block of 400k entries
	for i := range data {
		data[i] = byte(i * i >> 9)
	}
	src := bzipped(t, data, 9)
	large := func() (n int) {
		var fs []*bzFast
		for len(bzFastFree.c) > 0 {
			fs = append(fs, <-bzFastFree.c)
		}
		for _, f := range fs {
			if f.dec.large() {
				n++
			}
			putFast(f)
		}
		return n
	}
	decode := func() {
		t.Helper()
		if got, err := unbzip2(nil, len(data), len(data), src); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%d bytes, %v", len(got), err)
		}
	}
	defer overlapAt.Store(0)
	trimBlocks()
	decode()
	if n := large(); n != 0 {
		t.Errorf("alone: %d large block arrays kept, want none", n)
	}
	done1, done2 := Hold(), Hold()
	decode()
	if n := large(); n != 1 {
		t.Errorf("side by side: %d large block arrays kept, want 1", n)
	}
	done1()
	done2()
	overlapAt.Store(0) // long ago
	trimBlocks()
	if n := large(); n != 0 {
		t.Errorf("after the last decode: %d large block arrays kept, want none", n)
	}
}

// TestMapBlock: a block array outside the heap holds what is written to it.
func TestMapBlock(t *testing.T) {
	tt, m := mapBlock(300_000)
	if tt == nil {
		t.Skip("no memory outside the heap on this system")
	}
	if len(tt) != 300_000 || tt[0] != 0 || tt[len(tt)-1] != 0 {
		t.Fatalf("len %d, ends %d %d", len(tt), tt[0], tt[len(tt)-1])
	}
	tt[len(tt)-1] = 0xdeadbeef
	if tt[len(tt)-1] != 0xdeadbeef {
		t.Error("the array does not hold what was written")
	}
	unmapBlock(m)
}

// TestMapBytes: memory outside the heap holds what is written to it.
func TestMapBytes(t *testing.T) {
	m := mapBytes(300_001)
	if m == nil {
		t.Skip("no memory outside the heap on this system")
	}
	if len(m) != 300_001 || m[0] != 0 || m[len(m)-1] != 0 {
		t.Fatalf("len %d, ends %d %d", len(m), m[0], m[len(m)-1])
	}
	m[len(m)-1] = 0xbe
	if m[len(m)-1] != 0xbe {
		t.Error("the memory does not hold what was written")
	}
	unmapBlock(m)
}

// TestBzip2SmallBlocks: a lean decode alone reads large blocks in 2.5
// bytes a byte (smallBlock), decodes side by side in 4 (tt); both give
// back the bytes that were compressed: blocks of runs, of few byte values, of all
// of them, several blocks a stream.
func TestBzip2SmallBlocks(t *testing.T) {
	inputs := map[string][]byte{}
	runs := make([]byte, 700_000)
	for i := range runs {
		runs[i] = byte(i / 1000 % 7) // runs of a thousand: the first run-length stage's counts
	}
	inputs["runs"] = runs
	mixed := make([]byte, 1_900_000) // three level-9 blocks
	x := uint32(1)
	for i := range mixed {
		x = x*1664525 + 1013904223
		mixed[i] = byte(x>>24) & byte(0x0f|i>>15) // few values at first, all of them later
	}
	inputs["mixed"] = mixed
	two := make([]byte, 150_000)
	for i := range two {
		two[i] = "ab"[i*i>>7&1]
	}
	inputs["two values"] = two
	for name, data := range inputs {
		for _, level := range []int{1, 9} {
			src := bzipped(t, data, level)
			for _, alone := range []bool{true, false} {
				func() {
					if !alone {
						done1, done2 := Hold(), Hold()
						defer func() { done1(); done2(); overlapAt.Store(0) }()
					} else {
						overlapAt.Store(0)
					}
					z := bzDecoder{lean: true}
					defer z.release()
					got, ok := z.decode(nil, len(data), len(data), src)
					if !ok || !bytes.Equal(got, data) {
						t.Errorf("%s, level %d, alone %v: ok %v, %d bytes, equal %v", name, level, alone, ok, len(got), bytes.Equal(got, data))
					}
					if small := z.lo != nil; small != alone {
						t.Errorf("%s, level %d, alone %v: read in 2.5 bytes a byte %v", name, level, alone, small)
					}
				}()
			}
		}
	}
}
