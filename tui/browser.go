package tui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/decoders"
	"rewind/library"
	"rewind/model"
	"rewind/theme"
)

// source is one file the browser lists: on disk or in the sample library.
type source struct {
	path string // as shown and as passed to the decoder
	fsys fs.FS  // nil: the OS file system
}

func (s source) read() ([]byte, error) {
	if s.fsys != nil {
		return fs.ReadFile(s.fsys, s.path)
	}
	return os.ReadFile(s.path)
}

// file reads the replay as decoders.ReadFile does (only as far as the
// replay reaches; a member of a packed file in place).
func (s source) file() (*decoders.File, error) {
	if s.fsys != nil {
		data, err := fs.ReadFile(s.fsys, s.path)
		if err != nil {
			return nil, err
		}
		return decoders.ReadBytes(data, s.path)
	}
	return decoders.ReadFile(s.path)
}

// row is one file in the browser. Its header sits behind an atomic
// pointer: a check that lands replaces it, while a filter running on
// another goroutine reads it.
type row struct {
	src  source
	err  string // the file has no header: opening it shows this instead
	what string // players or characters, then the map, stage, song or course
	seq  int    // arrival order
	tier int    // how well the row matched the filter's plain words
	doc  atomic.Pointer[library.Doc]
	key  sortKey // the header's sortable values, kept by the UI goroutine
}

// sortKey holds what the sort compares, so comparing two rows touches
// only the rows themselves (merging batches into 50,000 rows compares a
// lot).
type sortKey struct {
	start          int64 // unix nanoseconds; 0 when undated
	dated, hasWhat bool
	format         string
	what, file     string // lower case
	dur, size      int64
	probs          int
	checked        bool
}

func newRow(src source, h library.Header) *row {
	rw := &row{src: src, err: h.Err, what: describe(&h)}
	rw.setDoc(library.NewDoc(&h))
	return rw
}

// setDoc replaces the row's header (a check landed) and its sort keys.
func (rw *row) setDoc(d *library.Doc) {
	h := d.H
	rw.doc.Store(d)
	rw.key = sortKey{
		dated: !h.Start.IsZero(), format: string(h.Format), hasWhat: h.Title != "" || len(h.Players) > 0,
		what: strings.ToLower(rw.what), file: strings.ToLower(path.Base(filepath.ToSlash(rw.src.path))), // the name the file column shows
		dur: int64(h.Duration), size: h.Size, probs: h.ProblemCount(), checked: h.Checked(),
	}
	if rw.key.dated {
		rw.key.start = h.Start.UnixNano()
	}
}

func (rw *row) h() *library.Header { return rw.doc.Load().H }

// describe is the browser's one-line "what": players or characters, then
// the map, stage, song or course.
func describe(h *library.Header) string {
	if h.Err != "" {
		return h.Err
	}
	if len(h.Players) == 1 && h.Title != "" {
		// one player (a song, a course): what was played comes first
		p := h.Players[0]
		who := p.Name
		if who == "" {
			who = p.Character
		}
		return theme.Safe(strings.TrimSuffix(h.Title+" · "+who, " · "))
	}
	var ps []string
	for i, p := range h.Players {
		if i == 4 {
			ps = append(ps, fmt.Sprintf("+%d", len(h.Players)-4))
			break
		}
		// the player as people name them: "firebat (Terran)", "Mango
		// (Fox)"; the character alone when the file has no name
		s := p.Name
		if s == "" {
			s = p.Character
		} else if p.Character != "" {
			s += " (" + p.Character + ")"
		}
		if s != "" {
			ps = append(ps, s)
		}
	}
	var parts []string
	if len(ps) > 0 {
		parts = append(parts, strings.Join(ps, " vs "))
	}
	if h.Title != "" {
		parts = append(parts, h.Title)
	}
	return theme.Safe(strings.Join(parts, " · "))
}

// durText is the length column: the game's length without hundredths.
func (rw *row) durText() string {
	d := rw.h().Duration
	if d <= 0 {
		return ""
	}
	s := model.FormatDuration(d)
	return s[:strings.LastIndexByte(s, '.')]
}

// probText is the problems column: what is known about the file's health.
func (rw *row) probText() string {
	h := rw.h()
	switch {
	case h.Err != "":
		return "unreadable"
	case h.Check != nil && h.ProblemCount() > 0:
		return fmt.Sprintf("! %d", h.ProblemCount())
	case h.Check != nil:
		return "clean"
	case h.Problems > 0:
		// the header alone has problems; a full check may find more
		return fmt.Sprintf("! %d+", h.Problems)
	}
	return "not checked"
}

// column is a column the list can be sorted by.
type column int

