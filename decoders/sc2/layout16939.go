package sc2

// Layout of replay.initData and replay.game.events for base build 16939
// (WoL 1.1.3), written from the typeinfos and game event ids that
// s2protocol publishes for that build. Against 17326: the lobby's colour
// count has its own type (39: 5 bits from 1), lobby slots
// have no toon handle, there is no bank signature event (id 11 is the user
// options) and the mouse click carries separate UI and world coordinates
// with no mouse move event. Root of replay.initData: type 55.
var layout16939 = `
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
i 1 5
i 1 8
x 0 6
x 0 8
x 0 2
s m_allowedColors:41 m_allowedRaces:42 m_allowedDifficulty:41 m_allowedControls:42 m_allowedObserveTypes:43
a 0 5 44
s m_randomValue:5 m_gameCacheName:21 m_gameOptions:36 m_gameSpeed:10 m_gameType:10 m_maxUsers:37 m_maxObservers:37 m_maxPlayers:37 m_maxTeams:38 m_maxColors:39 m_maxRaces:40 m_maxControls:40 m_mapSizeX:8 m_mapSizeY:8 m_mapFileSyncChecksum:5 m_mapFileName:22 m_mapAuthorName:7 m_modFileSyncChecksum:5 m_slotDescriptions:45 m_defaultDifficulty:2 m_cacheHandles:28 m_isBlizzardMap:24 m_isPremadeFFA:24
o 1
o 37
s m_color:48
a 0 5 5
s m_control:8 m_userId:47 m_teamId:1 m_colorPref:49 m_racePref:32 m_difficulty:2 m_handicap:0 m_observe:17 m_rewards:50
a 0 5 51
s m_phase:10 m_maxUsers:37 m_maxObservers:37 m_slots:52 m_randomSeed:5 m_hostUserId:47 m_isSinglePlayer:24 m_gameDuration:5 m_defaultDifficulty:2
s m_userInitialData:35 m_gameDescription:46 m_lobbyState:53
s m_syncLobbyState:54
s m_name:13
b 0 6
s m_name:57
s m_name:57 m_type:5 m_data:13
s m_type:5 m_name:57 m_data:26
s m_developmentCheatsEnabled:24 m_multiplayerCheatsEnabled:24 m_syncChecksummingEnabled:24 m_isMapToMapTransition:24
s
s m_fileName:22 m_automatic:24 m_overwrite:24 m_name:7 m_description:21
i -2147483648 32
s x:64 y:64
s m_point:65 m_time:64 m_verb:21 m_arguments:21
s m_data:66
i 0 17
i 0 16
s m_abilLink:69 m_abilCmdIndex:37 m_abilCmdData:31
o 70
n
i 0 20
s x:73 y:73 z:64
s m_targetUnitFlags:8 m_timer:8 m_tag:5 m_snapshotUnitLink:69 m_snapshotPlayerId:47 m_snapshotPoint:74
c 0 2 0=None:72 1=TargetPoint:74 2=TargetUnit:75 3=Data:5
o 5
s m_cmdFlags:68 m_abil:71 m_data:76 m_otherUnit:77
a 0 8 8
c 0 2 0=None:72 1=Mask:42 2=OneIndices:79 3=ZeroIndices:79
s m_unitLink:69 m_intraSubgroupPriority:8 m_count:8
a 0 8 81
a 0 8 5
s m_subgroupIndex:8 m_removeMask:80 m_addSubgroups:82 m_addUnitTags:83
s m_controlGroupId:1 m_delta:84
s m_controlGroupIndex:1 m_controlGroupUpdate:17 m_mask:80
s m_count:8 m_subgroupCount:8 m_activeSubgroupIndex:8 m_unitTagsChecksum:5 m_subgroupIndicesChecksum:5 m_subgroupsChecksum:5
s m_controlGroupId:1 m_selectionSyncData:87
a 0 3 64
s m_recipientId:1 m_resources:89
s m_chatMessage:21
i -128 8
s x:64 y:64 z:64
s m_beacon:92 m_ally:92 m_autocast:92 m_targetUnitTag:5 m_targetUnitSnapshotUnitLink:69 m_targetUnitSnapshotPlayerId:47 m_targetPoint:93
s m_speed:10
s m_delta:92
s m_verb:21 m_arguments:21
s m_alliance:5 m_control:5
s m_unitTag:5
s m_unitTag:5 m_flags:8
s m_conversationId:64 m_replyId:64
s m_purchaseItemId:64
s m_difficultyLevel:64
c 0 3 0=None:72 1=Checked:24 2=ValueChanged:5 3=SelectionChanged:64 4=TextChanged:22
s m_controlId:64 m_eventType:64 m_eventData:104
s m_soundHash:5 m_length:5
s m_soundHash:83 m_length:83
s m_syncInfo:107
s m_sound:5
s m_transmissionId:64
s x:69 y:69
o 69
s m_target:111 m_distance:112 m_pitch:112 m_yaw:112
i 0 1
s m_skipType:114
s m_button:5 m_down:24 m_posXUI:5 m_posYUI:5 m_posXWorld:64 m_posYWorld:64 m_posZWorld:64
s m_soundtrack:5
s m_planetId:64
s m_key:92 m_flags:92
s m_resources:89
s m_fulfillRequestId:64
s m_cancelRequestId:64
s m_researchItemId:64
s m_laggingPlayerId:1
s m_mercenaryId:64
s m_battleReportId:64 m_difficultyLevel:64
s m_battleReportId:64
i 0 19
s m_decrementMs:128
s m_portraitId:64
s m_functionName:13
s m_result:64
s m_gameMenuItemIndex:64
s m_reason:92
s m_purchaseCategoryId:64
s m_button:69
`

