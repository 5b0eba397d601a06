package sc2

import (
	"fmt"
	"strings"
	"time"

	"rewind/decoders/sc2/protocol"
	"rewind/model"
)

// merge ties what the streams decoded together: which lobby user is which
// player (the user of the slot the player sits in, seatPlayers; by name a
// user no slot seats; the tracker's player setup, which agrees), the map
// size, the lobby's fields.
func (d *decoder) merge() {
	if in := d.init; in != nil {
		d.r.Header = append(d.r.Header, in.field)
		d.mapW, d.mapH = in.mapW, in.mapH
		for _, s := range in.slots {
			if s.user >= 0 && s.seat >= 0 {
				d.userToPl[s.user] = s.seat
			}
		}
		// Wings of Liberty users are slots (below).
		if in.p.User >= 0 {
			for uid, pi := range in.namedUsers {
				if _, seen := d.userToPl[uid]; !seen {
					d.userToPl[uid] = pi
				}
			}
		}
	}
	if d.tr != nil {
		for uid, pi := range d.tr.setupUsers {
			d.userToPl[uid] = pi
		}
	}
	// Game and message events of tables without a user id type (Wings of
	// Liberty's, the HotS beta's) number their senders from 1 in the order
	// of the lobby's occupied slots, observers' included; 16 is the game
	// itself (sc2reader reads them the same: replay.entity[pid]).
	if d.init != nil && (d.game != nil && d.game.table.p.User < 0 || d.msgs != nil && d.msgs.table.p.User < 0) {
		d.occupiedToPl = map[int]int{}
		k := 0
		for _, s := range d.init.slots {
			if !s.occupied() {
				continue
			}
			k++
			if s.seat >= 0 {
				d.occupiedToPl[k] = s.seat
			}
		}
	}
	d.tableNote()
}

// tableNote lists the protocol tables the bit-packed streams were read
// with, and says once when that is not the file's own build's table (a
// build Blizzard published none for, or whose table does not read them).
func (d *decoder) tableNote() {
	var used []model.Field
	borrowed := map[int][]string{}
	var bases []int
	for _, s := range []struct {
		name  string
		base  int
		exact bool
	}{{d.initStream, d.initBase(), true}, {fGame, d.tableBase(d.game), d.game != nil && d.game.exact},
		{fMessages, d.msgBase(), d.msgs != nil && d.msgs.exact}} {
		if s.base == 0 {
			continue
		}
		what := fmt.Sprintf("table of base build %d", s.base)
		if p := protocol.Get(s.base); p != nil && p.Derived != 0 {
			// not Blizzard's: gen/patches.txt says how it was made
			what = fmt.Sprintf("table derived for base build %d from %d's", s.base, p.Derived)
		}
		used = append(used, model.Field{Key: fileKey(s.name), Label: s.name, Value: int64(s.base), Name: what})
		if s.base != d.baseBuild && s.exact {
			if borrowed[s.base] == nil {
				bases = append(bases, s.base)
			}
			borrowed[s.base] = append(borrowed[s.base], s.name)
		}
	}
	if len(used) > 0 {
		d.r.Header = append(d.r.Header, model.Field{Key: "protocolTables", Label: "Protocol tables used", Fields: used})
	}
	why := fmt.Sprintf("Blizzard published no table for base build %d", d.baseBuild)
	if p := protocol.Get(d.baseBuild); p != nil {
		why = fmt.Sprintf("the table of base build %d does not read them to their end", d.baseBuild)
		if p.Derived != 0 {
			why = fmt.Sprintf("the table derived for base build %d does not read them to their end", d.baseBuild)
		}
	}
	for _, b := range bases {
		streams := borrowed[b]
		d.diag(model.Info, model.Span{Stream: streams[0]}, strings.Join(streams, ", "),
			fmt.Sprintf("read with the table of base build %d, the nearest that reads them to their last byte: %s", b, why), "", "", false)
	}
}

func (d *decoder) initBase() int {
	if d.init == nil {
		return 0
	}
	return d.init.p.Base
}

func (d *decoder) tableBase(g *gameStream) int {
	if g == nil {
		return 0
	}
	return g.table.p.Base
}

func (d *decoder) msgBase() int {
	if d.msgs == nil {
		return 0
	}
	return d.msgs.table.p.Base
}

// finish sets the timeline and the summary values.
func (d *decoder) finish() {
	r := d.r
	d.rate = 16 * speedFactor[d.speed]
	if d.rate == 0 {
		d.rate = 22.4
	}
	// Each stream's events are in loop order; merging them into one slice
	// of the final size keeps the model's sort from having anything to do.
	var kinds kindTable
	kEnd := kinds.id("end")
	var srcs []eventSource
	if d.msgs != nil {
		srcs = append(srcs, d.msgs.source(d, &kinds))
	}
	if d.tr != nil {
		srcs = append(srcs, d.tr.source(&kinds))
	}
	if d.game != nil {
		srcs = append(srcs, d.game.source(d, &kinds))
	}
	if !d.opt.NoEvents {
		r.Events = mergeByFrame(srcs)
	}
	r.Kinds, r.StreamNames = kinds.names, streamNames
	if !d.hasLoops {
		// no usable header: let the timeline reach the last event the
		// file's size can justify
		for _, s := range srcs {
			for i := range s.n {
				if f := s.frame(i); f > d.loops && f <= d.limit() {
					d.loops = f
				}
			}
		}
	}
	d.timeline()
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
	d.installMessages(kEnd)
	if d.tr != nil {
		d.tr.install(d)
	}
	d.installGame()
	if !d.opt.NoEvents && (len(r.Events) > 0 || d.loops > 0) {
		r.Events = append(r.Events, model.Event{Frame: int32(d.loops), Player: -1, Kind: kEnd, Flags: model.Notable, Ref: -1})
	}
	// Events past the header's last loop (reported by their stream) are
	// shown at the last frame.
	for i := range r.Events {
		if int(r.Events[i].Frame) > d.loops {
			r.Events[i].Frame = int32(d.loops)
		}
		if r.Events[i].Frame < 0 {
			r.Events[i].Frame = 0
		}
	}
	d.budgetDiagnostic()
	r.Analyze = d.analyze
	if !d.opt.HeaderOnly {
		r.LeanSummary = d.leanSummary
	}
	r.Finish()
}

