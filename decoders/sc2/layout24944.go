package sc2

import "rewind/decoders/sc2/bitpack"

// Layout of replay.initData and replay.game.events for base build 24944
// (HotS 2.0.4-2.0.9), written from the typeinfos and game event ids that
// s2protocol publishes for that build. Game events name their sender with
// the lobby user id (NNet.Replay.SGameUserId, 5 bits) as in later builds.
// Root of replay.initData: type 61.
//
// s2protocol's 24944 module lists no event 14 (camera save), yet 2.0.8
// replays hold it (hotkeyed camera positions); type 164 gives it the body
// s2protocol's 26490 module describes: which camera (3 bits) and a target
// of two 16-bit coordinates. With it every 24944 corpus file reads to the
// end of its game events.
var layout24944 = `
i 0 7
i 0 4
i 0 6
i 0 14
i 0 22
i 0 32
c 0 2 0=m_uint6:2 1=m_uint14:3 2=m_uint22:4 3=m_uint32:5
i 0 5
s m_userId:7
b 0 8
i 0 8
s m_flags:10 m_major:10 m_minor:10 m_revision:10 m_build:5 m_baseBuild:5
i 0 3
s m_signature:9 m_version:11 m_type:12 m_elapsedGameLoops:5
f
b 0 7
i 0 64
s m_region:10 m_programId:14 m_realm:5 m_name:15 m_id:16
s m_a:10 m_r:10 m_g:10 m_b:10
i 0 2
o 10
s m_name:9 m_toon:17 m_race:9 m_color:18 m_control:10 m_teamId:1 m_handicap:0 m_observe:19 m_result:19 m_workingSetSlotId:20
a 0 5 21
o 22
b 0 10
b 0 11
s m_file:25
B
i -9223372036854775808 64
b 0 12
b 40 0
a 0 6 30
o 31
a 0 6 25
o 33
s m_playerList:23 m_title:24 m_difficulty:9 m_thumbnail:26 m_isBlizzardMap:27 m_timeUTC:28 m_timeLocalOffset:28 m_description:29 m_imageFilePath:25 m_campaignIndex:10 m_mapFileName:25 m_cacheHandles:32 m_miniSave:27 m_gameSpeed:12 m_defaultDifficulty:2 m_modPaths:34
o 9
o 5
s m_race:20
s m_team:20
s m_name:9 m_clanTag:36 m_highestLeague:20 m_combinedRaceLevels:37 m_randomSeed:5 m_racePreference:38 m_teamPreference:39 m_testMap:27 m_testAuto:27 m_examine:27 m_customInterface:27 m_observe:19
a 0 5 40
s m_lockTeams:27 m_teamsTogether:27 m_advancedSharedControl:27 m_randomRaces:27 m_battleNet:27 m_amm:27 m_competitive:27 m_noVictoryOrDefeat:27 m_fog:19 m_observers:19 m_userDifficulty:19 m_clientDebugFlags:16
i 1 4
i 1 8
x 0 6
x 0 8
x 0 2
x 0 7
s m_allowedColors:45 m_allowedRaces:46 m_allowedDifficulty:45 m_allowedControls:46 m_allowedObserveTypes:47 m_allowedAIBuilds:48
a 0 5 49
s m_randomValue:5 m_gameCacheName:24 m_gameOptions:42 m_gameSpeed:12 m_gameType:12 m_maxUsers:7 m_maxObservers:7 m_maxPlayers:7 m_maxTeams:43 m_maxColors:2 m_maxRaces:44 m_maxControls:44 m_mapSizeX:10 m_mapSizeY:10 m_mapFileSyncChecksum:5 m_mapFileName:25 m_mapAuthorName:9 m_modFileSyncChecksum:5 m_slotDescriptions:50 m_defaultDifficulty:2 m_defaultAIBuild:0 m_cacheHandles:31 m_isBlizzardMap:27 m_isPremadeFFA:27 m_isCoopMode:27
o 1
o 7
s m_color:53
a 0 6 5
a 0 9 5
s m_control:10 m_userId:52 m_teamId:1 m_colorPref:54 m_racePref:38 m_difficulty:2 m_aiBuild:0 m_handicap:0 m_observe:19 m_workingSetSlotId:20 m_rewards:55 m_toonHandle:15 m_licenses:56
a 0 5 57
s m_phase:12 m_maxUsers:7 m_maxObservers:7 m_slots:58 m_randomSeed:5 m_hostUserId:52 m_isSinglePlayer:27 m_gameDuration:5 m_defaultDifficulty:2 m_defaultAIBuild:0
s m_userInitialData:41 m_gameDescription:51 m_lobbyState:59
s m_syncLobbyState:60
s m_name:15
b 0 6
s m_name:63
s m_name:63 m_type:5 m_data:15
s m_type:5 m_name:63 m_data:29
a 0 5 10
s m_signature:67 m_toonHandle:15
s m_gameFullyDownloaded:27 m_developmentCheatsEnabled:27 m_multiplayerCheatsEnabled:27 m_syncChecksummingEnabled:27 m_isMapToMapTransition:27 m_startingRally:27 m_baseBuildNum:5
s
s m_fileName:25 m_automatic:27 m_overwrite:27 m_name:9 m_description:24
i -2147483648 32
s x:72 y:72
s m_point:73 m_time:72 m_verb:24 m_arguments:24
s m_data:74
i 0 20
i 0 16
s m_abilLink:77 m_abilCmdIndex:7 m_abilCmdData:20
o 78
n
s x:76 y:76 z:72
s m_targetUnitFlags:10 m_timer:10 m_tag:5 m_snapshotUnitLink:77 m_snapshotControlPlayerId:52 m_snapshotUpkeepPlayerId:52 m_snapshotPoint:81
c 0 2 0=None:80 1=TargetPoint:81 2=TargetUnit:82 3=Data:5
s m_cmdFlags:76 m_abil:79 m_data:83 m_otherUnit:37
i 0 9
x 0 9
a 0 9 85
c 0 2 0=None:80 1=Mask:86 2=OneIndices:87 3=ZeroIndices:87
s m_unitLink:77 m_subgroupPriority:10 m_intraSubgroupPriority:10 m_count:85
a 0 9 89
s m_subgroupIndex:85 m_removeMask:88 m_addSubgroups:90 m_addUnitTags:56
s m_controlGroupId:1 m_delta:91
s m_controlGroupIndex:1 m_controlGroupUpdate:19 m_mask:88
s m_count:85 m_subgroupCount:85 m_activeSubgroupIndex:85 m_unitTagsChecksum:5 m_subgroupIndicesChecksum:5 m_subgroupsChecksum:5
s m_controlGroupId:1 m_selectionSyncData:94
a 0 3 72
s m_recipientId:1 m_resources:96
s m_chatMessage:24
i -128 8
s x:72 y:72 z:72
s m_beacon:99 m_ally:99 m_flags:99 m_build:99 m_targetUnitTag:5 m_targetUnitSnapshotUnitLink:77 m_targetUnitSnapshotUpkeepPlayerId:99 m_targetUnitSnapshotControlPlayerId:99 m_targetPoint:100
s m_speed:12
s m_delta:99
s m_point:73 m_unit:5 m_pingedMinimap:27
s m_verb:24 m_arguments:24
s m_alliance:5 m_control:5
s m_unitTag:5
s m_unitTag:5 m_flags:10
s m_conversationId:72 m_replyId:72
o 15
s m_gameUserId:1 m_observe:19 m_name:9 m_toonHandle:110 m_clanTag:36
a 0 5 111
i 0 1
s m_userInfos:112 m_method:113
s m_purchaseItemId:72
s m_difficultyLevel:72
c 0 3 0=None:80 1=Checked:27 2=ValueChanged:5 3=SelectionChanged:72 4=TextChanged:25 5=MouseButton:5
s m_controlId:72 m_eventType:72 m_eventData:117
s m_soundHash:5 m_length:5
a 0 7 5
s m_soundHash:120 m_length:120
s m_syncInfo:121
s m_sound:5
s m_transmissionId:72 m_thread:5
s m_transmissionId:72
s x:77 y:77
o 126
o 77
s m_target:127 m_distance:128 m_pitch:128 m_yaw:128
s m_skipType:113
i 0 11
s x:131 y:131
s m_button:5 m_down:27 m_posUI:132 m_posWorld:81
s m_posUI:132 m_posWorld:81
s m_achievementLink:77
s m_abilLink:77 m_abilCmdIndex:7 m_state:99
s m_soundtrack:5
s m_planetId:72
s m_key:99 m_flags:99
s m_resources:96
s m_fulfillRequestId:72
s m_cancelRequestId:72
s m_researchItemId:72
s m_mercenaryId:72
s m_battleReportId:72 m_difficultyLevel:72
s m_battleReportId:72
i 0 19
s m_decrementMs:147
s m_portraitId:72
s m_functionName:15
s m_result:72
s m_gameMenuItemIndex:72
s m_reason:99
s m_purchaseCategoryId:72
s m_button:77
s m_cutsceneId:72 m_bookmarkName:15
s m_cutsceneId:72
s m_cutsceneId:72 m_conversationLine:15 m_altConversationLine:15
s m_cutsceneId:72 m_conversationLine:15
s m_observe:19 m_name:9 m_toonHandle:110 m_clanTag:36
s m_recipient:12 m_string:25
s m_recipient:12 m_point:73
s m_progress:72
s m_which:12 m_target:126
`

