package sc2

import (
	"fmt"

	"rewind/decoders/sc2/versioned"
	"rewind/model"
)

// GameHeart lobbies. GameHeart, an observer overlay of Heart of the Swarm
// tournaments, has the players, the casters and the observers join one
// lobby on the map as players: replay.details lists them all, with races
// and teams (7 in the corpus's GameHeart game), and the play starts when
// the map gives the two players their town halls. sc2reader's GameHeart
// normalizer (engine/plugins/gameheart.py) recognises such a replay by its
// tracker events: a replay with them, not of Legacy of the Void, whose
// first town hall (Hatchery, Nexus, Command Center) born to a player comes
// after loop 0; the players are those whose town hall is born within 5
// loops of the last one of that first run, each of the race of its town
// hall and on a team of its own; everyone else only watches. rewind keeps
// the file's loops (sc2reader moves every event back to the start of the
// play; the APM it counts from there is apm.go's), and makes the watchers
// observers everywhere: they are not players of the replay (header, stats,
// summaries, queries), they are listed in the header (gameHeartObservers), and
// their game events and chat belong to no player.

// townHallRaces are the town halls the rule looks for, by race.
var townHallRaces = map[string]string{"Hatchery": "Zerg", "Nexus": "Protoss", "CommandCenter": "Terran"}

// gameHeart is what the rule reads of a replay's tracker events.
type gameHeart struct {
	// start is the loop of the play's start: 0 when the replay is no
	// GameHeart game (a town hall born at loop 0), -1 when no player's
	// town hall is born at all
	start int
	halls map[int64]string // tracker player id -> the race of its town hall
}

// birth is what the rule reads of a tracker event: whether it is a
// UnitBorn event, and of which unit type under which player.
type birth struct {
	loop    int
	born    bool
	control int64
	unit    string
}

// gameHeartOf reads tracker events in order until the rule has its answer
// (next returns false after the last).
func gameHeartOf(next func() (birth, bool)) gameHeart {
	g := gameHeart{start: -1}
	for {
		e, ok := next()
		if !ok || g.start != -1 && e.loop > g.start+5 {
			return g
		}
		race, hall := townHallRaces[e.unit]
		if !e.born || e.control == 0 || !hall {
			continue
		}
		if e.loop == 0 {
			return gameHeart{}
		}
		g.start = e.loop
		if g.halls == nil {
			g.halls = map[int64]string{}
		}
		g.halls[e.control] = race
	}
}

// scanGameHeart reads the rule's events from a tracker stream's bytes, as
// far as the rule needs; a stream that stops reading ends the events.
func scanGameHeart(b []byte) gameHeart {
	dec := versioned.NewDecoder(b)
	dec.UseArena()
	loop := int64(0)
	return gameHeartOf(func() (birth, bool) {
		if dec.Done() {
			return birth{}, false
		}
		dec.ResetArena()
		dv, err := dec.Value()
		if err != nil || dv.Kind != versioned.Choice || len(dv.Items) != 1 {
			return birth{}, false
		}
		loop = int64(uint32(loop + dv.Items[0].Int)) // as decodeTracker counts
		id, err := dec.Value()
		if err != nil {
			return birth{}, false
		}
		body, err := dec.Value()
		if err != nil {
			return birth{}, false
		}
		e := birth{loop: int(loop), born: id.Kind == versioned.Int && id.Int == tUnitBorn}
		if e.born {
			name, _ := body.BytesOf(2)
			e.unit = string(name)
			e.control, _ = body.IntOf(3)
		}
		return e, true
	})
}

// watchersListed reports whether replay.details lists players without a
// result beside players with one, as a GameHeart lobby lists its watchers
// (they never play, so the game gives them none): only such a replay is
// put to the rule, and a header-only decode reads its lobby and tracker
// events for it.
func (d *decoder) watchersListed() bool {
	if d.expansion == "LotV" {
		return false
	}
	with, without := 0, 0
	for _, p := range d.players {
		if p.result != 0 {
			with++
		} else {
			without++
		}
	}
	return with > 0 && without > 0
}

// gameHeartLobby puts a replay that lists watchers to the rule, over its
// tracker stream, and makes the watchers of a GameHeart lobby observers.
// It runs before the tracker events are decoded, which then count the
// players that are left.
func (d *decoder) gameHeartLobby(tracker []byte) {
	if !d.watchersListed() {
		return
	}
	g := scanGameHeart(tracker)
	if g.start <= 0 {
		return
	}
	keep := make([]bool, len(d.players))
	races := map[int]string{}
	kept := 0
	for pid, race := range g.halls {
		if pi, ok := d.slotToPl[int(pid)]; ok && pi >= 0 && pi < len(keep) && !keep[pi] {
			keep[pi], races[pi] = true, race
			kept++
		}
	}
	if kept == 0 || kept == len(keep) {
		return
	}
	d.dropWatchers(keep, races)
}

// dropWatchers makes the details players not kept observers: they leave
// the players (which are numbered P1..Pn again, each on a team of its own
// with the race of its town hall) for the header's observers, and every
// map from a lobby slot, user or tracker player id to a player follows.
func (d *decoder) dropWatchers(keep []bool, races map[int]string) {
	r := d.r
	moved := make([]int, len(keep)) // old player index -> new, -1 for a watcher
	var players []playerInfo
	var mps []model.Player
	obs := model.Field{Key: "gameHeartObservers", Label: "Observers (a GameHeart lobby: in replay.details, with no town hall of their own)"}
	for pi := range keep {
		if !keep[pi] {
			moved[pi] = -1
			if pi < len(r.Players) {
				w := r.Players[pi]
				obs.Fields = append(obs.Fields, model.Field{Key: fmt.Sprintf("observer%d", len(obs.Fields)+1), Label: w.Name,
					Value: w.Name, Name: w.Character, Fields: w.Fields})
			}
			continue
		}
		moved[pi] = len(players)
		p := d.players[pi]
		p.team = int64(len(players))
		mp := r.Players[pi]
		mp.Slot, mp.Team, mp.Character = fmt.Sprintf("P%d", len(players)+1), fmt.Sprintf("team %d", len(players)+1), races[pi]
		players = append(players, p)
		mps = append(mps, mp)
	}
	d.players, r.Players = players, mps
	r.Header = append(r.Header, obs)
	if d.init != nil {
		for i := range d.init.slots {
			if s := &d.init.slots[i]; s.seat >= 0 && s.seat < len(moved) {
				s.seat = moved[s.seat]
			}
		}
		for uid, pi := range d.init.namedUsers {
			if pi >= 0 && pi < len(moved) && moved[pi] >= 0 {
				d.init.namedUsers[uid] = moved[pi]
			} else {
				delete(d.init.namedUsers, uid)
			}
		}
	}
	for pid, pi := range d.slotToPl {
		if pi >= 0 && pi < len(moved) && moved[pi] >= 0 {
			d.slotToPl[pid] = moved[pi]
		} else {
			delete(d.slotToPl, pid)
		}
	}
}
