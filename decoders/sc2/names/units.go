package names

import (
	"strconv"
	"strings"
)

// Kind is what a unit is to a player's stats.
type Kind uint8

const (
	Worker    Kind = iota + 1 // SCV, Probe, Drone, MULE
	Army                      // everything that is neither (Overlords and Broodlings too)
	Structure                 // buildings, add-ons, creep tumors
)

// UnitInfo is what sc2reader's unit_info.json says about a unit type.
type UnitInfo struct {
	// Base is the unit the name is a mode or a later name of, lower case:
	// "siegetank" for SiegeTankSieged, "viking" for VikingFighter,
	// "barracks" for BarracksFlying. Turning from one name into another of
	// the same Base makes no new unit.
	Base              string
	Race              string
	Kind              Kind
	Minerals, Vespene int // -1 when not known
	Supply            float64
}

// Known reports whether the unit's cost is known.
func (u UnitInfo) Known() bool { return u.Minerals >= 0 && u.Vespene >= 0 }

var (
	kinds  map[string]UnitInfo // lower-case name -> info (Base is the name)
	sameAs map[string]string   // lower-case name -> the name it is in another mode
)

// modeSuffixes end the names of units in another mode (burrowed, sieged,
// lifted off, lowered, phasing), of Legacy of the Void's remakes (LurkerMP,
// ThorAP in its high-impact mode, LiberatorAG in defender mode), of rich
// vespene buildings and of skins (GhostAlternate).
var modeSuffixes = []string{"burrowed", "sieged", "siegemode", "flying", "lowered", "uprooted", "phasing",
	"mp", "ap", "ag", "rich", "alternate"}

// parseKind reads a "k" or "s" line of names.txt.
func parseKind(w []string) bool {
	if w[0] == "s" {
		if len(w) != 3 {
			return false
		}
		sameAs[w[1]] = w[2]
		return true
	}
	if len(w) != 7 {
		return false
	}
	u := UnitInfo{Base: w[1], Race: w[2], Minerals: -1, Vespene: -1}
	switch w[3] {
	case "worker":
		u.Kind = Worker
	case "army":
		u.Kind = Army
	case "building":
		u.Kind = Structure
	default:
		return false
	}
	var err error
	if w[4] != "-" {
		if u.Minerals, err = strconv.Atoi(w[4]); err != nil {
			return false
		}
	}
	if w[5] != "-" {
		if u.Vespene, err = strconv.Atoi(w[5]); err != nil {
			return false
		}
	}
	if u.Supply, err = strconv.ParseFloat(w[6], 64); err != nil {
		return false
	}
	kinds[w[1]] = u
	return true
}

// Info says what a unit type of the tracker events is ("SiegeTankSieged",
// "LurkerMPBurrowed", "VikingFighter"): its own entry when unit_info.json
// has one, else that of the unit it is another mode of. False for the
// types the tables do not know (Larva, Egg, beacons, KD8 charges, co-op
// and arcade units).
func Info(name string) (UnitInfo, bool) {
	load()
	if loadErr != nil {
		return UnitInfo{}, false
	}
	n := strings.ToLower(name)
	base := baseOf(n)
	if as, ok := sameAs[n]; ok {
		n = as
	}
	u, ok := kinds[n]
	if !ok {
		u, ok = kinds[base]
	}
	u.Base = base
	return u, ok
}

// baseOf strips mode suffixes and follows "same as" lines until a name the
// tables know, or returns the name as it came.
func baseOf(n string) string {
	for range 8 {
		if as, ok := sameAs[n]; ok {
			n = as
			continue
		}
		cut := false
		for _, s := range modeSuffixes {
			if len(n) > len(s)+2 && strings.HasSuffix(n, s) {
				n, cut = n[:len(n)-len(s)], true
				break
			}
		}
		if !cut {
			break
		}
	}
	return n
}
