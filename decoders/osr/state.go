package osr

import (
	"fmt"
	"math"
	"math/bits"

	"rewind/model"
)

// state is Replay.State: what the player holds and where the cursor (the
// catcher) is at a frame, read from the frame itself, O(1); the life bar
// by a search of its few points.
func (v *view) state(f, p int) model.PlayerState {
	if p != 0 || f < 0 || f >= len(v.fr) {
		return model.PlayerState{}
	}
	fr := &v.fr[f]
	mode := v.d.h.mode
	k := keysOf(mode, fr)
	span := model.Span{Stream: StreamFrames, Off: int64(fr.off), Len: int64(fr.n)}
	var brief []model.Field
	switch mode {
	case modeStd:
		brief = []model.Field{
			{Key: "keys", Label: "keys", Value: int64(fr.z), Name: v.keysText(k), Span: span},
			{Key: "cursor", Label: "cursor", Value: fr.x, Name: fmt.Sprintf("(%.1f, %.1f)", fr.x, fr.y), Span: span},
		}
	case modeTaiko:
		brief = []model.Field{{Key: "keys", Label: "drums", Value: int64(fr.z), Name: v.keysText(k), Span: span}}
	case modeCatch:
		dash := "walking"
		if k != 0 {
			dash = "dashing"
		}
		brief = []model.Field{
			{Key: "catcher", Label: "catcher", Value: fr.x, Name: fmt.Sprintf("x %.1f", fr.x), Span: span},
			{Key: "dash", Label: "dash", Value: k != 0, Name: dash, Span: span},
		}
	case modeMania:
		brief = []model.Field{{Key: "keys", Label: "keys", Value: int64(k), Name: v.laneText(k), Span: span}}
	}
	if life, ok := v.d.lifeAt(v.mono[f]); ok {
		brief = append(brief, model.Field{Key: "life", Label: "life", Value: life, Name: fmt.Sprintf("life %.0f%%", life*100)})
	}
	fields := append(v.recordFields(f), brief...)
	return model.PlayerState{Present: true, Brief: brief, Fields: fields}
}

// laneText draws mania's columns: ■ held, · not.
func (v *view) laneText(k uint32) string {
	n := len(v.keys)
	if n == 0 {
		return "none"
	}
	b := make([]rune, n)
	for i := range b {
		b[i] = '·'
		if k&(1<<i) != 0 {
			b[i] = '■'
		}
	}
	return string(b)
}

// The stage view's pictures. Standard's playfield is 512×384 osu! pixels,
// y growing downwards; scenes grow upwards, so y is flipped.
const (
	playW, playH = 512.0, 384.0
	// rollSpan is how much of the past the lane views show, ms.
	rollSpan = 1000
	// rollMax bounds the frames a lane view reads back.
	rollMax = 512
	// laneW is a lane's width against rollSpan's height.
	laneW = 250
	// catchMs is catch's time scale: a second of the catcher's path is as
	// tall as the playfield is (384 of its 512 wide).
	catchMs = 0.384
)

