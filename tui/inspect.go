package tui

import (
	"fmt"
	"sort"
	"strings"

	"rewind/model"
	"rewind/theme"
)

func (v *replayView) bytesPerRow(w int) int {
	switch {
	case w >= 1+10+16*4+2:
		return 16
	case w >= 1+10+8*4+2:
		return 8
	default:
		return 4
	}
}

// byte classes, in the order they win
const (
	clNormal = iota
	clZero
	clSkipped
	clSpan
	clProblem
	clCursor
)

// inspectorPane: hex and ASCII of the bytes around the cursor, the selected
// event's span highlighted, the problem's offset and skipped ranges marked,
// and which event owns the byte under the cursor.
func (v *replayView) inspectorPane(w, h int) []string {
	if h <= 0 {
		return nil
	}
	r := v.r
	p := v.paints
	data := r.Bytes(v.stream)
	title := "inspector"
	if v.stream != "" {
		title += " " + theme.Safe(v.stream)
	}
	title += fmt.Sprintf(" %s bytes", thousands(int64(len(data))))
	if v.stream != "" {
		// a decoded stream names the container bytes it came from
		if g := r.RegionAt(v.stream, v.cur); g >= 0 {
			title += fmt.Sprintf(" · %s at %#x (o)", theme.Safe(strings.TrimPrefix(r.Regions[g].Label, v.stream+" ")), r.Regions[g].Span.Off)
		}
	}
	focused := v.focus == paneInspector
	if len(data) == 0 {
		msg := "no bytes to show"
		if g := r.RegionAt(v.stream, 0); g >= 0 {
			msg = fmt.Sprintf("no bytes: %s at %#x did not read · o goes to its bytes in the file", theme.Safe(r.Regions[g].Label), r.Regions[g].Span.Off)
		}
		return v.pane(title, focused, w, h, []string{p.dim.wrap(msg)})
	}
	bpr := int64(v.bytesPerRow(w))
	rows := h - 1
	status := 2
	switch {
	case rows < 4:
		status = 0
	case rows >= 10:
		status = 3 // room for a problem's whole sentence
	}
	rows -= status
	rows = max(rows, 0)
	v.hexRows = rows
	v.cur = max(0, min(v.cur, int64(len(data))-1))
	rowOf := func(off int64) int64 { return off / bpr * bpr }
	if v.hexTop < 0 {
		v.hexTop = max(0, rowOf(v.cur)-int64(rows/3)*bpr)
	}
	if v.cur < v.hexTop {
		v.hexTop = rowOf(v.cur)
	}
	if rows > 0 && v.cur >= v.hexTop+int64(rows)*bpr {
		v.hexTop = rowOf(v.cur) - int64(rows-1)*bpr
	}
	// do not scroll past the end: the last row stays at the bottom
	if rows > 0 {
		v.hexTop = min(v.hexTop, max(0, rowOf(int64(len(data))-1)-int64(rows-1)*bpr))
	}
	v.hexTop = max(0, rowOf(v.hexTop))

	var sel model.Span
	hasSel := false
	switch {
	case v.useField:
		sel, hasSel = v.field, v.field.Stream == v.stream
	case v.ev >= 0 && v.ev < len(r.Events) && r.EventSpan(v.ev).Stream == v.stream:
		sel, hasSel = r.EventSpan(v.ev), true
	}
	if !hasSel && v.stream == "" {
		// the container's region under the cursor: a sector, a table
		if g := r.RegionAt("", v.cur); g >= 0 {
			sel, hasSel = r.Regions[g].Span, true
		}
	}
	var prob model.Span
	hasProb := false
	if v.diag >= 0 && v.diag < len(r.Diagnostics) && r.Diagnostics[v.diag].Span.Stream == v.stream {
		prob, hasProb = r.Diagnostics[v.diag].Span, true
		if prob.Len == 0 {
			prob.Len = 1
		}
	}
	winEnd := v.hexTop + int64(rows)*bpr
	skips := v.p.skipsIn(v.stream, v.hexTop, winEnd)
	class := func(off int64, c byte) int {
		switch {
		case off == v.cur:
			return clCursor
		case hasProb && off >= prob.Off && off < prob.End():
			return clProblem
		case hasSel && off >= sel.Off && off < sel.End():
			return clSpan
		}
		for _, s := range skips {
			if off >= s.Off && off < s.End() {
				return clSkipped
			}
		}
		if c == 0 {
			return clZero
		}
		return clNormal
	}
	paintFor := [...]paint{p.plain, p.hexZero, p.hexSkip, p.hexSpan, p.hexProb, p.hexCur}
	const hexd = "0123456789abcdef"
	var lines []string
	for row := 0; row < rows; row++ {
		off := v.hexTop + int64(row)*bpr
		if off >= int64(len(data)) {
			break
		}
		var b, asc, run, arun strings.Builder
		b.WriteString(p.hexOff.wrap(fmt.Sprintf("%08x", off)))
		// a mark that reads without colour: the problem's row, the cursor's row
		switch end := off + bpr; {
		case hasProb && prob.Off >= off && prob.Off < end:
			b.WriteString(p.err.wrap("!") + " ")
		case v.cur >= off && v.cur < end:
			b.WriteString("> ")
		default:
			b.WriteString("  ")
		}
		cl := -1
		flush := func() {
			if cl >= 0 {
				paintFor[cl].write(&b, run.String())
				paintFor[cl].write(&asc, arun.String())
			}
			run.Reset()
			arun.Reset()
		}
		for i := int64(0); i < bpr; i++ {
			o := off + i
			if o >= int64(len(data)) {
				if cl != clNormal {
					flush()
					cl = clNormal
				}
				run.WriteString("   ")
				continue
			}
			c := data[o]
			k := class(o, c)
			if k != cl {
				flush()
				cl = k
			}
			run.WriteByte(hexd[c>>4])
			run.WriteByte(hexd[c&15])
			if i == bpr/2-1 && bpr >= 8 {
				// a wider gap halfway makes counting easier; the gap itself
				// belongs to the run so a span stays one block
				run.WriteString("  ")
			} else {
				run.WriteByte(' ')
			}
			if c >= 0x20 && c < 0x7f {
				arun.WriteByte(c)
			} else {
				arun.WriteByte('.')
			}
		}
		flush()
		b.WriteString(" ")
		b.WriteString(asc.String())
		lines = append(lines, b.String())
	}
	for len(lines) < rows {
		lines = append(lines, "")
	}
	if status > 0 {
		// under the dump: the event that owns the byte under the cursor,
		// the field of it the byte belongs to, then the problem or the
		// selection; a problem's sentence wins over the field when the
		// pane has room for two lines only
		lines = append(lines, v.ownerLine())
		text, pt := v.detail()
		room := status - 1
		if v.diag < 0 || room >= 2 {
			lines = append(lines, v.fieldLine())
			room--
		}
		if room > 0 && text != "" {
			wrapped := wrap(text, max(w-1, 10))
			if len(wrapped) > room {
				wrapped = wrapped[:room]
				wrapped[len(wrapped)-1] += " …" // fit() cuts what is left over
			}
			for _, l := range wrapped {
				lines = append(lines, pt.wrap(l))
			}
		}
	}
	return v.pane(title, focused, w, h, lines)
}

