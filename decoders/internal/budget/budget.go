// Package budget is the one allowance of memory and work a decode may spend,
// derived from the size of the file in one place (New), in the spirit of Go's
// internal/saferio: a count or length read from a file is a claim, and the
// claim is paid from the budget before anything is allocated or looped over.
//
// Every layer of a decode draws on the same Budget: decompression (the bytes
// it produces), container counts (UBJSON and versioned arrays), strings,
// events, players, names, hash-table probes. Local checks against "the bytes
// left in this stream" are not enough on their own: a stream that a
// decompressor expanded a thousand times would let the next layer multiply
// again. Drawing every layer from one allowance sized by the file is what
// makes the checks add up.
//
// Running out is not a panic and not a silent cut: the first refusal is kept
// (Err) and the decoder records it as an error Diagnostic (Diagnostic) next
// to the partial replay it decoded before.
package budget

import (
	"math"
	"slices"
	"sync/atomic"
	"unsafe"

	"rewind/model"
)

// The default allowance for a file of n bytes is BaseBytes + BytesPerByte×n
// of accounted memory and BaseSteps + StepsPerByte×n loop steps. Accounted
// memory is what the file's own counts and lengths ask for; Go's own
// overhead and the decoders' fixed buffers come on top, which is why the
// factors sit below the promised peak (64 MiB + 32× the file).
const (
	BaseBytes    = 40 << 20
	BytesPerByte = 24
	BaseSteps    = 1 << 25
	StepsPerByte = 512
)

// The promise the budget keeps, on any input: a decode of a file of n bytes
// takes at most PromiseBase + PromisePerByte×n bytes of memory at its peak
// (the file's own bytes included). Tests hold decodes to it.
const (
	PromiseBase    = 64 << 20
	PromisePerByte = 32
)

// Promise is the most memory a decode of a file of size bytes may take.
func Promise(size int64) int64 {
	return satAdd(PromiseBase, satMul(PromisePerByte, max(size, 0)))
}

// Default is the allowance for a file of size bytes.
func Default(size int64) model.Limits {
	if size < 0 {
		size = 0
	}
	return model.Limits{
		Bytes: satAdd(BaseBytes, satMul(BytesPerByte, size)),
		Steps: satAdd(BaseSteps, satMul(StepsPerByte, size)),
	}
}

// Budget is one decode's allowance. It is safe for concurrent use: SC2
// decodes independent streams in parallel from the same budget. A nil
// *Budget is a programming error, not "unlimited".
type Budget struct {
	limits model.Limits
	over   model.Limits // the limits a caller fixed (New's over); Extend leaves them
	bytes  atomic.Int64 // left
	steps  atomic.Int64 // left
	err    atomic.Pointer[model.BudgetError]
}

// New returns the budget of a file of size bytes; non-zero fields of over
// replace the defaults (DecodeOptions.Limits, for tests).
func New(size int64, over model.Limits) *Budget {
	lim := Default(size)
	if over.Bytes > 0 {
		lim.Bytes = over.Bytes
	}
	if over.Steps > 0 {
		lim.Steps = over.Steps
	}
	b := &Budget{limits: lim, over: over}
	b.bytes.Store(lim.Bytes)
	b.steps.Store(lim.Steps)
	return b
}

// Extend raises the allowance to that of a file of size bytes, adding the
// difference to what is left: a followed file's budget grows with the
// bytes seen, so a file decoded as it was written gets the allowance of
// the same file decoded whole. A limit New was given stays as it was; a
// budget that refused stays refused. It is not safe to call while the
// budget is paying from another goroutine.
func (b *Budget) Extend(size int64) {
	lim := Default(size)
	if b.over.Bytes <= 0 && lim.Bytes > b.limits.Bytes {
		b.bytes.Add(lim.Bytes - b.limits.Bytes)
		b.limits.Bytes = lim.Bytes
	}
	if b.over.Steps <= 0 && lim.Steps > b.limits.Steps {
		b.steps.Add(lim.Steps - b.limits.Steps)
		b.limits.Steps = lim.Steps
	}
}

// Limits is the whole allowance.
func (b *Budget) Limits() model.Limits { return b.limits }

// Alloc pays for n bytes that what is about to allocate. It returns a
// *model.BudgetError, and keeps it as Err, when the budget cannot pay;
// after that every call fails, so a decode winds down instead of spending
// on in small pieces.
func (b *Budget) Alloc(what string, n int64) error {
	return b.take(&b.bytes, b.limits.Bytes, "bytes", what, n)
}

