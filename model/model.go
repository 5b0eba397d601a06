// Package model is rewind's format-neutral timeline: what every decoder fills
// and what the TUI and the CLI read.
//
// A Replay is one decoded file. It has
//
//   - a Header: ordered, labelled Fields (with nested groups) describing the
//     game, each carrying the Span of bytes it came from;
//   - Players: who took part, with their static fields;
//   - a Timeline: frames indexed 0..Count-1, each with a format label (the
//     Slippi frame number -123, "loop 1234", a song time) and a game time;
//   - Events: things that happened at a frame, each a small record (kind,
//     player, flags and the Span of bytes that encode it, as small
//     integers) whose one-line summary and fields the format makes on
//     demand (Replay.EventSummary, Replay.EventFields);
//   - Diagnostics: what is wrong with the file, with the offset, what the
//     decoder expected and what it found;
//   - player state at any frame in O(1) through a State function that the
//     decoder backs with its own arrays, and optional pictures (Scenes for
//     the stage view, Charts for the chart lane).
//
// Frames are always addressed by index (0-based, contiguous). The number a
// format gives a frame is Timeline.Number(index); only the decoder knows how
// to turn the number into a label. This keeps seeking O(1) for every format.
//
// The model never parses bytes and never styles text for a terminal:
// decoders produce values and names, the TUI decides how they look.
package model

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Format identifies a replay format: "slippi", "sc2". Each format's package
// declares its own (decoders/format); the values are stable, in JSON output,
// queries and the index.
type Format string

// DecodeOptions tune a decoder. The zero value decodes everything.
type DecodeOptions struct {
	// HeaderOnly asks for the header, players and summary values (Start,
	// Title, Duration, Result, Version) without the timeline. Decoders skip
	// as much as they can; the browser lists folders this way.
	HeaderOnly bool
	// NoEvents asks for a decode that reads and checks every byte as the
	// whole decode does (the same diagnostics in the same order, the same
	// header, players, timeline, state and analysis) but keeps no event
	// records, and a format may leave out its Charts (Slippi does): what a
	// check needs, without the memory of what it never reads. A format whose game code reads its events (teehistorian)
	// keeps them; Follow ignores it.
	NoEvents bool
	// Progress, when set, is called from time to time with the bytes
	// decoded so far and the total. It must be cheap.
	Progress func(done, total int64)
	// Limits overrides the decode budget, which is otherwise derived from
	// the file's size (decoders/internal/budget). Tests scale it down so a
	// crafted input hits it in milliseconds; zero fields keep the default.
	Limits Limits
}

// Limits are a decode budget's two allowances.
type Limits struct {
	Bytes int64 // memory a decode may allocate on the file's word
	Steps int64 // loop iterations a decode may spend on the file's word
}

// Replay is one decoded replay file. Decoders build it, call Finish, and
// hand it out; after that it is read-only and safe to share.
type Replay struct {
	Format     Format
	FormatName string // for people: "Slippi", "BSOR", "DDNet teehistorian", ...
	Version    string // format or recorder version as the file states it
	Path       string // filled by decoders.Open
	Size       int64  // bytes in the file

	// Summary values for lists and `rewind info`.
	Start    time.Time     // when the game was played; zero when unknown
	Title    string        // stage, map, song or course
	Mode     string        // "online ranked", "Time Attack", "1v1 Faster", ...
	Duration time.Duration // length of play; zero when unknown
	Result   string        // how it ended: "GAME!", "No Contest", "finished", ...
	Partial  bool          // the decoder stopped early (truncated, corrupt, header-only)

	Header  []Field
	Players []Player

	Timeline Timeline
	// Events are in frame order (Finish), each a small record without
	// pointers (see Event); what they are called comes from the tables:
	// Kinds names Event.Kind, Marks the format's flag bits, StreamNames
	// the inner streams an Event.Stream points into.
	Events      []Event
	Kinds       []string
	Marks       []string
	StreamNames []string

	Diagnostics []Diagnostic

	// Data is the file's bytes, for the hex inspector. Streams holds the
	// named inner streams (SC2 archive members) that Spans can refer to.
	Data    []byte
	Streams map[string][]byte
	// LoadStream, when set, returns an inner stream that Streams does not
	// hold, reading it on first use (SC2 decompresses an archive member
	// only when something reads it). It is safe for concurrent use.
	LoadStream func(name string) []byte
	// Regions are the container's own structure in the file (see Region);
	// nil for formats without a container.
	Regions []Region

	// State returns a player's state at a frame index. It must be O(1) in
	// the length of the replay. Nil when the format has no per-frame state.
	State func(frame, player int) PlayerState
	// Detail expands an event into its full fields, and Summarize writes
	// its one-line summary: the format makes both on demand, from the
	// event's bytes or from its own typed arrays (Event.Ref), so that an
	// event record stays small. Nil when the format has no events.
	Detail    func(ev *Event) []Field
	Summarize func(ev *Event) string
	// Scenes returns what the stage view draws at a frame; nil when the
	// format has nothing to draw.
	Scenes func(frame int) []Scene
	// Charts are series over the whole timeline for the chart lane.
	Charts []Chart
	// Analyze computes the moments and stats (see Analysis); nil when the
	// format has no game code. Called at most once.
	Analyze func() *Analysis
	// LeanSummary, when set, makes the replay's archive summary without
	// the whole Analysis: the format's Summarize calls it when the
	// analysis is far more than a summary reads (SC2's moment texts,
	// tables and charts) and the decoder can walk what it decoded again,
	// leaner. Nil elsewhere.
	LeanSummary func() *Summary
	// FrameRows hands the format's typed per-frame rows to yield in
	// batches, each a slice of the row type the format's registry entry
	// names (decoders/frames); `rewind export` writes them to Parquet. Nil
	// when the format yields none this way or the decode was header-only.
	FrameRows func(yield func(batch any) error) error

	eventStart  []int       // eventStart[f] is the first event index at frame f, built on first use
	startOnce   sync.Once   // guards eventStart
	finished    bool        // Finish ran: the events are in frame order
	byOffset    []int32     // event indices sorted by span, built on first use
	offsetOnce  sync.Once   // guards byOffset: EventAt may be called from several goroutines
	offsetReady atomic.Bool // byOffset is built: a later snapshot may extend it (FinishGrown)

	analysis     *Analysis
	analysisOnce sync.Once
}

