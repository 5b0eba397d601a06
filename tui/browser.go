package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"rewind/decoders"
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

// row is one replay in the browser, read header-only.
type row struct {
	src      source
	format   string
	start    time.Time
	what     string // players/characters, map or song
	duration time.Duration
	size     int64
	problems int
	err      string // the file could not be read at all
	key      string // what the filter matches: the row's columns joined
	offs     [4]int // where the what, date, format and name columns start in key
}

type rowsMsg struct {
	gen  int
	rows []row
	done bool
	ch   chan row
}

// browser lists replays, filters them and opens one.
type browser struct {
	th    *theme.Theme
	pt    *paints
	keys  browserKeys
	help  help.Model
	w, h  int
	title string

	rows      []row
	total     int // files found so far
	done      bool
	skipped   int // files that are no replay
	gen       int
	filter    lineInput
	editing   bool
	shown     []int // indices into rows after filtering
	matched   map[int][]int
	lastQuery string
	moved     bool // the user moved the cursor: keep it on its row as rows arrive
	fmtW      int  // the format column: the longest format name listed
	durW      int  // the length column: the longest length listed
	probW     int  // the problems column: its widest text
	cur, top  int
}

func newBrowser(th *theme.Theme, title string) *browser {
	b := &browser{th: th, pt: newPaints(th), keys: newBrowserKeys(), help: help.New(), title: title,
		fmtW: len("format"), durW: len("length"), probW: len("problems")}
	b.help.Styles.ShortKey = th.HelpKey
	b.help.Styles.ShortDesc = th.HelpDesc
	b.help.Styles.ShortSeparator = th.HelpSep
	b.help.Styles.FullKey = th.HelpKey
	b.help.Styles.FullDesc = th.HelpDesc
	b.help.Styles.FullSeparator = th.HelpSep
	b.filter = newLineInput(th, "/")
	return b
}

// scan lists the files under the sources and reads each header-only with
// a bounded pool of workers; rows arrive in batches through a channel.
func scan(srcs []source) tea.Cmd {
	ch := make(chan row, 256)
	go func() {
		jobs := make(chan source, 64)
		done := make(chan struct{})
		workers := max(runtime.NumCPU(), 1)
		for i := 0; i < workers; i++ {
			go func() {
				for s := range jobs {
					if r, ok := readRow(s); ok {
						ch <- r
					}
				}
				done <- struct{}{}
			}()
		}
		for _, s := range srcs {
			walkSource(s, func(f source) { jobs <- f })
		}
		close(jobs)
		for i := 0; i < workers; i++ {
			<-done
		}
		close(ch)
	}()
	return nextRows(0, ch)
}

// walkSource calls fn for each regular file of s (s itself when it is a file).
func walkSource(s source, fn func(source)) {
	if s.fsys != nil {
		_ = fs.WalkDir(s.fsys, s.path, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && !skipName(d.Name()) {
				fn(source{path: p, fsys: s.fsys})
			}
			return nil
		})
		return
	}
	st, err := os.Stat(s.path)
	if err != nil {
		fn(s) // readRow reports the error as a row
		return
	}
	if !st.IsDir() {
		fn(s)
		return
	}
	_ = filepath.WalkDir(s.path, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !skipName(d.Name()) {
			fn(source{path: p})
		}
		return nil
	})
}

// skipName leaves out the files that sit next to replays but are none.
func skipName(n string) bool {
	switch strings.ToLower(path.Ext(n)) {
	case ".md", ".tsv", ".txt", ".json", ".go":
		return true
	}
	return strings.HasPrefix(n, ".")
}

func nextRows(gen int, ch chan row) tea.Cmd {
	return func() tea.Msg {
		r, ok := <-ch
		if !ok {
			return rowsMsg{gen: gen, done: true, ch: ch}
		}
		batch := []row{r}
		for len(batch) < 512 {
			select {
			case r, ok := <-ch:
				if !ok {
					return rowsMsg{gen: gen, rows: batch, done: true, ch: ch}
				}
				batch = append(batch, r)
			default:
				return rowsMsg{gen: gen, rows: batch, ch: ch}
			}
		}
		return rowsMsg{gen: gen, rows: batch, ch: ch}
	}
}

