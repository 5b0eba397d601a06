package bsor

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"rewind/decoders/internal/budget"
	"rewind/model"
)

// Frame time marks: frames whose recorded time cannot be used as is keep the
// previous frame's time on the timeline.
const (
	ftOK uint8 = iota
	ftZero
	ftRepeat
	ftBack
)

var frameFlagNames = [...]string{"", "time 0", "repeated time", "time goes back"}

// frameMark is the event flag of a frame time mark; the marks are named
// by frameFlagNames[1:], the replay's Marks.
func frameMark(ft uint8) model.Flags { return model.Mark(int(ft) - 1) }

// frameMarkName names the frame time mark among an event's flags.
func frameMarkName(f model.Flags) string {
	for ft := ftZero; ft <= ftBack; ft++ {
		if f&frameMark(ft) != 0 {
			return frameFlagNames[ft]
		}
	}
	return ""
}

// Event kinds: indices into kindNames, the replay's Kinds. The first four
// are a note event's type.
const (
	kGood model.KindID = iota
	kBad
	kMiss
	kBomb
	kWall
	kHeight
	kPause
	kFrame
	kNote // a note event cut off before its type
)

var kindNames = []string{kGood: "good", kBad: "bad", kMiss: "miss", kBomb: "bomb", kWall: "wall", kHeight: "height",
	kPause: "pause", kFrame: "frame", kNote: "note"}

// view is what the model's closures read: the decoded file plus the
// precomputed per-frame arrays.
type view struct {
	d       *replay
	times   []float32 // non-decreasing song time per frame
	flags   []uint8
	sc      *scoring
	upTo    []int32 // upTo[f]: scoring events placed at frames <= f
	noteFrm []int32 // frame of each note
	wallFrm []int32 // frame of each wall event
}

// byFrame orders events by frame, keeping file order within a frame, with
// a counting sort: model.Finish's stable sort then finds them in order and
// moves nothing, which matters with tens of thousands of events.
func byFrame(evs []model.Event, frames int) []model.Event {
	if frames <= 0 {
		return evs
	}
	start := make([]int, frames+1)
	for i := range evs {
		start[evs[i].Frame+1]++
	}
	for f := 1; f <= frames; f++ {
		start[f] += start[f-1]
	}
	out := make([]model.Event, len(evs))
	for i := range evs {
		f := evs[i].Frame
		out[start[f]] = evs[i]
		start[f]++
	}
	return out
}

func (d *replay) build(opt model.DecodeOptions) *model.Replay {
	in := &d.info
	r := &model.Replay{Format: ID, FormatName: "BSOR", Version: in.Version}
	if ts, ok := findTime(in.fields); ok {
		r.Start = ts
	}
	if in.SongName != "" || in.Mapper != "" {
		r.Title = in.SongName
		if in.Mapper != "" {
			r.Title += " — " + in.Mapper
		}
		if in.Difficulty != "" {
			r.Title += " (" + in.Difficulty + ")"
		}
	}
	r.Mode = strings.TrimSpace(in.Mode + " " + strings.Join(modifierList(in.Modifiers), ","))

	if !opt.HeaderOnly {
		d.payBuild()
	}
	v := &view{d: d}
	v.timeline(r)
	if len(v.times) > 0 {
		r.Duration = secs(v.times[len(v.times)-1])
	} else if d.peekLast > 0 {
		r.Duration = secs(d.peekLast)
	}
	switch {
	case d.truncated && !d.over && !opt.HeaderOnly:
		r.Result = "in progress"
	case in.FailTime > 0:
		r.Result = "failed at " + shortTime(in.FailTime)
		r.Duration = secs(in.FailTime)
	case in.complete:
		r.Result = "cleared"
	}
	r.Partial = d.truncated || d.over || opt.HeaderOnly

	r.Players = []model.Player{v.player()}
	if opt.HeaderOnly {
		r.Header = v.header(nil)
		r.Diagnostics = d.diags
		r.Finish()
		return r
	}

	v.sc = computeScore(d.notes, d.walls)
	v.events(r, !opt.NoEvents)
	v.frameDiag()
	r.Header = v.header(v.sc)
	r.State = v.state
	r.FrameRows = v.frameRows(r) // typed rows for rewind export (rows.go)
	r.Detail = v.detail
	r.Summarize = v.summary
	r.Scenes = v.scenes()
	r.Charts = v.charts()
	r.Analyze = v.analyze
	if d.truncated && !d.over {
		d.diag(model.Info, int64(len(d.data)), "file", "the file stops before the end of section 5; shown as a replay still being recorded (.bsortemp) or cut short", "", "")
	}
	r.Diagnostics = d.diags
	r.Finish()
	return r
}

