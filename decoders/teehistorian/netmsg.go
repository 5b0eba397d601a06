package teehistorian

import (
	"fmt"
	"strconv"

	"rewind/model"
)

// Teeworlds 0.6 game message ids (DDNet keeps them); a message starts with
// the int id<<1 | system-bit. Id 0 without the system bit is DDNet's
// extended message: a UUID names it.
const (
	nmClSay              = 17
	nmClSetTeam          = 18
	nmClSetSpectatorMode = 19
	nmClStartInfo        = 20
	nmClChangeInfo       = 21
	nmClKill             = 22
	nmClEmoticon         = 23
	nmClVote             = 24
	nmClCallVote         = 25
	nmClIsDDNetLegacy    = 26
	nmClShowOthersLegacy = 31
)

var netMsgNames = []string{
	0: "NETMSG_EX", 1: "Sv_Motd", 2: "Sv_Broadcast", 3: "Sv_Chat", 4: "Sv_KillMsg", 5: "Sv_SoundGlobal",
	6: "Sv_TuneParams", 7: "Sv_ExtraProjectile", 8: "Sv_ReadyToEnter", 9: "Sv_WeaponPickup", 10: "Sv_Emoticon",
	11: "Sv_VoteClearOptions", 12: "Sv_VoteOptionListAdd", 13: "Sv_VoteOptionAdd", 14: "Sv_VoteOptionRemove",
	15: "Sv_VoteSet", 16: "Sv_VoteStatus", 17: "Cl_Say", 18: "Cl_SetTeam", 19: "Cl_SetSpectatorMode",
	20: "Cl_StartInfo", 21: "Cl_ChangeInfo", 22: "Cl_Kill", 23: "Cl_Emoticon", 24: "Cl_Vote", 25: "Cl_CallVote",
	26: "Cl_IsDDNetLegacy", 27: "Sv_DDRaceTimeLegacy", 28: "Sv_RecordLegacy", 29: "Sv_PlayerInfoLegacy",
	30: "Sv_TeamsStateLegacy", 31: "Cl_ShowOthersLegacy",
}

func netMsgName(id int32) string {
	if id >= 0 && int(id) < len(netMsgNames) {
		return netMsgNames[id]
	}
	return fmt.Sprintf("game message %d", id)
}

// Extended client messages DDNet defines by UUID name.
const (
	exShowDistance = "show-distance@netmsg.ddnet.tw"
	exShowOthers   = "showothers@netmsg.ddnet.tw"
	exCameraInfo   = "camera-info@netmsg.ddnet.org"
)

// netMsg decodes the packed game message of a MESSAGE record (f is at its
// first byte, end is its end), appends its fields to f and updates the
// sender's state. It returns the message name and the summary's detail.
func (d *decoder) netMsg(cid int32, f *fieldReader, end int) (string, string) {
	s := f.r.Pos
	v := f.r.Int()
	if f.r.Err() != nil {
		return "empty message", ""
	}
	id, sys := v>>1, v&1 != 0
	name := netMsgName(id)
	if sys {
		name = fmt.Sprintf("system message %d", id)
	}
	f.add(model.Field{Key: "msgId", Label: "Message id", Value: int64(id), Name: name, Span: f.span(s)})
	f.add(model.Field{Key: "system", Label: "System message", Value: sys, Span: f.span(s)})
	detail := ""
	if !sys {
		switch id {
		case 0:
			u := f.uuid("uuid", "Message UUID")
			if f.r.Err() != nil {
				break
			}
			name = d.uuidName(u)
			switch name {
			case exShowDistance:
				x := f.int("x", "X")
				y := f.int("y", "Y")
				detail = fmt.Sprintf("%d×%d", x, y)
			case exShowOthers:
				detail = "show " + strconv.Itoa(int(f.int("show", "Show")))
			case exCameraInfo:
				z := f.int("zoom", "Zoom")
				dz := f.int("deadzone", "Deadzone")
				ff := f.int("followFactor", "Follow factor")
				detail = fmt.Sprintf("zoom %d deadzone %d follow %d", z, dz, ff)
			}
		case nmClSay:
			team := f.int("team", "Team")
			msg := f.str("message", "Message")
			detail = fmt.Sprintf("team %d %q", team, msg)
		case nmClSetTeam:
			t := f.named("team", "Team", gameTeamName)
			detail = gameTeamName(t)
			if f.r.Err() == nil && d.live(cid) {
				in := d.info(cid)
				in.gameTeam, in.gameTeamKnown = t, true
			}
		case nmClSetSpectatorMode:
			detail = "spectate " + strconv.Itoa(int(f.int("spectatorId", "Spectator id")))
		case nmClStartInfo, nmClChangeInfo:
			pn := f.str("name", "Name")
			clan := f.str("clan", "Clan")
			country := f.int("country", "Country")
			skin := f.str("skin", "Skin")
			f.int("useCustomColor", "Use custom color")
			f.int("colorBody", "Body color")
			f.int("colorFeet", "Feet color")
			detail = fmt.Sprintf("name %q clan %q skin %q country %d", pn, clan, skin, country)
			if f.r.Err() == nil && d.live(cid) {
				in := d.info(cid)
				in.name, in.clan, in.skin, in.country = d.str(pn), d.str(clan), d.str(skin), country
				d.addName(cid, pn)
			}
		case nmClKill:
		case nmClEmoticon:
			detail = emoticonName(f.named("emoticon", "Emoticon", emoticonName))
		case nmClVote:
			detail = voteName(f.named("vote", "Vote", voteName))
		case nmClCallVote:
			t := f.str("type", "Type")
			val := f.str("value", "Value")
			reason := f.str("reason", "Reason")
			detail = fmt.Sprintf("%s %q reason %q", t, val, reason)
		case nmClIsDDNetLegacy:
			if f.r.Pos < end {
				detail = "version " + ddnetVersionName(f.named("ddnetVersion", "DDNet version", ddnetVersionName))
			}
		case nmClShowOthersLegacy:
			detail = "show " + strconv.Itoa(int(f.int("show", "Show")))
		}
	}
	if f.r.Err() == nil && f.r.Pos < end {
		f.raw("rest", "Undecoded bytes", end-f.r.Pos)
	}
	return name, detail
}