// Field is one decoded value with its name and the bytes it came from.
type Field struct {
	// Key is a stable machine key derived from the spec's field name,
	// lowerCamelCase ("actionStateId", "stageId"). JSON output uses it.
	Key string
	// Label is the spec's name for people ("Action State ID").
	Label string
	// Value is the decoded value: bool, int64, uint64, float64, string,
	// []byte, time.Time, time.Duration, or nil for a pure group.
	Value any
	// Name is what Value means when it is an id, an enum or a bit set
	// ("WAIT", "A+Z", "Battlefield"); empty when Value speaks for itself.
	Name string
	// Span is where the value is in the file (or inner stream).
	Span Span
	// Fields holds the members of a group (a struct, a port, a section).
	Fields []Field
}

// Text is the field as one would read it: the name when there is one, the
// formatted value otherwise.
func (f Field) Text() string {
	if f.Name != "" {
		return f.Name
	}
	return FormatValue(f.Value)
}

// Raw is the formatted value without the name, the "number one key away".
func (f Field) Raw() string { return FormatValue(f.Value) }

// FormatValue renders a field value for text output.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return fmt.Sprintf("%g", x)
	case float32:
		return fmt.Sprintf("%g", x)
	case []byte:
		if len(x) > 32 {
			return fmt.Sprintf("% x … (%d bytes)", x[:32], len(x))
		}
		return fmt.Sprintf("% x", x)
	case time.Time:
		if x.IsZero() {
			return ""
		}
		return x.Format(time.RFC3339)
	case time.Duration:
		return FormatDuration(x)
	default:
		return fmt.Sprint(x)
	}
}

// FormatDuration shows a game time as m:ss.cc (or h:mm:ss.cc), with a sign
// for negative times such as Slippi's pre-game countdown.
func FormatDuration(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign = "-"
		d = -d
	}
	cs := int64(d / (10 * time.Millisecond))
	h, m, s, c := cs/360000, cs/6000%60, cs/100%60, cs%100
	if h > 0 {
		return fmt.Sprintf("%s%d:%02d:%02d.%02d", sign, h, m, s, c)
	}
	return fmt.Sprintf("%s%d:%02d.%02d", sign, m, s, c)
}

// FormatCount writes an integer with thousands separators: 28,800.
func FormatCount(n int64) string {
	s := fmt.Sprint(n)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	b := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		b = append(b, '-')
	}
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// SameValue reports whether two Field values are the same value of the
// same type. NaN equals NaN (a garbage float in the same place of both files is
// no difference); byte slices compare by content, times by instant.
func SameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	case float32:
		y, ok := b.(float32)
		return ok && (x == y || x != x && y != y)
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case bool, string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, time.Duration:
		return a == b
	}
	return reflect.DeepEqual(a, b)
}

