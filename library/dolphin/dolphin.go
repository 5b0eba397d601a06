// Package dolphin writes Slippi Dolphin's playback queue: a communication
// file (the Slippi project's COMM_SPEC) that Slippi's playback Dolphin,
// started as `dolphin -i FILE`, plays item by item, each replay from a
// start frame to an end frame. `rewind moments --dolphin` hands combos to
// Dolphin this way, as Project Clippi does.
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

// Comm is the communication file in queue mode.
type Comm struct {
	Mode               string `json:"mode"`
	Replay             string `json:"replay"`
	IsRealTimeMode     bool   `json:"isRealTimeMode"`
	OutputOverlayFiles bool   `json:"outputOverlayFiles"`
	CommandID          string `json:"commandId"`
	Queue              []Item `json:"queue"`
}

// Item is one queue entry.
type Item struct {
	Path        string `json:"path"`
	StartFrame  int64  `json:"startFrame"`
	EndFrame    int64  `json:"endFrame"`
	GameStartAt string `json:"gameStartAt"`
	GameStation string `json:"gameStation"`
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
// path, then renamed over it.
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
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
