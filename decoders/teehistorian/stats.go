package teehistorian

import (
	"fmt"
	"strings"
	"time"

	"rewind/decoders/teehistorian/twint"
	"rewind/model"
)

// What happened on the server, per player: time connected, team changes,
// commands, race finishes, and the joins, drops, chat and votes as moments.
//
// What a recording can hold decides what is shown. DDNet marks chat
// (Cl_Say) and votes (Cl_Vote, Cl_CallVote) teehistorian=False in
// datasrc/network.py, so a DDNet server never writes them: chat appears only
// as `say` console commands (from the server console or through rcon),
// and a vote only as the command it runs, from client id -1 like the
// server console. A passed vote cannot be told from an admin typing the
// same command. The MESSAGE decoding still turns Cl_Say and Cl_CallVote
// into moments for servers that do record them. Race finishes are the
// player-finish and team-finish extensions (teehistorian-player-finish@
// ddnet.org, time in ticks), which the 16.4 server of the corpus predates.

// playerStats gathers one player's numbers.
type playerStats struct {
	connected     int64 // ticks
	open          bool
	since         int      // tick the current session began
	everOpen      bool     // a session was seen, so a later event without a JOIN is not a carry-over
	joins         int      // engine-level JOIN records
	drops         []drop   // engine-level DROP records
	finishList    []finish // race finishes (player-finish extension)
	teamChanges   int
	team          int32 // DDRace team from the player-team extension
	teamKnown     bool
	selfKills     int
	commands      []command
	logins        int
	best          int32 // best race time in ticks
	chatLines     int
	votesCalled   int
	votesCast     int
	carriedOverIn bool // connected before the recording started
}

// command is one console command with who ran it and how.
type command struct {
	frame int
	cid   int32
	flags int32
	text  string
	name  string
	span  model.Span
}

// via says how a command reached the server: typed in chat ("/team 5"),
// through rcon, or on the server's own console (client id -1, also votes).
func (c command) via() string {
	switch {
	case c.flags&(1<<7) != 0:
		return "chat"
	case c.cid < 0:
		return "server console or vote"
	}
	return "rcon"
}

// analysis walks the recording's events once.
type analysis struct {
	d       *decoder
	r       *model.Replay
	players []playerStats
	server  []command
	moments []model.Moment
	team    []finish // team finishes
	endWhy  string   // what the last command did to the recording
	scratch decoder  // reads records again (fieldsOf)
}

// finish is a race finish: a player's or a team's.
type finish struct {
	frame int
	team  int32
	ticks int32
}

// drop is a player leaving: when, and the reason the server gave.
type drop struct {
	frame  int
	reason string
}

// analyze is Replay.Analyze for teehistorian.
func (d *decoder) analyze() *model.Analysis {
	a := &analysis{d: d, r: d.r, players: make([]playerStats, len(d.r.Players))}
	for i := range a.r.Events {
		a.event(&a.r.Events[i])
	}
	last := max(a.r.Timeline.Count-1, 0)
	for p := range a.players {
		ps := &a.players[p]
		if ps.open {
			ps.connected += int64(last - ps.since)
		}
	}
	return &model.Analysis{Moments: a.moments, Stats: model.Stats{Tables: a.tables(), Native: a.native()}}
}

// name is how a moment calls a player: the name the client gave, or its
// client id, as the events do, when it never sent one.
func (a *analysis) name(p int) string {
	if p < 0 || p >= len(a.r.Players) {
		return "the server"
	}
	if n := a.r.Players[p].Name; n != "" {
		return n
	}
	return fmt.Sprintf("client %d", clientID(a.r.Players[p]))
}

// clientID is a player's client id, its Fields' cid.
func clientID(p model.Player) int {
	f, _ := model.Find(p.Fields, "cid")
	v, _ := f.Value.(int64)
	return int(v)
}

// fieldsOf reads an event's record again with every field, on the
// analysis's one scratch decoder.
func (a *analysis) fieldsOf(ev *model.Event) []model.Field {
	return a.d.detailOn(&a.scratch, ev)
}

func intField(fs []model.Field, key string) (int32, bool) {
	f, ok := model.Find(fs, key)
	if !ok {
		return 0, false
	}
	v, ok := f.Value.(int64)
	return int32(v), ok
}

