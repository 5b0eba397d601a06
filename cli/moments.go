package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"rewind/decoders"
	"rewind/library"
	"rewind/library/aggregate"
	"rewind/library/dolphin"
	"rewind/model"
	"rewind/theme"
)

var momentsAbout = `List the moments of every replay under the paths that match a query: every
combo of 40% or more on Marth this month, every kill with an up smash, every
Barracks before 2:00. The query's replay terms (player:, char:, stage:,
date:, ...) choose the replays and its moment terms choose the moments:

  kind:combo         stock, kill, conversion, combo, build, train, research
                     (upgrade), miss, badcut, bomb, wall, pause, lap, finish,
                     join, drop, burst, gap, lowlife, fail, ... (a comma
                     list takes several)
  damage:>=40        damage dealt (Melee percent); hits:>=5 moves that hit
  kill, -kill        the punish ended in a kill, or did not
  by:fox on:marth    who did it and to whom: character, name, code, P1 or @me
  move:upsmash       the last or killing move; the unit, structure or upgrade
  start:>90          the victim's percent when it started

A query without moment terms lists every moment of the replays it chooses.
` + withoutPaths + `
The moments come from each replay's summary in the index (made once, by a
full decode); a second run reads no replay. Slippi's combos and conversions
are slippi-js getStats()'s, each listed under its own kind.

--dolphin FILE writes Slippi Dolphin's playback queue of the Slippi moments
found (the comm spec's queue mode: absolute paths, each clip from --lead
frames before the moment to --trail frames after it, within the replay);
play it with Slippi's playback Dolphin: dolphin -i FILE (Slippi Launcher's
playback Dolphin, with the Melee ISO set). Moments of other formats cannot
go to Dolphin; their hand-off is --json.

--limit N lists the first N moments of the order --sort gives (the N
biggest combos: --sort damage --limit N), and --dolphin queues those; the
run then holds N moments, not every match of a large archive.

Without --limit no run holds an archive's moments: by date they are
written replay by replay, in the order of the replays' starts, once the
index knows every start; by damage or length (or with --no-cache) they
are sorted in runs that go to a temporary file in the cache folder and
are merged, and the file is removed when the command ends, interrupted
or not.
`

const momentsNotes = `Output: one line per moment: date, file, frames, time, who did it to whom,
kind and facts. A moment of a replay whose decode stopped early is marked
"partial". With --json one object per moment (NDJSON): {"path", "format",
"start", "kind", "frame", "endFrame", "time", "endTime" (seconds),
"by", "on" ("P1".."Pn"), "byCharacter", "onCharacter", "byCode", "onCode",
"damage", "hits", "kill", "move", "startPercent", "endPercent", "partial"}
(facts a moment has no value for are left out).

Exit status: 0 some moment matched, 1 none did, 2 a path could not be read,
the query or the command line is wrong, or the Dolphin queue could not be
written, 130 interrupted.
`

type momentsOptions struct {
	json, noCache bool
	sort          string
	dolphin       string
	lead, trail   int
	limit         int
}

