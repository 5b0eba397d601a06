// Package tui is rewind's terminal interface: a browser of replay files and
// a replay view to scrub, play, search and inspect one. It reads only
// rewind/model (and asks rewind/decoders to open files); it never parses bytes.
package tui

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"rewind/config"
	"rewind/decoders"
	"rewind/model"
	"rewind/theme"
)

// Config is what the command line gives the TUI.
type Config struct {
	Paths   []string // files or directories given on the command line; empty = the samples
	Samples fs.FS    // the built-in sample library (subdirectories per format)
	// Title is what the browser's title calls Paths when they were not
	// given but found (the library the config names, the games' own
	// folders); empty: the paths themselves.
	Title string
	// Notes are lines the browser shows under its rows until a key is
	// pressed: why it shows the samples, what is wrong with the config.
	Notes []string
	// Settings are the config file's: the games' players for w and the
	// [[action]]s the keys run.
	Settings config.Config
	// Theme is "light", "dark" or "auto"; empty reads REWIND_THEME, and
	// auto (the default) asks the terminal for its background, tmux too.
	Theme string
	// Input and Output replace the terminal (tests run the program
	// headless with them; the screen is then 80x24); nil is the terminal.
	Input  io.Reader
	Output io.Writer
	// NoCache reads every header and neither uses nor fills the index in
	// the user's cache directory.
	NoCache bool
	// Follow opens the one file of Paths while its recorder writes it:
	// the view grows with the file (decoders.Tail) until the recording
	// ends, or until Idle passes without a new byte when Idle is set.
	// Poll is how often the file is looked at (0: Tail's default).
	Follow bool
	Idle   time.Duration
	Poll   time.Duration
}

// Run runs the program on the alternate screen with mouse cell motion.
func Run(cfg Config) error {
	th, err := theme.Load(cfg.Theme)
	if err != nil {
		return err
	}
	if th.NoColor {
		// lipgloss would drop reverse and bold too under NO_COLOR; the theme
		// already has no colours, so keep the attributes that show the cursor
		lipgloss.SetColorProfile(termenv.ANSI)
	}
	// The palette is decided (theme.Load asked the terminal before the
	// program reads keys, where the answer would arrive as key presses):
	// tell lipgloss, so nothing asks again from inside the program.
	lipgloss.SetHasDarkBackground(th.Palette == theme.Dark)
	a := newApp(cfg, th)
	opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithMouseCellMotion()}
	if cfg.Input != nil {
		opts = append(opts, tea.WithInput(cfg.Input))
	}
	if cfg.Output != nil {
		opts = append(opts, tea.WithOutput(cfg.Output))
	}
	p := tea.NewProgram(a, opts...)
	if cfg.Output != nil {
		// a writer that is no terminal reports no size: draw at 80x24
		// until (if it is one after all) the terminal says otherwise
		go p.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	}
	_, err = p.Run()
	if a.live != nil {
		a.live.cancel() // stop following
	}
	if a.br != nil {
		a.br.close() // stop the scan and the background checks
	}
	if err != nil {
		return err
	}
	return a.err
}

type mode int

const (
	modeBrowser mode = iota
	modeLoading
	modeReplay
	modeError
	modeAggregate // the aggregate view of the browser's rows
	modeMoments   // the archive moments view of the browser's rows
)

// app is the root model: a browser, a replay view, or the loading screen
// between them.
type app struct {
	th     *theme.Theme
	mode   mode
	w, h   int
	init   tea.Cmd
	br     *browser
	rv     *replayView
	err    error // returned by Run: the single file given could not be opened
	errMsg string

	load *loadState
	prog *progress.Model // the loading screen's bar, made on first use
	live *liveFeed       // following a file as it is written (live.go)

	hand *handoff // w and the config's actions, for every view (watch.go)

	agg *aggView     // the browser's rows added up (a)
	mv  *momentsView // the browser's rows' moments (m)
	// openAt is the frame number the replay being opened shows first (a
	// moment opened from the moments view); back returns to backTo
	openAt *int64
	backTo mode
}

