package sc2

import (
	"fmt"
	"strconv"
	"strings"

	"rewind/decoders/sc2/bitpack"
)

// protocol is what one family of builds needs to read replay.initData and
// replay.game.events: the type table, the root type of the init data and
// the game event ids. Consecutive builds often share one layout; a file is
// decoded with a protocol only when its streams read to their last byte.
type protocol struct {
	name     string // base build of s2protocol's module the layout comes from
	tab      bitpack.Table
	initRoot int
	events   map[int64]gameEvent
	minBase  int // base builds the layout is tried for (inclusive)
	maxBase  int
	// slotUsers: the user id before each game event counts the lobby's
	// occupied slots from 1 (WoL) instead of naming a lobby user.
	slotUsers bool
}

// parseLayout turns a compact description of a type table into a Table.
// One type per line, in index order:
//
//	i OFF BITS           integer
//	b OFF BITS           blob (length offset and bits)
//	B                    bool
//	a OFF BITS ELEM      array
//	o ELEM               optional
//	s NAME:T ...         struct members in stream order
//	c OFF BITS TAG=NAME:T ...  choice
//	x OFF BITS           bit array
//	f                    fourcc
//	n                    null
//
// The descriptions are written from s2protocol's published typeinfos for
// the build; a malformed line is a programming error and panics at init.
func parseLayout(src string) bitpack.Table {
	var t bitpack.Table
	for _, line := range strings.Split(strings.TrimSpace(src), "\n") {
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		num := func(i int) int64 {
			v, err := strconv.ParseInt(w[i], 10, 64)
			if err != nil {
				panic(fmt.Sprintf("layout line %d %q: %v", len(t), line, err))
			}
			return v
		}
		field := func(s string) bitpack.Field {
			name, typ, ok := strings.Cut(s, ":")
			if !ok {
				panic(fmt.Sprintf("layout line %d %q: member %q", len(t), line, s))
			}
			n, err := strconv.Atoi(typ)
			if err != nil {
				panic(fmt.Sprintf("layout line %d %q: %v", len(t), line, err))
			}
			return fl(name, n)
		}
		var ty bitpack.Type
		switch w[0] {
		case "i":
			ty = tInt(num(1), uint(num(2)))
		case "b":
			ty = tBlob(num(1), uint(num(2)))
		case "B":
			ty = tBool()
		case "a":
			ty = tArr(num(1), uint(num(2)), int(num(3)))
		case "o":
			ty = tOpt(int(num(1)))
		case "s":
			ty = tStruct()
			for _, m := range w[1:] {
				ty.Fields = append(ty.Fields, field(m))
			}
		case "c":
			m := map[int64]bitpack.Field{}
			for _, c := range w[3:] {
				tag, rest, _ := strings.Cut(c, "=")
				n, err := strconv.ParseInt(tag, 10, 64)
				if err != nil {
					panic(fmt.Sprintf("layout line %d %q: %v", len(t), line, err))
				}
				m[n] = field(rest)
			}
			ty = tChoice(num(1), uint(num(2)), m)
		case "x":
			ty = tBits(num(1), uint(num(2)))
		case "f":
			ty = tFourCC()
		case "n":
			ty = tNull()
		default:
			panic(fmt.Sprintf("layout line %d %q: unknown kind", len(t), line))
		}
		t = append(t, ty)
	}
	for i, ty := range t {
		refs := []int{}
		switch ty.Kind {
		case bitpack.KArray, bitpack.KOptional:
			refs = append(refs, ty.Elem)
		case bitpack.KStruct:
			for _, f := range ty.Fields {
				refs = append(refs, f.Type)
			}
		case bitpack.KChoice:
			for _, f := range ty.Choices {
				refs = append(refs, f.Type)
			}
		}
		for _, r := range refs {
			if r < 0 || r >= len(t) {
				panic(fmt.Sprintf("layout type %d refers to type %d of %d", i, r, len(t)))
			}
		}
	}
	return t
}

// parseEvents reads "ID TYPE Name" lines: the game event ids of a build
// with the type of their body and s2protocol's event name (without the
// NNet.Game.S prefix and Event suffix).
func parseEvents(src string, tab bitpack.Table) map[int64]gameEvent {
	m := map[int64]gameEvent{}
	for _, line := range strings.Split(strings.TrimSpace(src), "\n") {
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		if len(w) != 3 {
			panic(fmt.Sprintf("event line %q", line))
		}
		id, err1 := strconv.ParseInt(w[0], 10, 64)
		typ, err2 := strconv.Atoi(w[1])
		if err1 != nil || err2 != nil || typ < 0 || typ >= len(tab) {
			panic(fmt.Sprintf("event line %q", line))
		}
		m[id] = gameEvent{typ: typ, name: w[2], kind: eventKind(w[2])}
	}
	return m
}

