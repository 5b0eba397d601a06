package mpq

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// ReadBlockOutside reads every member as ReadBlock does, alone (into
// memory outside the heap) and beside another decode (on the heap), and
// the bytes hold until release.
func TestReadBlockOutside(t *testing.T) {
	files := sampleFiles(t)
	if len(files) == 0 {
		t.Skip("no samples")
	}
	defer overlapAt.Store(0)
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Open(data, budget.New(int64(len(data)), model.Limits{}))
		if a == nil {
			continue // the broken samples' tables
		}
		for bi := range a.Block {
			for _, alone := range []bool{true, false} {
				done := func() {}
				if alone {
					overlapAt.Store(0)
				} else {
					d1, d2 := Hold(), Hold()
					done = func() { d1(); d2(); overlapAt.Store(0) }
				}
				name := filepath.Base(p)
				want, werr := a.ReadBlock(name, bi)
				got, release, gerr := a.ReadBlockOutside(name, bi)
				if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
					t.Errorf("%s block %d, alone %v: %d bytes (%v), ReadBlock %d (%v)", name, bi, alone, len(got), gerr, len(want), werr)
				}
				release()
				release() // twice is harmless
				done()
			}
		}
	}
}
