package osr

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"rewind/decoders/internal/decodetest"
	"rewind/model"
)

func decodeClean(t *testing.T, data []byte) (*model.Replay, *decoder) {
	t.Helper()
	r, d := decodeAll(data)
	decodetest.Check(t, r, nil, data, model.DecodeOptions{})
	if r.Problems() > 0 {
		t.Fatalf("problems: %v", r.Diagnostics)
	}
	return r, d
}

func field(t *testing.T, fs []model.Field, key string) model.Field {
	t.Helper()
	f, ok := model.Find(fs, key)
	if !ok {
		t.Fatalf("no field %q", key)
	}
	return f
}

// TestHeaderFields reads each field of a hand-built file with the value
// the builder wrote and the bytes the format's table puts it at.
func TestHeaderFields(t *testing.T) {
	tf := newTestFile()
	data := tf.bytes(t)
	r, _ := decodeClean(t, data)
	// offsets by the table: mode 0, version 1, beatmap string 5 (34 bytes),
	// player 39 (7), replay hash 46 (34), counts 80, score 92, combo 96,
	// perfect 98, mods 99, life bar 103
	tests := []struct {
		key      string
		value    any
		off, len int64
	}{
		{"mode", int64(0), 0, 1},
		{"version", int64(20190607), 1, 4},
		{"beatmapHash", "0123456789abcdef0123456789abcdef", 5, 34},
		{"playerName", "peppy", 39, 7},
		{"replayHash", "fedcba9876543210fedcba9876543210", 46, 34},
		{"count300", int64(100), 80, 2},
		{"count100", int64(10), 82, 2},
		{"count50", int64(1), 84, 2},
		{"countGeki", int64(20), 86, 2},
		{"countKatu", int64(5), 88, 2},
		{"countMiss", int64(2), 90, 2},
		{"score", int64(1234567), 92, 4},
		{"maxCombo", int64(321), 96, 2},
		{"perfect", false, 98, 1},
		{"mods", int64(72), 99, 4},
		{"timestampTicks", int64(636829078230000000), 128, 8},
	}
	for _, tt := range tests {
		f := field(t, r.Header, tt.key)
		if !reflect.DeepEqual(f.Value, tt.value) || f.Span.Off != tt.off || f.Span.Len != tt.len {
			t.Errorf("%s = %v at %#x+%d, want %v at %#x+%d", tt.key, f.Value, f.Span.Off, f.Span.Len, tt.value, tt.off, tt.len)
		}
	}
	if f := field(t, r.Header, "mods"); f.Name != "HD DT" {
		t.Errorf("mods named %q, want HD DT", f.Name)
	}
	life := field(t, r.Header, "lifeBar")
	if life.Span.Off != 103 || life.Span.Len != 2+23 || life.Name != "3 points" {
		t.Errorf("life bar %q at %#x+%d", life.Name, life.Span.Off, life.Span.Len)
	}
	ts := field(t, r.Header, "timestamp")
	if want := time.Date(2019, 1, 12, 16, 37, 3, 0, time.UTC); ts.Value != want || ts.Span.Off != 128 || ts.Span.Len != 8 {
		t.Errorf("timestamp %v at %#x, want %v at 0x80", ts.Value, ts.Span.Off, want)
	}
	fr := field(t, r.Header, "frames")
	if fr.Span.Off != 136 {
		t.Errorf("frames at %#x, want 0x88", fr.Span.Off)
	}
	id := field(t, r.Header, "onlineScoreId")
	if id.Value != int64(1234) || id.Span.Off != int64(len(data)-8) || id.Span.Len != 8 {
		t.Errorf("score id %v at %#x+%d", id.Value, id.Span.Off, id.Span.Len)
	}
	if r.Title != "0123456789abcdef0123456789abcdef" || r.Mode != "osu! +HDDT" || r.Version != "20190607" {
		t.Errorf("title %q mode %q version %q", r.Title, r.Mode, r.Version)
	}
	if p := r.Players[0]; p.Slot != "P1" || p.Name != "peppy" || p.Character != "" {
		t.Errorf("player %+v", p)
	}
	// the life bar ends at 75%: the play ran to the end
	if r.Players[0].Result != "passed" {
		t.Errorf("result %q, want passed", r.Players[0].Result)
	}
}