const (
	colDate column = iota
	colFormat
	colWhat
	colLength
	colSize
	colProblems
	colFile
	nColumns
)

var columnNames = [nColumns]string{"date", "format", "players · map/song", "length", "size", "problems", "file"}

// order is a sort: a column and a direction. Rows without a value in the
// column (no date, no length) go last in either direction.
type order struct {
	col  column
	desc bool
}

// less orders two rows; ties fall to the date, newest first, then the path.
func (o order) less(a, b *row) bool {
	x, y := &a.key, &b.key
	c := o.cmp(x, y)
	if c == 0 && o.col != colDate {
		c = order{colDate, true}.cmp(x, y)
	}
	if c == 0 {
		return a.src.path < b.src.path
	}
	return c < 0
}

// cmp compares on the column alone, with the direction applied to values
// and missing values last.
func (o order) cmp(x, y *sortKey) int {
	missing := func(mx, my bool) (int, bool) {
		switch {
		case mx && my:
			return 0, true
		case mx:
			return 1, true
		case my:
			return -1, true
		}
		return 0, false
	}
	var c int
	switch o.col {
	case colDate:
		if m, ok := missing(!x.dated, !y.dated); ok {
			return m
		}
		c = cmpInt(x.start, y.start)
	case colFormat:
		c = strings.Compare(x.format, y.format)
	case colWhat:
		if m, ok := missing(!x.hasWhat, !y.hasWhat); ok {
			return m
		}
		c = strings.Compare(x.what, y.what)
	case colLength:
		if m, ok := missing(x.dur <= 0, y.dur <= 0); ok {
			return m
		}
		c = cmpInt(x.dur, y.dur)
	case colSize:
		c = cmpInt(x.size, y.size)
	case colProblems:
		// unchecked files rank by what their header showed, below checked
		// files with as many
		c = cmpInt(int64(x.probs), int64(y.probs))
		if c == 0 {
			c = cmpBool(x.checked, y.checked)
		}
	case colFile:
		c = strings.Compare(x.file, y.file)
	}
	if o.desc {
		c = -c
	}
	return c
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// merge merges two sorted lists into a new one (existing rows first among
// equals). It never writes into a or b: a filter may be reading them.
func merge(a, b []*row, less func(x, y *row) bool) []*row {
	out := make([]*row, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if less(b[j], a[i]) {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

type rowsMsg struct {
	gen  int
	rows []*row
	done bool
	ch   chan *row
}

type checksMsg struct {
	gen  int
	done []library.Checked
	open bool // the checker's channel is still open
}

// filteredMsg is a filter run off the UI goroutine.
type filteredMsg struct {
	gen   int
	rows  []*row
	tiers []int
	upto  int // rows with seq >= upto arrived after the filter started
}

// browserKeyMap is the browser's keys: the shared ones of keys.go and the
// archive's own (sort, reverse, format).
type browserKeyMap struct {
	browserKeys
	Sort, Reverse, Formats key.Binding
}

func newBrowserKeyMap() browserKeyMap {
	return browserKeyMap{
		browserKeys: newBrowserKeys(),
		Sort:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Reverse:     key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse")),
		Formats:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "format")),
	}
}

func (k browserKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Open, k.Filter, k.Sort, k.Formats, k.Help, k.Quit}
}

func (k browserKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Open, k.Filter, k.Clear, k.Sort, k.Reverse, k.Formats, k.Help, k.Quit},
	}
}

// syncFilter is the number of rows up to which a filter runs on the UI
// goroutine; above it, off it.
const syncFilter = 4000

// browser lists replays, filters and sorts them, and opens one.
type browser struct {
	th    *theme.Theme
	pt    *paints
	keys  browserKeyMap
	help  help.Model
	w, h  int
	title string

	rows   []*row // every row, in the current order
	shown  []*row // the rows the filter keeps, in order (rows itself when none)
	byPath map[string]*row
	seq    int
	order  order
	format model.Format // "": every format
	seen   map[model.Format]bool

	filter    lineInput
	editing   bool
	q         *library.Query
	qErr      *library.QueryError
	lastQuery string
	filterGen int
	filtering bool // a filter is running off the UI goroutine

	gen      int
	done     bool
	started  time.Time
	took     time.Duration
	index    *library.Index
	indexErr string
	checker  *library.Checker
	checked  int // rows with a final problem count

	cur, top int
	helpTop  int  // the help page's first line
	moved    bool // the user moved the cursor: keep it on its row as rows arrive
	fmtW     int  // the format column: the longest format name listed
	durW     int  // the length column: the longest length listed
	probW    int  // the problems column: its widest text
}

