package slippi

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"time"

	"rewind/model"
)

var placeNames = []string{"1st", "2nd", "3rd", "4th"}

// assignPorts makes the occupied ports, and the ports only frame updates
// name (framed), players, in port order. In a single-player mode those are
// the fighters the game brings on (Multi-Man Melee's enemies). In any
// other game whose Game Start lists who played they are no player: the
// events pass reports their updates (badPort). A Game Start that lists no
// one leaves the frame updates to say who played, and that is said.
func (d *decoder) assignPorts() {
	solo, listed := d.soloMode(), d.listedOnly()
	for port := 0; port < maxSlots; port++ {
		if d.playerOf[port] >= 0 || !d.ports[port].used && !d.framed[port] {
			continue
		}
		if !d.ports[port].used {
			if listed {
				continue
			}
			d.ports[port].ext = -1 // Game Start's character for the port is not theirs
			if !solo && d.startOff >= 0 {
				d.diag(model.Warning, d.framedAt[port], 0, "player index", fmt.Sprintf("frame updates name port %d, and Game Start lists no player in a game that is not single-player; they are decoded as a player", port+1),
					"an occupied port", fmt.Sprintf("port %d", port+1))
			}
		}
		d.playerOf[port] = len(d.portOf)
		d.portOf = append(d.portOf, port)
		d.newPlayerSeries()
	}
}

// listedOnly reports whether the players are exactly those Game Start
// lists: a game that is not single-player, whose Game Start names at least
// one player. Only a single-player mode brings on fighters Game Start does
// not list; elsewhere a frame update naming another port is damage, not a
// player (0.1.0 recordings have been seen with post-frame updates of
// player index 4, 5 and 124 in a two-player game; slippi-js's settings,
// read from Game Start, list the two).
func (d *decoder) listedOnly() bool {
	if d.startOff < 0 || d.soloMode() {
		return false
	}
	for port := 0; port < 4; port++ {
		if d.ports[port].used {
			return true
		}
	}
	return false
}

// buildPlayers makes the players of the ports assignPorts chose, from Game
// Start and the metadata.
func (d *decoder) buildPlayers() []model.Player {
	teams := d.startOff >= 0 && d.started && 1+int(d.size[cmdStart]) > 0xD && d.data[d.startOff+0xD] != 0
	var portFields [4][]model.Field
	for i := range d.startHdr {
		if d.startHdr[i].Key == "gameStart" {
			for _, f := range d.startHdr[i].Fields {
				if strings.HasPrefix(f.Key, "port") && len(f.Key) == 5 {
					portFields[f.Key[4]-'1'] = f.Fields
				}
			}
		}
	}
	players := make([]model.Player, 0, len(d.portOf))
	for _, port := range d.portOf {
		pi := &d.ports[port]
		if !pi.used {
			players = append(players, d.unlistedPlayer(port, d.chars[port]))
			continue
		}
		pl := model.Player{Slot: fmt.Sprintf("P%d", port+1), Character: externalName(pi.ext), Fields: portFields[port]}
		if d.version < ver(1, 6, 0) {
			// Before 1.6.0 Game Start says Zelda for a Sheik start; the
			// first post-frame update tells.
			switch d.firstInternal(port) {
			case 7:
				pl.Character = externalName(0x13)
			case 19:
				pl.Character = externalName(0x12)
			}
		}
		for _, s := range []string{pi.display, pi.nametag, d.meta.netplay[port]} {
			if validName(s) {
				pl.Name = halfWidth(s)
				break
			}
		}
		pl.Code = pi.code
		if pl.Code == "" {
			pl.Code = halfWidth(d.meta.code[port])
		}
		if teams {
			pl.Team = pick(int64(pi.team), "red", "blue", "green")
		}
		players = append(players, pl)
	}
	return players
}