var events24944 = `
5 70 UserFinishedLoadingSync
7 69 UserOptions
14 164 CameraSave
9 62 BankFile
10 64 BankSection
11 65 BankKey
12 66 BankValue
13 68 BankSignature
21 71 SaveGame
22 70 SaveGameDone
23 70 LoadGameDone
26 75 GameCheat
27 84 Cmd
28 92 SelectionDelta
29 93 ControlGroupUpdate
30 95 SelectionSyncCheck
31 97 ResourceTrade
32 98 TriggerChatMessage
33 101 AICommunicate
34 102 SetAbsoluteGameSpeed
35 103 AddAbsoluteGameSpeed
36 104 TriggerPing
37 105 BroadcastCheat
38 106 Alliance
39 107 UnitClick
40 108 UnitHighlight
41 109 TriggerReplySelected
43 114 HijackReplayGame
44 70 TriggerSkipped
45 119 TriggerSoundLengthQuery
46 123 TriggerSoundOffset
47 124 TriggerTransmissionOffset
48 125 TriggerTransmissionComplete
49 129 CameraUpdate
50 70 TriggerAbortMission
51 115 TriggerPurchaseMade
52 70 TriggerPurchaseExit
53 116 TriggerPlanetMissionLaunched
54 70 TriggerPlanetPanelCanceled
55 118 TriggerDialogControl
56 122 TriggerSoundLengthSync
57 130 TriggerConversationSkipped
58 133 TriggerMouseClicked
59 134 TriggerMouseMoved
60 135 AchievementAwarded
62 136 TriggerTargetModeUpdate
63 70 TriggerPlanetPanelReplay
64 137 TriggerSoundtrackDone
65 138 TriggerPlanetMissionSelected
66 139 TriggerKeyPressed
67 150 TriggerMovieFunction
68 70 TriggerPlanetPanelBirthComplete
69 70 TriggerPlanetPanelDeathComplete
70 140 ResourceRequest
71 141 ResourceRequestFulfill
72 142 ResourceRequestCancel
73 70 TriggerResearchPanelExit
74 70 TriggerResearchPanelPurchase
75 143 TriggerResearchPanelSelectionChanged
77 70 TriggerMercenaryPanelExit
78 70 TriggerMercenaryPanelPurchase
79 144 TriggerMercenaryPanelSelectionChanged
80 70 TriggerVictoryPanelExit
81 70 TriggerBattleReportPanelExit
82 145 TriggerBattleReportPanelPlayMission
83 146 TriggerBattleReportPanelPlayScene
84 146 TriggerBattleReportPanelSelectionChanged
85 116 TriggerVictoryPanelPlayMissionAgain
86 70 TriggerMovieStarted
87 70 TriggerMovieFinished
88 148 DecrementGameTimeRemaining
89 149 TriggerPortraitLoaded
90 151 TriggerCustomDialogDismissed
91 152 TriggerGameMenuItemSelected
92 153 TriggerCameraMove
93 115 TriggerPurchasePanelSelectedPurchaseItemChanged
94 154 TriggerPurchasePanelSelectedPurchaseCategoryChanged
95 155 TriggerButtonPressed
96 70 TriggerGameCreditsFinished
97 156 TriggerCutsceneBookmarkFired
98 157 TriggerCutsceneEndSceneFired
99 158 TriggerCutsceneConversationLine
100 159 TriggerCutsceneConversationLineMissing
101 70 GameUserLeave
102 160 GameUserJoin
`

