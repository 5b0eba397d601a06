package tui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/sahilm/fuzzy"

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

// speeds are the playback rates `[` and `]` step through.
var speeds = []float64{1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, 4, 8}

const normalSpeed = 3

// tickMsg advances playback; id tells stale ticks (from before a pause)
// from the current chain.
type tickMsg struct {
	id int
	t  time.Time
}

// searchDoneMsg carries the events a `/` query matched, in event order.
type searchDoneMsg struct {
	query   string
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

	frame    int
	ev       int // event cursor, -1 when the replay has no events
	evTop    int
	expanded map[int][]treeLine
	evField  int // the line of the selected event's expanded fields under the cursor, -1 the event itself

	focus     paneID
	stage     bool
	scenePage int // which scenes the stage view shows when they do not all fit
	showHelp  bool

	playing   bool
	speed     int
	clock     time.Duration // playback clock in game time
	lastTick  time.Time
	tickID    int
	tickEvery time.Duration

	input     lineInput
	inputMode inputMode
	query     string
	matches   []int
	match     int // index into matches, -1 before the first n
	searching bool

	prob, probTop int

	stream    string // the inspector's stream ("" = the file)
	cur       int64  // byte cursor
	hexTop    int64  // first offset shown
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
	helpW     int
	helpText  string
	barCache  barCache
	tl        *model.Timeline // the replay's timeline, with frame time when it has no time of its own
	noTime    bool            // the replay gives no game time: frames stand in for it
	stocks    []int           // per player: the starting stocks a player field tells, 0 when none
	chartLbl  []string        // the chart lane's series labels, made on first draw
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
		paints: newPaints(th),
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
	v.ev = -1
	if len(r.Events) > 0 {
		v.ev = 0
	}
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
			tl := treeLine{depth: d, label: clean(f.Label), text: clean(f.Text()), span: f.Span}
			if tl.label == "" {
				tl.label = f.Key
			}
			if f.Name != "" {
				tl.raw = clean(f.Raw())
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

// seek moves to frame f (clamped) and brings the event cursor along.
func (v *replayView) seek(f int) {
	f = v.tl.Clamp(f)
	v.frame = f
	v.clock = v.tl.Time(f)
	v.syncEvent()
}

// syncEvent puts the event cursor on the first event at or after the frame
// (the last event when none follows) and scrolls it into view with some
// events of earlier frames above it.
func (v *replayView) syncEvent() {
	n := len(v.r.Events)
	if n == 0 {
		v.ev = -1
		return
	}
	i := v.r.FirstEventAtOrAfter(v.frame)
	if i >= n {
		i = n - 1
	}
	v.ev = i
	v.evField = -1
	h := v.layout().evH - 1
	v.evTop = max(0, i-max(h/3, 0))
	if v.follow {
		v.inspectEvent()
	}
}

// inspectEvent points the inspector at the selected event's bytes.
func (v *replayView) inspectEvent() {
	v.diag = -1
	v.useField = false
	if v.ev < 0 || v.ev >= len(v.r.Events) {
		return
	}
	sp := v.r.Events[v.ev].Span
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
		if msg.query != v.query {
			return nil
		}
		v.searching = false
		v.matches = msg.matches
		v.match = -1
		if len(v.matches) == 0 {
			v.status = fmt.Sprintf("no match for %q", v.query)
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

func (v *replayView) onKey(msg tea.KeyMsg) tea.Cmd {
	k := v.keys
	if key.Matches(msg, k.ForceQuit) {
		return tea.Quit
	}
	if v.inputMode != inputNone {
		return v.onInputKey(msg)
	}
	if v.showHelp {
		// any key closes the full help; q still quits
		v.showHelp = false
		if key.Matches(msg, k.Quit) {
			return tea.Quit
		}
		return nil
	}
	v.status = ""
	if v.focus == paneInspector && !v.stage {
		if cmd, ok := v.onInspectorKey(msg); ok {
			return cmd
		}
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Left):
		v.seek(v.frame - 1)
	case key.Matches(msg, k.Right):
		v.seek(v.frame + 1)
	case key.Matches(msg, k.SecBack):
		v.timeStep(-time.Second)
	case key.Matches(msg, k.SecFwd):
		v.timeStep(time.Second)
	case key.Matches(msg, k.PageBack):
		v.timeStep(-10 * time.Second)
	case key.Matches(msg, k.PageFwd):
		v.timeStep(10 * time.Second)
	case key.Matches(msg, k.Home):
		v.seek(0)
	case key.Matches(msg, k.End):
		v.seek(v.count() - 1)
	case key.Matches(msg, k.Up):
		v.scroll(-1)
	case key.Matches(msg, k.Down):
		v.scroll(1)
	case key.Matches(msg, k.Goto):
		return v.startInput(inputGoto, "go to frame or m:ss.cc: ")
	case key.Matches(msg, k.Search):
		return v.startInput(inputSearch, "/")
	case key.Matches(msg, k.Play):
		return v.togglePlay()
	case key.Matches(msg, k.Slower):
		v.speed = max(v.speed-1, 0)
		return v.restartTicks()
	case key.Matches(msg, k.Faster):
		v.speed = min(v.speed+1, len(speeds)-1)
		return v.restartTicks()
	case key.Matches(msg, k.NextMatch):
		v.nextMatch(1)
	case key.Matches(msg, k.PrevMatch):
		v.nextMatch(-1)
	case key.Matches(msg, k.NextProblem):
		v.nextProblem(1)
	case key.Matches(msg, k.PrevProb):
		v.nextProblem(-1)
	case key.Matches(msg, k.Focus):
		v.cycleFocus(1)
	case key.Matches(msg, k.FocusBack):
		v.cycleFocus(-1)
	case key.Matches(msg, k.Enter):
		v.enter()
	case key.Matches(msg, k.Stage):
		v.stage = !v.stage
		if v.stage {
			v.focus = paneInspector
		}
	case key.Matches(msg, k.Scenes):
		if !v.stage {
			v.stage, v.focus = true, paneInspector
		} else if len(v.r.SceneAt(v.frame)) <= 1 {
			v.status = "one scene: nothing more to show"
		} else {
			v.scenePage++
		}
	case key.Matches(msg, k.Help):
		v.showHelp = true
	case key.Matches(msg, k.Back):
		switch {
		case len(v.matches) > 0 || v.query != "":
			v.matches, v.query, v.match = nil, "", -1
		case v.canBack:
			v.playing = false
			return func() tea.Msg { return backMsg{} }
		}
	}
	return nil
}

// onInspectorKey moves the byte cursor while the inspector has the focus.
func (v *replayView) onInspectorKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	data := v.r.Bytes(v.stream)
	bpr := int64(v.bytesPerRow(v.layout().inspW))
	move := func(d int64) {
		v.follow = false
		v.cur = max(0, min(v.cur+d, int64(len(data))-1))
	}
	switch msg.String() {
	case "left", "h":
		move(-1)
	case "right", "l":
		move(1)
	case "up", "k":
		move(-bpr)
	case "down", "j":
		move(bpr)
	case "pgup":
		move(-bpr * int64(max(v.layout().inspH-3, 1)))
	case "pgdown":
		move(bpr * int64(max(v.layout().inspH-3, 1)))
	case "g":
		return v.startInput(inputOffset, "go to offset (0x.. or decimal): "), true
	case "enter":
		if e := v.r.EventAt(v.stream, v.cur); e >= 0 {
			v.ev = e
			v.evField = -1
			v.frame = v.r.Events[e].Frame
			v.clock = v.tl.Time(v.frame)
			v.evTop = max(0, e-max((v.layout().evH-1)/3, 0))
		} else {
			v.status = fmt.Sprintf("no event owns %#x", v.cur)
		}
	default:
		return nil, false
	}
	return nil, true
}

func (v *replayView) startInput(m inputMode, prompt string) tea.Cmd {
	v.inputMode = m
	v.input.SetPrompt(prompt)
	v.input.SetValue("")
	if m == inputSearch {
		v.input.SetValue(v.query)
	}
	v.input.Focus()
	return nil
}

func (v *replayView) onInputKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		v.inputMode = inputNone
		v.input.Blur()
		return nil
	case "enter":
		m, s := v.inputMode, strings.TrimSpace(v.input.Value())
		v.inputMode = inputNone
		v.input.Blur()
		switch m {
		case inputGoto:
			v.gotoText(s)
		case inputOffset:
			v.gotoOffset(s)
		case inputSearch:
			return v.search(s)
		}
		return nil
	}
	return v.input.Update(msg)
}