// Find returns the first field with the key, searching groups depth first.
func Find(fields []Field, key string) (Field, bool) {
	for _, f := range fields {
		if f.Key == key {
			return f, true
		}
		if g, ok := Find(f.Fields, key); ok {
			return g, true
		}
	}
	return Field{}, false
}

// Span is a byte range in the file, or in a named inner stream when Stream
// is set (SC2: "replay.tracker.events").
type Span struct {
	Stream string
	Off    int64
	Len    int64
}

// End is the offset just past the span.
func (s Span) End() int64 { return s.Off + s.Len }

// Contains reports whether the offset in the span's stream is inside it.
func (s Span) Contains(stream string, off int64) bool {
	return s.Stream == stream && off >= s.Off && off < s.Off+s.Len
}

// String renders the start of the span: "0x12f0" or "replay.tracker.events+0x1a2c".
func (s Span) String() string {
	if s.Stream != "" {
		return fmt.Sprintf("%s+%#x", s.Stream, s.Off)
	}
	return fmt.Sprintf("%#x", s.Off)
}

// Player is one participant with what does not change during the game.
type Player struct {
	Slot      string // "P1".."Pn" in every format (Slippi's port, a teehistorian client id + 1)
	Name      string // display name, tag or player name
	Code      string // connect code, toon handle, platform id
	Character string // character, race, machine or platform, as a name
	Team      string
	Result    string // "1st", "Win", "Loss", "finished"; empty when unknown
	Fields    []Field
}

// Label is the short way to name the player in a list: "P1 Fox".
func (p Player) Label() string {
	s := p.Slot
	if p.Character != "" {
		s += " " + p.Character
	}
	return s
}

// PlayerState is a player's state at one frame.
type PlayerState struct {
	Present bool
	// Brief is the few fields the players pane shows on one line
	// (percent, stocks, action; score, combo; minerals, supply).
	Brief []Field
	// Fields is the full state, as `rewind dump` writes it.
	Fields []Field
}

// Severity orders diagnostics.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	default:
		return "error"
	}
}

// MarshalText makes severities readable in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one problem found in a file.
type Diagnostic struct {
	Severity Severity
	Source   string // decoder name: "slippi", "mpq", "sc2"
	Span     Span   // where; Len 0 when it is a position, not a range
	Frame    int    // timeline index it concerns, -1 when none
	Subject  string // what was being read: "event 0x55", "section 3"
	Message  string // what is wrong: "not in Event Payloads"
	Expected string // what the decoder expected there, when it can say
	Found    string // what it found
	Skipped  bool   // Span is a range the decoder skipped to resynchronise
}

// String is the one-line form: "slippi: event 0x55 at 0x12f0: not in Event Payloads".
func (d Diagnostic) String() string {
	s := d.Source + ": "
	if d.Subject != "" {
		s += d.Subject + " "
	}
	s += "at " + d.Span.String() + ": " + d.Message
	switch {
	case d.Expected != "" && d.Found != "":
		s += fmt.Sprintf(" (expected %s, found %s)", d.Expected, d.Found)
	case d.Expected != "":
		s += fmt.Sprintf(" (expected %s)", d.Expected)
	case d.Found != "":
		s += fmt.Sprintf(" (found %s)", d.Found)
	}
	return s
}

// Scene is one picture of the game at a frame for the stage view.
type Scene struct {
	Title  string
	Bounds Rect    // world coordinates to fit on the canvas; Y grows upwards
	Lines  []Line  // static geometry: stage platforms, the map edge
	Points []Point // things at this frame
}

// Rect is an axis-aligned box in world coordinates.
type Rect struct{ MinX, MinY, MaxX, MaxY float64 }

// Line is a segment to draw.
type Line struct{ X1, Y1, X2, Y2 float64 }

// Point is one thing drawn on a scene.
type Point struct {
	X, Y   float64
	Player int    // index into Players, -1 when none
	Kind   string // "player", "item", "head", "hand", "checkpoint", "unit"
	Label  string
	// FacingX, FacingY is the way the thing faces, as a direction in the
	// scene's coordinates (only the direction counts); both zero when the
	// format does not say. Slippi: (1, 0) facing right, (-1, 0) left.
	FacingX, FacingY float64
}

// Chart is a small plot over the whole timeline.
type Chart struct {
	Title  string
	Series []Series
}

// Series is one line of a chart. Values[i] is the value at frame index
// i*Count/len(Values), so a decoder may sample a long timeline.
type Series struct {
	Label  string
	Player int // -1 when not a player's
	Values []float64
}