// TestTicksExact converts .NET ticks to the instant exactly, to the 100
// ns tick, where a float conversion (osrparse's) is off by microseconds.
func TestTicksExact(t *testing.T) {
	for _, tt := range []struct {
		ticks int64
		want  time.Time
	}{
		{0, time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)},
		{621355968000000000, time.Unix(0, 0).UTC()},                                   // the Unix epoch
		{621355968000000001, time.Unix(0, 100).UTC()},                                 // one tick after it
		{637686965219999999, time.Date(2021, 10, 1, 14, 48, 41, 999999900, time.UTC)}, // computed with Python's integer datetime arithmetic
		{maxTicks, time.Date(9999, 12, 31, 23, 59, 59, 999999900, time.UTC)},
	} {
		if got := ticksTime(tt.ticks); !got.Equal(tt.want) {
			t.Errorf("ticks %d = %v, want %v", tt.ticks, got, tt.want)
		}
	}
}

// TestFramesPerMode reads each mode's keys from hand-built frames: the
// presses and releases, and the state at a frame.
func TestFramesPerMode(t *testing.T) {
	tests := []struct {
		mode   byte
		mods   uint32
		frames string
		events []string // kind and key of each press and release
		brief  string   // the state's first brief field at the last frame
	}{
		{0, 0, "10|100|100|0,10|101|100|5,10|102|100|15,10|103|100|10,10|104|100|2,10|105|100|16,10|0|0|0,",
			[]string{"press K1", "press K2", "release K1", "release K2", "press M2", "release M2", "press smoke", "release smoke"}, "none"},
		{1, 0, "10|320|0|1,10|320|0|0,10|640|0|10,10|0|0|0,",
			[]string{"press left don", "release left don", "press left kat", "press right kat", "release left kat", "release right kat"}, "none"},
		{2, 0, "10|100|0|0,10|200|0|1,10|300|0|1,10|310|0|0,",
			[]string{"press dash", "release dash"}, "x 310.0"},
		{3, 1 << 15, "10|0|0|0,10|1|0|0,10|5|0|0,10|4|0|0,10|0|0|0,",
			[]string{"press column 1", "press column 3", "release column 1", "release column 3"}, "····"},
	}
	for _, tt := range tests {
		t.Run(modeNames[tt.mode], func(t *testing.T) {
			tf := newTestFile()
			tf.mode, tf.mods, tf.frames = tt.mode, tt.mods, tt.frames
			r, _ := decodeClean(t, tf.bytes(t))
			var got []string
			for i := range r.Events {
				if k := r.EventKind(i); k == "press" || k == "release" {
					key, _ := model.Find(r.EventFields(i), "key")
					got = append(got, k+" "+key.Value.(string))
				}
			}
			if !reflect.DeepEqual(got, tt.events) {
				t.Errorf("events %q, want %q", got, tt.events)
			}
			st := r.PlayerState(r.Timeline.Count-1, 0)
			if len(st.Brief) == 0 || st.Brief[0].Text() != tt.brief {
				t.Errorf("brief %v, want first %q", st.Brief, tt.brief)
			}
			if r.SceneAt(r.Timeline.Count/2) == nil {
				t.Error("no scene")
			}
		})
	}
}

// TestRecordKinds: stable's two placeholders and the seed record are no
// input; their events name them; a -12345 record that is not the last is
// input, as osrparse reads it. The song time counts the placeholders' w.
func TestRecordKinds(t *testing.T) {
	tf := newTestFile()
	tf.frames = "0|256|-500|0,500|256|-500|0,-400|10|10|0,-12345|1|1|0,20000|5|5|0,-12345|0|0|99,"
	r, d := decodeAll(tf.bytes(t))
	rs := &d.recs
	if len(rs.frames) != 3 || !rs.hasSeed || rs.seed != 99 || rs.late != 1 {
		t.Fatalf("%d frames, seed %v %d, late %d", len(rs.frames), rs.hasSeed, rs.seed, rs.late)
	}
	if want := []int64{100, 100 - 12345, 100 - 12345 + 20000}; rs.frames[0].t != want[0] || rs.frames[1].t != want[1] || rs.frames[2].t != want[2] {
		t.Errorf("times %d %d %d, want %v", rs.frames[0].t, rs.frames[1].t, rs.frames[2].t, want)
	}
	kinds := map[string]int{}
	for i := range r.Events {
		kinds[r.EventKind(i)]++
		if r.EventKind(i) == "seed" && !strings.Contains(r.EventSummary(i), "99") {
			t.Errorf("seed summary %q", r.EventSummary(i))
		}
	}
	if kinds["placeholder"] != 2 || kinds["seed"] != 1 {
		t.Errorf("event kinds %v", kinds)
	}
	// time goes back at the second frame: the timeline holds it
	if r.Timeline.Time(1) != r.Timeline.Time(0) || r.Timeline.Label(1) != "-0:12.24" {
		t.Errorf("frame 1 at %v labelled %q", r.Timeline.Time(1), r.Timeline.Label(1))
	}
}

