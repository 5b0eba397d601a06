package model

import (
	"math"
	"sort"
	"strconv"
	"time"
)

// Timeline maps frame indices to the numbers, labels and game times a
// format gives them. Index 0 is the first frame; Count frames in all.
type Timeline struct {
	Count int     // number of frames
	First int64   // the format's number for frame index 0 (-123 for Slippi)
	Rate  float64 // native frames per real second, for playback (60, 50, 22.4)
	Unit  string  // what a frame is called: "frame", "tick", "loop", "sample"

	// LabelOf, when set, labels a frame index ("loop 1234", "1:02.50").
	// The default is the frame number.
	LabelOf func(i int) string
	// TimeOf, when set, gives the game time at a frame index. It must be
	// non-decreasing. The default is Number(i)/Rate.
	TimeOf func(i int) time.Duration
	// Clock, when set, is the game's own clock at a frame where it is not
	// real time, and ClockName what players call it: StarCraft II before
	// Legacy of the Void showed "game time", 16 loops a second at any
	// speed, while a Faster game runs 22.4 loops a real second. Time stays
	// real time, which playback follows.
	Clock     func(i int) time.Duration
	ClockName string
}

// Number is the format's number for a frame index.
func (t *Timeline) Number(i int) int64 { return t.First + int64(i) }

// Index is the frame index of a format frame number, clamped to the timeline.
func (t *Timeline) Index(n int64) int { return t.Clamp64(n - t.First) }

// Clamp keeps an index inside the timeline.
func (t *Timeline) Clamp(i int) int { return t.Clamp64(int64(i)) }

// Clamp64 keeps an index inside the timeline.
func (t *Timeline) Clamp64(i int64) int {
	if t.Count <= 0 || i < 0 {
		return 0
	}
	if i >= int64(t.Count) {
		return t.Count - 1
	}
	return int(i)
}

// Label is how people read the frame index.
func (t *Timeline) Label(i int) string {
	if t.LabelOf != nil {
		return t.LabelOf(i)
	}
	return strconv.FormatInt(t.Number(i), 10)
}

// Time is the game time at a frame index.
func (t *Timeline) Time(i int) time.Duration {
	if t.TimeOf != nil {
		return t.TimeOf(i)
	}
	if t.Rate <= 0 {
		return 0
	}
	return time.Duration(math.Round(float64(t.Number(i)) / t.Rate * float64(time.Second)))
}

// At returns the first frame index whose time reaches d (the last frame
// when none does). Playback and "go to 1:23.45" use it.
func (t *Timeline) At(d time.Duration) int {
	if t.Count <= 0 {
		return 0
	}
	if t.TimeOf == nil && t.Rate > 0 {
		n := int64(float64(d) / float64(time.Second) * t.Rate)
		// step forward past rounding so Time(i) >= d
		i := t.Clamp64(n - t.First)
		for i < t.Count-1 && t.Time(i) < d {
			i++
		}
		return i
	}
	i := sort.Search(t.Count, func(i int) bool { return t.Time(i) >= d })
	if i >= t.Count {
		i = t.Count - 1
	}
	return i
}

// Span is the time from the first to the last frame.
func (t *Timeline) Span() time.Duration {
	if t.Count == 0 {
		return 0
	}
	return t.Time(t.Count-1) - t.Time(0)
}
