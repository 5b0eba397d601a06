package sc2

import (
	"fmt"
	"slices"
	"strings"

	"rewind/decoders/sc2/mpq"
	"rewind/model"
)

// Repair rebuilds a damaged replay's archive from the members that still
// read. It keeps the replay header (the MPQ user data) and every member
// whose bytes decompress whole; an event stream whose later sectors are
// lost is cut to its last whole event (events are byte-aligned, so the
// kept bytes are a stream of whole events); a member that does not read at
// all is left out, and the list file is written anew. The new archive has
// format version 1, which every MPQ reader opens, and zlib sectors.
//
// It does not rebuild an archive whose members all read: then the problems
// are in what the streams say (a build whose layout is not published, a
// replay resumed from another), and cutting them would throw away bytes
// that are intact. It refuses, saying why, when the replay header or the
// player list (replay.details) is lost.
func Repair(data []byte, _ model.RepairOptions) (*model.Repaired, error) {
	d, err := decode(data, model.DecodeOptions{})
	if err != nil {
		return nil, &model.RepairError{Source: source, Msg: "cannot rebuild: " + err.Error()}
	}
	r := d.r
	if d.st == nil {
		// the archive opened but its tables did not read: no member can be
		// found, so there is nothing to rebuild from
		why := "its hash and block tables do not read"
		for _, dg := range r.Diagnostics {
			if dg.Severity == model.Error {
				why = dg.Message
				break
			}
		}
		return nil, &model.RepairError{Source: source, Msg: "the archive's tables are lost (" + why +
			"): no member can be found, so nothing but the replay header survives"}
	}
	names := d.memberNames()
	// every member, read once: a stream nothing decodes (the battle lobby,
	// the sync events) may be the damaged one
	readErr := map[string]error{}
	for _, name := range names {
		if d.arc.FindBlock(name) >= 0 {
			if _, err := d.st.get(name); err != nil {
				readErr[name] = err
			}
		}
	}
	if r.Problems() == 0 && len(readErr) == 0 {
		return &model.Repaired{Whole: "the archive and every member in it read whole", Frames: r.Timeline.Count, FramesIn: r.Timeline.Count}, nil
	}
	ud := d.arc.UserData
	if ud == nil || len(ud.Content) == 0 || d.baseBuild == 0 {
		return nil, &model.RepairError{Source: source, Msg: "the replay header (the MPQ user data) is missing or damaged: without it no reader knows the game's build"}
	}

	rep := &model.Repaired{FramesIn: r.Timeline.Count}
	var members []mpq.Member
	lost := 0
	for _, name := range names {
		if d.arc.FindBlock(name) < 0 {
			continue
		}
		if name == fListfile || name == fArcAttributes {
			// both are written anew or left out whatever they hold; a
			// damaged one is still damage a rebuild mends
			if err := readErr[name]; err != nil {
				lost++
				rep.Step(model.RepairCut, fmt.Sprintf("%s: %s", name, errMsg(err)))
			}
			continue
		}
		b, err := d.st.get(name)
		size := int64(d.arc.Block[d.arc.FindBlock(name)].FileSize)
		switch {
		case err == nil:
			members = append(members, mpq.Member{Name: name, Data: b})
			rep.Step(model.RepairKept, fmt.Sprintf("%s (%s bytes)", name, model.FormatCount(int64(len(b)))))
			continue
		case name == fDetails || name == fBackup:
			if name == fDetails && d.st.has(fBackup) {
				if _, e := d.st.get(fBackup); e == nil {
					rep.Step(model.RepairCut, fmt.Sprintf("%s: %s (replay.details.backup holds the player list)", name, errMsg(err)))
					lost++
					continue
				}
			}
			return nil, &model.RepairError{Source: source, Msg: fmt.Sprintf("%s does not read (%s): without it there is no player list", name, errMsg(err))}
		}
		lost++
		end := lastEventEnd(r, name)
		if !isEventStream(name) {
			rep.BytesCut += size
			rep.Step(model.RepairCut, fmt.Sprintf("%s: %s; left out", name, errMsg(err)))
			continue
		}
		members = append(members, mpq.Member{Name: name, Data: b[:end]})
		rep.BytesCut += size - end
		if end == 0 {
			rep.Step(model.RepairCut, fmt.Sprintf("%s: %s; no event before the damage read whole, so it is kept empty (0 of %s bytes)",
				name, errMsg(err), model.FormatCount(size)))
			continue
		}
		rep.Step(model.RepairCut, fmt.Sprintf("%s: %s; kept its first %s events (%s of %s bytes), cut the rest",
			name, errMsg(err), model.FormatCount(int64(countEvents(r, name))), model.FormatCount(end), model.FormatCount(size)))
	}
	if lost == 0 {
		var why []string
		for _, dg := range r.Diagnostics {
			if dg.Severity >= model.Warning && len(why) < 2 {
				why = append(why, dg.String())
			}
		}
		return nil, &model.RepairError{Source: source, Msg: "every member of the archive reads whole; the problems are in what the streams say, " +
			"which a rebuild cannot mend without throwing away intact bytes: " + strings.Join(why, "; ")}
	}
	if d.arc.FindBlock(fArcAttributes) >= 0 && readErr[fArcAttributes] == nil {
		rep.Step(model.RepairCut, "(attributes): its checksums and times describe the old members; left out")
	}
	rep.Step(model.RepairSynthesised, fmt.Sprintf("a new archive (format version 1, zlib sectors of %d bytes) with the replay header, %d members and a list file naming them",
		512<<(d.arc.Header.SectorSizeShift&15), len(members)))
	rep.Data = mpq.Write(ud.Content, d.arc.Header.SectorSizeShift, members)

	// the new file must read without a problem
	out, err := Decode(rep.Data, model.DecodeOptions{})
	if err != nil {
		return nil, &model.RepairError{Source: source, Msg: "the rebuilt archive does not open: " + err.Error()}
	}
	for _, dg := range out.Diagnostics {
		if dg.Severity >= model.Warning {
			return nil, &model.RepairError{Source: source, Msg: "the rebuilt archive still has a problem: " + dg.String()}
		}
	}
	rep.Frames = out.Timeline.Count
	return rep, nil
}

// memberNames are the archive's members: the list file's names and the
// names a replay has, each once, in that order.
func (d *decoder) memberNames() []string {
	names, _ := d.arc.Files()
	for _, n := range knownFiles {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

func isEventStream(name string) bool {
	return name == fGame || name == fMessages || name == fTracker
}

// lastEventEnd is where the last whole event decoded from a stream ends.
func lastEventEnd(r *model.Replay, stream string) int64 {
	end := int64(0)
	id, ok := r.StreamOf(stream)
	for i := range r.Events {
		if e := &r.Events[i]; ok && e.Stream == id && e.End() > end {
			end = e.End()
		}
	}
	return end
}

func countEvents(r *model.Replay, stream string) int {
	n := 0
	id, ok := r.StreamOf(stream)
	for i := range r.Events {
		if ok && r.Events[i].Stream == id {
			n++
		}
	}
	return n
}
