package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"rewind/model"
	"rewind/theme"
)

// hitRows remember what the last drawing put on each row of the panes
// that list things, so a click selects what is under it.
type hitRows struct {
	list      []rowHit // per content row of the list pane
	probTop   int      // the first problem shown
	headFirst int      // content rows of the header pane above its fields
	headTop   int      // the first header field shown
	chooseTop int      // the first chooser item shown
	statTop   int      // the first stats line shown
}

// rowHit is one row of the list pane: an event (and which of its expanded
// fields, -1 the event's own row) or a moment; -1 where none is.
type rowHit struct{ ev, field, mom int }

// listPane is the list under the timeline: the filter chooser while it is
// open, else the moments or the events.
func (v *replayView) listPane(w, h int) []string {
	v.hits.list = v.hits.list[:0]
	switch {
	case h <= 0:
		return nil
	case v.chooser != nil:
		return v.chooserPane(w, h)
	case v.list == listMoments:
		return v.momentsPane(w, h)
	}
	return v.eventsPane(w, h)
}

// listTitle is the list's title: what it is, the cursor's place, the
// filter and the match count.
func (v *replayView) listTitle(name string, cur int, l *rowList, total int) string {
	t := fmt.Sprintf("%s %s", name, thousands(int64(total)))
	if cur >= 0 {
		t = fmt.Sprintf("%s %s/%s", name, thousands(int64(l.pos(cur)+1)), thousands(int64(l.len())))
		if l.vis != nil {
			t += " of " + thousands(int64(total))
		}
	}
	if f := v.curFilter(); f.active() {
		t += " · " + f.describe(v.r)
	}
	return t
}

// eventsPane: events around the current frame, the cursor on the selected
// one, expanded events as indented trees.
func (v *replayView) eventsPane(w, h int) []string {
	r := v.r
	p := v.paints
	rows := h - 1
	title := v.listTitle("events", v.ev, &v.evs, len(r.Events))
	focused := v.focus == paneEvents
	if v.evs.len() == 0 {
		msg := "no events"
		if len(r.Events) > 0 {
			msg = "the filter keeps no event · f changes it · esc clears it"
		}
		return v.pane(title, focused, w, h, []string{p.dim.wrap(msg)})
	}
	v.scrollEvents(rows)
	slotW := v.slotWidth()
	var lines []string
	for pos := v.evTop; pos < v.evs.len() && len(lines) < rows; pos++ {
		i := v.evs.at(pos)
		ev := &r.Events[i]
		pl, fr := int(ev.Player), int(ev.Frame)
		mark := []rune("  ")
		if i == v.ev {
			mark[0] = '>'
		}
		if _, ok := v.expanded[i]; ok {
			mark[1] = '▾'
		} else if v.diffMarks.event(i) {
			mark[1] = '≠'
		}
		slot := ""
		if pl >= 0 && pl < len(r.Players) {
			slot = theme.Safe(r.Players[pl].Slot)
		}
		label := theme.Safe(frameLabel(&r.Timeline, fr))
		plain := fmt.Sprintf("%s%*s  ", string(mark), v.p.labelW, label)
		var b strings.Builder
		rest := fmt.Sprintf("  %-8s ", cut(theme.Safe(r.EventKind(i)), 8))
		sum := theme.Safe(r.EventSummary(i))
		flag := ""
		if f := r.EventFlag(i); f != "" && !strings.Contains(sum, f) {
			flag = "[" + theme.Safe(f) + "] "
		}
		switch {
		case i == v.ev && v.evField < 0:
			line := fit(plain+fmt.Sprintf("%-*s", slotW, slot)+rest+flag+sum, w-1)
			b.WriteString(p.cursor.wrap(line))
		case fr != v.frame:
			// events of other frames are context: dimmed
			b.WriteString(p.dim.wrap(plain))
			p.player(pl).write(&b, fmt.Sprintf("%-*s", slotW, slot))
			b.WriteString(p.dim.wrap(rest))
			p.flag.write(&b, flag)
			b.WriteString(p.dim.wrap(sum))
		default:
			b.WriteString(plain)
			p.player(pl).write(&b, fmt.Sprintf("%-*s", slotW, slot))
			b.WriteString(rest)
			p.flag.write(&b, flag)
			b.WriteString(sum)
		}
		lines = append(lines, b.String())
		v.hits.list = append(v.hits.list, rowHit{ev: i, field: -1, mom: -1})
		for j, t := range v.expanded[i] {
			if len(lines) >= rows {
				break
			}
			v.hits.list = append(v.hits.list, rowHit{ev: i, field: j, mom: -1})
			if i == v.ev && j == v.evField {
				lines = append(lines, p.cursor.wrap(fit(ansi.Strip(v.treeText(t, 3)), w-1)))
				continue
			}
			lines = append(lines, v.treeText(t, 3))
		}
	}
	return v.pane(title, focused, w, h, lines)
}

