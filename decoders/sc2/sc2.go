// Package sc2 decodes StarCraft II replays (.SC2Replay): MPQ archives of versioned and bit-packed streams.
//
// What is read, by stream:
//   - the MPQ user data: the replay header (version, base build, elapsed
//     game loops), with the archive header and tables shown as fields;
//   - replay.details (versioned): players, map, time, expansion; the
//     .backup copy stands in for anonymized replays;
//   - replay.attributes.events: speed, mode, player types, races, teams;
//   - replay.initData, replay.game.events and replay.message.events
//     (bit-packed): read with the table of the file's base build
//     (package protocol, generated from Blizzard's tables of 91 builds);
//     a build without a table, or whose table does not read the stream to
//     its last byte, takes the nearest table that does, stream by stream;
//   - replay.tracker.events (versioned, base build 24944 and later): every
//     event type, per-loop player state, unit positions for the stage view.
//
// Commands and selections name abilities and units with the tables of
// package names. Streams are decompressed when something reads them: the
// ones above while decoding, in parallel; the others (smartcam, sync,
// the battle lobby) only when the hex view asks (Replay.LoadStream). The
// whole decode draws on one budget sized by the file.
package sc2

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"rewind/decoders/internal/budget"
	"rewind/decoders/sc2/mpq"
	"rewind/decoders/sc2/names"
	"rewind/decoders/sc2/versioned"
	"rewind/model"
)

const source = "sc2"

// Inner files.
const (
	fDetails    = "replay.details"
	fBackup     = "replay.details.backup"
	fAttributes = "replay.attributes.events"
	fTracker    = "replay.tracker.events"
	fMessages   = "replay.message.events"
	fGame       = "replay.game.events"
	fInit       = "replay.initData"
	fInitBackup = "replay.initData.backup"
	fListfile   = "(listfile)"
	// fArcAttributes is the archive's own attributes member (checksums and
	// times of the other members), not the game's attributes.
	fArcAttributes = "(attributes)"
)

// knownFiles are found even when the listfile is missing or lists fewer.
var knownFiles = []string{fDetails, fBackup, fAttributes, fInit, fInitBackup, fGame, fMessages, fTracker,
	"replay.sync.events", "replay.sync.history", "replay.load.info", "replay.smartcam.events",
	"replay.resumable.events", "replay.server.battlelobby", "replay.gamemetadata.json", fListfile, fArcAttributes}

type decoder struct {
	r    *model.Replay
	opt  model.DecodeOptions
	b    *budget.Budget
	arc  *mpq.Archive
	st   *streams
	data []byte

	build, baseBuild int
	loops            int // the header's elapsed game loops (the timeline's last frame)
	hasLoops         bool
	scaledTime       bool    // m_useScaledTime: the client showed real time
	speed            string  // "Faster"
	rate             float64 // loops per real second
	expansion        string  // "WoL", "HotS", "LotV" from replay.details
	names            *names.Table

	// initStream is the lobby's member: replay.initData, or the backup
	// an anonymizer left
	initStream string

	players  []playerInfo
	attrs    []attribute
	slotToPl map[int]int // tracker player id -> player index
	userToPl map[int]int // lobby user id -> player index
	// occupiedToPl replaces userToPl for the game and message events of
	// builds before 24247 (Wings of Liberty, Heart of the Swarm's beta),
	// which number their senders by occupied lobby slot; nil otherwise.
	occupiedToPl map[int]int

	// what each stream decoded (in parallel), merged by merge
	init *initResult
	game *gameStream
	msgs *msgStream
	tr   *tracker

	mapW, mapH int64 // from replay.initData

	progressMu   sync.Mutex
	progressDone int64

	budgetMu    sync.Mutex
	budgetSpans map[string]model.Span // where each stream ran into the budget

	// analyzed says the replay's whole analysis was asked for: a summary
	// is then made from it rather than from a lean walk of its own
	analyzed atomic.Bool

	// what summaries name, worked out once: command texts by ability link
	// and command index, unit titles by unit link (maps, not sync.Maps,
	// whose keys are boxed: an allocation a lookup)
	namesMu   sync.RWMutex
	commands  map[[2]int64]commandText
	unitNames map[int64]string
}

