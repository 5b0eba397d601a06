package slippi

import (
	"encoding/binary"
	"math"
	"sync"
)

// FrameRow is one port's character at one frame for `rewind export`: the
// kept copy (after rollbacks) of its Pre-Frame and Post-Frame Updates, as
// the replay view and `rewind dump` show them, with the spec's field names
// (dump's keys) in the groups pre and post. A Nana has her own row with
// isFollower set, like the leader/follower split of peppi's Arrow frames.
// Floats are the file's float32 bits; a field the file's version does not
// record is 0 (the replays table's version says which are recorded), and
// so is a whole group the frame lacks (hasPre, hasPost say which: a file
// cut short). Groups are not nullable because parquet-go writes optional
// groups five times slower.
type FrameRow struct {
	Path       string    `parquet:"path,dict"`
	FrameIndex int32     `parquet:"frameIndex"` // timeline index, 0-based
	Frame      int32     `parquet:"frame"`      // the game's frame number, -123 first
	Player     int32     `parquet:"player"`     // index in the players table
	Port       uint8     `parquet:"port"`       // 0-3 (P1-P4)
	IsFollower bool      `parquet:"isFollower"`
	HasPre     bool      `parquet:"hasPre"`
	HasPost    bool      `parquet:"hasPost"`
	Pre        PreFrame  `parquet:"pre"`
	Post       PostFrame `parquet:"post"`
}

// PreFrame is a Pre-Frame Update (0x37).
type PreFrame struct {
	RandomSeed       uint32  `parquet:"randomSeed"`
	ActionStateID    uint16  `parquet:"actionStateId"`
	XPosition        float32 `parquet:"xPosition"`
	YPosition        float32 `parquet:"yPosition"`
	FacingDirection  float32 `parquet:"facingDirection"`
	JoystickX        float32 `parquet:"joystickX"`
	JoystickY        float32 `parquet:"joystickY"`
	CStickX          float32 `parquet:"cStickX"`
	CStickY          float32 `parquet:"cStickY"`
	Trigger          float32 `parquet:"trigger"`
	ProcessedButtons uint32  `parquet:"processedButtons"`
	PhysicalButtons  uint16  `parquet:"physicalButtons"`
	PhysicalLTrigger float32 `parquet:"physicalLTrigger"`
	PhysicalRTrigger float32 `parquet:"physicalRTrigger"`
	XAnalogForUcf    int8    `parquet:"xAnalogForUcf"`
	Percent          float32 `parquet:"percent"`
	YAnalogForUcf    int8    `parquet:"yAnalogForUcf"`
}

// PostFrame is a Post-Frame Update (0x38).
type PostFrame struct {
	InternalCharacterID     uint8   `parquet:"internalCharacterId"`
	ActionStateID           uint16  `parquet:"actionStateId"`
	XPosition               float32 `parquet:"xPosition"`
	YPosition               float32 `parquet:"yPosition"`
	FacingDirection         float32 `parquet:"facingDirection"`
	Percent                 float32 `parquet:"percent"`
	ShieldSize              float32 `parquet:"shieldSize"`
	LastHittingAttackID     uint8   `parquet:"lastHittingAttackId"`
	CurrentComboCount       uint8   `parquet:"currentComboCount"`
	LastHitBy               uint8   `parquet:"lastHitBy"`
	StocksRemaining         uint8   `parquet:"stocksRemaining"`
	ActionStateFrameCounter float32 `parquet:"actionStateFrameCounter"`
	StateBitFlags1          uint8   `parquet:"stateBitFlags1"`
	StateBitFlags2          uint8   `parquet:"stateBitFlags2"`
	StateBitFlags3          uint8   `parquet:"stateBitFlags3"`
	StateBitFlags4          uint8   `parquet:"stateBitFlags4"`
	StateBitFlags5          uint8   `parquet:"stateBitFlags5"`
	MiscAs                  float32 `parquet:"miscAs"`
	GroundAirState          bool    `parquet:"groundAirState"`
	LastGroundID            uint16  `parquet:"lastGroundId"`
	JumpsRemaining          uint8   `parquet:"jumpsRemaining"`
	LCancelStatus           uint8   `parquet:"lCancelStatus"`
	HurtboxCollisionState   uint8   `parquet:"hurtboxCollisionState"`
	SelfInducedAirXSpeed    float32 `parquet:"selfInducedAirXSpeed"`
	SelfInducedYSpeed       float32 `parquet:"selfInducedYSpeed"`
	AttackBasedXSpeed       float32 `parquet:"attackBasedXSpeed"`
	AttackBasedYSpeed       float32 `parquet:"attackBasedYSpeed"`
	SelfInducedGroundXSpeed float32 `parquet:"selfInducedGroundXSpeed"`
	HitlagFramesRemaining   float32 `parquet:"hitlagFramesRemaining"`
	AnimationIndex          uint32  `parquet:"animationIndex"`
	InstanceHitBy           uint16  `parquet:"instanceHitBy"`
	InstanceID              uint16  `parquet:"instanceId"`
}