// momentPlayer is the player a moment's row is coloured for: who did it,
// else who it was done to (a self-destruct).
func momentPlayer(m *model.Moment) int {
	if m.By >= 0 {
		return m.By
	}
	return m.On
}

// momentSlot is a moment's player column: "P1", or "P1→P2" when it was
// done to another player, "→P2" when no one did it (a self-destruct).
func (v *replayView) momentSlot(m *model.Moment) string {
	slot := func(p int) string {
		if p >= 0 && p < len(v.r.Players) {
			return theme.Safe(v.r.Players[p].Slot)
		}
		return ""
	}
	if m.On < 0 || m.On == m.By {
		return slot(m.By)
	}
	return slot(m.By) + "→" + slot(m.On)
}

// slotWidth is the width of the player column: the widest slot, at most 9.
func (v *replayView) slotWidth() int {
	w := 2
	for _, pl := range v.r.Players {
		w = max(w, min(ansi.StringWidth(pl.Slot), 9))
	}
	return w
}

// scrollEvents keeps the cursor inside the rows shown, counting the lines
// of expanded events between the top and the cursor (at most rows of them).
func (v *replayView) scrollEvents(rows int) {
	if rows <= 0 || v.ev < 0 {
		return
	}
	cur := v.evs.pos(v.ev)
	if v.evTop > cur {
		v.evTop = cur
	}
	if cur-v.evTop >= rows {
		v.evTop = cur - rows + 1
	}
	// near the end, fill the pane rather than leave blank rows below
	v.evTop = min(v.evTop, max(v.evs.len()-rows, 0))
	for v.evTop < cur && v.linesBetween(v.evTop, cur)+max(v.evField+1, 0) > rows {
		v.evTop++
	}
	v.evTop = max(v.evTop, 0)
}

// linesBetween counts the lines from position a to position b, the
// expanded fields of the events before b included.
func (v *replayView) linesBetween(a, b int) int {
	n := 0
	for pos := a; pos <= b; pos++ {
		n++
		if pos < b {
			n += len(v.expanded[v.evs.at(pos)])
		}
	}
	return n
}

// momentsPane: the game's moments, the cursor on the last one at or before
// the frame, moments still to come dimmed.
func (v *replayView) momentsPane(w, h int) []string {
	p := v.paints
	ms := v.p.moments
	rows := h - 1
	title := v.listTitle("moments", v.mom, &v.moms, len(ms))
	focused := v.focus == paneEvents
	if v.moms.len() == 0 {
		return v.pane(title, focused, w, h, []string{p.dim.wrap("the filter keeps no moment · f changes it · esc clears it")})
	}
	cur := v.moms.pos(v.mom)
	if rows > 0 {
		if v.momTop > cur {
			v.momTop = cur
		}
		for v.momTop < cur && v.momLines(v.momTop, cur) > rows {
			v.momTop++
		}
		v.momTop = min(v.momTop, max(v.moms.len()-rows, 0))
		v.momTop = max(v.momTop, 0)
	}
	slotW := 2*v.slotWidth() + 1 // "P1→P2"
	timeW := 0
	if len(ms) > 0 {
		timeW = max(width(v.timeText(ms[0].Frame)), width(v.timeText(ms[len(ms)-1].Frame)))
	}
	var lines []string
	for pos := v.momTop; pos < v.moms.len() && len(lines) < rows; pos++ {
		i := v.moms.at(pos)
		m := &ms[i]
		mark := "  "
		if i == v.mom {
			mark = "> "
		}
		if v.momOpen[i] {
			mark = mark[:1] + "▾"
		}
		lead := fmt.Sprintf("%s%*s  ", mark, timeW, v.timeText(m.Frame))
		slot := v.momentSlot(m)
		kind := fmt.Sprintf("  %-10s ", cut(theme.Safe(string(m.Kind)), 10))
		sum := theme.Safe(m.Summary)
		until := ""
		if m.End > m.Frame {
			until = "  until " + v.timeText(m.End)
		}
		var b strings.Builder
		switch {
		case i == v.mom:
			b.WriteString(p.cursor.wrap(fit(lead+fmt.Sprintf("%-*s", slotW, slot)+kind+sum+until, w-1)))
		case m.Frame > v.frame:
			b.WriteString(p.dim.wrap(lead))
			p.player(momentPlayer(m)).write(&b, fmt.Sprintf("%-*s", slotW, slot))
			b.WriteString(p.dim.wrap(kind + sum + until))
		default:
			b.WriteString(lead)
			p.player(momentPlayer(m)).write(&b, fmt.Sprintf("%-*s", slotW, slot))
			b.WriteString(kind)
			b.WriteString(sum)
			b.WriteString(p.dim.wrap(until))
		}
		lines = append(lines, b.String())
		v.hits.list = append(v.hits.list, rowHit{ev: -1, field: -1, mom: i})
		if v.momOpen[i] {
			for _, t := range flattenFields(m.Fields, 200) {
				if len(lines) >= rows {
					break
				}
				lines = append(lines, v.treeText(t, 3))
				v.hits.list = append(v.hits.list, rowHit{ev: -1, field: -1, mom: i})
			}
		}
	}
	return v.pane(title, focused, w, h, lines)
}

