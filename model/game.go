package model

import "strings"

// What happened in the game, as opposed to what is in the file: moments (a
// stock lost, a combo, a unit trained, a miss, a lap) and per-player stats.
// Both are computed by per-format code that lives next to the format's typed
// data (decoders/<format>/stats.go, moments.go), on first use, because most
// readers of a Replay (check, info, the browser) never ask for them.

// MomentKind names what sort of moment it is. The values are stable: they
// appear in JSON, in the events filter and as timeline marks.
type MomentKind string

// The moment kinds every format draws from. A format uses the ones that
// mean something in its game; a new kind is added here, not invented in a
// decoder, so the TUI can mark and filter it.
const (
	MomentStock      MomentKind = "stock"      // a stock lost (Slippi): By took it (-1: self-destruct), On lost it
	MomentKill       MomentKind = "kill"       // a kill (teehistorian, SC2 unit died): By killed, On died
	MomentConversion MomentKind = "conversion" // a punish: By converted an opening on On (a range)
	MomentCombo      MomentKind = "combo"      // a combo: By comboed On (a range)
	MomentBuild      MomentKind = "build"      // a structure started (SC2)
	MomentTrain      MomentKind = "train"      // a unit trained or born (SC2)
	MomentResearch   MomentKind = "research"   // an upgrade researched (SC2)
	MomentMiss       MomentKind = "miss"       // a note missed (BSOR)
	MomentBadCut     MomentKind = "badcut"     // a bad cut (BSOR)
	MomentBomb       MomentKind = "bomb"       // a bomb hit (BSOR)
	MomentWall       MomentKind = "wall"       // a wall hit (BSOR)
	MomentPause      MomentKind = "pause"      // the game paused (BSOR)
	MomentLap        MomentKind = "lap"        // a lap completed (F-Zero GX)
	MomentCheckpoint MomentKind = "checkpoint" // a checkpoint passed (F-Zero GX)
	MomentFinish     MomentKind = "finish"     // a race or map finished (F-Zero GX, teehistorian)
	MomentJoin       MomentKind = "join"       // a player joined
	MomentDrop       MomentKind = "drop"       // a player left or dropped
	MomentTeam       MomentKind = "team"       // a team change
	MomentChat       MomentKind = "chat"       // a chat line
	MomentVote       MomentKind = "vote"       // a vote called or cast
	MomentEnd        MomentKind = "end"        // the game ended
	MomentBurst      MomentKind = "burst"      // a run of fast presses (a stream): By pressed
	MomentGap        MomentKind = "gap"        // seconds without a press: a break in the map, or a pause
	MomentLowLife    MomentKind = "lowlife"    // a low point of the life bar
	MomentFail       MomentKind = "fail"       // a solo play failed: the life bar ran out
)

// momentAliases are other words players use for a kind: a query's kind:
// takes them too.
var momentAliases = map[string]MomentKind{
	"upgrade": MomentResearch, "death": MomentKill, "punish": MomentConversion,
	"unit": MomentTrain, "structure": MomentBuild, "leave": MomentDrop,
	"stream": MomentBurst, "break": MomentGap,
}

// momentKinds lists every kind, in the order help names them.
var momentKinds = []MomentKind{MomentStock, MomentKill, MomentConversion, MomentCombo, MomentBuild, MomentTrain,
	MomentResearch, MomentMiss, MomentBadCut, MomentBomb, MomentWall, MomentPause, MomentLap, MomentCheckpoint,
	MomentFinish, MomentJoin, MomentDrop, MomentTeam, MomentChat, MomentVote, MomentEnd,
	MomentBurst, MomentGap, MomentLowLife, MomentFail}

// MomentKindNamed returns the kind a word names: the kind itself or an
// alias ("upgrade" is research, "death" a kill).
func MomentKindNamed(s string) (MomentKind, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, k := range momentKinds {
		if string(k) == s {
			return k, true
		}
	}
	k, ok := momentAliases[s]
	return k, ok
}

