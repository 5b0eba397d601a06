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
				i := sort.Search(len(r.Events), func(i int) bool { return r.Events[i].Span.Off >= d.Span.Off }) - 1
				for i >= 0 && r.Events[i].Span.End() > d.Span.Off {
					i--
				}
				if i < 0 {
					continue
				}
				want := r.Events[i].Frame
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
