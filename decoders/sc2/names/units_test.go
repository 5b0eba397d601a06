package names

import "testing"

// TestUnitInfo checks unit kinds against specs/ids/sc2/unit_info.json
// (siegetank: army, 150 minerals, 125 vespene, 3 supply; supplydepot:
// building; drone: worker; lurker: army 150/150/3; broodling: army, no
// cost) and gen/units_extra.tsv (the Liberator, the Viking in fighter
// mode, the add-ons attached to a building), through the tracker's names
// of units in another mode.
func TestUnitInfo(t *testing.T) {
	for _, c := range []struct {
		name, base        string
		kind              Kind
		minerals, vespene int
		supply            float64
	}{
		{"SiegeTankSieged", "siegetank", Army, 150, 125, 3},
		{"SiegeTank", "siegetank", Army, 150, 125, 3},
		{"SupplyDepotLowered", "supplydepot", Structure, 100, 0, 0},
		{"BarracksFlying", "barracks", Structure, 150, 0, 0},
		{"Drone", "drone", Worker, 50, 0, 1},
		{"LurkerMPBurrowed", "lurker", Army, 150, 150, 3},
		{"Broodling", "broodling", Army, 0, 0, 0},
		{"VikingFighter", "viking", Army, 150, 75, 2},
		{"VikingAssault", "viking", Army, 150, 75, 2},
		{"HellionTank", "hellion", Army, 100, 0, 2},
		{"BarracksReactor", "reactor", Structure, 50, 50, 0},
		{"Liberator", "liberator", Army, -1, -1, 3},
		{"LiberatorAG", "liberator", Army, -1, -1, 3},
		{"GhostAlternate", "ghost", Army, 200, 100, 2},
		{"AssimilatorRich", "assimilator", Structure, 75, 0, 0},
	} {
		u, ok := Info(c.name)
		if !ok || u.Base != c.base || u.Kind != c.kind || u.Minerals != c.minerals || u.Vespene != c.vespene || u.Supply != c.supply {
			t.Errorf("%s: %+v %v, want %+v", c.name, u, ok, c)
		}
	}
	for _, n := range []string{"Larva", "Egg", "BeaconArmy", "KD8Charge", "AdeptPhaseShift", "MineralField"} {
		if u, ok := Info(n); ok {
			t.Errorf("%s: %+v, want unknown", n, u)
		}
	}
	if u, _ := Info("Liberator"); u.Known() {
		t.Error("the Liberator's cost is not in the tables")
	}
}
