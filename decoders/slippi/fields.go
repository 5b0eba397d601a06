package slippi

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"rewind/model"
)

// ver packs major.minor.build for comparisons.
func ver(major, minor, build int) uint32 { return uint32(major)<<16 | uint32(minor)<<8 | uint32(build) }

func verString(v uint32) string {
	return fmt.Sprintf("%d.%d.%d", v>>16, v>>8&0xff, v&0xff)
}

type ftype uint8

const (
	tU8 ftype = iota
	tI8
	tBool
	tU16
	tU32
	tI32
	tF32
	tSJIS  // Shift JIS text, n bytes, NUL terminated
	tUTF8  // ASCII/UTF-8 text, n bytes, NUL terminated
	tBytes // n raw bytes
)

func (t ftype) size(n int) int {
	switch t {
	case tU8, tI8, tBool:
		return 1
	case tU16:
		return 2
	case tU32, tI32, tF32:
		return 4
	}
	return n
}

// namer says what a value means.
type namer uint8

const (
	nNone namer = iota
	nAction
	nIntChar
	nExtChar
	nStage
	nAttack
	nItem
	nButtons
	nPhysButtons
	nFlags1
	nFlags2
	nFlags3
	nFlags4
	nFlags5
	nLCancel
	nHurtbox
	nAirborne
	nPort
	nFacing
	nEndMethod
	nPlayerType
	nTeamShade
	nTeam
	nPlayerBits
	nFix
	nLanguage
	nGameBits1
	nGameBits2
	nGameBits3
	nGameBits4
	nItemBits1
	nItemBits2
	nItemBits3
	nItemBits4
	nItemBits5
	nItemFreq
	nFodSide
	nWhispy
	nStadiumEvent
	nStadiumForm
	nTurnip
	nMissile
	nScene
)

// fdef is one field of an event, at an offset from the command byte.
type fdef struct {
	key, label string
	off        int
	typ        ftype
	n          int
	added      uint32
	name       namer
}

func (d *fdef) end() int { return d.off + d.typ.size(d.n) }

var v010, v020, v120, v140, v200, v210, v220, v300, v320, v350, v360, v370, v380, v3100, v3110, v3160, v3150 = ver(0, 1, 0), ver(0, 2, 0), ver(1, 2, 0), ver(1, 4, 0), ver(2, 0, 0), ver(2, 1, 0), ver(2, 2, 0), ver(3, 0, 0), ver(3, 2, 0), ver(3, 5, 0), ver(3, 6, 0), ver(3, 7, 0), ver(3, 8, 0), ver(3, 10, 0), ver(3, 11, 0), ver(3, 16, 0), ver(3, 15, 0)

var preDefs = []fdef{
	{"frameNumber", "Frame Number", 0x1, tI32, 0, v010, nNone},
	{"playerIndex", "Player Index", 0x5, tU8, 0, v010, nPort},
	{"isFollower", "Is Follower", 0x6, tBool, 0, v010, nNone},
	{"randomSeed", "Random Seed", 0x7, tU32, 0, v010, nNone},
	{"actionStateId", "Action State ID", 0xB, tU16, 0, v010, nAction},
	{"xPosition", "X Position", 0xD, tF32, 0, v010, nNone},
	{"yPosition", "Y Position", 0x11, tF32, 0, v010, nNone},
	{"facingDirection", "Facing Direction", 0x15, tF32, 0, v010, nFacing},
	{"joystickX", "Joystick X", 0x19, tF32, 0, v010, nNone},
	{"joystickY", "Joystick Y", 0x1D, tF32, 0, v010, nNone},
	{"cStickX", "C-Stick X", 0x21, tF32, 0, v010, nNone},
	{"cStickY", "C-Stick Y", 0x25, tF32, 0, v010, nNone},
	{"trigger", "Trigger", 0x29, tF32, 0, v010, nNone},
	{"processedButtons", "Processed Buttons", 0x2D, tU32, 0, v010, nButtons},
	{"physicalButtons", "Physical Buttons", 0x31, tU16, 0, v010, nPhysButtons},
	{"physicalLTrigger", "Physical L Trigger", 0x33, tF32, 0, v010, nNone},
	{"physicalRTrigger", "Physical R Trigger", 0x37, tF32, 0, v010, nNone},
	{"xAnalogForUcf", "X analog for UCF", 0x3B, tI8, 0, v120, nNone},
	{"percent", "Percent", 0x3C, tF32, 0, v140, nNone},
	{"yAnalogForUcf", "Y analog for UCF", 0x40, tI8, 0, v3150, nNone},
}

