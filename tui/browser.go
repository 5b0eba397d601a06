package tui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"rewind/decoders"
	"rewind/library"
	"rewind/library/aggregate"
	"rewind/library/watch"
	"rewind/model"
	"rewind/theme"
)

// source is one file the browser lists: on disk or in the sample library.
type source struct {
	path string // as shown and as passed to the decoder
	fsys fs.FS  // nil: the OS file system
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

// row is a file the browser hands the app to open.
type row struct {
	src  source
	err  string // the file has no header: opening it shows this instead
	live bool   // the file is being written: it opens following it
}

// The browser keeps no copy of what it lists: its rows are numbers into a
// library.Store (the index's when there is one), a million of them four
// bytes each, and it reads a row's values from the store when it draws,
// sorts or filters. Sorting and filtering a long list run off the UI
// goroutine, on all cores, and a key press cancels the filter the previous
// one started; a short list (a folder of a few thousand) is sorted and
// filtered at once.

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
		if f := decoders.ByID(h.Format); f != nil && f.TitleIsID {
			// the title is a hash: who played, and how, say more
			parts := slices.DeleteFunc([]string{who, h.Mode, h.Title}, func(s string) bool { return s == "" })
			return theme.Safe(strings.Join(parts, " · "))
		}
		return theme.Safe(strings.TrimSuffix(h.Title+" · "+who, " · "))
	}
	// the sides: one a team when the file gives teams (Fox & Falco vs
	// Marth & Sheik), else one a player; a long side shows three and a count
	name := func(p library.Player) string {
		// the player as people name them: "firebat (Terran)", "Mango
		// (Fox)"; the character alone when the file has no name
		s := p.Name
		if s == "" {
			s = p.Character
		} else if p.Character != "" {
			s += " (" + p.Character + ")"
		}
		return s
	}
	var sides [][]string
	teamAt := map[string]int{}
	teams := true
	for _, p := range h.Players {
		teams = teams && p.Team != ""
	}
	for _, p := range h.Players {
		n := name(p)
		if n == "" {
			continue
		}
		if teams {
			if i, ok := teamAt[p.Team]; ok {
				sides[i] = append(sides[i], n)
				continue
			}
			teamAt[p.Team] = len(sides)
		}
		sides = append(sides, []string{n})
	}
	var ps []string
	for i, side := range sides {
		if i == 4 {
			ps = append(ps, fmt.Sprintf("+%d", len(sides)-4))
			break
		}
		if len(side) > 3 {
			side = append(side[:3:3], fmt.Sprintf("+%d", len(side)-3))
		}
		ps = append(ps, strings.Join(side, " & "))
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
func durText(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	s := model.FormatDuration(d)
	return s[:strings.LastIndexByte(s, '.')]
}

// probText is the problems column: what is known about the file's health.
func probText(h *library.Header) string {
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
// column (no date, no length) go last in either direction; ties go newest
// first, then in the order the files were first found.
type order struct {
	col  column
	desc bool
}

// rowsMsg is a batch of the scan: rows found fresh in the index or read.
type rowsMsg struct {
	gen   int
	batch []library.Scanned
	done  bool
	ch    chan []library.Scanned
}

// indexRowsMsg is the rows the index has under the paths, listed before
// the walk confirms them.
type indexRowsMsg struct {
	gen   int
	store *library.Store
	ids   []library.RowID
}

type checksMsg struct {
	gen  int
	ids  []library.RowID
	open bool // the checker's channel is still open
}

// sortedMsg is a sort and filter run off the UI goroutine.
type sortedMsg struct {
	job    int
	epoch  int // the list's epoch when the job started
	rows   []library.RowID
	sorted bool
	shown  []library.RowID
	tiers  []uint8
	widths widths
}

// bitset is one bit per row number.
type bitset []uint64

func (b *bitset) set(i library.RowID) {
	for int(i/64) >= len(*b) {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

func (b bitset) has(i library.RowID) bool { return int(i/64) < len(b) && b[i/64]&(1<<(i%64)) != 0 }

// syncLimit is the number of rows up to which a sort or a filter runs on
// the UI goroutine; above it, off it.
const syncLimit = 4000

// browser lists replays, filters and sorts them, and opens one.
type browser struct {
	th    *theme.Theme
	pt    *paints
	keys  browserKeyMap
	help  help.Model
	w, h  int
	title string
	// notes are lines shown under the rows until a key is pressed (the
	// samples are shown for want of a library, the config's problems,
	// what w or an action key started)
	notes []string
	hand  *handoff // w and the config's actions (watch.go)
	// the folders watched while the browser is open (browser_live.go):
	// the files being written, and the rows finished live whose check
	// the views made of the rows wait for
	watcher    *watch.Watcher
	live       map[string]bool
	liveRead   map[string]time.Time // when each was last read
	awaitCheck map[library.RowID]bool

	store    *library.Store
	index    *library.Index
	indexErr string
	fsys     fs.FS    // the sample library, when that is what is listed
	roots    []string // the paths named, for the index's rows under them
	srcs     []source

	all       []library.RowID // every row listed, in the order they came
	listed    bitset
	confirmed bitset          // rows the walk has seen this run
	rows      []library.RowID // every row in the current order (as of the last sort)
	shown     []library.RowID // the rows the filter keeps, in order (rows itself when none)
	tiers     []uint8         // how well each shown row matched the filter's words
	order     order
	format    model.Format // "": every format
	seen      map[model.Format]bool

	filter    lineInput
	editing   bool
	q         *library.Query
	qErr      *library.QueryError
	lastQuery string

	// the sort and filter job: one at a time; epoch counts the changes to
	// the list (rows added, changed, removed, a new order) so a job that
	// lands knows whether it is still the last word
	job      int
	slot     chan struct{} // held by the job that runs
	running  bool
	cancel   context.CancelFunc
	again    bool // run another job when this one lands
	later    bool // the list changed outside Update: look again on the next message
	epoch    int
	sortedAt int // the epoch of the list b.rows is
	// whats describes the rows' text keys for a sort by description; a
	// key reads the same however rows change, so it is kept across sorts,
	// for the store it was made from (whatsOf)
	whats   *whatCache
	whatsOf *library.Store
	// prepCancel stops the background description of rows (prepareWhats)
	prepCancel context.CancelFunc

	gen      int
	done     bool
	scanning bool // the walk has started (or there is none to start: a test's rows)
	started  time.Time
	took     time.Duration
	checker  *library.Checker
	checked  int // rows with a final problem count
	gcDone   func()

	// only, when set, keeps the rows of one group of the aggregate view
	// (onlyWhat names it in the title); esc drops it with the filter
	only     map[library.RowID]bool
	onlyWhat string
	// archIDs are the rows the archive view was opened on, in the order of
	// its games, so a group's games map back to rows
	archIDs []library.RowID
	// archiving says what the archive view being made will show, while
	// its games are read (a or m)
	archiving string

	cur, top int
	helpTop  int  // the help page's first line
	moved    bool // the user moved the cursor: keep it on its row as rows arrive
	fmtW     int  // the format column: the longest format name listed
	durW     int  // the length column: the longest length listed
	probW    int  // the problems column: its widest text
}

func newBrowser(th *theme.Theme, title string) *browser {
	b := &browser{th: th, pt: newPaints(th), keys: newBrowserKeyMap(), help: help.New(), title: title,
		store: library.NewStore(), scanning: true, seen: map[model.Format]bool{}, order: order{colDate, true},
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

// start opens the index (unless noCache) and lists what it knows under the
// paths at once; then the walk confirms every row on all cores (new and
// changed files are read) and the checker takes the rows not yet checked.
func (b *browser) start(srcs []source, noCache bool) tea.Cmd {
	b.started = time.Now()
	b.gcDone = library.TuneGC()
	b.srcs = srcs
	hasDisk := false
	for _, s := range srcs {
		if s.fsys != nil {
			b.fsys = s.fsys // the built-in samples come alone
		} else {
			hasDisk = true
			b.roots = append(b.roots, s.path)
		}
	}
	if !noCache && hasDisk {
		idx, err := library.OpenIndex("")
		if err != nil {
			b.indexErr = err.Error()
		} else {
			b.index = idx
		}
	}
	if b.index == nil {
		b.checker = library.NewChecker(nil, b.store, b.fsys)
		b.scanning = true
		return tea.Batch(b.scan(), nextChecks(b.gen, b.checker.Results()), b.watchFolders())
	}
	gen, idx, roots := b.gen, b.index, b.roots
	b.scanning = false // the walk starts when the index's rows are up
	return tea.Batch(func() tea.Msg {
		// the index is read in the background; its store is the list's
		s := idx.Store()
		return indexRowsMsg{gen: gen, store: s, ids: s.RowsUnder(roots)}
	}, b.watchFolders())
}

// close writes the index and stops the checker; Run calls it on the way out.
func (b *browser) close() {
	if b.prepCancel != nil {
		b.prepCancel()
	}
	if b.watcher != nil {
		b.watcher.Close()
	}
	if b.checker != nil {
		b.checker.Close()
	}
	if b.index != nil {
		b.index.Close()
	}
	if b.gcDone != nil {
		b.gcDone()
		b.gcDone = nil
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

// scan walks the sources on all cores: a row fresh in the index is only
// confirmed, a new or changed file is read and put. Batches come through a
// channel.
func (b *browser) scan() tea.Cmd {
	ch := make(chan []library.Scanned, 64)
	opt := library.ScanOptions{Index: b.index}
	store, srcs := b.store, b.srcs
	go func() {
		defer close(ch)
		library.ScanRows(context.Background(), walkSources(srcs), opt, store, func(ss []library.Scanned) bool {
			ch <- slices.Clone(ss)
			return true
		})
	}()
	return nextRows(b.gen, ch, batchWindow(0))
}

// batchWindow is how long rows gather before the list takes them in: the
// first batch shows at once; later ones wait longer as the list grows (a
// sort of n rows costs O(n)).
func batchWindow(n int) time.Duration {
	return min(max(time.Duration(n)*time.Microsecond/4, 30*time.Millisecond), 500*time.Millisecond)
}

func nextRows(gen int, ch chan []library.Scanned, window time.Duration) tea.Cmd {
	return func() tea.Msg {
		first, ok := <-ch
		if !ok {
			return rowsMsg{gen: gen, done: true, ch: ch}
		}
		batch := first
		timer := time.NewTimer(window)
		defer timer.Stop()
		for {
			select {
			case ss, ok := <-ch:
				if !ok {
					return rowsMsg{gen: gen, batch: batch, done: true, ch: ch}
				}
				batch = append(batch, ss...)
			case <-timer.C:
				return rowsMsg{gen: gen, batch: batch, ch: ch}
			}
		}
	}
}

func nextChecks(gen int, ch <-chan library.RowID) tea.Cmd {
	return func() tea.Msg {
		id, ok := <-ch
		if !ok {
			return checksMsg{gen: gen}
		}
		batch := []library.RowID{id}
		for len(batch) < 1024 {
			select {
			case id, ok := <-ch:
				if !ok {
					return checksMsg{gen: gen, ids: batch}
				}
				batch = append(batch, id)
			default:
				return checksMsg{gen: gen, ids: batch, open: true}
			}
		}
		return checksMsg{gen: gen, ids: batch, open: true}
	}
}

func (b *browser) setSize(w, h int) {
	b.w, b.h = max(w, 0), max(h, 0)
	b.help.Width = b.w
}

// filtered reports whether the list shows fewer rows than it has.
func (b *browser) filtered() bool { return !b.q.Empty() || b.format != "" }

// selectedID is the row under the cursor.
func (b *browser) selectedID() (library.RowID, bool) {
	if b.cur >= 0 && b.cur < len(b.shown) {
		return b.shown[b.cur], true
	}
	return 0, false
}

// selected is the row under the cursor as the app opens it.
func (b *browser) selected() *row {
	id, ok := b.selectedID()
	if !ok {
		return nil
	}
	h := b.store.Header(id)
	return &row{src: source{path: h.Path, fsys: b.fsys}, err: h.Err, live: b.isLive(&h)}
}

// follow keeps the cursor on the row it was on, when the user put it there.
func (b *browser) follow(sel library.RowID, had bool) {
	if had && b.moved {
		if i := slices.Index(b.shown, sel); i >= 0 {
			b.cur = i
		}
	}
	b.cur = max(0, min(b.cur, len(b.shown)-1))
}

// add lists rows not yet listed; it reports whether any was new.
func (b *browser) add(ids []library.RowID) bool {
	b.all = slices.Grow(b.all, len(ids))
	added := false
	for _, id := range ids {
		if !b.listed.has(id) {
			b.listed.set(id)
			b.all = append(b.all, id)
			added = true
		}
	}
	return added
}

// refresh sorts (when the list changed since the last sort) and filters
// the list again: at once for a short list, else in a job off the UI
// goroutine. interrupt cancels a running job (a key press: its answer is
// no longer wanted); otherwise the next job starts when it lands.
func (b *browser) refresh(interrupt bool) tea.Cmd {
	if len(b.all) <= syncLimit {
		if b.running && b.cancel != nil {
			b.cancel()
		}
		b.job++
		b.apply(b.jobInput().run(context.Background()))
		return nil
	}
	if b.running {
		if !interrupt {
			b.again = true
			return nil
		}
		b.cancel()
	}
	return b.startJob()
}

// startJob starts a sort and filter job over the list as it is now.
func (b *browser) startJob() tea.Cmd {
	b.job++
	b.running, b.again = true, false
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	in := b.jobInput()
	return func() tea.Msg { return in.run(ctx) }
}

// jobIn is what a job reads of the browser, taken on the UI goroutine.
type jobIn struct {
	slot       chan struct{} // one job at a time: a cancelled one stops before the next starts
	job, epoch int
	store      *library.Store
	all, rows  []library.RowID
	sort       bool
	o          order
	q          *library.Query
	format     model.Format
	only       map[library.RowID]bool
	whats      *whatCache // nil: a new one
}

func (b *browser) jobInput() jobIn {
	if b.slot == nil {
		b.slot = make(chan struct{}, 1)
	}
	if b.whats == nil || b.whatsOf != b.store {
		b.whats, b.whatsOf = newWhatCache(), b.store
	}
	return jobIn{slot: b.slot, job: b.job, epoch: b.epoch, store: b.store, all: b.all[:len(b.all):len(b.all)], rows: b.rows,
		sort: b.sortedAt != b.epoch || len(b.rows) != len(b.all), o: b.order, q: b.q, format: b.format, only: b.only,
		whats: b.whats}
}

// run sorts (when needed) and filters, reading only the store: it may run
// on any goroutine.
func (in jobIn) run(ctx context.Context) sortedMsg {
	// a job's scratch is tens of megabytes for a million rows: one at a time
	if in.slot != nil {
		in.slot <- struct{}{}
		defer func() { <-in.slot }()
	}
	if ctx.Err() != nil {
		return sortedMsg{job: -1}
	}
	msg := sortedMsg{job: in.job, epoch: in.epoch, rows: in.rows}
	if in.sort {
		whats := in.whats
		if whats == nil {
			whats = newWhatCache()
		}
		msg.rows, msg.widths = sortRows(ctx, in.store, in.all, in.o, whats)
		if msg.rows == nil {
			return sortedMsg{job: -1} // cancelled
		}
		msg.sorted = true
	}
	if in.q.Empty() && in.format == "" && in.only == nil {
		msg.shown = msg.rows
		return msg
	}
	rows := msg.rows
	if in.only != nil {
		rows = make([]library.RowID, 0, len(in.only))
		for _, id := range msg.rows {
			if in.only[id] {
				rows = append(rows, id)
			}
		}
		if in.q.Empty() && in.format == "" {
			msg.shown = rows
			return msg
		}
	}
	kept, tiers, ok := in.q.Matcher(in.store, in.format).Filter(ctx, rows)
	if !ok {
		return sortedMsg{job: -1} // cancelled
	}
	if in.q.HasWords() {
		kept, tiers = byTier(kept, tiers)
	} else {
		tiers = nil
	}
	msg.shown, msg.tiers = kept, tiers
	return msg
}

// byTier orders rows by how well they matched, keeping the sort inside
// each tier.
func byTier(ids []library.RowID, tiers []uint8) ([]library.RowID, []uint8) {
	var count [256]int
	for _, t := range tiers {
		count[t]++
	}
	sum := 0
	for t := range count {
		c := count[t]
		count[t] = sum
		sum += c
	}
	out, outT := make([]library.RowID, len(ids)), make([]uint8, len(ids))
	for i, id := range ids {
		t := tiers[i]
		out[count[t]], outT[count[t]] = id, t
		count[t]++
	}
	return out, outT
}

// apply takes a job's answer.
func (b *browser) apply(m sortedMsg) {
	if m.job != b.job {
		return // cancelled or overtaken by a newer one
	}
	sel, had := b.selectedID()
	b.running = false
	if m.sorted {
		b.rows = m.rows
		b.sortedAt = m.epoch
		w := m.widths
		for f := range w.seen {
			b.seen[model.Format(f)] = true
		}
		b.fmtW = max(b.fmtW, w.fmtW)
		b.durW = max(b.durW, len(durText(w.maxDur)))
		if w.maxProbs > 0 {
			b.probW = max(b.probW, len(fmt.Sprintf("! %d", w.maxProbs)))
		}
		if w.maxHead > 0 {
			b.probW = max(b.probW, len(fmt.Sprintf("! %d+", w.maxHead)))
		}
		b.checked = w.checked
	}
	b.shown, b.tiers = m.shown, m.tiers
	b.follow(sel, had)
}

// landed takes a job's answer from the UI loop and starts the next job
// when the list changed meanwhile.
func (b *browser) landed(m sortedMsg) tea.Cmd {
	if m.job != b.job {
		return nil
	}
	b.apply(m)
	var cmds []tea.Cmd
	if b.again || b.sortedAt != b.epoch || len(b.rows) != len(b.all) {
		cmds = append(cmds, b.startJob())
	}
	// the index's rows are up: now the walk confirms them
	return tea.Batch(append(cmds, b.startScan())...)
}

// startScan starts the walk once, after the index's rows are listed.
func (b *browser) startScan() tea.Cmd {
	if b.scanning {
		return nil
	}
	b.scanning = true
	b.checker = library.NewChecker(b.index, b.store, b.fsys)
	return tea.Batch(b.scan(), nextChecks(b.gen, b.checker.Results()), b.prepareWhats())
}

// prepareStretch is how many rows prepareWhats describes under one hold
// of the job slot: a key press's job waits for at most one (a few ms).
const prepareStretch = 1 << 14

// prepareMost is how many distinct descriptions prepareWhats makes before
// it stops: an archive of games that all read differently would hold tens
// of megabytes of them for a sort that may never come.
const prepareMost = 1 << 17

// prepareWhats describes the listed rows for a sort by players in the
// background, a stretch at a time between jobs, so the first such sort of
// a large list reads each row's description from the cache (half the
// time of reading its players). Rows found later are described by the
// sort that meets them, or by the prepare at the walk's end.
func (b *browser) prepareWhats() tea.Cmd {
	if len(b.all) <= syncLimit {
		return nil // sorted on the UI goroutine, quickly anyway
	}
	if b.prepCancel != nil {
		b.prepCancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.prepCancel = cancel
	in := b.jobInput()
	return func() tea.Msg {
		for lo := 0; lo < len(in.all) && ctx.Err() == nil; lo += prepareStretch {
			in.slot <- struct{}{}
			more := len(in.whats.list) < prepareMost
			if more && ctx.Err() == nil {
				in.whats.prepare(in.store, in.all[lo:min(lo+prepareStretch, len(in.all))])
			}
			<-in.slot
			if !more {
				break
			}
		}
		return nil
	}
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
	if text != b.lastQuery {
		b.cur, b.top = 0, 0
		b.lastQuery = text
	}
	return b.refresh(true)
}

// resort sorts every row by the new order (on a sort key press).
func (b *browser) resort() tea.Cmd {
	b.epoch++
	return b.refresh(true)
}

// changed notes rows whose values changed (a check landed, a file was read
// again): the list is sorted again when the order or the filter reads what
// changed.
func (b *browser) changed(content bool) tea.Cmd {
	if content || b.order.col == colProblems {
		b.epoch++
	}
	// a check brings the summary, and with it who won: winner: and
	// loser: read it
	if content || b.q.NeedsCheck() || b.q.HasOutcomeTerms() || b.order.col == colProblems {
		return b.refresh(false)
	}
	return nil
}

// applyChecks takes check results: the rows are already updated in the
// store; the count and, when the order or the filter reads problems, the
// list follow.
func (b *browser) applyChecks(ids []library.RowID) tea.Cmd {
	waited := false
	for _, id := range ids {
		if b.listed.has(id) {
			b.checked = min(b.checked+1, len(b.all))
		}
		if b.awaitCheck[id] {
			delete(b.awaitCheck, id)
			waited = true
		}
	}
	if waited {
		// a game finished while the browser was open has its result now
		return tea.Batch(b.changed(true), b.liveChanged())
	}
	return b.changed(false)
}

// opened records what a full decode of the file found when it was opened.
// The list follows on the next message the browser gets (the app shows the
// replay meanwhile).
func (b *browser) opened(path string, r *model.Replay, err error) {
	id, ok := b.store.Lookup(path)
	if !ok {
		return
	}
	h := b.store.Header(id)
	if h.Check == nil && h.Err == "" && b.listed.has(id) {
		b.checked = min(b.checked+1, len(b.all))
	}
	h.Check, h.Summary = library.CheckReplay(r, err), library.SummaryOf(r, err)
	if b.index != nil && b.fsys == nil && h.Kind == library.File {
		b.index.PutRow(&h)
	} else {
		b.store.Put(&h)
	}
	if b.checker != nil {
		b.checker.Forget(id)
	}
	b.probW = max(b.probW, len(probText(&h)))
	b.later = true
}

// startChecks queues every row without a final count for the background
// check, in the order they are shown, then the rest.
func (b *browser) startChecks() {
	if b.checker == nil {
		return
	}
	b.checker.Add(b.shown)
	if len(b.shown) != len(b.rows) {
		b.checker.Add(b.rows)
	}
	b.preferCursor()
}

// preferCursor asks the checker for the row under the cursor next.
func (b *browser) preferCursor() {
	if id, ok := b.selectedID(); ok && b.checker != nil {
		b.checker.Prefer(id)
	}
}

// scanned takes a batch of the walk: new rows are listed, rows read again
// changed, and every row seen is confirmed.
func (b *browser) scanned(batch []library.Scanned) tea.Cmd {
	content := false
	for _, s := range batch {
		b.confirmed.set(s.ID)
		if !b.listed.has(s.ID) {
			b.listed.set(s.ID)
			b.all = append(b.all, s.ID)
			content = true
		} else if s.Read {
			content = true
		}
	}
	if content {
		return b.changed(true)
	}
	return nil
}

// walkDone drops the rows the index had that the walk did not find
// (files removed or moved since), and starts the checks.
func (b *browser) walkDone() tea.Cmd {
	b.done = true
	b.took = time.Since(b.started)
	kept := b.all[:0:0]
	for _, id := range b.all {
		if b.confirmed.has(id) {
			kept = append(kept, id)
		}
	}
	var cmd tea.Cmd
	if len(kept) != len(b.all) {
		b.all = kept
		b.listed = nil
		for _, id := range kept {
			b.listed.set(id)
		}
		b.epoch++
		cmd = b.refresh(false)
	}
	if idx := b.index; idx != nil {
		// what the walk read is written off the UI goroutine
		flush := func() tea.Msg { idx.Flush(); return nil }
		cmd = tea.Batch(cmd, flush)
	}
	b.startChecks()
	return tea.Batch(cmd, b.prepareWhats())
}

func (b *browser) Update(msg tea.Msg) (tea.Cmd, *row) {
	if b.later {
		b.later = false
		cmd, rw := b.update(msg)
		return tea.Batch(b.changed(false), cmd), rw
	}
	return b.update(msg)
}

func (b *browser) update(msg tea.Msg) (tea.Cmd, *row) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		b.setSize(msg.Width, msg.Height)
	case indexRowsMsg:
		if msg.gen != b.gen {
			return nil, nil
		}
		b.store = msg.store // the index's rows are the list's
		if b.add(msg.ids) {
			b.epoch++
			if cmd := b.refresh(false); cmd != nil {
				return cmd, nil // the walk starts when the list is up
			}
		}
		return b.startScan(), nil
	case rowsMsg:
		if msg.gen != b.gen {
			return nil, nil
		}
		cmd := b.scanned(msg.batch)
		if msg.done {
			return tea.Batch(cmd, b.walkDone()), nil
		}
		if msg.ch == nil {
			return cmd, nil // rows handed in by a test
		}
		return tea.Batch(cmd, nextRows(msg.gen, msg.ch, batchWindow(len(b.all)))), nil
	case checksMsg:
		if msg.gen != b.gen {
			return nil, nil
		}
		cmd := b.applyChecks(msg.ids)
		if msg.open {
			return tea.Batch(cmd, nextChecks(msg.gen, b.checker.Results())), nil
		}
		return cmd, nil
	case sortedMsg:
		return b.landed(msg), nil
	case liveWatchMsg:
		return b.onWatch(msg), nil
	case liveReadMsg:
		return b.onLiveRead(msg), nil
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

// browserKeyMap is the browser's keys: the shared ones of keys.go and the
// archive's own (sort, reverse, format).
type browserKeyMap struct {
	browserKeys
	Sort, Reverse, Formats key.Binding
	// Stats and Moments open the archive's views over the rows shown
	// (aggregate.go, momentsview.go)
	Stats, Moments key.Binding
	// Watch plays the replay at the cursor in the game (watch.go)
	Watch key.Binding
}

func newBrowserKeyMap() browserKeyMap {
	return browserKeyMap{
		browserKeys: newBrowserKeys(),
		Sort:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Reverse:     key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse")),
		Formats:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "format")),
		Stats:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "stats")),
		Moments:     key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "moments")),
		Watch:       watchKey,
	}
}

func (k browserKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Filter, k.Sort, k.Stats, k.Moments, k.Watch, k.Help, k.Quit}
}

func (k browserKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Open, k.Filter, k.Clear, k.Sort, k.Reverse, k.Formats, k.Help, k.Quit},
		{k.Stats, k.Moments, k.Watch},
	}
}