func TestMods(t *testing.T) {
	for _, tt := range []struct {
		mods uint32
		want string
	}{
		{0, ""},
		{576, "NC"},               // Nightcore sets Double Time's bit too
		{17528, "HD HR DT FL PF"}, // Perfect sets Sudden Death's
		{536872960, "AT V2"},      // autoplay, score v2
		{50331648, "9K CO"},       // 9K co-op
		{1 << 26, "1K"},           // the key mods above 9K
		{1<<30 | 1<<22, "CN MR"},  // cinema, mirror
		{1 << 31, "bit31"},        // no mod of that bit
		{1<<5 | 1<<6, "SD DT"},    // without PF and NC, both show
		{1<<15 | 1<<20, "4K FI"},  // mania
		{1<<2 | 1<<12 | 1<<13, "TD SO AP"},
	} {
		if got := strings.Join(modList(tt.mods), " "); got != tt.want {
			t.Errorf("mods %d = %q, want %q", tt.mods, got, tt.want)
		}
	}
}

// TestAccuracy holds each mode's formula (osu! wiki, "Accuracy") to hand
// computed values.
func TestAccuracy(t *testing.T) {
	for _, tt := range []struct {
		mode   uint8
		counts [6]uint16 // 300 100 50 geki katu miss
		want   float64
		grade  string
	}{
		{modeStd, [6]uint16{100, 0, 0, 0, 0, 0}, 1, "X"},
		{modeStd, [6]uint16{90, 8, 1, 0, 0, 1}, (90*300 + 8*100 + 50) / (100 * 300.0), "B"}, // 90% 300s with a miss: not above 90%
		{modeStd, [6]uint16{91, 7, 1, 0, 0, 1}, (91*300 + 7*100 + 50) / (100 * 300.0), "A"},
		{modeStd, [6]uint16{95, 5, 0, 0, 0, 0}, (95*300 + 5*100) / (100 * 300.0), "S"},
		{modeTaiko, [6]uint16{80, 20, 0, 0, 0, 0}, (80*300 + 20*150) / (100 * 300.0), "B"},
		{modeCatch, [6]uint16{90, 5, 100, 0, 5, 2}, 195 / 202.0, "A"},
		{modeMania, [6]uint16{50, 10, 0, 30, 10, 0}, (80*300 + 10*200 + 10*100) / (100 * 300.0), "B"}, // exactly 90%: A needs more
		{modeMania, [6]uint16{51, 9, 0, 30, 10, 0}, (81*300 + 10*200 + 9*100) / (100 * 300.0), "A"},
		{modeMania, [6]uint16{0, 0, 0, 0, 0, 0}, 1, "X"},
	} {
		got, _, _ := accuracy(tt.mode, tt.counts)
		if math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s %v: accuracy %v, want %v", modeNames[tt.mode], tt.counts, got, tt.want)
		}
		if g := grade(tt.mode, 0, tt.counts); g != tt.grade {
			t.Errorf("%s %v: grade %s, want %s", modeNames[tt.mode], tt.counts, g, tt.grade)
		}
	}
	if g := grade(modeStd, 8, [6]uint16{100}); g != "XH" {
		t.Errorf("hidden SS is %s, want XH", g)
	}
}

