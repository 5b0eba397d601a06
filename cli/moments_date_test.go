package cli

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"rewind/library"
)

// The date order's list gives back each replay's row, path and start,
// and its order is the replays by start, then as walked, across chunks:
// many replays with the same few starts, more than fill a chunk, in
// folders walked in turn (one of them twice), and a few kept whole.
func TestDatedList(t *testing.T) {
	zone := time.FixedZone("", 3*3600)
	starts := []time.Time{{}, time.Date(2020, 1, 2, 3, 4, 5, 6, zone), time.Date(2019, 5, 6, 7, 8, 9, 0, time.UTC),
		time.Date(2020, 1, 2, 3, 4, 5, 7, zone), time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC)}
	folders := []string{"a/", "b/c/", "", "a/"}
	const n = 3*datedChunk + 77
	type replay struct {
		path  string
		row   library.RowID
		start time.Time
	}
	var want []replay
	var l datedList
	for k := 0; k < n; {
		b := &chosenBatch{}
		for range 300 {
			if k == n {
				break
			}
			start := starts[(k*7+k/5)%len(starts)]
			dir := folders[k*len(folders)/n]
			path := fmt.Sprintf("%sg%d.slp", dir, k)
			r := replay{path, library.RowID(k * 3), start}
			if k%1000 == 999 {
				r.row = noRow
			}
			b.chosen = append(b.chosen, chosenReplay{path, start, r.row})
			want = append(want, r)
			k++
		}
		l.addBatch(b)
	}
	if l.len() != n || len(l.keys) != 4 {
		t.Fatalf("%d replays in %d chunks, want %d in 4", l.len(), len(l.keys), n)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(want[i].start.UnixNano(), want[j].start.UnixNano()) })
	o := l.order()
	var got []datedKey
	for {
		k := len(got)
		if got = o.next(got, 100); len(got) == k {
			break
		}
	}
	if len(got) != n {
		t.Fatalf("the order has %d replays, want %d", len(got), n)
	}
	for at, k := range got {
		i := order[at]
		w := want[i]
		if k.i != uint32(i) {
			t.Fatalf("replay %d of the order is %d, want %d", at, k.i, i)
		}
		name := ""
		if w.row != noRow {
			name = fmt.Sprintf("g%d.slp", i)
		}
		wantStart := w.start // a replay kept whole keeps its own zone
		if w.row != noRow {
			wantStart = w.start.In(zone)
		}
		if row, path, start := l.row(k.i), l.path(k.i, name), l.start(k, zone); row != w.row || path != w.path || start.String() != wantStart.String() {
			t.Fatalf("replay %d: row %d, %q, %v; want %d, %q, %v", i, row, path, start, w.row, w.path, w.start)
		}
	}
	// a folder is kept once, however often it is walked into
	if len(l.dirs) != 3 {
		t.Errorf("folders %q, want a/, b/c/ and none", l.dirs)
	}
}
