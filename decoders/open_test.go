package decoders

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/fzgx"
	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/decoders/sc2"
	"rewind/decoders/slippi"
	"rewind/model"
)

func sampleBytes(t *testing.T, format, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Samples(t, format), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withTail writes data to a temporary file and extends it to size bytes
// (a sparse tail of zeros: gigabytes cost no disk).
func withTail(t *testing.T, data []byte, size int64) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "replay")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
	return p
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A replay followed by 3 GB of zeros is read as far as its header says it
// reaches, decodes as it does alone, and the rest is reported, not read.
func TestOpenStopsAtTheExtent(t *testing.T) {
	const tail = 3 << 30
	tests := []struct {
		format, name string
		extent       func(data []byte) int64 // where the replay ends
	}{
		{"sc2", "lotv-4.3.0-backwater-vs-ai.SC2Replay", func(d []byte) int64 { return int64(len(d)) }},
		{"fzgx", "time-attack.gci", func(d []byte) int64 { return int64(len(d)) }},
		// Slippi states its raw element; the metadata after it may take up
		// to 1<<20
		{"slippi", "tests__data__v3.12.slp", func(d []byte) int64 {
			return 15 + int64(binary.BigEndian.Uint32(d[11:])) + 1<<20
		}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			data := sampleBytes(t, tt.format, tt.name)
			alone, err := Decode(data, tt.name, model.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			path := withTail(t, data, int64(len(data))+tail)
			var r *model.Replay
			alloc := decodetest.Allocated(func() { r, err = Open(path, model.DecodeOptions{}) })
			if err != nil {
				t.Fatal(err)
			}
			want := tt.extent(data)
			if int64(len(r.Data)) != want {
				t.Errorf("read %d bytes, want the extent %d", len(r.Data), want)
			}
			if r.Size != int64(len(data))+tail {
				t.Errorf("Size = %d, want the file's %d", r.Size, int64(len(data))+tail)
			}
			if alloc > uint64(want)+64<<20 {
				t.Errorf("allocated %d bytes to open a replay of %d bytes", alloc, len(data))
			}
			if len(r.Events) != len(alone.Events) || r.Timeline.Count != alone.Timeline.Count || r.Title != alone.Title {
				t.Errorf("decodes differently with the tail: %d events / %d frames / %q, alone %d / %d / %q",
					len(r.Events), r.Timeline.Count, r.Title, len(alone.Events), alone.Timeline.Count, alone.Title)
			}
			last := r.Diagnostics[len(r.Diagnostics)-1]
			if last.Severity != model.Warning || last.Span.Off != want || !strings.Contains(last.Message, "bytes follow the end of the replay") ||
				!strings.Contains(last.Message, model.FormatCount(int64(len(data))+tail-want)) {
				t.Errorf("trailing bytes diagnostic = %v", last)
			}
			if r.Problems() == 0 {
				t.Error("a file with 3 GB after its replay is reported clean")
			}
		})
	}
}

// A file that holds exactly its replay is read whole, with nothing to say.
func TestOpenWholeReplay(t *testing.T) {
	for _, s := range []struct{ format, name string }{
		{"sc2", "lotv-4.3.0-backwater-vs-ai.SC2Replay"}, {"fzgx", "time-attack.gci"}, {"slippi", "tests__data__v3.12.slp"},
		{"bsor", "easy-full-play.bsor"}, {"teehistorian", "idle_clean_shutdown.teehistorian"},
	} {
		data := sampleBytes(t, s.format, s.name)
		path := withTail(t, data, int64(len(data)))
		r, err := Open(path, model.DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		alone, _ := Decode(data, s.name, model.DecodeOptions{})
		if !bytes.Equal(r.Data, data) || r.Size != int64(len(data)) || r.Path != path {
			t.Errorf("%s: read %d of %d bytes, size %d, path %q", s.name, len(r.Data), len(data), r.Size, r.Path)
		}
		if len(r.Diagnostics) != len(alone.Diagnostics) {
			t.Errorf("%s: %d diagnostics through Open, %d decoding the bytes", s.name, len(r.Diagnostics), len(alone.Diagnostics))
		}
	}
}

// A file no decoder claims is refused from its front: the rest is never read.
func TestReadFileRefusesFromTheFront(t *testing.T) {
	const size = 100 << 20
	text := io.MultiReader(strings.NewReader("just some notes\n"), io.LimitReader(zeros{}, size))
	cr := &countingReader{r: text}
	_, err := readFile(cr, "notes.slp", size)
	var nr *NotReplayError
	if !errors.As(err, &nr) {
		t.Fatalf("err = %v, want a NotReplayError", err)
	}
	if cr.n > HeadSize {
		t.Errorf("read %d bytes of a file no decoder claims; the front is %d", cr.n, HeadSize)
	}
	// a format whose front does not say its extent is read to the end
	bsor := sampleBytes(t, "bsor", "easy-full-play.bsor")
	cr = &countingReader{r: bytes.NewReader(bsor)}
	f, err := readFile(cr, "x.bsor", int64(len(bsor)))
	if err != nil || !bytes.Equal(f.Data, bsor) || f.Extent != -1 || f.Unread() != 0 {
		t.Fatalf("bsor: %v, %d bytes, extent %d", err, len(f.Data), f.Extent)
	}
	// a file that grew after the stat is read as it is now
	cr = &countingReader{r: bytes.NewReader(bsor)}
	if f, err = readFile(cr, "x.bsor", 1000); err != nil || len(f.Data) != len(bsor) || f.Size != int64(len(bsor)) {
		t.Fatalf("grown bsor: %v, %d bytes, size %d", err, len(f.Data), f.Size)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestOpenRefusesSpecialFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := Open("/dev/zero", model.DecodeOptions{})
	var nr *NotRegularError
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), "character device") {
		t.Fatalf("Open(/dev/zero) = %v", err)
	}
}

