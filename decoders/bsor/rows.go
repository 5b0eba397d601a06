package bsor

import (
	"rewind/decoders/frames"
	"rewind/model"
)

// FrameRow is one frame (one headset sample) for `rewind export`: the
// head and both hands as the file records them (positions in metres,
// rotations as quaternions, float32 as stored), and the running score at
// that frame as the replay view computes it. Names are `rewind dump`'s.
type FrameRow struct {
	Path       string  `parquet:"path,dict"`
	FrameIndex int32   `parquet:"frameIndex"`
	Time       float32 `parquet:"time"`    // song time, seconds, made non-decreasing
	RawTime    float32 `parquet:"rawTime"` // the time field as the file has it
	FPS        int32   `parquet:"fps"`
	Head       Pose    `parquet:"head"`
	LeftHand   Pose    `parquet:"leftHand"`
	RightHand  Pose    `parquet:"rightHand"`
	Score      int32   `parquet:"score"`
	Combo      int32   `parquet:"combo"`
	Multiplier int32   `parquet:"multiplier"`
	Accuracy   float64 `parquet:"accuracy"`
	Energy     float32 `parquet:"energy"`
}

// Pose is a position and a rotation.
type Pose struct {
	X    float32 `parquet:"x"`
	Y    float32 `parquet:"y"`
	Z    float32 `parquet:"z"`
	RotX float32 `parquet:"rotX"`
	RotY float32 `parquet:"rotY"`
	RotZ float32 `parquet:"rotZ"`
	RotW float32 `parquet:"rotW"`
}

func poseRow(p pose) Pose {
	return Pose{p.Pos.X, p.Pos.Y, p.Pos.Z, p.Rot.X, p.Rot.Y, p.Rot.Z, p.Rot.W}
}

// frameRows makes Replay.FrameRows: every frame of section 1.
func (v *view) frameRows(r *model.Replay) func(yield func(any) error) error {
	return func(yield func(any) error) error { return v.yieldRows(r.Path, yield) }
}

func (v *view) yieldRows(path string, yield func(any) error) error {
	n := min(len(v.d.frames), len(v.times))
	rows := frames.NewBatch(n, func(b []FrameRow) error { return yield(b) })
	for f := 0; f < n; f++ {
		fr := &v.d.frames[f]
		e := v.at(f)
		if err := rows.Add(FrameRow{Path: path, FrameIndex: int32(f), Time: v.times[f], RawTime: fr.Time, FPS: fr.FPS,
			Head: poseRow(fr.Head), LeftHand: poseRow(fr.Left), RightHand: poseRow(fr.Right),
			Score: int32(e.score), Combo: int32(e.combo), Multiplier: int32(e.mult), Accuracy: accuracy(e), Energy: float32(e.energy)}); err != nil {
			return err
		}
	}
	return rows.Flush()
}
