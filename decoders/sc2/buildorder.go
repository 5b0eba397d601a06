package sc2

import (
	"strings"

	"rewind/decoders/sc2/names"
)

// The build order of the stats JSON (native.go): everything a player
// made, one entry a unit, structure or upgrade, workers included, named as
// the tracker events name them (the names sc2reader reads: UnitInitEvent's
// and UnitBornEvent's unit_type_name, UpgradeCompleteEvent's
// upgrade_type_name), in loop order:
//
//   - a unit started (UnitInit: structures, warp-ins, Archons merging);
//   - a unit born after loop 0 (UnitBorn: trained, hatched, built whole),
//     not the units every player starts with;
//   - a unit turned into a new unit (UnitTypeChange: Lair, Orbital
//     Command, Warp Gate, Baneling, Brood Lord; not a mode of the same
//     unit, moments.go), entered as "typeChange";
//   - an upgrade after loop 0 (Upgrade) whose count is above 0, co-op's
//     and arcade maps' included; not the cosmetic ones (sprays, rewards,
//     GameHeart's markers) nor the ones every player has at loop 0;
//   - a co-op upgrade (Upgrade, its count above 0, at any loop): a
//     commander's mastery or a decoration the player brings into the game
//     (Mastery..., Decoration...: CoA's at loop 0, Direct Strike's at loop
//     0 and 4), as sc2reader's tracker reading lists them; marked Coop,
//     and left out of the build order table, the moments and the upgrades
//     researched, so they do not crowd the build.
//
// Units no player orders are left out: the ones the tables (names.Info)
// price under 25 resources (Broodling, Locust, Interceptor, MULE,
// Changeling, Adept's shade, creep tumors, Auto-Turret) and the ones they
// do not know (eggs, beacons, arcade maps' markers, Larva and co-op's
// LarvaStetmann, 3.1's SpecialNexus: born with each Nexus started, at its
// spot, dead when it is done; sc2reader's tracker reading names them, but
// a build order that listed them would count every larva and every
// expansion twice). The build order table and the moments (moments.go)
// group these lines and list workers only as a count; the JSON lists each.
//
// Replays without tracker events give the orders instead (orders.go):
// each train, build, morph or research command, workers' too, named by
// the unit it makes (or the command, for research), entered as "order".

// itemKind is what a build order entry made.
type itemKind uint8

const (
	itemUnit itemKind = iota
	itemWorker
	itemStructure
	itemUpgrade
)

var itemKindNames = [...]string{"unit", "worker", "structure", "upgrade"}

func (k itemKind) String() string { return itemKindNames[k] }

// itemEvent is where an entry comes from.
type itemEvent uint8

const (
	fromInit itemEvent = iota
	fromBorn
	fromTypeChange
	fromUpgrade
	fromOrder
)

var itemEventNames = [...]string{"init", "born", "typeChange", "upgrade", "order"}

func (e itemEvent) String() string { return itemEventNames[e] }

// buildItem is one entry of a player's build order.
type buildItem struct {
	loop  int32
	name  string
	kind  itemKind
	event itemEvent
	coop  bool // a co-op upgrade
}

// coopUpgrade reports whether an upgrade is a commander's mastery or a
// decoration, which a co-op player brings into the game.
func coopUpgrade(name string) bool {
	return strings.HasPrefix(name, "Mastery") || strings.HasPrefix(name, "Decoration")
}

// kindOf is what a unit of the tables is as an entry.
func kindOf(info names.UnitInfo) itemKind {
	switch info.Kind {
	case names.Worker:
		return itemWorker
	case names.Structure:
		return itemStructure
	}
	return itemUnit
}

// addItem records an entry of player p's build order.
func (a *analysis) addItem(p int, loop int32, name string, kind itemKind, ev itemEvent) {
	if a.items == nil {
		a.items = make([][]buildItem, a.n)
	}
	if a.lean && !townHallNames[name] && !gasNames[name] {
		return // a summary reads only the first town hall and gas (firstStarted)
	}
	a.items[p] = append(a.items[p], buildItem{loop: loop, name: name, kind: kind, event: ev})
}

// town halls and gas buildings, for the first expansion and first gas
// (a rich geyser's building included).
var (
	townHallNames = map[string]bool{"Hatchery": true, "Nexus": true, "CommandCenter": true}
	gasNames      = map[string]bool{"Extractor": true, "Assimilator": true, "Refinery": true,
		"ExtractorRich": true, "AssimilatorRich": true, "RefineryRich": true}
)

// firstStarted is the loop of a player's first entry started (UnitInit,
// or an order) whose name is in set; false when there is none.
func (a *analysis) firstStarted(p int, set map[string]bool) (int32, bool) {
	if p >= len(a.items) {
		return 0, false
	}
	for _, it := range a.items[p] {
		if (it.event == fromInit || it.event == fromOrder) && set[it.name] {
			return it.loop, true
		}
	}
	return 0, false
}
