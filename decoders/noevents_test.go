package decoders

// A check (`rewind check`, `info --check`, the browser's background check)
// decodes with DecodeOptions.NoEvents: every byte read and checked, no
// event records kept. It must say about a file exactly what the full
// decode says: the same diagnostics in the same order at the same
// offsets, the same header, players and timeline, the same game analysis
// and the same summary (what the index keeps).

import (
	"reflect"
	"testing"

	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

// keepsEvents are the formats whose game code reads the events, so a
// decode without them keeps them anyway.
var keepsEvents = map[model.Format]bool{"teehistorian": true}

func TestNoEventsChecksAsTheFullDecode(t *testing.T) {
	files := testFiles(t, 13, 37, 61, 89, 97)
	withDiags, without := 0, 0
	for _, f := range files {
		full, ferr := Decode(f.data, f.name, model.DecodeOptions{})
		lean, lerr := Decode(f.data, f.name, model.DecodeOptions{NoEvents: true})
		if (ferr == nil) != (lerr == nil) || ferr != nil && ferr.Error() != lerr.Error() {
			t.Errorf("%s: full decode says %v, without events %v", f.name, ferr, lerr)
			continue
		}
		if full == nil || lean == nil {
			if (full == nil) != (lean == nil) {
				t.Errorf("%s: a replay from one decode only", f.name)
			}
			continue
		}
		if !reflect.DeepEqual(full.Diagnostics, lean.Diagnostics) {
			t.Errorf("%s: diagnostics differ\nfull    %v\nwithout %v", f.name, full.Diagnostics, lean.Diagnostics)
		}
		if len(full.Diagnostics) > 0 {
			withDiags++
		}
		if full.Partial != lean.Partial || full.Size != lean.Size || !reflect.DeepEqual(viewOf(full), viewOf(lean)) {
			t.Errorf("%s: summary differs\nfull    %+v partial %v\nwithout %+v partial %v", f.name, viewOf(full), full.Partial, viewOf(lean), lean.Partial)
		}
		ft, lt := full.Timeline, lean.Timeline
		if ft.Count != lt.Count || ft.First != lt.First || ft.Rate != lt.Rate || ft.Unit != lt.Unit || ft.Span() != lt.Span() {
			t.Errorf("%s: timeline %d+%d at %g, without events %d+%d at %g", f.name, ft.First, ft.Count, ft.Rate, lt.First, lt.Count, lt.Rate)
		}
		if s := decodetest.Diff(full.Header, lean.Header); s != "" {
			t.Errorf("%s: header%s", f.name, s)
		}
		if s := decodetest.Diff(full.Analysis(), lean.Analysis()); s != "" {
			t.Errorf("%s: analysis%s", f.name, s)
		}
		if fm := ByID(full.Format); fm != nil {
			if s := decodetest.Diff(full.Summarized(fm.Summarize), lean.Summarized(fm.Summarize)); s != "" {
				t.Errorf("%s: summary%s", f.name, s)
			}
		}
		switch {
		case keepsEvents[full.Format]:
			if len(lean.Events) != len(full.Events) {
				t.Errorf("%s: %d events, the full decode %d", f.name, len(lean.Events), len(full.Events))
			}
		case len(lean.Events) != 0:
			t.Errorf("%s: %d events kept", f.name, len(lean.Events))
		default:
			without++
		}
	}
	if withDiags == 0 || without == 0 {
		t.Errorf("%d files with diagnostics, %d decoded without events: the comparison proves nothing", withDiags, without)
	}
	t.Logf("%d files compared, %d with diagnostics, %d decoded without events", len(files), withDiags, without)
}
