package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"rewind/config"
	"rewind/decoders"
	"rewind/library"
	"rewind/library/aggregate"
	"rewind/library/watch"
	"rewind/model"
	"rewind/theme"
)

const followAbout = `Watch replay folders and files while games are recorded, and act on each
moment of them that matches a query as it happens: run a command (--exec) or
write the moment as JSON (--json).

  rewind follow ~/Slippi --on kind:stock --exec 'notify-send "stock lost"'
  rewind follow ~/Slippi --on 'kind:combo damage:>=50' --json

A folder is watched with its subfolders, and new files in it are picked up as
they appear. A game written live (Slippi's .slp, a DDNet teehistorian) is
decoded as it grows by the same follower as dump --follow, and a moment fires
once, when it is complete: when the game has gone 2 s past the moment's end
(a combo still going on ends at the game's last frame so far) or has ended,
in the order the moments end. A game that ends is finished and left, and so
is one that gets no new byte for --idle (a recorder that crashed). The
moments of a replay written whole (StarCraft II, osu!, BSOR, F-Zero GX) fire
when its file stops growing. A replay that appears last written more than 10
minutes before (moved in from elsewhere, a folder of old replays) is left
alone.

--on takes the query language of rewind find and rewind moments: its moment
terms choose the moments (kind:stock, kind:combo damage:>=50, kill, by:fox,
on:P2, move:upsmash, ...; rewind help moments lists them), its replay terms
(char:, player:, stage:, format:, ...) the games, as far as they are
recorded. Without --on every moment fires.

--exec CMD is split into words as a shell splits them (quotes group; nothing
else is special: no variables, globs or pipes) and run without a shell, once
per moment, one at a time in the order the moments fire, with the moment's
facts in its environment:
  REWIND_PATH, REWIND_FORMAT, REWIND_KIND
  REWIND_FRAME, REWIND_END_FRAME   frame numbers as the format counts them
  REWIND_TIME                      the game time in seconds
  REWIND_BY, REWIND_ON             who did it, to whom: P1..Pn, empty for none
  REWIND_DAMAGE                    damage dealt, empty for none
  REWIND_KILL                      true or false

Its standard input is the moment as one line of JSON, the object rewind
moments --json writes, and its output is rewind's (its standard error with
--json). A command that fails is reported on standard error, and following
goes on.

Where the system's file notifications do not come, folders are polled every
500 ms: on a network share (NFS, SMB, WSL's Windows drives, FUSE), a folder
the system will not watch, or one that changed with no notification. --poll
polls everywhere.
`

const followNotes = `Output: with --json one object per moment as it fires (NDJSON), with the
keys of rewind moments --json. On standard error: each live game followed
and how it ended, files that are no replay, folders polled, commands that
failed, and at the end how many moments fired.

It runs until interrupted (Ctrl-C, SIGTERM); when only files are named,
until each of them has finished, or nothing happened to them for --idle.

Exit status: 0 (also when interrupted), 2 a path cannot be watched, a file
named is no replay, or the command line is wrong.
`

type followOptions struct {
	on, exec   string
	json, poll bool
	idle       time.Duration
}

