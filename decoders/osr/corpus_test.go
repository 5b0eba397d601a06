package osr

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/corpus"
	"rewind/model"
)

type osrparseRow struct {
	file                    string
	mode                    int
	version                 int32
	beatmap, player, replay string
	replayNone              bool
	counts                  [6]int
	score                   int32
	combo                   int
	perfect                 bool
	mods                    uint32
	life                    int
	lifeSum                 float64
	timestamp               string
	ticks                   int64
	id, seed                int64
	frames                  int
	time                    int64
	framesSHA               string
	err                     string
}

// decodeAll decodes data and keeps the decoder, for the typed values.
func decodeAll(data []byte) (*model.Replay, *decoder) {
	d := &decoder{data: data, b: budget.New(int64(len(data)), model.Limits{})}
	d.parse(model.DecodeOptions{})
	return d.build(model.DecodeOptions{}), d
}

func f64bits(x float64) string {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
	return hex.EncodeToString(b[:])
}

// frameCanon writes the input frames as the reference script writes
// osrparse's events: per mode, floats as the hex of their float64 bytes.
func frameCanon(mode uint8, fr []frame) string {
	h := sha256.New()
	for i := range fr {
		f := &fr[i]
		switch mode {
		case modeStd:
			fmt.Fprintf(h, "%d|%s|%s|%d\n", f.w, f64bits(f.x), f64bits(f.y), f.z)
		case modeTaiko:
			fmt.Fprintf(h, "%d|%d|%d\n", f.w, int64(f.x), f.z)
		case modeCatch:
			dash := 0
			if f.z == 1 {
				dash = 1
			}
			fmt.Fprintf(h, "%d|%s|%d\n", f.w, f64bits(f.x), dash)
		default:
			fmt.Fprintf(h, "%d|%d\n", f.w, int64(f.x))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestAgainstOsrparse holds every corpus file to osrparse 7.0.1's reading:
// the header's values, the timestamp (exact ticks; osrparse's float
// conversion within 8 µs), the score id, the seed, and the input frames
// (count, summed time, and every value through a digest).
func TestAgainstOsrparse(t *testing.T) {
	dir := corpus.Dir(t, "osr")
	files := 0
	for _, w := range osrparseWant {
		t.Run(w.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, w.file))
			if err != nil {
				t.Fatal(err)
			}
			files++
			if w.err != "" {
				checkUnreadable(t, w, data)
				return
			}
			if !match(data) {
				t.Fatal("Match does not claim the file")
			}
			r, d := decodeAll(data)
			if r.Problems() > 0 {
				t.Errorf("problems: %v", r.Diagnostics)
			}
			h := &d.h
			if int(h.mode) != w.mode || h.version != w.version {
				t.Errorf("mode %d version %d, want %d %d", h.mode, h.version, w.mode, w.version)
			}
			if h.beatmap.s != w.beatmap || h.player.s != w.player || h.replayHash.s != w.replay || h.replayHash.present == w.replayNone {
				t.Errorf("strings %q %q %q (present %v), want %q %q %q (none %v)", h.beatmap.s, h.player.s, h.replayHash.s, h.replayHash.present, w.beatmap, w.player, w.replay, w.replayNone)
			}
			for i := range h.counts {
				if int(h.counts[i]) != w.counts[i] {
					t.Errorf("%s = %d, want %d", countKeys[i], h.counts[i], w.counts[i])
				}
			}
			if h.score != w.score || int(h.combo) != w.combo || (h.perfect != 0) != w.perfect || h.mods != w.mods {
				t.Errorf("score %d combo %d perfect %d mods %d, want %d %d %v %d", h.score, h.combo, h.perfect, h.mods, w.score, w.combo, w.perfect, w.mods)
			}
			// osrparse gives None for an empty graph
			life, sum := len(h.lifePoints), 0.0
			for _, p := range h.lifePoints {
				sum += p.life
			}
			if life == 0 {
				life = -1
			}
			if life != w.life || math.Abs(sum-w.lifeSum) > 1e-9 {
				t.Errorf("life bar %d points summing %g, want %d summing %g", life, sum, w.life, w.lifeSum)
			}
			if h.ticks != w.ticks {
				t.Errorf("ticks %d, want %d", h.ticks, w.ticks)
			}
			ref, err := time.Parse(time.RFC3339Nano, w.timestamp)
			if err != nil {
				t.Fatal(err)
			}
			if d := ticksTime(h.ticks).Sub(ref); d < -8*time.Microsecond || d > 8*time.Microsecond {
				t.Errorf("timestamp %v, osrparse %v", ticksTime(h.ticks), ref)
			}
			if h.idWidth == 0 || h.id != w.id {
				t.Errorf("score id %d (%d bytes), want %d", h.id, h.idWidth, w.id)
			}
			rs := &d.recs
			seed := int64(-1)
			if rs.hasSeed {
				seed = rs.seed
			}
			if seed != w.seed {
				t.Errorf("seed %d, want %d", seed, w.seed)
			}
			if len(rs.frames) != w.frames || r.Timeline.Count != w.frames {
				t.Errorf("%d frames (timeline %d), want %d", len(rs.frames), r.Timeline.Count, w.frames)
			}
			var sum64 int64
			for _, f := range rs.frames {
				sum64 += int64(f.w)
			}
			if sum64 != w.time {
				t.Errorf("frames' time %d, want %d", sum64, w.time)
			}
			if got := frameCanon(h.mode, rs.frames); got != w.framesSHA {
				t.Errorf("frames digest %s, want %s", got, w.framesSHA)
			}
		})
	}
	if files != len(osrparseWant) {
		t.Errorf("%d files read of %d", files, len(osrparseWant))
	}
}

// checkUnreadable: the two files osrparse cannot read. The Git LFS
// pointer is no replay (its near miss names it); the score whose frames
// block is empty reads, with a warning saying it has no replay data
// (osrparse fails decompressing its zero bytes).
func checkUnreadable(t *testing.T, w osrparseRow, data []byte) {
	switch {
	case strings.Contains(w.file, "abstrakt8"):
		if match(data) {
			t.Fatal("Match claims a Git LFS pointer")
		}
		if s := nearMiss(data, ".osr"); !strings.Contains(s, "Git LFS pointer") {
			t.Fatalf("near miss %q", s)
		}
	default:
		r, d := decodeAll(data)
		if d.frames.declared != 0 || r.Timeline.Count != 0 {
			t.Errorf("frames block %d bytes, %d frames; want an empty block", d.frames.declared, r.Timeline.Count)
		}
		if r.Problems() == 0 || !strings.Contains(r.Diagnostics[0].Message, "no replay data") {
			t.Errorf("diagnostics %v", r.Diagnostics)
		}
	}
}