// framePorts notes which ports have frame updates and, per port, the
// internal characters its post-frame updates name, in the order they first
// appear. Multi-Man Melee's enemies have frame updates on ports that Game
// Start leaves empty, and slippi-js reads their frames like any player's.
// A header-only listing looks at the first events only; a whole decode's
// scan notes them as it goes (tally), which saves a walk of the stream.
func (d *decoder) framePorts() {
	limit := -1
	if d.opt.HeaderOnly && !d.soloMode() {
		// a listing looks at the first events only; in a single-player
		// mode the game brings fighters on later (Multi-Man Melee's
		// enemies), and the files are short
		limit = 1024
	}
	for p, k := d.from, 0; p < d.stop && k != limit; k++ {
		c := d.data[p]
		n := 1 + int(d.size[c])
		if d.size[c] < 0 || p+n > d.stop {
			break
		}
		if (c == cmdPre || c == cmdPost) && n > 7 && d.data[p+5] < maxSlots && d.data[p+6] == 0 {
			d.framePort(int(d.data[p+5]), c, d.data[p+7], p)
		}
		p += n
	}
}

// unlistedPlayer is the player of a port that only frame updates name
// (Multi-Man Melee's enemies): the characters are the ones its post-frame
// updates give, one after another as each enemy is knocked out.
func (d *decoder) unlistedPlayer(port int, chars []int) model.Player {
	source := "frame updates only: Game Start leaves this port empty"
	if d.soloMode() {
		source += " (an enemy the game brings on, as Multi-Man Melee's)"
	}
	var names []string
	for _, c := range chars {
		if n := internalName(c); n != "" {
			names = append(names, n)
		} else {
			names = append(names, fmt.Sprintf("character %d", c))
		}
	}
	return model.Player{Slot: fmt.Sprintf("P%d", port+1), Character: strings.Join(names, " / "),
		Fields: []model.Field{{Key: "source", Label: "Source", Value: source}}}
}

// firstInternal is the internal character of the port's first
// post-frame update, -1 when there is none near the start.
func (d *decoder) firstInternal(port int) int {
	p := d.startOff
	if p < 0 {
		return -1
	}
	for k := 0; k < 64 && p < d.stop; k++ {
		c := d.data[p]
		n := 1 + int(d.size[c])
		if d.size[c] < 0 || p+n > d.stop {
			return -1
		}
		if c == cmdPost && n > 7 && int(d.data[p+5]) == port && d.data[p+6] == 0 {
			return int(d.data[p+7])
		}
		p += n
	}
	return -1
}

// gameEnd decodes the (last) Game End and sets results.
func (d *decoder) gameEnd() *model.Field {
	if d.endOff < 0 {
		return nil
	}
	p := d.endOff
	n := 1 + int(d.size[cmdEnd])
	if p+n > len(d.data) || n < 2 {
		return nil
	}
	ctx := nameCtx{char: -1, ver: d.version}
	g := model.Field{Key: "gameEnd", Label: "Game End", Span: model.Span{Off: int64(p), Len: int64(n)},
		Fields: decodeFields(d.data, p, n, gameEndDefs, ctx)}
	ev := d.data[p : p+n]
	method := int64(ev[1])
	res := endMethodName(method, d.version)
	if d.version >= v200 && method == 3 && !d.soloMode() {
		// 3 is a stage cleared in the single-player modes; a VS game
		// (teams/placements files) ends with it too, resolved (slippi-js's
		// RESOLVED)
		res = "Resolved"
		for i := range g.Fields {
			if g.Fields[i].Key == "gameEndMethod" {
				g.Fields[i].Name = res
			}
		}
	}
	if res == "" {
		res = fmt.Sprintf("method %d", method)
	}
	if d.version >= v200 && n > 2 {
		if l := int8(ev[2]); l >= 0 && l < 4 {
			res += fmt.Sprintf(" (LRAS by P%d)", l+1)
		}
	}
	d.r.Result = res
	lras := -1
	if d.version >= v200 && n > 2 {
		if l := int(int8(ev[2])); l >= 0 && l < 4 && d.playerOf[l] >= 0 {
			lras = l
		}
	}
	if lras >= 0 && (method == 7 || method == 0) {
		// A game left with L+R+A+Start: whoever quit did not win; in a
		// 1v1 the other player did (the placements say nothing useful).
		d.r.Players[d.playerOf[lras]].Result = "LRAS"
		var listed []int // Game Start's players, not Multi-Man Melee's enemies
		for port := 0; port < 4; port++ {
			if d.ports[port].used && port != lras {
				listed = append(listed, port)
			}
		}
		if len(listed) == 1 && d.ports[lras].used && d.playerOf[listed[0]] >= 0 {
			d.r.Players[d.playerOf[listed[0]]].Result = "1st"
		}
	} else if d.version >= ver(3, 13, 0) && n >= 7 {
		for port := 0; port < 4; port++ {
			if pl := d.playerOf[port]; pl >= 0 {
				if pos := int8(ev[3+port]); pos >= 0 && int(pos) < len(placeNames) {
					d.r.Players[pl].Result = placeNames[pos]
				}
			}
		}
	}
	if d.endCount > 1 {
		d.diag(model.Warning, p, n, "event 0x39", fmt.Sprintf("%d Game End events; the last one is used", d.endCount), "one", fmt.Sprint(d.endCount))
	}
	return &g
}

