package sc2

import (
	"encoding/json"
	"fmt"
	"strings"

	"rewind/model"
)

// What happened in the game, per player (Replay.Analyze): APM as sc2reader
// counts it (apm.go), the build order, units made and lost, kills, chat
// and leaves as moments (moments.go), and the tables and charts of it all.
//
// What each era of replays gives:
//   - every replay with game events: APM, leaves;
//   - replay.message.events: chat;
//   - tracker events (replay.tracker.events, clients of 2.0.8 and later,
//     base build 24944 on): the build order as it happened (structures when
//     started, units when born, morphs and research when done), supply from
//     the player-stats records every 10 game seconds, workers and army
//     units alive, unit deaths with the killer's player (and from base
//     build 27950 the killer's unit), resources lost, killed, collected and
//     spent;
//   - before tracker events: the build order is what the players ordered
//     (train, build and research commands of the game events), an intent:
//     a queued unit may be cancelled, a building never placed, and no
//     supply or unit count is known.

// Counters of the player-stats records (statNames) that come in sixes:
// minerals for army, economy and technology, then vespene for the same.
const (
	sMineralRate = 2
	sVespeneRate = 3
	sInProgress  = 5  // m_scoreValueMineralsUsedInProgressArmy
	sUsedCurrent = 11 // m_scoreValueMineralsUsedCurrentArmy
	sLost        = 17 // m_scoreValueMineralsLostArmy
	sKilled      = 23 // m_scoreValueMineralsKilledArmy
)

// analysis is one pass over the decoded streams.
type analysis struct {
	d    *decoder
	r    *model.Replay
	n    int // players
	last int // the last frame

	lean bool // the summary's walk (see walk)

	acts    actionCounts
	players []playerStats
	lines   chunked[line] // build order lines of every player, in frame order
	items   [][]buildItem // every player's build order for the JSON (buildorder.go)
	losses  chunked[loss]
	moments []model.Moment
	chat    []chatLine

	// from the tracker walk
	tracked      bool
	inited, done []bool               // per tracker unit: started by UnitInit, finished
	deaths       []death              // per tracker unit: how it died
	histAt       map[int32]int        // tracker unit -> its history entry of the last type change read
	byTag        []unitTag            // the tracker units by tag, sorted (unitByTag)
	alive        []alive              // per player
	titles       map[string]string    // unit type -> its title
	infos        map[string]knownInfo // unit type -> what it is
}

// playerStats are one player's counts.
type playerStats struct {
	workers, army, structures, morphs, upgrades int
	unitsLost, structuresLost, kills, cancelled int
	orders                                      map[model.MomentKind]int // commands, before tracker events
	chat                                        int
}

// analyze is Replay.Analyze for StarCraft II.
func (d *decoder) analyze() *model.Analysis {
	if d.opt.HeaderOnly {
		return &model.Analysis{}
	}
	d.analyzed.Store(true)
	a := d.walk(false)
	return &model.Analysis{Moments: a.moments, Stats: model.Stats{Tables: a.tables(), Native: a.native()}, Charts: a.charts()}
}

// walk is the analysis's one pass over the streams: the counts, the build
// order and losses, the moments. A lean walk is the summary's (summary.go):
// its moments have no summary line and no fields, and it leaves out the
// moments an archive does not keep (chat, leaves, the end) and what only
// those lines say (supply, what became of an unfinished structure); the
// counts and each moment's kind, frame, players and facts are the same.
func (d *decoder) walk(lean bool) *analysis {
	a := &analysis{d: d, r: d.r, n: len(d.r.Players), last: max(d.r.Timeline.Count-1, 0), lean: lean}
	a.players = make([]playerStats, a.n)
	for p := range a.players {
		a.players[p].orders = map[model.MomentKind]int{}
	}
	a.acts = a.countActions()
	if d.tr != nil && d.tr.events.len() > 0 {
		a.walkTracker()
	} else {
		a.walkOrders()
	}
	a.lineMoments()
	a.chatAndLeaves()
	if a.r.Timeline.Count > 0 && !lean {
		a.moments = append(a.moments, model.Moment{Kind: model.MomentEnd, Frame: a.last, End: a.last, By: -1, On: -1,
			Summary: "game ends: " + nonEmpty(a.r.Result, "result unknown")})
	}
	sortMoments(a.moments)
	return a
}

func (a *analysis) frame(loop int32) int { return max(min(int(loop), a.last), 0) }

func (a *analysis) name(p int) string {
	if p >= 0 && p < a.n {
		if n := a.r.Players[p].Name; n != "" {
			return n
		}
		return a.r.Players[p].Slot
	}
	return "neutral"
}

