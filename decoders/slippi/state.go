package slippi

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"rewind/model"
)

// charAt is the internal character of a port at a frame: the post-frame's
// (Zelda and Sheik change mid-game), else the Game Start character's.
func (d *decoder) charAt(fi, port int, follower bool) int {
	post := d.post
	if follower {
		post = d.fpost
	}
	if post != nil && port < d.slots {
		if off := post[fi*d.slots+port]; off > 0 && d.size[cmdPost] >= 7 {
			return int(d.data[int(off)+7])
		}
	}
	if follower {
		return 11 // Nana
	}
	if e := d.ports[port].ext; e >= 0 && e < len(externalToInternal) {
		return externalToInternal[e]
	}
	return -1
}

func (d *decoder) ctx(char int) nameCtx { return nameCtx{char: char, ver: d.version} }

// frameFields decodes one kept pre/post pair into groups.
func (d *decoder) frameFields(pre, post []int32, i, char int) []model.Field {
	var out []model.Field
	if pre != nil {
		if off := pre[i]; off > 0 {
			n := 1 + int(d.size[cmdPre])
			out = append(out, model.Field{Key: "pre", Label: "Pre-Frame Update", Span: model.Span{Off: int64(off), Len: int64(n)},
				Fields: decodeFields(d.data, int(off), n, preDefs, d.ctx(char))})
		}
	}
	if post != nil {
		if off := post[i]; off > 0 {
			n := 1 + int(d.size[cmdPost])
			out = append(out, model.Field{Key: "post", Label: "Post-Frame Update", Span: model.Span{Off: int64(off), Len: int64(n)},
				Fields: decodeFields(d.data, int(off), n, postDefs, d.ctx(char))})
		}
	}
	return out
}

// gap is a run of frames in which a port has no update: before a
// Multi-Man Melee enemy comes on, between enemies, while a doubles player
// who lost the last stock waits to take a teammate's, after elimination.
type gap struct {
	from, to int32 // frame indexes, inclusive
	stocks   int16 // stocks in the post-frame update before the gap, -1 none
	char     int16 // internal character of that update, -1 none
	last     bool  // no update follows
}

// absent is the state of a player without an update at the frame: not
// present, with a brief that says why (eliminated, out of stocks, not on
// stage) rather than nothing.
func (d *decoder) absent(fi, port int) model.PlayerState {
	gs := d.gaps[port]
	k := sort.Search(len(gs), func(k int) bool { return int(gs[k].to) >= fi })
	var g gap
	switch {
	case k < len(gs) && int(gs[k].from) <= fi:
		g = gs[k]
	case d.open[port] != nil && int(d.open[port].from) <= fi:
		g = *d.open[port] // the frames without an update up to the last one
	default:
		return model.PlayerState{}
	}
	var status string
	switch {
	case g.stocks < 0:
		status = "not on stage yet"
	case g.stocks == 0 && g.last:
		status = "eliminated"
	case g.stocks == 0:
		status = "out of stocks"
	default:
		status = "not on stage"
	}
	var b []model.Field
	if g.char >= 0 {
		b = append(b, model.Field{Key: "character", Label: "Character", Value: int64(g.char), Name: internalName(int(g.char))})
	}
	if g.stocks >= 0 {
		b = append(b, model.Field{Key: "stocksRemaining", Label: "Stocks", Value: int64(g.stocks)})
	}
	b = append(b, model.Field{Key: "status", Label: "Status", Value: status})
	return model.PlayerState{Brief: b}
}

// state is Replay.State: the kept copy of the port's pre- and post-frame
// updates at the frame, decoded from the file's bytes.
func (d *decoder) state(fi, pl int) model.PlayerState {
	if pl < 0 || pl >= len(d.portOf) || fi < 0 || fi >= d.count {
		return model.PlayerState{}
	}
	port := d.portOf[pl]
	i := fi*d.slots + port
	if d.pre[i] == 0 && d.post[i] == 0 {
		return d.absent(fi, port)
	}
	char := d.charAt(fi, port, false)
	st := model.PlayerState{Present: true, Fields: d.frameFields(d.pre, d.post, i, char)}
	if d.fpre != nil && (d.fpre[i] > 0 || d.fpost[i] > 0) {
		st.Fields = append(st.Fields, model.Field{Key: "follower", Label: "Follower (Nana)",
			Fields: d.frameFields(d.fpre, d.fpost, i, d.charAt(fi, port, true))})
	}
	st.Brief = d.brief(fi, port, char)
	return st
}