// readRow decodes a file header-only. A file no decoder claims gives no
// row; one a decoder claims but cannot read gives a row with the error.
func readRow(s source) (rw row, ok bool) {
	rw = row{src: s}
	defer func() {
		// a decoder bug must cost one row, not the program
		if p := recover(); p != nil {
			rw.err = fmt.Sprintf("decoder failed: %v", p)
			ok = true
		}
		rw.index()
	}()
	data, err := s.read()
	if err != nil {
		rw.err = err.Error()
		return rw, true
	}
	rw.size = int64(len(data))
	if f, err := decoders.Detect(data, s.path); err == nil {
		rw.format = string(f.ID)
	} else {
		// a file named like a replay that is none is worth a row: it is
		// what an archivist is looking for
		if id := formatOfName(s.path); id != "" {
			rw.format = id
			rw.err = err.Error()
			// the row shows the name: say only what the file is instead
			if i := strings.Index(rw.err, ": "); strings.HasPrefix(rw.err, "not a replay") && i > 0 {
				rw.err = "not a replay: " + rw.err[i+2:]
			}
			return rw, true
		}
		return rw, false
	}
	r, err := decoders.Decode(data, s.path, model.DecodeOptions{HeaderOnly: true})
	if r == nil {
		if err == nil {
			err = errors.New("nothing decoded")
		}
		rw.err = err.Error()
		return rw, true
	}
	rw.fill(r)
	return rw, true
}

// fill takes the row's columns from a header-only replay.
func (rw *row) fill(r *model.Replay) {
	rw.format = string(r.Format)
	rw.start = r.Start
	rw.duration = r.Duration
	rw.problems = r.Problems()
	rw.what = describe(r)
	if rw.size == 0 {
		rw.size = r.Size
	}
}

// describe is the browser's one-line "what": players or characters, then
// the map, stage, song or course.
func describe(r *model.Replay) string {
	var ps []string
	for i, p := range r.Players {
		if i == 4 {
			ps = append(ps, fmt.Sprintf("+%d", len(r.Players)-4))
			break
		}
		s := p.Character
		if s == "" {
			s = p.Name
		} else if p.Name != "" {
			s += " (" + p.Name + ")"
		}
		if s != "" {
			ps = append(ps, s)
		}
	}
	parts := []string{}
	if len(r.Players) == 1 && r.Title != "" {
		// one player (a song, a course): what was played comes first
		p := r.Players[0]
		who := p.Name
		if who == "" {
			who = p.Character
		}
		return clean(strings.TrimSuffix(r.Title+" · "+who, " · "))
	}
	if len(ps) > 0 {
		parts = append(parts, strings.Join(ps, " vs "))
	}
	if r.Title != "" {
		parts = append(parts, r.Title)
	}
	return clean(strings.Join(parts, " · "))
}

func (rw *row) index() {
	date := ""
	if !rw.start.IsZero() {
		date = rw.start.Format("2006-01-02 15:04")
	}
	name := path.Base(filepath.ToSlash(rw.src.path))
	cols := []string{rw.what, date, rw.format, name}
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		rw.offs[i] = b.Len()
		b.WriteString(c)
	}
	rw.key = b.String()
}

// durText is the length column: the game's length without hundredths.
func (rw *row) durText() string {
	if rw.duration <= 0 {
		return ""
	}
	dur := model.FormatDuration(rw.duration)
	return strings.TrimSuffix(dur, dur[strings.LastIndexByte(dur, '.'):])
}

// probText is the problems column.
func (rw *row) probText() string {
	switch {
	case rw.err != "":
		return "unreadable"
	case rw.problems > 0:
		return fmt.Sprintf("! %d", rw.problems)
	}
	return ""
}

func (b *browser) setSize(w, h int) {
	b.w, b.h = max(w, 0), max(h, 0)
	b.help.Width = b.w
}

