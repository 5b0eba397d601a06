package sc2

import (
	"fmt"
	"strings"

	"rewind/decoders/sc2/bitpack"
	"rewind/model"
)

type gev struct {
	loop     int32
	user     int16
	id       int16
	off, end int32
}

type gameStream struct {
	data   []byte
	events []gev
	tab    bitpack.Table
	types  map[int64]gameEvent
}

// readHead reads what precedes every game event body: the loop delta, the
// user id and the event id.
func readHead(r *bitpack.Reader) (delta, user, id int64) {
	sel := r.Bits(2)
	delta = int64(r.Bits([]uint{6, 14, 22, 32}[sel]))
	user = int64(r.Bits(5))
	id = int64(r.Bits(7))
	return
}

// gameEvents decodes replay.game.events with the 97364 layout. It is
// called only when replay.initData decoded with the same table, which is
// what ties the build to the layout.
func (d *decoder) gameEvents(b []byte) {
	g := &gameStream{data: b, tab: gameTable97364, types: gameEvents97364}
	r := bitpack.New(b)
	loop := int64(0)
	g.events = make([]gev, 0, len(b)/6+16)
	for !r.Done() {
		off := r.Pos()
		delta, user, id := readHead(r)
		loop += delta
		et, ok := g.types[id]
		if r.Err() == nil && !ok {
			r.Fail("game event id %d is not in the 97364 layout", id)
		}
		if r.Err() == nil {
			r.Skip(g.tab, et.typ)
		}
		if err := r.Err(); err != nil {
			d.r.Partial = true
			e, _ := err.(*bitpack.Error)
			at := int64(off)
			if e != nil {
				at = int64(e.Off)
			}
			d.r.Diagnostics = append(d.r.Diagnostics, model.Diagnostic{Severity: model.Warning, Source: source,
				Span: model.Span{Stream: fGame, Off: at, Len: int64(len(b)) - at}, Frame: int(min64(loop, int64(d.limit()))),
				Subject: fmt.Sprintf("game event %d", len(g.events)), Message: err.Error() + "; rest of the stream skipped", Skipped: true})
			break
		}
		r.ByteAlign()
		if loop > int64(d.limit()) {
			loop = int64(d.limit())
		}
		g.events = append(g.events, gev{loop: int32(loop), user: int16(user), id: int16(id), off: int32(off), end: int32(r.Pos())})
	}
	d.game = g
	d.gameEventsLater = func() { g.appendEvents(d) }
	prevSum, prevDetail := d.r.Summarize, d.r.Detail
	d.r.Summarize = func(ev *model.Event) string {
		if ev.Span.Stream != fGame || ev.Ref < 0 || ev.Ref >= len(g.events) {
			if prevSum != nil {
				return prevSum(ev)
			}
			return ""
		}
		return g.summary(d, &g.events[ev.Ref])
	}
	d.r.Detail = func(ev *model.Event) []model.Field {
		if ev.Span.Stream != fGame || ev.Ref < 0 || ev.Ref >= len(g.events) {
			if prevDetail != nil {
				return prevDetail(ev)
			}
			return nil
		}
		return g.detail(&g.events[ev.Ref])
	}
}

// appendEvents adds the game events to the replay.
func (g *gameStream) appendEvents(d *decoder) {
	for i, e := range g.events {
		pl := -1
		if p, ok := d.userToPl[int(e.user)]; ok {
			pl = p
		}
		et := g.types[int64(e.id)]
		ev := model.Event{Frame: int(e.loop), Player: pl, Kind: et.kind, Ref: i,
			Span: model.Span{Stream: fGame, Off: int64(e.off), Len: int64(e.end - e.off)}}
		if e.id == 101 {
			ev.Notable = true
		}
		d.r.Events = append(d.r.Events, ev)
	}
}

func (g *gameStream) body(e *gev) bitpack.Value {
	r := bitpack.New(g.data[e.off:e.end])
	readHead(r)
	return r.Read(g.tab, g.types[int64(e.id)].typ)
}

