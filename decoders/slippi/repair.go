package slippi

// Repair turns a Slippi recording that stopped (Dolphin crashed, a USB
// stick was pulled, the file was cut in a copy) into a file other tools
// open: the event stream cut at the last complete frame, the raw length
// set, a Game End appended and the metadata rebuilt. The old file is only
// read; the caller writes the new bytes elsewhere.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"rewind/decoders/internal/budget"
	"slices"
	"sort"
	"strings"
	"time"

	"rewind/decoders/ubjson"
	"rewind/model"
)

const (
	rawStart = 15 // the event stream starts after the header and its length
	// frameSlack is how far back a frame number may go from the highest
	// one seen: online games re-send at most maxRollback frames; the walk
	// allows a margin before it calls a frame number damage.
	frameSlack = 64
	// repairPasses bounds the cut-and-check loop: each pass cuts before
	// the first problem the decoder finds in the new file.
	repairPasses = 8
)

// walk is the event stream of a file as the repair sees it: every whole,
// plausible event from Event Payloads on, and why the stream ended.
type walk struct {
	data    []byte
	size    [256]int32
	payEnd  int     // end of Event Payloads
	rawLen  int64   // the declared length (0 while recording)
	offs    []int32 // offsets of the events after Event Payloads, in order
	stop    int     // where the walk stopped
	why     string  // why it stopped there; empty at the end of the data
	endIdx  int     // index in offs of the Game End, -1
	metaAt  int     // offset of the metadata key, -1
	version uint32
	ports   [maxSlots]bool // occupied ports (Game Start player type != 3)
	solo    bool           // a single-player mode: the game brings on fighters Game Start does not list
	listed  bool           // the players are those Game Start lists (the decoder's listedOnly)

	// frame updates of a port no player has (the decoder's badPort): not
	// in offs, and left out of the new file
	stray      []int32 // their offsets, in order
	strayBytes []int   // strayBytes[k]: the bytes of the first k of them
}

// repairErr is a file the repair cannot make whole.
func repairErr(format string, args ...any) error {
	return &model.RepairError{Source: source, Msg: fmt.Sprintf(format, args...)}
}

// Repair cuts a recording that stopped at its last complete frame, sets
// the raw length, appends a Game End and rebuilds the metadata. A file
// whose raw length, stream and metadata are whole needs no repair.
func Repair(data []byte, opt model.RepairOptions) (*model.Repaired, error) {
	w, err := walkStream(data)
	if err != nil {
		return nil, err
	}
	if why := w.whole(); why != "" {
		if r, err := Decode(data, model.DecodeOptions{}); err == nil && r.Problems() == 0 {
			n := w.frameCount(len(w.offs))
			return &model.Repaired{Whole: why, Frames: n, FramesIn: n}, nil
		}
	}
	keep := w.completeFrames(len(w.offs))
	var lastErr string
	for pass := 0; pass < repairPasses; pass++ {
		rep, out := w.build(keep, opt)
		r, err := Decode(out, model.DecodeOptions{})
		if err != nil {
			return nil, repairErr("the repaired file does not decode: %v", err)
		}
		first := -1
		for i, d := range r.Diagnostics {
			if d.Severity >= model.Warning && (first < 0 || d.Span.Off < r.Diagnostics[first].Span.Off) {
				first = i
			}
		}
		if first < 0 {
			rep.Data = out
			w.settings(rep, r)
			return rep, nil
		}
		d := r.Diagnostics[first]
		lastErr = d.String()
		startEnd := int64(w.offs[0]) + 1 + int64(w.size[cmdStart])
		if d.Span.Off < startEnd || keep == 0 {
			break // in the header, Event Payloads or Game Start: cutting frames cannot help
		}
		// The new file's stream is the old one's up to the cut, byte for
		// byte but for the stray updates: drop the event holding the
		// problem and what follows.
		n := sort.Search(keep, func(i int) bool { return w.end(i)-w.strayBefore(w.end(i)) > int(d.Span.Off) })
		if n >= keep {
			break // after the kept events: in what the repair wrote
		}
		keep = w.completeFrames(n)
	}
	return nil, repairErr("after cutting at the last complete frame the file still has a problem: %s", lastErr)
}