// gotoText understands a frame number as the format counts ("-123",
// "1234") or a game time ("1:23.45", "83.5s", "1:02:03").
func (v *replayView) gotoText(s string) {
	if s == "" {
		return
	}
	tl := v.tl
	if d, ok := parseTime(s); ok {
		v.seek(tl.At(d))
		return
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		v.status = fmt.Sprintf("not a frame or a time: %q", s)
		return
	}
	v.seek(tl.Index(n))
}

// parseTime reads m:ss(.cc), h:mm:ss(.cc) or a number of seconds with an s.
func parseTime(s string) (time.Duration, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var secs float64
	switch {
	case strings.HasSuffix(s, "s"):
		f, err := strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64)
		if err != nil {
			return 0, false
		}
		secs = f
	case strings.Contains(s, ":"):
		parts := strings.Split(s, ":")
		if len(parts) > 3 {
			return 0, false
		}
		for i, p := range parts {
			f, err := strconv.ParseFloat(p, 64)
			if err != nil || f < 0 || (i < len(parts)-1 && strings.Contains(p, ".")) {
				return 0, false
			}
			secs = secs*60 + f
		}
	default:
		return 0, false
	}
	if secs > 1e7 {
		return 0, false
	}
	d := time.Duration(secs * float64(time.Second))
	if neg {
		d = -d
	}
	return d, true
}