var postDefs = []fdef{
	{"frameNumber", "Frame Number", 0x1, tI32, 0, v010, nNone},
	{"playerIndex", "Player Index", 0x5, tU8, 0, v010, nPort},
	{"isFollower", "Is Follower", 0x6, tBool, 0, v010, nNone},
	{"internalCharacterId", "Internal Character ID", 0x7, tU8, 0, v010, nIntChar},
	{"actionStateId", "Action State ID", 0x8, tU16, 0, v010, nAction},
	{"xPosition", "X Position", 0xA, tF32, 0, v010, nNone},
	{"yPosition", "Y Position", 0xE, tF32, 0, v010, nNone},
	{"facingDirection", "Facing Direction", 0x12, tF32, 0, v010, nFacing},
	{"percent", "Percent", 0x16, tF32, 0, v010, nNone},
	{"shieldSize", "Shield Size", 0x1A, tF32, 0, v010, nNone},
	{"lastHittingAttackId", "Last Hitting Attack ID", 0x1E, tU8, 0, v010, nAttack},
	{"currentComboCount", "Current Combo Count", 0x1F, tU8, 0, v010, nNone},
	{"lastHitBy", "Last Hit By", 0x20, tU8, 0, v010, nPort},
	{"stocksRemaining", "Stocks Remaining", 0x21, tU8, 0, v010, nNone},
	{"actionStateFrameCounter", "Action State Frame Counter", 0x22, tF32, 0, v020, nNone},
	{"stateBitFlags1", "State Bit Flags 1", 0x26, tU8, 0, v200, nFlags1},
	{"stateBitFlags2", "State Bit Flags 2", 0x27, tU8, 0, v200, nFlags2},
	{"stateBitFlags3", "State Bit Flags 3", 0x28, tU8, 0, v200, nFlags3},
	{"stateBitFlags4", "State Bit Flags 4", 0x29, tU8, 0, v200, nFlags4},
	{"stateBitFlags5", "State Bit Flags 5", 0x2A, tU8, 0, v200, nFlags5},
	{"miscAs", "Misc AS (Hitstun remaining)", 0x2B, tF32, 0, v200, nNone},
	{"groundAirState", "Ground/Air State", 0x2F, tBool, 0, v200, nAirborne},
	{"lastGroundId", "Last Ground ID", 0x30, tU16, 0, v200, nNone},
	{"jumpsRemaining", "Jumps Remaining", 0x32, tU8, 0, v200, nNone},
	{"lCancelStatus", "L-Cancel Status", 0x33, tU8, 0, v200, nLCancel},
	{"hurtboxCollisionState", "Hurtbox Collision State", 0x34, tU8, 0, v210, nHurtbox},
	{"selfInducedAirXSpeed", "Self-induced Air x Speed", 0x35, tF32, 0, v350, nNone},
	{"selfInducedYSpeed", "Self-induced y Speed", 0x39, tF32, 0, v350, nNone},
	{"attackBasedXSpeed", "Attack-based x Speed", 0x3D, tF32, 0, v350, nNone},
	{"attackBasedYSpeed", "Attack-based y Speed", 0x41, tF32, 0, v350, nNone},
	{"selfInducedGroundXSpeed", "Self-induced Ground x Speed", 0x45, tF32, 0, v350, nNone},
	{"hitlagFramesRemaining", "Hitlag frames remaining", 0x49, tF32, 0, v380, nNone},
	{"animationIndex", "Animation Index", 0x4D, tU32, 0, v3110, nNone},
	{"instanceHitBy", "Instance Hit By", 0x51, tU16, 0, v3160, nNone},
	{"instanceId", "Instance ID", 0x53, tU16, 0, v3160, nNone},
}

