package mpq

import "sync"

// The MPQ crypt table: 0x500 words generated from seed 0x00100001, used by
// the name hashes and by table decryption; made on first use (a run that
// opens no archive never pays for it).
var cryptTable = sync.OnceValue(func() *[0x500]uint32 {
	t := new([0x500]uint32)
	seed := uint32(0x00100001)
	for i := 0; i < 0x100; i++ {
		idx := i
		for j := 0; j < 5; j++ {
			seed = (seed*125 + 3) % 0x2AAAAB
			hi := (seed & 0xFFFF) << 16
			seed = (seed*125 + 3) % 0x2AAAAB
			t[idx] = hi | seed&0xFFFF
			idx += 0x100
		}
	}
	return t
})

// Hash types: the row of the crypt table a name hash uses.
const (
	hashTableOffset = 0
	hashNameA       = 1
	hashNameB       = 2
	hashFileKey     = 3
)

// hashString hashes a file name the MPQ way: upper case, '/' as '\'.
func hashString(s string, kind uint32) uint32 {
	ct := cryptTable()
	seed1, seed2 := uint32(0x7FED7FED), uint32(0xEEEEEEEE)
	for i := 0; i < len(s); i++ {
		c := uint32(s[i])
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c == '/' {
			c = '\\'
		}
		seed1 = ct[kind<<8+c] ^ (seed1 + seed2)
		seed2 = c + seed1 + seed2 + seed2<<5 + 3
	}
	return seed1
}

// HashString exposes the name hash (kind 0 table offset, 1 and 2 the two
// name checks, 3 the file key) for tools and tests.
func HashString(s string, kind uint32) uint32 { return hashString(s, kind&3) }

func decrypt(w []uint32, key uint32) {
	ct := cryptTable()
	seed2 := uint32(0xEEEEEEEE)
	for i := range w {
		seed2 += ct[0x400+key&0xFF]
		v := w[i] ^ (key + seed2)
		key = (^key<<0x15 + 0x11111111) | key>>0x0B
		seed2 = v + seed2 + seed2<<5 + 3
		w[i] = v
	}
}

// Encrypt is the inverse of the table decryption, for tools and tests that
// build archives.
func Encrypt(w []uint32, key uint32) {
	ct := cryptTable()
	seed2 := uint32(0xEEEEEEEE)
	for i := range w {
		seed2 += ct[0x400+key&0xFF]
		v := w[i]
		w[i] = v ^ (key + seed2)
		key = (^key<<0x15 + 0x11111111) | key>>0x0B
		seed2 = v + seed2 + seed2<<5 + 3
	}
}
