package teehistorian

import (
	"crypto/md5"
	"fmt"
	"strings"
)

// Message ids of the stream. 0..63 are PLAYER_DIFF for that client id.
const (
	idFinish         = -1
	idTickSkip       = -2
	idPlayerNew      = -3
	idPlayerOld      = -4
	idInputDiff      = -5
	idInputNew       = -6
	idMessage        = -7
	idJoin           = -8
	idDrop           = -9
	idConsoleCommand = -10
	idEx             = -11
)

// maxClients is DDNet's MAX_CLIENTS: PLAYER_DIFF ids run 0..63.
const maxClients = 64

var msgNames = map[int32]string{
	idFinish: "FINISH", idTickSkip: "TICK_SKIP", idPlayerNew: "PLAYER_NEW", idPlayerOld: "PLAYER_OLD",
	idInputDiff: "INPUT_DIFF", idInputNew: "INPUT_NEW", idMessage: "MESSAGE", idJoin: "JOIN",
	idDrop: "DROP", idConsoleCommand: "CONSOLE_COMMAND", idEx: "EX",
}

func msgName(id int32) string {
	if id >= 0 && id < maxClients {
		return "PLAYER_DIFF"
	}
	if n, ok := msgNames[id]; ok {
		return n
	}
	return fmt.Sprintf("message id %d", id)
}

type uuid [16]byte

func (u uuid) String() string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// teeworldsNS is the namespace of every Teeworlds/DDNet name-based UUID.
var teeworldsNS = uuid{0xe0, 0x5d, 0xda, 0xaa, 0xc4, 0xe6, 0x4c, 0xfb, 0xb6, 0x42, 0x5d, 0x48, 0xe8, 0x0c, 0x00, 0x29}

// uuidOf is the version-3 (MD5) UUID of a name in the Teeworlds namespace,
// how DDNet names extension messages.
func uuidOf(name string) uuid {
	h := md5.New()
	h.Write(teeworldsNS[:])
	h.Write([]byte(name))
	var u uuid
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x30
	u[8] = u[8]&0x3f | 0x80
	return u
}

// fileUUID starts every teehistorian file: uuidOf("teehistorian@ddnet.tw").
var fileUUID = uuid{0x69, 0x9d, 0xb1, 0x7b, 0x8e, 0xfb, 0x34, 0xff, 0xb1, 0xd8, 0xda, 0x6f, 0x60, 0xc1, 0x5d, 0xd1}

// The 10 ints of CNetObj_PlayerInput, in order.
var inputKeys = [10]struct{ key, label string }{
	{"direction", "Direction"}, {"targetX", "Target X"}, {"targetY", "Target Y"},
	{"jump", "Jump"}, {"fire", "Fire"}, {"hook", "Hook"}, {"playerFlags", "Player flags"},
	{"wantedWeapon", "Wanted weapon"}, {"nextWeapon", "Next weapon"}, {"prevWeapon", "Previous weapon"},
}

func directionName(v int32) string {
	switch {
	case v < 0:
		return "left"
	case v > 0:
		return "right"
	}
	return "none"
}

var weaponNames = []string{"hammer", "gun", "shotgun", "grenade", "laser", "ninja"}

func weaponName(w int32) string {
	if w >= 0 && int(w) < len(weaponNames) {
		return weaponNames[w]
	}
	return fmt.Sprintf("weapon %d", w)
}

// wantedWeaponName: the input's wanted weapon is weapon+1, 0 for no change.
func wantedWeaponName(v int32) string {
	if v == 0 {
		return "no change"
	}
	return weaponName(v - 1)
}

var playerFlagNames = []string{"playing", "in menu", "chatting", "scoreboard", "aim", "spec cam"}

func bitNames(v int64, names []string) string {
	if v == 0 {
		return "none"
	}
	var parts []string
	for i, n := range names {
		if v&(1<<i) != 0 {
			parts = append(parts, n)
			v &^= 1 << i
		}
	}
	if v != 0 {
		parts = append(parts, fmt.Sprintf("%#x", v))
	}
	return strings.Join(parts, "+")
}

// Console flags DDNet passes with CONSOLE_COMMAND (CFGFLAG_*, CMDFLAG_*).
var consoleFlagNames = []string{"save", "client", "server", "store", "master", "econ", "test", "chat", "game",
	"nonteehistoric", "collight", "collight7", "colalpha", "insensitive", "practice"}

var authLevelNames = []string{"none", "helper", "moderator", "admin"}

func authLevelName(v int32) string {
	if v >= 0 && int(v) < len(authLevelNames) {
		return authLevelNames[v]
	}
	return fmt.Sprintf("level %d", v)
}

var emoticonNames = []string{"oop", "exclamation", "hearts", "drop", "dotdot", "music", "sorry", "ghost",
	"sushi", "splattee", "deviltee", "zomg", "zzz", "wtf", "eyes", "question"}

func emoticonName(v int32) string {
	if v >= 0 && int(v) < len(emoticonNames) {
		return emoticonNames[v]
	}
	return fmt.Sprintf("emoticon %d", v)
}

func gameTeamName(v int32) string {
	switch v {
	case -1:
		return "spectators"
	case 0:
		return "game"
	case 1:
		return "blue"
	}
	return fmt.Sprintf("team %d", v)
}

func voteName(v int32) string {
	switch v {
	case 1:
		return "yes"
	case -1:
		return "no"
	case 0:
		return "none"
	}
	return fmt.Sprintf("vote %d", v)
}

// The DDNet protocol version int (16040) as "16.4"; 16.0.3 is 16003.
func ddnetVersionName(v int32) string {
	if v <= 0 {
		return ""
	}
	major, minor, patch := v/1000, v/10%100, v%10
	if patch != 0 {
		return fmt.Sprintf("%d.%d.%d", major, minor, patch)
	}
	return fmt.Sprintf("%d.%d", major, minor)
}
