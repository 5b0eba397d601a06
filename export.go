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

const exportAbout = `Write a Parquet dataset (zstd, hive-partitioned by format) of the replays under
the paths, for DuckDB, Spark, Polars or pandas: replays (one row per file, with
its sha256), players, moments, events, diagnostics, and one typed frames table
per format. Files are decoded on all cores and written in row groups, so memory
stays bounded; --shard splits the input so many machines can each write a part
of one dataset.
`

const exportNotes = `Exit status: 0 every file exported, 1 some file could not be decoded (it is
still listed, with the reason), 2 a mistake on the command line or a write error.
`

// cmdExport writes a Parquet dataset of the replays under the paths.
// Exit 0 when every file was exported, 1 when some could not be decoded
// (they are still listed, with the reason), 2 on a mistake or a write error.
func cmdExport(c *command, args []string) int {
	c.about, c.notes = exportAbout, exportNotes
	out := c.flags.String("out", "", "the dataset's folder (created; this shard's earlier files in it are replaced)")
	shard := c.flags.String("shard", "", "write shard i of n (1 <= i <= n): the files whose path, relative to the PATH it is under, hashes to i;\nrun n of these, on as many machines, with the same PATHs and --out on shared storage")
	quiet := c.flags.Bool("quiet", false, "no progress bar and no summary")
	paths, code, ok := c.parse(args)
	if !ok {
		return code
	}
	if *out == "" || len(paths) == 0 {
		return c.errorf("needs --out DIR and at least one PATH")
	}
	stderr := c.stderr
	opt := export.Options{Out: *out}
	if *shard != "" {
		i, n, ok := strings.Cut(*shard, "/")
		a, err1 := strconv.Atoi(i)
		b, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || b < 1 || a < 1 || a > b {
			return c.errorf("--shard wants i/n with 1 <= i <= n, got %q", *shard)
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
		return c.errorf("%v", err)
	case p.Unreadable > 0:
		return 1
	}
	return 0
}
