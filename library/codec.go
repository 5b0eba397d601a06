package library

import (
	"encoding/binary"
	"errors"
	"math"
	"time"

	"rewind/model"
)

// The index stores each Header as a compact binary record: varints and
// length-prefixed strings in a fixed order. It is written and read only
// here; a change of layout changes indexMagic so old files are rebuilt.

type enc struct{ b []byte }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *enc) time(t time.Time) {
	if t.IsZero() {
		e.bool(false)
		return
	}
	e.bool(true)
	e.int(t.Unix())
	e.uint(uint64(t.Nanosecond()))
	_, off := t.Zone()
	e.int(int64(off))
}

var errCorrupt = errors.New("corrupt record")

type dec struct {
	b   []byte
	err error
}

func (d *dec) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// small is a count or length that must fit in what is left of the record.
func (d *dec) small() int {
	v := d.uint()
	if v > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *dec) str() string {
	n := d.small()
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *dec) bool() bool {
	if len(d.b) == 0 {
		d.fail()
		return false
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v != 0
}

func (d *dec) time() time.Time {
	if !d.bool() {
		return time.Time{}
	}
	sec, nsec, off := d.int(), d.uint(), d.int()
	if d.err != nil || nsec >= 1e9 || off < -86400 || off > 86400 {
		d.fail()
		return time.Time{}
	}
	t := time.Unix(sec, int64(nsec))
	if off == 0 {
		return t.UTC()
	}
	return t.In(time.FixedZone("", int(off)))
}

func (d *dec) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

// encodeHeader appends h's record body (the key fields are written by the
// caller).
func encodeHeader(e *enc, h *Header) {
	e.uint(uint64(h.Kind))
	e.str(string(h.Format))
	e.str(h.FormatName)
	e.str(h.Version)
	e.time(h.Start)
	e.str(h.Title)
	e.str(h.Mode)
	e.int(int64(h.Duration))
	e.int(int64(h.Frames))
	e.uint(math.Float64bits(h.Rate))
	e.str(h.Unit)
	e.int(int64(h.Clock))
	e.str(h.ClockName)
	e.str(h.Result)
	e.bool(h.Partial)
	e.uint(uint64(len(h.Players)))
	for _, p := range h.Players {
		e.str(p.Slot)
		e.str(p.Name)
		e.str(p.Code)
		e.str(p.Character)
		e.str(p.Team)
		e.str(p.Result)
	}
	e.int(int64(h.Problems))
	e.int(int64(h.Notes))
	e.str(h.Err)
	e.bool(h.NotReplay)
	e.bool(h.Check != nil)
	if c := h.Check; c != nil {
		e.int(int64(c.Problems))
		e.int(int64(c.Notes))
		e.bool(c.Partial)
		e.str(c.Err)
		e.str(c.First)
	}
}

func decodeHeaderRecord(d *dec, h *Header) {
	h.Kind = Kind(d.uint())
	h.Format = model.Format(d.str())
	h.FormatName = d.str()
	h.Version = d.str()
	h.Start = d.time()
	h.Title = d.str()
	h.Mode = d.str()
	h.Duration = time.Duration(d.int())
	h.Frames = int(d.int())
	h.Rate = math.Float64frombits(d.uint())
	h.Unit = d.str()
	h.Clock = time.Duration(d.int())
	h.ClockName = d.str()
	h.Result = d.str()
	h.Partial = d.bool()
	// each player takes at least six bytes: bound the count by what is left
	n := d.small()
	if n > len(d.b)/6 {
		d.fail()
	}
	if d.err != nil {
		return
	}
	if n > 0 {
		h.Players = make([]Player, n)
	}
	for i := range h.Players {
		p := &h.Players[i]
		p.Slot, p.Name, p.Code, p.Character, p.Team, p.Result = d.str(), d.str(), d.str(), d.str(), d.str(), d.str()
	}
	h.Problems = int(d.int())
	h.Notes = int(d.int())
	h.Err = d.str()
	h.NotReplay = d.bool()
	if d.bool() {
		c := &Check{}
		c.Problems = int(d.int())
		c.Notes = int(d.int())
		c.Partial = d.bool()
		c.Err = d.str()
		c.First = d.str()
		h.Check = c
	}
	if h.Kind > Skipped {
		d.fail()
	}
}