// fieldCache is one event's fields, flattened, for the field line.
type fieldCache struct {
	ev    int
	lines []treeLine
}

// fieldLine names the field of the owning event that the byte under the
// cursor belongs to (the smallest span that holds it), whether or not the
// event is expanded.
func (v *replayView) fieldLine() string {
	p := v.paints
	e := v.r.EventAt(v.stream, v.cur)
	if e < 0 && v.stream == "" {
		if g := v.r.RegionAt("", v.cur); g >= 0 {
			return v.regionFieldLine(&v.r.Regions[g])
		}
	}
	if e < 0 {
		return ""
	}
	c := &v.fieldAt
	if c.lines == nil || c.ev != e {
		c.ev, c.lines = e, flattenFields(v.r.EventFields(e), 2000)
	}
	best := -1
	for i, t := range c.lines {
		if t.span.Len > 0 && t.span.Contains(v.stream, v.cur) && (best < 0 || t.span.Len < c.lines[best].span.Len) {
			best = i
		}
	}
	if best < 0 {
		return p.dim.wrap(fmt.Sprintf("field: none of #%d's %d fields holds this byte", e+1, len(c.lines)))
	}
	t := c.lines[best]
	// the path from the top of the tree: a group's label before the field's
	path := t.label
	for i, d := best-1, t.depth; i >= 0 && d > 0; i-- {
		if c.lines[i].depth < d {
			path = c.lines[i].label + " › " + path
			d = c.lines[i].depth
		}
	}
	val := t.text
	if t.raw != "" && t.raw != t.text {
		val += " (" + t.raw + ")"
	}
	where := fmt.Sprintf("%#x+%d", t.span.Off, t.span.Len)
	return p.label.wrap("field ") + path + " = " + val + "  " + p.dim.wrap(where)
}

// regionText names a region of the container and what it holds: the
// sector's compression and sizes, why it does not read, and the key that
// goes to the bytes it decodes to.
func (v *replayView) regionText(g *model.Region) string {
	p := v.paints
	s := theme.Safe(g.Label)
	// a sector: "(bzip2 42,225 → 100,215 bytes)"
	var comp, stored, decoded string
	for _, f := range g.Fields {
		switch f.Key {
		case "compression":
			comp = f.Name
		case "storedBytes":
			stored = thousands(asInt(f.Value))
		case "decodedBytes":
			decoded = thousands(asInt(f.Value))
		}
	}
	if comp != "" {
		s += fmt.Sprintf(" (%s %s → %s bytes)", comp, stored, decoded)
	}
	if g.Err != "" {
		s += " " + p.err.wrap(theme.Safe(g.Err))
	}
	return s
}

