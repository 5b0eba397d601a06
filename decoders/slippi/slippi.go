// Package slippi decodes Super Smash Bros. Melee replays (.slp) written by
// Project Slippi: a UBJSON object whose "raw" element is a stream of game
// events (Event Payloads, Game Start, per-frame pre/post updates, items,
// frame bookends, Game End, ...) and whose "metadata" element is plain UBJSON.
//
// Decoding runs straight over the file's bytes. A first pass walks the event
// stream by the sizes in Event Payloads to find where it ends, how many
// events there are and which frame numbers occur; the second pass allocates
// everything once and records one model.Event per event, plus per frame and
// port the file offset of the kept copy of each pre- and post-frame update.
// Field values are decoded from the bytes only when someone asks
// (Replay.Detail, Replay.State, Replay.Summarize), which keeps a full
// decode of a 4 MB replay to a few milliseconds.
//
// How the replay maps onto the model:
//   - the timeline runs from the first to the last frame number seen (-123
//     normally), 60 frames a second; training mode repeats one frame number
//     for the whole game, so there frames are numbered by arrival;
//   - online games roll back: a frame is sent again and the last copy is
//     the one the game kept. Every copy has its events (every byte of the
//     stream belongs to one); the superseded ones are flagged "rolled back"
//     and kept out of the state, and the header counts them (also the way
//     slippi-js does);
//   - players are the occupied ports; Ice Climbers' Nana is the follower on
//     her port, a "follower" group in its state and a point in the scene;
//   - a field exists from the version that added it; a payload shorter than
//     its version implies is a diagnostic, a longer one keeps the extra bytes.
package slippi

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"time"

	"rewind/decoders/internal/budget"
	"rewind/decoders/ubjson"
	"rewind/model"
)

const source = "slippi"

// Event codes.
const (
	cmdSplit    = 0x10
	cmdPayloads = 0x35
	cmdStart    = 0x36
	cmdPre      = 0x37
	cmdPost     = 0x38
	cmdEnd      = 0x39
	cmdFrame    = 0x3A
	cmdItem     = 0x3B
	cmdBookend  = 0x3C
	cmdGecko    = 0x3D
	cmdFod      = 0x3F
	cmdWhispy   = 0x40
	cmdStadium  = 0x41
)

// magic is the start of every .slp: a UBJSON object whose first element
// is the raw byte array, with its length to follow.
var magic = []byte("{U\x03raw[$U#l")

var metadataKey = []byte("U\x08metadata")

// Event kinds: indices into kindNames, the replay's Kinds.
const (
	kPayloads model.KindID = iota
	kStart
	kPre
	kPost
	kItem
	kFrame
	kBookend
	kEnd
	kGecko
	kFod
	kWhispy
	kStadium
	kUnknown
)

var kindNames = []string{kPayloads: "payloads", kStart: "start", kPre: "pre", kPost: "post", kItem: "item",
	kFrame: "frame", kBookend: "bookend", kEnd: "end", kGecko: "gecko", kFod: "fod", kWhispy: "whispy",
	kStadium: "stadium", kUnknown: "unknown"}

// flagRolledBack marks the events of a frame's copy that a later copy
// replaced (markNames, the replay's Marks).
const flagRolledBack = model.MarkBase

var markNames = []string{"rolled back"}

func kindOf(code byte) model.KindID {
	switch code {
	case cmdPayloads:
		return kPayloads
	case cmdStart:
		return kStart
	case cmdPre:
		return kPre
	case cmdPost:
		return kPost
	case cmdItem:
		return kItem
	case cmdFrame:
		return kFrame
	case cmdBookend:
		return kBookend
	case cmdEnd:
		return kEnd
	case cmdSplit, cmdGecko:
		return kGecko
	case cmdFod:
		return kFod
	case cmdWhispy:
		return kWhispy
	case cmdStadium:
		return kStadium
	}
	return kUnknown
}

// hasFrame reports whether events with the code start with a frame number.
func hasFrame(code byte) bool {
	switch code {
	case cmdPre, cmdPost, cmdFrame, cmdItem, cmdBookend, cmdFod, cmdWhispy, cmdStadium:
		return true
	}
	return false
}

var eventNames = map[byte]string{
	cmdSplit: "Message Splitter", cmdPayloads: "Event Payloads", cmdStart: "Game Start",
	cmdPre: "Pre-Frame Update", cmdPost: "Post-Frame Update", cmdEnd: "Game End",
	cmdFrame: "Frame Start", cmdItem: "Item Update", cmdBookend: "Frame Bookend",
	cmdGecko: "Gecko List", cmdFod: "Fountain of Dreams Platforms", cmdWhispy: "Whispy Blow Direction",
	cmdStadium: "Stadium Transformation",
}

