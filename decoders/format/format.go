// Package format is the contract between a replay format and the rest of
// rewind. A format package (decoders/slippi, decoders/sc2, ...) declares one
// Format value saying everything rewind knows about the format: its names,
// how to recognise and bound a file of it, how to decode, follow and repair
// one, what its archive summary and export rows are. The registry
// (decoders.Formats) lists those values one line each, the way
// image.RegisterFormat and database/sql drivers let a package bring its own
// format; the commands, library/ and tui/ read the values and never name a
// format, so a new format touches its own package and one registry line.
package format

import (
	"rewind/decoders/frames"
	"rewind/model"
)

// Format describes one replay format.
type Format struct {
	// ID is the stable name: in JSON, queries (format:slippi), the index and
	// the export's partitions.
	ID model.Format
	// Name is for people: "Slippi replay".
	Name string
	// Exts are the usual extensions, lower case with the dot. Detection
	// never relies on them; folder walks use them to pick files.
	Exts []string
	// Aliases are other names people call the format by in queries
	// (format:melee); the id, the extensions and the words of Name count too.
	Aliases []string
	// Title is what the replay's title names, as a word for people and for
	// the info and stats labels: "stage", "song", "course", "map".
	Title string
	// TitleIsID says the title identifies what was played without naming
	// it (osu!'s beatmap MD5): a list leads with the player, not with it.
	TitleIsID bool
	// Character is what a player's Character names: "character", "race",
	// "machine"; empty when the format has no such thing (then stats --by
	// character leaves the format's players out).
	Character string
	// Matchup, when set, names a matchup the way the game's players do
	// (StarCraft's PvZ) from the characters of the two sides, each sorted;
	// it must not depend on which side is given first. Nil: the sides'
	// characters joined, Fox-Marth.
	Matchup func(side, other []string) string

	// Match reports whether a file's first bytes (up to HeadSize, or the
	// whole file) are of this format. Formats are tried in registry order.
	Match func(head []byte) bool
	// NearMiss, when set, names what a file the format does not claim is
	// when it looks like one of its own ("an F-Zero GX save with an unknown
	// region code"); empty when it does not. ext is the lower-case
	// extension of the file's name.
	NearMiss func(data []byte, ext string) string
	// Extent is how far into a file of size bytes the replay reaches, as
	// its front says (head is the first HeadSize bytes, or the whole file);
	// -1 when the front does not say. Nil for formats whose front never
	// says. Reads stop there.
	Extent func(head []byte, size int64) int64

	// Decode reads a whole file. With opt.HeaderOnly it reads only the
	// header, players and summary values, skipping what it can.
	Decode func(data []byte, opt model.DecodeOptions) (*model.Replay, error)
	// Follow decodes a file while its recorder still writes it (see
	// model.Follower); nil for formats written whole.
	Follow func(opt model.DecodeOptions) model.Follower
	// Repair makes a new file from a damaged one (see model.Repaired); nil
	// when the format has none, and NoRepair says why.
	Repair   func(data []byte, opt model.RepairOptions) (*model.Repaired, error)
	NoRepair string
	// RepairDoes says in a few words what Repair does, for `rewind help
	// repair`: "cut at the last whole message, append FINISH".
	RepairDoes string

	// Summarize makes the replay's archive summary (model.Summary) from a
	// full decode, in one pass over the format's typed data; nil when the
	// format has no game code. Callers go through Replay.Summarized, which
	// fills in what every summary carries.
	Summarize func(r *model.Replay) *model.Summary
	// Dolphin says the format's moments can be handed to Slippi Dolphin's
	// playback queue: frame numbers as Dolphin counts them, one file a game.
	Dolphin bool
	// Stats describe the keys of the summaries' stats: labels, units and
	// how groups combine them, in the order reports show them.
	Stats []model.StatDef

	// Frames is the format's typed frames table for the export
	// (decoders/<format>/rows.go); nil when it has none.
	Frames frames.Table
}

// Stat returns the format's description of a stat key.
func (f *Format) Stat(key string) (model.StatDef, bool) {
	for _, d := range f.Stats {
		if d.Key == key {
			return d, true
		}
	}
	return model.StatDef{}, false
}
