package slippi

import (
	"encoding/binary"

	"rewind/model"
)

// stageShape is what the stage view draws: blast zones as the bounds, the
// main stage and the platforms as lines. Values are the commonly published
// ones for the tournament stages; other stages get bounds only.
type stageShape struct {
	bounds model.Rect
	lines  []model.Line
}

func plat(x1, x2, y float64) model.Line { return model.Line{X1: x1, Y1: y, X2: x2, Y2: y} }

var stageShapes = map[int]stageShape{
	2: {model.Rect{MinX: -198.75, MinY: -146.25, MaxX: 198.75, MaxY: 202.5}, // Fountain of Dreams (side platforms move)
		[]model.Line{plat(-63.35, 63.35, 0.62), plat(-49.5, -21, 20), plat(21, 49.5, 28), plat(-14.25, 14.25, 42.75)}},
	3: {model.Rect{MinX: -230, MinY: -111, MaxX: 230, MaxY: 180}, // Pokémon Stadium
		[]model.Line{plat(-87.75, 87.75, 0), plat(-55, -25, 25), plat(25, 55, 25)}},
	8: {model.Rect{MinX: -175.7, MinY: -91, MaxX: 173.6, MaxY: 168}, // Yoshi's Story
		[]model.Line{plat(-56, 56, 0), plat(-59.5, -28, 23.45), plat(28, 59.5, 23.45), plat(-15.75, 15.75, 42)}},
	28: {model.Rect{MinX: -255, MinY: -123, MaxX: 255, MaxY: 250}, // Dream Land N64
		[]model.Line{plat(-77.27, 77.27, 0), plat(-61.39, -31.73, 30.24), plat(31.7, 63.08, 30.24), plat(-19.02, 19.02, 51.43)}},
	31: {model.Rect{MinX: -224, MinY: -108.8, MaxX: 224, MaxY: 200}, // Battlefield
		[]model.Line{plat(-68.4, 68.4, 0), plat(-57.6, -20, 27.2), plat(20, 57.6, 27.2), plat(-18.8, 18.8, 54.4)}},
	32: {model.Rect{MinX: -246, MinY: -140, MaxX: 246, MaxY: 188}, // Final Destination
		[]model.Line{plat(-85.57, 85.57, 0)}},
}

var defaultBounds = model.Rect{MinX: -250, MinY: -150, MaxX: 250, MaxY: 250}

// scenes is Replay.Scenes: every character (Nana too) and item at the frame.
func (d *decoder) scenes(fi int) []model.Scene {
	if fi < 0 || fi >= d.count {
		return nil
	}
	sc := model.Scene{Title: d.r.Title, Bounds: defaultBounds}
	if d.startOff >= 0 && 1+int(d.size[cmdStart]) > 0x14 {
		if s, ok := stageShapes[int(binary.BigEndian.Uint16(d.data[d.startOff+0x13:]))]; ok {
			sc.Bounds, sc.Lines = s.bounds, s.lines
		}
		if d.fodL != nil && len(sc.Lines) == 4 {
			sc.Lines = append([]model.Line(nil), sc.Lines...)
			sc.Lines[1].Y1, sc.Lines[1].Y2 = float64(d.fodL[fi]), float64(d.fodL[fi])
			sc.Lines[2].Y1, sc.Lines[2].Y2 = float64(d.fodR[fi]), float64(d.fodR[fi])
		}
	}
	for pl, port := range d.portOf {
		i := fi*d.slots + port
		if x, y, ok := d.position(d.pre, d.post, i); ok {
			sc.Points = append(sc.Points, model.Point{X: x, Y: y, Player: pl, Kind: "player", Label: d.r.Players[pl].Label(), FacingX: d.facing(d.pre, d.post, i)})
		}
		if d.fpre != nil {
			if x, y, ok := d.position(d.fpre, d.fpost, i); ok {
				sc.Points = append(sc.Points, model.Point{X: x, Y: y, Player: pl, Kind: "player", Label: d.r.Players[pl].Slot + " Nana", FacingX: d.facing(d.fpre, d.fpost, i)})
			}
		}
	}
	itemLen := 1 + int(d.size[cmdItem])
	if itemLen >= 0x1C {
		for _, off := range d.itemOffs[d.itemStart[fi] : d.itemStart[fi]+d.itemCount[fi]] {
			e := d.data[int(off) : int(off)+itemLen]
			pt := model.Point{X: f32(be32(e[0x14:])), Y: f32(be32(e[0x18:])), Player: -1, Kind: "item",
				Label: itemName(int(binary.BigEndian.Uint16(e[5:])))}
			if itemLen > 0x2A {
				if o := int8(e[0x2A]); o >= 0 && o < maxSlots {
					pt.Player = d.playerOf[o]
				}
			}
			sc.Points = append(sc.Points, pt)
		}
	}
	return []model.Scene{sc}
}

// position is where the post-frame update puts a character, else the
// pre-frame update.
func (d *decoder) position(pre, post []int32, i int) (x, y float64, ok bool) {
	if off := post[i]; off > 0 && d.size[cmdPost] >= 0x11 {
		return f32(be32(d.data[off+0xA:])), f32(be32(d.data[off+0xE:])), true
	}
	if off := pre[i]; off > 0 && d.size[cmdPre] >= 0x14 {
		return f32(be32(d.data[off+0xD:])), f32(be32(d.data[off+0x11:])), true
	}
	return 0, 0, false
}
