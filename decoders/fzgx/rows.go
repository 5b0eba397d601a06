package fzgx

import (
	"rewind/decoders/frames"
	"rewind/model"
)

// FrameRow is the human racer's input at one frame for `rewind export`:
// the replay element in force (the file stores runs of 1 to 256 frames
// with the same input), named as `rewind dump` names it.
type FrameRow struct {
	Path              string `parquet:"path,dict"`
	FrameIndex        int32  `parquet:"frameIndex"`
	Player            int32  `parquet:"player"` // the human racer's index in the players table
	Phase             string `parquet:"phase,dict"`
	Buttons           uint8  `parquet:"replayElementButtons"`
	Strafe            int8   `parquet:"replayElementStrafe"`
	Accel             uint8  `parquet:"replayElementAccel"`
	Brake             uint8  `parquet:"replayElementBrake"`
	SteerX            int8   `parquet:"replayElementSteerX"`
	SteerY            int8   `parquet:"replayElementSteerY"`
	InputElement      int32  `parquet:"inputElement"`
	RunFrame          int32  `parquet:"runFrame"` // frame within the element's run, 0-based
	CheckpointsPassed int32  `parquet:"checkpointsPassed"`
}

// frameRows makes Replay.FrameRows: a row for every frame that has input.
func (b *build) frameRows(r *model.Replay) func(yield func(any) error) error {
	return func(yield func(any) error) error {
		if b.human < 0 {
			return nil
		}
		count := r.Timeline.Count
		rows := frames.NewBatch(count, func(b []FrameRow) error { return yield(b) })
		for f := 0; f < len(b.frameInput) && f < count; f++ {
			i := b.inputAt(f)
			in := b.s.inputs[i]
			phase := "countdown"
			switch {
			case f >= count-1 && b.s.hasTotal:
				phase = "finished"
			case f >= raceStartFrame:
				phase = "racing"
			}
			if err := rows.Add(FrameRow{Path: r.Path, FrameIndex: int32(f), Player: int32(b.human), Phase: phase,
				Buttons: in.buttons, Strafe: in.strafe, Accel: in.accel, Brake: in.brake, SteerX: in.steerX, SteerY: in.steerY,
				InputElement: int32(i), RunFrame: int32(f - int(b.runStart[i])), CheckpointsPassed: int32(b.passed(f))}); err != nil {
				return err
			}
		}
		return rows.Flush()
	}
}
