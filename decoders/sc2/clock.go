package sc2

import (
	"fmt"
	"time"
)

// The two clocks of a StarCraft II replay, and which values use which.
//
// A game loop is 1/16 of a game second. The game runs 16 loops a real
// second on Normal and 22.4 on Faster (the speed of every ranked game), so
// on Faster a game second is 1/1.4 of a real second.
//
//   - Real time (loops / 22.4 on Faster) is what playback follows:
//     Timeline.TimeOf, Replay.Duration, the header's realLength and the
//     stats JSON's realLength.
//   - The game's clock is what the client's timer showed: game time
//     (loops / 16) before Legacy of the Void, real time from it on (the
//     header's m_useScaledTime). Where the two differ (a Wings of Liberty
//     or Heart of the Swarm game on any speed but Normal) Timeline.Clock
//     is game time and ClockName says so; elsewhere Clock is unset and the
//     game's clock is real time. Timeline.LabelOf, the header's
//     gameLength and everything the analysis makes read the game's clock:
//     moments' texts, every table's times (build order, losses, chat, the
//     minutes table and its minutes, "Played until"), and every time in
//     seconds of the stats JSON (clock.name says which clock it is) and
//     of the archive summary (stats and moment records). A time beside a
//     loop, as in the JSON's build order, can be turned into the other
//     clock from the loop.
//
// sc2reader's APM is the exception, on purpose: it mixes the two as
// sc2reader does (apm.go).

// clock is the game's clock at a frame (see above).
func (a *analysis) clock(frame int) time.Duration {
	if a.r.Timeline.Clock != nil {
		return a.r.Timeline.Clock(frame)
	}
	return a.r.Timeline.Time(frame)
}

// seconds is the game's clock at a frame in seconds, for JSON: the loop
// over the clock's rate, not a Duration's nanoseconds (so a time is the
// float nearest loops / 22.4).
func (a *analysis) seconds(frame int) float64 { return float64(frame) / a.clockRate() }

// clockText is the clock as the game's timer shows it: m:ss, seconds cut.
func (a *analysis) clockText(frame int) string {
	s := int(a.clock(frame) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// clockName is what the game's clock is called: "game time" or "real time".
func (a *analysis) clockName() string {
	if a.r.Timeline.Clock != nil {
		return "game time"
	}
	return "real time"
}

// clockRate is the game's clock in loops a second: 16 for game time, the
// timeline's rate for real time.
func (a *analysis) clockRate() float64 {
	if a.r.Timeline.Clock != nil || a.r.Timeline.Rate <= 0 {
		return gameSecond
	}
	return a.r.Timeline.Rate
}

// minuteLoops is a minute of the game's clock in loops: 960 of game time,
// or a real minute (1,344 loops on Faster).
func (a *analysis) minuteLoops() int { return int(60*a.clockRate() + 0.5) }

// atClock is the frame where the game's clock reads d, the last frame
// when the game is shorter; ok false then.
func (a *analysis) atClock(d time.Duration) (frame int, ok bool) {
	f := int(d.Seconds()*a.clockRate() + 0.5)
	if f > a.last {
		return a.last, false
	}
	return f, true
}