var itemDefs = []fdef{
	{"frameNumber", "Frame Number", 0x1, tI32, 0, v300, nNone},
	{"typeId", "Type ID", 0x5, tU16, 0, v300, nItem},
	{"state", "State", 0x7, tU8, 0, v300, nNone},
	{"facingDirection", "Facing Direction", 0x8, tF32, 0, v300, nFacing},
	{"xVelocity", "X Velocity", 0xC, tF32, 0, v300, nNone},
	{"yVelocity", "Y Velocity", 0x10, tF32, 0, v300, nNone},
	{"xPosition", "X Position", 0x14, tF32, 0, v300, nNone},
	{"yPosition", "Y Position", 0x18, tF32, 0, v300, nNone},
	{"damageTaken", "Damage Taken", 0x1C, tU16, 0, v300, nNone},
	{"expirationTimer", "Expiration Timer", 0x1E, tF32, 0, v300, nNone},
	{"spawnId", "Spawn ID", 0x22, tU32, 0, v300, nNone},
	{"misc1", "Misc #1", 0x26, tU8, 0, v320, nMissile},
	{"misc2", "Misc #2", 0x27, tU8, 0, v320, nTurnip},
	{"misc3", "Misc #3", 0x28, tU8, 0, v320, nNone},
	{"misc4", "Misc #4", 0x29, tU8, 0, v320, nNone},
	{"owner", "Owner", 0x2A, tI8, 0, v360, nPort},
	{"instanceId", "Instance ID", 0x2B, tU16, 0, v3160, nNone},
}

var frameStartDefs = []fdef{
	{"frameNumber", "Frame Number", 0x1, tI32, 0, v220, nNone},
	{"randomSeed", "Random Seed", 0x5, tU32, 0, v220, nNone},
	{"sceneFrameCounter", "Scene Frame Counter", 0x9, tU32, 0, v3100, nNone},
}

var bookendDefs = []fdef{
	{"frameNumber", "Frame Number", 0x1, tI32, 0, v300, nNone},
	{"latestFinalizedFrame", "Latest Finalized Frame", 0x5, tI32, 0, v370, nNone},
}

var gameEndDefs = []fdef{
	{"gameEndMethod", "Game End Method", 0x1, tU8, 0, v010, nEndMethod},
	{"lrasInitiator", "LRAS Initiator", 0x2, tI8, 0, v200, nPort},
	{"playerPlacementP1", "Player Placements (P1)", 0x3, tI8, 0, ver(3, 13, 0), nNone},
	{"playerPlacementP2", "Player Placements (P2)", 0x4, tI8, 0, ver(3, 13, 0), nNone},
	{"playerPlacementP3", "Player Placements (P3)", 0x5, tI8, 0, ver(3, 13, 0), nNone},
	{"playerPlacementP4", "Player Placements (P4)", 0x6, tI8, 0, ver(3, 13, 0), nNone},
}

// Stage events are not in the spec's table; their layouts follow the
// recorders that write them. They appear from 3.17 but are not gated by
// version: a file that has them has them.
var fodDefs = []fdef{
	{"frameNumber", "Frame Number", 0x1, tI32, 0, 0, nNone},
	{"platform", "Platform", 0x5, tI8, 0, 0, nFodSide},
	{"height", "Height", 0x6, tF32, 0, 0, nNone},
}

var whispyDefs = []fdef{
	{"frameNumber", "Frame Number", 0x1, tI32, 0, 0, nNone},
	{"direction", "Direction", 0x5, tI8, 0, 0, nWhispy},
}

var stadiumDefs = []fdef{
	{"frameNumber", "Frame Number", 0x1, tI32, 0, 0, nNone},
	{"event", "Event", 0x5, tU16, 0, 0, nStadiumEvent},
	{"transformation", "Transformation", 0x7, tU16, 0, 0, nStadiumForm},
}

var splitDefs = []fdef{
	{"fixedSizeBlock", "Fixed Size Block", 0x1, tBytes, 512, 0, nNone},
	{"actualSize", "Actual Size", 0x201, tU16, 0, 0, nNone},
	{"internalCommand", "Internal Command", 0x203, tU8, 0, 0, nNone},
	{"lastMessage", "Last Message", 0x204, tBool, 0, 0, nNone},
}