// observer reports whether a player of replay.details watched: not seated
// in a participant's or a computer's slot of the lobby (seatPlayers), and
// marked an observer without a result (the KR sample, a Wings of Liberty
// replay, marks a player who played and lost an observer of a closed
// slot; a 1.1 3v3 one who played and left, without a result; a 1.4 game
// the computer it seated in slot 4).
func (a *analysis) observer(p int) bool {
	if p < 0 || p >= len(a.d.players) || a.d.seatOf(p) != nil || (p < len(a.acts.human) && a.acts.human[p]) {
		return false
	}
	pi := a.d.players[p]
	return pi.observe != 0 && pi.result == 0
}

// computer reports whether the game's AI played a player: the lobby seats
// it in a computer's slot (m_control 3). Wings of Liberty's details do not
// say it reliably (the corpus's 4v4 FFA marks a human m_control 3 and its
// last computer 1); without a lobby, their word.
func (a *analysis) computer(p int) bool {
	if s := a.d.seatOf(p); s != nil {
		return s.control == 3
	}
	return p >= 0 && p < len(a.d.players) && a.d.players[p].control == 3
}

// column is a player's heading in the tables.
func (a *analysis) column(p int) string {
	s := a.name(p)
	switch {
	case a.observer(p):
		s += " (observer)"
	case a.computer(p):
		s += " (computer)"
	}
	return s
}

func cell(v any) model.Field { return model.Field{Value: v} }

func named(v any, name string) model.Field { return model.Field{Value: v, Name: name} }

var none = model.Field{Name: "—"}

// row makes a players-side-by-side row; its cells take its key and label.
func row(key, label string, cells []model.Field) model.StatRow {
	for i := range cells {
		cells[i].Key, cells[i].Label = key, label
	}
	return model.StatRow{Key: key, Label: label, Frame: -1, Cells: cells}
}

// metadata is replay.gamemetadata.json, which clients since Legacy of the
// Void write: the game's own APM and each player's MMR.
type metadata struct {
	Players []struct {
		PlayerID int      `json:"PlayerID"`
		MMR      *float64 `json:"MMR"`
		APM      *float64 `json:"APM"`
	} `json:"Players"`
}

func (a *analysis) metadata() (apm, mmr map[int]float64) {
	b := a.r.Bytes("replay.gamemetadata.json")
	var m metadata
	if len(b) == 0 || json.Unmarshal(b, &m) != nil {
		return nil, nil
	}
	apm, mmr = map[int]float64{}, map[int]float64{}
	for _, pl := range m.Players {
		p := int(a.d.playerIndex(int64(pl.PlayerID)))
		if p < 0 {
			continue
		}
		if pl.APM != nil {
			apm[p] = *pl.APM
		}
		if pl.MMR != nil && *pl.MMR > 0 {
			mmr[p] = *pl.MMR
		}
	}
	return apm, mmr
}

