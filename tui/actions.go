package tui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"rewind/actions"
	"rewind/model"
	"rewind/theme"
)

// onKey handles a key press. A key that cannot act says why in the status
// line; the status lasts until the next key.
func (v *replayView) onKey(msg tea.KeyMsg) tea.Cmd {
	k := v.keys
	if key.Matches(msg, k.ForceQuit) {
		return tea.Quit
	}
	if v.inputMode != inputNone {
		return v.onInputKey(msg)
	}
	v.status = ""
	if v.showHelp {
		// the help's title says it: ? or esc closes, q quits
		switch {
		case key.Matches(msg, k.Quit):
			return tea.Quit
		case key.Matches(msg, k.Help, k.Back), msg.Type == tea.KeyEnter:
			v.showHelp = false
		}
		return nil
	}
	if v.chooser != nil {
		v.chooserKey(msg.String())
		return nil
	}
	if v.showStats {
		if v.onStatsKey(msg) {
			return nil
		}
		v.showStats = false // any other key closes the stats and acts
	}
	if v.focus == paneInspector && !v.stage {
		if cmd, ok := v.onInspectorKey(msg); ok {
			return cmd
		}
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Left):
		v.frameStep(-1)
	case key.Matches(msg, k.Right):
		v.frameStep(1)
	case key.Matches(msg, k.SecBack):
		v.timeKey(-time.Second)
	case key.Matches(msg, k.SecFwd):
		v.timeKey(time.Second)
	case key.Matches(msg, k.PageBack):
		v.timeKey(-10 * time.Second)
	case key.Matches(msg, k.PageFwd):
		v.timeKey(10 * time.Second)
	case key.Matches(msg, k.Home):
		v.frameStep(-v.count())
	case key.Matches(msg, k.End):
		v.frameStep(v.count())
	case key.Matches(msg, k.Up):
		v.scroll(-1)
	case key.Matches(msg, k.Down):
		v.scroll(1)
	case key.Matches(msg, k.Goto):
		if v.count() == 0 {
			v.status = "no frames to go to"
			return nil
		}
		return v.startInput(inputGoto, "go to frame or m:ss.cc: ")
	case key.Matches(msg, k.Search):
		if v.listTotal() == 0 {
			v.status = fmt.Sprintf("no %s to search", v.paneName(paneEvents))
			return nil
		}
		return v.startInput(inputSearch, "/")
	case key.Matches(msg, k.Play):
		return v.togglePlay()
	case key.Matches(msg, k.Slower):
		if v.speed == 0 {
			v.status = "already the slowest speed, " + speedText(speeds[0])
			return nil
		}
		v.speed--
		return v.restartTicks()
	case key.Matches(msg, k.Faster):
		if v.speed == len(speeds)-1 {
			v.status = "already the fastest speed, " + speedText(speeds[len(speeds)-1])
			return nil
		}
		v.speed++
		return v.restartTicks()
	case key.Matches(msg, k.NextMatch):
		v.nextMatch(1)
	case key.Matches(msg, k.PrevMatch):
		v.nextMatch(-1)
	case key.Matches(msg, k.NextProblem):
		v.nextProblem(1)
	case key.Matches(msg, k.PrevProb):
		v.nextProblem(-1)
	case key.Matches(msg, k.NextMoment):
		v.nextMoment(1)
	case key.Matches(msg, k.PrevMom):
		v.nextMoment(-1)
	case key.Matches(msg, k.Moments):
		v.toggleMoments()
	case key.Matches(msg, k.Filter):
		if v.listTotal() == 0 {
			v.status = fmt.Sprintf("no %s to filter", v.paneName(paneEvents))
			return nil
		}
		v.openChooser()
		v.setFocus(paneEvents)
	case key.Matches(msg, k.Clock):
		if v.tl.Clock == nil {
			v.status = "this replay has one clock: its game time is real time"
			return nil
		}
		v.realClock = !v.realClock
		v.footText = ""
		if v.realClock {
			v.status = "times are real time now (what playback follows); c: " + v.tl.ClockName
		} else {
			v.status = "times are " + v.tl.ClockName + " now (the clock players saw); c: real time"
		}
	case key.Matches(msg, k.Stats):
		if len(v.p.stats) == 0 {
			v.status = "no stats: " + v.noAnalysis()
			return nil
		}
		v.showStats = true
	case key.Matches(msg, k.Focus):
		v.cycleFocus(1)
	case key.Matches(msg, k.FocusBack):
		v.cycleFocus(-1)
	case key.Matches(msg, k.Enter):
		v.enter()
	case key.Matches(msg, k.Stage):
		if !v.stage && v.r.Scenes == nil {
			v.status = "nothing to draw: this replay gives no positions"
			return nil
		}
		v.stage = !v.stage
		v.setFocus(paneInspector)
	case key.Matches(msg, k.Scenes):
		v.moreScenes()
	case key.Matches(msg, k.Help):
		v.showHelp = true
	case key.Matches(msg, k.Back):
		return v.back()
	case key.Matches(msg, watchKey):
		if v.hand == nil {
			v.status = "w does nothing here"
			return nil
		}
		v.status = "starting…"
		return v.hand.watch(v.request())
	default:
		if a, ok := v.hand.action(msg.String(), v.r.Format); ok {
			v.status = "starting " + theme.Safe(a.Name) + "…"
			return v.hand.run(a, v.request())
		}
		v.status = fmt.Sprintf("%s does nothing here · ? shows the keys", msg.String())
	}
	return nil
}

