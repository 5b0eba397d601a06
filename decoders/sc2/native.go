package sc2

import (
	"time"

	"rewind/model"
)

// Stats is the stats JSON of a StarCraft II replay (Analysis.Stats.Native,
// what `rewind stats --json` writes under "stats"): typed values, times
// in seconds on the game's clock (clock.go; Clock names it), players
// P1..Pn in replay.details' order. The display tables (Stats.Tables) say
// the same for people.
type Stats struct {
	Clock Clock `json:"clock"`
	// Loops is the game's last loop; GameLength the game's length on its
	// clock and RealLength in real seconds (the same in Legacy of the Void).
	Loops      int     `json:"loops"`
	GameLength float64 `json:"gameLength"`
	RealLength float64 `json:"realLength"`
	// Tracked says the replay has tracker events (clients of 2.0.8 and
	// later): the build orders are what was made. Without them they are
	// what was ordered, and the counts of units made and lost are null.
	Tracked bool          `json:"tracked"`
	Players []PlayerStats `json:"players"`
}

// Clock says which clock the times are on: "game time" (loops / 16, what
// clients before Legacy of the Void showed) or "real time" (loops / 22.4
// on Faster). LoopsPerSecond is that clock's; RealLoopsPerSecond is real
// time's, for a script that wants the other clock from a loop.
type Clock struct {
	Name               string  `json:"name"`
	LoopsPerSecond     float64 `json:"loopsPerSecond"`
	RealLoopsPerSecond float64 `json:"realLoopsPerSecond"`
}

// PlayerStats is one player of replay.details.
type PlayerStats struct {
	Slot string `json:"slot"` // "P1"
	Name string `json:"name"`
	Clan string `json:"clan,omitempty"`
	Toon string `json:"toon,omitempty"` // region-program-realm-id, "1-S2-1-4337231"; none for computers
	Race string `json:"race"`
	Team int    `json:"team"` // from 1
	// Result is replay.details' word ("Win", "Loss", "Tie", "" unknown);
	// Outcome the word a script compares (outcome.go).
	Result   string        `json:"result"`
	Outcome  model.Outcome `json:"outcome"`
	Observer bool          `json:"observer,omitempty"`
	Computer bool          `json:"computer,omitempty"`
	// APM is sc2reader's count (apm.go), null for a player sc2reader gives
	// none (a computer); GameAPM the game's own (replay.gamemetadata.json,
	// Legacy of the Void clients), null when the replay has none; Actions
	// the actions sc2reader counts.
	APM     *float64 `json:"apm"`
	GameAPM *float64 `json:"gameApm"`
	Actions int      `json:"actions"`
	MMR     *float64 `json:"mmr"`
	// PlayedUntil is the player's first leave, else the game's end.
	PlayedUntil float64     `json:"playedUntil"`
	BuildOrder  []BuildItem `json:"buildOrder"`
	// Workers are the workers alive when the clock reads 6:00 and 10:00
	// (null when the game ended before) and at the end; null without
	// tracker events.
	Workers *Workers `json:"workers"`
	// FirstExpansion and FirstGas are when the player started a second
	// town hall and a first gas building (ordered, without tracker
	// events); null when never.
	FirstExpansion *float64 `json:"firstExpansion"`
	FirstGas       *float64 `json:"firstGas"`
	// Counts of what was made and lost (tracker events); null without.
	WorkersBuilt   *int `json:"workersBuilt"`
	ArmyUnits      *int `json:"armyUnits"` // units with a supply cost, workers aside
	Structures     *int `json:"structures"`
	Upgrades       *int `json:"upgrades"`
	UnitsLost      *int `json:"unitsLost"` // to other players
	StructuresLost *int `json:"structuresLost"`
	Kills          *int `json:"kills"` // units and structures of other players
	Cancelled      *int `json:"cancelled"`
	ChatLines      int  `json:"chatLines"`
	// Resources are the player-stats records summed up; null without.
	Resources *resources `json:"resources"`
}

// Workers are a player's workers alive at three times.
type Workers struct {
	At6Min  *int `json:"at6min"`
	At10Min *int `json:"at10min"`
	AtEnd   int  `json:"atEnd"`
}

