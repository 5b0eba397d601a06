// Package teehistorian decodes DDNet server recordings (.teehistorian).
//
// A file is the teehistorian UUID, a NUL-terminated JSON header, then a
// stream of messages, each starting with a Teeworlds int id (see package
// twint). The stream records every input the server received, tick by
// tick; ticks are mostly implicit (see advanceForPlayer), so the whole
// stream is read once, front to back, into per-player state versions that
// State looks up in O(1).
package teehistorian

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"rewind/decoders/internal/budget"
	"rewind/decoders/teehistorian/twint"
	"rewind/model"
)

const source = "teehistorian"

// tickRate is the DDNet server's ticks per second.
const tickRate = 50

// Timeline cap: a TICK_SKIP can claim 2^31 ticks in six bytes, so the
// timeline may not grow past six hours plus 64 ticks per byte of message
// stream, and never past 2^22 ticks (23 hours). A busy server writes
// several bytes per tick, so only long idle stretches meet the cap.
const (
	capBaseTicks    = 6 * 3600 * tickRate
	capTicksPerByte = 64
	capMaxTicks     = 1 << 22
	maxDiagnostics  = 200
	// tickChunk is how many ticks of timeline the budget is asked for at a
	// time: the timeline's index costs 8 bytes a tick.
	tickChunk = 1 << 16
)

// Decode reads a whole file. It returns nil and an error only when the
// file cannot be read at all; damage after a readable start gives a partial
// replay with diagnostics.
func Decode(data []byte, opt model.DecodeOptions) (*model.Replay, error) {
	d, err := newDecoder(data, opt, budget.New(int64(len(data)), opt.Limits))
	if err != nil {
		return nil, err
	}
	d.feed()
	d.end()
	d.finish()
	return d.r, nil
}

// newDecoder reads the UUID and the JSON header, and pays for the state's
// checkpoints; the message stream is read by feed. A file whose header
// has no end decodes to its header's problem alone.
func newDecoder(data []byte, opt model.DecodeOptions, b *budget.Budget) (*decoder, error) {
	if len(data) < 16 || !bytes.Equal(data[:16], fileUUID[:]) {
		return nil, &model.FormatError{Source: source, Off: 0, Msg: describeNotTeehistorian(data)}
	}
	d := &decoder{data: data, opt: opt, lastPlayer: maxClients, b: b}
	d.r = &model.Replay{
		Format:     ID,
		FormatName: "DDNet teehistorian",
		Size:       int64(len(data)),
		Timeline:   model.Timeline{Rate: tickRate, Unit: "tick"},
	}
	d.r.Header = append(d.r.Header, model.Field{Key: "uuid", Label: "UUID", Value: fileUUID.String(),
		Name: "teehistorian@ddnet.tw", Span: model.Span{Off: 0, Len: 16}})
	nul := bytes.IndexByte(data[16:], 0)
	if nul < 0 {
		d.diag(model.Error, 16, int64(len(data)-16), "header", "the JSON header has no NUL terminator: the file ends inside the header",
			"NUL after the JSON", "end of file")
		d.r.Partial = true
		d.r.Result = "ends inside the header"
		return d, nil
	}
	// the state's checkpoints: at most cpBudget of them, at most a 64th of
	// the budget's bytes, and at least the two per client that a
	// checkpoint spacing longer than the timeline leaves
	d.cpEntries = max(min(cpBudget, d.b.Limits().Bytes/64), 4*maxClients)
	if !opt.HeaderOnly && !d.paid(d.b.Items("state checkpoints", d.cpEntries, 4), 0) {
		return d, nil
	}
	d.parseHeader(data[16:16+nul], 16)
	d.stream = 16 + nul + 1
	d.pos = d.stream
	return d, nil
}

// describeNotTeehistorian is the one sentence for a file that lacks the UUID.
func describeNotTeehistorian(data []byte) string {
	const want = "does not start with the teehistorian UUID 699db17b-8efb-34ff-b1d8-da6f60c15dd1"
	if len(data) == 0 {
		return "not a teehistorian file: it is empty"
	}
	if utf8.Valid(data) && isText(data) {
		s := strings.TrimSpace(string(data))
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return fmt.Sprintf("not a teehistorian file: it is %d bytes of text (%q) and %s", len(data), s, want)
	}
	if len(data) < 16 {
		return fmt.Sprintf("not a teehistorian file: %d bytes is shorter than the 16-byte teehistorian UUID", len(data))
	}
	return fmt.Sprintf("not a teehistorian file: it starts with % x and %s", data[:16], want)
}

func isText(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}

// info is what the stream tells about a client beyond its tee's position.
// Strings are ids into decoder.strs (0 = unknown).
type info struct {
	present, hasInput, ready, teamKnown, gameTeamKnown bool
	protocol                                           int8
	input                                              [10]int32
	name, clan, skin, authName, verStr                 int32
	country, team, gameTeam, ddnetVer, auth            int32
}

type infoVer struct {
	tick int32
	info
}

// posVer is the tee's position after the messages of one tick.
type posVer struct {
	tick  int32
	alive bool
	x, y  int32
}

// slot is one client id.
type slot struct {
	seen     bool
	dirty    bool
	cur      info
	alive    bool
	x, y     int32
	infos    []infoVer
	poss     []posVer
	names    []string // distinct names in order of appearance
	finishes int
	drops    int
	cpInfo   []int32 // cpInfo[c]: versions with tick < c*cpEvery
	cpPos    []int32
}

