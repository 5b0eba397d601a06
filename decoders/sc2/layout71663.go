package sc2

import "rewind/decoders/sc2/bitpack"

// Layout of replay.initData and replay.game.events for base build 71663
// (LotV 4.8), written from the typeinfos and game event ids that
// s2protocol publishes for that build (types 0-191). Against 65895 the
// slot licenses take 13 bits of count (type 65) and a selection's added
// unit tags get their own 9-bit array (type 107), which moves the types
// after it up by one. Root of replay.initData: type 73.
var layout71663 = `
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
a 0 13 6
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
a 0 9 6
s m_subgroupIndex:101 m_removeMask:104 m_addSubgroups:106 m_addUnitTags:107
s m_controlGroupId:1 m_delta:108
s m_controlGroupIndex:1 m_controlGroupUpdate:12 m_mask:104
s m_count:101 m_subgroupCount:101 m_activeSubgroupIndex:101 m_unitTagsChecksum:6 m_subgroupIndicesChecksum:6 m_subgroupsChecksum:6
s m_controlGroupId:1 m_selectionSyncData:111
a 0 3 47
s m_recipientId:1 m_resources:113
s m_chatMessage:29
i -128 8
s x:47 y:47 z:47
s m_beacon:116 m_ally:116 m_flags:116 m_build:116 m_targetUnitTag:6 m_targetUnitSnapshotUnitLink:83 m_targetUnitSnapshotUpkeepPlayerId:116 m_targetUnitSnapshotControlPlayerId:116 m_targetPoint:117
s m_speed:12
s m_delta:116
s m_point:88 m_unit:6 m_unitLink:83 m_unitControlPlayerId:60 m_unitUpkeepPlayerId:60 m_unitPosition:96 m_unitIsUnderConstruction:13 m_pingedMinimap:13 m_option:47
s m_verb:29 m_arguments:29
s m_alliance:6 m_control:6
s m_unitTag:6
s m_unitTag:6 m_flags:10
s m_conversationId:47 m_replyId:47
o 20
s m_gameUserId:1 m_observe:24 m_name:9 m_toonHandle:127 m_clanTag:41 m_clanLogo:42
a 0 5 128
i 0 1
s m_userInfos:129 m_method:130
s m_purchaseItemId:47
s m_difficultyLevel:47
c 0 3 0=None:94 1=Checked:13 2=ValueChanged:6 3=SelectionChanged:47 4=TextChanged:30 5=MouseButton:6
s m_controlId:47 m_eventType:47 m_eventData:134
s m_soundHash:6 m_length:6
a 0 7 6
s m_soundHash:137 m_length:137
s m_syncInfo:138
s m_queryId:83 m_lengthMs:6 m_finishGameLoop:6
s m_queryId:83 m_lengthMs:6
s m_animWaitQueryId:83
s m_sound:6
s m_transmissionId:47 m_thread:6
s m_transmissionId:47
o 84
o 83
o 116
s m_target:146 m_distance:147 m_pitch:147 m_yaw:147 m_reason:148 m_follow:13
s m_skipType:130
i 0 11
s x:151 y:151
s m_button:6 m_down:13 m_posUI:152 m_posWorld:96 m_flags:116
s m_posUI:152 m_posWorld:96 m_flags:116
s m_achievementLink:83
s m_hotkey:6 m_down:13
s m_abilLink:83 m_abilCmdIndex:2 m_state:116
s m_soundtrack:6
s m_planetId:47
s m_key:116 m_flags:116
s m_resources:113
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
s m_wheelSpin:174 m_flags:116
s m_purchaseCategoryId:47
s m_button:83
s m_cutsceneId:47 m_bookmarkName:20
s m_cutsceneId:47
s m_cutsceneId:47 m_conversationLine:20 m_altConversationLine:20
s m_cutsceneId:47 m_conversationLine:20
s m_leaveReason:1
s m_observe:24 m_name:9 m_toonHandle:127 m_clanTag:41 m_clanLogo:42 m_hijack:13 m_hijackCloneGameUserId:60
o 99
s m_state:24 m_sequence:184
s m_target:96
s m_target:97
s m_catalog:10 m_entry:83 m_field:9 m_value:9
s m_index:6
s m_shown:13
s m_syncTime:6
`