// payloadsField is Event Payloads' header field but its span (see
// finishHeader). It is made once, when the sizes are read: a followed
// file's snapshots share its entries.
func (d *decoder) payloadsField() model.Field {
	pay := model.Field{Key: "eventPayloads", Label: "Event Payloads"}
	for c := 0; c < 256; c++ {
		if d.size[c] >= 0 && c != cmdPayloads {
			pay.Fields = append(pay.Fields, model.Field{Key: fmt.Sprintf("0x%02x", c), Label: nameOrCode(byte(c)),
				Value: int64(d.size[c]), Span: model.Span{Off: int64(d.sizeAt[c]), Len: 3}})
		}
	}
	return pay
}

// finishHeader assembles the header and the summary values.
func (d *decoder) finishHeader() {
	r := d.r
	d.phase = phaseHeader
	var h []model.Field
	h = append(h, model.Field{Key: "raw", Label: "Raw element", Value: d.rawLen, Name: rawName(d.rawLen),
		Span: model.Span{Off: int64(len(magic)) - 1, Len: 5}})
	pay := d.payField
	// the span as far as the data goes now: an entry in the list for 0x35
	// itself may give Event Payloads more bytes than a followed file has yet
	pay.Span = model.Span{Off: int64(d.rawStart), Len: int64(min(1+int(d.size[cmdPayloads]), len(d.data)-d.rawStart))}
	h = append(h, pay)
	// Game Start, then the rest
	h = append(h, d.startHdr...)
	rest := d.extraHdr
	if g := d.gameEnd(); g != nil {
		h = append(h, *g)
	} else {
		r.Result = "no Game End"
	}
	if len(d.geckoOffs) > 0 {
		h = append(h, d.geckoField())
	}
	if !d.opt.HeaderOnly {
		mean := 0.0
		if len(d.rollbackLengths) > 0 {
			s := 0
			for _, l := range d.rollbackLengths {
				s += l
			}
			mean = float64(s) / float64(len(d.rollbackLengths))
		}
		h = append(h, model.Field{Key: "rollbacks", Label: "Rollbacks", Fields: []model.Field{
			{Key: "rollbackFrames", Label: "Rollback frames (as slippi-js counts them)", Value: int64(d.rollbackCount)},
			{Key: "rollbackRuns", Label: "Rollbacks", Value: int64(len(d.rollbackLengths))},
			{Key: "meanRollbackLength", Label: "Mean rollback length", Value: mean},
			{Key: "resentFrames", Label: "Frames sent again (earlier copies rolled back)", Value: int64(d.resentFrames)},
			{Key: "resentPreFrameUpdates", Label: "Pre-frame updates sent again", Value: int64(d.resentPre)},
		}})
	}
	if d.metadata != nil {
		m := d.ubjsonField("metadata", "Metadata", d.metadata, d.metadata.Off-int64(len(metadataKey)))
		labelMeta(m.Fields)
		h = append(h, m)
	}
	h = append(h, rest...)
	r.Header = h

	// summary values
	if d.startOff >= 0 && 1+int(d.size[cmdStart]) > 0x14 {
		id := int(binary.BigEndian.Uint16(d.data[d.startOff+0x13:]))
		if r.Title = stageName(id); r.Title == "" {
			r.Title = fmt.Sprintf("stage %d", id)
		}
	}
	r.Start = d.meta.startAt
	r.Mode = d.mode()
	// Play time runs from frame 0 (or the first frame, when the counter
	// starts later, as in slo-mo melee) to the last frame.
	first, last, ok := int64(-123), d.meta.lastFrame, d.meta.hasLast
	if d.meta.frames > 0 {
		// metadata counts each player's frames: the first frame follows
		first = last - d.meta.frames + 1
	}
	if r.Timeline.Count > 0 && (len(r.Events) > 0 || d.opt.HeaderOnly || d.opt.NoEvents) {
		first, last, ok = r.Timeline.First, r.Timeline.First+int64(r.Timeline.Count)-1, true
	}
	if ok && last >= max(first, 0) {
		r.Duration = time.Duration(last-max(first, 0)+1) * time.Second / 60
	}
}

