package decoders

import (
	"bytes"
	"encoding/binary"
)

// Where a replay ends, as the front of the file says. Open reads the front
// first (HeadSize bytes) and then only as far as this, so a replay followed
// by gigabytes of anything is not read whole; what follows is reported.
// Each function returns -1 when the front does not say (the file is read to
// its end then).

// slippiMetadataMax is the most a Slippi file may hold after its raw element
// (the metadata object and the closing brace). Real metadata is a few
// hundred bytes; the allowance only keeps a huge tail from being read.
const slippiMetadataMax = 1 << 20

// slippiExtent: the raw element states its length (0 while recording).
func slippiExtent(head []byte, size int64) int64 {
	const lenAt = 11 // after {U\x03raw[$U#l
	if len(head) < lenAt+4 {
		return -1
	}
	raw := int64(binary.BigEndian.Uint32(head[lenAt:]))
	if raw == 0 {
		return -1
	}
	return lenAt + 4 + raw + slippiMetadataMax
}

// fzgxExtent: the GCI directory entry states the save's blocks.
func fzgxExtent(head []byte, size int64) int64 {
	const blocksAt, headerSize, blockSize = 0x38, 0x40, 0x2000
	if len(head) < blocksAt+2 {
		return -1
	}
	blocks := int64(binary.BigEndian.Uint16(head[blocksAt:]))
	if blocks == 0 {
		return -1
	}
	return headerSize + blocks*blockSize
}

// sc2Extent: the MPQ archive header states the archive's size, and where
// its hash and block tables are (at the end in every real replay). The
// extent is the furthest of the three, so one damaged field cannot cut the
// archive short; an archive header that is not where the user data says
// (the decoder scans for it) gives no extent.
func sc2Extent(head []byte, size int64) int64 {
	le16 := func(b []byte) int64 { return int64(binary.LittleEndian.Uint16(b)) }
	le32 := func(b []byte) int64 { return int64(binary.LittleEndian.Uint32(b)) }
	at := int64(0)
	if bytes.HasPrefix(head, []byte("MPQ\x1b")) {
		if len(head) < 16 {
			return -1
		}
		at = le32(head[8:])
	}
	if at+32 > int64(len(head)) || !bytes.Equal(head[at:at+4], []byte("MPQ\x1a")) {
		return -1
	}
	h := head[at:]
	version := le16(h[12:])
	end := le32(h[8:])
	hashAt, blockAt := le32(h[16:]), le32(h[20:])
	hashN, blockN := le32(h[24:]), le32(h[28:])
	if version >= 1 && len(h) >= 44 {
		hashAt |= le16(h[40:]) << 32
		blockAt |= le16(h[42:]) << 32
	}
	if version >= 2 && len(h) >= 52 && le32(h[4:]) >= 52 {
		end = max(end, int64(binary.LittleEndian.Uint64(h[44:])&(1<<62-1)))
	}
	end = max(end, hashAt+16*hashN, blockAt+16*blockN)
	if end < 32 {
		return -1 // an archive that ends inside its own header says nothing
	}
	return at + end
}