// request is what w and an action key hand over: the moment under the
// moments cursor when the moments list has the focus, else the replay
// from the frame at the cursor.
func (v *replayView) request() actions.Request {
	tl := &v.r.Timeline
	if v.focus == paneEvents && v.list == listMoments && v.mom >= 0 && v.mom < len(v.p.moments) {
		m := v.p.moments[v.mom]
		player := ""
		if m.By >= 0 && m.By < len(v.r.Players) {
			player = playerName(v.r.Players[m.By])
		}
		return momentRequest(v.r.Path, v.r.Format, tl.Number(m.Frame), tl.Number(m.End), tl.Number(max(tl.Count-1, 0)), player)
	}
	return actions.At(v.r, v.frame)
}

// frameStep moves d frames (clamped), saying so at either end.
func (v *replayView) frameStep(d int) {
	switch {
	case v.count() == 0:
		v.status = "no frames"
	case d < 0 && v.frame == 0:
		v.status = "at the first " + v.unit()
	case d > 0 && v.frame >= v.count()-1:
		v.status = "at the last " + v.unit()
	default:
		v.seek(v.frame + d)
	}
}

// timeKey moves by game time, saying so at either end.
func (v *replayView) timeKey(d time.Duration) {
	switch {
	case v.count() == 0:
		v.status = "no frames"
	case d < 0 && v.frame == 0:
		v.status = "at the start"
	case d > 0 && v.frame >= v.count()-1:
		v.status = "at the end"
	default:
		v.timeStep(d)
	}
}

func (v *replayView) unit() string {
	if v.tl.Unit != "" {
		return v.tl.Unit
	}
	return "frame"
}

// moreScenes turns the stage view's page of scenes, or says why not.
func (v *replayView) moreScenes() {
	if v.r.Scenes == nil {
		v.status = "nothing to draw: this replay gives no positions"
		return
	}
	if !v.stage {
		v.stage = true
		v.setFocus(paneInspector)
		return
	}
	n := len(v.r.SceneAt(v.frame))
	shown := v.scenesFit(v.layout().inspW)
	switch {
	case n <= 1:
		v.status = "one scene: V has nothing more to show"
	case n <= shown:
		v.status = fmt.Sprintf("all %d scenes are shown: V has nothing more to show", n)
	default:
		v.scenePage++
	}
}

// back is esc: it clears what is set, one thing a press (the search, then
// the filter), then returns to the browser.
func (v *replayView) back() tea.Cmd {
	switch {
	case len(v.matches) > 0 || v.query != "":
		v.matches, v.allMatch, v.query, v.match = nil, nil, "", -1
		v.status = "search cleared"
	case v.curFilter().active():
		v.setFilter(filter{})
		v.status = "filter cleared"
	case v.canBack:
		v.playing = false
		return func() tea.Msg { return backMsg{} }
	default:
		v.status = "nothing to clear · q quits"
	}
	return nil
}

