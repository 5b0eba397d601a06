package fzgx

import (
	"fmt"
	"sort"

	"rewind/model"
)

// What happened in the race, from what a replay holds: the race time, the
// four replay checkpoints as splits, and boost, drift and side-attack use
// from the input runs.
//
// A replay holds no lap crossings. Its "Replay Checkpoints" are position
// checks the game makes to catch a desync (fzero-gx-replay-gci.txt: the
// first at frame 182, the start; the others "seem randomly placed within
// the middle of the race"), so the splits are times between those frames,
// not sector times. The laps are only the lap count; lap times would need
// the machine's position, which the file does not store.
//
// Inputs: the spec documents the Buttons byte as 0x04 with nothing pressed,
// 0x14 with L+R, 0x44 with boost, 0x84 with side attack. Holding L and R
// together is GX's drift turn (mutecity.org wiki, Drift Turn: "now
// performed by pressing and holding down both the L and R buttons"), so a
// drift is a press of the L+R bit and its time the frames it is held.

const (
	btnLR         = 0x10
	btnBoost      = 0x40
	btnSideAttack = 0x80
)

// use is one press of a button: when it began and how long it was held.
type use struct {
	key    string // "boost", "drift", "sideAttack"
	what   string
	frame  int // first frame held
	frames int
}

// inputStats sums the human's input over the timeline.
type inputStats struct {
	boosts, drifts, sideAttacks []use
	accelFrames, brakeFrames    int
	raceFrames                  int // frames from the start, for the accelerator share
	runs                        int
}

// inputUse walks the input runs as far as the timeline reaches.
func (b *build) inputUse() inputStats {
	var st inputStats
	n := len(b.frameInput)
	held := map[uint8]int{} // bit -> index of its press in its list
	bits := []struct {
		bit       uint8
		key, what string
		list      *[]use
	}{{btnBoost, "boost", "boost", &st.boosts}, {btnLR, "drift", "drift (L+R)", &st.drifts}, {btnSideAttack, "sideAttack", "side attack", &st.sideAttacks}}
	for i, in := range b.s.inputs {
		start := int(b.runStart[i])
		if start >= n {
			break
		}
		frames := min(int(in.frames), n-start)
		st.runs++
		for _, bb := range bits {
			if in.buttons&bb.bit == 0 {
				delete(held, bb.bit)
				continue
			}
			if k, ok := held[bb.bit]; ok {
				(*bb.list)[k].frames += frames
				continue
			}
			held[bb.bit] = len(*bb.list)
			*bb.list = append(*bb.list, use{key: bb.key, what: bb.what, frame: start, frames: frames})
		}
		// frames of this run after the timer starts
		race := frames
		if start < raceStartFrame {
			race = max(0, start+frames-raceStartFrame)
		}
		st.raceFrames += race
		if in.accel > 0 {
			st.accelFrames += race
		}
		if in.brake > 0 {
			st.brakeFrames += race
		}
	}
	return st
}

// analyze is Replay.Analyze for F-Zero GX.
func (b *build) analyze() *model.Analysis {
	a := &model.Analysis{}
	if b.human < 0 || b.rep.Timeline.Count == 0 {
		return a
	}
	st := b.inputUse()
	a.Moments = b.moments()
	a.Stats = model.Stats{Tables: b.tables(st), Native: b.native(st)}
	return a
}

// checkpointWords names a replay checkpoint for people.
func checkpointWords(i int) string { return fmt.Sprintf("replay checkpoint %d", i+1) }

// moments are the replay checkpoints and the finish, in frame order.
func (b *build) moments() []model.Moment {
	s := b.s
	count := b.rep.Timeline.Count
	clamp := func(f int64) int { return int(max(0, min(f, int64(count-1)))) }
	type at struct {
		m     model.Moment
		frame int64 // the frame the file gives, past the end for a late checkpoint
	}
	var ms []at
	for i, cp := range s.checkpoints {
		sum := fmt.Sprintf("%s (position check) at %s", checkpointWords(i), raceTime(cp.frame1-raceStartFrame))
		switch {
		case cp.frame1 == raceStartFrame:
			sum = fmt.Sprintf("%s (position check) at the start", checkpointWords(i))
		case s.hasTotal && cp.frame1 >= s.totalFrames:
			sum += ", after the finish line: never checked"
		case i > 0:
			sum += fmt.Sprintf(", %s s after checkpoint %d", seconds(cp.frame1-s.checkpoints[i-1].frame1), i)
		}
		f := clamp(cp.frame1)
		ms = append(ms, at{model.Moment{Kind: model.MomentCheckpoint, Frame: f, End: f, By: b.human, On: -1,
			Summary: sum, Span: cp.span, Fields: []model.Field{
				{Key: "checkpoint", Label: "Checkpoint", Value: int64(i + 1)},
				{Key: "frame", Label: "Frame", Value: cp.frame1},
				{Key: "raceTime", Label: "Race time", Value: frameDur(cp.frame1 - raceStartFrame), Name: raceTime(cp.frame1 - raceStartFrame)},
				{Key: "x", Label: "x", Value: cp.pos[0].x}, {Key: "y", Label: "y", Value: cp.pos[0].y}, {Key: "z", Label: "z", Value: cp.pos[0].z},
			}}, cp.frame1})
	}
	if s.hasTotal {
		race := s.totalFrames - raceStartFrame
		ms = append(ms, at{model.Moment{Kind: model.MomentFinish, Frame: count - 1, End: count - 1, By: b.human, On: -1,
			Summary: "crosses the finish line: " + raceTime(race), Span: s.totalSpan, Fields: []model.Field{
				{Key: "totalFrames", Label: "Total frames", Value: s.totalFrames},
				{Key: "raceTime", Label: "Race time", Value: frameDur(race), Name: raceTime(race)},
			}}, int64(count - 1)})
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].frame < ms[j].frame })
	out := make([]model.Moment, len(ms))
	for i := range ms {
		out[i] = ms[i].m
	}
	return out
}

