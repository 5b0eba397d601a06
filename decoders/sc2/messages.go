package sc2

import (
	"fmt"

	"rewind/decoders/sc2/bitpack"
	"rewind/model"
)

// msgLayout is what changes between builds in replay.message.events: the
// width of the user id before each event and of the chat recipient.
type msgLayout struct {
	userBits uint
	recBits  uint
}

// Layouts to try, newest first. s2protocol's type info gives a 5-bit user
// id and a 3-bit recipient for recent builds, a 2-bit recipient for 2010
// builds. The stream carries no version of its own, so the decoder takes
// the first layout that reads the whole stream cleanly.
var msgLayouts = []msgLayout{{5, 3}, {5, 2}, {4, 2}, {4, 3}}

type msgEvent struct {
	loop      int64
	user      int64
	id        int64
	recipient int64
	text      string
	x, y      int64
	progress  int64
	off, end  int
}

func readMessages(b []byte, l msgLayout) ([]msgEvent, error) {
	r := bitpack.New(b)
	var out []msgEvent
	loop := int64(0)
	for !r.Done() {
		e := msgEvent{off: r.Pos()}
		sel := r.Bits(2)
		loop += int64(r.Bits([]uint{6, 14, 22, 32}[sel]))
		e.loop = loop
		e.user = int64(r.Bits(l.userBits))
		e.id = int64(r.Bits(4))
		switch e.id {
		case 0: // chat
			e.recipient = int64(r.Bits(l.recBits))
			e.text = string(r.Blob(11))
		case 1: // ping
			e.recipient = int64(r.Bits(l.recBits))
			e.x = r.Int(-2147483648, 32)
			e.y = r.Int(-2147483648, 32)
		case 2: // loading progress
			e.progress = r.Int(-2147483648, 32)
		case 3: // server ping, no body
		case 4: // reconnect notify
			e.progress = int64(r.Bits(2))
		default:
			r.Fail("unknown message event id %d", e.id)
		}
		if err := r.Err(); err != nil {
			return out, err
		}
		r.ByteAlign()
		e.end = r.Pos()
		out = append(out, e)
	}
	return out, nil
}

var msgKinds = []string{"chat", "ping", "progress", "serverping", "reconnect"}

func recipientName(r int64) string {
	switch r {
	case 0:
		return "all"
	case 1:
		return "allies"
	case 2:
		return "private"
	case 3:
		return "battle.net"
	case 4:
		return "observers"
	}
	return fmt.Sprintf("recipient %d", r)
}

func (d *decoder) messages(b []byte) {
	var evs []msgEvent
	var err error
	var best []msgEvent
	var bestErr error
	for _, l := range msgLayouts {
		evs, err = readMessages(b, l)
		if err == nil {
			best, bestErr = evs, nil
			break
		}
		if len(evs) > len(best) || best == nil {
			best, bestErr = evs, err
		}
	}
	if bestErr != nil {
		d.r.Partial = true
		off := int64(0)
		if e, ok := bestErr.(*bitpack.Error); ok {
			off = int64(e.Off)
		}
		d.r.Diagnostics = append(d.r.Diagnostics, model.Diagnostic{Severity: model.Warning, Source: source,
			Span: model.Span{Stream: fMessages, Off: off, Len: int64(len(b)) - off}, Frame: -1,
			Subject: fmt.Sprintf("message event %d", len(best)), Message: bestErr.Error() + "; rest of the stream skipped", Skipped: true})
	}
	for _, e := range best {
		pl := -1
		if p, ok := d.userToPl[int(e.user)]; ok {
			pl = p
		} else if len(d.userToPl) == 0 && int(e.user) < len(d.r.Players) {
			// Without tracker setup events the user id is the lobby slot,
			// which is the details order for games without open slots.
			pl = int(e.user)
		}
		who := fmt.Sprintf("user %d", e.user)
		if pl >= 0 {
			who = d.r.Players[pl].Name
		}
		ev := model.Event{Frame: int(e.loop), Player: pl, Kind: msgKinds[e.id],
			Span: model.Span{Stream: fMessages, Off: int64(e.off), Len: int64(e.end - e.off)}, Ref: -1}
		fs := []model.Field{
			{Key: "gameloop", Label: "_gameloop", Value: e.loop},
			{Key: "userId", Label: "_userid", Value: e.user},
			{Key: "eventId", Label: "_eventid", Value: e.id, Name: msgKinds[e.id]},
		}
		switch e.id {
		case 0:
			ev.Summary = fmt.Sprintf("chat [%s] %s: %s", recipientName(e.recipient), who, e.text)
			ev.Notable = true
			fs = append(fs, model.Field{Key: "recipient", Label: "m_recipient", Value: e.recipient, Name: recipientName(e.recipient)},
				model.Field{Key: "string", Label: "m_string", Value: e.text})
		case 1:
			ev.Summary = fmt.Sprintf("ping [%s] %s at (%g, %g)", recipientName(e.recipient), who, float64(e.x)/4096, float64(e.y)/4096)
			fs = append(fs, model.Field{Key: "recipient", Label: "m_recipient", Value: e.recipient, Name: recipientName(e.recipient)},
				model.Field{Key: "point", Label: "m_point", Value: fmt.Sprintf("(%d, %d)", e.x, e.y)})
		case 2:
			ev.Summary = fmt.Sprintf("loading progress %s %d%%", who, e.progress)
			fs = append(fs, model.Field{Key: "progress", Label: "m_progress", Value: e.progress})
		case 3:
			ev.Summary = "server ping"
		case 4:
			ev.Summary = fmt.Sprintf("reconnect %s status %d", who, e.progress)
			fs = append(fs, model.Field{Key: "status", Label: "m_status", Value: e.progress})
		}
		ev.Fields = fs
		d.r.Events = append(d.r.Events, ev)
	}
}