var events16939 = `
5 62 UserFinishedLoadingSync
7 56 BankFile
8 58 BankSection
9 59 BankKey
10 60 BankValue
11 61 UserOptions
22 63 SaveGame
23 62 SaveGameDone
25 62 PlayerLeave
26 67 GameCheat
27 78 Cmd
28 85 SelectionDelta
29 86 ControlGroupUpdate
30 88 SelectionSyncCheck
31 90 ResourceTrade
32 91 TriggerChatMessage
33 94 AICommunicate
34 95 SetAbsoluteGameSpeed
35 96 AddAbsoluteGameSpeed
37 97 BroadcastCheat
38 98 Alliance
39 99 UnitClick
40 100 UnitHighlight
41 101 TriggerReplySelected
44 62 TriggerSkipped
45 106 TriggerSoundLengthQuery
46 109 TriggerSoundOffset
47 110 TriggerTransmissionOffset
48 110 TriggerTransmissionComplete
49 113 CameraUpdate
50 62 TriggerAbortMission
51 102 TriggerPurchaseMade
52 62 TriggerPurchaseExit
53 103 TriggerPlanetMissionLaunched
54 62 TriggerPlanetPanelCanceled
55 105 TriggerDialogControl
56 108 TriggerSoundLengthSync
57 115 TriggerConversationSkipped
58 116 TriggerMouseClicked
63 62 TriggerPlanetPanelReplay
64 117 TriggerSoundtrackDone
65 118 TriggerPlanetMissionSelected
66 119 TriggerKeyPressed
67 131 TriggerMovieFunction
68 62 TriggerPlanetPanelBirthComplete
69 62 TriggerPlanetPanelDeathComplete
70 120 ResourceRequest
71 121 ResourceRequestFulfill
72 122 ResourceRequestCancel
73 62 TriggerResearchPanelExit
74 62 TriggerResearchPanelPurchase
75 123 TriggerResearchPanelSelectionChanged
76 124 LagMessage
77 62 TriggerMercenaryPanelExit
78 62 TriggerMercenaryPanelPurchase
79 125 TriggerMercenaryPanelSelectionChanged
80 62 TriggerVictoryPanelExit
81 62 TriggerBattleReportPanelExit
82 126 TriggerBattleReportPanelPlayMission
83 127 TriggerBattleReportPanelPlayScene
84 127 TriggerBattleReportPanelSelectionChanged
85 103 TriggerVictoryPanelPlayMissionAgain
86 62 TriggerMovieStarted
87 62 TriggerMovieFinished
88 129 DecrementGameTimeRemaining
89 130 TriggerPortraitLoaded
90 132 TriggerCustomDialogDismissed
91 133 TriggerGameMenuItemSelected
92 134 TriggerCameraMove
93 102 TriggerPurchasePanelSelectedPurchaseItemChanged
94 135 TriggerPurchasePanelSelectedPurchaseCategoryChanged
95 136 TriggerButtonPressed
96 62 TriggerGameCreditsFinished
`
