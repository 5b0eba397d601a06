package names

import "testing"

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"TrainMarine": "Train Marine", "TrainSCV": "Train SCV", "SCVHarvest": "SCV Harvest",
		"UpgradeVehiclePlating1": "Upgrade Vehicle Plating 1", "SupplyDepot": "Supply Depot", "Stop": "Stop",
		"DestructibleIce6x6": "Destructible Ice 6x6",
	} {
		if got := Words(in); got != want {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCommands checks the examples of specs/ids/sc2/README.md and issue 14
// against the tables: ability ids, command indices and their names.
func TestCommands(t *testing.T) {
	if err := Err(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		exp        string
		base       int
		link, cmd  int
		name, text string
	}{
		// LotV/base_abilities.csv: 151 BarracksTrain, 157 BarracksTechLabResearch;
		// ability_lookup.csv: BarracksTrain 0 TrainMarine, BarracksTechLabResearch 0 ResearchStimpack,
		// ArmoryResearch 3 UpgradeVehiclePlating1
		{"LotV", 40000, 151, 0, "TrainMarine", "Train Marine"},
		{"LotV", 40000, 157, 0, "ResearchStimpack", "Research Stimpack"},
		// WoL/16117_abilities.csv: 142 BarracksTrain
		{"WoL", 16939, 142, 3, "TrainMarauder", "Train Marauder"},
	} {
		tab := Pick(c.exp, c.base)
		if tab == nil {
			t.Fatalf("no table for %s %d", c.exp, c.base)
		}
		got, ok := tab.Command(c.link, c.cmd)
		if !ok || got.Name != c.name || got.Text() != c.text {
			t.Errorf("%s %d ability %d/%d: %+v %v (%q), want %s %q", c.exp, c.base, c.link, c.cmd, got, ok, got.Text(), c.name, c.text)
		}
	}
	if _, ok := Pick("LotV", 40000).Command(151, 5); ok {
		t.Error("BarracksTrain command 5 named; ability_lookup has none")
	}
	// TerranBuild 1 is BuildSupplyDepot, which makes a SupplyDepot
	var link int
	for id, i := range Pick("LotV", 40000).abilities {
		if abilNames[i] == "TerranBuild" {
			link = id
		}
	}
	if c, ok := Pick("LotV", 40000).Command(link, 1); !ok || c.Text() != "Build Supply Depot" || c.Makes != "SupplyDepot" {
		t.Errorf("TerranBuild 1: %+v %q", c, c.Text())
	}
}

func TestPick(t *testing.T) {
	for _, c := range []struct {
		exp  string
		base int
		want string
	}{
		{"WoL", 15405, "WoL/16117"}, {"WoL", 17326, "WoL/17326"}, {"WoL", 24944, "WoL/24944"},
		{"HotS", 24247, "HotS/24247"}, {"HotS", 26490, "HotS/24764"}, {"HotS", 38215, "LotV/base"},
		{"LotV", 38996, "LotV/base"}, {"LotV", 89633, "LotV/80949"}, {"LotV", 96883, "LotV/89720"},
	} {
		tab := Pick(c.exp, c.base)
		if tab == nil || tab.Expansion+"/"+tab.Build != c.want {
			t.Errorf("Pick(%s, %d) = %+v, want %s", c.exp, c.base, tab, c.want)
		}
	}
	if u, ok := Pick("LotV", 96883).Unit(func() int {
		for id, i := range Pick("LotV", 96883).units {
			if unitNames[i] == "SupplyDepot" {
				return id
			}
		}
		return -1
	}()); !ok || u != "Supply Depot" {
		t.Errorf("SupplyDepot unit %q", u)
	}
	if UnitTitle("VikingFighter") != "Viking" || UnitTitle("NoSuchUnit") != "No Such Unit" {
		t.Error("unit titles")
	}
}