// layout24247 is the lobby of base build 24247 (HotS 2.0.0-2.0.3): s2protocol
// has no module for it, so it is the 24944 layout less what sc2reader's
// initData reader reads only from base build 24764 on: the user's clan tag,
// highest league, combined race levels and custom interface flag, the
// slot's working-set slot, the lobby's default AI build, and a 6-bit (not
// 5-bit) reward count. sc2reader reads the game events of 24247 to 26489
// one way, which is 24944's.
func layout24247() bitpack.Table {
	t := append(bitpack.Table(nil), parseLayout(layout24944)...)
	t[40] = tStruct(fl("m_name", 9), fl("m_randomSeed", 5), fl("m_racePreference", 38), fl("m_teamPreference", 39),
		fl("m_testMap", 27), fl("m_testAuto", 27), fl("m_examine", 27), fl("m_observe", 19))
	t[55] = tArr(0, 5, 5)
	t[57] = tStruct(fl("m_control", 10), fl("m_userId", 52), fl("m_teamId", 1), fl("m_colorPref", 54), fl("m_racePref", 38),
		fl("m_difficulty", 2), fl("m_aiBuild", 0), fl("m_handicap", 0), fl("m_observe", 19), fl("m_rewards", 55),
		fl("m_toonHandle", 15), fl("m_licenses", 56))
	t[59] = tStruct(fl("m_phase", 12), fl("m_maxUsers", 7), fl("m_maxObservers", 7), fl("m_slots", 58), fl("m_randomSeed", 5),
		fl("m_hostUserId", 52), fl("m_isSinglePlayer", 27), fl("m_gameDuration", 5), fl("m_defaultDifficulty", 2))
	return t
}

// layout26490 is the layout of base build 26490 (HotS 2.0.10-2.0.11): the
// game events of s2protocol's 26490 module differ from 24944's in the user
// options (a debug-pause flag before the base build) and in the flags byte
// that ends a mouse click and a mouse move (which sc2reader's 26490 reader
// also adds); sc2reader's initData reader changes nothing between 24764 and
// 27950, so the lobby is 24944's.
func layout26490() bitpack.Table {
	t := append(bitpack.Table(nil), parseLayout(layout24944)...)
	t[69] = tStruct(fl("m_gameFullyDownloaded", 27), fl("m_developmentCheatsEnabled", 27), fl("m_multiplayerCheatsEnabled", 27),
		fl("m_syncChecksummingEnabled", 27), fl("m_isMapToMapTransition", 27), fl("m_startingRally", 27),
		fl("m_debugPauseEnabled", 27), fl("m_baseBuildNum", 5))
	t[133] = tStruct(fl("m_button", 5), fl("m_down", 27), fl("m_posUI", 132), fl("m_posWorld", 81), fl("m_flags", 99))
	t[134] = tStruct(fl("m_posUI", 132), fl("m_posWorld", 81), fl("m_flags", 99))
	return t
}