// scenes is Replay.Scenes for the mode: standard's cursor on the
// playfield (the TUI draws its trail), the lanes of mania and taiko with
// the last second of holds rising from the judgement line, and catch's
// catcher on its line with the last second of its path.
func (v *view) scenes() func(int) []model.Scene {
	if len(v.fr) == 0 {
		return nil
	}
	switch v.d.h.mode {
	case modeTaiko, modeMania:
		return v.laneScenes
	case modeCatch:
		return v.catchScenes
	}
	return v.cursorScenes
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func (v *view) cursorScenes(f int) []model.Scene {
	if f < 0 || f >= len(v.fr) {
		return nil
	}
	fr := &v.fr[f]
	border := []model.Line{{X1: 0, Y1: 0, X2: playW, Y2: 0}, {X1: playW, Y1: 0, X2: playW, Y2: playH},
		{X1: playW, Y1: playH, X2: 0, Y2: playH}, {X1: 0, Y1: playH, X2: 0, Y2: 0}}
	sc := model.Scene{Title: "playfield", Bounds: model.Rect{MinX: -128, MinY: -96, MaxX: playW + 128, MaxY: playH + 96}, Lines: border}
	if finite(fr.x) && finite(fr.y) {
		label := ""
		if k := keysOf(modeStd, fr); k != 0 {
			label = v.keysText(k)
		}
		sc.Points = []model.Point{{X: fr.x, Y: playH - fr.y, Player: 0, Kind: "cursor", Label: label}}
	}
	return []model.Scene{sc}
}

// laneScenes draws a lane per key: the judgement line at the bottom, the
// keys held now as points on it, and each hold of the last second as a
// bar rising from it (a press a second ago is at the top). The stage
// view keeps one scale for both axes, so a lane is laneW wide against a
// second of rollSpan.
func (v *view) laneScenes(f int) []model.Scene {
	if f < 0 || f >= len(v.fr) {
		return nil
	}
	n := len(v.keys)
	if n == 0 {
		return nil
	}
	mode := v.d.h.mode
	// a taiko drum's lanes, from the left: kat, don, don, kat
	lane := func(b int) int { return b }
	title := fmt.Sprintf("%d keys, the last second", n)
	if mode == modeTaiko {
		order := [4]int{1, 0, 2, 3} // left kat, left don, right don, right kat
		lane = func(b int) int { return order[b&3] }
		title = "drums (kat don | don kat), the last second"
	}
	w := float64(n) * laneW
	sc := model.Scene{Title: title, Bounds: model.Rect{MinX: 0, MinY: -0.05 * rollSpan, MaxX: w, MaxY: rollSpan}}
	sc.Lines = append(sc.Lines, model.Line{X1: 0, Y1: 0, X2: w, Y2: 0})
	for i := 0; i <= n; i++ {
		sc.Lines = append(sc.Lines, model.Line{X1: float64(i) * laneW, Y1: 0, X2: float64(i) * laneW, Y2: rollSpan})
	}
	now := v.mono[f]
	// walk back over the last second: each key's holds as bars
	var top [32]int64 // where each key's hold being walked ends (ms ago); -1 none
	held := keysOf(mode, &v.fr[f])
	for b := range top {
		top[b] = -1
		if held&(1<<b) != 0 {
			top[b] = 0
		}
	}
	bar := func(b int, from, to int64) {
		// a bar of lines a braille dot or so apart at common widths
		for k := 0; k <= 10; k++ {
			x := (float64(lane(b)) + 0.25 + 0.05*float64(k)) * laneW
			sc.Lines = append(sc.Lines, model.Line{X1: x, Y1: float64(from), X2: x, Y2: float64(min(to, rollSpan))})
		}
	}
	prev := held
	for i := f; i > 0 && f-i < rollMax; i-- {
		ago := now - v.mono[i]
		if ago > rollSpan {
			break
		}
		k := keysOf(mode, &v.fr[i-1])
		for diff := k ^ prev; diff != 0; diff &= diff - 1 {
			b := bits.TrailingZeros32(diff)
			if prev&(1<<b) != 0 { // held from frame i on: its hold starts at i
				bar(b, top[b], ago)
				top[b] = -1
			} else { // held before i: a hold ends at i
				top[b] = ago
			}
		}
		prev = k
	}
	for b := range top {
		if top[b] >= 0 && top[b] < rollSpan {
			bar(b, top[b], rollSpan)
		}
	}
	for b := 0; b < n && b < 32; b++ {
		if held&(1<<b) != 0 {
			sc.Points = append(sc.Points, model.Point{X: (float64(lane(b)) + 0.5) * laneW, Y: 0, Player: 0, Kind: "key", Label: v.keys[b]})
		}
	}
	return []model.Scene{sc}
}

// catchScenes draws the catcher on its line (0 to 512) and the path it
// took over the last second, rising from the line.
func (v *view) catchScenes(f int) []model.Scene {
	if f < 0 || f >= len(v.fr) {
		return nil
	}
	fr := &v.fr[f]
	top := catchMs * rollSpan
	sc := model.Scene{Title: "catcher, the last second", Bounds: model.Rect{MinX: -16, MinY: -0.05 * top, MaxX: playW + 16, MaxY: top}}
	sc.Lines = []model.Line{{X1: 0, Y1: 0, X2: playW, Y2: 0}, {X1: 0, Y1: 0, X2: 0, Y2: top}, {X1: playW, Y1: 0, X2: playW, Y2: top}}
	now := v.mono[f]
	px, pt := fr.x, int64(0)
	for i := f - 1; i >= 0 && f-i < rollMax; i-- {
		ago := now - v.mono[i]
		x := v.fr[i].x
		if finite(x) && finite(px) {
			sc.Lines = append(sc.Lines, model.Line{X1: px, Y1: catchMs * float64(pt), X2: x, Y2: catchMs * float64(min(ago, rollSpan))})
		}
		if ago > rollSpan {
			break
		}
		px, pt = x, ago
	}
	if finite(fr.x) {
		label := ""
		if keysOf(modeCatch, fr) != 0 {
			label = "dash"
		}
		sc.Points = []model.Point{{X: fr.x, Y: 0, Player: 0, Kind: "player", Label: label}}
	}
	return []model.Scene{sc}
}

// charts samples the life bar graph over the timeline.
func (v *view) charts() []model.Chart {
	n := len(v.mono)
	if n == 0 || len(v.d.h.lifePoints) == 0 {
		return nil
	}
	m := min(n, 1024)
	vals := make([]float64, m)
	for i := range vals {
		l, _ := v.d.lifeAt(v.mono[i*n/m])
		vals[i] = l * 100
	}
	return []model.Chart{{Title: "life %", Series: []model.Series{{Label: "life", Player: 0, Values: vals}}}}
}
