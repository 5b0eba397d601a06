package teehistorian

import (
	"fmt"
	"sync"
	"time"

	"rewind/model"
)

// Extension names DDNet registers for teehistorian EX messages
// (src/engine/shared/teehistorian_ex_chunks.h). Their UUIDs are uuidOf(name).
const (
	extTest         = "teehistorian-test@ddnet.tw"
	extDDNetVerOld  = "teehistorian-ddnetver-old@ddnet.tw"
	extDDNetVer     = "teehistorian-ddnetver@ddnet.tw"
	extAuthInit     = "teehistorian-auth-init@ddnet.tw"
	extAuthLogin    = "teehistorian-auth-login@ddnet.tw"
	extAuthLogout   = "teehistorian-auth-logout@ddnet.tw"
	extJoinVer6     = "teehistorian-joinver6@ddnet.tw"
	extJoinVer7     = "teehistorian-joinver7@ddnet.tw"
	extPlayerSwap   = "teehistorian-player-swap@ddnet.tw"
	extSaveSuccess  = "teehistorian-save-success@ddnet.tw"
	extSaveFailure  = "teehistorian-save-failure@ddnet.tw"
	extLoadSuccess  = "teehistorian-load-success@ddnet.tw"
	extLoadFailure  = "teehistorian-load-failure@ddnet.tw"
	extPlayerTeam   = "teehistorian-player-team@ddnet.tw"
	extTeamPractice = "teehistorian-team-practice@ddnet.tw"
	extPlayerReady  = "teehistorian-player-ready@ddnet.tw"
	extRejoinVer6   = "teehistorian-rejoinver6@ddnet.org"
	extAntibot      = "teehistorian-antibot@ddnet.org"
	extPlayerName   = "teehistorian-player-name@ddnet.org"
	extPlayerFinish = "teehistorian-player-finish@ddnet.org"
	extTeamFinish   = "teehistorian-team-finish@ddnet.org"
)

var knownExtNames = []string{extTest, extDDNetVerOld, extDDNetVer, extAuthInit, extAuthLogin, extAuthLogout,
	extJoinVer6, extJoinVer7, extPlayerSwap, extSaveSuccess, extSaveFailure, extLoadSuccess, extLoadFailure,
	extPlayerTeam, extTeamPractice, extPlayerReady, extRejoinVer6, extAntibot, extPlayerName, extPlayerFinish,
	extTeamFinish, exShowDistance, exShowOthers, exCameraInfo}

// knownUUIDs maps the UUID of every name we have code for to the name,
// made on first use (each UUID is a hash).
var knownUUIDs = sync.OnceValue(func() map[uuid]string {
	m := make(map[uuid]string, len(knownExtNames))
	for _, n := range knownExtNames {
		m[uuidOf(n)] = n
	}
	return m
})

// uuidName names a UUID from our table or from the header's uuids list; an
// unnamed one shows as the UUID itself.
func (d *decoder) uuidName(u uuid) string {
	if n, ok := knownUUIDs()[u]; ok {
		return n
	}
	if n, ok := d.headerUUIDs[u]; ok {
		return n
	}
	return u.String()
}

func ticksText(t int32) string {
	return fmt.Sprintf("%s (%d ticks)", model.FormatDuration(time.Duration(t)*20*time.Millisecond), t)
}

