package fzgx

import (
	"encoding/binary"
	"math"
)

// This file is a test-only encoder: it writes replays with chosen values so
// the round trips cover what the one real replay does not (Grand Prix, custom
// machines, emblems, every region, old racer array types).

// bitWriter is the inverse of the stream order: stream bit k is bit k&7
// (from the LSB) of byte k>>3, and a field is written from its top bit.
type bitWriter struct {
	buf []byte
	n   int64
}

func (w *bitWriter) put(width int, v uint64) {
	for j := width - 1; j >= 0; j-- {
		if w.n>>3 >= int64(len(w.buf)) {
			w.buf = append(w.buf, 0)
		}
		if v>>uint(j)&1 != 0 {
			w.buf[w.n>>3] |= 1 << uint(w.n&7)
		}
		w.n++
	}
}

func (w *bitWriter) f32(f float32) { w.put(32, uint64(math.Float32bits(f))) }

func (w *bitWriter) bytes(b []byte) {
	for _, c := range b {
		w.put(8, uint64(c))
	}
}

type encInput struct {
	buttons, strafe, accel, brake int
	frames                        int // 1..256
	x, y                          int // signed
}

type encCheckpoint struct {
	f1, f2 int
	unk    [6]int // widths 4,5,5,5,5,5
	pos    [4][3]float32
}

type encEmblem struct {
	part         int
	unk26        uint16
	unk27        float32
	rotV, rotH   uint16
	unk30        uint32
	base1, base2 float32
	unk33        [16]byte
	pos1, pos2   float32
	unk36        float32
	pos3, pos4   float32
	unk39        uint32
	sizeH, sizeV float32
	unk42        [24]byte
	pixels       []byte // 8192
}

type encCustom struct {
	unk18                   [5]byte
	machine, colorRel, nEmb int
	unk22                   [7]byte
	slider                  int
	unk24                   [16]byte
	emblems                 [4]encEmblem
	pilot, body, bodyColor  uint32
	cockpit, cockpitColor   uint32
	booster, boosterColor   uint32
	unk51                   uint32
}

type encRacer struct {
	human               bool
	machine, ai, slider int
	color, unk16        int
	custom              *encCustom
}

type encReplay struct {
	ts, racerType, course int
	unk4, unk5            uint32
	difficulty, mode      int
	unk9, laps            int
	racers                []encRacer
	unk52, unk53          int
	total                 int
	checkpoints           []encCheckpoint
	inputs                []encInput
}

