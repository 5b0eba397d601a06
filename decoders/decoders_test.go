package decoders

import (
	"errors"
	"strings"
	"testing"

	"rewind/model"
)

func TestDetectByContent(t *testing.T) {
	tests := []struct {
		name string
		file string // the extension must not matter
		head []byte
		want model.Format
	}{
		{"slippi", "game.bsor", []byte("{U\x03raw[$U#l\x00\x00\x00\x00"), model.Format("slippi")},
		{"bsor", "x.slp", []byte{0x69, 0x3d, 0x2d, 0x44, 1, 0}, model.Format("bsor")},
		{"teehistorian", "x", append([]byte{0x69, 0x9d, 0xb1, 0x7b, 0x8e, 0xfb, 0x34, 0xff, 0xb1, 0xd8, 0xda, 0x6f, 0x60, 0xc1, 0x5d, 0xd1}, '{'), model.Format("teehistorian")},
		{"fzgx NA", "x.dat", []byte("GFZE8P\xff\x02"), model.Format("fzgx")},
		{"fzgx JP", "x.dat", []byte("GFZJ8P\xff\x02"), model.Format("fzgx")},
		{"fzgx EU", "x.dat", []byte("GFZP8P\xff\x02"), model.Format("fzgx")},
		{"sc2 user data", "x.slp", []byte("MPQ\x1b\x00\x02\x00\x00"), model.Format("sc2")},
		{"sc2 archive", "x", []byte("MPQ\x1a\x2c\x00\x00\x00"), model.Format("sc2")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Detect(tt.head, tt.file)
			if err != nil {
				t.Fatalf("Detect: %v", err)
			}
			if f.ID != tt.want {
				t.Fatalf("Detect = %s, want %s", f.ID, tt.want)
			}
		})
	}
}

func TestDescribeNonReplays(t *testing.T) {
	tests := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"empty", "a.slp", nil, "not a replay although its name ends in .slp: an empty file"},
		{"text", "notes.txt", []byte("thisisfakeubjson\n"), `a text file beginning "thisisfakeubjson"`},
		{"gzip", "a.gz", []byte{0x1f, 0x8b, 8, 0}, "a gzip archive"},
		{"xz", "a.xz", []byte{0xfd, '7', 'z', 'X', 'Z', 0, 0}, "an xz archive"},
		{"zlp", "game.zlp", []byte{0xfd, '7', 'z', 'X', 'Z', 0, 0}, "slippc-compressed .zlp replay"},
		{"zip", "a.zip", []byte("PK\x03\x04rest"), "a zip archive"},
		{"other ubjson", "a.ubj", []byte("{U\x04meta"), "UBJSON object"},
		{"binary", "a.bin", []byte{0, 1, 2, 3, 0xff}, "no known replay: it starts with 00 01 02 03 ff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Detect(tt.data, tt.file)
			var nr *NotReplayError
			if !errors.As(err, &nr) {
				t.Fatalf("Detect error = %v, want NotReplayError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Detect error = %q, want it to contain %q", err, tt.want)
			}
			if strings.Count(err.Error(), "\n") > 0 {
				t.Fatalf("want one sentence, got %q", err)
			}
		})
	}
}

func TestDecodeNamesUnsupportedFormats(t *testing.T) {
	// a decoder stub returning ErrNotSupported is named by the registry
	saved := Formats[3].Decode
	defer func() { Formats[3].Decode = saved }()
	Formats[3].Decode = func([]byte, model.DecodeOptions) (*model.Replay, error) { return nil, model.ErrNotSupported }
	_, err := Decode([]byte("GFZE8P\xff\x02"), "x.gci", model.DecodeOptions{})
	if err == nil || err.Error() != "F-Zero GX replay: not supported yet" {
		t.Fatalf("err = %v", err)
	}
	var de *Error
	if !errors.As(err, &de) || de.Format != model.Format("fzgx") {
		t.Fatalf("want *Error naming fzgx, got %#v", err)
	}
}
