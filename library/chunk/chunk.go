// Package chunk holds a list kept in chunks: what millions of small
// records (a store's rows' extras, the moments a command found) grow in.
// Growing never copies what the list holds, so it never needs room for
// the list twice over, as an append to one slice does when it doubles.
package chunk

// Size is how many items a chunk holds.
const Size = 1 << 13

// List is a list of items in chunks of Size. Its first chunk starts small
// and doubles up to Size, so a short list (a run cut to its first few, a
// store with a few rows checked) stays small; later chunks are made whole.
// The zero List is empty and ready to use.
type List[T any] struct {
	chunks [][]T
	n      int
}

// firstRoom is the room a list's first chunk starts with.
const firstRoom = 16

// Len is how many items the list holds.
func (l *List[T]) Len() int { return l.n }

// At is item i. The pointer is valid until the next Push (the first chunk
// moves while it grows).
func (l *List[T]) At(i int) *T { return &l.chunks[i/Size][i%Size] }

// Push appends v and returns its index.
func (l *List[T]) Push(v T) int {
	if l.n%Size == 0 {
		room := Size
		if l.n == 0 {
			room = firstRoom
		}
		l.chunks = append(l.chunks, make([]T, 0, room))
	}
	last := &l.chunks[len(l.chunks)-1]
	if len(*last) == cap(*last) {
		*last = append(make([]T, 0, min(2*cap(*last), Size)), *last...)
	}
	*last = append(*last, v)
	l.n++
	return l.n - 1
}

// Reset empties the list, letting go of its chunks.
func (l *List[T]) Reset() { *l = List[T]{} }
