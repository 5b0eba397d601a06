package model

import "sort"

// Region is a piece of a container's own structure: bytes of the file
// that no event owns but that a reader of a broken file needs to see, such
// as an MPQ archive's header, hash and block tables and each member's
// sectors. Decoders of formats that wrap their streams in a container
// list them in Replay.Regions, in file order; the inspector names the
// region under the byte cursor and goes from it to the bytes it decodes to
// and back.
type Region struct {
	Span  Span   // in the file (Stream "")
	Kind  string // "hash table", "sector", "sector offset table", ...
	Label string // for people: "replay.game.events sector 2 of 7"
	// Fields are what the region's bytes say (compression, sizes).
	Fields []Field
	// Link is the range of a decoded stream the region holds (a sector's
	// bytes once decompressed); zero when it holds none.
	Link Span
	// Stored says the region holds Link's bytes as they are, so an offset
	// inside one is an offset inside the other; a compressed sector maps
	// only as a whole.
	Stored bool
	// Err says why the region does not read (a sector that fails to
	// decompress, a member's bytes past the last sector that could be
	// listed); empty when it reads.
	Err string
}

// RegionAt returns the index in r.Regions of the region that holds off in
// stream: in the file, the region whose bytes those are; in a decoded
// stream, the region whose Link holds them. -1 when none does.
func (r *Replay) RegionAt(stream string, off int64) int {
	rs := r.Regions
	if stream == "" {
		// regions lie in file order; a damaged container's may overlap,
		// so the nearest that starts at or before off is looked at first
		// and a few before it after
		i := sort.Search(len(rs), func(i int) bool { return rs[i].Span.Off > off }) - 1
		for j := i; j >= 0 && j > i-64; j-- {
			if off < rs[j].Span.End() {
				return j
			}
		}
		return -1
	}
	for i := range rs {
		if l := rs[i].Link; l.Stream == stream && off >= l.Off && off < l.End() {
			return i
		}
	}
	return -1
}

// Across maps off, a byte inside region i, to the other side of the link:
// from the file to the decoded stream, or from the decoded stream to the
// file. Inside a stored region it keeps the byte's place; a compressed
// region maps to the other side's first byte.
func (g *Region) Across(stream string, off int64) Span {
	from, to := g.Span, g.Link
	if stream != "" {
		from, to = g.Link, g.Span
	}
	at := to.Off
	if g.Stored && off-from.Off < to.Len {
		at += off - from.Off
	}
	return Span{Stream: to.Stream, Off: at, Len: 1}
}
