package sc2

import (
	"testing"
	"time"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// TestClockAsTheClientShowedIt: EXPECTED.md (sc2reader's semantics) says
// Wings of Liberty and Heart of the Swarm clients counted game seconds,
// loops / 16, while real time is loops / 22.4 on Faster; Legacy of the
// Void replays count real time. The label is the client's clock, the
// time is real time (playback), the number is the loop.
func TestClockAsTheClientShowedIt(t *testing.T) {
	for _, c := range []struct {
		file        string
		loops       int
		label, real string
	}{
		// 8796 loops (EXPECTED.md): 549.75 game seconds, 392.68 real
		{"ggtracker__sc2reader/test_replays__1.2.2.17811__2.SC2Replay", 8796, "9:09.75", "6:32.67"},
		// 15467 loops, LotV: 690.49 real seconds both ways
		{"paulocanedo__sc2-replay-utils/examples__winter_madness_69.SC2Replay", 15467, "11:30.49", "11:30.49"},
	} {
		r := decodeFile(t, corpus.File(t, "sc2", c.file))
		tl := &r.Timeline
		last := tl.Count - 1
		if last != c.loops || tl.Number(last) != int64(c.loops) {
			t.Errorf("%s: last frame %d (loop %d), want loop %d", c.file, last, tl.Number(last), c.loops)
		}
		if got := tl.Label(last); got != c.label {
			t.Errorf("%s: label %q, want %q", c.file, got, c.label)
		}
		if got := model.FormatDuration(tl.Time(last)); got != c.real {
			t.Errorf("%s: time %q, want %q", c.file, got, c.real)
		}
		if tl.Rate != 22.4 {
			t.Errorf("%s: rate %v, want 22.4 loops a real second on Faster", c.file, tl.Rate)
		}
		if model.FormatDuration(r.Duration) != c.real {
			t.Errorf("%s: duration %v", c.file, r.Duration)
		}
	}
}

// TestTimeLocalOffset: m_timeLocalOffset counts 100 ns like a FILETIME.
// Most replays hold the offset from UTC; some hold the local time itself,
// which as nanoseconds overflows int64 (issue 14: 12958487921 s read as
// -5488256152 s). Both are kept in seconds.
func TestTimeLocalOffset(t *testing.T) {
	utc := time.Date(2011, 8, 23, 18, 0, 0, 0, time.UTC)
	ft := (utc.Unix())*10_000_000 + 116444736000000000
	for _, c := range []struct {
		loc  int64
		secs int64
		name string
	}{
		{36_000_000_000, 3600, "UTC+1:00"},
		{-3 * 36_000_000_000, -10800, "UTC-3:00"},
		{ft + 2*36_000_000_000, (ft + 2*36_000_000_000) / 10_000_000, "UTC+2:00"},
		{129584879210000000, 12958487921, ""}, // a local time without m_timeUTC beside it
	} {
		hasUTC := c.name != ""
		f := timeOffsetField(c.loc, ft, hasUTC, model.Span{})
		if f.Value != c.secs || f.Name != c.name {
			t.Errorf("offset %d: %v %q, want %d s %q", c.loc, f.Value, f.Name, c.secs, c.name)
		}
	}
	if c := timeOffsetField(129584879210000000, ft, true, model.Span{}); c.Value != int64(12958487921) {
		t.Errorf("local time %v, want 12958487921 s", c.Value)
	}
}