// decoder holds everything the decode builds. A whole decode runs it once;
// a followed file (follow.go) feeds it the bytes as they are written, and
// each snapshot is a copy of it whose arrays end where the complete frames
// end (build), so the lazy parts (State, Detail, Analyze) of a snapshot
// read only what no later byte changes.
type decoder struct {
	data []byte
	opt  model.DecodeOptions
	r    *model.Replay
	b    *budget.Budget // the decode's one allowance (metadata, fields, events, frames)
	over bool           // the budget's refusal is recorded
	paid bool           // the events pass is paid for

	diags   []phased // what is wrong, by phase (see phased)
	phase   int      // the phase diagnostics are recorded under now
	partial bool     // Replay.Partial

	size   [256]int32 // payload size per code (command byte excluded); -1 when not listed
	sizeAt [256]int32 // offset of the code's entry in Event Payloads

	rawStart, rawEnd int   // event stream bounds as the container gives them
	from             int   // where the events after Event Payloads start
	rawLen           int64 // the declared length (0 while recording)
	stop             int   // where the event stream actually ended (the scan's end)
	portsInScan      bool  // the scan notes the ports frame updates name (framePorts), as a whole decode's does

	version   uint32
	startOff  int // Game Start event offset, -1 when none
	endOff    int // (last) Game End event offset, -1 when none
	endCount  int
	endAt     int                // the offset of the last Game End the events pass placed, -1 when none
	endFrame  int                // and the frame it placed it at
	ports     [maxSlots]portInfo // by port; Game Start fills the first four
	playerOf  [maxSlots]int      // port -> index in Players, -1
	portOf    []int              // player index -> port
	slots     int                // ports per frame in the frame arrays: 4, or maxSlots when an update names a port past 4; a whole decode's, up to its last player's (reserve)
	metadata  *ubjson.Value
	meta      metaInfo
	payField  model.Field   // the Event Payloads header field (payloadsField)
	startHdr  []model.Field // the Game Start header field, once decoded
	extraHdr  []model.Field // top-level keys after the raw element other than metadata
	geckoOffs []int         // the pieces of the gecko list (gecko.go), in order
	geckoDone bool

	// frame range
	sequential bool  // frames numbered by arrival (training mode)
	seqFrame   int64 // the frame number such a file repeats
	first      int64
	count      int
	nEvents    int
	followers  bool
	cutSize    int // how long the record the data cuts off says it is (stopCut)

	// per frame index * slots + port: file offset of the kept copy, 0 = none
	pre, post, fpre, fpost []int32
	runStart, runEnd       []int32 // file-order index (Ref) range of the kept copy of each frame (start + 1; 0 = none)
	itemStart, itemCount   []int32 // kept copy's items: itemOffs[itemStart[f]:+itemCount[f]]
	itemOffs               []int32
	fodL, fodR             []float32       // Fountain of Dreams side platform heights per frame
	gaps                   [maxSlots][]gap // per port, the runs of frames without an update that are over (state.go)
	open                   [maxSlots]*gap  // per port, the run without an update up to the last frame, nil when none
	resentFrames           int             // superseded copies of frames
	resentPre              int             // superseded pre-frame updates
	rollbackCount          int             // slippi-js's count
	rollbackLengths        []int

	stream // the events pass and what it keeps between the pieces of a followed file
}

// maxSlots is how many ports frame updates may name. Game Start has four;
// Multi-Man Melee puts its enemies on the ports after the player's, up to
// the sixth (player indices 1-5 in slippi-js's frames), and the recorder
// writes their frame updates like a player's.
const maxSlots = 6

type portInfo struct {
	used      bool
	ext       int // external character id
	typ       int
	stocks    int
	costume   int
	team      int
	nametag   string
	display   string
	code      string
	hasFollow bool
}

type metaInfo struct {
	startAt     time.Time
	startAtText string
	lastFrame   int64
	hasLast     bool
	playedOn    string
	consoleNick string
	frames      int64 // most frames any player was in the game, from players.N.characters
	netplay     [4]string
	code        [4]string
}

