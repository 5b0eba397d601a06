package sc2

import (
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"rewind/decoders/sc2/versioned"
	"rewind/model"
)

type playerInfo struct {
	name, clan, race string
	team             int64
	result           int64
	control          int64
	observe          int64
	workingSlot      int64
	hasWorkingSlot   bool
}

// playerCost is what one replay.details player costs the budget: the
// model.Player with its dozen fields.
const playerCost = 2048

// Dependency hashes of the standard data of each expansion, as replays
// list them in m_cacheHandles: SHA-256 of "Standard Data: Liberty.SC2Mod"
// (Swarm, Void). The newest present names the expansion, as sc2reader has it.
var expansionHashes = []struct{ hash, name string }{
	{"d92dfc48c484c59154270b924ad7d57484f2ab9a47621c7ab16431bf66c53b40", "LotV"},
	{"66093832128453efffbb787c80b7d3eec1ad81bde55c83c930dea79c4e505a04", "HotS"},
	{"421c8aa0f3619b652d23a2735dfee812ab644228235e7a797edecfe8b67da30e", "WoL"},
}

// details decodes the players, map and time.
func (d *decoder) details(stream string, b []byte) {
	dec := versioned.NewDecoder(b)
	dec.Budget, dec.What = d.b, stream
	v, err := dec.Value()
	if err != nil {
		d.r.Partial = true
		e, _ := err.(*versioned.Error)
		var off int64
		if e != nil {
			off = int64(e.Off)
		}
		if !d.budgetHit(model.Span{Stream: stream, Off: off}) {
			d.diag(model.Error, model.Span{Stream: stream, Off: off}, stream, err.Error(), "", "", false)
		}
	}
	sp := func(x *versioned.Value) model.Span {
		return model.Span{Stream: stream, Off: int64(x.Off), Len: int64(x.End - x.Off)}
	}
	g := model.Field{Key: "details", Label: "Details", Span: model.Span{Stream: stream, Len: int64(len(b))}}
	if t, ok := v.BytesOf(1); ok {
		d.r.Title = string(t)
		x, _ := v.Get(1)
		g.Fields = append(g.Fields, model.Field{Key: "title", Label: "m_title", Value: string(t), Span: sp(x)})
	}
	utc, hasUTC := v.IntOf(5)
	if hasUTC {
		x, _ := v.Get(5)
		t := fileTime(utc)
		d.r.Start = t
		g.Fields = append(g.Fields, model.Field{Key: "timeUTC", Label: "m_timeUTC", Value: t, Span: sp(x)})
	}
	if loc, ok := v.IntOf(6); ok {
		x, _ := v.Get(6)
		g.Fields = append(g.Fields, timeOffsetField(loc, utc, hasUTC, sp(x)))
	}
	if x, ok := v.Get(4); ok {
		n, _ := v.IntOf(4)
		g.Fields = append(g.Fields, model.Field{Key: "isBlizzardMap", Label: "m_isBlizzardMap", Value: n != 0, Span: sp(x)})
	}
	if s, ok := v.IntOf(12); ok {
		x, _ := v.Get(12)
		f := model.Field{Key: "gameSpeed", Label: "m_gameSpeed", Value: s, Span: sp(x)}
		if s >= 0 && int(s) < len(speedNames) {
			f.Name = speedNames[s]
			d.speed = f.Name
		}
		g.Fields = append(g.Fields, f)
	}
	if mf, ok := v.BytesOf(9); ok {
		x, _ := v.Get(9)
		g.Fields = append(g.Fields, model.Field{Key: "mapFileName", Label: "m_mapFileName", Value: string(mf), Span: sp(x)})
	}
	if ch, ok := v.Get(10); ok {
		if ch.Kind == versioned.Optional && len(ch.Items) > 0 {
			ch = &ch.Items[0]
		}
		for _, e := range expansionHashes {
			for _, h := range ch.Items {
				if d.expansion == "" && len(h.Bytes) == 40 && hex.EncodeToString(h.Bytes[8:]) == e.hash {
					d.expansion = e.name
				}
			}
		}
	}
	if d.expansion != "" {
		g.Fields = append(g.Fields, model.Field{Key: "expansion", Label: "Expansion (from the standard data in m_cacheHandles)", Value: d.expansion,
			Name: map[string]string{"WoL": "Wings of Liberty", "HotS": "Heart of the Swarm", "LotV": "Legacy of the Void"}[d.expansion]})
	}
	d.r.Header = append(d.r.Header, g)

	pl, _ := v.Get(0)
	if pl != nil && pl.Kind == versioned.Optional && len(pl.Items) > 0 {
		pl = &pl.Items[0]
	}
	if pl == nil || pl.Kind != versioned.Array {
		return
	}
	if err := d.b.Items(stream+": players", int64(len(pl.Items)), playerCost); err != nil {
		d.r.Partial = true
		d.budgetHit(sp(pl))
		return
	}
	for i := range pl.Items {
		d.detailsPlayer(i, &pl.Items[i], stream)
	}
}