// rawName says what a raw length of 0 means: the recorder writes the
// length when it closes the file, so the file was still being written (or
// the writer stopped). The value, 0, is shown beside the name, so the name
// does not repeat it.
func rawName(n int64) string {
	if n == 0 {
		return "in progress (length not yet written)"
	}
	return ""
}

// mode names how the game was played: online ranked/unranked/direct with
// the game number, VS, training, or a single-player mode. From 3.7.0 the
// major scene says it; older files leave the stage and Game Bitfield 2 to
// tell the single-player modes apart.
func (d *decoder) mode() string {
	if d.startOff < 0 {
		return ""
	}
	ev := d.data[d.startOff : d.startOff+1+int(d.size[cmdStart])]
	switch s := d.scene(); {
	case s == sceneOnline:
		return d.onlineMode(ev)
	case s == sceneMultiMan:
		return "multi-man melee" // before 3.7.0 no scene tells which
	case sceneName(s) != "":
		return sceneName(s)
	case s >= 0:
		return fmt.Sprintf("scene %d", s)
	}
	return ""
}

// Major scenes (ids/melee-major-scenes.tsv) the decoder acts on.
const (
	sceneVS          = 2
	sceneClassic     = 3
	sceneAdventure   = 4
	sceneAllStar     = 5
	sceneOnline      = 8
	sceneTargetTest  = 15
	sceneHomeRun     = 32
	sceneTenMan      = 33 // the first of the six Multi-Man Melee scenes
	sceneCruel       = 38 // the last
	sceneEventMatch  = 43
	sceneMultiMan    = -2 // Multi-Man Melee in a file too old to say which (the scene's stage, 285)
	stageMultiMan    = 285
	stageHomeRun     = 84
	stageTargetsLo   = 33 // Break the Targets stages
	stageTargetsHi   = 58
	stageEventsLo    = 202 // event match stages
	stageEventsHi    = 272
	gameBitfield2Off = 6
)

// scene is the major scene the game was played in (sceneOf); -1 without
// a Game Start.
func (d *decoder) scene() int {
	if d.startOff < 0 {
		return -1
	}
	return sceneOf(d.data[d.startOff:d.startOff+1+int(d.size[cmdStart])], d.version)
}

// sceneOf is the major scene of a game from its Game Start event ev:
// Game Start says it from 3.7.0; before, the stage and Game Bitfield 2
// tell the single-player modes from VS (sceneMultiMan when it is
// Multi-Man Melee of an unknown kind).
func sceneOf(ev []byte, version uint32) int {
	if version >= v370 && len(ev) > 0x1A4 {
		return int(ev[0x1A4])
	}
	stage := -1
	if len(ev) > 0x14 {
		stage = int(binary.BigEndian.Uint16(ev[0x13:]))
	}
	switch {
	case stage >= stageTargetsLo && stage <= stageTargetsHi:
		return sceneTargetTest
	case stage == stageHomeRun:
		return sceneHomeRun
	case stage == stageMultiMan:
		return sceneMultiMan
	case stage >= stageEventsLo && stage <= stageEventsHi:
		return sceneEventMatch
	}
	if len(ev) > gameBitfield2Off {
		switch b := ev[gameBitfield2Off]; {
		case b&0x08 != 0:
			return sceneEventMatch // home-run has stage 84
		case b&0x02 != 0:
			return sceneTargetTest
		}
	}
	return sceneVS
}

