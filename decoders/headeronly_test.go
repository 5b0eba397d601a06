package decoders

// A header-only decode is what `rewind info`, `find` and the browser show
// for a file, so it must say what a full decode says about the header:
// format, version, date, title, mode, duration, result and players, and
// the timeline's length, first frame and rate (BSOR's header read takes
// the count and each frame's FPS from the frames section, skipping the
// poses).

import (
	"reflect"
	"testing"

	"rewind/decoders/internal/corpus"
	"rewind/model"
)

// headerView is what a listing takes from a replay.
type headerView struct {
	Format, FormatName, Version, Title, Mode, Result string
	Start                                            string
	Duration                                         string
	Players                                          []model.Player
}

func viewOf(r *model.Replay) headerView {
	v := headerView{Format: string(r.Format), FormatName: r.FormatName, Version: r.Version, Title: r.Title,
		Mode: r.Mode, Result: r.Result, Start: r.Start.String(), Duration: r.Duration.String()}
	for _, p := range r.Players {
		v.Players = append(v.Players, model.Player{Slot: p.Slot, Name: p.Name, Code: p.Code,
			Character: p.Character, Team: p.Team, Result: p.Result})
	}
	return v
}

// testFile is a replay's bytes, named by where they came from.
type testFile struct {
	name string
	data []byte
}

// testFiles are the samples, each also cut to each percentage of cuts
// (records cut off, sections missing, no end), and the corpus's replays
// when it is here.
func testFiles(t *testing.T, cuts ...int) []testFile {
	var files []testFile
	for _, s := range samples(t) {
		files = append(files, testFile{"samples/" + s.name, s.data})
		for _, k := range cuts {
			files = append(files, testFile{"samples/" + s.name + " cut", s.data[:len(s.data)*k/100]})
		}
	}
	if root, ok := corpus.Shared(t); ok {
		for _, s := range replaysUnder(root) {
			files = append(files, testFile{"corpus/" + s.name, s.data})
		}
	} else {
		t.Logf("%s: compared on the samples only", corpus.NotFound)
	}
	return files
}

func TestHeaderOnlyAgreesWithFullDecode(t *testing.T) {
	files := testFiles(t)
	compared, counted := 0, 0
	for _, f := range files {
		full, err := Decode(f.data, f.name, model.DecodeOptions{})
		if err != nil || full.Problems() > 0 || full.Partial {
			continue // a damaged file's header read may stop sooner or later than the full one
		}
		head, err := Decode(f.data, f.name, model.DecodeOptions{HeaderOnly: true})
		if err != nil {
			t.Errorf("%s: full decode is clean, header-only read refused: %v", f.name, err)
			continue
		}
		compared++
		if got, want := viewOf(head), viewOf(full); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: header-only read\n%+v\nfull decode\n%+v", f.name, got, want)
		}
		if n := head.Timeline.Count; n != 0 {
			counted++
			if n != full.Timeline.Count || head.Timeline.First != full.Timeline.First || head.Timeline.Rate != full.Timeline.Rate {
				t.Errorf("%s: header-only timeline %d frames from %d at %g/s, full decode %d from %d at %g/s", f.name,
					n, head.Timeline.First, head.Timeline.Rate, full.Timeline.Count, full.Timeline.First, full.Timeline.Rate)
			}
		} else if full.Timeline.Count > 0 {
			t.Errorf("%s: the header-only read states no length; the full decode has %d frames", f.name, full.Timeline.Count)
		}
	}
	t.Logf("%d clean files compared, %d with the timeline's length from the header", compared, counted)
	if compared == 0 {
		t.Fatal("no clean file to compare")
	}
}