// loadState is a decode in progress; the decoder's progress callback
// writes the atomics and a ticker shows them.
type loadState struct {
	name        string
	done, total atomic.Int64
	started     time.Time
	id          int
}

type loadedMsg struct {
	id  int
	r   *model.Replay
	p   *prepared
	err error
}

// headerMsg is the header-only decode of the file being opened: the view
// shows it (header, players, the timeline's length) while the rest of the
// file decodes. file is the bytes, read once for both decodes.
type headerMsg struct {
	id   int
	r    *model.Replay
	p    *prepared
	file *decoders.File
}

// analysedMsg is the game analysis of the replay the view shows, which
// comes after its events.
type analysedMsg struct {
	r  *model.Replay
	an *analysis
}

type loadTickMsg struct{ id int }

var loadSeq atomic.Int64

func newApp(cfg Config, th *theme.Theme) *app {
	a := &app{th: th, hand: newHandoff(cfg.Settings)}
	var srcs []source
	if len(cfg.Paths) == 0 {
		if cfg.Samples != nil {
			srcs = append(srcs, source{path: ".", fsys: cfg.Samples})
		}
		a.br = newBrowser(th, "built-in samples")
		a.br.notes, a.br.hand = cfg.Notes, a.hand
		a.init = a.br.start(srcs, cfg.NoCache)
		return a
	}
	if cfg.Follow && len(cfg.Paths) == 1 {
		a.live = startLive(cfg.Paths[0], cfg.Idle, cfg.Poll)
		a.load = &loadState{name: cfg.Paths[0], started: time.Now()}
		a.mode = modeLoading
		a.init = a.live.next()
		return a
	}
	if len(cfg.Paths) == 1 {
		// one file, or a path that does not exist (its error ends the program)
		if st, err := os.Stat(cfg.Paths[0]); err != nil || !st.IsDir() {
			a.init = a.open(source{path: cfg.Paths[0]})
			return a
		}
	}
	for _, p := range cfg.Paths {
		srcs = append(srcs, source{path: p})
	}
	title := cfg.Title
	if title == "" {
		title = strings.Join(cfg.Paths, " ")
	}
	a.br = newBrowser(th, title)
	a.br.notes, a.br.hand = cfg.Notes, a.hand
	a.init = a.br.start(srcs, cfg.NoCache)
	return a
}

// newReplayApp shows a replay that is already decoded (tests, benchmarks).
func newReplayApp(r *model.Replay, th *theme.Theme) *app {
	a := &app{th: th, mode: modeReplay}
	a.rv = newReplayView(r, prepare(r), th)
	return a
}

func (a *app) Init() tea.Cmd { return a.init }

// open shows a file header first: a command reads it and decodes its
// header alone, which the view shows at once (header, players, the length
// of the timeline); the full decode follows in another command and is
// swapped in when done, and the game analysis after it. Nothing waits on
// the full decode: the person can look, scrub and leave meanwhile. A file
// whose header cannot be read alone is decoded in full behind the loading
// screen, as before.
func (a *app) open(s source) tea.Cmd {
	ls := &loadState{name: s.path, started: time.Now(), id: int(loadSeq.Add(1))}
	a.load = ls
	a.mode = modeLoading
	readHeader := func() (msg tea.Msg) {
		defer func() {
			if p := recover(); p != nil {
				msg = loadedMsg{id: ls.id, err: fmt.Errorf("%s: decoder failed: %v", s.path, p)}
			}
		}()
		f, err := s.file()
		if err != nil {
			return loadedMsg{id: ls.id, err: named(s.path, err)}
		}
		ls.total.Store(int64(len(f.Data)))
		r, err := f.Decode(model.DecodeOptions{HeaderOnly: true})
		if r == nil || err != nil {
			return fullDecode(ls, s, f)()
		}
		r.Path = s.path
		return headerMsg{id: ls.id, r: r, p: prepareEvents(r), file: f}
	}
	return tea.Batch(readHeader, loadTick(ls.id))
}

