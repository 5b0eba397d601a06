package tui

import (
	"slices"
	"strings"

	"rewind/library"
)

// A sort by description (players · map/song) reads each row's text key
// (the numbers of the store's strings a description is made of): rows
// with the same key read the same, so each distinct key is described
// once. The rows are read on all cores, each goroutine numbering the keys
// it meets in a table of its own (whatPart); the tables are then merged
// into the cache, the new keys described, the descriptions ranked, and
// each row's number turned into its description's rank. The cache keeps
// each row's description with the row's revision: the next sort reads the
// key again only of rows whose text changed since (TextRevision), which
// halves a sort by players: reading every row's players is most of it.

// whatCache holds a description of each distinct text key and their
// ranks. A store's strings never change once added, so a key describes
// the same however the rows change: the browser keeps one cache per store
// across sorts.
type whatCache struct {
	byKey map[string]int // the texts' numbers -> description
	list  []string       // descriptions, lower case; "" for a row with nothing to say
	has   []bool
	// kept says a description belongs to its key (not one of a row that
	// changed while it was read): only those are kept for a row
	kept []bool
	rank []uint64 // ascending ranks of list, made by ranks (nil when list grew)
	// byRow is, by row number, the row's description + 1 (0: none) in
	// the low 32 bits and the row's text revision when its key was read
	// above
	byRow []uint64
}

func newWhatCache() *whatCache { return &whatCache{byKey: map[string]int{}} }

// fromCache marks a rowKey that is the row's description, kept from an
// earlier sort.
const fromCache = 1 << 63

// rowKey is what a sort by description reads of row r: its description
// | fromCache, when the cache kept one for the row's text revision; else
// the number of its text key in part << 16 | the revision. key is
// scratch.
func (w *whatCache) rowKey(r library.Row, part *whatPart, key *[]uint32) uint64 {
	rev := r.TextRevision()
	if id := r.ID(); int(id) < len(w.byRow) {
		if v := w.byRow[id]; uint32(v) != 0 && uint16(v>>32) == rev {
			return uint64(uint32(v)-1) | fromCache
		}
	}
	*key = r.TextKey((*key)[:0])
	return uint64(part.number(*key, r.ID()))<<16 | uint64(rev)
}

// described returns the description of row id, whose rowKey was v, from
// the descriptions its part's keys merged into (merge), keeping it for
// the row when it belongs to the key (kept). Each row is kept by one
// goroutine, and no rowKey reads meanwhile.
func (w *whatCache) described(id library.RowID, v uint64, descs []int) int {
	if v&fromCache != 0 {
		return int(v &^ fromCache)
	}
	d := descs[v>>16]
	if w.kept[d] {
		w.byRow[id] = uint64(uint16(v))<<32 | uint64(d+1)
	}
	return d
}

// sized makes room in byRow for every row of s.
func (w *whatCache) sized(s *library.Store) {
	if n := s.Len(); n > len(w.byRow) {
		w.byRow = append(w.byRow, make([]uint64, n-len(w.byRow))...)
	}
}

// prepare describes the rows the cache keeps nothing for, so that the
// first sort by description reads only the cache (the browser runs it
// in the background, a stretch at a time).
func (w *whatCache) prepare(s *library.Store, ids []library.RowID) {
	w.sized(s)
	part := newWhatPart()
	var key []uint32
	var read []library.RowID
	var keys []uint64
	s.Read(ids, func(_ int, r library.Row) {
		if v := w.rowKey(r, part, &key); v&fromCache == 0 {
			read, keys = append(read, r.ID()), append(keys, v)
		}
	})
	if len(read) == 0 {
		return
	}
	descs := w.merge(s, []*whatPart{part})[0]
	for j, id := range read {
		w.described(id, keys[j], descs)
	}
}

// whatPart numbers the distinct text keys one goroutine meets, in an open
// addressing table of its own.
type whatPart struct {
	slots []uint64 // the key's hash's top half << 32 | its number + 1; 0 for none
	shift uint     // 64 - log2(len(slots))
	words []uint32 // the keys, one after another
	ends  []uint32 // where each key ends in words
	rows  []library.RowID
	last  uint64 // the slot of the last key met
}

func newWhatPart() *whatPart {
	return &whatPart{slots: make([]uint64, 1<<10), shift: 64 - 10}
}

func (w *whatPart) key(d int) []uint32 {
	lo := uint32(0)
	if d > 0 {
		lo = w.ends[d-1]
	}
	return w.words[lo:w.ends[d]]
}

