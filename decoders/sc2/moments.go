package sc2

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"rewind/decoders/sc2/names"
	"rewind/model"
)

// The game's moments from the tracker events, and the lists behind the
// build order and losses tables.
//
// The build order is what the tracker events tell, at the time they tell
// it: a structure when it is started (UnitInit), a warped-in unit or a
// merging Archon when the warp-in or merge starts (UnitInit), a trained
// unit when it is born (UnitBorn: Zerg units when they hatch), a morph when
// it is done (UnitTypeChange into a new unit: Orbital Command, Lair, Warp
// Gate, Baneling, Brood Lord; not into another mode of the same unit, a
// lowered depot or a sieged tank), an upgrade when its research is done
// (Upgrade). Workers are counted, not listed. Units of the same kind made
// by one player within a game second of each other make one line ("Train
// Marine ×2", a reactor's pair: within a game second of the first). Cosmetic upgrades (sprays, skins, the
// ones every player has at loop 0) are not research.
//
// A unit's death is a kill moment when another player killed it and it is
// a worker, an army unit or a structure worth 25 resources or more: no
// Larva, Egg, Broodling, Locust, Interceptor, MULE, Auto-Turret, creep
// tumor, KD8 charge or adept shade; not a structure cancelled by its owner,
// not a unit consumed by its owner (a Drone becoming a building, High
// Templar merging). Deaths of one kind of unit to one kind of killer within
// a game second make one moment ("Zergling ×6 killed by ...").

// groupGap is how close in loops to the first of a line or a kill moment
// another unit of the kind must come to join it: a game second.
const groupGap = 16

// line is one line of a player's build order: one unit, structure or
// upgrade, or several of a kind within groupGap.
type line struct {
	frame, lastFrame int
	player           int
	kind             model.MomentKind
	verb, name       string // "Train", "Marine": the game's name of the unit or upgrade
	upgrade          bool
	count            int
	done             bool // the line's time is when the thing was finished
	ordered          bool // a command, not a unit made (replays without tracker events)
	span             model.Span
	// more is what an order's line and the whole analysis's lines add:
	// nil in a summary's walk of tracker events, whose lines (for test10,
	// 1,730 of them) were half these fields, all empty
	more *lineMore
}

// lineMore is what some lines add to a line.
type lineMore struct {
	text   string // an order's words ("Train Marine"), name being the command's
	makes  string // the unit an order makes, "" for research
	units  []int32
	supply string
	note   string
}

// noMore is the lineMore of a line without one.
var noMore lineMore

// extra is the line's lineMore, to read.
func (l *line) extra() *lineMore {
	if l.more == nil {
		return &noMore
	}
	return l.more
}

// grown is the line's lineMore, to write.
func (l *line) grown() *lineMore {
	if l.more == nil {
		l.more = &lineMore{}
	}
	return l.more
}

// what is the line as a player reads it: "Train Marine ×2".
func (a *analysis) what(l *line) string {
	s := l.extra().text
	if s == "" {
		s = l.verb + " " + a.lineTitle(l)
	}
	if l.count > 1 {
		s += fmt.Sprintf(" ×%d", l.count)
	}
	return s
}

// lineTitle names what a line makes: "Marine", "Warp Gate" (the research).
func (a *analysis) lineTitle(l *line) string {
	switch {
	case l.ordered:
		return l.extra().text
	case l.upgrade:
		// "WarpGateResearch" is the Warp Gate research
		return names.Words(strings.TrimSuffix(l.name, "Research"))
	}
	return a.unitTitle(l.name)
}

// lineMove is what a line makes as an archive searches it (MomentFacts.Move):
// the unit, structure or upgrade ("Marine", "Supply Depot", "Stimpack"),
// for an order the unit it makes or the research's upgrade.
func (a *analysis) lineMove(l *line) string {
	if !l.ordered {
		return a.lineTitle(l)
	}
	if makes := l.extra().makes; makes != "" {
		return a.unitTitle(makes)
	}
	for _, verb := range []string{"Research", "Upgrade", "Evolve"} {
		if rest, ok := strings.CutPrefix(l.name, verb); ok && rest != "" {
			return names.Words(rest)
		}
	}
	return names.Words(l.name)
}

