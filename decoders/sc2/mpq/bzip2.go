package mpq

import (
	"encoding/binary"
	"sync"
	"unsafe"
)

// bzDecoder decodes well-formed bzip2 streams with one array of 4 bytes a
// byte of block, where dsnet's reader holds about 8 (its symbols, its
// move-to-front output, the BWT permutation and a copy of the block) and
// grows some of them by appending: a fresh dsnet reader allocated 11 MB to
// decode the 1.7 MB tracker stream of a 240 KB replay, this one 3.6 MB.
// That stream was the peak of an SC2 decode's memory.
//
// It only ever says "ok" or "not ok": a stream it does not take whole (a
// checksum that fails, a tree that is not complete, bytes after the end,
// a size other than the one declared, anything odd) is decoded again by
// dsnet's reader (unbzip2), whose errors are the ones the diagnostics
// quote. Checksums guard what it accepts: a block's CRC covers its output,
// so an accepted stream yields the bytes dsnet yields. It is at least as
// strict as dsnet everywhere else (it refuses degenerate trees, which dsnet
// decodes), so nothing dsnet refuses is accepted here.
type bzDecoder struct {
	src  []byte
	pos  int    // next byte of src to load into bits
	bits uint64 // unread bits, most significant first
	n    uint   // how many bits of bits are valid

	blockMax int // the most bytes a block of this member can hold

	// tt holds the block: the move-to-front output in the low byte of
	// each entry, then the inverse BWT's links in the upper 24 bits. One
	// of more than keptBlock entries made for a decode alone (see Hold;
	// a tracker stream's 900k block, 3.6 MB) lives outside the Go heap,
	// in a mapping of its own (ttMap) given back to the system when the
	// stream is done (release). On the heap it was live when the collector
	// ran during the stream, which then let the heap grow to twice what
	// was live, the array included, for the rest of the decode and the
	// replay's analysis: test8 (170 KB), whose one-file check peaked at
	// 28.1 MB RSS, peaks at 24.6 with it outside (medians of 5). Decodes
	// side by side make theirs on the heap and keep them between streams.
	tt    []uint32
	ttMap []byte

	// lean (a check's archive, Archive.Lean) has a block of more than
	// mappedBlock entries of a decode alone held in lo and hi instead: in
	// 2.5 bytes a byte rather than tt's 4 (2.25 MB rather than 3.6 for a
	// tracker stream's 900k block), outside the heap like ttMap (loMap), as
	// the decompression of that stream was then the peak of a one-file
	// check of test8 and test5. The block's bytes go in lo at first, then
	// each entry's 20-bit link, its low 16 bits in lo and its high 4 in a
	// nibble of hi; the byte an entry stands for is found from its index
	// and the bytes' counts (smallBlock). That takes a second pass over the
	// links, each a load that misses the cache: a block costs about twice
	// the time, which only a check alone pays (a whole decode does not).
	lean  bool
	lo    []uint16
	hi    []byte
	loMap []byte

	trees [maxTrees]huffTree
	sels  []byte
}

const (
	bzBlockMagic = 0x314159265359
	bzEndMagic   = 0x177245385090
	maxTrees     = 6
	maxCodeLen   = 20
	huffBits     = 10      // bits looked up at once; longer codes are walked
	keptBlock    = 1 << 16 // block arrays larger (256 KB) are given back when a decode is alone
	// mappedBlock is the fewest entries a lean decode alone reads outside
	// the heap (lo and hi): a battle lobby's block (58k entries for 46 KB)
	// was a 232 KB array on the heap that the free list then kept
	mappedBlock = 1 << 12
	maxBlock    = 9 * 100000 // the most a block holds (level 9)
	groupShift  = 8          // smallBlock knows the byte at every 256th entry
)

// huffTree decodes one of a block's prefix codes: a table for codes of up
// to huffBits bits, canonical ranges for the longer ones.
type huffTree struct {
	table [1 << huffBits]uint16 // symbol<<5 | length; length 0: a longer code
	// limit[l] is one past the largest left-aligned code of length l
	// (codes as 20-bit numbers); base[l] turns a code of length l into
	// its index in syms.
	limit  [maxCodeLen + 2]uint32
	base   [maxCodeLen + 1]int32
	syms   [258]uint16
	minLen uint
}

