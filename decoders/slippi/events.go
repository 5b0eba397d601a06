package slippi

import (
	"encoding/binary"
	"math"
)

func be32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }

func (d *decoder) f32at(off, at int) float64 {
	return float64(math.Float32frombits(be32(d.data[off+at:])))
}
