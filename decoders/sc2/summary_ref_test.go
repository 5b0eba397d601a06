package sc2

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rewind/decoders/sc2/bitpack"
	"rewind/decoders/sc2/names"
	"rewind/model"
)

// The game events' summaries as they were written before the arena and
// the appends (commit 540b9e2): every value read and allocated, every
// piece formatted with fmt. They are the reference the summaries must
// equal, event for event, over the whole corpus.

func (g *gameStream) refSummary(d *decoder, e *rawEvent) string {
	et, _ := g.table.event(int64(e.id))
	v := g.body(e)
	who := fmt.Sprintf("user %d", e.user)
	if p := d.gamePlayer(int(e.user)); p >= 0 && p < len(d.r.Players) {
		who = d.r.Players[p].Name
	} else if e.user == 16 {
		who = "game" // user 16 is the game itself (loading, triggers)
	}
	var sb strings.Builder
	sb.WriteString(who)
	sb.WriteString(": ")
	if body := d.refEventSummary(et.Name, &v); body != "" {
		sb.WriteString(body)
	} else {
		sb.WriteString(names.Words(et.Name))
		if len(v.Fields) > 0 {
			sb.WriteString(" ")
			refFormatValue(&sb, &v, 0)
		}
	}
	s := sb.String()
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// pointText formats a struct with x and y members scaled to map cells.
func refPointText(v *bitpack.Value, scale float64) string {
	x, ok1 := intAt(v, "x")
	y, ok2 := intAt(v, "y")
	if !ok1 || !ok2 {
		return "?"
	}
	return fmt.Sprintf("(%.1f, %.1f)", float64(x)/scale, float64(y)/scale)
}

// maskText describes a selection mask choice: which units of the
// selection a delta removes or a control group update keeps.
func refMaskText(m *bitpack.Value) string {
	if m == nil || len(m.Items) == 0 {
		return ""
	}
	c := &m.Items[0]
	switch c.Name {
	case "None":
		return ""
	case "Mask":
		if c.OnesCount() == 0 {
			return ""
		}
		return "units " + refIndexList(c.Indices())
	case "OneIndices":
		if len(c.Items) == 0 {
			return ""
		}
		return "units " + refIndexList(itemInts(c))
	case "ZeroIndices":
		if len(c.Items) == 0 {
			return "all units"
		}
		return "all units but " + refIndexList(itemInts(c))
	}
	return c.Name
}

func refIndexList(ix []int) string {
	var sb strings.Builder
	for i, x := range ix {
		if i > 0 {
			sb.WriteString(", ")
		}
		if i == 12 {
			fmt.Fprintf(&sb, "… (%d)", len(ix))
			break
		}
		fmt.Fprint(&sb, x)
	}
	return sb.String()
}

// unitName is a unit link's title in the replay's id table.
func (d *decoder) refUnitName(link int64) string {
	if n, ok := d.names.Unit(int(link)); ok {
		return n
	}
	return fmt.Sprintf("unit type %d", link)
}

// command names a command's ability: "Train Marine"; ok false when the
// id table has no name for it.
func (d *decoder) refCommand(v *bitpack.Value) (string, bool) {
	a, ok := at(v, "m_abil")
	if !ok {
		return "Right Click", true // a command without an ability is the default ("smart") command
	}
	link, _ := intAt(a, "m_abilLink")
	idx, _ := intAt(a, "m_abilCmdIndex")
	if c, ok := d.names.Command(int(link), int(idx)); ok {
		return c.Text(), true
	}
	return fmt.Sprintf("ability %d command %d", link, idx), false
}

// eventSummary is the readable body of the common game events; "" means
// the caller writes the generic form.
func (d *decoder) refEventSummary(name string, v *bitpack.Value) string {
	switch name {
	case "Cmd":
		text, _ := d.refCommand(v)
		var sb strings.Builder
		sb.WriteString(text)
		if t, ok := at(v, "m_data"); ok && len(t.Items) > 0 {
			c := &t.Items[0]
			switch c.Name {
			case "TargetPoint":
				sb.WriteString(" at " + refPointText(c, pointScale))
			case "TargetUnit":
				tag, _ := intAt(c, "m_tag")
				typ, _ := intAt(c, "m_snapshotUnitLink")
				fmt.Fprintf(&sb, " on %s (unit %d/%d)", d.refUnitName(typ), tag>>18, tag&0x3ffff)
				if p, ok := at(c, "m_snapshotPoint"); ok {
					sb.WriteString(" at " + refPointText(p, pointScale))
				}
			case "Data":
				fmt.Fprintf(&sb, " data %d", c.Int)
			}
		}
		return sb.String()
	case "SelectionDelta":
		id, _ := intAt(v, "m_controlGroupId")
		where := "selection"
		if id != 10 {
			where = fmt.Sprintf("group %d", id)
		}
		delta, ok := at(v, "m_delta")
		if !ok {
			return where
		}
		var parts []string
		if add, ok := at(delta, "m_addSubgroups"); ok {
			for i := range add.Items {
				n, _ := intAt(&add.Items[i], "m_count")
				link, _ := intAt(&add.Items[i], "m_unitLink")
				parts = append(parts, fmt.Sprintf("+%d %s", n, d.refUnitName(link)))
			}
		}
		if rm, ok := at(delta, "m_removeMask"); ok {
			if m := refMaskText(rm); m != "" {
				parts = append(parts, "remove "+m)
			}
		}
		if len(parts) == 0 {
			return where + " unchanged"
		}
		return where + " " + strings.Join(parts, ", ")
	case "ControlGroupUpdate":
		idx, _ := intAt(v, "m_controlGroupIndex")
		u, _ := intAt(v, "m_controlGroupUpdate")
		op := fmt.Sprintf("update %d", u)
		if u >= 0 && int(u) < len(controlGroupUpdates) {
			op = controlGroupUpdates[u]
		}
		s := fmt.Sprintf("%s group %d", op, idx)
		if m, ok := at(v, "m_mask"); ok {
			if t := refMaskText(m); t != "" {
				s += " without " + t
			}
		}
		return s
	case "SelectionSyncCheck":
		id, _ := intAt(v, "m_controlGroupId")
		n, _ := intAt(v, "m_selectionSyncData", "m_count")
		if id == 10 {
			return fmt.Sprintf("selection holds %d units", n)
		}
		return fmt.Sprintf("group %d holds %d units", id, n)
	case "CameraUpdate":
		t, ok := at(v, "m_target")
		if !ok {
			return "camera without a target"
		}
		s := "camera to " + refPointText(t, cameraScale)
		if dist, ok := intAt(v, "m_distance"); ok {
			s += fmt.Sprintf(" distance %.1f", float64(dist)/cameraScale)
		}
		return s
	case "CameraSave":
		w, _ := intAt(v, "m_which")
		if t, ok := at(v, "m_target"); ok {
			return fmt.Sprintf("save camera %d at %s", w+1, refPointText(t, cameraScale))
		}
		return fmt.Sprintf("save camera %d", w+1)
	case "UnitClick", "UnitHighlight":
		tag, _ := intAt(v, "m_unitTag")
		return fmt.Sprintf("%s unit %d/%d", map[string]string{"UnitClick": "click", "UnitHighlight": "highlight"}[name], tag>>18, tag&0x3ffff)
	case "PlayerLeave", "GameUserLeave":
		if r, ok := intAt(v, "m_leaveReason"); ok {
			return fmt.Sprintf("leaves (reason %d)", r)
		}
		return "leaves"
	case "HijackReplayGame":
		m, _ := intAt(v, "m_method")
		n := 0
		if u, ok := at(v, "m_userInfos"); ok {
			n = len(u.Items)
		}
		return fmt.Sprintf("game resumed from the replay (method %d) by %d users", m, n)
	case "GameUserJoin":
		if b, ok := at(v, "m_name"); ok {
			return fmt.Sprintf("%q joins", b.Bytes)
		}
	case "UserFinishedLoadingSync":
		return "finished loading"
	case "TriggerMouseClicked", "TriggerMouseMoved":
		s := ""
		if b, ok := intAt(v, "m_button"); ok {
			down, _ := intAt(v, "m_down")
			s = fmt.Sprintf("mouse button %d %s ", b, map[bool]string{true: "down", false: "up"}[down != 0])
		}
		if p, ok := at(v, "m_posWorld"); ok {
			return s + "at " + refPointText(p, pointScale)
		}
		if x, ok := intAt(v, "m_posXWorld"); ok {
			y, _ := intAt(v, "m_posYWorld")
			return s + fmt.Sprintf("at (%.1f, %.1f)", float64(x)/pointScale, float64(y)/pointScale)
		}
		return strings.TrimSpace(s)
	case "TriggerChatMessage":
		if b, ok := at(v, "m_chatMessage"); ok {
			return fmt.Sprintf("trigger chat %q", b.Bytes)
		}
	case "CmdUpdateTargetPoint":
		if t, ok := at(v, "m_target"); ok {
			return "command target moved to " + refPointText(t, pointScale)
		}
	case "CmdUpdateTargetUnit":
		if tag, ok := intAt(v, "m_target", "m_tag"); ok {
			return fmt.Sprintf("command target now unit %d/%d", tag>>18, tag&0x3ffff)
		}
	}
	return ""
}

// formatValue writes a compact one-line form of a value.
func refFormatValue(sb *strings.Builder, v *bitpack.Value, depth int) {
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
			refFormatValue(sb, f, depth+1)
		}
		sb.WriteString("}")
	case bitpack.KOptional:
		if len(v.Items) > 0 {
			refFormatValue(sb, &v.Items[0], depth+1)
		} else {
			sb.WriteString("-")
		}
	case bitpack.KChoice:
		if len(v.Items) > 0 {
			sb.WriteString(v.Items[0].Name)
			if v.Items[0].Kind != bitpack.KNull {
				refFormatValue(sb, &v.Items[0], depth+1)
			}
		}
	case bitpack.KArray:
		fmt.Fprintf(sb, "[%d]", len(v.Items))
	case bitpack.KBlob, bitpack.KFourCC:
		fmt.Fprintf(sb, "%q", v.Bytes)
	case bitpack.KBitArray:
		fmt.Fprintf(sb, "bits(%d: %s)", v.Int, refIndexList(v.Indices()))
	case bitpack.KReal32, bitpack.KReal64:
		fmt.Fprint(sb, v.Real)
	case bitpack.KNull:
	default:
		fmt.Fprint(sb, v.Int)
	}
}