func (b *browser) key(msg tea.KeyMsg) (tea.Cmd, *row) {
	b.notes = nil // read: they give the rows their room back
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
		if b.filter.Value() != "" || b.format != "" || b.only != nil {
			b.filter.SetValue("")
			b.format = ""
			b.qErr = nil
			b.only, b.onlyWhat = nil, ""
			return b.refilter(), nil
		}
	case key.Matches(msg, k.Stats), key.Matches(msg, k.Moments):
		if b.archiving != "" {
			return nil, nil // one at a time: the first is on its way
		}
		kind, view := archiveStats, "the stats"
		if key.Matches(msg, k.Moments) {
			kind, view = archiveMoments, "the moments"
		}
		// a million rows take seconds: the title line says so meanwhile
		b.archiving = fmt.Sprintf("reading %s rows for %s…", thousands(int64(len(b.shown))), view)
		return b.archive(kind), nil
	case key.Matches(msg, k.Sort):
		next := (b.order.col + 1) % nColumns
		b.order = order{col: next, desc: defaultDesc(next)}
		return b.resort(), nil
	case key.Matches(msg, k.Reverse):
		b.order.desc = !b.order.desc
		return b.resort(), nil
	case key.Matches(msg, k.Formats):
		b.format = b.nextFormat()
		b.cur, b.top = 0, 0
		return b.refresh(true), nil
	case key.Matches(msg, k.Help):
		b.help.ShowAll = true
	case key.Matches(msg, k.Open):
		if rw := b.selected(); rw != nil {
			return nil, rw
		}
	case key.Matches(msg, watchKey):
		if id, ok := b.selectedID(); ok {
			h := b.store.Header(id)
			return b.hand.watch(rowRequest(&h)), nil
		}
	default:
		if id, ok := b.selectedID(); ok {
			h := b.store.Header(id)
			if a, ok := b.hand.action(msg.String(), h.Format); ok {
				return b.hand.run(a, rowRequest(&h)), nil
			}
		}
	}
	return nil, nil
}