// build makes the tree of the code lengths; false when the lengths do not
// make a complete prefix code (dsnet decodes those too; they go to it).
func (h *huffTree) build(lens []uint8) bool {
	var count [maxCodeLen + 1]int
	for _, l := range lens {
		count[l]++
	}
	// complete: the codes fill the 2^20 space exactly
	sum := 0
	for l := 1; l <= maxCodeLen; l++ {
		sum += count[l] << (maxCodeLen - l)
	}
	if sum != 1<<maxCodeLen {
		return false
	}
	// canonical codes: by length, then by symbol (as bzip2 assigns them)
	var first [maxCodeLen + 2]int // index in syms of the first code of a length
	idx := 0
	h.minLen = 0
	for l := 1; l <= maxCodeLen; l++ {
		first[l] = idx
		idx += count[l]
		if count[l] > 0 && h.minLen == 0 {
			h.minLen = uint(l)
		}
	}
	next := first
	for s, l := range lens {
		h.syms[next[l]] = uint16(s)
		next[l]++
	}
	code := uint32(0) // left-aligned in 20 bits
	for i := range h.table {
		h.table[i] = 0
	}
	for l := 1; l <= maxCodeLen; l++ {
		h.base[l] = int32(first[l]) - int32(code>>(maxCodeLen-l))
		for k := 0; k < count[l]; k++ {
			if l <= huffBits {
				sym := h.syms[first[l]+k]
				lo := code >> (maxCodeLen - huffBits)
				hi := lo + 1<<(huffBits-l)
				for j := lo; j < hi; j++ {
					h.table[j] = sym<<5 | uint16(l)
				}
			}
			code += 1 << (maxCodeLen - l)
		}
		h.limit[l] = code
	}
	return true
}

// release lets the block array go: a mapping goes back to the system.
func (z *bzDecoder) release() {
	z.tt = nil
	if z.ttMap != nil {
		unmapBlock(z.ttMap)
		z.ttMap = nil
	}
	z.lo, z.hi = nil, nil
	if z.loMap != nil {
		unmapBlock(z.loMap)
		z.loMap = nil
	}
}

// large reports whether the decoder holds a block array outside the
// heap, or one of more than keptBlock entries on it.
func (z *bzDecoder) large() bool { return cap(z.tt) > keptBlock || z.loMap != nil }

// mapSmall makes lo and hi room for n entries outside the Go heap; false
// when the system gives no such memory (then tt, on the heap, is used).
func (z *bzDecoder) mapSmall(n int) bool {
	if cap(z.lo) >= n {
		return true
	}
	z.release()
	m := mapBytes(2*n + (n+1)/2)
	if m == nil {
		return false
	}
	z.lo, z.hi, z.loMap = unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(m))), n), m[2*n:], m
	return true
}

// refill loads bits until at least 57 are held or the input ends.
func (z *bzDecoder) refill() {
	if z.pos+8 <= len(z.src) {
		v := binary.BigEndian.Uint64(z.src[z.pos:])
		z.bits |= v >> z.n
		take := (63 - z.n) >> 3
		z.pos += int(take)
		z.n += take << 3
		return
	}
	for z.n <= 56 && z.pos < len(z.src) {
		z.bits |= uint64(z.src[z.pos]) << (56 - z.n)
		z.pos++
		z.n += 8
	}
}

// take reads k (at most 32) bits; ok false when the input ends first.
func (z *bzDecoder) take(k uint) (uint32, bool) {
	if z.n < k {
		z.refill()
		if z.n < k {
			return 0, false
		}
	}
	v := uint32(z.bits >> (64 - k))
	z.bits <<= k
	z.n -= k
	return v, true
}

// sym decodes one symbol of the tree; ok false at the end of the input.
func (z *bzDecoder) sym(h *huffTree) (int, bool) {
	if z.n < maxCodeLen {
		z.refill()
	}
	e := h.table[z.bits>>(64-huffBits)]
	if l := uint(e & 31); l != 0 && l <= z.n {
		z.bits <<= l
		z.n -= l
		return int(e >> 5), true
	}
	// a longer code, or too few bits left for the table's guess
	code := uint32(z.bits >> (64 - maxCodeLen))
	for l := h.minLen; l <= maxCodeLen; l++ {
		if code < h.limit[l] {
			if l > z.n {
				return 0, false
			}
			z.bits <<= l
			z.n -= l
			return int(h.syms[h.base[l]+int32(code>>(maxCodeLen-l))]), true
		}
	}
	return 0, false
}

