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

var magic = []byte("{U\x03raw[$U#l")

var metadataKey = []byte("U\x08metadata")

// Event kinds (constants so that events share the strings).
const (
	kPayloads = "payloads"
	kStart    = "start"
	kPre      = "pre"
	kPost     = "post"
	kItem     = "item"
	kFrame    = "frame"
	kBookend  = "bookend"
	kEnd      = "end"
	kGecko    = "gecko"
	kFod      = "fod"
	kWhispy   = "whispy"
	kStadium  = "stadium"
	kUnknown  = "unknown"

	flagRolledBack = "rolled back"
)

func kindOf(code byte) string {
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

// decoder holds everything the decode builds.
type decoder struct {
	data []byte
	opt  model.DecodeOptions
	r    *model.Replay
	b    *budget.Budget // the decode's one allowance (metadata, fields, events, frames)
	over bool           // the budget's refusal is recorded
	paid bool           // the events pass is paid for

	size   [256]int32 // payload size per code (command byte excluded); -1 when not listed
	sizeAt [256]int32 // offset of the code's entry in Event Payloads

	rawStart, rawEnd int   // event stream bounds as the container gives them
	from             int   // where the events after Event Payloads start
	rawLen           int64 // the declared length (0 while recording)
	stop             int   // where the event stream actually ended

	version   uint32
	startOff  int // Game Start event offset, -1 when none
	endOff    int // (last) Game End event offset, -1 when none
	endCount  int
	ports     [4]portInfo
	playerOf  [4]int // port -> index in Players, -1
	portOf    []int  // player index -> port
	metadata  *ubjson.Value
	meta      metaInfo
	geckoOffs []int // message splitter events of the gecko list, in order
	geckoDone bool
	gecko     []byte // the reassembled gecko list (command byte excluded)

	// frame range
	sequential bool  // frames numbered by arrival (training mode)
	seqFrame   int64 // the frame number such a file repeats
	first      int64
	count      int
	nEvents    int
	// cutAt is where an event cut off by the end of the data begins, and
	// cutSize how long its payload says it is; -1 when nothing was cut.
	cutAt, cutSize int
	followers      bool

	// per frame index * 4 + port: file offset of the kept copy, 0 = none
	pre, post, fpre, fpost []int32
	runStart, runEnd       []int32 // event index range of the kept copy of each frame (start + 1; 0 = none)
	itemStart, itemCount   []int32 // kept copy's items: itemOffs[itemStart[f]:+itemCount[f]]
	itemOffs               []int32
	fodL, fodR             []float32 // Fountain of Dreams side platform heights per frame
	gaps                   [4][]gap  // per port, the frames without an update (state.go)
	resentFrames           int       // superseded copies of frames
	resentPre              int       // superseded pre-frame updates
	rollbackCount          int       // slippi-js's count
	rollbackLengths        []int
}

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
	if !bytes.HasPrefix(data, magic) {
		return nil, &model.FormatError{Source: source, Off: 0, Msg: notSlippi(data)}
	}
	if int64(len(data)) > math.MaxInt32 {
		return nil, &model.FormatError{Source: source, Off: 0, Msg: "file larger than 2 GiB; no real replay is that big"}
	}
	d := &decoder{data: data, opt: opt, b: budget.New(int64(len(data)), opt.Limits), startOff: -1, endOff: -1, r: &model.Replay{
		Format: model.Slippi, FormatName: "Slippi", Size: int64(len(data)),
		Timeline: model.Timeline{First: -123, Rate: 60, Unit: "frame"},
	}}
	for i := range d.size {
		d.size[i] = -1
	}
	for i := range d.playerOf {
		d.playerOf[i] = -1
	}
	d.container()
	if d.rawEnd-d.rawStart == 0 || d.data[d.rawStart] != cmdPayloads {
		return nil, &model.FormatError{Source: source, Off: int64(d.rawStart), Msg: "the raw element does not start with Event Payloads (0x35): not a Slippi event stream"}
	}
	d.payloads()
	if opt.HeaderOnly && d.rawLen != 0 && !d.r.Partial {
		d.skim()
	} else {
		d.scan()
		if !opt.HeaderOnly {
			d.payEvents()
		}
	}
	if d.startOff >= 0 {
		d.gameStart()
	}
	d.trailer()
	d.players()
	if opt.HeaderOnly {
		d.r.Partial = true
	} else {
		d.events()
		d.r.FrameRows = d.frameRows // typed rows for rewind export (rows.go)
	}
	d.finishHeader()
	if !opt.HeaderOnly {
		d.r.Finish()
	}
	if opt.Progress != nil {
		opt.Progress(int64(len(data)), int64(len(data)))
	}
	return d.r, nil
}