func followCommand() *cobra.Command {
	o := &followOptions{}
	cmd := &cobra.Command{
		Use:                   "follow [--on QUERY] [--exec CMD] [--json] [--idle D] [--poll] [PATH...]",
		Short:                 "watch replay folders; run a command (or write JSON) for each moment that matches, as it is recorded",
		Long:                  followAbout,
		Annotations:           map[string]string{notesKey: followNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.StringVar(&o.on, "on", "", "act on the moments that match `QUERY`, e.g. 'kind:combo damage:>=50' (default: every moment)")
	f.StringVar(&o.exec, "exec", "", "run `CMD` for each moment (split into words, no shell), its facts in REWIND_* and its JSON on stdin")
	f.BoolVar(&o.json, "json", false, "write each moment as it fires, one JSON object per line (NDJSON)")
	f.DurationVar(&o.idle, "idle", 30*time.Second, "finish a live game after this long without a new byte, e.g. 30s; 0 waits for the recording's end")
	f.BoolVar(&o.poll, "poll", false, "poll every folder instead of using the system's file notifications")
	cmd.RegisterFlagCompletionFunc("on", noFiles)
	cmd.RegisterFlagCompletionFunc("idle", noFiles)
	return cmd
}

// momentSettle is how far a live game must have gone past a moment's end
// before the moment is complete. A moment still going on ends at the last
// frame of the snapshot (a Slippi combo or conversion, which slippi-js
// closes 45 frames, 0.75 s, after the victim is back in control), so it
// waits until it is over; the margin is for what the last frames of a
// snapshot may still change.
const momentSettle = 2.0 // seconds of game time

func (o *followOptions) run(c *call, paths []string) int {
	if len(paths) == 0 {
		// the library: the config's folders, else the games' own
		if paths, _ = c.libraryPaths(nil); len(paths) == 0 {
			return c.errorf("no replay folder to follow: name one, like rewind follow ~/Slippi --on kind:stock --exec CMD, or set library in the config file (rewind help config)")
		}
	}
	if o.exec == "" && !o.json {
		return c.errorf("needs --exec CMD to run a command for each moment, or --json to write them")
	}
	if o.idle < 0 {
		return c.errorf("--idle takes a duration, 0 or more, not %s", o.idle)
	}
	var argv []string
	if o.exec != "" {
		var err error
		if argv, err = config.SplitWords(o.exec); err != nil {
			return c.errorf("--exec: %v", err)
		}
		if len(argv) == 0 {
			return c.errorf("--exec is empty; want a command, like --exec 'notify-send stock'")
		}
		if _, err := exec.LookPath(argv[0]); err != nil {
			return c.errorf("--exec: %s cannot be run: %v", theme.Safe(argv[0]), errors.Unwrap(err))
		}
	}
	var q *library.Query
	if o.on != "" {
		var code int
		if q, code = parseWhere(c, o.on); q == nil {
			return code
		}
	}

	// notes come from two goroutines (the runner's says what failed): an
	// *os.File takes concurrent writes, another writer gets a lock; the
	// commands write to the streams themselves
	stdout, stderr := c.stdout, c.stderr
	if _, ok := c.stderr.(*os.File); !ok {
		locked := *c
		locked.stderr = &lockedWriter{w: c.stderr}
		c = &locked
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	idle := o.idle
	if idle == 0 {
		idle = -1 // the watcher's "never"
	}
	w := watch.New(watch.Options{Poll: o.poll, Idle: idle, Coalesce: 500 * time.Millisecond})
	defer w.Close()
	f := &following{c: c, q: q, json: o.json, games: map[string]*liveGame{}, ended: map[string]*liveGame{},
		named: map[string]bool{}, out: c.jsonOutput()}
	onlyFiles := true
	for _, p := range paths {
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			onlyFiles = false
		case errors.Is(err, fs.ErrNotExist):
			limit := "until it is (Ctrl-C stops)"
			if o.idle > 0 {
				limit = fmt.Sprintf("for up to %s (--idle)", o.idle)
			}
			c.notef("%s does not exist yet; waiting %s", c.epath(p), limit)
			fallthrough
		default:
			f.named[filepath.Clean(p)] = true
		}
		if err := w.Add(p); err != nil {
			return c.errorf("%s", withPath(c.epath(p), err))
		}
	}
	watched := make([]string, len(paths))
	for i, p := range paths {
		watched[i] = c.epath(p)
	}
	c.notef("watching %s (Ctrl-C stops)", strings.Join(watched, ", "))
	if argv != nil {
		cmdOut := stdout
		if o.json {
			cmdOut = stderr // stdout is the NDJSON
		}
		f.runner = startRunner(c, argv, cmdOut, stderr)
	}

	why := f.loop(ctx, stop, w, onlyFiles, o.idle)
	w.Close()
	f.out.Flush()
	skipped, failed := 0, 0
	if f.runner != nil {
		skipped, failed = f.runner.finish(why == "interrupted")
	}
	end := fmt.Sprintf("%d moment%s fired", f.fired, plural(f.fired))
	if failed > 0 {
		end += fmt.Sprintf(", %d command%s failed", failed, plural(failed))
	}
	if skipped > 0 {
		end += fmt.Sprintf(", %d command%s not run (interrupted)", skipped, plural(skipped))
	}
	switch why {
	case "done":
		c.notef("%s", end)
	default:
		c.notef("%s; %s", why, end)
	}
	if f.bad {
		return 2
	}
	return 0
}

// following is what a run of follow keeps: the games being recorded and
// the moments of each that have fired.
type following struct {
	c      *call
	q      *library.Query
	json   bool
	out    *output
	runner *runner
	games  map[string]*liveGame
	ended  map[string]*liveGame // the last games finished: one that goes on later (a long pause) fires only what it had not
	named  map[string]bool      // files named on the command line not finished yet
	fired  int
	bad    bool // a file named is no replay, or could not be followed
}

// liveGame is one game being followed: the moments that are done with
// (fired, or complete and not matching), by what identifies a moment as
// the game grows.
type liveGame struct {
	done map[momentID]bool
	n    int // moments fired
}

// momentID is what stays the same of a moment from one snapshot to the
// next while it is still going on (its end and facts grow).
type momentID struct {
	kind   model.MomentKind
	frame  int64
	by, on int
}

// game is the game at path: being followed, or finished lately and going
// on again, or new.
func (f *following) game(path string) *liveGame {
	g := f.games[path]
	if g == nil {
		if g = f.ended[path]; g != nil {
			delete(f.ended, path)
		} else {
			g = &liveGame{done: map[momentID]bool{}}
		}
		f.games[path] = g
	}
	return g
}

// tracked reports whether the file at path is a game follow acts on:
// one that appeared being recorded (or named), or one that finished and
// goes on.
func (f *following) tracked(path string) bool {
	return f.games[path] != nil || f.ended[path] != nil || f.isNamed(path)
}

// appeared reports whether the file named path on the command line is a
// game being followed.
func (f *following) appeared(path string) bool {
	for g := range f.games {
		if watch.SameName(g, path) {
			return true
		}
	}
	return false
}

// isNamed reports whether path is a file named on the command line (as
// the system compares names) and not done with yet.
func (f *following) isNamed(path string) bool { return f.namedAs(path) != "" }

// namedAs is the name on the command line of the file at path; "" for
// none.
func (f *following) namedAs(path string) string {
	if f.named[path] {
		return path
	}
	for p := range f.named {
		if watch.SameName(p, path) {
			return p
		}
	}
	return ""
}

// oldReplay is how long ago a file that appears may have been written and
// still be a game being recorded (or just saved): a replay moved in from
// elsewhere keeps its time, and a folder of old replays moved into a
// watched one is no cue to act on every moment of them. It is generous,
// for a file server whose clock is behind.
const oldReplay = 10 * time.Minute

// maxEnded is how many finished games are kept in case they go on.
const maxEnded = 16

// end is done with the game at path, keeping what fired of it a while.
func (f *following) end(path string) {
	g := f.games[path]
	if g == nil {
		return
	}
	delete(f.games, path)
	if len(f.ended) >= maxEnded {
		for p := range f.ended { // any one: they are all finished
			delete(f.ended, p)
			break
		}
	}
	f.ended[path] = g
}

// loop hands the watcher's events to handle until ctx ends (Ctrl-C,
// SIGTERM), or, with only files named, until each is done with or
// nothing happened to them for idle; it says why it ended ("done" when
// the files are).
func (f *following) loop(ctx context.Context, stop func(), w *watch.Watcher, onlyFiles bool, idle time.Duration) string {
	c := f.c
	why := ""
	last := time.Now() // the last event about a named file
	for why == "" {
		var quiet <-chan time.Time
		if onlyFiles && idle > 0 {
			quiet = time.After(time.Until(last.Add(idle)))
		}
		select {
		case <-ctx.Done():
			why = "interrupted"
			stop() // a second Ctrl-C ends rewind at once
		case ev, ok := <-w.Events():
			if !ok {
				return "the watcher stopped"
			}
			if f.isNamed(ev.Path) {
				last = time.Now()
			}
			f.handle(ev)
			if onlyFiles && len(f.named) == 0 {
				why = "done"
			}
		case <-quiet:
			why = fmt.Sprintf("nothing happened to the files named for %s (--idle)", idle)
			for p := range f.named {
				if !f.appeared(p) {
					c.notef("%s: no such file: nothing created it within %s (--idle)", c.epath(p), idle)
					f.bad = true
				}
			}
		}
	}
	return why
}

// handle acts on one event of the watcher.
func (f *following) handle(ev watch.Event) {
	c := f.c
	live := ev.Format != nil && ev.Format.Follow != nil
	switch ev.Op {
	case watch.Appeared:
		delete(f.ended, ev.Path) // a new file under the name: its moments are new
		if !f.isNamed(ev.Path) && time.Since(ev.Modified) > oldReplay {
			c.notef("%s was last written %s: a replay moved in, not one being recorded; left alone",
				c.epath(ev.Path), formatDate(ev.Modified))
			return
		}
		if live {
			c.notef("following %s (%s)", c.epath(ev.Path), ev.Format.Name)
		}
		f.game(ev.Path)
	case watch.Grew:
		if ev.Replay != nil && f.tracked(ev.Path) {
			f.fire(ev.Path, ev.Replay, false)
		}
	case watch.Finished:
		if f.tracked(ev.Path) {
			f.finished(ev, live)
		}
	case watch.Removed:
		if g := f.games[ev.Path]; g != nil {
			c.notef("%s was removed while it was followed", c.epath(ev.Path))
			delete(f.games, ev.Path)
		}
		delete(f.ended, ev.Path)
		f.unname(ev.Path, false)
	case watch.Ignored:
		c.notef("%s; ignored", withPath(c.epath(ev.Path), ev.Err))
		f.unname(ev.Path, true)
	case watch.Polling:
		c.notef("polling %s: %s", c.epath(ev.Path), ev.Note)
	case watch.Problem:
		if ev.Path != "" {
			c.notef("%s", withPath(c.epath(ev.Path), ev.Err))
		} else {
			c.notef("%v", ev.Err)
		}
	}
}

// finished fires what is left of a game: everything, now that it is
// over. A replay written whole is decoded here, once.
func (f *following) finished(ev watch.Event, live bool) {
	c := f.c
	r, err := ev.Replay, ev.Err
	if r == nil && err == nil && !live {
		var file *decoders.File
		if file, err = decoders.ReadFile(ev.Path); err == nil {
			r, err = file.Decode(model.DecodeOptions{})
		}
	}
	if err != nil {
		c.notef("%s", withPath(c.epath(ev.Path), err))
		delete(f.games, ev.Path)
		f.unname(ev.Path, true)
		return
	}
	g := f.game(ev.Path)
	if r != nil {
		f.fire(ev.Path, r, true)
	}
	what := ""
	if live {
		what = fmt.Sprintf(" ended (%s)", ev.Ended)
	}
	c.notef("%s%s: %d moment%s fired", c.epath(ev.Path), what, g.n, plural(g.n))
	f.end(ev.Path)
	f.unname(ev.Path, false)
}

// unname marks a file named on the command line as done with.
func (f *following) unname(path string, bad bool) {
	if p := f.namedAs(path); p != "" {
		delete(f.named, p)
		f.bad = f.bad || bad
	}
}

// fire acts on the moments of r (a snapshot of the game at path, or with
// final the whole game) that are complete and have not fired, in the order
// they end.
func (f *following) fire(path string, r *model.Replay, final bool) {
	s := library.SummaryOf(r, nil)
	if s.Err != "" || len(s.Moments) == 0 {
		return
	}
	h := library.FromReplay(path, r.Size, r)
	h.Summary = s
	if !f.q.Empty() && !f.q.Match(library.NewDoc(&h)) {
		return // the game is not one the query's replay terms choose (yet)
	}
	g := f.game(path)
	tl := &r.Timeline
	horizon := tl.Time(tl.Count - 1).Seconds()
	mm := f.q.MomentMatcher()
	mm.SetPlayers(h.Players)
	var due []*model.MomentRecord
	for i := range s.Moments {
		m := &s.Moments[i]
		id := momentID{m.Kind, m.Frame, m.By, m.On}
		if g.done[id] || (!final && m.EndTime+momentSettle > horizon) {
			continue
		}
		g.done[id] = true
		if mm.Match(m) {
			due = append(due, m)
		}
	}
	slices.SortStableFunc(due, func(a, b *model.MomentRecord) int { return cmp.Compare(a.EndTime, b.EndTime) })
	if len(due) == 0 {
		return
	}
	view := gameView{path: path, format: r.Format, start: h.Start, last: s.Last, partial: s.Partial,
		players: aggregate.FromHeader(&h).Players}
	for _, m := range due {
		j := momentJSON(&view, m)
		g.n++
		f.fired++
		if f.json {
			writeJSON(f.out, j)
			f.out.Flush() // a script reads each moment as it fires
		}
		if f.runner != nil {
			f.runner.add(j)
		}
	}
}

// runner runs --exec's command for each moment, one at a time in the
// order they fired, on a goroutine of its own: following never waits for
// a command.
type runner struct {
	c      *call
	argv   []string
	stdout io.Writer // the commands' output: the streams themselves, so a command
	stderr io.Writer // that leaves a child behind holding them is not waited for
	mu     sync.Mutex
	wake   *sync.Cond
	queue  []momentObject
	closed bool // no more moments come
	drop   bool // interrupted: what is queued is not run
	failed int
	done   chan struct{}
}

func startRunner(c *call, argv []string, stdout, stderr io.Writer) *runner {
	r := &runner{c: c, argv: argv, stdout: stdout, stderr: stderr, done: make(chan struct{})}
	r.wake = sync.NewCond(&r.mu)
	go r.run()
	return r
}

func (r *runner) add(m momentObject) {
	r.mu.Lock()
	r.queue = append(r.queue, m)
	r.mu.Unlock()
	r.wake.Signal()
}

// finish waits for the commands queued (with drop, only the one running)
// and says how many were not run and how many failed.
func (r *runner) finish(drop bool) (skipped, failed int) {
	r.mu.Lock()
	r.closed, r.drop = true, drop
	r.mu.Unlock()
	r.wake.Signal()
	<-r.done
	return len(r.queue), r.failed
}

func (r *runner) run() {
	defer close(r.done)
	for {
		r.mu.Lock()
		for len(r.queue) == 0 && !r.closed {
			r.wake.Wait()
		}
		if len(r.queue) == 0 || r.drop {
			r.mu.Unlock()
			return
		}
		m := r.queue[0]
		r.queue = r.queue[1:]
		r.mu.Unlock()
		if err := r.exec(&m); err != nil {
			r.failed++
			r.c.notef("--exec %s, for the %s at frame %d of %s: %v", theme.Safe(r.argv[0]), m.Kind, m.Frame, r.c.epath(m.Path), err)
		}
	}
}

// exec runs the command for one moment: its facts in the environment,
// its JSON on stdin.
func (r *runner) exec(m *momentObject) error {
	var in bytes.Buffer
	writeJSON(&in, m)
	cmd := exec.Command(r.argv[0], r.argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = &in, r.stdout, r.stderr
	num := func(x *float64) string {
		if x == nil {
			return ""
		}
		return strconv.FormatFloat(*x, 'f', -1, 64)
	}
	cmd.Env = append(os.Environ(),
		"REWIND_PATH="+m.Path,
		"REWIND_FORMAT="+string(m.Format),
		"REWIND_KIND="+m.Kind,
		"REWIND_FRAME="+strconv.FormatInt(m.Frame, 10),
		"REWIND_END_FRAME="+strconv.FormatInt(m.EndFrame, 10),
		"REWIND_TIME="+strconv.FormatFloat(m.Time, 'f', -1, 64),
		"REWIND_BY="+m.By,
		"REWIND_ON="+m.On,
		"REWIND_DAMAGE="+num(m.Damage),
		"REWIND_KILL="+strconv.FormatBool(m.Kill))
	return cmd.Run()
}

// lockedWriter is a writer that is not an *os.File, shared by two
// goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
