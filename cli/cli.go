package cli

// What every command shares: a call (where it writes, how it reports a
// mistake), exit statuses through cobra, output made safe for terminals,
// terminal detection and how dates are printed.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"rewind/theme"
)

// call is one run of a command: its name as typed and where it writes.
// Each command's body gets one (see runs).
type call struct {
	prog   string // how the command is called: "rewind check"
	name   string // "check"; empty for rewind itself
	root   *cobra.Command
	stdout io.Writer
	stderr io.Writer
}

func newCall(cmd *cobra.Command) *call {
	c := &call{prog: cmd.CommandPath(), root: cmd.Root(), stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()}
	if cmd.HasParent() {
		c.name = cmd.Name()
	}
	return c
}

// exitStatus is a command's outcome once it has said all it has to say:
// the error cobra hands back to run, which exits with it.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// runs adapts a command's body, which returns its exit status (0 done,
// 1 a finding such as problems, 2 a mistake or an unreadable path), to
// cobra's RunE.
func runs(body func(c *call, args []string) int) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if code := body(newCall(cmd), args); code != 0 {
			return exitStatus(code)
		}
		return nil
	}
}

// errorf reports a mistake on the command line, or why the command cannot
// do its work, as one sentence on stderr, and returns exit status 2. What
// it quotes (a path, a file's text) reaches the terminal made safe.
func (c *call) errorf(format string, args ...any) int {
	c.notef(format, args...)
	return 2
}

// notef says something on stderr that is not a failure (a file skipped,
// a wait), prefixed like an error.
func (c *call) notef(format string, args ...any) {
	fmt.Fprintf(c.stderr, "%s: %s\n", c.prog, theme.SafeLines(fmt.Sprintf(format, args...)))
}

// epath is a path as stderr shows it: quoted like ls quotes names when
// stderr is a terminal, made safe when it is not.
func (c *call) epath(p string) string { return theme.Path(p, isTerminal(c.stderr)) }

// output is what a command writes for people, buffered: a write a line
// cost find 48,000 system calls on a 50,000-file folder. On a terminal each
// file's text still shows as soon as it is ready (item). Every byte passes
// theme.Writer on its way out, the last guard against a terminal sequence
// that a writer forgot to make safe; paths go through path.
type output struct {
	*bufio.Writer
	safe *theme.Writer
	live bool // stdout is a terminal
}

func (c *call) output() *output {
	s := theme.NewWriter(c.stdout)
	return &output{bufio.NewWriterSize(s, 64<<10), s, isTerminal(c.stdout)}
}

// jsonOutput is output for a command whose every byte is JSON escaped by
// theme.EscapeJSON, which leaves nothing a terminal acts on: it skips the
// guard, whose second look at hundreds of megabytes of NDJSON would find
// nothing.
func (c *call) jsonOutput() *output {
	return &output{bufio.NewWriterSize(c.stdout, 64<<10), nil, isTerminal(c.stdout)}
}

// item ends one file's text.
func (o *output) item() {
	if o.live {
		o.Flush()
	}
}

// Flush writes what is buffered, through the guard.
func (o *output) Flush() error {
	err := o.Writer.Flush()
	if o.safe == nil {
		return err
	}
	if err2 := o.safe.Flush(); err == nil {
		err = err2
	}
	return err
}

// path is a file name as this output shows it: quoted like ls quotes it on
// a terminal, made safe when piped.
func (o *output) path(p string) string { return theme.Path(p, o.live) }

// writeJSON writes v as one line of JSON with every character a terminal
// would act on escaped (theme.EscapeJSON), so NDJSON is safe to read on a
// terminal too.
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(theme.EscapeJSON(b), '\n')
	_, err = w.Write(b)
	return err
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

// withPath words err as one sentence that names path once, in front, as
// the walk words what it cannot read: "live.slp: no such file or folder",
// "x.bsor: BSOR replay files are written whole, not live".
func withPath(path string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path + ": no such file or folder"
	case errors.Is(err, fs.ErrPermission):
		return path + ": permission denied"
	}
	s := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		s = pe.Err.Error()
	}
	if s == path || strings.HasPrefix(s, path+": ") || strings.HasPrefix(s, path+" ") {
		return s
	}
	return path + ": " + s
}

// wrapIndented writes text after lead, wrapped at width with later lines
// indented as far as lead.
func wrapIndented(lead, text string, width int) string {
	var b strings.Builder
	line := lead
	for i, w := range strings.Fields(text) {
		if i > 0 && len(line)+1+len(w) > width {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = strings.Repeat(" ", len(lead))
		} else if i > 0 {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}
