package fzgx

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// TestCutInputIsPartialEvent cuts a real replay (testdata) inside its input array
// at every bit position of one element. The element the end cuts through
// is a partial event owning the last bytes: the fields whose bits are all
// there, the one the end cuts through named as cut, and how many of the 54
// bits are there.
func TestCutInputIsPartialEvent(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Samples(t, "fzgx"), "time-attack.gci"))
	if err != nil {
		t.Fatal(err)
	}
	r := decode(t, data, model.DecodeOptions{})
	var last model.Span
	for i := range r.Events {
		if r.EventKind(i) == "input" {
			last = r.EventSpan(i)
		}
	}
	if last.Len == 0 {
		t.Fatal("no input events")
	}
	// cut in the last tenth of the array, at each byte of a stretch that
	// covers a whole element
	checked := 0
	for end := last.Off - 40; end < last.Off-40+8; end++ {
		cut := data[:end]
		c := decode(t, cut, model.DecodeOptions{})
		k := -1
		for i := range c.Events {
			if c.EventPartial(i) {
				k = i
			}
		}
		if k < 0 {
			continue // the cut fell between two elements
		}
		checked++
		ev := c.Events[k]
		if ev.End() != end {
			t.Errorf("cut at %#x: partial event spans %+v", end, c.EventSpan(k))
		}
		// it starts where the whole elements end, one frame after the
		// last whole run, and the error that says the data ends is there
		prev := c.Events[k-1]
		for j := k - 1; j >= 0 && c.EventKind(j) != "input"; j-- {
			prev = c.Events[j-1]
		}
		if ev.Frame <= prev.Frame || int(ev.Frame) >= c.Timeline.Count {
			t.Errorf("cut at %#x: partial event at frame %d, the last whole run at %d", end, ev.Frame, prev.Frame)
		}
		stopped := false
		for _, d := range c.Diagnostics {
			if d.Subject == "replay input array" && d.Severity == model.Error {
				stopped = true
				if d.Frame != int(ev.Frame) {
					t.Errorf("cut at %#x: the error is at frame %d, the partial event at %d", end, d.Frame, ev.Frame)
				}
			}
		}
		if !stopped {
			t.Errorf("cut at %#x: no error for the input array", end)
		}
		if i := c.EventAt("", end-1); i != k {
			t.Errorf("cut at %#x: the last byte belongs to event %d, not the partial one", end, i)
		}
		fs := c.EventFields(k)
		lastF := fs[len(fs)-1]
		if lastF.Key != "cutOff" || !strings.HasSuffix(fmt.Sprint(lastF.Value), "of 54 bits: the data ends here") {
			t.Errorf("cut at %#x: last field %+v", end, lastF)
		}
		for _, f := range fs[:len(fs)-1] {
			if f.Span.End() > end {
				t.Errorf("cut at %#x: field %s runs past the end", end, f.Label)
			}
		}
		if !strings.Contains(fs[len(fs)-2].Label, "(cut off:") && len(fs) < len(inputSpec)+1 {
			t.Errorf("cut at %#x: the field the end cuts through is not named: %s", end, fs[len(fs)-2].Label)
		}
	}
	if checked < 6 {
		t.Errorf("only %d of 8 cuts gave a partial element", checked)
	}
}