// Game Start: offsets from the command byte (Game Info Block offsets + 5).
var gameStartDefs = []fdef{
	{"gameBitfield1", "Game Bitfield 1", 0x5, tU8, 0, v010, nGameBits1},
	{"gameBitfield2", "Game Bitfield 2", 0x6, tU8, 0, v010, nGameBits2},
	{"gameBitfield3", "Game Bitfield 3", 0x7, tU8, 0, v010, nGameBits3},
	{"gameBitfield4", "Game Bitfield 4", 0x8, tU8, 0, v010, nGameBits4},
	{"bombRain", "Bomb Rain", 0xB, tU8, 0, v010, nNone},
	{"isTeams", "Is Teams", 0xD, tBool, 0, v010, nNone},
	{"itemSpawnBehavior", "Item Spawn Behavior", 0x10, tI8, 0, v010, nItemFreq},
	{"selfDestructScoreValue", "Self Destruct Score Value", 0x11, tI8, 0, v010, nNone},
	{"stage", "Stage", 0x13, tU16, 0, v010, nStage},
	{"gameTimer", "Game Timer", 0x15, tU32, 0, v010, nNone},
	{"itemSpawnBitfield1", "Item Spawn Bitfield 1", 0x28, tU8, 0, v010, nItemBits1},
	{"itemSpawnBitfield2", "Item Spawn Bitfield 2", 0x29, tU8, 0, v010, nItemBits2},
	{"itemSpawnBitfield3", "Item Spawn Bitfield 3", 0x2A, tU8, 0, v010, nItemBits3},
	{"itemSpawnBitfield4", "Item Spawn Bitfield 4", 0x2B, tU8, 0, v010, nItemBits4},
	{"itemSpawnBitfield5", "Item Spawn Bitfield 5", 0x2C, tU8, 0, v010, nItemBits5},
	{"damageRatio", "Damage Ratio", 0x35, tF32, 0, v010, nNone},
	{"randomSeed", "Random Seed", 0x13D, tU32, 0, v010, nNone},
	{"pal", "PAL", 0x1A1, tBool, 0, ver(1, 5, 0), nNone},
	{"frozenPs", "Frozen PS", 0x1A2, tBool, 0, v200, nNone},
	{"minorScene", "Minor Scene", 0x1A3, tU8, 0, v370, nNone},
	{"majorScene", "Major Scene", 0x1A4, tU8, 0, v370, nScene},
	{"languageOption", "Language Option", 0x2BD, tU8, 0, ver(3, 12, 0), nLanguage},
	{"matchId", "Match ID", 0x2BE, tUTF8, 51, ver(3, 14, 0), nNone},
	{"gameNumber", "Game Number", 0x2F1, tU32, 0, ver(3, 14, 0), nNone},
	{"tiebreakerNumber", "Tiebreaker Number", 0x2F5, tU32, 0, ver(3, 14, 0), nNone},
}

// gameStartPortDefs are per port i: off is for port 0, step is added per port.
var gameStartPortDefs = []struct {
	fdef
	step int
}{
	{fdef{"externalCharacterId", "External Character ID", 0x65, tU8, 0, v010, nExtChar}, 0x24},
	{fdef{"playerType", "Player Type", 0x66, tU8, 0, v010, nPlayerType}, 0x24},
	{fdef{"stockStartCount", "Stock Start Count", 0x67, tU8, 0, v010, nNone}, 0x24},
	{fdef{"costumeIndex", "Costume Index", 0x68, tU8, 0, v010, nNone}, 0x24},
	{fdef{"teamShade", "Team Shade", 0x6C, tU8, 0, v010, nTeamShade}, 0x24},
	{fdef{"handicap", "Handicap", 0x6D, tU8, 0, v010, nNone}, 0x24},
	{fdef{"teamId", "Team ID", 0x6E, tU8, 0, v010, nTeam}, 0x24},
	{fdef{"playerBitfield", "Player Bitfield", 0x71, tU8, 0, v010, nPlayerBits}, 0x24},
	{fdef{"cpuLevel", "CPU Level", 0x74, tU8, 0, v010, nNone}, 0x24},
	{fdef{"damageStart", "Damage Start", 0x75, tU16, 0, v010, nNone}, 0x24},
	{fdef{"damageSpawn", "Damage Spawn", 0x77, tU16, 0, v010, nNone}, 0x24},
	{fdef{"offenseRatio", "Offense Ratio", 0x7D, tF32, 0, v010, nNone}, 0x24},
	{fdef{"defenseRatio", "Defense Ratio", 0x81, tF32, 0, v010, nNone}, 0x24},
	{fdef{"modelScale", "Model Scale", 0x85, tF32, 0, v010, nNone}, 0x24},
	{fdef{"dashbackFix", "Dashback Fix", 0x141, tU32, 0, ver(1, 0, 0), nFix}, 0x8},
	{fdef{"shieldDropFix", "Shield Drop Fix", 0x145, tU32, 0, ver(1, 0, 0), nFix}, 0x8},
	{fdef{"nametag", "Nametag", 0x161, tSJIS, 0x10, ver(1, 3, 0), nNone}, 0x10},
	{fdef{"displayName", "Display Name", 0x1A5, tSJIS, 0x1F, ver(3, 9, 0), nNone}, 0x1F},
	{fdef{"connectCode", "Connect Code", 0x221, tSJIS, 0xA, ver(3, 9, 0), nNone}, 0xA},
	{fdef{"slippiUid", "Slippi UID", 0x249, tUTF8, 0x1D, v3110, nNone}, 0x1D},
}