func (e *encReplay) stream() []byte {
	w := &bitWriter{}
	w.put(8, uint64(e.ts))
	w.put(7, uint64(e.racerType))
	w.put(6, uint64(e.course))
	w.put(32, uint64(e.unk4))
	w.put(32, uint64(e.unk5))
	w.put(5, uint64(len(e.racers)))
	w.put(3, uint64(e.difficulty))
	w.put(2, uint64(e.mode))
	w.put(1, uint64(e.unk9))
	w.put(7, uint64(e.laps))
	for _, r := range e.racers {
		w.put(1, b2u(r.human))
		w.put(6, uint64(r.machine))
		if e.racerType >= 4 {
			w.put(5, uint64(r.ai))
		}
		if e.racerType >= 3 {
			w.put(7, uint64(r.slider))
		}
		if r.human {
			w.put(2, uint64(r.color))
			if e.racerType <= 1 {
				w.put(7, uint64(r.unk16))
			}
			w.put(1, b2u(r.custom != nil))
			if c := r.custom; c != nil {
				w.bytes(c.unk18[:])
				w.put(8, uint64(c.machine))
				w.put(8, uint64(c.colorRel))
				w.put(8, uint64(c.nEmb))
				w.bytes(c.unk22[:])
				w.put(8, uint64(c.slider))
				w.bytes(c.unk24[:])
				for _, em := range c.emblems {
					w.put(16, uint64(em.part))
					w.put(16, uint64(em.unk26))
					w.f32(em.unk27)
					w.put(16, uint64(em.rotV))
					w.put(16, uint64(em.rotH))
					w.put(32, uint64(em.unk30))
					w.f32(em.base1)
					w.f32(em.base2)
					w.bytes(em.unk33[:])
					w.f32(em.pos1)
					w.f32(em.pos2)
					w.f32(em.unk36)
					w.f32(em.pos3)
					w.f32(em.pos4)
					w.put(32, uint64(em.unk39))
					w.f32(em.sizeH)
					w.f32(em.sizeV)
					w.bytes(em.unk42[:])
					px := em.pixels
					if px == nil {
						px = make([]byte, 8192)
					}
					w.bytes(px)
				}
				for _, v := range []uint32{c.pilot, c.body, c.bodyColor, c.cockpit, c.cockpitColor, c.booster, c.boosterColor, c.unk51} {
					w.put(32, uint64(v))
				}
			}
		}
	}
	if e.racerType >= 5 {
		w.put(1, uint64(e.unk52))
	}
	w.put(2, uint64(e.unk53))
	if e.racerType >= 5 {
		w.put(20, uint64(e.total))
	}
	w.put(8, uint64(len(e.checkpoints)))
	for _, cp := range e.checkpoints {
		w.put(14, uint64(cp.f1))
		w.put(14, uint64(cp.f2))
		for k, width := range []int{4, 5, 5, 5, 5, 5} {
			w.put(width, uint64(cp.unk[k]))
		}
		for _, p := range cp.pos {
			w.f32(p[0])
			w.f32(p[1])
			w.f32(p[2])
		}
	}
	w.put(14, uint64(len(e.inputs)-1))
	for _, in := range e.inputs {
		w.put(8, uint64(in.buttons))
		w.put(8, uint64(uint8(int8(in.strafe))))
		w.put(7, uint64(in.accel))
		w.put(7, uint64(in.brake))
		w.put(8, uint64(in.frames-1))
		w.put(8, uint64(uint8(int8(in.x))))
		w.put(8, uint64(uint8(int8(in.y))))
	}
	return w.buf
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// gciOpts are the directory-entry values wrapGCI writes.
type gciOpts struct {
	region   byte
	fileType [2]byte
	modTime  uint32
	comment  [2][]byte // already encoded (Shift-JIS for GFZJ)
	name     string
}

// wrapGCI builds a whole .gci around a replay bitstream: the directory
// entry, the checksum, file type and comment, zero padding to 0x20A0, the
// stream, and zeros to the end of the last 0x2000-byte block.
func wrapGCI(o gciOpts, body []byte) []byte {
	if o.region == 0 {
		o.region = 'E'
	}
	if o.fileType == [2]byte{} {
		o.fileType = [2]byte{0x05, 0x04}
	}
	if o.name == "" {
		o.name = "fzr0000TEST.dat"
	}
	if o.comment[0] == nil {
		o.comment = [2][]byte{[]byte("F-ZERO GX"), []byte("Replay test")}
	}
	dataLen := 0x2060 + len(body)
	blocks := (dataLen + 0x1FFF) / 0x2000
	out := make([]byte, 0x40+blocks*0x2000)
	be := binary.BigEndian
	copy(out, "GFZ")
	out[3] = o.region
	copy(out[4:], "8P")
	out[6], out[7] = 0xFF, 0x02
	copy(out[8:0x28], o.name)
	be.PutUint32(out[0x28:], o.modTime)
	be.PutUint32(out[0x2C:], 0x60)
	be.PutUint16(out[0x30:], 0x0002)
	be.PutUint16(out[0x32:], 0x0003)
	out[0x34] = 0x04
	be.PutUint16(out[0x36:], 5)
	be.PutUint16(out[0x38:], uint16(blocks))
	be.PutUint16(out[0x3A:], 0xFFFF)
	be.PutUint32(out[0x3C:], 4)
	out[0x42], out[0x43] = o.fileType[0], o.fileType[1]
	copy(out[0x44:0x64], o.comment[0])
	copy(out[0x64:0x84], o.comment[1])
	copy(out[0x20A0:], body)
	be.PutUint16(out[0x40:], bitwiseCRC(out[0x42:]))
	return out
}

// bitwiseCRC is the save checksum computed one bit at a time, written apart
// from the decoder's table so the two check each other.
func bitwiseCRC(b []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, x := range b {
		crc ^= uint16(x)
		for k := 0; k < 8; k++ {
			if crc&1 == 1 {
				crc = crc>>1 ^ 0x8408
			} else {
				crc >>= 1
			}
		}
	}
	return ^crc
}

// minimalTA is a small valid Time Attack replay: one stock machine, four
// checkpoints, inputs adding up to the total frames.
func minimalTA() *encReplay {
	e := &encReplay{ts: 7, racerType: 5, course: 1, unk4: 0x12345678, unk5: 0xCAE80000, difficulty: 1, mode: 2, laps: 3,
		racers: []encRacer{{human: true, machine: 6, slider: 50}},
		unk52:  1, total: 400,
	}
	for i, f := range []int{182, 250, 300, 390} {
		cp := encCheckpoint{f1: f, f2: f + i}
		for k := range cp.pos {
			cp.pos[k] = [3]float32{float32(10 * i), 1, float32(-5 * i)}
		}
		e.checkpoints = append(e.checkpoints, cp)
	}
	e.inputs = []encInput{
		{buttons: 0x04, accel: 100, frames: 200},
		{buttons: 0x44, accel: 100, frames: 100, x: -64, y: 10},
		{buttons: 0x14, strafe: -20, accel: 0, brake: 100, frames: 100, x: 127, y: -128},
	}
	return e
}
