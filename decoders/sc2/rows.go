package sc2

import (
	"strings"

	"rewind/model"
)

// StatsRow is one PlayerStats tracker event for `rewind export`: a player's
// score counters at a game loop (SC2 writes them every 160 loops, 10 game
// seconds), with Blizzard's names less the m_ prefix, as `rewind dump`
// keys them. Food counts are in 1/4096 of a supply; supplyUsed and
// supplyMade are the same in supply.
type StatsRow struct {
	Path                             string  `parquet:"path,dict"`
	Loop                             int32   `parquet:"loop"`     // the game loop (the timeline index)
	Time                             float64 `parquet:"time"`     // game seconds at the loop
	Player                           int32   `parquet:"player"`   // index in the players table, -1 when unmatched
	PlayerID                         int32   `parquet:"playerId"` // the tracker's player id
	SupplyUsed                       float64 `parquet:"supplyUsed"`
	SupplyMade                       float64 `parquet:"supplyMade"`
	MineralsCurrent                  int32   `parquet:"scoreValueMineralsCurrent"`
	VespeneCurrent                   int32   `parquet:"scoreValueVespeneCurrent"`
	MineralsCollectionRate           int32   `parquet:"scoreValueMineralsCollectionRate"`
	VespeneCollectionRate            int32   `parquet:"scoreValueVespeneCollectionRate"`
	WorkersActiveCount               int32   `parquet:"scoreValueWorkersActiveCount"`
	MineralsUsedInProgressArmy       int32   `parquet:"scoreValueMineralsUsedInProgressArmy"`
	MineralsUsedInProgressEconomy    int32   `parquet:"scoreValueMineralsUsedInProgressEconomy"`
	MineralsUsedInProgressTechnology int32   `parquet:"scoreValueMineralsUsedInProgressTechnology"`
	VespeneUsedInProgressArmy        int32   `parquet:"scoreValueVespeneUsedInProgressArmy"`
	VespeneUsedInProgressEconomy     int32   `parquet:"scoreValueVespeneUsedInProgressEconomy"`
	VespeneUsedInProgressTechnology  int32   `parquet:"scoreValueVespeneUsedInProgressTechnology"`
	MineralsUsedCurrentArmy          int32   `parquet:"scoreValueMineralsUsedCurrentArmy"`
	MineralsUsedCurrentEconomy       int32   `parquet:"scoreValueMineralsUsedCurrentEconomy"`
	MineralsUsedCurrentTechnology    int32   `parquet:"scoreValueMineralsUsedCurrentTechnology"`
	VespeneUsedCurrentArmy           int32   `parquet:"scoreValueVespeneUsedCurrentArmy"`
	VespeneUsedCurrentEconomy        int32   `parquet:"scoreValueVespeneUsedCurrentEconomy"`
	VespeneUsedCurrentTechnology     int32   `parquet:"scoreValueVespeneUsedCurrentTechnology"`
	MineralsLostArmy                 int32   `parquet:"scoreValueMineralsLostArmy"`
	MineralsLostEconomy              int32   `parquet:"scoreValueMineralsLostEconomy"`
	MineralsLostTechnology           int32   `parquet:"scoreValueMineralsLostTechnology"`
	VespeneLostArmy                  int32   `parquet:"scoreValueVespeneLostArmy"`
	VespeneLostEconomy               int32   `parquet:"scoreValueVespeneLostEconomy"`
	VespeneLostTechnology            int32   `parquet:"scoreValueVespeneLostTechnology"`
	MineralsKilledArmy               int32   `parquet:"scoreValueMineralsKilledArmy"`
	MineralsKilledEconomy            int32   `parquet:"scoreValueMineralsKilledEconomy"`
	MineralsKilledTechnology         int32   `parquet:"scoreValueMineralsKilledTechnology"`
	VespeneKilledArmy                int32   `parquet:"scoreValueVespeneKilledArmy"`
	VespeneKilledEconomy             int32   `parquet:"scoreValueVespeneKilledEconomy"`
	VespeneKilledTechnology          int32   `parquet:"scoreValueVespeneKilledTechnology"`
	FoodUsed                         int32   `parquet:"scoreValueFoodUsed"`
	FoodMade                         int32   `parquet:"scoreValueFoodMade"`
	MineralsUsedActiveForces         int32   `parquet:"scoreValueMineralsUsedActiveForces"`
	VespeneUsedActiveForces          int32   `parquet:"scoreValueVespeneUsedActiveForces"`
	MineralsFriendlyFireArmy         int32   `parquet:"scoreValueMineralsFriendlyFireArmy"`
	MineralsFriendlyFireEconomy      int32   `parquet:"scoreValueMineralsFriendlyFireEconomy"`
	MineralsFriendlyFireTechnology   int32   `parquet:"scoreValueMineralsFriendlyFireTechnology"`
	VespeneFriendlyFireArmy          int32   `parquet:"scoreValueVespeneFriendlyFireArmy"`
	VespeneFriendlyFireEconomy       int32   `parquet:"scoreValueVespeneFriendlyFireEconomy"`
	VespeneFriendlyFireTechnology    int32   `parquet:"scoreValueVespeneFriendlyFireTechnology"`
}

