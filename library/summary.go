package library

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"rewind/decoders"
	"rewind/model"
)

// Summary is a replay's archive record as the index keeps it: the format's
// model.Summary (each player's outcome and stats, the moments an archive
// searches) and what an aggregation needs to count a file it cannot use.
// It is made in the full decode that makes the check (ReadFull), stored in
// the index beside the header and the check under the same freshness rule,
// and never made again while the file is unchanged.
type Summary struct {
	model.Summary
	// Partial says the decode stopped early: the stats and moments cover
	// only what was decoded.
	Partial bool
	// Generic says the format has no game code (no Summarize hook, or it
	// gave nothing): outcomes come from the players' result words, and
	// there are no stats or moments.
	Generic bool
	// Err says why the file has no summary: it could not be read, it is no
	// replay, or its decoder refused it. Players and Moments are empty.
	Err string
}

// Usable reports whether the summary describes a game an aggregation can
// count: decoded, even if partially.
func (s *Summary) Usable() bool { return s != nil && s.Err == "" }

// summaryOf makes the archive summary of a full decode: the format's own
// (Format.Summarize) when it has game code, else outcomes from the
// players' result words. A Summarize hook that panics costs the stats,
// not the check.
func summaryOf(r *model.Replay, err error) (s *Summary) {
	if r == nil {
		if err == nil {
			err = fmt.Errorf("nothing decoded")
		}
		return &Summary{Err: err.Error()}
	}
	s = &Summary{Partial: r.Partial}
	var made *model.Summary
	if f := decoders.ByID(r.Format); f != nil && f.Summarize != nil {
		func() {
			defer func() {
				if p := recover(); p != nil {
					made = nil
				}
			}()
			made = f.Summarize(r)
		}()
	}
	// a player entry for each player, the timeline's first and last frame
	s.Summary = *r.Summarized(func(*model.Replay) *model.Summary { return made })
	if made == nil {
		s.Generic = true
		for i, p := range r.Players {
			s.Players[i].Outcome = outcomeOf(p.Result)
		}
	}
	return s
}

// SummaryOf is the summary of a replay decoded in full elsewhere (the
// replay view opened it), so the index can keep it.
func SummaryOf(r *model.Replay, err error) *Summary { return summaryOf(r, err) }

// PlayerOutcome is player i's outcome: the summary's when the header has
// one, else what the player's result words say plainly (outcomeOf).
func PlayerOutcome(h *Header, i int) model.Outcome {
	if s := h.Summary; s.Usable() && i < len(s.Players) {
		return s.Players[i].Outcome
	}
	if i < len(h.Players) {
		return outcomeOf(h.Players[i].Result)
	}
	return model.OutcomeUnknown
}

// declaredOutcome is player i's outcome as the game's own result gives it,
// for winner: and loser:: the summary's declared outcome when the header
// has a summary, else what the player's result words say plainly.
func declaredOutcome(h *Header, i int) model.Outcome {
	if s := h.Summary; s.Usable() && i < len(s.Players) {
		return s.DeclaredOf(i)
	}
	if i < len(h.Players) {
		return outcomeOf(h.Players[i].Result)
	}
	return model.OutcomeUnknown
}

// outcomeOf maps a player's result words, as decoders write them, to an
// outcome when the words say one plainly ("Win", "Loss", "Tie", a place,
// "LRAS", "cleared", "failed"); words that do not ("finished 1:23.4")
// leave it unknown. Game code that knows better makes its own.
func outcomeOf(result string) model.Outcome {
	w := strings.ToLower(strings.TrimSpace(result))
	switch w {
	case "":
		return model.OutcomeUnknown
	case "win", "won", "winner", "victory", "1st", "first", "cleared", "passed":
		return model.OutcomeWin
	case "loss", "lost", "loser", "defeat", "2nd", "3rd", "4th", "failed":
		return model.OutcomeLoss
	case "tie", "draw", "tied":
		return model.OutcomeDraw
	case "no contest", "no-contest":
		return model.OutcomeNoContest
	case "lras", "quit", "left", "surrender", "surrendered":
		return model.OutcomeQuit
	case "disconnect", "disconnected", "dropped":
		return model.OutcomeDisconnect
	}
	// a place past the fourth: "5th", "12th"
	if len(w) >= 3 && strings.HasSuffix(w, "th") && w[0] >= '1' && w[0] <= '9' && strings.Trim(w[:len(w)-2], "0123456789") == "" {
		return model.OutcomeLoss
	}
	return model.OutcomeUnknown
}