func (v *replayView) gotoOffset(s string) {
	var n int64
	var err error
	if strings.HasPrefix(strings.ToLower(s), "0x") {
		n, err = strconv.ParseInt(s[2:], 16, 64)
	} else {
		n, err = strconv.ParseInt(s, 10, 64)
	}
	if err != nil || n < 0 {
		v.status = fmt.Sprintf("not an offset: %q", s)
		return
	}
	data := v.r.Bytes(v.stream)
	if n >= int64(len(data)) {
		v.status = fmt.Sprintf("offset %#x is past the end (%#x)", n, len(data))
		n = max(int64(len(data))-1, 0)
	}
	v.follow = false
	v.focus = paneInspector
	v.stage = false
	v.cur = n
	v.hexTop = -1
}

// search runs the fuzzy match in a command: it is proportional to the
// number of events, so it must not hold up the key press.
func (v *replayView) search(q string) tea.Cmd {
	v.query = q
	v.matches, v.match = nil, -1
	if q == "" {
		return nil
	}
	v.searching = true
	r, p := v.r, v.p
	return func() tea.Msg { return searchDoneMsg{query: q, matches: searchEvents(r, p, q)} }
}

// searchEvents returns, in event order, the events whose text (player,
// kind, flag, summary) matches q and every event of a player whose name,
// character or code matches. Letters of a word scattered over a long
// summary fuzzily match almost every event, so when some events or players
// hold the query as typed, those (the fuzzy matcher's best) are the
// answer; only when none does is every fuzzy match.
func searchEvents(r *model.Replay, p *prepared, q string) []int {
	texts, players := p.searchText(r)
	lq := strings.ToLower(q)
	var evs, pls []int
	for i, s := range texts {
		if strings.Contains(strings.ToLower(s), lq) {
			evs = append(evs, i)
		}
	}
	for i, s := range players {
		if strings.Contains(strings.ToLower(s), lq) {
			pls = append(pls, i)
		}
	}
	if len(evs) == 0 && len(pls) == 0 {
		for _, m := range fuzzy.Find(q, texts) {
			evs = append(evs, m.Index)
		}
		for _, m := range fuzzy.Find(q, players) {
			pls = append(pls, m.Index)
		}
	}
	if len(pls) > 0 {
		of := make(map[int]bool, len(pls))
		for _, i := range pls {
			of[i] = true
		}
		for i := range r.Events {
			if of[r.Events[i].Player] {
				evs = append(evs, i)
			}
		}
	}
	sort.Ints(evs)
	out := evs[:0]
	for i, e := range evs {
		if i == 0 || e != evs[i-1] {
			out = append(out, e)
		}
	}
	return out
}

// nextMatch moves to the next (d=1) or previous match after the current frame's event.
func (v *replayView) nextMatch(d int) {
	if len(v.matches) == 0 {
		if v.query != "" && !v.searching {
			v.status = fmt.Sprintf("no match for %q", v.query)
		}
		return
	}
	cur := v.ev
	var i int
	if d > 0 {
		i = sort.SearchInts(v.matches, cur+1)
		if v.match < 0 {
			i = sort.SearchInts(v.matches, cur)
		}
		if i >= len(v.matches) {
			i = 0
		}
	} else {
		i = sort.SearchInts(v.matches, cur) - 1
		if i < 0 {
			i = len(v.matches) - 1
		}
	}
	v.match = i
	v.selectEvent(v.matches[i])
}

// selectEvent puts the cursor on event e and the frame on its frame.
func (v *replayView) selectEvent(e int) {
	if e < 0 || e >= len(v.r.Events) {
		return
	}
	v.frame = v.r.Events[e].Frame
	v.clock = v.tl.Time(v.frame)
	v.ev = e
	v.evField = -1
	v.evTop = max(0, e-max((v.layout().evH-1)/3, 0))
	v.follow = true
	v.inspectEvent()
}