func newBrowser(th *theme.Theme, title string) *browser {
	b := &browser{th: th, pt: newPaints(th), keys: newBrowserKeyMap(), help: help.New(), title: title,
		byPath: map[string]*row{}, seen: map[model.Format]bool{}, order: order{colDate, true},
		// the heads' widths, the sort arrow included
		fmtW: len("format") + 1, durW: len("length") + 1, probW: len("not checked")}
	b.help.Styles.ShortKey = th.HelpKey
	b.help.Styles.ShortDesc = th.HelpDesc
	b.help.Styles.ShortSeparator = th.HelpSep
	b.help.Styles.FullKey = th.HelpKey
	b.help.Styles.FullDesc = th.HelpDesc
	b.help.Styles.FullSeparator = th.HelpSep
	b.filter = newLineInput(th, "/")
	return b
}

// start opens the index (unless noCache), starts the checker and scans the
// sources; rows arrive in batches through a channel.
func (b *browser) start(srcs []source, noCache bool) tea.Cmd {
	b.started = time.Now()
	hasDisk := false
	for _, s := range srcs {
		hasDisk = hasDisk || s.fsys == nil
	}
	if !noCache && hasDisk {
		idx, err := library.OpenIndex("")
		if err != nil {
			b.indexErr = err.Error()
		} else {
			b.index = idx
		}
	}
	b.checker = library.NewChecker(b.index)
	return tea.Batch(b.scan(srcs), nextChecks(b.gen, b.checker.Results()))
}

// close writes the index and stops the checker; Run calls it on the way out.
func (b *browser) close() {
	if b.checker != nil {
		b.checker.Close()
	}
	if b.index != nil {
		b.index.Close()
	}
}

// walkSources is every entry of the sources, in order.
func walkSources(srcs []source) iter.Seq[library.Entry] {
	return func(yield func(library.Entry) bool) {
		for _, s := range srcs {
			walk := library.Paths([]string{s.path})
			if s.fsys != nil {
				walk = library.FSPaths(s.fsys, s.path)
			}
			for e := range walk {
				if !yield(e) {
					return
				}
			}
		}
	}
}

// scan reads the sources' headers on all cores (through the index).
func (b *browser) scan(srcs []source) tea.Cmd {
	ch := make(chan *row, 1024)
	idx := b.index
	// the built-in samples come alone, from their file system; paths named
	// on the command line are the OS's
	var fsys fs.FS
	for _, s := range srcs {
		if s.fsys != nil {
			fsys = s.fsys
		}
	}
	go func() {
		defer close(ch)
		library.Scan(context.Background(), walkSources(srcs), library.ScanOptions{Index: idx}, func(h library.Header) bool {
			if h.Kind == library.Skipped {
				return true // a FIFO or device inside a folder: never a row
			}
			ch <- newRow(source{path: h.Path, fsys: fsys}, h)
			return true
		})
	}()
	return nextRows(b.gen, ch, batchWindow(0))
}

// batchWindow is how long rows gather before the list takes them in. The
// first row of a batch shows at once; merging a batch into a sorted list
// of n rows costs O(n), so the window grows with the list (2 µs a row,
// 30 to 250 ms) and merging stays a few percent of a core.
func batchWindow(n int) time.Duration {
	return min(max(time.Duration(n)*2*time.Microsecond, 30*time.Millisecond), 250*time.Millisecond)
}

func nextRows(gen int, ch chan *row, window time.Duration) tea.Cmd {
	return func() tea.Msg {
		r, ok := <-ch
		if !ok {
			return rowsMsg{gen: gen, done: true, ch: ch}
		}
		batch := []*row{r}
		timer := time.NewTimer(window)
		defer timer.Stop()
		for {
			select {
			case r, ok := <-ch:
				if !ok {
					return rowsMsg{gen: gen, rows: batch, done: true, ch: ch}
				}
				batch = append(batch, r)
			case <-timer.C:
				return rowsMsg{gen: gen, rows: batch, ch: ch}
			}
		}
	}
}

func nextChecks(gen int, ch <-chan library.Checked) tea.Cmd {
	return func() tea.Msg {
		c, ok := <-ch
		if !ok {
			return checksMsg{gen: gen}
		}
		batch := []library.Checked{c}
		for len(batch) < 256 {
			select {
			case c, ok := <-ch:
				if !ok {
					return checksMsg{gen: gen, done: batch}
				}
				batch = append(batch, c)
			default:
				return checksMsg{gen: gen, done: batch, open: true}
			}
		}
		return checksMsg{gen: gen, done: batch, open: true}
	}
}

func (b *browser) setSize(w, h int) {
	b.w, b.h = max(w, 0), max(h, 0)
	b.help.Width = b.w
}