type decoder struct {
	data []byte
	opt  model.DecodeOptions
	r    *model.Replay

	// b is the decode's one allowance: header fields, events, state
	// versions, strings, the timeline. over is set once it refused; the
	// stream stops after that message.
	b         *budget.Budget
	over      bool
	paidTicks int64 // ticks of timeline paid for
	at        int   // where the message being read starts
	cpEntries int64 // checkpoints the state may use (paid before the stream)

	stream     int   // offset of the first message
	tick       int64 // current tick
	lastTick   int64 // highest tick reached
	lastPlayer int32 // client id of the last player record in this tick
	maxTick    int64
	capped     bool
	finished   bool
	corrupt    bool // a message had an impossible value and was diagnosed
	following  bool // more bytes may come: a count larger than the bytes so far may be right
	pos        int  // where the next message starts
	done       bool // the stream is over: FINISH, a message that cannot be read, the budget
	stuck      int  // where a message that cannot be read starts (done without FINISH)
	msgs       int
	ndiag      int

	headerUUIDs map[uuid]string
	mapName     string
	slots       [maxClients]slot
	dirty       []int32
	strs        []string
	strIdx      map[string]int32
	inputTicks  []int32
	// inputsBefore[t] is the input messages before tick t, up to a followed
	// file's snapshot (follow.go); nil for a whole decode
	inputsBefore []int32
	minX, maxX   int32
	minY, maxY   int32
	havePos      bool
	cpEvery      int

	// whos is what each call of who made during the decode found: the
	// client's name (a string index), so that a summary made later, by
	// reading the event's message again (summarize), names clients as
	// they were named then. An event's Ref is its first call's index.
	whos []int32
	// summing: this decoder reads one event's message again for its
	// summary, sum; who answers from whos (from whoAt on) and names.
	summing bool
	sum     string
	whoAt   int
	names   []string
}

// paid reports whether the budget paid a claim (err is its answer). The
// first refusal is recorded as an error at off, and the decode winds down.
func (d *decoder) paid(err error, off int64) bool {
	if err == nil {
		return true
	}
	if !d.over {
		d.over = true
		frame := -1
		if d.stream > 0 && off >= int64(d.stream) {
			frame = int(d.tick)
		}
		d.r.Diagnostics = append(d.r.Diagnostics, d.b.Diagnostic(source, model.Span{Off: off}, frame))
		d.r.Partial = true
	}
	return false
}

// note records a problem that may repeat once per message; after
// maxDiagnostics of them the rest are only counted.
func (d *decoder) note(sev model.Severity, off, n int64, subject, msg, expected, found string) {
	d.ndiag++
	if d.ndiag > maxDiagnostics {
		if d.ndiag == maxDiagnostics+1 {
			d.diag(model.Warning, off, 0, "", "too many problems: later ones of this kind are not listed", "", "")
		}
		return
	}
	d.diag(sev, off, n, subject, msg, expected, found)
}

// diag records a problem.
func (d *decoder) diag(sev model.Severity, off, n int64, subject, msg, expected, found string) {
	frame := -1
	if d.stream > 0 && off >= int64(d.stream) {
		frame = int(d.tick)
	}
	d.r.Diagnostics = append(d.r.Diagnostics, model.Diagnostic{Severity: sev, Source: source,
		Span: model.Span{Off: off, Len: n}, Frame: frame, Subject: subject, Message: msg, Expected: expected, Found: found})
}

// str interns a string for the state versions.
func (d *decoder) str(s string) int32 {
	if s == "" {
		return 0
	}
	if d.strIdx == nil {
		d.strIdx = map[string]int32{}
		d.strs = []string{""}
	}
	if i, ok := d.strIdx[s]; ok {
		return i
	}
	// the string, its map entry and its slot in strs
	if !d.paid(d.b.Alloc("names", int64(len(s))+64), int64(d.at)) {
		return 0
	}
	i := int32(len(d.strs))
	d.strs = append(d.strs, s)
	d.strIdx[s] = i
	return i
}

func (d *decoder) strOf(i int32) string {
	if i <= 0 || int(i) >= len(d.strs) {
		return ""
	}
	return d.strs[i]
}

// clientPlayer is an event's Player while the stream is read: the client
// id, -1 for one out of range (finish maps client ids to players).
func clientPlayer(cid int32) int16 {
	if cid < 0 || cid >= maxClients {
		return -1
	}
	return int16(cid)
}

// live reports whether cid names a client slot whose state we keep.
func (d *decoder) live(cid int32) bool { return cid >= 0 && cid < maxClients }

// info returns the client's current state for changing; any message about
// a client shows it is connected.
func (d *decoder) info(cid int32) *info {
	s := &d.slots[cid]
	s.seen = true
	if !s.dirty {
		s.dirty = true
		d.dirty = append(d.dirty, cid)
	}
	s.cur.present = true
	return &s.cur
}

func (d *decoder) addName(cid int32, name string) {
	s := &d.slots[cid]
	for _, n := range s.names {
		if n == name {
			return
		}
	}
	if len(s.names) < 16 {
		s.names = append(s.names, name)
	}
}

// who names a client for summaries: "client 0 (alice)", "server" for -1.
// The decode only notes the name the client has (whos): the summary is
// made when it is read, by a decoder that reads the message again
// (summing) and takes the names from the notes.
func (d *decoder) who(cid int32) string {
	var name int32
	if d.live(cid) {
		name = d.slots[cid].cur.name
	}
	switch {
	case d.summing:
		name = 0
		if d.whoAt < len(d.whos) {
			name = d.whos[d.whoAt]
		}
		d.whoAt++
	case d.opt.HeaderOnly:
		return ""
	default:
		grown, err := budget.Grow(d.b, "events", d.whos, 1)
		if d.paid(err, int64(d.at)) {
			d.whos = append(grown, name)
		}
		return ""
	}
	if cid == -1 {
		return "server"
	}
	if d.live(cid) && name > 0 && int(name) < len(d.names) && d.names[name] != "" {
		return fmt.Sprintf("client %d (%s)", cid, d.names[name])
	}
	return fmt.Sprintf("client %d", cid)
}

// say sets the summary of the message being read again (summing).
func (d *decoder) say(s string) {
	if d.summing {
		d.sum = s
	}
}

