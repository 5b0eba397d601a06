package slippi

import "encoding/binary"

// The gecko list arrives in pieces (Message Splitter events of up to 512
// bytes each, or one Gecko List event) and is read where they lie in the
// stream: joining a list of 100 kB or more only to count its codes would
// copy it on every decode.

// geckoList is the list the pieces at offs carry, in order.
type geckoList struct {
	data      []byte
	offs      []int
	geckoSize int32 // the Gecko List event's payload size, for an unsplit list
}

func (d *decoder) geckoList() geckoList {
	return geckoList{data: d.data, offs: d.geckoOffs, geckoSize: d.size[cmdGecko]}
}

// piece is what the event at p adds to the list (the events pass took
// only pieces that hold what they say).
func (g geckoList) piece(p int) []byte {
	if g.data[p] == cmdSplit {
		return g.data[p+1 : p+1+min(int(binary.BigEndian.Uint16(g.data[p+0x201:])), 512)]
	}
	return g.data[p+1 : p+1+int(g.geckoSize)]
}

// size is the list's length in bytes.
func (g geckoList) size() int {
	n := 0
	for _, p := range g.offs {
		n += len(g.piece(p))
	}
	return n
}

// codes counts the codes in the list. Most code types take 8 bytes; C0/C2
// (execute/insert ASM) carry a line count of 8-byte lines, 06 (string
// write) a byte count padded to 8, and 08 (serial write) 16. A code that
// runs past the end takes the rest.
func (g geckoList) codes() (count int, first uint32) {
	r := geckoReader{g: g}
	r.next()
	for pos, end := 0, g.size(); pos+8 <= end; {
		w := r.u32(pos)
		typ := w >> 24 & 0xFE
		if count == 0 {
			first = w&0x01FFFFFF + 0x80000000
		}
		size := 8
		switch typ {
		case 0xC0, 0xC2:
			size = 8 + int(r.u32(pos+4))*8
		case 0x06:
			size = 8 + int((r.u32(pos+4)+7)&^7)
		case 0x08:
			size = 16
		}
		if size < 8 || size > end-pos {
			size = end - pos
		}
		count++
		pos += size
	}
	return count, first
}

// geckoReader reads the list at positions that only move forward.
type geckoReader struct {
	g     geckoList
	i     int    // the next piece to load
	cur   []byte // the piece loaded
	start int    // the list position cur starts at
}

// next loads the next piece; false past the last.
func (r *geckoReader) next() bool {
	if r.i >= len(r.g.offs) {
		return false
	}
	r.start += len(r.cur)
	r.cur = r.g.piece(r.g.offs[r.i])
	r.i++
	return true
}

// u32 is the big-endian word at list position pos, which is at or after
// the last one read and at most len-4.
func (r *geckoReader) u32(pos int) uint32 {
	for pos >= r.start+len(r.cur) && r.next() {
	}
	if at := pos - r.start; at+4 <= len(r.cur) {
		return binary.BigEndian.Uint32(r.cur[at:])
	}
	var w uint32 // the word spans pieces
	for k := 0; k < 4; k++ {
		for pos+k >= r.start+len(r.cur) && r.next() {
		}
		w = w<<8 | uint32(r.cur[pos+k-r.start])
	}
	return w
}