func strField(fs []model.Field, key string) string {
	f, _ := model.Find(fs, key)
	s, _ := f.Value.(string)
	return s
}

// worthReading skips, from the record's first bytes, the records that
// make no moment: the protocol extension beside each JOIN, and the game
// messages other than kill, team, chat and votes (most MESSAGE records are
// client settings). Reading a record's fields again costs a scratch
// decoder, so a busy recording's thousands of messages stay cheap.
func (a *analysis) worthReading(ev *model.Event) bool {
	data := a.d.data
	off := int(ev.Off)
	if off < a.d.stream || off >= len(data) {
		return true
	}
	r := twint.Reader{B: data, Pos: off}
	id := r.Int()
	switch ev.Kind {
	case kJoin:
		return r.Err() != nil || id == idJoin
	case kMsg:
		r.Int() // cid
		r.Int() // size
		v := r.Int()
		if r.Err() != nil {
			return true
		}
		if v&1 != 0 {
			return false // system message
		}
		switch v >> 1 {
		case nmClKill, nmClSetTeam, nmClSay, nmClVote, nmClCallVote:
			return true
		}
		return false
	}
	return true
}

// recordID is the message id of the event's record (JOIN -8, EX -11, ...).
func recordID(fs []model.Field) int32 {
	if len(fs) > 0 && fs[0].Key == "id" {
		if v, ok := fs[0].Value.(int64); ok {
			return int32(v)
		}
	}
	return 0
}

// moment adds one: by did it (joined, finished, said), on had it done to
// them (the one killed); -1 when none.
func (a *analysis) moment(ev *model.Event, kind model.MomentKind, by, on int, summary string, fs []model.Field) {
	// the record's own fields, without its message id
	if len(fs) > 0 && fs[0].Key == "id" {
		fs = fs[1:]
	}
	a.moments = append(a.moments, model.Moment{Kind: kind, Frame: int(ev.Frame), End: int(ev.Frame), By: by, On: on,
		Summary: summary, Fields: fs, Span: model.Span{Off: ev.Off, Len: ev.Len}})
}

// session opens a player's connection at a JOIN, or at the first record of
// a client that was connected before the recording began (a map change
// carries clients over without a JOIN). After a DROP only a JOIN reopens
// it: the tee's disappearance follows the drop.
func (a *analysis) session(ev *model.Event) {
	p := int(ev.Player)
	if p < 0 || p >= len(a.players) {
		return
	}
	ps := &a.players[p]
	switch {
	case ps.open || ev.Kind == kDrop || ev.Kind == kDespawn:
		return
	case ev.Kind == kJoin:
		ps.since = int(ev.Frame)
	case ps.everOpen:
		return
	default:
		ps.since = 0
		ps.carriedOverIn = true
	}
	ps.open, ps.everOpen = true, true
}