// commit stores the state versions changed by the last message.
func (d *decoder) commit() {
	if d.opt.HeaderOnly {
		for _, cid := range d.dirty {
			d.slots[cid].dirty = false
		}
		d.dirty = d.dirty[:0]
		return
	}
	t := int32(d.tick)
	for _, cid := range d.dirty {
		s := &d.slots[cid]
		s.dirty = false
		if n := len(s.infos); n > 0 && s.infos[n-1].tick == t {
			s.infos[n-1].info = s.cur
		} else {
			if len(s.infos) == cap(s.infos) {
				// double: the default growth copies long slices many times
				grown, err := budget.Grow(d.b, "player state versions", s.infos, max(len(s.infos), 16))
				if !d.paid(err, int64(d.at)) {
					continue
				}
				s.infos = grown
			}
			s.infos = append(s.infos, infoVer{tick: t, info: s.cur})
		}
	}
	d.dirty = d.dirty[:0]
}

func (d *decoder) setPos(cid int32, alive bool, x, y int32) {
	s := &d.slots[cid]
	s.alive, s.x, s.y = alive, x, y
	s.seen = true
	if d.opt.HeaderOnly {
		return
	}
	if alive {
		if !d.havePos {
			d.minX, d.maxX, d.minY, d.maxY, d.havePos = x, x, y, y, true
		}
		d.minX, d.maxX = min(d.minX, x), max(d.maxX, x)
		d.minY, d.maxY = min(d.minY, y), max(d.maxY, y)
	}
	t := int32(d.tick)
	if n := len(s.poss); n > 0 && s.poss[n-1].tick == t {
		s.poss[n-1] = posVer{t, alive, x, y}
	} else {
		if len(s.poss) == cap(s.poss) {
			grown, err := budget.Grow(d.b, "positions", s.poss, max(len(s.poss), 16))
			if !d.paid(err, int64(d.at)) {
				return
			}
			s.poss = grown
		}
		s.poss = append(s.poss, posVer{t, alive, x, y})
	}
}

// inputTick notes an input message at the current tick, for the chart.
func (d *decoder) inputTick() {
	if d.opt.HeaderOnly {
		return
	}
	if len(d.inputTicks) == cap(d.inputTicks) {
		grown, err := budget.Grow(d.b, "input ticks", d.inputTicks, 1)
		if !d.paid(err, int64(d.at)) {
			return
		}
		d.inputTicks = grown
	}
	d.inputTicks = append(d.inputTicks, int32(d.tick))
}

// advance moves the current tick forward by n, keeping the timeline under
// its cap.
func (d *decoder) advance(n int64, off int) {
	t := d.tick + n
	if t > d.maxTick {
		if !d.capped {
			d.capped = true
			d.diag(model.Warning, int64(off), 0, "TICK_SKIP",
				fmt.Sprintf("the stream reaches tick %d, more than the %d ticks this %d-byte stream can justify; later ticks are shown at tick %d",
					t, d.maxTick, len(d.data)-d.stream, d.maxTick), "", "")
		}
		t = d.maxTick
	}
	if t >= d.paidTicks && !d.opt.HeaderOnly {
		// the timeline's index, 8 bytes a tick, paid ahead in chunks
		want := t + 1 - d.paidTicks + tickChunk
		if !d.paid(d.b.Items("timeline ticks", want, 8), int64(off)) {
			t = max(d.paidTicks-1, d.tick)
		} else {
			d.paidTicks += want
		}
	}
	d.tick = t
	if t > d.lastTick {
		d.lastTick = t
	}
}

// advanceForPlayer applies the implicit tick rule. DDNet's writer leaves
// out the TICK_SKIP when a tick directly follows the last written one and
// its first player record has a client id not greater than the last player
// record's id (CTeeHistorian::EnsureTickWrittenPlayerData). The file starts
// at tick 0 with "previous id" MAX_CLIENTS, so the first player record
// without a TICK_SKIP is tick 1, and a first TICK_SKIP dt leads to tick
// dt+1. The real recordings in the corpus agree: messages before any
// TICK_SKIP are at tick 0 (an auth-init carried over a map change), and
// their first TICK_SKIPs (dt 549, 149, 145, 104, 99, 25) put the first
// messages at the exact ticks their README gives (550, 150, 146, 105, 100,
// 26).
func (d *decoder) advanceForPlayer(cid int32, off int) {
	if cid <= d.lastPlayer {
		d.advance(1, off)
	}
	d.lastPlayer = cid
}

// Event kinds: indices into kindNames, the replay's Kinds. EX messages
// take theirs from the extension (ex); a message cut off by the end of
// the data the one its whole message has (partialKind).
const (
	kEx model.KindID = iota
	kEnd
	kSpawn
	kDespawn
	kInput
	kMsg
	kJoin
	kDrop
	kCmd
	kTest
	kVersion
	kAuth
	kSwap
	kSave
	kLoad
	kTeam
	kPractice
	kReady
	kAntibot
	kName
	kFinish
	kMove
	kTick
	kMessage
)

var kindNames = []string{kEx: "ex", kEnd: "end", kSpawn: "spawn", kDespawn: "despawn", kInput: "input", kMsg: "msg",
	kJoin: "join", kDrop: "drop", kCmd: "cmd", kTest: "test", kVersion: "version", kAuth: "auth", kSwap: "swap",
	kSave: "save", kLoad: "load", kTeam: "team", kPractice: "practice", kReady: "ready", kAntibot: "antibot",
	kName: "name", kFinish: "finish", kMove: "move", kTick: "tick", kMessage: "message"}

