// Package pack reads replays inside packed files in place: tournament packs
// as .zip, .tar and .tar.gz, and single replays compressed as .gz or .zst.
// A replay inside one is named by the pack's path and the member's, joined
// like a folder: pack.zip/round 1/game 2.slp. Nothing is unpacked to disk.
//
// Every member is read under a limit sized from what the pack stores of it
// (MemberLimit), so a zip bomb is refused with a sentence instead of filling
// memory; declared sizes are checked before anything is read.
package pack

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Kind is the packing of a file.
type Kind int

const (
	None  Kind = iota // not a pack
	Zip               // a zip archive
	Tar               // a tar archive
	TarGz             // a gzip-compressed tar archive (.tar.gz, .tgz)
	Gzip              // one gzip-compressed file (.slp.gz)
	Zstd              // one zstd-compressed file (.slp.zst)
)

func (k Kind) String() string {
	return [...]string{"not a pack", "zip archive", "tar archive", "gzip-compressed tar archive", "gzip file", "zstd file"}[k]
}

var (
	zipMagic  = []byte("PK\x03\x04")
	zipEmpty  = []byte("PK\x05\x06")
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Sniff says how the file whose first bytes are head (at least 512 for a
// tar) is packed; name decides only between a gzip file and a
// gzip-compressed tar, which look alike until decompressed.
func Sniff(head []byte, name string) Kind {
	lower := strings.ToLower(name)
	switch {
	case bytes.HasPrefix(head, zipMagic) || bytes.HasPrefix(head, zipEmpty):
		return Zip
	case bytes.HasPrefix(head, gzipMagic):
		if strings.HasSuffix(lower, ".tar.gz") || strings.HasSuffix(lower, ".tgz") {
			return TarGz
		}
		return Gzip
	case bytes.HasPrefix(head, zstdMagic):
		return Zstd
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return Tar
	}
	return None
}

// HasPackExt reports whether a name ends like a pack a folder walk should
// open: an archive, or a compressed file whose inner name passes inner (a
// replay's extension), such as game.slp.gz.
func HasPackExt(name string, inner func(string) bool) bool {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".zip"), strings.HasSuffix(lower, ".tar"),
		strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		return true
	case strings.HasSuffix(lower, ".gz"), strings.HasSuffix(lower, ".zst"):
		return inner(singleName(name))
	}
	return false
}

// singleName is the name of the one file a .gz or .zst holds.
func singleName(name string) string {
	base := filepath.Base(name)
	for _, ext := range []string{".gz", ".zst"} {
		if strings.HasSuffix(strings.ToLower(base), ext) {
			return base[:len(base)-len(ext)]
		}
	}
	return base
}

// Limits on what one member may expand to: never more than MaxMember, and
// never more than Ratio times what the pack stores of it, though always at
// least MinMember (small replays compress well; no real replay shrinks a
// hundredfold).
const (
	MaxMember = 512 << 20
	MinMember = 16 << 20
	Ratio     = 100
)

// MemberLimit is the most a member stored in stored bytes may expand to.
func MemberLimit(stored int64) int64 {
	return min(MaxMember, max(MinMember, Ratio*stored))
}

// BombError refuses a member that expands past its limit.
type BombError struct {
	Name          string
	Stored, Limit int64
	Declared      int64 // the size the pack declares, -1 when it declares none
}

func (e *BombError) Error() string {
	if e.Declared > e.Limit {
		return fmt.Sprintf("%s: refused: it declares %d bytes from %d stored, more than the %d bytes a member may expand to (a zip bomb?)", e.Name, e.Declared, e.Stored, e.Limit)
	}
	return fmt.Sprintf("%s: refused: it expands past %d bytes from %d stored (a zip bomb?)", e.Name, e.Limit, e.Stored)
}

// Member is one file inside a pack.
type Member struct {
	Name    string // slash-separated, relative to the pack
	Size    int64  // uncompressed size; -1 when the pack does not say (.zst); a .gz's own word for it
	Stored  int64  // bytes the pack stores for it
	ModTime time.Time
	off     int64 // tar: the member's data in the (decompressed) stream
}