// fullDecode decodes the file read for the view, with progress.
func fullDecode(ls *loadState, s source, f *decoders.File) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if p := recover(); p != nil {
				msg = loadedMsg{id: ls.id, err: fmt.Errorf("%s: decoder failed: %v", s.path, p)}
			}
		}()
		opt := model.DecodeOptions{Progress: func(done, total int64) {
			ls.done.Store(done)
			ls.total.Store(total)
		}}
		r, err := f.Decode(opt)
		if r == nil {
			if err == nil {
				err = errors.New("nothing decoded")
			}
			return loadedMsg{id: ls.id, err: named(s.path, err)}
		}
		r.Path = s.path
		return loadedMsg{id: ls.id, r: r, p: prepareEvents(r)}
	}
}

// named makes sure an error's sentence names the file: `rewind FILE`
// prints it alone.
func named(path string, err error) error {
	if strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// analyseCmd runs the game analysis of the replay the view shows.
func analyseCmd(r *model.Replay) tea.Cmd {
	return func() tea.Msg { return analysedMsg{r: r, an: analyze(r)} }
}

func loadTick(id int) tea.Cmd {
	return tea.Tick(50*time.Millisecond, func(time.Time) tea.Msg { return loadTickMsg{id: id} })
}

func (a *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// A terminal may hand over several typed keys in one read ("/ics");
	// take them one at a time so each can be a command.
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste {
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt})
			cmds = append(cmds, cmd)
		}
		return a, tea.Batch(cmds...)
	}
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		a.w, a.h = ws.Width, ws.Height
		if a.agg != nil {
			a.agg.setSize(a.w, a.h)
		}
		if a.mv != nil {
			a.mv.setSize(a.w, a.h)
		}
		var cmds []tea.Cmd
		if a.br != nil {
			cmd, _ := a.br.Update(ws)
			cmds = append(cmds, cmd)
		}
		if a.rv != nil {
			cmds = append(cmds, a.rv.Update(ws))
		}
		return a, tea.Batch(cmds...)
	}
	switch msg := msg.(type) {
	case rowsChangedMsg:
		// the rows under the stats view changed (a game recorded and
		// finished while it was open): it reads them again
		if a.mode == modeAggregate && a.agg != nil && a.br != nil && a.br.archiving == "" {
			read := a.br.archive(archiveStats)
			return a, func() tea.Msg {
				m, _ := read().(archiveMsg)
				m.refresh = true
				return m
			}
		}
		return a, nil
	case handoffMsg:
		// what w or an action key started, or why not: in the status of
		// the view on screen
		switch {
		case a.mode == modeReplay && a.rv != nil:
			a.rv.status = msg.Text()
		case a.mode == modeMoments && a.mv != nil:
			a.mv.status = msg.Text()
		case a.br != nil:
			a.br.notes = []string{msg.Text()}
		}
		return a, nil
	case liveMsg:
		if a.live == nil || msg.feed != a.live {
			return a, nil // a file left for the browser: its last word
		}
		return a, a.onLive(msg)
	case headerMsg:
		if a.load == nil || msg.id != a.load.id {
			return a, nil
		}
		a.rv = newReplayView(msg.r, msg.p, a.th)
		a.rv.hand = a.hand
		a.rv.canBack = a.br != nil
		a.rv.loading = "decoding"
		a.rv.setSize(a.w, a.h)
		a.mode = modeReplay
		a.seekOpenAt()
		return a, fullDecode(a.load, source{path: a.load.name}, msg.file)
	case archiveMsg:
		a.br.archIDs, a.br.archiving = msg.ids, ""
		if msg.refresh {
			if a.agg == nil || a.mode != modeAggregate {
				return a, nil // the view was left meanwhile
			}
			return a, a.agg.setGames(msg.games, msg.skipped)
		}
		if msg.kind == archiveStats {
			var cmd tea.Cmd
			a.agg, cmd = newAggView(a.th, msg.games, msg.skipped, msg.what, a.hand.me())
			a.agg.setSize(a.w, a.h)
			a.mode = modeAggregate
			return a, cmd
		}
		var cmd tea.Cmd
		a.mv, cmd = newMomentsView(a.th, a.br.store, msg.ids, msg.what)
		a.mv.hand = a.hand
		a.mv.setSize(a.w, a.h)
		a.mode = modeMoments
		return a, cmd
	case momentsReadMsg:
		// to the moments view whatever is on screen: a replay opened from
		// it while a read went on returns to the list that read made
		if a.mv != nil {
			a.mv.Update(msg)
		}
		return a, nil
	case aggBackMsg:
		a.mode, a.agg, a.mv = modeBrowser, nil, nil
		return a, nil
	case aggOpenMsg:
		a.mode, a.agg = modeBrowser, nil
		return a, a.br.showOnly(msg.members, msg.title)
	case momentOpenMsg:
		f := msg.frame
		a.openAt, a.backTo = &f, modeMoments
		return a, a.open(source{path: msg.path, fsys: a.br.fsys})
	case analysedMsg:
		if a.rv != nil && a.rv.r == msg.r {
			a.rv.analysed(msg.an)
		}
		return a, nil
	case loadedMsg:
		if a.load == nil || msg.id != a.load.id {
			return a, nil
		}
		if a.br != nil {
			a.br.opened(a.load.name, msg.r, msg.err) // a full decode: the row's problems are known now
		}
		a.load = nil
		if msg.err != nil && a.mode == modeReplay && a.rv != nil {
			// the header showed, the rest would not decode: say so and keep
			// the header on screen
			a.rv.loading = ""
			a.rv.status = "the full decode failed: " + theme.Safe(msg.err.Error())
			return a, nil
		}
		if msg.err != nil {
			if a.br == nil {
				// `rewind FILE` on a file that cannot be read: leave the
				// screen and let the caller print the sentence
				a.err = msg.err
				return a, tea.Quit
			}
			a.mode = modeError
			a.errMsg = msg.err.Error()
			return a, nil
		}
		if a.mode == modeReplay && a.rv != nil {
			a.rv.decoded(msg.r, msg.p) // the header was on screen: swap the whole replay in
		} else {
			a.rv = newReplayView(msg.r, msg.p, a.th)
			a.rv.hand = a.hand
			a.rv.hand = a.hand
			a.rv.canBack = a.br != nil
			a.rv.loading = "analysing"
			a.rv.setSize(a.w, a.h)
			a.mode = modeReplay
			a.seekOpenAt()
		}
		return a, analyseCmd(msg.r)
	case loadTickMsg:
		if a.load != nil && msg.id == a.load.id {
			return a, loadTick(msg.id)
		}
		return a, nil
	case backMsg:
		if a.br != nil {
			a.mode = modeBrowser
			if a.backTo == modeMoments && a.mv != nil {
				a.mode = modeMoments
			}
			a.rv, a.backTo = nil, modeBrowser
			a.load = nil // a decode still running for the view left is dropped
			if a.live != nil {
				a.live.cancel() // and a file followed is left
				a.live = nil
			}
		}
		return a, nil
	}
	switch a.mode {
	case modeBrowser:
		cmd, open := a.br.Update(msg)
		if open != nil {
			if open.err != "" {
				a.mode = modeError
				a.errMsg = open.src.path + ": " + open.err
				return a, nil
			}
			if open.live && open.src.fsys == nil {
				// a replay being written opens following it, as --follow
				a.live = startLive(open.src.path, 0, 0)
				a.load = &loadState{name: open.src.path, started: time.Now()}
				a.mode = modeLoading
				return a, tea.Batch(cmd, a.live.next())
			}
			return a, a.open(open.src)
		}
		return a, cmd
	case modeReplay:
		return a, a.rv.Update(msg)
	case modeAggregate:
		return a, a.agg.Update(msg)
	case modeMoments:
		return a, a.mv.Update(msg)
	case modeLoading, modeError:
		if k, ok := msg.(tea.KeyMsg); ok {
			switch k.String() {
			case "ctrl+c", "q":
				return a, tea.Quit
			case "esc":
				if a.br != nil {
					a.mode = modeBrowser
					a.load = nil
				}
			}
		}
	}
	return a, nil
}