// event adds an event; Player holds the client id until finish maps it.
// Its summary is made on demand (summarize) from the message and the
// names who noted from whoFrom on.
func (d *decoder) event(ev model.Event, whoFrom int) {
	if ev.Player >= 0 && ev.Player < maxClients {
		d.slots[ev.Player].seen = true
	}
	if d.opt.HeaderOnly {
		return
	}
	ev.Frame = int32(d.tick)
	ev.Ref = int32(whoFrom)
	grown, err := budget.Grow(d.b, "events", d.r.Events, 1)
	if !d.paid(err, ev.Off) {
		return
	}
	d.r.Events = append(grown, ev)
}

func (d *decoder) progress(pos int) {
	if d.opt.Progress != nil && d.msgs&0xfff == 0 {
		d.opt.Progress(int64(pos), int64(len(d.data)))
	}
}

// feed reads the messages that the data holds whole, from where the last
// call stopped. It stops at the end of the data, also when the data ends
// inside a message (a followed file: the rest may come; end says what it
// was), or for good (done): at FINISH, at a message that cannot be read,
// when the budget refused.
func (d *decoder) feed() {
	data := d.data
	if d.stream == 0 || d.done {
		return
	}
	// the timeline's cap grows with the stream's bytes
	d.maxTick = min(capBaseTicks+capTicksPerByte*int64(len(data)-d.stream), capMaxTicks)
	pos := d.pos
	defer func() { d.pos = pos }()
	for {
		if pos >= len(data) {
			return
		}
		if d.over {
			d.done = true
			return // the budget refused (recorded then): what came before is kept
		}
		d.progress(pos)
		start := pos
		d.at = pos
		id, n, err := twint.Int(data[pos:])
		if err != nil {
			return // the data ends inside the id
		}
		if id >= idInputDiff && id != idPlayerNew && id != idPlayerOld && id != idFinish && id < maxClients {
			// PLAYER_DIFF, TICK_SKIP, INPUT_DIFF: most of a stream, and
			// never events, so read without building fields
			next, ok := d.fast(id, start, pos+n)
			if !ok {
				return // the data ends inside it
			}
			d.msgs++
			d.commit()
			pos = next
			continue
		}
		f := newFieldReader(data, pos+n, false)
		if id >= maxClients || id < idEx {
			d.diag(model.Error, int64(start), int64(n), "message", fmt.Sprintf("unknown message id %d: it has no length, so the stream stops here", id),
				"an id from -11 to 63", strconv.Itoa(int(id)))
			d.diag(model.Warning, int64(start), 0, "stream",
				fmt.Sprintf("ends without FINISH at tick %d (offset %#x)", d.tick, start), "FINISH (0x40)", "unknown message")
			d.r.Partial = true
			d.done, d.stuck = true, start
			return
		}
		if !d.message(id, start, f) {
			if d.corrupt {
				d.diag(model.Warning, int64(start), 0, "stream",
					fmt.Sprintf("ends without FINISH at tick %d (offset %#x)", d.tick, start), "FINISH (0x40)", "a message that cannot be read")
				d.r.Partial = true
				d.done, d.stuck = true, start
			}
			return // else the data ends inside it
		}
		d.msgs++
		d.commit()
		pos = f.r.Pos
		if id == idFinish {
			d.finished, d.done = true, true
			return
		}
	}
}

// end says how the stream ended, now that the data is all there is: the
// bytes after FINISH, no FINISH at all, or a message the end of the data
// cuts off.
func (d *decoder) end() {
	data := d.data
	switch {
	case d.stream == 0:
	case d.finished:
		if d.pos < len(data) {
			d.diag(model.Warning, int64(d.pos), int64(len(data)-d.pos), "FINISH",
				fmt.Sprintf("%d bytes follow FINISH and are not read", len(data)-d.pos), "end of file", "more bytes")
		}
	case d.done:
	case d.pos >= len(data):
		d.diag(model.Warning, int64(d.pos), 0, "stream",
			fmt.Sprintf("ends without FINISH at tick %d (offset %#x)", d.tick, d.pos), "FINISH (0x40)", "end of file")
		d.r.Partial = true
	default:
		d.cut(d.pos)
	}
}

// cut reports the message at start that the end of the data cuts off: an
// error in the tick the stream was in, and an event of what there is of
// it, flagged partial, whose fields are the ones that fit (detail).
func (d *decoder) cut(start int) {
	what, kind, cid := "message id", kMessage, int32(-1)
	if id, n, err := twint.Int(d.data[start:]); err == nil {
		what, kind = msgName(id), partialKind(id)
		switch {
		case id >= 0 && id < maxClients:
			cid = id
		case id != idTickSkip && id != idFinish && id != idEx:
			// the records about a client start with its id
			if c, _, err := twint.Int(d.data[start+n:]); err == nil && d.live(c) {
				cid = c
			}
		}
	}
	have := len(d.data) - start
	if kind == kEx && !d.opt.HeaderOnly {
		kind, cid = d.cutEx(start)
	}
	d.diag(model.Error, int64(start), int64(have), what,
		"the file ends inside this message", "the rest of the message", fmt.Sprintf("%d bytes", have))
	d.diag(model.Warning, int64(start), 0, "stream",
		fmt.Sprintf("ends without FINISH at tick %d (offset %#x)", d.tick, start), "FINISH (0x40)", "end of file")
	d.r.Partial = true
	if d.opt.HeaderOnly {
		return
	}
	// not d.event: a client named only by a message cut off is no player
	ev := model.Event{Frame: int32(d.tick), Player: clientPlayer(cid), Kind: kind, Flags: model.Partial,
		Off: int64(start), Len: int64(have)}
	if cid >= 0 && !d.slots[cid].seen {
		ev.Player = -1
	}
	grown, err := budget.Grow(d.b, "events", d.r.Events, 1)
	if d.paid(err, int64(start)) {
		d.r.Events = append(grown, ev)
	}
}

