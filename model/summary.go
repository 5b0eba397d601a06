package model

// A Summary is what an archive keeps of one replay beyond its header: how
// each player's game ended, the stats an archive adds up, and the moments an
// archive searches. A format's code makes it in one pass over a full decode
// (decoders/<format>); the library stores it in the index beside the
// header, under the same freshness rule, so `stats --by` and `moments` over
// thousands of replays read the index and not the replays. It is small and
// holds no pointers into the replay.

// Outcome is how a game ended for one player, as a word a script compares.
// The values are stable: they appear in JSON and in the index.
type Outcome string

const (
	OutcomeUnknown    Outcome = ""           // the file does not say
	OutcomeWin        Outcome = "win"        // won, or the player's team won; a solo play cleared or a race finished first
	OutcomeLoss       Outcome = "loss"       // lost, or the team lost; a solo play failed
	OutcomeDraw       Outcome = "draw"       // a tie
	OutcomeNoContest  Outcome = "no-contest" // the game ended without a result (Slippi's No Contest when another player quit)
	OutcomeQuit       Outcome = "quit"       // the player left the game: Slippi's LRAS, an SC2 player who left
	OutcomeDisconnect Outcome = "disconnect" // the player's connection dropped
)

// Outcomes lists every outcome a summary can carry, known ones first, in
// the order reports show them.
var Outcomes = []Outcome{OutcomeWin, OutcomeLoss, OutcomeDraw, OutcomeNoContest, OutcomeQuit, OutcomeDisconnect, OutcomeUnknown}

// Summary is one replay's archive record (see the package comment above).
type Summary struct {
	// Players is parallel to Replay.Players.
	Players []PlayerSummary
	// Moments are the moments an archive searches, in frame order, with the
	// frame numbers and times the timeline gives them.
	Moments []MomentRecord
	// First and Last are the format's numbers of the timeline's first and
	// last frames (Slippi: -123 and the last frame), so a moment's range can
	// be widened without leaving the replay. Summarized fills them.
	First, Last int64
	// Declares says the players' Declared outcomes are set; without it
	// the Outcome is the game's own result.
	Declares bool
}

// DeclaredOf is player i's outcome as the game's own result gives it:
// Declared when the summary sets it, else Outcome.
func (s *Summary) DeclaredOf(i int) Outcome {
	if s.Declares {
		return s.Players[i].Declared
	}
	return s.Players[i].Outcome
}

// Summarized is the replay's summary as its format's summarize makes it
// (nil: a summary with no stats or moments), with what every summary
// carries filled in from the replay: a player entry for each player and
// the timeline's first and last frame numbers.
func (r *Replay) Summarized(summarize func(*Replay) *Summary) *Summary {
	var s *Summary
	if summarize != nil {
		s = summarize(r)
	}
	if s == nil {
		s = &Summary{}
	}
	for len(s.Players) < len(r.Players) {
		s.Players = append(s.Players, PlayerSummary{})
	}
	s.Players = s.Players[:len(r.Players)]
	if tl := &r.Timeline; tl.Count > 0 {
		s.First, s.Last = tl.Number(0), tl.Number(tl.Count-1)
	}
	return s
}

// PlayerSummary is one player's side of a game.
type PlayerSummary struct {
	Outcome Outcome
	// Declared is the outcome the game's own result gives, in a summary
	// that tells it apart from Outcome (Summary.Declares): Slippi's as
	// slippi-js's getWinners reads the placements, an LRAS and the timer,
	// where Outcome also reads a GAME! without placements from the stocks
	// left. The query language's winner: and loser: ask it (DeclaredOf).
	Declared Outcome
	// Stats are the values an archive adds up, keyed like the format's JSON
	// stats (slippi-js's names for Slippi); how each combines across games
	// is the format's StatDef for the key.
	Stats []Stat
}

// Stat is one value of one player in one game. A Name makes it one bucket
// of a tally (Key "killMoves", Name "up smash", Value 2): groups add up
// buckets by name.
type Stat struct {
	Key   string
	Name  string
	Value float64
}

// Agg says how a stat combines over the games of a group.
type Agg uint8

const (
	// AggSum adds the values up; the mean is the sum over the games that
	// have the stat.
	AggSum Agg = iota
	// AggMin keeps the least value (a best time), AggMax the greatest (a
	// best score); the mean is still over the games.
	AggMin
	AggMax
	// AggTally adds up buckets by Name (the most frequent kill moves).
	AggTally
	// AggRatio is a ratio of two summed stats, Num / Den, computed from the
	// group's sums (openings per kill = conversions / kills), never a mean
	// of per-game ratios. It has no per-game values of its own.
	AggRatio
)

// Unit says what a stat's numbers are, so writers can show and name them.
type Unit uint8

const (
	UnitCount   Unit = iota // a count or a plain number
	UnitSeconds             // a duration in seconds
	UnitPercent             // a fraction shown as a percent (0.87 is 87%)
	UnitDamage              // Melee percent damage (a number shown with %)
)

// StatDef is a format's description of one stat key: how it reads and how
// groups combine it. A format lists its StatDefs in the order reports show
// them (decoders/<format>'s Format value).
type StatDef struct {
	Key   string
	Label string // for people: "Kills", "Openings per kill"
	// Short, when set, makes the stat a column of the tables that add up an
	// archive (stats --by, the aggregate view), titled with it: "op/kill".
	// The others are in the JSON and the details only.
	Short string
	Agg   Agg
	Unit  Unit
	// Num and Den name the summed stats of an AggRatio; Scale multiplies
	// the ratio (1 when zero).
	Num, Den string
	Scale    float64
}

// MomentRecord is a moment as the archive keeps it: no fields or summary
// line, but where it is (frame numbers as the format counts them, so a
// Slippi record can be handed to Dolphin, and game times in seconds), who
// did it to whom, and its facts.
type MomentRecord struct {
	Kind MomentKind
	// Frame and End are the format's frame numbers (Slippi counts from
	// -123; Timeline.Number); Time and EndTime the game times in seconds.
	Frame, End    int64
	Time, EndTime float64
	By, On        int // indices into the players, -1 when none
	Facts         MomentFacts
}

// RecordMoments makes the archive records of moments on the replay's
// timeline.
func (r *Replay) RecordMoments(ms []Moment) []MomentRecord {
	if len(ms) == 0 {
		return nil
	}
	return r.AppendMomentRecords(make([]MomentRecord, 0, len(ms)), ms)
}

// AppendMomentRecords appends the records of moments to out: a format that
// makes its moments a few at a time (SC2's summary) writes their records
// into one list, with no list of each few to drop.
func (r *Replay) AppendMomentRecords(out []MomentRecord, ms []Moment) []MomentRecord {
	tl := &r.Timeline
	for _, m := range ms {
		f, e := tl.Clamp(m.Frame), tl.Clamp(max(m.End, m.Frame))
		out = append(out, MomentRecord{Kind: m.Kind, Frame: tl.Number(f), End: tl.Number(e),
			Time: tl.Time(f).Seconds(), EndTime: tl.Time(e).Seconds(), By: m.By, On: m.On, Facts: m.Facts})
	}
	return out
}