// A summary is stored as a blob of its own (the index keeps it in the file
// and reads it on demand, so a million summaries cost no memory):
//
//	version 3 | head length | head CRC-32C |
//	head: flags (partial, generic) | err | first | last | strings | players
//	tail: strings | moments
//
// The head is what an aggregation reads (outcomes and stats) and is read
// alone, checked by its own CRC: a summary's moments are some four fifths
// of its bytes, and copying a million whole summaries out of the page
// cache took longer than everything else a warm stats --by does. Stat
// keys, stat names and outcomes are written once each in the head's
// string table, moment kinds and moves in the tail's, and referred to by
// number; numbers are varints, and a float that is a whole number is a
// varint too.
const summaryVersion = 3

const (
	sumPartial = 1 << iota
	sumGeneric
	sumDeclares // each player's Declared outcome follows its Outcome
)

// moment facts present
const (
	factDamage = 1 << iota
	factHits
	factKill
	factMove
	factStart
	factEnd
	factRange // End and EndTime differ from Frame and Time
)

// numbering numbers distinct values 1, 2, ... in the order they are first
// seen, each once; the zero value is 0 and never listed. A summary's
// string table and an index block's string table are both one.
type numbering[K comparable] struct {
	ids  map[K]uint64
	list []K
}

func (t *numbering[K]) ref(k K) uint64 {
	var zero K
	if k == zero {
		return 0
	}
	if id, ok := t.ids[k]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = map[K]uint64{}
	}
	t.list = append(t.list, k)
	id := uint64(len(t.list))
	t.ids[k] = id
	return id
}

// encodeSummary appends the blob of s.
func encodeSummary(b []byte, s *Summary) []byte {
	// each part's body first, to learn its strings; then its table, then
	// the body
	var ht numbering[string]
	var players enc
	for _, p := range s.Players {
		players.uint(ht.ref(string(p.Outcome)))
		if s.Declares {
			players.uint(ht.ref(string(p.Declared)))
		}
		players.uint(uint64(len(p.Stats)))
		for _, st := range p.Stats {
			players.uint(ht.ref(st.Key))
			players.uint(ht.ref(st.Name))
			players.float(st.Value)
		}
	}
	var tt numbering[string]
	var moments enc
	var prevFrame int64
	for _, m := range s.Moments {
		moments.uint(tt.ref(string(m.Kind)))
		moments.int(m.Frame - prevFrame)
		prevFrame = m.Frame
		moments.float(m.Time)
		moments.int(int64(m.By) + 1)
		moments.int(int64(m.On) + 1)
		f := m.Facts
		flags := uint64(0)
		if m.End != m.Frame || m.EndTime != m.Time {
			flags |= factRange
		}
		if f.Damage != 0 {
			flags |= factDamage
		}
		if f.Hits != 0 {
			flags |= factHits
		}
		if f.Kill {
			flags |= factKill
		}
		if f.Move != "" {
			flags |= factMove
		}
		if f.StartPercent != 0 {
			flags |= factStart
		}
		if f.EndPercent != 0 {
			flags |= factEnd
		}
		moments.uint(flags)
		if flags&factRange != 0 {
			moments.int(m.End - m.Frame)
			moments.float(m.EndTime)
		}
		if flags&factDamage != 0 {
			moments.float(f.Damage)
		}
		if flags&factHits != 0 {
			moments.int(int64(f.Hits))
		}
		if flags&factMove != 0 {
			moments.uint(tt.ref(f.Move))
		}
		if flags&factStart != 0 {
			moments.float(f.StartPercent)
		}
		if flags&factEnd != 0 {
			moments.float(f.EndPercent)
		}
	}
	var head enc
	flags := uint64(0)
	if s.Partial {
		flags |= sumPartial
	}
	if s.Generic {
		flags |= sumGeneric
	}
	if s.Declares {
		flags |= sumDeclares
	}
	head.uint(flags)
	head.str(s.Err)
	head.int(s.First)
	head.int(s.Last - s.First)
	head.table(ht.list)
	head.uint(uint64(len(s.Players)))
	head.b = append(head.b, players.b...)
	e := enc{b: b}
	e.uint(summaryVersion)
	e.uint(uint64(len(head.b)))
	e.b = binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(head.b, castagnoli))
	e.b = append(e.b, head.b...)
	e.table(tt.list)
	e.uint(uint64(len(s.Moments)))
	e.b = append(e.b, moments.b...)
	return e.b
}