// summary reads as a player would: "firebat: Supply Depot born at (52, 31)".
// Unit names are the game's titles (names.UnitTitle); the raw names, tags
// and player ids are in the event's fields.
func (t *tracker) refSummary(d *decoder, e *tevent) string {
	v := t.body(e)
	geti := func(tag int64) int64 { x, _ := v.IntOf(tag); return x }
	who := func(pid int64) string {
		if pi := d.playerIndex(pid); pi >= 0 && int(pi) < len(d.r.Players) {
			return d.r.Players[pi].Name
		}
		if pid == 0 {
			return "neutral"
		}
		return fmt.Sprintf("player %d", pid)
	}
	unit := func(u int32, loop int32) string { return names.UnitTitle(t.unitName(u, loop)) }
	switch e.id {
	case tPlayerStats:
		st, _ := v.Get(1)
		g := func(i int64) int64 { x, _ := st.IntOf(i); return x }
		return fmt.Sprintf("%s: %d minerals, %d gas, supply %g/%g, %d workers, army %d", who(geti(0)), g(sMinerals), g(sGas),
			float64(g(sFoodUsed))/4096, float64(g(sFoodMade))/4096, g(sWorkers), g(sMinArmy)+g(sGasArmy))
	case tUnitBorn, tUnitInit:
		name, _ := v.BytesOf(2)
		verb := "born"
		if e.id == tUnitInit {
			verb = "started"
		}
		return fmt.Sprintf("%s: %s %s at (%d, %d)", who(geti(3)), names.UnitTitle(string(name)), verb, geti(5)*t.posScale, geti(6)*t.posScale)
	case tUnitDied:
		owner := int64(-1)
		if e.unit >= 0 && int(e.unit) < t.units.len() {
			owner = int64(t.units.at(int(e.unit)).ownerAt(e.loop))
		}
		s := fmt.Sprintf("%s: %s died at (%d, %d)", who(owner), unit(e.unit, e.loop), geti(3)*t.posScale, geti(4)*t.posScale)
		if k, ok := v.IntOf(2); ok {
			s += ", killed by " + who(k)
		}
		return s
	case tUnitOwnerChange:
		return fmt.Sprintf("%s: takes %s", who(geti(2)), unit(e.unit, e.loop-1))
	case tUnitTypeChange:
		name, _ := v.BytesOf(2)
		owner := int64(-1)
		if e.unit >= 0 && int(e.unit) < t.units.len() {
			owner = int64(t.units.at(int(e.unit)).ownerAt(e.loop))
		}
		return fmt.Sprintf("%s: %s becomes %s", who(owner), unit(e.unit, e.loop-1), names.UnitTitle(string(name)))
	case tUpgrade:
		name, _ := v.BytesOf(1)
		s := fmt.Sprintf("%s: upgrade %s", who(geti(0)), names.Words(string(name)))
		if n := geti(2); n != 1 {
			s += fmt.Sprintf(" (%d)", n)
		}
		return s
	case tUnitDone:
		owner := int64(-1)
		if e.unit >= 0 && int(e.unit) < t.units.len() {
			owner = int64(t.units.at(int(e.unit)).ownerAt(e.loop))
		}
		return fmt.Sprintf("%s: %s finished", who(owner), unit(e.unit, e.loop))
	case tUnitPositions:
		items, _ := v.Get(1)
		n := 0
		if items != nil {
			n = len(items.Items) / 3
		}
		return fmt.Sprintf("positions of %d units", n)
	case tPlayerSetup:
		s := fmt.Sprintf("setup: player %d (%s)", geti(0), who(geti(0)))
		if u, ok := v.IntOf(2); ok {
			s += fmt.Sprintf(" is user %d", u)
		}
		if sl, ok := v.IntOf(3); ok {
			s += fmt.Sprintf(" in slot %d", sl)
		}
		return s
	}
	return trackerKinds[e.id]
}

// TestSummariesMatchReference writes the summary of every event of every
// corpus file and sample twice, as the replay gives it and by the
// reference (the general, allocating path), and wants them equal.
func TestSummariesMatchReference(t *testing.T) {
	files := append(corpusFiles(t), samples(t)...)
	games, tracks := 0, 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d, err := decode(data, model.DecodeOptions{})
		if err != nil {
			continue
		}
		for i := range d.r.Events {
			ev := &d.r.Events[i]
			var want string
			switch {
			case ev.Summary != "":
				continue
			case ev.Span.Stream == fGame && d.game != nil:
				want = d.game.refSummary(d, &d.game.events[ev.Ref])
				games++
			case ev.Span.Stream == fTracker && d.tr != nil:
				want = d.tr.refSummary(d, &d.tr.events[ev.Ref])
				tracks++
			default:
				continue
			}
			if got := d.r.EventSummary(i); got != want {
				t.Errorf("%s event %d (%s): %q, reference %q", filepath.Base(p), i, ev.Kind, got, want)
			}
		}
	}
	if games == 0 || tracks == 0 {
		t.Fatalf("%d game and %d tracker events compared", games, tracks)
	}
	t.Logf("%d game and %d tracker events of %d files", games, tracks, len(files))
}