// filtered reports whether the list shows fewer rows than it has.
func (b *browser) filtered() bool { return !b.q.Empty() || b.format != "" }

// keep reports whether a row passes the filter, and its tier.
func keep(rw *row, q *library.Query, format model.Format) (bool, int) {
	d := rw.doc.Load()
	if format != "" && d.H.Format != format {
		return false, 0
	}
	return q.Rank(d)
}

// shownLess orders the filtered rows: by tier when the query has words,
// then by the sort.
func (b *browser) shownLess() func(x, y *row) bool {
	o := b.order
	if !b.q.HasWords() {
		return o.less
	}
	return func(x, y *row) bool {
		if x.tier != y.tier {
			return x.tier < y.tier
		}
		return o.less(x, y)
	}
}

func (b *browser) selected() *row {
	if b.cur >= 0 && b.cur < len(b.shown) {
		return b.shown[b.cur]
	}
	return nil
}

// follow keeps the cursor on the row it was on, when the user put it there.
func (b *browser) follow(sel *row) {
	if sel != nil && b.moved {
		if i := slices.Index(b.shown, sel); i >= 0 {
			b.cur = i
		}
	}
	b.cur = max(0, min(b.cur, len(b.shown)-1))
}

// add merges a batch of new rows into the sorted list and the filtered view.
func (b *browser) add(batch []*row) {
	sel := b.selected()
	for _, rw := range batch {
		rw.seq = b.seq
		b.seq++
		if old := b.byPath[rw.src.path]; old != nil {
			continue // listed twice (a path named twice): keep the first
		}
		b.byPath[rw.src.path] = rw
		h := rw.h()
		b.seen[h.Format] = true
		b.fmtW = max(b.fmtW, ansi.StringWidth(string(h.Format)))
		b.durW = max(b.durW, len(rw.durText()))
		if h.Checked() {
			b.checked++
		}
	}
	batch = slices.DeleteFunc(slices.Clone(batch), func(rw *row) bool { return b.byPath[rw.src.path] != rw })
	sort.Slice(batch, func(i, j int) bool { return b.order.less(batch[i], batch[j]) })
	b.rows = merge(b.rows, batch, b.order.less)
	switch {
	case !b.filtered():
		b.shown = b.rows
	case b.filtering:
		// the running filter takes these in when it lands
	default:
		var keepers []*row
		for _, rw := range batch {
			if ok, tier := keep(rw, b.q, b.format); ok {
				rw.tier = tier
				keepers = append(keepers, rw)
			}
		}
		less := b.shownLess()
		sort.SliceStable(keepers, func(i, j int) bool { return less(keepers[i], keepers[j]) })
		b.shown = merge(b.shown, keepers, less)
	}
	b.follow(sel)
}

// refilter applies the filter's text. A query that does not parse keeps
// the last good one and says where the mistake is.
func (b *browser) refilter() tea.Cmd {
	text := b.filter.Value()
	q, err := library.ParseQuery(text)
	b.qErr = nil
	if err != nil {
		errors.As(err, &b.qErr)
		return nil
	}
	b.q = q
	return b.apply(text != b.lastQuery)
}

// apply recomputes the shown rows for the current query, format and
// order; reset puts the cursor on the first row.
func (b *browser) apply(reset bool) tea.Cmd {
	b.filterGen++
	b.filtering = false
	if reset {
		b.cur, b.top = 0, 0
		b.lastQuery = b.filter.Value()
	}
	sel := b.selected()
	if !b.filtered() {
		b.shown = b.rows
		b.follow(sel)
		return nil
	}
	if len(b.rows) <= syncFilter {
		rows, tiers := filterRows(b.rows, b.q, b.format, b.order)
		for i, rw := range rows {
			rw.tier = tiers[i]
		}
		b.shown = rows
		b.follow(sel)
		return nil
	}
	b.filtering = true
	gen, rows, q, format, o, upto := b.filterGen, b.rows, b.q, b.format, b.order, b.seq
	return func() tea.Msg {
		got, tiers := filterRows(rows, q, format, o)
		return filteredMsg{gen: gen, rows: got, tiers: tiers, upto: upto}
	}
}

// filterRows is the filter over a snapshot of the sorted rows: it reads
// only the rows' documents, so it may run on any goroutine.
func filterRows(rows []*row, q *library.Query, format model.Format, o order) ([]*row, []int) {
	type hit struct {
		rw   *row
		tier int
	}
	var hits []hit
	for _, rw := range rows {
		if ok, tier := keep(rw, q, format); ok {
			hits = append(hits, hit{rw, tier})
		}
	}
	if q.HasWords() {
		// rows are in sort order already: a stable sort by tier keeps it
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].tier < hits[j].tier })
	}
	out, tiers := make([]*row, len(hits)), make([]int, len(hits))
	for i, h := range hits {
		out[i], tiers[i] = h.rw, h.tier
	}
	return out, tiers
}

