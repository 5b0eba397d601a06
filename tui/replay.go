package tui

import (
	"fmt"
	"sort"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"rewind/model"
	"rewind/theme"
)

type paneID int

const (
	paneEvents paneID = iota
	paneProblems
	paneInspector // the stage view takes this place when it is on
	paneHeader
)

func (p paneID) String() string {
	return [...]string{"events", "problems", "inspector", "header"}[p]
}

type inputMode int

const (
	inputNone inputMode = iota
	inputGoto
	inputSearch
	inputOffset
)

// speeds are the playback rates `<` and `>` step through.
var speeds = []float64{1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, 4, 8}

const normalSpeed = 3

// tickMsg advances playback; id tells stale ticks (from before a pause)
// from the current chain.
type tickMsg struct {
	id int
	t  time.Time
}

// searchDoneMsg carries the rows a `/` query matched (events or moments,
// as list says), in order.
type searchDoneMsg struct {
	query   string
	list    listMode
	matches []int
}

// backMsg asks the app to return to the browser.
type backMsg struct{}

// replayView is one open replay: the panes, the cursors and playback.
type replayView struct {
	r    *model.Replay
	p    *prepared
	th   *theme.Theme
	keys replayKeys
	help help.Model

	w, h    int
	canBack bool // opened from the browser: esc returns there
	// loading says what of the replay is still coming when it was opened
	// header first: "decoding" (the events), "analysing" (moments, stats);
	// empty when all is in
	loading string
	// realClock shows real time where the replay has a game clock of its
	// own (StarCraft II before Legacy of the Void); c switches
	realClock bool
	// listChosen is set once the person switched between moments and
	// events: the analysis arriving then leaves the list alone
	listChosen bool

	frame    int
	ev       int // event cursor, -1 when no event is shown
	evTop    int // the first row of the events list shown (a position in evs)
	expanded map[int][]treeLine
	evField  int // the line of the selected event's expanded fields under the cursor, -1 the event itself

	list      listMode // moments or raw events in the list pane
	evs, moms rowList  // the events and moments the filters keep
	evFilter  filter
	momFilter filter
	mom       int          // moment cursor, -1 when no moment is shown
	momOpen   map[int]bool // moments expanded to their fields
	momTop    int          // the first moment row shown (a position in moms)
	chooser   *chooser
	showStats bool
	statTop   int
	statCur   int
	statCache *statLines

	focus     paneID
	stage     bool
	scenePage int // which scenes the stage view shows when they do not all fit
	sceneN    int // scenes at the frame, as the stage view last drew them
	showHelp  bool
	hits      hitRows // what each row of the list panes shows, for clicks

	playing   bool
	speed     int
	clock     time.Duration // playback clock in game time
	lastTick  time.Time
	tickID    int
	tickEvery time.Duration

	input     lineInput
	inputMode inputMode
	query     string   // the search the matches are for
	lastQuery string   // the last `/` typed, the prompt's placeholder and ↑
	matches   []int    // rows of the list shown that match, ascending
	allMatch  []int    // every row that matches, before the filter
	matchList listMode // the list the matches are rows of
	match     int      // index into matches, -1 before the first n
	searching bool

	prob, probTop int

	stream    string // the inspector's stream ("" = the file)
	cur       int64  // byte cursor
	hexTop    int64  // first offset shown
	hexRows   int    // rows of bytes the inspector last drew
	diag      int    // diagnostic the inspector shows, -1 none
	follow    bool   // the inspector follows the selected event
	header    []treeLine
	headTop   int
	headCur   int        // the header field under the cursor
	field     model.Span // a header or event field the inspector highlights
	useField  bool
	fieldWhat string // names the field the inspector highlights
	status    string
	paints    *paints
	footAt    footState // what the footer was laid out for
	footText  string
	fieldAt   fieldCache // the fields of the event under the byte cursor
	barCache  barCache
	tl        *model.Timeline // the replay's timeline, with frame time when it has no time of its own
	noTime    bool            // the replay gives no game time: frames stand in for it
	stocks    []int           // per player: the starting stocks a player field tells, 0 when none
	chartLbl  []string        // the chart lane's series labels, made on first draw
	live      liveState       // the file is followed as it is written (live.go)
	diffMarks *diffMarks      // what differs at the frame from another file (diff_marks.go); nil outside a diff
	hand      *handoff        // w and the config's actions (watch.go); nil: none
}

