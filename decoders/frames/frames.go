// Package frames is the contract between a format and the Parquet export:
// a format names its own typed frame row (a struct with parquet tags, in
// decoders/<format>/rows.go) and a function that yields a replay's rows,
// and the registry wraps them with Of. library/export then writes one
// typed table per format without knowing any format: a sixth format adds
// its rows.go and one registry field.
package frames

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"

	"rewind/model"
)

// Table is one format's frames table.
type Table interface {
	// Name is the table's folder in the dataset: "frames_slippi".
	Name() string
	// NewWriter starts a Parquet file of the table's rows on w.
	NewWriter(w io.Writer, opts ...parquet.WriterOption) Writer
	// Covers reports whether the table holds everything an event of this
	// kind says (Slippi's pre and post frame updates are its rows), so the
	// export's events table can leave such events out.
	Covers(kind string) bool
}

// Writer writes the frame rows of replays into one Parquet file.
type Writer interface {
	// Write appends a replay's rows and returns how many it wrote.
	Write(r *model.Replay) (int64, error)
	// Buffered is the number of rows not yet flushed into a row group.
	Buffered() int64
	// Flush ends the current row group.
	Flush() error
	// Close writes the footer.
	Close() error
}

// RowsFunc yields a replay's rows in batches; a batch is valid only during
// the call (the format may reuse it).
type RowsFunc[T any] func(r *model.Replay, yield func(batch []T) error) error

// Of makes the table name whose rows are T. rows nil means the decoder
// hands the rows over itself, through Replay.FrameRows. covers are the
// event kinds the rows hold in full.
func Of[T any](name string, rows RowsFunc[T], covers ...string) Table {
	if rows == nil {
		rows = FromReplay[T]
	}
	return &table[T]{name: name, rows: rows, covers: covers}
}

// FromReplay yields what the replay's FrameRows hook yields, checking that
// the batches are of the table's type.
func FromReplay[T any](r *model.Replay, yield func([]T) error) error {
	if r.FrameRows == nil {
		return nil
	}
	return r.FrameRows(func(batch any) error {
		rows, ok := batch.([]T)
		if !ok {
			return fmt.Errorf("frames: the decoder yielded %T, the table holds %T", batch, *new(T))
		}
		return yield(rows)
	})
}

type table[T any] struct {
	name   string
	rows   RowsFunc[T]
	covers []string
}

func (t *table[T]) Name() string { return t.name }

func (t *table[T]) Covers(kind string) bool {
	for _, k := range t.covers {
		if k == kind {
			return true
		}
	}
	return false
}

func (t *table[T]) NewWriter(w io.Writer, opts ...parquet.WriterOption) Writer {
	return &writer[T]{w: parquet.NewGenericWriter[T](w, opts...), rows: t.rows}
}

type writer[T any] struct {
	w        *parquet.GenericWriter[T]
	rows     RowsFunc[T]
	buffered int64
}

func (w *writer[T]) Write(r *model.Replay) (int64, error) {
	var n int64
	err := w.rows(r, func(batch []T) error {
		k, err := w.w.Write(batch)
		n += int64(k)
		w.buffered += int64(k)
		return err
	})
	return n, err
}

func (w *writer[T]) Buffered() int64 { return w.buffered }

func (w *writer[T]) Flush() error {
	w.buffered = 0
	return w.w.Flush()
}

func (w *writer[T]) Close() error { return w.w.Close() }

// BatchSize is how many rows a format hands over at a time.
const BatchSize = 4096

// Batch gathers a format's rows and hands them to yield BatchSize at a
// time, reusing its slice: what every RowsFunc does.
type Batch[T any] struct {
	rows  []T
	yield func([]T) error
}

// NewBatch gathers rows for yield; expect is how many there will be, at
// most (the first slice is no larger than needed).
func NewBatch[T any](expect int, yield func([]T) error) *Batch[T] {
	return &Batch[T]{rows: make([]T, 0, max(0, min(BatchSize, expect))), yield: yield}
}

// Add adds a row, handing the batch over when it is full.
func (b *Batch[T]) Add(row T) error {
	b.rows = append(b.rows, row)
	if len(b.rows) < BatchSize {
		return nil
	}
	err := b.yield(b.rows)
	b.rows = b.rows[:0]
	return err
}

// Flush hands over the rows not yet handed over.
func (b *Batch[T]) Flush() error {
	if len(b.rows) == 0 {
		return nil
	}
	err := b.yield(b.rows)
	b.rows = b.rows[:0]
	return err
}
