package fzgx

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/japanese"

	"rewind/model"
)

func TestRegions(t *testing.T) {
	sjis, _ := japanese.ShiftJIS.NewEncoder().Bytes([]byte("リプレイ"))
	tests := []struct {
		region  byte
		version string
		comment []byte
		want    string
	}{
		{'E', "GFZE (North America)", []byte("Replay 1'23\"456"), "Replay 1'23\"456"},
		{'J', "GFZJ (Japan)", sjis, "リプレイ"},
		{'P', "GFZP (Europe)", []byte("Wiederholung \xfc"), "Wiederholung ü"},
	}
	for _, tc := range tests {
		t.Run(string(tc.region), func(t *testing.T) {
			// 2015-05-20 05:38:02 on the console clock: 485415482 s after 2000.
			data := wrapGCI(gciOpts{region: tc.region, modTime: 485415482, comment: [2][]byte{[]byte("F-ZERO GX"), tc.comment}}, minimalTA().stream())
			r := decode(t, data, model.DecodeOptions{})
			if r.Version != tc.version {
				t.Errorf("Version %q, want %q", r.Version, tc.version)
			}
			if got := field(t, r.Header, "commentText").Value; got != tc.want {
				t.Errorf("comment %q, want %q", got, tc.want)
			}
			if got := field(t, r.Header, "commentTitle").Value; got != "F-ZERO GX" {
				t.Errorf("comment title %q", got)
			}
			if want := time.Date(2015, 5, 20, 5, 38, 2, 0, time.UTC); !r.Start.Equal(want) {
				t.Errorf("Start %v, want %v", r.Start, want)
			}
			if got := field(t, r.Header, "makerCode").Value; got != "8P" {
				t.Errorf("maker %q", got)
			}
			if got := field(t, r.Header, "blockCount").Value; got != int64(2) {
				t.Errorf("block count %v, want 2", got)
			}
			if got := field(t, r.Header, "fileName").Value; got != "fzr0000TEST.dat" {
				t.Errorf("file name %q", got)
			}
			if len(r.Diagnostics) != 0 {
				t.Errorf("diagnostics on a clean replay: %v", r.Diagnostics)
			}
		})
	}
}

func TestMinimalTimeAttack(t *testing.T) {
	e := minimalTA()
	r := decode(t, wrapGCI(gciOpts{}, e.stream()), model.DecodeOptions{})
	if r.Mode != "Time Attack" || r.Title != "Mute City: Twist Road" || r.Result != "finished 0:03.633" {
		t.Errorf("mode %q title %q result %q", r.Mode, r.Title, r.Result)
	}
	if r.Timeline.Count != 400 || r.Timeline.Label(0) != "-0:03.033" || r.Timeline.Label(182) != "0:00.000" {
		t.Errorf("count %d labels %q %q", r.Timeline.Count, r.Timeline.Label(0), r.Timeline.Label(182))
	}
	// frame 250: second run, boost, steer (-0.5, ~0.08), checkpoint 2 passed
	st := r.PlayerState(250, 0)
	if b := field(t, st.Fields, "replayElementButtons"); b.Name != "Boost" {
		t.Errorf("buttons %q", b.Name)
	}
	if x := field(t, st.Fields, "replayElementSteerX").Value; x != int64(-64) {
		t.Errorf("steer x %v", x)
	}
	if cp := field(t, st.Fields, "checkpointsPassed").Value; cp != int64(2) {
		t.Errorf("checkpoints passed %v", cp)
	}
	st = r.PlayerState(399, 0)
	if b := field(t, st.Fields, "replayElementButtons"); b.Name != "L+R" {
		t.Errorf("buttons %q", b.Name)
	}
	if s := field(t, st.Fields, "replayElementStrafe").Value; s != int64(-20) {
		t.Errorf("strafe %v", s)
	}
	if y := field(t, st.Fields, "replayElementSteerY").Value; y != int64(-128) {
		t.Errorf("steer y %v", y)
	}
	// stick scene point at the stick; checkpoint scene with 4 + passed
	sc := r.SceneAt(399)
	if len(sc) != 2 || len(sc[0].Points) != 1 || sc[0].Points[0].X != 127.0/128 || sc[0].Points[0].Y != -1 {
		t.Fatalf("scenes %+v", sc)
	}
	if len(sc[1].Points) != 5 || sc[1].Points[4].Label != "passed CP4" {
		t.Errorf("checkpoint scene %+v", sc[1].Points)
	}
	if len(r.Charts) != 2 || r.Charts[0].Series[0].Values[0] != 100 || r.Charts[1].Series[0].Values[399] != 100 {
		t.Errorf("charts %+v", r.Charts)
	}
	// events: inputs at their run starts, each with the bytes of its 54 bits
	var inputs []model.Event
	for i, ev := range r.Events {
		if r.EventKind(i) == "input" {
			inputs = append(inputs, ev)
			if r.EventSummary(i) == "" || len(r.EventFields(i)) != 7 {
				t.Errorf("input event %d: summary %q fields %d", i, r.EventSummary(i), len(r.EventFields(i)))
			}
		}
	}
	if len(inputs) != 3 || inputs[1].Frame != 200 || inputs[2].Frame != 300 || inputs[0].Len < 7 || inputs[0].Len > 8 {
		t.Errorf("input events %+v", inputs)
	}
}