// MomentKindNames lists the kinds for a sentence.
func MomentKindNames() string {
	names := make([]string, len(momentKinds))
	for i, k := range momentKinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// Moment is what a person would call an event of the game.
type Moment struct {
	Kind MomentKind
	// Frame is the timeline index where it happens or, for a range (a
	// combo), starts; End is the last index of the range, Frame for an
	// instant.
	Frame, End int
	// By is who did it: the attacker of a punish, who took a stock or made
	// a kill, who trained the unit, missed the note, finished the race, won
	// the game. On is who it was done to: the victim of a punish, who lost
	// the stock or died. The same meaning in every format and kind, so a
	// list shows "By → On" and a query says by:fox on:marth. Indices into
	// Replay.Players, -1 when none (a self-destruct has no By; a unit
	// trained has no On).
	By, On int
	// Summary is one line for people, in the game's words: "lost a stock
	// to Marth's forward smash (2 left)", "Train Marine (supply 23/31)".
	Summary string
	// Fields carry the values behind the summary, keyed like event fields,
	// for `dump`, `stats --json` and the details view.
	Fields []Field
	// Span is the bytes that record the moment, when one record does.
	Span Span
	// Facts are the typed values an archive searches and adds up (moment
	// queries, the export's columns), zero where they do not apply.
	Facts MomentFacts
}

// MomentFacts are a moment's numbers, typed so that a query (damage:>=40,
// hits:>=5, kill, move:upsmash, start:>90) and a Parquet column read them
// without parsing a summary.
type MomentFacts struct {
	Damage float64 // damage dealt over the range: percent in Melee
	Hits   int     // moves that hit (a punish), notes, units: what the kind counts
	Kill   bool    // the punish ended in a kill, the unit died
	// Move is the thing the moment names: the last or killing move of a
	// punish ("up smash"), the unit, structure or upgrade of a build
	// ("Barracks"), the note of a miss.
	Move string
	// StartPercent and EndPercent are the victim's percent at the start and
	// end of a punish (Melee); zero elsewhere.
	StartPercent, EndPercent float64
}

// Stats are per-player tables of what happened, for the stats overlay and
// `rewind stats`.
type Stats struct {
	Tables []StatTable
	// Native is the format's own shape for JSON where a well-known tool
	// defines one (Slippi: slippi-js getStats()), so scripts written against
	// that tool read rewind's output. Nil when the tables are all there is.
	Native any
}

// StatTable is one table: either players side by side (Columns are the
// players, one Row a stat) or a list belonging to one player (a build order:
// Columns are headings, one Row a line).
type StatTable struct {
	Key     string   // stable: "overall", "buildOrder", "accuracy"
	Title   string   // for people: "Overall", "Build order (P1 Serral)"
	Player  int      // the player a list belongs to; -1 for players side by side
	Columns []string // column headings
	Rows    []StatRow
}

// StatRow is one row: a label and one cell per column. Frame is the
// timeline index the row points at (a build order line), -1 when none.
type StatRow struct {
	Key   string
	Label string
	Frame int
	Cells []Field
}

// Analysis is what a format's game code finds in a decoded replay.
type Analysis struct {
	Moments []Moment // in frame order
	Stats   Stats
	// Charts are series the game code derives (accuracy over time, APM),
	// drawn in the chart lane beside the decoder's own Replay.Charts.
	Charts []Chart
}

// Analysis returns the replay's moments and stats, computing them on the
// first call (safe from several goroutines). A replay whose format has no
// game code, or that was decoded header-only, gives an empty Analysis.
func (r *Replay) Analysis() *Analysis {
	r.analysisOnce.Do(func() {
		if r.Analyze != nil {
			r.analysis = r.Analyze()
		}
		if r.analysis == nil {
			r.analysis = &Analysis{}
		}
	})
	return r.analysis
}
