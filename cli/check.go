package cli

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"sync"

	"github.com/spf13/cobra"

	"rewind/decoders"
	"rewind/decoders/mapped"
	"rewind/library"
	"rewind/model"
	"rewind/theme"
)

const checkAbout = `Decode every replay under the paths on all cores and report what is wrong:
one line per problem with its offset, then a table per format. Folders are
walked (symlinks followed, loops reported) for files with a replay's extension
or magic bytes; files named here are always taken. A path that cannot be read
(missing, permission denied, a device or FIFO, a symlink loop) gets one line
and the rest is still checked. On a terminal a progress line on stderr shows
the file being decoded; piped, nothing but the report is written.
`

const checkNotes = `Output with --json: one object per file ({"type":"file",...}, with the same
diagnostic fields as dump), then always a {"type":"summary",...} object.

Exit status: 0 every replay clean, 1 problems found, 2 some path unreadable or
no replay, no replay found at all, or the command line is wrong.
`

// checkResult is one file's outcome, also the JSON form of `check --json`.
type checkResult struct {
	Type        string           `json:"type"` // "file"
	Path        string           `json:"path"`
	Size        *int64           `json:"size,omitempty"`
	Format      model.Format     `json:"format,omitempty"`
	Status      string           `json:"status"`           // clean, problems, unreadable, skipped
	Reason      string           `json:"reason,omitempty"` // for unreadable: read, notReplay, refused
	Error       string           `json:"error,omitempty"`
	Partial     bool             `json:"partial,omitempty"`
	Problems    int              `json:"problems"`
	Diagnostics []jsonDiagnostic `json:"diagnostics,omitempty"`
}

// tally counts one row of the summary.
type tally struct {
	Files      int `json:"files"`
	Clean      int `json:"clean"`
	Problems   int `json:"problems"`
	Unreadable int `json:"unreadable"`
}

func count(rows map[string]*tally, row, status string) {
	if rows[row] == nil {
		rows[row] = &tally{}
	}
	rows[row].add(status)
}

func (t *tally) add(status string) {
	t.Files++
	switch status {
	case "clean":
		t.Clean++
	case "problems":
		t.Problems++
	default:
		t.Unreadable++
	}
}

// checkSummary is the last object of `check --json`.
type checkSummary struct {
	Type     string            `json:"type"` // "summary"
	Total    tally             `json:"total"`
	ByFormat map[string]*tally `json:"byFormat"` // format id, or notReplay, or unknown (could not be read)
	Skipped  int               `json:"skipped"`  // devices, FIFOs and sockets met in folders, never opened
	Exit     int               `json:"exit"`
}

// row is the summary row a result counts in: its format, "not a replay"
// for a file no format claims, "unknown" for one that could not be read.
func (r checkResult) row() (human, key string) {
	switch {
	case r.Format != "":
		return string(r.Format), string(r.Format)
	case r.Reason == failNotReplay:
		return "not a replay", failNotReplay
	}
	return "unknown", "unknown"
}

// checkOptions are check's flags.
type checkOptions struct {
	json, quiet bool
}

func checkCommand() *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:                   "check [--json] [--quiet] PATH...",
		Short:                 "decode every replay under PATH on all cores and report problems",
		Long:                  checkAbout,
		Annotations:           map[string]string{notesKey: checkNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "write one JSON object per file, then a summary object (NDJSON)")
	f.BoolVar(&o.quiet, "quiet", false, "print only the summary")
	return cmd
}

// run decodes every replay under the paths on all cores and reports the
// problems.
func (o *checkOptions) run(c *call, paths []string) int {
	if len(paths) == 0 {
		return c.errorf("name the files or folders to check, like rewind check ~/replays")
	}
	// the collector as a scan keeps it: each decode allocates and drops
	// its arrays, and with Go's default it would run every few files while
	// little is live (six times over the shared corpus's 41 MB of .slp)
	defer library.TuneGC()()
	prog := newProgress(c.stderr)
	total := 0
	if prog != nil {
		// the bar needs the total: a first walk counts (it costs little
		// beside the decodes, and nothing is kept)
		found := 0
		eachInput(paths, func(in input) bool {
			found++
			if in.Err == nil {
				total++
			}
			prog.found(found)
			return true
		})
	}

	sum := checkSummary{Type: "summary", ByFormat: map[string]*tally{}}
	rows := map[string]*tally{}
	out := c.output()
	defer out.Flush()
	files, found := checkAll(paths, prog, total, func(res checkResult) {
		if res.Status == "skipped" {
			sum.Skipped++
		} else {
			human, key := res.row()
			count(rows, human, res.Status)
			count(sum.ByFormat, key, res.Status)
			sum.Total.add(res.Status)
		}
		switch res.Status {
		case "problems":
			sum.Exit = max(sum.Exit, 1)
		case "unreadable":
			sum.Exit = 2
		}
		switch {
		case o.quiet:
		case o.json:
			prog.print(func() { writeJSON(out, res); out.Flush() })
		case res.Status != "clean":
			prog.print(func() { writeCheckResult(out, res); out.Flush() })
		}
	})
	prog.finish()

	if files == 0 {
		sum.Exit = 2
	}
	if o.json {
		writeJSON(out, sum)
	} else {
		writeCheckTable(out, rows, sum)
	}
	out.Flush()
	if found == sum.Skipped {
		// nothing found, nothing unreadable: say so, or a CI job would pass while checking nothing
		c.errorf("no replay found%s", under(paths, ""))
	}
	return sum.Exit
}

