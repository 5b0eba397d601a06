package fzgx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

func timeAttack(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Samples(t, "fzgx"), "time-attack.gci"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRepairChecksum: a damaged checksum is restored to the one the save
// was written with, byte for byte; a save that is whole needs no repair.
func TestRepairChecksum(t *testing.T) {
	data := timeAttack(t)
	rep, err := Repair(data, model.RepairOptions{})
	if err != nil || rep.Whole == "" || rep.Data != nil {
		t.Fatalf("the sample (valid checksum, MANIFEST.tsv) was not whole: %v %+v", err, rep)
	}
	for _, off := range []int{checksumOff, checksumOff + 1} {
		for bit := 0; bit < 8; bit++ {
			in := append([]byte(nil), data...)
			in[off] ^= 1 << bit
			rep, err := Repair(in, model.RepairOptions{})
			if err != nil {
				t.Fatalf("checksum bit %d at %#x: %v", bit, off, err)
			}
			if !bytes.Equal(rep.Data, data) {
				t.Fatalf("checksum bit %d at %#x: the repaired save is not the original", bit, off)
			}
			if rep.Frames != 3314 { // MANIFEST.tsv: 3314 frames
				t.Errorf("checksum bit %d at %#x: %d frames, want 3314", bit, off, rep.Frames)
			}
		}
	}
}

// TestRepairBitFlips flips bits after the checksum all over the save. The
// checksum notices every one; the repair recomputes it when the replay
// data still reads, and says why not when it does not.
func TestRepairBitFlips(t *testing.T) {
	data := timeAttack(t)
	counts := map[string]int{}
	for off := fileTypeOff + 2; off < len(data); off += 37 {
		in := append([]byte(nil), data...)
		in[off] ^= 1 << (off % 8)
		name := fmt.Sprintf("bit %d at %#x", off%8, off)
		rep, err := Repair(in, model.RepairOptions{})
		var re *model.RepairError
		switch {
		case err != nil && errors.As(err, &re):
			counts["could not repair"]++
			if !strings.Contains(err.Error(), "rewind does not rewrite the replay data") {
				t.Errorf("%s: %v", name, err)
			}
		case err != nil:
			t.Errorf("%s: %v is no RepairError", name, err)
		case rep.Whole != "":
			t.Errorf("%s: a flipped bit went unnoticed", name)
		default:
			counts["repaired"]++
			r, err := Decode(rep.Data, model.DecodeOptions{})
			if err != nil || r.Problems() > 0 {
				t.Errorf("%s: repaired save: %v %v", name, err, r.Diagnostics)
			}
			if !bytes.Equal(rep.Data[checksumOff+2:], in[checksumOff+2:]) || !bytes.Equal(rep.Data[:checksumOff], in[:checksumOff]) {
				t.Errorf("%s: the repair changed more than the checksum", name)
			}
			if got := binary.BigEndian.Uint16(rep.Data[checksumOff:]); got != crc16(in[fileTypeOff:]) {
				t.Errorf("%s: checksum %#04x", name, got)
			}
		}
	}
	t.Logf("bit flips after 0x42: %v", counts)
	if counts["repaired"] == 0 {
		t.Error("no flip repaired")
	}
}

func TestRepairRefuses(t *testing.T) {
	data := timeAttack(t)
	emblem, err := os.ReadFile(filepath.Join("testdata", "emblem-falcon.gci"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		in   []byte
		want string
	}{
		{"cut short", data[:20000], "file size does not match the block count"},
		{"an emblem", emblem, "emblem save"},
		{"no F-Zero GX save", []byte("GFZX"), "unknown region letter"},
	} {
		_, err := Repair(tt.in, model.RepairOptions{})
		var re *model.RepairError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a RepairError saying %q", tt.name, err, tt.want)
		}
	}
}

// FuzzRepair: the repair never panics, and what it writes decodes clean.
func FuzzRepair(f *testing.F) {
	data := timeAttack(f)
	f.Add(data[:0x2200])
	bad := append([]byte(nil), data...)
	bad[0x40] ^= 1
	f.Add(bad)
	f.Fuzz(func(t *testing.T, in []byte) {
		rep, err := Repair(in, model.RepairOptions{})
		if err != nil || rep.Whole != "" {
			return
		}
		r, err := Decode(rep.Data, model.DecodeOptions{})
		if err != nil || r.Problems() > 0 {
			t.Fatalf("repaired save: %v %v", err, r.Diagnostics)
		}
	})
}