func (d *decoder) detailsPlayer(i int, p *versioned.Value, stream string) {
	sp := func(x *versioned.Value) model.Span {
		return model.Span{Stream: stream, Off: int64(x.Off), Len: int64(x.End - x.Off)}
	}
	info := playerInfo{}
	name, _ := p.BytesOf(0)
	info.name, info.clan = splitClan(string(name))
	race, _ := p.BytesOf(2)
	info.race = string(race)
	raceName := englishRace(info.race)
	info.control, _ = p.IntOf(4)
	info.team, _ = p.IntOf(5)
	info.observe, _ = p.IntOf(7)
	info.result, _ = p.IntOf(8)
	info.workingSlot, info.hasWorkingSlot = p.IntOf(9)
	mp := model.Player{Slot: fmt.Sprintf("P%d", i+1), Name: info.name, Character: raceName,
		Team: fmt.Sprintf("team %d", info.team+1), Result: resultName(info.result)}
	f := []model.Field{{Key: "name", Label: "m_name", Value: info.name, Span: spanOf(p, 0, stream)}}
	if info.clan != "" {
		f = append(f, model.Field{Key: "clanTag", Label: "Clan tag", Value: info.clan, Span: spanOf(p, 0, stream)})
	}
	if toon, ok := p.Get(1); ok {
		region, _ := toon.IntOf(0)
		realm, _ := toon.IntOf(2)
		var id int64
		if x, ok := toon.IntOf(4); ok {
			id = x
		} else {
			id, _ = toon.IntOf(3)
		}
		prog := ""
		if pb, ok := toon.Get(1); ok && len(pb.Bytes) == 4 {
			prog = strings.Trim(string(pb.Bytes), "\x00")
		}
		handle := fmt.Sprintf("%d-%s-%d-%d", region, prog, realm, id)
		if id == 0 && region == 0 {
			handle = "" // computer players have no toon
		} else {
			mp.Code = handle
		}
		f = append(f, model.Field{Key: "toon", Label: "m_toon", Value: handle, Span: sp(toon), Fields: []model.Field{
			{Key: "region", Label: "m_region", Value: region, Name: regionName(region)},
			{Key: "programId", Label: "m_programId", Value: prog},
			{Key: "realm", Label: "m_realm", Value: realm},
			{Key: "id", Label: "m_id", Value: id},
		}})
	}
	f = append(f, model.Field{Key: "race", Label: "m_race", Value: info.race, Span: spanOf(p, 2, stream)})
	if c, ok := p.Get(3); ok {
		a, _ := c.IntOf(0)
		r, _ := c.IntOf(1)
		gg, _ := c.IntOf(2)
		bb, _ := c.IntOf(3)
		f = append(f, model.Field{Key: "color", Label: "m_color", Value: fmt.Sprintf("#%02x%02x%02x%02x", a, r, gg, bb),
			Name: colorName(r, gg, bb), Span: sp(c)})
	}
	f = append(f, model.Field{Key: "control", Label: "m_control", Value: info.control, Name: controlName(info.control), Span: spanOf(p, 4, stream)})
	f = append(f, model.Field{Key: "teamId", Label: "m_teamId", Value: info.team, Span: spanOf(p, 5, stream)})
	h, _ := p.IntOf(6)
	f = append(f, model.Field{Key: "handicap", Label: "m_handicap", Value: h, Span: spanOf(p, 6, stream)})
	f = append(f, model.Field{Key: "observe", Label: "m_observe", Value: info.observe, Span: spanOf(p, 7, stream)})
	f = append(f, model.Field{Key: "result", Label: "m_result", Value: info.result, Name: resultName(info.result), Span: spanOf(p, 8, stream)})
	if info.hasWorkingSlot {
		f = append(f, model.Field{Key: "workingSetSlotId", Label: "m_workingSetSlotId", Value: info.workingSlot, Span: spanOf(p, 9, stream)})
	}
	mp.Fields = f
	d.players = append(d.players, info)
	d.r.Players = append(d.r.Players, mp)
	d.slotToPl[i+1] = i
}

// timeOffsetField is m_timeLocalOffset in seconds. It counts 100 ns like
// the FILETIME it adjusts; most replays store the offset from UTC, some
// the local time itself (a value past a day), whose offset is then its
// distance from m_timeUTC. Nanoseconds would overflow int64 for those.
func timeOffsetField(loc, utc int64, hasUTC bool, sp model.Span) model.Field {
	const perSecond = 10_000_000
	f := model.Field{Key: "timeLocalOffset", Label: "m_timeLocalOffset (seconds)", Value: loc / perSecond, Span: sp}
	off := loc
	const day = 24 * 3600 * perSecond
	if off >= day || off <= -day {
		if !hasUTC {
			return f
		}
		off = loc - utc
	}
	if off < day && off > -day {
		sec := off / perSecond
		sign := "+"
		if sec < 0 {
			sign, sec = "-", -sec
		}
		f.Name = fmt.Sprintf("UTC%s%d:%02d", sign, sec/3600, sec/60%60)
	}
	return f
}