// walkStream reads Event Payloads and walks the events after it.
func walkStream(data []byte) (*walk, error) {
	if !bytes.HasPrefix(data, magic) {
		return nil, repairErr("%s", notSlippi(data))
	}
	if len(data) < rawStart+2 {
		return nil, repairErr("the file ends at %d bytes, before Event Payloads: there is no game to keep", len(data))
	}
	w := &walk{data: data, endIdx: -1, metaAt: -1, rawLen: int64(binary.BigEndian.Uint32(data[len(magic):])), strayBytes: []int{0}}
	for i := range w.size {
		w.size[i] = -1
	}
	if data[rawStart] != cmdPayloads {
		return nil, repairErr("the event stream does not start with Event Payloads (0x35) but 0x%02x: the sizes of the events are unknown", data[rawStart])
	}
	n := int(data[rawStart+1])
	w.payEnd = rawStart + 1 + n
	if w.payEnd > len(data) {
		return nil, repairErr("the file ends inside Event Payloads (%d of %d bytes): the sizes of the events are unknown", len(data)-rawStart, n+1)
	}
	for q := rawStart + 2; q+3 <= w.payEnd; q += 3 {
		w.size[data[q]] = int32(binary.BigEndian.Uint16(data[q+1:]))
	}
	w.size[cmdPayloads] = int32(n)
	for _, c := range []byte{cmdStart, cmdEnd} {
		if w.size[c] < 0 {
			return nil, repairErr("Event Payloads does not list %s (0x%02x), so the repair cannot write one", nameOrCode(c), c)
		}
	}
	if w.size[cmdStart] < 4 {
		return nil, repairErr("Event Payloads gives Game Start %d bytes, too few to hold a version", w.size[cmdStart])
	}
	w.run()
	if len(w.offs) == 0 || data[w.offs[0]] != cmdStart {
		what := "the file ends right after Event Payloads"
		if len(w.offs) > 0 {
			what = fmt.Sprintf("the first event is %s (0x%02x)", nameOrCode(data[w.offs[0]]), data[w.offs[0]])
		} else if w.why != "" {
			what = w.why
		}
		return nil, repairErr("no Game Start follows Event Payloads (%s): there is no game to keep", what)
	}
	return w, nil
}

// run walks the events after Event Payloads. It stops at the end of the
// data, the metadata, the first Game End, an event cut off, a byte that is
// no listed event, or an event that cannot be right (a frame number far
// from the frames around it, a follower flag past 1): the stream after
// damage cannot be trusted. A frame update of a port no player has is
// noted and passed over, as the decoder passes over it.
func (w *walk) run() {
	data := w.data
	p := w.payEnd
	hi, haveFrame := int64(0), false
	for p < len(data) {
		c := data[p]
		sz := w.size[c]
		if sz < 0 || c == cmdPayloads {
			if bytes.HasPrefix(data[p:], metadataKey) {
				w.metaAt = p
			} else {
				w.why = fmt.Sprintf("byte 0x%02x at %#x is no event listed in Event Payloads", c, p)
			}
			break
		}
		n := 1 + int(sz)
		if n > len(data)-p {
			w.why = fmt.Sprintf("%s at %#x is cut off (%d of %d bytes)", nameOrCode(c), p, len(data)-p, n)
			break
		}
		if why := w.implausible(p, n, hi, haveFrame); why != "" {
			w.why = why
			break
		}
		if (c == cmdPre || c == cmdPost) && n >= 7 && w.strayPort(data[p+5]) {
			// the decoder reads past it and gives it to no player: the
			// frames after it are whole
			w.stray = append(w.stray, int32(p))
			w.strayBytes = append(w.strayBytes, w.strayBytes[len(w.strayBytes)-1]+n)
			p += n
			continue
		}
		if hasFrame(c) && n >= 5 {
			f := int64(int32(be32(data[p+1:])))
			if !haveFrame || f > hi {
				hi, haveFrame = f, true
			}
		}
		if c == cmdStart {
			w.readStart(p, n)
		}
		if c == cmdEnd {
			// The last event: metadata or the end of the file follows it.
			// Anything else makes it damage, like a post-frame update
			// whose code lost a bit.
			q := p + n
			if q < len(data) && !bytes.HasPrefix(data[q:], metadataKey) {
				w.why = fmt.Sprintf("a Game End at %#x is followed by %s bytes that are no metadata: it is damage, not the end", p, model.FormatCount(int64(len(data)-q)))
				break
			}
			w.offs = append(w.offs, int32(p))
			w.endIdx = len(w.offs) - 1
			if q < len(data) {
				w.metaAt = q
			}
			p = q
			break
		}
		w.offs = append(w.offs, int32(p))
		p += n
	}
	w.stop = p
	// A stream damaged before its end may still have its metadata where
	// the raw length says.
	if w.metaAt < 0 && w.rawLen > 0 && int64(rawStart)+w.rawLen <= int64(len(data)) {
		if q := rawStart + int(w.rawLen); bytes.HasPrefix(data[q:], metadataKey) {
			w.metaAt = q
		}
	}
}