func TestExtents(t *testing.T) {
	tests := []struct {
		name string
		f    func([]byte, int64) int64
		head []byte
		want int64
	}{
		{"slippi", slippi.Format.Extent, []byte("{U\x03raw[$U#l\x00\x00\x01\x00"), 15 + 256 + 1<<20},
		{"slippi recording", slippi.Format.Extent, []byte("{U\x03raw[$U#l\x00\x00\x00\x00"), -1},
		{"slippi cut", slippi.Format.Extent, []byte("{U\x03raw[$U#l\x00"), -1},
		{"fzgx 3 blocks", fzgx.Format.Extent, append(make([]byte, 0x38), 0, 3), 0x40 + 3*0x2000},
		{"fzgx no blocks", fzgx.Format.Extent, make([]byte, 0x40), -1},
		{"sc2 archive", sc2.Format.Extent, mpqHeader(0, 1000, 900, 4, 800, 2), 1000},
		{"sc2 tables past the size", sc2.Format.Extent, mpqHeader(0, 100, 900, 4, 800, 2), 964},
		{"sc2 user data", sc2.Format.Extent, append(append([]byte("MPQ\x1b\x00\x02\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00"), make([]byte, 0x400-16)...), mpqHeader(0, 2000, 0, 0, 0, 0)...), 0x400 + 2000},
		{"sc2 sizes all zero", sc2.Format.Extent, mpqHeader(0, 0, 0, 0, 0, 0), -1},
		{"sc2 header elsewhere", sc2.Format.Extent, append([]byte("MPQ\x1b\x00\x02\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00"), make([]byte, 64)...), -1},
	}
	for _, tt := range tests {
		if got := tt.f(tt.head, 1<<40); got != tt.want {
			t.Errorf("%s: extent %d, want %d", tt.name, got, tt.want)
		}
	}
}

// mpqHeader is a version-1 MPQ archive header (32 bytes).
func mpqHeader(version uint16, size, hashAt, hashN, blockAt, blockN uint32) []byte {
	b := []byte("MPQ\x1a")
	le := func(v uint32) { b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }
	le(32)
	le(size)
	b = append(b, byte(version), byte(version>>8), 3, 0)
	le(hashAt)
	le(blockAt)
	le(hashN)
	le(blockN)
	return b
}

// A replay inside a pack opens by the pack's path and the member's, and
// decodes as the file itself does.
func TestOpenInsidePacks(t *testing.T) {
	dir := t.TempDir()
	data := sampleBytes(t, "slippi", "tests__data__netplay.slp")
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("set 1/game.slp")
	w.Write(data)
	zw.Close()
	zpath := filepath.Join(dir, "pack.zip")
	os.WriteFile(zpath, zb.Bytes(), 0o644)
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	gw.Write(data)
	gw.Close()
	gpath := filepath.Join(dir, "game.slp.gz")
	os.WriteFile(gpath, gb.Bytes(), 0o644)
	want, err := Decode(data, "game.slp", model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(zpath, "set 1", "game.slp"), filepath.Join(gpath, "game.slp")} {
		r, err := Open(p, model.DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if r.Path != p || r.Size != int64(len(data)) || r.Timeline.Count != want.Timeline.Count || len(r.Events) != len(want.Events) {
			t.Errorf("%s: path %q, %d bytes, %d frames, %d events; want %d bytes, %d frames, %d events", p, r.Path, r.Size,
				r.Timeline.Count, len(r.Events), len(data), want.Timeline.Count, len(want.Events))
		}
	}
	if _, err := Open(filepath.Join(zpath, "set 1", "missing.slp"), model.DecodeOptions{}); err == nil || !strings.Contains(err.Error(), "missing.slp") {
		t.Errorf("a missing member: %v", err)
	}
}