func notSlippi(data []byte) string {
	if len(data) < len(magic) && bytes.HasPrefix(magic, data) {
		return "file ends inside the UBJSON header"
	}
	return "not a Slippi replay: expected the UBJSON header {U\\x03raw[$U#l"
}

func (d *decoder) diag(sev model.Severity, off, n int, subject, msg, expected, found string) {
	d.r.Diagnostics = append(d.r.Diagnostics, model.Diagnostic{
		Severity: sev, Source: source, Span: model.Span{Off: int64(off), Len: int64(n)}, Frame: -1,
		Subject: subject, Message: msg, Expected: expected, Found: found,
	})
	if sev == model.Error {
		d.r.Partial = true
	}
}

// overBudget records the budget's refusal, once, as an error at span: what
// asked and by how much. The replay is partial from there on.
func (d *decoder) overBudget(off, n int64) {
	if d.over || !d.b.Exhausted() {
		return
	}
	d.over = true
	d.r.Diagnostics = append(d.r.Diagnostics, d.b.Diagnostic(source, model.Span{Off: off, Len: n}, -1))
	d.r.Partial = true
}

// container reads the raw element's length and bounds the event stream.
func (d *decoder) container() {
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
	case d.rawLen > left:
		d.rawEnd = len(d.data)
		d.diag(model.Error, len(magic), 4, "raw length", "runs past the end of the file", fmt.Sprintf("%d bytes", d.rawLen), fmt.Sprintf("%d bytes", left))
	default:
		d.rawEnd = d.rawStart + int(d.rawLen)
	}
}

// payloads reads Event Payloads.
func (d *decoder) payloads() {
	p := d.rawStart
	if p+2 > d.rawEnd {
		d.diag(model.Error, p, d.rawEnd-p, "event 0x35", "Event Payloads is cut off", "2 bytes", fmt.Sprintf("%d bytes", d.rawEnd-p))
		d.stop, d.from = d.rawEnd, d.rawEnd
		return
	}
	n := int(d.data[p+1])
	if (n-1)%3 != 0 || n == 0 {
		d.diag(model.Warning, p+1, 1, "event 0x35", "payload size is not 3n+1", "3n+1", fmt.Sprint(n))
	}
	end := p + 1 + n
	if end > d.rawEnd {
		d.diag(model.Error, p, d.rawEnd-p, "event 0x35", "Event Payloads is cut off", fmt.Sprintf("%d bytes", n+1), fmt.Sprintf("%d bytes", d.rawEnd-p))
		end = d.rawEnd
	}
	d.size[cmdPayloads] = int32(n)
	for q := p + 2; q+3 <= end; q += 3 {
		c := d.data[q]
		d.size[c] = int32(binary.BigEndian.Uint16(d.data[q+1:]))
		d.sizeAt[c] = int32(q)
	}
	// The gecko list's size can overflow u16 and is never used directly
	// when it arrives split; the splitter's own size is fixed.
	d.stop = min(p+1+n, d.rawEnd)
	d.from = d.stop
}