// number returns the number of key, r's, adding it.
func (w *whatPart) number(key []uint32, r library.RowID) int {
	h := hashWords(key)
	tag := h >> 32 << 32
	// rows of one set of players often come one after another
	if v := w.last; v&^0xffffffff == tag && v != 0 && slices.Equal(w.key(int(uint32(v)-1)), key) {
		return int(uint32(v) - 1)
	}
	if 2*(len(w.ends)+1) > len(w.slots) {
		w.grow()
	}
	mask := uint64(len(w.slots) - 1)
	for i := h >> w.shift; ; i = (i + 1) & mask {
		v := w.slots[i]
		if v == 0 {
			d := len(w.ends)
			w.words = append(w.words, key...)
			w.ends = append(w.ends, uint32(len(w.words)))
			w.rows = append(w.rows, r)
			w.slots[i] = tag | uint64(d+1)
			w.last = w.slots[i]
			return d
		}
		if v&^0xffffffff == tag && slices.Equal(w.key(int(uint32(v)-1)), key) {
			w.last = v
			return int(uint32(v) - 1)
		}
	}
}

// grow doubles the table.
func (w *whatPart) grow() {
	old := w.slots
	w.slots = make([]uint64, 2*len(old))
	w.shift--
	mask := uint64(len(w.slots) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		i := hashWords(w.key(int(uint32(v)-1))) >> w.shift
		for w.slots[i] != 0 {
			i = (i + 1) & mask
		}
		w.slots[i] = v
	}
}

// hashWords mixes a key's numbers; its top bits pick a slot.
func hashWords(key []uint32) uint64 {
	h := uint64(len(key))
	for _, v := range key {
		h = (h ^ uint64(v)) * 0x9E3779B97F4A7C15
		h ^= h >> 29
	}
	return h * 0xBF58476D1CE4E5B9
}

// merge finds each key of the parts in the cache, describing the ones it
// lacks (on all cores when there are many), and returns each part's key
// numbers as descriptions.
func (w *whatCache) merge(s *library.Store, parts []*whatPart) [][]int {
	out := make([][]int, len(parts))
	var buf []byte
	var fresh []library.RowID // rows of keys the cache lacks
	var freshKeys []string
	pending := map[string]int{} // new key -> its place in fresh
	for p, part := range parts {
		out[p] = make([]int, len(part.ends))
		for d := range part.ends {
			buf = keyBytes(buf[:0], part.key(d))
			if c, ok := w.byKey[string(buf)]; ok {
				out[p][d] = c
				continue
			}
			f, ok := pending[string(buf)]
			if !ok {
				f = len(fresh)
				pending[string(buf)] = f
				fresh = append(fresh, part.rows[d])
				freshKeys = append(freshKeys, string(buf))
			}
			out[p][d] = -1 - f
		}
	}
	if len(fresh) > 0 {
		descs, has := make([]string, len(fresh)), make([]bool, len(fresh))
		same := make([]bool, len(fresh))
		inStretchesMin(len(fresh), 1<<10, func(lo, hi int) {
			var key []uint32
			var b []byte
			s.Read(fresh[lo:hi], func(j int, r library.Row) {
				h := r.Header()
				descs[lo+j] = strings.ToLower(describe(&h))
				has[lo+j] = h.Title != "" || len(h.Players) > 0
				key = r.TextKey(key[:0])
				b = keyBytes(b[:0], key)
				same[lo+j] = string(b) == freshKeys[lo+j]
			})
		})
		base := len(w.list)
		for f, key := range freshKeys {
			// a row changed since its key was read (a scan writes while
			// a sort reads) describes its new key: this sort ranks it so,
			// the next sort (the change starts one) reads it again
			if same[f] {
				w.byKey[key] = base + f
			}
		}
		w.list = append(w.list, descs...)
		w.has = append(w.has, has...)
		w.kept = append(w.kept, same...)
		w.rank = nil
		for p := range out {
			for d, c := range out[p] {
				if c < 0 {
					out[p][d] = base - 1 - c
				}
			}
		}
	}
	return out
}

// keyBytes appends a text key's numbers as bytes: a map key.
func keyBytes(dst []byte, key []uint32) []byte {
	for _, v := range key {
		dst = append(dst, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return dst
}

// ranks returns each description's rank: by description, descriptions
// that read the same (in lower case) of one rank, so the tie-break decides
// between their rows; rows with nothing to say are missing.
func (w *whatCache) ranks(desc bool) []uint64 {
	if w.rank == nil {
		order := make([]kv, len(w.list))
		for i := range order {
			order[i].i = uint32(i)
		}
		order = sortByNames(order, w.list, nil)
		w.rank = make([]uint64, len(w.list))
		r := 0
		for j, e := range order {
			if j > 0 && w.list[e.i] != w.list[order[j-1].i] {
				r = j
			}
			w.rank[e.i] = uint64(r)
		}
	}
	out := make([]uint64, len(w.list))
	for d, r := range w.rank {
		switch {
		case !w.has[d]:
			out[d] = missing
		case desc:
			out[d] = uint64(len(w.list)) - 1 - r
		default:
			out[d] = r
		}
	}
	return out
}