// BuildItem is one entry of a build order (buildorder.go).
type BuildItem struct {
	Time   float64  `json:"time"` // seconds on the game's clock
	Loop   int      `json:"loop"`
	Supply *float64 `json:"supply"` // supply used then (the last player-stats record), null when unknown
	Name   string   `json:"name"`   // the tracker's name (sc2reader's): "SCV", "SupplyDepot", "Stimpack"
	Kind   string   `json:"kind"`   // "worker", "unit", "structure", "upgrade"
	Event  string   `json:"event"`  // where it comes from: "init", "born", "typeChange", "upgrade", "order"
	// Coop marks a co-op upgrade (buildorder.go): a mastery or decoration
	// the player brings into the game, listed but not researched in it.
	Coop bool `json:"coop,omitempty"`
}

// native makes the stats JSON from the analysis.
func (a *analysis) native() *Stats {
	tl := &a.r.Timeline
	s := &Stats{Clock: Clock{Name: a.clockName(), LoopsPerSecond: a.clockRate(), RealLoopsPerSecond: tl.Rate},
		Loops: a.last, GameLength: a.seconds(a.last), Tracked: a.tracked, Players: make([]PlayerStats, a.n)}
	if tl.Rate > 0 {
		s.RealLength = float64(a.last) / tl.Rate
	}
	gameAPM, mmr := a.metadata()
	for p := range s.Players {
		s.Players[p] = a.nativePlayer(p, gameAPM, mmr)
	}
	return s
}

func (a *analysis) nativePlayer(p int, gameAPM, mmr map[int]float64) PlayerStats {
	mp := &a.r.Players[p]
	ps := PlayerStats{Slot: mp.Slot, Name: mp.Name, Toon: mp.Code, Race: mp.Character, Result: mp.Result,
		Outcome: a.outcome(p), Observer: a.observer(p), Computer: a.computer(p), BuildOrder: []BuildItem{}}
	if p < len(a.d.players) {
		ps.Clan, ps.Team = a.d.players[p].clan, int(a.d.players[p].team)+1
	}
	if a.acts.counted {
		if v, ok := a.acts.average(p); ok {
			ps.APM = &v
		}
		ps.Actions = a.acts.total[p]
	}
	if v, ok := gameAPM[p]; ok {
		ps.GameAPM = &v
	}
	if v, ok := mmr[p]; ok {
		ps.MMR = &v
	}
	played := a.last
	if a.acts.counted && a.acts.leftAt[p] >= 0 {
		played = a.acts.leftAt[p]
	}
	ps.PlayedUntil = a.seconds(played)
	if p < len(a.items) && !a.lean { // a summary has no build order
		ps.BuildOrder = make([]BuildItem, 0, len(a.items[p]))
		for _, it := range a.items[p] {
			f := a.frame(it.loop)
			bi := BuildItem{Time: a.seconds(f), Loop: int(it.loop), Name: it.name, Kind: it.kind.String(), Event: it.event.String(), Coop: it.coop}
			if v, ok := a.supplyUsed(p, f); ok {
				bi.Supply = &v
			}
			ps.BuildOrder = append(ps.BuildOrder, bi)
		}
	}
	at := func(set map[string]bool) *float64 {
		if l, ok := a.firstStarted(p, set); ok {
			v := a.seconds(a.frame(l))
			return &v
		}
		return nil
	}
	ps.FirstExpansion, ps.FirstGas = at(townHallNames), at(gasNames)
	st := &a.players[p]
	ps.ChatLines = st.chat
	if !a.tracked {
		return ps
	}
	w := &Workers{}
	for _, c := range []struct {
		min int
		out **int
	}{{6, &w.At6Min}, {10, &w.At10Min}} {
		if f, ok := a.atClock(time.Duration(c.min) * time.Minute); ok {
			n, _ := a.aliveAt(p, f)
			*c.out = &n
		}
	}
	w.AtEnd, _ = a.aliveAt(p, a.last)
	ps.Workers = w
	n := func(v int) *int { return &v }
	ps.WorkersBuilt, ps.ArmyUnits, ps.Structures, ps.Upgrades = n(st.workers), n(st.army), n(st.structures), n(st.upgrades)
	ps.UnitsLost, ps.StructuresLost, ps.Kills, ps.Cancelled = n(st.unitsLost), n(st.structuresLost), n(st.kills), n(st.cancelled)
	if r, ok := a.resourcesOf(p); ok {
		ps.Resources = &r
	}
	return ps
}

// supplyUsed is a player's supply used at a frame, from the last
// player-stats record at or before it.
func (a *analysis) supplyUsed(p, frame int) (float64, bool) {
	k, ok := a.statsAt(p, frame)
	if !ok {
		return 0, false
	}
	return float64(a.d.tr.stats[p][k].v[sFoodUsed]) / 4096, true
}
