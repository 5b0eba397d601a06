package mpq

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"sort"
)

// Build writes a small archive (format version 1, 4096-byte sectors) with
// a user-data block holding userData and the files, for tests and tools.
// Files named in compress are stored as zlib sectors, the others as they
// are. A "(listfile)" naming the files is added.
func Build(userData []byte, files map[string][]byte, compress map[string]bool) []byte {
	names := make([]string, 0, len(files)+1)
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if _, ok := files["(listfile)"]; !ok {
		var lf bytes.Buffer
		for _, n := range names {
			lf.WriteString(n + "\r\n")
		}
		files = copyMap(files)
		files["(listfile)"] = lf.Bytes()
		names = append(names, "(listfile)")
	}
	const hsize = 44
	at := (16 + len(userData) + 511) &^ 511
	var body []byte
	var bw []uint32
	for _, n := range names {
		data := files[n]
		off := uint32(hsize + len(body))
		if compress[n] {
			const ss = 4096
			nsec := (len(data) + ss - 1) / ss
			tbl := make([]byte, 4*(nsec+1))
			var secs []byte
			for i := 0; i < nsec; i++ {
				binary.LittleEndian.PutUint32(tbl[4*i:], uint32(len(tbl)+len(secs)))
				chunk := data[i*ss : min(len(data), (i+1)*ss)]
				var zb bytes.Buffer
				zw := zlib.NewWriter(&zb)
				zw.Write(chunk)
				zw.Close()
				if zb.Len()+1 < len(chunk) {
					secs = append(append(secs, CompZlib), zb.Bytes()...)
				} else {
					secs = append(secs, chunk...)
				}
			}
			binary.LittleEndian.PutUint32(tbl[4*nsec:], uint32(len(tbl)+len(secs)))
			stored := append(tbl, secs...)
			body = append(body, stored...)
			bw = append(bw, off, uint32(len(stored)), uint32(len(data)), FlagExists|FlagCompress)
		} else {
			body = append(body, data...)
			bw = append(bw, off, uint32(len(data)), uint32(len(data)), FlagExists)
		}
	}
	nh := 16
	for nh < 2*len(names) {
		nh *= 2
	}
	hw := make([]uint32, nh*4)
	for i := range hw {
		hw[i] = 0xFFFFFFFF
	}
	for bi, n := range names {
		i := hashString(n, hashTableOffset) % uint32(nh)
		for hw[4*i+3] != 0xFFFFFFFF {
			i = (i + 1) % uint32(nh)
		}
		hw[4*i], hw[4*i+1], hw[4*i+2], hw[4*i+3] = hashString(n, hashNameA), hashString(n, hashNameB), 0, uint32(bi)
	}
	Encrypt(hw, hashString("(hash table)", hashFileKey))
	Encrypt(bw, hashString("(block table)", hashFileKey))
	hashOff := hsize + len(body)
	blockOff := hashOff + len(hw)*4
	out := make([]byte, at+blockOff+len(bw)*4)
	copy(out, "MPQ\x1b")
	binary.LittleEndian.PutUint32(out[4:], uint32(at))
	binary.LittleEndian.PutUint32(out[8:], uint32(at))
	binary.LittleEndian.PutUint32(out[12:], uint32(len(userData)))
	copy(out[16:], userData)
	h := out[at:]
	copy(h, "MPQ\x1a")
	binary.LittleEndian.PutUint32(h[4:], hsize)
	binary.LittleEndian.PutUint32(h[8:], uint32(len(h)))
	binary.LittleEndian.PutUint16(h[12:], 1)
	binary.LittleEndian.PutUint16(h[14:], 3)
	binary.LittleEndian.PutUint32(h[16:], uint32(hashOff))
	binary.LittleEndian.PutUint32(h[20:], uint32(blockOff))
	binary.LittleEndian.PutUint32(h[24:], uint32(nh))
	binary.LittleEndian.PutUint32(h[28:], uint32(len(names)))
	copy(h[hsize:], body)
	for i, w := range hw {
		binary.LittleEndian.PutUint32(h[hashOff+4*i:], w)
	}
	for i, w := range bw {
		binary.LittleEndian.PutUint32(h[blockOff+4*i:], w)
	}
	return out
}

func copyMap(m map[string][]byte) map[string][]byte {
	c := make(map[string][]byte, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}