// eventKind is the short kind shown in the events pane for an event name.
func eventKind(name string) string {
	switch name {
	case "Cmd":
		return "cmd"
	case "SelectionDelta":
		return "select"
	case "ControlGroupUpdate":
		return "group"
	case "SelectionSyncCheck":
		return "selsync"
	case "CameraUpdate":
		return "camera"
	case "CameraSave":
		return "camsave"
	case "PlayerLeave", "GameUserLeave":
		return "leave"
	case "GameUserJoin":
		return "join"
	case "UserFinishedLoadingSync":
		return "loaded"
	case "UserOptions":
		return "options"
	case "ResourceTrade":
		return "trade"
	case "UnitClick":
		return "click"
	case "UnitHighlight":
		return "highlight"
	case "Alliance":
		return "alliance"
	case "SetAbsoluteGameSpeed", "AddAbsoluteGameSpeed":
		return "speed"
	case "GameCheat", "BroadcastCheat":
		return "cheat"
	case "AICommunicate":
		return "ai"
	case "TriggerPing":
		return "tping"
	case "SaveGame", "SaveGameDone":
		return "save"
	case "LoadGameDone":
		return "load"
	case "LagMessage":
		return "lag"
	case "DecrementGameTimeRemaining":
		return "timer"
	case "CmdUpdateTargetPoint", "CmdUpdateTargetUnit":
		return "cmdupdate"
	case "CommandManagerReset":
		return "cmdreset"
	case "CommandManagerState":
		return "cmdstate"
	case "HijackReplayGame":
		return "hijack"
	}
	switch {
	case strings.HasPrefix(name, "Bank"):
		return "bank"
	case strings.HasPrefix(name, "ResourceRequest"):
		return "request"
	case strings.HasPrefix(name, "TriggerMouse"):
		return "mouse"
	case strings.HasPrefix(name, "TriggerDialog"), strings.HasPrefix(name, "TriggerCustomDialog"):
		return "dialog"
	case strings.HasSuffix(name, "SyncLoadingTime"), strings.HasSuffix(name, "SyncPlayingTime"):
		return "sync"
	}
	return "trigger"
}

// protocols are the layouts the decoder knows, oldest first, each with the
// base builds it was established for: s2protocol publishes one module per
// base build, and consecutive modules with the same types and event ids
// share one entry here. maxBase 0 means no upper bound. A build without an
// entry keeps the presence-and-size note; among them 15405, whose lobbies
// s2protocol's 15405 module does not read (16939's does) and whose game
// events neither reads.
var protocols = []*protocol{
	// The corpus files of base builds 16561, 16605 and 16755 read to their
	// last byte with it too; s2protocol ships modules of one size for them.
	newProtocol("16939", parseLayout(layout16939), 55, events16939, 16561, 16939, true),
	// Also read by every corpus file of base build 18092.
	newProtocol("17326", parseLayout(layout17326), 54, events17326, 17326, 18092, true),
	newProtocol("18574", layout18574(), 54, events17326, 18574, 18574, true),
	newProtocol("19132", layout19132(), 55, events19679, 19132, 19132, true),
	// Also read by the corpus files of base builds 19595 and 21029.
	newProtocol("19679", parseLayout(layout19679), 55, events19679, 19595, 21029, true),
	newProtocol("24247", layout24247(), 61, events24944, 24247, 24247, false),
	// sc2reader reads the game events of base builds 24247 to 26489 one
	// way; the lobby of 24764 reads with this layout too (24247's does not).
	newProtocol("24944", parseLayout(layout24944), 61, events24944, 24764, 24944, false),
	newProtocol("26490", layout26490(), 61, events24944, 26490, 26490, false),
	newProtocol("39576", parseLayout(layout39576), 68, events39576, 39576, 39576, false),
	// s2protocol ships modules of one size from 55505 to 58400; 56787 is
	// the one the corpus has.
	newProtocol("56787", layout56787(), 73, events64469, 56787, 56787, false),
	newProtocol("64469", parseLayout(layout64469), 73, events64469, 64469, 64469, false),
	newProtocol("65895", layout65895(), 73, events65895, 65895, 65895, false),
	// s2protocol ships modules of one size for 70154 to 75025, and both
	// 70154 corpus files read to their last byte with this layout.
	newProtocol("71663", parseLayout(layout71663), 73, events71663, 70154, 71663, false),
	// s2protocol ships modules of one size for 77379 to 80669, and both
	// 78285 corpus files read to their last byte with this layout.
	newProtocol("77379", layout77379(), 73, events71663, 77379, 80669, false),
	{name: "97364", tab: gameTable97364, initRoot: initDataRoot, events: gameEvents97364, minBase: 80949},
}

func newProtocol(name string, tab bitpack.Table, root int, events string, minBase, maxBase int, slotUsers bool) *protocol {
	return &protocol{name: name, tab: tab, initRoot: root, events: parseEvents(events, tab),
		minBase: minBase, maxBase: maxBase, slotUsers: slotUsers}
}

// covers reports whether the layout was established for the base build.
func (p *protocol) covers(base int) bool {
	return base >= p.minBase && (p.maxBase == 0 || base <= p.maxBase)
}

// readInit decodes replay.initData with the protocol; ok only when the
// value ends on the stream's last byte.
func (p *protocol) readInit(b []byte) (bitpack.Value, bool) {
	r := bitpack.New(b)
	v := r.Read(p.tab, p.initRoot)
	r.ByteAlign()
	return v, r.Err() == nil && r.Done()
}

// gameReadsExactly reports whether every game event reads with the
// protocol up to the stream's last byte.
func (p *protocol) gameReadsExactly(b []byte) bool {
	r := bitpack.New(b)
	for !r.Done() {
		_, _, id := readHead(r)
		et, ok := p.events[id]
		if r.Err() != nil || !ok {
			return false
		}
		r.Skip(p.tab, et.typ)
		if r.Err() != nil {
			return false
		}
		r.ByteAlign()
	}
	return true
}

// pickProtocol finds the layout of replay.initData: a layout established
// for the file's base build, taken only when initData reads to its last
// byte. Layouts are not tried on other builds: a neighbour's layout can
// read a stream to its end and still misplace fields (26490's user options
// have one more bit than 24944's, which the byte alignment after each
// event hides), so an exact read alone does not establish a layout.
func (d *decoder) pickProtocol(ini []byte) (*protocol, bitpack.Value) {
	for _, p := range protocols {
		if p.covers(d.baseBuild) {
			if v, ok := p.readInit(ini); ok {
				return p, v
			}
		}
	}
	return nil, bitpack.Value{}
}