// payBuild pays for what the replay is built from the records with: two
// event records each (the events and their frame-ordered copy), the running
// score, and per frame its time, flag, score index, sort count and the
// timeline's index, plus an event for a frame whose time is odd. On refusal
// the records are dropped: the replay keeps its header and player.
func (d *replay) payBuild() {
	ev := 2 * budget.SizeOf[model.Event]()
	score := budget.SizeOf[scoreEvent]()
	claims := []struct {
		what  string
		n     int
		each  int64
		where model.Span
	}{
		{"frames", len(d.frames), 4 + 1 + 4 + 8 + 8 + ev, d.framesSpan},
		{"note events", len(d.notes), ev + 4 + budget.SizeOf[cutScore]() + 1 + budget.SizeOf[noteParams]() + score, d.notesSpan},
		{"wall events", len(d.walls), ev + 4 + score, d.wallsSpan},
		{"height changes", len(d.heights), ev, d.heightsSpan},
		{"pauses", len(d.pauses), ev, d.pausesSpan},
	}
	for _, c := range claims {
		if !d.paid(d.b.Items(c.what, int64(c.n), c.each), int(c.where.Off)) {
			d.frames, d.notes, d.walls, d.heights, d.pauses = nil, nil, nil, nil, nil
			return
		}
	}
}

