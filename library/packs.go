package library

import (
	"fmt"
	"os"
	"path/filepath"

	"rewind/decoders"
	"rewind/decoders/pack"
)

// Packed replays (decoders/pack): a .zip, .tar or .tar.gz found in a
// folder, or named, is walked as a folder of its members with a replay's
// extension; a .slp.gz or .slp.zst is its one replay. A member's path is the
// pack's and its own joined, pack.zip/round 1/game 2.slp, which every
// command and the TUI open in place (decoders.ReadFile). Its freshness in
// the index is the pack's modification time and the member's size: a pack
// rewritten is read again.

// isPack reports whether a file name is one a walk opens as a pack.
func isPack(name string) bool { return pack.HasPackExt(name, replayExt) }

// packEntries lists a pack's replays; named says the person named the pack
// (one with no replay in it is then reported, not passed over).
func packEntries(p string, named bool) []Entry {
	pk, err := pack.Open(p)
	if err != nil {
		if !named {
			return []Entry{{Path: p, Kind: Unreadable, Err: err}}
		}
		return []Entry{{Path: p, Kind: Unreadable, Err: err, Named: true}}
	}
	defer pk.Close()
	var out []Entry
	for _, m := range pk.Members() {
		if !replayExt(m.Name) {
			continue
		}
		size := m.Size
		if size < 0 {
			size = m.Stored // a .gz does not say; what it stores stands in
		}
		out = append(out, Entry{Path: p + "/" + m.Name, Kind: File, Size: size, ModTime: pk.ModTime, Named: named, Packed: true})
	}
	if len(out) == 0 && named {
		out = append(out, Entry{Path: p, Kind: Unreadable, Named: true,
			Err: fmt.Errorf("%s: a %s with no replay in it (no member has a replay's extension)", p, pk.Kind)})
	}
	return out
}

// packedMember is the entry of a path that names a member of a pack, and
// whether it does.
func packedMember(p string) (Entry, bool) {
	packPath, member, ok := pack.Split(p)
	if !ok {
		return Entry{}, false
	}
	pk, err := pack.Open(packPath)
	if err != nil {
		return Entry{Path: p, Kind: Unreadable, Err: err, Named: true}, true
	}
	defer pk.Close()
	m, found := pk.Member(member)
	if !found {
		return Entry{Path: p, Kind: Unreadable, Named: true, Err: fmt.Errorf("%s: %s has no member %s", p, filepath.Base(packPath), member)}, true
	}
	size := m.Size
	if size < 0 {
		size = m.Stored
	}
	return Entry{Path: p, Kind: File, Size: size, ModTime: pk.ModTime, Named: true, Packed: true}, true
}

// readPacked reads a member for a header or a full decode; the freshness
// key stays the walk's.
func readPacked(e Entry, h *Header, full bool) {
	f, err := decoders.ReadFile(e.Path)
	if err != nil {
		h.Err = err.Error()
		if _, no := err.(*decoders.NotReplayError); no {
			h.Err, h.NotReplay = notReplay(err), true
		}
		if full {
			h.Check, h.Summary = &Check{Err: h.Err}, &Summary{Err: h.Err}
		}
		return
	}
	decodeHeader(h, f.Data, full)
	h.Size, h.ModTime = e.Size, e.ModTime
}

// isPackFile reports whether a named regular file is a pack, by its name
// or, for a name that says nothing, its first bytes.
func isPackFile(p string) bool {
	if isPack(p) {
		return true
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := f.Read(head)
	k := pack.Sniff(head[:n], p)
	return k == pack.Zip || k == pack.Tar || k == pack.TarGz
}
