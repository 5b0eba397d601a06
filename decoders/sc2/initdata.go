package sc2

import (
	"fmt"
	"strings"

	"rewind/decoders/sc2/bitpack"
	"rewind/model"
)

// Type constructors for protocol tables.
func tInt(off int64, bits uint) bitpack.Type {
	return bitpack.Type{Kind: bitpack.KInt, Offset: off, Bits: bits}
}
func tBlob(off int64, bits uint) bitpack.Type {
	return bitpack.Type{Kind: bitpack.KBlob, Offset: off, Bits: bits}
}
func tBool() bitpack.Type   { return bitpack.Type{Kind: bitpack.KBool} }
func tFourCC() bitpack.Type { return bitpack.Type{Kind: bitpack.KFourCC} }
func tArr(off int64, bits uint, elem int) bitpack.Type {
	return bitpack.Type{Kind: bitpack.KArray, Offset: off, Bits: bits, Elem: elem}
}
func tBits(off int64, bits uint) bitpack.Type {
	return bitpack.Type{Kind: bitpack.KBitArray, Offset: off, Bits: bits}
}
func tOpt(elem int) bitpack.Type { return bitpack.Type{Kind: bitpack.KOptional, Elem: elem} }
func tStruct(fs ...bitpack.Field) bitpack.Type {
	return bitpack.Type{Kind: bitpack.KStruct, Fields: fs}
}
func fl(name string, t int) bitpack.Field { return bitpack.Field{Name: name, Type: t} }

