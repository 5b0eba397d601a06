package bsor

import (
	"encoding/binary"
	"math"
)

// enc is a test-only BSOR writer, so unit tests can build every section and
// quirk byte by byte.
type enc struct{ b []byte }

func (e *enc) u8(v byte)     { e.b = append(e.b, v) }
func (e *enc) i32(v int32)   { e.b = binary.LittleEndian.AppendUint32(e.b, uint32(v)) }
func (e *enc) i64(v int64)   { e.b = binary.LittleEndian.AppendUint64(e.b, uint64(v)) }
func (e *enc) f32(v float32) { e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(v)) }
func (e *enc) boolean(v bool) {
	if v {
		e.u8(1)
	} else {
		e.u8(0)
	}
}

// str writes a string with its byte length as the prefix.
func (e *enc) str(s string) { e.strLen(s, len(s)) }

// strLen writes a string with a chosen length prefix, as old mods did when
// they wrote the UTF-16 length in front of UTF-8 bytes.
func (e *enc) strLen(s string, n int) {
	e.i32(int32(n))
	e.b = append(e.b, s...)
}

func (e *enc) vec(v vec3) { e.f32(v.X); e.f32(v.Y); e.f32(v.Z) }
func (e *enc) pose(p pose) {
	e.vec(p.Pos)
	e.f32(p.Rot.X)
	e.f32(p.Rot.Y)
	e.f32(p.Rot.Z)
	e.f32(p.Rot.W)
}

// testFile describes a file for the encoder. nameLen, when set, replaces the
// player name's length prefix; songLen the song name's.
type testFile struct {
	version          byte
	in               info
	nameLen, songLen int
	frames           []frame
	notes            []note
	walls            []wall
	heights          []height
	pauses           []pause
	offsets          *[2]pose
	user             []userEntry // written as count + (key, len, bytes)
	userBlob         []byte      // written as the spec's length + bytes
	stopAfter        int         // last section to write (default 7 when present)
	tail             []byte
}

func (t *testFile) bytes() []byte {
	e := &enc{}
	e.i32(magic)
	e.u8(t.version)
	e.u8(0)
	in := &t.in
	e.str(in.Version)
	e.str(in.GameVersion)
	e.str(in.Timestamp)
	e.str(in.PlayerID)
	if t.nameLen != 0 {
		e.strLen(in.PlayerName, t.nameLen)
	} else {
		e.str(in.PlayerName)
	}
	e.str(in.Platform)
	e.str(in.TrackingSystem)
	e.str(in.HMD)
	e.str(in.Controller)
	e.str(in.Hash)
	if t.songLen != 0 {
		e.strLen(in.SongName, t.songLen)
	} else {
		e.str(in.SongName)
	}
	e.str(in.Mapper)
	e.str(in.Difficulty)
	e.i32(in.Score)
	e.str(in.Mode)
	e.str(in.Environment)
	e.str(in.Modifiers)
	e.f32(in.JumpDistance)
	e.boolean(in.LeftHanded)
	e.f32(in.Height)
	e.f32(in.StartTime)
	e.f32(in.FailTime)
	e.f32(in.Speed)
	stop := t.stopAfter
	if stop == 0 {
		stop = 7
	}
	if stop >= 1 {
		e.u8(1)
		e.i32(int32(len(t.frames)))
		for _, f := range t.frames {
			e.f32(f.Time)
			e.i32(f.FPS)
			e.pose(f.Head)
			e.pose(f.Left)
			e.pose(f.Right)
		}
	}
	if stop >= 2 {
		e.u8(2)
		e.i32(int32(len(t.notes)))
		for _, n := range t.notes {
			e.i32(n.ID)
			e.f32(n.EventTime)
			e.f32(n.SpawnTime)
			e.i32(n.EventType)
			if n.EventType == 0 || n.EventType == 1 {
				c := n.Cut
				e.boolean(c.SpeedOK)
				e.boolean(c.DirectionOK)
				e.boolean(c.SaberTypeOK)
				e.boolean(c.WasCutTooSoon)
				e.f32(c.SaberSpeed)
				e.vec(c.SaberDir)
				e.i32(c.SaberType)
				e.f32(c.TimeDeviation)
				e.f32(c.CutDirDeviation)
				e.vec(c.CutPoint)
				e.vec(c.CutNormal)
				e.f32(c.CutDistanceToCenter)
				e.f32(c.CutAngle)
				e.f32(c.BeforeCutRating)
				e.f32(c.AfterCutRating)
			}
		}
	}
	if stop >= 3 {
		e.u8(3)
		e.i32(int32(len(t.walls)))
		for _, w := range t.walls {
			e.i32(w.ID)
			e.f32(w.Energy)
			e.f32(w.Time)
			e.f32(w.SpawnTim)
		}
	}
	if stop >= 4 {
		e.u8(4)
		e.i32(int32(len(t.heights)))
		for _, h := range t.heights {
			e.f32(h.Height)
			e.f32(h.Time)
		}
	}
	if stop >= 5 {
		e.u8(5)
		e.i32(int32(len(t.pauses)))
		for _, p := range t.pauses {
			e.i64(p.Duration)
			e.f32(p.Time)
		}
	}
	if stop >= 6 && t.offsets != nil {
		e.u8(6)
		e.pose(t.offsets[0])
		e.pose(t.offsets[1])
	}
	if stop >= 7 && t.user != nil {
		e.u8(7)
		e.i32(int32(len(t.user)))
		for _, u := range t.user {
			e.str(u.Key)
			e.i32(int32(len(u.Value)))
			e.b = append(e.b, u.Value...)
		}
	} else if stop >= 7 && t.userBlob != nil {
		e.u8(7)
		e.i32(int32(len(t.userBlob)))
		e.b = append(e.b, t.userBlob...)
	}
	e.b = append(e.b, t.tail...)
	return e.b
}