// toggleMoments switches the list pane between moments and raw events.
func (v *replayView) toggleMoments() {
	if v.loading != "" && len(v.p.moments) == 0 {
		v.status = "the moments are still being found; the list shows the raw events"
		return
	}
	if len(v.p.moments) == 0 {
		v.status = "no moments: " + v.noAnalysis() + "; the list shows the raw events"
		return
	}
	v.listChosen = true
	if v.list == listMoments {
		v.list = listEvents
	} else {
		v.list = listMoments
	}
	v.setFocus(paneEvents)
	v.syncEvent()
	if v.query != "" && v.matchList != v.list {
		v.matches, v.allMatch, v.query, v.match = nil, nil, "", -1
	}
}

// listTotal is how many rows the list pane's list has before any filter.
func (v *replayView) listTotal() int {
	if v.list == listMoments {
		return len(v.p.moments)
	}
	return len(v.r.Events)
}

// nextMoment jumps to the next (d=1) or previous moment the moments
// filter keeps; in a replay without moments, to the next notable event.
func (v *replayView) nextMoment(d int) {
	if len(v.p.moments) == 0 {
		v.nextNotable(d)
		return
	}
	n := v.moms.len()
	if n == 0 {
		v.status = "the moments filter keeps nothing: esc clears it"
		return
	}
	ms := v.p.moments
	on := v.mom >= 0 && v.mom < len(ms) && ms[v.mom].Frame == v.frame && v.moms.shown(v.mom)
	var pos int
	switch {
	case on:
		pos = v.moms.pos(v.mom) + d
	case d > 0:
		pos = sort.Search(n, func(k int) bool { return ms[v.moms.at(k)].Frame > v.frame })
	default:
		pos = sort.Search(n, func(k int) bool { return ms[v.moms.at(k)].Frame >= v.frame }) - 1
	}
	if pos < 0 || pos >= n {
		dir := "after"
		if d < 0 {
			dir = "before"
		}
		v.status = fmt.Sprintf("no moment %s %s", dir, v.timeText(v.frame))
		return
	}
	v.selectMoment(v.moms.at(pos))
}

// nextNotable walks the events decoders mark notable (a stock lost, a
// checkpoint), for the formats without game analysis.
func (v *replayView) nextNotable(d int) {
	evs := v.r.Events
	i := v.r.FirstEventAtOrAfter(v.frame)
	if d > 0 {
		i = v.r.FirstEventAtOrAfter(v.frame + 1)
		for ; i < len(evs) && !v.r.EventNotable(i); i++ {
		}
	} else {
		for i--; i >= 0 && !v.r.EventNotable(i); i-- {
		}
	}
	if i < 0 || i >= len(evs) {
		dir := "after"
		if d < 0 {
			dir = "before"
		}
		v.status = fmt.Sprintf("no moments (%s) and no notable event %s %s", v.noAnalysis(), dir, v.timeText(v.frame))
		return
	}
	v.selectEvent(i)
	v.status = "no moments (" + v.noAnalysis() + "): " + string(v.keys.NextMoment.Help().Key) + " and " + v.keys.PrevMom.Help().Key + " walk the notable events"
}

// timeText is a frame as people read it: the game's own clock where it has
// one (StarCraft II game time before LotV), else the game time, or the
// frame label when the replay has no time.
func (v *replayView) timeText(f int) string {
	switch {
	case v.noTime:
		return v.unit() + " " + theme.Safe(v.tl.Label(f))
	case v.tl.Clock != nil && !v.realClock:
		return model.FormatDuration(v.tl.Clock(f))
	}
	return model.FormatDuration(v.tl.Time(f))
}