// initData97364 is the replay.initData layout of s2protocol's protocol
// 97364 (types 0-73; the game-event types after them are not needed here).
// Other builds are tried with it and kept only when the whole stream
// decodes to its last byte.
var initData97364 = bitpack.Table{
	0: tInt(0, 7), 1: tInt(0, 4), 2: tInt(0, 5), 3: tInt(0, 6), 4: tInt(0, 14), 5: tInt(0, 22), 6: tInt(0, 32),
	7:  {}, // svaruint32 choice, unused here
	8:  tStruct(fl("m_userId", 2)),
	9:  tBlob(0, 8),
	10: tInt(0, 8),
	11: tStruct(),
	12: tInt(0, 3),
	13: tBool(),
	14: tArr(16, 0, 10),
	15: tOpt(14),
	16: tBlob(16, 0),
	17: tStruct(),
	18: tStruct(),
	19: tFourCC(),
	20: tBlob(0, 7),
	21: tInt(0, 64),
	22: tStruct(),
	23: tStruct(),
	24: tInt(0, 2),
	25: tOpt(10),
	26: tStruct(), 27: tStruct(), 28: tStruct(),
	29: tBlob(0, 10),
	30: tBlob(0, 11),
	31: tStruct(),
	32: tInt(-9223372036854775808, 64),
	33: tOpt(13),
	34: tBlob(0, 12),
	35: tBlob(40, 0),
	36: tArr(0, 6, 35),
	37: tOpt(36),
	38: tArr(0, 6, 30),
	39: tOpt(38),
	40: tStruct(),
	41: tOpt(9),
	42: tOpt(35),
	43: tOpt(6),
	44: tStruct(fl("m_race", 25)),
	45: tStruct(fl("m_team", 25)),
	46: tBlob(0, 9),
	47: tInt(-2147483648, 32),
	48: tOpt(47),
	49: tStruct(fl("m_name", 9), fl("m_clanTag", 41), fl("m_clanLogo", 42), fl("m_highestLeague", 25),
		fl("m_combinedRaceLevels", 43), fl("m_randomSeed", 6), fl("m_racePreference", 44), fl("m_teamPreference", 45),
		fl("m_testMap", 13), fl("m_testAuto", 13), fl("m_examine", 13), fl("m_customInterface", 13), fl("m_testType", 6),
		fl("m_observe", 24), fl("m_hero", 46), fl("m_skin", 46), fl("m_mount", 46), fl("m_toonHandle", 20), fl("m_scaledRating", 48)),
	50: tArr(0, 5, 49),
	51: tStruct(fl("m_lockTeams", 13), fl("m_teamsTogether", 13), fl("m_advancedSharedControl", 13), fl("m_randomRaces", 13),
		fl("m_battleNet", 13), fl("m_amm", 13), fl("m_competitive", 13), fl("m_practice", 13), fl("m_cooperative", 13),
		fl("m_noVictoryOrDefeat", 13), fl("m_heroDuplicatesAllowed", 13), fl("m_fog", 24), fl("m_observers", 24),
		fl("m_userDifficulty", 24), fl("m_clientDebugFlags", 21), fl("m_buildCoachEnabled", 13)),
	52: tInt(1, 4),
	53: tInt(1, 8),
	54: tBits(0, 6),
	55: tBits(0, 8),
	56: tBits(0, 2),
	57: tStruct(fl("m_allowedColors", 54), fl("m_allowedRaces", 55), fl("m_allowedDifficulty", 54), fl("m_allowedControls", 55),
		fl("m_allowedObserveTypes", 56), fl("m_allowedAIBuilds", 55)),
	58: tArr(0, 5, 57),
	59: tStruct(fl("m_randomValue", 6), fl("m_gameCacheName", 29), fl("m_gameOptions", 51), fl("m_gameSpeed", 12),
		fl("m_gameType", 12), fl("m_maxUsers", 2), fl("m_maxObservers", 2), fl("m_maxPlayers", 2), fl("m_maxTeams", 52),
		fl("m_maxColors", 3), fl("m_maxRaces", 53), fl("m_maxControls", 10), fl("m_mapSizeX", 10), fl("m_mapSizeY", 10),
		fl("m_mapFileSyncChecksum", 6), fl("m_mapFileName", 30), fl("m_mapAuthorName", 9), fl("m_modFileSyncChecksum", 6),
		fl("m_slotDescriptions", 58), fl("m_defaultDifficulty", 3), fl("m_defaultAIBuild", 10), fl("m_cacheHandles", 36),
		fl("m_hasExtensionMod", 13), fl("m_hasNonBlizzardExtensionMod", 13), fl("m_isBlizzardMap", 13),
		fl("m_isPremadeFFA", 13), fl("m_isCoopMode", 13), fl("m_isRealtimeMode", 13)),
	60: tOpt(1),
	61: tOpt(2),
	62: tStruct(fl("m_color", 61)),
	63: tArr(0, 4, 46),
	64: tArr(0, 17, 6),
	65: tArr(0, 16, 6),
	66: tArr(0, 3, 6),
	67: tStruct(fl("m_key", 6), fl("m_rewards", 64)),
	68: tArr(0, 17, 67),
	69: tStruct(fl("m_control", 10), fl("m_userId", 60), fl("m_teamId", 1), fl("m_colorPref", 62), fl("m_racePref", 44),
		fl("m_difficulty", 3), fl("m_aiBuild", 10), fl("m_handicap", 6), fl("m_observe", 24), fl("m_logoIndex", 6),
		fl("m_hero", 46), fl("m_skin", 46), fl("m_mount", 46), fl("m_artifacts", 63), fl("m_workingSetSlotId", 25),
		fl("m_rewards", 64), fl("m_toonHandle", 20), fl("m_licenses", 65), fl("m_tandemLeaderId", 60), fl("m_commander", 46),
		fl("m_commanderLevel", 6), fl("m_hasSilencePenalty", 13), fl("m_tandemId", 60), fl("m_commanderMasteryLevel", 6),
		fl("m_commanderMasteryTalents", 66), fl("m_trophyId", 6), fl("m_rewardOverrides", 68), fl("m_brutalPlusDifficulty", 6),
		fl("m_retryMutationIndexes", 66), fl("m_aCEnemyRace", 6), fl("m_aCEnemyWaveType", 6), fl("m_selectedCommanderPrestige", 6)),
	70: tArr(0, 5, 69),
	71: tStruct(fl("m_phase", 12), fl("m_maxUsers", 2), fl("m_maxObservers", 2), fl("m_slots", 70), fl("m_randomSeed", 6),
		fl("m_hostUserId", 60), fl("m_isSinglePlayer", 13), fl("m_pickedMapTag", 10), fl("m_gameDuration", 6),
		fl("m_defaultDifficulty", 3), fl("m_defaultAIBuild", 10)),
	72: tStruct(fl("m_userInitialData", 50), fl("m_gameDescription", 59), fl("m_lobbyState", 71)),
	73: tStruct(fl("m_syncLobbyState", 72)),
}

const initDataRoot = 73

// initData decodes the lobby when a known layout reads the whole stream
// (see pickProtocol) and returns that layout; nil means the layout of this
// build is not known and the caller reports the stream's presence only.
func (d *decoder) initData(b []byte) *protocol {
	p, v := d.pickProtocol(b)
	if p == nil {
		return nil
	}
	lobby, _ := v.Get("m_syncLobbyState")
	if lobby == nil {
		return nil
	}
	sp := func(x *bitpack.Value) model.Span {
		return model.Span{Stream: fInit, Off: int64(x.Off), Len: int64(x.End-x.Off) + 1}
	}
	intField := func(x *bitpack.Value, k string) (model.Field, bool) {
		f, ok := x.Get(k)
		if !ok {
			return model.Field{}, false
		}
		n, ok := x.IntOf(k)
		if !ok {
			return model.Field{}, false
		}
		if f.Kind == bitpack.KBool {
			return model.Field{Key: strings.TrimPrefix(k, "m_"), Label: k, Value: n != 0, Span: sp(f)}, true
		}
		return model.Field{Key: strings.TrimPrefix(k, "m_"), Label: k, Value: n, Span: sp(f)}, true
	}
	g := model.Field{Key: "initData", Label: "Lobby (replay.initData)", Value: "layout of base build " + p.name,
		Span: model.Span{Stream: fInit, Len: int64(len(b))}}
	if desc, ok := lobby.Get("m_gameDescription"); ok {
		for _, k := range []string{"m_mapSizeX", "m_mapSizeY", "m_maxPlayers", "m_maxObservers", "m_maxTeams", "m_gameSpeed", "m_gameType", "m_isBlizzardMap"} {
			if f, ok := intField(desc, k); ok {
				if k == "m_gameSpeed" {
					if n, _ := f.Value.(int64); n >= 0 && int(n) < len(speedNames) {
						f.Name = speedNames[n]
					}
				}
				g.Fields = append(g.Fields, f)
			}
		}
		if m, ok := desc.BytesOf("m_mapFileName"); ok {
			g.Fields = append(g.Fields, model.Field{Key: "mapFileName", Label: "m_mapFileName", Value: string(m)})
		}
		if x, ok := desc.IntOf("m_mapSizeX"); ok {
			d.mapW = x
		}
		if y, ok := desc.IntOf("m_mapSizeY"); ok {
			d.mapH = y
		}
		if opt, ok := desc.Get("m_gameOptions"); ok {
			of := model.Field{Key: "gameOptions", Label: "m_gameOptions", Span: sp(opt)}
			for i := range opt.Fields {
				o := &opt.Fields[i]
				if f, ok := intField(opt, o.Name); ok {
					of.Fields = append(of.Fields, f)
				}
			}
			g.Fields = append(g.Fields, of)
		}
	}
	// user id -> name, to tie lobby users to the players of replay.details
	userName := map[int64]string{}
	users := model.Field{Key: "users", Label: "m_userInitialData"}
	if ui, ok := lobby.Get("m_userInitialData"); ok {
		for i := range ui.Items {
			u := &ui.Items[i]
			name, _ := u.BytesOf("m_name")
			if len(name) == 0 {
				continue
			}
			userName[int64(i)] = string(name)
			f := model.Field{Key: fmt.Sprintf("user%d", i), Label: fmt.Sprintf("user %d", i), Value: string(name), Span: sp(u)}
			if c, ok := u.BytesOf("m_clanTag"); ok {
				f.Fields = append(f.Fields, model.Field{Key: "clanTag", Label: "m_clanTag", Value: string(c)})
			}
			for _, k := range []string{"m_highestLeague", "m_scaledRating", "m_observe"} {
				if x, ok := intField(u, k); ok {
					f.Fields = append(f.Fields, x)
				}
			}
			users.Fields = append(users.Fields, f)
		}
	}
	g.Fields = append(g.Fields, users)
	if ls, ok := lobby.Get("m_lobbyState"); ok {
		if x, ok := intField(ls, "m_hostUserId"); ok {
			g.Fields = append(g.Fields, x)
		}
		if slots, ok := ls.Get("m_slots"); ok {
			sf := model.Field{Key: "slots", Label: "m_slots", Value: int64(len(slots.Items))}
			for i := range slots.Items {
				s := &slots.Items[i]
				ctl, _ := s.IntOf("m_control")
				uid, hasUser := s.IntOf("m_userId")
				wss, hasWss := s.IntOf("m_workingSetSlotId")
				toon, _ := s.BytesOf("m_toonHandle")
				f := model.Field{Key: fmt.Sprintf("slot%d", i), Label: fmt.Sprintf("slot %d", i), Value: controlName(ctl), Span: sp(s)}
				if hasUser {
					if n, ok := userName[uid]; ok {
						f.Value = n
					}
				}
				f.Fields = append(f.Fields, model.Field{Key: "control", Label: "m_control", Value: ctl, Name: controlName(ctl)})
				if hasUser {
					f.Fields = append(f.Fields, model.Field{Key: "userId", Label: "m_userId", Value: uid, Name: userName[uid]})
				}
				if x, ok := intField(s, "m_teamId"); ok {
					f.Fields = append(f.Fields, x)
				}
				if rp, ok := s.Get("m_racePref"); ok {
					if r, ok := rp.IntOf("m_race"); ok {
						f.Fields = append(f.Fields, model.Field{Key: "racePref", Label: "m_racePref", Value: r, Span: sp(rp)})
					}
				}
				if cp, ok := s.Get("m_colorPref"); ok {
					if c, ok := cp.IntOf("m_color"); ok {
						f.Fields = append(f.Fields, model.Field{Key: "colorPref", Label: "m_colorPref", Value: c, Span: sp(cp)})
					}
				}
				if x, ok := intField(s, "m_handicap"); ok {
					f.Fields = append(f.Fields, x)
				}
				if x, ok := intField(s, "m_observe"); ok {
					f.Fields = append(f.Fields, x)
				}
				if x, ok := intField(s, "m_difficulty"); ok && ctl == 3 {
					f.Fields = append(f.Fields, x)
				}
				if len(toon) > 0 {
					f.Fields = append(f.Fields, model.Field{Key: "toonHandle", Label: "m_toonHandle", Value: string(toon)})
				}
				// The working-set slot ties a lobby slot (and its user) to
				// the player in replay.details.
				if hasUser && hasWss {
					for pi, p := range d.players {
						if p.hasWorkingSlot && p.workingSlot == wss {
							if _, seen := d.userToPl[int(uid)]; !seen {
								d.userToPl[int(uid)] = pi
							}
						}
					}
				}
				sf.Fields = append(sf.Fields, f)
			}
			g.Fields = append(g.Fields, sf)
		}
	}
	// Lobbies without working-set slots (HotS before 24764) tie a user to
	// a replay.details player by name only.
	if !p.slotUsers {
		for uid, n := range userName {
			if _, seen := d.userToPl[int(uid)]; !seen {
				if pi := d.playerNamed(n); pi >= 0 {
					d.userToPl[int(uid)] = pi
				}
			}
		}
	}
	// WoL game events (the layouts with slotUsers) number their senders
	// from 1 in the order of the lobby's occupied slots, observers
	// included; 16 is the game itself. The player of such a slot is the
	// replay.details player of the slot user's name.
	if p.slotUsers {
		d.gameUserToPl = map[int]int{}
		if ls, ok := lobby.Get("m_lobbyState"); ok {
			if slots, ok := ls.Get("m_slots"); ok {
				n := 0
				for i := range slots.Items {
					s := &slots.Items[i]
					if ctl, _ := s.IntOf("m_control"); ctl != 2 && ctl != 3 {
						continue
					}
					n++
					uid, ok := s.IntOf("m_userId")
					if !ok {
						continue
					}
					if pi := d.playerNamed(userName[uid]); pi >= 0 {
						d.gameUserToPl[n] = pi
					}
				}
			}
		}
	}
	d.r.Header = append(d.r.Header, g)
	return p
}

// playerNamed is the index of the only replay.details player with the
// name, or -1.
func (d *decoder) playerNamed(n string) int {
	match := -1
	for pi, p := range d.players {
		if n != "" && p.name == n {
			if match >= 0 {
				return -1
			}
			match = pi
		}
	}
	return match
}
