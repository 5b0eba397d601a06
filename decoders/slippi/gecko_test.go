package slippi

import (
	"encoding/binary"
	"testing"
)

// TestGeckoListPieces counts a hand-built gecko list cut into Message
// Splitter pieces at every place, words split across pieces and empty
// pieces included: the count is the list's, wherever the cuts fall.
func TestGeckoListPieces(t *testing.T) {
	// an 04 code at 0x80123456, a C2 code with 2 lines, a 06 code writing
	// 3 bytes (padded to 8), and a C0 code whose line count runs past the
	// end (it takes the rest)
	list := []byte{0x04, 0x12, 0x34, 0x56, 0, 0, 0, 1}
	list = append(list, 0xC2, 0, 0, 0, 0, 0, 0, 2)
	list = append(list, make([]byte, 16)...)
	list = append(list, 0x06, 0, 0, 0, 0, 0, 0, 3, 'a', 'b', 'c', 0, 0, 0, 0, 0)
	list = append(list, 0xC0, 0, 0, 0, 0, 0, 0, 9, 1, 2, 3)
	split := func(parts ...[]byte) geckoList {
		g := geckoList{}
		for _, part := range parts {
			b := make([]byte, 517)
			b[0] = cmdSplit
			copy(b[1:], part)
			binary.BigEndian.PutUint16(b[0x201:], uint16(len(part)))
			b[0x203] = cmdGecko
			g.offs = append(g.offs, len(g.data))
			g.data = append(g.data, b...)
		}
		return g
	}
	check := func(name string, g geckoList) {
		t.Helper()
		codes, first := g.codes()
		if codes != 4 || first != 0x80123456 || g.size() != len(list) {
			t.Errorf("%s: %d codes, first %#x, %d bytes; want 4, 0x80123456, %d", name, codes, first, g.size(), len(list))
		}
	}
	check("one piece", split(list))
	for a := 0; a <= len(list); a++ {
		check("two pieces", split(list[:a], list[a:]))
		for b := a; b <= len(list); b++ {
			check("three pieces", split(list[:a], list[a:b], list[b:]))
		}
	}
	// one Gecko List event, not split
	g := geckoList{data: append([]byte{cmdGecko}, list...), offs: []int{0}, geckoSize: int32(len(list))}
	check("gecko list event", g)
	if c, _ := (geckoList{}).codes(); c != 0 {
		t.Errorf("no pieces: %d codes", c)
	}
}
