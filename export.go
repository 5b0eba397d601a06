package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"rewind/library/export"
)

// cmdExport writes a Parquet dataset of the replays under the paths.
// Exit 0 when every file was exported, 1 when some could not be decoded
// (they are still listed, with the reason), 2 on a mistake or a write error.
func cmdExport(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export", "rewind export --out DIR [--shard i/n] PATH...", stderr)
	out := fs.String("out", "", "the dataset's folder (created; this shard's earlier files in it are replaced)")
	shard := fs.String("shard", "", "write shard i of n (1 <= i <= n): the files whose path, relative to the PATH it is under, hashes to i; run n of these, on as many machines, with the same PATHs and --out on shared storage")
	quiet := fs.Bool("quiet", false, "no progress bar and no summary")
	paths, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if *out == "" || len(paths) == 0 {
		fmt.Fprintln(stderr, "rewind: export needs --out DIR and at least one PATH")
		fs.Usage()
		return 2
	}
	opt := export.Options{Out: *out}
	if *shard != "" {
		i, n, ok := strings.Cut(*shard, "/")
		a, err1 := strconv.Atoi(i)
		b, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || b < 1 || a < 1 || a > b {
			fmt.Fprintf(stderr, "rewind: export: --shard wants i/n with 1 <= i <= n, got %q\n", *shard)
			return 2
		}
		opt.Shard, opt.Shards = a, b
	}
	bar := !*quiet && stderr == io.Writer(os.Stderr) && isTerminal(os.Stderr)
	if bar {
		opt.Progress = func(p export.Progress) {
			fmt.Fprintf(stderr, "\r%s", export.FormatProgress(p, 100))
		}
	}
	var inputs []export.Input
	for _, p := range paths {
		inputs = append(inputs, export.Input{Path: p})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p, err := export.Export(ctx, inputs, opt)
	if bar {
		fmt.Fprintln(stderr)
	}
	if !*quiet {
		secs := p.Elapsed.Seconds()
		fmt.Fprintf(stderr, "rewind: exported %d files (%.1f MB) to %s in %.1fs: %d rows, %.1f MB of Parquet, %.1f MB/s",
			p.Files, float64(p.Bytes)/1e6, *out, secs, p.Rows, float64(p.Written)/1e6, float64(p.Bytes)/1e6/max(secs, 1e-9))
		if p.Unreadable > 0 || p.NotReplays > 0 {
			fmt.Fprintf(stderr, "; %d unreadable, %d not replays (listed in replays/format=none or with their error)", p.Unreadable, p.NotReplays)
		}
		fmt.Fprintln(stderr)
	}
	switch {
	case err != nil:
		fmt.Fprintln(stderr, "rewind: export:", err)
		return 2
	case p.Unreadable > 0:
		return 1
	}
	return 0
}
