package decoders

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"rewind/decoders/pack"
	"rewind/model"
)

// HasReplayExt reports whether a name ends in the extension of a known
// format (case-insensitive). Detection never relies on it; walks use it to
// pick files in folders without opening the rest.
func HasReplayExt(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, f := range Formats {
		for _, e := range f.Exts {
			if e == ext {
				return true
			}
		}
	}
	return false
}

// NotRegularError refuses a path that is not a regular file: a device, a
// FIFO, a socket. rewind reads only regular files, so /dev/zero cannot feed
// it forever and a FIFO cannot make it wait.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	what := "a special file"
	switch m := e.Mode; {
	case m&fs.ModeNamedPipe != 0:
		what = "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a block device"
	case m.IsDir():
		what = "a folder"
	}
	return fmt.Sprintf("%s is %s, not a regular file; rewind reads only regular files", e.Path, what)
}

// OpenRegular opens path for reading only when it is a regular file. It
// stats first and opens without blocking (a FIFO swapped in after the stat
// cannot hang the open), then checks the opened file again.
func OpenRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, nil
}

// HeadSize is how much of a file ReadFile reads first: every format's magic
// and the header that says how far the replay reaches fit in it.
const HeadSize = 64 << 10

// File is a replay file's bytes as ReadFile reads them.
type File struct {
	Path   string
	Data   []byte  // the file from its start, as far as the replay reaches
	Size   int64   // the file's size: more than len(Data) when the rest was left unread
	Format *Format // the format its first bytes show
	// Extent is where the replay ends by its own header (Format.Extent),
	// -1 when the header does not say and the file was read to its end.
	Extent int64
}

// Unread is how many bytes of the file follow what was read.
func (f *File) Unread() int64 { return max(0, f.Size-int64(len(f.Data))) }

// ReadFile reads the replay in the regular file at path. It reads the front
// first; a file that is no replay is refused from its front alone (a
// *NotReplayError), and a replay is read only as far as its format says it
// reaches (Format.Extent), so a replay followed by gigabytes of anything
// costs its own size. rewind never writes to the file.
//
// This is the one place a replay's bytes come from; header-only scans of
// ranges (a later ReadRange beside it) belong here too.
//
// A path inside a packed file (pack.zip/a/b.slp, game.slp.gz/game.slp; see
// package pack) reads that member, never more than the pack's limit for it.
func ReadFile(path string) (*File, error) {
	fh, err := OpenRegular(path)
	if err != nil {
		if f, ok, perr := readPacked(path); ok {
			return f, perr
		}
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	return readFile(fh, path, st.Size())
}

// readFile reads from r, whose size a stat gave; the file may have grown or
// shrunk since, so reads go by what is there.
func readFile(r io.Reader, path string, size int64) (*File, error) {
	head := make([]byte, min(max(size, 0), HeadSize))
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	head = head[:n]
	f := &File{Path: path, Size: size, Extent: -1}
	f.Format, err = Detect(head, path)
	if err != nil {
		return nil, err
	}
	if f.Format.Extent != nil {
		f.Extent = f.Format.Extent(head, size)
	}
	if n < len(head) {
		f.Data = head // all there was: the file shrank since the stat
		f.Size = int64(n)
		return f, nil
	}
	if f.Extent >= 0 && f.Extent <= int64(n) {
		f.Data = head[:max(f.Extent, 0)]
		return f, nil
	}
	want := size
	if f.Extent >= 0 {
		want = min(f.Extent, size)
	}
	// read the rest of the extent into one buffer; with no extent, read to
	// the end, however far that is now
	data := make([]byte, n, max(want, int64(n))+1)
	copy(data, head)
	if f.Extent >= 0 {
		data = data[:want]
		m, err := io.ReadFull(r, data[n:])
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return nil, err
		}
		data = data[:n+m]
	} else {
		for {
			if len(data) == cap(data) {
				data = append(data, 0)[:len(data)]
			}
			m, err := r.Read(data[len(data):cap(data)])
			data = data[:len(data)+m]
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
		}
		f.Size = max(size, int64(len(data)))
	}
	f.Data = data
	return f, nil
}

// Decode decodes the file's bytes. Bytes the file holds past what was read
// are reported, as a warning at the end of the replay.
func (f *File) Decode(opt model.DecodeOptions) (*model.Replay, error) {
	r, err := Decode(f.Data, f.Path, opt)
	if r == nil {
		return r, err
	}
	r.Path, r.Size = f.Path, max(f.Size, int64(len(f.Data)))
	if rest := f.Unread(); rest > 0 {
		r.Diagnostics = append(r.Diagnostics, model.Diagnostic{Severity: model.Warning, Source: "rewind",
			Span: model.Span{Off: int64(len(f.Data))}, Frame: -1, Subject: "trailing bytes",
			Message:  fmt.Sprintf("%s bytes follow the end of the replay, where its header says it ends; they were not read", model.FormatCount(rest)),
			Expected: fmt.Sprintf("end of file at %#x", len(f.Data)), Found: fmt.Sprintf("a file of %s bytes", model.FormatCount(f.Size)),
			Skipped: true})
	}
	return r, err
}

// Open reads and decodes the replay in a regular file (ReadFile, then
// File.Decode). rewind never writes to it.
func Open(path string, opt model.DecodeOptions) (*model.Replay, error) {
	f, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return f.Decode(opt)
}

// ReadPacked returns the bytes of a member of a pack (pack.zip/a/b.slp),
// whole, within the limit the pack sets for it.
func ReadPacked(path string) ([]byte, error) {
	packPath, member, found := pack.Split(path)
	if !found {
		return nil, fmt.Errorf("%s: no pack holds it", path)
	}
	p, err := pack.Open(packPath)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	rc, _, err := p.Open(member)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// readPacked reads a path that names a member of a pack; ok is false when
// no leading part of the path is a pack.
func readPacked(path string) (f *File, ok bool, err error) {
	if _, _, found := pack.Split(path); !found {
		return nil, false, nil
	}
	data, err := ReadPacked(path)
	if err != nil {
		return nil, true, err
	}
	f, err = ReadBytes(data, path)
	return f, true, err
}

// ReadBytes is ReadFile for bytes already in memory (the built-in samples, a
// member of a pack, a mapped file): what a replay's front says about its
// extent holds the same way. The File's Data is data (or its front), not a
// copy.
func ReadBytes(data []byte, path string) (*File, error) {
	size := int64(len(data))
	f := &File{Path: path, Size: size, Extent: -1}
	head := data[:min(size, HeadSize)]
	var err error
	if f.Format, err = Detect(head, path); err != nil {
		return nil, err
	}
	f.Data = data
	if f.Format.Extent != nil {
		f.Extent = f.Format.Extent(head, size)
	}
	if f.Extent >= 0 && f.Extent < size {
		f.Data = data[:f.Extent]
	}
	return f, nil
}
