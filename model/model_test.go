package model

import (
	"reflect"
	"testing"
	"time"
	"unsafe"
)

func TestTimelineDefaults(t *testing.T) {
	tl := Timeline{Count: 200, First: -123, Rate: 60}
	tests := []struct {
		i     int
		label string
		time  time.Duration
	}{
		{0, "-123", -2050 * time.Millisecond},
		{123, "0", 0},
		{183, "60", time.Second},
	}
	for _, tt := range tests {
		if got := tl.Label(tt.i); got != tt.label {
			t.Errorf("Label(%d) = %q, want %q", tt.i, got, tt.label)
		}
		if got := tl.Time(tt.i); got != tt.time {
			t.Errorf("Time(%d) = %v, want %v", tt.i, got, tt.time)
		}
	}
	if got := tl.Index(0); got != 123 {
		t.Errorf("Index(0) = %d", got)
	}
	if got := tl.Index(100000); got != 199 {
		t.Errorf("Index clamps: %d", got)
	}
	if got := tl.At(time.Second); got != 183 {
		t.Errorf("At(1s) = %d, want 183", got)
	}
	if got := tl.At(-time.Hour); got != 0 {
		t.Errorf("At(-1h) = %d", got)
	}
}

func TestTimelineCustomTimes(t *testing.T) {
	times := []time.Duration{0, 10 * time.Millisecond, 10 * time.Millisecond, 30 * time.Millisecond}
	tl := Timeline{Count: 4, Rate: 90, TimeOf: func(i int) time.Duration { return times[i] }}
	if got := tl.At(10 * time.Millisecond); got != 1 {
		t.Errorf("At = %d, want first frame reaching the time", got)
	}
	if got := tl.At(20 * time.Millisecond); got != 3 {
		t.Errorf("At = %d, want 3", got)
	}
	if got := tl.At(time.Hour); got != 3 {
		t.Errorf("At past the end = %d", got)
	}
}

func TestEventIndex(t *testing.T) {
	r := &Replay{Timeline: Timeline{Count: 5}, Kinds: []string{"a", "b", "c", "inner"}}
	r.Events = []Event{
		{Frame: 3, Kind: 1, Off: 30, Len: 10},
		{Frame: 1, Kind: 0, Off: 10, Len: 10},
		{Frame: 3, Kind: 2, Off: 40, Len: 5},
		{Frame: 3, Kind: 3, Off: 32, Len: 2},
	}
	r.Finish()
	if lo, hi := r.EventRange(3); lo != 1 || hi != 4 {
		t.Fatalf("EventRange(3) = %d,%d", lo, hi)
	}
	if r.EventKind(1) != "b" || r.EventKind(2) != "c" {
		t.Fatal("Finish must keep file order within a frame")
	}
	if lo, hi := r.EventRange(2); lo != hi {
		t.Fatalf("EventRange(2) not empty: %d,%d", lo, hi)
	}
	if got := r.FirstEventAtOrAfter(2); got != 1 {
		t.Fatalf("FirstEventAtOrAfter(2) = %d", got)
	}
	for _, tt := range []struct {
		off  int64
		kind string
	}{{10, "a"}, {19, "a"}, {20, ""}, {31, "b"}, {33, "inner"}, {44, "c"}, {45, ""}} {
		got := ""
		if i := r.EventAt("", tt.off); i >= 0 {
			got = r.EventKind(i)
		}
		if got != tt.kind {
			t.Errorf("EventAt(%#x) = %q, want %q", tt.off, got, tt.kind)
		}
	}
	if r.EventAt("replay.details", 10) != -1 {
		t.Error("EventAt must respect the stream")
	}
}

// TestEventInStream: an event in an inner stream names it through the
// replay's table, and the byte index tells streams apart.
func TestEventInStream(t *testing.T) {
	r := &Replay{Timeline: Timeline{Count: 2}, Kinds: []string{"born", "cmd"},
		StreamNames: []string{"replay.tracker.events", "replay.game.events"}}
	r.Events = []Event{
		{Frame: 0, Kind: 0, Stream: 1, Off: 8, Len: 4},
		{Frame: 1, Kind: 1, Stream: 2, Off: 8, Len: 4},
		{Frame: 1, Kind: 1, Off: 8, Len: 4},
	}
	r.Finish()
	if got, want := r.EventSpan(1), (Span{Stream: "replay.game.events", Off: 8, Len: 4}); got != want {
		t.Errorf("EventSpan(1) = %+v, want %+v", got, want)
	}
	if got := r.EventSpan(2); got.Stream != "" {
		t.Errorf("an event of stream 0 is in the file, not %q", got.Stream)
	}
	for _, tt := range []struct {
		stream string
		want   int
	}{{"replay.tracker.events", 0}, {"replay.game.events", 1}, {"", 2}, {"replay.message.events", -1}} {
		if got := r.EventAt(tt.stream, 9); got != tt.want {
			t.Errorf("EventAt(%q, 9) = %d, want %d", tt.stream, got, tt.want)
		}
	}
}

