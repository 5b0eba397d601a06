package main

// What every command shares: flag parsing with one-sentence mistakes, help
// on stdout, the version, terminal detection and how dates are printed.

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"rewind/model"
)

// command is one invocation of a subcommand (or of rewind itself): its
// flags, its help and where it writes.
type command struct {
	name     string // "check"; empty for rewind itself
	synopsis string // the usage line after "Usage: "
	about    string // what the command does, printed under the usage line
	notes    string // printed after the flags: output, exit status
	flags    *flag.FlagSet
	stdout   io.Writer
	stderr   io.Writer
}

func newCommand(name, synopsis string, stdout, stderr io.Writer) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // mistakes are worded by parse, help by help
	return &command{name: name, synopsis: synopsis, flags: fs, stdout: stdout, stderr: stderr}
}

// output buffers what a command writes for each of many files: a write a
// line cost find 48,000 system calls on a 50,000-file folder. On a
// terminal each file's text still shows as soon as it is ready.
type output struct {
	*bufio.Writer
	live bool
}

func (c *command) output() *output {
	return &output{bufio.NewWriterSize(c.stdout, 64<<10), isTerminal(c.stdout)}
}

// item ends one file's text.
func (o *output) item() {
	if o.live {
		o.Flush()
	}
}

// prog is how the command is called: "rewind check".
func (c *command) prog() string {
	if c.name == "" {
		return "rewind"
	}
	return "rewind " + c.name
}

// errorf reports a mistake on the command line, or why the command cannot
// do its work, as one sentence on stderr, and returns exit status 2.
func (c *command) errorf(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "%s: %s\n", c.prog(), fmt.Sprintf(format, args...))
	return 2
}

// parse reads the flags anywhere among the arguments and returns the rest.
// Flags are written --name or -name, with a value as --name=value or
// --name value (booleans take only the first form); "--" ends the flags.
// ok is false when parsing ended the command: code is 0 after --help
// (printed on stdout) and 2 after a mistake (one sentence on stderr).
func (c *command) parse(args []string) (rest []string, code int, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i+1:]...), 0, true
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		name, value, hasValue := strings.Cut(name, "=")
		if name == "h" || name == "help" {
			c.help(c.stdout)
			return nil, 0, false
		}
		f := c.flags.Lookup(name)
		if f == nil || name == "" {
			return nil, c.errorf("unknown flag %s (%s --help lists the flags)", a, c.prog()), false
		}
		if isBool(f) {
			if !hasValue {
				value = "true"
			}
			if err := f.Value.Set(value); err != nil {
				return nil, c.errorf("%s takes true or false, not %q", dashed(name), value), false
			}
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, c.errorf("%s needs a value, like %s %s", dashed(name), dashed(name), example(f)), false
			}
			i++
			value = args[i]
		}
		if err := f.Value.Set(value); err != nil {
			return nil, c.errorf("%s %s: %v", dashed(name), value, err), false
		}
	}
	return rest, 0, true
}

// dashed is how a flag is written: -o for a one-letter name, --force
// for the others (either form is read).
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// example is the first example a flag's usage gives ("like -123..0"), or
// its argument name.
func example(f *flag.Flag) string {
	if _, after, ok := strings.Cut(f.Usage, "e.g. "); ok {
		if w := strings.Fields(after); len(w) > 0 {
			return strings.TrimRight(w[0], ",;)")
		}
	}
	arg, _ := flag.UnquoteUsage(f)
	return arg
}

// help writes the command's help: usage line, description, flags, notes.
func (c *command) help(w io.Writer) {
	fmt.Fprintf(w, "Usage: %s\n", c.synopsis)
	if c.about != "" {
		fmt.Fprintf(w, "\n%s", c.about)
	}
	type row struct{ left, right string }
	rows := []row{}
	c.flags.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		left := dashed(f.Name)
		if !isBool(f) {
			left += " " + arg
		}
		rows = append(rows, row{left, usage})
	})
	rows = append(rows, row{"-h, --help", "show this help"})
	width := 0
	for _, r := range rows {
		width = max(width, len(r.left))
	}
	fmt.Fprintf(w, "\nFlags:\n")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.left, r.right)
	}
	if c.notes != "" {
		fmt.Fprintf(w, "\n%s", c.notes)
	}
}

// version is set when packaging (go build -ldflags "-X main.version=v1.2.0");
// otherwise the Go toolchain's build information is used.
var version = ""

