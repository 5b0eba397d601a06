package slippi

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"

	"rewind/model"
)

// sjis decodes NUL-terminated Shift JIS text and shows full-width ASCII
// as half width ("XX＃111" -> "XX#111").
func sjis(b []byte) string {
	for i, c := range b {
		if c == 0 {
			b = b[:i]
			break
		}
	}
	if len(b) == 0 {
		return ""
	}
	out, err := japanese.ShiftJIS.NewDecoder().Bytes(b)
	if err != nil {
		out = []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	return halfWidth(string(out))
}

// halfWidth converts text the way slippi-js's toHalfwidth does for names
// and codes: full-width ASCII (U+FF01..U+FF5E) and the ideographic space
// to their half-width forms, and the right single and double quotation
// marks Melee's keyboard writes (U+2019, U+201D) to ' and ".
func halfWidth(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == 0x3000 || r == 0x2019 || r == 0x201D || (r >= 0xFF01 && r <= 0xFF5E) }) {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r == 0x3000:
			sb.WriteByte(' ')
		case r == 0x2019:
			sb.WriteByte('\'')
		case r == 0x201D:
			sb.WriteByte('"')
		case r >= 0xFF01 && r <= 0xFF5E:
			sb.WriteRune(r - 0xFEE0)
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// gameStart decodes Game Start into a header field and fills d.ports.
func (d *decoder) gameStart() {
	d.phase = phaseGameStart
	d.started = true
	p := d.startOff
	n := 1 + int(d.size[cmdStart])
	ev := d.data[p : p+n]
	if n < 5 {
		d.diag(model.Error, p, n, "event 0x36", "Game Start is too short to hold a version", "at least 5 bytes", fmt.Sprint(n))
		return
	}
	d.version = uint32(ev[1])<<16 | uint32(ev[2])<<8 | uint32(ev[3])
	d.verKnown = true
	d.online = d.version >= v370 && n > 0x1A4 && ev[0x1A4] == 8
	g := model.Field{Key: "gameStart", Label: "Game Start", Span: model.Span{Off: int64(p), Len: int64(n)}}
	var short bool
	var known int
	g.Fields, short, known = gameStartFields(ev, p, d.version, (*[4]portInfo)(d.ports[:4]))
	if short {
		d.diag(model.Warning, p, n, "event 0x36", fmt.Sprintf("Game Start is shorter than version %s implies; the missing fields are left out", verString(d.version)),
			fmt.Sprintf("%d bytes", gameStartImplied(d.version)), fmt.Sprintf("%d bytes", n))
	}
	if n > known {
		g.Fields = append(g.Fields, model.Field{Key: "extra", Label: "Extra bytes", Value: append([]byte(nil), ev[known:]...),
			Span: model.Span{Off: int64(p + known), Len: int64(n - known)}})
	}
	d.startHdr = append(d.startHdr, g)
	d.checkSizes()
}

// gameStartFields decodes the fields of the Game Start in ev (at file
// offset p) that its version has and its length holds, filling ports when
// it is not nil; short says a field of the version did not fit, and known
// is where the last decoded field ends.
func gameStartFields(ev []byte, p int, version uint32, ports *[4]portInfo) (fs []model.Field, short bool, known int) {
	n := len(ev)
	if n < 5 {
		return nil, n > 1, 1
	}
	ctx := nameCtx{char: -1, ver: version}
	// made at the most the fields can be, not grown an append at a time
	// (which made three times the memory they take, for every decode)
	fs = make([]model.Field, 0, 1+len(gameStartDefs)+4)
	fs = append(fs, model.Field{Key: "version", Label: "Version", Value: verString(version),
		Span:   model.Span{Off: int64(p + 1), Len: 4},
		Fields: []model.Field{{Key: "unused", Label: "Unused", Value: int64(ev[4]), Span: model.Span{Off: int64(p + 4), Len: 1}}}})
	known = 5
	for i := range gameStartDefs {
		f := &gameStartDefs[i]
		if f.added > version {
			continue
		}
		if f.end() > n {
			short = true
			continue
		}
		fs = append(fs, decodeField(ev, p, f, f.off, ctx))
		known = max(known, f.end())
	}
	if ports == nil {
		ports = new([4]portInfo)
	}
	for port := 0; port < 4; port++ {
		// The group's span is the port's player block in the Game Info
		// Block; its later fields (fixes, names) live elsewhere.
		// A Game Start shorter than its version implies ends before some
		// blocks: the span keeps to the bytes the event has.
		blk := min(0x65+0x24*port, n)
		pf := model.Field{Key: fmt.Sprintf("port%d", port+1), Label: fmt.Sprintf("Port %d", port+1),
			Span:   model.Span{Off: int64(p + blk), Len: int64(min(blk+0x24, n) - blk)},
			Fields: make([]model.Field, 0, len(gameStartPortDefs))}
		for i := range gameStartPortDefs {
			f := &gameStartPortDefs[i]
			at := f.off + f.step*port
			if f.added > version {
				continue
			}
			if at+f.typ.size(f.n) > n {
				short = true
				continue
			}
			fld := decodeField(ev, p, &f.fdef, at, ctx)
			known = max(known, at+f.typ.size(f.n))
			pi := &ports[port]
			switch f.key {
			case "externalCharacterId":
				pi.ext = int(ev[at])
			case "playerType":
				pi.typ = int(ev[at])
				pi.used = ev[at] != 3
			case "stockStartCount":
				pi.stocks = int(ev[at])
			case "costumeIndex":
				pi.costume = int(ev[at])
				fld.Name = costumeName(pi.ext, pi.costume)
			case "teamId":
				pi.team = int(ev[at])
			case "nametag":
				pi.nametag, _ = fld.Value.(string)
			case "displayName":
				pi.display, _ = fld.Value.(string)
			case "connectCode":
				pi.code, _ = fld.Value.(string)
			}
			pf.Fields = append(pf.Fields, fld)
		}
		fs = append(fs, pf)
	}
	return fs, short, known
}

// checkSizes compares each event's listed payload size with the fields
// its version implies. Shorter is a problem (the missing fields are left
// out); longer is fine: a newer recorder added fields this decoder does not
// know, and they are kept as extra bytes.
func (d *decoder) checkSizes() {
	for _, c := range []struct {
		code byte
		defs []fdef
	}{{cmdPre, preDefs}, {cmdPost, postDefs}, {cmdItem, itemDefs}, {cmdFrame, frameStartDefs}, {cmdBookend, bookendDefs}, {cmdEnd, gameEndDefs}} {
		if d.size[c.code] < 0 {
			continue
		}
		have, want := 1+int(d.size[c.code]), implied(c.defs, d.version)
		if have < want {
			d.diag(model.Warning, int(d.sizeAt[c.code]), 3, fmt.Sprintf("event 0x%02x", c.code),
				fmt.Sprintf("%s payload is shorter than version %s implies; the missing fields are left out", nameOrCode(c.code), verString(d.version)),
				fmt.Sprintf("%d bytes", want-1), fmt.Sprintf("%d bytes", have-1))
		}
	}
}

func gameStartImplied(v uint32) int {
	n := implied(gameStartDefs, v)
	for _, f := range gameStartPortDefs {
		if f.added <= v {
			n = max(n, f.off+3*f.step+f.typ.size(f.n))
		}
	}
	return n
}

func validName(s string) bool { return s != "" && utf8.ValidString(s) }
