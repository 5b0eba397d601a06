package osr

import (
	"rewind/decoders/frames"
	"rewind/model"
)

// FrameRow is one input frame for `rewind export`: the record's values as
// the file has them, its song time, and the keys it holds by the mode's
// key list. Names are `rewind dump`'s.
type FrameRow struct {
	Path       string  `parquet:"path,dict"`
	FrameIndex int32   `parquet:"frameIndex"`
	Time       int64   `parquet:"time"` // song time, ms: the sum of every w so far
	W          int32   `parquet:"w"`    // ms since the record before
	X          float64 `parquet:"x"`    // cursor x; catch: the catcher; mania: the columns' bit set
	Y          float64 `parquet:"y"`
	Z          int32   `parquet:"z"`    // the keys as the file has them
	Keys       uint32  `parquet:"keys"` // the keys held, a bit per key of the mode's list
	KeyNames   string  `parquet:"keyNames,dict"`
	HasLife    bool    `parquet:"hasLife"` // the file has a life bar graph
	Life       float64 `parquet:"life"`    // the life bar there, 0 to 1 (0 without a graph)
}

// frameRows makes Replay.FrameRows: every input frame.
func (v *view) frameRows(r *model.Replay) func(yield func(any) error) error {
	return func(yield func(any) error) error {
		rows := frames.NewBatch(len(v.fr), func(b []FrameRow) error { return yield(b) })
		mode := v.d.h.mode
		for i := range v.fr {
			f := &v.fr[i]
			k := keysOf(mode, f)
			row := FrameRow{Path: r.Path, FrameIndex: int32(i), Time: f.t, W: f.w, X: f.x, Y: f.y, Z: f.z, Keys: k, KeyNames: v.keysText(k)}
			if l, ok := v.d.lifeAt(v.mono[i]); ok {
				row.Life, row.HasLife = l, true
			}
			if err := rows.Add(row); err != nil {
				return err
			}
		}
		return rows.Flush()
	}
}