// implied is the event size (command byte included) a version implies.
func implied(defs []fdef, v uint32) int {
	n := 1
	for i := range defs {
		if defs[i].added <= v && defs[i].end() > n {
			n = defs[i].end()
		}
	}
	return n
}

// nameCtx carries what naming needs beyond the value.
type nameCtx struct {
	char int    // internal character for action states, -1 unknown
	ver  uint32 // replay version
}

// decodeFields decodes the fields of the event at data[off:off+size] that
// exist in version v, naming them, with file spans.
func decodeFields(data []byte, off, size int, defs []fdef, ctx nameCtx) []model.Field {
	ev := data[off : off+size]
	out := make([]model.Field, 0, len(defs)+1)
	known := 1
	for i := range defs {
		d := &defs[i]
		if d.added > ctx.ver || d.end() > size {
			continue
		}
		out = append(out, decodeField(ev, off, d, d.off, ctx))
		if d.end() > known {
			known = d.end()
		}
	}
	if size > known {
		out = append(out, model.Field{Key: "extra", Label: "Extra bytes", Value: append([]byte(nil), ev[known:]...),
			Span: model.Span{Off: int64(off + known), Len: int64(size - known)}})
	}
	return out
}

// f32 turns a float32 into the float64 with the same shortest decimal
// form, so 56.81875 reads as 56.81875 and not 56.818748474121094.
func f32(bits uint32) float64 {
	f := math.Float32frombits(bits)
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return float64(f)
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return v
}

// decodeField decodes one field at ev[at:] (ev starts at file offset base).
func decodeField(ev []byte, base int, d *fdef, at int, ctx nameCtx) model.Field {
	f := model.Field{Key: d.key, Label: d.label, Span: model.Span{Off: int64(base + at), Len: int64(d.typ.size(d.n))}}
	b := ev[at:]
	var iv int64
	switch d.typ {
	case tU8:
		iv = int64(b[0])
		f.Value = iv
	case tI8:
		iv = int64(int8(b[0]))
		f.Value = iv
	case tBool:
		iv = int64(b[0])
		f.Value = b[0] != 0
	case tU16:
		iv = int64(binary.BigEndian.Uint16(b))
		f.Value = iv
	case tU32:
		iv = int64(binary.BigEndian.Uint32(b))
		f.Value = iv
	case tI32:
		iv = int64(int32(binary.BigEndian.Uint32(b)))
		f.Value = iv
	case tF32:
		fv := f32(binary.BigEndian.Uint32(b))
		f.Value = fv
		if d.name == nFacing {
			switch {
			case fv < 0:
				f.Name = "left"
			case fv > 0:
				f.Name = "right"
			}
		}
		return f
	case tSJIS:
		raw := b[:d.n]
		s := sjis(raw)
		f.Value = s
		f.Fields = []model.Field{{Key: "raw", Label: "Raw bytes", Value: append([]byte(nil), raw...), Span: f.Span}}
		return f
	case tUTF8:
		f.Value = cstring(b[:d.n])
		return f
	case tBytes:
		f.Value = append([]byte(nil), b[:d.n]...)
		return f
	}
	f.Name = nameOf(d.name, iv, ctx)
	return f
}

