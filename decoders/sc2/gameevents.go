package sc2

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"rewind/decoders/sc2/bitpack"
	"rewind/decoders/sc2/names"
	"rewind/decoders/sc2/protocol"
	"rewind/model"
)

// gameStream is replay.game.events: where each event is; bodies are read
// again when an event is shown (summary, fields).
type gameStream struct {
	keptStream
	table  eventTable
	events []rawEvent
	exact  bool // the table read the whole stream

	wordsOnce  sync.Once
	eventWords []string // names.Words of each event id's name
}

// decodeGame reads replay.game.events with the layout that reads it (see
// pickEvents). It runs as a task of its own (readArchive): it writes only d.game and out.
func (d *decoder) decodeGame(b []byte, out *[]model.Diagnostic) {
	ps, err := pickEvents(b, d.baseBuild, fGame, d.b, gameTable, (*protocol.Protocol).GameLayout)
	if err != nil {
		d.budgetHit(model.Span{Stream: fGame})
		return
	}
	if ps.table.p == nil {
		*out = append(*out, diagnostic(model.Warning, model.Span{Stream: fGame, Len: int64(len(b))}, fGame,
			"no protocol table to read it with", "", ""))
		return
	}
	if ps.err != nil {
		last := 0
		if n := len(ps.events); n > 0 {
			last = int(ps.events[n-1].loop)
		}
		*out = append(*out, streamError(fGame, len(ps.events), ps.err, len(b), last))
	}
	d.game = &gameStream{keptStream: keptStream{data: b, reload: func() []byte { return d.st.load(fGame) }},
		table: ps.table, events: ps.events, exact: ps.err == nil}
	if dg, ok := d.pastTheEnd(fGame, "game", len(ps.events), func(i int) (int32, int32, int32) {
		e := &ps.events[i]
		return e.loop, e.off, e.end
	}); ok {
		*out = append(*out, dg)
	}
}

// pastTheEnd reports the events of a stream that come after the header's
// last loop: they are kept and shown at the last frame, and said so. A
// stream's events are in loop order but for a tracker loop that wrapped
// back (decodeTracker), so all are looked at.
func (d *decoder) pastTheEnd(stream, what string, n int, at func(i int) (loop, off, end int32)) (model.Diagnostic, bool) {
	if !d.hasLoops || n == 0 {
		return model.Diagnostic{}, false
	}
	first, past := -1, 0
	for i := range n {
		if l, _, _ := at(i); int(l) > d.loops {
			if first < 0 {
				first = i
			}
			past++
		}
	}
	if first < 0 {
		return model.Diagnostic{}, false
	}
	loop, off, end := at(first)
	dg := diagnostic(model.Warning, model.Span{Stream: stream, Off: int64(off), Len: int64(end - off)},
		fmt.Sprintf("%s event %d", what, first),
		fmt.Sprintf("%d %s events come after the game's last loop; they are shown at the last loop", past, what),
		fmt.Sprintf("game loops up to %d (the header's m_elapsedGameLoops)", d.loops), fmt.Sprintf("loop %d", loop))
	dg.Frame = d.loops
	return dg, true
}

// source hands the game events to the replay's merge.
func (g *gameStream) source(d *decoder, kt *kindTable) eventSource {
	// one kind per event id, worked out once
	kinds := make([]model.KindID, len(g.table.events))
	for id, et := range g.table.events {
		kinds[id] = kt.id(eventKind(et.Name))
	}
	leave := kt.id("leave")
	return eventSource{n: len(g.events),
		frame: func(i int) int { return int(g.events[i].loop) },
		event: func(i int, ev *model.Event) {
			e := &g.events[i]
			ev.Frame, ev.Player, ev.Kind, ev.Ref = int32(e.loop), int16(d.gamePlayer(int(e.user))), kinds[e.id], int32(i)
			ev.Stream, ev.Off, ev.Len = sGame, int64(e.off), int64(e.end-e.off)
			if ev.Kind == leave {
				ev.Flags |= model.Notable
			}
		}}
}

