package sc2

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync"

	"rewind/model"
)

// attribute is one record of replay.attributes.events: little-endian
// namespace, id, scope (player slot 1-16, 16 = the game) and a 4-byte value
// stored back to front, padded with zero bytes.
type attribute struct {
	Off   int
	ID    uint32
	Scope uint8
	Value string
}

// Attribute ids (s2protocol's attributes table).
const (
	attrController  = 500
	attrTeams       = 2001
	attrGameSpeed   = 3000
	attrRace        = 3001
	attrColor       = 3002
	attrHandicap    = 3003
	attrDifficulty  = 3004
	attrRole        = 3007
	attrGameMode    = 3009
	attrLockedAllys = 3010
)

var attrNames = map[uint32]string{
	attrController: "Controller", 1000: "Rules", 1001: "Premade Game", attrTeams: "Teams",
	attrGameSpeed: "Game Speed", attrRace: "Race", attrColor: "Color", attrHandicap: "Handicap",
	attrDifficulty: "Difficulty", 3006: "Lobby Delay", attrRole: "Participant Role", 3008: "Watcher Type",
	attrGameMode: "Game Mode", attrLockedAllys: "Locked Alliances", 3011: "Player Logo",
	3012: "Tandem Leader", 3013: "Commander", 3014: "Commander Level", 3015: "Game Duration",
	4000: "Game Privacy", 4001: "Using Custom Observer UI",
	2002: "Teams 1v1", 2003: "Teams 2v2", 2004: "Teams 3v3", 2005: "Teams 4v4", 2006: "Teams FFA",
	2007: "Teams 5v5", 2008: "Teams 6v6",
}

// attrKeys are the field keys of the named attributes, made once: a
// replay has hundreds of attribute records, and a folder listing reads
// every file's.
var attrKeys = sync.OnceValue(func() map[uint32]string {
	m := make(map[uint32]string, len(attrNames))
	for id, label := range attrNames {
		m[id] = lowerCamel(label)
	}
	return m
})

var attrValueNames = map[uint32]map[string]string{
	attrController: {"Humn": "Human", "Comp": "Computer", "Open": "Open", "Clsd": "Closed"},
	attrGameSpeed:  {"Slor": "Slower", "Slow": "Slow", "Norm": "Normal", "Fast": "Fast", "Fasr": "Faster"},
	attrRace:       {"Terr": "Terran", "Zerg": "Zerg", "Prot": "Protoss", "RAND": "Random"},
	attrDifficulty: {"VyEy": "Very Easy", "Easy": "Easy", "Medi": "Medium", "HdVH": "Harder", "Hard": "Hard",
		"VyHd": "Very Hard", "Insa": "Insane", "ChRe": "Cheater 1 (Vision)", "ChMi": "Cheater 2 (Money)", "ChIn": "Cheater 3 (Insane)", "Elit": "Elite"},
	attrGameMode: {"Priv": "Private", "Pub": "Public", "Amm": "Ladder (AutoMM)", "": "Single Player"},
	attrRole:     {"Part": "Participant", "Watc": "Observer"},
}

var speedFactor = map[string]float64{"Slower": 0.6, "Slow": 0.8, "Normal": 1.0, "Fast": 1.2, "Faster": 1.4}

// speedNames indexes details' m_gameSpeed.
var speedNames = []string{"Slower", "Slow", "Normal", "Fast", "Faster"}

// parseAttributes reads the records. The header is a source byte (from
// build 17326), a map namespace and a count; a file whose size fits the
// 8-byte header and not the 9-byte one is read with the older layout.
func parseAttributes(b []byte) ([]attribute, int, error) {
	hdr := 9
	if len(b) >= 8 && (len(b)-9)%13 != 0 && (len(b)-8)%13 == 0 {
		hdr = 8
	}
	if len(b) < hdr {
		return nil, 0, fmt.Errorf("at %#x: header cut short (%d bytes)", 0, len(b))
	}
	count := binary.LittleEndian.Uint32(b[hdr-4:])
	// the records the bytes hold, however many the count claims
	out := make([]attribute, 0, min(int64(count), int64((len(b)-hdr)/13)))
	off := hdr
	for i := uint32(0); i < count; i++ {
		if off+13 > len(b) {
			return out, hdr, fmt.Errorf("at %#x: record %d of %d cut short", off, i, count)
		}
		var buf [4]byte
		v := buf[:0]
		for j := 12; j >= 9; j-- {
			if c := b[off+j]; c != 0 {
				v = append(v, c)
			}
		}
		out = append(out, attribute{Off: off, ID: binary.LittleEndian.Uint32(b[off+4:]), Scope: b[off+8],
			Value: strings.TrimSpace(string(v))})
		off += 13
	}
	return out, hdr, nil
}