func (a *app) View() string {
	switch a.mode {
	case modeBrowser:
		return a.br.View()
	case modeReplay:
		return a.rv.View()
	case modeLoading:
		return a.loadingView()
	case modeAggregate:
		return a.agg.View()
	case modeMoments:
		return a.mv.View()
	default:
		return a.errorView()
	}
}

// onLive shows an update of the followed file: the first one that has a
// replay opens the view, later ones grow it.
func (a *app) onLive(m liveMsg) tea.Cmd {
	r := m.u.Replay
	switch {
	case m.err != nil && a.rv == nil:
		a.err = m.err // `rewind --follow FILE` on a file that cannot be followed
		return tea.Quit
	case m.err != nil:
		a.rv.live.ended, a.rv.live.failed = m.err.Error(), true
		return nil
	case r == nil:
		if a.load != nil {
			a.load.done.Store(m.u.Size)
		}
		return a.live.next()
	}
	if a.rv == nil {
		a.rv = newReplayView(r, m.p, a.th)
		a.rv.hand = a.hand
		a.rv.canBack = a.br != nil // a live row opened from the browser
		a.rv.live.on = true
		a.rv.setSize(a.w, a.h)
		a.rv.seek(a.rv.count() - 1) // the live edge
		a.mode, a.load = modeReplay, nil
	} else {
		a.rv.liveUpdate(r, m.p)
	}
	if m.done {
		a.rv.live.ended = m.u.Ended
		if m.u.Note != "" {
			a.rv.status = m.u.Note
		}
		return nil
	}
	return a.live.next()
}