func round1(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

func (d *decoder) brief(fi, port, char int) []model.Field {
	i := fi*d.slots + port
	var b []model.Field
	b = append(b, model.Field{Key: "character", Label: "Character", Value: int64(char), Name: internalName(char)})
	if off := d.post[i]; off > 0 && d.size[cmdPost] >= 0x21 {
		o := int(off)
		pct := f32(be32(d.data[o+0x16:]))
		b = append(b,
			model.Field{Key: "percent", Label: "Percent", Value: pct, Name: round1(pct) + "%"},
			model.Field{Key: "stocksRemaining", Label: "Stocks", Value: int64(d.data[o+0x21])},
		)
		as := int64(binary.BigEndian.Uint16(d.data[o+8:]))
		b = append(b, model.Field{Key: "actionStateId", Label: "Action", Value: as, Name: actionName(int(as), char)})
		x, y := f32(be32(d.data[o+0xA:])), f32(be32(d.data[o+0xE:]))
		b = append(b, model.Field{Key: "position", Label: "Position", Value: "(" + round1(x) + ", " + round1(y) + ")"})
		sh := f32(be32(d.data[o+0x1A:]))
		b = append(b, model.Field{Key: "shieldSize", Label: "Shield", Value: sh, Name: round1(sh)})
	}
	if off := d.pre[i]; off > 0 && d.size[cmdPre] >= 0x30 {
		// the brief shows buttons held, not the stick directions and the
		// any-trigger bit that share the processed word (those are in Fields)
		held := be32(d.data[int(off)+0x2D:]) & 0x1fff
		name := buttonNames(held)
		if name == "" {
			name = "none"
		}
		b = append(b, model.Field{Key: "buttonsHeld", Label: "Buttons", Value: int64(held), Name: name})
	}
	return b
}

func (d *decoder) label(pl int) string {
	if pl >= 0 && pl < len(d.r.Players) {
		return d.r.Players[pl].Slot
	}
	return "P?"
}

// summarize is Replay.Summarize: one line per event, from its bytes.
func (d *decoder) summarize(ev *model.Event) string {
	off, n := int(ev.Off), int(ev.Len)
	if off < 0 || off+n > len(d.data) || n < 1 {
		return ""
	}
	if ev.Flags&model.Partial != 0 {
		return fmt.Sprintf("%s cut off after %d of %d bytes: the data ends here", nameOrCode(d.data[off]), n, d.cutSize)
	}
	e := d.data[off : off+n]
	var s string
	switch ev.Kind {
	case kPayloads:
		s = fmt.Sprintf("Event Payloads: %d event types", (n-2)/3)
	case kStart:
		// the players Game Start lists: the fighters a single-player mode
		// brings on later (and a followed file meets one by one) are not
		// its news
		var who []string
		for pl, p := range d.r.Players {
			if port := d.portOf[pl]; port < 4 && d.ports[port].used {
				who = append(who, p.Label())
			}
		}
		s = fmt.Sprintf("Game Start %s %s: %s", d.r.Version, d.r.Title, strings.Join(who, " vs "))
	case kPre, kPost:
		s = d.frameSummary(ev, e)
	case kItem:
		if n < 0x26 {
			break
		}
		typ := int(binary.BigEndian.Uint16(e[5:]))
		name := itemName(typ)
		if name == "" {
			name = fmt.Sprintf("item %d", typ)
		}
		s = fmt.Sprintf("%s #%d at (%s, %s)", name, be32(e[0x22:]), round1(f32(be32(e[0x14:]))), round1(f32(be32(e[0x18:]))))
		if n > 0x2A {
			if o := int8(e[0x2A]); o >= 0 && o < maxSlots {
				s += fmt.Sprintf(" owner P%d", o+1)
			}
		}
	case kFrame:
		if n < 9 {
			break
		}
		fn := int32(be32(e[1:]))
		s = fmt.Sprintf("frame %d starts, seed %#08x", fn, be32(e[5:]))
		if fn == 0 {
			s = "GO! " + s
		}
	case kBookend:
		if n < 5 {
			break
		}
		s = fmt.Sprintf("frame %d complete", int32(be32(e[1:])))
		if n >= 9 && d.version >= v370 {
			s += fmt.Sprintf(", finalized up to %d", int32(be32(e[5:])))
		}
	case kEnd:
		s = "Game End"
		if n >= 2 {
			if m := endMethodName(int64(e[1]), d.version); m != "" {
				s += ": " + m
			} else {
				s += fmt.Sprintf(": method %d", e[1])
			}
		}
		if n >= 3 && d.version >= v200 {
			if l := int8(e[2]); l >= 0 && l < 4 {
				s += fmt.Sprintf(", LRAS by P%d", l+1)
			}
		}
		if n >= 7 && d.version >= ver(3, 13, 0) {
			var pl []string
			for i := 0; i < 4; i++ {
				if pos := int8(e[3+i]); pos >= 0 {
					pl = append(pl, fmt.Sprintf("P%d %s", i+1, placeNames[min(int(pos), 3)]))
				}
			}
			if len(pl) > 0 {
				s += "; " + strings.Join(pl, ", ")
			}
		}
	case kGecko:
		if e[0] == cmdSplit && n >= 0x205 {
			s = fmt.Sprintf("Message Splitter: %d bytes of event 0x%02x", binary.BigEndian.Uint16(e[0x201:]), e[0x203])
			if e[0x204] != 0 {
				c, _ := d.geckoList().codes()
				s += fmt.Sprintf(" (last piece: Gecko List of %d codes)", c)
			}
		} else {
			s = fmt.Sprintf("Gecko List, %d bytes", n-1)
		}
	case kFod:
		if n >= 10 {
			s = fmt.Sprintf("Fountain of Dreams %s platform at height %s", nameOf(nFodSide, int64(int8(e[5])), nameCtx{}), strconv.FormatFloat(f32(be32(e[6:])), 'g', -1, 64))
		}
	case kWhispy:
		if n >= 6 {
			s = "Whispy blows " + orNum(nameOf(nWhispy, int64(int8(e[5])), nameCtx{}), int64(int8(e[5])))
		}
	case kStadium:
		if n >= 9 {
			s = fmt.Sprintf("Stadium transformation %s: %s", orNum(nameOf(nStadiumForm, int64(binary.BigEndian.Uint16(e[7:])), nameCtx{}), int64(binary.BigEndian.Uint16(e[7:]))),
				orNum(nameOf(nStadiumEvent, int64(binary.BigEndian.Uint16(e[5:])), nameCtx{}), int64(binary.BigEndian.Uint16(e[5:]))))
		}
	default:
		s = fmt.Sprintf("event 0x%02x, %d bytes (not understood, skipped)", e[0], n)
	}
	if s == "" {
		s = fmt.Sprintf("%s, %d bytes (shorter than its fields)", nameOrCode(e[0]), n)
	}
	if f := d.r.FlagName(ev.Flags); f != "" {
		s += " [" + f + "]"
	}
	return s
}

func orNum(name string, v int64) string {
	if name != "" {
		return name
	}
	return strconv.FormatInt(v, 10)
}

func (d *decoder) frameSummary(ev *model.Event, e []byte) string {
	n := len(e)
	if n < 0x15 {
		return ""
	}
	port := int(e[5])
	who := d.label(int(ev.Player))
	if ev.Player < 0 {
		who = fmt.Sprintf("port %d", port+1)
	}
	follower := e[6] != 0
	if follower {
		who += " Nana"
	}
	fi := int(ev.Frame)
	if e[0] == cmdPre {
		char := -1
		if port < maxSlots {
			char = d.charAt(fi, port, follower)
		}
		as := int(binary.BigEndian.Uint16(e[0xB:]))
		s := fmt.Sprintf("%s pre %s (%s, %s)", who, orNum(actionName(as, char), int64(as)), round1(f32(be32(e[0xD:]))), round1(f32(be32(e[0x11:]))))
		if n >= 0x31 {
			if b := buttonNames(be32(e[0x2D:]) & 0x1fff); b != "" {
				s += " " + b
			}
			jx, jy := f32(be32(e[0x19:])), f32(be32(e[0x1D:]))
			if jx != 0 || jy != 0 {
				s += fmt.Sprintf(" stick (%.2f, %.2f)", jx, jy)
			}
		}
		return s
	}
	if n < 0x22 {
		return ""
	}
	char := int(e[7])
	as := int(binary.BigEndian.Uint16(e[8:]))
	stocks := int(e[0x21])
	unit := "stocks"
	if stocks == 1 {
		unit = "stock"
	}
	s := fmt.Sprintf("%s post %s %s %s%% %d %s", who, internalName(char), orNum(actionName(as, char), int64(as)), round1(f32(be32(e[0x16:]))), stocks, unit)
	if ev.Flags&model.Notable != 0 {
		s = fmt.Sprintf("%s lost a stock (%d left): %s", who, stocks, s)
	}
	return s
}

// defsOf is the field layout of an event code, nil for the ones without
// one (Event Payloads, Game Start, the gecko list, unknown codes).
func defsOf(c byte) []fdef {
	switch c {
	case cmdPre:
		return preDefs
	case cmdPost:
		return postDefs
	case cmdItem:
		return itemDefs
	case cmdFrame:
		return frameStartDefs
	case cmdBookend:
		return bookendDefs
	case cmdEnd:
		return gameEndDefs
	case cmdFod:
		return fodDefs
	case cmdWhispy:
		return whispyDefs
	case cmdStadium:
		return stadiumDefs
	case cmdSplit:
		return splitDefs
	}
	return nil
}

// fieldCtx is what names an event's fields: the version, and for a frame
// update the character (a post-frame update says it; a pre-frame update
// takes the one of its frame).
func (d *decoder) fieldCtx(ev *model.Event, e []byte) nameCtx {
	ctx := d.ctx(-1)
	if e[0] != cmdPre && e[0] != cmdPost {
		return ctx
	}
	if len(e) >= 7 && e[5] < maxSlots {
		ctx.char = d.charAt(int(ev.Frame), int(e[5]), e[6] != 0)
	}
	if e[0] == cmdPost && len(e) >= 8 {
		ctx.char = int(e[7])
	}
	return ctx
}

// detail is Replay.Detail: the event's fields, decoded from its bytes.
func (d *decoder) detail(ev *model.Event) []model.Field {
	off, n := int(ev.Off), int(ev.Len)
	if off < 0 || off+n > len(d.data) || n < 1 {
		return nil
	}
	if ev.Flags&model.Partial != 0 {
		// the fields that fit, then where the bytes stopped
		whole := *ev
		whole.Flags &^= model.Partial
		fs := d.detail(&whole)
		// the bytes after the last whole field are the start of the field
		// the end of the data cut through: name it
		if k := len(fs) - 1; k >= 0 && fs[k].Key == "extra" {
			if f := cutField(d.data[off], int(fs[k].Span.Off)-off); f != nil {
				fs[k].Key, fs[k].Label = f.key, fmt.Sprintf("%s (cut off: %d of %d bytes)", f.label, fs[k].Span.Len, f.end()-f.off)
			}
		}
		return append(fs, model.Field{Key: "cutOff", Label: "Cut off",
			Value: fmt.Sprintf("after %d of %d bytes: the data ends here", n, d.cutSize),
			Span:  model.Span{Off: int64(off + n), Len: 0}})
	}
	e := d.data[off : off+n]
	ctx := d.ctx(-1)
	cmd := model.Field{Key: "commandByte", Label: "Command Byte", Value: int64(e[0]), Name: nameOrCode(e[0]), Span: model.Span{Off: int64(off), Len: 1}}
	var fs []model.Field
	switch ev.Kind {
	case kPayloads:
		for i := range d.r.Header {
			if d.r.Header[i].Key == "eventPayloads" && n >= 2 {
				// an Event Payloads cut before its size byte has nothing to show but its command
				fs = append([]model.Field{{Key: "payloadSize", Label: "Payload Size", Value: int64(n - 1), Span: model.Span{Off: int64(off + 1), Len: 1}}}, d.r.Header[i].Fields...)
			}
		}
	case kStart:
		for i := range d.r.Header {
			if d.r.Header[i].Key == "gameStart" {
				fs = d.r.Header[i].Fields
			}
		}
	case kPre, kPost, kItem, kFrame, kBookend, kEnd, kFod, kWhispy, kStadium:
		fs = decodeFields(d.data, off, n, defsOf(e[0]), d.fieldCtx(ev, e))
	case kGecko:
		if e[0] == cmdSplit {
			fs = decodeFields(d.data, off, n, splitDefs, ctx)
			if n >= 0x205 && e[0x204] != 0 {
				for i := range d.r.Header {
					if d.r.Header[i].Key == "geckoList" {
						fs = append(fs, d.r.Header[i])
					}
				}
			}
		} else {
			fs = []model.Field{{Key: "codes", Label: "Codes", Value: append([]byte(nil), e[1:]...), Span: model.Span{Off: int64(off + 1), Len: int64(n - 1)}}}
		}
	default:
		fs = []model.Field{{Key: "payload", Label: "Payload", Value: append([]byte(nil), e[1:]...), Span: model.Span{Off: int64(off + 1), Len: int64(n - 1)}}}
	}
	out := append([]model.Field{cmd}, fs...)
	if f := d.r.FlagName(ev.Flags); f != "" {
		out = append(out, model.Field{Key: "flag", Label: "Flag", Value: f})
	}
	return out
}

// cutField is the field of an event with command c that starts at offset
// rel, nil when none does.
func cutField(c byte, rel int) *fdef {
	var defs []fdef
	switch c {
	case cmdPre:
		defs = preDefs
	case cmdPost:
		defs = postDefs
	case cmdItem:
		defs = itemDefs
	case cmdFrame:
		defs = frameStartDefs
	case cmdBookend:
		defs = bookendDefs
	case cmdEnd:
		defs = gameEndDefs
	case cmdFod:
		defs = fodDefs
	case cmdWhispy:
		defs = whispyDefs
	case cmdStadium:
		defs = stadiumDefs
	case cmdSplit:
		defs = splitDefs
	}
	for i := range defs {
		if defs[i].off == rel {
			return &defs[i]
		}
	}
	return nil
}