// cutEx is the kind of an EX message the end of the data cuts off, and
// the client it is about: its extension's, read from the payload that is
// there on a scratch decoder (the real state stays as it is), once the
// extension's UUID is whole.
func (d *decoder) cutEx(start int) (model.KindID, int32) {
	f := newFieldReader(d.data, start, false)
	f.r.Int() // the id
	u := f.uuid("uuid", "Extension UUID")
	f.r.Int() // the payload's size
	if f.r.Err() != nil {
		return kEx, -1
	}
	ev := model.Event{Player: -1, Off: int64(start), Len: int64(len(d.data) - start)}
	d.scratch(&ev).ex(d.uuidName(u), f.sub(d.data, len(d.data)), len(d.data), &ev)
	cid := int32(ev.Player)
	if !d.live(cid) {
		cid = -1
	}
	return ev.Kind, cid
}

// partialKind is the kind of the event a message cut off becomes: the
// kind its whole message has, and for the messages that are no events a
// kind of their own.
func partialKind(id int32) model.KindID {
	switch {
	case id >= 0 && id < maxClients:
		return kMove
	}
	switch id {
	case idFinish:
		return kEnd
	case idTickSkip:
		return kTick
	case idPlayerNew:
		return kSpawn
	case idPlayerOld:
		return kDespawn
	case idInputNew, idInputDiff:
		return kInput
	case idMessage:
		return kMsg
	case idJoin:
		return kJoin
	case idDrop:
		return kDrop
	case idConsoleCommand:
		return kCmd
	case idEx:
		return kEx
	}
	return kMessage
}

// summarize is Replay.Summarize: the event's message read again, on a
// scratch decoder that names clients as the decode found them (who).
func (d *decoder) summarize(ev *model.Event) string {
	off, end := int(ev.Off), int(ev.End())
	if off < d.stream || end > len(d.data) || off >= end {
		return ""
	}
	if ev.Flags&model.Partial != 0 {
		what := "message id"
		if id, _, err := twint.Int(d.data[off:end]); err == nil {
			what = msgName(id)
		}
		return fmt.Sprintf("%s cut off after %d bytes: the data ends here", what, end-off)
	}
	id, n, err := twint.Int(d.data[off:])
	if err != nil {
		return ""
	}
	x := summingPool.Get().(*decoder)
	d.scratchOn(x, ev)
	x.summing, x.whos, x.whoAt, x.names = true, d.whos, int(ev.Ref), d.strs
	x.message(id, off, newFieldReader(d.data, off+n, false))
	sum := x.sum
	*x = decoder{} // holds nothing of this replay while it waits
	summingPool.Put(x)
	return sum
}

// summingPool keeps the decoders summaries are made on: a decoder is 16 kB
// (its client slots), and a dump makes every event's summary.
var summingPool = sync.Pool{New: func() any { return new(decoder) }}

// detail reads the message of an event again, this time keeping every
// field, on a scratch decoder so the real state stays as it is.
func (d *decoder) detail(ev *model.Event) []model.Field { return d.detailOn(nil, ev) }

// detailOn is detail with x as the scratch decoder (nil: a new one).
func (d *decoder) detailOn(x *decoder, ev *model.Event) []model.Field {
	off := int(ev.Off)
	if off < d.stream || off >= len(d.data) {
		return nil
	}
	if ev.Flags&model.Partial != 0 {
		return d.partialDetail(ev)
	}
	id, n, err := twint.Int(d.data[off:])
	if err != nil {
		return nil
	}
	f := newFieldReader(d.data, off+n, true)
	// a field takes a byte at least: room for them at once, not by doubling
	f.fields = make([]model.Field, 0, min(ev.Len+1, 80))
	f.add(model.Field{Key: "id", Label: "Message id", Value: int64(id), Name: msgName(id),
		Span: model.Span{Off: int64(off), Len: int64(n)}})
	if id < idEx || id >= 0 {
		return f.fields
	}
	if x == nil {
		x = new(decoder)
	}
	d.scratchOn(x, ev).message(id, off, f)
	return f.fields
}

// scratch is a decoder to read the message of one event again, on its own
// allowance sized by the message.
func (d *decoder) scratch(ev *model.Event) *decoder { return d.scratchOn(new(decoder), ev) }

// scratchOn makes x the scratch decoder: the analysis reads thousands of
// messages again on one (a decoder is 16 kB, its client slots).
func (d *decoder) scratchOn(x *decoder, ev *model.Event) *decoder {
	*x = decoder{data: d.data, stream: d.stream, headerUUIDs: d.headerUUIDs, r: &model.Replay{},
		lastPlayer: maxClients, maxTick: d.maxTick, opt: model.DecodeOptions{HeaderOnly: true},
		b: budget.New(ev.Len, model.Limits{})}
	return x
}

// partialDetail is the fields of a message the end of the data cuts off:
// the ones that fit, then the field the end cut through, named with how
// much of it there is, then where the bytes stopped.
func (d *decoder) partialDetail(ev *model.Event) []model.Field {
	off, end := int(ev.Off), int(ev.End())
	if end > len(d.data) {
		return nil
	}
	data := d.data[:end]
	f := newFieldReader(data, off, true)
	id := f.named("id", "Message id", msgName)
	if f.r.Err() == nil {
		switch {
		case id >= 0 && id < maxClients: // PLAYER_DIFF
			f.int("dx", "x difference")
			f.int("dy", "y difference")
		case id == idTickSkip:
			f.int("dt", "Ticks skipped")
		case id == idInputDiff:
			f.int("cid", "Client id")
			for _, k := range inputKeys {
				f.int(k.key, k.label+" difference")
			}
		case id >= idEx:
			x := d.scratch(ev)
			x.data = data
			x.message(id, off, f)
		}
	}
	fs := f.fields
	total := ""
	if c := f.cut; c != nil && end > c.off {
		of := fmt.Sprint(c.need)
		if c.atLeast {
			of = "at least " + of
		}
		if c.last {
			total = fmt.Sprint(c.off + c.need - off)
		}
		// as model.CutOff shapes it (that needs a record's size, which a
		// teehistorian message does not state): no value, the rest of its
		// bytes do not exist
		fs = append(fs, model.Field{Key: c.key, Label: fmt.Sprintf("%s (cut off: %d of %s bytes)", c.label, end-c.off, of),
			Span: model.Span{Off: int64(c.off), Len: int64(end - c.off)}})
	}
	stop := fmt.Sprintf("after %d bytes: the data ends here", end-off)
	if total != "" {
		stop = fmt.Sprintf("after %d of %s bytes: the data ends here", end-off, total)
	}
	return append(fs, model.Field{Key: "cutOff", Label: "Cut off", Value: stop, Span: model.Span{Off: int64(end)}})
}