// ex decodes the payload of an EX message: f is at the payload, end is its
// end. It fills ev (kind, player, notable), says the summary when summing
// and updates player state.
func (d *decoder) ex(name string, f *fieldReader, end int, ev *model.Event) {
	cidField := func() int32 { return f.int("cid", "Client id") }
	ok := func() bool { return f.r.Err() == nil }
	switch name {
	case extTest:
		ev.Kind = kTest
		d.say("teehistorian test message")
	case extDDNetVerOld:
		cid := cidField()
		v := f.named("version", "DDNet version", ddnetVersionName)
		ev.Kind, ev.Player = kVersion, clientPlayer(cid)
		if ok() {
			if who := d.who(cid); d.summing {
				d.say(fmt.Sprintf("%s runs DDNet %s (%d)", who, ddnetVersionName(v), v))
			}
			if d.live(cid) {
				d.info(cid).ddnetVer = v
			}
		}
	case extDDNetVer:
		cid := cidField()
		f.uuid("connectionId", "Connection id")
		v := f.named("version", "DDNet version", ddnetVersionName)
		vs := f.str("versionStr", "Version string")
		ev.Kind, ev.Player = kVersion, clientPlayer(cid)
		if ok() {
			if who := d.who(cid); d.summing {
				d.say(fmt.Sprintf("%s runs %s (%d)", who, vs, v))
			}
			if d.live(cid) {
				in := d.info(cid)
				in.ddnetVer, in.verStr = v, d.str(vs)
			}
		}
	case extAuthInit, extAuthLogin:
		cid := cidField()
		lvl := f.named("level", "Auth level", authLevelName)
		an := f.str("authName", "Auth name")
		ev.Kind, ev.Player, ev.Flags = kAuth, clientPlayer(cid), model.Notable
		if ok() {
			verb := "logs in to rcon"
			if name == extAuthInit {
				verb = "keeps rcon access from the previous map"
			}
			if who := d.who(cid); d.summing {
				d.say(fmt.Sprintf("%s %s as %q (%s)", who, verb, an, authLevelName(lvl)))
			}
			if d.live(cid) {
				in := d.info(cid)
				in.auth, in.authName = lvl, d.str(an)
			}
		}
	case extAuthLogout:
		cid := cidField()
		ev.Kind, ev.Player, ev.Flags = kAuth, clientPlayer(cid), model.Notable
		if ok() {
			if who := d.who(cid); d.summing {
				d.say(who + " logs out of rcon")
			}
			if d.live(cid) {
				in := d.info(cid)
				in.auth, in.authName = 0, 0
			}
		}
	case extJoinVer6, extJoinVer7, extRejoinVer6:
		cid := cidField()
		ev.Kind, ev.Player = kJoin, clientPlayer(cid)
		if ok() {
			p := int8(6)
			what := "joins with protocol 0.6"
			switch name {
			case extJoinVer7:
				p, what = 7, "joins with protocol 0.7"
			case extRejoinVer6:
				what = "rejoins with protocol 0.6"
			}
			if who := d.who(cid); d.summing {
				d.say(who + " " + what)
			}
			if d.live(cid) {
				d.info(cid).protocol = p
			}
		}
	case extPlayerSwap:
		a := f.int("cid1", "Client id 1")
		b := f.int("cid2", "Client id 2")
		ev.Kind, ev.Player, ev.Flags = kSwap, clientPlayer(a), model.Notable
		if ok() {
			if wa, wb := d.who(a), d.who(b); d.summing {
				d.say(fmt.Sprintf("%s and %s swap tees", wa, wb))
			}
		}
	case extSaveSuccess, extLoadSuccess:
		team := f.int("team", "Team")
		id := f.uuid("saveId", "Save id")
		save := f.str("save", "Save")
		ev.Kind, ev.Flags = kSave, model.Notable
		verb := "saved"
		if name == extLoadSuccess {
			ev.Kind, verb = kLoad, "loaded"
		}
		if ok() {
			if d.summing {
				d.say(fmt.Sprintf("team %d %s (save %s, %d bytes)", team, verb, id, len(save)))
			}
		}
	case extSaveFailure, extLoadFailure:
		team := f.int("team", "Team")
		ev.Kind = kSave
		verb := "save"
		if name == extLoadFailure {
			ev.Kind, verb = kLoad, "load"
		}
		if ok() {
			if d.summing {
				d.say(fmt.Sprintf("team %d: %s failed", team, verb))
			}
		}
	case extPlayerTeam:
		cid := cidField()
		team := f.int("team", "Team")
		ev.Kind, ev.Player, ev.Flags = kTeam, clientPlayer(cid), model.Notable
		if ok() {
			if who := d.who(cid); d.summing {
				d.say(fmt.Sprintf("%s joins team %d", who, team))
			}
			if d.live(cid) {
				in := d.info(cid)
				in.team, in.teamKnown = team, true
			}
		}
	case extTeamPractice:
		team := f.int("team", "Team")
		pr := f.int("practice", "Practice")
		ev.Kind = kPractice
		if ok() {
			state := "leaves"
			if pr != 0 {
				state = "enters"
			}
			if d.summing {
				d.say(fmt.Sprintf("team %d %s practice mode", team, state))
			}
		}
	case extPlayerReady:
		cid := cidField()
		ev.Kind, ev.Player = kReady, clientPlayer(cid)
		if ok() {
			if who := d.who(cid); d.summing {
				d.say(who + " is ready")
			}
			if d.live(cid) {
				d.info(cid).ready = true
			}
		}
	case extAntibot:
		b := f.raw("data", "Antibot data", end-f.r.Pos)
		ev.Kind = kAntibot
		if d.summing {
			d.say(fmt.Sprintf("antibot data (%d bytes)", len(b)))
		}
	case extPlayerName:
		cid := cidField()
		pn := f.str("name", "Name")
		ev.Kind, ev.Player = kName, clientPlayer(cid)
		if ok() {
			if who := d.who(cid); d.summing {
				d.say(fmt.Sprintf("%s is named %q", who, pn))
			}
			if d.live(cid) {
				d.info(cid).name = d.str(pn)
				d.addName(cid, pn)
			}
		}
	case extPlayerFinish:
		cid := cidField()
		t := f.named("time", "Time", ticksText)
		ev.Kind, ev.Player, ev.Flags = kFinish, clientPlayer(cid), model.Notable
		if ok() {
			if who := d.who(cid); d.summing {
				d.say(fmt.Sprintf("%s finishes in %s", who, ticksText(t)))
			}
			if d.live(cid) {
				d.slots[cid].finishes++
			}
		}
	case extTeamFinish:
		team := f.int("team", "Team")
		t := f.named("time", "Time", ticksText)
		ev.Kind, ev.Flags = kFinish, model.Notable
		if ok() {
			if d.summing {
				d.say(fmt.Sprintf("team %d finishes in %s", team, ticksText(t)))
			}
		}
	default:
		b := f.raw("data", "Data", end-f.r.Pos)
		ev.Kind = kEx
		if d.summing {
			d.say(fmt.Sprintf("extension %s (%d bytes)", name, len(b)))
		}
	}
}
