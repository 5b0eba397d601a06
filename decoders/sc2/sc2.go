// Package sc2 decodes StarCraft II replays (.SC2Replay): MPQ archives of versioned and bit-packed streams.
//
// What is read, by stream:
//   - the MPQ user data: the replay header (version, base build, elapsed
//     game loops), with the archive header and tables shown as fields;
//   - replay.details (versioned): players, map, time; the .backup copy
//     stands in for anonymized replays;
//   - replay.attributes.events: speed, mode, player types, races, teams;
//   - replay.tracker.events (versioned, base build 24944 and later): every
//     event type, per-loop player state, unit positions for the stage view;
//   - replay.message.events (bit-packed): chat, pings, loading progress,
//     for every build in the corpus;
//   - replay.initData and replay.game.events (bit-packed, layout per build):
//     decoded with s2protocol's protocol 97364 layout where it reads the
//     whole stream (base builds 80949-96883 in the corpus); for other builds
//     the streams are shown with their sizes only.
package sc2

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"rewind/decoders/internal/budget"
	"rewind/decoders/sc2/mpq"
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
	fListfile   = "(listfile)"
)

// knownFiles are read even when the listfile is missing or lists fewer.
var knownFiles = []string{fDetails, fBackup, fAttributes, fInit, fGame, fMessages, fTracker,
	"replay.sync.events", "replay.sync.history", "replay.load.info", "replay.smartcam.events",
	"replay.resumable.events", "replay.server.battlelobby", "replay.gamemetadata.json", fListfile, "(attributes)"}

type decoder struct {
	r    *model.Replay
	opt  model.DecodeOptions
	arc  *mpq.Archive
	data []byte

	build, baseBuild int
	loops            int
	speed            string  // "Faster"
	rate             float64 // loops per real second

	players  []playerInfo
	attrs    []attribute
	userToPl map[int]int // user id -> player index
	// gameUserToPl replaces userToPl for the game events of layouts that
	// number their senders differently (WoL); nil otherwise.
	gameUserToPl map[int]int
	slotToPl     map[int]int // tracker player id -> player index

	tr *tracker

	mapW, mapH int64 // from replay.initData when its layout is known

	game            *gameStream
	gameEventsLater func()
}

type playerInfo struct {
	name, clan, race string
	team             int64
	result           int64
	control          int64
	observe          int64
	workingSlot      int64
	hasWorkingSlot   bool
}

// Decode reads a whole file. It returns nil and an error only when the
// file cannot be read at all; damage after a readable start gives a partial
// replay with diagnostics.
func Decode(data []byte, opt model.DecodeOptions) (*model.Replay, error) {
	d := &decoder{data: data, opt: opt, speed: "Faster", userToPl: map[int]int{}, slotToPl: map[int]int{}}
	r := &model.Replay{Format: model.SC2, FormatName: "StarCraft II replay", Size: int64(len(data))}
	d.r = r
	bud := budget.New(int64(len(data)), opt.Limits)
	arc, err := mpq.Open(data, bud)
	if arc == nil {
		return nil, &model.FormatError{Source: source, Off: errOff(err), Msg: "not an MPQ archive: " + errMsg(err)}
	}
	d.arc = arc
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
	d.finish()
	if bud.Exhausted() {
		r.Partial = true
		r.Diagnostics = append(r.Diagnostics, bud.Diagnostic(source, model.Span{}, -1))
	}
	return r, nil
}

// limit is the most loops the timeline may have: it costs memory per loop,
// so the count is held to what the file's size can justify (real replays
// hold far more than a byte per 64 loops).
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

func (d *decoder) diag(sev model.Severity, sp model.Span, subject, msg, expected, found string, skipped bool) {
	// An offset always lies inside the bytes it refers to.
	if sp.Stream == "" && sp.Off > int64(len(d.data)) {
		sp.Off, sp.Len = int64(len(d.data)), 0
	}
	d.r.Diagnostics = append(d.r.Diagnostics, model.Diagnostic{Severity: sev, Source: source, Span: sp, Frame: -1,
		Subject: subject, Message: msg, Expected: expected, Found: found, Skipped: skipped})
}

