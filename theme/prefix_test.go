package theme

import (
	"math/rand/v2"
	"testing"
)

// TestPrefixesAgree holds the eight-at-a-time scans to the byte-by-byte rules.
func TestPrefixesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', ' ', '~', 0x7f, 0x1f, 0x20, '\n', '\t', 0x80, 0xc3, 0xff, 0x00, 'Z', '"'}
	for n := range 3000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			if rng.IntN(8) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[i] = byte(0x20 + rng.IntN(0x5f))
			}
		}
		ascii := 0 // ASCII but DEL
		for ascii < len(b) && b[ascii] < 0x7f {
			ascii++
		}
		if got := jsonPlainPrefix(b); got != ascii {
			t.Fatalf("case %d %q: jsonPlainPrefix %d, want %d", n, b, got, ascii)
		}
		plain := 0
		for plain < len(b) && b[plain] >= 0x20 && b[plain] < 0x7f {
			plain++
		}
		if got := plainPrefix(b); got > plain || plain-got >= 8 {
			t.Fatalf("case %d %q: plainPrefix %d, want within 8 below %d", n, b, got, plain)
		}
	}
}