// momLines counts the lines from moment position a to b, open fields included.
func (v *replayView) momLines(a, b int) int {
	n := 0
	for pos := a; pos <= b; pos++ {
		n++
		if i := v.moms.at(pos); pos < b && v.momOpen[i] {
			n += min(len(flattenFields(v.p.moments[i].Fields, 200)), 200)
		}
	}
	return n
}

// chooserPane draws the `f` filter in the list pane's place.
func (v *replayView) chooserPane(w, h int) []string {
	c := v.chooser
	p := v.paints
	rows := h - 1
	what := "events"
	if v.list == listMoments {
		what = "moments"
	}
	title := "filter " + what + " · space ticks · enter applies · esc cancels"
	c.top = scrollTo(c.cur, c.top, rows)
	v.hits.chooseTop = c.top
	nameW := 4
	for _, it := range c.items {
		nameW = max(nameW, min(width(it.name), 24))
	}
	var lines []string
	for i := c.top; i < len(c.items) && len(lines) < rows; i++ {
		it := c.items[i]
		box := "[ ]"
		if it.on {
			box = "[x]"
		}
		sect := "kind  "
		if it.isPlayer {
			sect = "player"
		}
		line := fmt.Sprintf("%s %s %-*s %10s", sect, box, nameW, cut(it.name, nameW), thousands(int64(it.n)))
		switch {
		case i == c.cur:
			lines = append(lines, p.cursor.wrap(fit(line, w-1)))
		case it.isPlayer && it.player >= 0:
			lines = append(lines, p.label.wrap(sect)+" "+box+" "+p.player(it.player).wrap(fmt.Sprintf("%-*s", nameW, cut(it.name, nameW)))+fmt.Sprintf(" %10s", thousands(int64(it.n))))
		default:
			lines = append(lines, p.label.wrap(sect)+line[len(sect):])
		}
	}
	return v.pane(title, true, w, h, lines)
}

// momentGlyph is a moment kind's mark on the timeline.
func momentGlyph(k model.MomentKind) rune {
	switch k {
	case model.MomentStock, model.MomentKill, model.MomentMiss:
		return '×'
	case model.MomentBadCut:
		return '÷'
	case model.MomentBomb:
		return '●'
	case model.MomentWall:
		return '▮'
	case model.MomentPause:
		return '❚'
	case model.MomentBuild:
		return '▴'
	case model.MomentTrain:
		return '•'
	case model.MomentResearch:
		return '◇'
	case model.MomentLap:
		return '◆'
	case model.MomentCheckpoint:
		return '│'
	case model.MomentFinish, model.MomentEnd:
		return '■'
	case model.MomentJoin:
		return '+'
	case model.MomentDrop:
		return '−'
	case model.MomentTeam:
		return '⇄'
	case model.MomentChat:
		return '¶'
	case model.MomentVote:
		return '▸'
	case model.MomentBurst:
		return '≋'
	case model.MomentGap:
		return '␣'
	case model.MomentLowLife:
		return '▿'
	case model.MomentFail:
		return '✗'
	}
	return '◆'
}
