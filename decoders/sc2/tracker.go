package sc2

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"rewind/decoders/internal/budget"
	"rewind/decoders/sc2/names"
	"rewind/decoders/sc2/versioned"
	"rewind/model"
)

// Tracker event ids (NNet.Replay.Tracker.EEventId).
const (
	tPlayerStats = iota
	tUnitBorn
	tUnitDied
	tUnitOwnerChange
	tUnitTypeChange
	tUpgrade
	tUnitInit
	tUnitDone
	tUnitPositions
	tPlayerSetup
)

var trackerKinds = []string{"stats", "born", "died", "owner", "type", "upgrade", "init", "done", "positions", "setup"}

var trackerNames = []string{"PlayerStats", "UnitBorn", "UnitDied", "UnitOwnerChange", "UnitTypeChange",
	"Upgrade", "UnitInit", "UnitDone", "UnitPositions", "PlayerSetup"}

// trackerFields names the struct tags of each event (s2protocol's tracker
// type info; the tags have stayed the same since build 24944).
var trackerFields = [][]string{
	tPlayerStats:     {"m_playerId", "m_stats"},
	tUnitBorn:        {"m_unitTagIndex", "m_unitTagRecycle", "m_unitTypeName", "m_controlPlayerId", "m_upkeepPlayerId", "m_x", "m_y", "m_creatorUnitTagIndex", "m_creatorUnitTagRecycle", "m_creatorAbilityName"},
	tUnitDied:        {"m_unitTagIndex", "m_unitTagRecycle", "m_killerPlayerId", "m_x", "m_y", "m_killerUnitTagIndex", "m_killerUnitTagRecycle"},
	tUnitOwnerChange: {"m_unitTagIndex", "m_unitTagRecycle", "m_controlPlayerId", "m_upkeepPlayerId"},
	tUnitTypeChange:  {"m_unitTagIndex", "m_unitTagRecycle", "m_unitTypeName"},
	tUpgrade:         {"m_playerId", "m_upgradeTypeName", "m_count"},
	tUnitInit:        {"m_unitTagIndex", "m_unitTagRecycle", "m_unitTypeName", "m_controlPlayerId", "m_upkeepPlayerId", "m_x", "m_y"},
	tUnitDone:        {"m_unitTagIndex", "m_unitTagRecycle"},
	tUnitPositions:   {"m_firstUnitIndex", "m_items"},
	tPlayerSetup:     {"m_playerId", "m_type", "m_userId", "m_slotId"},
}

// statNames are the 39 counters of m_stats, by tag.
var statNames = []string{
	"m_scoreValueMineralsCurrent", "m_scoreValueVespeneCurrent", "m_scoreValueMineralsCollectionRate",
	"m_scoreValueVespeneCollectionRate", "m_scoreValueWorkersActiveCount", "m_scoreValueMineralsUsedInProgressArmy",
	"m_scoreValueMineralsUsedInProgressEconomy", "m_scoreValueMineralsUsedInProgressTechnology",
	"m_scoreValueVespeneUsedInProgressArmy", "m_scoreValueVespeneUsedInProgressEconomy",
	"m_scoreValueVespeneUsedInProgressTechnology", "m_scoreValueMineralsUsedCurrentArmy",
	"m_scoreValueMineralsUsedCurrentEconomy", "m_scoreValueMineralsUsedCurrentTechnology",
	"m_scoreValueVespeneUsedCurrentArmy", "m_scoreValueVespeneUsedCurrentEconomy",
	"m_scoreValueVespeneUsedCurrentTechnology", "m_scoreValueMineralsLostArmy", "m_scoreValueMineralsLostEconomy",
	"m_scoreValueMineralsLostTechnology", "m_scoreValueVespeneLostArmy", "m_scoreValueVespeneLostEconomy",
	"m_scoreValueVespeneLostTechnology", "m_scoreValueMineralsKilledArmy", "m_scoreValueMineralsKilledEconomy",
	"m_scoreValueMineralsKilledTechnology", "m_scoreValueVespeneKilledArmy", "m_scoreValueVespeneKilledEconomy",
	"m_scoreValueVespeneKilledTechnology", "m_scoreValueFoodUsed", "m_scoreValueFoodMade",
	"m_scoreValueMineralsUsedActiveForces", "m_scoreValueVespeneUsedActiveForces",
	"m_scoreValueMineralsFriendlyFireArmy", "m_scoreValueMineralsFriendlyFireEconomy",
	"m_scoreValueMineralsFriendlyFireTechnology", "m_scoreValueVespeneFriendlyFireArmy",
	"m_scoreValueVespeneFriendlyFireEconomy", "m_scoreValueVespeneFriendlyFireTechnology",
}

const (
	sMinerals     = 0
	sGas          = 1
	sWorkers      = 4
	sMinArmy      = 11
	sGasArmy      = 14
	sFoodUsed     = 29
	sFoodMade     = 30
	nStats        = 39
	bucketShift   = 4 // 16 loops a bucket for the O(1) indexes
	checkpointGap = 256
)

var townHalls = map[string]bool{"Nexus": true, "CommandCenter": true, "OrbitalCommand": true,
	"PlanetaryFortress": true, "CommandCenterFlying": true, "OrbitalCommandFlying": true,
	"Hatchery": true, "Lair": true, "Hive": true}