// regionFieldLine is the field line in a container's own bytes: the
// region's field under the cursor (a sector's compression byte), or where
// o goes from here.
func (v *replayView) regionFieldLine(g *model.Region) string {
	p := v.paints
	best := -1
	lines := flattenFields(g.Fields, 2000)
	for i, t := range lines {
		if t.span.Len > 0 && t.span.Contains("", v.cur) && (best < 0 || t.span.Len < lines[best].span.Len) {
			best = i
		}
	}
	if best >= 0 {
		t := lines[best]
		val := t.text
		if t.raw != "" && t.raw != t.text {
			val += " (" + t.raw + ")"
		}
		return p.label.wrap("field ") + theme.Safe(t.label) + " = " + val + "  " + p.dim.wrap(fmt.Sprintf("%#x+%d", t.span.Off, t.span.Len))
	}
	if g.Link.Stream != "" {
		return p.dim.wrap(fmt.Sprintf("o: its bytes decoded, %s at %#x", theme.Safe(g.Link.Stream), g.Link.Off))
	}
	return ""
}

// ownerLine tells which event owns the byte under the cursor, or, in a
// container's own bytes, which part of the container they are.
func (v *replayView) ownerLine() string {
	r := v.r
	p := v.paints
	at := p.bold.wrap(fmt.Sprintf("@%#x", v.cur))
	e := r.EventAt(v.stream, v.cur)
	if e < 0 && v.stream == "" {
		if g := r.RegionAt("", v.cur); g >= 0 {
			return at + " in " + v.regionText(&r.Regions[g])
		}
	}
	if e < 0 {
		return at + " " + p.dim.wrap("no event owns this byte")
	}
	ev := &r.Events[e]
	who := ""
	if pl := int(ev.Player); pl >= 0 && pl < len(r.Players) {
		who = p.player(pl).wrap(theme.Safe(r.Players[pl].Slot)) + " "
	}
	return fmt.Sprintf("%s in #%d %s%s @%s: %s", at, e+1, who, theme.Safe(r.EventKind(e)),
		theme.Safe(r.Timeline.Label(int(ev.Frame))), theme.Safe(r.EventSummary(e)))
}

// detail says what the decoder expected at a problem, or what the
// highlighted span is, with the paint to show it in.
func (v *replayView) detail() (string, paint) {
	r := v.r
	p := v.paints
	if v.diag >= 0 && v.diag < len(r.Diagnostics) {
		d := r.Diagnostics[v.diag]
		s := theme.Safe(d.Subject + " " + d.Message)
		if d.Expected != "" {
			s += " · expected " + theme.Safe(d.Expected)
		}
		if d.Found != "" {
			s += " · found " + theme.Safe(d.Found)
		}
		if d.Skipped {
			s += fmt.Sprintf(" · skipped %#x..%#x", d.Span.Off, d.Span.End())
		}
		return "! " + strings.TrimSpace(s), p.severity(int(d.Severity))
	}
	for _, s := range v.p.skipsIn(v.stream, v.cur, v.cur+1) {
		if s.Contains(v.stream, v.cur) {
			return fmt.Sprintf("skipped by the decoder: %#x..%#x (%s bytes)", s.Off, s.End(), thousands(s.Len)), p.hexSkip
		}
	}
	if v.useField {
		return fmt.Sprintf("%s: %s, %d bytes", v.fieldWhat, v.field.String(), v.field.Len), p.dim
	}
	if v.ev >= 0 && v.ev < len(r.Events) {
		sp := r.EventSpan(v.ev)
		return fmt.Sprintf("selected #%d: %s, %d bytes", v.ev+1, sp.String(), sp.Len), p.dim
	}
	return "", p.plain
}

// skipsIn returns the skipped ranges of the stream that overlap [lo, hi).
func (p *prepared) skipsIn(stream string, lo, hi int64) []model.Span {
	k := sort.Search(len(p.skips), func(i int) bool {
		s := p.skips[i]
		if s.Stream != stream {
			return s.Stream > stream
		}
		return s.Off >= hi
	})
	var out []model.Span
	// ranges rarely overlap one another, so a short look back finds them all
	for i := k - 1; i >= 0 && i >= k-64; i-- {
		s := p.skips[i]
		if s.Stream != stream {
			break
		}
		if s.End() > lo {
			out = append(out, s)
		}
	}
	return out
}

// asInt is a field's integer value; 0 for any other kind of value.
func asInt(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case uint64:
		return int64(n)
	case int:
		return int64(n)
	}
	return 0
}
