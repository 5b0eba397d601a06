package sc2

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"rewind/model"
)

// A check (NoEvents) decodes the tracker stream, and the game events of a
// replay with tracker events, from memory it gives back once the stream
// is decoded, and keeps none of it; anything that asks for a stream
// afterwards (Replay.Bytes, an event's body) gets it read again, the same
// bytes the whole decode keeps.
func TestCheckGivesStreamsBack(t *testing.T) {
	n := 0
	for _, p := range samplesAndCorpus(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		full, err := decode(data, model.DecodeOptions{})
		if err != nil || full.tr == nil {
			continue
		}
		check, err := decode(data, model.DecodeOptions{NoEvents: true})
		if err != nil || check.tr == nil {
			t.Fatalf("%s: the check decoded no tracker stream (%v)", filepath.Base(p), err)
		}
		if _, kept := check.r.Streams[fTracker]; kept || check.tr.data != nil {
			t.Errorf("%s: the check kept the tracker stream", filepath.Base(p))
		}
		want := full.r.Streams[fTracker]
		if got := check.r.Bytes(fTracker); !bytes.Equal(got, want) {
			t.Errorf("%s: the check's tracker stream read again: %d bytes, the whole decode's %d", filepath.Base(p), len(got), len(want))
		}
		if k := check.tr.events.len(); k > 0 {
			if got, want := check.tr.summary(check, check.tr.events.at(k-1)), full.tr.summary(full, full.tr.events.at(k-1)); got != want {
				t.Errorf("%s: the last tracker event reads %q after a check, %q after the whole decode", filepath.Base(p), got, want)
			}
		}
		if g, fg := check.game, full.game; g != nil && fg != nil && check.tr.events.len() > 0 {
			if g.data != nil {
				t.Errorf("%s: the check kept the game events", filepath.Base(p))
			}
			if got, want := check.r.Bytes(fGame), full.r.Streams[fGame]; !bytes.Equal(got, want) {
				t.Errorf("%s: the check's game events read again: %d bytes, the whole decode's %d", filepath.Base(p), len(got), len(want))
			}
			if k := len(g.events); k > 0 {
				if got, want := g.summary(check, &g.events[k-1]), fg.summary(full, &fg.events[k-1]); got != want {
					t.Errorf("%s: the last game event reads %q after a check, %q after the whole decode", filepath.Base(p), got, want)
				}
			}
		}
		n++
		if testing.Short() && n == 10 {
			break
		}
	}
	if n == 0 {
		t.Skip("no replay with tracker events")
	}
}