// fast reads a PLAYER_DIFF, TICK_SKIP or INPUT_DIFF message whose body
// starts at pos, and returns where the next message starts.
func (d *decoder) fast(id int32, start, pos int) (int, bool) {
	r := twint.Reader{B: d.data, Pos: pos}
	switch {
	case id >= 0:
		dx, dy := r.Int(), r.Int()
		if r.Err() != nil {
			return 0, false
		}
		d.advanceForPlayer(id, start)
		s := &d.slots[id]
		if !s.alive {
			d.note(model.Warning, int64(start), int64(r.Pos-start), "PLAYER_DIFF",
				fmt.Sprintf("client %d moves but has no tee (no PLAYER_NEW before)", id), "", "")
		}
		d.setPos(id, true, s.x+dx, s.y+dy)
	case id == idTickSkip:
		dt := r.Int()
		if r.Err() != nil {
			return 0, false
		}
		if dt < 0 {
			d.note(model.Warning, int64(start), int64(r.Pos-start), "TICK_SKIP", "negative tick skip, read as 0", "dt >= 0", strconv.Itoa(int(dt)))
			dt = 0
		}
		d.advance(int64(dt)+1, start)
		d.lastPlayer = -1
	case id == idInputDiff:
		cid := r.Int()
		var in [10]int32
		for i := range in {
			in[i] = r.Int()
		}
		if r.Err() != nil {
			return 0, false
		}
		if !d.live(cid) {
			d.note(model.Warning, int64(start), int64(r.Pos-start), "INPUT_DIFF", "client id out of range", "0 to 63", strconv.Itoa(int(cid)))
			break
		}
		st := d.info(cid)
		if !st.hasInput {
			d.note(model.Warning, int64(start), int64(r.Pos-start), "INPUT_DIFF",
				fmt.Sprintf("client %d sends an input difference before any INPUT_NEW", cid), "", "")
		}
		for i := range in {
			st.input[i] += in[i]
		}
		st.hasInput = true
		d.inputTick()
	}
	return r.Pos, true
}