// Decode reads a whole file. It returns nil and an error only when the
// file cannot be read at all; damage after a readable start gives a partial
// replay with diagnostics.
func Decode(data []byte, opt model.DecodeOptions) (*model.Replay, error) {
	d, err := newDecoder(data, opt, budget.New(int64(len(data)), opt.Limits), false)
	if err != nil {
		return nil, err
	}
	if opt.HeaderOnly {
		d.headerOnly()
	} else {
		d.whole(true)
	}
	if opt.Progress != nil {
		opt.Progress(int64(len(data)), int64(len(data)))
	}
	return d.r, nil
}

// newDecoder reads the container and Event Payloads; following says bytes
// may still come after data.
func newDecoder(data []byte, opt model.DecodeOptions, b *budget.Budget, following bool) (*decoder, error) {
	if !bytes.HasPrefix(data, magic) {
		return nil, &model.FormatError{Source: source, Off: 0, Msg: notSlippi(data)}
	}
	if int64(len(data)) > math.MaxInt32 {
		return nil, &model.FormatError{Source: source, Off: 0, Msg: "file larger than 2 GiB; no real replay is that big"}
	}
	d := &decoder{data: data, opt: opt, b: b, startOff: -1, endOff: -1, endAt: -1, slots: 4, r: newReplay(len(data))}
	d.following = following
	for i := range d.size {
		d.size[i] = -1
	}
	for i := range d.playerOf {
		d.playerOf[i] = -1
		d.ports[i].ext = -1 // no character until Game Start names one
	}
	d.initStream()
	d.container()
	if d.rawLimit()-d.rawStart == 0 || d.data[d.rawStart] != cmdPayloads {
		return nil, &model.FormatError{Source: source, Off: int64(d.rawStart), Msg: "the raw element does not start with Event Payloads (0x35): not a Slippi event stream"}
	}
	d.payloads()
	d.payField = d.payloadsField()
	return d, nil
}

func newReplay(size int) *model.Replay {
	return &model.Replay{Format: ID, FormatName: "Slippi", Size: int64(size),
		Timeline: model.Timeline{First: -123, Rate: 60, Unit: "frame"}}
}

// headerOnly reads what a listing shows: the header, the players and the
// summary values, skimming the event stream when its length is known.
func (d *decoder) headerOnly() {
	from := d.stop
	skimmed := d.rawLen != 0 && !d.partial
	if skimmed {
		d.skim()
	} else {
		d.scan()
	}
	if d.startOff >= 0 {
		d.gameStart()
	}
	d.trailer()
	if m := &d.meta; skimmed && (!m.hasLast || m.frames > 0 && m.lastFrame-m.frames+1 > -123) {
		// Recorders before 1.0 write no last frame, and a counter that does
		// not start at -123 (training mode repeats one number; slo-mo melee
		// starts late) is numbered from the frames themselves: walk the
		// events, as the read of a cut file does, for the full decode's
		// length and numbering.
		d.stop = from
		d.startOff, d.endOff, d.endCount = -1, -1, 0 // the skim found them; the walk finds them again, once
		d.scan()
	}
	if d.why == stopCut {
		d.cutOff() // the walk met the record the end cuts off: the error a listing shows
	}
	d.framePorts()
	d.assignPorts()
	if d.verKnown {
		d.r.Version = verString(d.version)
	}
	d.r.Players = d.buildPlayers()
	d.partial = true
	// A walk of the events numbered the frames; otherwise the metadata's
	// last frame states the length, counted from -123. A frame takes
	// bytes, so a count past the file's size is no length.
	tl := &d.r.Timeline
	if d.count > 0 {
		tl.First, tl.Count = d.first, d.count
	} else if m := &d.meta; m.hasLast && m.lastFrame >= -123 && m.lastFrame+124 <= int64(len(d.data)) {
		tl.First, tl.Count = -123, int(m.lastFrame+124)
	}
	d.finishHeader()
	d.r.Diagnostics = d.diagnostics()
	d.r.Partial = d.partial
}

// whole decodes every event of data: the scan finds how far the stream
// goes, how many events and frames it has and how frames are numbered; the
// events pass then fills arrays made once at their size. With finish, a
// record the data cuts off is reported and every frame is complete; without
// (a followed file decoded again), frames complete only as far as the
// stream says and the decode can go on from where it stopped (feed).
func (d *decoder) whole(finish bool) {
	d.portsInScan = true // one walk less than framePorts after it
	d.scan()
	d.portsInScan = false
	d.payEvents()
	if d.startOff >= 0 {
		d.gameStart()
	}
	d.assignPorts()
	if d.paid {
		d.reserve()
		d.phase = phaseEvents
		d.pos = d.events(d.from, d.stop)
		if d.following && d.pos < d.stop {
			d.broken = true // a record the pass cannot place yet: decoded again once the file has grown
		}
	}
	if finish {
		d.finish()
		d.build(nil)
		return
	}
	d.settle(d.finalIndex())
}