func (b *browser) Update(msg tea.Msg) (tea.Cmd, *row) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		b.setSize(msg.Width, msg.Height)
	case rowsMsg:
		if msg.gen != b.gen {
			return nil, nil
		}
		var sel *row
		if b.cur < len(b.shown) {
			sel = &b.rows[b.shown[b.cur]]
		}
		selPath := ""
		if sel != nil {
			selPath = sel.src.path
		}
		b.rows = append(b.rows, msg.rows...)
		b.total = len(b.rows)
		for i := range msg.rows {
			rw := &msg.rows[i]
			b.fmtW = max(b.fmtW, ansi.StringWidth(rw.format))
			b.durW = max(b.durW, len(rw.durText()))
			b.probW = max(b.probW, len(rw.probText()))
		}
		sortRows(b.rows)
		b.refilter()
		if selPath != "" && b.moved {
			for i, k := range b.shown {
				if b.rows[k].src.path == selPath {
					b.cur = i
				}
			}
		}
		if msg.done {
			b.done = true
			return nil, nil
		}
		return nextRows(msg.gen, msg.ch), nil
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
				}
			}
		}
	case tea.KeyMsg:
		if b.editing {
			switch msg.String() {
			case "esc":
				b.editing = false
				b.filter.Blur()
				b.filter.SetValue("")
				b.refilter()
				return nil, nil
			case "enter":
				// the highlighted row is what the filter was looking for
				b.editing = false
				b.filter.Blur()
				if b.cur < len(b.shown) {
					return nil, &b.rows[b.shown[b.cur]]
				}
				return nil, nil
			case "down", "up":
				b.editing = false
				b.filter.Blur()
			default:
				cmd := b.filter.Update(msg)
				b.refilter()
				return cmd, nil
			}
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
		case key.Matches(msg, k.End):
			b.cur = max(len(b.shown)-1, 0)
		case key.Matches(msg, k.Filter):
			b.editing = true
			b.filter.Focus()
			return nil, nil
		case key.Matches(msg, k.Clear):
			b.filter.SetValue("")
			b.refilter()
		case key.Matches(msg, k.Help):
			b.help.ShowAll = !b.help.ShowAll
		case key.Matches(msg, k.Open):
			if b.cur < len(b.shown) {
				return nil, &b.rows[b.shown[b.cur]]
			}
		}
	}
	return nil, nil
}

func (b *browser) move(d int) {
	b.moved = true
	b.cur = max(0, min(b.cur+d, len(b.shown)-1))
}

// sortRows puts the newest game first; files without a date go last, by name.
func sortRows(rows []row) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, c := rows[i], rows[j]
		if a.start.IsZero() != c.start.IsZero() {
			return !a.start.IsZero()
		}
		if !a.start.Equal(c.start) {
			return a.start.After(c.start)
		}
		return a.src.path < c.src.path
	})
}

type rowKeys []row

func (r rowKeys) String(i int) string { return r[i].key }
func (r rowKeys) Len() int            { return len(r) }

// rowNames is the file-name column alone, so a query that names a file
// ranks it above rows whose other columns hold the letters scattered.
type rowNames []row

func (r rowNames) String(i int) string { return r[i].key[r[i].offs[3]:] }
func (r rowNames) Len() int            { return len(r) }

// filterHit is how well a row matches the filter: a lower tier wins, then
// a higher fuzzy score, then the date order the rows are in.
type filterHit struct {
	row, tier, score int
	matched          []int // byte offsets into the row's key
}

// refilter applies the fuzzy filter; with no filter every row shows in date order.
func (b *browser) refilter() {
	q := b.filter.Value()
	b.shown = b.shown[:0]
	b.matched = nil
	if q == "" {
		for i := range b.rows {
			b.shown = append(b.shown, i)
		}
	} else {
		b.matched = map[int][]int{}
		for _, h := range rankRows(b.rows, q) {
			b.shown = append(b.shown, h.row)
			b.matched[h.row] = h.matched
		}
	}
	if q != b.lastQuery {
		// a new filter starts at its best match
		b.cur, b.top = 0, 0
		b.lastQuery = q
	}
	b.cur = max(0, min(b.cur, len(b.shown)-1))
}

