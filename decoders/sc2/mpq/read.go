package mpq

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"rewind/model"
)

// Sector is one stored piece of a member: where its bytes lie in the file
// and what they become. A single-unit member is one sector.
type Sector struct {
	Off, Len int64 // the stored bytes in the file, compression byte included
	Size     int   // bytes it holds once decompressed
	Comp     byte  // compression byte (CompZlib, CompBzip2, ...); 0 when stored as is
}

// Compressed reports whether the sector starts with a compression byte: a
// sector stored in fewer bytes than it holds.
func (s Sector) Compressed() bool { return s.Len < int64(s.Size) }

// ReadFile returns a member's contents. On damage it returns what it could
// decompress (whole sectors before the damage) together with the error.
func (a *Archive) ReadFile(name string) ([]byte, error) {
	bi, err := a.find(name)
	if err != nil {
		return nil, err
	}
	return a.ReadBlock(name, bi)
}

// find is lookup with its errors made: the budget's refusal, or "not
// found".
func (a *Archive) find(name string) (int, error) {
	if e := a.spent(name, a.HashTableAt); e != nil {
		return -1, e
	}
	bi, err := a.lookup(name)
	switch {
	case err != nil:
		return -1, budgetErr(name, a.HashTableAt, fmt.Errorf("looking up %s: %w", name, err))
	case bi < 0:
		return -1, &Error{File: name, Off: a.HashTableAt, Msg: ErrNotFound.Error(), Err: ErrNotFound}
	}
	return bi, nil
}

// ReadBlock reads block bi; name is the member's name, used in errors and
// as the key of encrypted members. On damage it returns the whole sectors
// before the damaged one together with the error: nothing a sector that
// failed its checks yielded.
//
// Decompressing pays the member's declared size from the decode budget
// before anything is allocated, every time it is called: nine members
// sharing one block pay nine times. The output never exceeds the declared
// size. A stored member that needs no decryption costs nothing: the
// result is then a slice of the archive's data and must not be modified.
func (a *Archive) ReadBlock(name string, bi int) ([]byte, error) {
	return a.readBlock(name, bi, nil)
}

// ReadBlockOutside is ReadBlock for a caller that is done with the bytes
// when it calls release, after which they must not be read (nor anything
// sliced from them). A decode alone (see Hold) then decompresses into
// memory outside the Go heap, given back to the system by release: a
// one-file check's tracker stream (1.7 MB of a 240 KB replay) was live
// on the heap when the collector ran during its decode, which let the
// heap grow by twice it for the rest of the check. Elsewhere the bytes
// are on the heap and release does nothing.
func (a *Archive) ReadBlockOutside(name string, bi int) (data []byte, release func(), err error) {
	var m []byte
	data, err = a.readBlock(name, bi, func(n int) []byte {
		if alone() && n >= 64<<10 {
			m = mapBytes(n)
		}
		if m == nil {
			return make([]byte, 0, n)
		}
		return m[:0]
	})
	return data, func() {
		if m != nil {
			unmapBlock(m)
			m = nil
		}
	}, err
}

// readBlock is ReadBlock, the output made by room (make, when nil).
func (a *Archive) readBlock(name string, bi int, room func(n int) []byte) ([]byte, error) {
	if bi < 0 || bi >= len(a.Block) {
		return nil, errf(name, a.BlockTableAt, "block index %d outside the block table of %d entries", bi, len(a.Block))
	}
	b := a.Block[bi]
	entry := a.blockEntryAt(bi)
	if err := a.usable(name, bi); err != nil {
		return nil, err
	}
	if b.FileSize == 0 {
		return []byte{}, nil
	}
	key := a.key(name, bi)
	secs, serr := a.sectors(name, bi, key)
	stored := len(secs) == 1 && !secs[0].Compressed() && b.Flags&FlagEncrypted == 0
	if stored {
		s := secs[0]
		return a.Data[s.Off : s.Off+min(s.Len, int64(s.Size))], serr
	}
	if err := a.claim(name, entry+8, name+": decompressed", int64(b.FileSize), 1); err != nil {
		return nil, err
	}
	// The output is paid at the declared size, but made at that size only
	// when the stored bytes could plausibly hold it; a member that claims
	// more grows with what its streams yield, so a damaged size field or a
	// cut member costs what the data gives, not what the field says.
	held := int64(0)
	for _, s := range secs {
		held += s.Len
	}
	n := int(min(int64(b.FileSize), plausibleRatio*held+64<<10))
	var out []byte
	if room != nil {
		out = room(n)
	} else {
		out = make([]byte, 0, n)
	}
	for i, s := range secs {
		src := a.Data[s.Off : s.Off+s.Len]
		if b.Flags&FlagEncrypted != 0 {
			if err := a.claim(name, s.Off, name+": decrypted sector", s.Len, 1); err != nil {
				return out, err
			}
			src = decryptBytes(src, key+uint32(i))
		}
		if !s.Compressed() {
			out = grow(out, len(src), int(b.FileSize))
			out = append(out, src...)
			if len(src) < s.Size {
				return out, errf(name, s.Off+s.Len, "stored sector %d cut short: %d of %d bytes", i, len(src), s.Size)
			}
			continue
		}
		var err error
		whole := len(out)
		if out, err = decompressAs(out, s.Size, int(b.FileSize), src, a.Lean); err != nil {
			// what a sector that failed its checks yielded cannot be
			// trusted: the member is the whole sectors before it
			out = out[:whole]
			if serr != nil {
				return out, serr // the member is cut short: that is why
			}
			return out, errf(name, s.Off, "sector %d of %d (0x%02x, %d stored bytes for %d): %v", i, len(secs), s.Comp, s.Len, s.Size, err)
		}
	}
	return out, serr
}

