package sc2

import "rewind/decoders/sc2/bitpack"

// Layout of replay.initData and replay.game.events for base build 17326
// (WoL 1.2-1.3), written from the typeinfos and game event ids that
// s2protocol publishes for that build. Root of replay.initData: type 54.
var layout17326 = `
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
s m_control:8 m_userId:46 m_teamId:1 m_colorPref:48 m_racePref:32 m_difficulty:2 m_handicap:0 m_observe:17 m_rewards:49 m_toonHandle:13
a 0 5 50
s m_phase:10 m_maxUsers:37 m_maxObservers:37 m_slots:51 m_randomSeed:5 m_hostUserId:46 m_isSinglePlayer:24 m_gameDuration:5 m_defaultDifficulty:2
s m_userInitialData:35 m_gameDescription:45 m_lobbyState:52
s m_syncLobbyState:53
s m_name:13
b 0 6
s m_name:56
s m_name:56 m_type:5 m_data:13
s m_type:5 m_name:56 m_data:26
a 0 5 8
s m_signature:60
s m_developmentCheatsEnabled:24 m_multiplayerCheatsEnabled:24 m_syncChecksummingEnabled:24 m_isMapToMapTransition:24
s
s m_fileName:22 m_automatic:24 m_overwrite:24 m_name:7 m_description:21
i -2147483648 32
s x:65 y:65
s m_point:66 m_time:65 m_verb:21 m_arguments:21
s m_data:67
i 0 17
i 0 16
s m_abilLink:70 m_abilCmdIndex:37 m_abilCmdData:31
o 71
n
i 0 20
s x:74 y:74 z:65
s m_targetUnitFlags:8 m_timer:8 m_tag:5 m_snapshotUnitLink:70 m_snapshotPlayerId:46 m_snapshotPoint:75
c 0 2 0=None:73 1=TargetPoint:75 2=TargetUnit:76 3=Data:5
o 5
s m_cmdFlags:69 m_abil:72 m_data:77 m_otherUnit:78
a 0 8 8
c 0 2 0=None:73 1=Mask:41 2=OneIndices:80 3=ZeroIndices:80
s m_unitLink:70 m_intraSubgroupPriority:8 m_count:8
a 0 8 82
a 0 8 5
s m_subgroupIndex:8 m_removeMask:81 m_addSubgroups:83 m_addUnitTags:84
s m_controlGroupId:1 m_delta:85
s m_controlGroupIndex:1 m_controlGroupUpdate:17 m_mask:81
s m_count:8 m_subgroupCount:8 m_activeSubgroupIndex:8 m_unitTagsChecksum:5 m_subgroupIndicesChecksum:5 m_subgroupsChecksum:5
s m_controlGroupId:1 m_selectionSyncData:88
a 0 3 65
s m_recipientId:1 m_resources:90
s m_chatMessage:21
i -128 8
s x:65 y:65 z:65
s m_beacon:93 m_ally:93 m_autocast:93 m_targetUnitTag:5 m_targetUnitSnapshotUnitLink:70 m_targetUnitSnapshotPlayerId:46 m_targetPoint:94
s m_speed:10
s m_delta:93
s m_verb:21 m_arguments:21
s m_alliance:5 m_control:5
s m_unitTag:5
s m_unitTag:5 m_flags:8
s m_conversationId:65 m_replyId:65
s m_purchaseItemId:65
s m_difficultyLevel:65
c 0 3 0=None:73 1=Checked:24 2=ValueChanged:5 3=SelectionChanged:65 4=TextChanged:22
s m_controlId:65 m_eventType:65 m_eventData:105
s m_soundHash:5 m_length:5
s m_soundHash:84 m_length:84
s m_syncInfo:108
s m_sound:5
s m_transmissionId:65
s x:70 y:70
o 70
s m_target:112 m_distance:113 m_pitch:113 m_yaw:113
i 0 1
s m_skipType:115
i 0 11
s x:117 y:117
s m_button:5 m_down:24 m_posUI:118 m_posWorld:75
s m_posUI:118 m_posWorld:75
s m_soundtrack:5
s m_planetId:65
s m_key:93 m_flags:93
s m_resources:90
s m_fulfillRequestId:65
s m_cancelRequestId:65
s m_researchItemId:65
s m_laggingPlayerId:1
s m_mercenaryId:65
s m_battleReportId:65 m_difficultyLevel:65
s m_battleReportId:65
i 0 19
s m_decrementMs:132
s m_portraitId:65
s m_functionName:13
s m_result:65
s m_gameMenuItemIndex:65
s m_reason:93
s m_purchaseCategoryId:65
s m_button:70
`

