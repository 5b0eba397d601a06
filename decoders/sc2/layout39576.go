package sc2

// Layout of replay.initData and replay.game.events for base build 39576
// (LotV 3.1), written from the typeinfos and game event ids that
// s2protocol publishes for that build (types 0-186; the message and
// tracker types after them are read elsewhere). Root of replay.initData:
// type 68.
var layout39576 = `
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
s m_signature:9 m_version:11 m_type:12 m_elapsedGameLoops:6 m_useScaledTime:13 m_ngdpRootKey:17 m_dataBuildNum:6 m_fixedFileHash:17
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
o 13
i -9223372036854775808 64
b 0 12
b 40 0
a 0 6 35
o 36
a 0 6 30
o 38
s m_playerList:28 m_title:29 m_difficulty:9 m_thumbnail:31 m_isBlizzardMap:13 m_restartAsTransitionMap:32 m_timeUTC:33 m_timeLocalOffset:33 m_description:34 m_imageFilePath:30 m_campaignIndex:10 m_mapFileName:30 m_cacheHandles:37 m_miniSave:13 m_gameSpeed:12 m_defaultDifficulty:3 m_modPaths:39
o 9
o 35
o 6
s m_race:25
s m_team:25
b 0 9
s m_name:9 m_clanTag:41 m_clanLogo:42 m_highestLeague:25 m_combinedRaceLevels:43 m_randomSeed:6 m_racePreference:44 m_teamPreference:45 m_testMap:13 m_testAuto:13 m_examine:13 m_customInterface:13 m_testType:6 m_observe:24 m_hero:46 m_skin:46 m_mount:46 m_toonHandle:20
a 0 5 47
s m_lockTeams:13 m_teamsTogether:13 m_advancedSharedControl:13 m_randomRaces:13 m_battleNet:13 m_amm:13 m_competitive:13 m_practice:13 m_cooperative:13 m_noVictoryOrDefeat:13 m_heroDuplicatesAllowed:13 m_fog:24 m_observers:24 m_userDifficulty:24 m_clientDebugFlags:21
i 1 4
i 1 8
x 0 6
x 0 8
x 0 2
s m_allowedColors:52 m_allowedRaces:53 m_allowedDifficulty:52 m_allowedControls:53 m_allowedObserveTypes:54 m_allowedAIBuilds:53
a 0 5 55
s m_randomValue:6 m_gameCacheName:29 m_gameOptions:49 m_gameSpeed:12 m_gameType:12 m_maxUsers:2 m_maxObservers:2 m_maxPlayers:2 m_maxTeams:50 m_maxColors:3 m_maxRaces:51 m_maxControls:10 m_mapSizeX:10 m_mapSizeY:10 m_mapFileSyncChecksum:6 m_mapFileName:30 m_mapAuthorName:9 m_modFileSyncChecksum:6 m_slotDescriptions:56 m_defaultDifficulty:3 m_defaultAIBuild:10 m_cacheHandles:36 m_hasExtensionMod:13 m_isBlizzardMap:13 m_isPremadeFFA:13 m_isCoopMode:13
o 1
o 2
s m_color:59
a 0 4 46
a 0 17 6
a 0 9 6
s m_control:10 m_userId:58 m_teamId:1 m_colorPref:60 m_racePref:44 m_difficulty:3 m_aiBuild:10 m_handicap:0 m_observe:24 m_logoIndex:6 m_hero:46 m_skin:46 m_mount:46 m_artifacts:61 m_workingSetSlotId:25 m_rewards:62 m_toonHandle:20 m_licenses:63 m_tandemLeaderId:58 m_commander:46 m_commanderLevel:6 m_hasSilencePenalty:13 m_tandemId:58
a 0 5 64
s m_phase:12 m_maxUsers:2 m_maxObservers:2 m_slots:65 m_randomSeed:6 m_hostUserId:58 m_isSinglePlayer:13 m_pickedMapTag:10 m_gameDuration:6 m_defaultDifficulty:3 m_defaultAIBuild:10
s m_userInitialData:48 m_gameDescription:57 m_lobbyState:66
s m_syncLobbyState:67
s m_name:20
b 0 6
s m_name:70
s m_name:70 m_type:6 m_data:20
s m_type:6 m_name:70 m_data:34
a 0 5 10
s m_signature:74 m_toonHandle:20
s m_gameFullyDownloaded:13 m_developmentCheatsEnabled:13 m_testCheatsEnabled:13 m_multiplayerCheatsEnabled:13 m_syncChecksummingEnabled:13 m_isMapToMapTransition:13 m_debugPauseEnabled:13 m_useGalaxyAsserts:13 m_platformMac:13 m_cameraFollow:13 m_baseBuildNum:6 m_buildNum:6 m_versionFlags:6 m_hotkeyProfile:46
s
i 0 16
s x:78 y:78
s m_which:12 m_target:79
s m_fileName:30 m_automatic:13 m_overwrite:13 m_name:9 m_description:29
s m_sequence:6
i -2147483648 32
s x:83 y:83
s m_point:84 m_time:83 m_verb:29 m_arguments:29
s m_data:85
i 0 25
s m_abilLink:78 m_abilCmdIndex:2 m_abilCmdData:25
o 88
n
i 0 20
s x:91 y:91 z:83
s m_targetUnitFlags:78 m_timer:10 m_tag:6 m_snapshotUnitLink:78 m_snapshotControlPlayerId:58 m_snapshotUpkeepPlayerId:58 m_snapshotPoint:92
c 0 2 0=None:90 1=TargetPoint:92 2=TargetUnit:93 3=Data:6
i 1 32
s m_cmdFlags:87 m_abil:89 m_data:94 m_sequence:95 m_otherUnit:43 m_unitGroup:43
i 0 9
x 0 9
a 0 9 97
c 0 2 0=None:90 1=Mask:98 2=OneIndices:99 3=ZeroIndices:99
s m_unitLink:78 m_subgroupPriority:10 m_intraSubgroupPriority:10 m_count:97
a 0 9 101
s m_subgroupIndex:97 m_removeMask:100 m_addSubgroups:102 m_addUnitTags:63
s m_controlGroupId:1 m_delta:103
s m_controlGroupIndex:1 m_controlGroupUpdate:12 m_mask:100
s m_count:97 m_subgroupCount:97 m_activeSubgroupIndex:97 m_unitTagsChecksum:6 m_subgroupIndicesChecksum:6 m_subgroupsChecksum:6
s m_controlGroupId:1 m_selectionSyncData:106
a 0 3 83
s m_recipientId:1 m_resources:108
s m_chatMessage:29
i -128 8
s x:83 y:83 z:83
s m_beacon:111 m_ally:111 m_flags:111 m_build:111 m_targetUnitTag:6 m_targetUnitSnapshotUnitLink:78 m_targetUnitSnapshotUpkeepPlayerId:111 m_targetUnitSnapshotControlPlayerId:111 m_targetPoint:112
s m_speed:12
s m_delta:111
s m_point:84 m_unit:6 m_unitLink:78 m_unitControlPlayerId:58 m_unitUpkeepPlayerId:58 m_unitPosition:92 m_unitIsUnderConstruction:13 m_pingedMinimap:13 m_option:83
s m_verb:29 m_arguments:29
s m_alliance:6 m_control:6
s m_unitTag:6
s m_unitTag:6 m_flags:10
s m_conversationId:83 m_replyId:83
o 20
s m_gameUserId:1 m_observe:24 m_name:9 m_toonHandle:122 m_clanTag:41 m_clanLogo:42
a 0 5 123
i 0 1
s m_userInfos:124 m_method:125
s m_purchaseItemId:83
s m_difficultyLevel:83
c 0 3 0=None:90 1=Checked:13 2=ValueChanged:6 3=SelectionChanged:83 4=TextChanged:30 5=MouseButton:6
s m_controlId:83 m_eventType:83 m_eventData:129
s m_soundHash:6 m_length:6
a 0 7 6
s m_soundHash:132 m_length:132
s m_syncInfo:133
s m_queryId:78 m_lengthMs:6 m_finishGameLoop:6
s m_queryId:78 m_lengthMs:6
s m_animWaitQueryId:78
s m_sound:6
s m_transmissionId:83 m_thread:6
s m_transmissionId:83
o 79
o 78
o 111
s m_target:141 m_distance:142 m_pitch:142 m_yaw:142 m_reason:143 m_follow:13
s m_skipType:125
i 0 11
s x:146 y:146
s m_button:6 m_down:13 m_posUI:147 m_posWorld:92 m_flags:111
s m_posUI:147 m_posWorld:92 m_flags:111
s m_achievementLink:78
s m_hotkey:6 m_down:13
s m_abilLink:78 m_abilCmdIndex:2 m_state:111
s m_soundtrack:6
s m_planetId:83
s m_key:111 m_flags:111
s m_resources:108
s m_fulfillRequestId:83
s m_cancelRequestId:83
s m_error:83 m_abil:89
s m_researchItemId:83
s m_mercenaryId:83
s m_battleReportId:83 m_difficultyLevel:83
s m_battleReportId:83
i 0 19
s m_decrementMs:164
s m_portraitId:83
s m_functionName:20
s m_result:83
s m_gameMenuItemIndex:83
i -32768 16
s m_wheelSpin:170 m_flags:111
s m_purchaseCategoryId:83
s m_button:78
s m_cutsceneId:83 m_bookmarkName:20
s m_cutsceneId:83
s m_cutsceneId:83 m_conversationLine:20 m_altConversationLine:20
s m_cutsceneId:83 m_conversationLine:20
s m_leaveReason:1
s m_observe:24 m_name:9 m_toonHandle:122 m_clanTag:41 m_clanLogo:42 m_hijack:13 m_hijackCloneGameUserId:58
o 95
s m_state:24 m_sequence:180
s m_target:92
s m_target:93
s m_catalog:10 m_entry:78 m_field:9 m_value:9
s m_index:6
s m_shown:13
`

