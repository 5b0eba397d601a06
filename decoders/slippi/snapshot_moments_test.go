package slippi

import (
	"encoding/binary"
	"os"
	"testing"

	"rewind/model"
)

// TestSnapshotPunishesGoOn: in every snapshot of a game being recorded, a
// punish that is still going on (its end in the whole game is after the
// snapshot's last frame) ends at the snapshot's last frame, never at its
// own start: a consumer of live moments (rewind follow) takes a record
// whose end is well behind the game for one that is over. slippi-js's
// latest frame can be one the snapshot does not hold yet, and the end
// once fell back to the start there. The games, fed 16 KiB at a time with
// the raw length 0 as Dolphin writes them: the samples with punishes, and
// a netplay game of the corpus when it is here.
func TestSnapshotPunishesGoOn(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"tests__data__v3.16.slp", "tests__data__ics.slp"} {
		files[name] = samples(t)[name]
	}
	if p := replayFile(t, "PMcca__go-slippi/replays__netplay-online.slp"); p != "" {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files["netplay-online.slp"] = b
	}
	for name, data := range files {
		whole, err := Decode(data, model.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		type key struct {
			kind   model.MomentKind
			frame  int64
			by, on int
		}
		final := map[key]int64{}
		for _, m := range Summarize(whole).Moments {
			final[key{m.Kind, m.Frame, m.By, m.On}] = m.End
		}
		live := append([]byte(nil), data...)
		binary.BigEndian.PutUint32(live[11:], 0)
		f := Follow(model.DecodeOptions{})
		open := 0
		for at := 16 << 10; at < len(live); at += 16 << 10 {
			f.Feed(live[:at])
			r := f.Replay()
			if r == nil || r.Timeline.Count == 0 {
				continue
			}
			last := r.Timeline.Number(r.Timeline.Count - 1)
			for _, m := range Summarize(r).Moments {
				if m.Kind != model.MomentConversion && m.Kind != model.MomentCombo {
					continue
				}
				end, ok := final[key{m.Kind, m.Frame, m.By, m.On}]
				if !ok || end <= last {
					continue // over by this snapshot
				}
				open++
				if m.End != last {
					t.Errorf("%s at byte %d (last frame %d): the %s from frame %d, which goes on to %d, ends at %d", name, at, last, m.Kind, m.Frame, end, m.End)
				}
			}
		}
		if open == 0 {
			t.Errorf("%s: no snapshot caught a punish going on", name)
		}
	}
}