// rankRows orders the rows that match q: the query as typed inside the
// file name first, then as typed anywhere in the row, then the file name
// matching fuzzily, then the row; inside a tier by sahilm/fuzzy's score
// (adjacent letters, word starts), and by date when scores tie.
func rankRows(rows []row, q string) []filterHit {
	best := map[int]filterHit{}
	put := func(h filterHit) {
		if o, ok := best[h.row]; !ok || h.tier < o.tier || (h.tier == o.tier && h.score > o.score) {
			best[h.row] = h
		}
	}
	for _, m := range fuzzy.FindFrom(q, rowKeys(rows)) {
		put(filterHit{row: m.Index, tier: 3, score: m.Score, matched: m.MatchedIndexes})
	}
	for _, m := range fuzzy.FindFrom(q, rowNames(rows)) {
		off := rows[m.Index].offs[3]
		idx := make([]int, len(m.MatchedIndexes))
		for i, x := range m.MatchedIndexes {
			idx[i] = x + off
		}
		put(filterHit{row: m.Index, tier: 2, score: m.Score, matched: idx})
	}
	// the query as typed: only rows the fuzzy matcher kept can hold it
	lq := strings.ToLower(q)
	for i, h := range best {
		key := rows[i].key
		lk := strings.ToLower(key)
		if len(lk) != len(key) {
			continue // a case change moved the offsets: keep the fuzzy match
		}
		at, tier := strings.Index(lk[rows[i].offs[3]:], lq), 0
		if at >= 0 {
			at += rows[i].offs[3]
		} else if at, tier = strings.Index(lk, lq), 1; at < 0 {
			continue
		}
		idx := make([]int, len(lq))
		for k := range idx {
			idx[k] = at + k
		}
		// the fuzzy score still orders rows inside the tier
		best[i] = filterHit{row: i, tier: tier, score: h.score, matched: idx}
	}
	out := make([]filterHit, 0, len(best))
	for _, h := range best {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool {
		a, c := out[i], out[j]
		if a.tier != c.tier {
			return a.tier < c.tier
		}
		if a.score != c.score {
			return a.score > c.score
		}
		return a.row < c.row
	})
	return out
}

func (b *browser) rowsShown() int { return max(b.h-3, 1) }

// View: a title line, the column heads, the rows, and the help line.
func (b *browser) View() string {
	if b.w <= 0 || b.h <= 0 {
		return ""
	}
	p := b.pt
	status := fmt.Sprintf("%s replays", thousands(int64(len(b.rows))))
	if !b.done {
		status = fmt.Sprintf("reading… %s replays", thousands(int64(len(b.rows))))
	}
	if len(b.shown) != len(b.rows) {
		status = fmt.Sprintf("%s of %s", thousands(int64(len(b.shown))), status)
	}
	lines := []string{p.bold.wrap(" rewind ") + p.dim.wrap(clean(b.title)+" · "+status)}
	// column widths: what gets what is left
	const sizeW = 8
	durW, probW := b.durW, b.probW
	// the format column fits the longest format listed ("teehistorian"),
	// the date drops its time of day on a narrow screen
	fmtW, dateW, dateFmt := b.fmtW, 16, "2006-01-02 15:04"
	if b.w < 100 {
		dateW, dateFmt = 10, "2006-01-02"
	}
	// mark, the columns and the spaces between them
	whatW := b.w - (2 + fmtW + 1 + dateW + 1 + 1 + durW + 1 + sizeW + 1 + probW)
	nameW := 0
	switch {
	case whatW > 60:
		nameW = min(whatW/3, 40)
		whatW -= nameW + 1
	case whatW >= 20 && b.filter.Value() != "":
		// a filter matches file names too: show them, so a row's match can
		// be seen even on a narrow screen
		nameW = whatW / 2
		whatW -= nameW + 1
	}
	head := fmt.Sprintf("  %-*s %-*s %-*s %*s %*s %-*s", fmtW, "format", dateW, "date", max(whatW, 0), "players · map/song", durW, "length", sizeW, "size", probW, "problems")
	if nameW > 0 {
		head += " file"
	}
	lines = append(lines, p.label.wrap(fit(head, b.w)))
	rows := b.rowsShown()
	if b.cur < b.top {
		b.top = b.cur
	}
	if b.cur >= b.top+rows {
		b.top = b.cur - rows + 1
	}
	b.top = max(0, min(b.top, max(len(b.shown)-rows, 0)))
	for i := b.top; i < len(b.shown) && len(lines) < rows+2; i++ {
		k := b.shown[i]
		rw := &b.rows[k]
		m := b.matched[k]
		sel := i == b.cur
		date := ""
		if !rw.start.IsZero() {
			date = rw.start.Format(dateFmt)
		}
		dur, probs := rw.durText(), rw.probText()
		mark := "  "
		if sel {
			mark = "> "
		}
		var sb strings.Builder
		sb.WriteString(mark)
		sb.WriteString(b.hl(rw.format, fmtW, rw.offs[2], m, sel))
		sb.WriteByte(' ')
		sb.WriteString(b.hl(date, dateW, rw.offs[1], m, sel))
		sb.WriteByte(' ')
		what := rw.what
		if rw.err != "" && what == "" {
			what = rw.err
		}
		sb.WriteString(b.hl(what, max(whatW, 0), rw.offs[0], m, sel))
		sb.WriteString(fmt.Sprintf(" %*s %*s ", durW, dur, sizeW, humanSize(rw.size)))
		pr := fit(probs, probW)
		if probs != "" && !sel {
			pr = p.err.wrap(pr)
		}
		sb.WriteString(pr)
		if nameW > 0 {
			sb.WriteByte(' ')
			sb.WriteString(b.hlTail(path.Base(filepath.ToSlash(rw.src.path)), nameW, rw.offs[3], m, sel))
		}
		line := fit(sb.String(), b.w)
		if sel {
			line = p.cursor.wrap(line)
		}
		lines = append(lines, line)
	}
	if len(b.shown) == 0 && b.done {
		msg := "no replays here"
		if b.filter.Value() != "" {
			msg = "nothing matches the filter"
		}
		lines = append(lines, p.dim.wrap("  "+msg))
	}
	var foot string
	if b.editing || b.filter.Value() != "" {
		foot = b.filter.View(b.w)
	} else {
		foot = b.help.View(b.keys)
	}
	footLines := strings.Split(foot, "\n")
	out := block(lines, b.w, max(b.h-len(footLines), 0))
	out = append(out, block(footLines, b.w, min(len(footLines), b.h))...)
	return strings.Join(out, "\n")
}

