package sc2

import (
	"fmt"
	"sort"

	"rewind/decoders/sc2/mpq"
	"rewind/model"
)

// regions lists the archive's own structure for the inspector (see
// model.Region): the user data, the archive header, the hash and block
// tables, and every member's sector table, sectors and checksums, each
// sector linked to the bytes of the member it decompresses to, so a broken
// block can be seen in the file's own bytes and followed to what it held.
func (d *decoder) regions(names []string) {
	a := d.arc
	parts, err := a.Layout(names)
	if err != nil {
		d.budgetHit(model.Span{Off: errOff(err)})
	}
	sectors := map[int]int{} // block index: sectors listed
	for _, p := range parts {
		if p.Kind == mpq.PartSector {
			sectors[p.Block]++
		}
	}
	size := int64(a.Header.SectorSize())
	rs := make([]model.Region, 0, len(parts))
	for _, p := range parts {
		g := model.Region{Span: model.Span{Off: p.Off, Len: p.Len}, Kind: p.Kind.String(), Label: p.Kind.String(), Err: p.Err}
		member := p.Name
		if member == "" && p.Block >= 0 {
			member = fmt.Sprintf("block %d", p.Block)
		}
		switch p.Kind {
		case mpq.PartSector:
			n := sectors[p.Block]
			g.Label = fmt.Sprintf("%s sector %d of %d", member, p.Sector, n)
			if p.Err != "" {
				g.Label = fmt.Sprintf("%s after sector %d: %s", member, p.Sector-1, p.Err)
			}
			// a single-unit member is one sector that starts at 0; a
			// sectored member's sectors are size bytes each
			at := int64(0)
			if n > 1 || p.Sector > 0 {
				at = int64(p.Sector) * size
			}
			g.Stored = p.Comp == 0
			if p.Name != "" && p.Err == "" {
				g.Link = model.Span{Stream: p.Name, Off: at, Len: p.Size}
			}
			comp := "stored"
			switch p.Comp {
			case 0:
			case mpq.CompZlib:
				comp = "zlib"
			case mpq.CompBzip2:
				comp = "bzip2"
			default:
				comp = fmt.Sprintf("method 0x%02x", p.Comp)
			}
			g.Fields = []model.Field{
				{Key: "compression", Label: "Compression", Value: uint64(p.Comp), Name: comp, Span: model.Span{Off: p.Off, Len: min(p.Len, 1)}},
				{Key: "storedBytes", Label: "Stored bytes", Value: p.Len},
				{Key: "decodedBytes", Label: "Decoded bytes", Value: p.Size, Name: fmt.Sprintf("%s..%s of %s", model.FormatCount(at), model.FormatCount(at+p.Size), member)},
			}
		case mpq.PartSectorTable, mpq.PartSectorCRC:
			g.Label = member + " " + p.Kind.String()
		case mpq.PartHeader, mpq.PartUserData, mpq.PartBlockTable:
			// the header pane's fields, so the byte cursor names them here
			key := map[mpq.PartKind]string{mpq.PartHeader: "archiveHeader", mpq.PartUserData: "userData", mpq.PartBlockTable: "files"}[p.Kind]
			for _, f := range d.r.Header {
				if f.Key == key {
					g.Fields = f.Fields
				}
			}
		}
		rs = append(rs, g)
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Span.Off < rs[j].Span.Off })
	d.r.Regions = rs
}
