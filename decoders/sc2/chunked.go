package sc2

import (
	"iter"
	"math/bits"
)

// chunked is an append-only list kept in chunks. A slice grown by append
// copies itself at every step (by a quarter once large), so the tracker's
// units and unit-count changes cost about five times their final size in
// garbage (3.2 MB for 0.8 MB in a 240 KB replay), all of it made in one
// stretch of the decode where the collector does not run, and the heap
// grew by it. Chunks are never copied, and a pointer to an element stays
// valid. The chunks double from 16 elements up to chunkLen, then stay at
// chunkLen: a short list (a small replay's build order) holds little
// room it does not use, a long one at most a chunk.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const (
	chunkBits  = 10
	chunkLen   = 1 << chunkBits
	firstBits  = 4 // the first chunk's 16 elements
	firstChunk = 1 << firstBits
)

func (c *chunked[T]) len() int { return c.n }

// at is the element i; i must be below len.
func (c *chunked[T]) at(i int) *T {
	if i >= chunkLen {
		return &c.chunks[chunkBits-firstBits+i>>chunkBits][i&(chunkLen-1)]
	}
	// chunk 0 holds the first 16 elements, chunk k > 0 the 8<<k from 8<<k on
	k := bits.Len(uint(i) >> firstBits)
	if k == 0 {
		return &c.chunks[0][i]
	}
	return &c.chunks[k][i-(firstChunk/2)<<k]
}

// add appends x and returns its index.
func (c *chunked[T]) add(x T) int {
	if k := len(c.chunks); k == 0 || len(c.chunks[k-1]) == cap(c.chunks[k-1]) {
		c.chunks = append(c.chunks, make([]T, 0, max(firstChunk, min(c.n, chunkLen))))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, x)
	c.n++
	return c.n - 1
}

// all is the elements in order with their indices, a chunk at a time.
func (c *chunked[T]) all() iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		i := 0
		for _, ch := range c.chunks {
			for j := range ch {
				if !yield(i, &ch[j]) {
					return
				}
				i++
			}
		}
	}
}

// appendDoubling appends x to s, doubling a full slice: append grows a
// large slice by a quarter, copying it at every step, so a list grown one
// element at a time costs about four times its final size in garbage;
// doubling costs at most its size. For a list read by index as a slice,
// where chunked does not fit (a player's stats records).
func appendDoubling[T any](s []T, x T) []T {
	if len(s) == cap(s) {
		s = append(make([]T, 0, max(16, 2*cap(s))), s...)
	}
	return append(s, x)
}

// slab hands out short slices carved from shared chunks, each with room
// for a few elements: append within the room writes into the slice's own
// part of the chunk, past it copies the slice out as any append does. A
// list per unit made by append costs an allocation for each, rounded up
// to a size class, and another when it grows by one (a unit's position
// when it dies): 0.45 MB for the 7,500 units of a 240 KB replay, 0.25 MB
// in chunks.
type slab[T any] struct{ free []T }

// take is a slice holding x with room for n elements.
func (s *slab[T]) take(x T, n int) []T {
	if cap(s.free)-len(s.free) < n {
		s.free = make([]T, 0, max(chunkLen, n))
	}
	k := len(s.free)
	s.free = s.free[:k+n]
	out := s.free[k : k+1 : k+n]
	out[0] = x
	return out
}