// tevent is a tracker event: 20 bytes (36,000 of them in a 240 KB
// replay). Where its body starts is found again when it is read
// (bodyIn), not kept.
type tevent struct {
	loop     int32
	off, end int32 // whole event in the stream
	unit     int32 // unit index, -1 none
	player   int16 // player index, -1 none (or past what an int16 holds)
	id       uint8
}

// playerOf is a player index as an event keeps it: one past what an
// int16 holds (a crafted replay's) is none, as the model's events have
// them as int16s.
func playerOf(pi int32) int16 {
	if pi > math.MaxInt16 {
		return -1
	}
	return int16(pi)
}

type unitRec struct {
	index, recycle uint32
	born, died     int32 // died = -1 while alive
	hist           []unitHist
	pos            []unitPos
}

type unitHist struct {
	loop  int32
	owner int16 // tracker player id
	typ   int32
}

type unitPos struct {
	loop int32
	x, y int32
}

type statRec struct {
	loop int32
	v    [nStats]int32
}

type change struct {
	loop   int32
	typ    int32
	player int16 // player index
	delta  int8
}

// killRec is what a UnitDied event says of the killer: its player
// (playerIndex of m_killerPlayerId) and its unit's tag, each when given.
type killRec struct {
	killer                   int32
	unitIndex, unitRecycle   uint32
	hasKiller, hasKillerUnit bool
}

type tracker struct {
	// posScale turns a position as written into map units: before base
	// build 27950 (patch 2.1) tracker positions have a resolution of 4
	// (sc2reader: "(15,25) recorded as (12,24)"), so they are multiplied
	// by 4, as sc2reader does; the event's fields keep the values written.
	posScale int64
	keptStream
	events chunked[tevent]
	units  chunked[unitRec]
	// a unit's first history entry and room for its first two positions
	// (born and died: most units have no more)
	hists   slab[unitHist]
	places  slab[unitPos]
	byIndex map[uint32]int32 // current unit for a tag index
	types   []string
	typeIdx map[string]int32

	stats   [][]statRec // per player index
	changes chunked[change]

	// What the analysis reads of an Upgrade and a UnitDied event's body,
	// taken while the event is decoded: one record for each such event
	// kept, in stream order. The analysis then needs no body, and a check
	// drops the decompressed stream once it is decoded (1.7 MB of a 240 KB
	// replay's 7 MB live after the decode).
	upgrades     chunked[int32] // index into upgradeNames, or -1: a count of 0 or less
	upgradeNames []string
	upgradeIdx   map[string]int32
	kills        chunked[killRec]

	nplayers int
	maxX     int32
	maxY     int32

	unknownUnits int
	firstUnknown int
	preplaced    int

	setupUsers map[int]int // lobby user id -> player index, from PlayerSetup
	sawSetup   bool        // a PlayerSetup event numbered the players (setup)

	titlesOnce sync.Once
	titles     []string // names.UnitTitle of each of types

	wordsMu      sync.RWMutex
	upgradeWords map[string]string
	b            *budget.Budget
	noCounts     bool // the budget could not pay for the unit-count index
}

// typeOf numbers a unit type name; false when the budget cannot pay for
// a new one.
func (t *tracker) typeOf(name []byte) (int32, bool) {
	if i, ok := t.typeIdx[string(name)]; ok {
		return i, true
	}
	if t.b.Alloc(fTracker+": unit type names", int64(len(name))+48) != nil {
		return 0, false
	}
	i := int32(len(t.types))
	t.types = append(t.types, string(name))
	t.typeIdx[string(name)] = i
	return i, true
}

// pay asks the budget for n bytes of the tracker's records.
func (t *tracker) pay(n int64) bool {
	return t.b.Alloc(fTracker+": unit and player records", n) == nil
}

func (d *decoder) playerIndex(pid int64) int32 {
	if i, ok := d.slotToPl[int(pid)]; ok {
		return int32(i)
	}
	return -1
}

// Sizes the budget pays for the tracker's own records.
const (
	teventSize  = 28
	unitRecSize = 64 + 12 + 12 // the record with its first history and position
	histSize    = 12
	posSize     = 12
	statRecSize = 4 + 4*nStats
	changeSize  = 12
	upgradeSize = 4
	killSize    = 16
)

