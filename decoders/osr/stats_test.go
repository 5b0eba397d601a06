package osr

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"rewind/decoders/frames"
	"rewind/model"
)

// streamFile is a standard play whose presses are known: 20 K1 taps 100
// ms apart (each held 50 ms) from song time 1000, 4 s with none, then 5
// M2 taps 300 ms apart; the cursor moves 3 px right and 4 px down per
// frame (5 px).
func streamFile(life string) *testFile {
	var b strings.Builder
	b.WriteString("0|256|-500|0,-1|256|-500|0,1001|0|0|0,")
	x, y := 0, 0
	rec := func(w, z int) {
		x, y = x+3, y+4
		fmt.Fprintf(&b, "%d|%d|%d|%d,", w, x, y, z)
	}
	for i := 0; i < 20; i++ {
		rec(0, 5)  // down
		rec(50, 0) // up 50 ms later
		rec(50, 0)
	}
	rec(4000, 0)
	for i := 0; i < 5; i++ {
		rec(0, 2)
		rec(100, 0)
		rec(200, 0)
	}
	b.WriteString("-12345|0|0|7,")
	tf := newTestFile()
	tf.mods = 0
	tf.frames = b.String()
	tf.life = sp(life)
	return tf
}

func TestStats(t *testing.T) {
	tf := streamFile("0|1,1000|0.2,2000|0.5,3000|0.1,4000|0.6,")
	r, _ := decodeClean(t, tf.bytes(t))
	a := r.Analysis()
	ns := a.Stats.Native.(*nativeStats)
	// the presses: K1 at 1000, 1100, ..., 2900; M2 at 7000, 7300, ..., 8200
	if ns.Presses != 25 || ns.Keys[keyBit("K1")].Presses != 20 || ns.Keys[keyBit("M2")].Presses != 5 {
		t.Fatalf("presses %d, keys %+v", ns.Presses, ns.Keys)
	}
	if k := ns.Keys[keyBit("K1")]; math.Abs(k.MeanHoldSeconds-0.05) > 1e-12 || math.Abs(k.HeldSeconds-1) > 1e-12 {
		t.Errorf("K1 holds %+v", k)
	}
	if k := ns.Keys[keyBit("M2")]; math.Abs(k.LongestHoldSeconds-0.1) > 1e-12 {
		t.Errorf("M2 holds %+v", k)
	}
	if ns.ActiveSeconds != 7.2 || math.Abs(ns.KeysPerSecond-24/7.2) > 1e-12 || ns.PeakKeysPerSecond != 10 {
		t.Errorf("active %v s, %v a second, peak %v", ns.ActiveSeconds, ns.KeysPerSecond, ns.PeakKeysPerSecond)
	}
	if len(ns.Breaks) != 1 || ns.Breaks[0].StartSeconds != 2.9 || ns.Breaks[0].Seconds != 4.1 {
		t.Errorf("breaks %+v", ns.Breaks)
	}
	// 20*3 + 1 + 5*3 moves of 5 px after the first input frame, which
	// starts at (0, 0)
	if ns.CursorTravel == nil || *ns.CursorTravel != 5*float64(20*3+1+5*3) {
		t.Errorf("cursor travel %v", ns.CursorTravel)
	}
	if ns.Life == nil || ns.Life.Min != 0.1 || ns.Life.Final != 0.6 || ns.Result != "passed" || ns.Outcome != model.OutcomeWin {
		t.Errorf("life %+v result %s outcome %s", ns.Life, ns.Result, ns.Outcome)
	}
	kinds := map[model.MomentKind]int{}
	for _, m := range a.Moments {
		kinds[m.Kind]++
		if m.Kind == MomentBurst && (m.Facts.Hits != 20 || !strings.HasPrefix(m.Summary, "burst of 20 presses in 1.90 s")) {
			t.Errorf("burst %+v", m)
		}
	}
	if kinds[MomentBurst] != 1 || kinds[MomentGap] != 1 || kinds[MomentLowLife] != 2 || kinds[MomentFail] != 0 {
		t.Errorf("moments %v", kinds)
	}
	if _, err := json.Marshal(ns); err != nil {
		t.Error(err)
	}
}

func keyBit(name string) int {
	for i, k := range keyNames(modeStd, 0) {
		if k == name {
			return i
		}
	}
	return -1
}