// unitTitle is names.UnitTitle, once per unit type of the replay.
func (a *analysis) unitTitle(name string) string {
	if s, ok := a.titles[name]; ok {
		return s
	}
	if a.titles == nil {
		a.titles = map[string]string{}
	}
	s := names.UnitTitle(name)
	a.titles[name] = s
	return s
}

// unitInfo is names.Info, once per unit type of the replay.
func (a *analysis) unitInfo(name string) (names.UnitInfo, bool) {
	if u, ok := a.infos[name]; ok {
		return u.UnitInfo, u.ok
	}
	if a.infos == nil {
		a.infos = map[string]knownInfo{}
	}
	u, ok := names.Info(name)
	a.infos[name] = knownInfo{u, ok}
	return u, ok
}

type knownInfo struct {
	names.UnitInfo
	ok bool
}

// loss is a death worth a moment, or several of a kind within groupGap.
type loss struct {
	frame, lastFrame int
	player, killer   int // player indices; killer -1 when not a player
	name, killerUnit string
	count            int
	structure        bool
	building         bool  // a structure or warp-in not yet finished
	off, len         int32 // the UnitDied event in the tracker stream
}

// death is how a tracker unit died (a slice of them indexed by unit, not
// a map: a map grown unit by unit made 2 MB of garbage in a 240 KB replay).
type death struct {
	loop      int32
	killer    int32 // player index, -1 when not a player
	hasKiller bool
	died      bool // false: the unit did not die
}

type chatLine struct {
	frame, player int
	who, to, text string
}

// trivial units are not worth a line or a moment: worth less than 25
// resources (Broodling, Locust, Interceptor, MULE, Auto-Turret, creep
// tumors). Units whose cost the tables do not give count as worth it.
func trivial(u names.UnitInfo) bool {
	return u.Known() && u.Minerals+u.Vespene < 25
}

// inProgress names are the shells of a morph: Egg, Lurker Egg, Baneling
// Cocoon, Brood Lord Cocoon, Overseer Cocoon.
func inProgress(name string) bool {
	return strings.HasSuffix(name, "Egg") || strings.Contains(name, "Cocoon")
}

