// Package diff compares two decoded replays.
//
// Two files of the same game (two players' recordings of one netplay game, a
// file and its repaired copy, the output of two recorder builds) should agree
// frame for frame; Compare walks both timelines together, aligned by the
// format's frame number (Timeline.Number), and reports the first frame where
// the game state differs (which player, which field, both values), how many
// frames and fields differ, and the differing frames as ranges. The state of
// a frame is every player's PlayerState fields, compared by key and typed
// value, and the frame's events, compared by kind, player and fields; the
// bytes an event occupies (its span) legitimately differ between files and
// are never compared. Frames that only one file has are a difference of
// their own kind ("B ends early at frame N"), and so are the header values
// that say how the game ended (result, duration, each player's result).
//
// Two different games (a build order against a pro's, two plays of one
// song) are compared by what the formats' game analysis says about them:
// the stats tables with the same key side by side, the players paired, rows
// aligned by key, list tables (a build order) aligned by item with the time
// between the nth item of one and the nth of the other, and the charts
// sampled at the same game times.
//
// The package is format-neutral: it reads model values and asks the decoders
// registry only for a format's words, never a format package.
package diff

import (
	"bytes"
	"fmt"
	"time"

	"rewind/model"
)

// Mode says how Compare decides whether the replays are one game.
type Mode int

const (
	// Auto decides from the headers (see sameGame).
	Auto Mode = iota
	// Same compares frame by frame whatever the headers say.
	Same
	// Different compares the summaries whatever the headers say.
	Different
)

// Options tune a comparison. The zero value decides the mode from the
// headers and keeps no list of differences beyond the first.
type Options struct {
	Mode Mode
	// Limit is how many differences Result.Differences keeps, in frame
	// order (the counts and ranges always cover them all); a negative
	// Limit keeps every one.
	Limit int
	// Pairs pairs players of different games explicitly: {a, b} puts A's
	// player a (an index) beside B's player b. Players not named are paired
	// by code, name, character and then slot.
	Pairs [][2]int
	// Ignore names what a frame by frame walk leaves out: fields by their
	// key ("latestFinalizedFrame", the last key of a path) and events by
	// their kind ("bookend"). Some values record the recording, not the
	// game: two players' files of one netplay game say differently how far
	// each machine had confirmed the inputs.
	Ignore []string
	// Progress, when set, is called from time to time during a frame by
	// frame walk with the frames compared so far and how many there are.
	// It must be cheap.
	Progress func(done, total int64)
}

// Kind is what sort of difference it is. The values appear in JSON.
type Kind string

const (
	// KindState is a field of a player's state at a frame.
	KindState Kind = "state"
	// KindEvent is an event of a frame: a field of an event both files
	// have (Field set), or an event only one has (Field empty, the other
	// side nil).
	KindEvent Kind = "event"
	// KindFrames is a stretch of frames only one file has.
	KindFrames Kind = "frames"
	// KindEnd is a header value that says how the game ended.
	KindEnd Kind = "end"
)

// Difference is one thing that differs between A and B.
type Difference struct {
	Kind Kind
	// Frame is the format's frame number (Timeline.Number) where it is;
	// for KindFrames the first frame of the stretch, To the last. Zero for
	// KindEnd, which is about the whole game.
	Frame, To int64
	// IndexA and IndexB are the frame's timeline indices in each file, -1
	// where the file has no such frame.
	IndexA, IndexB int
	// Time is the game time at the frame (A's clock, or B's when A has no
	// such frame).
	Time time.Duration
	// Player is the player (an index) whose state or event it is; -1 none.
	Player int
	// Event is the event's kind for KindEvent; EventA and EventB are the
	// event indices in each file, -1 where that file has no such event.
	// A state field that an event records as well (a Slippi post-frame
	// update) names that event too.
	Event          string
	EventA, EventB int
	// Field is the dotted key path of the field inside the state or the
	// event ("post.percent"); empty for an event only one file has.
	Field string
	// A and B are the two values, typed as the decoder gave them; nil where
	// a side has none. AName and BName are what they mean when they are ids
	// ("DASH", "Final Destination").
	A, B         any
	AName, BName string
	// Only names the file that alone has the frames (KindFrames) or the
	// event (an event one file lacks): "A" or "B".
	Only string
}

// Range is a stretch of frame numbers, both ends included.
type Range struct{ From, To int64 }