// resort sorts every row by the new order (once, on a sort key press).
func (b *browser) resort() tea.Cmd {
	sel := b.selected()
	rows := slices.Clone(b.rows)
	sort.SliceStable(rows, func(i, j int) bool { return b.order.less(rows[i], rows[j]) })
	b.rows = rows
	cmd := b.apply(false)
	b.follow(sel)
	return cmd
}

// checked applies check results: the row's problems become final, and it
// moves or leaves the view if the sort or the filter depends on them.
func (b *browser) applyChecks(done []library.Checked) {
	sel := b.selected()
	for _, c := range done {
		rw := b.byPath[c.Path]
		if rw == nil {
			continue
		}
		b.setCheck(rw, c.Check)
	}
	b.follow(sel)
}

func (b *browser) setCheck(rw *row, c *library.Check) {
	old := rw.h()
	if old.Check == nil && old.Err == "" {
		b.checked++
	}
	h := *old
	h.Check = c
	moves := b.order.col == colProblems
	if moves {
		b.rows = remove(b.rows, rw)
	}
	rw.setDoc(library.NewDoc(&h))
	b.probW = max(b.probW, len(rw.probText()))
	if moves {
		b.rows = insert(b.rows, rw, b.order.less)
	}
	switch {
	case !b.filtered():
		b.shown = b.rows
	case b.filtering:
	default:
		b.shown = remove(b.shown, rw)
		if ok, tier := keep(rw, b.q, b.format); ok {
			rw.tier = tier
			b.shown = insert(b.shown, rw, b.shownLess())
		}
	}
}

// remove returns the list without rw, as a new slice.
func remove(list []*row, rw *row) []*row {
	i := slices.Index(list, rw)
	if i < 0 {
		return list
	}
	return slices.Concat(list[:i], list[i+1:])
}

// insert returns the list with rw at its place, as a new slice.
func insert(list []*row, rw *row, less func(x, y *row) bool) []*row {
	i := sort.Search(len(list), func(i int) bool { return less(rw, list[i]) })
	return slices.Concat(list[:i], []*row{rw}, list[i:])
}

// opened records what a full decode of the file found when it was opened.
func (b *browser) opened(path string, r *model.Replay, err error) {
	rw := b.byPath[path]
	if rw == nil {
		return
	}
	c := library.CheckReplay(r, err)
	b.setCheck(rw, c)
	if b.checker != nil {
		b.checker.Forget(path)
	}
	if b.index != nil && rw.src.fsys == nil {
		h := *rw.h()
		b.index.Put(h)
	}
}

// startChecks queues every row without a final count for the background
// check, in the order they are shown.
func (b *browser) startChecks() {
	if b.checker == nil {
		return
	}
	for _, list := range [][]*row{b.shown, b.rows} {
		for _, rw := range list {
			b.checker.Add(*rw.h(), rw.src.fsys)
		}
	}
	b.preferCursor()
}

// preferCursor asks the checker for the row under the cursor next.
func (b *browser) preferCursor() {
	if rw := b.selected(); rw != nil && b.checker != nil && !rw.h().Checked() {
		b.checker.Prefer(rw.src.path)
	}
}

func (b *browser) Update(msg tea.Msg) (tea.Cmd, *row) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		b.setSize(msg.Width, msg.Height)
	case rowsMsg:
		if msg.gen != b.gen {
			return nil, nil
		}
		b.add(msg.rows)
		if msg.done {
			b.done = true
			b.took = time.Since(b.started)
			if b.index != nil {
				b.index.Flush()
			}
			b.startChecks()
			return nil, nil
		}
		return nextRows(msg.gen, msg.ch, batchWindow(len(b.rows))), nil
	case checksMsg:
		if msg.gen != b.gen {
			return nil, nil
		}
		b.applyChecks(msg.done)
		if msg.open {
			return nextChecks(msg.gen, b.checker.Results()), nil
		}
		return nil, nil
	case filteredMsg:
		if msg.gen != b.filterGen {
			return nil, nil
		}
		sel := b.selected()
		b.filtering = false
		for i, rw := range msg.rows {
			rw.tier = msg.tiers[i]
		}
		b.shown = msg.rows
		// rows that arrived meanwhile
		var late []*row
		for _, rw := range b.rows {
			if rw.seq >= msg.upto {
				late = append(late, rw)
			}
		}
		if len(late) > 0 {
			got, tiers := filterRows(late, b.q, b.format, b.order)
			for i, rw := range got {
				rw.tier = tiers[i]
			}
			b.shown = merge(b.shown, got, b.shownLess())
		}
		b.follow(sel)
	case tea.MouseMsg:
		if msg.Action == tea.MouseActionPress {
			switch msg.Button {
			case tea.MouseButtonWheelUp:
				b.move(-3)
			case tea.MouseButtonWheelDown:
				b.move(3)
			case tea.MouseButtonLeft:
				if i := b.top + msg.Y - 2; msg.Y >= 2 && i < len(b.shown) {
					b.cur = i
					b.moved = true
				}
			}
		}
	case tea.KeyMsg:
		return b.key(msg)
	}
	return nil, nil
}

