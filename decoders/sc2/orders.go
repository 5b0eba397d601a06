package sc2

import (
	"strings"

	"rewind/decoders/sc2/bitpack"
	"rewind/decoders/sc2/names"
	"rewind/model"
)

// Replays without tracker events (clients before 2.0.8) say what the
// players ordered, not what was made: the build order of such a replay is
// its train, build, morph and research commands (Cmd game events, named by
// the id tables). An order is an intent: a unit queued and cancelled, a
// building the worker never placed, a click without the minerals for it
// all count; shift-queued and repeated clicks within a game second make
// one line ("Train Marine ×5").

// walkOrders reads the commands of the game events.
func (a *analysis) walkOrders() {
	d := a.d
	g := d.game
	if g == nil || d.names == nil {
		return
	}
	cmd := -1
	for id, et := range g.table.events {
		if et.Name == "Cmd" {
			cmd = id
		}
	}
	if cmd < 0 {
		return
	}
	s := summaryScratches.Get().(*summaryScratch)
	defer summaryScratches.Put(s)
	for i := range g.events {
		e := &g.events[i]
		if int(e.id) != cmd {
			continue
		}
		p := d.gamePlayer(int(e.user))
		if p < 0 || p >= a.n {
			continue
		}
		v := g.bodyIn(s, e) // used only in this turn
		c, ok := a.order(&v)
		if !ok {
			continue
		}
		kind, name := itemUpgrade, c.Name
		if c.Makes != "" {
			info, _ := a.unitInfo(c.Makes)
			kind, name = kindOf(info), c.Makes
		}
		a.addItem(p, e.loop, name, kind, fromOrder)
		if kind == itemWorker {
			continue // workers are in the JSON's build order, not the table's
		}
		l := line{frame: a.frame(e.loop), player: p, name: c.Name, more: &lineMore{text: c.Text(), makes: c.Makes}, ordered: true,
			span: model.Span{Stream: fGame, Off: int64(e.off), Len: int64(e.end - e.off)}}
		l.kind = a.orderKind(c)
		a.players[p].orders[l.kind]++
		a.addLine(l)
	}
}

// order names a command's ability; false when it is no train, build,
// morph or research order, or orders something worth less than 25
// resources.
func (a *analysis) order(v *bitpack.Value) (names.Command, bool) {
	link, idx, ok := cmdAbility(v)
	if !ok {
		return names.Command{}, false
	}
	c, ok := a.d.names.Command(int(link), int(idx))
	if !ok || strings.HasPrefix(c.Name, "Cancel") || strings.HasPrefix(c.Name, "Hallucinate") {
		return c, false
	}
	if c.Makes != "" {
		info, ok := a.unitInfo(c.Makes)
		return c, ok && !trivial(info)
	}
	return c, strings.HasSuffix(c.Ability, "Research")
}

// orderKind is a command's moment kind.
func (a *analysis) orderKind(c names.Command) model.MomentKind {
	if c.Makes == "" {
		return model.MomentResearch
	}
	if info, ok := a.unitInfo(c.Makes); ok && info.Kind == names.Structure {
		return model.MomentBuild
	}
	return model.MomentTrain
}