// decodeTracker decodes replay.tracker.events and builds the per-loop
// state. It runs as a task of its own (readArchive): it reads d.players (through
// playerIndex), writes d.tr and out, and d.slotToPl as the stream's
// PlayerSetup events number the players (setup).
func (d *decoder) decodeTracker(b []byte, out *[]model.Diagnostic) {
	t := &tracker{keptStream: keptStream{data: b, reload: func() []byte { return d.st.load(fTracker) }}, byIndex: map[uint32]int32{}, typeIdx: map[string]int32{}, upgradeIdx: map[string]int32{}, nplayers: len(d.r.Players),
		setupUsers: map[int]int{}, b: d.b, posScale: 1}
	if d.baseBuild < 27950 {
		t.posScale = 4
	}
	t.stats = make([][]statRec, t.nplayers)
	d.tr = t
	dec := versioned.NewDecoder(b)
	dec.Budget, dec.What = d.b, fTracker
	dec.UseArena() // apply consumes each event before the next is read
	loop := int64(0)
	for !dec.Done() {
		dec.ResetArena()
		start := dec.Pos()
		dv, err := dec.Value()
		if err == nil && dv.Kind == versioned.Choice && len(dv.Items) == 1 {
			// The game counts loops in 32 bits: a delta that runs the sum
			// past them wraps it, as sc2reader reads it (a 2.1.3 client
			// wrote its PlayerSetup events late, at loop 0, with a delta
			// of 2^32 less the loop before).
			loop = int64(uint32(loop + dv.Items[0].Int))
		} else if err == nil {
			err = &versioned.Error{Off: start, Msg: fmt.Sprintf("game loop delta is a %v, expected a choice", dv.Kind)}
		}
		var id, sv versioned.Value
		if err == nil {
			id, err = dec.Value()
		}
		if err == nil {
			sv, err = dec.Value()
		}
		if err == nil && (id.Kind != versioned.Int || id.Int < 0 || id.Int > tPlayerSetup) {
			err = &versioned.Error{Off: id.Off, Msg: fmt.Sprintf("unknown tracker event id %d", id.Int)}
		}
		if err == nil && sv.Kind != versioned.Struct {
			err = &versioned.Error{Off: sv.Off, Msg: fmt.Sprintf("event body is a %v, expected a struct", sv.Kind)}
		}
		if err == nil && (loop < 0 || loop > 1<<31-1) {
			err = &versioned.Error{Off: start, Msg: fmt.Sprintf("game loop %d out of range", loop)}
		}
		if err == nil && t.events.len()%chunkLen == 0 {
			err = t.room()
		}
		if err != nil {
			if d.budgetHit(model.Span{Stream: fTracker, Off: int64(start)}) {
				break
			}
			e, _ := err.(*versioned.Error)
			off := int64(start)
			msg := err.Error()
			if e != nil {
				off, msg = int64(e.Off), e.Msg
			}
			dg := diagnostic(model.Error, model.Span{Stream: fTracker, Off: off, Len: int64(len(b)) - off},
				fmt.Sprintf("tracker event %d", t.events.len()), msg+"; the rest of the stream is not decoded", "", "")
			dg.Frame, dg.Skipped = int(min64(max(loop, 0), int64(d.loops))), true
			*out = append(*out, dg)
			break
		}
		ev := tevent{loop: int32(loop), id: uint8(id.Int), off: int32(start), end: int32(dec.Pos()), unit: -1, player: -1}
		t.apply(d, &ev, &sv)
		if t.b.Exhausted() {
			d.budgetHit(model.Span{Stream: fTracker, Off: int64(start)})
			break
		}
		t.events.add(ev)
	}
	if dg, ok := d.pastTheEnd(fTracker, "tracker", t.events.len(), func(i int) (int32, int32, int32) {
		e := t.events.at(i)
		return e.loop, e.off, e.end
	}); ok {
		*out = append(*out, dg)
	}
	if t.preplaced > 0 {
		*out = append(*out, diagnostic(model.Info, model.Span{Stream: fTracker}, "unit tags",
			fmt.Sprintf("%d owner changes of units placed with the map (never born); they are not counted", t.preplaced), "", ""))
	}
	if t.unknownUnits > 0 {
		*out = append(*out, diagnostic(model.Warning, model.Span{Stream: fTracker, Off: int64(t.firstUnknown)}, "unit tags",
			fmt.Sprintf("%d events name units that were never born (corrupt unit ids)", t.unknownUnits), "", ""))
	}
}

// room pays the budget for the next chunk of events. The events are
// kept in chunks (chunked), not in one slice sized by a guess from the
// stream's length: the guess of an event every 36 bytes left a fifth of
// the room unused (0.25 MB for the 1.7 MB stream of a 240 KB replay), and
// a stream it did not fit copied the slice.
func (t *tracker) room() error {
	return t.b.Items(fTracker+": events", chunkLen, teventSize)
}

// source hands the tracker events to the replay's merge.
func (t *tracker) source(kt *kindTable) eventSource {
	kinds := make([]model.KindID, len(trackerKinds))
	for id, k := range trackerKinds {
		kinds[id] = kt.id(k)
	}
	return eventSource{n: t.events.len(),
		frame: func(i int) int { return int(t.events.at(i).loop) },
		event: func(i int, ev *model.Event) {
			e := t.events.at(i)
			ev.Frame, ev.Player, ev.Kind, ev.Ref = int32(e.loop), int16(e.player), kinds[e.id], int32(i)
			ev.Stream, ev.Off, ev.Len = sTracker, int64(e.off), int64(e.end-e.off)
			// A lost town hall is a turning point worth a tick on the timeline.
			if e.id == tUnitDied && e.player >= 0 && townHalls[t.unitName(e.unit, e.loop)] {
				ev.Flags |= model.Notable
			}
		}}
}

func min64(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}

func (t *tracker) unitByTag(index, recycle int64) int32 {
	u, ok := t.byIndex[uint32(index)]
	if !ok {
		return -1
	}
	if t.units.at(int(u)).recycle != uint32(recycle) {
		return -1
	}
	return u
}

func (t *tracker) count(loop int32, pid int16, typ int32, delta int8, d *decoder) {
	pi := d.playerIndex(int64(pid))
	if pi < 0 || pi > math.MaxInt16 {
		return // no player, or one past what a change's int16 holds (a crafted replay's)
	}
	if !t.pay(changeSize) {
		return
	}
	t.changes.add(change{loop: loop, player: int16(pi), typ: typ, delta: delta})
}