func attrValueName(id uint32, v string) string {
	if m, ok := attrValueNames[id]; ok {
		if n, ok := m[v]; ok {
			return n
		}
	}
	return ""
}

func (d *decoder) attributes(b []byte) {
	attrs, hdr, err := parseAttributes(b)
	d.attrs = attrs
	if err != nil {
		d.r.Partial = true
		d.diag(model.Warning, model.Span{Stream: fAttributes, Off: int64(len(b))}, fAttributes, err.Error(), "", "", false)
	}
	// a header read needs the speed, the teams and who plays; the fields
	// are for the header pane and dump
	fields := !d.opt.HeaderOnly
	g := model.Field{Key: "attributes", Label: "Attributes", Span: model.Span{Stream: fAttributes, Len: int64(len(b))},
		Fields: []model.Field{{Key: "count", Label: "Count", Value: int64(len(attrs)), Span: model.Span{Stream: fAttributes, Off: int64(hdr - 4), Len: 4}}}}
	controller := map[uint8]string{}
	for _, a := range attrs {
		switch {
		case a.Scope == 16 && a.ID == attrGameSpeed:
			if n := attrValueName(a.ID, a.Value); n != "" {
				d.speed = n
			}
		case a.Scope != 16 && a.ID == attrController:
			controller[a.Scope] = a.Value
		}
	}
	// Players take the slots of humans and computers in order; slots count
	// players and open or closed slots alike.
	var slots []int
	for s := range controller {
		slots = append(slots, int(s))
	}
	sort.Ints(slots)
	var played []int // the slots players take, in player order
	for _, s := range slots {
		if ctl := controller[uint8(s)]; ctl != "Humn" && ctl != "Comp" {
			continue
		}
		if len(played) >= len(d.r.Players) {
			break
		}
		played = append(played, s)
	}
	// only the slots a player took have their fields made (the 16 slots'
	// were 0.2 MB, most of them thrown away)
	perSlot := map[uint8][]model.Field{}
	count := map[uint8]int{}
	for _, a := range attrs {
		count[a.Scope]++
	}
	for _, s := range played {
		perSlot[uint8(s)] = nil
		if n := count[uint8(s)]; n > 0 && fields {
			perSlot[uint8(s)] = make([]model.Field, 0, n)
		}
	}
	for _, a := range attrs {
		if !fields {
			break
		}
		if _, ok := perSlot[a.Scope]; a.Scope != 16 && !ok {
			continue
		}
		label, key := attrNames[a.ID], attrKeys()[a.ID]
		if label == "" {
			label = fmt.Sprintf("attribute %d", a.ID)
			key = lowerCamel(label)
		}
		f := model.Field{Key: key, Label: label, Value: a.Value, Name: attrValueName(a.ID, a.Value),
			Span: model.Span{Stream: fAttributes, Off: int64(a.Off), Len: 13}}
		if a.Scope == 16 {
			g.Fields = append(g.Fields, f)
		} else {
			perSlot[a.Scope] = append(perSlot[a.Scope], f)
		}
	}
	if fields {
		d.r.Header = append(d.r.Header, g)
	}
	// Give players their slot attributes.
	for pi, s := range played {
		// The team attribute of the game's format ("T2") is where the
		// lobby put the player; details' m_teamId is 0 for all in 2010-11
		// builds.
		if id, ok := teamAttr[d.attrGlobal(attrTeams)]; ok {
			for _, a := range d.attrs {
				if a.ID == id && int(a.Scope) == s && strings.HasPrefix(a.Value, "T") {
					d.r.Players[pi].Team = "team " + a.Value[1:]
				}
			}
		}
		if fields {
			d.r.Players[pi].Fields = append(d.r.Players[pi].Fields, model.Field{Key: "slotAttributes", Label: fmt.Sprintf("Slot %d attributes", s), Fields: perSlot[uint8(s)]})
		}
	}
}

// teamAttr is the per-slot team attribute of each game format.
var teamAttr = map[string]uint32{"1v1": 2002, "2v2": 2003, "3v3": 2004, "4v4": 2005, "FFA": 2006, "5v5": 2007, "6v6": 2008}

func lowerCamel(s string) string {
	parts := strings.Fields(strings.Map(func(r rune) rune {
		if r == '(' || r == ')' || r == '-' {
			return ' '
		}
		return r
	}, s))
	for i := range parts {
		if i == 0 {
			parts[i] = strings.ToLower(parts[i][:1]) + parts[i][1:]
		} else {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func (d *decoder) attrGlobal(id uint32) string {
	for _, a := range d.attrs {
		if a.ID == id && a.Scope == 16 {
			return a.Value
		}
	}
	return ""
}