func (a *analysis) event(ev *model.Event) {
	switch ev.Kind {
	case kJoin, kDrop, kCmd, kTeam, kFinish, kMsg, kAuth, kEnd:
	default:
		a.session(ev)
		return
	}
	a.session(ev)
	if !a.worthReading(ev) {
		return
	}
	fs := a.fieldsOf(ev)
	p := int(ev.Player)
	var ps *playerStats
	if p >= 0 && p < len(a.players) {
		ps = &a.players[p]
	}
	switch ev.Kind {
	case kJoin:
		if recordID(fs) != idJoin || ps == nil {
			return // the protocol extension that comes with a JOIN
		}
		ps.joins++
		a.moment(ev, model.MomentJoin, p, -1, a.name(p)+" joins the server", fs)
	case kDrop:
		if ps == nil {
			return
		}
		if ps.open {
			ps.connected += int64(int(ev.Frame) - ps.since)
		} else if !ps.everOpen {
			// dropped before anything else of theirs was recorded
			ps.connected += int64(ev.Frame)
			ps.carriedOverIn = true
		}
		ps.open, ps.everOpen = false, true
		reason := strField(fs, "reason")
		ps.drops = append(ps.drops, drop{int(ev.Frame), reason})
		s := a.name(p)
		switch {
		case strings.HasPrefix(reason, "Kicked"):
			s += " is kicked"
			if r := strings.TrimSuffix(strings.TrimPrefix(reason, "Kicked ("), ")"); r != reason && r != "" {
				s += fmt.Sprintf(" (%q)", r)
			}
		case strings.HasPrefix(reason, "Banned"):
			s += fmt.Sprintf(" is banned (%q)", reason)
		case reason == "":
			s += " leaves the server"
		default:
			s += fmt.Sprintf(" leaves the server (%q)", reason)
		}
		a.moment(ev, model.MomentDrop, p, -1, s, fs)
	case kCmd:
		a.command(ev, fs, ps)
	case kTeam:
		team, ok := intField(fs, "team")
		if !ok || ps == nil {
			return
		}
		prev, known := ps.team, ps.teamKnown
		ps.team, ps.teamKnown = team, true
		if known && prev == team {
			return
		}
		ps.teamChanges++
		s := a.name(p)
		switch {
		case team == 0 && known:
			s += " leaves " + theTeam(prev)
		case team == 0:
			s += " is in no team"
		default:
			s += " joins " + theTeam(team)
		}
		a.moment(ev, model.MomentTeam, p, -1, s, fs)
	case kFinish:
		ticks, ok := intField(fs, "time")
		if !ok {
			return
		}
		if _, isPlayer := intField(fs, "cid"); isPlayer {
			if ps == nil {
				return
			}
			ps.finishList = append(ps.finishList, finish{frame: int(ev.Frame), ticks: ticks})
			if ps.best == 0 || ticks < ps.best {
				ps.best = ticks
			}
			a.moment(ev, model.MomentFinish, p, -1, fmt.Sprintf("%s finishes in %s", a.name(p), raceTime(ticks)), fs)
			return
		}
		team, _ := intField(fs, "team")
		a.team = append(a.team, finish{int(ev.Frame), team, ticks})
		a.moment(ev, model.MomentFinish, -1, -1, fmt.Sprintf("team %d finishes in %s", team, raceTime(ticks)), fs)
	case kAuth:
		if u, _ := model.Find(fs, "uuid"); ps != nil && u.Name == extAuthLogin {
			ps.logins++
		}
	case kMsg:
		a.message(ev, fs, ps)
	case kEnd:
		s := "the recording ends"
		if a.endWhy != "" {
			s = a.endWhy + "; the recording ends"
		}
		a.moment(ev, model.MomentEnd, -1, -1, s, fs)
	}
}

// command records a console command and the moments it makes: chat sent
// with `say`, and what ends the recording (shutdown, map change, reload).
func (a *analysis) command(ev *model.Event, fs []model.Field, ps *playerStats) {
	cid, _ := intField(fs, "cid")
	flags, _ := intField(fs, "flags")
	name := strField(fs, "cmd")
	var args []string
	more := ""
	for _, f := range fs {
		switch f.Key {
		case "arg":
			s, _ := f.Value.(string)
			args = append(args, s)
		case "moreArgs":
			n, _ := f.Value.(int64)
			more = moreArgs(len(args) + int(n))
		}
	}
	c := command{frame: int(ev.Frame), cid: cid, flags: flags, name: name, text: commandText(name, args) + more, span: model.Span{Off: ev.Off, Len: ev.Len}}
	if ps != nil {
		ps.commands = append(ps.commands, c)
	} else {
		a.server = append(a.server, c)
	}
	switch name {
	case "say":
		who := "the server"
		if ps != nil {
			who = a.name(int(ev.Player)) + " (through rcon, as the server)"
			ps.chatLines++
		}
		text := strings.Join(args, " ")
		a.moment(ev, model.MomentChat, int(ev.Player), -1, fmt.Sprintf("%s says %q", who, text), sayFields(fs, text))
	}
	a.endWhy = ""
	switch name {
	case "shutdown":
		a.endWhy = "the server shuts down"
	case "reload":
		a.endWhy = "the map reloads"
	case "change_map", "sv_map":
		if len(args) > 0 {
			a.endWhy = "the map changes to " + args[0]
		}
	}
}