// Finish sorts the events by frame (keeping file order within a frame) and
// builds the frame index. Decoders call it once before returning.
func (r *Replay) Finish() {
	// decoders that read in frame order hand the events over sorted already
	byFrame := func(i, j int) bool { return r.Events[i].Frame < r.Events[j].Frame }
	if !sort.SliceIsSorted(r.Events, byFrame) {
		sort.SliceStable(r.Events, byFrame)
	}
	// the frame index is built on first use: a header-only listing
	// finishes thousands of replays with long timelines and never asks
	r.eventStart = nil
	r.startOnce = sync.Once{}
	r.finished = true
	r.byOffset = nil
	r.offsetOnce = sync.Once{}
	r.offsetReady.Store(false)
}

// frameIndex returns eventStart, building it on the first call (safe from
// several goroutines); nil before Finish.
func (r *Replay) frameIndex() []int {
	r.startOnce.Do(func() {
		if !r.finished {
			return
		}
		n := r.Timeline.Count
		idx := make([]int, n+1)
		e := 0
		for f := 0; f <= n; f++ {
			for e < len(r.Events) && int(r.Events[e].Frame) < f {
				e++
			}
			idx[f] = e
		}
		r.eventStart = idx
	})
	return r.eventStart
}

// EventRange returns the indices [lo, hi) of the events at frame f.
func (r *Replay) EventRange(f int) (lo, hi int) {
	idx := r.frameIndex()
	if f < 0 || f >= r.Timeline.Count || len(idx) != r.Timeline.Count+1 {
		return 0, 0
	}
	return idx[f], idx[f+1]
}

// FirstEventAtOrAfter returns the index of the first event at frame f or
// later (len(Events) when none).
func (r *Replay) FirstEventAtOrAfter(f int) int {
	idx := r.frameIndex()
	if len(idx) != r.Timeline.Count+1 {
		return 0
	}
	if f < 0 {
		return 0
	}
	if f >= r.Timeline.Count {
		return len(r.Events)
	}
	return idx[f]
}

// PlayerState returns the state of player p at frame f, or an absent state.
func (r *Replay) PlayerState(f, p int) PlayerState {
	if r.State == nil || f < 0 || f >= r.Timeline.Count || p < 0 || p >= len(r.Players) {
		return PlayerState{}
	}
	return r.State(f, p)
}

// SceneAt returns the stage view's scenes at frame f.
func (r *Replay) SceneAt(f int) []Scene {
	if r.Scenes == nil || f < 0 || f >= r.Timeline.Count {
		return nil
	}
	return r.Scenes(f)
}

// Bytes returns the bytes a span refers to: the file, or an inner stream.
func (r *Replay) Bytes(stream string) []byte {
	if stream == "" {
		return r.Data
	}
	if b, ok := r.Streams[stream]; ok || r.LoadStream == nil {
		return b
	}
	return r.LoadStream(stream)
}

// Problems counts diagnostics of warning severity or worse.
func (r *Replay) Problems() int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Severity >= Warning {
			n++
		}
	}
	return n
}

// FirstProblem words the first warning or error of diags, for a sentence
// that says why something failed ("no diagnostic" when there is none).
func FirstProblem(diags []Diagnostic) string {
	for _, d := range diags {
		if d.Severity >= Warning {
			return d.String()
		}
	}
	return "no diagnostic"
}

// Worst returns the highest severity among the diagnostics, and false when
// there are none.
func (r *Replay) Worst() (Severity, bool) {
	if len(r.Diagnostics) == 0 {
		return Info, false
	}
	w := Info
	for _, d := range r.Diagnostics {
		if d.Severity > w {
			w = d.Severity
		}
	}
	return w, true
}

// ErrNotSupported is returned by a decoder that recognises its format but
// cannot decode it yet.
var ErrNotSupported = errors.New("not supported yet")

// FormatError is a decoder's refusal of a file it cannot read at all; it
// names the offset and what was expected there, like debug/elf's.
type FormatError struct {
	Source string // decoder name
	Off    int64
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: at %#x: %s", e.Source, e.Off, e.Msg)
}

// BudgetError is a decode that ran into its budget: the memory and work a
// file's size can justify (decoders/internal/budget). Decoders record it as
// an error Diagnostic and keep what they decoded before it, so a file that
// hit the budget is never reported clean.
type BudgetError struct {
	What   string // the stream or count that asked: "replay.details: player structs"
	Unit   string // "bytes" or "steps"
	Wanted int64  // what it asked for
	Left   int64  // what was left of the budget when it asked
	Limit  int64  // the whole budget
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%s needs %s %s but the decode budget has %s of %s left",
		e.What, FormatCount(e.Wanted), e.Unit, FormatCount(e.Left), FormatCount(e.Limit))
}