// plausibleRatio is the expansion up to which a member's output is made at
// its declared size at once: SC2's streams compress 2 to 10 times.
const plausibleRatio = 16

// usable refuses blocks this reader cannot read at all.
func (a *Archive) usable(name string, bi int) error {
	b := a.Block[bi]
	entry := a.blockEntryAt(bi)
	if b.Flags&FlagExists == 0 {
		return errf(name, entry+12, "block %d is marked as not existing (flags %#08x)", bi, b.Flags)
	}
	if b.Flags&FlagImplode != 0 {
		return errf(name, entry+12, "PKWARE-imploded files are not supported (flags %#08x)", b.Flags)
	}
	if a.BlockAt(bi) > int64(len(a.Data)) {
		return errf(name, entry, "data offset %#x is past the end of the file (%d bytes)", a.BlockAt(bi), len(a.Data))
	}
	return nil
}

// key is the decryption key of an encrypted block, 0 for others.
func (a *Archive) key(name string, bi int) uint32 {
	if a.Block[bi].Flags&FlagEncrypted == 0 {
		return 0
	}
	return FileKey(name, a.Block[bi])
}

// FileKey is the decryption key of an encrypted file: the hash of its
// base name, adjusted by the block's offset and size under FlagFixKey.
func FileKey(name string, b BlockEntry) uint32 {
	if i := strings.LastIndexAny(name, `\/`); i >= 0 {
		name = name[i+1:]
	}
	key := hashString(name, hashFileKey)
	if b.Flags&FlagFixKey != 0 {
		key = (key + b.Offset) ^ b.FileSize
	}
	return key
}

// decryptBytes decrypts whole little-endian words into a copy; a trailing
// partial word is left as stored, as the format does.
func decryptBytes(b []byte, key uint32) []byte {
	out := append([]byte(nil), b...)
	decryptWords(out, key)
	return out
}

// decryptWords decrypts whole little-endian words of b in place.
func decryptWords(b []byte, key uint32) {
	ct := cryptTable()
	seed2 := uint32(0xEEEEEEEE)
	for i := 0; i+4 <= len(b); i += 4 {
		seed2 += ct[0x400+key&0xFF]
		v := le32(b[i:]) ^ (key + seed2)
		key = (^key<<0x15 + 0x11111111) | key>>0x0B
		seed2 = v + seed2 + seed2<<5 + 3
		binary.LittleEndian.PutUint32(b[i:], v)
	}
}