var events39576 = `
5 77 UserFinishedLoadingSync
7 76 UserOptions
9 69 BankFile
10 71 BankSection
11 72 BankKey
12 73 BankValue
13 75 BankSignature
14 80 CameraSave
21 81 SaveGame
22 77 SaveGameDone
23 77 LoadGameDone
25 82 CommandManagerReset
26 86 GameCheat
27 96 Cmd
28 104 SelectionDelta
29 105 ControlGroupUpdate
30 107 SelectionSyncCheck
31 109 ResourceTrade
32 110 TriggerChatMessage
33 113 AICommunicate
34 114 SetAbsoluteGameSpeed
35 115 AddAbsoluteGameSpeed
36 116 TriggerPing
37 117 BroadcastCheat
38 118 Alliance
39 119 UnitClick
40 120 UnitHighlight
41 121 TriggerReplySelected
43 126 HijackReplayGame
44 77 TriggerSkipped
45 131 TriggerSoundLengthQuery
46 138 TriggerSoundOffset
47 139 TriggerTransmissionOffset
48 140 TriggerTransmissionComplete
49 144 CameraUpdate
50 77 TriggerAbortMission
51 127 TriggerPurchaseMade
52 77 TriggerPurchaseExit
53 128 TriggerPlanetMissionLaunched
54 77 TriggerPlanetPanelCanceled
55 130 TriggerDialogControl
56 134 TriggerSoundLengthSync
57 145 TriggerConversationSkipped
58 148 TriggerMouseClicked
59 149 TriggerMouseMoved
60 150 AchievementAwarded
61 151 TriggerHotkeyPressed
62 152 TriggerTargetModeUpdate
63 77 TriggerPlanetPanelReplay
64 153 TriggerSoundtrackDone
65 154 TriggerPlanetMissionSelected
66 155 TriggerKeyPressed
67 167 TriggerMovieFunction
68 77 TriggerPlanetPanelBirthComplete
69 77 TriggerPlanetPanelDeathComplete
70 156 ResourceRequest
71 157 ResourceRequestFulfill
72 158 ResourceRequestCancel
73 77 TriggerResearchPanelExit
74 77 TriggerResearchPanelPurchase
75 160 TriggerResearchPanelSelectionChanged
76 159 TriggerCommandError
77 77 TriggerMercenaryPanelExit
78 77 TriggerMercenaryPanelPurchase
79 161 TriggerMercenaryPanelSelectionChanged
80 77 TriggerVictoryPanelExit
81 77 TriggerBattleReportPanelExit
82 162 TriggerBattleReportPanelPlayMission
83 163 TriggerBattleReportPanelPlayScene
84 163 TriggerBattleReportPanelSelectionChanged
85 128 TriggerVictoryPanelPlayMissionAgain
86 77 TriggerMovieStarted
87 77 TriggerMovieFinished
88 165 DecrementGameTimeRemaining
89 166 TriggerPortraitLoaded
90 168 TriggerCustomDialogDismissed
91 169 TriggerGameMenuItemSelected
92 171 TriggerMouseWheel
93 127 TriggerPurchasePanelSelectedPurchaseItemChanged
94 172 TriggerPurchasePanelSelectedPurchaseCategoryChanged
95 173 TriggerButtonPressed
96 77 TriggerGameCreditsFinished
97 174 TriggerCutsceneBookmarkFired
98 175 TriggerCutsceneEndSceneFired
99 176 TriggerCutsceneConversationLine
100 177 TriggerCutsceneConversationLineMissing
101 178 GameUserLeave
102 179 GameUserJoin
103 181 CommandManagerState
104 182 CmdUpdateTargetPoint
105 183 CmdUpdateTargetUnit
106 135 TriggerAnimLengthQueryByName
107 136 TriggerAnimLengthQueryByProps
108 137 TriggerAnimOffset
109 184 CatalogModify
110 185 HeroTalentTreeSelected
111 77 TriggerProfilerLoggingFinished
112 186 HeroTalentTreeSelectionPanelToggled
`
