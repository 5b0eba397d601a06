package sc2

import (
	"fmt"
	"strings"

	"rewind/decoders/sc2/bitpack"
	"rewind/decoders/sc2/protocol"
	"rewind/model"
)

// initResult is what replay.initData gives: the lobby as fields, the map
// size, and what ties lobby users to the players of replay.details.
type initResult struct {
	p          *protocol.Protocol
	field      model.Field
	mapW, mapH int64
	// namedUsers: user id -> player by name, for a user no slot seats
	namedUsers map[int]int
	// slots: every lobby slot in order, with the player seated in it
	// (seatPlayers)
	slots []lobbySlot
}

// lobbySlot is what a lobby slot says of who sits in it.
type lobbySlot struct {
	control, observe int64
	user             int // the lobby user in it, -1 for none (a computer, an open slot)
	wss              int64
	hasWss           bool
	// seat is the replay.details player in the slot, -1 for none (an
	// observer, an open or closed slot)
	seat int
}

// occupied reports whether a person or the game's AI sits in the slot,
// to play or to watch.
func (s *lobbySlot) occupied() bool { return s.control == 2 || s.control == 3 }

// seatPlayers ties each lobby slot to the replay.details player in it.
// Every player id of the streams names a slot, not a details entry: the
// tracker's players are the slots counted from 1 (or what its PlayerSetup
// events say), game and message events name the slot's user, Wings of
// Liberty's game events the occupied slots counted from 1. A lobby with
// open slots before an occupied one (an A.I. seated in slot 8 of a 4v4
// lobby, the rest open) numbers them past the details list.
//
// From base build 24764 details and lobby both give each player its
// working-set slot, which ties them exactly. Before (and in replays whose
// details lack them), the details list the players in the order of their
// slots, as sc2reader reads them: each slot of a participant (m_control 2,
// not observing) or of a computer (m_control 3) holds the next details
// player, an observer's none.
func (d *decoder) seatPlayers(slots []lobbySlot) {
	byWss := len(d.players) > 0
	for _, p := range d.players {
		byWss = byWss && p.hasWorkingSlot
	}
	next := 0
	for i := range slots {
		s := &slots[i]
		s.seat = -1
		switch {
		case !s.occupied():
		case byWss:
			for pi := range d.players {
				if s.hasWss && d.players[pi].workingSlot == s.wss {
					s.seat = pi
					break
				}
			}
		case (s.control == 3 || s.observe == 0) && next < len(d.players):
			s.seat = next
			next++
		}
	}
}

// seatOf is the lobby slot player p sits in; nil when the lobby seats it
// nowhere, or there is no lobby.
func (d *decoder) seatOf(p int) *lobbySlot {
	if d.init == nil || p < 0 {
		return nil
	}
	for i := range d.init.slots {
		if d.init.slots[i].seat == p {
			return &d.init.slots[i]
		}
	}
	return nil
}

// seatedTrackerPlayers maps the tracker's player ids to players by the
// seats: player id k is the slot k-1 until the stream's PlayerSetup
// events (clients from 2.1) say otherwise (tracker.setup).
func (d *decoder) seatedTrackerPlayers() {
	if d.init == nil || len(d.init.slots) == 0 {
		return
	}
	d.slotToPl = map[int]int{}
	for i, s := range d.init.slots {
		if s.seat >= 0 {
			d.slotToPl[i+1] = s.seat
		}
	}
}

// pickInit reads replay.initData with the table of the base build or the
// nearest table that reads it to its last byte (each distinct layout once).
// It returns the table and where the own (or nearest) table stopped, for
// the diagnostic when none reads it.
func (d *decoder) pickInit(b []byte) (*protocol.Protocol, error) {
	tried := map[string]bool{}
	var firstErr error
	for p := range protocol.Nearest(d.baseBuild) {
		k := p.InitLayout()
		if tried[k] {
			continue
		}
		if len(tried) == maxLayouts {
			break
		}
		tried[k] = true
		if err := d.b.Step(d.initStream+": layout trials", int64(len(b))+1); err != nil {
			return nil, err
		}
		r := bitpack.New(b)
		r.Skip(p.Types, p.Init)
		r.ByteAlign()
		if !r.Failed() && r.Done() {
			return p, nil
		}
		if firstErr == nil {
			firstErr = r.Err()
			if firstErr == nil {
				firstErr = &bitpack.Error{Off: r.Pos(), Msg: fmt.Sprintf("the lobby ends %d bytes before the stream does", len(b)-r.Pos())}
			}
		}
	}
	return nil, firstErr
}