// hl fits a column's text to w cells and highlights the characters the
// filter matched; off is where the column starts in the row's key.
func (b *browser) hl(s string, w, off int, matched []int, sel bool) string {
	s = clean(s)
	if len(matched) == 0 || sel {
		return fit(s, w)
	}
	t := ansi.Truncate(s, w, "…")
	var sb strings.Builder
	mi := 0
	for i, r := range t {
		for mi < len(matched) && matched[mi] < off+i {
			mi++
		}
		if mi < len(matched) && matched[mi] == off+i && i < len(s) {
			b.pt.match.write(&sb, string(r))
		} else {
			sb.WriteRune(r)
		}
	}
	return fit(sb.String(), w)
}

// hlTail is hl for file names: a name too long keeps its end (the part
// that tells files apart, "…__corrupt.slp") rather than its start.
func (b *browser) hlTail(s string, w, off int, matched []int, sel bool) string {
	s = clean(s)
	if w <= 1 || ansi.StringWidth(s) <= w {
		return b.hl(s, w, off, matched, sel)
	}
	// drop runes from the start until the rest and the ellipsis fit
	k := 0
	for k < len(s) && ansi.StringWidth(s[k:]) > w-1 {
		_, size := utf8.DecodeRuneInString(s[k:])
		k += size
	}
	rest := s[k:]
	if len(matched) == 0 || sel {
		return fit("…"+rest, w)
	}
	var sb strings.Builder
	sb.WriteString("…")
	mi := 0
	for i, r := range rest {
		at := off + k + i
		for mi < len(matched) && matched[mi] < at {
			mi++
		}
		if mi < len(matched) && matched[mi] == at {
			b.pt.match.write(&sb, string(r))
		} else {
			sb.WriteRune(r)
		}
	}
	return fit(sb.String(), w)
}

// formatOfName is the format a file's extension suggests, or "".
func formatOfName(name string) string {
	ext := strings.ToLower(path.Ext(filepath.ToSlash(name)))
	for _, f := range decoders.Formats {
		for _, e := range f.Exts {
			if e == ext {
				return string(f.ID)
			}
		}
	}
	return ""
}