// Pack is an open packed file. Its methods are safe for concurrent use.
type Pack struct {
	Path    string
	Kind    Kind
	Size    int64 // the pack file's size
	ModTime time.Time
	members []Member
	byName  map[string]int

	f  *os.File
	zr *zip.Reader

	mu  sync.Mutex // guards the sequential reader of a compressed tar
	seq *seqReader
}

// Open opens the pack at path and lists its members. A file that is no pack
// gives an error naming what was found.
func Open(p string) (*Pack, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	pk := &Pack{Path: p, Kind: Sniff(head[:n], p), Size: st.Size(), ModTime: st.ModTime(), f: f, byName: map[string]int{}}
	if err := pk.list(); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %s: %w", p, pk.Kind, err)
	}
	return pk, nil
}

// Close releases the pack's file.
func (p *Pack) Close() error { return p.f.Close() }

// Members lists the pack's regular files in the order it stores them.
func (p *Pack) Members() []Member { return p.members }

// Member returns the member called name.
func (p *Pack) Member(name string) (Member, bool) {
	i, ok := p.byName[name]
	if !ok {
		return Member{}, false
	}
	return p.members[i], true
}

func (p *Pack) add(m Member) {
	m.Name = path.Clean(strings.TrimPrefix(m.Name, "/"))
	if m.Name == "." || strings.HasPrefix(m.Name, "../") || m.Name == ".." {
		return // a member that names no place inside the pack
	}
	if _, dup := p.byName[m.Name]; dup {
		return // the first of two members of one name wins
	}
	p.byName[m.Name] = len(p.members)
	p.members = append(p.members, m)
}

func (p *Pack) list() error {
	switch p.Kind {
	case Zip:
		zr, err := zip.NewReader(p.f, p.Size)
		if err != nil {
			return err
		}
		p.zr = zr
		for _, zf := range zr.File {
			if !zf.Mode().IsRegular() {
				continue
			}
			p.add(Member{Name: zf.Name, Size: int64(zf.UncompressedSize64), Stored: int64(zf.CompressedSize64), ModTime: zf.Modified})
		}
	case Tar, TarGz:
		return p.listTar()
	case Gzip:
		// gzip's last four bytes are the size it expands to, modulo 4 GiB
		// (of its last member, for a file of several): a hint to show, not
		// a limit to trust
		size := int64(-1)
		var tail [4]byte
		if p.Size >= 18 {
			if _, err := p.f.ReadAt(tail[:], p.Size-4); err == nil {
				size = int64(binary.LittleEndian.Uint32(tail[:]))
			}
		}
		p.add(Member{Name: singleName(p.Path), Size: size, Stored: p.Size, ModTime: p.ModTime})
	case Zstd:
		p.add(Member{Name: singleName(p.Path), Size: -1, Stored: p.Size, ModTime: p.ModTime})
	default:
		return errors.New("not a zip, tar, gzip or zstd file")
	}
	return nil
}

// listTar reads a tar's headers once, noting where each member's data is.
func (p *Pack) listTar() error {
	r, err := p.stream()
	if err != nil {
		return err
	}
	defer r.Close()
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if len(p.members) > 0 {
				return nil // keep the members before the damage
			}
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		// tar's header block is 512 bytes: the data starts where the
		// counting reader stands once Next has returned
		p.add(Member{Name: h.Name, Size: h.Size, Stored: h.Size, ModTime: h.ModTime, off: r.n})
	}
}

// stream is the pack's bytes from the start, decompressed for a TarGz.
func (p *Pack) stream() (*countingReader, error) {
	sr := io.NewSectionReader(p.f, 0, p.Size)
	if p.Kind != TarGz {
		return &countingReader{r: sr}, nil
	}
	gz, err := gzip.NewReader(sr)
	if err != nil {
		return nil, err
	}
	return &countingReader{r: gz, close: gz.Close}, nil
}

type countingReader struct {
	r     io.Reader
	n     int64
	close func() error
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) Close() error {
	if c.close != nil {
		return c.close()
	}
	return nil
}

