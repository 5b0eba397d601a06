package sc2

import "testing"

// chunked keeps every element where add put it, whatever chunk it is in,
// and holds at most a chunk (or, while short, as much again) of room.
func TestChunked(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 100, 511, 512, 1023, 1024, 1025, 2047, 2048, 5000} {
		var c chunked[int32]
		for i := 0; i < n; i++ {
			if got := c.add(int32(3 * i)); got != i {
				t.Fatalf("n %d: add %d returned index %d", n, i, got)
			}
		}
		if c.len() != n {
			t.Fatalf("n %d: len %d", n, c.len())
		}
		for i := 0; i < n; i++ {
			if v := *c.at(i); v != int32(3*i) {
				t.Fatalf("n %d: at(%d) = %d, want %d", n, i, v, 3*i)
			}
		}
		k := 0
		for i, p := range c.all() {
			if i != k || p != c.at(i) {
				t.Fatalf("n %d: all gave %d, %p at step %d (at: %p)", n, i, p, k, c.at(k))
			}
			k++
		}
		if k != n {
			t.Fatalf("n %d: all gave %d elements", n, k)
		}
		room := 0
		for _, ch := range c.chunks {
			room += cap(ch)
		}
		if want := max(firstChunk, min(2*n, n+chunkLen)); room > want {
			t.Errorf("n %d: room for %d, want at most %d", n, room, want)
		}
	}
}