func cstring(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

var buttonBits = []struct {
	bit  uint32
	name string
}{
	{0x0100, "A"}, {0x0200, "B"}, {0x0400, "X"}, {0x0800, "Y"}, {0x0010, "Z"},
	{0x0040, "L"}, {0x0020, "R"}, {0x1000, "Start"},
	{0x0008, "DUp"}, {0x0004, "DDown"}, {0x0001, "DLeft"}, {0x0002, "DRight"},
	{0x00010000, "JoyUp"}, {0x00020000, "JoyDown"}, {0x00040000, "JoyLeft"}, {0x00080000, "JoyRight"},
	{0x00100000, "CUp"}, {0x00200000, "CDown"}, {0x00400000, "CLeft"}, {0x00800000, "CRight"},
	{0x80000000, "AnyTrigger"},
}

// buttonNames writes a button set as "A+Z"; bits the spec calls unused
// appear as hex so that nothing is hidden.
func buttonNames(v uint32) string {
	if v == 0 {
		return ""
	}
	var sb strings.Builder
	rest := v
	for _, b := range buttonBits {
		if v&b.bit != 0 {
			if sb.Len() > 0 {
				sb.WriteByte('+')
			}
			sb.WriteString(b.name)
			rest &^= b.bit
		}
	}
	if rest != 0 {
		if sb.Len() > 0 {
			sb.WriteByte('+')
		}
		fmt.Fprintf(&sb, "%#x", rest)
	}
	return sb.String()
}

// bitNames names the set bits of a byte from an 8-entry table (bit 0
// first); an empty entry is an unknown bit, written as hex.
func bitNames(v int64, table *[8]string) string {
	if v == 0 {
		return ""
	}
	var parts []string
	for i := 0; i < 8; i++ {
		if v&(1<<i) == 0 {
			continue
		}
		if table[i] != "" {
			parts = append(parts, table[i])
		} else {
			parts = append(parts, fmt.Sprintf("%#02x", 1<<i))
		}
	}
	return strings.Join(parts, "+")
}

var (
	flags1     = [8]string{1: "absorber", 3: "reflect-keeps-owner", 4: "reflect"}
	flags2     = [8]string{2: "subaction-invulnerable", 3: "fastfall", 4: "defender-hitlag", 5: "hitlag"}
	flags3     = [8]string{2: "grabbing", 7: "shield"}
	flags4     = [8]string{1: "hitstun", 2: "touching-shield", 5: "powershield"}
	flags5     = [8]string{1: "cloaked", 3: "follower", 4: "inactive", 6: "dead", 7: "offscreen"}
	gameBits2  = [8]string{"friendly-fire", "break-the-targets/demo", "classic/adventure", "home-run/event", "all-star-waiting", "all-star-waiting2", "all-star", "all-star2"}
	gameBits3  = [8]string{4: "single-button", 7: "pause"}
	gameBits4  = [8]string{"timer-in-pause", "hud-hidden-in-pause", "lrastart-shown", "lrastart-zretry-hidden", "zretry-shown", 6: "analog-ui-shown", 7: "score-shown"}
	itemBits1  = [8]string{"Metal Box", "Cloaking Device", "Poké Ball"}
	itemBits2  = [8]string{"Fan", "Fire Flower", "Super Mushroom", "Poison Mushroom", "Hammer", "Warp Star", "Screw Attack", "Bunny Hood"}
	itemBits3  = [8]string{"Ray Gun", "Freezie", "Food", "Motion-Sensor Bomb", "Flipper", "Super Scope", "Star Rod", "Lip's Stick"}
	itemBits4  = [8]string{"Heart Container", "Maxim Tomato", "Starman", "Home-Run Bat", "Beam Sword", "Parasol", "Green Shell", "Red Shell"}
	itemBits5  = [8]string{"Capsule", "Box", "Barrel", "Egg", "Party Ball", "Barrel Cannon", "Bob-omb", "Mr. Saturn"}
	playerBits = [8]string{"stamina", "silent", "low-gravity", "invisible", "black-stock-icon", "metal", "warp-in-platform", "rumble"}
)

func pick(v int64, names ...string) string {
	if v >= 0 && v < int64(len(names)) {
		return names[v]
	}
	return ""
}

// nameOf names an integer value.
func nameOf(n namer, v int64, ctx nameCtx) string {
	switch n {
	case nAction:
		return actionName(int(v), ctx.char)
	case nIntChar:
		return internalName(int(v))
	case nExtChar:
		return externalName(int(v))
	case nStage:
		return stageName(int(v))
	case nAttack:
		if v == 0 {
			return ""
		}
		return moveName(int(v))
	case nItem:
		return itemName(int(v))
	case nButtons:
		return buttonNames(uint32(v))
	case nPhysButtons:
		return buttonNames(uint32(v) & 0xffff)
	case nFlags1:
		return bitNames(v, &flags1)
	case nFlags2:
		return bitNames(v, &flags2)
	case nFlags3:
		return bitNames(v, &flags3)
	case nFlags4:
		return bitNames(v, &flags4)
	case nFlags5:
		return bitNames(v, &flags5)
	case nLCancel:
		return pick(v, "none", "successful", "unsuccessful")
	case nHurtbox:
		return pick(v, "vulnerable", "invulnerable", "intangible")
	case nAirborne:
		if v != 0 {
			return "airborne"
		}
		return "grounded"
	case nPort:
		if v >= 0 && v < maxSlots {
			return fmt.Sprintf("P%d", v+1)
		}
		return ""
	case nEndMethod:
		return endMethodName(v, ctx.ver)
	case nPlayerType:
		return pick(v, "human", "CPU", "demo", "empty")
	case nTeamShade:
		return pick(v, "normal", "light", "dark")
	case nTeam:
		return pick(v, "red", "blue", "green")
	case nPlayerBits:
		return bitNames(v, &playerBits)
	case nFix:
		return pick(v, "off", "UCF", "Dween")
	case nLanguage:
		return pick(v, "Japanese", "English")
	case nGameBits1:
		timer := pick(v&3, "no timer", "timer?1", "countdown", "count up")
		mode := pick(v>>5&7, "time", "stock", "coin", "bonus")
		return fmt.Sprintf("%s, %d places, %s", timer, v>>2&7, mode)
	case nGameBits2:
		return bitNames(v, &gameBits2)
	case nGameBits3:
		return bitNames(v, &gameBits3)
	case nGameBits4:
		return bitNames(v, &gameBits4)
	case nItemBits1:
		return bitNames(v, &itemBits1)
	case nItemBits2:
		return bitNames(v, &itemBits2)
	case nItemBits3:
		return bitNames(v, &itemBits3)
	case nItemBits4:
		return bitNames(v, &itemBits4)
	case nItemBits5:
		return bitNames(v, &itemBits5)
	case nItemFreq:
		if v == -1 {
			return "off"
		}
		if s := pick(v, "very low", "low", "medium", "high", "very high"); s != "" {
			return s
		}
		return "even higher"
	case nFodSide:
		return pick(v, "right", "left")
	case nWhispy:
		return pick(v, "none", "left", "right")
	case nStadiumEvent:
		return pick(v, "", "", "initiate", "on monitor", "receding", "rising", "finish")
	case nStadiumForm:
		return pick(v, "", "", "", "fire", "grass", "normal", "rock", "", "", "water")
	case nTurnip:
		return pick(v, "smile", "T eyes", "line eyes", "circle eyes", "upward curve", "wink", "dot eyes", "stitch face")
	case nScene:
		return sceneName(int(v))
	}
	return ""
}

// endMethodName names how a game ended. Before 2.0.0 Slippi wrote its own
// two values; from 2.0.0 the byte is Melee's match result, whose values
// past the spec's three are named in bkacjios/m-overlay source/melee.lua
// (MATCH_* constants): single-player modes end with a stage clear, a
// failure, a new record or a "game clear" (Home-Run Contest and
// Multi-Man Melee write 9).
func endMethodName(v int64, version uint32) string {
	if version < v200 {
		switch v {
		case 0:
			return "Unresolved"
		case 3:
			return "Resolved"
		}
		return ""
	}
	return pick(v, "Unresolved", "TIME!", "GAME!", "Stage Clear", "Stage Failure", "Stage Clear", "New Record", "No Contest", "Retry", "Game Clear")
}
