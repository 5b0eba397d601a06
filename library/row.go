package library

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"rewind/model"
)

// Row is a read-only look at one row of a store, for code that reads many
// rows at once (a sort over a million, the browser drawing a screen): no
// Header is made, strings are the store's own. It is valid only inside
// the function given to Store.Read.
type Row struct {
	s  *Store
	r  *rowRec
	id RowID
}

// readChunk is how many rows Read goes through under one hold of the
// store's read lock: writers wait at most that long.
const readChunk = 1 << 14

// Read calls fn with each row of ids in turn, holding the store's read
// lock (let go every few thousand rows so a writer is never kept waiting
// long). fn must not write to the store.
func (s *Store) Read(ids []RowID, fn func(i int, r Row)) {
	for lo := 0; lo < len(ids); lo += readChunk {
		hi := min(lo+readChunk, len(ids))
		s.mu.RLock()
		for i := lo; i < hi; i++ {
			fn(i, Row{s, s.rec(ids[i]), ids[i]})
		}
		s.mu.RUnlock()
	}
}

// ID is the row's number.
func (r Row) ID() RowID { return r.id }

// Header is the row as a Header (without its summary).
func (r Row) Header() Header {
	var h Header
	r.s.header(r.r, &h, "")
	return h
}

// Path is the file's path as last walked.
func (r Row) Path() string { return r.s.dirs[r.r.dir].text + r.s.name(r.r) }

// Name is the file's name. It stays valid after Read returns.
func (r Row) Name() string { return r.s.name(r.r) }

// Kind says what the walk found at the path.
func (r Row) Kind() Kind { return Kind(r.r.kind) }

// Format is the format's id; empty when no decoder claims the file.
func (r Row) Format() model.Format { return model.Format(r.s.strs[r.s.fmtOf(r.r).id]) }

// Start is when the game was played, in the file's zone; zero when the
// file does not say.
func (r Row) Start() time.Time {
	if r.r.flags&fStart == 0 {
		return time.Time{}
	}
	return time.Unix(r.r.startSec, int64(r.r.startNsec)).In(zone(r.s.fmtOf(r.r).zone))
}

// StartNano is Start as unix nanoseconds, and whether the file says.
func (r Row) StartNano() (int64, bool) {
	return r.r.startSec*1e9 + int64(r.r.startNsec), r.r.flags&fStart != 0
}

// Duration is the length of play.
func (r Row) Duration() time.Duration { return time.Duration(r.r.dur) }

// Size is the file's size in bytes.
func (r Row) Size() int64 { return r.r.size }

// Title is the stage, map, song or course.
func (r Row) Title() string { return r.s.strs[r.r.title] }

// Err says why the file has no header.
func (r Row) Err() string { return r.s.strs[r.s.errOf(r.r)] }

// Players is the number of players.
func (r Row) Players() int { return int(r.r.nPlayers) }

// Player is player i.
func (r Row) Player(i int) Player {
	return r.s.playerOf(r.s.playerList(r.r)[i])
}

// ProblemCount is Header.ProblemCount.
func (r Row) ProblemCount() int { return r.s.problemCount(r.r) }

// Checked is Header.Checked.
func (r Row) Checked() bool { return r.r.flags&(fCheck|fErr) != 0 }

// HeaderProblems is what the header read alone found.
func (r Row) HeaderProblems() int { return int(r.s.x(r.r).problems) }

// HasCheck reports whether a full decode ran.
func (r Row) HasCheck() bool { return r.r.flags&fCheck != 0 }

// HasSummary says whether the store keeps the row's archive summary.
func (r Row) HasSummary() bool { return r.r.flags&fSum != 0 }

// TextRevision changes each time the row's TextKey does (a scan or the
// index read again found other players, another title...): what a list
// worked out from the key holds while the revision is the same. It counts
// in 16 bits and wraps, so a key changed exactly 65,536 times between two
// looks reads as unchanged.
func (r Row) TextRevision() uint16 { return r.r.textRev }

// TextKey appends the numbers of the strings a list shows for the row (its
// error, title, format and mode, which decide how a title reads, and each
// player's name, character and team, which groups the players into
// sides): two rows with the same key read the same, so a list can
// describe each distinct key once.
func (r Row) TextKey(dst []uint32) []uint32 { return r.s.textKey(r.r, dst) }

// RowsUnder returns the rows whose files are under the given paths (a
// folder's files at any depth, or the file itself), as the index knows
// them: what the browser lists at once, before a walk confirms it.
// Paths are made absolute as the index keys them.
func (s *Store) RowsUnder(paths []string) []RowID {
	var roots []string
	for _, p := range paths {
		roots = append(roots, strings.TrimSuffix(s.absDir(p), string(filepath.Separator)))
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	// decide once per folder
	under := make([]int8, len(s.dirs)) // 0 unknown, 1 under a root, -1 not
	isUnder := func(d uint32) bool {
		if under[d] == 0 {
			under[d] = -1
			text := s.dirs[s.dirs[d].abs].text
			for _, r := range roots {
				if strings.HasPrefix(text, r+string(filepath.Separator)) {
					under[d] = 1
				}
			}
		}
		return under[d] > 0
	}
	out := make([]RowID, 0, s.n)
	for id := 0; id < s.n; id++ {
		r := s.rec(RowID(id))
		if Kind(r.kind) != File {
			continue
		}
		if isUnder(r.dir) {
			out = append(out, RowID(id))
			continue
		}
		// a file named itself
		for _, root := range roots {
			if strings.HasSuffix(root, s.name(r)) && s.dirs[s.dirs[r.dir].abs].text+s.name(r) == root {
				out = append(out, RowID(id))
			}
		}
	}
	return slices.Clip(out)
}