// TestScoreID reads the id as wide as the version writes it.
func TestScoreID(t *testing.T) {
	for _, tt := range []struct {
		version  int32
		width    int
		wantW    int
		severity model.Severity // of the id's diagnostic; -1 none
	}{
		{20140721, 8, 8, -1},
		{20140720, 4, 4, -1},
		{20131113, 8, 8, model.Info},    // a later download of an old replay
		{20121007, 0, 0, -1},            // before ids
		{20121007, 4, 4, model.Info},    // read as osrparse reads it
		{20190607, 4, 4, model.Warning}, // 4 where 8 belong
		{0, 8, 8, -1},                   // third-party writers write 8
		{0, 0, 0, model.Error},          // and osrparse wants them
		{20190607, 0, 0, model.Error},   // the file ends before the id
	} {
		t.Run(fmt.Sprintf("%d-%d", tt.version, tt.width), func(t *testing.T) {
			tf := newTestFile()
			tf.version, tf.idWidth, tf.id = tt.version, tt.width, 77
			r, d := decodeAll(tf.bytes(t))
			if d.h.idWidth != tt.wantW || (tt.wantW > 0 && d.h.id != 77) {
				t.Errorf("id %d of %d bytes, want 77 of %d", d.h.id, d.h.idWidth, tt.wantW)
			}
			sev := model.Severity(-1)
			for _, dg := range r.Diagnostics {
				if dg.Subject == "onlineScoreId" {
					sev = dg.Severity
				}
			}
			if sev != tt.severity {
				t.Errorf("diagnostic %v, want %v: %v", sev, tt.severity, r.Diagnostics)
			}
		})
	}
}

// TestLazerScoreInfo reads the JSON lazer appends: its members as fields
// in the stream score.info, the rank (F: failed), the user id as the
// player's code and the mods by their acronyms.
func TestLazerScoreInfo(t *testing.T) {
	tf := newTestFile()
	tf.version = 30000016
	tf.life = sp("")
	tf.frames = "-100|10|10|0,16|11|11|1,-12345|0|0|0"
	tf.scoreInfo = sp(`{"online_id": 5478193089, "mods": [{"acronym": "EZ"}, {"acronym": "DA", "settings": {"speed_change": 1.5}}], "rank": "F", "user_id": 11774957, "statistics": {"great": 3, "miss": 1}}`)
	r, d := decodeClean(t, tf.bytes(t))
	if d.info == nil || d.info.Rank != "F" || *d.info.OnlineID != 5478193089 {
		t.Fatalf("score info %+v", d.info)
	}
	if r.Players[0].Result != "failed" || r.Players[0].Code != "11774957" || r.Mode != "osu! +EZDA" {
		t.Errorf("player %+v mode %q", r.Players[0], r.Mode)
	}
	great := field(t, r.Header, "great")
	text := string(r.Streams[StreamScoreInfo][great.Span.Off:great.Span.End()])
	if great.Value != int64(3) || great.Span.Stream != StreamScoreInfo || text != "3" {
		t.Errorf("great = %v at %v (%q)", great.Value, great.Span, text)
	}
	speed := field(t, r.Header, "speedChange")
	if speed.Value != 1.5 {
		t.Errorf("speed change %v", speed.Value)
	}
	if len(r.Regions) != 2 || r.Regions[1].Link.Stream != StreamScoreInfo {
		t.Errorf("regions %+v", r.Regions)
	}
	// lazer writes no placeholders and no comma after the seed
	if r.Timeline.Count != 2 || !d.recs.hasSeed {
		t.Errorf("%d frames, seed %v", r.Timeline.Count, d.recs.hasSeed)
	}
}

// TestOutcome: the life bar's last point empty is a fail, unless a mod
// kept the play from failing; no graph leaves it unknown.
func TestOutcome(t *testing.T) {
	for _, tt := range []struct {
		life   *string
		mods   uint32
		result string
	}{
		{sp("0|1,1000|0.2,2000|0,"), 0, "failed"},
		{sp("0|1,1000|0.2,2000|0,"), modNF, "passed"},
		{sp("0|1,1000|0.2,2000|0.01,"), 0, "passed"},
		{nil, 0, ""},
		{sp(""), 0, ""},
	} {
		tf := newTestFile()
		tf.life, tf.mods = tt.life, tt.mods
		r, _ := decodeClean(t, tf.bytes(t))
		if r.Players[0].Result != tt.result {
			t.Errorf("life %v mods %d: %q, want %q", tt.life, tt.mods, r.Players[0].Result, tt.result)
		}
	}
}

// TestStringMarker: a marker other than 0x00 and 0x0b is an error at its
// offset; the fields before it are kept.
func TestStringMarker(t *testing.T) {
	data := newTestFile().bytes(t)
	data[39] = 0x0c // the player name's marker
	r, err := Decode(data, model.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	decodetest.Check(t, r, nil, data, model.DecodeOptions{})
	if !r.Partial || r.Title != "0123456789abcdef0123456789abcdef" {
		t.Errorf("partial %v title %q", r.Partial, r.Title)
	}
	d := r.Diagnostics[0]
	if d.Severity != model.Error || d.Span.Off != 39 || d.Found != "0x0c" || !strings.Contains(d.Expected, "0x0b") {
		t.Errorf("diagnostic %+v", d)
	}
}

// TestFramesCutShort: an LZMA stream that ends early keeps the frames
// before, says where it stopped, and shows the record it cut through as a
// partial event at the last frame.
func TestFramesCutShort(t *testing.T) {
	tf := newTestFile()
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "16|%d.%d|%d.25|%d,", i%512, i%7, i%384, i%3*5)
	}
	tf.frames = b.String()
	full := tf.bytes(t)
	memberEnd := len(full) - 8
	data := full[:memberEnd-len(full)/3] // the file stops in the frames
	r, d := decodeAll(data)
	decodetest.Check(t, r, nil, data, model.DecodeOptions{})
	n := len(d.recs.frames)
	if n == 0 || n >= 3000 || !r.Partial {
		t.Fatalf("%d frames kept, partial %v", n, r.Partial)
	}
	for i, f := range d.recs.frames {
		if f.x != float64(i%512)+float64(i%7)/10 || f.y != float64(i%384)+0.25 {
			t.Fatalf("frame %d is (%v, %v)", i, f.x, f.y)
		}
	}
	var stopped bool
	for _, dg := range r.Diagnostics {
		if dg.Subject == "frames" && strings.Contains(dg.Message, "ends before its end") {
			stopped = dg.Span.Off > 136 && dg.Span.Off <= int64(len(data)) && dg.Frame == r.Timeline.Count-1
		}
	}
	if !stopped {
		t.Errorf("no diagnostic at where the stream stopped: %v", r.Diagnostics)
	}
	last := r.Events[len(r.Events)-1]
	if !r.EventPartial(len(r.Events)-1) || int(last.Frame) != r.Timeline.Count-1 {
		t.Errorf("last event %+v", last)
	}
}

// TestPlainFrames: frames stored as text, not LZMA, are read with a
// warning (osu! and osrparse refuse them).
func TestPlainFrames(t *testing.T) {
	tf := newTestFile()
	tf.plainFrames = true
	r, d := decodeAll(tf.bytes(t))
	if len(d.recs.frames) != 3 || !d.frames.plain {
		t.Fatalf("%d frames, plain %v", len(d.recs.frames), d.frames.plain)
	}
	if r.Problems() != 1 || !strings.Contains(r.Diagnostics[0].Message, "plain text") {
		t.Errorf("diagnostics %v", r.Diagnostics)
	}
}

// TestBadRecords: records that do not read are named and left out; the
// rest are read.
func TestBadRecords(t *testing.T) {
	tf := newTestFile()
	tf.frames = "10|1|1|0,10|x|1|0,,10|2|2,10|3|3|0|extra,10|4|4|0,"
	r, d := decodeAll(tf.bytes(t))
	decodetest.Check(t, r, nil, tf.bytes(t), model.DecodeOptions{})
	if len(d.recs.frames) != 3 || d.recs.bad != 3 || d.recs.extra != 1 {
		t.Fatalf("%d frames, %d bad, %d with extra fields", len(d.recs.frames), d.recs.bad, d.recs.extra)
	}
	bad := 0
	for _, dg := range r.Diagnostics {
		if strings.HasPrefix(dg.Subject, "frame record") {
			bad++
			if dg.Span.Stream != StreamFrames {
				t.Errorf("diagnostic not in the text: %v", dg)
			}
		}
	}
	if bad != 3 {
		t.Errorf("%d record diagnostics: %v", bad, r.Diagnostics)
	}
}

// TestEventsPointAtText: an event's span is its record in the text; its
// fields split the record and say where the compressed bytes are.
func TestEventsPointAtText(t *testing.T) {
	tf := newTestFile()
	r, d := decodeClean(t, tf.bytes(t))
	for i := range r.Events {
		if r.EventKind(i) != "press" {
			continue
		}
		sp := r.EventSpan(i)
		text := string(r.Bytes(sp.Stream)[sp.Off:sp.End()])
		if sp.Stream != StreamFrames || text != "16|11|21|5" {
			t.Errorf("press at %v: %q", sp, text)
		}
		fs := r.EventFields(i)
		if z := field(t, fs, "z"); z.Value != int64(5) || z.Name != "K1" {
			t.Errorf("z %+v", z)
		}
		if fb := field(t, fs, "fileBytes"); fb.Span.Off != int64(d.frames.off) || fb.Span.Len != int64(d.frames.n) {
			t.Errorf("file bytes %v", fb.Span)
		}
		if s := r.EventSummary(i); s != "K1 down for 17 ms" {
			t.Errorf("summary %q", s)
		}
		return
	}
	t.Fatal("no press")
}

// TestMatch claims osu! fronts and nothing else.
func TestMatch(t *testing.T) {
	good := newTestFile().bytes(t)
	zero := newTestFile()
	zero.version = 0
	for name, h := range map[string][]byte{"stable": good, "version 0": zero.bytes(t), "front only": good[:8]} {
		if !match(h) {
			t.Errorf("%s: not claimed", name)
		}
	}
	lazer := newTestFile()
	lazer.version = 30000016
	if !match(lazer.bytes(t)) {
		t.Error("lazer not claimed")
	}
	bad := map[string][]byte{
		"zeros":        make([]byte, 64),
		"mode 4":       append([]byte{4}, good[1:]...),
		"odd version":  append([]byte{0, 1, 2, 3, 4}, good[5:]...),
		"marker 0x0c":  append(append([]byte{}, good[:5]...), append([]byte{0x0c}, good[6:]...)...),
		"text":         []byte("0123456789 text"),
		"short hash":   append(append([]byte{}, good[:5]...), 0x0b, 3, 'a', 'b', 'c', 0),
		"lfs":          []byte("version https://git-lfs.github.com/spec/v1\noid sha256:"),
		"version 0 no": append([]byte{0, 0, 0, 0, 0}, 0, 0, 0),
	}
	for name, h := range bad {
		if match(h) {
			t.Errorf("%s: claimed", name)
		}
	}
	if s := nearMiss([]byte("version https://git-lfs.github.com/spec/v1\n"), ".osr"); !strings.Contains(s, "Git LFS") {
		t.Errorf("near miss %q", s)
	}
	if s := nearMiss(append([]byte{7}, good[1:]...), ".osr"); !strings.Contains(s, "unknown game mode 7") {
		t.Errorf("near miss %q", s)
	}
}

// TestTruncatedEverywhere cuts a hand-built file at every byte: each
// prefix decodes without a panic and, past the mode byte, says what is
// missing.
func TestTruncatedEverywhere(t *testing.T) {
	tf := newTestFile()
	tf.version = 30000016
	tf.scoreInfo = sp(`{"rank": "A"}`)
	data := tf.bytes(t)
	for n := 1; n < len(data); n++ {
		r, err := Decode(data[:n], model.DecodeOptions{})
		decodetest.Check(t, r, err, data[:n], model.DecodeOptions{})
		if err == nil && r.Problems() == 0 {
			t.Errorf("cut at %d of %d: no problem reported", n, len(data))
		}
		if _, err := Decode(data[:n], model.DecodeOptions{HeaderOnly: true}); err != nil {
			t.Errorf("header-only refused a cut file: %v", err)
		}
	}
}

// TestBitFlips damages a hand-built file one bit at a time: no panic, and
// the contract holds.
func TestBitFlips(t *testing.T) {
	data := newTestFile().bytes(t)
	buf := make([]byte, len(data))
	for i := range data {
		for b := 0; b < 8; b++ {
			copy(buf, data)
			buf[i] ^= 1 << b
			r, err := Decode(buf, model.DecodeOptions{})
			decodetest.Check(t, r, err, buf, model.DecodeOptions{})
		}
	}
}