// Decode reads a whole file. It returns nil and an error only when the
// file cannot be read at all; damage after a readable start gives a partial
// replay with diagnostics.
func Decode(data []byte, opt model.DecodeOptions) (*model.Replay, error) {
	d, err := decode(data, opt)
	if err != nil {
		return nil, err
	}
	return d.r, nil
}

// decode is Decode, keeping the decoder (tests look at its streams).
func decode(data []byte, opt model.DecodeOptions) (*decoder, error) {
	d := &decoder{data: data, opt: opt, speed: "Faster", b: budget.New(int64(len(data)), opt.Limits),
		userToPl: map[int]int{}, slotToPl: map[int]int{}, initStream: fInit}
	r := &model.Replay{Format: ID, FormatName: "StarCraft II replay", Size: int64(len(data))}
	d.r = r
	defer mpq.Hold()()
	arc, err := mpq.Open(data, d.b)
	if arc == nil {
		return nil, &model.FormatError{Source: source, Off: errOff(err), Msg: "not an MPQ archive: " + errMsg(err)}
	}
	d.arc = arc
	// a check reads its streams in less memory, at some cost in time
	// when it runs alone (a one-file check; a scan of many is unaffected)
	arc.Lean = opt.NoEvents
	d.headerFields()
	for _, w := range arc.Warnings {
		d.diag(model.Warning, model.Span{Off: w.Off}, "archive header", w.Msg, "", "", false)
	}
	if err != nil {
		r.Partial = true
		e, _ := err.(*mpq.Error)
		sp := model.Span{Off: errOff(err)}
		subj := "archive"
		if e != nil && e.File != "" {
			subj = e.File
		}
		d.diag(model.Error, sp, subj, errMsg(err), "", "", false)
	}
	d.archiveFields()
	r.Streams = map[string][]byte{}
	if err == nil {
		d.readArchive()
	}
	if !d.opt.HeaderOnly {
		d.regions(d.memberNames())
	}
	d.finish()
	return d, nil
}

// limit is the most loops a timeline may have: a header that claims more
// than the file's size can plausibly hold is corrupt (real replays hold far
// more than a byte per 64 loops).
func (d *decoder) limit() int { return 100000 + 64*len(d.data) }

func errOff(err error) int64 {
	if e, ok := err.(*mpq.Error); ok {
		return e.Off
	}
	return 0
}