func (b *browser) key(msg tea.KeyMsg) (tea.Cmd, *row) {
	if b.editing {
		switch msg.String() {
		case "esc":
			b.editing = false
			b.filter.Blur()
			b.filter.SetValue("")
			return b.refilter(), nil
		case "enter":
			// the highlighted row is what the filter was looking for
			b.editing = false
			b.filter.Blur()
			if rw := b.selected(); rw != nil && b.qErr == nil {
				return nil, rw
			}
			return nil, nil
		case "down", "up":
			b.editing = false
			b.filter.Blur()
		default:
			cmd := b.filter.Update(msg)
			return tea.Batch(cmd, b.refilter()), nil
		}
	}
	if b.help.ShowAll {
		// the help page scrolls; any other key closes it, q still quits
		k := b.keys
		switch {
		case key.Matches(msg, k.Quit):
			return tea.Quit, nil
		case key.Matches(msg, k.Up):
			b.helpTop--
		case key.Matches(msg, k.Down):
			b.helpTop++
		case key.Matches(msg, k.PageUp):
			b.helpTop -= b.h - 2
		case key.Matches(msg, k.PageDown):
			b.helpTop += b.h - 2
		case key.Matches(msg, k.Home):
			b.helpTop = 0
		default:
			b.help.ShowAll = false
		}
		return nil, nil
	}
	k := b.keys
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit, nil
	case key.Matches(msg, k.Up):
		b.move(-1)
	case key.Matches(msg, k.Down):
		b.move(1)
	case key.Matches(msg, k.PageUp):
		b.move(-b.rowsShown())
	case key.Matches(msg, k.PageDown):
		b.move(b.rowsShown())
	case key.Matches(msg, k.Home):
		b.cur = 0
		b.moved = true
	case key.Matches(msg, k.End):
		b.cur = max(len(b.shown)-1, 0)
		b.moved = true
	case key.Matches(msg, k.Filter):
		b.editing = true
		b.filter.Focus()
	case key.Matches(msg, k.Clear):
		if b.filter.Value() != "" || b.format != "" {
			b.filter.SetValue("")
			b.format = ""
			b.qErr = nil
			return b.refilter(), nil
		}
	case key.Matches(msg, k.Sort):
		next := (b.order.col + 1) % nColumns
		b.order = order{col: next, desc: defaultDesc(next)}
		return b.resort(), nil
	case key.Matches(msg, k.Reverse):
		b.order.desc = !b.order.desc
		return b.resort(), nil
	case key.Matches(msg, k.Formats):
		b.format = b.nextFormat()
		return b.apply(true), nil
	case key.Matches(msg, k.Help):
		b.help.ShowAll = true
	case key.Matches(msg, k.Open):
		if rw := b.selected(); rw != nil {
			return nil, rw
		}
	}
	return nil, nil
}

// defaultDesc is the direction a column starts in: newest, longest,
// biggest and most problems first; names A to Z.
func defaultDesc(c column) bool {
	switch c {
	case colDate, colLength, colSize, colProblems:
		return true
	}
	return false
}

// nextFormat cycles the format filter through the formats listed.
func (b *browser) nextFormat() model.Format {
	var fs []model.Format
	for _, f := range decoders.Formats {
		if b.seen[f.ID] {
			fs = append(fs, f.ID)
		}
	}
	if b.format == "" {
		if len(fs) == 0 {
			return ""
		}
		return fs[0]
	}
	i := slices.Index(fs, b.format)
	if i < 0 || i+1 >= len(fs) {
		return ""
	}
	return fs[i+1]
}

func (b *browser) move(d int) {
	b.moved = true
	b.cur = max(0, min(b.cur+d, len(b.shown)-1))
	b.preferCursor()
}

func (b *browser) rowsShown() int { return max(b.h-3, 1) }