// Open returns a reader of the member's bytes, at most its limit; a member
// that declares or reaches more gives a *BombError. size is its size when
// the pack declares it, -1 otherwise.
func (p *Pack) Open(name string) (rc io.ReadCloser, size int64, err error) {
	m, ok := p.Member(name)
	if !ok {
		return nil, 0, fmt.Errorf("%s: no member %q", p.Path, name)
	}
	limit := MemberLimit(m.Stored)
	if p.Kind == TarGz {
		// a member's own bytes in a compressed tar are not its share of the
		// file; the pack as a whole bounds what it may expand to
		limit = MemberLimit(p.Size)
	}
	full := p.Path + "/" + name
	if m.Size > limit {
		return nil, 0, &BombError{Name: full, Stored: m.Stored, Limit: limit, Declared: m.Size}
	}
	var r io.ReadCloser
	switch p.Kind {
	case Zip:
		zf := p.zr.File[p.zipIndex(name)]
		r, err = zf.Open()
	case Tar:
		r = io.NopCloser(io.NewSectionReader(p.f, m.off, m.Size))
	case TarGz:
		r, err = p.tarGzMember(m)
	case Gzip:
		var gz *gzip.Reader
		gz, err = gzip.NewReader(io.NewSectionReader(p.f, 0, p.Size))
		if err == nil {
			gz.Multistream(true)
			r = gz
		}
	case Zstd:
		var zd *zstd.Decoder
		zd, err = zstd.NewReader(io.NewSectionReader(p.f, 0, p.Size), zstd.WithDecoderMaxMemory(uint64(limit)), zstd.WithDecoderConcurrency(1))
		if err == nil {
			r = zd.IOReadCloser()
		}
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", full, err)
	}
	return &limitedReader{r: r, left: limit, bomb: &BombError{Name: full, Stored: m.Stored, Limit: limit, Declared: -1}}, m.Size, nil
}

func (p *Pack) zipIndex(name string) int {
	for i, zf := range p.zr.File {
		if path.Clean(strings.TrimPrefix(zf.Name, "/")) == name {
			return i
		}
	}
	return -1
}

// tarGzMember reads a member of a compressed tar. Members are mostly read
// in the order they are stored (a walk lists them so), so one decompressor
// is kept and moved forward; going back starts it again.
func (p *Pack) tarGzMember(m Member) (io.ReadCloser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seq == nil || p.seq.r.n > m.off {
		if p.seq != nil {
			p.seq.r.Close()
		}
		r, err := p.stream()
		if err != nil {
			return nil, err
		}
		p.seq = &seqReader{r: r}
	}
	if _, err := io.CopyN(io.Discard, p.seq.r, m.off-p.seq.r.n); err != nil {
		p.seq.r.Close()
		p.seq = nil
		return nil, err
	}
	data := make([]byte, m.Size)
	if _, err := io.ReadFull(p.seq.r, data); err != nil {
		p.seq.r.Close()
		p.seq = nil
		return nil, err
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}

type seqReader struct{ r *countingReader }

// limitedReader passes at most left bytes and fails with bomb past them.
type limitedReader struct {
	r    io.ReadCloser
	left int64
	bomb *BombError
}

func (l *limitedReader) Read(b []byte) (int, error) {
	if l.left <= 0 {
		// one byte more tells a member that ends exactly at the limit from
		// one that goes on
		var one [1]byte
		if n, _ := l.r.Read(one[:]); n > 0 {
			return 0, l.bomb
		}
		return 0, io.EOF
	}
	if int64(len(b)) > l.left {
		b = b[:l.left]
	}
	n, err := l.r.Read(b)
	l.left -= int64(n)
	return n, err
}

func (l *limitedReader) Close() error { return l.r.Close() }

// Split finds the pack in a path that names a member of one: for
// "dir/pack.zip/a/b.slp" it returns "dir/pack.zip" and "a/b.slp". ok is
// false when no leading part of the path is a regular file (the path is an
// ordinary one, or does not exist).
func Split(p string) (packPath, member string, ok bool) {
	clean := filepath.Clean(p)
	for dir := clean; ; {
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", false
		}
		if st, err := os.Stat(parent); err == nil {
			if !st.Mode().IsRegular() {
				return "", "", false // the nearest existing ancestor is a folder
			}
			rel, err := filepath.Rel(parent, clean)
			if err != nil {
				return "", "", false
			}
			return parent, filepath.ToSlash(rel), true
		}
		dir = parent
	}
}