// counters lists a row's counters in m_stats tag order.
func (row *StatsRow) counters() [nStats]*int32 {
	return [nStats]*int32{&row.MineralsCurrent, &row.VespeneCurrent, &row.MineralsCollectionRate, &row.VespeneCollectionRate, &row.WorkersActiveCount, &row.MineralsUsedInProgressArmy, &row.MineralsUsedInProgressEconomy, &row.MineralsUsedInProgressTechnology, &row.VespeneUsedInProgressArmy, &row.VespeneUsedInProgressEconomy, &row.VespeneUsedInProgressTechnology, &row.MineralsUsedCurrentArmy, &row.MineralsUsedCurrentEconomy, &row.MineralsUsedCurrentTechnology, &row.VespeneUsedCurrentArmy, &row.VespeneUsedCurrentEconomy, &row.VespeneUsedCurrentTechnology, &row.MineralsLostArmy, &row.MineralsLostEconomy, &row.MineralsLostTechnology, &row.VespeneLostArmy, &row.VespeneLostEconomy, &row.VespeneLostTechnology, &row.MineralsKilledArmy, &row.MineralsKilledEconomy, &row.MineralsKilledTechnology, &row.VespeneKilledArmy, &row.VespeneKilledEconomy, &row.VespeneKilledTechnology, &row.FoodUsed, &row.FoodMade, &row.MineralsUsedActiveForces, &row.VespeneUsedActiveForces, &row.MineralsFriendlyFireArmy, &row.MineralsFriendlyFireEconomy, &row.MineralsFriendlyFireTechnology, &row.VespeneFriendlyFireArmy, &row.VespeneFriendlyFireEconomy, &row.VespeneFriendlyFireTechnology}
}

// StatsRows yields the replay's player stats, read from its events (the
// tracker's PlayerStats, kind "stats") and their fields, so it needs no
// hook in the decoder.
func StatsRows(r *model.Replay, yield func([]StatsRow) error) error {
	var rows []StatsRow
	key := map[string]int{}
	for i, n := range statNames {
		key[strings.TrimPrefix(n, "m_")] = i
	}
	for i := range r.Events {
		ev := &r.Events[i]
		if ev.Stream != sTracker || r.EventKind(i) != trackerKinds[tPlayerStats] {
			continue
		}
		row := StatsRow{Path: r.Path, Loop: int32(ev.Frame), Time: r.Timeline.Time(int(ev.Frame)).Seconds(), Player: int32(ev.Player)}
		ptr := row.counters()
		for _, f := range r.EventFields(i) {
			switch f.Key {
			case "playerId":
				if v, ok := f.Value.(int64); ok {
					row.PlayerID = int32(v)
				}
			case "stats":
				for _, s := range f.Fields {
					if k, ok := key[s.Key]; ok {
						if v, ok := s.Value.(int64); ok {
							*ptr[k] = int32(v)
						}
					}
				}
			}
		}
		row.SupplyUsed, row.SupplyMade = float64(row.FoodUsed)/4096, float64(row.FoodMade)/4096
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil
	}
	return yield(rows)
}
