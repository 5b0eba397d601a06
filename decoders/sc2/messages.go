package sc2

import (
	"fmt"

	"rewind/decoders/sc2/bitpack"
	"rewind/decoders/sc2/protocol"
	"rewind/model"
)

// msgStream is replay.message.events: chat, pings, loading progress. It is
// small, so each message is read whole while decoding.
type msgStream struct {
	table  eventTable
	events []msgEvent
	exact  bool // the table read the whole stream
}

type msgEvent struct {
	raw       rawEvent
	name      string // "ChatMessage"
	recipient int64
	text      string
	x, y      int64 // ping point, 1/4096 map cell
	value     int64 // loading progress, reconnect status
	hasValue  bool
}

// msgEventSize is what one message costs the budget.
const msgEventSize = 96

// decodeMessages runs as a task of its own (readArchive): it writes only d.msgs and out.
func (d *decoder) decodeMessages(b []byte, out *[]model.Diagnostic) {
	ps, err := pickEvents(b, d.baseBuild, fMessages, d.b, messageTable, (*protocol.Protocol).MessageLayout)
	if err == nil {
		err = d.b.Items(fMessages+": messages", int64(len(ps.events)), msgEventSize)
	}
	if err != nil {
		d.budgetHit(model.Span{Stream: fMessages})
		return
	}
	if ps.table.p == nil {
		return
	}
	if ps.err != nil {
		last := 0
		if n := len(ps.events); n > 0 {
			last = int(ps.events[n-1].loop)
		}
		*out = append(*out, streamError(fMessages, len(ps.events), ps.err, len(b), last))
	}
	m := &msgStream{table: ps.table, events: make([]msgEvent, 0, len(ps.events)), exact: ps.err == nil}
	dec := bitpack.Decoder{Tab: ps.table.p.Types}
	for _, raw := range ps.events {
		r := bitpack.New(b[raw.off:raw.end])
		ps.table.head(r)
		et, _ := ps.table.event(int64(raw.id))
		v := dec.Read(r, et.Type)
		e := msgEvent{raw: raw, name: et.Name}
		e.recipient, _ = v.IntOf("m_recipient")
		if s, ok := v.BytesOf("m_string"); ok {
			e.text = string(s)
		}
		if p, ok := v.Get("m_point"); ok {
			e.x, _ = p.IntOf("x")
			e.y, _ = p.IntOf("y")
		}
		if x, ok := v.IntOf("m_progress"); ok {
			e.value, e.hasValue = x, true
		}
		if x, ok := v.IntOf("m_status"); ok {
			e.value, e.hasValue = x, true
		}
		m.events = append(m.events, e)
	}
	d.msgs = m
}

var msgKinds = map[string]string{"ChatMessage": "chat", "PingMessage": "ping", "LoadingProgressMessage": "progress",
	"ServerPingMessage": "serverping", "ReconnectNotifyMessage": "reconnect"}

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

// msgPlayer is the player of a message's user id.
func (d *decoder) msgPlayer(user int) int {
	if d.occupiedToPl != nil && d.msgs != nil && d.msgs.table.p.User < 0 {
		if p, ok := d.occupiedToPl[user]; ok {
			return p
		}
		return -1
	}
	if p, ok := d.userToPl[user]; ok {
		return p
	}
	if len(d.userToPl) == 0 && user < len(d.r.Players) {
		// Without tracker setup events or a lobby the user id is the lobby
		// slot, which is the details order for games without open slots.
		return user
	}
	return -1
}

// source hands the messages to the replay's merge; their summaries and
// fields are made when asked for (installMessages).
func (m *msgStream) source(d *decoder, kt *kindTable) eventSource {
	return eventSource{n: len(m.events),
		frame: func(i int) int { return int(m.events[i].raw.loop) },
		event: func(i int, ev *model.Event) {
			e := &m.events[i]
			kind := msgKinds[e.name]
			if kind == "" {
				kind = "message"
			}
			ev.Frame, ev.Player, ev.Kind, ev.Ref = int32(e.raw.loop), int16(d.msgPlayer(int(e.raw.user))), kt.id(kind), int32(i)
			ev.Stream, ev.Off, ev.Len = sMessages, int64(e.raw.off), int64(e.raw.end-e.raw.off)
			if e.name == "ChatMessage" {
				ev.Flags |= model.Notable
			}
		}}
}

// installMessages hands the replay the summaries and fields of the
// messages and of the game's end (kind kEnd), which the tracker's and the
// game events' pass on.
func (d *decoder) installMessages(kEnd model.KindID) {
	var events []msgEvent
	if d.msgs != nil {
		events = d.msgs.events
	}
	d.r.Summarize = func(ev *model.Event) string {
		switch {
		case ev.Stream == 0 && ev.Kind == kEnd:
			return "game end: " + nonEmpty(d.r.Result, "result unknown")
		case ev.Stream != sMessages || ev.Ref < 0 || int(ev.Ref) >= len(events):
			return ""
		}
		return d.msgSummary(&events[ev.Ref])
	}
	d.r.Detail = func(ev *model.Event) []model.Field {
		if ev.Stream != sMessages || ev.Ref < 0 || int(ev.Ref) >= len(events) {
			return nil
		}
		return msgFields(&events[ev.Ref])
	}
}

// msgSummary is a message's line in the events pane.
func (d *decoder) msgSummary(e *msgEvent) string {
	pl := d.msgPlayer(int(e.raw.user))
	who := fmt.Sprintf("user %d", e.raw.user)
	if pl >= 0 {
		who = d.r.Players[pl].Name
	}
	switch e.name {
	case "ChatMessage":
		return fmt.Sprintf("chat [%s] %s: %s", recipientName(e.recipient), who, e.text)
	case "PingMessage":
		return fmt.Sprintf("ping [%s] %s at (%.1f, %.1f)", recipientName(e.recipient), who, float64(e.x)/pointScale, float64(e.y)/pointScale)
	case "LoadingProgressMessage":
		return fmt.Sprintf("loading progress %s %d%%", who, e.value)
	case "ServerPingMessage":
		return "server ping"
	case "ReconnectNotifyMessage":
		return fmt.Sprintf("reconnect %s status %d", who, e.value)
	}
	return fmt.Sprintf("%s %s", e.name, who)
}

// msgFields are a message's fields, named as in s2protocol.
func msgFields(e *msgEvent) []model.Field {
	fs := []model.Field{
		{Key: "gameloop", Label: "_gameloop", Value: int64(e.raw.loop)},
		{Key: "userId", Label: "_userid", Value: int64(e.raw.user)},
		{Key: "eventId", Label: "_eventid", Value: int64(e.raw.id), Name: e.name},
	}
	switch e.name {
	case "ChatMessage":
		fs = append(fs, model.Field{Key: "recipient", Label: "m_recipient", Value: e.recipient, Name: recipientName(e.recipient)},
			model.Field{Key: "string", Label: "m_string", Value: e.text})
	case "PingMessage":
		fs = append(fs, model.Field{Key: "recipient", Label: "m_recipient", Value: e.recipient, Name: recipientName(e.recipient)},
			model.Field{Key: "point", Label: "m_point", Value: fmt.Sprintf("(%d, %d)", e.x, e.y),
				Name: fmt.Sprintf("(%.2f, %.2f) in map cells", float64(e.x)/pointScale, float64(e.y)/pointScale)})
	case "LoadingProgressMessage":
		fs = append(fs, model.Field{Key: "progress", Label: "m_progress", Value: e.value})
	case "ReconnectNotifyMessage":
		fs = append(fs, model.Field{Key: "status", Label: "m_status", Value: e.value})
	}
	return fs
}
