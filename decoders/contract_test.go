package decoders

// The model contract every decoder keeps, checked on every sample: fields
// have keys and labels (JSON output and the TUI depend on both), event spans
// lie inside the bytes they name, events are in frame order within the
// timeline, and per-frame state and scenes can be asked for at any frame.

import (
	"fmt"
	"testing"

	"rewind/model"
)

func checkFields(t *testing.T, where string, fs []model.Field, depth int) {
	t.Helper()
	if depth > 12 {
		t.Errorf("%s: fields nested deeper than 12 levels", where)
		return
	}
	for i, f := range fs {
		if f.Key == "" || f.Label == "" {
			t.Errorf("%s: field %d (%q/%q) lacks a key or a label", where, i, f.Key, f.Label)
		}
		checkFields(t, where+"."+f.Key, f.Fields, depth+1)
	}
}

func TestModelContract(t *testing.T) {
	for _, s := range samples(t) {
		t.Run(s.name, func(t *testing.T) {
			r, err := Decode(s.data, s.name, model.DecodeOptions{})
			if err != nil {
				t.Fatalf("sample does not decode: %v", err)
			}
			if r.FormatName == "" || r.Format == "" {
				t.Error("format not named")
			}
			checkFields(t, "header", r.Header, 0)
			for i, p := range r.Players {
				if p.Slot == "" {
					t.Errorf("player %d has no slot", i)
				}
				checkFields(t, fmt.Sprintf("player %d", i), p.Fields, 0)
			}
			n := r.Timeline.Count
			last := -1
			for i := range r.Events {
				f, pl, sp := int(r.Events[i].Frame), int(r.Events[i].Player), r.EventSpan(i)
				if f < 0 || f >= n {
					t.Fatalf("event %d at frame %d outside the timeline (%d frames)", i, f, n)
				}
				if f < last {
					t.Fatalf("event %d out of frame order", i)
				}
				last = f
				if pl >= len(r.Players) || pl < -1 {
					t.Fatalf("event %d names player %d of %d", i, pl, len(r.Players))
				}
				data := r.Bytes(sp.Stream)
				if sp.Off < 0 || sp.End() > int64(len(data)) {
					t.Fatalf("event %d span %v+%d outside its %d bytes", i, sp, sp.Len, len(data))
				}
				if i%97 == 0 { // a spread of events, fully expanded
					if r.EventSummary(i) == "" {
						t.Errorf("event %d (%s) has no summary", i, r.EventKind(i))
					}
					checkFields(t, fmt.Sprintf("event %d (%s)", i, r.EventKind(i)), r.EventFields(i), 0)
				}
			}
			for _, f := range []int{0, n / 3, n / 2, n - 1} {
				if f < 0 {
					continue
				}
				for p := range r.Players {
					st := r.PlayerState(f, p)
					checkFields(t, fmt.Sprintf("state frame %d player %d", f, p), st.Fields, 0)
					checkFields(t, fmt.Sprintf("brief frame %d player %d", f, p), st.Brief, 0)
				}
				_ = r.SceneAt(f)
				_ = r.Timeline.Label(f)
				if f > 0 && r.Timeline.Time(f) < r.Timeline.Time(f-1) {
					t.Errorf("game time goes backwards at frame %d", f)
				}
			}
		})
	}
}