// TestEventFlags: Notable is no mark; Partial and the format's marks are
// named, Partial by FlagPartial and mark k by Replay.Marks[k].
func TestEventFlags(t *testing.T) {
	r := &Replay{Timeline: Timeline{Count: 1}, Kinds: []string{"x"}, Marks: []string{"rolled back", "past end"}}
	r.Events = []Event{
		{Flags: Notable},
		{Flags: Partial},
		{Flags: Notable | Mark(1)},
		{Flags: Mark(0) | Mark(1)},
	}
	r.Finish()
	for i, want := range []struct {
		flag    string
		notable bool
		partial bool
	}{{"", true, false}, {FlagPartial, false, true}, {"past end", true, false}, {"rolled back, past end", false, false}} {
		if got := r.EventFlag(i); got != want.flag || r.EventNotable(i) != want.notable || r.EventPartial(i) != want.partial {
			t.Errorf("event %d: flag %q notable %v partial %v, want %+v", i, got, r.EventNotable(i), r.EventPartial(i), want)
		}
	}
}

// TestEventIsSmall holds the event record to what DESIGN.md promises: about
// 32 bytes and no pointers, so a replay's events cost memory in proportion
// to the file and nothing for the garbage collector to scan.
func TestEventIsSmall(t *testing.T) {
	if n := unsafe.Sizeof(Event{}); n > 32 {
		t.Errorf("model.Event is %d bytes, want at most 32", n)
	}
	var pointers func(reflect.Type) []string
	pointers = func(ty reflect.Type) []string {
		switch ty.Kind() {
		case reflect.Pointer, reflect.String, reflect.Slice, reflect.Map, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			return []string{ty.String()}
		case reflect.Array:
			return pointers(ty.Elem())
		case reflect.Struct:
			var out []string
			for i := range ty.NumField() {
				for _, p := range pointers(ty.Field(i).Type) {
					out = append(out, ty.Field(i).Name+": "+p)
				}
			}
			return out
		}
		return nil
	}
	if p := pointers(reflect.TypeOf(Event{})); len(p) > 0 {
		t.Errorf("model.Event holds pointers: %v", p)
	}
}

func TestDiagnosticString(t *testing.T) {
	d := Diagnostic{Source: "slippi", Subject: "event 0x55", Span: Span{Off: 0x12f0}, Message: "not in Event Payloads"}
	if got, want := d.String(), "slippi: event 0x55 at 0x12f0: not in Event Payloads"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	d = Diagnostic{Source: "sc2", Span: Span{Stream: "replay.tracker.events", Off: 0x1a2c}, Message: "bad tag", Expected: "struct", Found: "blob"}
	if got, want := d.String(), "sc2: at replay.tracker.events+0x1a2c: bad tag (expected struct, found blob)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                         "0:00.00",
		482300 * time.Millisecond: "8:02.30",
		-2050 * time.Millisecond:  "-0:02.05",
		3723 * time.Second:        "1:02:03.00",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestFormatCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 28800: "28,800", -1234567: "-1,234,567"} {
		if got := FormatCount(n); got != want {
			t.Errorf("FormatCount(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestAnalysisRunsOnceAndIsNeverNil(t *testing.T) {
	calls := 0
	r := &Replay{Analyze: func() *Analysis {
		calls++
		return &Analysis{Moments: []Moment{{Kind: MomentStock, Frame: 3, End: 3, By: 0, On: 1}}}
	}}
	for i := 0; i < 3; i++ {
		if got := r.Analysis(); len(got.Moments) != 1 || got.Moments[0].Kind != MomentStock {
			t.Fatalf("Analysis() = %+v", got)
		}
	}
	if calls != 1 {
		t.Errorf("Analyze ran %d times, want once", calls)
	}
	if a := (&Replay{}).Analysis(); a == nil || len(a.Moments) != 0 {
		t.Errorf("a replay without game code gives %+v, want an empty Analysis", a)
	}
}

func TestBudgetErrorSaysWhatAndHowMuch(t *testing.T) {
	e := &BudgetError{What: "replay.game.events: decompressed", Unit: "bytes", Wanted: 536870912, Left: 1048576, Limit: 67108864}
	want := "replay.game.events: decompressed needs 536,870,912 bytes but the decode budget has 1,048,576 of 67,108,864 left"
	if e.Error() != want {
		t.Errorf("Error() = %q\nwant      %q", e.Error(), want)
	}
}
