package bsor

import (
	"fmt"
	"strings"
	"testing"

	"rewind/model"
)

// TestCutRecordIsPartialEvent cuts a sample inside a record of each
// section. The record is a partial event: its bytes to the end of the
// file, the fields whose bytes are there, the field the end cut through
// named with how much of it is there, and where the bytes stopped; so the
// inspector shows what the file holds at the break, not bytes nobody owns.
func TestCutRecordIsPartialEvent(t *testing.T) {
	data := sampleBytes(t, "walls-heights-pauses-clip.bsor")
	whole := &replay{data: data}
	whole.parse(model.DecodeOptions{})
	for _, tt := range []struct {
		section int
		span    model.Span
		size    int
		kind    string
		into    int // bytes of the record kept
		field   string
	}{
		{1, whole.framesSpan, frameSize, "frame", 6, "fps (cut off: 2 of 4 bytes)"},
		{2, whole.notesSpan, noteHead, "", 10, "Spawn time (cut off: 2 of 4 bytes)"},
		{3, whole.wallsSpan, wallSize, "wall", 5, "Energy at the end (cut off: 1 of 4 bytes)"},
		{4, whole.heightsSpan, heightSize, "height", 7, "Time (cut off: 3 of 4 bytes)"},
		{5, whole.pausesSpan, pauseSize, "pause", 9, "Time (cut off: 1 of 4 bytes)"},
	} {
		t.Run(sectionNames[tt.section], func(t *testing.T) {
			if tt.span.Len <= 5+int64(tt.size) {
				t.Skipf("the sample's %s section has fewer than two records", sectionNames[tt.section])
			}
			at := int(tt.span.Off) + 5 + tt.size // the second record
			if tt.section == 2 {
				at = int(whole.notes[1].Off)
			}
			cut := data[:at+tt.into]
			r, err := Decode(cut, model.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var ev *model.Event
			k := -1
			for i := range r.Events {
				if r.Events[i].Flags&model.Partial != 0 {
					if ev != nil {
						t.Fatal("two partial events")
					}
					ev, k = &r.Events[i], i
				}
			}
			if ev == nil {
				t.Fatalf("no partial event; events end with %+v", r.Events[len(r.Events)-1])
			}
			if ev.Off != int64(at) || ev.End() != int64(len(cut)) {
				t.Errorf("span %+v, want %#x..%#x", r.EventSpan(k), at, len(cut))
			}
			if tt.kind != "" && r.EventKind(k) != tt.kind {
				t.Errorf("kind %q, want %q", r.EventKind(k), tt.kind)
			}
			if i := r.EventAt("", int64(len(cut)-1)); i != k {
				t.Errorf("the last byte is owned by event %d, not the partial one", i)
			}
			fs := r.EventFields(k)
			var labels []string
			for _, f := range fs {
				labels = append(labels, f.Label)
				if f.Span.End() > int64(len(cut)) {
					t.Errorf("field %s runs past the end: %+v", f.Label, f.Span)
				}
			}
			got := strings.Join(labels, ", ")
			if !strings.Contains(got, tt.field) || fs[len(fs)-1].Key != "cutOff" ||
				fs[len(fs)-1].Value != fmt.Sprintf("after %d of %d bytes: the data ends here", tt.into, tt.size) {
				t.Errorf("fields %s; last %+v", got, fs[len(fs)-1])
			}
			if r.Problems() == 0 {
				t.Error("a cut file reads clean")
			}
			// the error that says where the section ends is at the partial
			// record's frame, so e lands on it (notes are read one by one
			// and say so in their own words)
			if tt.section != 2 {
				subj, found := fmt.Sprintf("section %d", tt.section), false
				for _, d := range r.Diagnostics {
					if d.Subject == subj && d.Severity == model.Error {
						found = true
						if d.Frame != int(ev.Frame) {
							t.Errorf("%s: the error is at frame %d, the partial record at %d", subj, d.Frame, ev.Frame)
						}
					}
				}
				if !found {
					t.Errorf("no error for %s", subj)
				}
			}
		})
	}
}