// tables are the players side by side, then each player's build order and
// losses, the minutes, the chat.
func (a *analysis) tables() []model.StatTable {
	if a.n == 0 {
		return nil
	}
	cols := make([]string, a.n)
	for p := range cols {
		cols[p] = a.column(p)
	}
	per := func(key, label string, f func(p int) model.Field) model.StatRow {
		cells := make([]model.Field, a.n)
		for p := range cells {
			cells[p] = f(p)
		}
		return row(key, label, cells)
	}
	count := func(f func(ps *playerStats) int) func(p int) model.Field {
		return func(p int) model.Field {
			if a.observer(p) {
				return none
			}
			return cell(int64(f(&a.players[p])))
		}
	}
	var rows []model.StatRow
	rows = append(rows,
		per("race", "Race", func(p int) model.Field { return cell(a.r.Players[p].Character) }),
		per("result", "Result", func(p int) model.Field { return cell(nonEmpty(a.r.Players[p].Result, "—")) }))
	if a.acts.counted {
		rows = append(rows,
			per("apm", "APM (sc2reader's count)", func(p int) model.Field {
				v, ok := a.acts.average(p)
				if !ok {
					return none
				}
				return apmText(v)
			}),
			per("actions", "Actions", func(p int) model.Field { return cell(int64(a.acts.total[p])) }))
	}
	gameAPM, mmr := a.metadata()
	if len(gameAPM) > 0 {
		rows = append(rows, per("gameAPM", "APM (the game's)", func(p int) model.Field {
			if v, ok := gameAPM[p]; ok {
				return apmText(v)
			}
			return none
		}))
	}
	if len(mmr) > 0 {
		rows = append(rows, per("mmr", "MMR", func(p int) model.Field {
			if v, ok := mmr[p]; ok {
				return named(v, fmt.Sprintf("%.0f", v))
			}
			return none
		}))
	}
	if a.acts.counted {
		rows = append(rows, per("played", "Played until", func(p int) model.Field {
			f := a.last
			if a.acts.leftAt[p] >= 0 {
				f = a.acts.leftAt[p]
			}
			return named(a.clock(f), a.clockText(f))
		}))
	}
	if a.tracked {
		rows = append(rows,
			per("workers", "Workers built", count(func(ps *playerStats) int { return ps.workers })),
			per("army", "Army units made", count(func(ps *playerStats) int { return ps.army })),
			per("structures", "Structures started", count(func(ps *playerStats) int { return ps.structures })),
			per("upgrades", "Upgrades researched", count(func(ps *playerStats) int { return ps.upgrades })),
			per("unitsLost", "Units lost", count(func(ps *playerStats) int { return ps.unitsLost })),
			per("structuresLost", "Structures lost", count(func(ps *playerStats) int { return ps.structuresLost })),
			per("kills", "Units and structures killed", count(func(ps *playerStats) int { return ps.kills })),
			per("cancelled", "Cancelled while building", count(func(ps *playerStats) int { return ps.cancelled })))
		rows = append(rows, a.resourceRows(per)...)
	} else {
		rows = append(rows,
			per("trainOrders", "Train orders", count(func(ps *playerStats) int { return ps.orders[model.MomentTrain] })),
			per("buildOrders", "Build orders", count(func(ps *playerStats) int { return ps.orders[model.MomentBuild] })),
			per("researchOrders", "Research orders", count(func(ps *playerStats) int { return ps.orders[model.MomentResearch] })))
	}
	rows = append(rows, per("chat", "Chat lines", count(func(ps *playerStats) int { return ps.chat })))
	title := "Players"
	if a.acts.counted {
		title += " · APM as sc2reader counts it, and as the game does"
	}
	if !a.tracked {
		title += " · orders, not units (no tracker events)"
	}
	out := []model.StatTable{{Key: "players", Title: title, Player: -1, Columns: cols, Rows: rows}}
	if t, ok := a.minutesTable(cols); ok {
		out = append(out, t)
	}
	for p := 0; p < a.n; p++ {
		if t, ok := a.buildOrderTable(p); ok {
			out = append(out, t)
		}
	}
	for p := 0; p < a.n; p++ {
		if t, ok := a.lossTable(p); ok {
			out = append(out, t)
		}
	}
	if t, ok := a.chatTable(); ok {
		out = append(out, t)
	}
	return out
}

// resources are a player's player-stats records summed up: what the
// player lost, killed, collected and spent.
type resources struct {
	MineralsLost   int64   `json:"mineralsLost"`
	VespeneLost    int64   `json:"vespeneLost"`
	MineralsKilled int64   `json:"mineralsKilled"`
	VespeneKilled  int64   `json:"vespeneKilled"`
	Spent          int64   `json:"spent"`          // used now, in progress and lost, minerals and vespene, at the last record
	CollectionRate float64 `json:"collectionRate"` // minerals and vespene a minute, the mean of the records
	Unspent        float64 `json:"unspent"`        // minerals and vespene in the bank, the mean of the records
	PeakWorkers    int64   `json:"peakWorkers"`    // workers active, the most
	PeakSupply     float64 `json:"peakSupply"`     // supply used, the most
}

// resourcesOf sums up a player's records; false when there are none.
func (a *analysis) resourcesOf(p int) (resources, bool) {
	t := a.d.tr
	if t == nil || p >= len(t.stats) || len(t.stats[p]) == 0 {
		return resources{}, false
	}
	st := t.stats[p]
	last := &st[len(st)-1].v
	// the counters come three by three (army, economy, technology),
	// minerals then vespene
	sum := func(at int) int64 { return int64(last[at]) + int64(last[at+1]) + int64(last[at+2]) }
	both := func(at int) int64 { return sum(at) + sum(at+3) }
	r := resources{MineralsLost: sum(sLost), VespeneLost: sum(sLost + 3), MineralsKilled: sum(sKilled), VespeneKilled: sum(sKilled + 3),
		Spent: both(sInProgress) + both(sUsedCurrent) + both(sLost)}
	for i := range st {
		v := &st[i].v
		r.CollectionRate += float64(v[sMineralRate]) + float64(v[sVespeneRate])
		r.Unspent += float64(v[sMinerals]) + float64(v[sGas])
		r.PeakWorkers = max(r.PeakWorkers, int64(v[sWorkers]))
		r.PeakSupply = max(r.PeakSupply, float64(v[sFoodUsed])/4096)
	}
	r.CollectionRate /= float64(len(st))
	r.Unspent /= float64(len(st))
	return r, true
}