// sectors lists a member's stored pieces, checked against the file: the
// sector count against the bytes that hold the offset table, every
// offset against the stored block, every stored length against what the
// sector holds. On damage it returns the sectors before it with the error.
// The offset table is paid from the budget (nine members sharing one
// block pay for it nine times).
func (a *Archive) sectors(name string, bi int, key uint32) ([]Sector, error) {
	b := a.Block[bi]
	entry := a.blockEntryAt(bi)
	at := a.BlockAt(bi)
	avail := int64(len(a.Data)) - at
	stored := int64(b.CompressedSize)
	var cut error
	if stored > avail {
		cut = errf(name, int64(len(a.Data)), "member cut short: %d of %d stored bytes are in the file", avail, b.CompressedSize)
		stored = avail
	}
	size := int64(b.FileSize)
	if b.Flags&FlagSingleUnit != 0 || b.Flags&FlagCompress == 0 && b.Flags&FlagEncrypted == 0 {
		// One unit, compressed when it is stored in fewer bytes than it
		// holds (a compressed member whose end is cut fails to decompress,
		// and cut says why).
		s := Sector{Off: at, Size: int(size)}
		if b.Flags&FlagCompress != 0 && stored < size {
			s.Len = stored
			if err := a.compByte(name, &s, b.Flags&FlagEncrypted != 0, key); err != nil {
				return nil, err
			}
			return []Sector{s}, cut
		}
		s.Len = min(stored, size)
		if s.Len < size && cut == nil {
			cut = errf(name, entry+4, "stored member of %d bytes is stored in %d", size, s.Len)
		}
		return []Sector{s}, cut
	}
	ss := int64(a.Header.SectorSize())
	n := (size + ss - 1) / ss
	if b.Flags&FlagCompress == 0 {
		// Encrypted but not compressed: whole sectors back to back, each
		// with its own key.
		if err := a.claim(name, entry+8, name+": sectors", n, sectorBytes); err != nil {
			return nil, err
		}
		secs := make([]Sector, 0, n)
		for i := int64(0); i < n; i++ {
			s := Sector{Off: at + i*ss, Size: int(min(ss, size-i*ss))}
			s.Len = min(int64(s.Size), max(0, stored-i*ss))
			secs = append(secs, s)
			if s.Len < int64(s.Size) {
				return secs, errf(name, s.Off+s.Len, "stored sector %d of %d cut short: %d of %d bytes", i, n, s.Len, s.Size)
			}
		}
		return secs, nil
	}
	entries := n + 1
	if b.Flags&FlagSectorCRC != 0 {
		entries++
	}
	if entries*4 > stored {
		if cut != nil {
			return nil, cut
		}
		return nil, errf(name, entry+8, "%d bytes in %d-byte sectors need a sector offset table of %d entries (%d bytes); the member stores %d bytes",
			size, ss, entries, entries*4, stored)
	}
	if err := a.claim(name, entry+8, name+": sector offset table", entries, 4+sectorBytes); err != nil {
		return nil, err
	}
	offs := make([]uint32, entries)
	for i := range offs {
		offs[i] = le32(a.Data[at+int64(4*i):])
	}
	if b.Flags&FlagEncrypted != 0 {
		decrypt(offs, key-1)
	}
	secs := make([]Sector, 0, n)
	for i := int64(0); i < n; i++ {
		lo, hi := int64(offs[i]), int64(offs[i+1])
		s := Sector{Off: at + lo, Len: hi - lo, Size: int(min(ss, size-i*ss))}
		switch {
		case lo > hi || lo > stored:
			return secs, errf(name, at+4*i, "sector %d of %d has a bad offset range %#x-%#x (%d stored bytes)", i, n, lo, hi, stored)
		case hi > stored:
			if cut != nil {
				return secs, cut
			}
			return secs, errf(name, at+lo, "sector %d of %d cut short: ends at %#x, the member ends at %#x", i, n, at+hi, at+stored)
		case s.Len > int64(s.Size):
			return secs, errf(name, at+4*i, "sector %d of %d stores %d bytes for %d: a sector is never stored in more bytes than it holds", i, n, s.Len, s.Size)
		case s.Len == 0:
			return secs, errf(name, at+4*i, "sector %d of %d is empty but holds %d bytes", i, n, s.Size)
		}
		if s.Compressed() {
			if err := a.compByte(name, &s, b.Flags&FlagEncrypted != 0, key+uint32(i)); err != nil {
				return secs, err
			}
		}
		secs = append(secs, s)
	}
	return secs, cut
}

// sectorBytes is what one listed sector costs (a Sector value).
const sectorBytes = 32

// compByte reads the compression byte of a compressed sector, decrypting
// its first word when the member is encrypted, and refuses methods this
// reader does not have.
func (a *Archive) compByte(name string, s *Sector, encrypted bool, key uint32) error {
	if s.Len == 0 {
		return errf(name, s.Off, "empty compressed sector")
	}
	c := a.Data[s.Off]
	if encrypted && s.Len >= 4 {
		var w [4]byte
		copy(w[:], a.Data[s.Off:s.Off+4])
		decryptWords(w[:], key)
		c = w[0]
	}
	s.Comp = c
	if c != CompZlib && c != CompBzip2 {
		return errf(name, s.Off, "unsupported compression byte 0x%02x (expected 0x02 zlib or 0x10 bzip2)", c)
	}
	return nil
}

// Files returns the names in the "(listfile)": one per line (or between
// semicolons), trimmed. The names are paid from the budget.
func (a *Archive) Files() ([]string, error) {
	const name = "(listfile)"
	bi, err := a.find(name)
	if err != nil {
		return nil, err
	}
	b, err := a.ReadBlock(name, bi)
	if err != nil {
		return nil, err
	}
	sep := func(r rune) bool { return r == '\r' || r == '\n' || r == ';' }
	count := 0
	for f := range bytes.FieldsFuncSeq(b, sep) {
		if len(bytes.TrimSpace(f)) != 0 {
			count++
		}
	}
	// the slice of names and one string they all share
	if err := a.claim(name, a.BlockAt(bi), fmt.Sprintf("%s: %s names", name, model.FormatCount(int64(count))), int64(count)*16+int64(len(b)), 1); err != nil {
		return nil, err
	}
	all := string(b)
	names := make([]string, 0, count)
	for f := range strings.FieldsFuncSeq(all, sep) {
		if f = strings.TrimSpace(f); f != "" {
			names = append(names, f)
		}
	}
	return names, nil
}