// scan walks the stream once to find where it ends, how many events there
// are and the frame range. It records stream-level diagnostics.
func (d *decoder) scan() {
	p := d.stop
	d.nEvents = 1
	minF, maxF := int64(math.MaxInt64), int64(math.MinInt64)
	frameEvents := 0
	firstFrame, haveFirst := int64(0), false
	runs, lastF := 0, int64(math.MinInt64)
	// A problem inside a frame's data belongs to that frame: the frame the
	// stream was in (or the one a cut event names), resolved to a timeline
	// index once the frames are numbered, so the timeline marks it and `e`
	// goes there.
	type inFrame struct {
		diag  int
		frame int64
	}
	var pending []inFrame
	defer func() {
		for _, pf := range pending {
			d.r.Diagnostics[pf.diag].Frame = d.frameIndex(pf.frame)
		}
	}()
	atFrame := func(p int, c byte) {
		f, ok := lastF, lastF != math.MinInt64
		if hasFrame(c) && d.rawEnd-p >= 5 {
			f, ok = int64(int32(binary.BigEndian.Uint32(d.data[p+1:]))), true
		}
		if ok && len(d.r.Diagnostics) > 0 {
			pending = append(pending, inFrame{len(d.r.Diagnostics) - 1, f})
		}
	}
	for p < d.rawEnd {
		c := d.data[p]
		sz := d.size[c]
		if sz < 0 {
			if d.rawLen == 0 && bytes.HasPrefix(d.data[p:], metadataKey) {
				break // the metadata that follows a stream still marked as in progress
			}
			d.diag(model.Error, p, 1, fmt.Sprintf("event 0x%02x", c), "not in Event Payloads; the event stream cannot continue", "a listed event code", fmt.Sprintf("0x%02x", c))
			atFrame(p, 0)
			break
		}
		n := 1 + int(sz)
		if n > d.rawEnd-p {
			d.diag(model.Error, p, d.rawEnd-p, fmt.Sprintf("event 0x%02x", c), "cut off: "+nameOrCode(c)+" runs past the end of the data",
				fmt.Sprintf("%d bytes", n), fmt.Sprintf("%d bytes", d.rawEnd-p))
			atFrame(p, c)
			// kept as a partial event, with the fields that fit
			d.cutAt, d.cutSize = p, n
			d.nEvents++
			break
		}
		if hasFrame(c) && n >= 5 {
			f := int64(int32(binary.BigEndian.Uint32(d.data[p+1:])))
			if !haveFirst && (c == cmdPre || c == cmdPost) {
				firstFrame, haveFirst = f, true
			}
			minF = min(minF, f)
			maxF = max(maxF, f)
			frameEvents++
			if f != lastF || c == cmdFrame {
				runs++
			}
			lastF = f
			if (c == cmdPre || c == cmdPost) && n >= 7 && d.data[p+6] != 0 {
				d.followers = true
			}
		}
		switch c {
		case cmdStart:
			if d.startOff < 0 {
				d.startOff = p
			} else {
				d.diag(model.Warning, p, n, "event 0x36", "a second Game Start; the first one is used", "", "")
				atFrame(p, c)
			}
		case cmdEnd:
			d.endOff = p
			d.endCount++
		}
		d.nEvents++
		p += n
		if c == cmdEnd && d.rawLen == 0 && (p >= len(d.data) || bytes.HasPrefix(d.data[p:], metadataKey)) {
			break
		}
	}
	d.stop = p
	if d.rawLen != 0 && p < d.rawEnd {
		// the rest of the raw element was not decoded
		d.r.Partial = true
	}
	if frameEvents == 0 {
		d.first, d.count = -123, 1
		return
	}
	span := maxF - minF + 1
	if int64(runs) > 2*span+16 {
		// Frame numbers that do not advance (training mode repeats one
		// number for the whole game): number frames by arrival instead.
		d.sequential = true
		d.first, d.count = 0, runs
		d.seqFrame = firstFrame
		if !haveFirst {
			d.seqFrame = minF
		}
		d.diag(model.Info, d.rawStart, 0, "frame numbers", fmt.Sprintf("do not advance (%d frames sent under %d frame numbers, as in training mode); frames are numbered in the order they arrive", runs, span), "", "")
		return
	}
	// A real stream has at least one event per frame; a span far beyond the
	// number of frame events comes from damaged frame numbers. Anchor on
	// the first frame seen instead of allocating for the damage.
	if limit := int64(2*frameEvents + 256); span > limit {
		d.diag(model.Error, d.rawStart, 0, "frame numbers", "span far more frames than there are frame events; frames outside the first plausible range are clamped",
			fmt.Sprintf("at most %d frames", limit), fmt.Sprintf("%d..%d", minF, maxF))
		if !haveFirst {
			firstFrame = minF
		}
		minF = max(minF, firstFrame-int64(frameEvents))
		maxF = min(maxF, firstFrame+int64(frameEvents))
		if maxF < minF {
			minF, maxF = firstFrame, firstFrame
		}
	}
	d.first, d.count = minF, int(maxF-minF+1)
}

// frameIndex is the timeline index of frame number f as the scan numbered
// the frames: clamped into the timeline (a cut event may name a frame that
// never completed: it belongs to the last one), the last frame when frames
// are numbered by arrival.
func (d *decoder) frameIndex(f int64) int {
	if d.count <= 0 {
		return -1
	}
	if d.sequential {
		return d.count - 1
	}
	return int(min(max(f-d.first, 0), int64(d.count-1)))
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
	p := d.rawEnd
	if d.rawLen == 0 {
		p = d.stop
	}
	if d.rawLen == 0 && !bytes.HasPrefix(d.data[p:], metadataKey) {
		return // a recording cut short: whatever follows is not metadata
	}
	if p >= len(d.data) {
		if d.rawLen != 0 && !d.r.Partial {
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
			d.r.Partial = true
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
			d.r.Partial = true
			return
		}
		p += used2
		if key == "metadata" {
			vv := v
			d.metadata = &vv
			d.readMeta(&vv)
		} else {
			d.r.Header = append(d.r.Header, d.ubjsonField(key, key, &v, int64(keyOff)))
		}
	}
	d.diag(model.Warning, len(d.data), 0, "trailer", "the top-level object is not closed", "}", "end of data")
	d.r.Partial = true
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
