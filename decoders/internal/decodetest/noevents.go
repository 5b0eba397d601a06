package decodetest

import (
	"reflect"
	"testing"

	"rewind/model"
)

// NoEvents decodes data without events (DecodeOptions.NoEvents, what a
// check does) and holds it to full, the whole decode of the same data
// (ferr its error): the same refusal, the same diagnostics in the same
// order, the same header, players and timeline, and no event records.
func NoEvents(t testing.TB, decode func([]byte, model.DecodeOptions) (*model.Replay, error), data []byte, full *model.Replay, ferr error) {
	t.Helper()
	lean, lerr := decode(data, model.DecodeOptions{NoEvents: true})
	if (ferr == nil) != (lerr == nil) || ferr != nil && ferr.Error() != lerr.Error() {
		t.Fatalf("whole decode says %v, without events %v", ferr, lerr)
	}
	if full == nil || lean == nil {
		if (full == nil) != (lean == nil) {
			t.Fatalf("a replay from one decode only")
		}
		return
	}
	if !reflect.DeepEqual(full.Diagnostics, lean.Diagnostics) {
		t.Fatalf("diagnostics differ\nwhole   %v\nwithout %v", full.Diagnostics, lean.Diagnostics)
	}
	if full.Partial != lean.Partial || full.Title != lean.Title || full.Result != lean.Result || full.Duration != lean.Duration {
		t.Fatalf("summary differs: partial %v %q %q %v, without events %v %q %q %v",
			full.Partial, full.Title, full.Result, full.Duration, lean.Partial, lean.Title, lean.Result, lean.Duration)
	}
	if ft, lt := full.Timeline, lean.Timeline; ft.Count != lt.Count || ft.First != lt.First {
		t.Fatalf("timeline %d+%d, without events %d+%d", ft.First, ft.Count, lt.First, lt.Count)
	}
	if s := Diff(full.Header, lean.Header); s != "" {
		t.Fatalf("header%s", s)
	}
	if s := Diff(full.Players, lean.Players); s != "" {
		t.Fatalf("players%s", s)
	}
	if len(lean.Events) != 0 {
		t.Fatalf("%d events kept", len(lean.Events))
	}
}