func notSlippi(data []byte) string {
	if len(data) < len(magic) && bytes.HasPrefix(magic, data) {
		return "file ends inside the UBJSON header"
	}
	return "not a Slippi replay: expected the UBJSON header {U\\x03raw[$U#l"
}

// Phases of a decode. Diagnostics are listed by the phase that found them,
// in the order found within one, so that a file decoded as it was written
// lists them as a decode of the whole file does.
const (
	phaseContainer = iota
	phasePayloads
	phaseScan
	phaseLayout
	phaseGameStart
	phaseTrailer
	phaseEvents
	phaseHeader
)

// phased is a diagnostic and the phase that found it.
type phased struct {
	phase int
	model.Diagnostic
}

func (d *decoder) diag(sev model.Severity, off, n int, subject, msg, expected, found string) {
	d.frameDiag(-1, sev, off, n, subject, msg, expected, found)
}

// frameDiag records a problem inside the data of a frame (a timeline
// index), so that the timeline marks it there and `e` goes there.
func (d *decoder) frameDiag(frame int, sev model.Severity, off, n int, subject, msg, expected, found string) {
	d.diags = append(d.diags, phased{d.phase, model.Diagnostic{
		Severity: sev, Source: source, Span: model.Span{Off: int64(off), Len: int64(n)}, Frame: frame,
		Subject: subject, Message: msg, Expected: expected, Found: found,
	}})
	if sev == model.Error {
		d.partial = true
	}
}

// overBudget records the budget's refusal, once, as an error at span: what
// asked and by how much. The replay is partial from there on.
func (d *decoder) overBudget(off, n int64) {
	if d.over || !d.b.Exhausted() {
		return
	}
	d.over = true
	d.diags = append(d.diags, phased{d.phase, d.b.Diagnostic(source, model.Span{Off: off, Len: n}, -1)})
	d.partial = true
}

// container reads the raw element's length and bounds the event stream.
// While following, a raw length longer than the data so far is the length
// the file will have: the end of the data is no error yet.
func (d *decoder) container() {
	d.phase = phaseContainer
	d.rawStart = len(magic) + 4
	if len(d.data) < d.rawStart {
		d.rawStart = len(d.data)
		d.rawEnd = len(d.data)
		d.diag(model.Error, len(magic), len(d.data)-len(magic), "raw length", "file ends inside the raw element's length", "4 bytes", fmt.Sprintf("%d bytes", len(d.data)-len(magic)))
		return
	}
	d.rawLen = int64(binary.BigEndian.Uint32(d.data[len(magic):]))
	left := int64(len(d.data) - d.rawStart)
	switch {
	case d.rawLen == 0:
		// Still being written (or the writer died): the stream runs to
		// Game End, the end of the file or the first byte that is no event.
		d.rawEnd = len(d.data)
		d.diag(model.Info, len(magic), 4, "raw length", "is 0: the replay was still being recorded; reading events to the end", "", "")
	case d.rawLen > left && !d.following:
		d.rawEnd = len(d.data)
		d.diag(model.Error, len(magic), 4, "raw length", "runs past the end of the file", fmt.Sprintf("%d bytes", d.rawLen), fmt.Sprintf("%d bytes", left))
	default:
		d.rawEnd = d.rawStart + int(d.rawLen)
	}
}

// rawLimit is where the event stream's bytes end as far as the data goes.
func (d *decoder) rawLimit() int {
	if d.rawLen == 0 {
		return len(d.data)
	}
	return min(d.rawEnd, len(d.data))
}

// payloads reads Event Payloads.
func (d *decoder) payloads() {
	d.phase = phasePayloads
	p := d.rawStart
	lim := d.rawLimit()
	if p+2 > lim {
		d.diag(model.Error, p, lim-p, "event 0x35", "Event Payloads is cut off", "2 bytes", fmt.Sprintf("%d bytes", lim-p))
		d.stop, d.from = lim, lim
		return
	}
	n := int(d.data[p+1])
	if (n-1)%3 != 0 || n == 0 {
		d.diag(model.Warning, p+1, 1, "event 0x35", "payload size is not 3n+1", "3n+1", fmt.Sprint(n))
	}
	end := p + 1 + n
	if end > lim {
		d.diag(model.Error, p, lim-p, "event 0x35", "Event Payloads is cut off", fmt.Sprintf("%d bytes", n+1), fmt.Sprintf("%d bytes", lim-p))
		end = lim
	}
	d.size[cmdPayloads] = int32(n)
	for q := p + 2; q+3 <= end; q += 3 {
		c := d.data[q]
		d.size[c] = int32(binary.BigEndian.Uint16(d.data[q+1:]))
		d.sizeAt[c] = int32(q)
	}
	// The gecko list's size can overflow u16 and is never used directly
	// when it arrives split; the splitter's own size is fixed.
	d.stop = min(p+1+n, lim)
	d.from = d.stop
	d.pos = d.from
}

