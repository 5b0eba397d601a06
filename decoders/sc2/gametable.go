package sc2

import "rewind/decoders/sc2/bitpack"

func tNull() bitpack.Type { return bitpack.Type{Kind: bitpack.KNull} }
func tChoice(off int64, bits uint, m map[int64]bitpack.Field) bitpack.Type {
	return bitpack.Type{Kind: bitpack.KChoice, Offset: off, Bits: bits, Choices: m}
}

// gameTable97364 extends the initData layout with the replay.game.events
// types of s2protocol's protocol 97364 (types 74-191). The corpus shows
// the same layout from base build 80949 to 96883: streams decode to their
// last byte with it.
var gameTable97364 = func() bitpack.Table {
	t := make(bitpack.Table, 192)
	copy(t, initData97364)
	add := func(i int, ty bitpack.Type) { t[i] = ty }
	add(74, tStruct(fl("m_name", 20)))
	add(75, tBlob(0, 6))
	add(76, tStruct(fl("m_name", 75)))
	add(77, tStruct(fl("m_name", 75), fl("m_type", 6), fl("m_data", 20)))
	add(78, tStruct(fl("m_type", 6), fl("m_name", 75), fl("m_data", 34)))
	add(79, tArr(0, 5, 10))
	add(80, tStruct(fl("m_signature", 79), fl("m_toonHandle", 20)))
	add(81, tStruct(fl("m_gameFullyDownloaded", 13), fl("m_developmentCheatsEnabled", 13), fl("m_testCheatsEnabled", 13),
		fl("m_multiplayerCheatsEnabled", 13), fl("m_syncChecksummingEnabled", 13), fl("m_isMapToMapTransition", 13),
		fl("m_debugPauseEnabled", 13), fl("m_useGalaxyAsserts", 13), fl("m_platformMac", 13), fl("m_cameraFollow", 13),
		fl("m_baseBuildNum", 6), fl("m_buildNum", 6), fl("m_versionFlags", 6), fl("m_hotkeyProfile", 46)))
	add(82, tStruct())
	add(83, tInt(0, 16))
	add(84, tStruct(fl("x", 83), fl("y", 83)))
	add(85, tStruct(fl("m_which", 12), fl("m_target", 84)))
	add(86, tStruct(fl("m_fileName", 30), fl("m_automatic", 13), fl("m_overwrite", 13), fl("m_name", 9), fl("m_description", 29)))
	add(87, tStruct(fl("m_sequence", 6)))
	add(88, tStruct(fl("x", 47), fl("y", 47)))
	add(89, tStruct(fl("m_point", 88), fl("m_time", 47), fl("m_verb", 29), fl("m_arguments", 29)))
	add(90, tStruct(fl("m_data", 89)))
	add(91, tInt(0, 27))
	add(92, tStruct(fl("m_abilLink", 83), fl("m_abilCmdIndex", 2), fl("m_abilCmdData", 25)))
	add(93, tOpt(92))
	add(94, tNull())
	add(95, tInt(0, 20))
	add(96, tStruct(fl("x", 95), fl("y", 95), fl("z", 47)))
	add(97, tStruct(fl("m_targetUnitFlags", 83), fl("m_timer", 10), fl("m_tag", 6), fl("m_snapshotUnitLink", 83),
		fl("m_snapshotControlPlayerId", 60), fl("m_snapshotUpkeepPlayerId", 60), fl("m_snapshotPoint", 96)))
	add(98, tChoice(0, 2, map[int64]bitpack.Field{0: fl("None", 94), 1: fl("TargetPoint", 96), 2: fl("TargetUnit", 97), 3: fl("Data", 6)}))
	add(99, tInt(1, 32))
	add(100, tStruct(fl("m_cmdFlags", 91), fl("m_abil", 93), fl("m_data", 98), fl("m_sequence", 99), fl("m_otherUnit", 43), fl("m_unitGroup", 43)))
	add(101, tInt(0, 9))
	add(102, tBits(0, 9))
	add(103, tArr(0, 9, 101))
	add(104, tChoice(0, 2, map[int64]bitpack.Field{0: fl("None", 94), 1: fl("Mask", 102), 2: fl("OneIndices", 103), 3: fl("ZeroIndices", 103)}))
	add(105, tStruct(fl("m_unitLink", 83), fl("m_subgroupPriority", 10), fl("m_intraSubgroupPriority", 10), fl("m_count", 101)))
	add(106, tArr(0, 9, 105))
	add(107, tArr(0, 9, 6))
	add(108, tStruct(fl("m_subgroupIndex", 101), fl("m_removeMask", 104), fl("m_addSubgroups", 106), fl("m_addUnitTags", 107)))
	add(109, tStruct(fl("m_controlGroupId", 1), fl("m_delta", 108)))
	add(110, tStruct(fl("m_controlGroupIndex", 1), fl("m_controlGroupUpdate", 12), fl("m_mask", 104)))
	add(111, tStruct(fl("m_count", 101), fl("m_subgroupCount", 101), fl("m_activeSubgroupIndex", 101),
		fl("m_unitTagsChecksum", 6), fl("m_subgroupIndicesChecksum", 6), fl("m_subgroupsChecksum", 6)))
	add(112, tStruct(fl("m_controlGroupId", 1), fl("m_selectionSyncData", 111)))
	add(113, tArr(0, 3, 47))
	add(114, tStruct(fl("m_recipientId", 1), fl("m_resources", 113)))
	add(115, tStruct(fl("m_chatMessage", 29)))
	add(116, tInt(-128, 8))
	add(117, tStruct(fl("x", 47), fl("y", 47), fl("z", 47)))
	add(118, tStruct(fl("m_beacon", 116), fl("m_ally", 116), fl("m_flags", 116), fl("m_build", 116), fl("m_targetUnitTag", 6),
		fl("m_targetUnitSnapshotUnitLink", 83), fl("m_targetUnitSnapshotUpkeepPlayerId", 116),
		fl("m_targetUnitSnapshotControlPlayerId", 116), fl("m_targetPoint", 117)))
	add(119, tStruct(fl("m_speed", 12)))
	add(120, tStruct(fl("m_delta", 116)))
	add(121, tStruct(fl("m_point", 88), fl("m_unit", 6), fl("m_unitLink", 83), fl("m_unitControlPlayerId", 60),
		fl("m_unitUpkeepPlayerId", 60), fl("m_unitPosition", 96), fl("m_unitIsUnderConstruction", 13),
		fl("m_pingedMinimap", 13), fl("m_option", 47)))
	add(122, tStruct(fl("m_verb", 29), fl("m_arguments", 29)))
	add(123, tStruct(fl("m_alliance", 6), fl("m_control", 6)))
	add(124, tStruct(fl("m_unitTag", 6)))
	add(125, tStruct(fl("m_unitTag", 6), fl("m_flags", 10)))
	add(126, tStruct(fl("m_conversationId", 47), fl("m_replyId", 47)))
	add(127, tOpt(20))
	add(128, tStruct(fl("m_gameUserId", 1), fl("m_observe", 24), fl("m_name", 9), fl("m_toonHandle", 127), fl("m_clanTag", 41), fl("m_clanLogo", 42)))
	add(129, tArr(0, 5, 128))
	add(130, tInt(0, 1))
	add(131, tStruct(fl("m_userInfos", 129), fl("m_method", 130)))
	add(132, tStruct(fl("m_purchaseItemId", 47)))
	add(133, tStruct(fl("m_difficultyLevel", 47)))
	add(134, tChoice(0, 3, map[int64]bitpack.Field{0: fl("None", 94), 1: fl("Checked", 13), 2: fl("ValueChanged", 6),
		3: fl("SelectionChanged", 47), 4: fl("TextChanged", 30), 5: fl("MouseButton", 6)}))
	add(135, tStruct(fl("m_controlId", 47), fl("m_eventType", 47), fl("m_eventData", 134)))
	add(136, tStruct(fl("m_soundHash", 6), fl("m_length", 6)))
	add(137, tArr(0, 7, 6))
	add(138, tStruct(fl("m_soundHash", 137), fl("m_length", 137)))
	add(139, tStruct(fl("m_syncInfo", 138)))
	add(140, tStruct(fl("m_queryId", 83), fl("m_lengthMs", 6), fl("m_finishGameLoop", 6)))
	add(141, tStruct(fl("m_queryId", 83), fl("m_lengthMs", 6)))
	add(142, tStruct(fl("m_animWaitQueryId", 83)))
	add(143, tStruct(fl("m_sound", 6)))
	add(144, tStruct(fl("m_transmissionId", 47), fl("m_thread", 6)))
	add(145, tStruct(fl("m_transmissionId", 47)))
	add(146, tOpt(84))
	add(147, tOpt(83))
	add(148, tOpt(116))
	add(149, tStruct(fl("m_target", 146), fl("m_distance", 147), fl("m_pitch", 147), fl("m_yaw", 147), fl("m_reason", 148), fl("m_follow", 13)))
	add(150, tStruct(fl("m_skipType", 130)))
	add(151, tInt(0, 11))
	add(152, tStruct(fl("x", 151), fl("y", 151)))
	add(153, tStruct(fl("m_button", 6), fl("m_down", 13), fl("m_posUI", 152), fl("m_posWorld", 96), fl("m_flags", 116)))
	add(154, tStruct(fl("m_posUI", 152), fl("m_posWorld", 96), fl("m_flags", 116)))
	add(155, tStruct(fl("m_achievementLink", 83)))
	add(156, tStruct(fl("m_hotkey", 6), fl("m_down", 13)))
	add(157, tStruct(fl("m_abilLink", 83), fl("m_abilCmdIndex", 2), fl("m_state", 116)))
	add(158, tStruct(fl("m_soundtrack", 6)))
	add(159, tStruct(fl("m_planetId", 47)))
	add(160, tStruct(fl("m_key", 116), fl("m_flags", 116)))
	add(161, tStruct(fl("m_resources", 113)))
	add(162, tStruct(fl("m_fulfillRequestId", 47)))
	add(163, tStruct(fl("m_cancelRequestId", 47)))
	add(164, tStruct(fl("m_error", 47), fl("m_abil", 93)))
	add(165, tStruct(fl("m_researchItemId", 47)))
	add(166, tStruct(fl("m_mercenaryId", 47)))
	add(167, tStruct(fl("m_battleReportId", 47), fl("m_difficultyLevel", 47)))
	add(168, tStruct(fl("m_battleReportId", 47)))
	add(169, tStruct(fl("m_decrementSeconds", 47)))
	add(170, tStruct(fl("m_portraitId", 47)))
	add(171, tStruct(fl("m_functionName", 20)))
	add(172, tStruct(fl("m_result", 47)))
	add(173, tStruct(fl("m_gameMenuItemIndex", 47)))
	add(174, tInt(-32768, 16))
	add(175, tStruct(fl("m_wheelSpin", 174), fl("m_flags", 116)))
	add(176, tStruct(fl("m_purchaseCategoryId", 47)))
	add(177, tStruct(fl("m_button", 83)))
	add(178, tStruct(fl("m_cutsceneId", 47), fl("m_bookmarkName", 20)))
	add(179, tStruct(fl("m_cutsceneId", 47)))
	add(180, tStruct(fl("m_cutsceneId", 47), fl("m_conversationLine", 20), fl("m_altConversationLine", 20)))
	add(181, tStruct(fl("m_cutsceneId", 47), fl("m_conversationLine", 20)))
	add(182, tStruct(fl("m_leaveReason", 1)))
	add(183, tStruct(fl("m_observe", 24), fl("m_name", 9), fl("m_toonHandle", 127), fl("m_clanTag", 41), fl("m_clanLogo", 42),
		fl("m_hijack", 13), fl("m_hijackCloneGameUserId", 60)))
	add(184, tOpt(99))
	add(185, tStruct(fl("m_state", 24), fl("m_sequence", 184)))
	add(186, tStruct(fl("m_target", 96)))
	add(187, tStruct(fl("m_target", 97)))
	add(188, tStruct(fl("m_catalog", 10), fl("m_entry", 83), fl("m_field", 9), fl("m_value", 9)))
	add(189, tStruct(fl("m_index", 6)))
	add(190, tStruct(fl("m_shown", 13)))
	add(191, tStruct(fl("m_syncTime", 6)))
	return t
}()

// gameEvent is an event id's type and name (NNet.Game.*Event).
type gameEvent struct {
	typ  int
	name string
	kind string // short kind for the events pane
}

var gameEvents97364 = map[int64]gameEvent{
	5: {82, "UserFinishedLoadingSync", "loaded"}, 7: {81, "UserOptions", "options"}, 9: {74, "BankFile", "bank"},
	10: {76, "BankSection", "bank"}, 11: {77, "BankKey", "bank"}, 12: {78, "BankValue", "bank"}, 13: {80, "BankSignature", "bank"},
	14: {85, "CameraSave", "camsave"}, 21: {86, "SaveGame", "save"}, 22: {82, "SaveGameDone", "save"}, 23: {82, "LoadGameDone", "load"},
	25: {87, "CommandManagerReset", "cmdreset"}, 26: {90, "GameCheat", "cheat"}, 27: {100, "Cmd", "cmd"},
	28: {109, "SelectionDelta", "select"}, 29: {110, "ControlGroupUpdate", "group"}, 30: {112, "SelectionSyncCheck", "selsync"},
	31: {114, "ResourceTrade", "trade"}, 32: {115, "TriggerChatMessage", "trigger"}, 33: {118, "AICommunicate", "ai"},
	34: {119, "SetAbsoluteGameSpeed", "speed"}, 35: {120, "AddAbsoluteGameSpeed", "speed"}, 36: {121, "TriggerPing", "tping"},
	37: {122, "BroadcastCheat", "cheat"}, 38: {123, "Alliance", "alliance"}, 39: {124, "UnitClick", "click"},
	40: {125, "UnitHighlight", "highlight"}, 41: {126, "TriggerReplySelected", "trigger"}, 43: {131, "HijackReplayGame", "hijack"},
	44: {82, "TriggerSkipped", "trigger"}, 45: {136, "TriggerSoundLengthQuery", "trigger"}, 46: {143, "TriggerSoundOffset", "trigger"},
	47: {144, "TriggerTransmissionOffset", "trigger"}, 48: {145, "TriggerTransmissionComplete", "trigger"},
	49: {149, "CameraUpdate", "camera"}, 50: {82, "TriggerAbortMission", "trigger"}, 51: {132, "TriggerPurchaseMade", "trigger"},
	52: {82, "TriggerPurchaseExit", "trigger"}, 53: {133, "TriggerPlanetMissionLaunched", "trigger"},
	54: {82, "TriggerPlanetPanelCanceled", "trigger"}, 55: {135, "TriggerDialogControl", "dialog"},
	56: {139, "TriggerSoundLengthSync", "trigger"}, 57: {150, "TriggerConversationSkipped", "trigger"},
	58: {153, "TriggerMouseClicked", "mouse"}, 59: {154, "TriggerMouseMoved", "mouse"}, 60: {155, "AchievementAwarded", "achievement"},
	61: {156, "TriggerHotkeyPressed", "hotkey"}, 62: {157, "TriggerTargetModeUpdate", "targetmode"},
	63: {82, "TriggerPlanetPanelReplay", "trigger"}, 64: {158, "TriggerSoundtrackDone", "trigger"},
	65: {159, "TriggerPlanetMissionSelected", "trigger"}, 66: {160, "TriggerKeyPressed", "key"}, 67: {171, "TriggerMovieFunction", "trigger"},
	68: {82, "TriggerPlanetPanelBirthComplete", "trigger"}, 69: {82, "TriggerPlanetPanelDeathComplete", "trigger"},
	70: {161, "ResourceRequest", "request"}, 71: {162, "ResourceRequestFulfill", "request"}, 72: {163, "ResourceRequestCancel", "request"},
	73: {82, "TriggerResearchPanelExit", "trigger"}, 74: {82, "TriggerResearchPanelPurchase", "trigger"},
	75: {165, "TriggerResearchPanelSelectionChanged", "trigger"}, 76: {164, "TriggerCommandError", "cmderror"},
	77: {82, "TriggerMercenaryPanelExit", "trigger"}, 78: {82, "TriggerMercenaryPanelPurchase", "trigger"},
	79: {166, "TriggerMercenaryPanelSelectionChanged", "trigger"}, 80: {82, "TriggerVictoryPanelExit", "trigger"},
	81: {82, "TriggerBattleReportPanelExit", "trigger"}, 82: {167, "TriggerBattleReportPanelPlayMission", "trigger"},
	83: {168, "TriggerBattleReportPanelPlayScene", "trigger"}, 84: {168, "TriggerBattleReportPanelSelectionChanged", "trigger"},
	85: {133, "TriggerVictoryPanelPlayMissionAgain", "trigger"}, 86: {82, "TriggerMovieStarted", "trigger"},
	87: {82, "TriggerMovieFinished", "trigger"}, 88: {169, "DecrementGameTimeRemaining", "timer"},
	89: {170, "TriggerPortraitLoaded", "trigger"}, 90: {172, "TriggerCustomDialogDismissed", "dialog"},
	91: {173, "TriggerGameMenuItemSelected", "menu"}, 92: {175, "TriggerMouseWheel", "mouse"},
	93: {132, "TriggerPurchasePanelSelectedPurchaseItemChanged", "trigger"},
	94: {176, "TriggerPurchasePanelSelectedPurchaseCategoryChanged", "trigger"}, 95: {177, "TriggerButtonPressed", "button"},
	96: {82, "TriggerGameCreditsFinished", "trigger"}, 97: {178, "TriggerCutsceneBookmarkFired", "trigger"},
	98: {179, "TriggerCutsceneEndSceneFired", "trigger"}, 99: {180, "TriggerCutsceneConversationLine", "trigger"},
	100: {181, "TriggerCutsceneConversationLineMissing", "trigger"}, 101: {182, "GameUserLeave", "leave"},
	102: {183, "GameUserJoin", "join"}, 103: {185, "CommandManagerState", "cmdstate"}, 104: {186, "CmdUpdateTargetPoint", "cmdupdate"},
	105: {187, "CmdUpdateTargetUnit", "cmdupdate"}, 106: {140, "TriggerAnimLengthQueryByName", "trigger"},
	107: {141, "TriggerAnimLengthQueryByProps", "trigger"}, 108: {142, "TriggerAnimOffset", "trigger"},
	109: {188, "CatalogModify", "catalog"}, 110: {189, "HeroTalentTreeSelected", "talent"},
	111: {82, "TriggerProfilerLoggingFinished", "trigger"}, 112: {190, "HeroTalentTreeSelectionPanelToggled", "talent"},
	116: {191, "SetSyncLoadingTime", "sync"}, 117: {191, "SetSyncPlayingTime", "sync"},
	118: {191, "PeerSetSyncLoadingTime", "sync"}, 119: {191, "PeerSetSyncPlayingTime", "sync"},
}