// TestSummary: the outcome words and the stats an archive adds up.
func TestSummary(t *testing.T) {
	for _, tt := range []struct {
		life    string
		outcome model.Outcome
		fail    bool
	}{
		{"0|1,5000|0.5,", model.OutcomeWin, false},
		{"0|1,3000|0.3,5000|0,", model.OutcomeLoss, true},
		{"", model.OutcomeUnknown, false},
	} {
		r, _ := decodeClean(t, streamFile(tt.life).bytes(t))
		s := r.Summarized(Summarize)
		if s.Players[0].Outcome != tt.outcome {
			t.Errorf("life %q: outcome %q, want %q", tt.life, s.Players[0].Outcome, tt.outcome)
		}
		stats := map[string]float64{}
		for _, st := range s.Players[0].Stats {
			stats[st.Key] = st.Value
			if _, ok := Format.Stat(st.Key); !ok {
				t.Errorf("stat %q has no StatDef", st.Key)
			}
		}
		if stats["presses"] != 25 || stats["score"] != 1234567 || stats["misses"] != 2 {
			t.Errorf("stats %v", stats)
		}
		fails := 0
		for _, m := range s.Moments {
			if m.Kind == MomentFail {
				fails++
				// empty from 5 s: the first frame there is at 7 s, after
				// the 4 s without a press
				if m.Time != 7 {
					t.Errorf("fail at %v s", m.Time)
				}
			}
		}
		if (fails == 1) != tt.fail {
			t.Errorf("life %q: %d fail moments", tt.life, fails)
		}
	}
}

// TestFrameRows yields a row per input frame, typed as the registry's
// table holds them.
func TestFrameRows(t *testing.T) {
	r, _ := decodeClean(t, newTestFile().bytes(t))
	var rows []FrameRow
	err := frames.FromReplay[FrameRow](r, func(b []FrameRow) error { rows = append(rows, b...); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := []FrameRow{
		{FrameIndex: 0, Time: 99, W: 100, X: 10, Y: 20, KeyNames: "none", HasLife: true, Life: 1 - 0.5*0.099},
		{FrameIndex: 1, Time: 115, W: 16, X: 11, Y: 21, Z: 5, Keys: keyK1, KeyNames: "K1", HasLife: true, Life: 1 - 0.5*0.115},
		{FrameIndex: 2, Time: 132, W: 17, X: 12, Y: 22, KeyNames: "none", HasLife: true, Life: 1 - 0.5*0.132},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows", len(rows))
	}
	for i := range rows {
		if math.Abs(rows[i].Life-want[i].Life) < 1e-12 {
			rows[i].Life = want[i].Life
		}
		if rows[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], want[i])
		}
	}
}

// TestTaikoLife: osu!taiko's life bar starts empty and fills, so its low
// points are no moment, and a play fails only by ending under half full;
// the same life bars in standard give low points, and fail only empty.
func TestTaikoLife(t *testing.T) {
	for _, c := range []struct {
		mode   byte
		life   string
		low    int
		result string
		fail   string // the fail moment's summary
	}{
		{modeStd, "0|1,1000|0.2,2000|0.5,3000|0.1,4000|0.6,", 2, "passed", ""},
		{modeTaiko, "0|1,1000|0.2,2000|0.5,3000|0.1,4000|0.6,", 0, "passed", ""},
		{modeStd, "0|0,1000|0.2,2000|0.5,3000|0.1,4000|0.4,", 1, "passed", ""},
		{modeTaiko, "0|0,1000|0.2,2000|0.5,3000|0.1,4000|0.4,", 0, "failed", "failed: the life bar ended 40% full, under the half osu!taiko needs"},
		{modeTaiko, "0|0,4000|0.5,", 0, "passed", ""},
		{modeStd, "0|1,3000|0.1,4000|0,", 0, "failed", "failed: the life bar ran out"},
	} {
		tf := streamFile(c.life)
		tf.mode = c.mode
		r, _ := decodeClean(t, tf.bytes(t))
		a := r.Analysis()
		low, fail := 0, ""
		for _, m := range a.Moments {
			switch m.Kind {
			case MomentLowLife:
				low++
			case MomentFail:
				fail = m.Summary
			}
		}
		ns := a.Stats.Native.(*nativeStats)
		if low != c.low || ns.Result != c.result || fail != c.fail {
			t.Errorf("%s %s: %d low-life moments, %s, fail %q; want %d, %s, %q", modeNames[c.mode], c.life, low, ns.Result, fail, c.low, c.result, c.fail)
		}
	}
}
