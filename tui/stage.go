package tui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"rewind/model"
	"rewind/theme"
)

// canvas is a braille canvas: every cell holds 2×4 dots, so a pane of
// w×h cells draws 2w×4h points. On top of the dots a cell may hold a
// glyph: a player's mark, a facing arrow, an item, a letter of a label.
type canvas struct {
	w, h  int
	dots  []uint8
	dotPt []int16 // the dots' paint (see pid)
	glyph []rune
	glPt  []int16
	occ   []uint8 // what holds the cell's glyph: 0 nothing, occLabel, occMark
}

const (
	occLabel = 1 // a letter of a label: no other label may cover it
	occMark  = 2 // a mark (player, item, arrow): nothing may cover it
)

// Paint ids of canvas cells: 0 plain, 1 the scene's geometry (dim), 2+p
// player p, trailPid+p player p's trail.
const (
	pidGeom  = 1
	trailPid = 100
)

func pid(player int) int16 {
	if player < 0 {
		return 0
	}
	return int16(2 + min(player, trailPid-3))
}

func trailPidOf(player int) int16 {
	if player < 0 {
		return pidGeom
	}
	return int16(trailPid + min(player, 1000))
}

func newCanvas(w, h int) *canvas {
	n := w * h
	return &canvas{w: w, h: h, dots: make([]uint8, n), dotPt: make([]int16, n),
		glyph: make([]rune, n), glPt: make([]int16, n), occ: make([]uint8, n)}
}