func findTime(fs []model.Field) (time.Time, bool) {
	if f, ok := model.Find(fs, "timestamp"); ok {
		if t, ok := f.Value.(time.Time); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// shortTime is m:ss for a song time.
func shortTime(t float32) string {
	d := secs(t)
	s := int64(d / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// timeline makes one frame per recorded frame, timed by song time held
// non-decreasing.
func (v *view) timeline(r *model.Replay) {
	fr := v.d.frames
	v.times = make([]float32, len(fr))
	v.flags = make([]uint8, len(fr))
	var prev float32
	for i := range fr {
		t := fr[i].Time
		switch {
		case i == 0:
			// the first frame sets the start; only an unusable value is replaced
			if t != t || math.IsInf(float64(t), 0) {
				v.flags[i] = ftBack
				t = 0
			}
		case t == 0 && prev != 0:
			v.flags[i] = ftZero
			t = prev
		case t == prev:
			v.flags[i] = ftRepeat
		case t < prev || t != t:
			v.flags[i] = ftBack
			t = prev
		}
		v.times[i] = t
		prev = t
	}
	rate := medianFPS(len(fr), func(i int) int32 { return fr[i].FPS })
	if rate == 0 && len(fr) > 1 && v.times[len(fr)-1] > v.times[0] {
		rate = float64(len(fr)-1) / float64(v.times[len(fr)-1]-v.times[0])
	}
	count := len(fr)
	if count == 0 && v.d.peekCount > 0 {
		// a header-only read: the count and rate without the frames
		count, rate = v.d.peekCount, v.d.peekRate
	} else if count == 0 && (len(v.d.notes)+len(v.d.walls)+len(v.d.heights)+len(v.d.pauses)) > 0 {
		// no frames, but events: one frame at 0 to hang them on
		count = 1
		v.times = []float32{0}
		v.flags = []uint8{0}
	}
	times := v.times
	r.Timeline = model.Timeline{
		// A frame is one headset sample, labelled by its song time.
		Count: count, First: 0, Rate: rate, Unit: "sample",
		LabelOf: func(i int) string {
			if i < 0 || i >= len(times) {
				return ""
			}
			return model.FormatDuration(secs(times[i]))
		},
		TimeOf: func(i int) time.Duration {
			if i < 0 || len(times) == 0 {
				return 0
			}
			if i >= len(times) {
				i = len(times) - 1
			}
			return secs(times[i])
		},
	}
}

// frameAt is the first frame whose time reaches t, or the last frame.
func (v *view) frameAt(t float32) int {
	n := len(v.times)
	if n == 0 {
		return 0
	}
	i := sort.Search(n, func(i int) bool { return v.times[i] >= t })
	if i >= n {
		i = n - 1
	}
	return i
}

func (v *view) frameDiag() {
	var counts [4]int
	first := [4]int{-1, -1, -1, -1}
	for i, f := range v.flags {
		if f != ftOK {
			counts[f]++
			if first[f] < 0 {
				first[f] = i
			}
		}
	}
	for k := ftZero; k <= ftBack; k++ {
		if counts[k] == 0 {
			continue
		}
		sev := model.Info
		if k == ftBack {
			sev = model.Warning
		}
		off := v.d.framesSpan.Off + 5 + int64(first[k])*frameSize
		v.d.diags = append(v.d.diags, model.Diagnostic{Severity: sev, Source: source, Span: model.Span{Off: off, Len: 4},
			Frame: first[k], Subject: "frames",
			Message: fmt.Sprintf("%d frames with %s (first at frame %d); kept, timed at the frame before and flagged", counts[k], frameFlagNames[k], first[k])})
	}
}

func (v *view) player() model.Player {
	in := &v.d.info
	// The platform's player id (a Steam or Oculus number, what BeatLeader
	// knows the player by) is the code, as a toon handle or a connect code
	// is elsewhere, so `code:` finds a player's replays. Beat Saber has no
	// characters; the headset and controllers are in the fields.
	p := model.Player{Slot: "P1", Name: in.PlayerName, Code: in.PlayerID}
	for _, k := range []string{"playerID", "playerName", "platform", "trackingSytem", "hmd", "controller", "leftHanded", "height"} {
		if f, ok := model.Find(in.fields, k); ok {
			if k == "controller" {
				if short := shortController(in.Controller); short != in.Controller {
					f.Name = short
				}
			}
			p.Fields = append(p.Fields, f)
		}
	}
	if v.d.info.FailTime > 0 {
		p.Result = "failed"
	} else if v.d.info.complete && !v.d.truncated {
		p.Result = "cleared"
	}
	return p
}

// shortController drops the wrapper OpenVR puts around a controller's
// name: "OpenVR Controller(Knuckles Right) - Right" is "Knuckles Right".
func shortController(s string) string {
	t := strings.TrimPrefix(s, "OpenVR Controller(")
	if t == s {
		return s
	}
	for _, suf := range []string{") - Right", ") - Left", ")"} {
		if strings.HasSuffix(t, suf) {
			return strings.TrimSuffix(t, suf)
		}
	}
	return s
}

// events places notes, walls, heights and pauses at the first frame whose
// time reaches theirs, and builds the per-frame index into the running
// score. Without keep (DecodeOptions.NoEvents) it makes no event records.
func (v *view) events(r *model.Replay, keep bool) {
	d := v.d
	var evs []model.Event
	if keep {
		evs = make([]model.Event, 0, len(d.notes)+len(d.walls)+len(d.heights)+len(d.pauses)+64)
	}
	v.noteFrm = make([]int32, len(d.notes))
	late := 0
	var lastT float32
	if len(v.times) > 0 {
		lastT = v.times[len(v.times)-1]
	}
	for i := range d.notes {
		n := &d.notes[i]
		f := v.frameAt(n.EventTime)
		if n.EventTime > lastT {
			late++
		}
		v.noteFrm[i] = int32(f)
		l := int64(noteHead)
		if n.HasCut {
			l += cutSize
		}
		if !keep {
			continue
		}
		var fl model.Flags
		if n.EventType != 0 {
			fl = model.Notable
		}
		evs = append(evs, model.Event{Frame: int32(f), Player: 0, Kind: model.KindID(n.EventType & 3), Off: n.Off, Len: l, Flags: fl, Ref: int32(i)})
	}
	if keep {
		for i := range d.walls {
			w := &d.walls[i]
			evs = append(evs, model.Event{Frame: int32(v.frameAt(w.Time)), Player: 0, Kind: kWall, Off: w.Off, Len: wallSize, Flags: model.Notable, Ref: int32(i)})
		}
		for i := range d.heights {
			h := &d.heights[i]
			evs = append(evs, model.Event{Frame: int32(v.frameAt(h.Time)), Player: 0, Kind: kHeight, Off: h.Off, Len: heightSize, Ref: int32(i)})
		}
		for i := range d.pauses {
			p := &d.pauses[i]
			evs = append(evs, model.Event{Frame: int32(v.frameAt(p.Time)), Player: 0, Kind: kPause, Off: p.Off, Len: pauseSize, Flags: model.Notable, Ref: int32(i)})
		}
		for i, fl := range v.flags {
			if fl != ftOK && i < len(d.frames) {
				evs = append(evs, model.Event{Frame: int32(i), Player: -1, Kind: kFrame, Flags: frameMark(fl),
					Off: v.d.framesSpan.Off + 5 + int64(i)*frameSize, Len: frameSize, Ref: int32(i)})
			}
		}
	}
	// The error that says where a section ends belongs to the frame the
	// cut record is shown at (e goes there); so does the end of the frames
	// section even when it fell between two records.
	if c := d.cut; c.diag > 0 && len(v.times) > 0 && (c.have > 0 || c.section == 1) {
		d.diags[c.diag-1].Frame = len(v.times) - 1
	}
	if c := d.cut; keep && c.have > 0 && len(v.times) > 0 {
		// the record the end of the file cut through, at the last frame
		// (a file with no frame has no timeline to place it on)
		kind := [...]model.KindID{1: kFrame, 2: kNote, 3: kWall, 4: kHeight, 5: kPause}[c.section]
		if c.section == 2 && c.have >= noteHead {
			kind = model.KindID(le32(d.data[c.off+12:]) & 3)
		}
		player := 0
		if c.section == 1 {
			player = -1
		}
		evs = append(evs, model.Event{Frame: int32(len(v.times) - 1), Player: int16(player), Kind: kind, Flags: model.Partial,
			Off: c.off, Len: int64(c.have), Ref: -1})
	}
	if late > 0 && len(d.frames) > 0 {
		d.diags = append(d.diags, model.Diagnostic{Severity: model.Info, Source: source, Span: d.notesSpan, Frame: len(v.times) - 1,
			Subject: "notes", Message: fmt.Sprintf("%d note events come after the last frame (%s); placed at the last frame", late, model.FormatDuration(secs(lastT)))})
	}
	if keep {
		r.Events = byFrame(evs, len(v.times))
	}
	r.Kinds, r.Marks = kindNames, frameFlagNames[1:]
	v.wallFrm = make([]int32, len(d.walls))
	for i := range d.walls {
		v.wallFrm[i] = int32(v.frameAt(d.walls[i].Time))
	}

	// upTo[f] counts the scoring events at frames <= f; events are sorted by
	// time and frames grow with time, so one pass fills it.
	v.upTo = make([]int32, len(v.times))
	k := 0
	for f := range v.upTo {
		for k < len(v.sc.events) && v.scoreFrame(&v.sc.events[k]) <= f {
			k++
		}
		v.upTo[f] = int32(k)
	}
}

func (v *view) scoreFrame(e *scoreEvent) int {
	if e.kind == evWall {
		return int(v.wallFrm[e.index])
	}
	return int(v.noteFrm[e.index])
}

// at is the running score after the events up to frame f.
func (v *view) at(f int) scoreEvent {
	if f < 0 || f >= len(v.upTo) || v.upTo[f] == 0 {
		return scoreEvent{mult: 1, energy: 0.5}
	}
	return v.sc.events[v.upTo[f]-1]
}

// accuracy is score over the best score possible so far; before any note
// counts it is 1, as BeatLeader's accuracy graph starts.
func accuracy(e scoreEvent) float64 {
	if e.maxScore <= 0 {
		return 1
	}
	return float64(e.score) / float64(e.maxScore)
}

func pctName(a float64) string { return fmt.Sprintf("%.2f%%", a*100) }

func poseFields(key, label string, p pose, span model.Span) model.Field {
	return model.Field{Key: key, Label: label, Span: span, Fields: []model.Field{
		{Key: "x", Label: "x", Value: f64(p.Pos.X)}, {Key: "y", Label: "y", Value: f64(p.Pos.Y)}, {Key: "z", Label: "z", Value: f64(p.Pos.Z)},
		{Key: "rotX", Label: "rotation x", Value: f64(p.Rot.X)}, {Key: "rotY", Label: "rotation y", Value: f64(p.Rot.Y)},
		{Key: "rotZ", Label: "rotation z", Value: f64(p.Rot.Z)}, {Key: "rotW", Label: "rotation w", Value: f64(p.Rot.W)},
	}}
}

func (v *view) state(f, p int) model.PlayerState {
	if p != 0 || f < 0 || f >= len(v.times) {
		return model.PlayerState{}
	}
	e := v.at(f)
	acc := accuracy(e)
	brief := []model.Field{
		{Key: "score", Label: "score", Value: int64(e.score)},
		{Key: "combo", Label: "combo", Value: int64(e.combo)},
		{Key: "multiplier", Label: "multiplier", Value: int64(e.mult), Name: fmt.Sprintf("x%d", e.mult)},
		{Key: "accuracy", Label: "accuracy", Value: acc, Name: pctName(acc)},
		{Key: "misses", Label: "misses", Value: int64(e.misses + e.badCuts + e.bombs + e.wallHits)},
	}
	fields := []model.Field{
		{Key: "time", Label: "song time", Value: secs(v.times[f])},
	}
	if f < len(v.d.frames) {
		fr := &v.d.frames[f]
		base := v.d.framesSpan.Off + 5 + int64(f)*frameSize
		fields[0].Span = model.Span{Off: base, Len: 4}
		if v.flags[f] != ftOK {
			fields = append(fields, model.Field{Key: "timeFlag", Label: "time flag", Value: f64(fr.Time), Name: frameFlagNames[v.flags[f]], Span: model.Span{Off: base, Len: 4}})
		}
		fields = append(fields,
			model.Field{Key: "fps", Label: "fps", Value: int64(fr.FPS), Span: model.Span{Off: base + 4, Len: 4}},
			poseFields("head", "head", fr.Head, model.Span{Off: base + 8, Len: poseSize}),
			poseFields("leftHand", "left hand", fr.Left, model.Span{Off: base + 8 + poseSize, Len: poseSize}),
			poseFields("rightHand", "right hand", fr.Right, model.Span{Off: base + 8 + 2*poseSize, Len: poseSize}))
	}
	fields = append(fields, brief...)
	fields = append(fields,
		model.Field{Key: "maxScore", Label: "max score so far", Value: int64(e.maxScore)},
		model.Field{Key: "maxCombo", Label: "max combo", Value: int64(e.maxCombo)},
		model.Field{Key: "missedNotes", Label: "missed notes", Value: int64(e.misses)},
		model.Field{Key: "badCuts", Label: "bad cuts", Value: int64(e.badCuts)},
		model.Field{Key: "bombHits", Label: "bombs hit", Value: int64(e.bombs)},
		model.Field{Key: "wallHits", Label: "walls hit", Value: int64(e.wallHits)},
		model.Field{Key: "energy", Label: "energy", Value: f64(e.energy)},
	)
	return model.PlayerState{Present: true, Brief: brief, Fields: fields}
}

// bounds is a box around every position of the head and hands, for the
// stage view.
func (v *view) scenes() func(int) []model.Scene {
	fr := v.d.frames
	if len(fr) == 0 {
		return nil
	}
	minX, maxX := -1.0, 1.0
	minZ, maxZ := -1.0, 1.0
	minY, maxY := 0.0, 2.0
	grow := func(p vec3) {
		x, y, z := float64(p.X), float64(p.Y), float64(p.Z)
		// ignore wild values a corrupt frame could hold
		if math.Abs(x) > 5 || math.Abs(y) > 5 || math.Abs(z) > 5 {
			return
		}
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
		minZ, maxZ = math.Min(minZ, z), math.Max(maxZ, z)
	}
	for i := 0; i < len(fr); i += 1 + len(fr)/2000 {
		grow(fr[i].Head.Pos)
		grow(fr[i].Left.Pos)
		grow(fr[i].Right.Pos)
	}
	top := model.Rect{MinX: minX - 0.2, MinY: minZ - 0.2, MaxX: maxX + 0.2, MaxY: maxZ + 0.2}
	side := model.Rect{MinX: minZ - 0.2, MinY: minY - 0.1, MaxX: maxZ + 0.2, MaxY: maxY + 0.2}
	// the platform is about 2 m wide and 2 m deep around the origin
	platform := []model.Line{{X1: -1, Y1: -1, X2: 1, Y2: -1}, {X1: 1, Y1: -1, X2: 1, Y2: 1}, {X1: 1, Y1: 1, X2: -1, Y2: 1}, {X1: -1, Y1: 1, X2: -1, Y2: -1}}
	floor := []model.Line{{X1: side.MinX, Y1: 0, X2: side.MaxX, Y2: 0}}
	return func(f int) []model.Scene {
		if f < 0 || f >= len(fr) {
			return nil
		}
		x := &fr[f]
		pts := func(a, b func(vec3) float64) []model.Point {
			return []model.Point{
				{X: a(x.Head.Pos), Y: b(x.Head.Pos), Player: 0, Kind: "head", Label: "H"},
				{X: a(x.Left.Pos), Y: b(x.Left.Pos), Player: 0, Kind: "hand", Label: "L"},
				{X: a(x.Right.Pos), Y: b(x.Right.Pos), Player: 0, Kind: "hand", Label: "R"},
			}
		}
		px := func(p vec3) float64 { return float64(p.X) }
		py := func(p vec3) float64 { return float64(p.Y) }
		pz := func(p vec3) float64 { return float64(p.Z) }
		return []model.Scene{
			{Title: "from above (x/z)", Bounds: top, Lines: platform, Points: pts(px, pz)},
			{Title: "from the side (z/y)", Bounds: side, Lines: floor, Points: pts(pz, py)},
		}
	}
}

// charts samples accuracy and energy over the timeline.
func (v *view) charts() []model.Chart {
	n := len(v.times)
	if n == 0 || len(v.sc.events) == 0 {
		return nil
	}
	m := min(n, 1024)
	acc := make([]float64, m)
	en := make([]float64, m)
	for i := range acc {
		e := v.at(i * n / m)
		acc[i] = accuracy(e) * 100
		en[i] = float64(e.energy) * 100
	}
	return []model.Chart{
		{Title: "accuracy %", Series: []model.Series{{Label: "accuracy", Player: 0, Values: acc}}},
		{Title: "energy %", Series: []model.Series{{Label: "energy", Player: 0, Values: en}}},
	}
}

// header lists the file's fields in order, with counts per section and the
// computed score next to the recorded one.
func (v *view) header(sc *scoring) []model.Field {
	d := v.d
	hs := []model.Field{
		{Key: "magic", Label: "Magic", Value: uint64(magic), Name: "BSOR", Span: model.Span{Off: 0, Len: 4}},
	}
	if len(d.data) > 4 {
		hs = append(hs, model.Field{Key: "version", Label: "File version", Value: int64(d.version), Span: model.Span{Off: 4, Len: 1}})
	}
	hs = append(hs, model.Field{Key: "info", Label: "Info", Span: d.info.span, Fields: d.info.fields})
	if d.lastSection < 0 || !d.info.complete {
		return hs
	}
	if sc == nil { // header only
		return hs
	}
	fr := model.Field{Key: "frames", Label: "Frames", Span: d.framesSpan, Fields: []model.Field{
		{Key: "framesCount", Label: "Frame count", Value: int64(len(d.frames)), Span: d.clip(d.framesSpan.Off+1, 4)},
	}}
	if len(v.times) > 0 && len(d.frames) > 0 {
		var z, rep, back int64
		for _, f := range v.flags {
			switch f {
			case ftZero:
				z++
			case ftRepeat:
				rep++
			case ftBack:
				back++
			}
		}
		fr.Fields = append(fr.Fields,
			model.Field{Key: "firstTime", Label: "First frame time", Value: secs(d.frames[0].Time)},
			model.Field{Key: "lastTime", Label: "Last frame time", Value: secs(v.times[len(v.times)-1])},
			model.Field{Key: "zeroTimeFrames", Label: "Frames with time 0", Value: z},
			model.Field{Key: "repeatedTimeFrames", Label: "Frames repeating the time before", Value: rep},
			model.Field{Key: "backwardsFrames", Label: "Frames going back in time", Value: back})
	}
	if d.framesSpan.Len > 0 {
		hs = append(hs, fr)
	}

	var kinds [4]int64
	stSeen := map[int]int{}
	for i := range d.notes {
		kinds[d.notes[i].EventType]++
		stSeen[sc.noteParams[i].Scoring]++
	}
	var sts []string
	for st := 0; st < 100; st++ {
		if c, ok := stSeen[st]; ok {
			name := fmt.Sprint(st)
			if st < len(scoringNames) {
				name = fmt.Sprintf("%d %s", st, scoringNames[st])
			}
			sts = append(sts, fmt.Sprintf("%s ×%d", name, c))
		}
	}
	if d.notesSpan.Len > 0 {
		hs = append(hs, model.Field{Key: "notes", Label: "Note events", Span: d.notesSpan, Fields: []model.Field{
			{Key: "noteCount", Label: "Note count", Value: int64(len(d.notes)), Span: d.clip(d.notesSpan.Off+1, 4)},
			{Key: "good", Label: "Good cuts", Value: kinds[0]},
			{Key: "bad", Label: "Bad cuts", Value: kinds[1]},
			{Key: "miss", Label: "Misses", Value: kinds[2]},
			{Key: "bomb", Label: "Bombs hit", Value: kinds[3]},
			{Key: "scoringTypes", Label: "Scoring types", Value: strings.Join(sts, ", ")},
		}})
	}
	if d.lastSection >= 3 || len(d.walls) > 0 {
		hs = append(hs, model.Field{Key: "walls", Label: "Wall events", Span: d.wallsSpan, Fields: []model.Field{
			{Key: "wallCount", Label: "Wall count", Value: int64(len(d.walls)), Span: d.clip(d.wallsSpan.Off+1, 4)}}})
	}
	if d.lastSection >= 4 || len(d.heights) > 0 {
		hs = append(hs, model.Field{Key: "heights", Label: "Height changes", Span: d.heightsSpan, Fields: []model.Field{
			{Key: "heightCount", Label: "Height count", Value: int64(len(d.heights)), Span: d.clip(d.heightsSpan.Off+1, 4)}}})
	}
	if d.lastSection >= 5 || len(d.pauses) > 0 {
		var total int64
		for _, p := range d.pauses {
			total += p.Duration
		}
		hs = append(hs, model.Field{Key: "pauses", Label: "Pauses", Span: d.pausesSpan, Fields: []model.Field{
			{Key: "pauseCount", Label: "Pause count", Value: int64(len(d.pauses)), Span: d.clip(d.pausesSpan.Off+1, 4)},
			{Key: "pauseSeconds", Label: "Paused seconds", Value: total}}})
	}
	if d.hasOffsets {
		o := d.offsetsSpan.Off + 1
		hs = append(hs, model.Field{Key: "controllerOffsets", Label: "Controller offsets", Span: d.offsetsSpan, Fields: []model.Field{
			poseFields("left", "Left hand", d.offsets[0], model.Span{Off: o, Len: poseSize}),
			poseFields("right", "Right hand", d.offsets[1], model.Span{Off: o + poseSize, Len: poseSize}),
		}})
	}
	if d.hasUser {
		g := model.Field{Key: "userData", Label: "User data", Span: d.userSpan, Fields: make([]model.Field, 0, len(d.user)+1)}
		if len(d.user) == 0 || !d.user[0].Fallback {
			g.Fields = append(g.Fields, model.Field{Key: "entryCount", Label: "Entries", Value: int64(len(d.user)), Span: d.clip(d.userSpan.Off+1, 4)})
		}
		for _, u := range d.user {
			key := u.Key
			if u.Fallback {
				key = "userData"
			}
			val, name := userValue(u.Value)
			e := model.Field{Key: "entry", Label: key, Value: val, Name: name, Span: model.Span{Off: u.ValSpan.Off, Len: u.ValSpan.Len}, Fields: []model.Field{
				{Key: "key", Label: "Key", Value: u.Key, Span: u.KeySpan},
				{Key: "size", Label: "Size", Value: int64(len(u.Value)), Span: model.Span{Off: u.ValSpan.Off, Len: 4}},
			}}
			if !u.Fallback {
				e.Span = model.Span{Off: u.KeySpan.Off, Len: u.ValSpan.End() - u.KeySpan.Off}
			}
			g.Fields = append(g.Fields, e)
		}
		hs = append(hs, g)
	}

	// the computed score next to the recorded one
	in := &d.info
	mods := modifierList(in.Modifiers)
	gm := gameMultiplier(mods, in.FailTime > 0)
	fin := sc.final
	hs = append(hs, model.Field{Key: "computed", Label: "Computed score", Fields: []model.Field{
		{Key: "recordedScore", Label: "Recorded score (unmodified)", Value: int64(in.Score)},
		{Key: "computedScore", Label: "Computed score", Value: int64(fin.score)},
		{Key: "difference", Label: "Computed minus recorded", Value: int64(fin.score) - int64(in.Score)},
		{Key: "maxScore", Label: "Best possible for these notes", Value: int64(fin.maxScore)},
		{Key: "accuracy", Label: "Accuracy", Value: accuracy(fin), Name: pctName(accuracy(fin))},
		{Key: "maxCombo", Label: "Max combo", Value: int64(fin.maxCombo)},
		{Key: "modifierMultiplier", Label: "Base-game modifier multiplier", Value: gm},
		{Key: "modifiedScore", Label: "Recorded score with modifiers", Value: int64(math.Floor(float64(in.Score) * gm))},
	}})
	return hs
}

// userValue shows text and JSON as a string and anything else as bytes.
func userValue(b []byte) (any, string) {
	if len(b) > 0 && utf8.Valid(b) {
		printable := true
		for _, c := range b {
			if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
				printable = false
				break
			}
		}
		if printable {
			t := strings.TrimSpace(string(b))
			if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
				return string(b), "JSON"
			}
			return string(b), ""
		}
	}
	return b, ""
}

// clip is the span of n bytes at off, cut to the end of the file: a count
// the file stops inside is shown as the bytes of it there are.
func (d *replay) clip(off, n int64) model.Span {
	end := min(off+n, int64(len(d.data)))
	return model.Span{Off: min(off, end), Len: max(end-off, 0)}
}

// medianFPS is the timeline's rate: the median of the frames' FPS values
// that are set (a few frames at odd rates, a hitch or a loading screen,
// move a mean but not it); 0 when no frame has one.
func medianFPS(n int, fps func(i int) int32) float64 {
	var hist [1024]int
	set := 0
	for i := 0; i < n; i++ {
		if f := fps(i); f > 0 {
			hist[min(int(f), len(hist)-1)]++
			set++
		}
	}
	if set == 0 {
		return 0
	}
	half, acc := (set+1)/2, 0
	for f, c := range hist {
		if acc += c; acc >= half {
			return float64(f)
		}
	}
	return 0
}
