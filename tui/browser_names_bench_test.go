package tui

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"rewind/internal/cputime"
	"rewind/library"
	"rewind/model"
)

// Real archives name files unlike the million synthetic rows: a test
// archive's files are numbered copies of a few hundred stems that share
// long starts ("test_replays__1.3.1.18221__1v1_Metalopol_0634.SC2Replay"),
// and each name is there several times, in different folders (hard
// links). A name sort reads far past the first sixteen bytes for most
// rows, and ends in runs of equal names.

// realNamesFile lists a million paths of such an archive, one a line,
// when it is there (it is not committed: made from a test archive).
const realNamesFile = "/tmp/million_paths.txt"

// namedRows is a store of a row for each path, dated and sized by its
// line number.
func namedRows(paths []string) (*library.Store, []library.RowID) {
	s := library.NewStore()
	ids := make([]library.RowID, 0, len(paths))
	for i, p := range paths {
		h := library.Header{Path: "/tmp/million/" + p, Kind: library.File, Format: model.Format("sc2"),
			Start: time.Unix(int64(1_600_000_000+i*7919%1_000_000), 0), Size: int64(i)}
		ids = append(ids, s.Put(&h))
	}
	return s, ids
}

var realNameRows = sync.OnceValues(func() (*library.Store, []library.RowID) {
	f, err := os.Open(realNamesFile)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	var paths []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		paths = append(paths, sc.Text())
	}
	return namedRows(paths)
})

// repeatedNamePaths are a million paths shaped like the real archive's:
// 1334 folders of 750 files, file k of a folder a copy of stem s's k-th
// (215 stems sharing long starts, so 161,250 names, each about six
// times).
func repeatedNamePaths() []string {
	var stems []string
	words := []string{"1v1_Metalopol", "Froadac_vs_Ba", "24557", "IceNine_vs_nu", "Sand Canyon (", "3v3_Colony 42", "UnknownEvent_", "Azure_vs_Bill"}
	for v := range 12 {
		for _, w := range words {
			stems = append(stems, fmt.Sprintf("test_replays__1.%d.%d.%d__%s", v/4, v%4, 16195+v*377, w))
		}
	}
	for v := range 20 {
		stems = append(stems, fmt.Sprintf("test_replays__%d.%d.0__%d", 2+v/5, v%5, v))
	}
	stems = append(stems, "Starcraft2.ReplayParser.Tests__Replays__")
	for v := range 24 {
		stems = append(stems, fmt.Sprintf("s2protocol.NET.tests__replays__test%d", v))
	}
	for v := range 36 {
		stems = append(stems, fmt.Sprintf("evaluation__usability__replays__%d__%d@%03x", v/6, v%6, v*2731%4096))
	}
	for v := range 38 {
		stems = append(stems, fmt.Sprintf("tests__data__v3.%d", v))
	}
	exts := []string{".SC2Replay", ".slp", ".bsor", ".teehistorian"}
	paths := make([]string, 0, 1334*750)
	for f := range 1334 {
		dir := fmt.Sprintf("./%d/%02d/%02d/", 2019+f/365, f/28%12+1, f%28+1)
		for k := range 750 {
			s := (f*7919 + k*104729) % len(stems)
			paths = append(paths, fmt.Sprintf("%s%s_%04d%s", dir, stems[s], k, exts[s%len(exts)]))
		}
	}
	return paths
}

var repeatedNameRows = sync.OnceValues(func() (*library.Store, []library.RowID) {
	return namedRows(repeatedNamePaths())
})

func benchNameSort(b *testing.B, s *library.Store, ids []library.RowID) {
	for _, desc := range []bool{false, true} {
		b.Run(map[bool]string{false: "asc", true: "desc"}[desc], func(b *testing.B) {
			cpu := cputime.Used()
			for range b.N {
				if out, _ := sortRows(context.Background(), s, ids, order{colFile, desc}, newWhatCache()); len(out) != len(ids) {
					b.Fatal(len(out))
				}
			}
			b.ReportMetric(float64((cputime.Used()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkBrowserSortRealNames is a sort by file name over the real
// archive's million paths (skipped when the list is not there).
func BenchmarkBrowserSortRealNames(b *testing.B) {
	s, ids := realNameRows()
	if s == nil {
		b.Skip(realNamesFile, " is not there")
	}
	benchNameSort(b, s, ids)
}

// BenchmarkBrowserSortRepeatedNames is a sort by file name over a million
// paths shaped like the real archive's (long shared starts, each name
// several times).
func BenchmarkBrowserSortRepeatedNames(b *testing.B) {
	s, ids := repeatedNameRows()
	benchNameSort(b, s, ids)
}
