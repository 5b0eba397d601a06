package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"rewind/library/export"
	"rewind/theme"
)

const exportAbout = `Write a Parquet dataset (zstd, hive-partitioned by format) of the replays under
the paths, for DuckDB, Spark, Polars or pandas: replays (one row per file, with
its sha256), players, moments, events, diagnostics, and one typed frames table
per format. Files are decoded on all cores and written in row groups, so memory
stays bounded; --shard splits the input so many machines can each write a part
of one dataset.

` + withoutPaths + `
`

const exportNotes = `A file that gives no replay is listed in replays with the reason (under
format=none when no format claims it), and named on stderr.

Exit status: 0 every replay exported (a file found in a folder that is no
replay fails nothing), 1 some file could not be read or decoded, or a file
named on the command line is no replay, 2 a mistake on the command line or a
write error.
`

// exportOptions are export's flags.
type exportOptions struct {
	out, shard string
	quiet      bool
}

func exportCommand() *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:                   "export --out DIR [--shard i/n] [--quiet] [PATH...]",
		Short:                 "a Parquet dataset of replays, players, moments, events, diagnostics and frames",
		Long:                  exportAbout,
		Annotations:           map[string]string{notesKey: exportNotes},
		DisableFlagsInUseLine: true,
		ValidArgsFunction:     completePaths,
		RunE:                  runs(o.run),
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "", "the dataset's folder `DIR` (created; this shard's earlier files in it are replaced)")
	f.StringVar(&o.shard, "shard", "", "write shard `i/n` (1 <= i <= n): the files whose path, relative to the PATH it is under, hashes to i;\nrun n of these, on as many machines, with the same PATHs and --out on shared storage")
	f.BoolVar(&o.quiet, "quiet", false, "no progress bar and no summary")
	cmd.MarkFlagDirname("out")
	cmd.RegisterFlagCompletionFunc("shard", noFiles)
	return cmd
}

// run writes a Parquet dataset of the replays under the paths. Exit 0
// when every file was exported, 1 when some could not be decoded (they are
// still listed, with the reason), 2 on a mistake or a write error. A file
// found in a folder that is no replay is listed too, and named on stderr,
// but fails nothing.
func (o *exportOptions) run(c *call, paths []string) int {
	if o.out == "" {
		return c.errorf("needs --out DIR (and PATH..., else the library)")
	}
	stderr := c.stderr
	opt := export.Options{Out: o.out}
	if o.shard != "" {
		i, n, ok := strings.Cut(o.shard, "/")
		a, err1 := strconv.Atoi(i)
		b, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || b < 1 || a < 1 || a > b {
			return c.errorf("--shard wants i/n with 1 <= i <= n, got %q", o.shard)
		}
		opt.Shard, opt.Shards = a, b
	}
	bar := !o.quiet && stderr == io.Writer(os.Stderr) && isTerminal(os.Stderr)
	if bar {
		opt.Progress = func(p export.Progress) {
			fmt.Fprintf(stderr, "\r%s", theme.Safe(export.FormatProgress(p, 100)))
		}
	}
	// files that gave no replay: said after the bar, which they would cut
	var failed []export.File
	exit := 0
	opt.File = func(f export.File) {
		failed = append(failed, f)
		if !f.NotReplay || f.Named {
			exit = 1 // unreadable, or named and no replay
		}
	}
	var inputs []export.Input
	lib, _ := c.libraryPaths(paths)
	for _, p := range lib {
		inputs = append(inputs, export.Input{Path: p})
	}
	if lib == nil {
		inputs = append(inputs, export.Input{Path: "samples", FS: samplesFS})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p, err := export.Export(ctx, inputs, opt)
	if bar {
		fmt.Fprintln(stderr)
	}
	sort.Slice(failed, func(i, j int) bool { return failed[i].Path < failed[j].Path })
	unreadable, notReplays := 0, 0
	for _, f := range failed {
		note := ""
		switch {
		case !f.NotReplay:
			unreadable++
		case f.Named:
			notReplays++
		default:
			notReplays++
			note = " (listed in replays; a file in a folder that is no replay fails nothing)"
		}
		c.notef("%s: %s%s", c.epath(f.Path), reason(f.Path, f.Err), note)
	}
	if !o.quiet {
		secs := p.Elapsed.Seconds()
		msg := fmt.Sprintf("exported %d file%s (%.1f MB) to %s in %.1fs: %d row%s, %.1f MB of Parquet, %.1f MB/s",
			p.Files, plural(int(p.Files)), float64(p.Bytes)/1e6, c.epath(o.out), secs, p.Rows, plural(int(p.Rows)), float64(p.Written)/1e6, float64(p.Bytes)/1e6/max(secs, 1e-9))
		if unreadable > 0 || notReplays > 0 {
			msg += fmt.Sprintf("; %d not replay%s, %d unreadable (named above, and listed in replays with the reason)", notReplays, plural(notReplays), unreadable)
		}
		c.notef("%s", msg)
	}
	if err != nil {
		return c.errorf("%v", err)
	}
	return exit
}