var events17326 = `
5 63 UserFinishedLoadingSync
7 55 BankFile
8 57 BankSection
9 58 BankKey
10 59 BankValue
11 61 BankSignature
12 62 UserOptions
22 64 SaveGame
23 63 SaveGameDone
25 63 PlayerLeave
26 68 GameCheat
27 79 Cmd
28 86 SelectionDelta
29 87 ControlGroupUpdate
30 89 SelectionSyncCheck
31 91 ResourceTrade
32 92 TriggerChatMessage
33 95 AICommunicate
34 96 SetAbsoluteGameSpeed
35 97 AddAbsoluteGameSpeed
37 98 BroadcastCheat
38 99 Alliance
39 100 UnitClick
40 101 UnitHighlight
41 102 TriggerReplySelected
44 63 TriggerSkipped
45 107 TriggerSoundLengthQuery
46 110 TriggerSoundOffset
47 111 TriggerTransmissionOffset
48 111 TriggerTransmissionComplete
49 114 CameraUpdate
50 63 TriggerAbortMission
51 103 TriggerPurchaseMade
52 63 TriggerPurchaseExit
53 104 TriggerPlanetMissionLaunched
54 63 TriggerPlanetPanelCanceled
55 106 TriggerDialogControl
56 109 TriggerSoundLengthSync
57 116 TriggerConversationSkipped
58 119 TriggerMouseClicked
59 120 TriggerMouseMoved
63 63 TriggerPlanetPanelReplay
64 121 TriggerSoundtrackDone
65 122 TriggerPlanetMissionSelected
66 123 TriggerKeyPressed
67 135 TriggerMovieFunction
68 63 TriggerPlanetPanelBirthComplete
69 63 TriggerPlanetPanelDeathComplete
70 124 ResourceRequest
71 125 ResourceRequestFulfill
72 126 ResourceRequestCancel
73 63 TriggerResearchPanelExit
74 63 TriggerResearchPanelPurchase
75 127 TriggerResearchPanelSelectionChanged
76 128 LagMessage
77 63 TriggerMercenaryPanelExit
78 63 TriggerMercenaryPanelPurchase
79 129 TriggerMercenaryPanelSelectionChanged
80 63 TriggerVictoryPanelExit
81 63 TriggerBattleReportPanelExit
82 130 TriggerBattleReportPanelPlayMission
83 131 TriggerBattleReportPanelPlayScene
84 131 TriggerBattleReportPanelSelectionChanged
85 104 TriggerVictoryPanelPlayMissionAgain
86 63 TriggerMovieStarted
87 63 TriggerMovieFinished
88 133 DecrementGameTimeRemaining
89 134 TriggerPortraitLoaded
90 136 TriggerCustomDialogDismissed
91 137 TriggerGameMenuItemSelected
92 138 TriggerCameraMove
93 103 TriggerPurchasePanelSelectedPurchaseItemChanged
94 139 TriggerPurchasePanelSelectedPurchaseCategoryChanged
95 140 TriggerButtonPressed
96 63 TriggerGameCreditsFinished
`

// layout18574 is the layout of base build 18574 (WoL 1.3.3-1.3.4) from
// s2protocol's module for it: the 17326 types with the command flags
// (type 69) widened from 17 to 18 bits. Event ids and their types are
// those of 17326.
func layout18574() bitpack.Table {
	t := append(bitpack.Table(nil), parseLayout(layout17326)...)
	t[69] = tInt(0, 18)
	return t
}