// cosmetic upgrades are skins, sprays, victory dances and the game's own
// markers: no research.
func cosmetic(name string) bool {
	for _, p := range []string{"Spray", "Reward", "GameHeart"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func (a *analysis) trackerSpan(e *tevent) model.Span {
	return model.Span{Stream: fTracker, Off: int64(e.off), Len: int64(e.end - e.off)}
}

// statsAt is the index of a player's last player-stats record at or
// before a frame; false when there is none.
func (a *analysis) statsAt(p, frame int) (int, bool) {
	t := a.d.tr
	if t == nil || p < 0 || p >= len(t.stats) {
		return 0, false
	}
	st := t.stats[p]
	k := sort.Search(len(st), func(i int) bool { return int(st[i].loop) > frame }) - 1
	return k, k >= 0
}

// supplyAt is a player's supply at a frame as the game showed it, used
// over cap (at most 200), from the last player-stats record at or before
// it; "" when there is none.
func (a *analysis) supplyAt(p, frame int) string {
	k, ok := a.statsAt(p, frame)
	if !ok {
		return ""
	}
	v := &a.d.tr.stats[p][k].v
	used, made := float64(v[sFoodUsed])/4096, float64(v[sFoodMade])/4096
	return fmt.Sprintf("%g/%g", used, min(made, 200))
}

// addLine adds a build order line, or joins it to the line of the same
// player, verb and unit that began groupGap or less before. The lines
// come in frame order, so that line is among the last ones, the ones of
// the last groupGap frames: they are looked through rather than found in
// a map of every line by player, verb and unit (0.1 MB for test10).
func (a *analysis) addLine(l line) {
	for i := a.lines.len() - 1; i >= 0 && l.frame-a.lines.at(i).frame <= groupGap; i-- {
		g := a.lines.at(i)
		if g.player != l.player || g.verb != l.verb || g.name != l.name {
			continue
		}
		g.count++
		g.lastFrame = l.frame
		if units := l.extra().units; len(units) > 0 {
			g.grown().units = append(g.grown().units, units...)
		}
		return
	}
	l.count, l.lastFrame = 1, l.frame
	if !a.lean {
		if s := a.supplyAt(l.player, l.frame); s != "" {
			l.grown().supply = s
		}
	}
	a.lines.add(l)
}

// walkTracker reads the tracker events once, in loop order.
func (a *analysis) walkTracker() {
	t := a.d.tr
	a.tracked = true
	a.inited = make([]bool, t.units.len())
	a.done = make([]bool, t.units.len())
	a.deaths = make([]death, t.units.len())
	a.histAt = map[int32]int{}
	// the k-th Upgrade (UnitDied) event kept has the k-th record of
	// t.upgrades (t.kills)
	nu, nk := 0, 0
	for _, e := range t.events.all() {
		switch e.id {
		case tUnitInit, tUnitBorn:
			a.unitMade(e)
		case tUnitDone:
			if e.unit >= 0 {
				a.done[e.unit] = true
			}
		case tUnitTypeChange:
			a.morph(e)
		case tUpgrade:
			a.upgrade(e, *t.upgrades.at(nu))
			nu++
		case tUnitDied:
			a.unitDied(e, t.kills.at(nk))
			nk++
		}
	}
	a.countAlive()
	if !a.lean {
		a.outcomes()
	}
}

// unitMade handles a unit started (UnitInit) or born (UnitBorn).
func (a *analysis) unitMade(e *tevent) {
	t := a.d.tr
	u, p := e.unit, int(e.player)
	if u < 0 || p < 0 || p >= a.n || t.units.at(int(u)).born != e.loop {
		return // a neutral unit, or an event about a unit made before
	}
	init := e.id == tUnitInit
	if init {
		a.inited[u] = true
	} else if a.inited[u] || e.loop == 0 {
		return // the bases and workers every player starts with
	}
	name := t.types[t.units.at(int(u)).hist[0].typ]
	info, ok := a.unitInfo(name)
	if !ok || trivial(info) {
		return
	}
	ev := fromBorn
	if init {
		ev = fromInit
	}
	a.addItem(p, e.loop, name, kindOf(info), ev)
	ps := &a.players[p]
	l := line{frame: a.frame(e.loop), player: p, name: name, span: a.trackerSpan(e)}
	if !a.lean {
		l.grown().units = []int32{u} // for outcomes
	}
	switch {
	case info.Kind == names.Worker:
		ps.workers++
		return
	case info.Kind == names.Structure && !init:
		return
	case info.Kind == names.Structure:
		ps.structures++
		l.kind, l.verb = model.MomentBuild, "Build"
	case init && info.Base == "archon":
		l.kind, l.verb = model.MomentTrain, "Merge"
	case init:
		l.kind, l.verb = model.MomentTrain, "Warp in"
	default:
		l.kind, l.verb = model.MomentTrain, "Train"
	}
	if info.Kind == names.Army && info.Supply > 0 {
		ps.army++
	}
	a.addLine(l)
}

// morph handles a unit turning into another: a line when it became a new
// unit (see the top of this file).
func (a *analysis) morph(e *tevent) {
	t := a.d.tr
	if e.unit < 0 {
		return
	}
	// the unit's history has the change at this loop, unless it changed
	// nothing (or the unit was dead); a unit that changes twice in a loop
	// has two entries, taken in turn
	ur := t.units.at(int(e.unit))
	k := a.histAt[e.unit] + 1
	for k < len(ur.hist) && (ur.hist[k].loop < e.loop || ur.hist[k].typ == ur.hist[k-1].typ) {
		k++
	}
	if k >= len(ur.hist) || ur.hist[k].loop != e.loop {
		return
	}
	a.histAt[e.unit] = k
	oldName, newName := t.types[ur.hist[k-1].typ], t.types[ur.hist[k].typ]
	p := int(a.d.playerIndex(int64(ur.hist[k].owner)))
	info, ok := a.unitInfo(newName)
	if p < 0 || p >= a.n || !ok || trivial(info) || info.Kind == names.Worker || inProgress(newName) {
		return
	}
	if old, ok := a.unitInfo(oldName); !inProgress(oldName) && (!ok || old.Base == info.Base) {
		return
	}
	a.addItem(p, e.loop, newName, kindOf(info), fromTypeChange)
	ps := &a.players[p]
	l := line{frame: a.frame(e.loop), player: p, name: newName, verb: "Morph", done: true, span: a.trackerSpan(e),
		kind: model.MomentTrain}
	if info.Kind == names.Structure {
		l.kind = model.MomentBuild
		ps.morphs++
	} else if info.Supply > 0 {
		ps.army++
	}
	a.addLine(l)
}

// upgrade handles a research done; rec is the event's record
// (tracker.upgrades).
func (a *analysis) upgrade(e *tevent, rec int32) {
	p := int(e.player)
	if p < 0 || p >= a.n || rec < 0 {
		return // no player's, or a count of 0 or less
	}
	name := a.d.tr.upgradeNames[rec]
	if name == "" || cosmetic(name) {
		return
	}
	if coopUpgrade(name) {
		if !a.lean {
			a.addItem(p, e.loop, name, itemUpgrade, fromUpgrade)
			it := a.items[p]
			it[len(it)-1].coop = true
		}
		return
	}
	if e.loop == 0 {
		return // the skins every player owns are upgrades at loop 0
	}
	a.players[p].upgrades++
	a.addItem(p, e.loop, name, itemUpgrade, fromUpgrade)
	a.addLine(line{frame: a.frame(e.loop), player: p, name: name, upgrade: true, verb: "Research", done: true,
		kind: model.MomentResearch, span: a.trackerSpan(e)})
}

// unitDied handles a death: a loss and a kill when another player killed
// a unit worth it; k is the event's record (tracker.kills).
func (a *analysis) unitDied(e *tevent, k *killRec) {
	t := a.d.tr
	u := e.unit
	if u < 0 || t.units.at(int(u)).died != e.loop {
		return
	}
	ur := t.units.at(int(u))
	owner := int(a.d.playerIndex(int64(ur.ownerAt(e.loop))))
	killer := -1
	if k.hasKiller {
		killer = int(k.killer)
	}
	dth := death{loop: e.loop, killer: int32(killer), died: true, hasKiller: k.hasKiller}
	a.deaths[u] = dth
	name := t.unitName(u, e.loop)
	info, ok := a.unitInfo(name)
	if owner < 0 || owner >= a.n || !ok || trivial(info) {
		return
	}
	building := a.inited[u] && !a.done[u]
	ps := &a.players[owner]
	if !dth.hasKiller || killer == owner {
		if building {
			ps.cancelled++
		}
		return // cancelled, consumed, or the owner's own fire
	}
	if info.Kind == names.Structure {
		ps.structuresLost++
	} else {
		ps.unitsLost++
	}
	if killer >= 0 && killer < a.n {
		a.players[killer].kills++
	}
	killerUnit := ""
	if k.hasKillerUnit {
		if ku := a.unitByTag(int64(k.unitIndex), int64(k.unitRecycle)); ku >= 0 {
			killerUnit = t.unitName(ku, e.loop)
		}
	}
	l := loss{frame: a.frame(e.loop), player: owner, killer: killer, name: name, killerUnit: killerUnit,
		structure: info.Kind == names.Structure, building: building, off: e.off, len: e.end - e.off}
	// joined to the loss of the same kind that began groupGap or less
	// before, among the last ones as the build order's lines (addLine)
	for i := a.losses.len() - 1; i >= 0 && l.frame-a.losses.at(i).frame <= groupGap; i-- {
		g := a.losses.at(i)
		if g.player == owner && g.killer == killer && g.name == name && g.killerUnit == killerUnit && g.building == building {
			g.count++
			g.lastFrame = l.frame
			return
		}
	}
	l.count, l.lastFrame = 1, l.frame
	a.losses.add(l)
}

// unitByTag finds the tracker unit of a unit tag's index and recycle: the
// last one made with the tag. The tags are a sorted list, not a map (120
// KB instead of 290 for the 7,500 units of test10).
func (a *analysis) unitByTag(index, recycle int64) int32 {
	t := a.d.tr
	if a.byTag == nil {
		a.byTag = make([]unitTag, t.units.len())
		for i := range a.byTag {
			u := t.units.at(i)
			a.byTag[i] = unitTag{uint64(u.index)<<32 | uint64(u.recycle), int32(i)}
		}
		slices.SortStableFunc(a.byTag, func(x, y unitTag) int { return cmp.Compare(x.tag, y.tag) })
	}
	tag := uint64(uint32(index))<<32 | uint64(uint32(recycle))
	k := sort.Search(len(a.byTag), func(i int) bool { return a.byTag[i].tag > tag }) - 1
	if k >= 0 && a.byTag[k].tag == tag {
		return a.byTag[k].unit
	}
	return -1
}

// unitTag is a tracker unit by its tag (index << 32 | recycle).
type unitTag struct {
	tag  uint64
	unit int32
}

// outcomes notes the structures and warp-ins that never finished.
func (a *analysis) outcomes() {
	for _, l := range a.lines.all() {
		var cancelled, destroyed, unfinished []int32
		for _, u := range l.extra().units {
			if !a.inited[u] || a.done[u] {
				continue
			}
			switch d := a.deaths[u]; {
			case !d.died:
				unfinished = append(unfinished, u)
			case !d.hasKiller || int(d.killer) == l.player:
				cancelled = append(cancelled, u)
			default:
				destroyed = append(destroyed, u)
			}
		}
		var notes []string
		of := func(n int) string {
			if l.count == 1 {
				return ""
			}
			return fmt.Sprintf("%d of %d ", n, l.count)
		}
		if len(cancelled) > 0 {
			notes = append(notes, of(len(cancelled))+"cancelled at "+a.clockText(a.frame(a.deaths[cancelled[0]].loop)))
		}
		if len(destroyed) > 0 {
			d := a.deaths[destroyed[0]]
			while := "while building"
			if l.kind != model.MomentBuild {
				while = "while warping in"
			}
			notes = append(notes, fmt.Sprintf("%sdestroyed by %s at %s %s", of(len(destroyed)), a.name(int(d.killer)),
				a.clockText(a.frame(d.loop)), while))
		}
		if len(unfinished) > 0 {
			notes = append(notes, of(len(unfinished))+"unfinished when the game ended")
		}
		if note := strings.Join(notes, "; "); note != "" {
			l.grown().note = note
		}
	}
}

// alive is a player's workers and army units (units with a supply cost)
// after each change of their number, in loop order.
type alive struct {
	loops         []int32
	workers, army []int32
}

// countAlive turns the tracker's unit count changes into each player's
// workers and army units alive.
func (a *analysis) countAlive() {
	t := a.d.tr
	const (
		none = iota
		worker
		army
	)
	kind := make([]uint8, len(t.types))
	for i, n := range t.types {
		if info, ok := a.unitInfo(n); ok && !trivial(info) {
			switch {
			case info.Kind == names.Worker:
				kind[i] = worker
			case info.Kind == names.Army && info.Supply > 0:
				kind[i] = army
			}
		}
	}
	a.alive = make([]alive, a.n)
	// each player's lists made at their length, counted first (grown by
	// append they were twice it)
	size, last := make([]int, a.n), make([]int32, a.n)
	for _, c := range t.changes.all() {
		if p := int(c.player); kind[c.typ] != none && p >= 0 && p < a.n && (size[p] == 0 || last[p] != c.loop) {
			size[p]++
			last[p] = c.loop
		}
	}
	for p := range a.alive {
		if size[p] > 0 {
			a.alive[p] = alive{loops: make([]int32, 0, size[p]), workers: make([]int32, 0, size[p]), army: make([]int32, 0, size[p])}
		}
	}
	for i := range t.changes.len() {
		c := t.changes.at(i)
		k := kind[c.typ]
		if k == none || c.player < 0 || int(c.player) >= a.n {
			continue
		}
		al := &a.alive[c.player]
		w, ar := int32(0), int32(0)
		if n := len(al.loops); n > 0 {
			w, ar = al.workers[n-1], al.army[n-1]
		}
		if k == worker {
			w += int32(c.delta)
		} else {
			ar += int32(c.delta)
		}
		if n := len(al.loops); n > 0 && al.loops[n-1] == c.loop {
			al.workers[n-1], al.army[n-1] = w, ar
			continue
		}
		al.loops = append(al.loops, c.loop)
		al.workers = append(al.workers, w)
		al.army = append(al.army, ar)
	}
}

// aliveAt is a player's workers and army units alive at a frame.
func (a *analysis) aliveAt(p, frame int) (workers, army int) {
	if p >= len(a.alive) {
		return 0, 0
	}
	al := &a.alive[p]
	k := sort.Search(len(al.loops), func(i int) bool { return int(al.loops[i]) > frame }) - 1
	if k < 0 {
		return 0, 0
	}
	return int(al.workers[k]), int(al.army[k])
}

func (a *analysis) aliveCharts(samples int) []model.Chart {
	// workers and army units (with a supply cost, workers aside) alive
	workers := model.Chart{Title: "workers"}
	army := model.Chart{Title: "army units"}
	count := a.r.Timeline.Count
	for p := 0; p < a.n; p++ {
		if a.observer(p) {
			continue
		}
		w := model.Series{Label: a.name(p), Player: p, Values: make([]float64, samples)}
		ar := model.Series{Label: a.name(p), Player: p, Values: make([]float64, samples)}
		for i := 0; i < samples; i++ {
			nw, na := a.aliveAt(p, i*count/samples)
			w.Values[i], ar.Values[i] = float64(nw), float64(na)
		}
		workers.Series = append(workers.Series, w)
		army.Series = append(army.Series, ar)
	}
	if len(workers.Series) == 0 {
		return nil
	}
	return []model.Chart{workers, army}
}

// lineMoments makes a moment of every build order line and loss.
func (a *analysis) lineMoments() {
	if a.lean {
		return // the summary makes its records of them (leanRecords)
	}
	a.moments = slices.Grow(a.moments, a.lines.len()+a.losses.len())
	for i, l := range a.lines.all() {
		s := a.what(l)
		var fs []model.Field
		key := "unit"
		if l.upgrade {
			key = "upgrade"
		}
		if l.ordered {
			key = "command"
		}
		fs = append(fs, model.Field{Key: key, Label: key, Value: l.name, Name: a.lineTitle(l)},
			model.Field{Key: "count", Label: "count", Value: int64(l.count)})
		switch {
		case l.ordered:
			s += " ordered"
		case l.done:
			s += " done"
		}
		if supply := l.extra().supply; supply != "" {
			s += " (supply " + supply + ")"
			fs = append(fs, model.Field{Key: "supply", Label: "supply used/cap", Value: supply})
		}
		if note := l.extra().note; note != "" {
			s += "; " + note
			fs = append(fs, model.Field{Key: "note", Label: "note", Value: note})
		}
		m := a.leanMoment(i)
		m.Summary, m.Fields = s, fs
		a.moments = append(a.moments, m)
	}
	for i, l := range a.losses.all() {
		m := a.leanMoment(a.lines.len() + i)
		m.Summary = a.lossText(l)
		m.Fields = []model.Field{
			{Key: "unit", Label: "unit", Value: l.name, Name: a.unitTitle(l.name)},
			{Key: "count", Label: "count", Value: int64(l.count)},
			{Key: "killer", Label: "killer", Value: a.name(l.killer)},
			{Key: "killerUnit", Label: "killer's unit", Value: l.killerUnit, Name: a.titleOrNone(l.killerUnit)},
		}
		a.moments = append(a.moments, m)
	}
}

// leanMoment is the moment of line i, or of loss i-len(lines), without
// its summary line and fields: what a summary records of it, and what
// lineMoments adds those to.
func (a *analysis) leanMoment(i int) model.Moment {
	if i < a.lines.len() {
		l := a.lines.at(i)
		return model.Moment{Kind: l.kind, Frame: l.frame, End: l.frame, By: l.player, On: -1,
			Span: l.span, Facts: model.MomentFacts{Move: a.lineMove(l), Hits: l.count}}
	}
	l := a.losses.at(i - a.lines.len())
	return model.Moment{Kind: model.MomentKill, Frame: l.frame, End: l.frame, By: l.killer,
		On: l.player, Span: model.Span{Stream: fTracker, Off: int64(l.off), Len: int64(l.len)},
		Facts: model.MomentFacts{Move: a.unitTitle(l.name), Hits: l.count, Kill: true}}
}

// leanRecords are the archive records of the lean walk's lines and losses
// in the order sortMoments gives their moments (a stable sort by frame),
// made a few moments at a time: the whole list of moments (176 bytes
// each, 0.8 MB for test10) was the largest thing a summary held.
func (a *analysis) leanRecords() []model.MomentRecord {
	n := a.lines.len() + a.losses.len()
	frame := func(i int32) int {
		if int(i) < a.lines.len() {
			return a.lines.at(int(i)).frame
		}
		return a.losses.at(int(i) - a.lines.len()).frame
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(x, y int32) int { return cmp.Compare(frame(x), frame(y)) })
	var out []model.MomentRecord
	chunk := make([]model.Moment, 0, min(n, 256))
	flush := func() {
		if len(chunk) > 0 {
			out = a.r.AppendMomentRecords(slices.Grow(out, n-len(out)), chunk)
			chunk = chunk[:0]
		}
	}
	for _, i := range order {
		if m := a.leanMoment(int(i)); archiveKinds[m.Kind] {
			if chunk = append(chunk, m); len(chunk) == cap(chunk) {
				flush()
			}
		}
	}
	flush()
	return out
}

func (a *analysis) titleOrNone(unit string) string {
	if unit == "" {
		return "—"
	}
	return a.unitTitle(unit)
}

// lossText: "Terror's Zealot ×3 killed by firebat's Marauder".
func (a *analysis) lossText(l *loss) string {
	what := a.unitTitle(l.name)
	if l.count > 1 {
		what += fmt.Sprintf(" ×%d", l.count)
	}
	verb := "killed"
	switch {
	case l.building && l.structure:
		verb = "destroyed while building"
	case l.building:
		verb = "killed while warping in"
	case l.structure:
		verb = "destroyed"
	}
	return fmt.Sprintf("%s's %s %s by %s", a.name(l.player), what, verb, a.killerText(l))
}

// killerText: "firebat's Marauder", or the player alone when the replay
// does not say which unit (before base build 27950).
func (a *analysis) killerText(l *loss) string {
	s := a.name(l.killer)
	if l.killerUnit != "" {
		s += "'s " + a.unitTitle(l.killerUnit)
	}
	return s
}

// chatAndLeaves makes the chat and the players leaving into moments.
func (a *analysis) chatAndLeaves() {
	d := a.d
	if m := d.msgs; m != nil {
		for _, e := range m.events {
			if e.name != "ChatMessage" {
				continue
			}
			p := d.msgPlayer(int(e.raw.user))
			if a.lean {
				if p >= 0 && p < a.n {
					a.players[p].chat++
				}
				continue // no moment a summary keeps
			}
			who := fmt.Sprintf("user %d", e.raw.user)
			if p >= 0 && p < a.n {
				who = a.name(p)
				a.players[p].chat++
			} else {
				p = -1
			}
			to := recipientName(e.recipient)
			s := who + ": " + e.text
			if to != "all" {
				s = fmt.Sprintf("%s (to %s): %s", who, to, e.text)
			}
			f := a.frame(e.raw.loop)
			a.chat = append(a.chat, chatLine{frame: f, player: p, who: who, to: to, text: e.text})
			a.moments = append(a.moments, model.Moment{Kind: model.MomentChat, Frame: f, End: f, By: p, On: -1, Summary: s,
				Span:   model.Span{Stream: fMessages, Off: int64(e.raw.off), Len: int64(e.raw.end - e.raw.off)},
				Fields: []model.Field{{Key: "recipient", Label: "to", Value: to}, {Key: "text", Label: "text", Value: e.text}}})
		}
	}
	g := d.game
	if g == nil || a.lean {
		return
	}
	_, leave := d.gameEventRoles(g)
	for i := range g.events {
		e := &g.events[i]
		if int(e.id) >= len(leave) || !leave[e.id] {
			continue
		}
		p := d.gamePlayer(int(e.user))
		who := fmt.Sprintf("user %d", e.user)
		if p >= 0 && p < a.n {
			who = a.name(p)
		} else {
			p = -1
		}
		f := a.frame(e.loop)
		a.moments = append(a.moments, model.Moment{Kind: model.MomentDrop, Frame: f, End: f, By: p, On: -1,
			Summary: who + " leaves the game", Span: model.Span{Stream: fGame, Off: int64(e.off), Len: int64(e.end - e.off)}})
	}
}

func sortMoments(ms []model.Moment) {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Frame < ms[j].Frame })
}