// Items pays for count values of size bytes each (count × size, without
// overflow): a slice of structs, a list of names.
func (b *Budget) Items(what string, count, size int64) error {
	if count < 0 || size < 0 {
		return b.refuse("bytes", what, math.MaxInt64, b.bytes.Load(), b.limits.Bytes)
	}
	return b.Alloc(what, satMul(count, size))
}

// Left is what is left of the allowance.
func (b *Budget) Left() model.Limits {
	return model.Limits{Bytes: b.bytes.Load(), Steps: b.steps.Load()}
}

// SizeOf is the bytes one value of type T occupies, for paying before a
// slice of them is made.
func SizeOf[T any]() int64 {
	var z T
	return int64(unsafe.Sizeof(z))
}

// Make pays for n values of type T, then makes them; it returns nil and
// the refusal when the budget cannot pay.
func Make[T any](b *Budget, what string, n int) ([]T, error) {
	if err := b.Items(what, int64(n), SizeOf[T]()); err != nil {
		return nil, err
	}
	return make([]T, n), nil
}

// Grow returns s with room for at least extra more values, grown exactly
// as append grows it (slices.Grow), and pays for the new array: the
// payments for a slice built by appending add up to everything it
// allocated, the arrays it left behind included, so the budget bounds what
// the decode allocates in all and with it the peak. The most append can
// take is paid first and the rest given back, so nothing is allocated
// unpaid. On refusal s comes back unchanged with the error.
func Grow[T any](b *Budget, what string, s []T, extra int) ([]T, error) {
	if extra <= cap(s)-len(s) {
		return s, nil
	}
	if extra < 0 {
		return s, b.Items(what, -1, 1)
	}
	size := SizeOf[T]()
	old := int64(cap(s))
	// the new array: append's growth: what is asked, or at most 2.5 times the old
	// capacity (plus its first step), then rounded up to a size class (at
	// most an eighth more) or to whole pages
	most := max(int64(len(s))+int64(extra), old*5/2+192)
	most += most/8 + 8192/max(size, 1) + 1
	if err := b.Items(what, most, size); err != nil {
		return s, err
	}
	t := slices.Grow(s, extra)
	b.bytes.Add((most - int64(cap(t))) * size)
	return t, nil
}

// Step pays for n iterations of a loop whose length the file decides (hash
// probes, repeated records, skipped ticks).
func (b *Budget) Step(what string, n int64) error {
	return b.take(&b.steps, b.limits.Steps, "steps", what, n)
}

// Err is the first refusal, or nil.
func (b *Budget) Err() *model.BudgetError { return b.err.Load() }

// Exhausted reports whether a refusal has happened.
func (b *Budget) Exhausted() bool { return b.err.Load() != nil }

// Diagnostic is the error diagnostic a decoder records for the refusal,
// at the span where the claim was read. It says which stream or count hit
// the budget and by how much.
func (b *Budget) Diagnostic(source string, span model.Span, frame int) model.Diagnostic {
	e := b.Err()
	if e == nil {
		return model.Diagnostic{}
	}
	return model.Diagnostic{
		Severity: model.Error,
		Source:   source,
		Span:     span,
		Frame:    frame,
		Subject:  e.What,
		Message:  "decode budget exhausted; what follows was not decoded",
		Expected: "at most " + model.FormatCount(e.Left) + " more " + e.Unit + " (budget " + model.FormatCount(e.Limit) + " " + e.Unit + " for this file)",
		Found:    "a claim of " + model.FormatCount(e.Wanted) + " " + e.Unit,
	}
}

func (b *Budget) take(left *atomic.Int64, limit int64, unit, what string, n int64) error {
	if n < 0 {
		n = math.MaxInt64
	}
	if e := b.err.Load(); e != nil {
		return e
	}
	for {
		l := left.Load()
		if n > l {
			return b.refuse(unit, what, n, l, limit)
		}
		if left.CompareAndSwap(l, l-n) {
			return nil
		}
	}
}

func (b *Budget) refuse(unit, what string, wanted, left, limit int64) error {
	e := &model.BudgetError{What: what, Unit: unit, Wanted: wanted, Left: left, Limit: limit}
	if b.err.CompareAndSwap(nil, e) {
		return e
	}
	return b.err.Load()
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
