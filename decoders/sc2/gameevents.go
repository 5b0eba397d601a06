package sc2

import (
	"fmt"
	"strings"

	"rewind/decoders/sc2/bitpack"
	"rewind/model"
)

type gev struct {
	loop     int32
	user     int16
	id       int16
	off, end int32
}

type gameStream struct {
	data   []byte
	events []gev
	tab    bitpack.Table
	types  map[int64]gameEvent
	proto  *protocol
}

// readHead reads what precedes every game event body: the loop delta, the
// user id and the event id.
func readHead(r *bitpack.Reader) (delta, user, id int64) {
	sel := r.Bits(2)
	delta = int64(r.Bits([]uint{6, 14, 22, 32}[sel]))
	user = int64(r.Bits(5))
	id = int64(r.Bits(7))
	return
}

// gameEvents decodes replay.game.events with a protocol's layout. It is
// called only when replay.initData decoded with the same table, which is
// what ties the build to the layout.
func (d *decoder) gameEvents(b []byte, p *protocol) {
	g := &gameStream{data: b, tab: p.tab, types: p.events, proto: p}
	r := bitpack.New(b)
	loop := int64(0)
	g.events = make([]gev, 0, len(b)/6+16)
	for !r.Done() {
		off := r.Pos()
		delta, user, id := readHead(r)
		loop += delta
		et, ok := g.types[id]
		if r.Err() == nil && !ok {
			r.Fail("game event id %d is not in the %s layout", id, g.proto.name)
		}
		if r.Err() == nil {
			r.Skip(g.tab, et.typ)
		}
		if err := r.Err(); err != nil {
			d.r.Partial = true
			e, _ := err.(*bitpack.Error)
			at := int64(off)
			if e != nil {
				at = int64(e.Off)
			}
			d.r.Diagnostics = append(d.r.Diagnostics, model.Diagnostic{Severity: model.Warning, Source: source,
				Span: model.Span{Stream: fGame, Off: at, Len: int64(len(b)) - at}, Frame: int(min64(loop, int64(d.limit()))),
				Subject: fmt.Sprintf("game event %d", len(g.events)), Message: err.Error() + "; rest of the stream skipped", Skipped: true})
			break
		}
		r.ByteAlign()
		if loop > int64(d.limit()) {
			loop = int64(d.limit())
		}
		g.events = append(g.events, gev{loop: int32(loop), user: int16(user), id: int16(id), off: int32(off), end: int32(r.Pos())})
	}
	d.game = g
	d.gameEventsLater = func() { g.appendEvents(d) }
	prevSum, prevDetail := d.r.Summarize, d.r.Detail
	d.r.Summarize = func(ev *model.Event) string {
		if ev.Span.Stream != fGame || ev.Ref < 0 || ev.Ref >= len(g.events) {
			if prevSum != nil {
				return prevSum(ev)
			}
			return ""
		}
		return g.summary(d, &g.events[ev.Ref])
	}
	d.r.Detail = func(ev *model.Event) []model.Field {
		if ev.Span.Stream != fGame || ev.Ref < 0 || ev.Ref >= len(g.events) {
			if prevDetail != nil {
				return prevDetail(ev)
			}
			return nil
		}
		return g.detail(&g.events[ev.Ref])
	}
}

// appendEvents adds the game events to the replay.
func (g *gameStream) appendEvents(d *decoder) {
	for i, e := range g.events {
		pl := d.gamePlayer(int(e.user))
		et := g.types[int64(e.id)]
		ev := model.Event{Frame: int(e.loop), Player: pl, Kind: et.kind, Ref: i,
			Span: model.Span{Stream: fGame, Off: int64(e.off), Len: int64(e.end - e.off)}}
		if et.kind == "leave" {
			ev.Notable = true
		}
		d.r.Events = append(d.r.Events, ev)
	}
}

func (g *gameStream) body(e *gev) bitpack.Value {
	r := bitpack.New(g.data[e.off:e.end])
	readHead(r)
	return r.Read(g.tab, g.types[int64(e.id)].typ)
}

