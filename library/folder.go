package library

import (
	"bytes"
	"io/fs"
	"slices"
	"sync"
	"unsafe"
)

// folderNames is one folder's listing: every name in one arena, each
// followed by a NUL (the form the kernel reads, so a stat by name needs no
// copy), with the entry's type as the listing gives it. A million files
// cost a few allocations a folder, not three a file.
type folderNames struct {
	arena []byte
	ents  []folderName
}

// listings are the folderNames of the folders being listed, reused: a
// listing lives only while its folder is listed.
var listings = sync.Pool{New: func() any { return new(folderNames) }}

type folderName struct {
	off, n uint32      // the name is arena[off : off+n], a NUL after it
	typ    fs.FileMode // fs.ModeDir, fs.ModeSymlink, ...: only the type bits
}

func (l *folderNames) add(name []byte, typ fs.FileMode) {
	l.ents = append(l.ents, folderName{off: uint32(len(l.arena)), n: uint32(len(name)), typ: typ})
	l.arena = append(append(l.arena, name...), 0)
}

// name is an entry's name; nameZ the same with its NUL.
func (l *folderNames) name(e folderName) []byte  { return l.arena[e.off : e.off+e.n] }
func (l *folderNames) nameZ(e folderName) []byte { return l.arena[e.off : e.off+e.n+1] }

// sort puts the entries in name order (bytes, as strings.Compare orders
// Go strings).
func (l *folderNames) sort() {
	slices.SortFunc(l.ents, func(a, b folderName) int { return bytes.Compare(l.name(a), l.name(b)) })
}

// paths joins prefix to each name, in entry order, as one string the
// paths share: the walk's entries take their Path from it without an
// allocation each.
func (l *folderNames) paths(prefix string) []string {
	size := 0
	for _, e := range l.ents {
		size += len(prefix) + int(e.n)
	}
	buf := make([]byte, 0, size)
	for _, e := range l.ents {
		buf = append(append(buf, prefix...), l.name(e)...)
	}
	// buf is never written again: the string shares its memory rather
	// than copying every path of the folder once more
	all := unsafe.String(unsafe.SliceData(buf), len(buf))
	out := make([]string, len(l.ents))
	at := 0
	for i, e := range l.ents {
		end := at + len(prefix) + int(e.n)
		out[i] = all[at:end]
		at = end
	}
	return out
}

// reset empties l for the next folder, keeping its memory.
func (l *folderNames) reset() {
	l.arena, l.ents = l.arena[:0], l.ents[:0]
}