// table writes a string table: its length, then each string.
func (e *enc) table(list []string) {
	e.uint(uint64(len(list)))
	for _, s := range list {
		e.str(s)
	}
}

// maxHeadPrefix is the most bytes a blob's version, head length and head
// CRC take (headAt).
const maxHeadPrefix = 1 + binary.MaxVarintLen64 + 4

// headAt reads the start of a blob: where its head starts, how long it is
// and the CRC it must have; ok is false when the start is not a summary
// of this version's. b need hold only the start (maxHeadPrefix bytes, or
// the whole blob when shorter).
func headAt(b []byte) (at, n int, crc uint32, ok bool) {
	d := dec{b: b}
	if d.uint() != summaryVersion {
		return 0, 0, 0, false
	}
	l := d.uint()
	if d.err != nil || len(d.b) < 4 || l > math.MaxInt32 {
		return 0, 0, 0, false
	}
	crc = binary.LittleEndian.Uint32(d.b)
	return len(b) - len(d.b) + 4, int(l), crc, true
}

// decodeSummary reads a blob, with its moments when moments is set (else
// they are stepped over); a damaged one is an error, never a panic or an
// allocation larger than the blob. Its table's strings (outcomes, stat keys
// and names, kinds, moves) are interned: every replay of an archive repeats
// them, and an aggregation of a million would hold a million copies.
func decodeSummary(b []byte, moments bool) (*Summary, error) {
	s := &Summary{}
	how := sumStats
	if moments {
		how = sumMoments
	}
	if _, err := decodeSummaryInto(s, b, how, nil); err != nil {
		return nil, err
	}
	return s, nil
}

// sumRead says what decodeSummaryInto reads of a blob, and how.
type sumRead int

const (
	// sumStats reads the outcomes and stats, stepping over the moments
	sumStats sumRead = iota
	// sumMoments reads the moments too
	sumMoments
	// sumViews reads the outcomes and stats with strings that are views
	// of the blob's bytes, not copies: for a reader that hands each
	// summary to code that copies what it keeps (an aggregate.List) and
	// reads the next into the same buffer. A million summaries' strings
	// are some 38 million, and even the shared table's look-ups cost a
	// tenth of an aggregation.
	sumViews
)

// decodeSummaryInto is decodeSummary into s, reusing the room of its
// players, their stats and its moments (and of strs, the blob's strings,
// returned for the next call): a SummaryReader's.
func decodeSummaryInto(s *Summary, b []byte, how sumRead, strs []string) ([]string, error) {
	at, n, crc, ok := headAt(b)
	if !ok || n > len(b)-at {
		return strs, errCorrupt
	}
	head, tail := b[at:at+n], b[at+n:]
	if crc32.Checksum(head, castagnoli) != crc {
		return strs, errCorrupt
	}
	kept := s.Moments[:0]
	strs, nh, err := decodeHead(s, head, how, strs)
	if err != nil || how != sumMoments {
		// the moments are the rest of the blob: checked when read, which
		// this is not
		return strs, err
	}
	s.Moments = kept // their room
	return decodeMoments(s, tail, strs, nh)
}

