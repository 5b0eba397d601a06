package tui

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/NimbleMarkets/ntcharts/barchart"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"rewind/library/aggregate"
	"rewind/model"
	"rewind/theme"
)

// The aggregate view answers the archive's questions from the browser: the
// rows the filter shows, grouped by a key (b cycles the keys: character,
// matchup, stage, month...), for everyone or for one player (p picks from
// the most frequent codes), with win rate and a chosen stat per month as
// charts under the table. Enter opens the browser filtered to a group's
// games. It only draws: library/aggregate adds up the summaries.

// aggKeys are the keys b cycles through, the most asked first.
var aggKeys = []aggregate.Key{aggregate.KeyCharacter, aggregate.KeyVs, aggregate.KeyMatchup, aggregate.KeyStage,
	aggregate.KeyOpponent, aggregate.KeyPlayer, aggregate.KeyMonth, aggregate.KeyWeek, aggregate.KeySession,
	aggregate.KeyDay, aggregate.KeyFormat}

type aggKeyMap struct {
	Up, Down, Open, NextKey, PrevKey, Player, Order, Chart, NextStat, LRAS, Sets, Back, Quit key.Binding
}

func newAggKeys() aggKeyMap {
	b := func(keys []string, k, h string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, h))
	}
	return aggKeyMap{
		Up:       b([]string{"up", "k"}, "↑↓", "group"),
		Down:     b([]string{"down", "j"}, "↓", "group"),
		Open:     b([]string{"enter"}, "enter", "its games"),
		NextKey:  b([]string{"b", "tab"}, "b", "group by"),
		PrevKey:  b([]string{"B", "shift+tab"}, "B", "back a key"),
		Player:   b([]string{"p"}, "p", "player"),
		Order:    b([]string{"o"}, "o", "order"),
		Chart:    b([]string{"c"}, "c", "chart"),
		NextStat: b([]string{"s"}, "s", "chart stat"),
		LRAS:     b([]string{"l"}, "l", "LRAS counts as loss"),
		Sets:     b([]string{"t"}, "t", "sets ⇄ groups"),
		Back:     b([]string{"esc"}, "esc", "browser"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// aggOpenMsg asks the browser to show only a group's games: indices into
// the games the view was given, which the browser maps to its rows.
type aggOpenMsg struct {
	title   string
	members []int32
}

// aggBackMsg returns to the browser.
type aggBackMsg struct{}

type aggView struct {
	th    *theme.Theme
	keys  aggKeyMap
	games *aggregate.List
	// skipped are the rows the browser left out before making games
	skipped []skipCount
	what    string // what the rows are: the browser's filter, for the title
	w, h    int

	key    int      // index into aggKeys
	order  int      // the groups' order: most games, worst win rate, best win rate
	player string   // whose games count, as the title names them ("@me", a code); empty: everyone
	counts []string // and the codes or names that count for them (@me: the config's me)
	me     []string // the config's me: the view starts on them, and the picker offers them first
	lras   bool
	// sets are the sets of the games (t), newest first, shown instead of
	// the groups while showSets; setsGen is the read they came from
	sets     []aggregate.Set
	showSets bool
	setsRead bool // the sets on hand are of these games and players
	res      *aggregate.Result
	months   map[string][]*aggregate.Group // per group's value, its months in order
	grouping bool                          // a run is under way
	gen      int                           // the last run asked for
	cols     []aggregate.Column
	cur, top int

	picking bool
	who     []aggregate.PlayerGames // most games first
	pick    int

	chart bool
	stat  int // the stat the chart shows, an index into the charted format's stats
}

// newAggView opens the view on games; the first grouping comes with the
// command it returns.
func newAggView(th *theme.Theme, games *aggregate.List, skipped []skipCount, what string, me []string) (*aggView, tea.Cmd) {
	v := &aggView{th: th, keys: newAggKeys(), games: games, skipped: skipped, what: what, chart: true,
		res: &aggregate.Result{}, me: me}
	if len(me) > 0 {
		// the person said who they are: their games first
		v.player, v.counts = "@me", me
	}
	return v, v.run()
}

// setGames replaces the games (the browser's rows changed: a game
// finished while the view is open) and groups them again, keeping the
// key, the player, the order and the cursor.
func (v *aggView) setGames(games *aggregate.List, skipped []skipCount) tea.Cmd {
	v.games, v.skipped, v.setsRead = games, skipped, false
	if v.showSets {
		return tea.Batch(v.run(), v.readSets())
	}
	return v.run()
}

// aggSetsMsg is the sets of the view's games, found off the UI goroutine.
type aggSetsMsg struct {
	v    *aggView
	gen  int
	sets []aggregate.Set
}

// readSets finds the sets of the games, of the player's when one is
// chosen (aggregate.FindSets, as stats --by set).
func (v *aggView) readSets() tea.Cmd {
	v.gen++
	gen, games, counts := v.gen, v.games, v.counts
	return func() tea.Msg {
		sets := aggregate.FindSets(games.All(), 0)
		if len(counts) > 0 {
			want := map[string]bool{}
			for _, c := range counts {
				want[tightName(c)] = true
			}
			sets = slices.DeleteFunc(sets, func(s aggregate.Set) bool {
				return s.Side(func(k, n string) bool { return want[tightName(k)] || want[tightName(n)] }) < 0
			})
		}
		return aggSetsMsg{v: v, gen: gen, sets: sets}
	}
}

// tightName compares codes and names as --player does: case and spaces
// aside.
func tightName(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", "")
}

// side is the side of set s the chosen player plays (0 without one).
func (v *aggView) side(s *aggregate.Set) int {
	if len(v.counts) == 0 {
		return 0
	}
	want := map[string]bool{}
	for _, c := range v.counts {
		want[tightName(c)] = true
	}
	return max(s.Side(func(k, n string) bool { return want[tightName(k)] || want[tightName(n)] }), 0)
}

// aggRanMsg is a grouping made off the UI goroutine (run).
type aggRanMsg struct {
	v      *aggView
	gen    int
	res    *aggregate.Result
	months map[string][]*aggregate.Group
	who    []aggregate.PlayerGames
}

// run groups the games by the chosen key and player off the UI goroutine
// (a million games take about two seconds), and each group's player-games by month
// for the charts: the view keeps showing the last grouping, and says it is
// grouping, until the new one comes.
func (v *aggView) run() tea.Cmd {
	v.gen++
	v.grouping = true
	gen, games, k, first := v.gen, v.games, aggKeys[v.key], v.who == nil
	opt := aggregate.Options{By: []aggregate.Key{k}, LRASLoss: v.lras, Players: v.counts}
	return func() tea.Msg {
		msg := aggRanMsg{v: v, gen: gen}
		if first {
			msg.who = games.Frequent()
		}
		if aggregate.NeedsSessions(opt.By) {
			opt.Sessions = games.Sessions() // found once for both groupings
		}
		// the same sides by key and month, on the other core: a group's
		// chart is its own player-games, not every side of the games it
		// has a side in
		monthly := make(chan *aggregate.Result)
		go func(opt aggregate.Options) {
			opt.By = []aggregate.Key{k, aggregate.KeyMonth}
			monthly <- games.Run(opt)
		}(opt)
		msg.res = games.Run(opt)
		msg.months = map[string][]*aggregate.Group{}
		for _, g := range (<-monthly).Groups {
			msg.months[g.Values[0]] = append(msg.months[g.Values[0]], g)
		}
		for _, ms := range msg.months {
			sort.Slice(ms, func(i, j int) bool { return ms[i].Values[1] < ms[j].Values[1] })
		}
		return msg
	}
}

// shownKey is the key of the groups on screen: while a grouping by
// another is under way, the last one's.
func (v *aggView) shownKey() aggregate.Key {
	if len(v.res.By) > 0 {
		return v.res.By[0]
	}
	return aggKeys[v.key]
}

// ran takes a grouping run made, unless a newer one was asked for.
func (v *aggView) ran(msg aggRanMsg) {
	if msg.v != v || msg.gen != v.gen {
		return
	}
	v.grouping = false
	v.res, v.months = msg.res, msg.months
	if msg.who != nil {
		v.who = msg.who
	}
	v.sortGroups()
	v.cols = nil
	v.cur = min(v.cur, max(len(v.res.Groups)-1, 0))
}

// aggOrders name the orders o cycles through.
var aggOrders = []string{"most games", "worst win rate", "best win rate"}

// sortGroups puts the groups in the order chosen; groups with no decided
// game go last in the win-rate orders, and ties keep the most games first.
func (v *aggView) sortGroups() {
	v.res.SortByGames()
	if v.order == 0 {
		return
	}
	rate := func(g *aggregate.Group) (float64, bool) { return g.WinRate() }
	sort.SliceStable(v.res.Groups, func(i, j int) bool {
		a, aok := rate(v.res.Groups[i])
		b, bok := rate(v.res.Groups[j])
		if aok != bok {
			return aok
		}
		if v.order == 1 {
			return a < b
		}
		return a > b
	})
}

func (v *aggView) setSize(w, h int) { v.w, v.h = w, h; v.cols = nil }

func (v *aggView) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(aggRanMsg); ok {
		v.ran(m)
		return nil
	}
	if m, ok := msg.(aggSetsMsg); ok {
		if m.v == v && m.gen == v.gen {
			v.sets, v.setsRead, v.grouping = m.sets, true, false
			v.cur = min(v.cur, max(len(v.sets)-1, 0))
		}
		return nil
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if v.picking {
		return v.updatePicker(k)
	}
	switch {
	case key.Matches(k, v.keys.Quit):
		return tea.Quit
	case key.Matches(k, v.keys.Back):
		return func() tea.Msg { return aggBackMsg{} }
	case key.Matches(k, v.keys.Up):
		v.cur = max(v.cur-1, 0)
	case key.Matches(k, v.keys.Down):
		n := len(v.res.Groups)
		if v.showSets {
			n = len(v.sets)
		}
		v.cur = min(v.cur+1, max(n-1, 0))
	case key.Matches(k, v.keys.Sets):
		v.showSets = !v.showSets
		v.cur, v.top = 0, 0
		if v.showSets && !v.setsRead {
			v.grouping = true
			return v.readSets()
		}
	case key.Matches(k, v.keys.NextKey):
		v.key = (v.key + 1) % len(aggKeys)
		v.cur, v.top = 0, 0
		return v.run()
	case key.Matches(k, v.keys.PrevKey):
		v.key = (v.key + len(aggKeys) - 1) % len(aggKeys)
		v.cur, v.top = 0, 0
		return v.run()
	case key.Matches(k, v.keys.Player):
		v.picking, v.pick = true, 0
	case key.Matches(k, v.keys.Order):
		v.order = (v.order + 1) % len(aggOrders)
		v.cur, v.top = 0, 0
		v.sortGroups()
	case key.Matches(k, v.keys.Chart):
		v.chart = !v.chart
	case key.Matches(k, v.keys.NextStat):
		v.stat++
	case key.Matches(k, v.keys.LRAS):
		v.lras = !v.lras
		return v.run()
	case key.Matches(k, v.keys.Open) && v.showSets:
		if v.cur < len(v.sets) {
			s := &v.sets[v.cur]
			var members []int32
			for _, g := range s.Games {
				members = append(members, int32(g.Index))
			}
			c := s.Cells(v.side(s), v.player != "")
			title := "set " + c[0] + " " + c[2] + " " + c[3] // date, players or opponent, score
			return func() tea.Msg { return aggOpenMsg{title: title, members: members} }
		}
	case key.Matches(k, v.keys.Open):
		if v.cur < len(v.res.Groups) {
			g := v.res.Groups[v.cur]
			title := string(v.shownKey()) + " " + strings.Join(g.Values, " ")
			members := append([]int32(nil), g.Members...)
			return func() tea.Msg { return aggOpenMsg{title: title, members: members} }
		}
	}
	return nil
}

func (v *aggView) updatePicker(k tea.KeyMsg) tea.Cmd {
	switch k.String() {
	case "esc", "p":
		v.picking = false
	case "up", "k":
		v.pick = max(v.pick-1, 0)
	case "down", "j":
		v.pick = min(v.pick+1, len(v.pickable())-1) // 0 is everyone
	case "enter":
		v.picking = false
		v.player, v.counts = "", nil
		if p := v.pickable()[v.pick]; p.Who != "" {
			v.player, v.counts = p.Who, []string{p.Who}
			if p.Who == "@me" {
				v.counts = v.me
			}
		}
		v.cur, v.top, v.setsRead = 0, 0, false
		if v.showSets {
			return tea.Batch(v.run(), v.readSets())
		}
		return v.run()
	case "q", "ctrl+c":
		return tea.Quit
	}
	return nil
}

func (v *aggView) View() string {
	if v.w <= 0 || v.h <= 0 {
		return ""
	}
	th := v.th
	who := "everyone"
	if v.player != "" {
		who = theme.Safe(v.player)
	}
	title := th.TitleFocused.Render(" stats by "+string(v.shownKey())+" ") + " "
	if v.showSets {
		title = th.TitleFocused.Render(" sets ") + " "
	}
	if v.grouping {
		// next to the key, where 80 columns still show it
		title += th.Warning.Render(fmt.Sprintf("grouping %s games by %s…", thousands(int64(v.games.Len())), aggKeys[v.key])) + " "
	}
	if v.showSets {
		title += th.Dim.Render(fmt.Sprintf("%s · %s sets · player: %s · newest first · games less than 15 minutes apart", theme.Safe(v.what), thousands(int64(len(v.sets))), who))
	} else {
		title += th.Dim.Render(fmt.Sprintf("%s · %s games · player: %s · %s first", theme.Safe(v.what), thousands(int64(v.res.Games)), who, aggOrders[v.order]))
	}
	if v.lras {
		title += th.Dim.Render(" · LRAS counts as a loss")
	}
	lines := []string{fit(title, v.w)}
	if n, reasons := v.skips(); n > 0 {
		lines = append(lines, fit(th.Warning.Render(fmt.Sprintf(" %s skipped", thousands(int64(n))))+th.Dim.Render(" (partial, unreadable or not yet checked: "+theme.Safe(reasons)+")"), v.w))
	}
	footer := v.footer()
	chartH := 0
	if v.chart && !v.picking && !v.showSets {
		chartH = min(12, max(v.h/3, 6))
	}
	tableH := max(v.h-len(lines)-1-chartH, 3)
	switch {
	case v.picking:
		lines = append(lines, v.pickerLines(tableH)...)
	case v.showSets:
		lines = append(lines, v.setLines(tableH)...)
	default:
		lines = append(lines, v.tableLines(tableH)...)
	}
	for len(lines) < v.h-1-chartH {
		lines = append(lines, "")
	}
	if chartH > 0 {
		lines = append(lines, v.chartLines(chartH)...)
	}
	for len(lines) < v.h-1 {
		lines = append(lines, "")
	}
	lines = append(lines[:min(len(lines), v.h-1)], footer)
	for i := range lines {
		lines[i] = fit(lines[i], v.w)
	}
	return strings.Join(lines, "\n")
}

// skips counts the rows left out, those the browser passed over and those
// Run did, and says why: "975,772 no summary (…); 3 partial replay (…)".
func (v *aggView) skips() (int, string) {
	counts := append([]skipCount(nil), v.skipped...)
	for _, s := range v.res.Skipped {
		i := slices.IndexFunc(counts, func(c skipCount) bool { return c.reason == s.Reason })
		if i < 0 {
			i = len(counts)
			counts = append(counts, skipCount{reason: s.Reason})
		}
		counts[i].n++
	}
	total := 0
	var parts []string
	for _, c := range counts {
		total += c.n
		parts = append(parts, thousands(int64(c.n))+" "+c.reason)
	}
	return total, strings.Join(parts, "; ")
}

func (v *aggView) footer() string {
	k := v.keys
	var parts []string
	keys := []key.Binding{k.Up, k.Open, k.NextKey, k.Player, k.Sets, k.Order, k.Chart, k.NextStat, k.LRAS, k.Back, k.Quit}
	if v.showSets {
		keys = []key.Binding{k.Up, k.Open, k.Player, k.Sets, k.Back, k.Quit}
	}
	for _, b := range keys {
		parts = append(parts, v.th.HelpKey.Render(b.Help().Key)+" "+v.th.HelpDesc.Render(b.Help().Desc))
	}
	if v.picking {
		parts = []string{v.th.HelpKey.Render("↑↓") + " " + v.th.HelpDesc.Render("player"), v.th.HelpKey.Render("enter") + " " + v.th.HelpDesc.Render("choose"), v.th.HelpKey.Render("esc") + " " + v.th.HelpDesc.Render("back")}
	}
	return " " + strings.Join(parts, v.th.HelpSep.Render(" · "))
}

// tableLines draws the groups, as many stats as the width takes.
func (v *aggView) tableLines(rows int) []string {
	if len(v.res.Groups) == 0 && v.grouping {
		return []string{"", v.th.Dim.Render(fmt.Sprintf("  grouping %s games by %s…", thousands(int64(v.games.Len())), aggKeys[v.key]))}
	}
	if len(v.res.Groups) == 0 {
		why := "  no games to count: none of the rows shown has a summary yet (the background check makes them; `rewind stats --by` decodes what it needs)"
		if v.res.Games > 0 {
			why = fmt.Sprintf("  none of the %s games counted has a %s: b picks another key", thousands(int64(v.res.Games)), v.shownKey())
		}
		return []string{"", v.th.Dim.Render(why)}
	}
	cols, widths := v.fitColumns()
	sep := "  "
	var head strings.Builder
	head.WriteString("  ")
	for i, c := range cols {
		if i > 0 {
			head.WriteString(sep)
		}
		head.WriteString(pad(c.Title, widths[i], c.Right))
	}
	out := []string{v.th.Label.Render(head.String())}
	rows--
	if v.cur < v.top {
		v.top = v.cur
	}
	if v.cur >= v.top+rows {
		v.top = v.cur - rows + 1
	}
	for gi := v.top; gi < len(v.res.Groups) && gi < v.top+rows; gi++ {
		g := v.res.Groups[gi]
		var b strings.Builder
		b.WriteString("  ")
		for i, c := range cols {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(pad(theme.Safe(c.Cell(g)), widths[i], c.Right))
		}
		line := b.String()
		if gi == v.cur {
			line = v.th.Cursor.Render(fit(">"+line[1:], v.w))
		}
		out = append(out, line)
	}
	return out
}

// setLines draws the sets as stats --by set prints them (aggregate's
// cells), the chosen player's side first when there is one.
func (v *aggView) setLines(rows int) []string {
	if !v.setsRead {
		return []string{"", v.th.Dim.Render(fmt.Sprintf("  finding the sets of %s games…", thousands(int64(v.games.Len()))))}
	}
	if len(v.sets) == 0 {
		return []string{"", v.th.Dim.Render("  no sets: no two games of one player against one other, less than 15 minutes apart, among the games counted (a game needs its summary: the background check makes them)")}
	}
	mine := v.player != ""
	titles := aggregate.SetTitles(mine)
	cells := make([][]string, len(v.sets))
	widths := make([]int, len(titles))
	for i, t := range titles {
		widths[i] = ansi.StringWidth(t)
	}
	for i := range v.sets {
		cells[i] = v.sets[i].Cells(v.side(&v.sets[i]), mine)
		for j, c := range cells[i] {
			widths[j] = max(widths[j], ansi.StringWidth(theme.Safe(c)))
		}
	}
	widths[2] = min(widths[2], 40)
	line := func(cs []string) string {
		var b strings.Builder
		b.WriteString("  ")
		for j, c := range cs {
			if j > 0 {
				b.WriteString("  ")
			}
			b.WriteString(pad(theme.Safe(c), widths[j], j == 1 || j == 3))
		}
		return b.String()
	}
	out := []string{v.th.Label.Render(line(titles))}
	rows--
	if v.cur < v.top {
		v.top = v.cur
	}
	if v.cur >= v.top+rows {
		v.top = v.cur - rows + 1
	}
	for i := v.top; i < len(v.sets) && i < v.top+rows; i++ {
		l := line(cells[i])
		if i == v.cur {
			l = v.th.Cursor.Render(fit(">"+l[1:], v.w))
		}
		out = append(out, l)
	}
	return out
}

// fitColumns chooses the columns and their widths: the keys and counts
// always, then stats while they fit.
func (v *aggView) fitColumns() ([]aggregate.Column, []int) {
	all := v.res.Columns(8)
	width := func(c aggregate.Column) int {
		w := ansi.StringWidth(c.Title)
		for _, g := range v.res.Groups {
			w = max(w, ansi.StringWidth(theme.Safe(c.Cell(g))))
		}
		return w
	}
	var cols []aggregate.Column
	var widths []int
	used := 2
	for i, c := range all {
		w := width(c)
		if i < len(v.res.By) {
			w = min(w, max(v.w/3, 12))
		}
		if i >= len(v.res.By)+4 && used+2+w > v.w {
			break
		}
		cols = append(cols, c)
		widths = append(widths, w)
		used += 2 + w
	}
	return cols, widths
}

func pad(s string, w int, right bool) string {
	s = cut(s, w)
	gap := w - ansi.StringWidth(s)
	if gap <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", gap) + s
	}
	return s + strings.Repeat(" ", gap)
}

// pickable is what the player picker offers: everyone, you (@me) when
// the config says who you are, then the players of the most games.
func (v *aggView) pickable() []aggregate.PlayerGames {
	out := []aggregate.PlayerGames{{}}
	if len(v.me) > 0 {
		out = append(out, aggregate.PlayerGames{Who: "@me", Name: strings.Join(v.me, ", ")})
	}
	return append(out, v.who...)
}

func (v *aggView) pickerLines(rows int) []string {
	out := []string{v.th.Label.Render("  whose games count")}
	rows--
	list := v.pickable()
	top := max(0, v.pick-rows+1)
	for i := top; i < len(list) && i < top+rows; i++ {
		line := "  everyone (each player of each game counts once)"
		switch w := list[i]; {
		case w.Who == "@me":
			line = fmt.Sprintf("  %s %s", pad("@me", 24, false), theme.Safe("you: "+w.Name))
		case i > 0:
			line = fmt.Sprintf("  %s %s %s games", pad(theme.Safe(w.Who), 24, false), pad(theme.Safe(w.Name), 20, false), thousands(int64(w.Games)))
		}
		if i == v.pick {
			line = v.th.Cursor.Render(fit(">"+line[1:], v.w))
		}
		out = append(out, line)
	}
	return out
}

// chartLines draws, for the group under the cursor, win rate per month as
// bars and the chosen stat per month as a sparkline.
func (v *aggView) chartLines(h int) []string {
	if v.cur >= len(v.res.Groups) {
		return nil
	}
	g := v.res.Groups[v.cur]
	months := &aggregate.Result{Groups: v.months[g.Values[0]]}
	label := strings.Join(g.Values, " ")
	if len(months.Groups) < 2 {
		return []string{"", v.th.Dim.Render("  " + theme.Safe(label) + ": one month of games; the charts need two or more")}
	}
	// the stat: one the groups have (a table column first), chosen with s
	var defs []model.StatDef
	seen := map[string]bool{}
	for _, short := range []bool{true, false} {
		for _, mg := range months.Groups {
			for _, sv := range mg.StatValues() {
				if !seen[sv.Def.Key] && (sv.Def.Short != "") == short {
					seen[sv.Def.Key] = true
					defs = append(defs, sv.Def)
				}
			}
		}
	}
	barW := max(v.w/2-2, 20)
	// a bar a month, at least one column and a gap: an archive of more
	// months than fit shows its latest ones, and the title says how many
	all := len(months.Groups)
	if fit := (barW + 1) / 2; all > fit {
		months = &aggregate.Result{Groups: months.Groups[all-fit:]}
	}
	n := len(months.Groups)
	bw := max(1, min(6, (barW-n)/n))
	axis := monthAxis(months.Groups, bw, barW)
	bars := func(color lipgloss.Style, maxV float64, values []float64) []string {
		m := barchart.New(barW, h-2, barchart.WithMaxValue(maxV), barchart.WithNoAutoBarWidth(), barchart.WithBarGap(1))
		m.SetBarWidth(bw)
		var data []barchart.BarData
		for i := range months.Groups {
			data = append(data, barchart.BarData{Values: []barchart.BarValue{{Name: "", Value: values[i], Style: color}}})
		}
		m.PushAll(data)
		m.Draw()
		lines := strings.Split(m.View(), "\n")
		// the chart cuts each label to its bar; the axis names the months
		// that have room
		lines[len(lines)-1] = v.th.Dim.Render(axis)
		return lines
	}
	title := "win rate by month"
	if n < all {
		title = fmt.Sprintf("win rate, last %d of %d months", n, all)
	}
	rates := make([]float64, len(months.Groups))
	for i, mg := range months.Groups {
		if rate, ok := mg.WinRate(); ok {
			rates[i] = 100 * rate
		}
	}
	left := append([]string{v.th.Label.Render(title + ", " + cut(theme.Safe(label), max(barW-len(title)-2, 8)))},
		bars(lipgloss.NewStyle().Foreground(v.th.Player(0).GetForeground()), 100, rates)...)
	var right []string
	if len(defs) > 0 {
		d := defs[v.stat%len(defs)]
		vals := make([]float64, len(months.Groups))
		hi := 0.0
		for i, mg := range months.Groups {
			for _, sv := range mg.StatValues() {
				if sv.Def.Key == d.Key {
					vals[i] = sv.Number()
				}
			}
			hi = max(hi, vals[i])
		}
		right = append([]string{v.th.Label.Render(fmt.Sprintf("%s by month (s: next stat)", d.Label)) + v.th.Dim.Render("  up to "+aggregate.FormatValue(hi, d.Unit))},
			bars(lipgloss.NewStyle().Foreground(v.th.Player(1).GetForeground()), max(hi, 1e-9), vals)...)
	}
	out := []string{""}
	for i := 0; i < h-1; i++ {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out = append(out, " "+fit(l, barW)+strings.Repeat(" ", max(barW-ansi.StringWidth(fit(l, barW)), 0))+"  "+r)
	}
	return out
}

// monthAxis labels bars of width bw a column apart, each month YY-MM
// (2024-03 is 24-03) under its bar: every month when a label fits under
// one, else each month that starts after the last label's end, so that
// labels never run into each other.
func monthAxis(months []*aggregate.Group, bw, w int) string {
	line := []byte(strings.Repeat(" ", w))
	next := 0 // the first column a label may start at
	for i, mg := range months {
		x := i * (bw + 1)
		month := mg.Values[len(mg.Values)-1]
		if len(month) < 7 || x < next {
			continue
		}
		label := month[2:7]
		if x+len(label) > w {
			break
		}
		copy(line[x:], label)
		next = x + len(label) + 1
	}
	return strings.TrimRight(string(line), " ")
}
