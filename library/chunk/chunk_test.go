package chunk

import "testing"

// A list gives back what was pushed, at the index Push returned, for
// lengths around the chunk's edges; a short list takes little room.
func TestList(t *testing.T) {
	for _, n := range []int{0, 1, firstRoom - 1, firstRoom, firstRoom + 1, Size - 1, Size, Size + 1, 3*Size + 5} {
		var l List[int64]
		for i := range n {
			if got := l.Push(int64(i) * 3); got != i {
				t.Fatalf("n=%d: push %d returned %d", n, i, got)
			}
		}
		if l.Len() != n {
			t.Errorf("n=%d: Len %d", n, l.Len())
		}
		for i := range n {
			if got := *l.At(i); got != int64(i)*3 {
				t.Errorf("n=%d: At(%d) = %d", n, i, got)
			}
		}
		room := 0
		for _, c := range l.chunks {
			room += cap(c)
		}
		// a list smaller than a chunk has at most twice its items' room;
		// a longer one at most a chunk more than it holds
		if want := max(firstRoom, 2*n); n < Size && room > want || n >= Size && room >= n+Size {
			t.Errorf("n=%d: room for %d items", n, room)
		}
		l.Reset()
		if l.Len() != 0 || l.chunks != nil {
			t.Errorf("n=%d: Reset left %d items", n, l.Len())
		}
	}
}

// Past the first chunk an item never moves: a pointer to it stays the
// item's while the list grows.
func TestListItemsStay(t *testing.T) {
	var l List[[4]int]
	for i := range Size + 2 {
		l.Push([4]int{i})
	}
	p := l.At(Size + 1)
	for i := range 2 * Size {
		l.Push([4]int{i})
	}
	if p != l.At(Size+1) || p[0] != Size+1 {
		t.Errorf("item %d moved or changed: %v", Size+1, *p)
	}
}
