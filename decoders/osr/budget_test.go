package osr

// The decode budget on osu!: the frames are LZMA, which can expand a few
// kilobytes into hundreds of megabytes of text (and each 8-byte record
// into a 48-byte frame). A declared size the budget cannot pay is refused
// before anything is made; a stream of unknown size stops where the budget
// does; either way the header is kept and the refusal is one error.

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/ulikunitz/xz/lzma"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

// bomb is an LZMA member of n copies of a minimal record; sized puts the
// size in the header, else it is -1 and the stream ends with a marker.
func bomb(t *testing.T, n int, sized bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	cfg := lzma.WriterConfig{DictCap: 1 << 20, EOSMarker: !sized}
	if sized {
		cfg.Size, cfg.SizeInHeader = int64(n*8), true
	}
	w, err := cfg.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	rec := bytes.Repeat([]byte("0|1|1|0,"), 1<<12)
	for left := n; left > 0; left -= 1 << 12 {
		k := min(left, 1<<12)
		if _, err := w.Write(rec[:k*8]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBudgetLZMABomb(t *testing.T) {
	const n = 4 << 20 // 32 MiB of text, 4 Mi records
	for _, sized := range []bool{true, false} {
		name := "unknown size"
		if sized {
			name = "declared size"
		}
		t.Run(name, func(t *testing.T) {
			tf := newTestFile()
			tf.rawFrames = bomb(t, n, sized)
			data := tf.bytes(t)
			lim := model.Limits{Bytes: 8 << 20}
			r, alloc := decodetest.Budgeted(t, Decode, data, lim)
			decodetest.Refused(t, r, "frames")
			bound := lim.Bytes + 32*int64(len(data)) + 4<<20
			t.Logf("%d-byte file of %d MiB of text: allocated %d bytes (bound %d)", len(data), n*8>>20, alloc, bound)
			if alloc > uint64(bound) {
				t.Errorf("allocated %d bytes; the bound is %d", alloc, bound)
			}
			if r.Title == "" || len(r.Players) != 1 || r.Players[0].Name != "peppy" {
				t.Errorf("header not kept: %q %+v", r.Title, r.Players)
			}
			// the default budget for a file this small refuses it too,
			// within its promise
			r, alloc = decodetest.Budgeted(t, Decode, data, model.Limits{})
			decodetest.Refused(t, r, "frame")
			if alloc > uint64(budget.Promise(int64(len(data)))) {
				t.Errorf("default budget: allocated %d bytes for %d", alloc, len(data))
			}
		})
	}
}

// A header that declares a size no budget pays is refused before the
// decoder starts: the claim is checked, not the bytes.
func TestBudgetDeclaredSize(t *testing.T) {
	tf := newTestFile()
	m := mustCompress(t, tf.frames)
	binary.LittleEndian.PutUint64(m[5:], 1<<40)
	tf.rawFrames = m
	data := tf.bytes(t)
	r, alloc := decodetest.Budgeted(t, Decode, data, model.Limits{})
	d := decodetest.Refused(t, r, "declared size")
	if d.Span.Off != int64(136+4+5) {
		t.Errorf("refusal at %#x, want the size field at 0x8d", d.Span.Off)
	}
	if alloc > 16<<20 {
		t.Errorf("allocated %d bytes for a refused claim", alloc)
	}
}

// A dictionary the header makes huge, with no size to bound it, is paid
// first.
func TestBudgetDictionary(t *testing.T) {
	tf := newTestFile()
	m := mustCompress(t, tf.frames)
	binary.LittleEndian.PutUint32(m[1:], 1<<31)
	binary.LittleEndian.PutUint64(m[5:], ^uint64(0)) // -1: unknown size
	tf.rawFrames = m
	data := tf.bytes(t)
	r, alloc := decodetest.Budgeted(t, Decode, data, model.Limits{})
	decodetest.Refused(t, r, "dictionary")
	if alloc > 16<<20 {
		t.Errorf("allocated %d bytes for a refused dictionary", alloc)
	}
}

// Many records in a small text: the frames are paid before they are made.
func TestBudgetRecords(t *testing.T) {
	tf := newTestFile()
	tf.frames = strings.Repeat("1|2|3|0,", 200000)
	data := tf.bytes(t)
	r, _ := decodetest.Budgeted(t, Decode, data, model.Limits{Bytes: 4 << 20})
	decodetest.Refused(t, r, "frame records")
	r, _ = decodetest.Budgeted(t, Decode, data, model.Limits{})
	if r.Problems() > 0 || r.Timeline.Count != 200000 {
		t.Errorf("default budget: %d frames, %v", r.Timeline.Count, r.Diagnostics)
	}
}
