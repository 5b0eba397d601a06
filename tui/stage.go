package tui

import (
	"fmt"
	"math"
	"strings"

	"rewind/model"
)

// canvas is a braille canvas: every cell holds 2×4 dots, so a pane of
// w×h cells draws 2w×4h points. Each cell remembers one colour (the last
// thing drawn in it) and may carry a text label that replaces its dots.
type canvas struct {
	w, h  int
	dots  []uint8
	color []int16 // player index + 2: 0 none, 1 geometry (-1), 2.. players
	text  []rune
}

func newCanvas(w, h int) *canvas {
	n := w * h
	return &canvas{w: w, h: h, dots: make([]uint8, n), color: make([]int16, n), text: make([]rune, n)}
}

// brailleBit maps a dot's position inside its cell to the Unicode bit.
var brailleBit = [4][2]uint8{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

func (c *canvas) set(x, y int, player int) {
	if x < 0 || y < 0 || x >= 2*c.w || y >= 4*c.h {
		return
	}
	i := (y/4)*c.w + x/2
	c.dots[i] |= brailleBit[y%4][x%2]
	c.color[i] = int16(player + 2)
}

func (c *canvas) label(x, y int, s string, player int) {
	cx, cy := x/2, y/4
	if cy < 0 || cy >= c.h {
		return
	}
	// a label never covers another label or a point: it stops where one
	// starts; it may cover the geometry (a platform, a frame), which is
	// drawn first and stays readable around it
	for _, r := range s {
		if cx >= c.w || (cx >= 0 && (c.text[cy*c.w+cx] != 0 || (c.dots[cy*c.w+cx] != 0 && c.color[cy*c.w+cx] != 1))) {
			return
		}
		if cx >= 0 {
			c.text[cy*c.w+cx] = r
			c.color[cy*c.w+cx] = int16(player + 2)
		}
		cx++
	}
}

// line draws a segment in dot coordinates. The number of steps is bounded
// by the canvas, so a segment from a broken file that runs far outside it
// costs no more than one that fits.
func (c *canvas) line(x1, y1, x2, y2 float64, player int) {
	dx, dy := x2-x1, y2-y1
	steps := math.Max(math.Abs(dx), math.Abs(dy))
	limit := float64(4 * (c.w + c.h))
	if steps > limit {
		steps = limit
	}
	if !(steps >= 1) { // also NaN
		c.set(int(math.Round(x1)), int(math.Round(y1)), player)
		return
	}
	for i := 0.0; i <= steps; i++ {
		t := i / steps
		c.set(int(math.Round(x1+dx*t)), int(math.Round(y1+dy*t)), player)
	}
}

func (c *canvas) render(p *paints) []string {
	out := make([]string, c.h)
	for y := 0; y < c.h; y++ {
		var b, run strings.Builder
		cur := int16(-1)
		flush := func() {
			switch {
			case cur <= 0:
				b.WriteString(run.String())
			case cur == 1:
				p.dim.write(&b, run.String())
			default:
				p.player(int(cur-2)).write(&b, run.String())
			}
			run.Reset()
		}
		for x := 0; x < c.w; x++ {
			i := y*c.w + x
			col := c.color[i]
			if c.dots[i] == 0 && c.text[i] == 0 {
				col = 0
			}
			if col != cur {
				flush()
				cur = col
			}
			switch {
			case c.text[i] != 0:
				run.WriteRune(c.text[i])
			case c.dots[i] == 0:
				run.WriteByte(' ')
			default:
				run.WriteRune(rune(0x2800 + int(c.dots[i])))
			}
		}
		flush()
		out[y] = b.String()
	}
	return out
}

// stagePane draws Replay.SceneAt(frame): the scene's lines (the stage),
// its points (players, items) coloured by player, fitted to the pane with
// the same scale on both axes so the picture is not stretched. Several
// scenes (two views of a BSOR play) share the pane side by side.
func (v *replayView) stagePane(w, h int) []string {
	if h <= 0 {
		return nil
	}
	focused := v.focus == paneInspector
	scenes := v.r.SceneAt(v.frame)
	if len(scenes) == 0 {
		return v.pane("stage", focused, w, h, []string{v.paints.dim.wrap("this replay has nothing to draw (v returns to the inspector)")})
	}
	n := min(len(scenes), 3, max((w-1)/20, 1))
	// V turns the pages of scenes when they do not all fit
	first := 0
	if len(scenes) > n {
		first = (v.scenePage * n) % len(scenes)
	}
	shown := make([]model.Scene, 0, n)
	for i := 0; i < n; i++ {
		shown = append(shown, scenes[(first+i)%len(scenes)])
	}
	var titles []string
	for _, sc := range shown {
		if sc.Title != "" {
			titles = append(titles, clean(sc.Title))
		}
	}
	title := "stage"
	if len(scenes) > n {
		title += fmt.Sprintf(" %d-%d of %d (V more)", first+1, first+n, len(scenes))
	}
	if len(titles) > 0 {
		title += " " + strings.Join(titles, " | ")
	}
	cw, ch := w-1, h-1 // the pane's margin and title
	if cw < 2*n || ch < 1 {
		return v.pane(title, focused, w, h, nil)
	}
	var cols [][]string
	left := cw - (n - 1) // separators
	for i, sc := range shown {
		sw := left / n
		if i < left%n {
			sw++
		}
		cols = append(cols, v.drawScene(sc, sw, ch))
	}
	return v.pane(title, focused, w, h, hjoin(v.sep(), cols...))
}

// drawScene renders one scene on a canvas of w×h cells.
func (v *replayView) drawScene(sc model.Scene, w, h int) []string {
	c := newCanvas(w, h)
	b := view(sc)
	bw, bh := b.MaxX-b.MinX, b.MaxY-b.MinY
	dw, dh := float64(2*w-1), float64(4*h-1)
	scale := math.Min(dw/bw, dh/bh)
	ox := (dw - bw*scale) / 2
	oy := (dh - bh*scale) / 2
	tx := func(x float64) float64 { return ox + (x-b.MinX)*scale }
	ty := func(y float64) float64 { return dh - (oy + (y-b.MinY)*scale) }
	clampF := func(x, hi float64) float64 {
		if !(x >= 0) {
			return 0
		}
		return math.Min(x, hi)
	}
	for _, ln := range sc.Lines {
		c.line(tx(ln.X1), ty(ln.Y1), tx(ln.X2), ty(ln.Y2), -1)
	}
	type lbl struct {
		x, y int
		s    string
		p    int
	}
	var labels, minor []lbl
	// every kind of point gets its label while they are few enough to read;
	// players' labels go first so a crowd of items cannot push them out
	labelAll := len(sc.Points) <= 40
	for _, pt := range sc.Points {
		// things off the view are drawn at its edge so they stay visible
		x := int(math.Round(clampF(tx(pt.X), dw)))
		y := int(math.Round(clampF(ty(pt.Y), dh)))
		if pt.Kind == "player" || pt.Kind == "" {
			// a full cell, standing on its position
			for dx := 0; dx < 2; dx++ {
				for dy := -3; dy <= 0; dy++ {
					c.set(x+dx, y+dy, pt.Player)
				}
			}
			if pt.Label != "" {
				labels = append(labels, lbl{x + 4, y - 4, clean(pt.Label), pt.Player})
			}
		} else if pt.Kind == "item" || pt.Kind == "unit" || pt.Kind == "checkpoint" {
			c.set(x, y, pt.Player) // many of them: one dot each
			if pt.Label != "" && labelAll {
				minor = append(minor, lbl{x + 2, y, clean(pt.Label), pt.Player})
			}
		} else {
			// a few things that matter (a head, a hand): a small square
			c.set(x, y, pt.Player)
			c.set(x+1, y, pt.Player)
			c.set(x, y-1, pt.Player)
			c.set(x+1, y-1, pt.Player)
			if pt.Label != "" {
				labels = append(labels, lbl{x + 3, y - 4, clean(pt.Label), pt.Player})
			}
		}
	}
	// labels after every dot, so that no label hides a player
	for _, l := range append(labels, minor...) {
		c.label(l.x, l.y, l.s, l.p)
	}
	return c.render(v.paints)
}

// view is the part of a scene to show. A scene with geometry (a stage)
// is framed like a camera: the lines and the points with a margin, inside
// the scene's bounds (which may reach the blast zones). A scene of points
// only keeps its bounds, so the picture does not jump from frame to frame.
func view(sc model.Scene) model.Rect {
	b := sc.Bounds
	ok := func(r model.Rect) bool {
		w, h := r.MaxX-r.MinX, r.MaxY-r.MinY
		return w > 0 && h > 0 && !math.IsInf(w, 0) && !math.IsInf(h, 0)
	}
	if !ok(b) {
		return boundsOf(sc)
	}
	if len(sc.Lines) == 0 {
		return b
	}
	f := boundsOf(sc)
	mx, my := (f.MaxX-f.MinX)*0.1, (f.MaxY-f.MinY)*0.15
	f = model.Rect{
		MinX: math.Max(f.MinX-mx, b.MinX), MaxX: math.Min(f.MaxX+mx, b.MaxX),
		MinY: math.Max(f.MinY-my, b.MinY), MaxY: math.Min(f.MaxY+my, b.MaxY),
	}
	if !ok(f) {
		return b
	}
	return f
}

// boundsOf fits a scene that gives no usable bounds.
func boundsOf(sc model.Scene) model.Rect {
	r := model.Rect{MinX: math.Inf(1), MinY: math.Inf(1), MaxX: math.Inf(-1), MaxY: math.Inf(-1)}
	grow := func(x, y float64) {
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return
		}
		r.MinX, r.MaxX = math.Min(r.MinX, x), math.Max(r.MaxX, x)
		r.MinY, r.MaxY = math.Min(r.MinY, y), math.Max(r.MaxY, y)
	}
	for _, l := range sc.Lines {
		grow(l.X1, l.Y1)
		grow(l.X2, l.Y2)
	}
	for _, p := range sc.Points {
		grow(p.X, p.Y)
	}
	if r.MinX > r.MaxX {
		return model.Rect{MinX: -1, MinY: -1, MaxX: 1, MaxY: 1}
	}
	if r.MaxX-r.MinX < 1e-9 {
		r.MinX, r.MaxX = r.MinX-1, r.MaxX+1
	}
	if r.MaxY-r.MinY < 1e-9 {
		r.MinY, r.MaxY = r.MinY-1, r.MaxY+1
	}
	return r
}