func momentsCommand() *cobra.Command {
	o := &momentsOptions{}
	cmd := &cobra.Command{
		Use:                   "moments [--json] [--sort damage|date|length] [--limit N] [--dolphin FILE [--lead N] [--trail N]] [--no-cache] [PATH...] QUERY",
		Short:                 "the moments of an archive that match a query (combos, kills, builds...); --dolphin hands them to Slippi Dolphin",
		Long:                  momentsAbout,
		Annotations:           map[string]string{notesKey: momentsNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "write one JSON object per moment (NDJSON)")
	f.StringVar(&o.sort, "sort", "date", "order the moments by `damage`, date or length (the most damage and the longest first)")
	f.IntVar(&o.limit, "limit", 0, "list only the first `N` moments in the --sort order (0: every one); memory stays that of N")
	f.StringVar(&o.dolphin, "dolphin", "", "write Slippi Dolphin's playback queue of the moments to `FILE`")
	f.IntVar(&o.lead, "lead", dolphin.DefaultLead, "with --dolphin, start each clip `N` frames before its moment")
	f.IntVar(&o.trail, "trail", dolphin.DefaultTrail, "with --dolphin, end each clip `N` frames after its moment")
	f.BoolVar(&o.noCache, "no-cache", false, "read every replay; neither use nor fill the index")
	cmd.RegisterFlagCompletionFunc("sort", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"damage", "date", "length"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func (o *momentsOptions) run(c *call, rest []string) int {
	if len(rest) < 1 {
		return c.errorf("needs a QUERY, after the paths to look under, like rewind moments DIR 'kind:combo damage:>=40' (quote a query of several terms)")
	}
	switch o.sort {
	case "damage", "date", "length":
	default:
		return c.errorf("--sort takes damage, date or length, not %q", o.sort)
	}
	if o.lead < 0 || o.trail < 0 {
		return c.errorf("--lead and --trail are frames to add, 0 or more")
	}
	if o.limit < 0 {
		return c.errorf("--limit takes a number of moments, 1 or more (0: every one), not %d", o.limit)
	}
	paths, text := rest[:len(rest)-1], rest[len(rest)-1]
	q, code := parseWhere(c, text)
	if q == nil {
		return code
	}
	// what is kept is kept without pointers, and so costs the collector
	// little: it may run often, and the heap stay near what is live, until
	// the last line is written (the default would let it reach twice that)
	defer library.TuneGC()()
	// an interrupted run stops its scan and lets go of its temporary file
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var idx *library.Index
	if !o.noCache {
		var done func()
		idx, done = c.openIndex()
		defer done()
	}
	w := &momentWriter{o: o, out: c.output()}
	defer w.out.Flush()
	var unreadable bool
	var err error
	switch {
	case o.limit > 0:
		unreadable = o.first(ctx, c, paths, q, idx, w)
	case o.sort == "date" && idx != nil && onDisk(c, paths):
		unreadable, err = o.byDate(ctx, c, paths, q, idx, w)
	default:
		unreadable, err = o.sorted(ctx, c, paths, q, idx, w)
	}
	w.out.Flush()
	switch {
	case ctx.Err() != nil:
		c.notef("interrupted")
		return 130
	case err != nil:
		return c.errorf("%v", err)
	}
	if o.dolphin != "" {
		if code := o.writeDolphin(c, w.clips, w.others); code != 0 {
			return code
		}
	}
	switch {
	case unreadable:
		return 2
	case w.n == 0:
		return 1
	}
	return 0
}

// The orders: moments are written as they come in the date order over an
// index (byDate: replays on disk, which the index holds; the built-in
// samples are sorted as with --no-cache); with --limit the first N are kept as they come (first);
// else a sort in bounded memory puts them in order (sorted).

// momentWriter writes the moments in the order they are handed to it, as
// lines or JSON, and keeps the clips of those Dolphin can play.
type momentWriter struct {
	o   *momentsOptions
	out *output
	n   int // moments written
	// the last replay's path, and as the output shows it: a replay's
	// moments come together, and a path is made safe once for them
	path, shown string
	clips       []dolphin.Clip
	others      map[string]int // moments left out of the queue, by why
}

func (w *momentWriter) write(g *gameView, m *model.MomentRecord) {
	w.n++
	if w.o.json {
		writeJSON(w.out, momentJSON(g, m))
	} else {
		if g.path != w.path || w.shown == "" {
			w.path, w.shown = g.path, w.out.path(g.path)
		}
		fmt.Fprintln(w.out, momentLine(w.shown, g, m))
	}
	if w.o.dolphin == "" {
		return
	}
	if w.others == nil {
		w.others = map[string]int{}
	}
	d := decoders.ByID(g.format)
	switch {
	case d == nil || !d.Dolphin:
		w.others[string(g.format)]++
	case !dolphin.Playable(g.path):
		w.others["packed (unpack them for Dolphin)"]++
	default:
		who := aggregate.Game{Players: g.players}
		w.clips = append(w.clips, dolphin.Clip{Path: g.path, Start: m.Frame, End: m.End, Last: g.last,
			StartAt: g.start, Station: who.Who()})
	}
}

// noteFailed names the replays whose summary could not be made, once the
// scan is done.
func noteFailed(c *call, failed []*aggregate.Game) bool {
	for _, g := range failed {
		c.notef("%s: %s", c.epath(g.Path), theme.Safe(g.Err))
	}
	return len(failed) > 0
}

// failedGame is g when it is a replay whose summary could not be made
// (named once the scan is done), else nil.
func failedGame(g *aggregate.Game) *aggregate.Game {
	if g.Err != "" && g.Err != aggregate.NoSummary {
		// copies: the walk cuts a folder's paths from one string, which
		// a piece of it would keep whole
		return &aggregate.Game{Path: strings.Clone(g.Path), Err: strings.Clone(g.Err)}
	}
	return nil
}

// eachMomentGame hands fn, in walk order, each replay under paths that
// matches q's replay terms and has a summary, with the moments q's moment
// terms match (fn keeps what it needs of the Game): read from the index
// for replays on disk (eachIndexedGame), else as the scan reads them. The
// replays whose summary could not be made are named once the scan is
// done.
func eachMomentGame(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index, fn func(*aggregate.Game)) (unreadable bool) {
	if idx != nil && onDisk(c, paths) {
		return eachIndexedGame(ctx, c, paths, q, idx, fn)
	}
	var failed []*aggregate.Game
	unreadable = eachGameIn(ctx, c, paths, q, idx, true, true, func(g *aggregate.Game) {
		if g.Summary == nil {
			if f := failedGame(g); f != nil {
				failed = append(failed, f)
			}
			return
		}
		fn(g)
	})
	return noteFailed(c, failed) || unreadable
}

// first writes the first --limit moments of the order: the list is cut to
// them as the replays come, so the run holds N moments, not every match
// of a large archive.
func (o *momentsOptions) first(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index, w *momentWriter) bool {
	var list momentList
	keep := list.keepFirst(o.sort, o.limit)
	unreadable := eachMomentGame(ctx, c, paths, q, idx, func(g *aggregate.Game) {
		keep.Add(list.add(g, keep))
	})
	if ctx.Err() != nil {
		return unreadable // the first of what was read are not the first
	}
	order := list.order(o.sort)
	var g gameView
	for _, i := range order[:min(o.limit, len(order))] {
		m := list.record(i, &g)
		w.write(&g, &m)
	}
	return unreadable
}

// sorted writes every moment in the order --sort gives, sorting them in
// runs that go to a temporary file when they fill, and merging the runs.
func (o *momentsOptions) sorted(ctx context.Context, c *call, paths []string, q *library.Query, idx *library.Index, w *momentWriter) (bool, error) {
	s := newMomentSorter(o.sort)
	defer s.close()
	var err error
	scan, stop := context.WithCancel(ctx) // stopped when a run cannot be written
	defer stop()
	unreadable := eachMomentGame(scan, c, paths, q, idx, func(g *aggregate.Game) {
		if err == nil && len(g.Summary.Moments) > 0 {
			if err = s.add(g); err != nil {
				stop()
			}
		}
	})
	if err != nil || ctx.Err() != nil {
		return unreadable, err
	}
	return unreadable, s.each(ctx, func(g *gameView, m *model.MomentRecord) bool {
		w.write(g, m)
		return true
	})
}

// momentLine is a moment for people: date, file (shown: the path as the
// output shows it), frames, who, kind, facts.
func momentLine(shown string, g *gameView, m *model.MomentRecord) string {
	var b strings.Builder
	if !g.start.IsZero() {
		b.WriteString(g.start.Format("2006-01-02 15:04") + "  ")
	}
	b.WriteString(shown)
	if m.End > m.Frame {
		fmt.Fprintf(&b, "  frames %d..%d", m.Frame, m.End)
	} else {
		fmt.Fprintf(&b, "  frame %d", m.Frame)
	}
	b.WriteString("  " + model.FormatDuration(time.Duration(m.Time*float64(time.Second))))
	if who := whoText(g.players, m); who != "" {
		b.WriteString("  " + theme.Safe(who))
	}
	b.WriteString("  " + string(m.Kind))
	if m.Facts.Damage != 0 {
		fmt.Fprintf(&b, " %.0f%%", m.Facts.Damage)
	}
	if m.Facts.Hits != 0 {
		fmt.Fprintf(&b, " %d hits", m.Facts.Hits)
	}
	if m.Facts.Kill {
		b.WriteString(" kill")
	}
	if m.Facts.Move != "" {
		b.WriteString(" " + theme.Safe(m.Facts.Move))
	}
	if m.Facts.StartPercent != 0 {
		fmt.Fprintf(&b, " from %.0f%%", m.Facts.StartPercent)
	}
	if g.partial {
		b.WriteString("  (partial replay)")
	}
	return b.String()
}

// whoText is "P1 Fox → P2 Marth", "P1 Fox", or "→ P2 Marth" (a
// self-destruct).
func whoText(players []aggregate.Player, m *model.MomentRecord) string {
	name := func(p int) string {
		if p < 0 || p >= len(players) {
			return ""
		}
		s := players[p].Slot
		if c := players[p].Character; c != "" {
			s += " " + c
		} else if n := players[p].Name; n != "" {
			s += " " + n
		}
		return s
	}
	by, on := name(m.By), name(m.On)
	switch {
	case on == "" || m.On == m.By:
		return by
	case by == "":
		return "→ " + on
	}
	return by + " → " + on
}

// momentObject is one line of moments --json.
type momentObject struct {
	Path         string       `json:"path"`
	Format       model.Format `json:"format"`
	Start        *time.Time   `json:"start,omitempty"`
	Kind         string       `json:"kind"`
	Frame        int64        `json:"frame"`
	EndFrame     int64        `json:"endFrame"`
	Time         float64      `json:"time"`
	EndTime      float64      `json:"endTime"`
	By           string       `json:"by,omitempty"`
	On           string       `json:"on,omitempty"`
	ByCharacter  string       `json:"byCharacter,omitempty"`
	OnCharacter  string       `json:"onCharacter,omitempty"`
	ByCode       string       `json:"byCode,omitempty"`
	OnCode       string       `json:"onCode,omitempty"`
	Damage       *float64     `json:"damage,omitempty"`
	Hits         *int         `json:"hits,omitempty"`
	Kill         bool         `json:"kill"`
	Move         string       `json:"move,omitempty"`
	StartPercent *float64     `json:"startPercent,omitempty"`
	EndPercent   *float64     `json:"endPercent,omitempty"`
	Partial      bool         `json:"partial"`
}

func momentJSON(g *gameView, m *model.MomentRecord) momentObject {
	j := momentObject{Path: g.path, Format: g.format, Kind: string(m.Kind), Frame: m.Frame, EndFrame: m.End,
		Time: m.Time, EndTime: m.EndTime, Kill: m.Facts.Kill, Move: m.Facts.Move, Partial: g.partial}
	if !g.start.IsZero() {
		t := g.start
		j.Start = &t
	}
	if m.By >= 0 && m.By < len(g.players) {
		p := g.players[m.By]
		j.By, j.ByCharacter, j.ByCode = p.Slot, p.Character, p.Code
	}
	if m.On >= 0 && m.On < len(g.players) {
		p := g.players[m.On]
		j.On, j.OnCharacter, j.OnCode = p.Slot, p.Character, p.Code
	}
	num := func(x float64) *float64 {
		if x == 0 {
			return nil
		}
		return &x
	}
	j.Damage, j.StartPercent, j.EndPercent = num(m.Facts.Damage), num(m.Facts.StartPercent), num(m.Facts.EndPercent)
	if m.Facts.Hits != 0 {
		h := m.Facts.Hits
		j.Hits = &h
	}
	return j
}

// writeDolphin writes the queue of the moments Dolphin can play (clips);
// others counts those it cannot, by why.
func (o *momentsOptions) writeDolphin(c *call, clips []dolphin.Clip, others map[string]int) int {
	if len(others) > 0 {
		var parts []string
		for f, n := range others {
			parts = append(parts, fmt.Sprintf("%d %s", n, f))
		}
		sort.Strings(parts)
		c.notef("--dolphin: left out %s moments: only Slippi replays play in Dolphin (--json hands the others to scripts)", strings.Join(parts, ", "))
	}
	if len(clips) == 0 {
		return c.errorf("--dolphin: no Slippi moment to queue, so %s was not written", c.epath(o.dolphin))
	}
	q, err := dolphin.Queue(clips, int64(o.lead), int64(o.trail))
	if err != nil {
		return c.errorf("--dolphin: %v", err)
	}
	if err := dolphin.Write(o.dolphin, q); err != nil {
		return c.errorf("--dolphin: %s: %v", c.epath(o.dolphin), err)
	}
	abs, _ := filepath.Abs(o.dolphin)
	c.notef("wrote %d clips to %s: play them with Slippi's playback Dolphin: dolphin -i %s", len(clips), c.epath(o.dolphin), c.epath(abs))
	return 0
}