// onInspectorKey moves the byte cursor while the inspector has the focus.
func (v *replayView) onInspectorKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	data := v.r.Bytes(v.stream)
	bpr := int64(v.bytesPerRow(v.layout().inspW))
	move := func(d int64) {
		if len(data) == 0 {
			v.status = "no bytes here"
			return
		}
		to := max(0, min(v.cur+d, int64(len(data))-1))
		switch {
		case to == v.cur && d < 0:
			v.status = "at the first byte"
		case to == v.cur && d > 0:
			v.status = "at the last byte"
		}
		v.follow = false
		v.cur = to
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
	case "home":
		move(-v.cur)
	case "end":
		move(int64(len(data)))
	case "g":
		return v.startInput(inputOffset, "go to offset (0x.. or decimal): "), true
	case "o":
		// across a container's link: from a sector in the file to the
		// bytes it decodes to, and back
		g := v.r.RegionAt(v.stream, v.cur)
		if g < 0 || v.r.Regions[g].Link.Stream == "" {
			if len(v.r.Regions) == 0 {
				v.status = "o goes between a container's bytes and what they decode to; this format has no container"
			} else {
				v.status = fmt.Sprintf("no part of the container that decodes to a stream holds %#x", v.cur)
			}
			return nil, true
		}
		to := v.r.Regions[g].Across(v.stream, v.cur)
		v.follow, v.useField = false, false
		v.stream, v.cur, v.hexTop = to.Stream, to.Off, -1
	case "enter":
		if e := v.r.EventAt(v.stream, v.cur); e >= 0 {
			// the event becomes the selection; the byte cursor stays
			stream, cur := v.stream, v.cur
			v.selectEvent(e)
			v.follow = false
			v.stream, v.cur = stream, cur
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
	v.input.SetPlaceholder("")
	if m == inputSearch {
		// the prompt opens empty: the last search is a hint ↑ brings back
		if v.lastQuery != "" {
			v.input.SetPlaceholder(v.lastQuery + "  (↑ recalls)")
		} else {
			v.input.SetPlaceholder("text · kind:post · player:P1 · -kind:frame")
		}
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
	case "up":
		if v.inputMode == inputSearch && v.lastQuery != "" {
			v.input.SetValue(v.lastQuery)
		}
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
			if s != "" {
				v.lastQuery = s
			}
			return v.searchQuery(s)
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

// scroll moves the cursor of the focused pane by d rows, saying so at
// either end.
func (v *replayView) scroll(d int) {
	v.scrollPane(v.focus, d)
}

func (v *replayView) scrollPane(p paneID, d int) {
	edge := func(moved bool, what string) {
		if !moved {
			if d < 0 {
				v.status = "at the first " + what
			} else {
				v.status = "at the last " + what
			}
		}
	}
	switch p {
	case paneEvents:
		step, cur, what := v.stepEvent, v.ev, "event"
		if v.list == listMoments {
			step, cur, what = v.stepMoment, v.mom, "moment"
		}
		if cur < 0 {
			v.status = "no " + what + "s shown"
			return
		}
		moved := false
		for ; d != 0; d -= sign(d) {
			if !step(sign(d)) {
				break
			}
			moved = true
		}
		edge(moved, what)
	case paneProblems:
		if n := len(v.r.Diagnostics); n > 0 {
			to := max(0, min(v.prob+d, n-1))
			edge(to != v.prob, "problem")
			v.prob = to
		}
	case paneInspector:
		if v.stage {
			v.status = "the stage view does not scroll: ←→ move in time"
			return
		}
		data := v.r.Bytes(v.stream)
		bpr := int64(v.bytesPerRow(v.layout().inspW))
		v.follow = false
		to := max(0, min(v.cur+int64(d)*bpr, int64(len(data))-1))
		edge(to != v.cur, "row")
		v.cur = to
	case paneHeader:
		to := max(0, min(v.headCur+d, len(v.header)-1))
		edge(to != v.headCur, "header field")
		v.headCur = to
	}
}

func sign(d int) int {
	if d < 0 {
		return -1
	}
	return 1
}

// enter expands or folds the selected event or moment, or jumps to the
// selected problem, or shows a header field's bytes.
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
	case paneInspector:
		if v.stage {
			v.status = "enter does nothing in the stage view · v shows the inspector"
		}
	case paneEvents:
		if v.list == listMoments {
			if v.mom < 0 {
				v.status = "no moment selected"
				return
			}
			v.selectMoment(v.mom)
			if len(v.p.moments[v.mom].Fields) == 0 {
				v.status = "this moment has no fields to show"
				return
			}
			if v.momOpen == nil {
				v.momOpen = map[int]bool{}
			}
			v.momOpen[v.mom] = !v.momOpen[v.mom]
			return
		}
		if v.ev < 0 {
			v.status = "no event selected"
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

// noAnalysis says why there are no moments or stats: the format has no game
// analysis, it is still running, or it found none in this replay.
func (v *replayView) noAnalysis() string {
	switch {
	case v.loading != "":
		return "the game analysis is still running"
	case v.r.Analyze == nil:
		return "this format has no game analysis yet"
	}
	return "the game analysis found none in this replay"
}