// fromReplay turns a decoded file back into a testFile, for round trips.
func fromReplay(d *replay) *testFile {
	t := &testFile{version: d.version, in: d.info, frames: d.frames, notes: d.notes, walls: d.walls,
		heights: d.heights, pauses: d.pauses}
	if d.hasOffsets {
		o := d.offsets
		t.offsets = &o
	}
	if d.hasUser {
		t.user = d.user
		if t.user == nil {
			t.user = []userEntry{}
		}
	}
	return t
}

// goodCut is a cut with the given ratings and distance to centre.
func goodCut(before, after, dist float32) cutInfo {
	return cutInfo{SpeedOK: true, DirectionOK: true, SaberTypeOK: true, SaberSpeed: 5,
		SaberDir: vec3{0, -1, 0}, SaberType: 0, TimeDeviation: 0.01, CutDirDeviation: 2,
		CutPoint: vec3{0.1, 1, 0}, CutNormal: vec3{1, 0, 0}, CutDistanceToCenter: dist, CutAngle: 100,
		BeforeCutRating: before, AfterCutRating: after}
}

// sampleFile has every section and a note of every event type.
func sampleFile() *testFile {
	t := &testFile{version: 1}
	t.in = info{Version: "0.9.9", GameVersion: "1.29.1", Timestamp: "1700000000",
		PlayerID: "76561198000000000", PlayerName: "Tester", Platform: "steam",
		TrackingSystem: "OpenVR", HMD: "Valve Index", Controller: "Knuckles",
		Hash: "ABCDEF", SongName: "Song", Mapper: "Mapper", Difficulty: "ExpertPlus",
		Score: 0, Mode: "Standard", Environment: "The First", Modifiers: "DA,FS",
		JumpDistance: 18, LeftHanded: false, Height: 1.8, StartTime: 0, FailTime: 0, Speed: 0}
	for i := 0; i < 10; i++ {
		t.frames = append(t.frames, frame{Time: float32(i) * 0.5, FPS: 90,
			Head:  pose{Pos: vec3{0, 1.7, 0}, Rot: quat{0, 0, 0, 1}},
			Left:  pose{Pos: vec3{-0.3, 1.2, 0.3}, Rot: quat{0, 0, 0, 1}},
			Right: pose{Pos: vec3{0.3, 1.2, 0.3}, Rot: quat{0, 0, 0, 1}}})
	}
	t.notes = []note{
		{ID: 31208, EventTime: 1.0, SpawnTime: 1.0, EventType: 0, Cut: goodCut(1, 1, 0)},            // 115
		{ID: 30011, EventTime: 1.5, SpawnTime: 1.5, EventType: 0, Cut: goodCut(0.5, 0.5, 0.15)},     // 35+15+8
		{ID: 32101, EventTime: 2.0, SpawnTime: 2.0, EventType: 1, Cut: cutInfo{SaberTypeOK: false}}, // bad
		{ID: 33210, EventTime: 2.5, SpawnTime: 2.4, EventType: 2},                                   // miss
		{ID: 21038, EventTime: 3.0, SpawnTime: 3.0, EventType: 3},                                   // bomb
	}
	t.walls = []wall{{ID: 112, Energy: 0.4, Time: 3.5, SpawnTim: 3.4}}
	t.heights = []height{{Height: 1.75, Time: 0.5}, {Height: 1.76, Time: 4.0}}
	t.pauses = []pause{{Duration: 12, Time: 2.2}}
	t.offsets = &[2]pose{{Pos: vec3{0.01, 0.02, 0.03}, Rot: quat{0, 0, 0, 1}}, {Pos: vec3{-0.01, 0.02, 0.03}, Rot: quat{0, 0, 0, 1}}}
	t.user = []userEntry{{Key: "reeplay", Value: []byte(`{"a":1}`)}, {Key: "bin", Value: []byte{0, 1, 2}}}
	return t
}
