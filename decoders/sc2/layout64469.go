package sc2

import "rewind/decoders/sc2/bitpack"

// Layout of replay.initData and replay.game.events for base build 64469
// (LotV 4.3), written from the typeinfos and game event ids that
// s2protocol publishes for that build (types 0-189; the message and
// tracker types after them are read elsewhere). Root of replay.initData:
// type 73.
var layout64469 = `
i 0 7
i 0 4
i 0 5
i 0 6
i 0 14
i 0 22
i 0 32
c 0 2 0=m_uint6:3 1=m_uint14:4 2=m_uint22:5 3=m_uint32:6
s m_userId:2
b 0 8
i 0 8
s m_flags:10 m_major:10 m_minor:10 m_revision:10 m_build:6 m_baseBuild:6
i 0 3
B
a 16 0 10
o 14
b 16 0
s m_dataDeprecated:15 m_data:16
s m_signature:9 m_version:11 m_type:12 m_elapsedGameLoops:6 m_useScaledTime:13 m_ngdpRootKey:17 m_dataBuildNum:6 m_replayCompatibilityHash:17 m_ngdpRootKeyIsDevData:13
f
b 0 7
i 0 64
s m_region:10 m_programId:19 m_realm:6 m_name:20 m_id:21
s m_a:10 m_r:10 m_g:10 m_b:10
i 0 2
o 10
s m_name:9 m_toon:22 m_race:9 m_color:23 m_control:10 m_teamId:1 m_handicap:0 m_observe:24 m_result:24 m_workingSetSlotId:25 m_hero:9
a 0 5 26
o 27
b 0 10
b 0 11
s m_file:30
i -9223372036854775808 64
o 13
b 0 12
b 40 0
a 0 6 35
o 36
a 0 6 30
o 38
s m_playerList:28 m_title:29 m_difficulty:9 m_thumbnail:31 m_isBlizzardMap:13 m_timeUTC:32 m_timeLocalOffset:32 m_restartAsTransitionMap:33 m_disableRecoverGame:13 m_description:34 m_imageFilePath:30 m_campaignIndex:10 m_mapFileName:30 m_cacheHandles:37 m_miniSave:13 m_gameSpeed:12 m_defaultDifficulty:3 m_modPaths:39
o 9
o 35
o 6
s m_race:25
s m_team:25
b 0 9
i -2147483648 32
o 47
s m_name:9 m_clanTag:41 m_clanLogo:42 m_highestLeague:25 m_combinedRaceLevels:43 m_randomSeed:6 m_racePreference:44 m_teamPreference:45 m_testMap:13 m_testAuto:13 m_examine:13 m_customInterface:13 m_testType:6 m_observe:24 m_hero:46 m_skin:46 m_mount:46 m_toonHandle:20 m_scaledRating:48
a 0 5 49
s m_lockTeams:13 m_teamsTogether:13 m_advancedSharedControl:13 m_randomRaces:13 m_battleNet:13 m_amm:13 m_competitive:13 m_practice:13 m_cooperative:13 m_noVictoryOrDefeat:13 m_heroDuplicatesAllowed:13 m_fog:24 m_observers:24 m_userDifficulty:24 m_clientDebugFlags:21 m_buildCoachEnabled:13
i 1 4
i 1 8
x 0 6
x 0 8
x 0 2
s m_allowedColors:54 m_allowedRaces:55 m_allowedDifficulty:54 m_allowedControls:55 m_allowedObserveTypes:56 m_allowedAIBuilds:55
a 0 5 57
s m_randomValue:6 m_gameCacheName:29 m_gameOptions:51 m_gameSpeed:12 m_gameType:12 m_maxUsers:2 m_maxObservers:2 m_maxPlayers:2 m_maxTeams:52 m_maxColors:3 m_maxRaces:53 m_maxControls:10 m_mapSizeX:10 m_mapSizeY:10 m_mapFileSyncChecksum:6 m_mapFileName:30 m_mapAuthorName:9 m_modFileSyncChecksum:6 m_slotDescriptions:58 m_defaultDifficulty:3 m_defaultAIBuild:10 m_cacheHandles:36 m_hasExtensionMod:13 m_hasNonBlizzardExtensionMod:13 m_isBlizzardMap:13 m_isPremadeFFA:13 m_isCoopMode:13 m_isRealtimeMode:13
o 1
o 2
s m_color:61
a 0 4 46
a 0 17 6
a 0 9 6
a 0 3 6
s m_key:6 m_rewards:64
a 0 17 67
s m_control:10 m_userId:60 m_teamId:1 m_colorPref:62 m_racePref:44 m_difficulty:3 m_aiBuild:10 m_handicap:0 m_observe:24 m_logoIndex:6 m_hero:46 m_skin:46 m_mount:46 m_artifacts:63 m_workingSetSlotId:25 m_rewards:64 m_toonHandle:20 m_licenses:65 m_tandemLeaderId:60 m_commander:46 m_commanderLevel:6 m_hasSilencePenalty:13 m_tandemId:60 m_commanderMasteryLevel:6 m_commanderMasteryTalents:66 m_rewardOverrides:68
a 0 5 69
s m_phase:12 m_maxUsers:2 m_maxObservers:2 m_slots:70 m_randomSeed:6 m_hostUserId:60 m_isSinglePlayer:13 m_pickedMapTag:10 m_gameDuration:6 m_defaultDifficulty:3 m_defaultAIBuild:10
s m_userInitialData:50 m_gameDescription:59 m_lobbyState:71
s m_syncLobbyState:72
s m_name:20
b 0 6
s m_name:75
s m_name:75 m_type:6 m_data:20
s m_type:6 m_name:75 m_data:34
a 0 5 10
s m_signature:79 m_toonHandle:20
s m_gameFullyDownloaded:13 m_developmentCheatsEnabled:13 m_testCheatsEnabled:13 m_multiplayerCheatsEnabled:13 m_syncChecksummingEnabled:13 m_isMapToMapTransition:13 m_debugPauseEnabled:13 m_useGalaxyAsserts:13 m_platformMac:13 m_cameraFollow:13 m_baseBuildNum:6 m_buildNum:6 m_versionFlags:6 m_hotkeyProfile:46
s
i 0 16
s x:83 y:83
s m_which:12 m_target:84
s m_fileName:30 m_automatic:13 m_overwrite:13 m_name:9 m_description:29
s m_sequence:6
s x:47 y:47
s m_point:88 m_time:47 m_verb:29 m_arguments:29
s m_data:89
i 0 26
s m_abilLink:83 m_abilCmdIndex:2 m_abilCmdData:25
o 92
n
i 0 20
s x:95 y:95 z:47
s m_targetUnitFlags:83 m_timer:10 m_tag:6 m_snapshotUnitLink:83 m_snapshotControlPlayerId:60 m_snapshotUpkeepPlayerId:60 m_snapshotPoint:96
c 0 2 0=None:94 1=TargetPoint:96 2=TargetUnit:97 3=Data:6
i 1 32
s m_cmdFlags:91 m_abil:93 m_data:98 m_sequence:99 m_otherUnit:43 m_unitGroup:43
i 0 9
x 0 9
a 0 9 101
c 0 2 0=None:94 1=Mask:102 2=OneIndices:103 3=ZeroIndices:103
s m_unitLink:83 m_subgroupPriority:10 m_intraSubgroupPriority:10 m_count:101
a 0 9 105
s m_subgroupIndex:101 m_removeMask:104 m_addSubgroups:106 m_addUnitTags:65
s m_controlGroupId:1 m_delta:107
s m_controlGroupIndex:1 m_controlGroupUpdate:12 m_mask:104
s m_count:101 m_subgroupCount:101 m_activeSubgroupIndex:101 m_unitTagsChecksum:6 m_subgroupIndicesChecksum:6 m_subgroupsChecksum:6
s m_controlGroupId:1 m_selectionSyncData:110
a 0 3 47
s m_recipientId:1 m_resources:112
s m_chatMessage:29
i -128 8
s x:47 y:47 z:47
s m_beacon:115 m_ally:115 m_flags:115 m_build:115 m_targetUnitTag:6 m_targetUnitSnapshotUnitLink:83 m_targetUnitSnapshotUpkeepPlayerId:115 m_targetUnitSnapshotControlPlayerId:115 m_targetPoint:116
s m_speed:12
s m_delta:115
s m_point:88 m_unit:6 m_unitLink:83 m_unitControlPlayerId:60 m_unitUpkeepPlayerId:60 m_unitPosition:96 m_unitIsUnderConstruction:13 m_pingedMinimap:13 m_option:47
s m_verb:29 m_arguments:29
s m_alliance:6 m_control:6
s m_unitTag:6
s m_unitTag:6 m_flags:10
s m_conversationId:47 m_replyId:47
o 20
s m_gameUserId:1 m_observe:24 m_name:9 m_toonHandle:126 m_clanTag:41 m_clanLogo:42
a 0 5 127
i 0 1
s m_userInfos:128 m_method:129
s m_purchaseItemId:47
s m_difficultyLevel:47
c 0 3 0=None:94 1=Checked:13 2=ValueChanged:6 3=SelectionChanged:47 4=TextChanged:30 5=MouseButton:6
s m_controlId:47 m_eventType:47 m_eventData:133
s m_soundHash:6 m_length:6
a 0 7 6
s m_soundHash:136 m_length:136
s m_syncInfo:137
s m_queryId:83 m_lengthMs:6 m_finishGameLoop:6
s m_queryId:83 m_lengthMs:6
s m_animWaitQueryId:83
s m_sound:6
s m_transmissionId:47 m_thread:6
s m_transmissionId:47
o 84
o 83
o 115
s m_target:145 m_distance:146 m_pitch:146 m_yaw:146 m_reason:147 m_follow:13
s m_skipType:129
i 0 11
s x:150 y:150
s m_button:6 m_down:13 m_posUI:151 m_posWorld:96 m_flags:115
s m_posUI:151 m_posWorld:96 m_flags:115
s m_achievementLink:83
s m_hotkey:6 m_down:13
s m_abilLink:83 m_abilCmdIndex:2 m_state:115
s m_soundtrack:6
s m_planetId:47
s m_key:115 m_flags:115
s m_resources:112
s m_fulfillRequestId:47
s m_cancelRequestId:47
s m_error:47 m_abil:93
s m_researchItemId:47
s m_mercenaryId:47
s m_battleReportId:47 m_difficultyLevel:47
s m_battleReportId:47
s m_decrementSeconds:47
s m_portraitId:47
s m_functionName:20
s m_result:47
s m_gameMenuItemIndex:47
i -32768 16
s m_wheelSpin:173 m_flags:115
s m_purchaseCategoryId:47
s m_button:83
s m_cutsceneId:47 m_bookmarkName:20
s m_cutsceneId:47
s m_cutsceneId:47 m_conversationLine:20 m_altConversationLine:20
s m_cutsceneId:47 m_conversationLine:20
s m_leaveReason:1
s m_observe:24 m_name:9 m_toonHandle:126 m_clanTag:41 m_clanLogo:42 m_hijack:13 m_hijackCloneGameUserId:60
o 99
s m_state:24 m_sequence:183
s m_target:96
s m_target:97
s m_catalog:10 m_entry:83 m_field:9 m_value:9
s m_index:6
s m_shown:13
`