func (t *tracker) see(x, y int64) {
	if int32(x) > t.maxX && x < 1<<16 {
		t.maxX = int32(x)
	}
	if int32(y) > t.maxY && y < 1<<16 {
		t.maxY = int32(y)
	}
}

func (t *tracker) apply(d *decoder, e *tevent, v *versioned.Value) {
	geti := func(tag int64) int64 { x, _ := v.IntOf(tag); return x }
	switch e.id {
	case tPlayerStats:
		pi := d.playerIndex(geti(0))
		e.player = playerOf(pi)
		st, ok := v.Get(1)
		if pi < 0 || !ok {
			return
		}
		rec := statRec{loop: e.loop}
		for _, f := range st.Fields {
			if f.Tag >= 0 && f.Tag < nStats {
				rec.v[f.Tag] = int32(f.Val.Int)
			}
		}
		if !t.pay(statRecSize) {
			return
		}
		if t.stats[pi] == nil {
			// a record every 10 game seconds (160 loops) of the game's
			// length, at most as many as the stream can hold (one takes
			// 80 bytes and more): room made once, not grown
			t.stats[pi] = make([]statRec, 0, min(int(d.loops)/160+2, len(t.data)/80+1))
		}
		t.stats[pi] = appendDoubling(t.stats[pi], rec)
	case tUnitBorn, tUnitInit:
		name, _ := v.BytesOf(2)
		typ, ok := t.typeOf(name)
		if !ok {
			return
		}
		owner := int16(geti(3))
		x, y := geti(5)*t.posScale, geti(6)*t.posScale
		t.see(x, y)
		index, recycle := uint32(geti(0)), uint32(geti(1))
		// A UnitDone after a UnitInit is the same unit; a born unit with a
		// tag still alive replaces it.
		if old, ok := t.byIndex[index]; ok && t.units.at(int(old)).died < 0 && t.units.at(int(old)).recycle == recycle {
			e.unit = old
			e.player = playerOf(d.playerIndex(int64(owner)))
			return
		}
		if !t.pay(unitRecSize) {
			return
		}
		u := unitRec{index: index, recycle: recycle, born: e.loop, died: -1,
			hist: t.hists.take(unitHist{loop: e.loop, owner: owner, typ: typ}, 1),
			pos:  t.places.take(unitPos{loop: e.loop, x: int32(x), y: int32(y)}, 2)}
		e.unit = int32(t.units.add(u))
		t.byIndex[u.index] = e.unit
		e.player = playerOf(d.playerIndex(int64(owner)))
		t.count(e.loop, owner, typ, 1, d)
	case tUnitDied:
		if !t.pay(killSize) {
			return
		}
		var k killRec
		var kid int64
		kid, k.hasKiller = v.IntOf(2)
		k.killer = d.playerIndex(kid)
		if ki, ok := v.IntOf(5); ok {
			kr, _ := v.IntOf(6)
			k.unitIndex, k.unitRecycle, k.hasKillerUnit = uint32(ki), uint32(kr), true
		}
		t.kills.add(k)
		u := t.unitByTag(geti(0), geti(1))
		t.see(geti(3)*t.posScale, geti(4)*t.posScale)
		if u < 0 {
			t.unknown(e)
			return
		}
		e.unit = u
		ur := t.units.at(int(u))
		if ur.died >= 0 {
			return
		}
		ur.died = e.loop
		h := ur.hist[len(ur.hist)-1]
		e.player = playerOf(d.playerIndex(int64(h.owner)))
		if !t.pay(posSize) {
			return
		}
		ur.pos = append(ur.pos, unitPos{loop: e.loop, x: int32(geti(3) * t.posScale), y: int32(geti(4) * t.posScale)})
		t.count(e.loop, h.owner, h.typ, -1, d)
	case tUnitOwnerChange:
		u := t.unitByTag(geti(0), geti(1))
		if u < 0 {
			// Units placed with the map are never born; arcade maps hand
			// them to players this way.
			t.preplaced++
			e.player = playerOf(d.playerIndex(geti(2)))
			return
		}
		e.unit = u
		ur := t.units.at(int(u))
		h := ur.hist[len(ur.hist)-1]
		owner := int16(geti(2))
		e.player = playerOf(d.playerIndex(int64(owner)))
		if ur.died >= 0 || owner == h.owner {
			return
		}
		t.count(e.loop, h.owner, h.typ, -1, d)
		t.count(e.loop, owner, h.typ, 1, d)
		if !t.pay(histSize) {
			return
		}
		ur.hist = append(ur.hist, unitHist{loop: e.loop, owner: owner, typ: h.typ})
	case tUnitTypeChange:
		u := t.unitByTag(geti(0), geti(1))
		if u < 0 {
			t.unknown(e)
			return
		}
		e.unit = u
		ur := t.units.at(int(u))
		h := ur.hist[len(ur.hist)-1]
		name, _ := v.BytesOf(2)
		typ, ok := t.typeOf(name)
		if !ok {
			return
		}
		e.player = playerOf(d.playerIndex(int64(h.owner)))
		if ur.died >= 0 || typ == h.typ {
			return
		}
		t.count(e.loop, h.owner, h.typ, -1, d)
		t.count(e.loop, h.owner, typ, 1, d)
		if !t.pay(histSize) {
			return
		}
		ur.hist = append(ur.hist, unitHist{loop: e.loop, owner: h.owner, typ: typ})
	case tUpgrade:
		e.player = playerOf(d.playerIndex(geti(0)))
		if !t.pay(upgradeSize) {
			return
		}
		name, _ := v.BytesOf(1)
		i, ok := t.upgradeIdx[string(name)]
		if !ok {
			if t.b.Alloc(fTracker+": upgrade names", int64(len(name))+48) != nil {
				return
			}
			i = int32(len(t.upgradeNames))
			t.upgradeNames = append(t.upgradeNames, string(name))
			t.upgradeIdx[string(name)] = i
		}
		if n, ok := v.IntOf(2); ok && n <= 0 {
			i = -1
		}
		t.upgrades.add(i)
	case tUnitDone:
		u := t.unitByTag(geti(0), geti(1))
		if u < 0 {
			t.unknown(e)
			return
		}
		e.unit = u
		hist := t.units.at(int(u)).hist
		e.player = playerOf(d.playerIndex(int64(hist[len(hist)-1].owner)))
	case tUnitPositions:
		idx := geti(0)
		items, ok := v.Get(1)
		if !ok {
			return
		}
		for i := 0; i+2 < len(items.Items); i += 3 {
			idx += items.Items[i].Int
			x, y := items.Items[i+1].Int*t.posScale, items.Items[i+2].Int*t.posScale
			t.see(x, y)
			if u, ok := t.byIndex[uint32(idx)]; ok {
				if !t.pay(posSize) {
					return
				}
				ur := t.units.at(int(u))
				ur.pos = append(ur.pos, unitPos{loop: e.loop, x: int32(x), y: int32(y)})
			}
		}
	case tPlayerSetup:
		t.setup(d, geti(0), v)
		pi := d.playerIndex(geti(0))
		e.player = playerOf(pi)
		if uid, ok := v.IntOf(2); ok && pi >= 0 {
			t.setupUsers[int(uid)] = int(pi)
		}
	}
}