// setter stores one field of an event's bytes (ev[off:]) into a row.
type setter[T any] struct {
	off int
	set func(*T, []byte)
}

func u8[T any](f func(*T) *uint8) func(*T, []byte) {
	return func(r *T, b []byte) { *f(r) = b[0] }
}
func i8[T any](f func(*T) *int8) func(*T, []byte) {
	return func(r *T, b []byte) { *f(r) = int8(b[0]) }
}
func flag[T any](f func(*T) *bool) func(*T, []byte) {
	return func(r *T, b []byte) { *f(r) = b[0] != 0 }
}
func u16[T any](f func(*T) *uint16) func(*T, []byte) {
	return func(r *T, b []byte) { *f(r) = binary.BigEndian.Uint16(b) }
}
func u32[T any](f func(*T) *uint32) func(*T, []byte) {
	return func(r *T, b []byte) { *f(r) = binary.BigEndian.Uint32(b) }
}
func f32r[T any](f func(*T) *float32) func(*T, []byte) {
	return func(r *T, b []byte) { *f(r) = math.Float32frombits(binary.BigEndian.Uint32(b)) }
}

// preSet and postSet say where each field of the row goes; the offsets and
// versions come from preDefs and postDefs, the tables the decoder reads by.
// They are made the first time rows are (rewind export), not when the
// program starts.
var preSet = sync.OnceValue(func() map[string]func(*PreFrame, []byte) {
	return map[string]func(*PreFrame, []byte){
		"randomSeed":       u32(func(r *PreFrame) *uint32 { return &r.RandomSeed }),
		"actionStateId":    u16(func(r *PreFrame) *uint16 { return &r.ActionStateID }),
		"xPosition":        f32r(func(r *PreFrame) *float32 { return &r.XPosition }),
		"yPosition":        f32r(func(r *PreFrame) *float32 { return &r.YPosition }),
		"facingDirection":  f32r(func(r *PreFrame) *float32 { return &r.FacingDirection }),
		"joystickX":        f32r(func(r *PreFrame) *float32 { return &r.JoystickX }),
		"joystickY":        f32r(func(r *PreFrame) *float32 { return &r.JoystickY }),
		"cStickX":          f32r(func(r *PreFrame) *float32 { return &r.CStickX }),
		"cStickY":          f32r(func(r *PreFrame) *float32 { return &r.CStickY }),
		"trigger":          f32r(func(r *PreFrame) *float32 { return &r.Trigger }),
		"processedButtons": u32(func(r *PreFrame) *uint32 { return &r.ProcessedButtons }),
		"physicalButtons":  u16(func(r *PreFrame) *uint16 { return &r.PhysicalButtons }),
		"physicalLTrigger": f32r(func(r *PreFrame) *float32 { return &r.PhysicalLTrigger }),
		"physicalRTrigger": f32r(func(r *PreFrame) *float32 { return &r.PhysicalRTrigger }),
		"xAnalogForUcf":    i8(func(r *PreFrame) *int8 { return &r.XAnalogForUcf }),
		"percent":          f32r(func(r *PreFrame) *float32 { return &r.Percent }),
		"yAnalogForUcf":    i8(func(r *PreFrame) *int8 { return &r.YAnalogForUcf }),
	}
})