// writeCheckResult prints the lines of a file that is not clean.
func writeCheckResult(w *output, res checkResult) {
	switch res.Status {
	case "unreadable", "skipped":
		if res.Reason == failNotReplay {
			fmt.Fprintf(w, "%s: %s\n", w.path(res.Path), theme.Safe(res.Error))
		} else {
			fmt.Fprintf(w, "%s: %s: %s\n", w.path(res.Path), res.Status, theme.Safe(res.Error))
		}
	default:
		partial := ""
		if res.Partial {
			partial = " (partial replay)"
		}
		fmt.Fprintf(w, "%s: %d problem%s%s\n", w.path(res.Path), res.Problems, plural(res.Problems), partial)
		for _, d := range res.Diagnostics {
			if d.Severity != model.Info.String() {
				fmt.Fprintf(w, "  %-7s %s\n", d.Severity, theme.Safe(d.Text))
			}
		}
	}
}

// writeCheckTable prints the summary: one row per format, then all.
func writeCheckTable(w io.Writer, rows map[string]*tally, sum checkSummary) {
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	// formats by name, then the files that gave no format
	sort.Slice(names, func(i, j int) bool {
		oi, oj := names[i] == "not a replay" || names[i] == "unknown", names[j] == "not a replay" || names[j] == "unknown"
		if oi != oj {
			return oj
		}
		return names[i] < names[j]
	})
	line := func(name string, t tally) {
		fmt.Fprintf(w, "%-14s %7d %7d %9d %11d\n", name, t.Files, t.Clean, t.Problems, t.Unreadable)
	}
	fmt.Fprintf(w, "\n%-14s %7s %7s %9s %11s\n", "format", "files", "clean", "problems", "unreadable")
	for _, n := range names {
		line(n, *rows[n])
	}
	if len(names) != 1 {
		line("all", sum.Total)
	}
	if sum.Skipped > 0 {
		fmt.Fprintf(w, "skipped %d special file%s (devices, FIFOs and sockets are never opened)\n", sum.Skipped, plural(sum.Skipped))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// checkAll walks the paths and decodes each file with one worker per
// core, handing the results to emit in walk order (see inOrder). It
// returns how many files there were to decode and how many paths in all.
func checkAll(paths []string, prog *progress, total int, emit func(checkResult)) (files, found int) {
	return inOrder(func(fn func(input) bool) { eachInput(paths, fn) }, prog, total, checkOne, emit)
}

// inOrder runs work on every input each gives with one worker per core and
// hands the results to emit in that order, each as soon as it and every one
// before it are done, so a report streams. work reads, decodes and drops
// its file and returns only what emit needs, and at most a window of
// inputs is in flight, so memory stays at a few files' worth however many
// a walk finds. total sizes the progress bar.
func inOrder[T any](each func(func(input) bool), prog *progress, total int, work func(input) T, emit func(T)) (files, found int) {
	prog.begin(total)
	workers := runtime.NumCPU()
	window := 64 * workers
	type job struct {
		i  int
		in input
	}
	jobs := make(chan job)
	tokens := make(chan struct{}, window)
	var mu sync.Mutex
	held := map[int]T{}
	next := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if j.in.Err == nil {
					prog.start(j.i, j.in.Name)
				}
				res := work(j.in)
				if j.in.Err == nil {
					prog.done(j.i)
				}
				mu.Lock()
				held[j.i] = res
				for {
					r, ok := held[next]
					if !ok {
						break
					}
					delete(held, next)
					next++
					emit(r)
					<-tokens
				}
				mu.Unlock()
			}
		}()
	}
	each(func(in input) bool {
		tokens <- struct{}{}
		if in.Err == nil {
			files++
		}
		jobs <- job{found, in}
		found++
		return true
	})
	close(jobs)
	wg.Wait()
	return files, found
}

func checkOne(in input) checkResult {
	res := checkResult{Type: "file", Path: in.Name}
	if in.Size >= 0 {
		size := in.Size
		res.Size = &size
	}
	// read and check every byte, keep no event list
	if !checkMapped(in, func(r *model.Replay, err error) { res.fill(r, err, in) }) {
		r, err := decodeInput(in, model.DecodeOptions{NoEvents: true})
		res.fill(r, err, in)
	}
	return res
}

// checkMapped checks a file on disk from its mapped bytes, without copying
// them: fn gets the replay while they are mapped and must keep nothing of
// it but what it copies. It reports false when the path is no plain file
// (a sample, a member of a pack, a path that cannot be opened), so the
// caller reads it as every command does and reports why.
func checkMapped(in input, fn func(*model.Replay, error)) bool {
	if in.Err != nil || in.fsys != nil {
		return false
	}
	done := false
	_, _, err := mapped.With(in.Name, true, func(data []byte) {
		f, err := decoders.ReadBytes(data, in.Name)
		if err != nil {
			fn(nil, err)
			done = true
			return
		}
		r, err := f.Decode(model.DecodeOptions{NoEvents: true})
		if r != nil {
			r.Path = in.Name
		}
		fn(r, err)
		done = true
	})
	return err == nil && done
}

// fill sets the result from a check's decode.
func (res *checkResult) fill(r *model.Replay, err error, in input) {
	if err != nil {
		res.Status = "unreadable"
		if in.Skipped {
			res.Status = "skipped"
		} else {
			res.Reason, res.Format = failure(err)
		}
		res.Error = reason(in.Name, err)
		return
	}
	res.Format = r.Format
	res.Partial = r.Partial
	res.Problems = r.Problems()
	res.Status = "clean"
	if res.Problems > 0 {
		res.Status = "problems"
	}
	for _, d := range r.Diagnostics {
		res.Diagnostics = append(res.Diagnostics, diagnosticJSON(r, d))
	}
}
