package slippi

import (
	"math/rand"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

func samples(t testing.TB) map[string][]byte {
	t.Helper()
	return corpus.SampleData(t, "slippi", "*.slp")
}

// exercise touches every lazy part of a replay, as the TUI would.
func exercise(t testing.TB, r *model.Replay) {
	t.Helper()
	n := r.Timeline.Count
	for i := range r.Events {
		e := &r.Events[i]
		if e.Frame < 0 || (n > 0 && int(e.Frame) >= n) {
			t.Fatalf("event %d at frame %d of %d", i, e.Frame, n)
		}
		if e.Off < 0 || e.End() > r.Size {
			t.Fatalf("event %d span %#x+%d beyond %d bytes", i, e.Off, e.Len, r.Size)
		}
	}
	for k, i := 0, 0; i < len(r.Events) && k < 300; i, k = i+1+len(r.Events)/300, k+1 {
		r.EventSummary(i)
		r.EventFields(i)
	}
	for _, f := range []int{0, n / 3, n / 2, n - 1} {
		for p := range r.Players {
			r.PlayerState(f, p)
		}
		r.SceneAt(f)
		r.Timeline.Label(max(f, 0))
	}
	for _, d := range r.Diagnostics {
		_ = d.String()
	}
}

func decodeAll(t testing.TB, b []byte) *model.Replay {
	r, err := Decode(b, model.DecodeOptions{})
	if err != nil {
		if r != nil {
			t.Fatalf("a replay and an error: %v", err)
		}
		return nil
	}
	r.Data = b
	r.Size = int64(len(b))
	exercise(t, r)
	if _, err := Decode(b, model.DecodeOptions{HeaderOnly: true}); err != nil {
		t.Fatalf("header-only refused what the full decode read: %v", err)
	}
	return r
}

func TestTruncation(t *testing.T) {
	for name, b := range samples(t) {
		rawLen := int(b[len(magic)])<<24 | int(b[len(magic)+1])<<16 | int(b[len(magic)+2])<<8 | int(b[len(magic)+3])
		var cuts []int
		for i := 0; i < 64; i++ {
			cuts = append(cuts, i)
		}
		for k := 1; k < 150; k++ {
			cuts = append(cuts, len(b)*k/150)
		}
		for i := 1; i < 40; i++ {
			cuts = append(cuts, len(b)-i)
		}
		for _, cut := range cuts {
			r := decodeAll(t, b[:cut])
			if r == nil {
				if cut > len(magic)+4+2 {
					t.Errorf("%s cut at %d: refused", name, cut)
				}
				continue
			}
			if rawLen == 0 {
				continue // an unfinished recording cut at an event boundary is still a valid one
			}
			if !r.Partial {
				t.Errorf("%s cut at %d of %d: not partial", name, cut, len(b))
			}
			var diag bool
			for _, d := range r.Diagnostics {
				if d.Severity >= model.Warning && d.Span.Off >= 0 {
					diag = true
				}
			}
			if !diag {
				t.Errorf("%s cut at %d: no diagnostic", name, cut)
			}
		}
	}
}

func TestBitFlips(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for name, b := range samples(t) {
		if len(b) > 200000 {
			continue
		}
		for k := 0; k < 60; k++ {
			c := append([]byte(nil), b...)
			for j := 0; j < 1+k%4; j++ {
				// bias towards the start, where the structure is
				pos := rng.Intn(len(c))
				if k%2 == 0 {
					pos = rng.Intn(min(len(c), 2048))
				}
				c[pos] ^= 1 << rng.Intn(8)
			}
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s flip %d: panic %v", name, k, p)
					}
				}()
				decodeAll(t, c)
			}()
		}
	}
}

// TestHostileCounts: lengths and counts far beyond the data must not
// allocate for them.
func TestHostileCounts(t *testing.T) {
	s := basic(newSlp(3, 0, 0), 2).end(2)
	s.meta = []byte("[#l\x7f\xff\xff\xff")
	r := decodeAll(t, s.bytes())
	if r == nil || r.Problems() == 0 {
		t.Fatal("hostile metadata count accepted silently")
	}
	// a frame number from far away must not size the timeline
	s = basic(newSlp(3, 0, 0), 3).end(2)
	s.add(s.pre(0x7ffffff0, 0, false, 14, 1))
	r = decodeAll(t, s.bytes())
	if r.Timeline.Count > 1000 {
		t.Fatalf("timeline of %d frames for 4 frames of data", r.Timeline.Count)
	}
}

func FuzzSlippi(f *testing.F) {
	// Whole samples are big for a fuzzer; their starts (header, Game Start,
	// the first frames) and their ends (Game End, metadata) carry the
	// structure.
	for _, b := range samples(f) {
		// (small seeds: the fuzzer minimizes every new input it finds, which
		// takes a long time on inputs of many kilobytes)
		f.Add(b[:min(len(b), 1500)])
		f.Add(append(append([]byte(nil), b[:min(len(b), 900)]...), b[max(0, len(b)-500):]...))
	}
	f.Add(basic(newSlp(3, 18, 0), 3).end(2).bytes())
	s := basic(newSlp(1, 0, 0), 2)
	s.rawZero = true
	f.Add(s.bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, opt := range []model.DecodeOptions{{}, {HeaderOnly: true}} {
			r, err := Decode(b, opt)
			decodetest.Check(t, r, err, b, opt)
			if !opt.HeaderOnly {
				decodetest.NoEvents(t, Decode, b, r, err)
			}
		}
	})
}