// eventBytes are an event's bytes: from the stream, read again when a
// check gave it back (only a summary or an event's fields ask then).
func (g *gameStream) eventBytes(e *rawEvent) []byte { return g.span(e.off, e.end) }

// body reads an event's body again. It is bounded by the event's own
// bytes, so it needs no budget.
func (g *gameStream) body(e *rawEvent) bitpack.Value {
	r := bitpack.New(g.eventBytes(e))
	g.table.head(r)
	et, _ := g.table.event(int64(e.id))
	dec := bitpack.Decoder{Tab: g.table.p.Types}
	return dec.Read(r, et.Type)
}

// summaryScratch is what a summary is written with: a reader, a decoder
// whose values live in an arena (an event's body is read into ~15 values
// of 128 bytes; allocated one by one they were most of the cost of the
// events table of `rewind export`), and the line.
type summaryScratch struct {
	r   bitpack.Reader
	dec bitpack.Decoder
	buf []byte
}

var summaryScratches = sync.Pool{New: func() any {
	s := &summaryScratch{buf: make([]byte, 0, 256)}
	s.dec.UseArena()
	return s
}}

func (g *gameStream) summary(d *decoder, e *rawEvent) string {
	et, _ := g.table.event(int64(e.id))
	s := summaryScratches.Get().(*summaryScratch)
	defer summaryScratches.Put(s)
	v := g.bodyIn(s, e)
	b := s.buf[:0]
	if p := d.gamePlayer(int(e.user)); p >= 0 && p < len(d.r.Players) {
		b = append(b, d.r.Players[p].Name...)
	} else if e.user == 16 {
		b = append(b, "game"...) // user 16 is the game itself (loading, triggers)
	} else {
		b = strconv.AppendInt(append(b, "user "...), int64(e.user), 10)
	}
	b = append(b, ": "...)
	head := len(b)
	if b = d.appendEventSummary(b, et.Name, &v); len(b) == head {
		b = append(b, g.words(e.id)...)
		if len(v.Fields) > 0 {
			b = append(b, ' ')
			b = formatValue(b, &v, 0)
		}
	}
	s.buf = b
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// bodyIn reads an event's body as body does, into the scratch's arena:
// the value is good until the scratch reads another.
func (g *gameStream) bodyIn(s *summaryScratch, e *rawEvent) bitpack.Value {
	s.r.Reset(g.eventBytes(e))
	g.table.head(&s.r)
	et, _ := g.table.event(int64(e.id))
	s.dec.Tab = g.table.p.Types
	s.dec.ResetArena()
	return s.dec.Read(&s.r, et.Type)
}

// words is an event's name in words ("Trigger Portrait Loaded"), worked
// out once per stream for every event id.
func (g *gameStream) words(id int16) string {
	g.wordsOnce.Do(func() {
		g.eventWords = make([]string, len(g.table.events))
		for i, et := range g.table.events {
			g.eventWords[i] = names.Words(et.Name)
		}
	})
	if id < 0 || int(id) >= len(g.eventWords) {
		return ""
	}
	return g.eventWords[id]
}

// eventKind is the short kind shown in the events pane for an event name.
func eventKind(name string) string {
	switch name {
	case "Cmd":
		return "cmd"
	case "SelectionDelta":
		return "select"
	case "ControlGroupUpdate":
		return "group"
	case "SelectionSyncCheck":
		return "selsync"
	case "CameraUpdate":
		return "camera"
	case "CameraSave":
		return "camsave"
	case "PlayerLeave", "GameUserLeave":
		return "leave"
	case "GameUserJoin":
		return "join"
	case "UserFinishedLoadingSync":
		return "loaded"
	case "UserOptions":
		return "options"
	case "ResourceTrade":
		return "trade"
	case "UnitClick":
		return "click"
	case "UnitHighlight":
		return "highlight"
	case "Alliance":
		return "alliance"
	case "SetAbsoluteGameSpeed", "AddAbsoluteGameSpeed":
		return "speed"
	case "GameCheat", "BroadcastCheat":
		return "cheat"
	case "AICommunicate":
		return "ai"
	case "TriggerPing":
		return "tping"
	case "SaveGame", "SaveGameDone":
		return "save"
	case "LoadGameDone":
		return "load"
	case "LagMessage":
		return "lag"
	case "DecrementGameTimeRemaining":
		return "timer"
	case "CmdUpdateTargetPoint", "CmdUpdateTargetUnit":
		return "cmdupdate"
	case "CommandManagerReset":
		return "cmdreset"
	case "CommandManagerState":
		return "cmdstate"
	case "HijackReplayGame":
		return "hijack"
	case "AchievementAwarded":
		return "achievement"
	case "TriggerCommandError":
		return "cmderror"
	case "HeroTalentTreeSelected", "HeroTalentTreeSelectionPanelToggled":
		return "talent"
	case "CatalogModify":
		return "catalog"
	}
	switch {
	case strings.HasPrefix(name, "Bank"):
		return "bank"
	case strings.HasPrefix(name, "ResourceRequest"):
		return "request"
	case strings.HasPrefix(name, "TriggerMouse"):
		return "mouse"
	case strings.HasPrefix(name, "TriggerDialog"), strings.HasPrefix(name, "TriggerCustomDialog"):
		return "dialog"
	case strings.HasSuffix(name, "SyncLoadingTime"), strings.HasSuffix(name, "SyncPlayingTime"):
		return "sync"
	case strings.HasPrefix(name, "TriggerKey"), strings.HasPrefix(name, "TriggerHotkey"):
		return "key"
	}
	return "trigger"
}

// Fixed-point scales of s2protocol's coordinates: map points (20-bit x and
// y, 32-bit z) count 1/4096 of a map cell, camera targets (16 bits) 1/256.
const (
	pointScale  = 4096
	cameraScale = 256
)

// controlGroupUpdates names NNet.Game.EControlGroupUpdate.
var controlGroupUpdates = []string{"set", "append", "recall", "clear", "set and steal", "append and steal"}

// at follows member names through optionals.
func at(v *bitpack.Value, names ...string) (*bitpack.Value, bool) {
	for _, n := range names {
		if v = v.Deref(); v == nil {
			return nil, false
		}
		f, ok := v.Get(n)
		if !ok {
			return nil, false
		}
		v = f
	}
	v = v.Deref()
	return v, v != nil
}

func intAt(v *bitpack.Value, names ...string) (int64, bool) {
	f, ok := at(v, names...)
	if !ok {
		return 0, false
	}
	return f.Int, true
}

// appendPoint writes a struct with x and y members scaled to map cells:
// "(52.5, 31.0)", as fmt's %.1f writes them.
func appendPoint(b []byte, v *bitpack.Value, scale float64) []byte {
	x, ok1 := intAt(v, "x")
	y, ok2 := intAt(v, "y")
	if !ok1 || !ok2 {
		return append(b, '?')
	}
	return appendXY(b, float64(x)/scale, float64(y)/scale)
}

func appendXY(b []byte, x, y float64) []byte {
	b = strconv.AppendFloat(append(b, '('), x, 'f', 1, 64)
	b = strconv.AppendFloat(append(b, ", "...), y, 'f', 1, 64)
	return append(b, ')')
}

// appendTag writes a unit tag as index/recycle: "12/1".
func appendTag(b []byte, tag int64) []byte {
	b = strconv.AppendInt(b, tag>>18, 10)
	return strconv.AppendInt(append(b, '/'), tag&0x3ffff, 10)
}

// appendMask describes a selection mask choice: which units of the
// selection a delta removes or a control group update keeps; nothing for
// none.
func appendMask(b []byte, m *bitpack.Value) []byte {
	if m == nil || len(m.Items) == 0 {
		return b
	}
	c := &m.Items[0]
	switch c.Name {
	case "None":
		return b
	case "Mask":
		if c.OnesCount() == 0 {
			return b
		}
		return appendIndexList(append(b, "units "...), c.Indices())
	case "OneIndices":
		if len(c.Items) == 0 {
			return b
		}
		return appendIndexList(append(b, "units "...), itemInts(c))
	case "ZeroIndices":
		if len(c.Items) == 0 {
			return append(b, "all units"...)
		}
		return appendIndexList(append(b, "all units but "...), itemInts(c))
	}
	return append(b, c.Name...)
}

func itemInts(c *bitpack.Value) []int {
	out := make([]int, len(c.Items))
	for i := range c.Items {
		out[i] = int(c.Items[i].Int)
	}
	return out
}

func indexList(ix []int) string { return string(appendIndexList(nil, ix)) }

// appendIndexList writes up to 12 indices: "0, 3, 5", "… (20)" after.
func appendIndexList(b []byte, ix []int) []byte {
	for i, x := range ix {
		if i > 0 {
			b = append(b, ", "...)
		}
		if i == 12 {
			b = strconv.AppendInt(append(b, "… ("...), int64(len(ix)), 10)
			b = append(b, ')')
			break
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return b
}

// unitName is a unit link's title in the replay's id table, worked out
// once per link.
func (d *decoder) unitName(link int64) string {
	d.namesMu.RLock()
	n, ok := d.unitNames[link]
	d.namesMu.RUnlock()
	if ok {
		return n
	}
	n, ok = d.names.Unit(int(link))
	if !ok {
		n = fmt.Sprintf("unit type %d", link)
	}
	d.namesMu.Lock()
	if d.unitNames == nil {
		d.unitNames = map[int64]string{}
	}
	d.unitNames[link] = n
	d.namesMu.Unlock()
	return n
}

// noAbility is the ability link of a base build 15405 command that uses
// none: the default ("smart") command.
const noAbility = 0xffff

// cmdAbility is a command's ability link and command index; false for the
// default ("smart") command, which uses none. From base build 16561 a
// command nests them in an optional m_abil; 15405's carries them in its
// body, with link 0xffff (and index 255) for the default command.
func cmdAbility(v *bitpack.Value) (link, index int64, ok bool) {
	a, nested := at(v, "m_abil")
	if !nested {
		a = v
	}
	if link, ok = intAt(a, "m_abilLink"); !ok || link == noAbility {
		return 0, 0, false
	}
	index, _ = intAt(a, "m_abilCmdIndex")
	return link, index, true
}

// command names a command's ability: "Train Marine"; ok false when the
// id table has no name for it.
func (d *decoder) command(v *bitpack.Value) (string, bool) {
	link, idx, ok := cmdAbility(v)
	if !ok {
		return "Right Click", true // a command without an ability is the default ("smart") command
	}
	key := [2]int64{link, idx}
	d.namesMu.RLock()
	c, ok := d.commands[key]
	d.namesMu.RUnlock()
	if ok {
		return c.text, c.ok
	}
	c = commandText{text: fmt.Sprintf("ability %d command %d", link, idx)}
	if n, ok := d.names.Command(int(link), int(idx)); ok {
		c = commandText{text: n.Text(), ok: true}
	}
	d.namesMu.Lock()
	if d.commands == nil {
		d.commands = map[[2]int64]commandText{}
	}
	d.commands[key] = c
	d.namesMu.Unlock()
	return c.text, c.ok
}

// commandText is a command's name as command gives it, kept per ability
// link and command index (names.Words, behind it, works rune by rune).
type commandText struct {
	text string
	ok   bool
}

// appendEventSummary writes the readable body of the common game events;
// nothing means the caller writes the generic form.
func (d *decoder) appendEventSummary(b []byte, name string, v *bitpack.Value) []byte {
	switch name {
	case "Cmd":
		text, _ := d.command(v)
		b = append(b, text...)
		if t, ok := at(v, "m_data"); ok && len(t.Items) > 0 {
			c := &t.Items[0]
			switch c.Name {
			case "TargetPoint":
				b = appendPoint(append(b, " at "...), c, pointScale)
			case "TargetUnit":
				tag, _ := intAt(c, "m_tag")
				typ, _ := intAt(c, "m_snapshotUnitLink")
				b = append(append(b, " on "...), d.unitName(typ)...)
				b = append(appendTag(append(b, " (unit "...), tag), ')')
				if p, ok := at(c, "m_snapshotPoint"); ok {
					b = appendPoint(append(b, " at "...), p, pointScale)
				}
			case "Data":
				b = strconv.AppendInt(append(b, " data "...), c.Int, 10)
			}
		}
		return b
	case "SelectionDelta":
		id, _ := intAt(v, "m_controlGroupId")
		if id != 10 {
			b = strconv.AppendInt(append(b, "group "...), id, 10)
		} else {
			b = append(b, "selection"...)
		}
		delta, ok := at(v, "m_delta")
		if !ok {
			return b
		}
		parts := 0
		sep := func() {
			if parts == 0 {
				b = append(b, ' ')
			} else {
				b = append(b, ", "...)
			}
			parts++
		}
		if add, ok := at(delta, "m_addSubgroups"); ok {
			for i := range add.Items {
				n, _ := intAt(&add.Items[i], "m_count")
				link, _ := intAt(&add.Items[i], "m_unitLink")
				sep()
				b = strconv.AppendInt(append(b, '+'), n, 10)
				b = append(append(b, ' '), d.unitName(link)...)
			}
		}
		if rm, ok := at(delta, "m_removeMask"); ok {
			// written in place, and taken back when the mask says nothing
			mark, had := len(b), parts
			sep()
			b = append(b, "remove "...)
			n := len(b)
			if b = appendMask(b, rm); len(b) == n {
				b, parts = b[:mark], had
			}
		}
		if parts == 0 {
			b = append(b, " unchanged"...)
		}
		return b
	case "ControlGroupUpdate":
		idx, _ := intAt(v, "m_controlGroupIndex")
		u, _ := intAt(v, "m_controlGroupUpdate")
		if u >= 0 && int(u) < len(controlGroupUpdates) {
			b = append(b, controlGroupUpdates[u]...)
		} else {
			b = strconv.AppendInt(append(b, "update "...), u, 10)
		}
		b = strconv.AppendInt(append(b, " group "...), idx, 10)
		if m, ok := at(v, "m_mask"); ok {
			mark := len(b)
			b = append(b, " without "...)
			n := len(b)
			if b = appendMask(b, m); len(b) == n {
				b = b[:mark]
			}
		}
		return b
	case "SelectionSyncCheck":
		id, _ := intAt(v, "m_controlGroupId")
		n, _ := intAt(v, "m_selectionSyncData", "m_count")
		if id == 10 {
			return fmt.Appendf(b, "selection holds %d units", n)
		}
		return fmt.Appendf(b, "group %d holds %d units", id, n)
	case "CameraUpdate":
		t, ok := at(v, "m_target")
		if !ok {
			return append(b, "camera without a target"...)
		}
		b = appendPoint(append(b, "camera to "...), t, cameraScale)
		if dist, ok := intAt(v, "m_distance"); ok {
			b = strconv.AppendFloat(append(b, " distance "...), float64(dist)/cameraScale, 'f', 1, 64)
		}
		return b
	case "CameraSave":
		w, _ := intAt(v, "m_which")
		if t, ok := at(v, "m_target"); ok {
			return appendPoint(fmt.Appendf(b, "save camera %d at ", w+1), t, cameraScale)
		}
		return fmt.Appendf(b, "save camera %d", w+1)
	case "UnitClick", "UnitHighlight":
		tag, _ := intAt(v, "m_unitTag")
		verb := "click"
		if name == "UnitHighlight" {
			verb = "highlight"
		}
		return appendTag(append(append(b, verb...), " unit "...), tag)
	case "PlayerLeave", "GameUserLeave":
		if r, ok := intAt(v, "m_leaveReason"); ok {
			return fmt.Appendf(b, "leaves (reason %d)", r)
		}
		return append(b, "leaves"...)
	case "HijackReplayGame":
		m, _ := intAt(v, "m_method")
		n := 0
		if u, ok := at(v, "m_userInfos"); ok {
			n = len(u.Items)
		}
		return fmt.Appendf(b, "game resumed from the replay (method %d) by %d users", m, n)
	case "GameUserJoin":
		if n, ok := at(v, "m_name"); ok {
			return fmt.Appendf(b, "%q joins", n.Bytes)
		}
	case "UserFinishedLoadingSync":
		return append(b, "finished loading"...)
	case "TriggerMouseClicked", "TriggerMouseMoved":
		s := ""
		if m, ok := intAt(v, "m_button"); ok {
			down, _ := intAt(v, "m_down")
			s = fmt.Sprintf("mouse button %d %s ", m, map[bool]string{true: "down", false: "up"}[down != 0])
		}
		if p, ok := at(v, "m_posWorld"); ok {
			return appendPoint(append(append(b, s...), "at "...), p, pointScale)
		}
		if x, ok := intAt(v, "m_posXWorld"); ok {
			y, _ := intAt(v, "m_posYWorld")
			return appendXY(append(append(b, s...), "at "...), float64(x)/pointScale, float64(y)/pointScale)
		}
		return append(b, strings.TrimSpace(s)...)
	case "TriggerChatMessage":
		if m, ok := at(v, "m_chatMessage"); ok {
			return fmt.Appendf(b, "trigger chat %q", m.Bytes)
		}
	case "CmdUpdateTargetPoint":
		if t, ok := at(v, "m_target"); ok {
			return appendPoint(append(b, "command target moved to "...), t, pointScale)
		}
	case "CmdUpdateTargetUnit":
		if tag, ok := intAt(v, "m_target", "m_tag"); ok {
			return appendTag(append(b, "command target now unit "...), tag)
		}
	}
	return b
}

// formatValue writes a compact one-line form of a value; it stops adding
// once the line passes 240 bytes.
func formatValue(b []byte, v *bitpack.Value, depth int) []byte {
	if len(b) > 240 {
		return b
	}
	switch v.Kind {
	case bitpack.KStruct:
		b = append(b, '{')
		n := 0
		for i := range v.Fields {
			f := &v.Fields[i]
			if f.Kind == bitpack.KOptional && f.Absent {
				continue
			}
			if n > 0 {
				b = append(b, ' ')
			}
			n++
			b = append(b, strings.TrimPrefix(f.Name, "m_")...)
			b = append(b, ':')
			b = formatValue(b, f, depth+1)
		}
		b = append(b, '}')
	case bitpack.KOptional:
		if len(v.Items) > 0 {
			b = formatValue(b, &v.Items[0], depth+1)
		} else {
			b = append(b, '-')
		}
	case bitpack.KChoice:
		if len(v.Items) > 0 {
			b = append(b, v.Items[0].Name...)
			if v.Items[0].Kind != bitpack.KNull {
				b = formatValue(b, &v.Items[0], depth+1)
			}
		}
	case bitpack.KArray:
		b = strconv.AppendInt(append(b, '['), int64(len(v.Items)), 10)
		b = append(b, ']')
	case bitpack.KBlob, bitpack.KFourCC:
		b = strconv.AppendQuote(b, string(v.Bytes)) // as fmt's %q
	case bitpack.KBitArray:
		b = strconv.AppendInt(append(b, "bits("...), v.Int, 10)
		b = append(appendIndexList(append(b, ": "...), v.Indices()), ')')
	case bitpack.KReal32, bitpack.KReal64:
		b = fmt.Append(b, v.Real)
	case bitpack.KNull:
	default:
		b = strconv.AppendInt(b, v.Int, 10)
	}
	return b
}

func (g *gameStream) detail(d *decoder, e *rawEvent) []model.Field {
	et, _ := g.table.event(int64(e.id))
	// the fields copy what they show, so the body can live in an arena
	s := summaryScratches.Get().(*summaryScratch)
	defer summaryScratches.Put(s)
	v := g.bodyIn(s, e)
	out := []model.Field{
		{Key: "event", Label: "_event", Value: int64(e.id), Name: et.Name, Span: model.Span{Stream: fGame, Off: int64(e.off), Len: int64(e.end - e.off)}},
		{Key: "gameloop", Label: "_gameloop", Value: int64(e.loop)},
		{Key: "userId", Label: "_userid", Value: int64(e.user)},
	}
	if et.Name == "Cmd" {
		text, _ := d.command(&v)
		out = append(out, model.Field{Key: "command", Label: "command", Value: text})
	}
	for i := range v.Fields {
		out = append(out, bitField(&v.Fields[i], fGame, int64(e.off), 0))
	}
	return out
}

// bitField makes the field of a bit-packed value; base is the offset of
// the bytes the value was read from in the stream.
func bitField(v *bitpack.Value, stream string, base int64, depth int) model.Field {
	f := model.Field{Key: strings.TrimPrefix(v.Name, "m_"), Label: v.Name,
		Span: model.Span{Stream: stream, Off: base + int64(v.Off), Len: int64(v.End-v.Off) + 1}}
	if f.Key == "" {
		f.Key = "value"
	}
	x := v.Deref()
	if x == nil || depth > 8 {
		return f
	}
	switch x.Kind {
	case bitpack.KStruct:
		for i := range x.Fields {
			f.Fields = append(f.Fields, bitField(&x.Fields[i], stream, base, depth+1))
		}
	case bitpack.KChoice:
		if len(x.Items) > 0 {
			f.Name = x.Items[0].Name
			f.Value = x.Int
			c := bitField(&x.Items[0], stream, base, depth+1)
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
			f.Fields = append(f.Fields, bitField(&it, stream, base, depth+1))
		}
	case bitpack.KBlob, bitpack.KFourCC:
		f.Value = string(x.Bytes)
	case bitpack.KBitArray:
		f.Value = bitString(x)
		if ix := x.Indices(); len(ix) > 0 {
			f.Name = "indices " + indexList(ix)
		} else {
			f.Name = "none set"
		}
	case bitpack.KBool:
		f.Value = x.Int != 0
	case bitpack.KReal32, bitpack.KReal64:
		f.Value = x.Real
	case bitpack.KNull:
	default:
		f.Value = x.Int
	}
	return f
}

// bitString writes a bit array's Int bits, most significant first.
func bitString(v *bitpack.Value) string {
	n := int(v.Int)
	b := make([]byte, n)
	for i := 0; i < n; i++ {
		bit := n - 1 - i // the bit this character shows
		byteIdx := len(v.Bytes) - 1 - bit/8
		if byteIdx >= 0 && v.Bytes[byteIdx]>>(bit%8)&1 != 0 {
			b[i] = '1'
		} else {
			b[i] = '0'
		}
	}
	return string(b)
}

// gamePlayer is the player index of a game event's user id, -1 if none.
func (d *decoder) gamePlayer(user int) int {
	m := d.userToPl
	if d.occupiedToPl != nil && (d.game == nil || d.game.table.p.User < 0) {
		m = d.occupiedToPl
	}
	if p, ok := m[user]; ok {
		return p
	}
	return -1
}
