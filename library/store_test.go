package library

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestStoreSharedFacts: what rows share (format, version, unit, rate,
// zone; a player's slot, character, team and result) is kept once, and a
// row reads back exactly what was put, through the store and through the
// index file, also when a later header takes a fact away.
func TestStoreSharedFacts(t *testing.T) {
	dir := t.TempDir()
	x, err := OpenIndex(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	const rows = 500
	var want []Header
	for i := range rows {
		h := sampleHeader(filepath.Join(dir, fmt.Sprintf("g%03d.slp", i)), i)
		h.Players[0].Name = fmt.Sprintf("player %d", i) // names are the player's own
		switch i % 5 {
		case 1:
			h.Start = h.Start.In(time.FixedZone("", -5*3600-30*60)) // another machine's zone
		case 2:
			h.Rate = math.NaN() // one key, not a new fact a row
		case 3:
			h.Err, h.Problems, h.Notes, h.Check = "slippi: at 0x0: not a Slippi file", 0, 0, nil
		case 4:
			h.Players[1].Character, h.Players[1].Result = "Sheik", "2nd"
		}
		want = append(want, h)
		if _, err := x.PutRow(&h); err != nil {
			t.Fatal(err)
		}
	}
	s := x.Store()
	s.mu.RLock()
	fmts, roles := len(s.fmts.list), len(s.roles.list)
	s.mu.RUnlock()
	// the zero fact, the sample's, the other zone's and the NaN rate's;
	// roles: zero, P1 Fox 1st, P2 Marth, P2 Sheik 2nd
	if fmts != 4 || roles != 4 {
		t.Errorf("%d rows keep %d shared facts and %d roles, want 4 and 4", rows, fmts, roles)
	}
	// a row that loses its error, problems and notes keeps none of them
	again := want[3]
	again.Err, again.Problems, again.Notes = "", 0, 0
	want[3] = again
	if _, err := x.PutRow(&again); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	y, err := OpenIndex(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	for i, h := range want {
		got, ok := y.Get(h.Path, h.Size, h.ModTime)
		if !ok {
			t.Fatalf("row %d not found", i)
		}
		_, wantOff := h.Start.Zone()
		if _, off := got.Start.Zone(); off != wantOff || !got.Start.Equal(h.Start) {
			t.Errorf("row %d: start %v, want %v", i, got.Start, h.Start)
		}
		if math.IsNaN(h.Rate) != math.IsNaN(got.Rate) {
			t.Errorf("row %d: rate %v, want %v", i, got.Rate, h.Rate)
		}
		got.Start, got.ModTime, h.Start, h.ModTime = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		got.Rate, h.Rate = 0, 0
		if !reflect.DeepEqual(got, h) {
			t.Errorf("row %d:\ngot  %+v\nwant %+v", i, got, h)
		}
	}
	if got := y.Store().Header(3); got.Err != "" || got.Problems != 0 || got.Checked() {
		t.Errorf("row 3 after its error went: err %q, %d problems, checked %v", got.Err, got.Problems, got.Checked())
	}
	if got := y.Store().Header(8); got.Err == "" || !got.Checked() || got.ProblemCount() != 1 {
		t.Errorf("row 8: err %q, checked %v, %d problems", got.Err, got.Checked(), got.ProblemCount())
	}
}

// TestLoadPayloadUsedAgain: the index reads each block into a buffer it
// uses again for a later block, so nothing the store keeps may point into
// one: a folder seen last in one block is still that folder when the
// buffer holds another's bytes.
func TestLoadPayloadUsedAgain(t *testing.T) {
	payload := func(path string, i int) []byte {
		s := NewStore()
		h := sampleHeader(path, i)
		id := s.Put(&h)
		var b blockEnc
		s.encodeRow(&b, id, s.rec(id))
		framed, _ := s.frameBlock(&b)
		return framed[8:] // the records' block, without its frame
	}
	// the same length, so the same layout: the folder at the same place;
	// the second records of each file are newer (another size)
	blocks := [][]byte{payload("/a/x.slp", 1), payload("/b/x.slp", 1), payload("/a/x.slp", 2), payload("/b/x.slp", 3)}
	s := NewStore()
	buf := make([]byte, len(blocks[0]))
	for _, p := range blocks {
		copy(buf, p)
		if _, err := s.loadBlock(buf, 0, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	if s.Len() != 2 {
		t.Errorf("%d rows, want 2", s.Len())
	}
	for p, size := range map[string]int64{"/a/x.slp": 1002, "/b/x.slp": 1003} {
		id, ok := s.Lookup(p)
		if h := s.Header(id); !ok || h.Path != p || h.Size != size {
			t.Errorf("%s: found %v, path %q, size %d, want size %d", p, ok, h.Path, h.Size, size)
		}
	}
}
