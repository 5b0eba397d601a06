package sc2

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"rewind/decoders/sc2/versioned"
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

	trDec *versioned.Decoder // reads tracker event bodies while walkTracker runs

	acts    actionCounts
	players []playerStats
	lines   []line // build order lines of every player, in frame order
	losses  []loss
	moments []model.Moment
	chat    []chatLine

	// from the tracker walk
	tracked      bool
	inited, done []bool          // per tracker unit: started by UnitInit, finished
	deaths       map[int32]death // tracker unit -> how it died
	histAt       map[int32]int   // tracker unit -> its history entry of the last type change read
	groups       map[groupKey]int
	lossGroups   map[lossKey]int
	byTag        map[uint64]int32     // unit tag (index << 32 | recycle) -> tracker unit
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
	a := &analysis{d: d, r: d.r, n: len(d.r.Players), last: max(d.r.Timeline.Count-1, 0)}
	a.players = make([]playerStats, a.n)
	for p := range a.players {
		a.players[p].orders = map[model.MomentKind]int{}
	}
	a.acts = a.countActions()
	if d.tr != nil && len(d.tr.events) > 0 {
		a.walkTracker()
	} else {
		a.walkOrders()
	}
	a.lineMoments()
	a.chatAndLeaves()
	if a.r.Timeline.Count > 0 {
		a.moments = append(a.moments, model.Moment{Kind: model.MomentEnd, Frame: a.last, End: a.last, By: -1, On: -1,
			Summary: "game ends: " + nonEmpty(a.r.Result, "result unknown")})
	}
	sortMoments(a.moments)
	return &model.Analysis{Moments: a.moments, Stats: model.Stats{Tables: a.tables()}, Charts: a.charts()}
}

// clock is the time the client showed at a frame: game time before Legacy
// of the Void, real time after (Timeline.Clock when set).
func (a *analysis) clock(frame int) time.Duration {
	if a.r.Timeline.Clock != nil {
		return a.r.Timeline.Clock(frame)
	}
	return a.r.Timeline.Time(frame)
}

// clockText is the clock as the game's timer shows it: m:ss, seconds cut.
func (a *analysis) clockText(frame int) string {
	s := int(a.clock(frame) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// minuteLoops is a minute of the client's clock in loops: 960 of game time
// (16 loops a second), or a real minute (1,344 loops on Faster).
func (a *analysis) minuteLoops() int {
	if a.r.Timeline.Clock != nil || a.r.Timeline.Rate <= 0 {
		return 60 * 16
	}
	return int(60*a.r.Timeline.Rate + 0.5)
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

// observer reports whether a player of replay.details watched: marked an
// observer and without a result (the KR sample, a Wings of Liberty
// replay, marks a player who played and lost an observer of a closed slot).
func (a *analysis) observer(p int) bool {
	if p < 0 || p >= len(a.d.players) {
		return false
	}
	pi := a.d.players[p]
	return pi.observe != 0 && pi.result == 0
}

// computer reports whether the game's AI played a player.
func (a *analysis) computer(p int) bool {
	return p >= 0 && p < len(a.d.players) && a.d.players[p].control == 3
}

// human reports whether a person played a player.
func (a *analysis) human(p int) bool { return !a.observer(p) && !a.computer(p) }

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
		title += " · APM as sc2reader counts it, per real minute"
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

// resourceRows are the player-stats records' totals: what each player
// lost, killed, collected and spent.
func (a *analysis) resourceRows(per func(key, label string, f func(p int) model.Field) model.StatRow) []model.StatRow {
	t := a.d.tr
	records := func(p int) []statRec {
		if p >= len(t.stats) {
			return nil
		}
		return t.stats[p]
	}
	sum := func(idx ...int) func(p int) model.Field {
		return func(p int) model.Field {
			st := records(p)
			if len(st) == 0 {
				return none
			}
			n := int64(0)
			for _, i := range idx {
				n += int64(st[len(st)-1].v[i])
			}
			return cell(n)
		}
	}
	// over folds a value of every record: the mean, or the most
	over := func(mean bool, f func(v *[nStats]int32) float64) func(p int) model.Field {
		return func(p int) model.Field {
			st := records(p)
			if len(st) == 0 {
				return none
			}
			s, m := 0.0, 0.0
			for i := range st {
				x := f(&st[i].v)
				s, m = s+x, max(m, x)
			}
			if mean {
				m = s / float64(len(st))
				return named(m, fmt.Sprintf("%.0f", m))
			}
			return named(m, fmt.Sprintf("%g", m))
		}
	}
	mean := func(f func(v *[nStats]int32) float64) func(p int) model.Field { return over(true, f) }
	peak := func(f func(v *[nStats]int32) float64) func(p int) model.Field { return over(false, f) }
	// the counters come three by three (army, economy, technology),
	// minerals then vespene
	minerals := func(at int) []int { return []int{at, at + 1, at + 2} }
	vespene := func(at int) []int { return []int{at + 3, at + 4, at + 5} }
	both := func(at int) []int { return append(minerals(at), vespene(at)...) }
	return []model.StatRow{
		per("mineralsLost", "Minerals lost", sum(minerals(sLost)...)),
		per("vespeneLost", "Vespene lost", sum(vespene(sLost)...)),
		per("mineralsKilled", "Minerals killed", sum(minerals(sKilled)...)),
		per("vespeneKilled", "Vespene killed", sum(vespene(sKilled)...)),
		per("spent", "Resources spent (alive, in progress, lost)", sum(append(append(both(sInProgress), both(sUsedCurrent)...), both(sLost)...)...)),
		per("collectionRate", "Collection rate, average (per minute)", mean(func(v *[nStats]int32) float64 {
			return float64(v[sMineralRate]) + float64(v[sVespeneRate])
		})),
		per("unspent", "Unspent resources, average", mean(func(v *[nStats]int32) float64 { return float64(v[sMinerals]) + float64(v[sGas]) })),
		per("peakWorkers", "Workers active, most", peak(func(v *[nStats]int32) float64 { return float64(v[sWorkers]) })),
		per("peakSupply", "Supply used, most", peak(func(v *[nStats]int32) float64 { return float64(v[sFoodUsed]) / 4096 })),
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
		end := min(start+ml, count) - 1
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