// nextProblem moves the problem cursor to the next warning or error and
// jumps to it; a file whose diagnostics are all notes walks the notes.
func (v *replayView) nextProblem(d int) {
	ds := v.r.Diagnostics
	n := len(ds)
	if n == 0 {
		v.status = "no problems"
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

func (v *replayView) cycleFocus(d int) {
	order := v.focusOrder()
	at := 0
	for i, p := range order {
		if p == v.focus {
			at = i
		}
	}
	v.focus = order[((at+d)%len(order)+len(order))%len(order)]
	if v.focus == paneEvents {
		v.follow = true
	}
}

// scroll moves the cursor of the focused pane by d rows.
func (v *replayView) scroll(d int) {
	switch v.focus {
	case paneEvents:
		if v.ev < 0 {
			return
		}
		for ; d > 0; d-- {
			v.stepEvent(1)
		}
		for ; d < 0; d++ {
			v.stepEvent(-1)
		}
	case paneProblems:
		if n := len(v.r.Diagnostics); n > 0 {
			v.prob = max(0, min(v.prob+d, n-1))
		}
	case paneInspector:
		if v.stage {
			return
		}
		data := v.r.Bytes(v.stream)
		bpr := int64(v.bytesPerRow(v.layout().inspW))
		v.follow = false
		v.cur = max(0, min(v.cur+int64(d)*bpr, int64(len(data))-1))
	case paneHeader:
		v.headCur = max(0, min(v.headCur+d, len(v.header)-1))
	}
}

// stepEvent moves the event cursor one line: through the fields of an
// expanded event as through a tree, else from event to event.
func (v *replayView) stepEvent(d int) {
	n := len(v.r.Events)
	if v.ev < 0 || n == 0 {
		return
	}
	e, f := v.ev, v.evField
	switch {
	case d > 0 && f+1 < len(v.expanded[e]):
		f++
	case d > 0:
		e, f = min(e+1, n-1), -1
		if e == v.ev {
			return
		}
	case f >= 0:
		f--
	case e > 0:
		e--
		f = len(v.expanded[e]) - 1
	default:
		return
	}
	v.ev, v.evField = e, f
	v.frame = v.r.Events[e].Frame
	v.clock = v.tl.Time(v.frame)
	v.follow = true
	if f >= 0 {
		v.showEventField()
	} else {
		v.inspectEvent()
	}
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

// enter expands or folds the selected event, or jumps to the selected problem.
func (v *replayView) enter() {
	switch v.focus {
	case paneProblems:
		v.jumpProblem(v.prob)
	case paneHeader:
		// show the bytes the header field came from
		if v.headCur < len(v.header) {
			sp := v.header[v.headCur].span
			if sp.Len == 0 && sp.Off == 0 && sp.Stream == "" {
				v.status = "this field has no bytes of its own"
				return
			}
			v.follow, v.diag, v.stage = false, -1, false
			v.stream, v.cur, v.hexTop = sp.Stream, sp.Off, -1
			v.field, v.useField = sp, true
			v.fieldWhat = "header " + v.header[v.headCur].label
		}
	case paneEvents:
		if v.ev < 0 {
			return
		}
		if _, ok := v.expanded[v.ev]; ok && v.evField >= 0 {
			v.showEventField()
		} else if ok {
			delete(v.expanded, v.ev)
		} else {
			v.expanded[v.ev] = fieldTree(v.r.EventFields(v.ev))
		}
	}
}

func (v *replayView) togglePlay() tea.Cmd {
	if v.count() <= 1 {
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

func (v *replayView) onMouse(m tea.MouseMsg) tea.Cmd {
	l := v.layout()
	switch {
	case m.Button == tea.MouseButtonWheelUp && m.Action == tea.MouseActionPress:
		v.scroll(-3)
	case m.Button == tea.MouseButtonWheelDown && m.Action == tea.MouseActionPress:
		v.scroll(3)
	case m.Button == tea.MouseButtonLeft && (m.Action == tea.MouseActionPress || m.Action == tea.MouseActionMotion):
		if m.Y == l.barY && v.count() > 0 && v.w > 1 {
			x := max(0, min(m.X, v.w-1))
			v.seek(int(int64(x) * int64(v.count()-1) / int64(max(v.w-1, 1))))
			if v.playing {
				v.lastTick = time.Time{}
			}
		}
	}
	return nil
}
