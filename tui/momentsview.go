package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/actions"
	"rewind/decoders"
	"rewind/library"
	"rewind/library/aggregate"
	"rewind/library/dolphin"
	"rewind/model"
	"rewind/theme"
)

// The archive moments view lists the moments of the rows the browser's
// filter shows that match moment terms (kind:combo damage:>=40 by:fox),
// biggest first or newest first; enter opens a replay at its moment, w
// plays it in the game and W the list as a queue (watch.go), and d
// hands the shown moments to Slippi Dolphin as a playback queue. The
// summaries in the index hold the moments: no replay is read to list them.
// They are read again for each query, off the UI goroutine, and only the
// matches are kept: a million replays hold a few hundred million moments.

// momentsDefault is the query the view starts with.
const momentsDefault = "kind:combo"

// maxMoments bounds the moments the view keeps (168 bytes each):
// past it the view keeps the first in its order and says how many it
// found; a sort in another order reads them again.
const maxMoments = 100_000

type momentSort int

const (
	byDamage momentSort = iota
	byDate
	byLength
)

func (s momentSort) String() string { return [...]string{"damage", "date", "length"}[s] }

// momentOpenMsg asks the app to open a replay at a frame index.
type momentOpenMsg struct {
	path  string
	frame int64 // the format's frame number
}

type momentsView struct {
	th    *theme.Theme
	store *library.Store
	ids   []library.RowID // the rows whose moments are listed, in the browser's order
	what  string
	w, h  int

	query  string
	q      *library.Query
	qErr   string
	input  lineInput
	typing bool

	rows   []archMoment
	found  int // moments that match: more than rows when maxMoments cut them
	sortBy momentSort
	listed momentSort // the order of rows (sortBy once a read asked for comes)
	// reading says a read of the moments is under way (gen is its number,
	// cancel stops it): the view shows the last list until it comes
	reading  bool
	gen      int
	cancel   context.CancelFunc
	cur, top int
	status   string
	hand     *handoff // w, W and the config's actions (watch.go)
}

func newMomentsView(th *theme.Theme, store *library.Store, ids []library.RowID, what string) (*momentsView, tea.Cmd) {
	v := &momentsView{th: th, store: store, ids: ids, what: what, input: newLineInput(th, "/ ")}
	v.input.SetPlaceholder("moment terms: kind:combo damage:>=40 kill by:fox on:marth move:upsmash")
	return v, v.setQuery(momentsDefault)
}

func (v *momentsView) setSize(w, h int) { v.w, v.h = w, h }

// setQuery reads the moments the query's moment terms choose.
func (v *momentsView) setQuery(s string) tea.Cmd {
	q, err := library.ParseQuery(s)
	if err != nil {
		v.qErr = err.Error()
		return nil
	}
	v.query, v.q, v.qErr = s, q, ""
	return v.read()
}

// momentsReadMsg is a read of the moments (read) done.
type momentsReadMsg struct {
	v     *momentsView
	gen   int
	rows  []archMoment
	found int
	by    momentSort
}

// read lists the moments of the view's rows that match its query, in its
// order, off the UI goroutine; a read still under way is stopped.
func (v *momentsView) read() tea.Cmd {
	v.stop()
	v.gen++
	v.reading = true
	ctx, cancel := context.WithCancel(context.Background())
	v.cancel = cancel
	gen, store, ids, q, by := v.gen, v.store, v.ids, v.q, v.sortBy
	return func() tea.Msg {
		rows, found := findMoments(ctx, store, ids, q, by, maxMoments)
		if ctx.Err() != nil {
			return nil
		}
		return momentsReadMsg{v: v, gen: gen, rows: rows, found: found, by: by}
	}
}

// stop cancels a read under way.
func (v *momentsView) stop() {
	if v.cancel != nil {
		v.cancel()
		v.cancel = nil
	}
}

// got takes a read's moments, unless a newer read was asked for.
func (v *momentsView) got(msg momentsReadMsg) {
	if msg.v != v || msg.gen != v.gen {
		return
	}
	v.reading, v.cancel = false, nil
	v.rows, v.found, v.listed = msg.rows, msg.found, msg.by
	v.cur, v.top = 0, 0
}

// setSort orders the list by s: in memory when it holds every match,
// else by reading them again (the first maxMoments in one order are not
// those of another).
func (v *momentsView) setSort(s momentSort) tea.Cmd {
	v.sortBy = s
	if v.found > len(v.rows) || v.reading {
		return v.read()
	}
	sortMoments(v.rows, s)
	v.listed, v.cur, v.top = s, 0, 0
	return nil
}

// header is the header of a listed moment's replay.
func (v *momentsView) header(r *archMoment) library.Header {
	return v.store.Header(v.ids[r.pos])
}