// message decodes one message after its id. It returns false when the
// data ends inside it; nothing is applied then.
func (d *decoder) message(id int32, start int, f *fieldReader) bool {
	// the event of the message, its span the bytes read
	whoFrom := len(d.whos)
	ev := func(kind model.KindID, cid int32, fl model.Flags) model.Event {
		return model.Event{Kind: kind, Player: clientPlayer(cid), Flags: fl, Off: int64(start), Len: int64(f.r.Pos - start)}
	}
	switch {
	case id == idFinish:
		d.say("FINISH: the recording ends here")
		d.event(ev(kEnd, -1, model.Notable), whoFrom)
	case id == idPlayerNew:
		cid := f.int("cid", "Client id")
		x := f.int("x", "x")
		y := f.int("y", "y")
		if f.r.Err() != nil {
			return false
		}
		d.advanceForPlayer(cid, start)
		if d.checkCid(cid, start, f, "PLAYER_NEW") {
			d.info(cid) // a new tee means a connected client
			d.setPos(cid, true, x, y)
		}
		if who := d.who(cid); d.summing {
			d.say(fmt.Sprintf("%s: tee appears at (%d, %d)", who, x, y))
		}
		d.event(ev(kSpawn, cid, 0), whoFrom)
	case id == idPlayerOld:
		cid := f.int("cid", "Client id")
		if f.r.Err() != nil {
			return false
		}
		d.advanceForPlayer(cid, start)
		if d.checkCid(cid, start, f, "PLAYER_OLD") {
			s := &d.slots[cid]
			d.setPos(cid, false, s.x, s.y)
		}
		if who := d.who(cid); d.summing {
			d.say(who + ": tee disappears")
		}
		d.event(ev(kDespawn, cid, 0), whoFrom)
	case id == idInputNew:
		cid := f.int("cid", "Client id")
		var in [10]int32
		for i := range in {
			in[i] = f.int(inputKeys[i].key, inputKeys[i].label)
		}
		if f.r.Err() != nil {
			return false
		}
		if !d.checkCid(cid, start, f, "INPUT_NEW") {
			break
		}
		st := d.info(cid)
		st.input, st.hasInput = in, true
		d.inputTick()
		if who := d.who(cid); d.summing {
			d.say(fmt.Sprintf("%s: first input (%s)", who, inputText(st.input)))
		}
		d.event(ev(kInput, cid, 0), whoFrom)
	case id == idMessage:
		cid := f.int("cid", "Client id")
		size := f.int("msgSize", "Message size")
		if f.r.Err() != nil {
			return false
		}
		if !d.payloadFits(f, start, size, "MESSAGE", "message", "msg", "Message bytes") {
			return false
		}
		end := f.r.Pos + int(size)
		sub := f.sub(d.data, end)
		ok := d.checkCid(cid, start, f, "MESSAGE")
		if ok {
			d.info(cid)
		}
		var name, detail string
		if ok {
			name, detail = d.netMsg(cid, sub, end)
		} else {
			name, detail = d.netMsgNoState(sub, end)
		}
		if sub.r.Err() != nil {
			// keep what was read, and the whole message raw
			sub.r = twint.Reader{B: d.data[:end], Pos: f.r.Pos}
			sub.raw("msg", "Message bytes", int(size))
			detail = fmt.Sprintf("%d bytes, shorter than its layout", size)
		}
		f.fields = sub.fields
		f.r.Pos = end
		if who := d.who(cid); d.summing {
			sum := fmt.Sprintf("%s sends %s", who, name)
			if detail != "" {
				sum += " " + detail
			}
			d.say(sum)
		}
		d.event(ev(kMsg, cid, 0), whoFrom)
	case id == idJoin:
		cid := f.int("cid", "Client id")
		if f.r.Err() != nil {
			return false
		}
		if d.checkCid(cid, start, f, "JOIN") {
			in := d.info(cid)
			in.ready, in.hasInput = false, false
		}
		if d.summing {
			d.say(fmt.Sprintf("client %d joins", cid))
		}
		d.event(ev(kJoin, cid, model.Notable), whoFrom)
	case id == idDrop:
		cid := f.int("cid", "Client id")
		reason := f.str("reason", "Reason")
		if f.r.Err() != nil {
			return false
		}
		who := d.who(cid)
		if d.checkCid(cid, start, f, "DROP") {
			in := d.info(cid)
			*in = info{}
			d.slots[cid].drops++
		}
		if d.summing {
			sum := who + " leaves"
			if reason != "" {
				sum += fmt.Sprintf(": %q", reason)
			} else {
				sum += " (no reason)"
			}
			d.say(sum)
		}
		d.event(ev(kDrop, cid, model.Notable), whoFrom)
	case id == idConsoleCommand:
		cid := f.int("cid", "Client id")
		flags := f.int("flags", "Flags")
		if f.r.Err() == nil {
			f.nameLast(1, bitNames(int64(uint32(flags)), consoleFlagNames))
		}
		cmd := f.str("cmd", "Command")
		s := f.r.Pos
		nargs := f.int("numArgs", "Argument count")
		if f.r.Err() != nil {
			return false
		}
		if nargs < 0 {
			d.diag(model.Error, int64(s), int64(f.r.Pos-s), "CONSOLE_COMMAND", "negative argument count: the stream stops here",
				"a count >= 0", strconv.Itoa(int(nargs)))
			d.corrupt = true
			return false
		}
		// every argument takes at least its NUL byte: a count larger than
		// the bytes left is cut off by the end of the data (whose rest a
		// followed file may still write). Reading one message's fields
		// again (keep) reads the arguments that are there.
		if int(nargs) > f.r.Left() && !f.keep {
			if !d.following {
				d.diag(model.Error, int64(s), int64(f.r.Pos-s), "CONSOLE_COMMAND", "argument count larger than the bytes left",
					fmt.Sprintf("at most %d", f.r.Left()), strconv.Itoa(int(nargs)))
			}
			f.r.Raw(len(d.data)) // fail
			return false
		}
		text := f.args(int(nargs), append(make([]byte, 0, len(cmd)+3*min(int(nargs), shownArgs)+8), cmd...))
		if f.r.Err() != nil {
			return false
		}
		if d.live(cid) {
			d.info(cid)
		}
		// the text's array is garbage once the summary is made: it is paid
		// for as the summary is (a summary made again, summing, has it
		// from the decode)
		if !d.summing && !d.paid(d.b.Alloc("events", int64(cap(text))), int64(start)) {
			return false
		}
		if who := d.who(cid); d.summing {
			sum := who + " runs " + string(text) + moreArgs(int(nargs))
			if flags&(1<<7) != 0 {
				sum += " (chat)"
			}
			d.say(sum)
		}
		d.event(ev(kCmd, cid, model.Notable), whoFrom)
	case id == idEx:
		u := f.uuid("uuid", "Extension UUID")
		size := f.int("size", "Size")
		if f.r.Err() != nil {
			return false
		}
		if !d.payloadFits(f, start, size, "EX", "extension", "data", "Data") {
			return false
		}
		name := d.uuidName(u)
		f.nameLast(2, name)
		end := f.r.Pos + int(size)
		sub := f.sub(d.data, end)
		e := model.Event{Player: -1}
		d.ex(name, sub, end, &e)
		if sub.r.Err() != nil || sub.r.Pos != end {
			what := "shorter than its layout"
			if sub.r.Err() == nil {
				what = fmt.Sprintf("%d bytes longer than its layout", end-sub.r.Pos)
			}
			d.note(model.Warning, int64(start), int64(end-start), "EX "+name, "payload "+what, "", fmt.Sprintf("%d bytes", size))
			sub = f.sub(d.data, end)
			sub.raw("data", "Data", int(size))
			if d.summing {
				d.say(fmt.Sprintf("extension %s (%d bytes, %s)", name, size, what))
			}
		}
		f.fields = sub.fields
		f.r.Pos = end
		if e.Player >= 0 && !d.live(int32(e.Player)) {
			e.Player = -1
		}
		d.event(ev(e.Kind, int32(e.Player), e.Flags), whoFrom)
	}
	return true
}

// payloadFits checks the size of the payload that follows (MESSAGE's
// game message, EX's data): a negative one is damage and stops the stream;
// one past the end of the data is cut off there (the payload, key and
// label, is the field the end cuts through). what names the message, noun
// its payload.
func (d *decoder) payloadFits(f *fieldReader, start int, size int32, what, noun, key, label string) bool {
	if size < 0 {
		// the span is the bytes read so far: where a failed read leaves the
		// reader depends on how much data there is, and a followed file
		// must report the same span as the whole file
		read := f.r.Pos - start
		f.r.Raw(int(size)) // fail
		d.diag(model.Error, int64(start), int64(read), what, "negative "+noun+" size: the stream stops here", "size >= 0", strconv.Itoa(int(size)))
		d.corrupt = true
		return false
	}
	if int(size) > f.r.Left() {
		f.raw(key, label, int(size))
		return false
	}
	return true
}