func TestCustomMachineWithEmblems(t *testing.T) {
	px := make([]byte, 8192)
	for i := range px {
		px[i] = byte(i*31 + 7)
	}
	for _, original := range []bool{true, false} {
		e := minimalTA()
		c := &encCustom{machine: 50, colorRel: 1, nEmb: 2, slider: 70,
			pilot: 6 << 24, body: 3 << 24, bodyColor: 0xFF800001, cockpit: 30 << 24, cockpitColor: 0x00FF0001, booster: 74 << 24, boosterColor: 0x0000FF01}
		c.unk18 = [5]byte{0xC0}
		c.unk22 = [7]byte{3, 0, 'A', 'V', ' ', ' ', ' '}
		if !original {
			c.machine, c.unk18[0], c.unk22[0] = 6, 0x80, 1
			c.body, c.cockpit, c.booster = 0, 0, 0
		}
		for k := range c.emblems {
			c.emblems[k] = encEmblem{base1: 1.5, base2: -2.25}
		}
		c.emblems[0] = encEmblem{part: 1, rotV: 0x3FFF, rotH: 0x400E, base1: 1.5, base2: -2.25, unk36: 5, sizeH: 0.35, sizeV: 0.05, pixels: px}
		c.emblems[2] = encEmblem{part: 2, rotV: 0x0800, sizeH: 0.2, sizeV: 0.2, pixels: px[:8192:8192]}
		e.racers[0] = encRacer{human: true, machine: c.machine, slider: 100, color: 2, custom: c}
		data := wrapGCI(gciOpts{region: 'P'}, e.stream())
		r := decode(t, data, model.DecodeOptions{})
		if r.Problems() != 0 {
			t.Errorf("problems: %v", r.Diagnostics)
		}
		cm := field(t, r.Header, "customMachineData")
		if cm.Value != int64(2) || field(t, cm.Fields, "accelMaxspeedSlider2").Value != int64(70) {
			t.Errorf("custom machine data %v", cm)
		}
		ems := field(t, cm.Fields, "emblemArray").Fields
		if len(ems) != 4 {
			t.Fatalf("%d emblem slots", len(ems))
		}
		if got := field(t, ems[0].Fields, "emblemPixelData").Value.([]byte); !bytes.Equal(got, px) {
			t.Error("emblem 1 pixels differ")
		}
		if got := field(t, ems[0].Fields, "emblemPart"); got.Name != "Cockpit" {
			t.Errorf("emblem part %v", got)
		}
		if got := field(t, ems[0].Fields, "emblemSize1").Value; got != float64(float32(0.35)) {
			t.Errorf("emblem size %v", got)
		}
		if got := field(t, ems[0].Fields, "emblemHorizontalRotation").Value; got != uint64(0x400E) {
			t.Errorf("rotation %v", got)
		}
		if got := field(t, ems[1].Fields, "emblemBasePosition2").Value; got != -2.25 {
			t.Errorf("empty slot base position %v", got)
		}
		if sp := field(t, ems[0].Fields, "emblemPixelData").Span; sp.Len < 8192 || sp.Len > 8193 {
			t.Errorf("pixel span %v", sp)
		}
		if got := field(t, cm.Fields, "customBoosterColor").Name; got != "RGB #0000ff" {
			t.Errorf("booster color %q", got)
		}
		want := "Custom: Megalo Cruiser / Heat Snake / Triple -Z"
		if !original {
			want = "Blue Falcon (custom)"
		}
		if r.Players[0].Character != want {
			t.Errorf("character %q, want %q", r.Players[0].Character, want)
		}
		// the stream after the custom data still lines up
		if r.Timeline.Count != 400 || len(r.Events) != 3+1+4+1 {
			t.Errorf("count %d events %d", r.Timeline.Count, len(r.Events))
		}
		// header-only skips the pixels but gets the summary
		h := decode(t, data, model.DecodeOptions{HeaderOnly: true})
		if !h.Partial || h.Title != r.Title || h.Result != r.Result || h.Timeline.Count != r.Timeline.Count || h.Players[0].Character != want {
			t.Errorf("header only: partial %v title %q result %q count %d", h.Partial, h.Title, h.Result, h.Timeline.Count)
		}
	}
}

