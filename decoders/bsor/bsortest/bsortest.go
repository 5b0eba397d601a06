// Package bsortest crafts BSOR replays for other packages' tests.
package bsortest

import "encoding/binary"

// WithText is a real BSOR replay with its player name, song name and
// mapper replaced by text. The info section is a run of length-prefixed
// strings after the magic, the version and the section id (BSOR's spec,
// specs/bsor): version, game version, timestamp, player id, player name
// (5th), platform, tracking system, headset, controller, hash, song name
// (11th), mapper (12th), difficulty (13th), then numbers. data must be a
// whole replay; the result is a new slice.
func WithText(data []byte, text string) []byte {
	out := append([]byte(nil), data[:6]...)
	p := 6
	for i := 1; i <= 13; i++ {
		n := int(binary.LittleEndian.Uint32(data[p:]))
		s := data[p+4 : p+4+n]
		p += 4 + n
		if i == 5 || i == 11 || i == 12 {
			s = []byte(text)
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(len(s)))
		out = append(out, s...)
	}
	return append(out, data[p:]...)
}