func (g *gameStream) summary(d *decoder, e *gev) string {
	et := g.types[int64(e.id)]
	v := g.body(e)
	who := fmt.Sprintf("user %d", e.user)
	if p, ok := d.userToPl[int(e.user)]; ok && p < len(d.r.Players) {
		who = d.r.Players[p].Name
	}
	var sb strings.Builder
	sb.WriteString(et.name)
	sb.WriteString(" ")
	sb.WriteString(who)
	if len(v.Fields) > 0 {
		sb.WriteString(" ")
		formatValue(&sb, &v, 0)
	}
	s := sb.String()
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// formatValue writes a compact one-line form of a value.
func formatValue(sb *strings.Builder, v *bitpack.Value, depth int) {
	if sb.Len() > 240 {
		return
	}
	switch v.Kind {
	case bitpack.KStruct:
		sb.WriteString("{")
		n := 0
		for i := range v.Fields {
			f := &v.Fields[i]
			if f.Kind == bitpack.KOptional && f.Absent {
				continue
			}
			if n > 0 {
				sb.WriteString(" ")
			}
			n++
			sb.WriteString(strings.TrimPrefix(f.Name, "m_"))
			sb.WriteString(":")
			formatValue(sb, f, depth+1)
		}
		sb.WriteString("}")
	case bitpack.KOptional:
		if len(v.Items) > 0 {
			formatValue(sb, &v.Items[0], depth+1)
		} else {
			sb.WriteString("-")
		}
	case bitpack.KChoice:
		if len(v.Items) > 0 {
			sb.WriteString(v.Items[0].Name)
			if v.Items[0].Kind != bitpack.KNull {
				formatValue(sb, &v.Items[0], depth+1)
			}
		}
	case bitpack.KArray:
		fmt.Fprintf(sb, "[%d]", len(v.Items))
	case bitpack.KBlob, bitpack.KFourCC:
		fmt.Fprintf(sb, "%q", v.Bytes)
	case bitpack.KBitArray:
		fmt.Fprintf(sb, "bits(%d)", v.Int)
	case bitpack.KNull:
	default:
		fmt.Fprint(sb, v.Int)
	}
}

func (g *gameStream) detail(e *gev) []model.Field {
	et := g.types[int64(e.id)]
	v := g.body(e)
	out := []model.Field{
		{Key: "event", Label: "_event", Value: int64(e.id), Name: et.name, Span: model.Span{Stream: fGame, Off: int64(e.off), Len: int64(e.end - e.off)}},
		{Key: "gameloop", Label: "_gameloop", Value: int64(e.loop)},
		{Key: "userId", Label: "_userid", Value: int64(e.user)},
	}
	for i := range v.Fields {
		out = append(out, bitField(&v.Fields[i], int64(e.off), 0))
	}
	return out
}

func bitField(v *bitpack.Value, base int64, depth int) model.Field {
	f := model.Field{Key: strings.TrimPrefix(v.Name, "m_"), Label: v.Name,
		Span: model.Span{Stream: fGame, Off: base + int64(v.Off), Len: int64(v.End-v.Off) + 1}}
	if f.Key == "" {
		f.Key = "value"
	}
	x := v
	if x.Kind == bitpack.KOptional {
		if x.Absent || len(x.Items) == 0 {
			return f
		}
		x = &x.Items[0]
	}
	if depth > 8 {
		return f
	}
	switch x.Kind {
	case bitpack.KStruct:
		for i := range x.Fields {
			f.Fields = append(f.Fields, bitField(&x.Fields[i], base, depth+1))
		}
	case bitpack.KChoice:
		f.Name = ""
		if len(x.Items) > 0 {
			f.Name = x.Items[0].Name
			f.Value = x.Int
			c := bitField(&x.Items[0], base, depth+1)
			if c.Fields != nil {
				f.Fields = c.Fields
			} else if c.Value != nil {
				f.Fields = []model.Field{c}
			}
		}
	case bitpack.KArray:
		f.Value = int64(len(x.Items))
		f.Name = fmt.Sprintf("%d items", len(x.Items))
		for i := range x.Items {
			if i >= 64 {
				break
			}
			it := x.Items[i]
			it.Name = fmt.Sprintf("[%d]", i)
			f.Fields = append(f.Fields, bitField(&it, base, depth+1))
		}
	case bitpack.KBlob, bitpack.KFourCC:
		f.Value = string(x.Bytes)
	case bitpack.KBitArray:
		f.Value = x.Bytes
		f.Name = fmt.Sprintf("%d bits", x.Int)
	case bitpack.KBool:
		f.Value = x.Int != 0
	case bitpack.KNull:
	default:
		f.Value = x.Int
	}
	return f
}