// treeLine is one line of a field tree: indentation depth, label, text.
type treeLine struct {
	depth int
	label string
	text  string
	raw   string
	span  model.Span
}

func newReplayView(r *model.Replay, p *prepared, th *theme.Theme) *replayView {
	if p == nil {
		p = prepare(r)
	}
	v := &replayView{
		r: r, p: p, th: th, keys: newReplayKeys(), help: help.New(),
		expanded: map[int][]treeLine{}, evField: -1, speed: normalSpeed, diag: -1, follow: true, match: -1,
		paints: newPaints(th), mom: -1,
	}
	v.help.Styles.ShortKey = th.HelpKey
	v.help.Styles.ShortDesc = th.HelpDesc
	v.help.Styles.ShortSeparator = th.HelpSep
	v.help.Styles.FullKey = th.HelpKey
	v.help.Styles.FullDesc = th.HelpDesc
	v.help.Styles.FullSeparator = th.HelpSep
	v.help.Styles.Ellipsis = th.HelpSep
	v.input = newLineInput(th, "")
	v.header = v.headerLines()
	v.tl, v.noTime = playTimeline(&r.Timeline)
	for _, pl := range r.Players {
		v.stocks = append(v.stocks, startStocks(pl.Fields))
	}
	v.evs = rowList{n: len(r.Events)}
	v.moms = rowList{n: len(p.moments)}
	// the moments are what a player opens a replay for; a file with errors
	// is opened to be debugged, and starts on the records
	if len(p.moments) > 0 {
		if w, ok := r.Worst(); !ok || w < model.Error {
			v.list = listMoments
		}
	}
	v.ev = -1
	v.syncEvent()
	return v
}

// headerLines flattens the replay's header once per replay.
func (v *replayView) headerLines() []treeLine { return flattenFields(v.r.Header, 5000) }

func fieldTree(fs []model.Field) []treeLine {
	out := flattenFields(fs, 2000)
	if len(out) == 0 {
		out = append(out, treeLine{label: "(no fields)"})
	}
	return out
}

// flattenFields turns a field tree into indented lines, at most limit of
// them and eight levels deep, so a hostile file cannot make the view huge.
func flattenFields(fs []model.Field, limit int) []treeLine {
	var out []treeLine
	var walk func(fs []model.Field, d int)
	walk = func(fs []model.Field, d int) {
		for _, f := range fs {
			if d > 8 || len(out) > limit {
				return
			}
			tl := treeLine{depth: d, label: theme.Safe(f.Label), text: theme.Safe(f.Text()), span: f.Span}
			if tl.label == "" {
				tl.label = f.Key
			}
			if f.Name != "" {
				tl.raw = theme.Safe(f.Raw())
			}
			out = append(out, tl)
			walk(f.Fields, d+1)
		}
	}
	walk(fs, 0)
	return out
}

func (v *replayView) startStocks(p int) int {
	if p >= 0 && p < len(v.stocks) {
		return v.stocks[p]
	}
	return 0
}

// framesPerSecond is the stand-in rate of a timeline without time: one
// second of keys and playback is 60 frames.
const framesPerSecond = 60

// playTimeline is the timeline playback and the time keys use. A timeline
// with neither Rate nor TimeOf has no time (every frame is at 0:00), so
// frames stand in: 60 frames count as a second, and the status line says so.
func playTimeline(t *model.Timeline) (*model.Timeline, bool) {
	if t.Rate > 0 || t.TimeOf != nil || t.Count <= 1 {
		return t, false
	}
	c := *t
	c.Rate = framesPerSecond
	c.TimeOf = func(i int) time.Duration { return time.Duration(i) * time.Second / framesPerSecond }
	return &c, true
}