// decodeInit runs as a task of its own (readArchive): it reads d.players and writes only
// d.init and out.
func (d *decoder) decodeInit(b []byte, out *[]model.Diagnostic) {
	p, err := d.pickInit(b)
	if p == nil {
		if d.budgetHit(model.Span{Stream: d.initStream}) {
			return
		}
		off := int64(0)
		msg := "no table"
		if e, ok := err.(*bitpack.Error); ok {
			off, msg = int64(e.Off), e.Msg
		}
		// A build with a table of its own that does not read its lobby has
		// a damaged lobby (an error: the replay is partial); one without
		// has a lobby no table knows.
		sev, whose := model.Error, fmt.Sprintf("the table of base build %d", d.baseBuild)
		if own := protocol.Get(d.baseBuild); own == nil || own.Derived != 0 {
			sev, whose = model.Info, fmt.Sprintf("base build %d has no Blizzard table; the nearest", d.baseBuild)
		}
		*out = append(*out, diagnostic(sev, model.Span{Stream: d.initStream, Off: off, Len: int64(len(b)) - off}, d.initStream,
			fmt.Sprintf("no protocol table reads the lobby to its end, so it is not decoded (%s stops here: %s)", whose, msg), "", ""))
		return
	}
	dec := bitpack.Decoder{Tab: p.Types, Budget: d.b, What: d.initStream}
	r := bitpack.New(b)
	v := dec.Read(r, p.Init)
	if r.Failed() {
		d.budgetHit(model.Span{Stream: d.initStream, Off: int64(r.Pos())})
		return
	}
	lobby, _ := v.Get("m_syncLobbyState")
	if lobby == nil {
		return
	}
	res := &initResult{p: p, namedUsers: map[int]int{}}
	sp := func(x *bitpack.Value) model.Span {
		return model.Span{Stream: d.initStream, Off: int64(x.Off), Len: int64(x.End-x.Off) + 1}
	}
	intField := func(x *bitpack.Value, k string) (model.Field, bool) {
		f, ok := x.Get(k)
		if !ok {
			return model.Field{}, false
		}
		n, ok := x.IntOf(k)
		if !ok {
			return model.Field{}, false
		}
		if f.Kind == bitpack.KBool {
			return model.Field{Key: strings.TrimPrefix(k, "m_"), Label: k, Value: n != 0, Span: sp(f)}, true
		}
		return model.Field{Key: strings.TrimPrefix(k, "m_"), Label: k, Value: n, Span: sp(f)}, true
	}
	g := model.Field{Key: "initData", Label: "Lobby (replay.initData)", Value: fmt.Sprintf("table of base build %d", p.Base),
		Span: model.Span{Stream: d.initStream, Len: int64(len(b))}}
	if desc, ok := lobby.Get("m_gameDescription"); ok {
		for _, k := range []string{"m_mapSizeX", "m_mapSizeY", "m_maxPlayers", "m_maxObservers", "m_maxTeams", "m_gameSpeed", "m_gameType", "m_isBlizzardMap"} {
			if f, ok := intField(desc, k); ok {
				if k == "m_gameSpeed" {
					if n, _ := f.Value.(int64); n >= 0 && int(n) < len(speedNames) {
						f.Name = speedNames[n]
					}
				}
				g.Fields = append(g.Fields, f)
			}
		}
		if m, ok := desc.BytesOf("m_mapFileName"); ok {
			g.Fields = append(g.Fields, model.Field{Key: "mapFileName", Label: "m_mapFileName", Value: string(m)})
		}
		res.mapW, _ = desc.IntOf("m_mapSizeX")
		res.mapH, _ = desc.IntOf("m_mapSizeY")
		if opt, ok := desc.Get("m_gameOptions"); ok {
			of := model.Field{Key: "gameOptions", Label: "m_gameOptions", Span: sp(opt)}
			for i := range opt.Fields {
				if f, ok := intField(opt, opt.Fields[i].Name); ok {
					of.Fields = append(of.Fields, f)
				}
			}
			g.Fields = append(g.Fields, of)
		}
	}
	// user id -> name, to tie lobby users to the players of replay.details
	userName := map[int64]string{}
	users := model.Field{Key: "users", Label: "m_userInitialData"}
	if ui, ok := lobby.Get("m_userInitialData"); ok {
		for i := range ui.Items {
			u := &ui.Items[i]
			name, _ := u.BytesOf("m_name")
			if len(name) == 0 {
				continue
			}
			userName[int64(i)] = string(name)
			f := model.Field{Key: fmt.Sprintf("user%d", i), Label: fmt.Sprintf("user %d", i), Value: string(name), Span: sp(u)}
			if c, ok := u.BytesOf("m_clanTag"); ok {
				f.Fields = append(f.Fields, model.Field{Key: "clanTag", Label: "m_clanTag", Value: string(c)})
			}
			for _, k := range []string{"m_highestLeague", "m_scaledRating", "m_observe"} {
				if x, ok := intField(u, k); ok {
					f.Fields = append(f.Fields, x)
				}
			}
			users.Fields = append(users.Fields, f)
		}
	}
	g.Fields = append(g.Fields, users)
	if ls, ok := lobby.Get("m_lobbyState"); ok {
		if x, ok := intField(ls, "m_hostUserId"); ok {
			g.Fields = append(g.Fields, x)
		}
		if slots, ok := ls.Get("m_slots"); ok {
			g.Fields = append(g.Fields, d.slotFields(res, slots, userName, sp, intField))
		}
	}
	for uid, n := range userName {
		if pi := d.playerNamed(n); pi >= 0 {
			res.namedUsers[int(uid)] = pi
		}
	}
	d.seatPlayers(res.slots)
	res.field = g
	d.init = res
	d.seatedTrackerPlayers()
}