var postSet = sync.OnceValue(func() map[string]func(*PostFrame, []byte) {
	return map[string]func(*PostFrame, []byte){
		"internalCharacterId":     u8(func(r *PostFrame) *uint8 { return &r.InternalCharacterID }),
		"actionStateId":           u16(func(r *PostFrame) *uint16 { return &r.ActionStateID }),
		"xPosition":               f32r(func(r *PostFrame) *float32 { return &r.XPosition }),
		"yPosition":               f32r(func(r *PostFrame) *float32 { return &r.YPosition }),
		"facingDirection":         f32r(func(r *PostFrame) *float32 { return &r.FacingDirection }),
		"percent":                 f32r(func(r *PostFrame) *float32 { return &r.Percent }),
		"shieldSize":              f32r(func(r *PostFrame) *float32 { return &r.ShieldSize }),
		"lastHittingAttackId":     u8(func(r *PostFrame) *uint8 { return &r.LastHittingAttackID }),
		"currentComboCount":       u8(func(r *PostFrame) *uint8 { return &r.CurrentComboCount }),
		"lastHitBy":               u8(func(r *PostFrame) *uint8 { return &r.LastHitBy }),
		"stocksRemaining":         u8(func(r *PostFrame) *uint8 { return &r.StocksRemaining }),
		"actionStateFrameCounter": f32r(func(r *PostFrame) *float32 { return &r.ActionStateFrameCounter }),
		"stateBitFlags1":          u8(func(r *PostFrame) *uint8 { return &r.StateBitFlags1 }),
		"stateBitFlags2":          u8(func(r *PostFrame) *uint8 { return &r.StateBitFlags2 }),
		"stateBitFlags3":          u8(func(r *PostFrame) *uint8 { return &r.StateBitFlags3 }),
		"stateBitFlags4":          u8(func(r *PostFrame) *uint8 { return &r.StateBitFlags4 }),
		"stateBitFlags5":          u8(func(r *PostFrame) *uint8 { return &r.StateBitFlags5 }),
		"miscAs":                  f32r(func(r *PostFrame) *float32 { return &r.MiscAs }),
		"groundAirState":          flag(func(r *PostFrame) *bool { return &r.GroundAirState }),
		"lastGroundId":            u16(func(r *PostFrame) *uint16 { return &r.LastGroundID }),
		"jumpsRemaining":          u8(func(r *PostFrame) *uint8 { return &r.JumpsRemaining }),
		"lCancelStatus":           u8(func(r *PostFrame) *uint8 { return &r.LCancelStatus }),
		"hurtboxCollisionState":   u8(func(r *PostFrame) *uint8 { return &r.HurtboxCollisionState }),
		"selfInducedAirXSpeed":    f32r(func(r *PostFrame) *float32 { return &r.SelfInducedAirXSpeed }),
		"selfInducedYSpeed":       f32r(func(r *PostFrame) *float32 { return &r.SelfInducedYSpeed }),
		"attackBasedXSpeed":       f32r(func(r *PostFrame) *float32 { return &r.AttackBasedXSpeed }),
		"attackBasedYSpeed":       f32r(func(r *PostFrame) *float32 { return &r.AttackBasedYSpeed }),
		"selfInducedGroundXSpeed": f32r(func(r *PostFrame) *float32 { return &r.SelfInducedGroundXSpeed }),
		"hitlagFramesRemaining":   f32r(func(r *PostFrame) *float32 { return &r.HitlagFramesRemaining }),
		"animationIndex":          u32(func(r *PostFrame) *uint32 { return &r.AnimationIndex }),
		"instanceHitBy":           u16(func(r *PostFrame) *uint16 { return &r.InstanceHitBy }),
		"instanceId":              u16(func(r *PostFrame) *uint16 { return &r.InstanceID }),
	}
})

// plan lists the setters for the fields an event of this version and
// size holds, the same rule decodeFields follows.
func plan[T any](defs []fdef, set map[string]func(*T, []byte), ver uint32, size int) []setter[T] {
	var out []setter[T]
	for i := range defs {
		d := &defs[i]
		if f, ok := set[d.key]; ok && d.added <= ver && d.end() <= size {
			out = append(out, setter[T]{d.off, f})
		}
	}
	return out
}

// rowBatch is how many rows go to the writer at a time.
const rowBatch = 4096

// frameRows is Replay.FrameRows: every kept pre/post pair, frame by frame,
// port by port, leader before follower.
func (d *decoder) frameRows(yield func(any) error) error {
	if d.pre == nil {
		return nil
	}
	preN, postN := 1+int(d.size[cmdPre]), 1+int(d.size[cmdPost])
	prePlan := plan(preDefs, preSet(), d.version, preN)
	postPlan := plan(postDefs, postSet(), d.version, postN)
	rows := make([]FrameRow, 0, rowBatch)
	path := d.r.Path
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		err := yield(rows)
		rows = rows[:0]
		return err
	}
	emit := func(fi, port int, follower bool, pre, post []int32) error {
		i := fi*d.slots + port
		if pre[i] == 0 && post[i] == 0 {
			return nil
		}
		rows = append(rows, FrameRow{Path: path, FrameIndex: int32(fi), Frame: int32(d.r.Timeline.Number(fi)),
			Player: int32(d.playerOf[port]), Port: uint8(port), IsFollower: follower})
		row := &rows[len(rows)-1]
		if off := int(pre[i]); off > 0 && off+preN <= len(d.data) {
			ev := d.data[off : off+preN]
			for _, s := range prePlan {
				s.set(&row.Pre, ev[s.off:])
			}
			row.HasPre = true
		}
		if off := int(post[i]); off > 0 && off+postN <= len(d.data) {
			ev := d.data[off : off+postN]
			for _, s := range postPlan {
				s.set(&row.Post, ev[s.off:])
			}
			row.HasPost = true
		}
		if len(rows) == rowBatch {
			return flush()
		}
		return nil
	}
	for fi := 0; fi < d.count; fi++ {
		for port := 0; port < d.slots; port++ {
			if err := emit(fi, port, false, d.pre, d.post); err != nil {
				return err
			}
			if d.fpre != nil {
				if err := emit(fi, port, true, d.fpre, d.fpost); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}