// count is the number of frames; the view works with 0 too.
func (v *replayView) count() int { return v.tl.Count }

// seek moves to frame f (clamped) and brings the list cursors along.
func (v *replayView) seek(f int) {
	f = v.tl.Clamp(f)
	v.frame = f
	v.clock = v.tl.Time(f)
	v.syncEvent()
}

// listRows is how many rows of events or moments the list pane shows.
func (v *replayView) listRows() int { return max(v.layout().evH-1, 0) }

// syncEvent puts the event cursor on the first shown event at or after the
// frame (the last one when none follows) and scrolls it into view with
// some events of earlier frames above it; the moment cursor follows too.
func (v *replayView) syncEvent() {
	defer v.syncMoment()
	n := v.evs.len()
	if n == 0 {
		v.ev = -1
		return
	}
	pos := min(v.evs.pos(v.r.FirstEventAtOrAfter(v.frame)), n-1)
	v.ev = v.evs.at(pos)
	v.evField = -1
	v.evTop = max(0, pos-max(v.listRows()/3, 0))
	if v.follow {
		v.inspectEvent()
	}
}

// syncMoment puts the moment cursor on the last shown moment at or before
// the frame (what has just happened), the first one when none has yet.
func (v *replayView) syncMoment() {
	n := v.moms.len()
	if n == 0 {
		v.mom = -1
		return
	}
	ms := v.p.moments
	pos := sort.Search(n, func(k int) bool { return ms[v.moms.at(k)].Frame > v.frame }) - 1
	pos = max(pos, 0)
	v.mom = v.moms.at(pos)
	v.momTop = max(0, pos-max(v.listRows()/3, 0))
}

// inspectEvent points the inspector at the selected event's bytes.
func (v *replayView) inspectEvent() {
	v.diag = -1
	v.useField = false
	if v.ev < 0 || v.ev >= len(v.r.Events) {
		return
	}
	sp := v.r.EventSpan(v.ev)
	v.stream = sp.Stream
	v.cur = sp.Off
	v.hexTop = -1 // recentre on the next draw
}

// timeStep moves by d of game time from the current frame.
func (v *replayView) timeStep(d time.Duration) {
	tl := v.tl
	if tl.Count == 0 {
		return
	}
	target := tl.Time(v.frame) + d
	f := tl.At(target)
	if d < 0 && tl.Time(f) > target && f > 0 {
		f--
	}
	if f == v.frame { // times that do not move (irregular timelines): at least one frame
		if d > 0 {
			f++
		} else {
			f--
		}
	}
	v.seek(f)
}

func (v *replayView) Init() tea.Cmd { return nil }

func (v *replayView) setSize(w, h int) {
	v.w, v.h = max(w, 0), max(h, 0)
	v.help.Width = v.w
}

// Update handles one message. The app routes every replay-view message here.
func (v *replayView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		v.setSize(msg.Width, msg.Height)
		return nil
	case tickMsg:
		return v.onTick(msg)
	case searchDoneMsg:
		if msg.query != v.query || msg.list != v.matchList {
			return nil
		}
		v.searching = false
		v.allMatch = msg.matches
		v.refilterMatches()
		v.match = -1
		if len(v.matches) == 0 {
			v.status = v.noMatchText()
			return nil
		}
		v.nextMatch(1)
		return nil
	case tea.MouseMsg:
		return v.onMouse(msg)
	case tea.KeyMsg:
		return v.onKey(msg)
	}
	return nil
}

// selectEvent puts the cursor on event e and the frame on its frame. An
// event the filter hides clears the filter, so the cursor is never on a
// row that is not drawn.
func (v *replayView) selectEvent(e int) {
	if e < 0 || e >= len(v.r.Events) {
		return
	}
	if !v.evs.shown(e) {
		v.evFilter = filter{}
		v.applyEvents()
		v.refilterMatches()
		v.status = fmt.Sprintf("the filter hid #%d: cleared", e+1)
	}
	v.frame = int(v.r.Events[e].Frame)
	v.clock = v.tl.Time(v.frame)
	v.ev = e
	v.evField = -1
	v.evTop = max(0, v.evs.pos(e)-max(v.listRows()/3, 0))
	v.follow = true
	v.inspectEvent()
	v.syncMoment()
}

