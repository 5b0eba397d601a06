package teehistorian

import "rewind/model"

// serverStats is teehistorian's "stats" in `rewind stats --json`: what
// each player did on the server, the commands the server's console and
// votes ran, and team finishes. Times are seconds from the recording's
// first tick (tick / 50), with the tick beside them; durations are
// seconds. The tables show the same for people.
type serverStats struct {
	Players        []playerJSON     `json:"players"`
	ServerCommands []commandJSON    `json:"serverCommands"`
	TeamFinishes   []teamFinishJSON `json:"teamFinishes"`
}

// playerJSON is one client slot of the recording, parallel to the
// replay's players (in client id order).
type playerJSON struct {
	// Slot is "P" and the client id + 1, as Slippi's ports: stable while a
	// recording grows, when a client with a lower id may join later.
	Slot     string `json:"slot"`
	ClientID int    `json:"clientId"`
	Name     string `json:"name"` // the names the client used, " / " between
	// Result is the prose ("finished"), Outcome the word (playerOutcome).
	Result           string        `json:"result"`
	Outcome          model.Outcome `json:"outcome"`
	TimeConnected    float64       `json:"timeConnected"`
	ConnectedAtStart bool          `json:"connectedAtStart"`
	Joins            int           `json:"joins"`
	Drops            []dropJSON    `json:"drops"`
	TeamChanges      int           `json:"teamChanges"`
	SelfKills        int           `json:"selfKills"`
	Finishes         []finishJSON  `json:"finishes"`
	BestTime         *float64      `json:"bestTime"` // null without a finish
	Commands         []commandJSON `json:"commands"`
	RconLogins       int           `json:"rconLogins"`
	ChatLines        int           `json:"chatLines"`
	VotesCalled      int           `json:"votesCalled"`
	VotesCast        int           `json:"votesCast"`
}

type dropJSON struct {
	Time   float64 `json:"time"`
	Tick   int     `json:"tick"`
	Reason string  `json:"reason"`
}

type finishJSON struct {
	Time     float64 `json:"time"`
	Tick     int     `json:"tick"`
	RaceTime float64 `json:"raceTime"`
}

type teamFinishJSON struct {
	Time     float64 `json:"time"`
	Tick     int     `json:"tick"`
	Team     int     `json:"team"`
	RaceTime float64 `json:"raceTime"`
}

// commandJSON is one console command: its name, its text with the
// arguments, and how it reached the server (command.via).
type commandJSON struct {
	Time     float64 `json:"time"`
	Tick     int     `json:"tick"`
	ClientID int     `json:"clientId"` // -1: the server console or a vote
	Command  string  `json:"command"`
	Text     string  `json:"text"`
	Via      string  `json:"via"`
}

func tickSecs(ticks int64) float64 { return float64(ticks) / tickRate }

// playerOutcome: a race server has no winner among its players and no
// loser: a player who finished the map has won it, like a solo play
// cleared; leaving, or the recording ending, says nothing of a result.
func (ps *playerStats) outcome() model.Outcome {
	if len(ps.finishList) > 0 {
		return model.OutcomeWin
	}
	return model.OutcomeUnknown
}

func commandsJSON(cs []command) []commandJSON {
	out := make([]commandJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, commandJSON{Time: tickSecs(int64(c.frame)), Tick: c.frame, ClientID: int(c.cid),
			Command: c.name, Text: c.text, Via: c.via()})
	}
	return out
}

// native is the analysis as serverStats.
func (a *analysis) native() *serverStats {
	out := &serverStats{Players: make([]playerJSON, len(a.players)), ServerCommands: commandsJSON(a.server),
		TeamFinishes: make([]teamFinishJSON, 0, len(a.team))}
	for p := range a.players {
		ps, pl := &a.players[p], a.r.Players[p]
		j := playerJSON{Slot: pl.Slot, ClientID: clientID(pl), Name: pl.Name, Result: pl.Result, Outcome: ps.outcome(),
			TimeConnected: tickSecs(ps.connected), ConnectedAtStart: ps.carriedOverIn, Joins: ps.joins,
			Drops: make([]dropJSON, 0, len(ps.drops)), TeamChanges: ps.teamChanges, SelfKills: ps.selfKills,
			Finishes: make([]finishJSON, 0, len(ps.finishList)), Commands: commandsJSON(ps.commands),
			RconLogins: ps.logins, ChatLines: ps.chatLines, VotesCalled: ps.votesCalled, VotesCast: ps.votesCast}
		for _, d := range ps.drops {
			j.Drops = append(j.Drops, dropJSON{Time: tickSecs(int64(d.frame)), Tick: d.frame, Reason: d.reason})
		}
		for _, f := range ps.finishList {
			j.Finishes = append(j.Finishes, finishJSON{Time: tickSecs(int64(f.frame)), Tick: f.frame, RaceTime: tickSecs(int64(f.ticks))})
		}
		if len(ps.finishList) > 0 {
			best := tickSecs(int64(ps.best))
			j.BestTime = &best
		}
		out.Players[p] = j
	}
	for _, f := range a.team {
		out.TeamFinishes = append(out.TeamFinishes, teamFinishJSON{Time: tickSecs(int64(f.frame)), Tick: f.frame,
			Team: int(f.team), RaceTime: tickSecs(int64(f.ticks))})
	}
	return out
}