func (a *app) loadingView() string {
	if a.w <= 0 || a.h <= 0 || a.load == nil {
		return ""
	}
	ls := a.load
	if a.live != nil {
		lines := []string{"", "  following " + theme.Safe(filepath.Base(ls.name)) + ": waiting for its header (" +
			humanSize(ls.done.Load()) + " so far)", "", a.th.Dim.Render("  q quit")}
		return strings.Join(block(lines, a.w, a.h), "\n")
	}
	done, total := ls.done.Load(), ls.total.Load()
	frac := 0.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	lines := []string{
		"",
		"  decoding " + theme.Safe(filepath.Base(ls.name)) + "  " + humanSize(total),
		"",
		"  " + a.progressBar(frac, max(min(a.w-4, 66), 1)),
		"",
		a.th.Dim.Render("  esc back · q quit"),
	}
	return strings.Join(block(lines, a.w, a.h), "\n")
}

func (a *app) errorView() string {
	if a.w <= 0 || a.h <= 0 {
		return ""
	}
	lines := []string{"", "  " + a.th.Error.Render("cannot open"), ""}
	for _, l := range wrap(theme.Safe(a.errMsg), max(a.w-4, 10)) {
		lines = append(lines, "  "+l)
	}
	hint := "  q quit"
	if a.br != nil {
		hint = "  esc back · q quit"
	}
	lines = append(lines, "", a.th.Dim.Render(hint))
	return strings.Join(block(lines, a.w, a.h), "\n")
}

// wrap breaks text into lines of at most w cells at spaces.
func wrap(s string, w int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > w {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// progressBar draws bubbles/progress filled to frac in w cells (the
// percentage included), in the theme's colours; drawn with ViewAs, as the
// decoder's own progress moves it, rather than animated.
func (a *app) progressBar(frac float64, w int) string {
	if a.prog == nil {
		full, empty := a.th.ProgressColors()
		p := progress.New(progress.WithSolidFill(full), progress.WithColorProfile(lipgloss.ColorProfile()))
		p.EmptyColor = empty
		a.prog = &p
	}
	a.prog.Width = w
	return a.prog.ViewAs(max(0, min(frac, 1)))
}

// seekOpenAt puts a replay just opened on the frame asked for (a moment
// opened from the moments view).
func (a *app) seekOpenAt() {
	if a.openAt == nil || a.rv == nil {
		return
	}
	tl := &a.rv.r.Timeline
	a.rv.seek(tl.Index(*a.openAt))
	a.openAt = nil
}
