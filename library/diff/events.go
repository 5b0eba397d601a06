package diff

import "rewind/model"

// How this package reads events. Everything it needs of an event goes
// through these few functions, so a change to model.Event (a leaner record)
// touches only them.

// superseded is the mark a decoder leaves on an event that a later copy of
// its frame replaced (Slippi's rollback: the frame was played again and
// sent again). Such an event is not the game's final state, and two files
// of one netplay game roll back differently, so it is never compared.
const superseded = "rolled back"

// eventRef is what a comparison needs of one event.
type eventRef struct {
	index  int
	kind   string
	player int
}

// frameEvents appends the events of frame index f that are the game's
// final record of it (see superseded) to out.
func frameEvents(r *model.Replay, f int, out []eventRef) []eventRef {
	lo, hi := r.EventRange(f)
	for i := lo; i < hi; i++ {
		if r.EventFlag(i) == superseded {
			continue
		}
		out = append(out, eventRef{index: i, kind: r.EventKind(i), player: int(r.Events[i].Player)})
	}
	return out
}

// eventFields are an event's full fields.
func eventFields(r *model.Replay, i int) []model.Field { return r.EventFields(i) }

// eventSummary is an event's one line.
func eventSummary(r *model.Replay, i int) string { return r.EventSummary(i) }