func TestGrandPrix30Racers(t *testing.T) {
	e := minimalTA()
	e.mode, e.difficulty, e.course = 1, 3, 16
	e.racers = nil
	for i := 0; i < 30; i++ {
		rc := encRacer{machine: i % 41, ai: (i + 1) % 30, slider: 50}
		if i == 7 {
			rc = encRacer{human: true, machine: 40, ai: 8, slider: 20, color: 1}
		}
		e.racers = append(e.racers, rc)
	}
	r := decode(t, wrapGCI(gciOpts{region: 'J'}, e.stream()), model.DecodeOptions{})
	if r.Problems() != 0 {
		t.Errorf("problems: %v", r.Diagnostics)
	}
	if r.Mode != "Grand Prix (Master)" || r.Title != "Casino Palace: Split Oval" || len(r.Players) != 30 {
		t.Fatalf("mode %q title %q players %d", r.Mode, r.Title, len(r.Players))
	}
	if p := r.Players[7]; p.Name != "Phoenix" || p.Character != "Rainbow Phoenix" || p.Result == "" || field(t, p.Fields, "isHuman").Name != "Human" {
		t.Errorf("human %+v", p)
	}
	if p := r.Players[3]; p.Name != "Baba" || p.Character != "Iron Tiger" || field(t, p.Fields, "isHuman").Name != "CPU" {
		t.Errorf("cpu %+v", p)
	}
	if st := r.PlayerState(250, 7); field(t, st.Fields, "replayElementAccel").Value != int64(100) {
		t.Errorf("human state %+v", st)
	}
	if st := r.PlayerState(250, 2); !st.Present || len(st.Fields) != 0 {
		t.Errorf("cpu state %+v", st)
	}
	for i, ev := range r.Events {
		if r.EventKind(i) == "input" && ev.Player != 7 {
			t.Fatalf("input event for player %d", ev.Player)
		}
	}
	if hasDiag(r, model.Info, "GP difficulty") {
		t.Error("GP difficulty info in a Grand Prix")
	}
}

func TestRacerArrayTypes(t *testing.T) {
	for _, typ := range []int{0, 1, 2, 3, 4, 5, 6} {
		e := minimalTA()
		e.racerType = typ
		e.racers[0].ai, e.racers[0].slider, e.racers[0].unk16 = 3, 77, 99
		r := decode(t, wrapGCI(gciOpts{}, e.stream()), model.DecodeOptions{})
		_, hasAI := model.Find(r.Header, "aiRelated")
		_, hasSlider := model.Find(r.Header, "accelMaxspeedSlider")
		_, hasUnk16 := model.Find(r.Header, "unknown16")
		_, hasTotal := model.Find(r.Header, "totalFrames")
		if hasAI != (typ >= 4) || hasSlider != (typ >= 3) || hasUnk16 != (typ <= 1) || hasTotal != (typ >= 5) {
			t.Errorf("type %d: ai %v slider %v unk16 %v total %v", typ, hasAI, hasSlider, hasUnk16, hasTotal)
		}
		// without the total the timeline is what the inputs cover: also 400
		if r.Timeline.Count != 400 || r.Partial || r.Problems() != 0 {
			t.Errorf("type %d: count %d partial %v diags %v", typ, r.Timeline.Count, r.Partial, r.Diagnostics)
		}
		if (typ != 5) != hasDiag(r, model.Info, "Racer Array type") {
			t.Errorf("type %d: racer array type info %v", typ, r.Diagnostics)
		}
	}
}

