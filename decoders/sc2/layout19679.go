package sc2

import "rewind/decoders/sc2/bitpack"

// Layout of replay.initData and replay.game.events for base build 19679
// (WoL 1.4), written from the typeinfos and game event ids that s2protocol
// publishes for that build. Against 17326 it adds the slot licenses (type
// 50), widens the command flags to 18 bits and splits the snapshot player
// of a unit target into control and upkeep players. Root of
// replay.initData: type 55.
var layout19679 = `
i 0 7
i 0 4
i 0 6
i 0 14
i 0 22
i 0 32
c 0 2 0=m_uint6:2 1=m_uint14:3 2=m_uint22:4 3=m_uint32:5
b 0 8
i 0 8
s m_flags:8 m_major:8 m_minor:8 m_revision:8 m_build:5 m_baseBuild:5
i 0 3
s m_signature:7 m_version:9 m_type:10 m_elapsedGameLoops:5
f
b 0 7
i 0 64
s m_region:8 m_programId:12 m_realm:5 m_name:13 m_id:14
s m_a:8 m_r:8 m_g:8 m_b:8
i 0 2
s m_name:7 m_toon:15 m_race:7 m_color:16 m_control:8 m_teamId:1 m_handicap:0 m_observe:17 m_result:17
a 0 5 18
o 19
b 0 10
b 0 11
s m_file:22
B
i -9223372036854775808 64
b 0 12
b 40 0
a 0 4 27
o 28
s m_playerList:20 m_title:21 m_difficulty:7 m_thumbnail:23 m_isBlizzardMap:24 m_timeUTC:25 m_timeLocalOffset:25 m_description:26 m_imageFilePath:22 m_mapFileName:22 m_cacheHandles:29 m_miniSave:24 m_gameSpeed:10 m_defaultDifficulty:2
o 8
s m_race:31
s m_team:31
s m_name:7 m_randomSeed:5 m_racePreference:32 m_teamPreference:33 m_testMap:24 m_testAuto:24 m_observe:17
a 0 5 34
s m_lockTeams:24 m_teamsTogether:24 m_advancedSharedControl:24 m_randomRaces:24 m_battleNet:24 m_amm:24 m_ranked:24 m_noVictoryOrDefeat:24 m_fog:17 m_observers:17 m_userDifficulty:17
i 0 5
i 1 4
i 1 8
x 0 6
x 0 8
x 0 2
s m_allowedColors:40 m_allowedRaces:41 m_allowedDifficulty:40 m_allowedControls:41 m_allowedObserveTypes:42
a 0 5 43
s m_randomValue:5 m_gameCacheName:21 m_gameOptions:36 m_gameSpeed:10 m_gameType:10 m_maxUsers:37 m_maxObservers:37 m_maxPlayers:37 m_maxTeams:38 m_maxColors:2 m_maxRaces:39 m_maxControls:39 m_mapSizeX:8 m_mapSizeY:8 m_mapFileSyncChecksum:5 m_mapFileName:22 m_mapAuthorName:7 m_modFileSyncChecksum:5 m_slotDescriptions:44 m_defaultDifficulty:2 m_cacheHandles:28 m_isBlizzardMap:24 m_isPremadeFFA:24
o 1
o 37
s m_color:47
a 0 5 5
a 0 9 5
s m_control:8 m_userId:46 m_teamId:1 m_colorPref:48 m_racePref:32 m_difficulty:2 m_handicap:0 m_observe:17 m_rewards:49 m_toonHandle:13 m_licenses:50
a 0 5 51
s m_phase:10 m_maxUsers:37 m_maxObservers:37 m_slots:52 m_randomSeed:5 m_hostUserId:46 m_isSinglePlayer:24 m_gameDuration:5 m_defaultDifficulty:2
s m_userInitialData:35 m_gameDescription:45 m_lobbyState:53
s m_syncLobbyState:54
s m_name:13
b 0 6
s m_name:57
s m_name:57 m_type:5 m_data:13
s m_type:5 m_name:57 m_data:26
a 0 5 8
s m_signature:61
s m_developmentCheatsEnabled:24 m_multiplayerCheatsEnabled:24 m_syncChecksummingEnabled:24 m_isMapToMapTransition:24
s
s m_fileName:22 m_automatic:24 m_overwrite:24 m_name:7 m_description:21
i -2147483648 32
s x:66 y:66
s m_point:67 m_time:66 m_verb:21 m_arguments:21
s m_data:68
i 0 18
i 0 16
s m_abilLink:71 m_abilCmdIndex:37 m_abilCmdData:31
o 72
n
i 0 20
s x:75 y:75 z:66
s m_targetUnitFlags:8 m_timer:8 m_tag:5 m_snapshotUnitLink:71 m_snapshotControlPlayerId:46 m_snapshotUpkeepPlayerId:46 m_snapshotPoint:76
c 0 2 0=None:74 1=TargetPoint:76 2=TargetUnit:77 3=Data:5
o 5
s m_cmdFlags:70 m_abil:73 m_data:78 m_otherUnit:79
a 0 8 8
c 0 2 0=None:74 1=Mask:41 2=OneIndices:81 3=ZeroIndices:81
s m_unitLink:71 m_intraSubgroupPriority:8 m_count:8
a 0 8 83
a 0 8 5
s m_subgroupIndex:8 m_removeMask:82 m_addSubgroups:84 m_addUnitTags:85
s m_controlGroupId:1 m_delta:86
s m_controlGroupIndex:1 m_controlGroupUpdate:17 m_mask:82
s m_count:8 m_subgroupCount:8 m_activeSubgroupIndex:8 m_unitTagsChecksum:5 m_subgroupIndicesChecksum:5 m_subgroupsChecksum:5
s m_controlGroupId:1 m_selectionSyncData:89
a 0 3 66
s m_recipientId:1 m_resources:91
s m_chatMessage:21
i -128 8
s x:66 y:66 z:66
s m_beacon:94 m_ally:94 m_autocast:94 m_targetUnitTag:5 m_targetUnitSnapshotUnitLink:71 m_targetUnitSnapshotUpkeepPlayerId:46 m_targetUnitSnapshotControlPlayerId:46 m_targetPoint:95
s m_speed:10
s m_delta:94
s m_verb:21 m_arguments:21
s m_alliance:5 m_control:5
s m_unitTag:5
s m_unitTag:5 m_flags:8
s m_conversationId:66 m_replyId:66
s m_purchaseItemId:66
s m_difficultyLevel:66
c 0 3 0=None:74 1=Checked:24 2=ValueChanged:5 3=SelectionChanged:66 4=TextChanged:22
s m_controlId:66 m_eventType:66 m_eventData:106
s m_soundHash:5 m_length:5
s m_soundHash:85 m_length:85
s m_syncInfo:109
s m_sound:5
s m_transmissionId:66
s x:71 y:71
o 71
s m_target:113 m_distance:114 m_pitch:114 m_yaw:114
i 0 1
s m_skipType:116
i 0 11
s x:118 y:118
s m_button:5 m_down:24 m_posUI:119 m_posWorld:76
s m_posUI:119 m_posWorld:76
s m_soundtrack:5
s m_planetId:66
s m_key:94 m_flags:94
s m_resources:91
s m_fulfillRequestId:66
s m_cancelRequestId:66
s m_researchItemId:66
s m_laggingPlayerId:1
s m_mercenaryId:66
s m_battleReportId:66 m_difficultyLevel:66
s m_battleReportId:66
i 0 19
s m_decrementMs:133
s m_portraitId:66
s m_functionName:13
s m_result:66
s m_gameMenuItemIndex:66
s m_reason:94
s m_purchaseCategoryId:66
s m_button:71
`