// Stop says that a file did not decode whole, so it was compared only as
// far as it goes.
type Stop struct {
	Partial bool   // the decoder stopped early: the file ends at Frame
	Frame   int64  // the last frame the file has
	Reason  string // the first error the decoder found, one line
}

// Result is a comparison of two replays.
type Result struct {
	A, B *model.Replay
	// SameGame is whether they were compared as one game frame by frame;
	// Why says how that was decided.
	SameGame bool
	Why      string
	// Identical is true when nothing differs: no frame, event, stretch of
	// frames or end value (for different games: never).
	Identical bool

	// Same game: the frames both have (Overlap), the differences found
	// in them, and what is outside.
	Overlap         Range
	First           *Difference  // the first difference in frame order, nil when none
	Differences     []Difference // the first Options.Limit differences in frame order
	DifferingFrames int          // frames of the overlap with a difference
	DifferingFields int          // state and event fields that differ, over all frames
	Ranges          []Range      // the differing frames of the overlap
	OnlyA, OnlyB    []Range      // frames only one file has
	End             []Difference // how the game ended, where the headers disagree
	StopA, StopB    *Stop        // a file that did not decode whole

	// Different games: who is compared with whom and what.
	Pairs  [][2]int // {A's player, B's player}
	Tables []TableDiff
	Charts []ChartDiff
	// Unmatched names what one side has and the other lacks ("table
	// buildOrder only in A"), so a reader knows what was not compared.
	Unmatched []string
}

// IncomparableError says why two replays cannot be compared at all.
type IncomparableError struct{ Reason string }

func (e *IncomparableError) Error() string { return e.Reason }

// Compare compares two replays (see the package comment). It returns an
// IncomparableError for replays of different formats.
func Compare(a, b *model.Replay, opt Options) (*Result, error) {
	if a.Format != b.Format {
		return nil, &IncomparableError{fmt.Sprintf("A is %s and B %s: replays of different formats cannot be compared",
			article(formatName(a)), article(formatName(b)))}
	}
	res := &Result{A: a, B: b}
	same, why := Decide(a, b, opt)
	res.SameGame, res.Why = same, why
	res.StopA, res.StopB = stopOf(a), stopOf(b)
	if same && identicalBytes(a, b) {
		// decoding is deterministic: the same bytes are the same game,
		// frame for frame, without a walk
		res.Identical = true
		res.Overlap, _ = overlap(a, b)
		return res, nil
	}
	if same {
		walk(res, opt)
	} else {
		summaries(res, opt)
	}
	return res, nil
}

// Decide says whether two replays of one format are compared as one game,
// frame by frame, and why: from the headers (see sameGame), unless
// opt.Mode says.
func Decide(a, b *model.Replay, opt Options) (same bool, why string) {
	same, why = sameGame(a, b, newFrameCmp(a, b, opt))
	switch opt.Mode {
	case Same:
		same, why = true, "compared frame by frame as asked (--as same); the headers say: "+why
	case Different:
		same, why = false, "compared side by side as asked (--as different); the headers say: "+why
	}
	return same, why
}

// identicalBytes reports whether both replays were decoded from the same
// bytes (and their inner streams are the same).
func identicalBytes(a, b *model.Replay) bool {
	return len(a.Data) > 0 && a.Size == b.Size && bytes.Equal(a.Data, b.Data)
}

// Player names a player as every JSON output does: "P1".."Pn".
func Player(i int) string {
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("P%d", i+1)
}

// stopOf says whether a replay decoded whole.
func stopOf(r *model.Replay) *Stop {
	if !r.Partial && r.Problems() == 0 {
		return nil
	}
	s := &Stop{Partial: r.Partial, Frame: r.Timeline.Number(max(r.Timeline.Count-1, 0))}
	for _, d := range r.Diagnostics {
		if d.Severity == model.Error {
			s.Reason = d.String()
			break
		}
	}
	if s.Reason == "" {
		for _, d := range r.Diagnostics {
			if d.Severity >= model.Warning {
				s.Reason = d.String()
				break
			}
		}
	}
	return s
}

// article puts "a" or "an" before a name.
func article(s string) string {
	if s == "" {
		return "an unknown format"
	}
	switch s[0] {
	case 'A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u':
		return "an " + s
	}
	return "a " + s
}