// implausible says why the event at p cannot be what the recorder wrote,
// or "" when it can.
func (w *walk) implausible(p, n int, hi int64, haveFrame bool) string {
	data := w.data
	c := data[p]
	first := len(w.offs) == 0
	switch {
	case first && c != cmdStart:
		return "" // reported by walkStream
	case !first && c == cmdStart:
		return fmt.Sprintf("a second Game Start at %#x", p)
	case hasFrame(c) && n >= 5 && haveFrame:
		f := int64(int32(be32(data[p+1:])))
		if f > hi+1 || f < hi-frameSlack {
			return fmt.Sprintf("%s at %#x has frame number %d, after frame %d", nameOrCode(c), p, f, hi)
		}
	}
	if (c == cmdPre || c == cmdPost) && n >= 7 {
		if follower := data[p+6]; follower > 1 {
			return fmt.Sprintf("%s at %#x has follower flag %d (0 or 1)", nameOrCode(c), p, follower)
		}
	}
	return ""
}

// strayPort reports whether a frame update naming port belongs to no
// player, as the decoder reads it: Melee has no such port (six counting
// Multi-Man Melee's enemies), or Game Start lists who played and not on it.
func (w *walk) strayPort(port byte) bool {
	return port >= maxSlots || w.listed && !w.ports[port]
}

// strayBefore is how many bytes of stray updates come before offset off.
func (w *walk) strayBefore(off int) int {
	k, _ := slices.BinarySearch(w.stray, int32(off))
	return w.strayBytes[k]
}

// copyKept appends the stream's bytes from..to to b without the stray
// updates.
func (w *walk) copyKept(b *bytes.Buffer, from, to int) {
	for _, s := range w.stray {
		at := int(s)
		if at < from {
			continue
		}
		if at >= to {
			break
		}
		b.Write(w.data[from:at])
		from = at + 1 + int(w.size[w.data[at]])
	}
	b.Write(w.data[from:to])
}

// readStart takes the version and the occupied ports from Game Start.
func (w *walk) readStart(p, n int) {
	ev := w.data[p : p+n]
	w.version = uint32(ev[1])<<16 | uint32(ev[2])<<8 | uint32(ev[3])
	for port := 0; port < 4; port++ {
		if at := 0x66 + 0x24*port; at < n {
			w.ports[port] = ev[at] != 3
		}
	}
	w.solo = soloScene(sceneOf(ev, w.version))
	w.listed = !w.solo && slices.Contains(w.ports[:4], true)
}

func (w *walk) end(i int) int {
	p := int(w.offs[i])
	return p + 1 + int(w.size[w.data[p]])
}

// frameOf returns the frame number of event i, if it has one.
func (w *walk) frameOf(i int) (int64, bool) {
	p := int(w.offs[i])
	c := w.data[p]
	if !hasFrame(c) || w.size[c] < 4 {
		return 0, false
	}
	return int64(int32(be32(w.data[p+1:]))), true
}

// whole says why the file needs no repair, or "" when it does.
func (w *walk) whole() string {
	if w.rawLen == 0 || int64(rawStart)+w.rawLen != int64(w.stop) || w.metaAt != w.stop {
		return ""
	}
	if _, end, ok := w.metadata(); !ok || end != len(w.data) {
		return ""
	}
	if w.endIdx >= 0 {
		return "the recording is complete: the raw length matches its events, it ends with Game End and the metadata reads; nothing to repair"
	}
	return "the recording is complete: the raw length matches its events and the metadata reads; nothing to repair. " +
		"It has no Game End, which Slippi leaves out of finished recordings in training mode and of some others (the spec's known bug); " +
		"the raw length and the metadata show the recorder closed the file, so no end is made up for it"
}

// completeFrames returns how many of the first n events to keep: up to the
// first Game End, or else up to the end of the last complete frame, and
// never an unfinished split message (the gecko list arrives in pieces).
func (w *walk) completeFrames(n int) int {
	if w.endIdx >= 0 && w.endIdx < n {
		return w.endIdx + 1
	}
	keep := w.lastFrameEnd(n)
	// an unfinished split message among the kept events goes too
	open := -1
	for i := 0; i < keep; i++ {
		p := int(w.offs[i])
		if w.data[p] != cmdSplit || w.size[cmdSplit] < 0x204 {
			continue
		}
		if open < 0 {
			open = i
		}
		if w.data[p+0x204] != 0 {
			open = -1
		}
	}
	if open >= 0 {
		keep = open
	}
	return max(keep, 1) // Game Start always stays
}