// setup takes a PlayerSetup event's word for which slot a player id is
// (m_slotId): a co-op game numbers its players past their slots (CoA's
// slot 6 is player 8). The first such event replaces the numbering by
// slot (seatedTrackerPlayers) with the events'.
func (t *tracker) setup(d *decoder, pid int64, v *versioned.Value) {
	if d.init == nil {
		return // no seats: player k stays the k-th details player
	}
	if !t.sawSetup {
		t.sawSetup = true
		clear(d.slotToPl)
	}
	if sid, ok := v.IntOf(3); ok && sid >= 0 && sid < int64(len(d.init.slots)) && d.init.slots[sid].seat >= 0 {
		d.slotToPl[int(pid)] = d.init.slots[sid].seat
	}
}

func (t *tracker) unknown(e *tevent) {
	if t.unknownUnits == 0 {
		t.firstUnknown = int(e.off)
	}
	t.unknownUnits++
}

// install builds the O(1) indexes and hands State, Scenes, Charts,
// Summarize and Detail to the replay.
func (t *tracker) install(d *decoder) {
	r := d.r
	n := d.loops + 1
	buckets := n>>bucketShift + 1
	// statIdx[p][b]: stats records of player p with loop < b*16 (players
	// without stats records need none).
	statIdx := make([][]int32, t.nplayers)
	for p := range statIdx {
		if len(t.stats[p]) == 0 {
			continue
		}
		if d.b.Items(fTracker+": stats index", int64(buckets+1), 4) != nil {
			d.budgetHit(model.Span{Stream: fTracker})
			break
		}
		idx := make([]int32, buckets+1)
		k := 0
		for b := 0; b <= buckets; b++ {
			for k < len(t.stats[p]) && int(t.stats[p][k].loop) < b<<bucketShift {
				k++
			}
			idx[b] = int32(k)
		}
		statIdx[p] = idx
	}
	// checkpoints of unit counts every 256 loops: counts after all changes
	// with loop < k*256, and where in t.changes that is. The budget pays
	// for them now; they are made when State is first asked (check and
	// export never ask, and they came after the merge, at the peak).
	ncp := n/checkpointGap + 1
	ntypes := len(t.types)
	var cps [][]int32 // cps[k] = nplayers*ntypes counts
	var cpAt []int32
	var cpOnce sync.Once
	if d.b.Items(fTracker+": unit counts by player and type", int64(ncp)*(int64(t.nplayers)*int64(ntypes)+2), 4) != nil {
		d.budgetHit(model.Span{Stream: fTracker})
		t.noCounts = true
	}
	checkpoints := func() {
		cps = make([][]int32, ncp)
		cpAt = make([]int32, ncp)
		cur := make([]int32, t.nplayers*ntypes)
		ci := 0
		for k := 0; k < ncp; k++ {
			for ci < t.changes.len() && int(t.changes.at(ci).loop) < k*checkpointGap {
				c := *t.changes.at(ci)
				cur[int(c.player)*ntypes+int(c.typ)] += int32(c.delta)
				ci++
			}
			cps[k] = append([]int32(nil), cur...)
			cpAt[k] = int32(ci)
		}
	}
	statAt := func(frame, p int) *statRec {
		if len(statIdx[p]) == 0 {
			return nil
		}
		b := frame >> bucketShift
		if b >= len(statIdx[p]) {
			b = len(statIdx[p]) - 1
		}
		k := int(statIdx[p][b])
		for k < len(t.stats[p]) && int(t.stats[p][k].loop) <= frame {
			k++
		}
		if k == 0 {
			// Before the first record (loop 1): the game's starting state,
			// which that record gives (50 minerals, 12 workers in Legacy
			// of the Void, 6 before), not zeros.
			if first := &t.stats[p][0]; first.loop <= gameSecond {
				return first
			}
			return nil
		}
		return &t.stats[p][k-1]
	}
	r.State = func(frame, p int) model.PlayerState {
		if p < 0 || p >= t.nplayers || frame < 0 {
			return model.PlayerState{}
		}
		st := statAt(frame, p)
		var v [nStats]int32
		if st != nil {
			v = st.v
		}
		var counts []int32
		if !t.noCounts {
			cpOnce.Do(checkpoints)
			k := frame / checkpointGap
			if k >= ncp {
				k = ncp - 1
			}
			counts = make([]int32, ntypes)
			copy(counts, cps[k][p*ntypes:(p+1)*ntypes])
			for i := int(cpAt[k]); i < t.changes.len() && int(t.changes.at(i).loop) <= frame; i++ {
				if c := *t.changes.at(i); int(c.player) == p {
					counts[c.typ] += int32(c.delta)
				}
			}
		}
		supply := fmt.Sprintf("%g/%g", float64(v[sFoodUsed])/4096, float64(v[sFoodMade])/4096)
		army := int64(v[sMinArmy]) + int64(v[sGasArmy])
		ps := model.PlayerState{Present: true, Brief: []model.Field{
			{Key: "minerals", Label: "minerals", Value: int64(v[sMinerals])},
			{Key: "gas", Label: "gas", Value: int64(v[sGas])},
			{Key: "supply", Label: "supply", Value: supply},
			{Key: "workers", Label: "workers", Value: int64(v[sWorkers])},
			{Key: "army", Label: "army", Value: army},
		}}
		fs := make([]model.Field, 0, nStats+4)
		for i, name := range statNames {
			val := any(int64(v[i]))
			if i == sFoodUsed || i == sFoodMade {
				val = float64(v[i]) / 4096
			}
			fs = append(fs, model.Field{Key: strings.TrimPrefix(name, "m_"), Label: name, Value: val})
		}
		fs = append(fs, model.Field{Key: "armyValue", Label: "army value (minerals + gas in current army)", Value: army})
		if st != nil {
			fs = append(fs, model.Field{Key: "statsLoop", Label: "stats from loop", Value: int64(st.loop)})
		}
		var alive []model.Field
		for ti, c := range counts {
			if c != 0 {
				alive = append(alive, model.Field{Key: t.types[ti], Label: t.types[ti], Value: int64(c)})
			}
		}
		sort.Slice(alive, func(i, j int) bool { return alive[i].Key < alive[j].Key })
		fs = append(fs, model.Field{Key: "unitsAlive", Label: "units alive by type", Fields: alive})
		ps.Fields = fs
		return ps
	}
	// Scenes: units alive at the frame at their last known position.
	bounds := model.Rect{MinX: 0, MinY: 0, MaxX: float64(t.maxX + 1), MaxY: float64(t.maxY + 1)}
	if d.mapW > 0 && d.mapH > 0 && int64(t.maxX) <= d.mapW && int64(t.maxY) <= d.mapH {
		// the lobby's map size, when initData was decoded
		bounds.MaxX, bounds.MaxY = float64(d.mapW), float64(d.mapH)
	}
	title := r.Title
	r.Scenes = func(frame int) []model.Scene {
		sc := model.Scene{Title: title, Bounds: bounds,
			Lines: []model.Line{{X1: 0, Y1: 0, X2: bounds.MaxX, Y2: 0}, {X1: bounds.MaxX, Y1: 0, X2: bounds.MaxX, Y2: bounds.MaxY},
				{X1: bounds.MaxX, Y1: bounds.MaxY, X2: 0, Y2: bounds.MaxY}, {X1: 0, Y1: bounds.MaxY, X2: 0, Y2: 0}}}
		f := int32(frame)
		for i := range t.units.len() {
			u := t.units.at(i)
			if u.born > f || (u.died >= 0 && u.died <= f) {
				continue
			}
			h := u.hist[0]
			for _, x := range u.hist {
				if x.loop <= f {
					h = x
				}
			}
			pi := d.playerIndex(int64(h.owner))
			if pi < 0 {
				continue // neutral: minerals, geysers, rocks
			}
			k := sort.Search(len(u.pos), func(j int) bool { return u.pos[j].loop > f }) - 1
			if k < 0 {
				k = 0
			}
			sc.Points = append(sc.Points, model.Point{X: float64(u.pos[k].x), Y: float64(u.pos[k].y), Player: int(pi), Kind: "unit", Label: t.types[h.typ]})
		}
		return []model.Scene{sc}
	}
	// Charts: supply used and army value, sampled.
	samples := 512
	if n < samples {
		samples = n
	}
	supply := model.Chart{Title: "supply"}
	army := model.Chart{Title: "army value"}
	for p := 0; p < t.nplayers; p++ {
		if len(t.stats[p]) == 0 {
			continue
		}
		s := model.Series{Label: r.Players[p].Name, Player: p, Values: make([]float64, samples)}
		a := model.Series{Label: r.Players[p].Name, Player: p, Values: make([]float64, samples)}
		for i := 0; i < samples; i++ {
			if st := statAt(i*n/samples, p); st != nil {
				s.Values[i] = float64(st.v[sFoodUsed]) / 4096
				a.Values[i] = float64(st.v[sMinArmy]) + float64(st.v[sGasArmy])
			}
		}
		supply.Series = append(supply.Series, s)
		army.Series = append(army.Series, a)
	}
	if len(supply.Series) > 0 {
		r.Charts = append(r.Charts, supply, army)
	}
	prevSum := r.Summarize
	r.Summarize = func(ev *model.Event) string {
		if ev.Stream != sTracker || ev.Ref < 0 || int(ev.Ref) >= t.events.len() {
			if prevSum != nil {
				return prevSum(ev)
			}
			return ""
		}
		return t.summary(d, t.events.at(int(ev.Ref)))
	}
	prevDetail := r.Detail
	r.Detail = func(ev *model.Event) []model.Field {
		if ev.Stream != sTracker || ev.Ref < 0 || int(ev.Ref) >= t.events.len() {
			if prevDetail != nil {
				return prevDetail(ev)
			}
			return nil
		}
		return t.detail(t.events.at(int(ev.Ref)))
	}
}