func spanOf(v *versioned.Value, tag int64, stream string) model.Span {
	x, ok := v.Get(tag)
	if !ok {
		return model.Span{Stream: stream}
	}
	return model.Span{Stream: stream, Off: int64(x.Off), Len: int64(x.End - x.Off)}
}

// splitClan takes the clan tag out of a name written "&lt;TAG&gt;<sp/>Name",
// "[TAG]<sp/>Name" or, by early Heart of the Swarm clients (2.0.0 to 2.0.3),
// "[TAG]Name": the lobby has the name without the tag, and sc2reader too.
// A character name is letters and digits, so a bracket opens a tag.
func splitClan(s string) (name, clan string) {
	if strings.HasPrefix(s, "&lt;") {
		if i := strings.Index(s, "&gt;<sp/>"); i > 0 {
			return s[i+len("&gt;<sp/>"):], s[4:i]
		}
	}
	if strings.HasPrefix(s, "<") {
		if i := strings.Index(s, "><sp/>"); i > 0 {
			return s[i+len("><sp/>"):], s[1:i]
		}
	}
	if strings.HasPrefix(s, "[") {
		if i := strings.Index(s, "]<sp/>"); i > 0 {
			return s[i+len("]<sp/>"):], s[1:i]
		}
		if i := strings.IndexByte(s, ']'); i > 1 && i+1 < len(s) {
			return s[i+1:], s[1:i]
		}
	}
	return strings.ReplaceAll(s, "<sp/>", " "), ""
}

// fileTime converts a Windows FILETIME (100 ns since 1601) to UTC.
func fileTime(ft int64) time.Time {
	const epochDiff = 116444736000000000
	if ft <= epochDiff {
		return time.Time{}
	}
	x := ft - epochDiff
	return time.Unix(x/1e7, (x%1e7)*100).UTC()
}

func resultName(r int64) string {
	switch r {
	case 1:
		return "Win"
	case 2:
		return "Loss"
	case 3:
		return "Tie"
	}
	return ""
}

func controlName(c int64) string {
	switch c {
	case 0:
		return "Open"
	case 1:
		return "Closed"
	case 2:
		return "Human"
	case 3:
		return "Computer"
	}
	return ""
}

func regionName(r int64) string {
	switch r {
	case 1:
		return "US"
	case 2:
		return "EU"
	case 3:
		return "KR"
	case 5:
		return "CN"
	case 6:
		return "SEA"
	case 98:
		return "Public Test"
	}
	return ""
}

// playerColors are the lobby colours by their RGB, as the game names them.
var playerColors = map[[3]int64]string{
	{180, 20, 30}: "Red", {0, 66, 255}: "Blue", {28, 167, 234}: "Teal", {84, 0, 129}: "Purple",
	{235, 225, 41}: "Yellow", {254, 138, 14}: "Orange", {22, 128, 0}: "Green", {204, 166, 252}: "Light Pink",
	{31, 1, 201}: "Violet", {82, 84, 148}: "Light Grey", {16, 98, 70}: "Dark Green", {78, 42, 4}: "Brown",
	{150, 255, 145}: "Light Green", {35, 35, 35}: "Dark Grey", {229, 91, 176}: "Pink",
	{255, 255, 255}: "White", {0, 0, 0}: "Black",
}

func colorName(r, g, b int64) string { return playerColors[[3]int64{r, g, b}] }

// localizedRaces are the race names a client in another language writes
// into the details (the game's editor strings for a race, as sc2reader
// lists them), by the English name every table of rewind uses: a Korean
// client's Terran is a Terran in a matchup and in stats --by character.
var localizedRaces = map[string]string{
	"Терран": "Terran", "테란": "Terran", "Terranie": "Terran", "人类": "Terran", "人類": "Terran", "Terrano": "Terran", "Terraner": "Terran",
	"Протосс": "Protoss", "프로토스": "Protoss", "Protosi": "Protoss", "星灵": "Protoss", "神族": "Protoss",
	"Зерг": "Zerg", "저그": "Zerg", "Zergi": "Zerg", "异虫": "Zerg", "蟲族": "Zerg",
}

// englishRace is a details race name in English; a name no table knows
// (an arcade map's own race) stays as it is.
func englishRace(race string) string {
	if en, ok := localizedRaces[race]; ok {
		return en
	}
	return race
}