// selectMoment puts the cursor on moment i and the frame on its start; the
// inspector shows the bytes that record it when one record does.
func (v *replayView) selectMoment(i int) {
	if i < 0 || i >= len(v.p.moments) {
		return
	}
	m := &v.p.moments[i]
	v.follow = true
	v.seek(m.Frame)
	v.mom = i
	v.momTop = max(0, v.moms.pos(i)-max(v.listRows()/3, 0))
	if sp := m.Span; sp.Len > 0 {
		v.diag = -1
		v.stream, v.cur, v.hexTop = sp.Stream, sp.Off, -1
		v.field, v.useField = sp, true
		v.fieldWhat = "moment " + theme.Safe(string(m.Kind))
	}
}

// nextProblem moves the problem cursor to the next warning or error, jumps
// to it and gives the problems pane the focus, so the next enter acts on
// the problem; a file whose diagnostics are all notes walks the notes.
func (v *replayView) nextProblem(d int) {
	ds := v.r.Diagnostics
	n := len(ds)
	if n == 0 {
		v.status = "no problems: the decoder found nothing wrong in this file"
		return
	}
	floor := model.Warning
	if v.r.Problems() == 0 {
		floor = model.Info
	}
	i := v.prob
	if v.diag < 0 && d > 0 {
		i = -1 // the first press starts at the top
	}
	for step := 0; step < n; step++ {
		i = ((i+d)%n + n) % n
		if ds[i].Severity >= floor {
			v.jumpProblem(i)
			v.focus = paneProblems
			return
		}
	}
}

// jumpProblem goes to a diagnostic's frame and shows its bytes.
func (v *replayView) jumpProblem(i int) {
	if i < 0 || i >= len(v.r.Diagnostics) {
		return
	}
	d := v.r.Diagnostics[i]
	v.prob = i
	if d.Frame >= 0 && d.Frame < v.count() {
		v.seek(d.Frame)
	}
	v.follow = false
	v.diag = i
	v.stream = d.Span.Stream
	v.cur = d.Span.Off
	if data := v.r.Bytes(v.stream); v.cur >= int64(len(data)) {
		v.cur = max(int64(len(data))-1, 0)
	}
	v.hexTop = -1
	v.stage = false
}

func (v *replayView) focusOrder() []paneID {
	order := []paneID{paneEvents}
	if len(v.r.Diagnostics) > 0 {
		order = append(order, paneProblems)
	}
	return append(order, paneInspector, paneHeader)
}

// nextFocus is the pane tab (d=1) or shift+tab (d=-1) moves to.
func (v *replayView) nextFocus(d int) paneID {
	order := v.focusOrder()
	at := 0
	for i, p := range order {
		if p == v.focus {
			at = i
		}
	}
	return order[((at+d)%len(order)+len(order))%len(order)]
}

func (v *replayView) cycleFocus(d int) { v.setFocus(v.nextFocus(d)) }

func (v *replayView) setFocus(p paneID) {
	v.focus = p
	if p == paneEvents {
		v.follow = true
	}
}

// paneName is what a pane is called in its title, the footer and tab's hint.
func (v *replayView) paneName(p paneID) string {
	switch p {
	case paneEvents:
		if v.list == listMoments {
			return "moments"
		}
		return "events"
	case paneInspector:
		if v.stage {
			return "stage"
		}
	}
	return p.String()
}