// versionLine is what --version prints: the module version (from the VCS
// tag, or a pseudo-version of the commit), the commit and its date, and the
// Go toolchain. A binary without build information says so.
func versionLine() string {
	v := version
	var rev, when string
	modified := false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" && bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var extra []string
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if modified {
			rev += ", modified"
		}
		extra = append(extra, "commit "+rev)
	}
	if t, err := time.Parse(time.RFC3339, when); err == nil {
		extra = append(extra, t.UTC().Format("2006-01-02"))
	}
	extra = append(extra, fmt.Sprintf("%s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH))
	return fmt.Sprintf("rewind %s (%s)", v, strings.Join(extra, ", "))
}

// isTerminal reports whether w is a terminal (not a pipe, a file or
// /dev/null).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// termWidth is the terminal's width in columns, 80 when it cannot say.
func termWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols > 0 {
			return cols
		}
	}
	return 80
}

// formatDate prints when a game was played in the zone the file records,
// never in this machine's zone, so the same file reads the same everywhere:
// "2020-08-16 07:02:53 UTC" when the file stores UTC (Slippi, BSOR,
// StarCraft II), "2026-11-22 02:05:55 +02:00" when it records an offset
// (teehistorian's start_time).
func formatDate(t time.Time) string {
	s := t.Format("2006-01-02 15:04:05")
	if _, off := t.Zone(); off == 0 {
		return s + " UTC"
	}
	return s + " " + t.Format("-07:00")
}

// reason words why a path could not be read as one sentence without the
// path in front (the caller prints the path once).
func reason(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	s := err.Error()
	for _, prefix := range []string{path + ": ", path + " is "} {
		if strings.HasPrefix(s, prefix) {
			return strings.TrimPrefix(s, prefix)
		}
	}
	return s
}

// progress draws one line on a terminal while a command works: the replays
// found so far while walking, then a bar, the count and the file that has
// been decoding longest with its time, so a slow file is never a silent
// wait. Every method does nothing on a nil *progress, which is what
// newProgress gives when the writer is not a terminal: piped output gets
// nothing extra.
type progress struct {
	w        io.Writer
	mu       sync.Mutex
	nfound   int
	total    int
	ndone    int
	running  map[int]task
	checking bool
	last     time.Time
	stop     chan struct{}
	stopped  sync.WaitGroup
}

type task struct {
	name  string
	since time.Time
}

func newProgress(w io.Writer) *progress {
	if !isTerminal(w) {
		return nil
	}
	return &progress{w: w, running: map[int]task{}}
}

// found counts the files a walk has found so far.
func (p *progress) found(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nfound = n
	if time.Since(p.last) > 100*time.Millisecond {
		p.draw()
	}
}

// begin switches to the bar over total files and redraws it four times a
// second, so the time of a slow file keeps moving.
func (p *progress) begin(total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.total, p.checking = total, true
	p.draw()
	p.mu.Unlock()
	p.stop = make(chan struct{})
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
}

func (p *progress) start(i int, name string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[i] = task{name, time.Now()}
}

func (p *progress) done(i int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, i)
	p.ndone++
	p.draw()
}

// print runs f, which writes to the output, with the progress line out of
// the way.
func (p *progress) print(f func()) {
	if p == nil {
		f()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
	f()
	p.draw()
}

// finish removes the line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	if p.stop != nil {
		close(p.stop)
		p.stopped.Wait()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
}

// draw writes the line, cut to the terminal's width so it never wraps.
// The caller holds p.mu.
func (p *progress) draw() {
	p.last = time.Now()
	width := termWidth(p.w) - 1
	var line string
	if !p.checking {
		line = fmt.Sprintf("finding replays… %s", model.FormatCount(int64(p.nfound)))
	} else {
		bar := min(24, max(8, width/5))
		filled := 0
		if p.total > 0 {
			filled = p.ndone * bar / p.total
		}
		line = fmt.Sprintf("checking %s%s %d/%d", strings.Repeat("█", filled), strings.Repeat("░", bar-filled), p.ndone, p.total)
		// the file that has been decoding longest
		var cur task
		for _, t := range p.running {
			if cur.name == "" || t.since.Before(cur.since) {
				cur = t
			}
		}
		if cur.name != "" {
			name := cur.name
			elapsed := ""
			if d := time.Since(cur.since); d >= time.Second {
				elapsed = fmt.Sprintf(" %ds", int(d.Seconds()))
			}
			room := width - ansi.StringWidth(line) - 2 - len(elapsed)
			if w := ansi.StringWidth(name); w > room && room > 1 {
				name = "…" + ansi.TruncateLeft(name, w-room+1, "")
			}
			line += "  " + name + elapsed
		}
	}
	fmt.Fprint(p.w, "\r\033[K"+ansi.Truncate(line, width, ""))
}