// status is the title line's right part: counts, sort, format, checks.
func (b *browser) status() string {
	n := int64(len(b.rows))
	s := thousands(n) + " replays"
	if len(b.shown) != len(b.rows) || b.filtered() {
		s = thousands(int64(len(b.shown))) + " of " + s
	}
	if !b.done {
		s = "reading… " + s
	}
	if b.filtering {
		s += " · filtering…"
	}
	arrow := "▲"
	if b.order.desc {
		arrow = "▼"
	}
	s += " · by " + strings.Split(columnNames[b.order.col], " ")[0] + " " + arrow
	if b.format != "" {
		s += " · " + string(b.format) + " only"
	}
	if b.done && n > 0 {
		if b.checked >= len(b.rows) {
			s += " · all checked"
		} else {
			s += fmt.Sprintf(" · checked %s of %s", thousands(int64(b.checked)), thousands(n))
		}
	}
	if b.indexErr != "" {
		s += " · no index: " + b.indexErr
	}
	return s
}

// View: a title line, the column heads, the rows, and the footer.
func (b *browser) View() string {
	if b.w <= 0 || b.h <= 0 {
		return ""
	}
	p := b.pt
	lines := []string{p.bold.wrap(" rewind ") + p.dim.wrap(theme.Safe(b.title)+" · "+b.status())}
	if b.help.ShowAll {
		page := b.helpPage()
		b.helpTop = max(0, min(b.helpTop, len(page)-(b.h-2)))
		lines = append(lines, page[b.helpTop:]...)
		lines = block(lines, b.w, b.h-1)
		more := "  ↑/↓ scroll · any other key closes this page"
		if b.helpTop+b.h-2 >= len(page) {
			more = "  any key closes this page"
		}
		return strings.Join(append(lines, b.pt.dim.wrap(fit(more, b.w))), "\n")
	}
	// column widths: what gets what is left
	const sizeW = 8
	durW, probW := b.durW, b.probW
	fmtW, dateW, dateFmt := b.fmtW, 16, "2006-01-02 15:04"
	if b.w < 100 {
		dateW, dateFmt = 10, "2006-01-02"
	}
	whatW := b.w - (2 + fmtW + 1 + dateW + 1 + 1 + durW + 1 + sizeW + 1 + probW)
	nameW := 0
	switch {
	case whatW > 60:
		nameW = min(whatW/3, 40)
		whatW -= nameW + 1
	case whatW >= 20 && (b.filter.Value() != "" || b.order.col == colFile):
		// a filter matches file names too: show them, so a row's match can
		// be seen even on a narrow screen
		nameW = whatW / 2
		whatW -= nameW + 1
	}
	whatW = max(whatW, 0)
	head := func(c column, w int, right bool) string {
		s := columnNames[c]
		if c == b.order.col {
			if b.order.desc {
				s += "▼"
			} else {
				s += "▲"
			}
		}
		if pad := w - ansi.StringWidth(s); right && pad > 0 {
			return strings.Repeat(" ", pad) + s
		}
		return fit(s, w)
	}
	hd := "  " + head(colFormat, fmtW, false) + " " + head(colDate, dateW, false) + " " + head(colWhat, whatW, false) +
		" " + head(colLength, durW, true) + " " + head(colSize, sizeW, true) + " " + head(colProblems, probW, false)
	if nameW > 0 {
		hd += " " + head(colFile, nameW, false)
	}
	lines = append(lines, p.label.wrap(fit(hd, b.w)))
	rows := b.rowsShown()
	if b.cur < b.top {
		b.top = b.cur
	}
	if b.cur >= b.top+rows {
		b.top = b.cur - rows + 1
	}
	b.top = max(0, min(b.top, max(len(b.shown)-rows, 0)))
	marks := b.q.Marks()
	for i := b.top; i < len(b.shown) && len(lines) < rows+2; i++ {
		rw := b.shown[i]
		h := rw.h()
		sel := i == b.cur
		date := ""
		if !h.Start.IsZero() {
			date = h.Start.Format(dateFmt)
		}
		mark := "  "
		if sel {
			mark = "> "
		}
		var sb strings.Builder
		sb.WriteString(mark)
		sb.WriteString(b.hl(string(h.Format), fmtW, marks, sel))
		sb.WriteByte(' ')
		sb.WriteString(fit(date, dateW))
		sb.WriteByte(' ')
		sb.WriteString(b.hl(rw.what, whatW, marks, sel))
		sb.WriteString(fmt.Sprintf(" %*s %*s ", durW, rw.durText(), sizeW, humanSize(h.Size)))
		probs := rw.probText()
		pr := fit(probs, probW)
		if !sel {
			switch {
			case h.Err != "" || h.ProblemCount() > 0:
				pr = p.err.wrap(pr)
			default:
				pr = p.dim.wrap(pr)
			}
		}
		sb.WriteString(pr)
		if nameW > 0 {
			sb.WriteByte(' ')
			name := path.Base(filepath.ToSlash(rw.src.path))
			if b.order.col == colFile {
				// sorted by file: the names from their start, the part
				// the order reads, so what is shown is in order
				sb.WriteString(b.hl(name, nameW, marks, sel))
			} else {
				sb.WriteString(b.hlTail(name, nameW, marks, sel))
			}
		}
		line := fit(sb.String(), b.w)
		if sel {
			line = p.cursor.wrap(line)
		}
		lines = append(lines, line)
	}
	if len(b.shown) == 0 && b.done && !b.filtering {
		msg := "no replays here"
		if b.filtered() {
			msg = "nothing matches the filter"
		}
		lines = append(lines, p.dim.wrap("  "+msg))
	}
	var foot []string
	switch {
	case b.qErr != nil:
		foot = []string{b.filter.View(b.w), p.err.wrap(fit(fmt.Sprintf("%s^ %s", strings.Repeat(" ", b.qErr.Col), b.qErr.Msg), b.w))}
	case b.editing || b.filter.Value() != "":
		foot = []string{b.filter.View(b.w)}
	default:
		foot = strings.Split(b.help.View(b.keys), "\n")
	}
	out := block(lines, b.w, max(b.h-len(foot), 0))
	out = append(out, block(foot, b.w, min(len(foot), b.h))...)
	return strings.Join(out, "\n")
}