// scan walks the stream once to find where it ends, how many events there
// are and the frame range (the layout). It records stream-level
// diagnostics; while following, a record the data cuts off ends the scan
// without one (it waits for the rest).
func (d *decoder) scan() {
	d.phase = phaseScan
	d.nEvents = 1
	p := d.stop
	lim, size, inProgress := d.rawLimit(), &d.size, d.rawLen == 0
	for {
		// the frame events in a row, then any other listed event the
		// data holds whole, which is what next says of it unless it
		// could be the metadata's key after a stream still marked as in
		// progress; next tells the rest
		p = d.tallyFrames(p, lim)
		if p < lim {
			c := d.data[p]
			if n := 1 + int(size[c]); n > 0 && n <= lim-p && (c != metadataKey[0] || !inProgress) {
				d.tally(p, n)
				p += n
				continue
			}
		}
		n, why := d.next(p)
		if why == stopWait {
			break // following: the rest of the record is still to come
		}
		if why != stopNone {
			d.stopAt(p, why)
			break
		}
		d.tally(p, n)
		p += n
	}
	d.stop = p
	d.layout()
}

// skim finds Game Start and Game End of a complete stream without walking
// it: Game Start follows Event Payloads and Game End closes the stream.
func (d *decoder) skim() {
	p := d.stop
	if p < d.rawEnd && d.data[p] == cmdStart && p+1+int(d.size[cmdStart]) <= d.rawEnd && d.size[cmdStart] >= 0 {
		d.startOff = p
	}
	if sz := d.size[cmdEnd]; sz >= 0 {
		if q := d.rawEnd - 1 - int(sz); q > p && d.data[q] == cmdEnd {
			d.endOff, d.endCount = q, 1
		}
	}
	d.stop = d.rawEnd
	d.first, d.count = -123, 0
}

func nameOrCode(c byte) string {
	if n, ok := eventNames[c]; ok {
		return n
	}
	return fmt.Sprintf("event 0x%02x", c)
}

// trailer reads what follows the raw element: the metadata and the end of
// the top-level object.
func (d *decoder) trailer() {
	d.phase = phaseTrailer
	p := d.rawEnd
	if d.rawLen == 0 {
		p = d.stop
	}
	if d.rawLen == 0 && !bytes.HasPrefix(d.data[p:], metadataKey) {
		return // a recording cut short: whatever follows is not metadata
	}
	if p >= len(d.data) {
		if d.rawLen != 0 && !d.partial {
			d.diag(model.Warning, p, 0, "metadata", "missing: the file ends after the raw element", "U\\x08metadata", "end of data")
		}
		return
	}
	for p < len(d.data) {
		if d.data[p] == '}' {
			p++
			if p < len(d.data) {
				d.diag(model.Warning, p, len(d.data)-p, "trailer", "bytes after the end of the UBJSON object", "end of data", fmt.Sprintf("%d bytes", len(d.data)-p))
			}
			return
		}
		if d.data[p] == 'N' {
			p++
			continue
		}
		// a key: length then bytes
		n, used, err := ubjson.DecodeLength(d.data[p:], int64(p))
		if err != nil || int64(len(d.data)-p-used) < n {
			d.diag(model.Warning, p, 0, "metadata", "expected a key of the top-level object", "a UBJSON key", fmt.Sprintf("0x%02x", d.data[p]))
			d.partial = true
			return
		}
		keyOff := p
		key := string(d.data[p+used : p+used+int(n)])
		p += used + int(n)
		v, used2, err := ubjson.Decode(d.data[p:], int64(p), d.b)
		if _, over := ubjson.IsBudget(err); over {
			d.overBudget(int64(keyOff), int64(p+used2-keyOff))
			return
		}
		if err != nil {
			d.diag(model.Warning, p, used2, "metadata", "cannot be read: "+err.Error(), "", "")
			d.partial = true
			return
		}
		p += used2
		if key == "metadata" {
			vv := v
			d.metadata = &vv
			d.readMeta(&vv)
		} else {
			d.extraHdr = append(d.extraHdr, d.ubjsonField(key, key, &v, int64(keyOff)))
		}
	}
	d.diag(model.Warning, len(d.data), 0, "trailer", "the top-level object is not closed", "}", "end of data")
	d.partial = true
}

