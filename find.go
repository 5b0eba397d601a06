package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"rewind/library"
)

// cmdFind lists the replays under the paths that match a query: one path a
// line, or NDJSON with --json. Exit 0 when something matched, 1 when
// nothing did, 2 on a mistake or an unreadable path (grep's convention).
var findAbout = `Print the replays under the paths that match a query, one path per line (or, with
--json, one JSON object per match). Headers come from the index in the user's
cache directory when they are fresh; the query language is the browser's filter:

` + library.QueryHelp + `
`

const findNotes = `Exit status: 0 some replay matched, 1 none matched, 2 a path could not be read or
the command line is wrong.
`

func cmdFind(c *command, args []string) int {
	c.about, c.notes = findAbout, findNotes
	asJSON := c.flags.Bool("json", false, "write one JSON object per match (NDJSON), the keys of info --json plus the check")
	noCache := c.flags.Bool("no-cache", false, "read every header; neither use nor fill the index in the user's cache directory")
	rest, code, ok := c.parse(args)
	if !ok {
		return code
	}
	if len(rest) < 2 {
		return c.errorf("needs at least one PATH and a QUERY (quote a query of several terms)")
	}
	stderr := c.stderr
	paths, text := rest[:len(rest)-1], rest[len(rest)-1]
	q, err := library.ParseQuery(text)
	if err != nil {
		var qe *library.QueryError
		if errors.As(err, &qe) {
			// point at the mistake under the query as typed
			return c.errorf("%s\n  %s\n  %s^", qe.Msg, text, strings.Repeat(" ", max(qe.Col-1, 0)))
		}
		return c.errorf("%v", err)
	}
	opt := library.ScanOptions{Ordered: true, Check: q.NeedsCheck()}
	if !*noCache {
		idx, done := c.openIndex()
		defer done()
		opt.Index = idx
	}
	out := c.output()
	defer out.Flush()
	enc := json.NewEncoder(out)
	matched, unreadable := false, false
	library.Scan(context.Background(), library.Paths(paths), opt, func(h library.Header) bool {
		if h.Kind == library.Skipped {
			return true
		}
		if h.Kind == library.Unreadable {
			unreadable = true
			out.Flush() // what came before it first
			fmt.Fprintln(stderr, "rewind: find:", h.Err)
		}
		if !q.Match(library.NewDoc(&h)) {
			return true
		}
		matched = true
		if *asJSON {
			enc.Encode(h)
		} else {
			fmt.Fprintln(out, h.Path)
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
