package mpq

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
)

// Member is a file to write into an archive.
type Member struct {
	Name string
	Data []byte
	// Stored keeps the member as it is instead of compressing it (tests
	// craft archives whose members the reader takes as they lie).
	Stored bool
}

// Write makes a new, well-formed archive of the members: the user data
// block first when userData is not nil (an SC2 replay's header), then the
// archive header of format version 1, which every MPQ reader reads, the
// members compressed with zlib in sectors of 512<<shift bytes (a sector
// that does not shrink is stored), a hash table twice the size of the
// names, the block table, and a (listfile) naming the members. rewind
// repair writes with it; tests build archives with it.
func Write(userData []byte, shift uint16, members []Member) []byte {
	files := make(map[string][]byte, len(members)+1)
	compress := make(map[string]bool, len(members)+1)
	names := make([]string, 0, len(members)+1)
	for _, m := range members {
		if _, dup := files[m.Name]; dup || m.Name == "(listfile)" {
			continue
		}
		files[m.Name], compress[m.Name] = m.Data, !m.Stored
		names = append(names, m.Name)
	}
	var lf []byte
	for _, n := range names {
		lf = append(lf, n+"\r\n"...)
	}
	files["(listfile)"], compress["(listfile)"] = lf, true
	names = append(names, "(listfile)")
	s := spec{userData: userData, version: 1, shift: shift & 15}
	s.add(names, files, compress)
	return s.build()
}

// spec is an archive to build: everything a test's crafted archive may
// need to set differently from a well-formed one.
type spec struct {
	userData []byte // the user data's content; nil: the file starts with the archive header
	version  uint16 // the FormatVersion field, 0-3
	shift    uint16 // sector size shift
	blocks   []block
	names    []hashName // hash table entries, in insertion order
	slots    int        // hash table slots (a power of two); 0: at least 16 and twice the names
	unused   uint32     // BlockIndex of unused slots: 0 means hashEmpty; hashDeleted makes a table of deleted slots
	tail     int        // zero bytes after the archive
}

type block struct {
	stored []byte // the bytes as stored
	size   uint32 // the FileSize field
	flags  uint32
}

// hashName is a hash table entry: several names may point to one block.
type hashName struct {
	name  string
	block int
}

func (s *spec) sectorSize() int { return 512 << s.shift }

// add stores the named files, each as it is or, when compress names it, as
// zlib sectors, with a hash entry of its own.
func (s *spec) add(names []string, files map[string][]byte, compress map[string]bool) {
	for _, n := range names {
		data := files[n]
		b := block{stored: data, size: uint32(len(data)), flags: FlagExists}
		if compress[n] {
			b.stored, b.flags = sectored(data, s.sectorSize(), zlibSector), FlagExists|FlagCompress
		}
		s.names = append(s.names, hashName{n, len(s.blocks)})
		s.blocks = append(s.blocks, b)
	}
}

// headerSizes is the archive header's size by format version field.
var headerSizes = [...]int{32, 44, 68, 208}

func (s *spec) build() []byte {
	hsize := headerSizes[s.version&3]
	at := 0
	if s.userData != nil {
		at = (16 + len(s.userData) + 511) &^ 511
	}
	var body []byte
	var bw []uint32
	for _, b := range s.blocks {
		bw = append(bw, uint32(hsize+len(body)), uint32(len(b.stored)), b.size, b.flags)
		body = append(body, b.stored...)
	}
	nh := s.slots
	if nh == 0 {
		nh = 16
		for nh < 2*len(s.names) {
			nh *= 2
		}
	}
	unused := uint32(hashEmpty)
	if s.unused != 0 {
		unused = s.unused
	}
	hw := make([]uint32, nh*4)
	for i := range hw {
		hw[i] = 0xFFFFFFFF
		if i%4 == 3 {
			hw[i] = unused
		}
	}
	for _, n := range s.names {
		i := hashString(n.name, hashTableOffset) % uint32(nh)
		for hw[4*i+3] < hashDeleted {
			i = (i + 1) % uint32(nh)
		}
		hw[4*i], hw[4*i+1], hw[4*i+2], hw[4*i+3] = hashString(n.name, hashNameA), hashString(n.name, hashNameB), 0, uint32(n.block)
	}
	Encrypt(hw, hashString("(hash table)", hashFileKey))
	Encrypt(bw, hashString("(block table)", hashFileKey))
	hashOff := hsize + len(body)
	blockOff := hashOff + len(hw)*4
	size := blockOff + len(bw)*4
	out := make([]byte, at+size+s.tail)
	if s.userData != nil {
		copy(out, magicUserData)
		binary.LittleEndian.PutUint32(out[4:], uint32(at))
		binary.LittleEndian.PutUint32(out[8:], uint32(at))
		binary.LittleEndian.PutUint32(out[12:], uint32(len(s.userData)))
		copy(out[16:], s.userData)
	}
	h := out[at:]
	copy(h, magicArchive)
	binary.LittleEndian.PutUint32(h[4:], uint32(hsize))
	binary.LittleEndian.PutUint32(h[8:], uint32(size))
	binary.LittleEndian.PutUint16(h[12:], s.version)
	binary.LittleEndian.PutUint16(h[14:], s.shift)
	binary.LittleEndian.PutUint32(h[16:], uint32(hashOff))
	binary.LittleEndian.PutUint32(h[20:], uint32(blockOff))
	binary.LittleEndian.PutUint32(h[24:], uint32(nh))
	binary.LittleEndian.PutUint32(h[28:], uint32(len(bw)/4))
	if s.version >= 2 {
		binary.LittleEndian.PutUint64(h[44:], uint64(size))
	}
	copy(h[hsize:], body)
	for i, w := range hw {
		binary.LittleEndian.PutUint32(h[hashOff+4*i:], w)
	}
	for i, w := range bw {
		binary.LittleEndian.PutUint32(h[blockOff+4*i:], w)
	}
	return out
}

// sectored stores data as sectors of ss bytes behind an offset table,
// each compressed by comp (which returns the sector with its compression
// byte) unless that does not make it smaller.
func sectored(data []byte, ss int, comp func([]byte) []byte) []byte {
	n := (len(data) + ss - 1) / ss
	tbl := make([]byte, 4*(n+1))
	var secs []byte
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(tbl[4*i:], uint32(len(tbl)+len(secs)))
		chunk := data[i*ss : min(len(data), (i+1)*ss)]
		if c := comp(chunk); len(c) < len(chunk) {
			secs = append(secs, c...)
		} else {
			secs = append(secs, chunk...)
		}
	}
	binary.LittleEndian.PutUint32(tbl[4*n:], uint32(len(tbl)+len(secs)))
	return append(tbl, secs...)
}

// zlibSector is data zlib-compressed behind its compression byte.
func zlibSector(data []byte) []byte {
	var zb bytes.Buffer
	zb.WriteByte(CompZlib)
	zw := zlib.NewWriter(&zb)
	zw.Write(data)
	zw.Close()
	return zb.Bytes()
}