func errMsg(err error) string {
	if e, ok := err.(*mpq.Error); ok {
		return e.Msg
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// diagnostic makes a diagnostic of this decoder.
func diagnostic(sev model.Severity, sp model.Span, subject, msg, expected, found string) model.Diagnostic {
	return model.Diagnostic{Severity: sev, Source: source, Span: sp, Frame: -1,
		Subject: subject, Message: msg, Expected: expected, Found: found}
}

// diag records a diagnostic; only the decoding goroutine calls it (stream
// tasks collect theirs and readArchive merges them in order).
func (d *decoder) diag(sev model.Severity, sp model.Span, subject, msg, expected, found string, skipped bool) {
	// An offset always lies inside the bytes it refers to.
	if sp.Stream == "" && sp.Off > int64(len(d.data)) {
		sp.Off, sp.Len = int64(len(d.data)), 0
	}
	dg := diagnostic(sev, sp, subject, msg, expected, found)
	dg.Skipped = skipped
	d.r.Diagnostics = append(d.r.Diagnostics, dg)
}

// budgetHit reports whether the decode budget is exhausted and, when it
// is, remembers where a stream ran into it: the diagnostic that says which
// count asked for how much is placed there (see budgetDiagnostic).
func (d *decoder) budgetHit(sp model.Span) bool {
	if !d.b.Exhausted() {
		return false
	}
	d.budgetMu.Lock()
	defer d.budgetMu.Unlock()
	if d.budgetSpans == nil {
		d.budgetSpans = map[string]model.Span{}
	}
	if _, ok := d.budgetSpans[sp.Stream]; !ok {
		d.budgetSpans[sp.Stream] = sp
	}
	return true
}

// budgetDiagnostic records the budget's refusal once, at the span of the
// stream its claim names ("replay.details: players" -> replay.details).
func (d *decoder) budgetDiagnostic() {
	e := d.b.Err()
	if e == nil {
		return
	}
	d.r.Partial = true
	stream, _, _ := strings.Cut(e.What, ":")
	if strings.HasPrefix(stream, "replay header") {
		stream = ""
	}
	sp, ok := d.budgetSpans[stream]
	if !ok {
		sp = model.Span{Stream: stream}
		if stream != "" && !d.st.has(stream) {
			sp = model.Span{}
		}
	}
	d.r.Diagnostics = append(d.r.Diagnostics, d.b.Diagnostic(source, sp, -1))
}

// headerFields decodes the user data: the MPQ sizes and the replay header
// (a versioned struct) inside it.
func (d *decoder) headerFields() {
	u := d.arc.UserData
	if u == nil {
		d.diag(model.Error, model.Span{}, "user data", "archive has no user data block, so no replay header", "MPQ\\x1b", "MPQ\\x1a", false)
		return
	}
	g := model.Field{Key: "userData", Label: "MPQ user data", Span: model.Span{Off: 0, Len: 16 + int64(len(u.Content))}}
	g.Fields = append(g.Fields,
		model.Field{Key: "userDataSize", Label: "User data size", Value: uint64(u.Size), Span: model.Span{Off: 4, Len: 4}},
		model.Field{Key: "headerOffset", Label: "Archive header offset", Value: uint64(u.HeaderOffset), Span: model.Span{Off: 8, Len: 4}},
		model.Field{Key: "userDataHeaderSize", Label: "User data header size", Value: uint64(u.ContentSize), Span: model.Span{Off: 12, Len: 4}},
	)
	d.r.Header = append(d.r.Header, g)
	dec := versioned.NewDecoder(u.Content)
	dec.Budget, dec.What = d.b, "replay header"
	v, err := dec.Value()
	h := model.Field{Key: "replayHeader", Label: "Replay header", Span: model.Span{Off: 16, Len: int64(len(u.Content))}}
	sp := func(x *versioned.Value) model.Span {
		return model.Span{Off: 16 + int64(x.Off), Len: int64(x.End - x.Off)}
	}
	if x, ok := v.Get(0); ok && x.Kind == versioned.Blob {
		h.Fields = append(h.Fields, model.Field{Key: "signature", Label: "m_signature", Value: strings.TrimRight(string(x.Bytes), "\x00"), Span: sp(x)})
	}
	if ver, ok := v.Get(1); ok {
		n := func(tag int64) int64 { x, _ := ver.IntOf(tag); return x }
		vs := fmt.Sprintf("%d.%d.%d.%d", n(1), n(2), n(3), n(4))
		d.r.Version = vs
		d.build, d.baseBuild = int(n(4)), int(n(5))
		h.Fields = append(h.Fields, model.Field{Key: "version", Label: "m_version", Value: vs, Span: sp(ver), Fields: []model.Field{
			d.intField(ver, 0, "flags", "m_flags", 16),
			d.intField(ver, 1, "major", "m_major", 16),
			d.intField(ver, 2, "minor", "m_minor", 16),
			d.intField(ver, 3, "revision", "m_revision", 16),
			d.intField(ver, 4, "build", "m_build", 16),
			d.intField(ver, 5, "baseBuild", "m_baseBuild", 16),
		}})
	}
	h.Fields = append(h.Fields, d.intField(&v, 2, "type", "m_type", 16))
	if x, ok := v.IntOf(3); ok {
		f := d.intField(&v, 3, "elapsedGameLoops", "m_elapsedGameLoops", 16)
		h.Fields = append(h.Fields, f)
		d.setLoops(x, f.Span)
	}
	if s, ok := v.IntOf(4); ok {
		// The client counted real time (loops / 22.4 on Faster) where this
		// is set; before (Wings of Liberty, Heart of the Swarm) it showed
		// game time, loops / 16.
		d.scaledTime = s != 0
		h.Fields = append(h.Fields, d.intField(&v, 4, "useScaledTime", "m_useScaledTime", 16))
	}
	if _, ok := v.Get(6); ok {
		h.Fields = append(h.Fields, d.intField(&v, 6, "dataBuildNum", "m_dataBuildNum", 16))
	}
	d.r.Header = append(d.r.Header, h)
	if err != nil && !d.budgetHit(model.Span{Off: 16}) {
		d.r.Partial = true
		e, _ := err.(*versioned.Error)
		off := int64(16)
		if e != nil {
			off += int64(e.Off)
		}
		d.diag(model.Error, model.Span{Off: off}, "replay header", err.Error(), "", "", false)
	}
}

// intField makes a field of a struct member; base is added to offsets (16
// for the user data in the file, 0 inside an inner stream).
func (d *decoder) intField(v *versioned.Value, tag int64, key, label string, base int64) model.Field {
	f := model.Field{Key: key, Label: label}
	x, ok := v.Get(tag)
	if !ok {
		return f
	}
	f.Span = model.Span{Off: base + int64(x.Off), Len: int64(x.End - x.Off)}
	if n, ok := v.IntOf(tag); ok {
		f.Value = n
	}
	return f
}

func (d *decoder) archiveFields() {
	a := d.arc
	if a.Header.HeaderSize == 0 {
		return
	}
	h := &a.Header
	o := a.Offset
	g := model.Field{Key: "archiveHeader", Label: "MPQ archive header", Span: model.Span{Off: o, Len: int64(h.HeaderSize)}}
	add := func(key, label string, v uint64, off, n int64) {
		g.Fields = append(g.Fields, model.Field{Key: key, Label: label, Value: v, Span: model.Span{Off: o + off, Len: n}})
	}
	add("headerSize", "Header size", uint64(h.HeaderSize), 4, 4)
	add("archiveSize", "Archive size", uint64(h.ArchiveSize), 8, 4)
	g.Fields = append(g.Fields, model.Field{Key: "formatVersion", Label: "Format version", Value: uint64(h.FormatVersion),
		Name: fmt.Sprintf("version %d", h.FormatVersionName()), Span: model.Span{Off: o + 12, Len: 2}})
	g.Fields = append(g.Fields, model.Field{Key: "sectorSizeShift", Label: "Sector size shift", Value: uint64(h.SectorSizeShift),
		Name: fmt.Sprintf("%d-byte sectors", h.SectorSize()), Span: model.Span{Off: o + 14, Len: 2}})
	add("hashTableOffset", "Hash table offset", uint64(h.HashTableOffset), 16, 4)
	add("blockTableOffset", "Block table offset", uint64(h.BlockTableOffset), 20, 4)
	add("hashTableEntries", "Hash table entries", uint64(h.HashTableEntries), 24, 4)
	add("blockTableEntries", "Block table entries", uint64(h.BlockTableEntries), 28, 4)
	if h.FormatVersion >= 1 {
		add("hiBlockTableOffset", "Hi-block table offset", h.HiBlockTableOffset, 32, 8)
		add("hashTableOffsetHi", "Hash table offset high", uint64(h.HashTableOffsetHi), 40, 2)
		add("blockTableOffsetHi", "Block table offset high", uint64(h.BlockTableOffsetHi), 42, 2)
	}
	if h.FormatVersion >= 2 {
		add("archiveSize64", "Archive size (64-bit)", h.ArchiveSize64, 44, 8)
		add("betTableOffset", "BET table offset", h.BETTableOffset, 52, 8)
		add("hetTableOffset", "HET table offset", h.HETTableOffset, 60, 8)
	}
	if h.FormatVersion >= 3 {
		add("hashTableSize64", "Hash table size (64-bit)", h.HashTableSize64, 68, 8)
		add("blockTableSize64", "Block table size (64-bit)", h.BlockTableSize64, 76, 8)
		add("rawChunkSize", "Raw chunk size", uint64(h.RawChunkSize), 104, 4)
	}
	d.r.Header = append(d.r.Header, g)
}

// readArchive lists the files and decodes each stream. Files are

// setLoops takes the header's game length: the timeline has a frame per
// loop, so the length is first held to what the file's size can hold and
// then paid from the budget.
func (d *decoder) setLoops(n int64, sp model.Span) {
	if n < 0 {
		d.diag(model.Error, sp, "replay header", "negative elapsed game loops", "0 or more", fmt.Sprint(n), false)
		d.r.Partial = true
		return
	}
	if n > int64(d.limit()) {
		d.diag(model.Error, sp, "replay header", "elapsed game loops implausibly large for the file's size; timeline capped",
			fmt.Sprintf("at most %d", d.limit()), fmt.Sprint(n), false)
		d.r.Partial = true
		n = int64(d.limit())
	}
	if err := d.b.Items("replay header: elapsed game loops (timeline frames)", n+1, 8); err != nil {
		d.budgetHit(sp)
		return
	}
	d.loops, d.hasLoops = int(n), true
}

// readArchive lists the files and decodes the streams. Files are
// independent: a broken one leaves the others readable.
func (d *decoder) readArchive() {
	a := d.arc
	// Header-only decoding (the browser's listing) skips the listfile: the
	// known names find the files, and details give the team format.
	var listed []string
	if !d.opt.HeaderOnly {
		var err error
		listed, err = a.Files()
		if err != nil {
			d.diag(model.Warning, model.Span{Off: errOff(err)}, fListfile, errMsg(err), "", "", false)
		}
	}
	seen := map[string]bool{}
	all := []string{}
	for _, n := range append(listed, knownFiles...) {
		if !seen[n] && a.FindBlock(n) >= 0 {
			seen[n] = true
			all = append(all, n)
		}
	}
	files := model.Field{Key: "files", Label: "Files", Span: model.Span{Off: a.BlockTableAt, Len: int64(len(a.Block)) * 16}}
	for _, n := range all {
		if d.opt.HeaderOnly {
			break // a listing shows no member table
		}
		bi := a.FindBlock(n)
		b := a.Block[bi]
		at := a.BlockAt(bi)
		f := model.Field{Key: fileKey(n), Label: n, Value: uint64(b.FileSize), Name: fmt.Sprintf("%d bytes", b.FileSize),
			Span: model.Span{Off: at, Len: int64(b.CompressedSize)}}
		f.Fields = []model.Field{
			{Key: "blockIndex", Label: "Block index", Value: int64(bi)},
			{Key: "offset", Label: "Offset", Value: uint64(b.Offset), Span: model.Span{Off: a.BlockTableAt + int64(bi)*16, Len: 4}},
			{Key: "compressedSize", Label: "Compressed size", Value: uint64(b.CompressedSize), Span: model.Span{Off: a.BlockTableAt + int64(bi)*16 + 4, Len: 4}},
			{Key: "fileSize", Label: "File size", Value: uint64(b.FileSize), Span: model.Span{Off: a.BlockTableAt + int64(bi)*16 + 8, Len: 4}},
			{Key: "flags", Label: "Flags", Value: uint64(b.Flags), Name: flagNames(b.Flags), Span: model.Span{Off: a.BlockTableAt + int64(bi)*16 + 12, Len: 4}},
		}
		files.Fields = append(files.Fields, f)
	}
	d.r.Header = append(d.r.Header, files)
	d.st = newStreams(a, all)
	if !d.st.has(fInit) && d.st.has(fInitBackup) {
		d.initStream = fInitBackup // the lobby an anonymizer left
	}
	if !d.opt.HeaderOnly {
		d.r.LoadStream = d.st.load
	}

	// details, or the backup an anonymizer left
	var diags []model.Diagnostic
	det, ok := d.read(fDetails, &diags)
	name := fDetails
	if !ok || len(det) == 0 {
		if b, ok2 := d.read(fBackup, &diags); ok2 && len(b) > 0 {
			det, name, ok = b, fBackup, true
			diags = append(diags, diagnostic(model.Info, model.Span{Stream: fBackup}, fDetails, "missing; using replay.details.backup (anonymized replay)", "", ""))
		}
	}
	d.r.Diagnostics = append(d.r.Diagnostics, diags...)
	if ok && len(det) > 0 {
		d.keep(name, det)
		d.details(name, det)
	} else {
		d.r.Partial = true
		d.diag(model.Error, model.Span{}, fDetails, "not in the archive: no players or map", "", "", false)
	}
	// attributes name the teams and the game mode ("1v1 Faster ladder"): a
	// header needs them, and the member is small
	diags = diags[:0]
	if b, ok := d.read(fAttributes, &diags); ok {
		d.keep(fAttributes, b)
		d.attributes(b)
	}
	d.r.Diagnostics = append(d.r.Diagnostics, diags...)
	if d.opt.HeaderOnly {
		d.headerGameHeart()
		d.r.Partial = true
		return
	}
	d.names = names.Pick(d.expansionOrGuess(), d.baseBuild)

	// The bit-packed and tracker streams are independent: each is
	// decompressed and decoded into its own result and diagnostics,
	// merged afterwards in a fixed order.
	type task struct {
		stream string
		run    func(b []byte, out *[]model.Diagnostic)
		diags  []model.Diagnostic
		data   []byte
	}
	if d.initStream == fInitBackup {
		d.r.Diagnostics = append(d.r.Diagnostics, diagnostic(model.Info, model.Span{Stream: fInitBackup}, fInit,
			"missing; using replay.initData.backup (anonymized replay)", "", ""))
	}
	tasks := []*task{
		{stream: d.initStream, run: d.decodeInit},
		{stream: fTracker, run: func(b []byte, out *[]model.Diagnostic) {
			d.gameHeartLobby(b)
			d.decodeTracker(b, out)
		}},
		{stream: fMessages, run: d.decodeMessages},
		{stream: fGame, run: func(b []byte, out *[]model.Diagnostic) {
			d.decodeGame(b, out)
			d.noteUnnamedCommands(out)
		}},
	}
	// The members nothing decodes (the battle lobby, the sync and smartcam
	// events, the game metadata) are read too, last: damage in them is
	// damage in the file, and a check that skipped them would call a
	// damaged replay clean.
	decoded := map[string]bool{fDetails: true, fBackup: true, fAttributes: true, fListfile: true}
	for _, t := range tasks {
		decoded[t.stream] = true
	}
	// They are read and dropped, not kept: the hex view reads them again
	// if a person asks for one.
	rest := &task{run: func(_ []byte, out *[]model.Diagnostic) {
		for _, n := range all {
			if !decoded[n] {
				b, err := d.arc.ReadBlock(n, d.arc.FindBlock(n))
				d.readError(n, len(b), err, out)
			}
		}
	}}
	// One member after another, in this order, on the caller's goroutine:
	// the members share the decode's one budget, and when a damaged or
	// crafted member exhausts it, what the others could read must not
	// depend on which goroutine got there first (a check and a full decode
	// of one file said different things). Scans read many files at once,
	// so cores are not idle, and the background check's low priority
	// covers all of its work.
	for _, t := range tasks {
		if !d.st.has(t.stream) {
			continue
		}
		if d.opt.NoEvents && (t.stream == fTracker || t.stream == fGame && d.tr != nil && d.tr.events.len() > 0) {
			// A check keeps no events, so nothing shows the stream's
			// bytes, and the analysis has what it reads of the tracker's
			// (the tracker copies the names it keeps) and, with tracker
			// events, reads no game event's body: the largest members
			// (1.7 and 0.15 MB of a 240 KB replay) are given back once
			// decoded, read again should anything ask (Replay.Bytes, an
			// event's summary).
			if b, release, ok := d.readOutside(t.stream, &t.diags); ok {
				t.run(b, &t.diags)
				if d.tr != nil {
					d.tr.data = nil
				}
				if d.game != nil {
					d.game.data = nil
				}
				release()
			}
			continue
		}
		b, ok := d.read(t.stream, &t.diags)
		if ok {
			t.data = b
			t.run(b, &t.diags)
		}
	}
	rest.run(nil, &rest.diags)
	for _, t := range tasks {
		if t.data != nil {
			d.keep(t.stream, t.data)
		}
		for _, dg := range t.diags {
			if dg.Severity >= model.Error {
				d.r.Partial = true
			}
		}
		d.r.Diagnostics = append(d.r.Diagnostics, t.diags...)
	}
	if len(rest.diags) > 0 {
		d.r.Partial = true
		d.r.Diagnostics = append(d.r.Diagnostics, rest.diags...)
	}
	if !d.st.has(fTracker) {
		if d.build >= 25604 {
			d.diag(model.Error, model.Span{}, fTracker, "missing although clients of this build write tracker events", "", "", false)
		} else if d.baseBuild >= 24944 {
			d.diag(model.Info, model.Span{}, fTracker, "not in the archive: clients before 2.0.8 (build 25604) do not write it", "", "", false)
		}
	}
	d.merge()
}

// headerGameHeart puts a replay that lists watchers to the GameHeart rule
// in a header-only decode too (gameheart.go), so that a listing has the
// players the whole decode has: it reads the lobby, which seats them, and
// the tracker events, only for such a replay. What they say of problems is
// a check's to report.
func (d *decoder) headerGameHeart() {
	if !d.watchersListed() || !d.st.has(fTracker) {
		return
	}
	var diags []model.Diagnostic
	if b, ok := d.read(d.initStream, &diags); ok {
		d.decodeInit(b, &diags)
	}
	if b, ok := d.read(fTracker, &diags); ok {
		d.gameHeartLobby(b)
	}
}

// keep puts a decoded stream where spans can find it.
func (d *decoder) keep(name string, b []byte) {
	d.r.Streams[name] = b
}

// expansionOrGuess is the expansion replay.details names, or one guessed
// from the base build when it names none.
func (d *decoder) expansionOrGuess() string {
	switch {
	case d.expansion != "":
		return d.expansion
	case d.baseBuild >= 34784:
		return "LotV"
	case d.baseBuild >= 23925:
		return "HotS"
	}
	return "WoL"
}

func fileKey(n string) string {
	parts := strings.FieldsFunc(n, func(r rune) bool { return r == '.' || r == '(' || r == ')' || r == ' ' })
	for i := range parts {
		if i > 0 && parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func flagNames(f uint32) string {
	var s []string
	for _, x := range []struct {
		bit  uint32
		name string
	}{{mpq.FlagExists, "exists"}, {mpq.FlagCompress, "compressed"}, {mpq.FlagImplode, "imploded"},
		{mpq.FlagEncrypted, "encrypted"}, {mpq.FlagFixKey, "fix key"}, {mpq.FlagSingleUnit, "single unit"},
		{mpq.FlagSectorCRC, "sector CRC"}, {mpq.FlagDeleted, "deleted"}} {
		if f&x.bit != 0 {
			s = append(s, x.name)
		}
	}
	return strings.Join(s, "+")
}