// seconds is a frame count as seconds with milliseconds: "22.033" (the
// unit is in the heading or the sentence).
func seconds(frames int64) string {
	sign := ""
	if frames < 0 {
		sign, frames = "-", -frames
	}
	return fmt.Sprintf("%s%d.%03d", sign, frames/60, frames%60*1000/60)
}

// secondsField is a duration in seconds, shown with milliseconds.
func secondsField(key, label string, frames int64) model.Field {
	return model.Field{Key: key, Label: label, Value: frameSecs(frames), Name: seconds(frames)}
}

// raceTimeField is a race time in seconds, shown as m:ss.mmm.
func raceTimeField(key, label string, frames int64) model.Field {
	return model.Field{Key: key, Label: label, Value: frameSecs(frames), Name: raceTime(frames)}
}

func intCell(key, label string, n int) model.Field {
	return model.Field{Key: key, Label: label, Value: int64(n)}
}

func heldFrames(us []use) int {
	n := 0
	for _, u := range us {
		n += u.frames
	}
	return n
}

func (b *build) tables(st inputStats) []model.StatTable {
	s := b.s
	p := b.rep.Players[b.human]
	label := p.Slot
	if p.Name != "" {
		label += " " + p.Name
	}
	if p.Character != "" {
		label += " (" + p.Character + ")"
	}
	one := func(key, label string, f model.Field) model.StatRow {
		f.Key, f.Label = key, label
		return model.StatRow{Key: key, Label: label, Frame: -1, Cells: []model.Field{f}}
	}
	race := model.StatTable{Key: "race", Title: "Race", Player: -1, Columns: []string{label}}
	if s.hasTotal {
		race.Rows = append(race.Rows,
			one("raceTime", "Race time (m:ss.mmm)", raceTimeField("", "", s.totalFrames-raceStartFrame)),
			one("totalFrames", "Frames from the countdown to the finish", model.Field{Value: s.totalFrames}))
	}
	race.Rows = append(race.Rows,
		one("laps", "Laps", model.Field{Value: s.laps}),
		one("lapTimes", "Lap times", model.Field{Value: "not in the file"}),
		one("boosts", "Boosts (presses)", intCell("", "", len(st.boosts))),
		one("boostHeld", "Boost button held (s)", secondsField("", "", int64(heldFrames(st.boosts)))),
		one("drifts", "Drift turns (L+R presses)", intCell("", "", len(st.drifts))),
		one("driftHeld", "Drifting, L+R held (s)", secondsField("", "", int64(heldFrames(st.drifts)))),
		one("sideAttacks", "Side attacks (presses)", intCell("", "", len(st.sideAttacks))),
		one("accelerating", "Accelerating after the start (s)", secondsField("", "", int64(st.accelFrames))),
		one("braking", "Braking after the start (s)", secondsField("", "", int64(st.brakeFrames))),
		one("inputRuns", "Input changes recorded", intCell("", "", st.runs)),
	)

	splits := model.StatTable{Key: "splits", Title: "Replay checkpoints (position checks, not laps)", Player: b.human,
		Columns: []string{"Frame", "Race time (m:ss.mmm)", "Since the previous (s)"}}
	count := b.rep.Timeline.Count
	for _, m := range b.marks() {
		l := "Finish line"
		if m.checkpoint > 0 {
			l = fmt.Sprintf("Checkpoint %d", m.checkpoint)
			if m.afterFinish {
				l += " (after the finish)"
			}
		}
		splits.Rows = append(splits.Rows, model.StatRow{Key: "split", Label: l, Frame: int(max(0, min(m.frame, int64(count-1)))),
			Cells: []model.Field{
				{Key: "frame", Label: "Frame", Value: m.frame},
				raceTimeField("raceTime", "Race time", m.frame-raceStartFrame),
				secondsField("split", "Since the previous", m.frame-m.prev),
			}})
	}

	// a row is a press, headed by its race time
	list := model.StatTable{Key: "buttons", Title: "Boosts, drifts and side attacks (race time m:ss.mmm)", Player: b.human,
		Columns: []string{"What", "Held (s)"}}
	for _, u := range st.presses() {
		list.Rows = append(list.Rows, model.StatRow{Key: u.key, Label: raceTime(int64(u.frame) - raceStartFrame), Frame: u.frame, Cells: []model.Field{
			{Key: "what", Label: "What", Value: u.what},
			secondsField("held", "Held", int64(u.frames)),
		}})
	}
	out := []model.StatTable{race}
	if len(splits.Rows) > 0 {
		out = append(out, splits)
	}
	if len(list.Rows) > 0 {
		out = append(out, list)
	}
	return out
}

// mark is a replay checkpoint or the finish line, for the splits.
type mark struct {
	checkpoint  int // 1-based; 0 for the finish line
	frame, prev int64
	afterFinish bool // a checkpoint at or after the finish, never checked
}

// marks are the replay checkpoints and the finish line in frame order,
// each with the frame of the one before (the start for the first).
func (b *build) marks() []mark {
	s := b.s
	var ms []mark
	for i, cp := range s.checkpoints {
		ms = append(ms, mark{checkpoint: i + 1, frame: cp.frame1, afterFinish: s.hasTotal && cp.frame1 >= s.totalFrames})
	}
	if s.hasTotal {
		ms = append(ms, mark{frame: s.totalFrames})
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].frame < ms[j].frame })
	prev := int64(raceStartFrame)
	for i := range ms {
		ms[i].prev, prev = prev, ms[i].frame
	}
	return ms
}