// decodeHead reads a blob's head (its CRC checked) into s, as
// decodeSummaryInto; strs are its strings after, and nh how many of them
// are the head's (the tail's table follows).
func decodeHead(s *Summary, b []byte, how sumRead, strs []string) ([]string, int, error) {
	d := dec{b: b}
	players := s.Players[:0]
	*s = Summary{}
	flags := d.uint()
	s.Partial, s.Generic, s.Declares = flags&sumPartial != 0, flags&sumGeneric != 0, flags&sumDeclares != 0
	s.Err = d.str()
	s.First = d.int()
	s.Last = s.First + d.int()
	strs = readTable(&d, strs[:0], how)
	nh := len(strs)
	head := strs
	str := func() string { return d.ref(head) }
	// a player takes at least two bytes
	np := d.small()
	if np > len(d.b)/2 {
		d.fail()
	}
	if d.err != nil {
		return strs, nh, d.err
	}
	if np > 0 {
		if cap(players) >= np {
			s.Players = players[:np]
		} else {
			s.Players = make([]model.PlayerSummary, np)
		}
	}
	for i := range s.Players {
		p := &s.Players[i]
		stats := p.Stats[:0]
		*p = model.PlayerSummary{}
		p.Outcome = model.Outcome(str())
		if s.Declares {
			p.Declared = model.Outcome(str())
		}
		ns := d.small()
		if ns > len(d.b)/3 {
			d.fail()
		}
		if d.err != nil {
			return strs, nh, d.err
		}
		if ns > 0 {
			if cap(stats) >= ns {
				p.Stats = stats[:ns]
			} else {
				p.Stats = make([]model.Stat, ns)
			}
		}
		for j := range p.Stats {
			p.Stats[j] = model.Stat{Key: str(), Name: str(), Value: d.float()}
		}
	}
	if d.err != nil || len(d.b) != 0 {
		return strs, nh, errCorrupt
	}
	return strs, nh, nil
}

// readTable reads a string table onto strs (after its empty string 0):
// copies of the bytes, or views of them for sumViews.
func readTable(d *dec, strs []string, how sumRead) []string {
	n := d.small()
	if d.err != nil {
		return strs
	}
	// strs[at] is string 0; the table's come after it
	at := len(strs)
	if cap(strs) < at+n+1 {
		strs = slices.Grow(strs, n+1)
	}
	strs = strs[:at+n+1]
	strs[at] = ""
	for i := at + 1; i <= at+n && d.err == nil; i++ {
		l := d.small()
		switch {
		case d.err != nil:
		case how == sumViews:
			strs[i] = unsafe.String(unsafe.SliceData(d.b), l)
			d.b = d.b[l:]
		default:
			// a reader's blobs (one format's, one after another) most often
			// have the same strings in the same places as the last one:
			// those need no look-up in the shared, locked table
			if b := d.b[:l]; strs[i] != string(b) {
				strs[i] = summaryStrings.intern(b)
			}
			d.b = d.b[l:]
		}
	}
	return strs
}