// brailleBit maps a dot's position inside its cell to the Unicode bit.
var brailleBit = [4][2]uint8{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

func (c *canvas) set(x, y int, pt int16) {
	if x < 0 || y < 0 || x >= 2*c.w || y >= 4*c.h {
		return
	}
	i := (y/4)*c.w + x/2
	c.dots[i] |= brailleBit[y%4][x%2]
	c.dotPt[i] = pt
}

// free reports whether a cell may take a glyph of the kind: a mark needs a
// cell with no mark, a label a cell with neither mark nor label.
func (c *canvas) free(cx, cy int, occ uint8) bool {
	if cx < 0 || cy < 0 || cx >= c.w || cy >= c.h {
		return false
	}
	o := c.occ[cy*c.w+cx]
	if occ == occMark {
		return o != occMark
	}
	return o == 0
}

// occupied reports a mark in a cell.
func (c *canvas) occupied(cx, cy int) bool {
	return cx >= 0 && cy >= 0 && cx < c.w && cy < c.h && c.occ[cy*c.w+cx] == occMark
}

func (c *canvas) put(cx, cy int, r rune, pt int16, occ uint8) {
	i := cy*c.w + cx
	c.glyph[i], c.glPt[i], c.occ[i] = r, pt, occ
}

// mark puts a glyph at the first free cell of (cx, cy) and its neighbours,
// so two players standing together both stay visible; it returns the cell
// used, or false when all are taken.
func (c *canvas) mark(cx, cy int, r rune, pt int16) (int, int, bool) {
	for _, d := range [...][2]int{{0, 0}, {1, 0}, {-1, 0}, {0, -1}, {2, 0}, {-2, 0}, {0, 1}, {1, -1}, {-1, -1}} {
		x, y := cx+d[0], cy+d[1]
		if c.free(x, y, occMark) {
			c.put(x, y, r, pt, occMark)
			return x, y, true
		}
	}
	return 0, 0, false
}

// label writes s near the mark at (cx, cy) where it covers no mark and no
// other label: to the right, to the left, then on the rows above and
// below, then further up and down. Labels never overlap; one that finds
// no room is left out (its mark still shows).
func (c *canvas) label(cx, cy int, s string, pt int16) bool {
	rs := []rune(s)
	n := len(rs)
	if n == 0 {
		return false
	}
	// one cell between the mark (and its arrow) and the label
	r, l := 2, -n-1
	if c.occupied(cx+1, cy) {
		r++
	}
	if c.occupied(cx-1, cy) {
		l--
	}
	cands := [...][2]int{{r, 0}, {l, 0}, {1, -1}, {-n, -1}, {1, 1}, {-n, 1}, {-n / 2, -1}, {-n / 2, 1},
		{1, -2}, {-n, -2}, {1, 2}, {-n, 2}, {-n / 2, -2}, {-n / 2, 2}, {1, -3}, {1, 3}}
	// first a place in the open, then one over the geometry and trails
	for _, open := range [...]bool{true, false} {
		for _, d := range cands {
			x, y := cx+d[0], cy+d[1]
			ok := true
			for k := 0; k < n && ok; k++ {
				ok = c.free(x+k, y, occLabel) && (!open || c.dots[y*c.w+x+k] == 0)
			}
			if !ok {
				continue
			}
			for k, r := range rs {
				c.put(x+k, y, r, pt, occLabel)
			}
			return true
		}
	}
	return false
}

// line draws a segment in dot coordinates. The number of steps is bounded
// by the canvas, so a segment from a broken file that runs far outside it
// costs no more than one that fits.
func (c *canvas) line(x1, y1, x2, y2 float64, pt int16) {
	dx, dy := x2-x1, y2-y1
	steps := math.Max(math.Abs(dx), math.Abs(dy))
	limit := float64(4 * (c.w + c.h))
	if steps > limit {
		steps = limit
	}
	if !(steps >= 1) { // also NaN
		c.set(int(math.Round(x1)), int(math.Round(y1)), pt)
		return
	}
	for i := 0.0; i <= steps; i++ {
		t := i / steps
		c.set(int(math.Round(x1+dx*t)), int(math.Round(y1+dy*t)), pt)
	}
}

func (c *canvas) render(p *paints) []string {
	out := make([]string, c.h)
	paintOf := func(id int16) paint {
		switch {
		case id <= 0:
			return p.plain
		case id == pidGeom:
			return p.dim
		case id >= trailPid:
			return p.trail(int(id - trailPid))
		default:
			return p.player(int(id - 2))
		}
	}
	for y := 0; y < c.h; y++ {
		var b, run strings.Builder
		cur := int16(-1)
		flush := func() {
			paintOf(cur).write(&b, run.String())
			run.Reset()
		}
		for x := 0; x < c.w; x++ {
			i := y*c.w + x
			col := int16(0)
			switch {
			case c.glyph[i] != 0:
				col = c.glPt[i]
			case c.dots[i] != 0:
				col = c.dotPt[i]
			}
			if col != cur {
				flush()
				cur = col
			}
			switch {
			case c.glyph[i] != 0:
				run.WriteRune(c.glyph[i])
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

// playerGlyphs tell the players apart without colour; a player's second
// character (Nana) gets the hollow form.
var (
	playerGlyphs = []rune("●■▲◆▼◉▣◈")
	hollowGlyphs = []rune("○□△◇▽◎□◇")
)

func playerGlyph(p int, second bool) rune {
	if p < 0 {
		return '•'
	}
	i := p % len(playerGlyphs)
	if second {
		return hollowGlyphs[i]
	}
	return playerGlyphs[i]
}

// arrow is the facing direction as one of eight arrows and the cell it
// goes to; ok is false when the direction is zero or not a number.
func arrow(fx, fy float64) (r rune, dx, dy int, ok bool) {
	if !(fx*fx+fy*fy > 1e-12) {
		return 0, 0, 0, false
	}
	a := math.Atan2(fy, fx) // y grows upwards in the scene
	oct := int(math.Round(a/(math.Pi/4))+8) % 8
	dirs := [8]struct {
		r      rune
		dx, dy int
	}{{'→', 1, 0}, {'↗', 1, -1}, {'↑', 0, -1}, {'↖', -1, -1}, {'←', -1, 0}, {'↙', -1, 1}, {'↓', 0, 1}, {'↘', 1, 1}}
	d := dirs[oct]
	return d.r, d.dx, d.dy, true
}

// moving reports the kinds of point that get a mark, a trail and a label
// first: players and the few things that matter (a head, a hand); items,
// units and checkpoints are many and get less.
func moving(kind string) bool {
	switch kind {
	case "item", "unit", "checkpoint":
		return false
	}
	return true
}

// Trails: a moving point's positions over the last half second, at most
// trailN of them, read with SceneAt at earlier frames (trailN scene reads
// per drawing, whatever the replay's length).
const (
	trailN    = 8
	trailSpan = 500 * time.Millisecond
)

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
	v.sceneN = len(scenes)
	if len(scenes) == 0 {
		return v.pane("stage", focused, w, h, []string{v.paints.dim.wrap("nothing to draw at this " + v.unit() + " (v returns to the inspector)")})
	}
	n := min(len(scenes), v.scenesFit(w))
	// V turns the pages of scenes when they do not all fit
	first := 0
	if len(scenes) > n {
		first = (v.scenePage * n) % len(scenes)
	}
	var titles []string
	for i := 0; i < n; i++ {
		if t := scenes[(first+i)%len(scenes)].Title; t != "" {
			titles = append(titles, theme.Safe(t))
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
	past := v.pastScenes(scenes)
	var cols [][]string
	left := cw - (n - 1) // separators
	for i := 0; i < n; i++ {
		sw := left / n
		if i < left%n {
			sw++
		}
		k := (first + i) % len(scenes)
		var trail []model.Scene
		if past != nil {
			trail = past[k]
		}
		cols = append(cols, v.drawScene(scenes[k], trail, sw, ch))
	}
	return v.pane(title, focused, w, h, hjoin(v.sep(), cols...))
}

// scenesFit is how many scenes fit side by side in a pane w cells wide.
func (v *replayView) scenesFit(w int) int { return min(3, max((w-1)/20, 1)) }

// pastScenes reads the scenes of the trail's frames, newest first, for
// each scene index: nil when no scene has a moving point (a map of units).
func (v *replayView) pastScenes(now []model.Scene) [][]model.Scene {
	any := false
	for _, sc := range now {
		for _, pt := range sc.Points {
			if moving(pt.Kind) {
				any = true
			}
		}
	}
	if !any || v.frame == 0 {
		return nil
	}
	out := make([][]model.Scene, len(now))
	t := v.tl.Time(v.frame)
	last := v.frame
	for k := 1; k <= trailN; k++ {
		f := v.tl.At(t - trailSpan*time.Duration(k)/trailN)
		if f >= last {
			f = last - 1
		}
		if f < 0 {
			break
		}
		last = f
		scs := v.r.SceneAt(f)
		for i := range now {
			if i < len(scs) {
				out[i] = append(out[i], scs[i])
			}
		}
	}
	return out
}

// pointKey tells the same thing apart in two frames' scenes.
type pointKey struct {
	player int
	kind   string
	label  string
}

// drawScene renders one scene on a canvas of w×h cells, with the moving
// points' trails from the past scenes (newest first).
func (v *replayView) drawScene(sc model.Scene, past []model.Scene, w, h int) []string {
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
	dot := func(pt model.Point) (int, int) {
		// things off the view are drawn at its edge so they stay visible
		return int(math.Round(clampF(tx(pt.X), dw))), int(math.Round(clampF(ty(pt.Y), dh)))
	}
	// a player's mark is a cell above where it stands (see below): its
	// trail is drawn as high, so it ends under the mark
	trailDot := func(pt model.Point) (int, int) {
		x, y := dot(pt)
		if pt.Kind == "player" || pt.Kind == "" {
			y = max(y-4, 0)
		}
		return x, y
	}
	for _, ln := range sc.Lines {
		c.line(tx(ln.X1), ty(ln.Y1), tx(ln.X2), ty(ln.Y2), pidGeom)
	}
	// trails: a line from each past position to the next, in the player's
	// quiet colour, under everything else
	if len(past) > 0 {
		prev := map[pointKey][2]int{}
		for _, pt := range sc.Points {
			if moving(pt.Kind) {
				x, y := trailDot(pt)
				prev[pointKey{pt.Player, pt.Kind, pt.Label}] = [2]int{x, y}
			}
		}
		for _, ps := range past {
			for _, pt := range ps.Points {
				k := pointKey{pt.Player, pt.Kind, pt.Label}
				to, ok := prev[k]
				if !ok || !moving(pt.Kind) {
					continue
				}
				x, y := trailDot(pt)
				c.line(float64(x), float64(y), float64(to[0]), float64(to[1]), trailPidOf(pt.Player))
				prev[k] = [2]int{x, y}
			}
		}
	}
	type lbl struct {
		cx, cy int
		s      string
		pt     int16
	}
	var labels, minor []lbl
	// every kind of point gets its label while they are few enough to read;
	// players' labels go first so a crowd of items cannot push them out
	labelAll := len(sc.Points) <= 40
	seen := map[[2]int]bool{}
	// the things that matter first, so a crowd of items cannot take their cells
	for pass := 0; pass < 2; pass++ {
		for _, pt := range sc.Points {
			if moving(pt.Kind) != (pass == 0) {
				continue
			}
			x, y := dot(pt)
			cx, cy := x/2, y/4
			if pt.Kind == "player" || pt.Kind == "" {
				// a player's position is where it stands: its mark goes in
				// the cell above the point's, off the platform's line
				cy = max(cy-1, 0)
			}
			pp := pid(pt.Player)
			switch pt.Kind {
			case "unit", "checkpoint":
				c.set(x, y, pp) // many of them: one dot each
				if pt.Label != "" && labelAll {
					minor = append(minor, lbl{cx, cy, theme.Safe(pt.Label), pp})
				}
				continue
			case "item":
				if mx, my, ok := c.mark(cx, cy, '•', pp); ok && pt.Label != "" && labelAll {
					minor = append(minor, lbl{mx, my, theme.Safe(pt.Label), pp})
				}
				continue
			}
			// a mark that says who: the player's glyph, or a one-letter
			// label itself (a head H, hands L and R)
			g := playerGlyph(pt.Player, false)
			label := theme.Safe(pt.Label)
			if rs := []rune(label); len(rs) == 1 {
				g, label = rs[0], ""
			} else if pt.Kind == "player" || pt.Kind == "" {
				key := [2]int{pt.Player, 0}
				g = playerGlyph(pt.Player, seen[key])
				seen[key] = true
			} else {
				g = '■'
			}
			mx, my, ok := c.mark(cx, cy, g, pp)
			if !ok {
				continue
			}
			if r, dx, dy, ok := arrow(pt.FacingX, pt.FacingY); ok && c.free(mx+dx, my+dy, occMark) {
				c.put(mx+dx, my+dy, r, pp, occMark)
			}
			if label != "" {
				labels = append(labels, lbl{mx, my, label, pp})
			}
		}
	}
	// labels after every mark, so that no label hides a player
	for _, l := range append(labels, minor...) {
		if c.label(l.cx, l.cy, l.s, l.pt) {
			continue
		}
		// no room for the whole label: its first word ("P1" of "P1 Fox")
		if short, _, cut := strings.Cut(l.s, " "); cut {
			c.label(l.cx, l.cy, short, l.pt)
		}
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