// decode appends to out the size bytes the bzip2 streams of src hold;
// false when it does not take the input whole (what it returns then is
// of no use; the caller's out still holds what it held, bytes past its
// length may be overwritten).
func (z *bzDecoder) decode(out []byte, size, limit int, src []byte) (_ []byte, ok bool) {
	start := len(out)
	defer func() {
		// an index out of range on input nobody foresaw is a refusal
		// like any other: dsnet decodes it again
		if recover() != nil {
			ok = false
		}
		z.src = nil
	}()
	z.src, z.pos, z.bits, z.n = src, 0, 0, 0
	// A block holds the output of the first run-length stage, at most 5/4
	// of the bytes it yields (four equal bytes and a count of 0): a block
	// array of that size suffices for any stream that yields size bytes,
	// however large its block-size digit.
	z.blockMax = size + size/4 + 16
	streams := 0
	for z.pos < len(z.src) || z.n >= 8 {
		var stop bool
		if out, stop = z.stream(out, start+size, limit); stop {
			return out, false
		}
		streams++
	}
	return out, streams > 0 && len(out) == start+size
}

// stream decodes one stream: header, blocks, end marker; stop when it
// does not take it.
func (z *bzDecoder) stream(out []byte, end, limit int) (_ []byte, stop bool) {
	h, ok := z.take(32)
	if !ok || h>>8 != 'B'<<16|'Z'<<8|'h' {
		return out, true
	}
	level := int(h&0xff) - '0'
	if level < 1 || level > 9 {
		return out, true
	}
	var combined uint32
	for {
		hi, ok1 := z.take(24)
		lo, ok2 := z.take(24)
		if !ok1 || !ok2 {
			return out, true
		}
		crc, ok := z.take(32)
		if !ok {
			return out, true
		}
		switch uint64(hi)<<24 | uint64(lo) {
		case bzBlockMagic:
		case bzEndMagic:
			if crc != combined {
				return out, true
			}
			// the rest of the last byte is padding, as dsnet reads it
			z.bits <<= z.n % 8
			z.n -= z.n % 8
			return out, false
		default:
			return out, true
		}
		blockStart := len(out)
		if out, ok = z.block(out, level, end, limit); !ok {
			return out, true
		}
		if bzCRC(out[blockStart:]) != crc {
			return out, true
		}
		combined = (combined<<1 | combined>>31) ^ crc
	}
}