// sayFields are a say command's fields for its chat moment: who and the
// command, and the words as one message over the arguments' bytes (a
// moment keeps its fields; a field each word would be 120 bytes a byte
// of a command of empty arguments).
func sayFields(fs []model.Field, text string) []model.Field {
	var out []model.Field
	var words model.Span
	for _, f := range fs {
		switch f.Key {
		case "cid", "cmd":
			out = append(out, f)
		case "arg", "moreArgs":
			if words.Len == 0 {
				words.Off = f.Span.Off
			}
			words.Len = f.Span.End() - words.Off
		}
	}
	return append(out, model.Field{Key: "message", Label: "Message", Value: text, Span: words})
}

// message turns the game messages people would call events into moments:
// a self-kill, a change of game team, chat and votes.
func (a *analysis) message(ev *model.Event, fs []model.Field, ps *playerStats) {
	if ps == nil {
		return
	}
	id, ok := intField(fs, "msgId")
	if !ok {
		return
	}
	if sys, _ := model.Find(fs, "system"); sys.Value == true {
		return
	}
	p := int(ev.Player)
	who := a.name(p)
	switch id {
	case nmClKill:
		ps.selfKills++
		a.moment(ev, model.MomentKill, p, p, who+" self-kills", fs)
	case nmClSetTeam:
		t, ok := intField(fs, "team")
		if !ok {
			return
		}
		ps.teamChanges++
		where := "the game"
		switch t {
		case -1:
			where = "the spectators"
		case 0:
		default:
			where = gameTeamName(t) + " team"
		}
		a.moment(ev, model.MomentTeam, p, -1, fmt.Sprintf("%s asks to join %s", who, where), fs)
	case nmClSay:
		ps.chatLines++
		to := ""
		if t, _ := intField(fs, "team"); t != 0 {
			to = " (to the team)"
		}
		a.moment(ev, model.MomentChat, p, -1, fmt.Sprintf("%s%s: %q", who, to, strField(fs, "message")), fs)
	case nmClCallVote:
		ps.votesCalled++
		s := fmt.Sprintf("%s calls a vote: %s %q", who, strField(fs, "type"), strField(fs, "value"))
		if r := strField(fs, "reason"); r != "" {
			s += fmt.Sprintf(" (reason %q)", r)
		}
		a.moment(ev, model.MomentVote, p, -1, s, fs)
	case nmClVote:
		v, _ := intField(fs, "vote")
		ps.votesCast++
		a.moment(ev, model.MomentVote, p, -1, fmt.Sprintf("%s votes %s", who, voteName(v)), fs)
	}
}

// theTeam names a DDRace team in a sentence: "team 5", "the super team".
func theTeam(t int32) string {
	if t == 64 {
		return "the " + teamName(t)
	}
	return teamName(t)
}

// raceTime is a race time given in ticks, as m:ss.cc.
func raceTime(ticks int32) string {
	return model.FormatDuration(tickDur(int64(ticks)))
}

func tickDur(ticks int64) time.Duration { return time.Duration(ticks) * time.Second / tickRate }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func cell(v any) model.Field { return model.Field{Value: v} }

func statRow(key, label string, cells []model.Field) model.StatRow {
	for i := range cells {
		cells[i].Key, cells[i].Label = key, label
	}
	return model.StatRow{Key: key, Label: label, Frame: -1, Cells: cells}
}

// label is a player's column heading: the name with the slot and the
// client id.
func (a *analysis) label(p int) string {
	pl := a.r.Players[p]
	if pl.Name != "" {
		return fmt.Sprintf("%s (%s, client %d)", pl.Name, pl.Slot, clientID(pl))
	}
	return fmt.Sprintf("%s (client %d)", pl.Slot, clientID(pl))
}

// secondsCell is a duration in seconds, shown as m:ss.cc.
func secondsCell(d time.Duration) model.Field {
	return model.Field{Value: d.Seconds(), Name: model.FormatDuration(d)}
}