func (g *gameStream) summary(d *decoder, e *gev) string {
	et := g.types[int64(e.id)]
	v := g.body(e)
	who := fmt.Sprintf("user %d", e.user)
	if p := d.gamePlayer(int(e.user)); p >= 0 && p < len(d.r.Players) {
		who = d.r.Players[p].Name
	}
	var sb strings.Builder
	sb.WriteString(et.name)
	sb.WriteString(" ")
	sb.WriteString(who)
	if body := eventSummary(et.name, &v); body != "" {
		sb.WriteString(": ")
		sb.WriteString(body)
	} else if len(v.Fields) > 0 {
		sb.WriteString(" ")
		formatValue(&sb, &v, 0)
	}
	s := sb.String()
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// Fixed-point scales of s2protocol's coordinates: map points (20-bit x and
// y, 32-bit z) count 1/4096 of a map cell, camera targets (16 bits) 1/256.
const (
	pointScale  = 4096
	cameraScale = 256
)

// controlGroupUpdates names NNet.Game.EControlGroupUpdate.
var controlGroupUpdates = []string{"set", "append", "recall", "clear", "set and steal", "append and steal"}

// selectionGroup names a control group id of the selection events: 0-9
// are the numbered groups, 10 is the current selection.
func selectionGroup(id int64) string {
	if id == 10 {
		return "selection"
	}
	return fmt.Sprintf("group %d", id)
}

// bitAt follows member names through optionals.
func bitAt(v *bitpack.Value, names ...string) (*bitpack.Value, bool) {
	for _, n := range names {
		if v.Kind == bitpack.KOptional {
			if v.Absent || len(v.Items) == 0 {
				return nil, false
			}
			v = &v.Items[0]
		}
		f, ok := v.Get(n)
		if !ok {
			return nil, false
		}
		v = f
	}
	if v.Kind == bitpack.KOptional {
		if v.Absent || len(v.Items) == 0 {
			return nil, false
		}
		v = &v.Items[0]
	}
	return v, true
}

func intAt(v *bitpack.Value, names ...string) (int64, bool) {
	f, ok := bitAt(v, names...)
	if !ok {
		return 0, false
	}
	return f.Int, true
}

// pointText formats a struct with x and y (and maybe z) members scaled to
// map cells.
func pointText(v *bitpack.Value, scale float64) string {
	x, ok1 := intAt(v, "x")
	y, ok2 := intAt(v, "y")
	if !ok1 || !ok2 {
		return "?"
	}
	return fmt.Sprintf("(%.2f, %.2f)", float64(x)/scale, float64(y)/scale)
}

// maskText describes a selection mask choice: which units a delta removes
// or a control group update keeps.
func maskText(m *bitpack.Value) string {
	if m == nil || len(m.Items) == 0 {
		return ""
	}
	c := &m.Items[0]
	switch c.Name {
	case "None":
		return ""
	case "Mask":
		n := 0
		for _, b := range c.Bytes {
			for ; b != 0; b &= b - 1 {
				n++
			}
		}
		return fmt.Sprintf("mask of %d bits, %d set", c.Int, n)
	case "OneIndices":
		if len(c.Items) == 0 {
			return ""
		}
		return fmt.Sprintf("indices %s", indexList(c))
	case "ZeroIndices":
		if len(c.Items) == 0 {
			return "all"
		}
		return fmt.Sprintf("all but indices %s", indexList(c))
	}
	return c.Name
}

func indexList(c *bitpack.Value) string {
	var sb strings.Builder
	for i := range c.Items {
		if i > 0 {
			sb.WriteString(",")
		}
		if i == 8 {
			fmt.Fprintf(&sb, "… (%d)", len(c.Items))
			break
		}
		fmt.Fprint(&sb, c.Items[i].Int)
	}
	return sb.String()
}

// eventSummary is the readable body of the common game events; "" means
// the caller writes the generic form.
func eventSummary(name string, v *bitpack.Value) string {
	switch name {
	case "Cmd":
		var sb strings.Builder
		if a, ok := bitAt(v, "m_abil"); ok {
			link, _ := intAt(a, "m_abilLink")
			idx, _ := intAt(a, "m_abilCmdIndex")
			fmt.Fprintf(&sb, "ability %d cmd %d", link, idx)
		} else {
			sb.WriteString("no ability")
		}
		if t, ok := bitAt(v, "m_data"); ok && len(t.Items) > 0 {
			c := &t.Items[0]
			switch c.Name {
			case "TargetPoint":
				sb.WriteString(" at " + pointText(c, pointScale))
			case "TargetUnit":
				tag, _ := intAt(c, "m_tag")
				unitType, _ := intAt(c, "m_snapshotUnitLink")
				fmt.Fprintf(&sb, " on unit %d/%d (type %d)", tag>>18, tag&0x3ffff, unitType)
				if p, ok := bitAt(c, "m_snapshotPoint"); ok {
					sb.WriteString(" at " + pointText(p, pointScale))
				}
			case "Data":
				fmt.Fprintf(&sb, " data %d", c.Int)
			}
		}
		return sb.String()
	case "SelectionDelta":
		id, _ := intAt(v, "m_controlGroupId")
		delta, ok := bitAt(v, "m_delta")
		if !ok {
			return selectionGroup(id)
		}
		units, types := int64(0), 0
		if add, ok := bitAt(delta, "m_addSubgroups"); ok {
			for i := range add.Items {
				n, _ := intAt(&add.Items[i], "m_count")
				units += n
				types++
			}
		}
		s := fmt.Sprintf("%s +%d units of %d types", selectionGroup(id), units, types)
		if rm, ok := bitAt(delta, "m_removeMask"); ok {
			if m := maskText(rm); m != "" {
				s += ", remove " + m
			}
		}
		return s
	case "ControlGroupUpdate":
		idx, _ := intAt(v, "m_controlGroupIndex")
		u, _ := intAt(v, "m_controlGroupUpdate")
		op := fmt.Sprintf("update %d", u)
		if u >= 0 && int(u) < len(controlGroupUpdates) {
			op = controlGroupUpdates[u]
		}
		s := fmt.Sprintf("%s group %d", op, idx)
		if m, ok := bitAt(v, "m_mask"); ok {
			if t := maskText(m); t != "" {
				s += ", " + t
			}
		}
		return s
	case "SelectionSyncCheck":
		id, _ := intAt(v, "m_controlGroupId")
		n, _ := intAt(v, "m_selectionSyncData", "m_count")
		return fmt.Sprintf("%s holds %d units", selectionGroup(id), n)
	case "CameraUpdate":
		t, ok := bitAt(v, "m_target")
		if !ok {
			return "camera without a target"
		}
		s := "camera to " + pointText(t, cameraScale)
		if d, ok := intAt(v, "m_distance"); ok {
			s += fmt.Sprintf(" distance %.2f", float64(d)/cameraScale)
		}
		return s
	case "CameraSave":
		w, _ := intAt(v, "m_which")
		if t, ok := bitAt(v, "m_target"); ok {
			return fmt.Sprintf("camera %d at %s", w, pointText(t, cameraScale))
		}
		return fmt.Sprintf("camera %d", w)
	case "UnitClick", "UnitHighlight":
		tag, _ := intAt(v, "m_unitTag")
		return fmt.Sprintf("unit %d/%d", tag>>18, tag&0x3ffff)
	case "PlayerLeave", "GameUserLeave":
		if r, ok := intAt(v, "m_leaveReason"); ok {
			return fmt.Sprintf("leaves (reason %d)", r)
		}
		return "leaves"
	case "HijackReplayGame":
		m, _ := intAt(v, "m_method")
		n := 0
		if u, ok := bitAt(v, "m_userInfos"); ok {
			n = len(u.Items)
		}
		return fmt.Sprintf("game resumed from the replay (method %d) by %d users", m, n)
	case "GameUserJoin":
		if b, ok := bitAt(v, "m_name"); ok {
			return fmt.Sprintf("%q joins", b.Bytes)
		}
	case "UserFinishedLoadingSync":
		return "finished loading"
	case "TriggerMouseClicked", "TriggerMouseMoved":
		s := ""
		if b, ok := intAt(v, "m_button"); ok {
			down, _ := intAt(v, "m_down")
			s = fmt.Sprintf("button %d %s ", b, map[bool]string{true: "down", false: "up"}[down != 0])
		}
		if p, ok := bitAt(v, "m_posWorld"); ok {
			return s + "at " + pointText(p, pointScale)
		}
		if x, ok := intAt(v, "m_posXWorld"); ok {
			y, _ := intAt(v, "m_posYWorld")
			return s + fmt.Sprintf("at (%.2f, %.2f)", float64(x)/pointScale, float64(y)/pointScale)
		}
		return strings.TrimSpace(s)
	case "TriggerChatMessage":
		if b, ok := bitAt(v, "m_chatMessage"); ok {
			return fmt.Sprintf("%q", b.Bytes)
		}
	case "CmdUpdateTargetPoint":
		if t, ok := bitAt(v, "m_target"); ok {
			return "target " + pointText(t, pointScale)
		}
	case "CmdUpdateTargetUnit":
		if tag, ok := intAt(v, "m_target", "m_tag"); ok {
			return fmt.Sprintf("target unit %d/%d", tag>>18, tag&0x3ffff)
		}
	}
	return ""
}

// formatValue writes a compact one-line form of a value.
func formatValue(sb *strings.Builder, v *bitpack.Value, depth int) {
	if sb.Len() > 240 {
		return
	}
	switch v.Kind {
	case bitpack.KStruct:
		sb.WriteString("{")
		n := 0
		for i := range v.Fields {
			f := &v.Fields[i]
			if f.Kind == bitpack.KOptional && f.Absent {
				continue
			}
			if n > 0 {
				sb.WriteString(" ")
			}
			n++
			sb.WriteString(strings.TrimPrefix(f.Name, "m_"))
			sb.WriteString(":")
			formatValue(sb, f, depth+1)
		}
		sb.WriteString("}")
	case bitpack.KOptional:
		if len(v.Items) > 0 {
			formatValue(sb, &v.Items[0], depth+1)
		} else {
			sb.WriteString("-")
		}
	case bitpack.KChoice:
		if len(v.Items) > 0 {
			sb.WriteString(v.Items[0].Name)
			if v.Items[0].Kind != bitpack.KNull {
				formatValue(sb, &v.Items[0], depth+1)
			}
		}
	case bitpack.KArray:
		fmt.Fprintf(sb, "[%d]", len(v.Items))
	case bitpack.KBlob, bitpack.KFourCC:
		fmt.Fprintf(sb, "%q", v.Bytes)
	case bitpack.KBitArray:
		fmt.Fprintf(sb, "bits(%d)", v.Int)
	case bitpack.KNull:
	default:
		fmt.Fprint(sb, v.Int)
	}
}

func (g *gameStream) detail(e *gev) []model.Field {
	et := g.types[int64(e.id)]
	v := g.body(e)
	out := []model.Field{
		{Key: "event", Label: "_event", Value: int64(e.id), Name: et.name, Span: model.Span{Stream: fGame, Off: int64(e.off), Len: int64(e.end - e.off)}},
		{Key: "gameloop", Label: "_gameloop", Value: int64(e.loop)},
		{Key: "userId", Label: "_userid", Value: int64(e.user)},
	}
	for i := range v.Fields {
		out = append(out, bitField(&v.Fields[i], int64(e.off), 0))
	}
	return out
}

func bitField(v *bitpack.Value, base int64, depth int) model.Field {
	f := model.Field{Key: strings.TrimPrefix(v.Name, "m_"), Label: v.Name,
		Span: model.Span{Stream: fGame, Off: base + int64(v.Off), Len: int64(v.End-v.Off) + 1}}
	if f.Key == "" {
		f.Key = "value"
	}
	x := v
	if x.Kind == bitpack.KOptional {
		if x.Absent || len(x.Items) == 0 {
			return f
		}
		x = &x.Items[0]
	}
	if depth > 8 {
		return f
	}
	switch x.Kind {
	case bitpack.KStruct:
		for i := range x.Fields {
			f.Fields = append(f.Fields, bitField(&x.Fields[i], base, depth+1))
		}
	case bitpack.KChoice:
		f.Name = ""
		if len(x.Items) > 0 {
			f.Name = x.Items[0].Name
			f.Value = x.Int
			c := bitField(&x.Items[0], base, depth+1)
			if c.Fields != nil {
				f.Fields = c.Fields
			} else if c.Value != nil {
				f.Fields = []model.Field{c}
			}
		}
	case bitpack.KArray:
		f.Value = int64(len(x.Items))
		f.Name = fmt.Sprintf("%d items", len(x.Items))
		for i := range x.Items {
			if i >= 64 {
				break
			}
			it := x.Items[i]
			it.Name = fmt.Sprintf("[%d]", i)
			f.Fields = append(f.Fields, bitField(&it, base, depth+1))
		}
	case bitpack.KBlob, bitpack.KFourCC:
		f.Value = string(x.Bytes)
	case bitpack.KBitArray:
		f.Value = x.Bytes
		f.Name = fmt.Sprintf("%d bits", x.Int)
	case bitpack.KBool:
		f.Value = x.Int != 0
	case bitpack.KNull:
	default:
		f.Value = x.Int
	}
	return f
}

// gamePlayer is the player index of a game event's user id, -1 if none.
func (d *decoder) gamePlayer(user int) int {
	m := d.userToPl
	if d.gameUserToPl != nil {
		m = d.gameUserToPl
	}
	if p, ok := m[user]; ok {
		return p
	}
	return -1
}
