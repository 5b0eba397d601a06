package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"rewind/library"
)

// cmdFind lists the replays under the paths that match a query: one path a
// line, or NDJSON with --json. Exit 0 when something matched, 1 when
// nothing did, 2 on a mistake or an unreadable path (grep's convention).
func cmdFind(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("find", "rewind find [--json] [--no-cache] PATH... QUERY", stderr)
	asJSON := fs.Bool("json", false, "write one JSON object per match (NDJSON), the keys of info --json plus the check")
	noCache := fs.Bool("no-cache", false, "read every header; do not use or fill the index in the user's cache directory")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: rewind find [--json] [--no-cache] PATH... QUERY\n\n%s\n\nFlags:\n", library.QueryHelp)
		fs.PrintDefaults()
	}
	rest, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(rest) < 2 {
		fmt.Fprintln(stderr, "rewind: find needs at least one PATH and a QUERY (quote a query of several terms)")
		return 2
	}
	paths, text := rest[:len(rest)-1], rest[len(rest)-1]
	q, err := library.ParseQuery(text)
	if err != nil {
		var qe *library.QueryError
		if errors.As(err, &qe) {
			// point at the mistake under the query as typed
			fmt.Fprintf(stderr, "rewind: find: %s\n  %s\n  %s^\n", qe.Msg, text, strings.Repeat(" ", max(qe.Col-1, 0)))
		} else {
			fmt.Fprintln(stderr, "rewind: find:", err)
		}
		return 2
	}
	opt := library.ScanOptions{Ordered: true, Check: q.NeedsCheck()}
	if !*noCache {
		idx, err := library.OpenIndex("")
		if err != nil {
			fmt.Fprintln(stderr, "rewind: find: no index:", err)
		} else {
			opt.Index = idx
			defer func() {
				if err := idx.Close(); err != nil {
					fmt.Fprintln(stderr, "rewind: find: index:", err)
				}
			}()
		}
	}
	enc := json.NewEncoder(stdout)
	matched, unreadable := false, false
	library.Scan(context.Background(), library.Paths(paths), opt, func(h library.Header) bool {
		if h.Kind == library.Skipped {
			return true
		}
		if h.Kind == library.Unreadable {
			unreadable = true
			fmt.Fprintln(stderr, "rewind: find:", h.Err)
		}
		if !q.Match(library.NewDoc(&h)) {
			return true
		}
		matched = true
		if *asJSON {
			enc.Encode(h)
		} else {
			fmt.Fprintln(stdout, h.Path)
		}
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
