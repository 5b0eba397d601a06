package decodetest

import (
	"fmt"
	"strings"
	"testing"

	"rewind/model"
)

// Check holds a decode of data (the whole file) to the contract every
// decoder keeps on any input, fuzzed or real:
//
//   - a refusal is an error with one clear sentence and no replay; a replay
//     comes without an error;
//   - every diagnostic, event and field span lies inside the file (or the
//     named inner stream it names), never past its end;
//   - a partial replay says why: a full decode that stopped early carries a
//     warning or an error;
//   - events are in frame order inside the timeline and name players that
//     exist, and the lazy parts (summaries, fields, state, scenes, labels)
//     can be asked for anywhere without a panic.
func Check(t testing.TB, r *model.Replay, err error, data []byte, opt model.DecodeOptions) {
	t.Helper()
	if err != nil {
		if r != nil {
			t.Fatalf("a replay and an error (%v): a decoder returns one or the other", err)
		}
		if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
			t.Fatalf("refusal %q is not one sentence", msg)
		}
		return
	}
	if r == nil {
		t.Fatal("no replay and no error")
	}
	size := int64(len(data))
	// inside checks a span; what names it, built only on a failure (fuzz
	// bodies run this millions of times)
	inside := func(what func() string, s model.Span) {
		limit := size
		if s.Stream != "" {
			b, ok := r.Streams[s.Stream]
			if !ok {
				return // a stream that could not be extracted at all
			}
			limit = int64(len(b))
		}
		if s.Off < 0 || s.Len < 0 || s.Off > limit || s.End() > limit {
			t.Fatalf("%s: span %v+%d outside the %d bytes of %q", what(), s, s.Len, limit, s.Stream)
		}
	}
	for i, d := range r.Diagnostics {
		inside(func() string { return fmt.Sprintf("diagnostic %d (%s)", i, d) }, d.Span)
		if d.Severity < model.Info || d.Severity > model.Error || d.Source == "" || d.Message == "" {
			t.Fatalf("diagnostic %d is not filled in: %+v", i, d)
		}
	}
	if r.Partial && !opt.HeaderOnly && r.Problems() == 0 {
		t.Fatalf("a partial replay without a warning or an error saying why: %v", r.Diagnostics)
	}
	// fields checks a tree of fields; path names a field, built only on a
	// failure
	var fields func(where func() string, fs []model.Field, depth int)
	fields = func(where func() string, fs []model.Field, depth int) {
		if depth > 64 {
			t.Fatalf("%s: fields nested deeper than 64", where())
		}
		for _, f := range fs {
			path := func() string { return where() + "." + f.Key }
			if f.Span.Len > 0 || f.Span.Off > 0 {
				inside(path, f.Span)
			}
			if len(f.Fields) > 0 {
				fields(path, f.Fields, depth+1)
			}
		}
	}
	fields(func() string { return "header" }, r.Header, 0)
	n := r.Timeline.Count
	if n < 0 {
		t.Fatalf("timeline of %d frames", n)
	}
	last := 0
	for i := range r.Events {
		f, pl := int(r.Events[i].Frame), int(r.Events[i].Player)
		if f < 0 || f >= n || f < last {
			t.Fatalf("event %d at frame %d: outside the %d frames or out of order", i, f, n)
		}
		last = f
		if pl < -1 || pl >= len(r.Players) {
			t.Fatalf("event %d names player %d of %d", i, pl, len(r.Players))
		}
		if k := r.Events[i].Kind; r.Kinds != nil && int(k) >= len(r.Kinds) {
			t.Fatalf("event %d is of kind %d; the replay names %d kinds", i, k, len(r.Kinds))
		}
		if s := r.Events[i].Stream; s > 0 && int(s) > len(r.StreamNames) {
			t.Fatalf("event %d is in stream %d; the replay names %d streams", i, s, len(r.StreamNames))
		}
		inside(func() string { return fmt.Sprintf("event %d", i) }, r.EventSpan(i))
	}
	// the lazy parts, at a spread of places
	for k, i := 0, 0; i < len(r.Events) && k < 200; i, k = i+1+len(r.Events)/200, k+1 {
		r.EventSummary(i)
		fields(func() string { return fmt.Sprintf("event %d", i) }, r.EventFields(i), 0)
	}
	for _, f := range []int{0, n / 3, n / 2, n - 1} {
		if f < 0 {
			continue
		}
		for p := range r.Players {
			r.PlayerState(f, p)
		}
		r.SceneAt(f)
		r.Timeline.Label(f)
		r.Timeline.Time(f)
	}
	for _, d := range r.Diagnostics {
		_ = d.String()
	}
}
