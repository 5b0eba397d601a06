package export

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"rewind/decoders"
	"rewind/decoders/bsor"
	"rewind/decoders/fzgx"
	"rewind/decoders/sc2"
	"rewind/decoders/slippi"
	"rewind/decoders/teehistorian"
	"rewind/internal/cputime"
	"rewind/model"
)

const samples = "../../testdata/samples"

var (
	once    sync.Once
	dataset string
	exp     Progress
	expErr  error
)

// export writes the samples once for all the tests that read them back.
func exportSamples(t *testing.T) string {
	t.Helper()
	once.Do(func() {
		dir, err := os.MkdirTemp("", "rewind-export-*")
		if err != nil {
			expErr = err
			return
		}
		dataset = dir
		exp, expErr = Export(context.Background(), []Input{{Path: samples}}, Options{Out: dir, RowGroup: 1000})
	})
	if expErr != nil {
		t.Fatal(expErr)
	}
	return dataset
}

func TestMain(m *testing.M) {
	code := m.Run()
	if dataset != "" {
		os.RemoveAll(dataset)
	}
	os.Exit(code)
}

// readTable reads every part of a table (all formats, or one) with parquet-go.
func readTable[T any](t *testing.T, dir, table, format string) []T {
	t.Helper()
	if format == "" {
		format = "*"
	}
	files, _ := filepath.Glob(filepath.Join(dir, table, "format="+format, "*.parquet"))
	var out []T
	for _, f := range files {
		rows, err := parquet.ReadFile[T](f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, rows...)
	}
	return out
}

// decoded is every sample decoded in full, by path, as dump reads them.
func decoded(t *testing.T) map[string]*model.Replay {
	t.Helper()
	out := map[string]*model.Replay{}
	filepath.WalkDir(samples, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !decoders.HasReplayExt(p) {
			return nil
		}
		r, _ := decoders.Open(p, model.DecodeOptions{})
		out[p] = r
		return nil
	})
	return out
}

func TestExportReplays(t *testing.T) {
	dir := exportSamples(t)
	reps := decoded(t)
	rows := readTable[replayRow](t, dir, "replays", "")
	if len(rows) != len(reps) || exp.Files != len(reps) {
		t.Fatalf("%d rows, %d files exported, %d samples", len(rows), exp.Files, len(reps))
	}
	for _, row := range rows {
		r := reps[row.Path]
		data, _ := os.ReadFile(row.Path)
		sum := sha256.Sum256(data)
		if row.SHA256 != hex.EncodeToString(sum[:]) || row.Size != int64(len(data)) {
			t.Errorf("%s: sha256 %s size %d", row.Path, row.SHA256, row.Size)
		}
		if r == nil {
			if row.Error == "" {
				t.Errorf("%s: no error for a file that does not decode", row.Path)
			}
			continue
		}
		want := replayOf(row.Path, filepath.Base(row.Path), row.SHA256, row.Size, row.Modified, r, nil)
		if row.Start != nil {
			// parquet keeps milliseconds
			if want.Start == nil || want.Start.Sub(*row.Start).Abs().Milliseconds() > 0 {
				t.Errorf("%s: start %v, want %v", row.Path, row.Start, want.Start)
			}
			row.Start, want.Start = nil, nil
		}
		row.Modified, want.Modified = want.Modified, row.Modified
		if !reflect.DeepEqual(row, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", row.Path, row, want)
		}
	}
	// each file sits in its format's partition
	for _, f := range decoders.Formats {
		for _, row := range readTable[replayRow](t, dir, "replays", string(f.ID)) {
			if r := reps[row.Path]; r != nil && r.Format != f.ID {
				t.Errorf("%s is %s, in format=%s", row.Path, r.Format, f.ID)
			}
		}
	}
}

func TestExportPlayersEventsDiagnostics(t *testing.T) {
	dir := exportSamples(t)
	reps := decoded(t)
	players := readTable[playerRow](t, dir, "players", "")
	events := readTable[eventRow](t, dir, "events", "")
	diags := readTable[diagnosticRow](t, dir, "diagnostics", "")
	np, ne, nd := 0, 0, 0
	for _, r := range reps {
		if r == nil {
			continue
		}
		np, nd = np+len(r.Players), nd+len(r.Diagnostics)
		for i := range r.Events {
			// the events a frames table holds typed are left out
			if t := framesOf(r.Format); t == nil || !t.Covers(r.EventKind(i)) {
				ne++
			}
		}
	}
	if len(players) != np || len(events) != ne || len(diags) != nd {
		t.Fatalf("players %d/%d events %d/%d diagnostics %d/%d", len(players), np, len(events), ne, len(diags), nd)
	}
	for _, p := range players {
		want := reps[p.Path].Players[p.Index]
		if p.Name != want.Name || p.Character != want.Character || p.Code != want.Code || p.Slot != want.Slot || p.Team != want.Team {
			t.Errorf("%s player %d: %+v, want %+v", p.Path, p.Index, p, want)
		}
	}
	// every event: the summary and the bytes dump shows
	for _, e := range events {
		r := reps[e.Path]
		ev, sp := &r.Events[e.Index], r.EventSpan(int(e.Index))
		if e.Summary != r.EventSummary(int(e.Index)) || e.Kind != r.EventKind(int(e.Index)) || e.Frame != r.Timeline.Number(int(ev.Frame)) ||
			e.Offset != sp.Off || e.Length != sp.Len || e.Stream != sp.Stream || e.Player != int32(ev.Player) {
			t.Fatalf("%s event %d: %+v", e.Path, e.Index, e)
		}
	}
	for _, d := range diags {
		want := reps[d.Path].Diagnostics[d.Index]
		if d.Text != want.String() || d.Severity != want.Severity.String() || d.Offset != want.Span.Off {
			t.Errorf("%s diagnostic %d: %q, want %q", d.Path, d.Index, d.Text, want.String())
		}
	}
	if len(readTable[momentRow](t, dir, "moments", "")) != 0 {
		// no format has game code yet; when one does, compare here
		t.Log("moments exported")
	}
}

// values flattens a state's fields the way dump writes them: group/key.
func values(fs []model.Field, prefix string, out map[string]any) {
	for _, f := range fs {
		k := prefix + f.Key
		if f.Value != nil {
			out[k] = f.Value
		}
		values(f.Fields, k+".", out)
	}
}

// same compares an exported value with dump's: floats were float32 in the
// file (dump shows their shortest decimal form), integers are integers.
func same(got any, want any) bool {
	g := reflect.ValueOf(got)
	switch w := want.(type) {
	case time.Duration:
		// a time in seconds; dump's is the same float32 cut to nanoseconds
		return g.CanFloat() && math.Abs(g.Float()-w.Seconds()) < 1e-6
	case float64:
		var f float64
		switch g.Kind() {
		case reflect.Float32:
			return float32(w) == float32(g.Float()) || math.IsNaN(w) && math.IsNaN(g.Float())
		case reflect.Float64:
			f = g.Float()
		default:
			return false
		}
		return f == w || math.IsNaN(w) && math.IsNaN(f)
	case int64:
		switch g.Kind() {
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return g.Int() == w
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return int64(g.Uint()) == w
		}
	case uint64:
		switch g.Kind() {
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return g.Uint() == w
		}
	case bool:
		return g.Kind() == reflect.Bool && g.Bool() == w
	case string:
		return g.Kind() == reflect.String && g.String() == w
	}
	return false
}

// fieldsOf maps a row struct's parquet column names (group.key) to values.
func fieldsOf(v reflect.Value, prefix string, out map[string]any) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("parquet"), ",")
		f := v.Field(i)
		if f.Kind() == reflect.Struct || f.Kind() == reflect.Pointer {
			fieldsOf(f, prefix+name+".", out)
			continue
		}
		out[prefix+name] = f.Interface()
	}
}

// compareState checks that every value dump shows for the state is in the
// row, equal, unless skip says the row leaves it out (a value the row
// holds elsewhere, or one not part of the table).
func compareState(t *testing.T, what string, row any, state map[string]any, rename map[string]string, skip func(key string) bool) {
	t.Helper()
	got := map[string]any{}
	fieldsOf(reflect.ValueOf(row), "", got)
	col := map[string]string{} // dump's key -> the row's column
	for k := range got {
		if r, ok := rename[k]; ok {
			col[r] = k
		} else {
			col[k] = k
		}
	}
	n := 0
	for k, w := range state {
		c, ok := col[k]
		if !ok {
			if skip == nil || !skip(k) {
				t.Errorf("%s: dump shows %s = %v, the row has no such column", what, k, w)
			}
			continue
		}
		n++
		if !same(got[c], w) {
			t.Errorf("%s: %s = %v, dump has %v", what, c, got[c], w)
		}
	}
	if n == 0 {
		t.Errorf("%s: nothing compared (%v vs %v)", what, got, state)
	}
}

func TestExportSlippiFrames(t *testing.T) {
	dir := exportSamples(t)
	reps := decoded(t)
	rows := readTable[slippi.FrameRow](t, dir, "frames_slippi", "slippi")
	per := map[string]int{}
	for i, row := range rows {
		per[row.Path]++
		if i%7 != 0 { // a seventh of the rows, spread over every file, is plenty
			continue
		}
		r := reps[row.Path]
		st := r.PlayerState(int(row.FrameIndex), int(row.Player))
		state := map[string]any{}
		fs := st.Fields
		if row.IsFollower {
			for _, f := range st.Fields {
				if f.Key == "follower" {
					fs = f.Fields
				}
			}
		}
		values(fs, "", state)
		if r.Timeline.Number(int(row.FrameIndex)) != int64(row.Frame) {
			t.Fatalf("%s: frame %d at index %d", row.Path, row.Frame, row.FrameIndex)
		}
		compareState(t, fmt.Sprintf("%s frame %d port %d", filepath.Base(row.Path), row.Frame, row.Port), row, state, nil, func(k string) bool {
			// the row's own columns say these; a follower's state is its own
			// row; bytes past the spec's fields (a newer recorder's) are not exported
			_, leaf, _ := strings.Cut(k, ".")
			return leaf == "frameNumber" || leaf == "playerIndex" || leaf == "isFollower" || leaf == "extra" || strings.HasPrefix(k, "follower.")
		})
	}
	// peppi tests/peppi.rs:300-318: ics.slp has 344 frames of Popo and 344 of Nana on port 0
	ics, leader, follower := filepath.Join(samples, "slippi", "tests__data__ics.slp"), 0, 0
	for _, row := range rows {
		if row.Path == ics && row.Port == 0 {
			if row.IsFollower {
				follower++
			} else {
				leader++
			}
		}
	}
	if leader != 344 || follower != 344 {
		t.Errorf("ics.slp port 0: %d leader rows, %d follower rows; peppi's test says 344 and 344", leader, follower)
	}
	if len(per) < 8 {
		t.Errorf("frames of only %d Slippi files", len(per))
	}
}

func TestExportOtherFrames(t *testing.T) {
	dir := exportSamples(t)
	reps := decoded(t)
	for _, row := range readTable[bsor.FrameRow](t, dir, "frames_bsor", "bsor") {
		state := map[string]any{}
		values(reps[row.Path].PlayerState(int(row.FrameIndex), 0).Fields, "", state)
		compareState(t, fmt.Sprintf("%s frame %d", filepath.Base(row.Path), row.FrameIndex), row, state,
			map[string]string{"rawTime": "timeFlag"}, func(k string) bool {
				// the running tallies the view shows besides the score
				switch k {
				case "maxScore", "maxCombo", "missedNotes", "badCuts", "bombHits", "wallHits", "misses", "timeFlag":
					return true
				}
				return false
			})
	}
	for _, row := range readTable[fzgx.FrameRow](t, dir, "frames_fzgx", "fzgx") {
		state := map[string]any{}
		values(reps[row.Path].PlayerState(int(row.FrameIndex), int(row.Player)).Fields, "", state)
		compareState(t, fmt.Sprintf("%s frame %d", filepath.Base(row.Path), row.FrameIndex), row, state, nil, nil)
	}
	tee := readTable[teehistorian.FrameRow](t, dir, "frames_teehistorian", "teehistorian")
	for _, row := range tee {
		state := map[string]any{}
		st := reps[row.Path].PlayerState(int(row.Tick), int(row.Player))
		values(st.Fields, "", state)
		if !st.Present {
			t.Errorf("%s tick %d: a row for a client not connected", row.Path, row.Tick)
		}
		compareState(t, fmt.Sprintf("%s tick %d", filepath.Base(row.Path), row.Tick), row, state, nil, func(k string) bool {
			// who the client is (the players table) and its connection
			switch k {
			case "present", "name", "clan", "skin", "country", "team", "setTeam", "ddnetVersion", "protocol", "authLevel", "authName", "ready", "timeout", "version":
				return true
			}
			return false
		})
	}
	stats := readTable[sc2.StatsRow](t, dir, "frames_sc2", "sc2")
	for _, row := range stats {
		r := reps[row.Path]
		var ev int = -1
		for i := range r.Events {
			if r.EventKind(i) == "stats" && int(r.Events[i].Frame) == int(row.Loop) && int(r.Events[i].Player) == int(row.Player) {
				ev = i
			}
		}
		if ev < 0 {
			t.Fatalf("%s loop %d: no stats event", row.Path, row.Loop)
		}
		state := map[string]any{}
		values(r.EventFields(ev), "", state)
		rename := map[string]string{"playerId": "playerId"}
		got := map[string]any{}
		fieldsOf(reflect.ValueOf(row), "", got)
		for k := range got {
			if strings.HasPrefix(k, "scoreValue") {
				rename[k] = "stats." + k
			}
		}
		compareState(t, fmt.Sprintf("%s loop %d", filepath.Base(row.Path), row.Loop), row, state, rename, func(k string) bool {
			return k == "event" || k == "gameloop" || k == "stats" // the loop is the row's; stats is the group
		})
	}
	if len(tee) == 0 || len(stats) == 0 {
		t.Errorf("teehistorian rows %d, sc2 rows %d", len(tee), len(stats))
	}
}

// TestShards: three shards into one folder make the whole dataset, each
// file in exactly one; a shard run again replaces only its own files.
func TestShards(t *testing.T) {
	dir := t.TempDir()
	var all []string
	for i := 1; i <= 3; i++ {
		if _, err := Export(context.Background(), []Input{{Path: samples}}, Options{Out: dir, Shard: i, Shards: 3}); err != nil {
			t.Fatal(err)
		}
	}
	for _, row := range readTable[replayRow](t, dir, "replays", "") {
		all = append(all, row.Path)
	}
	sort.Strings(all)
	reps := decoded(t)
	if len(all) != len(reps) {
		t.Fatalf("%d rows for %d files", len(all), len(reps))
	}
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			t.Errorf("%s exported twice", all[i])
		}
	}
	before := len(readTable[eventRow](t, dir, "events", ""))
	if _, err := Export(context.Background(), []Input{{Path: samples}}, Options{Out: dir, Shard: 2, Shards: 3}); err != nil {
		t.Fatal(err)
	}
	if got := len(readTable[eventRow](t, dir, "events", "")); got != before {
		t.Errorf("after rerunning shard 2: %d events, before %d", got, before)
	}
	// a shard is the same wherever the archive is mounted
	if shardOf("/mnt/a", "/mnt/a/x/g.slp", 7) != shardOf("/srv/b", "/srv/b/x/g.slp", 7) {
		t.Error("shard depends on the mount point")
	}
	if _, err := Export(context.Background(), nil, Options{Out: dir, Shard: 4, Shards: 3}); err == nil {
		t.Error("shard 4/3 accepted")
	}
}

// TestExportBadFiles: a file no decoder claims and an empty file are
// listed with their reason; nothing else is written for them.
func TestExportBadFiles(t *testing.T) {
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "zip.slp"), []byte("PK\x03\x04zipzipzip"), 0o644)
	os.WriteFile(filepath.Join(src, "empty.slp"), nil, 0o644)
	os.WriteFile(filepath.Join(src, "cut.slp"), []byte("{U\x03raw[$U#l\x00\x00\x10\x00\x35"), 0o644)
	dir := t.TempDir()
	p, err := Export(context.Background(), []Input{{Path: src}}, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	rows := readTable[replayRow](t, dir, "replays", "")
	if len(rows) != 3 || p.NotReplays != 2 {
		t.Fatalf("%d rows, %+v", len(rows), p)
	}
	for _, row := range rows {
		if row.Error == "" && row.Name != "cut.slp" {
			t.Errorf("%s: no error", row.Name)
		}
	}
	if n := len(readTable[eventRow](t, dir, "events", "none")); n != 0 {
		t.Errorf("%d events for files that are no replays", n)
	}
}

// BenchmarkExport and BenchmarkCheck decode the same files (the corpus, or
// the samples without it): export over check is the cost of the tables.
func BenchmarkExport(b *testing.B) {
	in := benchInput(b)
	var bytes int64
	cpu := cputime.Used()
	for range b.N {
		p, err := Export(context.Background(), []Input{{Path: in}}, Options{Out: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		bytes = p.Bytes
	}
	b.SetBytes(bytes)
	reportCPU(b, cpu, bytes)
}

// reportCPU adds the CPU time per run and the MB a CPU-second handles: on
// a machine other work shares, these say more than the wall clock.
func reportCPU(b *testing.B, start time.Duration, bytes int64) {
	cpu := (cputime.Used() - start).Seconds() / float64(b.N)
	if cpu > 0 {
		b.ReportMetric(cpu, "cpu-s/op")
		b.ReportMetric(float64(bytes)/1e6/cpu, "MB/cpu-s")
	}
}

func BenchmarkCheck(b *testing.B) {
	in := benchInput(b)
	var files []string
	var bytes int64
	filepath.WalkDir(in, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, ".tsv") {
			files = append(files, p)
			if st, err := d.Info(); err == nil {
				bytes += st.Size()
			}
		}
		return nil
	})
	b.SetBytes(bytes)
	cpu := cputime.Used()
	defer func() { reportCPU(b, cpu, bytes) }()
	for range b.N {
		// as `rewind check` does: every file decoded in full, on all cores
		var wg sync.WaitGroup
		ch := make(chan string)
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for p := range ch {
					decoders.Open(p, model.DecodeOptions{})
				}
			}()
		}
		for _, f := range files {
			ch <- f
		}
		close(ch)
		wg.Wait()
	}
}

func benchInput(b *testing.B) string {
	if d := os.Getenv("REWIND_EXPORT_DIR"); d != "" {
		return d
	}
	if _, err := os.Stat("../../../shared/corpus"); err == nil {
		return "../../../shared/corpus"
	}
	return samples
}