// bodyIn reads an event's body, after its loop delta and id, with a
// decoder that uses an arena: the value is good until the decoder reads
// another. Its offsets count from the event's start (e.off).
func (t *tracker) bodyIn(dec *versioned.Decoder, e *tevent) versioned.Value {
	dec.Reset(t.eventBytes(e))
	dec.Value() // the loop delta
	dec.Value() // the event id
	v, _ := dec.Value()
	return v
}

// eventBytes are an event's bytes: from the stream, read again when a
// check gave it back (nothing in a check asks).
func (t *tracker) eventBytes(e *tevent) []byte { return t.span(e.off, e.end) }

// summaryDecoders read events for summaries, their values in an arena
// that each summary reuses (the body is done with when the line is).
var summaryDecoders = sync.Pool{New: func() any {
	d := versioned.NewDecoder(nil)
	d.UseArena()
	return d
}}

// title is a unit type's title (names.UnitTitle), worked out once per
// type name of the stream.
func (t *tracker) title(typ int32) string {
	t.titlesOnce.Do(func() {
		t.titles = make([]string, len(t.types))
		for i, n := range t.types {
			t.titles[i] = names.UnitTitle(n)
		}
	})
	return t.titles[typ]
}

// words is names.Words of an upgrade's name, worked out once per name
// (a game has a few dozen; every player owns sprays and skins as upgrades).
func (t *tracker) words(name []byte) string {
	t.wordsMu.RLock()
	w, ok := t.upgradeWords[string(name)]
	t.wordsMu.RUnlock()
	if ok {
		return w
	}
	w = names.Words(string(name))
	t.wordsMu.Lock()
	if t.upgradeWords == nil {
		t.upgradeWords = map[string]string{}
	}
	t.upgradeWords[string(name)] = w
	t.wordsMu.Unlock()
	return w
}

