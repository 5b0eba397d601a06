package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/decoders"
	"rewind/library"
	"rewind/library/aggregate"
	"rewind/library/dolphin"
	"rewind/model"
	"rewind/theme"
)

// The archive moments view lists the moments of the rows the browser's
// filter shows that match moment terms (kind:combo damage:>=40 by:fox),
// biggest first or newest first; enter opens a replay at its moment, and d
// hands the shown moments to Slippi Dolphin as a playback queue. The
// summaries in the index hold the moments: no replay is read to list them.

// momentsDefault is the query the view starts with.
const momentsDefault = "kind:combo"

type archMoment struct {
	game int // index into the view's games
	m    *model.MomentRecord
}

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
	games []aggregate.Game
	what  string
	w, h  int

	query  string
	q      *library.Query
	qErr   string
	input  lineInput
	typing bool

	rows     []archMoment
	sortBy   momentSort
	cur, top int
	status   string
}

func newMomentsView(th *theme.Theme, games []aggregate.Game, what string) *momentsView {
	v := &momentsView{th: th, games: games, what: what, input: newLineInput(th, "/ ")}
	v.input.SetPlaceholder("moment terms: kind:combo damage:>=40 kill by:fox on:marth move:upsmash")
	v.setQuery(momentsDefault)
	return v
}

func (v *momentsView) setSize(w, h int) { v.w, v.h = w, h }

// setQuery lists the moments the query's moment terms choose.
func (v *momentsView) setQuery(s string) {
	q, err := library.ParseQuery(s)
	if err != nil {
		v.qErr = err.Error()
		return
	}
	v.query, v.q, v.qErr = s, q, ""
	v.rows = v.rows[:0]
	for gi := range v.games {
		g := &v.games[gi]
		if g.Summary == nil {
			continue
		}
		players := make([]library.Player, len(g.Players))
		for i, p := range g.Players {
			players[i] = library.Player{Slot: p.Slot, Name: p.Name, Code: p.Code, Character: p.Character, Team: p.Team}
		}
		for mi := range g.Summary.Moments {
			m := &g.Summary.Moments[mi]
			if q.MatchMoment(m, players) {
				v.rows = append(v.rows, archMoment{gi, m})
			}
		}
	}
	v.sort()
	v.cur, v.top = 0, 0
}

func (v *momentsView) sort() {
	sort.SliceStable(v.rows, func(i, j int) bool {
		a, b := v.rows[i], v.rows[j]
		switch v.sortBy {
		case byDate:
			ga, gb := v.games[a.game].Start, v.games[b.game].Start
			if !ga.Equal(gb) {
				return ga.After(gb)
			}
			return a.m.Frame < b.m.Frame
		case byLength:
			return a.m.EndTime-a.m.Time > b.m.EndTime-b.m.Time
		}
		return a.m.Facts.Damage > b.m.Facts.Damage
	})
}

func (v *momentsView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if v.typing {
		switch k.String() {
		case "enter":
			v.typing = false
			v.input.Blur()
			v.setQuery(v.input.Value())
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
		v.sortBy = (v.sortBy + 1) % 3
		v.sort()
		v.cur, v.top = 0, 0
	case "/":
		v.typing = true
		v.input.SetValue(v.query)
		v.input.Focus()
	case "d":
		v.status = v.writeQueue()
	case "enter":
		if v.cur < len(v.rows) {
			r := v.rows[v.cur]
			return func() tea.Msg { return momentOpenMsg{path: v.games[r.game].Path, frame: r.m.Frame} }
		}
	}
	return nil
}

// writeQueue writes the Dolphin queue of the moments shown and says where.
func (v *momentsView) writeQueue() string {
	var clips []dolphin.Clip
	refused := 0
	for _, r := range v.rows {
		g := &v.games[r.game]
		if f := decoders.ByID(g.Format); f == nil || !f.Dolphin || !dolphin.Playable(g.Path) {
			refused++
			continue
		}
		clips = append(clips, dolphin.Clip{Path: g.Path, Start: r.m.Frame, End: r.m.End, Last: g.Summary.Last,
			StartAt: g.Start, Station: g.Who()})
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
	title := th.TitleFocused.Render(" moments ") + " " + th.Dim.Render(fmt.Sprintf("%s · %d found · by %s · ", theme.Safe(v.what), len(v.rows), v.sortBy)) +
		th.Bold.Render(theme.Safe(v.query))
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
	if len(v.rows) == 0 {
		lines = append(lines, th.Dim.Render("  no moment matches; / changes the terms (kind:combo damage:>=40 kill by:fox on:marth move:upsmash)"))
	}
	if v.cur < v.top {
		v.top = v.cur
	}
	if v.cur >= v.top+rows {
		v.top = v.cur - rows + 1
	}
	for i := v.top; i < len(v.rows) && i < v.top+rows; i++ {
		r := v.rows[i]
		g := &v.games[r.game]
		date := ""
		if !g.Start.IsZero() {
			date = g.Start.Format(dateFmt)
		}
		who := sideName(g, r.m.By) + "→" + sideName(g, r.m.On)
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
			model.FormatDuration(time.Duration(r.m.Time*float64(time.Second))), theme.Safe(filepath.Base(g.Path)))
		if i == v.cur {
			line = th.Cursor.Render(fit(">"+line[1:], v.w))
		}
		lines = append(lines, line)
	}
	for len(lines) < v.h-1 {
		lines = append(lines, "")
	}
	lines = lines[:v.h-1]
	keys := []string{"↑↓ moment", "enter open at it", "s sort", "/ terms", "d Dolphin queue", "esc browser", "q quit"}
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
func sideName(g *aggregate.Game, p int) string {
	if p < 0 || p >= len(g.Players) {
		return ""
	}
	if c := g.Players[p].Character; c != "" {
		return c
	}
	return g.Players[p].Slot
}