func (v *momentsView) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(momentsReadMsg); ok {
		v.got(m)
		return nil
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if v.typing {
		switch k.String() {
		case "enter":
			v.typing = false
			v.input.Blur()
			return v.setQuery(v.input.Value())
		case "esc":
			v.typing = false
			v.input.Blur()
		default:
			return v.input.Update(k)
		}
		return nil
	}
	v.status = ""
	switch k.String() {
	case "q", "ctrl+c":
		return tea.Quit
	case "esc":
		v.stop()
		return func() tea.Msg { return aggBackMsg{} }
	case "up", "k":
		v.cur = max(v.cur-1, 0)
	case "down", "j":
		v.cur = min(v.cur+1, max(len(v.rows)-1, 0))
	case "pgdown":
		v.cur = min(v.cur+max(v.h-6, 1), max(len(v.rows)-1, 0))
	case "pgup":
		v.cur = max(v.cur-max(v.h-6, 1), 0)
	case "s":
		return v.setSort((v.sortBy + 1) % 3)
	case "/":
		v.typing = true
		v.input.SetValue(v.query)
		v.input.Focus()
	case "d":
		v.status = v.writeQueue()
	case "w":
		if v.cur < len(v.rows) {
			r := &v.rows[v.cur]
			h := v.header(r)
			v.status = "starting…"
			return v.hand.watch(momentRequest(h.Path, h.Format, r.m.Frame, r.m.End, r.last, sideName(h.Players, r.m.By)))
		}
	case "W":
		req, n := v.queueRequest()
		if n == 0 {
			v.status = "no moment shown can go to Dolphin: only Slippi replays play there"
			return nil
		}
		v.status = fmt.Sprintf("starting a queue of %d clips…", n)
		return v.hand.watch(req)
	case "enter":
		if v.cur < len(v.rows) {
			r := &v.rows[v.cur]
			msg := momentOpenMsg{path: v.header(r).Path, frame: r.m.Frame}
			return func() tea.Msg { return msg }
		}
	}
	return nil
}

// queueRequest is the request to play the Slippi moments shown, one after
// the other, and how many there are.
func (v *momentsView) queueRequest() (actions.Request, int) {
	var req actions.Request
	for i := range v.rows {
		r := &v.rows[i]
		h := v.header(r)
		if f := decoders.ByID(h.Format); f == nil || !f.Dolphin || !dolphin.Playable(h.Path) {
			continue
		}
		if len(req.Clips) == 0 {
			req = momentRequest(h.Path, h.Format, r.m.Frame, r.m.End, r.last, "")
			continue
		}
		req.Clips = append(req.Clips, dolphin.Clip{Path: h.Path, Start: r.m.Frame, End: r.m.End, Last: r.last})
	}
	return req, len(req.Clips)
}

// writeQueue writes the Dolphin queue of the moments shown and says where.
func (v *momentsView) writeQueue() string {
	var clips []dolphin.Clip
	refused := 0
	for i := range v.rows {
		r := &v.rows[i]
		h := v.header(r)
		if f := decoders.ByID(h.Format); f == nil || !f.Dolphin || !dolphin.Playable(h.Path) {
			refused++
			continue
		}
		g := aggregate.FromHeader(&h)
		clips = append(clips, dolphin.Clip{Path: h.Path, Start: r.m.Frame, End: r.m.End, Last: r.last,
			StartAt: h.Start, Station: g.Who()})
	}
	if len(clips) == 0 {
		return "no moment shown can go to Dolphin: only Slippi replays play there (rewind moments --json hands the others to scripts)"
	}
	c, err := dolphin.Queue(clips, dolphin.DefaultLead, dolphin.DefaultTrail)
	if err != nil {
		return "the Dolphin queue: " + err.Error()
	}
	dir, err := os.Getwd()
	if err != nil {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, "rewind-dolphin-queue.json")
	if err := dolphin.Write(path, c); err != nil {
		path = filepath.Join(os.TempDir(), "rewind-dolphin-queue.json")
		if err := dolphin.Write(path, c); err != nil {
			return "the Dolphin queue could not be written: " + err.Error()
		}
	}
	s := fmt.Sprintf("wrote %d clips to %s: play them with Slippi Dolphin -i %s", len(clips), path, path)
	if refused > 0 {
		s += fmt.Sprintf(" (%d moments of other formats or inside packs left out)", refused)
	}
	return s
}