var events71663 = `
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
28 109 SelectionDelta
29 110 ControlGroupUpdate
30 112 SelectionSyncCheck
31 114 ResourceTrade
32 115 TriggerChatMessage
33 118 AICommunicate
34 119 SetAbsoluteGameSpeed
35 120 AddAbsoluteGameSpeed
36 121 TriggerPing
37 122 BroadcastCheat
38 123 Alliance
39 124 UnitClick
40 125 UnitHighlight
41 126 TriggerReplySelected
43 131 HijackReplayGame
44 82 TriggerSkipped
45 136 TriggerSoundLengthQuery
46 143 TriggerSoundOffset
47 144 TriggerTransmissionOffset
48 145 TriggerTransmissionComplete
49 149 CameraUpdate
50 82 TriggerAbortMission
51 132 TriggerPurchaseMade
52 82 TriggerPurchaseExit
53 133 TriggerPlanetMissionLaunched
54 82 TriggerPlanetPanelCanceled
55 135 TriggerDialogControl
56 139 TriggerSoundLengthSync
57 150 TriggerConversationSkipped
58 153 TriggerMouseClicked
59 154 TriggerMouseMoved
60 155 AchievementAwarded
61 156 TriggerHotkeyPressed
62 157 TriggerTargetModeUpdate
63 82 TriggerPlanetPanelReplay
64 158 TriggerSoundtrackDone
65 159 TriggerPlanetMissionSelected
66 160 TriggerKeyPressed
67 171 TriggerMovieFunction
68 82 TriggerPlanetPanelBirthComplete
69 82 TriggerPlanetPanelDeathComplete
70 161 ResourceRequest
71 162 ResourceRequestFulfill
72 163 ResourceRequestCancel
73 82 TriggerResearchPanelExit
74 82 TriggerResearchPanelPurchase
75 165 TriggerResearchPanelSelectionChanged
76 164 TriggerCommandError
77 82 TriggerMercenaryPanelExit
78 82 TriggerMercenaryPanelPurchase
79 166 TriggerMercenaryPanelSelectionChanged
80 82 TriggerVictoryPanelExit
81 82 TriggerBattleReportPanelExit
82 167 TriggerBattleReportPanelPlayMission
83 168 TriggerBattleReportPanelPlayScene
84 168 TriggerBattleReportPanelSelectionChanged
85 133 TriggerVictoryPanelPlayMissionAgain
86 82 TriggerMovieStarted
87 82 TriggerMovieFinished
88 169 DecrementGameTimeRemaining
89 170 TriggerPortraitLoaded
90 172 TriggerCustomDialogDismissed
91 173 TriggerGameMenuItemSelected
92 175 TriggerMouseWheel
93 132 TriggerPurchasePanelSelectedPurchaseItemChanged
94 176 TriggerPurchasePanelSelectedPurchaseCategoryChanged
95 177 TriggerButtonPressed
96 82 TriggerGameCreditsFinished
97 178 TriggerCutsceneBookmarkFired
98 179 TriggerCutsceneEndSceneFired
99 180 TriggerCutsceneConversationLine
100 181 TriggerCutsceneConversationLineMissing
101 182 GameUserLeave
102 183 GameUserJoin
103 185 CommandManagerState
104 186 CmdUpdateTargetPoint
105 187 CmdUpdateTargetUnit
106 140 TriggerAnimLengthQueryByName
107 141 TriggerAnimLengthQueryByProps
108 142 TriggerAnimOffset
109 188 CatalogModify
110 189 HeroTalentTreeSelected
111 82 TriggerProfilerLoggingFinished
112 190 HeroTalentTreeSelectionPanelToggled
116 191 SetSyncLoadingTime
117 191 SetSyncPlayingTime
118 191 PeerSetSyncLoadingTime
119 191 PeerSetSyncPlayingTime
`

// layout77379 is the layout of base build 77379 (LotV 4.11) from
// s2protocol's module for it: the 71663 types with the slot licenses
// counted in 16 bits (type 65) and five co-op fields more in a lobby slot
// (type 69). Event ids and their types are those of 71663.
func layout77379() bitpack.Table {
	t := append(bitpack.Table(nil), parseLayout(layout71663)...)
	t[65] = tArr(0, 16, 6)
	t[69] = tStruct(fl("m_control", 10), fl("m_userId", 60), fl("m_teamId", 1), fl("m_colorPref", 62), fl("m_racePref", 44),
		fl("m_difficulty", 3), fl("m_aiBuild", 10), fl("m_handicap", 0), fl("m_observe", 24), fl("m_logoIndex", 6),
		fl("m_hero", 46), fl("m_skin", 46), fl("m_mount", 46), fl("m_artifacts", 63), fl("m_workingSetSlotId", 25),
		fl("m_rewards", 64), fl("m_toonHandle", 20), fl("m_licenses", 65), fl("m_tandemLeaderId", 60), fl("m_commander", 46),
		fl("m_commanderLevel", 6), fl("m_hasSilencePenalty", 13), fl("m_tandemId", 60), fl("m_commanderMasteryLevel", 6),
		fl("m_commanderMasteryTalents", 66), fl("m_trophyId", 6), fl("m_rewardOverrides", 68), fl("m_brutalPlusDifficulty", 6),
		fl("m_retryMutationIndexes", 66), fl("m_aCEnemyRace", 6), fl("m_aCEnemyWaveType", 6))
	return t
}
