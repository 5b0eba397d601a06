package slippi

import (
	"sort"
	"strings"
	"testing"

	"rewind/model"
)

// TestCutEventCarriesItsFrame cuts every sample at 40 points inside its
// event stream. The event the cut runs through is reported with the frame
// the stream was in: the timeline index of the last whole event before it
// (issue 15: a cut post-frame update in frame 311 said frame -1, so `e` left
// the timeline at -123 and no mark showed there).
func TestCutEventCarriesItsFrame(t *testing.T) {
	checked := 0
	for name, data := range samples(t) {
		for k := 1; k <= 40; k++ {
			cut := len(data) * k / 41
			r, err := Decode(data[:cut], model.DecodeOptions{})
			if err != nil {
				continue // cut before the stream began: refused, nothing to place
			}
			for _, d := range r.Diagnostics {
				if !strings.HasPrefix(d.Message, "cut off:") || d.Subject == "event 0x10" {
					continue
				}
				// the last whole event before the cut
				i := sort.Search(len(r.Events), func(i int) bool { return r.Events[i].Off >= d.Span.Off }) - 1
				for i >= 0 && r.Events[i].End() > d.Span.Off {
					i--
				}
				if i < 0 {
					continue
				}
				want := int(r.Events[i].Frame)
				if d.Frame != want {
					t.Errorf("%s cut at %#x: %s is at frame index %d; the events before it are at %d", name, cut, d, d.Frame, want)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d cut events checked", checked)
	}
}

// TestPartialEventHasTheFieldsThatFit cuts every sample at 40 points: the
// event the cut runs through is an event flagged partial, its span runs to
// the end of the data, and every field it decodes equals that field of the
// same event in the whole file; its last field says where it stopped.
func TestPartialEventHasTheFieldsThatFit(t *testing.T) {
	partials := 0
	for name, data := range samples(t) {
		whole, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		byOff := map[int64]int{}
		for i, ev := range whole.Events {
			byOff[ev.Off] = i
		}
		for k := 1; k <= 40; k++ {
			cut := len(data) * k / 41
			r, err := Decode(data[:cut], model.DecodeOptions{})
			if err != nil {
				continue
			}
			for i, ev := range r.Events {
				if ev.Flags&model.Partial == 0 {
					continue
				}
				partials++
				if ev.End() != int64(cut) {
					t.Errorf("%s cut at %#x: partial event ends at %#x", name, cut, ev.End())
				}
				j, ok := byOff[ev.Off]
				if !ok {
					t.Errorf("%s cut at %#x: no event at %#x in the whole file", name, cut, ev.Off)
					continue
				}
				want := map[string]model.Field{}
				for _, f := range whole.EventFields(j) {
					want[f.Key] = f
				}
				got := r.EventFields(i)
				if len(got) == 0 || got[len(got)-1].Key != "cutOff" {
					t.Errorf("%s cut at %#x: the partial event's fields do not end with where it stopped", name, cut)
					continue
				}
				for _, f := range got[:len(got)-1] {
					if strings.Contains(f.Label, "(cut off: ") {
						// the field the end cut through: its first bytes
						if w, ok := want[f.Key]; !ok || w.Span.Off != f.Span.Off || f.Span.End() != int64(cut) {
							t.Errorf("%s cut at %#x: the cut field %s at %v; the whole file has it at %v", name, cut, f.Key, f.Span, w.Span)
						}
						continue
					}
					w, ok := want[f.Key]
					if !ok || model.FormatValue(w.Value) != model.FormatValue(f.Value) || f.Span != w.Span {
						t.Errorf("%s cut at %#x: field %s = %v at %v; the whole file has %v at %v", name, cut, f.Key, f.Value, f.Span, w.Value, w.Span)
					}
				}
				// a cut through the first event of a frame that never
				// completed belongs to the cut file's last frame
				if want := min(int(whole.Events[j].Frame), r.Timeline.Count-1); int(ev.Frame) != want && ev.Kind != kGecko && ev.Kind != kStart {
					t.Errorf("%s cut at %#x: partial event at frame index %d; want %d", name, cut, ev.Frame, want)
				}
			}
		}
	}
	if partials < 100 {
		t.Errorf("only %d partial events seen", partials)
	}
}