// lastFrameEnd is the number of events up to the end of the last complete
// frame among the first n. With bookends (3.0.0+) a frame is complete when
// its Frame Bookend arrived. Before them, a frame is complete when the
// stream moved on to another frame, or when every character that had a
// post-frame update in the frame before (for the first frame: every
// occupied port) has both its pre- and post-frame update (its post-frame
// update in a file without pre-frame updates).
func (w *walk) lastFrameEnd(n int) int {
	firstIdx := n
	for i := 0; i < n; i++ {
		if _, ok := w.frameOf(i); ok {
			firstIdx = i
			break
		}
	}
	if w.version >= v300 && w.size[cmdBookend] >= 0 {
		for i := n - 1; i >= firstIdx; i-- {
			if w.data[w.offs[i]] == cmdBookend {
				return i + 1
			}
		}
		return firstIdx // not even the first frame's bookend came
	}
	// runs of events with the same frame number; a Frame Start opens one
	type run struct {
		start     int
		pre, post uint16 // bit port*2+follower
	}
	var prev, cur run
	cur.start = -1
	num := int64(math.MinInt64)
	for i := firstIdx; i < n; i++ {
		f, ok := w.frameOf(i)
		if !ok {
			continue
		}
		c := w.data[w.offs[i]]
		if f != num || c == cmdFrame {
			if cur.start >= 0 {
				prev = cur
			}
			cur, num = run{start: i}, f
		}
		if (c == cmdPre || c == cmdPost) && w.size[c] >= 6 {
			p := int(w.offs[i])
			bit := uint16(1) << (w.data[p+5]*2 + w.data[p+6])
			if c == cmdPre {
				cur.pre |= bit
			} else {
				cur.post |= bit
			}
		}
	}
	if cur.start < 0 {
		return firstIdx
	}
	need := prev.post
	if prev.start == 0 && prev.post == 0 {
		for port := 0; port < 4; port++ {
			if w.ports[port] {
				need |= 1 << (port * 2)
			}
		}
	}
	// some 0.1.0 recordings list no pre-frame update in Event Payloads:
	// their frames are post-frame updates only
	postOnly := w.size[cmdPre] < 0
	if cur.pre&^cur.post == 0 && need&^cur.post == 0 && (postOnly || cur.post&^cur.pre == 0) {
		return n
	}
	return cur.start
}

// frameCount counts the distinct frame numbers among the first n events,
// as slippi-js counts the frames it holds.
func (w *walk) frameCount(n int) int {
	seen := map[int64]struct{}{}
	for i := 0; i < n; i++ {
		if f, ok := w.frameOf(i); ok {
			seen[f] = struct{}{}
		}
	}
	return len(seen)
}

// runs counts the frames sent among the first n events: a new frame
// number, or a Frame Start, opens one.
func (w *walk) runs(n int) int {
	runs, num := 0, int64(math.MinInt64)
	for i := 0; i < n; i++ {
		if f, ok := w.frameOf(i); ok {
			if f != num || w.data[w.offs[i]] == cmdFrame {
				runs++
			}
			num = f
		}
	}
	return runs
}

// lastUpdate returns the frame number of the last pre- or post-frame
// update among the first n events (slippi-js's lastFrame), and of the
// last post-frame update of a leader (what the recorder writes as the
// metadata's lastFrame).
func (w *walk) lastUpdate(n int) (update, leader int64, ok bool) {
	update, leader = -124, -124 // slippi-js's value before the first frame
	found := false
	for i := n - 1; i >= 0; i-- {
		p := int(w.offs[i])
		c := w.data[p]
		if c != cmdPre && c != cmdPost {
			continue
		}
		f, has := w.frameOf(i)
		if !has {
			continue
		}
		if !found {
			update, found = f, true
		}
		if c == cmdPost && w.size[c] >= 6 && w.data[p+6] == 0 {
			return update, f, true
		}
	}
	return update, leader, false
}

// build writes the repaired file from the first keep events.
func (w *walk) build(keep int, opt model.RepairOptions) (*model.Repaired, []byte) {
	data := w.data
	rep := &model.Repaired{FramesIn: w.frameCount(len(w.offs))}
	cut := w.end(keep - 1)
	ended := w.endIdx >= 0 && w.endIdx < keep

	var raw bytes.Buffer
	w.copyKept(&raw, rawStart, cut)
	var end []byte
	endAt := len(magic) + 4 + raw.Len() // where the new file has it
	if !ended {
		end = w.gameEnd()
		raw.Write(end)
	}
	meta, metaSteps := w.rebuildMetadata(keep, opt)

	out := make([]byte, 0, len(magic)+4+raw.Len()+len(meta)+1)
	out = append(out, magic...)
	out = binary.BigEndian.AppendUint32(out, uint32(raw.Len()))
	out = append(out, raw.Bytes()...)
	out = append(out, meta...)
	out = append(out, '}')

	// the report
	lastAny, _, _ := w.lastUpdate(keep)
	frames := w.frameCount(keep)
	rep.Frames = frames
	rep.Step(model.RepairKept, w.keptText(keep, frames, lastAny))
	w.strayStep(rep, cut)
	w.cutSteps(rep, keep, cut)
	if !ended {
		method, name, why := w.endMethod()
		rep.Step(model.RepairSynthesised, fmt.Sprintf("Game End (0x39, %d bytes) at %#x: method %d (%s), %s; LRAS initiator -1 (not applicable)%s",
			len(end), endAt, method, name, why, placementsText(len(end))))
		rep.Facts = append(rep.Facts, model.Field{Key: "gameEndMethod", Value: int64(method), Name: name})
	} else if p := int(w.offs[w.endIdx]); w.size[cmdEnd] >= 1 {
		m := int64(data[p+1])
		rep.Facts = append(rep.Facts, model.Field{Key: "gameEndMethod", Value: m, Name: endMethodName(m, w.version)})
	}
	rep.Steps = append(rep.Steps, metaSteps...)
	if w.rawLen != int64(raw.Len()) {
		rep.Step(model.RepairFixed, fmt.Sprintf("raw length %s -> %s", rawLenText(w.rawLen), model.FormatCount(int64(raw.Len()))))
	}
	// kept, cut, synthesised, fixed
	order := map[string]int{model.RepairKept: 0, model.RepairCut: 1, model.RepairSynthesised: 2, model.RepairFixed: 3}
	slices.SortStableFunc(rep.Steps, func(a, b model.RepairStep) int { return order[a.Action] - order[b.Action] })
	rep.Facts = append(rep.Facts,
		model.Field{Key: "frames", Value: int64(frames)},
		model.Field{Key: "lastFrame", Value: lastAny})
	return rep, out
}

