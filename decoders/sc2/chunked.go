package sc2

// chunked is an append-only list kept in chunks of a fixed size. A slice
// grown by append copies itself at every step (by a quarter once large),
// so the tracker's units and unit-count changes cost about five times
// their final size in garbage (3.2 MB for 0.8 MB in a 240 KB replay), all
// of it made in one stretch of the decode where the collector does not
// run, and the heap grew by it. Chunks are never copied, and a pointer
// to an element stays valid.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const (
	chunkBits = 10
	chunkLen  = 1 << chunkBits
)

func (c *chunked[T]) len() int { return c.n }

// at is the element i; i must be below len.
func (c *chunked[T]) at(i int) *T { return &c.chunks[i>>chunkBits][i&(chunkLen-1)] }

// add appends x and returns its index.
func (c *chunked[T]) add(x T) int {
	if c.n&(chunkLen-1) == 0 {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, x)
	c.n++
	return c.n - 1
}