// netMsgNoState decodes a message whose client id is out of range, without
// touching any player's state.
func (d *decoder) netMsgNoState(f *fieldReader, end int) (string, string) {
	return d.netMsg(-1, f, end)
}

// checkCid reports whether cid is a client slot, and says so when not.
func (d *decoder) checkCid(cid int32, start int, f *fieldReader, what string) bool {
	if d.live(cid) {
		return true
	}
	d.note(model.Warning, int64(start), int64(f.r.Pos-start), what,
		"client id out of range", "0 to 63", strconv.Itoa(int(cid)))
	return false
}

// commandText is a console command with its arguments, as its summary
// shows it.
func commandText(cmd string, args []string) string {
	b := []byte(cmd)
	for _, a := range args {
		b = appendArg(b, a)
	}
	return string(b)
}

// appendArg appends a command's argument as its text shows it: after a
// space, quoted when it is empty or holds a space, a tab or a quote.
func appendArg[S ~string | ~[]byte](dst []byte, a S) []byte {
	dst = append(dst, ' ')
	quote := len(a) == 0
	for i := 0; i < len(a) && !quote; i++ {
		quote = a[i] == ' ' || a[i] == '\t' || a[i] == '"'
	}
	if quote {
		return strconv.AppendQuote(dst, string(a))
	}
	return append(dst, a...)
}

func inputText(in [10]int32) string {
	return fmt.Sprintf("dir %s target (%d, %d) jump %d fire %d hook %d", directionName(in[0]), in[1], in[2], in[3], in[4], in[5])
}

// finish fills the summary values, players, timeline and pictures.
func (d *decoder) finish() {
	r := d.r
	r.Timeline.Count = int(d.lastTick) + 1
	r.Timeline.First = 0
	r.Duration = time.Duration(d.lastTick) * time.Second / tickRate
	// The result is the recording's, not a race's: FINISH closes the log
	// when the server stops or changes map ("finished" is what a player
	// who reached the finish line is).
	switch {
	case d.finished:
		r.Result = resultComplete
	case r.Result == "":
		r.Result = "recording cut off (no FINISH)"
	}
	var index [maxClients]int
	index, r.Players = d.players()
	for i := range r.Events {
		r.Events[i].Player = int16(playerIndex(&index, int(r.Events[i].Player)))
	}
	if d.opt.HeaderOnly {
		r.Partial = true
		return
	}
	r.Kinds = kindNames
	r.Summarize = d.summarize
	r.Detail = d.detail
	r.Analyze = d.analyze
	d.buildState()
	r.Finish()
}

// players lists every client id seen, in id order, and gives the index
// of each client id among them (-1 for those never seen).
func (d *decoder) players() (index [maxClients]int, players []model.Player) {
	for cid := range d.slots {
		index[cid] = -1
		if !d.slots[cid].seen {
			continue
		}
		index[cid] = len(players)
		players = append(players, d.player(int32(cid)))
	}
	return index, players
}

// playerIndex is the player an event about client id cid names (events
// hold the client id until then), -1 for none.
func playerIndex(index *[maxClients]int, cid int) int {
	if cid >= 0 && cid < maxClients {
		return index[cid]
	}
	return -1
}

// resultComplete is the result of a recording that ends with FINISH.
const resultComplete = "recording complete"

// teamName names a DDRace team as players call it: team 0 is everyone
// not in a team (TEAM_FLOCK in DDNet's teamscore.h) and the last, 64, is
// the super team (TEAM_SUPER) that collides with everyone.
func teamName(team int32) string {
	switch team {
	case 0:
		return ""
	case 64:
		return "super team"
	}
	return fmt.Sprintf("team %d", team)
}

func (d *decoder) player(cid int32) model.Player {
	s := &d.slots[cid]
	// P and the client id + 1, as Slippi numbers ports: the JSON names
	// players P1..Pn in every format, and a client id, unlike the place in
	// the list, stays a player's while a followed recording grows. The id
	// itself is the cid field.
	p := model.Player{Slot: fmt.Sprintf("P%d", cid+1), Name: strings.Join(s.names, " / ")}
	last := s.cur
	if n := len(s.infos); n > 0 {
		// the state before the drop that cleared it, when there was one
		for i := n - 1; i >= 0; i-- {
			if s.infos[i].name != 0 || s.infos[i].ddnetVer != 0 {
				last = s.infos[i].info
				break
			}
		}
	}
	if last.teamKnown {
		p.Team = teamName(last.team)
	}
	if s.finishes > 0 {
		p.Result = "finished"
	}
	p.Fields = append(p.Fields, model.Field{Key: "cid", Label: "Client id", Value: int64(cid)})
	if len(s.names) > 0 {
		p.Fields = append(p.Fields, model.Field{Key: "name", Label: "Name", Value: p.Name})
	}
	if c := d.strOf(last.clan); c != "" {
		p.Fields = append(p.Fields, model.Field{Key: "clan", Label: "Clan", Value: c})
	}
	if last.skin != 0 {
		// not Character: a skin is a look, and "client 0 default" names nobody
		p.Fields = append(p.Fields, model.Field{Key: "skin", Label: "Skin", Value: d.strOf(last.skin)},
			model.Field{Key: "country", Label: "Country", Value: int64(last.country)})
	}
	if last.ddnetVer != 0 {
		p.Fields = append(p.Fields, model.Field{Key: "ddnetVersion", Label: "DDNet version", Value: int64(last.ddnetVer),
			Name: ddnetVersionName(last.ddnetVer)})
	}
	p.Fields = append(p.Fields, model.Field{Key: "drops", Label: "Drops", Value: int64(s.drops)},
		model.Field{Key: "finishes", Label: "Finishes", Value: int64(s.finishes)})
	return p
}