var events64469 = `
5 82 UserFinishedLoadingSync
7 81 UserOptions
9 74 BankFile
10 76 BankSection
11 77 BankKey
12 78 BankValue
13 80 BankSignature
14 85 CameraSave
21 86 SaveGame
22 82 SaveGameDone
23 82 LoadGameDone
25 87 CommandManagerReset
26 90 GameCheat
27 100 Cmd
28 108 SelectionDelta
29 109 ControlGroupUpdate
30 111 SelectionSyncCheck
31 113 ResourceTrade
32 114 TriggerChatMessage
33 117 AICommunicate
34 118 SetAbsoluteGameSpeed
35 119 AddAbsoluteGameSpeed
36 120 TriggerPing
37 121 BroadcastCheat
38 122 Alliance
39 123 UnitClick
40 124 UnitHighlight
41 125 TriggerReplySelected
43 130 HijackReplayGame
44 82 TriggerSkipped
45 135 TriggerSoundLengthQuery
46 142 TriggerSoundOffset
47 143 TriggerTransmissionOffset
48 144 TriggerTransmissionComplete
49 148 CameraUpdate
50 82 TriggerAbortMission
51 131 TriggerPurchaseMade
52 82 TriggerPurchaseExit
53 132 TriggerPlanetMissionLaunched
54 82 TriggerPlanetPanelCanceled
55 134 TriggerDialogControl
56 138 TriggerSoundLengthSync
57 149 TriggerConversationSkipped
58 152 TriggerMouseClicked
59 153 TriggerMouseMoved
60 154 AchievementAwarded
61 155 TriggerHotkeyPressed
62 156 TriggerTargetModeUpdate
63 82 TriggerPlanetPanelReplay
64 157 TriggerSoundtrackDone
65 158 TriggerPlanetMissionSelected
66 159 TriggerKeyPressed
67 170 TriggerMovieFunction
68 82 TriggerPlanetPanelBirthComplete
69 82 TriggerPlanetPanelDeathComplete
70 160 ResourceRequest
71 161 ResourceRequestFulfill
72 162 ResourceRequestCancel
73 82 TriggerResearchPanelExit
74 82 TriggerResearchPanelPurchase
75 164 TriggerResearchPanelSelectionChanged
76 163 TriggerCommandError
77 82 TriggerMercenaryPanelExit
78 82 TriggerMercenaryPanelPurchase
79 165 TriggerMercenaryPanelSelectionChanged
80 82 TriggerVictoryPanelExit
81 82 TriggerBattleReportPanelExit
82 166 TriggerBattleReportPanelPlayMission
83 167 TriggerBattleReportPanelPlayScene
84 167 TriggerBattleReportPanelSelectionChanged
85 132 TriggerVictoryPanelPlayMissionAgain
86 82 TriggerMovieStarted
87 82 TriggerMovieFinished
88 168 DecrementGameTimeRemaining
89 169 TriggerPortraitLoaded
90 171 TriggerCustomDialogDismissed
91 172 TriggerGameMenuItemSelected
92 174 TriggerMouseWheel
93 131 TriggerPurchasePanelSelectedPurchaseItemChanged
94 175 TriggerPurchasePanelSelectedPurchaseCategoryChanged
95 176 TriggerButtonPressed
96 82 TriggerGameCreditsFinished
97 177 TriggerCutsceneBookmarkFired
98 178 TriggerCutsceneEndSceneFired
99 179 TriggerCutsceneConversationLine
100 180 TriggerCutsceneConversationLineMissing
101 181 GameUserLeave
102 182 GameUserJoin
103 184 CommandManagerState
104 185 CmdUpdateTargetPoint
105 186 CmdUpdateTargetUnit
106 139 TriggerAnimLengthQueryByName
107 140 TriggerAnimLengthQueryByProps
108 141 TriggerAnimOffset
109 187 CatalogModify
110 188 HeroTalentTreeSelected
111 82 TriggerProfilerLoggingFinished
112 189 HeroTalentTreeSelectionPanelToggled
`

