// Package mpq reads MPQ archives (Blizzard's "Mo'PaQ") held in memory, as
// StarCraft II writes them: an optional user-data block ("MPQ\x1b") that
// points to the archive header ("MPQ\x1a", format versions 1 to 4),
// encrypted hash and block tables, and members made of zlib, bzip2 or
// stored sectors.
//
// It never writes and never panics on damaged input. Every size read from
// the file is checked against the bytes there, and everything the file's
// own numbers make it allocate or loop over (tables, sector tables,
// decompressed members, list-file names, hash probes) is paid from the
// decode's budget (decoders/internal/budget) before it is spent, so a few
// bytes that claim gigabytes cost an error, not the machine.
//
// An Archive is safe for concurrent use once Open has returned: members
// can be read in parallel, and lazily, from the same budget.
package mpq

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// Error is a problem reading the archive; it names the member (or the
// table) and the file offset, and wraps its cause where there is one (a
// *model.BudgetError when the decode budget refused a claim).
type Error struct {
	File string // member name, "(hash table)", "(archive header)", ...
	Off  int64  // offset in the archive's file, never past its end
	Msg  string
	Err  error // the cause, or nil
}

func (e *Error) Error() string {
	if e.File == "" {
		return fmt.Sprintf("mpq: at %#x: %s", e.Off, e.Msg)
	}
	return fmt.Sprintf("mpq: %s at %#x: %s", e.File, e.Off, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

func errf(file string, off int64, format string, args ...any) *Error {
	return &Error{File: file, Off: off, Msg: fmt.Sprintf(format, args...)}
}

// budgetErr is the error of a claim the budget refused, at the offset of
// the field that made the claim.
func budgetErr(file string, off int64, err error) *Error {
	return &Error{File: file, Off: off, Msg: err.Error(), Err: err}
}

// claim pays count values of size bytes for what from the budget. Its
// error names file at off (the field that made the claim) and says how
// much was asked, or, when an earlier claim had already exhausted the
// budget, that this one was not even tried: every claim after a refusal
// fails with the first refusal, which names another member.
func (a *Archive) claim(file string, off int64, what string, count, size int64) error {
	if e := a.spent(file, off); e != nil {
		return e
	}
	if err := a.budget.Items(what, count, size); err != nil {
		return budgetErr(file, off, err)
	}
	return nil
}

// spent is the error of work not done because the budget had run out.
func (a *Archive) spent(file string, off int64) *Error {
	if e := a.budget.Err(); e != nil {
		return &Error{File: file, Off: off, Msg: "not read: the decode budget ran out earlier (" + e.Error() + ")", Err: e}
	}
	return nil
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

// FormatVersionName is the version as people count it (1-4); the field
// stores 0-3.
func (h *Header) FormatVersionName() int { return int(h.FormatVersion) + 1 }

// Size is the archive's size in bytes from its header: the 64-bit field
// from format version 3 on, the 32-bit one before.
func (h *Header) Size() int64 {
	if h.FormatVersion >= 2 && h.ArchiveSize64 != 0 {
		return int64(min(h.ArchiveSize64, 1<<62))
	}
	return int64(h.ArchiveSize)
}

// HashEntry is one slot of the hash table.
type HashEntry struct {
	HashA, HashB uint32
	Locale       uint16
	Platform     uint16
	BlockIndex   uint32 // 0xFFFFFFFF empty, 0xFFFFFFFE deleted
}

// Hash table slots that hold no member.
const (
	hashEmpty   = 0xFFFFFFFF
	hashDeleted = 0xFFFFFFFE
)

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
	Data []byte
	// Lean makes its bzip2 blocks read in less memory and more time when
	// the decode is alone (a one-file check; see bzDecoder.lean).
	Lean     bool
	UserData *UserData // nil when the file starts with the archive header
	Offset   int64     // file offset of the archive header
	Header   Header
	Hash     []HashEntry
	Block    []BlockEntry

	// HashTableAt and BlockTableAt are the file offsets of the tables.
	HashTableAt, BlockTableAt int64

	// End is where the archive ends in the file by its header's size
	// (Offset + Header.Size()), or where its tables end when that size
	// says less. Bytes from End to len(Data) belong to no archive; Open
	// reports them as a warning.
	End int64

	// Warnings lists what was wrong but worked around, such as an archive
	// header found by scanning or bytes after the archive's end.
	Warnings []Warning

	budget *budget.Budget
	found  sync.Map // member name -> block index, for names lookup found
}

var (
	magicUserData = []byte("MPQ\x1b")
	magicArchive  = []byte("MPQ\x1a")
)

// Open reads the headers and the tables, paying for the tables from b, the
// decode's budget; reading members later draws on the same budget. A nil b
// stands for the default budget of a file of len(data) bytes.
//
// An error means the archive cannot be used at all; a.UserData may still
// be set so that a caller can read the replay header of an archive whose
// tables are gone.
func Open(data []byte, b *budget.Budget) (*Archive, error) {
	if b == nil {
		b = budget.New(int64(len(data)), model.Limits{})
	}
	a := &Archive{Data: data, budget: b}
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
			return a, errf("(user data)", 12, "content of %d bytes runs past the end of the file (%d bytes left)", u.ContentSize, len(data)-16)
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
	a.End = a.Offset + a.Header.Size()
	if err := a.readTables(); err != nil {
		return a, err
	}
	a.checkEnd()
	return a, nil
}

// checkEnd reports bytes after the archive's end, or a size field that
// ends the archive before its own tables (then End is where they end).
func (a *Archive) checkEnd() {
	size := int64(len(a.Data))
	tables := max(a.HashTableAt+int64(len(a.Hash))*16, a.BlockTableAt+int64(len(a.Block))*16)
	switch {
	case a.End < tables:
		a.Warnings = append(a.Warnings, Error{File: "(archive header)", Off: a.Offset + 8,
			Msg: fmt.Sprintf("the archive header says the archive is %d bytes, ending at %#x, but its tables end at %#x", a.Header.Size(), a.End, tables)})
		a.End = tables
	case a.End < size:
		a.Warnings = append(a.Warnings, Error{File: "(archive header)", Off: a.End,
			Msg: fmt.Sprintf("%d bytes after the end of the archive: the archive header says the archive is %d bytes and ends at %#x, the file is %d bytes",
				size-a.End, a.Header.Size(), a.End, size)})
	}
}

// Extent says where the archive in a file ends, from the file's first
// bytes: the user-data block and the archive header it points to. Callers
// that read files use it to read only the archive and to report, without
// reading them, the bytes after it (an archive followed by gigabytes of
// zeros): read the first 4 KiB, call Extent, and when need > len(head)
// read need bytes and call it again.
//
// Extent does not scan for an archive header that is not where the user
// data says (Open does); it returns an error then, and the caller reads
// the whole file. Nor does it check the size against the tables: a caller
// whose archive then fails to open reads the whole file and opens that.
func Extent(head []byte) (end, need int64, err error) {
	if len(head) < 4 {
		return 0, 4, nil
	}
	at := int64(0)
	switch {
	case bytes.Equal(head[:4], magicUserData):
		if len(head) < 16 {
			return 0, 16, nil
		}
		at = int64(le32(head[8:]))
	case bytes.Equal(head[:4], magicArchive):
	default:
		return 0, 0, errf("", 0, "no MPQ signature: found % x", head[:4])
	}
	// the header up to ArchiveSize64 (format version 3 and later)
	if int64(len(head)) < at+52 {
		return 0, at + 52, nil
	}
	h := head[at:]
	if !bytes.Equal(h[:4], magicArchive) {
		return 0, 0, errf("(archive header)", at, "no archive header where the user data says: found % x", h[:4])
	}
	hd := Header{ArchiveSize: le32(h[8:]), FormatVersion: le16(h[12:])}
	if hd.FormatVersion >= 2 {
		hd.ArchiveSize64 = le64(h[44:])
	}
	return at + hd.Size(), 0, nil
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
	ht, err := a.readTable("(hash table)", a.HashTableAt, h.HashTableEntries, a.Offset+16, a.Offset+24)
	if err != nil {
		return err
	}
	a.Hash = make([]HashEntry, len(ht)/4)
	for i := range a.Hash {
		a.Hash[i] = HashEntry{HashA: ht[4*i], HashB: ht[4*i+1],
			Locale: uint16(ht[4*i+2]), Platform: uint16(ht[4*i+2] >> 16), BlockIndex: ht[4*i+3]}
	}
	bt, err := a.readTable("(block table)", a.BlockTableAt, h.BlockTableEntries, a.Offset+20, a.Offset+28)
	if err != nil {
		return err
	}
	a.Block = make([]BlockEntry, len(bt)/4)
	for i := range a.Block {
		a.Block[i] = BlockEntry{Offset: bt[4*i], CompressedSize: bt[4*i+1], FileSize: bt[4*i+2], Flags: bt[4*i+3]}
	}
	return nil
}

// readTable decrypts a table of 16-byte entries. offField and countField
// are the header fields that place and size it, where errors about them
// point.
func (a *Archive) readTable(name string, off int64, entries uint32, offField, countField int64) ([]uint32, error) {
	size := int64(entries) * 16
	if off < 0 || off > int64(len(a.Data)) {
		return nil, errf(name, offField, "table offset %#x is past the end of the file (%d bytes)", off, len(a.Data))
	}
	if size > int64(len(a.Data))-off {
		at := off
		if at >= int64(len(a.Data)) {
			at = countField
		}
		return nil, errf(name, at, "%d entries (%d bytes) but only %d bytes left in the file", entries, size, int64(len(a.Data))-off)
	}
	// the words and the decoded entries
	if err := a.claim(name, countField, name, int64(entries), 32); err != nil {
		return nil, err
	}
	w := make([]uint32, entries*4)
	for i := range w {
		w[i] = le32(a.Data[off+int64(4*i):])
	}
	decrypt(w, hashString(name, hashFileKey))
	return w, nil
}

// lookup finds a member's block index (-1 when it is not there). Probing
// stops at an empty slot or after every slot once, and the probes are paid
// from the budget as steps: a table of deleted slots costs each lookup the
// whole table, and a list of a million names cannot multiply that.
//
// A name found once is found again at no cost, even after the budget ran
// out: callers look a member up more than once and must get the same
// answer. (The names kept are at most one per occupied slot.)
// Its error is the budget's refusal, unformatted: FindBlock drops it for
// each of what may be a million names.
func (a *Archive) lookup(name string) (int, error) {
	n := uint32(len(a.Hash))
	if n == 0 {
		return -1, nil
	}
	if bi, ok := a.found.Load(name); ok {
		return bi.(int), nil
	}
	if e := a.budget.Err(); e != nil {
		return -1, e
	}
	start := hashString(name, hashTableOffset) % n
	ha, hb := hashString(name, hashNameA), hashString(name, hashNameB)
	found := -1
	probes := int64(0)
	for i := uint32(0); i < n; i++ {
		probes++
		e := &a.Hash[(start+i)%n]
		if e.BlockIndex == hashEmpty {
			break
		}
		if e.HashA == ha && e.HashB == hb && e.BlockIndex != hashDeleted {
			if int64(e.BlockIndex) < int64(len(a.Block)) {
				found = int(e.BlockIndex)
			}
			break
		}
	}
	if err := a.budget.Step("(hash table) probes", probes); err != nil {
		return -1, err
	}
	if found >= 0 {
		a.found.Store(name, found)
	}
	return found, nil
}

// FindBlock returns the block index of a member, or -1 when it is not in
// the hash table or the decode budget has run out (the budget then holds
// the refusal).
func (a *Archive) FindBlock(name string) int {
	bi, _ := a.lookup(name)
	return bi
}

// Has reports whether the archive holds a member of that name.
func (a *Archive) Has(name string) bool {
	i := a.FindBlock(name)
	return i >= 0 && a.Block[i].Flags&FlagExists != 0
}

// ErrNotFound is wrapped by ReadFile when the name is not in the hash table.
var ErrNotFound = errors.New("file not found")

// NotFound reports whether err is ReadFile's "no such file".
func NotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// BlockAt is the file offset of a block's data.
func (a *Archive) BlockAt(bi int) int64 {
	if bi < 0 || bi >= len(a.Block) {
		return 0
	}
	return a.Offset + int64(a.Block[bi].Offset)
}

// blockEntryAt is the file offset of block bi's row in the block table.
func (a *Archive) blockEntryAt(bi int) int64 { return a.BlockTableAt + int64(bi)*16 }

func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }
