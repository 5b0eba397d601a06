package bsor

import (
	"strings"
	"testing"
	"time"

	"rewind/model"
)

func decode(t *testing.T, b []byte) *model.Replay {
	t.Helper()
	r, err := Decode(b, model.DecodeOptions{})
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return r
}

func field(t *testing.T, fs []model.Field, key string) model.Field {
	t.Helper()
	f, ok := model.Find(fs, key)
	if !ok {
		t.Fatalf("no field %q", key)
	}
	return f
}

func hasDiag(r *model.Replay, sev model.Severity, substr string) bool {
	for _, d := range r.Diagnostics {
		if d.Severity == sev && strings.Contains(d.String(), substr) {
			return true
		}
	}
	return false
}

func eventsOf(r *model.Replay, kind string) []int {
	var out []int
	for i := range r.Events {
		if r.EventKind(i) == kind {
			out = append(out, i)
		}
	}
	return out
}

func TestNotBSOR(t *testing.T) {
	// the reference decoder's test: four bytes {1,2,3,4} are no replay
	for _, b := range [][]byte{{1, 2, 3, 4}, {}, {0x69, 0x3d}} {
		r, err := Decode(b, model.DecodeOptions{})
		if err == nil || r != nil {
			t.Errorf("% x: want an error, got %v, %v", b, r, err)
		}
	}
}

func TestAllSections(t *testing.T) {
	tf := sampleFile()
	r := decode(t, tf.bytes())
	if r.Partial || r.Problems() != 0 {
		t.Fatalf("partial=%v diagnostics=%v", r.Partial, r.Diagnostics)
	}
	if r.Version != "0.9.9" || r.Title != "Song — Mapper (ExpertPlus)" || r.Mode != "Standard DA,FS" || r.Result != "cleared" {
		t.Errorf("summary: %q %q %q %q", r.Version, r.Title, r.Mode, r.Result)
	}
	if !r.Start.Equal(time.Unix(1700000000, 0)) {
		t.Errorf("start %v", r.Start)
	}
	if r.Duration != 4500*time.Millisecond {
		t.Errorf("duration %v", r.Duration)
	}
	mods := field(t, r.Header, "modifiers")
	if mods.Value != "DA,FS" || mods.Name != "Disappearing Arrows, Faster Song" {
		t.Errorf("modifiers %v %q", mods.Value, mods.Name)
	}
	for key, want := range map[string]any{
		"jumpDistance": 18.0, "height": 1.8, "leftHanded": false, "playerName": "Tester", "platform": "steam",
		"trackingSytem": "OpenVR", "hmd": "Valve Index", "environment": "The First", "framesCount": int64(10),
		"noteCount": int64(5), "good": int64(2), "bad": int64(1), "miss": int64(1), "bomb": int64(1),
		"wallCount": int64(1), "heightCount": int64(2), "pauseCount": int64(1), "entryCount": int64(2),
	} {
		if f := field(t, r.Header, key); f.Value != want {
			t.Errorf("%s = %v (%T), want %v", key, f.Value, f.Value, want)
		}
	}
	if r.Timeline.Count != 10 || r.Timeline.Rate != 90 || r.Timeline.Label(3) != "0:01.50" {
		t.Errorf("timeline %d %v %q", r.Timeline.Count, r.Timeline.Rate, r.Timeline.Label(3))
	}
	p := r.Players[0]
	if id, _ := model.Find(p.Fields, "playerID"); p.Name != "Tester" || id.Value != "76561198000000000" || p.Code != "76561198000000000" || p.Character != "" {
		t.Errorf("player %+v", p)
	}
	// controller offsets and user data
	co := field(t, r.Header, "controllerOffsets")
	if x := field(t, co.Fields, "left").Fields[0]; x.Value != 0.01 {
		t.Errorf("offset x %v", x.Value)
	}
	ud := field(t, r.Header, "userData")
	if len(ud.Fields) != 3 || ud.Fields[1].Label != "reeplay" || ud.Fields[1].Value != `{"a":1}` || ud.Fields[1].Name != "JSON" {
		t.Errorf("user data %+v", ud.Fields)
	}
	if b, ok := ud.Fields[2].Value.([]byte); !ok || len(b) != 3 {
		t.Errorf("binary user value %#v", ud.Fields[2].Value)
	}

	// events at the first frame whose time reaches theirs
	want := map[string][]int{"good": {2, 3}, "bad": {4}, "miss": {5}, "bomb": {6}, "wall": {7}, "height": {1, 8}, "pause": {5}}
	for kind, frames := range want {
		idx := eventsOf(r, kind)
		if len(idx) != len(frames) {
			t.Errorf("%s: %d events", kind, len(idx))
			continue
		}
		for k, i := range idx {
			if int(r.Events[i].Frame) != frames[k] {
				t.Errorf("%s %d at frame %d, want %d", kind, k, r.Events[i].Frame, frames[k])
			}
		}
	}
	good := eventsOf(r, "good")
	if s := r.EventSummary(good[0]); s != "good red any line 1 top: 115 (70+30+15) x1" {
		t.Errorf("summary %q", s)
	}
	fs := r.EventFields(good[1])
	for key, want := range map[string]any{"scoringType": int64(3), "lineIndex": int64(0), "noteLineLayer": int64(0),
		"colorType": int64(1), "cutDirection": int64(1), "cutScore": int64(58), "preSwing": int64(35), "postSwing": int64(15), "multiplier": int64(2)} {
		if f := field(t, fs, key); f.Value != want {
			t.Errorf("note %s = %v, want %v", key, f.Value, want)
		}
	}
	if f := field(t, fs, "cutDistanceToCenter"); f.Value != 0.15 || f.Span.Len != 4 {
		t.Errorf("cut distance %+v", f)
	}
	if s := r.EventSummary(eventsOf(r, "bad")[0]); !strings.Contains(s, "wrong saber") {
		t.Errorf("bad summary %q", s)
	}
	if s := r.EventSummary(eventsOf(r, "bomb")[0]); s != "bomb hit line 1 bottom" {
		t.Errorf("bomb summary %q", s)
	}
	wf := r.EventFields(eventsOf(r, "wall")[0])
	if field(t, wf, "lineIndex").Value != int64(1) || field(t, wf, "obstacleType").Name != "crouch" || field(t, wf, "width").Value != int64(2) {
		t.Errorf("wall fields %+v", wf)
	}
	if f := field(t, r.EventFields(eventsOf(r, "pause")[0]), "duration"); f.Value != int64(12) {
		t.Errorf("pause %+v", f)
	}

	// running state: 115 at x1, then 58 at x2, then the bad cut drops to x1
	st := func(f int, key string) any { return field(t, r.PlayerState(f, 0).Fields, key).Value }
	if st(1, "score") != int64(0) || st(2, "score") != int64(115) || st(3, "score") != int64(115+2*58) {
		t.Errorf("scores %v %v %v", st(1, "score"), st(2, "score"), st(3, "score"))
	}
	if st(3, "combo") != int64(2) || st(4, "combo") != int64(0) || st(4, "multiplier") != int64(1) || st(7, "misses") != int64(4) {
		t.Errorf("combo/multiplier/misses %v %v %v %v", st(3, "combo"), st(4, "combo"), st(4, "multiplier"), st(7, "misses"))
	}
	if st(7, "energy") != 0.4 {
		t.Errorf("energy after the wall %v", st(7, "energy"))
	}
	if head := field(t, r.PlayerState(0, 0).Fields, "head"); head.Fields[1].Value != 1.7 {
		t.Errorf("head y %v", head.Fields[1].Value)
	}
	sc := r.SceneAt(0)
	if len(sc) != 2 || len(sc[0].Points) != 3 || sc[1].Points[0].Y != float64(float32(1.7)) || sc[0].Points[1].X != float64(float32(-0.3)) {
		t.Errorf("scenes %+v", sc)
	}
	if len(r.Charts) == 0 || len(r.Charts[0].Series[0].Values) != 10 {
		t.Errorf("charts %+v", r.Charts)
	}
}

func TestScoreRules(t *testing.T) {
	cases := []struct {
		name                string
		st                  int
		before, after, dist float32
		want                cutScore
	}{
		{"normal perfect", stNormal, 1, 1, 0, cutScore{70, 30, 15}},
		{"normal over-rated swing clamps", stNormal, 1.4, 2, 0, cutScore{70, 30, 15}},
		{"normal far from centre", stNormal, 0.5, 0.5, 0.3, cutScore{35, 15, 0}},
		{"old default counts as normal", stDefault, 1, 1, 0.15, cutScore{70, 30, 8}},
		{"arc head gets the post-swing", stArcHead, 0.5, 0, 0, cutScore{35, 30, 15}},
		{"arc tail gets the pre-swing", stArcTail, 0, 0.5, 0, cutScore{70, 15, 15}},
		{"chain head has no post-swing", stChainHead, 1, 1, 0, cutScore{70, 0, 15}},
		{"chain link is a fixed 20", stChainLink, 1, 1, 0.2, cutScore{0, 0, 20}},
		{"no score", stNoScore, 1, 1, 0, cutScore{0, 0, 0}},
	}
	for _, c := range cases {
		cut := goodCut(c.before, c.after, c.dist)
		if got := cutScoreFor(c.st, &cut); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	// the multiplier: x2 on the 2nd hit, x4 on the 6th, x8 on the 14th;
	// a miss halves it
	m := newMultiplier()
	var got []int
	for i := 0; i < 14; i++ {
		m.up()
		got = append(got, m.mult)
	}
	want := []int{1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 8}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("multiplier progression %v, want %v", got, want)
		}
	}
	m.down()
	if m.mult != 4 || m.progress != 0 {
		t.Errorf("after a miss %+v", m)
	}
	// n perfect notes score 115*(8n-63) from 14 notes on
	var notes []note
	for i := 0; i < 20; i++ {
		notes = append(notes, note{ID: 31208, EventTime: float32(i), SpawnTime: float32(i), HasCut: true, Cut: goodCut(1, 1, 0)})
	}
	if s := computeScore(notes, nil); s.final.score != 115*(8*20-63) || s.final.maxScore != s.final.score {
		t.Errorf("20 perfect notes: %d / %d", s.final.score, s.final.maxScore)
	}
}

func TestNoteID(t *testing.T) {
	cases := []struct {
		id                             int32
		scoring, line, layer, col, dir int
	}{
		{31208, stNormal, 1, 2, 0, 8},
		{1011, stDefault, 1, 0, 1, 1},    // old mods: scoring type 0
		{999, stDefault, 1, 0, 3, 8},     // old bomb id (colour -1, direction 9)
		{-1, stDefault, 0, 0, 3, 8},      // old bomb at line 0 layer 0
		{20039, stNoScore, 0, 0, 3, 8},   // bomb with direction 9
		{70211, stChainLink, 0, 2, 1, 1}, // chain link
		{45000013, stArcHead, 5, 0, 1, 3},
	}
	for _, c := range cases {
		p := decodeNoteID(c.id)
		if p.Scoring != c.scoring || p.Line != c.line || p.Layer != c.layer || p.Color != c.col || p.Dir != c.dir {
			t.Errorf("%d: %+v", c.id, p)
		}
	}
}

func TestUTF16PlayerName(t *testing.T) {
	// "🎃 Kahmi 🎃" written with a too-short prefix, as in the corpus clip
	tf := sampleFile()
	tf.in.PlayerName = "🎃 Kahmi 🎃"
	tf.nameLen = 9
	r := decode(t, tf.bytes())
	if r.Players[0].Name != "🎃 Kahmi 🎃" || field(t, r.Header, "platform").Value != "steam" {
		t.Errorf("name %q platform %v", r.Players[0].Name, field(t, r.Header, "platform").Value)
	}
	if !hasDiag(r, model.Info, "playerName at 0x") || r.Problems() != 0 {
		t.Errorf("diagnostics %v", r.Diagnostics)
	}
}

func TestUTF16OtherString(t *testing.T) {
	// a song name whose UTF-16 length (7) is shorter than its UTF-8 bytes
	tf := sampleFile()
	tf.in.SongName = "東方 Song"
	tf.songLen = 7
	r := decode(t, tf.bytes())
	if got := field(t, r.Header, "songName").Value; got != "東方 Song" || field(t, r.Header, "mapper").Value != "Mapper" {
		t.Errorf("song %q mapper %v", got, field(t, r.Header, "mapper").Value)
	}
	if !hasDiag(r, model.Info, "songName") || r.Partial {
		t.Errorf("diagnostics %v partial %v", r.Diagnostics, r.Partial)
	}
}

func TestNameCutMidCharacter(t *testing.T) {
	tf := sampleFile()
	tf.in.PlayerName = "Kahm\xf0\x9f"
	r := decode(t, tf.bytes())
	if r.Players[0].Name != `Kahm\xf0\x9f` {
		t.Errorf("name %q", r.Players[0].Name)
	}
	if !hasDiag(r, model.Info, "not valid UTF-8") {
		t.Errorf("diagnostics %v", r.Diagnostics)
	}
}

func TestFrameTimes(t *testing.T) {
	tf := sampleFile()
	tf.frames[3].Time = 0    // time 0 mid-song
	tf.frames[4].Time = 1.5  // ... then back to where it was (1.5 would repeat frame 3's real time)
	tf.frames[6].Time = 2.5  // repeats frame 5
	tf.frames[8].Time = 2.75 // goes back
	r := decode(t, tf.bytes())
	tl := &r.Timeline
	for i := 1; i < tl.Count; i++ {
		if tl.Time(i) < tl.Time(i-1) {
			t.Fatalf("time goes back at %d", i)
		}
	}
	if tl.Time(3) != tl.Time(2) || tl.Time(8) != tl.Time(7) {
		t.Errorf("times %v %v %v %v", tl.Time(2), tl.Time(3), tl.Time(7), tl.Time(8))
	}
	flags := map[int]string{}
	for _, i := range eventsOf(r, "frame") {
		flags[int(r.Events[i].Frame)] = r.EventFlag(i)
	}
	if flags[3] != "time 0" || flags[6] != "repeated time" || flags[8] != "time goes back" {
		t.Errorf("flags %v", flags)
	}
	if !hasDiag(r, model.Info, "time 0") || !hasDiag(r, model.Warning, "time goes back") {
		t.Errorf("diagnostics %v", r.Diagnostics)
	}
	if f := field(t, r.PlayerState(3, 0).Fields, "timeFlag"); f.Name != "time 0" {
		t.Errorf("state flag %+v", f)
	}
}

func TestTail(t *testing.T) {
	cases := []struct {
		name   string
		mod    func(*testFile)
		sev    model.Severity
		substr string
	}{
		{"lone section 6 id", func(f *testFile) { f.offsets, f.user, f.stopAfter, f.tail = nil, nil, 5, []byte{6} },
			model.Warning, "section 6 at 0x"},
		{"trailing garbage", func(f *testFile) { f.tail = []byte{0xde, 0xad} }, model.Warning, "2 bytes after the last section"},
		{"ends after section 5", func(f *testFile) { f.stopAfter = 5 }, -1, ""},
	}
	for _, c := range cases {
		tf := sampleFile()
		c.mod(tf)
		r := decode(t, tf.bytes())
		if r.Partial || len(r.Events) == 0 {
			t.Errorf("%s: partial %v", c.name, r.Partial)
		}
		if c.sev < 0 {
			if len(r.Diagnostics) != 0 {
				t.Errorf("%s: %v", c.name, r.Diagnostics)
			}
			continue
		}
		if !hasDiag(r, c.sev, c.substr) {
			t.Errorf("%s: %v", c.name, r.Diagnostics)
		}
	}
}

func TestUserDataBlob(t *testing.T) {
	tf := sampleFile()
	tf.user = nil
	tf.userBlob = []byte("hello world, no entries here")
	r := decode(t, tf.bytes())
	ud := field(t, r.Header, "userData")
	if len(ud.Fields) != 1 || ud.Fields[0].Value != "hello world, no entries here" {
		t.Errorf("blob %+v", ud.Fields)
	}
	if !hasDiag(r, model.Info, "one blob") {
		t.Errorf("diagnostics %v", r.Diagnostics)
	}
}

func TestVersion(t *testing.T) {
	tf := sampleFile()
	tf.version = 2
	r := decode(t, tf.bytes())
	if !hasDiag(r, model.Warning, "unknown file version") || len(eventsOf(r, "good")) != 2 {
		t.Errorf("diagnostics %v", r.Diagnostics)
	}
}

func TestInProgress(t *testing.T) {
	// a .bsortemp stops in the middle; everything before the cut is kept
	b := sampleFile().bytes()
	full := decode(t, b)
	notesOff := field(t, full.Header, "notes").Span.Off
	r := decode(t, b[:notesOff+5+16+40])
	if !r.Partial || r.Result != "in progress" || r.Timeline.Count != 10 {
		t.Errorf("partial %v result %q frames %d", r.Partial, r.Result, r.Timeline.Count)
	}
	found := false
	for _, d := range r.Diagnostics {
		if d.Severity == model.Error && d.Span.Off >= notesOff {
			found = true
		}
	}
	if !found {
		t.Errorf("no error diagnostic at the cut: %v", r.Diagnostics)
	}
}

func TestResync(t *testing.T) {
	base := sampleFile().bytes()
	full := decode(t, base)
	notes := field(t, full.Header, "notes").Span.Off
	frames := field(t, full.Header, "frames").Span.Off

	// an unknown event type in the second note: the later sections are found
	b := append([]byte(nil), base...)
	second := notes + 5 + noteHead + cutSize
	b[second+12] = 9
	r := decode(t, b)
	if len(eventsOf(r, "good")) != 1 || len(eventsOf(r, "wall")) != 1 || len(eventsOf(r, "pause")) != 1 || r.Partial {
		t.Errorf("bad note type: good %d walls %d pauses %d partial %v", len(eventsOf(r, "good")), len(eventsOf(r, "wall")), len(eventsOf(r, "pause")), r.Partial)
	}
	if !hasDiag(r, model.Error, "unknown note event type") {
		t.Errorf("diagnostics %v", r.Diagnostics)
	}

	// a frame count too large: the frames up to section 2 are kept
	b = append([]byte(nil), base...)
	b[frames+1], b[frames+2] = 0xff, 0x7f
	r = decode(t, b)
	if r.Timeline.Count != 10 || len(eventsOf(r, "good")) != 2 {
		t.Errorf("bad frame count: %d frames, %d good", r.Timeline.Count, len(eventsOf(r, "good")))
	}
	if !hasDiag(r, model.Error, "frames count") {
		t.Errorf("diagnostics %v", r.Diagnostics)
	}

	// a wrong section id in front of the walls
	b = append([]byte(nil), base...)
	walls := field(t, full.Header, "walls").Span.Off
	b[walls] = 9
	r = decode(t, b)
	if len(eventsOf(r, "wall")) != 0 || len(eventsOf(r, "pause")) != 1 {
		t.Errorf("wrong id: walls %d pauses %d", len(eventsOf(r, "wall")), len(eventsOf(r, "pause")))
	}
	if !hasDiag(r, model.Error, "section 3 at ") {
		t.Errorf("diagnostics %v", r.Diagnostics)
	}
}

func TestHeaderOnly(t *testing.T) {
	r, err := Decode(sampleFile().bytes(), model.DecodeOptions{HeaderOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Title != "Song — Mapper (ExpertPlus)" || r.Duration != 4500*time.Millisecond || r.Players[0].Name != "Tester" || len(r.Events) != 0 {
		t.Errorf("%q %v %+v %d", r.Title, r.Duration, r.Players, len(r.Events))
	}
}

func TestFailed(t *testing.T) {
	tf := sampleFile()
	tf.in.FailTime = 83.2
	r := decode(t, tf.bytes())
	if r.Result != "failed at 1:23" || r.Duration != secs(83.2) {
		t.Errorf("%q %v", r.Result, r.Duration)
	}
}

func TestArcsAndChains(t *testing.T) {
	// a chain head, two links, an arc head and an arc tail, all good cuts
	tf := sampleFile()
	cut := goodCut(0.5, 0.5, 0)
	tf.notes = []note{
		{ID: 61208, EventTime: 1.0, SpawnTime: 1.0, Cut: cut}, // chain head: 35 + 0 + 15 = 50, x1
		{ID: 71208, EventTime: 1.1, SpawnTime: 1.1, Cut: cut}, // chain link: 20, x2
		{ID: 71108, EventTime: 1.2, SpawnTime: 1.2, Cut: cut}, // chain link: 20, x2
		{ID: 42011, EventTime: 2.0, SpawnTime: 2.0, Cut: cut}, // arc head: 35 + 30 + 15 = 80, x2
		{ID: 52011, EventTime: 3.0, SpawnTime: 3.0, Cut: cut}, // arc tail: 70 + 15 + 15 = 100, x2
	}
	r := decode(t, tf.bytes())
	want := int64(50 + 2*20 + 2*20 + 2*80 + 2*100)
	if got := field(t, r.Header, "computedScore").Value; got != want {
		t.Errorf("computed score %v, want %d", got, want)
	}
	// best possible: 85 x1, 20 x2, 20 x2, 115 x2, 115 x2
	if got := field(t, r.Header, "maxScore").Value; got != int64(85+40+40+230+230) {
		t.Errorf("max score %v", got)
	}
	good := eventsOf(r, "good")
	if s := r.EventSummary(good[1]); s != "good red any line 1 top: 20 (0+0+20) x2 [Chain link]" {
		t.Errorf("chain link summary %q", s)
	}
	if f := field(t, r.EventFields(good[3]), "scoringType"); f.Value != int64(4) || f.Name != "Arc head" {
		t.Errorf("arc head %+v", f)
	}
	if st := field(t, r.PlayerState(0, 0).Fields, "accuracy"); st.Value != 1.0 {
		t.Errorf("accuracy before any note %v", st.Value)
	}
}

func TestProgress(t *testing.T) {
	b := sampleFile().bytes()
	var last, total int64
	calls := 0
	_, err := Decode(b, model.DecodeOptions{Progress: func(done, all int64) { calls++; last, total = done, all }})
	if err != nil || calls == 0 || total != int64(len(b)) || last > total {
		t.Errorf("progress: %d calls, %d/%d, %v", calls, last, total, err)
	}
}