// layout65895 is the layout of base build 65895 (LotV 4.4) from
// s2protocol's module for it: the 64469 types plus type 190, the sync time
// of the four loading and playing time events (ids 116-119) that build
// adds.
func layout65895() bitpack.Table {
	return append(parseLayout(layout64469), tStruct(fl("m_syncTime", 6)))
}

var events65895 = events64469 + `
116 190 SetSyncLoadingTime
117 190 SetSyncPlayingTime
118 190 PeerSetSyncLoadingTime
119 190 PeerSetSyncPlayingTime
`

// layout56787 is the layout of base build 56787 (LotV 4.0) from
// s2protocol's module for it: the 64469 types without the build-coach game
// option (type 51) and with 25 bits of command flags (type 91, 26 in
// 64469). Event ids and their types are those of 64469.
func layout56787() bitpack.Table {
	t := append(bitpack.Table(nil), parseLayout(layout64469)...)
	t[51] = tStruct(fl("m_lockTeams", 13), fl("m_teamsTogether", 13), fl("m_advancedSharedControl", 13), fl("m_randomRaces", 13),
		fl("m_battleNet", 13), fl("m_amm", 13), fl("m_competitive", 13), fl("m_practice", 13), fl("m_cooperative", 13),
		fl("m_noVictoryOrDefeat", 13), fl("m_heroDuplicatesAllowed", 13), fl("m_fog", 24), fl("m_observers", 24),
		fl("m_userDifficulty", 24), fl("m_clientDebugFlags", 21))
	t[91] = tInt(0, 25)
	return t
}