// buildOrderTable is a player's build order (or orders, without tracker
// events); false when the player has none.
func (a *analysis) buildOrderTable(p int) (model.StatTable, bool) {
	t := model.StatTable{Key: "buildOrder", Player: p}
	if a.tracked {
		t.Title = a.name(p) + "'s build order · structures started, units born, morphs and upgrades done"
		t.Columns = []string{"Supply", "What", "Note"}
	} else {
		t.Title = a.name(p) + "'s orders · train, build and research commands, not units made"
		t.Columns = []string{"Ordered"}
	}
	for _, l := range a.lines.all() {
		if l.player != p {
			continue
		}
		what := model.Field{Key: "what", Label: "What", Value: a.what(l)}
		r := model.StatRow{Key: l.name, Label: a.clockText(l.frame), Frame: l.frame}
		if a.tracked {
			r.Cells = []model.Field{
				{Key: "supply", Label: "Supply", Value: nonEmpty(l.extra().supply, "—")},
				what,
				{Key: "note", Label: "Note", Value: l.extra().note},
			}
		} else {
			r.Cells = []model.Field{what}
		}
		t.Rows = append(t.Rows, r)
	}
	return t, len(t.Rows) > 0
}

// lossTable lists a player's units and structures killed by others.
func (a *analysis) lossTable(p int) (model.StatTable, bool) {
	t := model.StatTable{Key: "unitsLost", Player: p, Columns: []string{"Lost", "Killed by"},
		Title: a.name(p) + "'s losses to other players"}
	for _, l := range a.losses.all() {
		if l.player != p {
			continue
		}
		what := a.unitTitle(l.name)
		if l.count > 1 {
			what += fmt.Sprintf(" ×%d", l.count)
		}
		if l.building {
			what += " (unfinished)"
		}
		t.Rows = append(t.Rows, model.StatRow{Key: l.name, Label: a.clockText(l.frame), Frame: l.frame, Cells: []model.Field{
			{Key: "lost", Label: "Lost", Value: what},
			{Key: "killedBy", Label: "Killed by", Value: a.killerText(l)},
		}})
	}
	return t, len(t.Rows) > 0
}

// chatTable is the chat, every player's.
func (a *analysis) chatTable() (model.StatTable, bool) {
	t := model.StatTable{Key: "chat", Title: "Chat", Player: -1, Columns: []string{"Player", "To", "Message"}}
	for _, c := range a.chat {
		t.Rows = append(t.Rows, model.StatRow{Key: "chat", Label: a.clockText(c.frame), Frame: c.frame, Cells: []model.Field{
			{Key: "player", Label: "Player", Value: c.who},
			{Key: "to", Label: "To", Value: c.to},
			{Key: "message", Label: "Message", Value: c.text},
		}})
	}
	return t, len(t.Rows) > 0
}