// block decodes one block (after its magic and CRC) and appends its
// bytes to out, to at most end.
func (z *bzDecoder) block(out []byte, level, end, limit int) ([]byte, bool) {
	rnd, ok1 := z.take(1)
	origPtr, ok2 := z.take(24)
	used, ok3 := z.take(16)
	if !ok1 || !ok2 || !ok3 || rnd != 0 {
		return out, false
	}
	var dict [256]byte
	nDict := 0
	for i := 0; i < 16; i++ {
		if used&(0x8000>>i) == 0 {
			continue
		}
		m, ok := z.take(16)
		if !ok {
			return out, false
		}
		for j := 0; j < 16; j++ {
			if m&(0x8000>>j) != 0 {
				dict[nDict] = byte(i*16 + j)
				nDict++
			}
		}
	}
	if nDict == 0 {
		return out, false
	}
	alpha := nDict + 2
	nt, ok1 := z.take(3)
	ns, ok2 := z.take(15)
	if !ok1 || !ok2 || nt < 2 || nt > maxTrees || ns == 0 {
		return out, false
	}
	// selectors: unary indices into a move-to-front list of the trees
	if cap(z.sels) < int(ns) {
		z.sels = make([]byte, ns)
	}
	sels := z.sels[:ns]
	order := [maxTrees]byte{0, 1, 2, 3, 4, 5}
	for i := range sels {
		j := 0
		for {
			b, ok := z.take(1)
			if !ok {
				return out, false
			}
			if b == 0 {
				break
			}
			if j++; j >= int(nt) {
				return out, false
			}
		}
		t := order[j]
		copy(order[1:j+1], order[:j])
		order[0] = t
		sels[i] = t
	}
	// code lengths, delta coded
	var lens [258]uint8
	for t := 0; t < int(nt); t++ {
		l, ok := z.take(5)
		if !ok {
			return out, false
		}
		for s := 0; s < alpha; s++ {
			for {
				if l < 1 || l > maxCodeLen {
					return out, false
				}
				b, ok := z.take(1)
				if !ok {
					return out, false
				}
				if b == 0 {
					break
				}
				b, ok = z.take(1)
				if !ok {
					return out, false
				}
				if b == 0 {
					l++
				} else {
					l--
				}
			}
			lens[s] = uint8(l)
		}
		if !z.trees[t].build(lens[:alpha]) {
			return out, false
		}
	}

	// symbols: run lengths of the front byte (RUNA, RUNB), move-to-front
	// indices, end of block
	max := level * 100000 // dsnet's limit, by the stream's digit
	room := min(max, z.blockMax)
	var counts [256]int
	if z.lean && room > mappedBlock && alone() && z.mapSmall(room) {
		n, ok := symbols(z, z.lo[:room], sels, &dict, alpha, max, &counts)
		if !ok || n == 0 || int(origPtr) >= n {
			return out, false
		}
		return z.smallBlock(out, n, int(origPtr), &counts, end, limit)
	}
	if cap(z.tt) < room {
		z.release()
		if room > keptBlock && alone() {
			z.tt, z.ttMap = mapBlock(room)
		}
		if z.tt == nil {
			z.tt = make([]uint32, room)
		}
	}
	tt := z.tt[:room]
	n, ok := symbols(z, tt, sels, &dict, alpha, max, &counts)
	if !ok {
		return out, false
	}
	if n == 0 || int(origPtr) >= n {
		return out, false
	}
	tt = tt[:n]

	// inverse BWT: each entry gets the index of the byte that follows it
	sum := 0
	for b := range counts {
		c := counts[b]
		counts[b] = sum
		sum += c
	}
	for i := range tt {
		b := byte(tt[i])
		tt[counts[b]] |= uint32(i) << 8
		counts[b]++
	}

	// undo the first run-length stage while following the links: four
	// equal bytes are followed by a count of more
	pos := tt[origPtr] >> 8
	last, same := byte(0), 0
	for k := 0; k < n; k++ {
		t := tt[pos]
		pos = t >> 8
		b := byte(t)
		if same == 4 {
			if len(out)+int(b) > end {
				return out, false
			}
			for c := 0; c < int(b); c++ {
				if len(out) == cap(out) {
					out = grow(out, 1, limit)
				}
				out = append(out, last)
			}
			same = 0
			continue
		}
		if same > 0 && b == last {
			same++
		} else {
			last, same = b, 1
		}
		if len(out) >= end {
			return out, false
		}
		if len(out) == cap(out) {
			out = grow(out, 1, limit)
		}
		out = append(out, b)
	}
	if same == 4 { // four equal bytes and no count: dsnet refuses it
		return out, false
	}
	return out, true
}

// smallBlock finishes a block whose n bytes symbols put in z.lo: the
// inverse BWT and the first run-length stage, as block does with tt, in
// 2.5 bytes a byte. Sorted, the block's bytes are byte b from start[b]
// to start[b+1]; an entry's byte is found from its index there (by
// halves, 8 steps) rather than kept beside its link.
func (z *bzDecoder) smallBlock(out []byte, n, origPtr int, counts *[256]int, end, limit int) ([]byte, bool) {
	lo, hi := z.lo[:n], z.hi[:(n+1)/2]
	link := func(i int) int { return int(lo[i]) | int(hi[i>>1]>>(4*(i&1))&15)<<16 }
	setLink := func(i, v int) {
		lo[i] = uint16(v)
		sh := 4 * (i & 1)
		hi[i>>1] = hi[i>>1]&^(15<<sh) | byte(v>>16&15)<<sh
	}
	var start [257]int
	for b := range counts {
		start[b+1] = start[b] + counts[b]
	}
	// each entry's link to where its byte is in the sorted block, written
	// over the byte once read
	next := start
	for i := 0; i < n; i++ {
		b := byte(lo[i])
		setLink(i, next[b])
		next[b]++
	}
	// the links form one cycle through origPtr in a block that decodes:
	// turned around, each sorted entry links to the entry of the byte
	// that follows it (one that does not decode fails its CRC)
	i, j := origPtr, link(origPtr)
	for {
		t := link(j)
		setLink(j, i)
		i, j = j, t
		if i == origPtr {
			break
		}
	}
	// the byte at every 256th entry narrows the search: most such spans
	// hold one byte value, and need no step at all
	var firsts [maxBlock>>groupShift + 2]byte
	for g, b := 0, 0; g <= (n-1)>>groupShift+1; g++ {
		for k := min(g<<groupShift, n-1); start[b+1] <= k; {
			b++
		}
		firsts[g] = byte(b)
	}
	byteAt := func(k int) byte {
		b, top := int(firsts[k>>groupShift]), int(firsts[k>>groupShift+1])
		for b < top { // the last byte value of b..top that starts at or before k
			mid := (b + top + 1) / 2
			if start[mid] <= k {
				b = mid
			} else {
				top = mid - 1
			}
		}
		return byte(b)
	}
	pos := origPtr
	last, same := byte(0), 0
	for k := 0; k < n; k++ {
		b := byteAt(pos)
		pos = link(pos)
		if same == 4 {
			if len(out)+int(b) > end {
				return out, false
			}
			for c := 0; c < int(b); c++ {
				if len(out) == cap(out) {
					out = grow(out, 1, limit)
				}
				out = append(out, last)
			}
			same = 0
			continue
		}
		if same > 0 && b == last {
			same++
		} else {
			last, same = b, 1
		}
		if len(out) >= end {
			return out, false
		}
		if len(out) == cap(out) {
			out = grow(out, 1, limit)
		}
		out = append(out, b)
	}
	if same == 4 { // four equal bytes and no count: dsnet refuses it
		return out, false
	}
	return out, true
}