// stepEvent moves the event cursor one line: through the fields of an
// expanded event as through a tree, else from event to event.
func (v *replayView) stepEvent(d int) bool {
	n := v.evs.len()
	if v.ev < 0 || n == 0 {
		return false
	}
	e, f := v.ev, v.evField
	pos := v.evs.pos(e)
	switch {
	case d > 0 && f+1 < len(v.expanded[e]):
		f++
	case d > 0:
		if pos+1 >= n {
			return false
		}
		e, f = v.evs.at(pos+1), -1
	case f >= 0:
		f--
	case pos > 0:
		e = v.evs.at(pos - 1)
		f = len(v.expanded[e]) - 1
	default:
		return false
	}
	v.ev, v.evField = e, f
	v.frame = int(v.r.Events[e].Frame)
	v.clock = v.tl.Time(v.frame)
	v.follow = true
	v.syncMoment()
	if f >= 0 {
		v.showEventField()
	} else {
		v.inspectEvent()
	}
	return true
}

// stepMoment moves the moment cursor one row and the frame to the moment.
func (v *replayView) stepMoment(d int) bool {
	n := v.moms.len()
	if v.mom < 0 || n == 0 {
		return false
	}
	pos := v.moms.pos(v.mom) + d
	if pos < 0 || pos >= n {
		return false
	}
	v.selectMoment(v.moms.at(pos))
	return true
}

// showEventField points the inspector at the selected field of an
// expanded event, or at the whole event when the field has no bytes.
func (v *replayView) showEventField() {
	lines := v.expanded[v.ev]
	if v.evField < 0 || v.evField >= len(lines) {
		return
	}
	sp := lines[v.evField].span
	if sp.Len == 0 && sp.Off == 0 && sp.Stream == "" {
		v.inspectEvent()
		v.status = "this field has no bytes of its own"
		return
	}
	v.diag = -1
	v.stream, v.cur, v.hexTop = sp.Stream, sp.Off, -1
	v.field, v.useField = sp, true
	v.fieldWhat = fmt.Sprintf("#%d %s", v.ev+1, lines[v.evField].label)
}

func (v *replayView) togglePlay() tea.Cmd {
	if v.count() <= 1 {
		v.status = "one frame: nothing to play"
		return nil
	}
	v.playing = !v.playing
	if !v.playing {
		v.tickID++
		return nil
	}
	if v.frame >= v.count()-1 {
		v.seek(0)
	}
	v.clock = v.tl.Time(v.frame)
	v.lastTick = time.Time{}
	return v.restartTicks()
}

// restartTicks starts a new tick chain at an interval that suits the rate
// and speed (one frame per tick, but not faster than 60 ticks a second).
func (v *replayView) restartTicks() tea.Cmd {
	if !v.playing {
		return nil
	}
	v.tickID++
	rate := v.tl.Rate
	if rate <= 0 {
		rate = 60
	}
	every := time.Duration(float64(time.Second) / (rate * speeds[v.speed]))
	every = max(every, time.Second/60)
	every = min(every, time.Second/4)
	v.tickEvery = every
	return tick(v.tickID, every)
}

func tick(id int, every time.Duration) tea.Cmd {
	return tea.Tick(every, func(t time.Time) tea.Msg { return tickMsg{id: id, t: t} })
}

// onTick advances the playback clock by the real time elapsed times the
// speed and shows the frame the clock has reached, so irregular timelines
// (song times) play at their own pace.
func (v *replayView) onTick(m tickMsg) tea.Cmd {
	if !v.playing || m.id != v.tickID {
		return nil
	}
	elapsed := v.tickEvery
	if !v.lastTick.IsZero() {
		elapsed = m.t.Sub(v.lastTick)
	}
	v.lastTick = m.t
	if elapsed < 0 || elapsed > time.Second {
		elapsed = v.tickEvery // the machine slept; do not leap
	}
	v.clock += time.Duration(float64(elapsed) * speeds[v.speed])
	tl := v.tl
	f := tl.At(v.clock)
	if f > 0 && tl.Time(f) > v.clock {
		f--
	}
	if f < v.frame {
		f = v.frame
	}
	clock := v.clock
	v.seek(f)
	v.clock = clock
	if v.frame >= v.count()-1 {
		v.playing = false
		return nil
	}
	return tick(v.tickID, v.tickEvery)
}
