package mpq

import (
	"errors"
	"fmt"
	"sort"

	"rewind/model"
)

// PartKind names what a span of the archive's file holds.
type PartKind uint8

// The parts of an archive, in the order they usually lie in an SC2 replay.
const (
	PartUserData    PartKind = iota + 1 // the user-data block's 16-byte header ("MPQ\x1b")
	PartUserContent                     // the user data's content (SC2: the replay header)
	PartHeader                          // the archive header ("MPQ\x1a")
	PartSectorTable                     // a member's sector offset table
	PartSector                          // one stored sector of a member (a single-unit member is one)
	PartSectorCRC                       // a member's sector checksums
	PartHashTable                       // the hash table
	PartBlockTable                      // the block table
	PartTrailing                        // bytes after the archive's end
)

var partNames = [...]string{
	PartUserData: "user data header", PartUserContent: "user data", PartHeader: "archive header",
	PartSectorTable: "sector offset table", PartSector: "sector", PartSectorCRC: "sector checksums",
	PartHashTable: "hash table", PartBlockTable: "block table", PartTrailing: "after the archive",
}

func (k PartKind) String() string {
	if int(k) < len(partNames) && partNames[k] != "" {
		return partNames[k]
	}
	return fmt.Sprintf("part %d", k)
}

// Part is one span of the archive's file and what it holds: the structure
// a hex view of the archive lists and highlights.
type Part struct {
	Kind     PartKind
	Off, Len int64  // in the file
	Block    int    // block index of a member's part, -1 otherwise
	Name     string // the member's name when the caller named it
	Sector   int    // sector index within the member, -1 for other parts
	Size     int64  // a sector's decompressed size; Len for other parts
	Comp     byte   // compression byte of a compressed sector, 0 when stored
	Err      string // why a member's sectors end early (its remaining bytes are one part)
}

// Layout lists the archive's parts in file order: the user data, the
// archive header, the tables, and each member's sector offset table,
// sectors and checksums. names label the members (and are the keys of
// encrypted ones: without its name an encrypted member is listed as one
// part). A member whose sectors cannot all be listed ends with a part that
// spans the rest of its stored bytes, with Err saying why. The parts are
// paid from the decode budget; the error is the budget's refusal, with the
// parts listed before it.
func (a *Archive) Layout(names []string) ([]Part, error) {
	var parts []Part
	add := func(k PartKind, off, n int64) {
		if n > 0 || k == PartHeader {
			parts = append(parts, Part{Kind: k, Off: off, Len: n, Block: -1, Sector: -1, Size: n})
		}
	}
	if u := a.UserData; u != nil {
		add(PartUserData, u.Offset, 16)
		add(PartUserContent, u.Offset+16, int64(len(u.Content)))
	}
	if a.Header.HeaderSize == 0 && a.Hash == nil {
		return parts, nil // no archive header was read
	}
	hs := int64(a.Header.HeaderSize)
	if hs < 32 || hs > int64(len(a.Data))-a.Offset {
		hs = min(32, int64(len(a.Data))-a.Offset)
	}
	add(PartHeader, a.Offset, hs)
	add(PartHashTable, a.HashTableAt, int64(len(a.Hash))*16)
	add(PartBlockTable, a.BlockTableAt, int64(len(a.Block))*16)
	if a.End >= a.Offset && a.End < int64(len(a.Data)) {
		add(PartTrailing, a.End, int64(len(a.Data))-a.End)
	}

	byBlock := map[int]string{}
	for _, n := range names {
		if bi := a.FindBlock(n); bi >= 0 {
			if _, ok := byBlock[bi]; !ok {
				byBlock[bi] = n
			}
		}
	}
	if err := a.spent("(hash table)", a.HashTableAt); err != nil {
		return parts, err
	}
	for bi, b := range a.Block {
		if b.Flags&FlagExists == 0 || b.FileSize == 0 || a.BlockAt(bi) >= int64(len(a.Data)) {
			continue // nothing stored (SC2's empty replay.sync.history is at offset 0)
		}
		name, named := byBlock[bi]
		mp, err := a.memberParts(name, named, bi)
		if err != nil {
			return parts, err
		}
		parts = append(parts, mp...)
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].Off < parts[j].Off })
	return parts, nil
}

// partBytes is what one listed part costs.
const partBytes = 96

// memberParts lists one block's parts; the error is only the budget's.
func (a *Archive) memberParts(name string, named bool, bi int) ([]Part, error) {
	b := a.Block[bi]
	at := a.BlockAt(bi)
	stored := min(int64(b.CompressedSize), int64(len(a.Data))-at)
	whole := func(why string) []Part {
		return []Part{{Kind: PartSector, Off: at, Len: stored, Block: bi, Name: name, Sector: 0, Size: int64(b.FileSize), Err: why}}
	}
	if b.Flags&FlagImplode != 0 {
		return whole("PKWARE-imploded"), nil
	}
	if b.Flags&FlagEncrypted != 0 && !named {
		return whole("encrypted, and the key is the member's name, which is not known"), nil
	}
	secs, serr := a.sectors(name, bi, a.key(name, bi))
	var be *model.BudgetError
	if errors.As(serr, &be) {
		return nil, serr
	}
	if err := a.claim(name, a.blockEntryAt(bi), "archive layout: parts", int64(len(secs))+3, partBytes); err != nil {
		return nil, err
	}
	parts := make([]Part, 0, len(secs)+3)
	tableEnd := at
	if b.Flags&FlagCompress != 0 && b.Flags&FlagSingleUnit == 0 {
		// the offset table: one entry per sector, one for the end, one
		// more for the checksums
		n := (int64(b.FileSize) + int64(a.Header.SectorSize()) - 1) / int64(a.Header.SectorSize())
		entries := n + 1
		if b.Flags&FlagSectorCRC != 0 {
			entries++
		}
		tableEnd = at + min(entries*4, stored)
		parts = append(parts, Part{Kind: PartSectorTable, Off: at, Len: tableEnd - at, Block: bi, Name: name, Sector: -1, Size: tableEnd - at})
		if b.Flags&FlagSectorCRC != 0 && serr == nil && entries*4 <= stored {
			lo, hi := int64(le32(a.Data[at+4*n:])), int64(le32(a.Data[at+4*n+4:]))
			if b.Flags&FlagEncrypted == 0 && lo <= hi && hi <= stored {
				parts = append(parts, Part{Kind: PartSectorCRC, Off: at + lo, Len: hi - lo, Block: bi, Name: name, Sector: -1, Size: hi - lo})
			}
		}
	}
	end := tableEnd
	for i, s := range secs {
		p := Part{Kind: PartSector, Off: s.Off, Len: s.Len, Block: bi, Name: name, Sector: i, Size: int64(s.Size)}
		if s.Compressed() {
			p.Comp = s.Comp
		}
		parts = append(parts, p)
		end = max(end, s.Off+s.Len)
	}
	if serr != nil {
		// the rest of the member, whatever it holds
		rest := Part{Kind: PartSector, Off: end, Len: max(0, at+stored-end), Block: bi, Name: name, Sector: len(secs), Err: errMsg(serr)}
		parts = append(parts, rest)
	}
	return parts, nil
}

func errMsg(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Msg
	}
	return err.Error()
}