// keyTaken reports whether the browser uses key k itself.
func (b *browser) keyTaken(k string) bool {
	for _, group := range b.keys.FullHelp() {
		for _, bd := range group {
			if slices.Contains(bd.Keys(), k) {
				return true
			}
		}
	}
	return false
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
	n := int64(len(b.all))
	s := thousands(n) + " replays"
	if len(b.shown) != len(b.all) || b.filtered() {
		s = thousands(int64(len(b.shown))) + " of " + s
	}
	if !b.done {
		s = "reading… " + s
	}
	if b.running {
		s += " · sorting…"
		if b.filtered() {
			s = strings.TrimSuffix(s, " · sorting…") + " · filtering…"
		}
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
		if b.checked >= len(b.all) {
			s += " · all checked"
		} else {
			s += fmt.Sprintf(" · checked %s of %s", thousands(int64(b.checked)), thousands(n))
		}
	}
	if b.indexErr != "" {
		s += " · no index: " + b.indexErr
	}
	if b.archiving != "" {
		s += " · " + b.archiving
	}
	return s
}

// View: a title line, the column heads, the rows, and the footer.
func (b *browser) View() string {
	if b.w <= 0 || b.h <= 0 {
		return ""
	}
	p := b.pt
	title := theme.Safe(b.title)
	if b.onlyWhat != "" {
		title += " · only " + theme.Safe(b.onlyWhat) + " (esc: all)"
	}
	lines := []string{p.bold.wrap(" rewind ") + p.dim.wrap(title+" · "+b.status())}
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
	sets := b.setMarks(b.top, min(len(b.shown), b.top+rows))
	for i := b.top; i < len(b.shown) && len(lines) < rows+2; i++ {
		h := b.store.Header(b.shown[i])
		sel := i == b.cur
		date := ""
		if !h.Start.IsZero() {
			date = h.Start.Format(dateFmt)
		}
		mark := "  "
		if sel {
			mark = ">" + " "
		}
		if s := sets[i-b.top]; s != "" {
			mark = mark[:1] + s
		}
		var sb strings.Builder
		sb.WriteString(mark)
		sb.WriteString(b.hl(string(h.Format), fmtW, marks, sel))
		sb.WriteByte(' ')
		sb.WriteString(fit(date, dateW))
		sb.WriteByte(' ')
		sb.WriteString(b.hl(describe(&h), whatW, marks, sel))
		sb.WriteString(fmt.Sprintf(" %*s %*s ", durW, durText(h.Duration), sizeW, humanSize(h.Size)))
		probs := probText(&h)
		live := b.isLive(&h)
		if live {
			probs = "● live"
		}
		pr := fit(probs, probW)
		if !sel {
			switch {
			case live:
				pr = p.match.wrap(pr)
			case h.Err != "" || h.ProblemCount() > 0:
				pr = p.err.wrap(pr)
			default:
				pr = p.dim.wrap(pr)
			}
		}
		sb.WriteString(pr)
		if nameW > 0 {
			sb.WriteByte(' ')
			name := path.Base(filepath.ToSlash(h.Path))
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
	if len(b.shown) == 0 && b.done && !b.running {
		msg := "no replays here"
		if b.filtered() {
			msg = "nothing matches the filter"
		}
		lines = append(lines, p.dim.wrap("  "+msg))
	}
	var foot []string
	for _, n := range b.notes {
		for _, l := range strings.Split(ansi.Wordwrap(theme.Safe(n), max(b.w-2, 10), ""), "\n") {
			foot = append(foot, p.dim.wrap(fit("  "+l, b.w)))
		}
	}
	switch {
	case b.qErr != nil:
		foot = append(foot, b.filter.View(b.w), p.err.wrap(fit(fmt.Sprintf("%s^ %s", strings.Repeat(" ", b.qErr.Col), b.qErr.Msg), b.w)))
	case b.editing || b.filter.Value() != "":
		foot = append(foot, b.filter.View(b.w))
	default:
		// w watch where the row under the cursor can be played in its game
		watch := false
		if id, ok := b.selectedID(); ok && b.hand != nil {
			watch = canWatch(model.Format(b.store.Header(id).Format))
		}
		b.keys.Watch.SetEnabled(watch)
		foot = append(foot, strings.Split(b.help.View(b.keys), "\n")...)
		b.keys.Watch.SetEnabled(true) // the ? page lists it always
	}
	out := block(lines, b.w, max(b.h-len(foot), 0))
	out = append(out, block(foot, b.w, min(len(foot), b.h))...)
	return strings.Join(out, "\n")
}

// setMarks says, for the rows lo..hi of the list, how each joins the rows
// beside it into a set when the list is in date order: ┌ the first game
// of a set, │ a game within it, └ its last, "" a row in no set. Two rows
// are games of one set when they are next to each other, one player
// against one and the same two players, and the later started less than
// aggregate.SessionGap after the earlier ended (aggregate.FindSets, which
// stats --by set runs, says the same of a whole archive). Only the rows on
// screen and their two neighbours are read.
func (b *browser) setMarks(lo, hi int) []string {
	marks := make([]string, max(hi-lo, 0))
	if b.order.col != colDate || hi <= lo {
		return marks
	}
	type game struct {
		pair       [2]string
		start, end time.Time
	}
	read := func(i int) (game, bool) {
		if i < 0 || i >= len(b.shown) {
			return game{}, false
		}
		h := b.store.Header(b.shown[i])
		if len(h.Players) != 2 || h.Start.IsZero() || h.Players[0].Team != "" && h.Players[0].Team == h.Players[1].Team {
			return game{}, false
		}
		var g game
		for k, p := range h.Players {
			g.pair[k] = p.Code
			if g.pair[k] == "" {
				g.pair[k] = p.Name
			}
			if g.pair[k] == "" {
				return game{}, false
			}
		}
		if g.pair[0] > g.pair[1] {
			g.pair[0], g.pair[1] = g.pair[1], g.pair[0]
		}
		g.start, g.end = h.Start, h.Start.Add(h.Duration)
		return g, true
	}
	joined := func(a, b game) bool {
		if a.start.After(b.start) {
			a, b = b, a
		}
		// a game listed twice (a copy) starts when it starts: no set
		return a.pair == b.pair && !a.start.Equal(b.start) && b.start.Sub(a.end) < aggregate.SessionGap
	}
	games := make([]game, hi-lo+2)
	ok := make([]bool, hi-lo+2)
	for i := lo - 1; i <= hi; i++ {
		games[i-lo+1], ok[i-lo+1] = read(i)
	}
	for i := lo; i < hi; i++ {
		k := i - lo + 1
		if !ok[k] {
			continue
		}
		up := ok[k-1] && joined(games[k-1], games[k])
		down := ok[k+1] && joined(games[k], games[k+1])
		switch {
		case up && down:
			marks[i-lo] = "│"
		case up:
			marks[i-lo] = "└"
		case down:
			marks[i-lo] = "┌"
		}
	}
	return marks
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
	lines = append(lines, "", "  "+b.pt.bold.wrap("Watch and actions"))
	for _, l := range b.hand.helpLines(func(k string) bool { return b.keyTaken(k) }) {
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
