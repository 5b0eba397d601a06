package model

import (
	"sort"
	"sync"
)

// A replay that grows: a recorder still writing the file (Slippi writes the
// .slp while the game runs, a DDNet server its teehistorian). A Follower
// decodes only what each read adds and hands out snapshots; each snapshot is
// a Replay like any other, read-only once handed out, and shares with the
// snapshots before it the arrays that only ever grow (events, the frame
// index, the decoder's per-frame tables), so a snapshot costs what changed.

// Follower decodes a replay file while it is being written. The decoders
// registry makes one for the formats that are written live (Format.Follow).
// It is used from one goroutine; the replays it returns may be read from any.
type Follower interface {
	// Feed decodes what data adds. data is the file from its start as far
	// as it has been written so far, and begins with the data of the
	// previous call, unchanged. A record that data cuts off waits for the
	// next call; nothing is reported about it yet.
	Feed(data []byte)
	// Replay returns what has been decoded as a snapshot: the frames that
	// are complete (no later byte can change them) and their events; nil
	// while the file is too short to decode anything.
	Replay() *Replay
	// Finish says that no more bytes will come and returns the replay of
	// everything fed, equal to one decode of the whole file (and refused
	// as that decode would refuse it): a record cut off by its end is
	// reported now, as a partial event and a diagnostic. The Follower is
	// done after it.
	Finish() (*Replay, error)
	// Ended names what in the file said the recording is over ("Game End",
	// "FINISH"), or why nothing after what was fed can be decoded; empty
	// while the recording goes on.
	Ended() string
}

// FinishGrown builds the frame index of r, a snapshot of a growing replay
// that extends prev, the snapshot taken before it: r.Events begins with
// prev's events (the same array) and every event r adds is at a frame
// prev did not have. The index extends prev's instead of being rebuilt, so
// a snapshot costs the events it adds. Snapshots extend one another in a
// line: prev is never extended twice. When r does not extend prev, or prev
// is nil, it is Finish.
func (r *Replay) FinishGrown(prev *Replay) {
	if prev == nil || !r.extends(prev) {
		r.Finish()
		return
	}
	n := r.Timeline.Count
	// prev's index (built now if nobody asked yet) ends at its last frame
	// with len(prev.Events); the frames after it start where prev's events
	// end
	base := prev.frameIndex()
	idx := base[:prev.Timeline.Count+1]
	e := len(prev.Events)
	for f := prev.Timeline.Count + 1; f <= n; f++ {
		for e < len(r.Events) && int(r.Events[e].Frame) < f {
			e++
		}
		idx = append(idx, e)
	}
	r.finished = true
	r.eventStart = nil
	r.startOnce = sync.Once{}
	r.startOnce.Do(func() { r.eventStart = idx })
	r.byOffset = nil
	r.offsetOnce = sync.Once{}
	r.offsetReady.Store(false)
	if prev.offsetReady.Load() {
		r.growOffsets(prev)
	}
}

// extends reports whether r grows prev as FinishGrown needs.
func (r *Replay) extends(prev *Replay) bool {
	old := len(prev.Events)
	if !prev.finished || r.Timeline.Count < prev.Timeline.Count || len(r.Events) < old {
		return false
	}
	if old > 0 && &r.Events[0] != &prev.Events[0] {
		return false
	}
	for i := old; i < len(r.Events); i++ {
		if int(r.Events[i].Frame) < prev.Timeline.Count || (i > old && r.Events[i].Frame < r.Events[i-1].Frame) {
			return false
		}
	}
	return true
}

// growOffsets builds r's offset index (EventAt) from prev's, which is
// built: the events r adds are sorted and merged in. When they all start
// after prev's last event in the file (a recording without rollbacks)
// they are appended to prev's array, which only ever grows.
func (r *Replay) growOffsets(prev *Replay) {
	old := len(prev.Events)
	add := make([]int32, 0, len(r.Events)-old)
	for i := old; i < len(r.Events); i++ {
		if r.Events[i].Len > 0 {
			add = append(add, int32(i))
		}
	}
	less := r.spanLess
	sort.SliceStable(add, func(i, j int) bool { return less(add[i], add[j]) })
	base := prev.byOffset
	var idx []int32
	if len(base) == 0 || len(add) == 0 || !less(add[0], base[len(base)-1]) {
		idx = append(base, add...)
	} else {
		idx = make([]int32, 0, len(base)+len(add)+len(add)/2+16)
		i, j := 0, 0
		for i < len(base) || j < len(add) {
			if j == len(add) || (i < len(base) && !less(add[j], base[i])) {
				idx = append(idx, base[i])
				i++
			} else {
				idx = append(idx, add[j])
				j++
			}
		}
	}
	r.offsetOnce.Do(func() {
		r.byOffset = idx
		r.offsetReady.Store(true)
	})
}