// resourceRows are the player-stats records' totals (resourcesOf).
func (a *analysis) resourceRows(per func(key, label string, f func(p int) model.Field) model.StatRow) []model.StatRow {
	of := func(f func(r *resources) model.Field) func(p int) model.Field {
		return func(p int) model.Field {
			r, ok := a.resourcesOf(p)
			if !ok {
				return none
			}
			return f(&r)
		}
	}
	n := func(f func(r *resources) int64) func(p int) model.Field {
		return of(func(r *resources) model.Field { return cell(f(r)) })
	}
	mean := func(f func(r *resources) float64) func(p int) model.Field {
		return of(func(r *resources) model.Field { return named(f(r), fmt.Sprintf("%.0f", f(r))) })
	}
	return []model.StatRow{
		per("mineralsLost", "Minerals lost", n(func(r *resources) int64 { return r.MineralsLost })),
		per("vespeneLost", "Vespene lost", n(func(r *resources) int64 { return r.VespeneLost })),
		per("mineralsKilled", "Minerals killed", n(func(r *resources) int64 { return r.MineralsKilled })),
		per("vespeneKilled", "Vespene killed", n(func(r *resources) int64 { return r.VespeneKilled })),
		per("spent", "Resources spent (alive, in progress, lost)", n(func(r *resources) int64 { return r.Spent })),
		per("collectionRate", "Collection rate, average (per minute)", mean(func(r *resources) float64 { return r.CollectionRate })),
		per("unspent", "Unspent resources, average", mean(func(r *resources) float64 { return r.Unspent })),
		per("peakWorkers", "Workers active, most", of(func(r *resources) model.Field {
			return named(float64(r.PeakWorkers), fmt.Sprintf("%d", r.PeakWorkers))
		})),
		per("peakSupply", "Supply used, most", of(func(r *resources) model.Field {
			return named(r.PeakSupply, fmt.Sprintf("%g", r.PeakSupply))
		})),
	}
}

// minutesTable is each clock minute: APM, workers and army units alive.
func (a *analysis) minutesTable(cols []string) (model.StatTable, bool) {
	if !a.acts.counted && !a.tracked {
		return model.StatTable{}, false
	}
	ml := a.minuteLoops()
	count := a.r.Timeline.Count
	apm := make([][]float64, a.n)
	for p := range apm {
		if a.acts.counted {
			apm[p] = a.acts.byMinute(p, ml, count, a.r.Timeline.Rate)
		}
	}
	what := []string{}
	if a.acts.counted {
		what = append(what, "APM")
	}
	if a.tracked {
		what = append(what, "workers", "army units at its end")
	}
	clockName := "real"
	if a.r.Timeline.Clock != nil {
		clockName = "game"
	}
	t := model.StatTable{Key: "minutes", Title: fmt.Sprintf("By %s-time minute · %s", clockName, strings.Join(what, " · ")),
		Player: -1, Columns: cols}
	for m, start := 0, 0; start < count; m, start = m+1, start+ml {
		end := min(start+ml, count-1) // when the clock reads the next minute: workers6 is the 5:00 row's
		cells := make([]model.Field, a.n)
		for p := range cells {
			var parts []string
			val := map[string]float64{}
			if a.acts.counted && m < len(apm[p]) {
				val["apm"] = apm[p][m]
				parts = append(parts, fmt.Sprintf("%.0f", apm[p][m]))
			}
			if a.tracked {
				w, ar := a.aliveAt(p, end)
				val["workers"], val["army"] = float64(w), float64(ar)
				parts = append(parts, fmt.Sprint(w), fmt.Sprint(ar))
			}
			cells[p] = named(val, strings.Join(parts, " · "))
		}
		r := row("minute", a.clockText(start), cells)
		r.Frame = start
		t.Rows = append(t.Rows, r)
	}
	return t, len(t.Rows) > 0
}

// charts are APM over time and, with tracker events, workers and army
// units alive.
func (a *analysis) charts() []model.Chart {
	samples := min(512, a.r.Timeline.Count)
	if samples <= 0 {
		return nil
	}
	var out []model.Chart
	if a.acts.counted {
		if ch := a.acts.chart(a.r, samples); len(ch.Series) > 0 {
			out = append(out, ch)
		}
	}
	if a.tracked {
		out = append(out, a.aliveCharts(samples)...)
	}
	return out
}