// headerFields decodes the user data: the MPQ sizes and the replay header
// (a versioned struct) inside it.
func (d *decoder) headerFields() {
	u := d.arc.UserData
	if u == nil {
		d.diag(model.Warning, model.Span{}, "user data", "archive has no user data block, so no replay header", "MPQ\\x1b", "MPQ\\x1a", false)
		return
	}
	g := model.Field{Key: "userData", Label: "MPQ user data", Span: model.Span{Off: 0, Len: 16 + int64(len(u.Content))}}
	g.Fields = append(g.Fields,
		model.Field{Key: "userDataSize", Label: "User data size", Value: uint64(u.Size), Span: model.Span{Off: 4, Len: 4}},
		model.Field{Key: "headerOffset", Label: "Archive header offset", Value: uint64(u.HeaderOffset), Span: model.Span{Off: 8, Len: 4}},
		model.Field{Key: "userDataHeaderSize", Label: "User data header size", Value: uint64(u.ContentSize), Span: model.Span{Off: 12, Len: 4}},
	)
	d.r.Header = append(d.r.Header, g)
	v, err := versioned.Decode(u.Content)
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
		d.loops = int(x)
		if d.loops > d.limit() {
			d.diag(model.Warning, model.Span{Off: 16}, "replay header", "elapsed game loops implausibly large for the file's size; timeline capped",
				fmt.Sprint(d.limit()), fmt.Sprint(d.loops), false)
			d.loops = d.limit()
		}
		f := d.intField(&v, 3, "elapsedGameLoops", "m_elapsedGameLoops", 16)
		h.Fields = append(h.Fields, f)
	}
	if _, ok := v.Get(4); ok {
		h.Fields = append(h.Fields, d.intField(&v, 4, "useScaledTime", "m_useScaledTime", 16))
	}
	if _, ok := v.Get(6); ok {
		h.Fields = append(h.Fields, d.intField(&v, 6, "dataBuildNum", "m_dataBuildNum", 16))
	}
	d.r.Header = append(d.r.Header, h)
	if err != nil {
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
// independent: a broken one leaves the others readable.
func (d *decoder) readArchive() {
	a := d.arc
	// Header-only decoding (the browser's listing) skips the listfile and
	// the attributes: the known names find the files, and details give
	// the team format and speed.
	var names []string
	if !d.opt.HeaderOnly {
		var err error
		names, err = a.Files()
		if err != nil {
			d.diag(model.Warning, model.Span{Off: errOff(err)}, fListfile, errMsg(err), "", "", false)
		}
	}
	seen := map[string]bool{}
	all := []string{}
	for _, n := range append(names, knownFiles...) {
		if !seen[n] && a.FindBlock(n) >= 0 {
			seen[n] = true
			all = append(all, n)
		}
	}
	files := model.Field{Key: "files", Label: "Files", Span: model.Span{Off: a.BlockTableAt, Len: int64(len(a.Block)) * 16}}
	streams := map[string][]byte{}
	for _, n := range all {
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
		if d.opt.HeaderOnly && n != fDetails {
			continue
		}
		data, err := a.ReadBlock(n, bi)
		if err != nil {
			d.r.Partial = true
			d.diag(model.Error, model.Span{Off: errOff(err)}, n, errMsg(err), "", fmt.Sprintf("%d of %d bytes", len(data), b.FileSize), false)
		}
		if data != nil {
			streams[n] = data
		}
		if d.opt.Progress != nil {
			d.opt.Progress(at+int64(b.CompressedSize), int64(len(d.data)))
		}
	}
	d.r.Header = append(d.r.Header, files)
	if !d.opt.HeaderOnly {
		d.r.Streams = streams
	}

	// details, or the backup an anonymizer left
	det, ok := streams[fDetails]
	name := fDetails
	if !ok || len(det) == 0 {
		b, ok2 := streams[fBackup]
		if !ok2 && d.opt.HeaderOnly {
			if bi := a.FindBlock(fBackup); bi >= 0 {
				b, _ = a.ReadBlock(fBackup, bi)
				ok2 = b != nil
			}
		}
		if ok2 && len(b) > 0 {
			det, name = b, fBackup
			d.diag(model.Info, model.Span{Stream: fBackup}, fDetails, "missing; using replay.details.backup (anonymized replay)", "", "", false)
			ok = true
		}
	}
	if ok && len(det) > 0 {
		d.details(name, det)
	} else {
		d.r.Partial = true
		d.diag(model.Warning, model.Span{}, fDetails, "not in the archive: no players or map", "", "", false)
	}
	if b, ok := streams[fAttributes]; ok {
		d.attributes(b)
	}
	if d.opt.HeaderOnly {
		d.r.Partial = true
		return
	}
	var proto *protocol
	if b, ok := streams[fInit]; ok {
		proto = d.initData(b)
	}
	initDecoded := proto != nil
	if b, ok := streams[fTracker]; ok {
		d.tracker(b)
	} else if d.build >= 25604 {
		d.diag(model.Warning, model.Span{}, fTracker, "missing although clients of this build write tracker events", "", "", false)
	} else if d.baseBuild >= 24944 {
		d.diag(model.Info, model.Span{}, fTracker, "not in the archive: clients before 2.0.8 (build 25604) do not write it", "", "", false)
	}
	if b, ok := streams[fMessages]; ok {
		d.messages(b)
	}
	gameDecoded := false
	if b, ok := streams[fGame]; ok && initDecoded {
		d.gameEvents(b, proto)
		gameDecoded = true
	}
	for _, n := range []string{fGame, fInit} {
		if b, ok := streams[n]; ok && !(n == fInit && initDecoded) && !(n == fGame && gameDecoded) {
			d.diag(model.Info, model.Span{Stream: n, Len: int64(len(b))}, n,
				fmt.Sprintf("present, %d bytes, not decoded: no bit-packed layout of base build %d reads it to its end", len(b), d.baseBuild), "", "", false)
		}
	}
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

// details decodes the players, map and time.
func (d *decoder) details(stream string, b []byte) {
	v, err := versioned.Decode(b)
	if err != nil {
		d.r.Partial = true
		e, _ := err.(*versioned.Error)
		var off int64
		if e != nil {
			off = int64(e.Off)
		}
		d.diag(model.Error, model.Span{Stream: stream, Off: off}, stream, err.Error(), "", "", false)
	}
	sp := func(x *versioned.Value) model.Span {
		return model.Span{Stream: stream, Off: int64(x.Off), Len: int64(x.End - x.Off)}
	}
	g := model.Field{Key: "details", Label: "Details", Span: model.Span{Stream: stream, Len: int64(len(b))}}
	if t, ok := v.BytesOf(1); ok {
		d.r.Title = string(t)
		x, _ := v.Get(1)
		g.Fields = append(g.Fields, model.Field{Key: "title", Label: "m_title", Value: string(t), Span: sp(x)})
	}
	if utc, ok := v.IntOf(5); ok {
		x, _ := v.Get(5)
		t := fileTime(utc)
		d.r.Start = t
		g.Fields = append(g.Fields, model.Field{Key: "timeUTC", Label: "m_timeUTC", Value: t, Span: sp(x)})
	}
	if loc, ok := v.IntOf(6); ok {
		x, _ := v.Get(6)
		g.Fields = append(g.Fields, model.Field{Key: "timeLocalOffset", Label: "m_timeLocalOffset",
			Value: time.Duration(loc) * 100, Span: sp(x)})
	}
	if x, ok := v.Get(4); ok {
		n, _ := v.IntOf(4)
		g.Fields = append(g.Fields, model.Field{Key: "isBlizzardMap", Label: "m_isBlizzardMap", Value: n != 0, Span: sp(x)})
	}
	if s, ok := v.IntOf(12); ok {
		x, _ := v.Get(12)
		f := model.Field{Key: "gameSpeed", Label: "m_gameSpeed", Value: s, Span: sp(x)}
		if s >= 0 && int(s) < len(speedNames) {
			f.Name = speedNames[s]
			d.speed = f.Name
		}
		g.Fields = append(g.Fields, f)
	}
	if mf, ok := v.BytesOf(9); ok {
		x, _ := v.Get(9)
		g.Fields = append(g.Fields, model.Field{Key: "mapFileName", Label: "m_mapFileName", Value: string(mf), Span: sp(x)})
	}
	d.r.Header = append(d.r.Header, g)

	pl, _ := v.Get(0)
	if pl != nil && pl.Kind == versioned.Optional && len(pl.Items) > 0 {
		pl = &pl.Items[0]
	}
	if pl == nil || pl.Kind != versioned.Array {
		return
	}
	for i := range pl.Items {
		p := &pl.Items[i]
		info := playerInfo{}
		name, _ := p.BytesOf(0)
		info.name, info.clan = splitClan(string(name))
		race, _ := p.BytesOf(2)
		info.race = string(race)
		info.control, _ = p.IntOf(4)
		info.team, _ = p.IntOf(5)
		info.observe, _ = p.IntOf(7)
		info.result, _ = p.IntOf(8)
		info.workingSlot, info.hasWorkingSlot = p.IntOf(9)
		mp := model.Player{Slot: fmt.Sprintf("player %d", i+1), Name: info.name, Character: info.race,
			Team: fmt.Sprintf("team %d", info.team+1), Result: resultName(info.result)}
		f := []model.Field{{Key: "name", Label: "m_name", Value: info.name, Span: spanOf(p, 0, stream)}}
		if info.clan != "" {
			f = append(f, model.Field{Key: "clanTag", Label: "Clan tag", Value: info.clan, Span: spanOf(p, 0, stream)})
		}
		if toon, ok := p.Get(1); ok {
			region, _ := toon.IntOf(0)
			realm, _ := toon.IntOf(2)
			var id int64
			if x, ok := toon.IntOf(4); ok {
				id = x
			} else {
				id, _ = toon.IntOf(3)
			}
			prog := ""
			if pb, ok := toon.Get(1); ok && len(pb.Bytes) == 4 {
				prog = strings.Trim(string(pb.Bytes), "\x00")
			}
			handle := fmt.Sprintf("%d-%s-%d-%d", region, prog, realm, id)
			if id == 0 && region == 0 {
				handle = "" // computer players have no toon
			} else {
				mp.Code = handle
			}
			f = append(f, model.Field{Key: "toon", Label: "m_toon", Value: handle, Span: sp(toon), Fields: []model.Field{
				{Key: "region", Label: "m_region", Value: region, Name: regionName(region)},
				{Key: "programId", Label: "m_programId", Value: prog},
				{Key: "realm", Label: "m_realm", Value: realm},
				{Key: "id", Label: "m_id", Value: id},
			}})
		}
		f = append(f, model.Field{Key: "race", Label: "m_race", Value: info.race, Span: spanOf(p, 2, stream)})
		if c, ok := p.Get(3); ok {
			a, _ := c.IntOf(0)
			r, _ := c.IntOf(1)
			gg, _ := c.IntOf(2)
			bb, _ := c.IntOf(3)
			f = append(f, model.Field{Key: "color", Label: "m_color", Value: fmt.Sprintf("#%02x%02x%02x%02x", a, r, gg, bb), Span: sp(c)})
		}
		f = append(f, model.Field{Key: "control", Label: "m_control", Value: info.control, Name: controlName(info.control), Span: spanOf(p, 4, stream)})
		f = append(f, model.Field{Key: "teamId", Label: "m_teamId", Value: info.team, Span: spanOf(p, 5, stream)})
		h, _ := p.IntOf(6)
		f = append(f, model.Field{Key: "handicap", Label: "m_handicap", Value: h, Span: spanOf(p, 6, stream)})
		f = append(f, model.Field{Key: "observe", Label: "m_observe", Value: info.observe, Span: spanOf(p, 7, stream)})
		f = append(f, model.Field{Key: "result", Label: "m_result", Value: info.result, Name: resultName(info.result), Span: spanOf(p, 8, stream)})
		if info.hasWorkingSlot {
			f = append(f, model.Field{Key: "workingSetSlotId", Label: "m_workingSetSlotId", Value: info.workingSlot, Span: spanOf(p, 9, stream)})
		}
		mp.Fields = f
		d.players = append(d.players, info)
		d.r.Players = append(d.r.Players, mp)
		d.slotToPl[i+1] = i
	}
}

func spanOf(v *versioned.Value, tag int64, stream string) model.Span {
	x, ok := v.Get(tag)
	if !ok {
		return model.Span{Stream: stream}
	}
	return model.Span{Stream: stream, Off: int64(x.Off), Len: int64(x.End - x.Off)}
}

// splitClan takes the clan tag out of a name written "&lt;TAG&gt;<sp/>Name".
func splitClan(s string) (name, clan string) {
	if strings.HasPrefix(s, "&lt;") {
		if i := strings.Index(s, "&gt;<sp/>"); i > 0 {
			return s[i+len("&gt;<sp/>"):], s[4:i]
		}
	}
	if strings.HasPrefix(s, "<") {
		if i := strings.Index(s, "><sp/>"); i > 0 {
			return s[i+len("><sp/>"):], s[1:i]
		}
	}
	if strings.HasPrefix(s, "[") {
		if i := strings.Index(s, "]<sp/>"); i > 0 {
			return s[i+len("]<sp/>"):], s[1:i]
		}
	}
	return strings.ReplaceAll(s, "<sp/>", " "), ""
}

// fileTime converts a Windows FILETIME (100 ns since 1601) to UTC.
func fileTime(ft int64) time.Time {
	const epochDiff = 116444736000000000
	if ft <= epochDiff {
		return time.Time{}
	}
	x := ft - epochDiff
	return time.Unix(x/1e7, (x%1e7)*100).UTC()
}

func resultName(r int64) string {
	switch r {
	case 1:
		return "Win"
	case 2:
		return "Loss"
	case 3:
		return "Tie"
	}
	return ""
}

func controlName(c int64) string {
	switch c {
	case 0:
		return "Open"
	case 1:
		return "Closed"
	case 2:
		return "Human"
	case 3:
		return "Computer"
	}
	return ""
}

func regionName(r int64) string {
	switch r {
	case 1:
		return "US"
	case 2:
		return "EU"
	case 3:
		return "KR"
	case 5:
		return "CN"
	case 6:
		return "SEA"
	case 98:
		return "Public Test"
	}
	return ""
}

func (d *decoder) attributes(b []byte) {
	attrs, hdr, err := parseAttributes(b)
	d.attrs = attrs
	if err != nil {
		d.r.Partial = true
		d.diag(model.Warning, model.Span{Stream: fAttributes, Off: int64(len(b))}, fAttributes, err.Error(), "", "", false)
	}
	g := model.Field{Key: "attributes", Label: "Attributes", Span: model.Span{Stream: fAttributes, Len: int64(len(b))},
		Fields: []model.Field{{Key: "count", Label: "Count", Value: int64(len(attrs)), Span: model.Span{Stream: fAttributes, Off: int64(hdr - 4), Len: 4}}}}
	perSlot := map[uint8][]model.Field{}
	for _, a := range attrs {
		label := attrNames[a.ID]
		if label == "" {
			label = fmt.Sprintf("attribute %d", a.ID)
		}
		f := model.Field{Key: lowerCamel(label), Label: label, Value: a.Value, Name: attrValueName(a.ID, a.Value),
			Span: model.Span{Stream: fAttributes, Off: int64(a.Off), Len: 13}}
		if a.Scope == 16 {
			g.Fields = append(g.Fields, f)
			if a.ID == attrGameSpeed {
				if n := f.Name; n != "" {
					d.speed = n
				}
			}
		} else {
			perSlot[a.Scope] = append(perSlot[a.Scope], f)
		}
	}
	d.r.Header = append(d.r.Header, g)
	// Give players their slot attributes. Slots count players and open or
	// closed slots alike, so match humans and computers in order.
	var slots []int
	for s := range perSlot {
		slots = append(slots, int(s))
	}
	sort.Ints(slots)
	pi := 0
	for _, s := range slots {
		fs := perSlot[uint8(s)]
		ctl := ""
		for _, f := range fs {
			if f.Key == "controller" {
				ctl = f.Value.(string)
			}
		}
		if ctl != "Humn" && ctl != "Comp" {
			continue
		}
		if pi >= len(d.r.Players) {
			break
		}
		// The team attribute of the game's format ("T2") is where the
		// lobby put the player; details' m_teamId is 0 for all in 2010-11
		// builds.
		if id, ok := teamAttr[d.attrGlobal(attrTeams)]; ok {
			for _, a := range d.attrs {
				if a.ID == id && int(a.Scope) == s && strings.HasPrefix(a.Value, "T") {
					d.r.Players[pi].Team = "team " + a.Value[1:]
				}
			}
		}
		d.r.Players[pi].Fields = append(d.r.Players[pi].Fields, model.Field{Key: "slotAttributes", Label: fmt.Sprintf("Slot %d attributes", s), Fields: fs})
		pi++
	}
}

// teamAttr is the per-slot team attribute of each game format.
var teamAttr = map[string]uint32{"1v1": 2002, "2v2": 2003, "3v3": 2004, "4v4": 2005, "FFA": 2006, "5v5": 2007, "6v6": 2008}

func lowerCamel(s string) string {
	parts := strings.Fields(strings.Map(func(r rune) rune {
		if r == '(' || r == ')' || r == '-' {
			return ' '
		}
		return r
	}, s))
	for i := range parts {
		if i == 0 {
			parts[i] = strings.ToLower(parts[i][:1]) + parts[i][1:]
		} else {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func (d *decoder) attrGlobal(id uint32) string {
	for _, a := range d.attrs {
		if a.ID == id && a.Scope == 16 {
			return a.Value
		}
	}
	return ""
}

// finish sets the timeline and the summary values.
func (d *decoder) finish() {
	r := d.r
	d.rate = 16 * speedFactor[d.speed]
	if d.rate == 0 {
		d.rate = 22.4
	}
	if d.loops < 0 {
		d.loops = 0
	}
	// All events go into one slice allocated at its final size.
	n := len(r.Events) + 1
	if d.tr != nil {
		n += len(d.tr.events)
	}
	if d.game != nil {
		n += len(d.game.events)
	}
	evs := make([]model.Event, len(r.Events), n)
	copy(evs, r.Events)
	r.Events = evs
	if d.tr != nil {
		d.tr.appendEvents(d)
	}
	if d.gameEventsLater != nil {
		d.gameEventsLater()
	}
	if d.loops == 0 {
		// no header: let the timeline reach the last event
		for _, e := range r.Events {
			if e.Frame > d.loops && e.Frame <= d.limit() {
				d.loops = e.Frame
			}
		}
	}
	rate := d.rate
	r.Timeline = model.Timeline{Count: d.loops + 1, First: 0, Rate: rate, Unit: "loop",
		LabelOf: func(i int) string { return fmt.Sprintf("loop %d", i) },
		TimeOf:  func(i int) time.Duration { return time.Duration(float64(i) / rate * float64(time.Second)) },
	}
	r.Duration = time.Duration(float64(d.loops) / rate * float64(time.Second))
	mode := d.attrGlobal(attrTeams)
	if mode == "" && len(d.players) > 0 {
		mode = teamMode(d.players)
	}
	if mode != "" {
		r.Mode = mode + " " + d.speed
	} else {
		r.Mode = d.speed
	}
	if gm := attrValueName(attrGameMode, d.attrGlobal(attrGameMode)); gm != "" && d.attrGlobal(attrGameMode) != "" {
		r.Mode += " " + strings.ToLower(strings.Fields(gm)[0])
	}
	var winners []string
	for i, p := range d.players {
		if p.result == 1 {
			winners = append(winners, r.Players[i].Name)
		}
	}
	switch {
	case len(winners) > 0:
		r.Result = "Win: " + strings.Join(winners, ", ")
	case len(d.players) > 0:
		r.Result = "no winner recorded"
	}
	if d.tr != nil {
		d.tr.install(d)
	}
	if len(r.Events) > 0 || d.loops > 0 {
		r.Events = append(r.Events, model.Event{Frame: d.loops, Player: -1, Kind: "end", Notable: true,
			Summary: "game end: " + nonEmpty(r.Result, "result unknown")})
	}
	for i := range r.Events {
		if r.Events[i].Frame > d.loops {
			r.Events[i].Frame = d.loops
		}
		if r.Events[i].Frame < 0 {
			r.Events[i].Frame = 0
		}
	}
	r.Finish()
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// teamMode guesses "1v1", "2v2" from the teams of the players.
func teamMode(ps []playerInfo) string {
	count := map[int64]int{}
	var teams []int64
	for _, p := range ps {
		if p.observe != 0 {
			continue
		}
		if count[p.team] == 0 {
			teams = append(teams, p.team)
		}
		count[p.team]++
	}
	if len(teams) < 2 {
		return ""
	}
	var s []string
	for _, t := range teams {
		s = append(s, fmt.Sprint(count[t]))
	}
	return strings.Join(s, "v")
}