func rawLenText(n int64) string {
	if n == 0 {
		return "0 (still recording)"
	}
	return model.FormatCount(n)
}

// keptText says which events and frames the new file keeps.
func (w *walk) keptText(keep, frames int, last int64) string {
	var parts []string
	parts = append(parts, fmt.Sprintf("Event Payloads, Game Start (version %s)", verString(w.version)))
	gecko := 0
	for i := 0; i < keep; i++ {
		if c := w.data[w.offs[i]]; c == cmdSplit || c == cmdGecko {
			gecko++
		}
	}
	if gecko > 0 {
		parts = append(parts, fmt.Sprintf("the gecko code list (%d %s)", gecko, plural(gecko, "piece")))
	}
	if frames == 0 {
		parts = append(parts, "no frame (the recording stopped before its first frame was complete)")
	} else {
		first := int64(math.MaxInt64)
		for i := 0; i < keep; i++ {
			if f, ok := w.frameOf(i); ok {
				first = min(first, f)
			}
		}
		if runs := w.runs(keep); runs > 2*frames+16 {
			// as the decoder says it: training mode repeats a frame number
			parts = append(parts, fmt.Sprintf("%s frames sent under %s frame %s from %d to %d, as in training mode (%s events)",
				model.FormatCount(int64(runs)), model.FormatCount(int64(frames)), plural(frames, "number"), first, last, model.FormatCount(int64(keep+1))))
		} else {
			parts = append(parts, fmt.Sprintf("frames %d..%d (%s %s, %s events)", first, last,
				model.FormatCount(int64(frames)), plural(frames, "frame"), model.FormatCount(int64(keep+1))))
		}
	}
	if w.endIdx >= 0 && w.endIdx < keep {
		parts = append(parts, "its Game End")
	}
	return strings.Join(parts, ", ")
}

// cutSteps reports the bytes of the old file the new one leaves out: the
// stream after the last complete frame (and why it ended there), and
// anything after the old metadata.
func (w *walk) cutSteps(rep *model.Repaired, keep, cut int) {
	streamEnd := len(w.data)
	if w.metaAt >= 0 && w.metaAt >= cut {
		streamEnd = w.metaAt
	}
	if n := streamEnd - cut; n > 0 {
		var what []string
		if d := w.droppedText(keep); d != "" {
			what = append(what, d)
		}
		if w.why != "" {
			what = append(what, "the stream ends there: "+w.why)
		} else if w.stop < streamEnd {
			what = append(what, fmt.Sprintf("%s bytes that are no events", model.FormatCount(int64(streamEnd-w.stop))))
		}
		rep.BytesCut += int64(n)
		rep.Step(model.RepairCut, fmt.Sprintf("%s %s of the event stream from %#x: %s", model.FormatCount(int64(n)), plural(n, "byte"), cut, strings.Join(what, "; ")))
	}
	if _, end, ok := w.metadata(); ok && end < len(w.data) {
		n := len(w.data) - end
		rep.BytesCut += int64(n)
		rep.Step(model.RepairCut, fmt.Sprintf("%s %s at %#x after the end of the file's UBJSON object", model.FormatCount(int64(n)), plural(n, "byte"), end))
	}
}

// strayStep reports the stray updates the new file leaves out of the
// stream it keeps.
func (w *walk) strayStep(rep *model.Repaired, cut int) {
	k, _ := slices.BinarySearch(w.stray, int32(cut))
	if k == 0 {
		return
	}
	var named [256]bool
	for _, at := range w.stray[:k] {
		named[w.data[at+5]] = true
	}
	var listed []string
	for port := 0; port < 4; port++ {
		if w.ports[port] {
			listed = append(listed, fmt.Sprintf("P%d", port+1))
		}
	}
	who := "Melee has four ports, six with Multi-Man Melee's enemies"
	if w.listed {
		who = "Game Start lists " + strings.Join(listed, ", ") + " in a game that is not single-player"
	}
	n := w.strayBytes[k]
	rep.BytesCut += int64(n)
	rep.Step(model.RepairCut, fmt.Sprintf("%d %s naming a port no player has (%s; %s), %s %s from %#x on: the decoder reads past them and gives them to no player",
		k, plural(k, "frame update"), portsText(&named), who, model.FormatCount(int64(n)), plural(n, "byte"), w.stray[0]))
}

