package sc2

import (
	"fmt"
	"sort"
	"strings"

	"rewind/decoders/sc2/bitpack"
	"rewind/model"
)

// Commands the id tables cannot name. A command names its ability by link
// and command index; the tables of package names (sc2reader's, exported
// from the game's balance data) name most of them. The rest are arcade
// maps' and co-op's own abilities and abilities newer than their build's
// table (LotV/89720 ends at ability 729; 732 and 733 are 5.0 additions);
// for the corpus's, no other build's table names the ability where it
// numbers the ability's neighbours the same, and no ability row names the
// command index (corpus_test.go lists them). Such a command shows as
// "ability 713 command 0". A replay says so once, in one Info diagnostic that
// counts them and lists each id, not once a command.

// maxListed is how many unnamed ids the diagnostic lists by name.
const maxListed = 12

// cmdAbilityPath is where a Cmd body keeps its ability: the struct
// members to skip before m_abil, whether m_abil is optional, and the
// members to skip before m_abilLink and between it and m_abilCmdIndex.
// A body of base build 15405 has no m_abil: its link and index are members
// of the body (cmdAbility).
type cmdAbilityPath struct {
	before       []int // types of the Cmd members before m_abil (before m_abilLink in 15405)
	optional     bool
	flat         bool  // 15405's: no m_abil, link 0xffff for none
	inner        []int // types of m_abil's members before m_abilLink
	link         int   // m_abilLink's type
	betweenTypes []int // types of the members between it and m_abilCmdIndex
	index        int   // m_abilCmdIndex's type
	ok           bool
}

// abilityPath finds the path in a Cmd body type; ok false when the
// layout has none of the usual shape.
func abilityPath(tab bitpack.Table, cmdType int) cmdAbilityPath {
	var p cmdAbilityPath
	if cmdType < 0 || cmdType >= len(tab) || tab[cmdType].Kind != bitpack.KStruct {
		return p
	}
	abil := -1
	for _, f := range tab[cmdType].Fields {
		if f.Name == "m_abil" {
			abil = f.Type
			break
		}
		p.before = append(p.before, f.Type)
	}
	if abil < 0 {
		p.before, p.flat, abil = nil, true, cmdType
	} else if tab[abil].Kind == bitpack.KOptional {
		p.optional, abil = true, tab[abil].Elem
	}
	if abil < 0 || abil >= len(tab) || tab[abil].Kind != bitpack.KStruct {
		return p
	}
	p.link, p.index = -1, -1
	for _, f := range tab[abil].Fields {
		switch {
		case f.Name == "m_abilLink":
			p.link = f.Type
		case f.Name == "m_abilCmdIndex":
			p.index = f.Type
		case p.link < 0:
			p.inner = append(p.inner, f.Type)
		case p.index < 0:
			p.betweenTypes = append(p.betweenTypes, f.Type)
		}
		if p.index >= 0 {
			break
		}
	}
	p.ok = p.link >= 0 && p.index >= 0 && tab[p.link].Kind == bitpack.KInt && tab[p.index].Kind == bitpack.KInt
	return p
}

// read reads a Cmd body's ability; has false for a command without one
// (the default "smart" command) or a body that does not read.
func (p *cmdAbilityPath) read(r *bitpack.Reader, tab bitpack.Table) (link, index int64, has bool) {
	for _, t := range p.before {
		r.Skip(tab, t)
	}
	if p.optional && r.Bits(1) == 0 {
		return 0, 0, false
	}
	for _, t := range p.inner {
		r.Skip(tab, t)
	}
	link = r.Int(tab[p.link].Offset, tab[p.link].Bits)
	for _, t := range p.betweenTypes {
		r.Skip(tab, t)
	}
	index = r.Int(tab[p.index].Offset, tab[p.index].Bits)
	return link, index, !r.Failed() && !(p.flat && link == noAbility)
}

// noteUnnamedCommands adds the diagnostic (see the top of this file). It
// runs on the game events' goroutine, after decodeGame.
func (d *decoder) noteUnnamedCommands(out *[]model.Diagnostic) {
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
	tab := g.table.p.Types
	path := abilityPath(tab, g.table.events[cmd].Type)
	if !path.ok {
		return
	}
	// counts by ability id (link << 5 | command index, as sc2reader keys
	// them), and the first command of each
	counts := map[int64]int32{}
	first := map[int64]int32{}
	var r bitpack.Reader
	for i := range g.events {
		e := &g.events[i]
		if int(e.id) != cmd {
			continue
		}
		r.Reset(g.eventBytes(e))
		g.table.head(&r)
		link, index, has := path.read(&r, tab)
		if !has {
			continue
		}
		k := link<<5 | index&31
		if index < 0 || index > 31 {
			k = -1 - (link<<16 | index&0xffff) // an index past 5 bits: a key of its own
		}
		n := counts[k]
		if n == 0 {
			first[k] = int32(i)
		}
		counts[k] = n + 1
	}
	type seen struct {
		link, index  int64
		count, first int
	}
	var list []seen
	total := 0
	for k, n := range counts {
		link, index := k>>5, k&31
		if k < 0 {
			link, index = (-1-k)>>16, (-1-k)&0xffff
		}
		if _, ok := d.names.Command(int(link), int(index)); !ok {
			list = append(list, seen{link, index, int(n), int(first[k])})
			total += int(n)
		}
	}
	if len(list) == 0 {
		return
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].count != list[j].count {
			return list[i].count > list[j].count
		}
		return list[i].first < list[j].first
	})
	var b strings.Builder
	for i, u := range list {
		if i == maxListed {
			fmt.Fprintf(&b, ", and %d more", len(list)-maxListed)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "ability %d command %d (%d×)", u.link, u.index, u.count)
	}
	at := list[0].first
	for _, u := range list {
		at = min(at, u.first)
	}
	e := &g.events[at]
	dg := diagnostic(model.Info, model.Span{Stream: fGame, Off: int64(e.off), Len: int64(e.end - e.off)}, fGame,
		fmt.Sprintf("%d commands use %d abilities the id table (%s/%s) has no name for, shown by number: %s",
			total, len(list), d.names.Expansion, d.names.Build, b.String()), "", "")
	dg.Frame = int(e.loop)
	if d.hasLoops {
		dg.Frame = min(dg.Frame, d.loops)
	}
	*out = append(*out, dg)
}
