package fzgx

// F-Zero GX's counts are fixed-width fields (2^20 frames, 2^14 input runs),
// so no file exceeds the default budget; the timeline still draws on it,
// and a budget scaled down refuses with the diagnostic and keeps the header.

import (
	"testing"

	"rewind/decoders/internal/budget"
	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

func TestBudgetTimeline(t *testing.T) {
	data := sample(t, "time-attack.gci")
	r, _ := decodetest.Budgeted(t, Decode, data, model.Limits{Bytes: 16 << 10})
	d := decodetest.Refused(t, r, "frames")
	if d.Span.Off < streamOff {
		t.Errorf("budget diagnostic at %v, want the replay data", d.Span)
	}
	if r.Title != "Mute City: Sonic Oval" || len(r.Players) != 1 || r.Timeline.Count != 0 || len(r.Events) != 0 {
		t.Errorf("title %q, %d players, %d frames, %d events", r.Title, len(r.Players), r.Timeline.Count, len(r.Events))
	}
	walk(t, r)
}

// The largest timeline the fields allow: 2^20 frames from 2^14 runs of 256
// frames, within the promise for a file of one block.
func TestBudgetLargestTimeline(t *testing.T) {
	ta := minimalTA()
	ta.inputs = make([]encInput, 1<<14)
	for i := range ta.inputs {
		ta.inputs[i].frames = 256
	}
	ta.total = 1<<20 - 1
	data := wrapGCI(gciOpts{}, ta.stream())
	r, alloc := decodetest.Budgeted(t, Decode, data, model.Limits{})
	t.Logf("%d-byte file, %d frames: allocated %d bytes", len(data), r.Timeline.Count, alloc)
	if r.Timeline.Count < 1<<20-1 {
		t.Errorf("timeline of %d frames", r.Timeline.Count)
	}
	if alloc > uint64(budget.Promise(int64(len(data)))) {
		t.Errorf("allocated %d bytes for %d", alloc, len(data))
	}
}