// droppedText names the whole events after the cut: the pieces of an
// unfinished gecko list, the events of frames that did not complete.
func (w *walk) droppedText(keep int) string {
	gecko, other := 0, 0
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := keep; i < len(w.offs); i++ {
		if f, ok := w.frameOf(i); ok {
			lo, hi = min(lo, f), max(hi, f)
			continue
		}
		switch w.data[w.offs[i]] {
		case cmdSplit, cmdGecko:
			gecko++
		default:
			other++
		}
	}
	var parts []string
	if gecko > 0 {
		parts = append(parts, fmt.Sprintf("%d %s of a gecko code list that never finished", gecko, plural(gecko, "piece")))
	}
	switch {
	case lo > hi:
	case lo == hi:
		parts = append(parts, fmt.Sprintf("the events of frame %d, which never completed", lo))
	default:
		parts = append(parts, fmt.Sprintf("the events of frames %d..%d, the last of which never completed", lo, hi))
	}
	if other > 0 {
		parts = append(parts, fmt.Sprintf("%d other %s", other, plural(other, "event")))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// endMethod is the Game End method for a game that stopped without a
// result, from the spec's table for the file's version.
func (w *walk) endMethod() (method byte, name, why string) {
	if w.version < v200 {
		return 0, "Unresolved", "the 0.1.0 table's value for a game without a result, as this file is version " + verString(w.version)
	}
	return 7, "No Contest", "the 2.0.0 table's value for a game that ended without a result"
}

// gameEnd is a Game End event sized from Event Payloads.
func (w *walk) gameEnd() []byte {
	n := int(w.size[cmdEnd])
	ev := make([]byte, 1+n)
	ev[0] = cmdEnd
	method, _, _ := w.endMethod()
	if n >= 1 {
		ev[1] = method
	}
	if n >= 2 {
		ev[2] = 0xFF // LRAS initiator: -1, not applicable
	}
	for i := 3; i < 7 && i <= n; i++ {
		ev[i] = 0xFF // placement: -1, unknown
	}
	return ev
}

func placementsText(size int) string {
	if size >= 7 {
		return "; placements -1 (no one placed: the game was not decided)"
	}
	return ""
}

// metadata decodes the old metadata element; end is where the file's
// top-level object closes after it.
func (w *walk) metadata() (v *ubjson.Value, end int, ok bool) {
	if w.metaAt < 0 {
		return nil, 0, false
	}
	p := w.metaAt + len(metadataKey)
	// the repair's own read of the old metadata draws on a budget sized by
	// the file, like a decode
	val, used, err := ubjson.Decode(w.data[p:], int64(p), budget.New(int64(len(w.data)), model.Limits{}))
	if err != nil || val.Kind != ubjson.Object {
		return nil, 0, false
	}
	p += used
	if p >= len(w.data) || w.data[p] != '}' {
		return &val, 0, false
	}
	return &val, p + 1, true
}

// rebuildMetadata writes the metadata element for the first keep events:
// the old one as it is when the stream was kept whole and it reads,
// otherwise a new one with the old one's values where they still hold.
func (w *walk) rebuildMetadata(keep int, opt model.RepairOptions) ([]byte, []model.RepairStep) {
	old, oldEnd, oldOK := w.metadata()
	wholeStream := keep == len(w.offs) && w.endIdx == keep-1
	if oldOK && wholeStream {
		return w.data[w.metaAt : oldEnd-1], []model.RepairStep{{Action: model.RepairKept, Text: fmt.Sprintf("the metadata (%s bytes), as the recorder wrote it", model.FormatCount(int64(oldEnd-1-w.metaAt)))}}
	}
	var notes []string
	e := &ubjsonWriter{}
	e.raw(metadataKey)
	e.raw([]byte{'{'})

	// startAt
	switch s, ok := old.Get("startAt"); {
	case ok && s.Kind == ubjson.String:
		e.key("startAt")
		e.str(s.Str)
		notes = append(notes, "startAt "+s.Str+" (from the old metadata)")
	case !opt.ModTime.IsZero():
		d := w.recorded()
		t := opt.ModTime.Add(-d).UTC().Truncate(time.Second)
		e.key("startAt")
		e.str(t.Format("2006-01-02T15:04:05Z"))
		if d > 0 {
			notes = append(notes, fmt.Sprintf("startAt %s (estimated: the file's modification time minus the %s of frames it recorded)", t.Format("2006-01-02T15:04:05Z"), model.FormatDuration(d)))
		} else {
			notes = append(notes, fmt.Sprintf("startAt %s (estimated: the file's modification time, as it recorded no frame)", t.Format("2006-01-02T15:04:05Z")))
		}
	default:
		notes = append(notes, "no startAt (no metadata and no modification time to estimate it from)")
	}

	// lastFrame: the last leader's post-frame update, as recorders write it
	_, leader, _ := w.lastUpdate(keep)
	e.key("lastFrame")
	e.i32(int32(leader))
	notes = append(notes, fmt.Sprintf("lastFrame %d", leader))

	// players: characters from the post-frame updates, names from the old
	// metadata or Game Start
	counts := [maxSlots]map[int]int32{}
	for i := 0; i < keep; i++ {
		p := int(w.offs[i])
		if w.data[p] != cmdPost || w.size[cmdPost] < 7 {
			continue
		}
		port, ch := int(w.data[p+5]), int(w.data[p+7])
		if port < maxSlots {
			if counts[port] == nil {
				counts[port] = map[int]int32{}
			}
			counts[port][ch]++
		}
	}
	oldPlayers, _ := old.Get("players")
	var who []string
	counted := false
	e.key("players")
	e.raw([]byte{'{'})
	for port := 0; port < maxSlots; port++ {
		// the players Game Start lists, and the fighters a single-player
		// mode brought on (the recorder lists Multi-Man Melee's enemies)
		if !w.ports[port] && counts[port] == nil {
			continue
		}
		key := string(rune('0' + port))
		e.key(key)
		e.raw([]byte{'{'})
		e.key("names")
		netplay, code := w.names(port, oldPlayers)
		e.raw([]byte{'{'})
		if netplay != "" {
			e.key("netplay")
			e.str(netplay)
		}
		if code != "" {
			e.key("code")
			e.str(code)
		}
		e.raw([]byte{'}'})
		e.key("characters")
		e.raw([]byte{'{'})
		ids := make([]int, 0, len(counts[port]))
		for id := range counts[port] {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		var chars []string
		for _, id := range ids {
			e.key(fmt.Sprint(id))
			e.i32(counts[port][id])
			name := internalName(id)
			if name == "" {
				name = fmt.Sprintf("character %d", id)
			}
			chars = append(chars, fmt.Sprintf("%s %d", name, counts[port][id]))
		}
		e.raw([]byte{'}', '}'})
		s := fmt.Sprintf("P%d", port+1)
		if len(chars) > 0 {
			s += " " + strings.Join(chars, ", ")
			counted = true
		}
		if netplay != "" || code != "" {
			s += " " + strings.TrimSpace(netplay+" "+code)
		}
		who = append(who, s)
	}
	e.raw([]byte{'}'})
	switch {
	case len(who) > 0 && !counted:
		notes = append(notes, "players "+strings.Join(who, ", ")+" (no frame to count characters in)")
	case len(who) > 0:
		notes = append(notes, "players "+strings.Join(who, "; ")+" (frames per character)")
	}

	// playedOn, consoleNick and any other key: from the old metadata
	playedOn := false
	if old != nil {
		for i, k := range old.Keys {
			switch k {
			case "startAt", "lastFrame", "players":
				continue
			}
			e.key(k)
			e.value(&old.Vals[i])
			if k == "playedOn" && old.Vals[i].Kind == ubjson.String {
				playedOn = true
				notes = append(notes, "playedOn "+old.Vals[i].Str+" (from the old metadata)")
			}
		}
	}
	if !playedOn {
		if w.online() {
			e.key("playedOn")
			e.str("dolphin")
			notes = append(notes, "playedOn dolphin (an online game: Slippi Online runs only in Dolphin)")
		} else {
			notes = append(notes, "no playedOn (nothing in the stream says where the game was played)")
		}
	}
	e.raw([]byte{'}'})

	what := "metadata"
	switch {
	case old != nil && !oldOK:
		what = "metadata (the old one reads, but the file's UBJSON object does not close after it)"
	case old == nil && w.metaAt >= 0:
		what = fmt.Sprintf("metadata (the old one at %#x does not read)", w.metaAt)
	case old == nil:
		what = "metadata (the file had none)"
	}
	return e.b, []model.RepairStep{{Action: model.RepairSynthesised, Text: what + ": " + strings.Join(notes, ", ")}}
}

// recorded is how long the whole stream, damaged part included, ran:
// from its first frame number to its last at 60 frames a second, or the
// frames sent when the numbers do not advance (training mode).
func (w *walk) recorded() time.Duration {
	n := len(w.offs)
	first, last, have := int64(0), int64(0), false
	for i := 0; i < n; i++ {
		if f, ok := w.frameOf(i); ok {
			if !have {
				first, have = f, true
			}
			last = f
		}
	}
	if !have {
		return 0
	}
	frames := last - first
	if runs, distinct := w.runs(n), w.frameCount(n); runs > 2*distinct+16 {
		frames = int64(runs - 1)
	}
	return time.Duration(max(frames, 0)) * time.Second / 60
}

// names returns a port's display name and connect code: from the old
// metadata when it has them, else from Game Start (3.9.0+).
func (w *walk) names(port int, oldPlayers *ubjson.Value) (netplay, code string) {
	if pl, ok := oldPlayers.Get(string(rune('0' + port))); ok {
		if names, ok := pl.Get("names"); ok {
			if s, ok := names.Get("netplay"); ok && s.Kind == ubjson.String {
				netplay = s.Str
			}
			if s, ok := names.Get("code"); ok && s.Kind == ubjson.String {
				code = s.Str
			}
			return netplay, code
		}
	}
	if w.version < ver(3, 9, 0) || port >= 4 {
		return "", ""
	}
	ev := w.data[w.offs[0] : int(w.offs[0])+1+int(w.size[cmdStart])]
	if at := 0x1A5 + 0x1F*port; at+0x1F <= len(ev) {
		netplay = sjis(ev[at : at+0x1F])
	}
	if at := 0x221 + 0xA*port; at+0xA <= len(ev) {
		code = sjis(ev[at : at+0xA])
	}
	return netplay, code
}

// online reports whether Game Start says the game was played on Slippi
// Online (major scene 8, 3.7.0+).
func (w *walk) online() bool {
	ev := w.data[w.offs[0] : int(w.offs[0])+1+int(w.size[cmdStart])]
	return w.version >= v370 && len(ev) > 0x1A4 && ev[0x1A4] == 8
}

// settings adds what the decoder reads from the repaired file to the
// report: the game it holds.
func (w *walk) settings(rep *model.Repaired, r *model.Replay) {
	var who []string
	for _, p := range r.Players {
		s := p.Slot
		if p.Character != "" {
			s += " " + p.Character
		}
		who = append(who, s)
	}
	game := strings.Join(who, " vs ")
	if r.Title != "" {
		game += " on " + r.Title
	}
	if game != "" {
		rep.Steps[0].Text = strings.Replace(rep.Steps[0].Text, "Game Start (version "+verString(w.version)+")",
			"Game Start (version "+verString(w.version)+": "+game+")", 1)
	}
}

// ubjsonWriter writes the metadata's UBJSON the way Slippi's recorders
// do: keys and strings with a uint8 length when it fits, numbers as int32.
type ubjsonWriter struct{ b []byte }

func (e *ubjsonWriter) raw(b []byte) { e.b = append(e.b, b...) }

func (e *ubjsonWriter) length(n int) {
	if n < 256 {
		e.b = append(e.b, 'U', byte(n))
		return
	}
	e.b = append(e.b, 'l')
	e.b = binary.BigEndian.AppendUint32(e.b, uint32(n))
}

func (e *ubjsonWriter) key(k string) {
	e.length(len(k))
	e.b = append(e.b, k...)
}

func (e *ubjsonWriter) str(s string) {
	e.b = append(e.b, 'S')
	e.key(s)
}

func (e *ubjsonWriter) i32(v int32) {
	e.b = append(e.b, 'l')
	e.b = binary.BigEndian.AppendUint32(e.b, uint32(v))
}

// value writes a value read from old metadata.
func (e *ubjsonWriter) value(v *ubjson.Value) {
	switch v.Kind {
	case ubjson.Null:
		e.b = append(e.b, 'Z')
	case ubjson.Bool:
		if v.Bool {
			e.b = append(e.b, 'T')
		} else {
			e.b = append(e.b, 'F')
		}
	case ubjson.Int:
		if v.Int >= math.MinInt32 && v.Int <= math.MaxInt32 {
			e.i32(int32(v.Int))
		} else {
			e.b = append(e.b, 'L')
			e.b = binary.BigEndian.AppendUint64(e.b, uint64(v.Int))
		}
	case ubjson.Float:
		e.b = append(e.b, 'D')
		e.b = binary.BigEndian.AppendUint64(e.b, math.Float64bits(v.Float))
	case ubjson.String, ubjson.Char:
		e.str(v.Str)
	case ubjson.HighPrecision:
		e.b = append(e.b, 'H')
		e.key(v.Str)
	case ubjson.Bytes:
		e.b = append(e.b, '[', '$', 'U', '#')
		e.length(len(v.Raw))
		e.b = append(e.b, v.Raw...)
	case ubjson.Array:
		e.b = append(e.b, '[')
		for i := range v.Items {
			e.value(&v.Items[i])
		}
		e.b = append(e.b, ']')
	case ubjson.Object:
		e.b = append(e.b, '{')
		for i, k := range v.Keys {
			e.key(k)
			e.value(&v.Vals[i])
		}
		e.b = append(e.b, '}')
	default:
		e.b = append(e.b, 'Z')
	}
}
