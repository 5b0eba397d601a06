package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"rewind/library"
)

// cmdFind lists the replays under the paths that match a query: one path a
// line, or NDJSON with --json. Exit 0 when something matched, 1 when
// nothing did, 2 on a mistake or an unreadable path (grep's convention).
var findAbout = `Print the replays under the paths that match a query, one path per line
(or, with --json, one JSON object per match). Headers come from the index in
the user's cache directory when they are fresh.

` + withoutPaths + `

The query language is the browser's filter:

` + library.QueryHelp + `
`

const findNotes = `Exit status: 0 some replay matched, 1 none matched, 2 a path could not be
read or the command line is wrong.
`

// findOptions are find's flags.
type findOptions struct {
	json, noCache bool
}

func findCommand() *cobra.Command {
	o := &findOptions{}
	cmd := &cobra.Command{
		Use:                   "find [--json] [--no-cache] [PATH...] QUERY",
		Short:                 "the replays under PATH that match a query (rewind help find)",
		Long:                  findAbout,
		Annotations:           map[string]string{notesKey: findNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "write one JSON object per match (NDJSON), the keys of info --json plus the check")
	f.BoolVar(&o.noCache, "no-cache", false, "read every header; neither use nor fill the index in the user's cache directory")
	return cmd
}

func (o *findOptions) run(c *call, rest []string) int {
	if len(rest) < 1 {
		return c.errorf("needs a QUERY, after the paths to look under (quote a query of several terms)")
	}
	paths, text := rest[:len(rest)-1], rest[len(rest)-1]
	c.settings() // who @me is
	q, err := library.ParseQuery(text)
	if err != nil {
		var qe *library.QueryError
		if errors.As(err, &qe) {
			// point at the mistake under the query as typed
			return c.errorf("%s\n  %s\n  %s^", qe.Msg, text, strings.Repeat(" ", max(qe.Col-1, 0)))
		}
		return c.errorf("%v", err)
	}
	// moment terms (kind:combo damage:>=40) ask for the replays that have
	// such a moment: the summaries say, each with the moments the terms
	// match (chosen on the scan's workers)
	opt := library.ScanOptions{Ordered: true, Check: q.NeedsCheck()}
	if q.HasMomentTerms() {
		opt.Summaries, opt.MomentTerms = true, q
	}
	if q.HasOutcomeTerms() {
		// who won is the summary's (a header often cannot say), without
		// moments unless a moment term asks
		opt.Summaries, opt.NoMoments = true, !q.HasMomentTerms()
	}
	if !o.noCache {
		idx, done := c.openIndex()
		defer done()
		opt.Index = idx
	}
	out := c.output()
	defer out.Flush()
	matched, unreadable := false, false
	library.Scan(context.Background(), c.walk(paths), opt, func(h library.Header) bool {
		if h.Kind == library.Skipped {
			return true
		}
		if h.Kind == library.Unreadable {
			unreadable = true
			out.Flush() // what came before it first
			c.notef("%s: %s", c.epath(h.Path), reason(h.Path, errors.New(h.Err)))
		}
		if !q.Match(library.NewDoc(&h)) || !hasMoment(q, &h) {
			return true
		}
		matched = true
		if o.json {
			writeJSON(out, h)
		} else {
			fmt.Fprintln(out, out.path(h.Path))
		}
		out.item()
		return true
	})
	switch {
	case unreadable:
		return 2
	case matched:
		return 0
	}
	return 1
}

// hasMoment reports whether the replay has a moment the query's moment
// terms choose (true when the query has none): its summary came with
// those moments only.
func hasMoment(q *library.Query, h *library.Header) bool {
	return !q.HasMomentTerms() || h.Summary != nil && len(h.Summary.Moments) > 0
}
