package mpq

import "rewind/model"

// Crafted is one of issue 11's crafted archives for the decoder-level test
// in package mpq_test (which can import the sc2 decoder; this package
// cannot).
type Crafted struct {
	Name   string
	Data   []byte
	Limits model.Limits // zero: the file's default budget
	What   string       // the claim the error diagnostic must name
	Amount string       // and how much it asked
}

// CraftedArchives builds them, at the scales of this package's tests.
func CraftedArchives() []Crafted {
	return []Crafted{
		{"zlib block of zeros shared by nine members", sharedBlock(sc2Names, 8<<20, zlibSector),
			model.Limits{Bytes: 1 << 20}, "replay.details: decompressed", "8,388,608 bytes"},
		// Which claim of the decoder comes first after four reads is the
		// decoder's business (an event index may): any, named, will do.
		{"the same block, four of nine reads in the budget", sharedBlock(sc2Names, 1<<20, zlibSector),
			model.Limits{Bytes: 4<<20 + 1<<19}, "decode budget", " bytes"},
		{"16 MiB sectors declaring 4 GB", hugeSectors(), model.Limits{},
			"replay.game.events: decompressed", "4,294,901,760 bytes"},
		{"bzip2 of zeros padded past the expansion check", paddedBzip2(1<<30, 8<<20, 1100<<10), model.Limits{},
			"replay.game.events: decompressed", "1,073,741,824 bytes"},
		{"64K hash table of deleted slots, a million names", deletedTable(1<<16, 1_000_000),
			model.Limits{Steps: 1 << 20}, "(hash table) probes", "65,536 steps"},
		{"list file of a million names, over the budget", longListfile(1_000_000),
			model.Limits{Bytes: 1 << 20}, "(listfile): decompressed", "3,000,000 bytes"},
		{"list file of a million names, names over the budget", longListfile(1_000_000),
			model.Limits{Bytes: 4 << 20}, "(listfile): 1,000,000 names", "19,000,000 bytes"},
	}
}

// Allocated is allocated, for package mpq_test.
var Allocated = allocated
