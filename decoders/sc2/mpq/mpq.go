// Package mpq reads MPQ archives (Blizzard's "Mo'PaQ") held in memory, as
// StarCraft II writes them: an optional user-data block ("MPQ\x1b") that
// points to the archive header ("MPQ\x1a", format versions 1 to 4),
// encrypted hash and block tables, and files made of zlib, bzip2 or stored
// sectors. It never writes, never panics on damaged input and checks every
// size read from the file against the bytes there before using it.
package mpq

import (
	"bytes"
	"compress/bzip2"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

// Error is a problem reading the archive; it names the inner file (or the
// table) and the file offset.
type Error struct {
	File string // inner file name, "(hash table)", "(archive header)", ...
	Off  int64  // offset in the archive's file
	Msg  string
}

func (e *Error) Error() string {
	if e.File == "" {
		return fmt.Sprintf("mpq: at %#x: %s", e.Off, e.Msg)
	}
	return fmt.Sprintf("mpq: %s at %#x: %s", e.File, e.Off, e.Msg)
}

func errf(file string, off int64, format string, args ...any) *Error {
	return &Error{File: file, Off: off, Msg: fmt.Sprintf(format, args...)}
}

// UserData is the block before the archive ("MPQ\x1b"); SC2 keeps its
// replay header in Content.
type UserData struct {
	Offset       int64  // where the block starts (0 in SC2 replays)
	Size         uint32 // bytes reserved for the user data
	HeaderOffset uint32 // archive header offset, relative to the block
	ContentSize  uint32 // bytes of Content
	Content      []byte // starts at Offset+16
}

// Header is the archive header ("MPQ\x1a"). Offsets in it are relative to
// Archive.Offset.
type Header struct {
	HeaderSize        uint32
	ArchiveSize       uint32
	FormatVersion     uint16
	SectorSizeShift   uint16
	HashTableOffset   uint32
	BlockTableOffset  uint32
	HashTableEntries  uint32
	BlockTableEntries uint32
	// version 2 and later
	HiBlockTableOffset uint64
	HashTableOffsetHi  uint16
	BlockTableOffsetHi uint16
	// version 3 and later
	ArchiveSize64  uint64
	BETTableOffset uint64
	HETTableOffset uint64
	// version 4
	HashTableSize64  uint64
	BlockTableSize64 uint64
	RawChunkSize     uint32
}

// SectorSize is 512 << SectorSizeShift.
func (h *Header) SectorSize() int { return 512 << (h.SectorSizeShift & 31) }

// HashEntry is one slot of the hash table.
type HashEntry struct {
	HashA, HashB uint32
	Locale       uint16
	Platform     uint16
	BlockIndex   uint32 // 0xFFFFFFFF empty, 0xFFFFFFFE deleted
}

// Block flags.
const (
	FlagImplode    = 0x00000100
	FlagCompress   = 0x00000200
	FlagEncrypted  = 0x00010000
	FlagFixKey     = 0x00020000
	FlagSingleUnit = 0x01000000
	FlagDeleted    = 0x02000000
	FlagSectorCRC  = 0x04000000
	FlagExists     = 0x80000000
)

// BlockEntry is one row of the block table.
type BlockEntry struct {
	Offset         uint32 // relative to Archive.Offset
	CompressedSize uint32
	FileSize       uint32
	Flags          uint32
}

// Warning is a problem the reader worked around.
type Warning = Error

// Archive is an opened MPQ archive over a byte slice.
type Archive struct {
	Data     []byte
	UserData *UserData // nil when the file starts with the archive header
	Offset   int64     // file offset of the archive header
	Header   Header
	Hash     []HashEntry
	Block    []BlockEntry

	// HashTableAt and BlockTableAt are the file offsets of the tables.
	HashTableAt, BlockTableAt int64

	// Warnings lists what was wrong but worked around, such as an archive
	// header found by scanning.
	Warnings []Warning
}

var (
	magicUserData = []byte("MPQ\x1b")
	magicArchive  = []byte("MPQ\x1a")
)

// Open reads the headers and the tables. An error means the archive cannot
// be used at all; a.UserData may still be set so that a caller can read the
// replay header of an archive whose tables are gone.
func Open(data []byte) (*Archive, error) {
	a := &Archive{Data: data}
	if len(data) < 4 {
		return nil, errf("", 0, "file of %d bytes is too short for an MPQ signature", len(data))
	}
	want := int64(0)
	switch {
	case bytes.Equal(data[:4], magicUserData):
		if len(data) < 16 {
			return a, errf("(user data)", 0, "user data header cut short: %d bytes", len(data))
		}
		u := &UserData{
			Size:         le32(data[4:]),
			HeaderOffset: le32(data[8:]),
			ContentSize:  le32(data[12:]),
		}
		end := 16 + int64(u.ContentSize)
		if end > int64(len(data)) {
			u.Content = data[16:]
			a.UserData = u
			return a, errf("(user data)", 16, "content of %d bytes runs past the end of the file (%d bytes left)", u.ContentSize, len(data)-16)
		}
		u.Content = data[16:end]
		a.UserData = u
		want = int64(u.HeaderOffset)
	case bytes.Equal(data[:4], magicArchive):
		want = 0
	default:
		return nil, errf("", 0, "no MPQ signature: found % x", data[:4])
	}
	off, err := a.findHeader(want)
	if err != nil {
		return a, err
	}
	a.Offset = off
	if err := a.readHeader(); err != nil {
		return a, err
	}
	if err := a.readTables(); err != nil {
		return a, err
	}
	return a, nil
}

// findHeader looks for "MPQ\x1a" at want, then by scanning: first near want
// (a header a few bytes away is a known corruption), then at every 512-byte
// boundary as the MPQ format allows.
func (a *Archive) findHeader(want int64) (int64, error) {
	d := a.Data
	at := func(o int64) bool {
		return o >= 0 && o+4 <= int64(len(d)) && bytes.Equal(d[o:o+4], magicArchive)
	}
	if at(want) {
		return want, nil
	}
	found := int64(-1)
	for delta := int64(1); delta <= 16 && found < 0; delta++ {
		if at(want + delta) {
			found = want + delta
		} else if at(want - delta) {
			found = want - delta
		}
	}
	for o := int64(0); found < 0 && o+4 <= int64(len(d)); o += 512 {
		if at(o) {
			found = o
		}
	}
	if found < 0 {
		if want+4 > int64(len(d)) {
			return 0, errf("(archive header)", 8, "the user data points to an archive header at %#x, past the end of the file (%d bytes)", want, len(d))
		}
		return 0, errf("(archive header)", want, "no archive header: expected MPQ\\x1a, found % x", d[want:want+4])
	}
	where := want
	if where > int64(len(d)) {
		where = 8 // the user data's header offset field
	}
	a.Warnings = append(a.Warnings, Error{File: "(archive header)", Off: where,
		Msg: fmt.Sprintf("archive header is not where the user data says; found by scanning at %#x (%+d bytes)", found, found-want)})
	return found, nil
}

func (a *Archive) readHeader() error {
	d := a.Data[a.Offset:]
	if len(d) < 32 {
		return errf("(archive header)", a.Offset, "archive header cut short: %d of 32 bytes", len(d))
	}
	h := &a.Header
	h.HeaderSize = le32(d[4:])
	h.ArchiveSize = le32(d[8:])
	h.FormatVersion = le16(d[12:])
	h.SectorSizeShift = le16(d[14:])
	h.HashTableOffset = le32(d[16:])
	h.BlockTableOffset = le32(d[20:])
	h.HashTableEntries = le32(d[24:])
	h.BlockTableEntries = le32(d[28:])
	if h.FormatVersion >= 1 && len(d) >= 44 {
		h.HiBlockTableOffset = le64(d[32:])
		h.HashTableOffsetHi = le16(d[40:])
		h.BlockTableOffsetHi = le16(d[42:])
	}
	if h.FormatVersion >= 2 && len(d) >= 68 {
		h.ArchiveSize64 = le64(d[44:])
		h.BETTableOffset = le64(d[52:])
		h.HETTableOffset = le64(d[60:])
	}
	if h.FormatVersion >= 3 && len(d) >= 108 {
		h.HashTableSize64 = le64(d[68:])
		h.BlockTableSize64 = le64(d[76:])
		h.RawChunkSize = le32(d[104:])
	}
	if h.SectorSizeShift > 15 {
		return errf("(archive header)", a.Offset+14, "sector size shift %d is implausible", h.SectorSizeShift)
	}
	return nil
}

// FormatVersionName is the version as people count it (1-4); the field
// stores 0-3.
func (h *Header) FormatVersionName() int { return int(h.FormatVersion) + 1 }

func (a *Archive) tableOffset(lo uint32, hi uint16) int64 {
	o := int64(lo)
	if a.Header.FormatVersion >= 1 {
		o |= int64(hi) << 32
	}
	return a.Offset + o
}

func (a *Archive) readTables() error {
	h := &a.Header
	a.HashTableAt = a.tableOffset(h.HashTableOffset, h.HashTableOffsetHi)
	a.BlockTableAt = a.tableOffset(h.BlockTableOffset, h.BlockTableOffsetHi)
	ht, err := a.readTable("(hash table)", a.HashTableAt, h.HashTableEntries, a.Offset+16)
	if err != nil {
		return err
	}
	a.Hash = make([]HashEntry, len(ht)/4)
	for i := range a.Hash {
		a.Hash[i] = HashEntry{HashA: ht[4*i], HashB: ht[4*i+1],
			Locale: uint16(ht[4*i+2]), Platform: uint16(ht[4*i+2] >> 16), BlockIndex: ht[4*i+3]}
	}
	bt, err := a.readTable("(block table)", a.BlockTableAt, h.BlockTableEntries, a.Offset+20)
	if err != nil {
		return err
	}
	a.Block = make([]BlockEntry, len(bt)/4)
	for i := range a.Block {
		a.Block[i] = BlockEntry{Offset: bt[4*i], CompressedSize: bt[4*i+1], FileSize: bt[4*i+2], Flags: bt[4*i+3]}
	}
	return nil
}

// readTable decrypts a table of 16-byte entries.
func (a *Archive) readTable(name string, off int64, entries uint32, field int64) ([]uint32, error) {
	size := int64(entries) * 16
	if off < 0 || off > int64(len(a.Data)) {
		return nil, errf(name, field, "table offset %#x is past the end of the file (%d bytes)", off, len(a.Data))
	}
	if size > int64(len(a.Data))-off {
		return nil, errf(name, off, "%d entries (%d bytes) but only %d bytes left in the file", entries, size, int64(len(a.Data))-off)
	}
	w := make([]uint32, entries*4)
	for i := range w {
		w[i] = le32(a.Data[off+int64(4*i):])
	}
	decrypt(w, hashString(name, hashFileKey))
	return w, nil
}

// FindBlock returns the block index of a file, or -1.
func (a *Archive) FindBlock(name string) int {
	if len(a.Hash) == 0 {
		return -1
	}
	n := uint32(len(a.Hash))
	start := hashString(name, hashTableOffset) % n
	ha, hb := hashString(name, hashNameA), hashString(name, hashNameB)
	for i := uint32(0); i < n; i++ {
		e := &a.Hash[(start+i)%n]
		if e.BlockIndex == 0xFFFFFFFF {
			return -1
		}
		if e.HashA == ha && e.HashB == hb && e.BlockIndex != 0xFFFFFFFE {
			if int64(e.BlockIndex) >= int64(len(a.Block)) {
				return -1
			}
			return int(e.BlockIndex)
		}
	}
	return -1
}

// Has reports whether the archive holds a file of that name.
func (a *Archive) Has(name string) bool {
	i := a.FindBlock(name)
	return i >= 0 && a.Block[i].Flags&FlagExists != 0
}

// ErrNotFound is wrapped by ReadFile when the name is not in the hash table.
var ErrNotFound = fmt.Errorf("file not found")

// NotFound reports whether err is ReadFile's "no such file".
func NotFound(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Msg == ErrNotFound.Error()
}

// ReadFile returns a file's contents. On damage it returns what it could
// decompress (whole sectors before the damage) together with the error.
func (a *Archive) ReadFile(name string) ([]byte, error) {
	bi := a.FindBlock(name)
	if bi < 0 {
		return nil, errf(name, a.HashTableAt, "%s", ErrNotFound.Error())
	}
	return a.ReadBlock(name, bi)
}

// BlockAt is the file offset of a block's data.
func (a *Archive) BlockAt(bi int) int64 {
	if bi < 0 || bi >= len(a.Block) {
		return 0
	}
	return a.Offset + int64(a.Block[bi].Offset)
}

// ReadBlock reads block bi; name is used in errors and for nothing else
// (encrypted files, which would need it as the key, are refused).
func (a *Archive) ReadBlock(name string, bi int) ([]byte, error) {
	if bi < 0 || bi >= len(a.Block) {
		return nil, errf(name, a.BlockTableAt, "block index %d outside the block table of %d entries", bi, len(a.Block))
	}
	b := a.Block[bi]
	at := a.BlockAt(bi)
	// Problems with the block entry itself are reported at the entry's
	// field, which is inside the file even when the values are not.
	entry := a.BlockTableAt + int64(bi)*16
	if b.Flags&FlagExists == 0 {
		return nil, errf(name, entry+12, "block %d is marked as not existing (flags %#08x)", bi, b.Flags)
	}
	if b.Flags&FlagImplode != 0 {
		return nil, errf(name, entry+12, "PKWARE-imploded files are not supported (flags %#08x)", b.Flags)
	}
	if at > int64(len(a.Data)) {
		return nil, errf(name, entry, "data offset %#x is past the end of the file (%d bytes)", at, len(a.Data))
	}
	avail := int64(len(a.Data)) - at
	raw := a.Data[at:]
	if int64(b.CompressedSize) <= avail {
		raw = raw[:b.CompressedSize]
	}
	// Limit what a lying FileSize can make us allocate: zlib and bzip2
	// cannot expand more than about 1032:1.
	if int64(b.FileSize) > int64(len(raw))*1100+4096 {
		return nil, errf(name, entry+8, "file size %d is implausible for %d stored bytes", b.FileSize, len(raw))
	}
	if b.FileSize == 0 {
		return []byte{}, nil
	}
	var key uint32
	if b.Flags&FlagEncrypted != 0 {
		key = FileKey(name, b)
	}
	var out []byte
	var err error
	if b.Flags&FlagSingleUnit != 0 || b.Flags&FlagCompress == 0 {
		out, err = a.readSingle(name, at, raw, b, key)
	} else {
		out, err = a.readSectors(name, at, raw, b, key)
	}
	if err == nil && int64(b.CompressedSize) > avail {
		err = errf(name, at+avail, "file cut short: %d of %d stored bytes present", avail, b.CompressedSize)
	}
	return out, err
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

// decryptBytes decrypts whole little-endian words in place of a copy; a
// trailing partial word is left as stored, as the format does.
func decryptBytes(b []byte, key uint32) []byte {
	out := append([]byte(nil), b...)
	w := make([]uint32, len(out)/4)
	for i := range w {
		w[i] = le32(out[4*i:])
	}
	decrypt(w, key)
	for i, v := range w {
		binary.LittleEndian.PutUint32(out[4*i:], v)
	}
	return out
}

func (a *Archive) readSingle(name string, at int64, raw []byte, b BlockEntry, key uint32) ([]byte, error) {
	if b.Flags&FlagEncrypted != 0 {
		raw = decryptBytes(raw, key)
	}
	if b.Flags&FlagCompress == 0 || b.CompressedSize >= b.FileSize {
		if int64(len(raw)) < int64(b.FileSize) {
			return append([]byte(nil), raw...), errf(name, at+int64(len(raw)), "stored file cut short: %d of %d bytes", len(raw), b.FileSize)
		}
		return raw[:b.FileSize], nil
	}
	return decompress(name, at, raw, int(b.FileSize))
}

func (a *Archive) readSectors(name string, at int64, raw []byte, b BlockEntry, key uint32) ([]byte, error) {
	ss := a.Header.SectorSize()
	n := (int(b.FileSize) + ss - 1) / ss
	entries := n + 1
	if b.Flags&FlagSectorCRC != 0 {
		entries++
	}
	if int64(entries)*4 > int64(len(raw)) {
		return nil, errf(name, at, "sector offset table of %d entries does not fit in %d bytes", entries, len(raw))
	}
	offs := make([]uint32, entries)
	for i := range offs {
		offs[i] = le32(raw[4*i:])
	}
	if b.Flags&FlagEncrypted != 0 {
		decrypt(offs, key-1)
	}
	out := make([]byte, 0, min(int(b.FileSize), 4*len(raw)+4096))
	for i := 0; i < n; i++ {
		lo, hi := offs[i], offs[i+1]
		secAt := at + int64(lo)
		want := ss
		if i == n-1 {
			want = int(b.FileSize) - i*ss
		}
		if lo > hi || int64(hi) > int64(len(raw)) {
			if int64(lo) <= int64(len(raw)) && lo <= hi {
				return out, errf(name, secAt, "sector %d of %d cut short: ends at %#x, file ends at %#x", i, n, at+int64(hi), at+int64(len(raw)))
			}
			return out, errf(name, at+int64(4*i), "sector %d has a bad offset range %#x-%#x (%d stored bytes)", i, lo, hi, len(raw))
		}
		sec := raw[lo:hi]
		if b.Flags&FlagEncrypted != 0 {
			sec = decryptBytes(sec, key+uint32(i))
		}
		if len(sec) == want {
			out = append(out, sec...)
			continue
		}
		d, err := decompress(name, secAt, sec, want)
		out = append(out, d...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// Compression bytes at the start of a compressed sector.
const (
	CompZlib  = 0x02
	CompBzip2 = 0x10
)

func decompress(name string, at int64, sec []byte, want int) ([]byte, error) {
	if len(sec) == 0 {
		return nil, errf(name, at, "empty compressed sector")
	}
	var rd io.Reader
	switch sec[0] {
	case CompZlib:
		zr, err := zlib.NewReader(bytes.NewReader(sec[1:]))
		if err != nil {
			return nil, errf(name, at, "zlib sector: %v", err)
		}
		rd = zr
	case CompBzip2:
		rd = bzip2.NewReader(bytes.NewReader(smallBlocks(sec[1:], want)))
	default:
		return nil, errf(name, at, "unsupported compression byte %#02x (expected 0x02 zlib or 0x10 bzip2)", sec[0])
	}
	// Grow with what the stream really yields rather than trusting want.
	var buf bytes.Buffer
	buf.Grow(min(want, 128*len(sec)+4096))
	got, err := io.Copy(&buf, io.LimitReader(rd, int64(want)))
	if err == nil && int(got) < want {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return buf.Bytes(), errf(name, at, "decompressing sector: %v after %d of %d bytes", err, got, want)
	}
	return buf.Bytes(), nil
}

// smallBlocks lowers the block-size digit of a bzip2 stream header to what
// a sector of want bytes needs. Go's reader allocates 4 bytes per byte of
// the declared block size (3.6 MB for "BZh9") whatever the data holds; a
// block never holds more than 5/4 of its output (the first run-length
// stage grows a run of four by one byte), so the smaller size is safe and
// the reader still rejects data that does not fit. The header digit is
// not covered by the stream's checksums.
func smallBlocks(b []byte, want int) []byte {
	if len(b) < 4 || b[0] != 'B' || b[1] != 'Z' || b[2] != 'h' || b[3] < '1' || b[3] > '9' {
		return b
	}
	level := byte(want*5/4/100000 + 1)
	if level >= b[3]-'0' {
		return b
	}
	c := make([]byte, len(b))
	copy(c, b)
	c[3] = '0' + level
	return c
}

// Files returns the names in the "(listfile)".
func (a *Archive) Files() ([]string, error) {
	b, err := a.ReadFile("(listfile)")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range strings.FieldsFunc(string(b), func(r rune) bool { return r == '\r' || r == '\n' || r == ';' }) {
		if l = strings.TrimSpace(l); l != "" {
			names = append(names, l)
		}
	}
	return names, nil
}

func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }
