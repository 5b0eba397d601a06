// Package export writes replays as a Parquet dataset that DuckDB, Spark,
// Trino, Polars and pyarrow read with no extension:
//
//	DIR/replays/format=slippi/part-1of1-0-0.parquet      one row per file, with sha256
//	DIR/players/format=…/…                               one row per player
//	DIR/moments/format=…/…                               what happened (Replay.Analysis)
//	DIR/events/format=…/…                                every event, with its summary and bytes
//	DIR/diagnostics/format=…/…                           every problem found
//	DIR/frames_slippi/format=slippi/…                    one typed frames table per format
//
// Tables are partitioned by format the hive way; files that are no replay
// land in format=none. Every file is zstd-compressed and written streaming:
// each worker (one per core) keeps one open file per table and format and
// ends a row group every RowGroup rows, so memory stays bounded however
// many replays go in. A file is written under a temporary name and renamed
// when complete, so a reader never sees half a file.
//
// Sharding splits one dataset over machines: with Shard i of n a run takes
// the files whose path (relative to the argument it was found under) hashes
// to i, and names its files part-iofn-…, so n runs with the same arguments
// on n machines write disjoint parts of one dataset. A rerun of a shard
// replaces that shard's files and leaves the others.
package export

import (
	"bufio"
	"container/heap"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"rewind/decoders"
	"rewind/decoders/frames"
	"rewind/library"
	"rewind/model"
)

// Options tune Export.
type Options struct {
	Out string // the dataset's folder
	// Shard and Shards select part of the input: shard i (1-based) of n.
	// Zero for both takes everything.
	Shard, Shards int
	Workers       int   // files decoded at once; 0 means one per CPU
	RowGroup      int64 // rows per row group; 0 means 65536
	// Progress, when set, is called about ten times a second and once at
	// the end, from one goroutine.
	Progress func(Progress)
	// File, when set, is called once for each file that gives no replay,
	// when it is done, one call at a time: the CLI names such files and
	// decides whether they fail the export (named ones) or not (strays in
	// a folder).
	File func(File)
}

// File is a file of an export that gave no replay, and why.
type File struct {
	Path  string
	Named bool // named as an input, not found in a folder
	// NotReplay is set when the file was read but is no replay: no format
	// claims it, or its format's decoder refused it. Otherwise it could
	// not be read.
	NotReplay bool
	Err       error
}

// Progress is how far an export is.
type Progress struct {
	Files, Total           int   // files done, files to do in this shard
	Bytes, TotalBytes      int64 // replay bytes read
	Written                int64 // Parquet bytes written so far
	Rows                   int64 // rows written, every table
	Unreadable, NotReplays int
	Elapsed                time.Duration
}

// Input is one named path: a file or a folder to walk.
type Input struct {
	Path string
	FS   fs.FS // nil: the OS's files
}

// Export writes the dataset for the inputs.
func Export(ctx context.Context, inputs []Input, opt Options) (Progress, error) {
	start := time.Now()
	if opt.Shards < 0 || opt.Shard < 0 || (opt.Shards > 0 && (opt.Shard < 1 || opt.Shard > opt.Shards)) {
		return Progress{}, fmt.Errorf("shard %d/%d: want i/n with 1 <= i <= n", opt.Shard, opt.Shards)
	}
	if opt.Shards == 0 {
		opt.Shard, opt.Shards = 1, 1
	}
	if opt.RowGroup <= 0 {
		opt.RowGroup = 1 << 16
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return Progress{}, err
	}
	prefix := fmt.Sprintf("part-%dof%d-", opt.Shard, opt.Shards)
	if err := removeShard(opt.Out, prefix); err != nil {
		return Progress{}, err
	}

	// the shard's files stream from the walk: a million paths are never
	// all in memory. The progress total grows as they are found.
	var p Progress
	walk := func(yield func(library.Entry) bool) {
		for _, in := range inputs {
			walk := library.Paths([]string{in.Path})
			if in.FS != nil {
				walk = library.FSPaths(in.FS, in.Path)
			}
			for e := range walk {
				if e.Kind == library.Skipped || shardOf(in.Path, e.Path, opt.Shards) != opt.Shard {
					continue
				}
				if !yield(e) {
					return
				}
			}
		}
	}

	var st struct {
		files, unreadable, notReplays atomic.Int64
		bytes, written, rows          atomic.Int64
	}
	jobs := make(chan library.Entry)
	errc := make(chan error, workers)
	var fileMu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newSink(opt.Out, fmt.Sprintf("%s%d-", prefix, w), opt.RowGroup, &st.written, &st.rows)
			var err error
			for e := range jobs {
				if err != nil {
					continue // drain after a write error
				}
				var n int64
				var kind fileKind
				var why error
				n, kind, why, err = s.file(e)
				st.bytes.Add(n)
				st.files.Add(1)
				switch kind {
				case unreadableFile, refusedFile:
					st.unreadable.Add(1)
				case notReplay:
					st.notReplays.Add(1)
				}
				if kind != replayFile && opt.File != nil {
					fileMu.Lock()
					opt.File(File{Path: e.Path, Named: e.Named, NotReplay: kind != unreadableFile, Err: why})
					fileMu.Unlock()
				}
			}
			if cerr := s.close(); err == nil {
				err = cerr
			}
			errc <- err
		}()
	}
	snapshot := func() Progress {
		q := p
		q.Files, q.Bytes, q.Written, q.Rows = int(st.files.Load()), st.bytes.Load(), st.written.Load(), st.rows.Load()
		q.Unreadable, q.NotReplays = int(st.unreadable.Load()), int(st.notReplays.Load())
		q.Elapsed = time.Since(start)
		return q
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var ctxErr error
	// the biggest of the next few thousand files first, so the last file to
	// finish is a small one and no worker idles at the end while another
	// decodes a giant
	var ahead bySize
	send := func(e library.Entry) bool {
		for {
			select {
			case jobs <- e:
				return true
			case <-tick.C:
				if opt.Progress != nil {
					opt.Progress(snapshot())
				}
			case <-ctx.Done():
				ctxErr = ctx.Err()
				return false
			}
		}
	}
	stopped := false
	for e := range walk {
		p.Total++
		p.TotalBytes += e.Size
		heap.Push(&ahead, e)
		if ahead.Len() >= sizeWindow && !send(heap.Pop(&ahead).(library.Entry)) {
			stopped = true
			break
		}
	}
	for !stopped && ahead.Len() > 0 {
		stopped = !send(heap.Pop(&ahead).(library.Entry))
	}
	close(jobs)
	wg.Wait()
	close(errc)
	var errs []error
	for err := range errc {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if ctxErr != nil {
		errs = append(errs, ctxErr)
	}
	if len(errs) == 0 {
		errs = append(errs, emptyTables(opt.Out, prefix))
	}
	final := snapshot()
	if opt.Progress != nil {
		opt.Progress(final)
	}
	return final, errors.Join(errs...)
}

// sizeWindow is how many files wait to be sent, biggest first.
const sizeWindow = 4096

// bySize is a heap of entries, the biggest on top.
type bySize []library.Entry

func (h bySize) Len() int           { return len(h) }
func (h bySize) Less(i, j int) bool { return h[i].Size > h[j].Size }
func (h bySize) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *bySize) Push(x any)        { *h = append(*h, x.(library.Entry)) }
func (h *bySize) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// emptyTables writes a file with no rows for each shared table no replay
// gave a row (moments, until a format has game code), so a query over the
// dataset finds every table.
func emptyTables(out, prefix string) error {
	mk := map[string]func(io.Writer) interface{ Close() error }{
		"replays": func(w io.Writer) interface{ Close() error } { return parquet.NewGenericWriter[replayRow](w) },
		"players": func(w io.Writer) interface{ Close() error } { return parquet.NewGenericWriter[playerRow](w) },
		"player_stats": func(w io.Writer) interface{ Close() error } {
			return parquet.NewGenericWriter[playerStatRow](w)
		},
		"moments":     func(w io.Writer) interface{ Close() error } { return parquet.NewGenericWriter[momentRow](w) },
		"events":      func(w io.Writer) interface{ Close() error } { return parquet.NewGenericWriter[eventRow](w) },
		"diagnostics": func(w io.Writer) interface{ Close() error } { return parquet.NewGenericWriter[diagnosticRow](w) },
	}
	for _, table := range Tables {
		if _, err := os.Stat(filepath.Join(out, table)); err == nil {
			continue
		}
		dir := filepath.Join(out, table, "format=none")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(dir, prefix+"empty.parquet"))
		if err != nil {
			return err
		}
		err = mk[table](f).Close()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// shardOf is the 1-based shard a file belongs to: FNV-1a of its path
// relative to the argument it was found under, so machines that mount the
// archive in different places still agree.
func shardOf(root, path string, n int) int {
	if n <= 1 {
		return 1
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." {
		rel = filepath.Base(path)
	}
	h := fnv.New64a()
	io.WriteString(h, filepath.ToSlash(rel))
	return int(h.Sum64()%uint64(n)) + 1
}

// removeShard deletes the files an earlier run of this shard wrote.
func removeShard(out, prefix string) error {
	tables, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if !t.IsDir() {
			continue
		}
		parts, _ := filepath.Glob(filepath.Join(out, t.Name(), "format=*", prefix+"*.parquet"))
		tmps, _ := filepath.Glob(filepath.Join(out, t.Name(), "format=*", "."+prefix+"*"))
		for _, f := range append(parts, tmps...) {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}

type fileKind int

const (
	replayFile     fileKind = iota
	unreadableFile          // could not be read
	refusedFile             // its format's decoder refused it
	notReplay               // no format claims it
)

// sink is one worker's open files, one per table and format.
type sink struct {
	out, prefix string
	rowGroup    int64
	written     *atomic.Int64
	rows        *atomic.Int64
	parts       map[string]*part
	seq         int
}

func newSink(out, prefix string, rowGroup int64, written, rows *atomic.Int64) *sink {
	return &sink{out: out, prefix: prefix, rowGroup: rowGroup, written: written, rows: rows, parts: map[string]*part{}}
}

// part is one Parquet file being written.
type part struct {
	tmp, final string
	f          *os.File
	bw         *bufio.Writer
	w          rowWriter
}

// zstdFast is zstd at its fastest level: a third less CPU than the default
// for files a few percent larger.
var zstdFast = zstd.Codec{Level: zstd.SpeedFastest}

// rowWriter is what both the shared tables' writers and the formats'
// frames writers do.
type rowWriter interface {
	Close() error
}

type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(int64(n))
	return n, err
}

func (s *sink) options() []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&zstdFast),
		parquet.MaxRowsPerRowGroup(s.rowGroup),
		parquet.CreatedBy("rewind", "dev", ""),
	}
}

// open returns the part of a table and format, starting it when new.
func (s *sink) open(table string, format string, mk func(io.Writer) rowWriter) (*part, error) {
	key := table + "/" + format
	if p := s.parts[key]; p != nil {
		return p, nil
	}
	dir := filepath.Join(s.out, table, "format="+format)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s%d.parquet", s.prefix, s.seq)
	s.seq++
	p := &part{final: filepath.Join(dir, name), tmp: filepath.Join(dir, "."+name+".tmp")}
	f, err := os.Create(p.tmp)
	if err != nil {
		return nil, err
	}
	p.f = f
	p.bw = bufio.NewWriterSize(countingWriter{f, s.written}, 256<<10)
	p.w = mk(p.bw)
	s.parts[key] = p
	return p, nil
}

func (s *sink) close() error {
	var errs []error
	for _, p := range s.parts {
		err := p.w.Close()
		if err == nil {
			err = p.bw.Flush()
		}
		if cerr := p.f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(p.tmp, p.final)
		} else {
			os.Remove(p.tmp)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	s.parts = nil
	return errors.Join(errs...)
}

// typed is a shared table's writer.
type typed[T any] struct{ w *parquet.GenericWriter[T] }

func (t *typed[T]) Close() error { return t.w.Close() }

// put writes rows of a shared table.
func put[T any](s *sink, table, format string, rows []T) error {
	if len(rows) == 0 {
		return nil
	}
	p, err := s.open(table, format, func(w io.Writer) rowWriter {
		return &typed[T]{parquet.NewGenericWriter[T](w, s.options()...)}
	})
	if err != nil {
		return err
	}
	t, ok := p.w.(*typed[T])
	if !ok {
		return fmt.Errorf("export: table %s holds another row type", table)
	}
	n, err := t.w.Write(rows)
	s.rows.Add(int64(n))
	return err
}

// frameWriter adapts a format's frames writer.
type frameWriter struct{ w frames.Writer }

func (f frameWriter) Close() error { return f.w.Close() }

// file exports one file: read, hash, decode, and every table's rows. why
// says why a file gave no replay; err is a write error.
func (s *sink) file(e library.Entry) (n int64, kind fileKind, why, err error) {
	path := e.Path
	data, rerr := read(e)
	n = int64(len(data))
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	if rerr != nil {
		row := replayOf(path, filepath.Base(path), "", e.Size, e.ModTime, nil, rerr)
		return n, unreadableFile, rerr, put(s, "replays", "none", []replayRow{row})
	}
	r, derr := decode(data, path)
	format := "none"
	if r != nil {
		format = string(r.Format)
	} else if f, err := decoders.Detect(data, path); err == nil {
		format = string(f.ID) // a replay its decoder refused
		kind = refusedFile
	} else {
		kind = notReplay
	}
	if r == nil {
		why = derr
	}
	row := replayOf(path, filepath.Base(path), hexSum, int64(len(data)), e.ModTime, r, derr)
	if err := put(s, "replays", format, []replayRow{row}); err != nil {
		return n, kind, why, err
	}
	if r == nil {
		return n, kind, why, nil
	}
	r.Path = path
	if err := s.rowsOf(r, format); err != nil {
		return n, kind, why, err
	}
	return n, kind, why, nil
}

func read(e library.Entry) ([]byte, error) {
	if e.Kind != library.File {
		if e.Err != nil {
			return nil, e.Err
		}
		return nil, fmt.Errorf("%s: not a regular file", e.Path)
	}
	if e.FS != nil {
		return fs.ReadFile(e.FS, e.Path)
	}
	if e.Packed {
		// a member of a pack: its bytes as the pack holds them, within
		// the limit the pack sets for it
		return decoders.ReadPacked(e.Path)
	}
	f, err := decoders.OpenRegular(e.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// decode decodes in full; a decoder that panics costs this file only.
func decode(data []byte, path string) (r *model.Replay, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("%s: decoder failed: %v", path, p)
		}
	}()
	return decoders.Decode(data, path, model.DecodeOptions{})
}

// rowsOf writes a decoded replay's players, moments, events, diagnostics
// and frames.
func (s *sink) rowsOf(r *model.Replay, format string) (err error) {
	defer func() {
		// a panic in a format's game code or rows costs this file's rows
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: export failed: %v", r.Path, p)
		}
	}()
	path := r.Path
	sum := library.SummaryOf(r, nil)
	players := make([]playerRow, len(r.Players))
	var stats []playerStatRow
	for i, pl := range r.Players {
		players[i] = playerRow{Path: path, Index: int32(i), Slot: pl.Slot, Name: pl.Name, Code: pl.Code,
			Character: pl.Character, Team: pl.Team, Result: pl.Result}
		if i < len(sum.Players) {
			players[i].Outcome = string(sum.Players[i].Outcome)
			for _, st := range sum.Players[i].Stats {
				stats = append(stats, playerStatRow{Path: path, Player: int32(i), Key: st.Key, Name: st.Name, Value: st.Value})
			}
		}
	}
	if err := put(s, "players", format, players); err != nil {
		return err
	}
	if err := put(s, "player_stats", format, stats); err != nil {
		return err
	}
	tl := &r.Timeline
	if err := put(s, "moments", format, momentRows(r, sum)); err != nil {
		return err
	}
	const batch = 8192
	events := make([]eventRow, 0, min(len(r.Events), batch))
	table := framesOf(r.Format)
	for i := range r.Events {
		kind := r.EventKind(i)
		if table != nil && table.Covers(kind) {
			continue // the frames table has it, typed
		}
		fr, sp := int(r.Events[i].Frame), r.EventSpan(i)
		events = append(events, eventRow{Path: path, Index: int64(i), Frame: tl.Number(fr), Time: tl.Time(fr).Seconds(),
			Player: int32(r.Events[i].Player), Kind: kind, Summary: r.EventSummary(i), Notable: r.EventNotable(i), Flag: r.EventFlag(i),
			Stream: sp.Stream, Offset: sp.Off, Length: sp.Len})
		if len(events) == batch {
			if err := put(s, "events", format, events); err != nil {
				return err
			}
			events = events[:0]
		}
	}
	if err := put(s, "events", format, events); err != nil {
		return err
	}
	diags := make([]diagnosticRow, len(r.Diagnostics))
	for i, d := range r.Diagnostics {
		row := diagnosticRow{Path: path, Index: int32(i), Severity: d.Severity.String(), Source: d.Source,
			Stream: d.Span.Stream, Offset: d.Span.Off, Length: d.Span.Len, Subject: d.Subject, Message: d.Message,
			Expected: d.Expected, Found: d.Found, Skipped: d.Skipped, Text: d.String()}
		if d.Frame >= 0 && d.Frame < tl.Count {
			f := tl.Number(d.Frame)
			row.Frame = &f
		}
		diags[i] = row
	}
	if err := put(s, "diagnostics", format, diags); err != nil {
		return err
	}
	return s.frames(r, format)
}

// framesOf is the format's frames table, nil when it has none.
func framesOf(id model.Format) frames.Table {
	for _, f := range decoders.Formats {
		if f.ID == id {
			return f.Frames
		}
	}
	return nil
}

// frames writes the replay's typed frame rows into its format's table.
func (s *sink) frames(r *model.Replay, format string) error {
	table := framesOf(r.Format)
	if table == nil {
		return nil
	}
	var fw frames.Writer
	p, err := s.open(table.Name(), format, func(w io.Writer) rowWriter {
		fw = table.NewWriter(w, s.options()...)
		return frameWriter{fw}
	})
	if err != nil {
		return err
	}
	fw = p.w.(frameWriter).w
	n, err := fw.Write(r)
	s.rows.Add(n)
	return err
}

// FormatProgress is one line for a terminal: a bar, counts, speed, time left.
func FormatProgress(p Progress, width int) string {
	frac := 0.0
	if p.TotalBytes > 0 {
		frac = float64(p.Bytes) / float64(p.TotalBytes)
	} else if p.Total > 0 {
		frac = float64(p.Files) / float64(p.Total)
	}
	frac = min(max(frac, 0), 1)
	rate := 0.0
	if s := p.Elapsed.Seconds(); s > 0 {
		rate = float64(p.Bytes) / s
	}
	left := ""
	if rate > 0 && frac < 1 {
		secs := float64(p.TotalBytes-p.Bytes) / rate
		left = fmt.Sprintf(" · %s left", (time.Duration(secs) * time.Second).Round(time.Second))
	}
	text := fmt.Sprintf(" %3.0f%% %s/%s files · %s read · %s written · %s/s%s",
		frac*100, model.FormatCount(int64(p.Files)), model.FormatCount(int64(p.Total)),
		mb(p.Bytes), mb(p.Written), mb(int64(rate)), left)
	barW := max(width-len([]rune(text))-2, 10)
	done := int(frac * float64(barW))
	return "[" + strings.Repeat("=", done) + strings.Repeat(" ", barW-done) + "]" + text
}

func mb(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
}

// momentRows are the moments an archive searches (the summary's records,
// what rewind moments lists: every slippi-js combo and conversion, each
// build and death), with the summary line and the bytes of the game
// analysis's moment where one stands at the same place.
func momentRows(r *model.Replay, sum *library.Summary) []momentRow {
	type at struct {
		kind   model.MomentKind
		frame  int64
		by, on int
	}
	tl := &r.Timeline
	full := map[at]*model.Moment{}
	ms := r.Analysis().Moments
	for i := range ms {
		m := &ms[i]
		full[at{m.Kind, tl.Number(m.Frame), m.By, m.On}] = m
	}
	rows := make([]momentRow, 0, len(sum.Moments))
	for i, m := range sum.Moments {
		row := momentRow{Path: r.Path, Index: int32(i), Kind: string(m.Kind), Frame: m.Frame, End: m.End, Time: m.Time, EndTime: m.EndTime,
			By: int32(m.By), On: int32(m.On), Damage: m.Facts.Damage, Hits: int32(m.Facts.Hits), Kill: m.Facts.Kill,
			Move: m.Facts.Move, StartPercent: m.Facts.StartPercent, EndPercent: m.Facts.EndPercent}
		if a := full[at{m.Kind, m.Frame, m.By, m.On}]; a != nil {
			row.Summary, row.Stream, row.Offset, row.Length = a.Summary, a.Span.Stream, a.Span.Off, a.Span.Len
		}
		rows = append(rows, row)
	}
	return rows
}