var events19679 = `
5 64 UserFinishedLoadingSync
7 56 BankFile
8 58 BankSection
9 59 BankKey
10 60 BankValue
11 62 BankSignature
12 63 UserOptions
22 65 SaveGame
23 64 SaveGameDone
25 64 PlayerLeave
26 69 GameCheat
27 80 Cmd
28 87 SelectionDelta
29 88 ControlGroupUpdate
30 90 SelectionSyncCheck
31 92 ResourceTrade
32 93 TriggerChatMessage
33 96 AICommunicate
34 97 SetAbsoluteGameSpeed
35 98 AddAbsoluteGameSpeed
37 99 BroadcastCheat
38 100 Alliance
39 101 UnitClick
40 102 UnitHighlight
41 103 TriggerReplySelected
44 64 TriggerSkipped
45 108 TriggerSoundLengthQuery
46 111 TriggerSoundOffset
47 112 TriggerTransmissionOffset
48 112 TriggerTransmissionComplete
49 115 CameraUpdate
50 64 TriggerAbortMission
51 104 TriggerPurchaseMade
52 64 TriggerPurchaseExit
53 105 TriggerPlanetMissionLaunched
54 64 TriggerPlanetPanelCanceled
55 107 TriggerDialogControl
56 110 TriggerSoundLengthSync
57 117 TriggerConversationSkipped
58 120 TriggerMouseClicked
59 121 TriggerMouseMoved
63 64 TriggerPlanetPanelReplay
64 122 TriggerSoundtrackDone
65 123 TriggerPlanetMissionSelected
66 124 TriggerKeyPressed
67 136 TriggerMovieFunction
68 64 TriggerPlanetPanelBirthComplete
69 64 TriggerPlanetPanelDeathComplete
70 125 ResourceRequest
71 126 ResourceRequestFulfill
72 127 ResourceRequestCancel
73 64 TriggerResearchPanelExit
74 64 TriggerResearchPanelPurchase
75 128 TriggerResearchPanelSelectionChanged
76 129 LagMessage
77 64 TriggerMercenaryPanelExit
78 64 TriggerMercenaryPanelPurchase
79 130 TriggerMercenaryPanelSelectionChanged
80 64 TriggerVictoryPanelExit
81 64 TriggerBattleReportPanelExit
82 131 TriggerBattleReportPanelPlayMission
83 132 TriggerBattleReportPanelPlayScene
84 132 TriggerBattleReportPanelSelectionChanged
85 105 TriggerVictoryPanelPlayMissionAgain
86 64 TriggerMovieStarted
87 64 TriggerMovieFinished
88 134 DecrementGameTimeRemaining
89 135 TriggerPortraitLoaded
90 137 TriggerCustomDialogDismissed
91 138 TriggerGameMenuItemSelected
92 139 TriggerCameraMove
93 104 TriggerPurchasePanelSelectedPurchaseItemChanged
94 140 TriggerPurchasePanelSelectedPurchaseCategoryChanged
95 141 TriggerButtonPressed
96 64 TriggerGameCreditsFinished
`

// layout19132 is the layout of base build 19132 (WoL 1.3.5-1.3.6) from
// s2protocol's module for it: the 19679 types except that a command's unit
// target (type 77) and an AI communication (type 96) carry one snapshot
// player where 19679 has a control and an upkeep player. Event ids and
// their types are those of 19679.
func layout19132() bitpack.Table {
	t := append(bitpack.Table(nil), parseLayout(layout19679)...)
	t[77] = tStruct(fl("m_targetUnitFlags", 8), fl("m_timer", 8), fl("m_tag", 5), fl("m_snapshotUnitLink", 71),
		fl("m_snapshotPlayerId", 46), fl("m_snapshotPoint", 76))
	t[96] = tStruct(fl("m_beacon", 94), fl("m_ally", 94), fl("m_autocast", 94), fl("m_targetUnitTag", 5),
		fl("m_targetUnitSnapshotUnitLink", 71), fl("m_targetUnitSnapshotPlayerId", 46), fl("m_targetPoint", 95))
	return t
}