// The inner streams events are in: Event.Stream k is streamNames[k-1].
const (
	sMessages model.StreamID = 1 + iota
	sTracker
	sGame
)

var streamNames = []string{fMessages, fTracker, fGame}

// kindTable is a replay's event kinds, each name once, in the order first
// asked for: the game events' kinds depend on the build's protocol.
type kindTable struct {
	names []string
	ids   map[string]model.KindID
}

func (k *kindTable) id(name string) model.KindID {
	if id, ok := k.ids[name]; ok {
		return id
	}
	if k.ids == nil {
		k.ids = map[string]model.KindID{}
	}
	id := model.KindID(len(k.names))
	k.names = append(k.names, name)
	k.ids[name] = id
	return id
}

// eventSource is one stream's events in frame order, made one at a time
// into their place in the merged list.
type eventSource struct {
	n     int
	frame func(i int) int
	event func(i int, ev *model.Event) // ev is zero
}

// mergeByFrame merges the sources into one slice (with room for the end
// event), keeping the order of the sources for events of the same frame.
func mergeByFrame(srcs []eventSource) []model.Event {
	n := 1
	for _, s := range srcs {
		n += s.n
	}
	out := make([]model.Event, 0, n)
	pos := make([]int, len(srcs))
	next := make([]int, len(srcs)) // frame of each source's next event
	for i, s := range srcs {
		if s.n > 0 {
			next[i] = s.frame(0)
		}
	}
	for {
		best := -1
		for i, s := range srcs {
			if pos[i] < s.n && (best < 0 || next[i] < next[best]) {
				best = i
			}
		}
		if best < 0 {
			return out
		}
		s := srcs[best]
		out = out[:len(out)+1]
		s.event(pos[best], &out[len(out)-1])
		pos[best]++
		if pos[best] < s.n {
			next[best] = s.frame(pos[best])
		}
	}
}

// installGame hands the game events' summaries and fields to the replay,
// after the tracker's (which pass on what is not theirs).
func (d *decoder) installGame() {
	g := d.game
	if g == nil {
		return
	}
	prevSum, prevDetail := d.r.Summarize, d.r.Detail
	d.r.Summarize = func(ev *model.Event) string {
		if ev.Stream != sGame || ev.Ref < 0 || int(ev.Ref) >= len(g.events) {
			if prevSum != nil {
				return prevSum(ev)
			}
			return ""
		}
		return g.summary(d, &g.events[ev.Ref])
	}
	d.r.Detail = func(ev *model.Event) []model.Field {
		if ev.Stream != sGame || ev.Ref < 0 || int(ev.Ref) >= len(g.events) {
			if prevDetail != nil {
				return prevDetail(ev)
			}
			return nil
		}
		return g.detail(d, &g.events[ev.Ref])
	}
}

// timeline makes a frame of every game loop. Time is real time (loops /
// 22.4 on Faster), which playback follows. The label is the clock as the
// game client showed it: real time where the header says the game used
// scaled time (Legacy of the Void), game time before (Wings of Liberty
// and Heart of the Swarm counted loops / 16 as seconds on any speed), so
// for those the label and the real time differ. Timeline.Number is the loop.
func (d *decoder) timeline() {
	r := d.r
	rate := d.rate
	realTime := func(i int) time.Duration { return time.Duration(float64(i) / rate * float64(time.Second)) }
	gameTime := func(i int) time.Duration { return time.Duration(i) * time.Second / 16 }
	clock := gameTime
	clockName := "game time (loops / 16), as the client showed it"
	if d.scaledTime || rate == 16 {
		clock = realTime
		clockName = "real time, as the client showed it"
	}
	r.Timeline = model.Timeline{Count: d.loops + 1, First: 0, Rate: rate, Unit: "loop",
		LabelOf: func(i int) string { return model.FormatDuration(clock(i)) },
		TimeOf:  realTime,
	}
	if !d.scaledTime && rate != 16 {
		r.Timeline.Clock, r.Timeline.ClockName = gameTime, "game time"
	}
	r.Duration = realTime(d.loops)
	for i := range r.Header {
		if r.Header[i].Key == "replayHeader" {
			r.Header[i].Fields = append(r.Header[i].Fields,
				model.Field{Key: "gameLength", Label: "Game length", Value: clock(d.loops), Name: model.FormatDuration(clock(d.loops)) + " " + clockName},
				model.Field{Key: "realLength", Label: "Real length", Value: r.Duration})
		}
	}
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