func (d *decoder) readMeta(v *ubjson.Value) {
	m := &d.meta
	if s, ok := v.Get("startAt"); ok && s.Kind == ubjson.String {
		m.startAtText = s.Str
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04:05.999999999"} {
			if t, err := time.Parse(layout, s.Str); err == nil {
				m.startAt = t
				break
			}
		}
	}
	if s, ok := v.Get("lastFrame"); ok {
		if f, ok := s.Number(); ok {
			m.lastFrame, m.hasLast = int64(f), true
		}
	}
	if s, ok := v.Get("playedOn"); ok {
		m.playedOn = s.Str
	}
	if s, ok := v.Get("consoleNick"); ok {
		m.consoleNick = s.Str
	}
	if ps, ok := v.Get("players"); ok {
		for i, k := range ps.Keys {
			if len(k) != 1 || k[0] < '0' || k[0] > '3' {
				continue
			}
			port := int(k[0] - '0')
			if chars, ok := ps.Vals[i].Get("characters"); ok {
				// frames per internal character; Nana (11) shadows Popo
				var n int64
				for j, k := range chars.Keys {
					if f, ok := chars.Vals[j].Number(); ok && k != "11" {
						n += int64(f)
					}
				}
				m.frames = max(m.frames, n)
			}
			if names, ok := ps.Vals[i].Get("names"); ok {
				if s, ok := names.Get("netplay"); ok {
					m.netplay[port] = s.Str
				}
				if s, ok := names.Get("code"); ok {
					m.code[port] = s.Str
				}
			}
		}
	}
}

// fieldCost is what a header field built from metadata costs the budget.
var fieldCost = budget.SizeOf[model.Field]()

// ubjsonField turns a metadata value into a header field. Members are paid
// from the budget before they are built: a container of a million nulls is
// a million fields. On refusal the field keeps what was built.
func (d *decoder) ubjsonField(key, label string, v *ubjson.Value, keyOff int64) model.Field {
	f := model.Field{Key: key, Label: label, Span: model.Span{Off: keyOff, Len: v.Off + v.Len - keyOff}}
	pay := func(n int, keyBytes int64) bool {
		if d.b.Items("metadata fields", int64(n), fieldCost) != nil || d.b.Alloc("metadata fields", keyBytes) != nil {
			d.overBudget(f.Span.Off, f.Span.Len)
			return false
		}
		if n > 0 {
			f.Fields = make([]model.Field, 0, n)
		}
		return true
	}
	switch v.Kind {
	case ubjson.Bool:
		f.Value = v.Bool
	case ubjson.Int:
		f.Value = v.Int
	case ubjson.Float:
		f.Value = v.Float
	case ubjson.String, ubjson.Char, ubjson.HighPrecision:
		f.Value = v.Str
	case ubjson.Bytes:
		f.Value = v.Raw
	case ubjson.Array:
		if len(v.Items) == 0 {
			f.Value = emptyArray
		}
		// the index keys: at most 20 digits each
		if !pay(len(v.Items), 20*int64(len(v.Items))) {
			break
		}
		for i := range v.Items {
			it := &v.Items[i]
			k := strconv.Itoa(i)
			f.Fields = append(f.Fields, d.ubjsonField(k, k, it, it.Off))
		}
	case ubjson.Object:
		if len(v.Keys) == 0 {
			f.Value = emptyObject
		}
		if !pay(len(v.Keys), 0) {
			break
		}
		for i, k := range v.Keys {
			f.Fields = append(f.Fields, d.ubjsonField(k, k, &v.Vals[i], v.KeyOffs[i]))
		}
	}
	return f
}

// emptyContainer is the value of an empty metadata object or array, so that
// JSON output writes {} or [] as slippi-js shows them (not null, which a
// field without value or members would be) and people read "{}".
type emptyContainer string

const (
	emptyObject emptyContainer = "{}"
	emptyArray  emptyContainer = "[]"
)

func (e emptyContainer) String() string               { return string(e) }
func (e emptyContainer) MarshalJSON() ([]byte, error) { return []byte(e), nil }
