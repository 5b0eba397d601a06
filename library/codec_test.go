package library

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// FuzzLoadBlock: any block payload (the bytes a CRC vouched for, so what a
// buggy or hostile writer could leave) loads into a store without a panic,
// and loads again over the rows it made, as a block another process
// appended over them would, adding no row the second time; every row kept
// reads back whole.
func FuzzLoadBlock(f *testing.F) {
	s := NewStore()
	var b blockEnc
	for i := range 4 {
		h := sampleHeader(fmt.Sprintf("/r/%d.slp", i%3), i)
		switch i {
		case 1:
			h.Players = nil
		case 3: // the first row again, other players
			h.Players = append(h.Players, Player{Slot: "P3", Name: "Hbox", Character: "Jigglypuff"})
		}
		id := s.Put(&h)
		s.encodeRow(&b, id, s.rec(id))
	}
	framed, _ := s.frameBlock(&b) // no summaries: the records' block alone
	f.Add(framed[8:])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, p []byte) {
		s := NewStore()
		s.loadBlock(p, 0, 0, 0)
		n := s.Len()
		s.loadBlock(p, 0, 0, 0)
		if s.Len() != n {
			t.Fatalf("the same block loaded again: %d rows, then %d", n, s.Len())
		}
		ids := make([]RowID, n)
		for i := range ids {
			ids[i] = RowID(i)
		}
		var key []uint32
		s.Read(ids, func(_ int, r Row) {
			h := r.Header()
			key = r.TextKey(key[:0])
			if len(key) != 4+3*len(h.Players) {
				t.Fatalf("row %d: text key of %d numbers for %d players", r.ID(), len(key), len(h.Players))
			}
			if id, ok := s.Lookup(r.Path()); !ok || id != r.ID() {
				t.Fatalf("row %d (%q) is not found by its path", r.ID(), r.Path())
			}
		})
	})
}

// TestDecUint: the one- and two-byte shortcuts of dec.uint read what
// binary.Uvarint reads, and dec.int what binary.Varint reads, bytes after
// a number and numbers cut short included.
func TestDecUint(t *testing.T) {
	var cases [][]byte
	for _, v := range []uint64{0, 1, 0x7f, 0x80, 0xff, 0x3fff, 0x4000, 1 << 21, 1<<40 + 3, ^uint64(0)} {
		b := binary.AppendUvarint(nil, v)
		cases = append(cases, b, append(b, 0x05), append(b, 0x85, 0x01), b[:len(b)-1])
	}
	cases = append(cases, []byte{0x80, 0x00}, []byte{0x80}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	for _, v := range []int64{0, 1, -1, 63, -64, 64, -65, 8191, -8192, 8192, 1 << 40, -1 << 40, 1<<63 - 1, -1 << 63} {
		b := binary.AppendVarint(nil, v)
		cases = append(cases, b, append(b, 0x05), b[:len(b)-1])
	}
	// each reader against its reference, as unsigned numbers
	readers := []struct {
		name string
		ref  func([]byte) (uint64, int)
		read func(*dec) uint64
	}{
		{"uint", binary.Uvarint, (*dec).uint},
		{"int", func(b []byte) (uint64, int) { v, n := binary.Varint(b); return uint64(v), n }, func(d *dec) uint64 { return uint64(d.int()) }},
	}
	for _, r := range readers {
		for _, b := range cases {
			want, n := r.ref(b)
			d := dec{b: b}
			got := r.read(&d)
			switch {
			case n <= 0 && d.err == nil:
				t.Errorf("%s % x: read %d, want an error", r.name, b, got)
			case n > 0 && (d.err != nil || got != want || len(d.b) != len(b)-n):
				t.Errorf("%s % x: %d with %d bytes left (%v), want %d with %d", r.name, b, got, len(d.b), d.err, want, len(b)-n)
			}
		}
	}
}