// soloMode reports whether the game is a single-player mode (Classic,
// Adventure, All-Star, Target Test, Home-Run Contest, Multi-Man Melee,
// an event match): the game itself brings fighters on, which Game Start
// need not list, and the game ends in a clear or a failure rather than a
// winner among players.
func (d *decoder) soloMode() bool { return soloScene(d.scene()) }

func soloScene(s int) bool {
	switch {
	case s == sceneClassic, s == sceneAdventure, s == sceneAllStar, s == sceneTargetTest, s == sceneHomeRun,
		s == sceneEventMatch, s == sceneMultiMan, s >= sceneTenMan && s <= sceneCruel:
		return true
	}
	return false
}

// onlineMode is "online" with the match kind and game number (3.14+).
func (d *decoder) onlineMode(ev []byte) string {
	m := "online"
	if d.version >= ver(3, 14, 0) && len(ev) >= 0x2F9 {
		id := cstring(ev[0x2BE : 0x2BE+51])
		if strings.HasPrefix(id, "mode.") {
			kind := strings.TrimPrefix(id, "mode.")
			if i := strings.IndexByte(kind, '-'); i >= 0 {
				kind = kind[:i]
			}
			m += " " + kind
		}
		if g := binary.BigEndian.Uint32(ev[0x2F1:]); g > 0 {
			m += fmt.Sprintf(" g%d", g)
		}
		if t := binary.BigEndian.Uint32(ev[0x2F5:]); t > 0 {
			m += fmt.Sprintf(" tiebreak %d", t)
		}
	}
	return m
}

// geckoField summarises the gecko list, read where its pieces lie.
func (d *decoder) geckoField() model.Field {
	g := d.geckoList()
	codes, first := g.codes()
	f := model.Field{Key: "geckoList", Label: "Gecko List",
		Span: model.Span{Off: int64(d.geckoOffs[0]), Len: int64(d.geckoOffs[len(d.geckoOffs)-1] + 1 + int(d.size[d.data[d.geckoOffs[len(d.geckoOffs)-1]]]) - d.geckoOffs[0])},
		Fields: []model.Field{
			{Key: "size", Label: "Size", Value: int64(g.size())},
			{Key: "codeCount", Label: "Codes", Value: int64(codes)},
			{Key: "messages", Label: "Message Splitter pieces", Value: int64(len(d.geckoOffs))},
		}}
	if codes > 0 {
		f.Fields = append(f.Fields, model.Field{Key: "firstAddress", Label: "First code address", Value: int64(first), Name: fmt.Sprintf("%#08x", first)})
	}
	if !d.geckoDone {
		d.diag(model.Warning, d.geckoOffs[len(d.geckoOffs)-1], 0, "gecko list", "ends without a last-message piece", "", "")
	}
	return f
}

// labelMeta names metadata members for people: players by port, their
// characters (keys are internal character ids) by name.
func labelMeta(fs []model.Field) {
	for i := range fs {
		if fs[i].Key != "players" {
			continue
		}
		for j := range fs[i].Fields {
			pl := &fs[i].Fields[j]
			if len(pl.Key) == 1 && pl.Key[0] >= '0' && pl.Key[0] <= '3' {
				pl.Label = fmt.Sprintf("P%c", pl.Key[0]+1)
			}
			for k := range pl.Fields {
				if pl.Fields[k].Key != "characters" {
					continue
				}
				for c := range pl.Fields[k].Fields {
					ch := &pl.Fields[k].Fields[c]
					if id, err := strconv.Atoi(ch.Key); err == nil {
						if n := internalName(id); n != "" {
							ch.Label = n
						}
					}
				}
			}
		}
	}
}