func (a *analysis) tables() []model.StatTable {
	n := len(a.players)
	var out []model.StatTable
	if n > 0 {
		cols := make([]string, n)
		for p := range cols {
			cols[p] = a.label(p)
		}
		per := func(key, label string, f func(ps *playerStats) any) model.StatRow {
			cells := make([]model.Field, n)
			for p := range cells {
				v := f(&a.players[p])
				if d, ok := v.(time.Duration); ok {
					cells[p] = secondsCell(d)
				} else {
					cells[p] = cell(v)
				}
			}
			return statRow(key, label, cells)
		}
		t := model.StatTable{Key: "players", Title: "Players", Player: -1, Columns: cols, Rows: []model.StatRow{
			per("connected", "Connected (m:ss.cc)", func(ps *playerStats) any { return tickDur(ps.connected) }),
			per("connectedAtStart", "Connected when the recording began", func(ps *playerStats) any { return yesNo(ps.carriedOverIn) }),
			per("joins", "Joins", func(ps *playerStats) any { return int64(ps.joins) }),
			per("drops", "Left the server", func(ps *playerStats) any { return int64(len(ps.drops)) }),
			per("dropReason", "Reason for leaving", func(ps *playerStats) any {
				switch {
				case len(ps.drops) == 0:
					return "still connected"
				case ps.drops[len(ps.drops)-1].reason == "":
					return "none given"
				}
				return ps.drops[len(ps.drops)-1].reason
			}),
			per("teamChanges", "Team changes", func(ps *playerStats) any { return int64(ps.teamChanges) }),
			per("selfKills", "Self-kills", func(ps *playerStats) any { return int64(ps.selfKills) }),
			per("commands", "Commands", func(ps *playerStats) any { return int64(len(ps.commands)) }),
			per("commandsUsed", "Commands used", func(ps *playerStats) any { return distinct(ps.commands) }),
			per("rconLogins", "Rcon logins", func(ps *playerStats) any { return int64(ps.logins) }),
			per("chatLines", "Chat lines recorded", func(ps *playerStats) any { return int64(ps.chatLines) }),
			per("finishes", "Race finishes", func(ps *playerStats) any { return int64(len(ps.finishList)) }),
			per("bestTime", "Best race time (m:ss.cc)", func(ps *playerStats) any {
				if len(ps.finishList) == 0 {
					return "—"
				}
				return tickDur(int64(ps.best))
			}),
		}}
		out = append(out, t)
	}
	for p := range a.players {
		if cs := a.players[p].commands; len(cs) > 0 {
			out = append(out, commandTable("commands", a.label(p)+": commands", p, cs))
		}
	}
	if len(a.server) > 0 {
		out = append(out, commandTable("serverCommands", "Server console and vote commands", -1, a.server))
	}
	if len(a.team) > 0 {
		t := model.StatTable{Key: "teamFinishes", Title: "Team finishes (time m:ss.cc)", Player: -1, Columns: []string{"Team", "Race time (m:ss.cc)"}}
		for _, f := range a.team {
			t.Rows = append(t.Rows, model.StatRow{Key: "teamFinish", Label: model.FormatDuration(tickDur(int64(f.frame))), Frame: f.frame, Cells: []model.Field{
				{Key: "team", Label: "Team", Value: int64(f.team)},
				{Key: "raceTime", Label: "Race time", Value: tickDur(int64(f.ticks)).Seconds(), Name: model.FormatDuration(tickDur(int64(f.ticks)))},
			}})
		}
		out = append(out, t)
	}
	return out
}

// distinct lists the command names in the order first used.
func distinct(cs []command) string {
	var names []string
	seen := map[string]bool{}
	for _, c := range cs {
		if !seen[c.name] {
			seen[c.name] = true
			names = append(names, c.name)
		}
	}
	return strings.Join(names, ", ")
}

// commandTable lists commands, each row headed by its time.
func commandTable(key, title string, player int, cs []command) model.StatTable {
	t := model.StatTable{Key: key, Title: title + " (time m:ss.cc)", Player: player, Columns: []string{"Command", "Via"}}
	for _, c := range cs {
		t.Rows = append(t.Rows, model.StatRow{Key: c.name, Label: model.FormatDuration(tickDur(int64(c.frame))), Frame: c.frame, Cells: []model.Field{
			{Key: "command", Label: "Command", Value: c.text},
			{Key: "via", Label: "Via", Value: c.via()},
		}})
	}
	return t
}