// symbols decodes a block's symbols into tt, the bytes of the block in
// the low byte of each entry, and counts them; n is how many.
func symbols[T uint16 | uint32](z *bzDecoder, tt []T, sels []byte, dict *[256]byte, alpha, max int, counts *[256]int) (n int, ok bool) {
	room := len(tt)
	mtf := *dict
	eob := alpha - 1
	nsyms, sel := 0, 0
	run, runBit := 0, 0
	var tree *huffTree
	left := 0
	for {
		if left == 0 {
			if sel >= len(sels) {
				return n, false
			}
			tree = &z.trees[sels[sel]]
			sel++
			left = 50
		}
		left--
		s, ok := z.sym(tree)
		if !ok {
			return n, false
		}
		if s <= 1 { // RUNA, RUNB: bijective base 2, least significant first
			if runBit >= 24 {
				return n, false
			}
			run += (s + 1) << runBit
			runBit++
			if nsyms++; nsyms > max {
				return n, false
			}
			continue
		}
		if run > 0 {
			if n+run > room {
				return n, false
			}
			b := mtf[0]
			counts[b] += run
			for k := n; k < n+run; k++ {
				tt[k] = T(b)
			}
			n += run
			run, runBit = 0, 0
		}
		if s == eob {
			return n, true
		}
		if s > eob || n >= room {
			return n, false
		}
		if nsyms++; nsyms > max {
			return n, false
		}
		i := s - 1
		b := mtf[i]
		if i < 16 {
			// most symbols are near the front: a call to copy costs
			// more than moving a few bytes
			for k := i; k > 0; k-- {
				mtf[k] = mtf[k-1]
			}
		} else {
			copy(mtf[1:i+1], mtf[:i])
		}
		mtf[0] = b
		counts[b]++
		tt[n] = T(b)
		n++
	}
}

// bzCRCTables is bzip2's CRC-32 (polynomial 0x04c11db7, most significant
// bit first), for 8 bytes a step: table k gives the CRC of a byte followed
// by k zero bytes. A byte a step was a tenth of a corpus decode. Made on
// first use.
var bzCRCTables = sync.OnceValue(func() *[8][256]uint32 {
	t := new([8][256]uint32)
	for i := range t[0] {
		c := uint32(i) << 24
		for k := 0; k < 8; k++ {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04c11db7
			} else {
				c <<= 1
			}
		}
		t[0][i] = c
	}
	for i := range t[0] {
		for k := 1; k < 8; k++ {
			c := t[k-1][i]
			t[k][i] = c<<8 ^ t[0][c>>24]
		}
	}
	return t
})

func bzCRC(b []byte) uint32 {
	c := ^uint32(0)
	t := bzCRCTables()
	for ; len(b) >= 8; b = b[8:] {
		hi := c ^ (uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]))
		c = t[7][hi>>24] ^ t[6][byte(hi>>16)] ^ t[5][byte(hi>>8)] ^ t[4][byte(hi)] ^
			t[3][b[4]] ^ t[2][b[5]] ^ t[1][b[6]] ^ t[0][b[7]]
	}
	for _, x := range b {
		c = c<<8 ^ t[0][byte(c>>24)^x]
	}
	return ^c
}