// titleOf is the title of a unit type name as an event writes it.
func (t *tracker) titleOf(name []byte) string {
	if i, ok := t.typeIdx[string(name)]; ok {
		return t.title(i)
	}
	return names.UnitTitle(string(name))
}

func (t *tracker) unitName(u int32, f int32) string {
	if typ, ok := t.unitType(u, f); ok {
		return t.types[typ]
	}
	return "unknown unit"
}

// unitType is the type a unit has at a loop.
func (t *tracker) unitType(u int32, f int32) (int32, bool) {
	if u < 0 || int(u) >= t.units.len() {
		return 0, false
	}
	ur := t.units.at(int(u))
	h := ur.hist[0]
	for _, x := range ur.hist {
		if x.loop <= f {
			h = x
		}
	}
	return h.typ, true
}

// summary reads as a player would: "firebat: Supply Depot born at (52, 31)".
// Unit names are the game's titles (names.UnitTitle); the raw names, tags
// and player ids are in the event's fields.
func (t *tracker) summary(d *decoder, e *tevent) string {
	dec := summaryDecoders.Get().(*versioned.Decoder)
	defer summaryDecoders.Put(dec)
	v := t.bodyIn(dec, e)
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
	unit := func(u int32, loop int32) string {
		if typ, ok := t.unitType(u, loop); ok {
			return t.title(typ)
		}
		return names.UnitTitle("unknown unit")
	}
	// The common events are appended to one buffer (strconv writes %d and
	// %g as fmt does); the rare ones are formatted.
	var buf [160]byte
	b := buf[:0]
	owner := func() int64 {
		if e.unit >= 0 && int(e.unit) < t.units.len() {
			return int64(t.units.at(int(e.unit)).ownerAt(e.loop))
		}
		return -1
	}
	at := func(b []byte, x, y int64) []byte {
		b = strconv.AppendInt(append(b, " at ("...), x*t.posScale, 10)
		b = strconv.AppendInt(append(b, ", "...), y*t.posScale, 10)
		return append(b, ')')
	}
	switch e.id {
	case tPlayerStats:
		st, _ := v.Get(1)
		g := func(i int64) int64 { x, _ := st.IntOf(i); return x }
		b = append(append(b, who(geti(0))...), ": "...)
		b = append(strconv.AppendInt(b, g(sMinerals), 10), " minerals, "...)
		b = append(strconv.AppendInt(b, g(sGas), 10), " gas, supply "...)
		b = strconv.AppendFloat(b, float64(g(sFoodUsed))/4096, 'g', -1, 64)
		b = strconv.AppendFloat(append(b, '/'), float64(g(sFoodMade))/4096, 'g', -1, 64)
		b = append(strconv.AppendInt(append(b, ", "...), g(sWorkers), 10), " workers, army "...)
		return string(strconv.AppendInt(b, g(sMinArmy)+g(sGasArmy), 10))
	case tUnitBorn, tUnitInit:
		name, _ := v.BytesOf(2)
		verb := " born"
		if e.id == tUnitInit {
			verb = " started"
		}
		b = append(append(append(b, who(geti(3))...), ": "...), t.titleOf(name)...)
		return string(at(append(b, verb...), geti(5), geti(6)))
	case tUnitDied:
		b = append(append(append(b, who(owner())...), ": "...), unit(e.unit, e.loop)...)
		b = at(append(b, " died"...), geti(3), geti(4))
		if k, ok := v.IntOf(2); ok {
			b = append(append(b, ", killed by "...), who(k)...)
		}
		return string(b)
	case tUnitOwnerChange:
		return who(geti(2)) + ": takes " + unit(e.unit, e.loop-1)
	case tUnitTypeChange:
		name, _ := v.BytesOf(2)
		return who(owner()) + ": " + unit(e.unit, e.loop-1) + " becomes " + t.titleOf(name)
	case tUpgrade:
		name, _ := v.BytesOf(1)
		s := who(geti(0)) + ": upgrade " + t.words(name)
		if n := geti(2); n != 1 {
			s += fmt.Sprintf(" (%d)", n)
		}
		return s
	case tUnitDone:
		return who(owner()) + ": " + unit(e.unit, e.loop) + " finished"
	case tUnitPositions:
		items, _ := v.Get(1)
		n := 0
		if items != nil {
			n = len(items.Items) / 3
		}
		return string(append(strconv.AppendInt(append(b, "positions of "...), int64(n), 10), " units"...))
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

// ownerAt is the tracker player id owning the unit at a loop.
func (u *unitRec) ownerAt(loop int32) int16 {
	h := u.hist[0]
	for _, x := range u.hist {
		if x.loop <= loop {
			h = x
		}
	}
	return h.owner
}

func (t *tracker) detail(e *tevent) []model.Field {
	// the fields copy what they show, so the body can live in an arena
	dec := summaryDecoders.Get().(*versioned.Decoder)
	defer summaryDecoders.Put(dec)
	v := t.bodyIn(dec, e)
	base := int64(e.off) // the body's offsets count from the event's start
	names := trackerFields[e.id]
	out := []model.Field{{Key: "event", Label: "event", Value: int64(e.id), Name: trackerNames[e.id],
		Span: model.Span{Stream: fTracker, Off: int64(e.off), Len: int64(e.end - e.off)}},
		{Key: "gameloop", Label: "_gameloop", Value: int64(e.loop)}}
	for _, f := range v.Fields {
		var label string
		if f.Tag >= 0 && int(f.Tag) < len(names) {
			label = names[f.Tag]
		} else {
			label = fmt.Sprintf("field %d", f.Tag)
		}
		out = append(out, fieldOf(f, label, base, int32(e.id)))
	}
	if e.id == tUnitBorn || e.id == tUnitInit || e.id == tUnitDied || e.id == tUnitDone || e.id == tUnitOwnerChange || e.id == tUnitTypeChange {
		idx, _ := v.IntOf(0)
		rec, _ := v.IntOf(1)
		out = append(out, model.Field{Key: "unitTag", Label: "unit tag (index << 18 | recycle)", Value: idx<<18 | rec})
	}
	return out
}

func fieldOf(f versioned.Field, label string, base int64, id int32) model.Field {
	x := f.Val
	mf := model.Field{Key: strings.TrimPrefix(label, "m_"), Label: label,
		Span: model.Span{Stream: fTracker, Off: base + int64(x.Off), Len: int64(x.End - x.Off)}}
	if x.Kind == versioned.Optional {
		if len(x.Items) == 0 {
			return mf
		}
		x = x.Items[0]
	}
	switch x.Kind {
	case versioned.Blob:
		mf.Value = string(x.Bytes)
	case versioned.Struct:
		if len(x.Fields) > 0 {
			mf.Fields = make([]model.Field, 0, len(x.Fields))
		}
		for _, s := range x.Fields {
			var l string
			if id == tPlayerStats && s.Tag >= 0 && int(s.Tag) < nStats {
				l = statNames[s.Tag]
			} else {
				l = fmt.Sprintf("field %d", s.Tag)
			}
			sub := fieldOf(s, l, base, id)
			if id == tPlayerStats && (s.Tag == sFoodUsed || s.Tag == sFoodMade) {
				sub.Name = fmt.Sprintf("%g", float64(s.Val.Int)/4096)
			}
			mf.Fields = append(mf.Fields, sub)
		}
	case versioned.Array:
		mf.Value = int64(len(x.Items))
		mf.Name = fmt.Sprintf("%d items", len(x.Items))
		lim := len(x.Items)
		if lim > 300 {
			lim = 300
		}
		for i := 0; i < lim; i++ {
			it := x.Items[i]
			mf.Fields = append(mf.Fields, model.Field{Key: fmt.Sprint(i), Label: fmt.Sprintf("[%d]", i), Value: it.Int,
				Span: model.Span{Stream: fTracker, Off: base + int64(it.Off), Len: int64(it.End - it.Off)}})
		}
	default:
		mf.Value = x.Int
	}
	return mf
}