// decodeMoments reads a blob's tail (its moments) into s; strs has the
// head's nh strings.
func decodeMoments(s *Summary, b []byte, strs []string, nh int) ([]string, error) {
	d := dec{b: b}
	kept := s.Moments[:0]
	s.Moments = nil
	strs = readTable(&d, strs[:nh], sumMoments)
	tail := strs[nh:]
	str := func() string { return d.ref(tail) }
	// a moment takes at least six bytes
	nm := d.small()
	if nm > len(d.b)/6 {
		d.fail()
	}
	if d.err != nil {
		return strs, d.err
	}
	if nm > 0 {
		if cap(kept) >= nm {
			s.Moments = kept[:nm]
		} else {
			s.Moments = make([]model.MomentRecord, nm)
		}
	}
	var frame int64
	for i := range s.Moments {
		m := &s.Moments[i]
		*m = model.MomentRecord{}
		m.Kind = model.MomentKind(str())
		frame += d.int()
		m.Frame, m.End = frame, frame
		m.Time = d.float()
		m.EndTime = m.Time
		m.By, m.On = int(d.int()-1), int(d.int()-1)
		flags := d.uint()
		if flags&factRange != 0 {
			m.End = frame + d.int()
			m.EndTime = d.float()
		}
		if flags&factDamage != 0 {
			m.Facts.Damage = d.float()
		}
		if flags&factHits != 0 {
			m.Facts.Hits = int(d.int())
		}
		m.Facts.Kill = flags&factKill != 0
		if flags&factMove != 0 {
			m.Facts.Move = str()
		}
		if flags&factStart != 0 {
			m.Facts.StartPercent = d.float()
		}
		if flags&factEnd != 0 {
			m.Facts.EndPercent = d.float()
		}
		if d.err != nil {
			return strs, d.err
		}
	}
	if d.err != nil || len(d.b) != 0 {
		return strs, errCorrupt
	}
	return strs, nil
}

// summaryRoom decodes blob after blob into the same memory
// (decodeSummaryInto), keeping the most room the players and the moments
// had across a summary that has none. Without moments its strings are
// views of the blob (sumViews): the summary is good only as long as the
// blob's bytes are.
type summaryRoom struct {
	sum     Summary
	strs    []string
	players []model.PlayerSummary
	moments []model.MomentRecord
}

// decode decodes blob into the room; the summary is valid until the next
// decode.
func (r *summaryRoom) decode(blob []byte, moments bool) (*Summary, error) {
	if cap(r.sum.Players) > cap(r.players) {
		r.players = r.sum.Players[:0]
	}
	if cap(r.sum.Moments) > cap(r.moments) {
		r.moments = r.sum.Moments[:0]
	}
	r.sum.Players, r.sum.Moments = r.players, r.moments
	how := sumViews
	if moments {
		how = sumMoments
	}
	var err error
	if r.strs, err = decodeSummaryInto(&r.sum, blob, how, r.strs); err != nil {
		return nil, err
	}
	return &r.sum, nil
}

// head decodes a blob's head (headBatch) into the room, its strings views
// of it; the summary is valid until the next decode.
func (r *summaryRoom) head(head []byte) (*Summary, error) {
	if cap(r.sum.Players) > cap(r.players) {
		r.players = r.sum.Players[:0]
	}
	r.sum.Players = r.players
	var err error
	if r.strs, _, err = decodeHead(&r.sum, head, sumViews, r.strs); err != nil {
		return nil, err
	}
	return &r.sum, nil
}

// float writes a whole number as an even varint (twice it) and any other
// value as 1 and its eight bytes.
func (e *enc) float(v float64) {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 && !(v == 0 && math.Signbit(v)) {
		e.int(int64(v) * 2)
		return
	}
	e.int(1)
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
}

func (d *dec) float() float64 {
	x := d.int()
	if x&1 == 0 {
		return float64(x >> 1)
	}
	if x != 1 || len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

// summaryStrings interns the strings of summary blobs (decodeSummary).
var summaryStrings = internTable{m: map[string]string{}}

// internTable hands out one copy of each string it is given, up to a
// bound: past it (a corpus of unusually varied names) strings are copied
// as they come.
type internTable struct {
	mu sync.Mutex
	m  map[string]string
}

const maxInterned = 1 << 16

func (t *internTable) intern(b []byte) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(t.m) < maxInterned {
		t.m[s] = s
	}
	return s
}