// helpPage is the ? screen: the keys (bubbles/help's full view), then the
// filter's query language and what the problems column says.
func (b *browser) helpPage() []string {
	lines := []string{""}
	for _, l := range strings.Split(b.help.View(b.keys), "\n") {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "", "  "+b.pt.bold.wrap("Filter: / then a query"))
	for _, l := range strings.Split(library.QueryHelp, "\n") {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "", "  "+b.pt.bold.wrap("Problems column"),
		"  not checked   only the header was read; a full check runs in the background",
		"  ! 2+          the header alone shows 2 problems; the check may find more",
		"  ! 3           a full check found 3 problems (warnings and errors)",
		"  clean         a full check found none",
		"  unreadable    the file is no replay or its decoder refused it",
	)
	return lines
}

// hl fits a cell's text to w cells and highlights where the filter's
// words and values appear in it (case-insensitively, as typed).
func (b *browser) hl(s string, w int, marks []string, sel bool) string {
	s = theme.Safe(s)
	if len(marks) == 0 || sel {
		return fit(s, w)
	}
	t := ansi.Truncate(s, w, "…")
	return fit(b.paintMarks(t, 0, markRanges(s, marks)), w)
}

// hlTail is hl for file names: a name too long keeps its end (the part
// that tells files apart, "…__corrupt.slp") rather than its start, except
// when the list is sorted by file (then the start shows, which the order
// follows).
func (b *browser) hlTail(s string, w int, marks []string, sel bool) string {
	s = theme.Safe(s)
	if w <= 1 || ansi.StringWidth(s) <= w {
		return b.hl(s, w, marks, sel)
	}
	// drop runes from the start until the rest and the ellipsis fit
	k := 0
	for k < len(s) && ansi.StringWidth(s[k:]) > w-1 {
		_, size := utf8.DecodeRuneInString(s[k:])
		k += size
	}
	if len(marks) == 0 || sel {
		return fit("…"+s[k:], w)
	}
	return fit("…"+b.paintMarks(s[k:], k, markRanges(s, marks)), w)
}

// markRanges are the byte ranges of s where a mark appears, ignoring case.
func markRanges(s string, marks []string) [][2]int {
	ls := strings.ToLower(s)
	if len(ls) != len(s) {
		return nil // a case change moved the offsets
	}
	var out [][2]int
	for _, m := range marks {
		m = strings.ToLower(m)
		if m == "" {
			continue
		}
		for from := 0; from < len(ls); {
			i := strings.Index(ls[from:], m)
			if i < 0 {
				break
			}
			out = append(out, [2]int{from + i, from + i + len(m)})
			from += i + len(m)
		}
	}
	return out
}

// paintMarks wraps the runes of t (which starts at byte off of the text
// the ranges refer to) that fall in a range, one by one.
func (b *browser) paintMarks(t string, off int, ranges [][2]int) string {
	if len(ranges) == 0 {
		return t
	}
	var sb strings.Builder
	for i, r := range t {
		at := off + i
		in := false
		for _, rg := range ranges {
			if at >= rg[0] && at < rg[1] {
				in = true
				break
			}
		}
		if in && r != '…' {
			b.pt.match.write(&sb, string(r))
		} else {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