// slotFields lists the lobby slots and records what ties their users to
// players.
func (d *decoder) slotFields(res *initResult, slots *bitpack.Value, userName map[int64]string,
	sp func(*bitpack.Value) model.Span, intField func(*bitpack.Value, string) (model.Field, bool)) model.Field {
	sf := model.Field{Key: "slots", Label: "m_slots", Value: int64(len(slots.Items))}
	for i := range slots.Items {
		s := &slots.Items[i]
		ctl, _ := s.IntOf("m_control")
		obs, _ := s.IntOf("m_observe")
		uid, hasUser := s.IntOf("m_userId")
		wss, hasWss := s.IntOf("m_workingSetSlotId")
		ls := lobbySlot{control: ctl, observe: obs, user: -1, wss: wss, hasWss: hasWss}
		if hasUser {
			ls.user = int(uid)
		}
		res.slots = append(res.slots, ls)
		toon, _ := s.BytesOf("m_toonHandle")
		f := model.Field{Key: fmt.Sprintf("slot%d", i), Label: fmt.Sprintf("slot %d", i), Value: controlName(ctl), Span: sp(s)}
		if hasUser {
			if n, ok := userName[uid]; ok {
				f.Value = n
			}
		}
		f.Fields = append(f.Fields, model.Field{Key: "control", Label: "m_control", Value: ctl, Name: controlName(ctl)})
		if hasUser {
			f.Fields = append(f.Fields, model.Field{Key: "userId", Label: "m_userId", Value: uid, Name: userName[uid]})
		}
		if x, ok := intField(s, "m_teamId"); ok {
			f.Fields = append(f.Fields, x)
		}
		if rp, ok := s.Get("m_racePref"); ok {
			if r, ok := rp.IntOf("m_race"); ok {
				f.Fields = append(f.Fields, model.Field{Key: "racePref", Label: "m_racePref", Value: r, Span: sp(rp)})
			}
		}
		if cp, ok := s.Get("m_colorPref"); ok {
			if c, ok := cp.IntOf("m_color"); ok {
				f.Fields = append(f.Fields, model.Field{Key: "colorPref", Label: "m_colorPref", Value: c, Span: sp(cp)})
			}
		}
		for _, k := range []string{"m_handicap", "m_observe"} {
			if x, ok := intField(s, k); ok {
				f.Fields = append(f.Fields, x)
			}
		}
		if x, ok := intField(s, "m_difficulty"); ok && ctl == 3 {
			f.Fields = append(f.Fields, x)
		}
		if len(toon) > 0 {
			f.Fields = append(f.Fields, model.Field{Key: "toonHandle", Label: "m_toonHandle", Value: string(toon)})
		}
		sf.Fields = append(sf.Fields, f)
	}
	return sf
}

// playerNamed is the index of the only replay.details player with the
// name, or -1.
func (d *decoder) playerNamed(n string) int {
	match := -1
	for pi, p := range d.players {
		if n != "" && p.name == n {
			if match >= 0 {
				return -1
			}
			match = pi
		}
	}
	return match
}
