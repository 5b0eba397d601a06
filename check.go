package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"rewind/decoders"
	"rewind/model"
)

// checkResult is one file's outcome, also the JSON form of `check --json`.
type checkResult struct {
	Path        string            `json:"path"`
	Format      model.Format      `json:"format,omitempty"`
	Status      string            `json:"status"` // clean, problems, unreadable
	Error       string            `json:"error,omitempty"`
	Partial     bool              `json:"partial,omitempty"`
	Diagnostics []checkDiagnostic `json:"diagnostics,omitempty"`
}

type checkDiagnostic struct {
	Severity string `json:"severity"`
	Stream   string `json:"stream,omitempty"`
	Offset   int64  `json:"offset"`
	Length   int64  `json:"length,omitempty"`
	Skipped  bool   `json:"skipped,omitempty"`
	Text     string `json:"text"`
}

type formatTally struct{ Files, Clean, Problems, Unreadable int }

// cmdCheck decodes every replay under the paths on all cores and reports
// the problems. Exit 0 when every file is clean, 1 when some file has
// problems, 2 when some file cannot be read at all.
func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "rewind check [--json] [--quiet] PATH...", stderr)
	asJSON := fs.Bool("json", false, "write one JSON object per file, then a summary object (NDJSON)")
	quiet := fs.Bool("quiet", false, "print only the summary")
	paths, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(paths) == 0 {
		fs.Usage()
		return 2
	}
	inputs, err := collect(paths)
	if err != nil {
		fmt.Fprintln(stderr, "rewind:", err)
		return 2
	}
	progress := !*asJSON && stderr == io.Writer(os.Stderr) && isTerminal(os.Stderr)
	results := checkAll(inputs, func(done int) {
		if progress {
			drawProgress(stderr, done, len(inputs))
		}
	})
	if progress {
		fmt.Fprint(stderr, "\r\033[K")
	}

	tallies := map[string]*formatTally{}
	exit := 0
	enc := json.NewEncoder(stdout)
	for _, res := range results {
		name := string(res.Format)
		if name == "" {
			name = "not a replay"
		}
		t := tallies[name]
		if t == nil {
			t = &formatTally{}
			tallies[name] = t
		}
		t.Files++
		switch res.Status {
		case "clean":
			t.Clean++
		case "problems":
			t.Problems++
			exit = max(exit, 1)
		default:
			t.Unreadable++
			exit = 2
		}
		if *asJSON {
			enc.Encode(res)
			continue
		}
		if *quiet || res.Status == "clean" {
			continue
		}
		if res.Status == "unreadable" {
			fmt.Fprintf(stdout, "%s: unreadable: %s\n", res.Path, res.Error)
			continue
		}
		fmt.Fprintf(stdout, "%s: %d problem%s%s\n", res.Path, countProblems(res), plural(countProblems(res)), partialNote(res))
		for _, d := range res.Diagnostics {
			if d.Severity == "info" {
				continue
			}
			fmt.Fprintf(stdout, "  %-7s %s\n", d.Severity, d.Text)
		}
	}

	names := make([]string, 0, len(tallies))
	for n := range tallies {
		names = append(names, n)
	}
	sort.Strings(names)
	if *asJSON {
		enc.Encode(map[string]any{"summary": tallies, "exit": exit})
		return exit
	}
	fmt.Fprintf(stdout, "\n%-14s %7s %7s %9s %11s\n", "format", "files", "clean", "problems", "unreadable")
	var total formatTally
	for _, n := range names {
		t := tallies[n]
		fmt.Fprintf(stdout, "%-14s %7d %7d %9d %11d\n", n, t.Files, t.Clean, t.Problems, t.Unreadable)
		total.Files += t.Files
		total.Clean += t.Clean
		total.Problems += t.Problems
		total.Unreadable += t.Unreadable
	}
	if len(names) > 1 {
		fmt.Fprintf(stdout, "%-14s %7d %7d %9d %11d\n", "all", total.Files, total.Clean, total.Problems, total.Unreadable)
	}
	return exit
}

func countProblems(r checkResult) int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Severity != "info" {
			n++
		}
	}
	return n
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func partialNote(r checkResult) string {
	if r.Partial {
		return " (partial replay)"
	}
	return ""
}

// checkAll decodes inputs with one worker per core and returns the results
// in input order. Each file is read, decoded and dropped before the next,
// so memory stays at a few files' worth.
func checkAll(inputs []input, onDone func(done int)) []checkResult {
	results := make([]checkResult, len(inputs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	last := time.Time{}
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = checkOne(inputs[i])
				mu.Lock()
				done++
				if time.Since(last) > 50*time.Millisecond || done == len(inputs) {
					last = time.Now()
					onDone(done)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range inputs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

func checkOne(in input) checkResult {
	res := checkResult{Path: in.Name}
	r, err := decodeInput(in, model.DecodeOptions{})
	if err != nil {
		res.Status = "unreadable"
		res.Error = err.Error()
		res.Format = formatOf(err)
		return res
	}
	res.Format = r.Format
	res.Partial = r.Partial
	res.Status = "clean"
	if r.Problems() > 0 {
		res.Status = "problems"
	}
	for _, d := range r.Diagnostics {
		res.Diagnostics = append(res.Diagnostics, checkDiagnostic{
			Severity: d.Severity.String(), Stream: d.Span.Stream, Offset: d.Span.Off,
			Length: d.Span.Len, Skipped: d.Skipped, Text: d.String(),
		})
	}
	return res
}

// formatOf names the format of a file that failed to decode, when the
// error says which decoder refused it.
func formatOf(err error) model.Format {
	var de *decoders.Error
	if errors.As(err, &de) {
		return de.Format
	}
	return ""
}

// drawProgress draws a one-line progress bar on a terminal.
func drawProgress(w io.Writer, done, total int) {
	const width = 30
	filled := 0
	if total > 0 {
		filled = done * width / total
	}
	fmt.Fprintf(w, "\r\033[Kchecking [%s%s] %d/%d", strings.Repeat("█", filled), strings.Repeat("░", width-filled), done, total)
}
