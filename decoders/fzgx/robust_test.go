package fzgx

import (
	"os"
	"path/filepath"
	"testing"

	"rewind/decoders/internal/analysistest"
	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

func sample(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "fzgx"), name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// walk touches everything a viewer reads, to catch panics behind the
// lazy functions.
func walk(t testing.TB, r *model.Replay) {
	n := r.Timeline.Count
	for _, f := range []int{0, 1, n / 3, n / 2, n - 1, n} {
		r.Timeline.Label(f)
		r.Timeline.Time(f)
		r.SceneAt(f)
		for p := range r.Players {
			r.PlayerState(f, p)
		}
	}
	if n > 0 && r.Timeline.Time(0) > r.Timeline.Time(n-1) {
		t.Errorf("TimeOf decreases")
	}
	for i := range r.Events {
		if i < 64 || i%61 == 0 || i == len(r.Events)-1 {
			// summaries cost a Sprintf each; a sample finds the panics
			r.EventSummary(i)
			r.EventFields(i)
		}
		if ev := r.Events[i]; ev.Frame < 0 || (n > 0 && int(ev.Frame) >= n) {
			t.Errorf("event %d at frame %d outside 0..%d", i, ev.Frame, n-1)
		}
	}
	for _, c := range r.Charts {
		for _, s := range c.Series {
			if len(s.Values) > n {
				t.Errorf("chart %q has %d values for %d frames", c.Title, len(s.Values), n)
			}
		}
	}
}

func TestTruncation(t *testing.T) {
	data := sample(t, "time-attack.gci")
	end := 0x20A0 + 13688 // where the bitstream ends (EXPECTED.md)
	cuts := []int{0, 3, 0x41, 0x44, 0x60, 0x83, 0x84, 0x20A0, 0x20A1, end - 1, end, end + 1}
	for c := 0x20A0; c < end; c += 61 {
		cuts = append(cuts, c)
	}
	for _, c := range cuts {
		r, err := Decode(data[:c], model.DecodeOptions{})
		if c < 0x44 {
			if err == nil {
				t.Errorf("cut %d: no refusal", c)
			}
			continue
		}
		if err != nil {
			t.Errorf("cut %#x: %v", c, err)
			continue
		}
		walk(t, r)
		if c < end {
			if !r.Partial {
				t.Errorf("cut %#x: not partial", c)
			}
			found := false
			for _, d := range r.Diagnostics {
				if d.Severity == model.Error && d.Span.Off <= int64(c) && (c < 0x20A0 || d.Span.Off >= 0x20A0) {
					found = true
				}
			}
			if !found {
				t.Errorf("cut %#x: no error diagnostic at an offset up to the cut: %v", c, r.Diagnostics)
			}
		}
		if c >= 0x20A0+0x60 && r.Title != "Mute City: Sonic Oval" {
			t.Errorf("cut %#x: lost the course", c)
		}
	}
}

func TestBitFlips(t *testing.T) {
	data := sample(t, "time-attack.gci")
	end := 0x20A0 + 13688
	buf := make([]byte, len(data))
	for bit := 0; bit < end*8; bit += 211 {
		if bit < 0x20A0*8 && bit%(211*8) != 0 {
			continue // the banner area: only some flips
		}
		copy(buf, data)
		buf[bit>>3] ^= 1 << (bit & 7)
		r, err := Decode(buf, model.DecodeOptions{})
		if err != nil {
			continue // game code or file type hit: refused, fine
		}
		walk(t, r)
		if r.Problems() == 0 && bit >= 0x40*8 {
			t.Errorf("flip of bit %d: no checksum warning", bit)
		}
	}
}

// TestHeaderOnly: the summary without the inputs; the total frames in
// the header state the timeline's length.
func TestHeaderOnly(t *testing.T) {
	r := decode(t, sample(t, "time-attack.gci"), model.DecodeOptions{HeaderOnly: true})
	if r.Title != "Mute City: Sonic Oval" || r.Mode != "Time Attack" || r.Duration == 0 || !r.Partial || len(r.Players) != 1 || r.Timeline.Count != 3314 {
		t.Errorf("header only: %q %q %v partial %v players %d count %d", r.Title, r.Mode, r.Duration, r.Partial, len(r.Players), r.Timeline.Count)
	}
}

// fuzzSeeds are whole files cut down: a replay's bitstream starts at
// 0x20A0, after the banner and icon, so a file is never smaller than that;
// the seeds end where their bitstream ends (or a little into it for the
// real sample), not at the end of their last block.
func fuzzSeeds(tb testing.TB) [][]byte {
	real := sample(tb, "time-attack.gci")
	ta := minimalTA().stream()
	gp := minimalTA()
	gp.mode = 1
	gp.racers = append(gp.racers, encRacer{machine: 3}, encRacer{human: true, machine: 50, custom: &encCustom{nEmb: 1}})
	gps := gp.stream()
	return [][]byte{
		real[:streamOff+1024],
		wrapGCI(gciOpts{}, ta)[:streamOff+len(ta)],
		wrapGCI(gciOpts{region: 'J'}, gps)[:streamOff+len(gps)],
	}
}

func FuzzFZGX(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []model.DecodeOptions{{}, {HeaderOnly: true}} {
			r, err := Decode(data, opt)
			decodetest.Check(t, r, err, data, opt)
			if !opt.HeaderOnly {
				decodetest.NoEvents(t, Decode, data, r, err)
			}
		}
	})
}

// FuzzFZGXStream fuzzes the bitstream alone behind a fixed GCI header and
// banner: FuzzFZGX's inputs are mostly banner bytes, where a mutation
// reaches no decoding at all.
func FuzzFZGXStream(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s[streamOff:])
	}
	front := fuzzSeeds(f)[1][:streamOff]
	f.Fuzz(func(t *testing.T, stream []byte) {
		data := append(append(make([]byte, 0, len(front)+len(stream)), front...), stream...)
		for _, opt := range []model.DecodeOptions{{}, {HeaderOnly: true}} {
			r, err := Decode(data, opt)
			decodetest.Check(t, r, err, data, opt)
			if !opt.HeaderOnly {
				decodetest.NoEvents(t, Decode, data, r, err)
			}
			if err == nil && !opt.HeaderOnly {
				analysistest.Summary(t, r, &Format)
			}
		}
	})
}

func BenchmarkDecodeFZGX(b *testing.B) {
	data := sample(b, "time-attack.gci")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data, model.DecodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeFZGXHeaderOnly(b *testing.B) {
	data := sample(b, "time-attack.gci")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data, model.DecodeOptions{HeaderOnly: true}); err != nil {
			b.Fatal(err)
		}
	}
}