func (v *momentsView) View() string {
	if v.w <= 0 || v.h <= 0 {
		return ""
	}
	th := v.th
	found := thousands(int64(v.found)) + " found"
	if v.found > len(v.rows) {
		found += fmt.Sprintf(", the first %s by %s shown", thousands(int64(len(v.rows))), v.listed)
	} else {
		found += " · by " + v.listed.String()
	}
	title := th.TitleFocused.Render(" moments ") + " "
	if v.reading {
		title += th.Warning.Render(fmt.Sprintf("reading the moments of %s replays…", thousands(int64(len(v.ids))))) + " "
	}
	title += th.Dim.Render(theme.Safe(v.what)+" · "+found+" · ") + th.Bold.Render(theme.Safe(v.query))
	lines := []string{fit(title, v.w)}
	switch {
	case v.typing:
		lines = append(lines, " "+v.input.View(v.w-1))
	case v.qErr != "":
		lines = append(lines, " "+th.Error.Render(theme.Safe(v.qErr)))
	case v.status != "":
		lines = append(lines, " "+th.Status.Render(theme.Safe(v.status)))
	default:
		lines = append(lines, "")
	}
	rows := max(v.h-4, 1)
	// what a moment is comes first (who, kind, damage, move, when); the
	// file takes what the width leaves, and goes at 80 columns
	dateW, whoW, kindW, moveW, dateFmt := 10, 18, 8, 14, "2006-01-02"
	if v.w >= 120 {
		dateW, whoW, kindW, dateFmt = 16, 22, 10, "2006-01-02 15:04"
	}
	fileW := v.w - (2 + dateW + 1 + whoW + 1 + kindW + 1 + 7 + 1 + 4 + 2 + moveW + 1 + 8 + 1)
	if fileW < 8 {
		fileW = 0
	}
	row := func(date, who, kind, dmg, hits, move, at, file string) string {
		line := fmt.Sprintf("  %-*s %-*s %-*s %7s %4s  %-*s %-8s", dateW, date, whoW, cut(who, whoW), kindW, cut(kind, kindW), dmg, hits, moveW, cut(move, moveW), at)
		if fileW > 0 {
			line += " " + cut(file, fileW)
		}
		return line
	}
	head := row("date", "who", "kind", "damage", "hits", "move", "at", "file")
	lines = append(lines, th.Label.Render(fit(head, v.w)))
	if len(v.rows) == 0 && !v.reading {
		lines = append(lines, th.Dim.Render("  no moment matches; / changes the terms (kind:combo damage:>=40 kill by:fox on:marth move:upsmash)"))
	}
	if v.cur < v.top {
		v.top = v.cur
	}
	if v.cur >= v.top+rows {
		v.top = v.cur - rows + 1
	}
	for i := v.top; i < len(v.rows) && i < v.top+rows; i++ {
		r := &v.rows[i]
		h := v.header(r)
		date := ""
		if !r.start.IsZero() {
			date = r.start.Format(dateFmt)
		}
		who := sideName(h.Players, r.m.By) + "→" + sideName(h.Players, r.m.On)
		dmg, hits := "", ""
		if r.m.Facts.Damage != 0 {
			dmg = fmt.Sprintf("%.0f%%", r.m.Facts.Damage)
		}
		if r.m.Facts.Hits != 0 {
			hits = fmt.Sprint(r.m.Facts.Hits)
		}
		move := r.m.Facts.Move
		if r.m.Facts.Kill {
			move = "kill " + move
		}
		line := row(date, theme.Safe(who), string(r.m.Kind), dmg, hits, theme.Safe(move),
			model.FormatDuration(time.Duration(r.m.Time*float64(time.Second))), theme.Safe(filepath.Base(h.Path)))
		if i == v.cur {
			line = th.Cursor.Render(fit(">"+line[1:], v.w))
		}
		lines = append(lines, line)
	}
	for len(lines) < v.h-1 {
		lines = append(lines, "")
	}
	lines = lines[:v.h-1]
	keys := []string{"↑↓ moment", "enter open at it", "w watch", "W watch all", "s sort", "/ terms", "d Dolphin queue", "esc browser", "q quit"}
	var foot []string
	for _, k := range keys {
		a, b, _ := strings.Cut(k, " ")
		foot = append(foot, th.HelpKey.Render(a)+" "+th.HelpDesc.Render(b))
	}
	lines = append(lines, " "+strings.Join(foot, th.HelpSep.Render(" · ")))
	for i := range lines {
		if ansi.StringWidth(lines[i]) > v.w {
			lines[i] = fit(lines[i], v.w)
		}
	}
	return strings.Join(lines, "\n")
}

// sideName is a player of a moment as the list shows them: the character,
// or the slot; empty for none.
func sideName(players []library.Player, p int) string {
	if p < 0 || p >= len(players) {
		return ""
	}
	if c := players[p].Character; c != "" {
		return c
	}
	return players[p].Slot
}