func TestConsistencyDiagnostics(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(e *encReplay)
		sev     model.Severity
		subject string
		message string
	}{
		{"inputs short of total", func(e *encReplay) { e.inputs[0].frames = 150 }, model.Warning, "replay input array", "do not add up"},
		{"checkpoints backwards", func(e *encReplay) { e.checkpoints[2].f1 = 200 }, model.Warning, "checkpoint 3", "backwards"},
		{"first checkpoint not at the start", func(e *encReplay) { e.checkpoints[0].f1 = 100 }, model.Warning, "checkpoint 1", "race start"},
		{"frame 2 before frame 1", func(e *encReplay) { e.checkpoints[1].f2 = 10 }, model.Info, "checkpoint 2", "disables"},
		{"checkpoint after the end", func(e *encReplay) { e.checkpoints[3].f1 = 401 }, model.Info, "checkpoint 4", "never checked"},
		{"three checkpoints", func(e *encReplay) { e.checkpoints = e.checkpoints[:3] }, model.Warning, "Checkpoint Array element count", "4 checkpoints"},
		{"five laps", func(e *encReplay) { e.laps = 5 }, model.Warning, "Lap count", "3 laps"},
		{"TA difficulty 0", func(e *encReplay) { e.difficulty = 0 }, model.Info, "GP difficulty", "spec says"},
		{"unknown course", func(e *encReplay) { e.course = 2 }, model.Warning, "Course ID", "not in the course table"},
		{"unknown machine", func(e *encReplay) { e.racers[0].machine = 45 }, model.Warning, "machine ID", "not in the machine table"},
		{"two racers in TA", func(e *encReplay) { e.racers = append(e.racers, encRacer{machine: 1}) }, model.Warning, "Racer Array element count", "one racer"},
		{"mode 3", func(e *encReplay) { e.mode = 3 }, model.Warning, "Game mode", "neither"},
		{"no human", func(e *encReplay) { e.racers[0].human = false }, model.Warning, "Racer Array", "one human"},
		{"custom machine id differs", func(e *encReplay) { e.racers[0].custom = &encCustom{machine: 7} }, model.Warning, "custom machine ID", "repeats"},
		{"five emblems", func(e *encReplay) { e.racers[0].custom = &encCustom{machine: 6, nEmb: 5} }, model.Warning, "emblem count", "more emblems"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := minimalTA()
			tc.edit(e)
			r := decode(t, wrapGCI(gciOpts{}, e.stream()), model.DecodeOptions{})
			for _, d := range r.Diagnostics {
				if d.Severity == tc.sev && strings.Contains(d.Subject, tc.subject) && strings.Contains(d.Message, tc.message) {
					if d.Span.Off < 0x20A0 || d.Span.Len == 0 {
						t.Errorf("diagnostic without the field's span: %v", d)
					}
					return
				}
			}
			t.Errorf("no %v %q diagnostic %q in %v", tc.sev, tc.subject, tc.message, r.Diagnostics)
		})
	}
}

func TestProgress(t *testing.T) {
	data := wrapGCI(gciOpts{}, minimalTA().stream())
	var done, total int64
	decode(t, data, model.DecodeOptions{Progress: func(d, n int64) { done, total = d, n }})
	if total != int64(len(data)) || done <= 0x20A0 || done > total {
		t.Errorf("progress %d of %d", done, total)
	}
}

func TestContainerDiagnostics(t *testing.T) {
	body := minimalTA().stream()
	// trailing garbage where the spec has zeros
	data := wrapGCI(gciOpts{}, append(append([]byte{}, body...), 0, 0, 0x5A))
	r := decode(t, data, model.DecodeOptions{})
	if !hasDiag(r, model.Info, "padding") {
		t.Errorf("no padding info: %v", r.Diagnostics)
	}
	// Japanese replays are reported with 05 03: decoded, with an info
	data = wrapGCI(gciOpts{region: 'J', fileType: [2]byte{0x05, 0x03}}, body)
	r = decode(t, data, model.DecodeOptions{})
	if !hasDiag(r, model.Info, "file type") || r.Timeline.Count != 400 {
		t.Errorf("05 03: %v", r.Diagnostics)
	}
	// a size that is not the block count
	data = wrapGCI(gciOpts{}, body)
	r = decode(t, append(data, 0), model.DecodeOptions{})
	if !hasDiag(r, model.Warning, "block count") {
		t.Errorf("no block count warning: %v", r.Diagnostics)
	}
}
