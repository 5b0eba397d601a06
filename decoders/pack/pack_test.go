package pack

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// files are the members every test pack holds: two replay-sized files in
// folders and one at the top.
func files() map[string][]byte {
	big := bytes.Repeat([]byte("replay bytes "), 5000)
	return map[string][]byte{
		"round 1/game 1.slp": append([]byte("{U\x03raw[$U#l"), big...),
		"round 1/game 2.slp": append([]byte("{U\x03raw[$U#l"), big[:1000]...),
		"notes.txt":          []byte("gg"),
	}
}

var order = []string{"round 1/game 1.slp", "round 1/game 2.slp", "notes.txt"}

func writeZip(t *testing.T, dir string, fs map[string][]byte) string {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, name := range order {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(fs[name])
	}
	zw.Close()
	return write(t, dir, "pack.zip", b.Bytes())
}

func tarBytes(t *testing.T, fs map[string][]byte) []byte {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	tw.WriteHeader(&tar.Header{Name: "round 1/", Typeflag: tar.TypeDir, Mode: 0o755})
	for _, name := range order {
		if err := tw.WriteHeader(&tar.Header{Name: name, Size: int64(len(fs[name])), Mode: 0o644, ModTime: time.Unix(1700000000, 0)}); err != nil {
			t.Fatal(err)
		}
		tw.Write(fs[name])
	}
	tw.Close()
	return b.Bytes()
}

func gz(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func write(t *testing.T, dir, name string, data []byte) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Every kind of pack lists its regular files and reads each back whole.
func TestPacksReadBack(t *testing.T) {
	dir := t.TempDir()
	fs := files()
	var zs bytes.Buffer
	zw, _ := zstd.NewWriter(&zs)
	zw.Write(fs["round 1/game 1.slp"])
	zw.Close()
	tests := []struct {
		path  string
		kind  Kind
		names []string
	}{
		{writeZip(t, dir, fs), Zip, order},
		{write(t, dir, "pack.tar", tarBytes(t, fs)), Tar, order},
		{write(t, dir, "pack.tar.gz", gz(tarBytes(t, fs))), TarGz, order},
		{write(t, dir, "pack.tgz", gz(tarBytes(t, fs))), TarGz, order},
		{write(t, dir, "game 1.slp.gz", gz(fs["round 1/game 1.slp"])), Gzip, []string{"game 1.slp"}},
		{write(t, dir, "game 1.slp.zst", zs.Bytes()), Zstd, []string{"game 1.slp"}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			p, err := Open(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if p.Kind != tt.kind {
				t.Errorf("kind %v, want %v", p.Kind, tt.kind)
			}
			var names []string
			for _, m := range p.Members() {
				names = append(names, m.Name)
			}
			if strings.Join(names, "|") != strings.Join(tt.names, "|") {
				t.Errorf("members %q, want %q", names, tt.names)
			}
			// read out of order too: a compressed tar goes back to its start
			for i := len(tt.names) - 1; i >= 0; i-- {
				name := tt.names[i]
				want := fs[name]
				if want == nil {
					want = fs["round 1/"+name]
				}
				rc, _, err := p.Open(name)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, err := io.ReadAll(rc)
				rc.Close()
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: %d bytes (%v), want %d", name, len(got), err, len(want))
				}
			}
		})
	}
}

// A member that expands past its limit is refused, by the size it
// declares or, when it declares none, once it reaches the limit.
func TestBombsRefused(t *testing.T) {
	dir := t.TempDir()
	zeros := make([]byte, MinMember+1<<20)
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("bomb.slp")
	w.Write(zeros)
	zw.Close()
	zpath := write(t, dir, "bomb.zip", b.Bytes())
	gpath := write(t, dir, "bomb.slp.gz", gz(zeros))
	for _, tt := range []struct{ path, member string }{{zpath, "bomb.slp"}, {gpath, "bomb.slp"}} {
		p, err := Open(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		var bomb *BombError
		rc, _, err := p.Open(tt.member)
		if err == nil {
			_, err = io.ReadAll(rc)
			rc.Close()
		}
		if !errors.As(err, &bomb) || !strings.Contains(err.Error(), "zip bomb") || !strings.Contains(err.Error(), filepath.Base(tt.path)) {
			t.Errorf("%s: %v, want a refusal naming the pack", tt.path, err)
		}
		p.Close()
	}
	// the same bytes under the limit read
	if MemberLimit(10) != MinMember || MemberLimit(1<<30) != MaxMember || MemberLimit(1<<20) != 100<<20 {
		t.Errorf("limits %d %d %d", MemberLimit(10), MemberLimit(1<<30), MemberLimit(1<<20))
	}
}

// Split finds the pack among a path's leading parts.
func TestSplit(t *testing.T) {
	dir := t.TempDir()
	zpath := writeZip(t, dir, files())
	tests := []struct {
		in, pack, member string
		ok               bool
	}{
		{filepath.Join(zpath, "round 1", "game 2.slp"), zpath, "round 1/game 2.slp", true},
		{filepath.Join(zpath, "x"), zpath, "x", true},
		{zpath, "", "", false},
		{filepath.Join(dir, "missing", "x.slp"), "", "", false},
	}
	for _, tt := range tests {
		p, m, ok := Split(tt.in)
		if p != tt.pack || m != tt.member || ok != tt.ok {
			t.Errorf("Split(%q) = %q %q %v, want %q %q %v", tt.in, p, m, ok, tt.pack, tt.member, tt.ok)
		}
	}
}

// Garbage and damaged packs give errors, never a panic.
func TestDamagedPacks(t *testing.T) {
	dir := t.TempDir()
	whole := gz(tarBytes(t, files()))
	for i, data := range [][]byte{
		[]byte("PK\x03\x04garbage"),
		whole[:len(whole)/2],
		append([]byte{0x28, 0xb5, 0x2f, 0xfd}, 1, 2, 3),
		{0x1f, 0x8b, 8, 0, 0},
	} {
		name := []string{"a.zip", "b.tar.gz", "c.slp.zst", "d.slp.gz"}[i]
		p, err := Open(write(t, dir, name, data))
		if err != nil {
			continue
		}
		for _, m := range p.Members() {
			if rc, _, err := p.Open(m.Name); err == nil {
				io.ReadAll(rc)
				rc.Close()
			}
		}
		p.Close()
	}
}
