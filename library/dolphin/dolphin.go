// Package dolphin writes Slippi Dolphin's communication file (the Slippi
// project's COMM_SPEC): what Slippi's playback Dolphin, started as
// `dolphin -i FILE`, plays. In normal mode (Play) that is one replay from
// a start frame to an end frame; in queue mode (Queue) a list of them,
// item by item. `rewind moments --dolphin` hands combos to Dolphin this
// way, as Project Clippi does, and `rewind watch` (package actions) one
// replay, as Slippi Launcher does.
//
// Dolphin reads the file again whenever its modification time changes,
// and plays what it names when the replay or the commandId differs from
// what it played last: a new Comm has a new commandId, so writing it over
// the file of a running Dolphin makes that Dolphin play it.
package dolphin

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The widening Project Clippi applies around a clip by default: four
// seconds before it (the approach) and three after (the follow-up), at 60
// frames a second.
const (
	DefaultLead  = 240
	DefaultTrail = 180
)

// FirstFrame is the first frame Dolphin can start a replay at: the game's
// countdown begins at -123.
const FirstFrame = -123

// Clip is one stretch of one replay to play.
type Clip struct {
	Path       string // the replay; made absolute when the queue is made
	Start, End int64  // frame numbers as the replay counts them
	// Last is the replay's last frame number: End is never widened past it.
	Last int64
	// StartAt is when the game was played, Station what the overlay
	// shows beside it ("P1 Fox (ABCD#123) vs P2 Marth (EFGH#456)").
	StartAt time.Time
	Station string
}

// Comm is the communication file.
type Comm struct {
	Mode   string `json:"mode"`   // "normal" (Play) or "queue" (Queue)
	Replay string `json:"replay"` // normal mode's replay; empty in queue mode
	// StartFrame and EndFrame bound normal mode's replay; nil leaves
	// Dolphin's defaults (the first frame, the last).
	StartFrame         *int64 `json:"startFrame,omitempty"`
	EndFrame           *int64 `json:"endFrame,omitempty"`
	IsRealTimeMode     bool   `json:"isRealTimeMode"`
	OutputOverlayFiles bool   `json:"outputOverlayFiles"`
	CommandID          string `json:"commandId"`
	Queue              []Item `json:"queue,omitempty"`
}

// Item is one queue entry.
type Item struct {
	Path        string `json:"path"`
	StartFrame  int64  `json:"startFrame"`
	EndFrame    int64  `json:"endFrame"`
	GameStartAt string `json:"gameStartAt"`
	GameStation string `json:"gameStation"`
}

// Play makes the communication file that plays one replay from frame start
// to frame end (the replay's own numbers, clamped at FirstFrame). The path
// becomes absolute: Dolphin resolves a relative one from its own folder,
// or on Windows from the communication file's, and the spec's own example
// is an absolute path.
func Play(path string, start, end int64) (Comm, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Comm{}, fmt.Errorf("%s: %w", path, err)
	}
	start = max(start, FirstFrame)
	end = max(end, start)
	return Comm{Mode: "normal", Replay: abs, StartFrame: &start, EndFrame: &end, CommandID: commandID()}, nil
}

// Queue makes the communication file of the clips, each widened by lead
// frames before and trail after, within the replay (never before
// FirstFrame, never after the clip's Last). Paths become absolute, since
// Dolphin resolves them from its own folder.
func Queue(clips []Clip, lead, trail int64) (Comm, error) {
	c := Comm{Mode: "queue", OutputOverlayFiles: true, CommandID: commandID(), Queue: make([]Item, 0, len(clips))}
	for _, cl := range clips {
		abs, err := filepath.Abs(cl.Path)
		if err != nil {
			return Comm{}, fmt.Errorf("%s: %w", cl.Path, err)
		}
		start := max(FirstFrame, cl.Start-lead)
		end := cl.End + trail
		if cl.Last >= start {
			end = min(end, cl.Last)
		}
		it := Item{Path: abs, StartFrame: start, EndFrame: max(end, start), GameStation: cl.Station}
		if !cl.StartAt.IsZero() {
			it.GameStartAt = cl.StartAt.Format("2006-01-02 15:04:05")
		}
		c.Queue = append(c.Queue, it)
	}
	return c, nil
}

// Playable reports whether Dolphin can open the replay at path: a file of
// its own, not a member of a pack (pack.zip/game.slp), which it would have
// to be unpacked from first.
func Playable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// commandID is new each time: Dolphin restarts playback when it changes.
func commandID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Sprint(time.Now().UnixNano())
	}
	return hex.EncodeToString(b[:])
}

// Write writes the file whole or not at all: to a temporary file beside
// path, then renamed over it, so Dolphin never reads half a file.
//
// Dolphin notices a new file by its modification time, which it reads in
// whole seconds: a file written in the same second as the one before it
// would go unnoticed (Slippi Launcher waits out the second instead). The
// new file's time is set a second past the old one's when the clock has
// not moved on that far, so every write is seen at once.
func Write(path string, c Comm) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if old, err := os.Stat(path); err == nil {
		next := old.ModTime().Truncate(time.Second).Add(time.Second)
		if time.Now().Before(next) {
			// best effort: where the file system refuses, Dolphin
			// notices the rewrite only with the next one
			os.Chtimes(tmp.Name(), next, next)
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
